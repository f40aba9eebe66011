/* Tests of the dice-table files: good ones load, bad ones say file:line. */
#include <check.h>

#include "check_run.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/error.h"
#include "key/table.h"

static char *dir;

static void tmp_setup(void)
{
    dir = g_dir_make_tmp("ucr-table-XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
}

static void tmp_teardown(void)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, name, NULL);
        unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    rmdir(dir);
    g_free(dir);
}

static char *write_table(const char *name, const char *text)
{
    char *path = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static void expect_error(const char *text, int line, const char *words)
{
    char *path = write_table("t.txt", text);
    GError *error = NULL;
    ucr_table *t = ucr_table_load(path, &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    char *where = g_strdup_printf("%s:%d: ", path, line);
    ck_assert_msg(g_str_has_prefix(error->message, where), "'%s' should start with '%s'", error->message,
                  where);
    ck_assert_msg(strstr(error->message, words), "'%s' should say '%s'", error->message, words);
    g_free(where);
    g_error_free(error);
    g_free(path);
}

START_TEST(good_table_rolls_every_row)
{
    char *path = write_table("ok.txt", "# comment\nroll: 1d4\n1-2: small   # inline comment\n3: medium\n4: large\n");
    GError *error = NULL;
    ucr_table *t = ucr_table_load(path, &error);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->rows->len, 3);
    ucr_prng rng;
    ucr_prng_seed(&rng, "table", "test");
    int seen[3] = { 0 };
    for (int i = 0; i < 400; i++) {
        int total;
        const ucr_table_row *row = ucr_table_roll(t, &rng, &total);
        ck_assert(total >= row->lo && total <= row->hi);
        seen[row - &g_array_index(t->rows, ucr_table_row, 0)]++;
    }
    ck_assert(seen[0] > seen[1] && seen[0] > seen[2] && seen[1] > 0 && seen[2] > 0);
    ucr_table_free(t);
    g_free(path);
}
END_TEST

START_TEST(bad_tables_name_file_and_line)
{
    expect_error("1-2: a\n", 1, "roll: NdM");
    expect_error("roll: banana\n", 1, "roll: NdM");
    expect_error("roll: 1d6\n1-3: a\n3-6: b\n", 3, "covered twice");
    expect_error("roll: 1d6\n1-2: a\n4-6: b\n", 3, "no row covers a roll of 3");
    expect_error("roll: 1d6\n1-6 a\n", 2, "expected");
    expect_error("roll: 1d6\nsix: a\n", 2, "roll range");
    expect_error("roll: 1d6\n1-6:\n", 2, "no result");
    expect_error("roll: 1d6\n1-7: a\n", 2, "lies outside 1d6");
    expect_error("", 1, "empty table");
}
END_TEST

START_TEST(missing_table_is_noinput)
{
    GError *error = NULL;
    ucr_table *t = ucr_table_load("/nonexistent/undercroft/t.txt", &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_NOINPUT);
    g_error_free(error);
}
END_TEST

START_TEST(room_sizes_are_checked)
{
    char *path = write_table("room-size.txt", "roll: 1d2\n1: 3x3\n2: big\n");
    GError *error = NULL;
    ucr_tables *t = ucr_tables_load(dir, &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    ck_assert_ptr_nonnull(strstr(error->message, ":3: room size 'big'"));
    g_error_free(error);
    g_free(path);
    int w, h;
    ck_assert(ucr_table_parse_size("4x3", &w, &h) && w == 4 && h == 3);
    ck_assert(!ucr_table_parse_size("0x3", &w, &h));
    ck_assert(!ucr_table_parse_size("13x3", &w, &h));
    ck_assert(!ucr_table_parse_size("3x", &w, &h));
}
END_TEST

START_TEST(shipped_tables_load)
{
    char *tdir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    GError *error = NULL;
    ucr_tables *t = ucr_tables_load(tdir, &error);
    ck_assert_msg(t != NULL, "%s", error ? error->message : "");
    ucr_tables_free(t);
    g_free(tdir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("table");
    TCase *tc = tcase_create("files");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_add_test(tc, good_table_rolls_every_row);
    tcase_add_test(tc, bad_tables_name_file_and_line);
    tcase_add_test(tc, missing_table_is_noinput);
    tcase_add_test(tc, room_sizes_are_checked);
    tcase_add_test(tc, shipped_tables_load);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
