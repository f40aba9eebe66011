/* undercroft — the numbers cairo writes into a PDF, formatted without
 * glibc's multi-precision printf.
 *
 * cairo's PDF writer turns every coordinate, colour and glyph offset into
 * text through snprintf: 270,000 calls for the default booklet, "%.*f",
 * "%f" and "%.18f" for doubles (a number under 0.1 is printed twice) and
 * "%d" for glyph offsets.  glibc formats a double with arbitrary-precision
 * arithmetic (__printf_fp, __mpn_divrem), and that was an eighth of the
 * booklet's CPU time (perf: 35 of 290 ms), more than all of zlib.
 *
 * A program's own definition of __snprintf_chk (what snprintf becomes in a
 * library built with _FORTIFY_SOURCE, as Debian builds cairo) comes before
 * glibc's for every library it loads, as deflate_level.c does for zlib.
 * This one formats exactly those four conversions itself and hands every
 * other format, and every number it cannot do exactly, to glibc:
 *
 *   - a double is m * 2^e with m < 2^53; |x| * 10^p, for p <= 19 and
 *     |x| < 2^63, is m * 10^p shifted by e, which fits in 128 bits, so the
 *     rounding (to nearest, ties to even, as glibc rounds in the default
 *     mode) is done on the exact value: the same digits glibc prints;
 *   - NaN, infinities, larger numbers or precisions, a decimal point other
 *     than '.' (cairo is not the only caller) and any other format go to
 *     glibc's __vsnprintf_chk unchanged.
 *
 * check_printf_fast compares the two over millions of numbers. */
#define _GNU_SOURCE
#include <fenv.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "render/printf_fast.h"

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, va_list ap);

typedef unsigned __int128 u128;

static const uint64_t pow10_u64[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL,
};

/* Writes the digits of @v, most significant first, into @out; returns
 * their count (at least one: "0"). */
static int digits_u128(u128 v, char *out)
{
    char tmp[40];
    int n = 0;
    do {
        uint64_t low;
        if (v >> 64) {
            /* Rare (only above 2^64 at this precision): 19 digits at a time. */
            u128 q = v / pow10_u64[19];
            low = (uint64_t)(v - q * pow10_u64[19]);
            v = q;
            for (int i = 0; i < 19; i++, low /= 10)
                tmp[n++] = (char)('0' + low % 10);
            continue;
        }
        low = (uint64_t)v;
        v = 0;
        do {
            tmp[n++] = (char)('0' + low % 10);
            low /= 10;
        } while (low);
    } while (v);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

int ucr_format_fixed(char *out, double x, int prec)
{
    if (prec < 0 || prec > 19 || !isfinite(x))
        return -1;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bool negative = bits >> 63;
    int biased = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((1ULL << 52) - 1);
    int e;
    if (biased == 0) {
        e = -1074;                 /* subnormal (or zero: m == 0) */
    } else {
        m |= 1ULL << 52;
        e = biased - 1075;
    }
    u128 n;                        /* round(|x| * 10^prec), ties to even */
    if (m == 0) {
        n = 0;
    } else if (e >= 0) {
        if (e > 10)                /* |x| >= 2^63: glibc's */
            return -1;
        n = ((u128)m << e) * pow10_u64[prec];
    } else {
        u128 v = (u128)m * pow10_u64[prec];   /* < 2^53 * 2^64 */
        int s = -e;
        if (s >= 127) {
            n = 0;                 /* v < 2^117 < half of 2^s */
        } else {
            u128 q = v >> s, r = v & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);
            if (r > half || (r == half && (q & 1)))
                q++;
            n = q;
        }
    }
    char digits[48];
    int nd = digits_u128(n, digits);
    char *p = out;
    if (negative)
        *p++ = '-';
    if (nd <= prec) {              /* "0.000123": the leading zeros */
        *p++ = '0';
        if (prec > 0) {
            *p++ = '.';
            for (int i = nd; i < prec; i++)
                *p++ = '0';
            memcpy(p, digits, (size_t)nd);
            p += nd;
        }
    } else {
        memcpy(p, digits, (size_t)(nd - prec));
        p += nd - prec;
        if (prec > 0) {
            *p++ = '.';
            memcpy(p, digits + nd - prec, (size_t)prec);
            p += prec;
        }
    }
    *p = '\0';
    return (int)(p - out);
}

/* What snprintf would do with @text of @len characters. */
static int put(char *s, size_t maxlen, const char *text, int len)
{
    if (maxlen > 0) {
        size_t k = (size_t)len < maxlen - 1 ? (size_t)len : maxlen - 1;
        memcpy(s, text, k);
        s[k] = '\0';
    }
    return len;
}

/* The decimal point is '.' and rounding is to nearest: what the fast path
 * assumes.  undercroft sets only LC_CTYPE, but a library may set more. */
static bool plain_numbers(void)
{
    const char *dp = localeconv()->decimal_point;
    return dp[0] == '.' && dp[1] == '\0' && fegetround() == FE_TONEAREST;
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = -1;
    /* Only the formats cairo writes numbers with, and only where glibc's
     * own checks (slen, flag) could not have objected. */
    if (slen >= maxlen && format[0] == '%') {
        char buf[64];
        if (strcmp(format, "%d") == 0) {
            int v = va_arg(ap, int);
            int64_t w = v;
            char *p = buf;
            if (w < 0) {
                *p++ = '-';
                w = -w;
            }
            p += digits_u128((u128)w, p);
            r = put(s, maxlen, buf, (int)(p - buf));
        } else if (plain_numbers()) {
            int prec = -2;
            if (strcmp(format, "%f") == 0)
                prec = 6;
            else if (strcmp(format, "%.18f") == 0)
                prec = 18;
            if (prec >= 0 || strcmp(format, "%.*f") == 0) {
                va_list probe;
                va_copy(probe, ap);
                if (prec < 0)
                    prec = va_arg(probe, int);
                double x = va_arg(probe, double);
                va_end(probe);
                int len = ucr_format_fixed(buf, x, prec);
                if (len >= 0)
                    r = put(s, maxlen, buf, len);
            }
        }
    }
    if (r < 0)
        r = __vsnprintf_chk(s, maxlen, flag, slen, format, ap);
    va_end(ap);
    return r;
}
