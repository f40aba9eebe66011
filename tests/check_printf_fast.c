/* The numbers cairo writes (render/printf_fast.c): every digit the fast
 * formatter writes must be the digit glibc's printf writes, for every
 * double and precision it takes on, and what it does not take on must
 * still come out as glibc's.  glibc's own vsnprintf is the reference. */
#include <check.h>
#include <float.h>
#include <glib.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_run.h"
#include "render/printf_fast.h"

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, ...);

/* Test numbers only, not the product's dice: splitmix64. */
static uint64_t next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void glibc(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

/* Compares one number at one precision; returns false (and says which)
 * when the two differ. */
static bool same(double x, int prec)
{
    char fast[64], ref[512];
    int len = ucr_format_fixed(fast, x, prec);
    if (len < 0)
        return true;   /* glibc's to do: checked by the caller */
    glibc(ref, sizeof ref, "%.*f", prec, x);
    if (strcmp(fast, ref) != 0 || len != (int)strlen(ref)) {
        fprintf(stderr, "%a at %d: fast \"%s\", glibc \"%s\"\n", x, prec, fast, ref);
        return false;
    }
    return true;
}

START_TEST(random_bits_at_every_precision)
{
    /* Any double whose value fits: random mantissas over every exponent
     * the fast path takes (subnormals to 2^63), both signs. */
    uint64_t st = 12345;
    int bad = 0;
    for (int i = 0; i < 400000 && bad < 5; i++) {
        uint64_t b = next(&st);
        int exp = (int)(next(&st) % 1087);  /* biased exponents 0 .. 1086: below 2^63 */
        b = (b & 0x800fffffffffffffULL) | ((uint64_t)exp << 52);
        double x;
        memcpy(&x, &b, sizeof x);
        int prec = (int)(next(&st) % 20);
        bad += !same(x, prec);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(cairo_numbers)
{
    /* What cairo writes: page coordinates in eighths to thousandths of a
     * point, colours, small offsets at "%.18f", glyph positions. */
    uint64_t st = 99;
    int bad = 0;
    for (int i = 0; i < 300000 && bad < 5; i++) {
        double scale = (double)(1u << (next(&st) % 14));
        double x = (double)(int64_t)(next(&st) % 2000000 - 1000000) / scale;
        double y = (double)(next(&st) % 1000000) / 1e6 - 0.5;   /* not a binary fraction */
        bad += !same(x, 6) + !same(y, 6) + !same(y, 18) + !same(x / 1000.0, 18);
        bad += !same(y * 1e-9, 18) + !same(x, 3) + !same(y, 2);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(ties_round_to_even)
{
    /* Exact halves at the last digit: glibc rounds them to even. */
    static const struct { double x; int prec; const char *want; } t[] = {
        { 0.5, 0, "0" },      { 1.5, 0, "2" },      { 2.5, 0, "2" },       { -2.5, 0, "-2" },
        { 0.125, 2, "0.12" }, { 0.375, 2, "0.38" }, { 1.0625, 3, "1.062" }, { -0.0, 6, "-0.000000" },
        { -1e-9, 6, "-0.000000" }, { 0.0, 18, "0.000000000000000000" },
        { 841.889764, 6, "841.889764" }, { 9223372036854774784.0, 0, "9223372036854774784" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
        char out[64];
        ck_assert_int_ge(ucr_format_fixed(out, t[i].x, t[i].prec), 0);
        ck_assert_str_eq(out, t[i].want);
        ck_assert(same(t[i].x, t[i].prec));
    }
    /* Every tie k/2^n at every precision up to 19. */
    for (int n = 1; n <= 30; n++)
        for (int k = -70; k <= 70; k += 1)
            for (int prec = 0; prec <= 19; prec++)
                ck_assert(same(ldexp(2 * k + 1, -n), prec));
    /* The extremes it still takes: the smallest subnormal, just under 2^63. */
    ck_assert(same(DBL_TRUE_MIN, 19));
    ck_assert(same(-DBL_MIN, 19));
    ck_assert(same(nextafter(0x1p63, 0), 19));
}
END_TEST

START_TEST(what_it_leaves_to_glibc)
{
    char out[64];
    ck_assert_int_eq(ucr_format_fixed(out, NAN, 6), -1);
    ck_assert_int_eq(ucr_format_fixed(out, INFINITY, 6), -1);
    ck_assert_int_eq(ucr_format_fixed(out, 0x1p63, 6), -1);
    ck_assert_int_eq(ucr_format_fixed(out, 1.0, 20), -1);
    ck_assert_int_eq(ucr_format_fixed(out, 1.0, -1), -1);
}
END_TEST

/* The interposed __snprintf_chk: the same string and return value as
 * glibc's for the formats it takes, truncation included, and glibc's own
 * result for everything else (which it must pass through untouched). */
START_TEST(snprintf_chk_is_snprintf)
{
    char fast[64], ref[64];
    static const size_t sizes[] = { 64, 5, 1, 0 };
    for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
        size_t n = sizes[k];
        memset(fast, 'x', sizeof fast);
        memset(ref, 'x', sizeof ref);
        ck_assert_int_eq(__snprintf_chk(fast, n, 1, sizeof fast, "%f", -123.456), 11);
        glibc(ref, n, "%f", -123.456);
        ck_assert_mem_eq(fast, ref, sizeof fast);
        ck_assert_int_eq(__snprintf_chk(fast, n, 1, sizeof fast, "%.*f", 3, 0.0625), 5);
        glibc(ref, n, "%.*f", 3, 0.0625);
        ck_assert_mem_eq(fast, ref, sizeof fast);
        ck_assert_int_eq(__snprintf_chk(fast, n, 1, sizeof fast, "%.18f", 0.05), 20);
        glibc(ref, n, "%.18f", 0.05);
        ck_assert_mem_eq(fast, ref, sizeof fast);
        ck_assert_int_eq(__snprintf_chk(fast, n, 1, sizeof fast, "%d", INT_MIN), 11);
        glibc(ref, n, "%d", INT_MIN);
        ck_assert_mem_eq(fast, ref, sizeof fast);
    }
    /* Formats and numbers it does not take. */
    __snprintf_chk(fast, sizeof fast, 1, sizeof fast, "%f", NAN);
    ck_assert_str_eq(fast, "nan");
    __snprintf_chk(fast, sizeof fast, 1, sizeof fast, "%f", -INFINITY);
    ck_assert_str_eq(fast, "-inf");
    __snprintf_chk(fast, sizeof fast, 1, sizeof fast, "%.*f", 25, 0.1);
    glibc(ref, sizeof ref, "%.*f", 25, 0.1);
    ck_assert_str_eq(fast, ref);
    __snprintf_chk(fast, sizeof fast, 1, sizeof fast, "%s=%05.1f %d", "w", 2.25, 7);
    ck_assert_str_eq(fast, "w=002.2 7");
    __snprintf_chk(fast, sizeof fast, 1, sizeof fast, "%f", 1e300);
    glibc(ref, sizeof ref, "%f", 1e300);
    ck_assert_str_eq(fast, ref);
    for (int v = -1000; v <= 1000; v += 7) {
        __snprintf_chk(fast, sizeof fast, 1, sizeof fast, "%d", v);
        glibc(ref, sizeof ref, "%d", v);
        ck_assert_str_eq(fast, ref);
    }
}
END_TEST

static Suite *printf_fast_suite(void)
{
    Suite *s = suite_create("printf_fast");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_bits_at_every_precision);
    tcase_add_test(tc, cairo_numbers);
    tcase_add_test(tc, ties_round_to_even);
    tcase_add_test(tc, what_it_leaves_to_glibc);
    tcase_add_test(tc, snprintf_chk_is_snprintf);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(printf_fast_suite());
}
