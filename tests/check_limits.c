/* The limits of user data at both edges: the last value accepted and the
 * first refused, each way (README, "Limits"; the style and template keys'
 * ranges).  A limit checked on one side only lets the other side through. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "check_run.h"
#include "core/datadir.h"
#include "core/error.h"
#include "tables/table.h"
#include "pipeline/pipeline.h"
#include "layout/style.h"

/* Room sizes (rooms, pips rooms, long rooms): WIDTHxHEIGHT, 1-12 squares
 * each way. */
START_TEST(room_sizes_are_1_to_12_each_way)
{
    static const char *const good[] = { "1x1", "12x12", "12x1", "1x12", "3x2", "12X7" };
    static const char *const bad[] = { "13x1", "1x13", "12x13", "13x12", "0x5", "5x0", "3x", "x3", "3x3x3", "-1x2" };
    int w = 0, h = 0;
    for (gsize i = 0; i < G_N_ELEMENTS(good); i++)
        ck_assert_msg(ucr_table_parse_size(good[i], &w, &h), "'%s' refused", good[i]);
    ck_assert(ucr_table_parse_size("1x12", &w, &h) && w == 1 && h == 12);
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++)
        ck_assert_msg(!ucr_table_parse_size(bad[i], &w, &h), "'%s' accepted", bad[i]);
}
END_TEST

/* The same in a tables folder: the bad row named by file and line, in the
 * middle of the file. */
START_TEST(a_room_too_long_is_refused_with_its_line)
{
    char *user = g_dir_make_tmp("ucr-limits-XXXXXX", NULL);
    char *path = g_build_filename(user, "room-size.txt", NULL);
    ck_assert(g_file_set_contents(path, "roll: 1d3\n1: 3x3\n2: 3x13\n3: 2x2\n", -1, NULL));
    char *defaults = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, user, &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    char *want = g_strdup_printf("%s:3: room size '3x13' must be WIDTHxHEIGHT", path);
    ck_assert_msg(g_str_has_prefix(error->message, want), "got '%s'", error->message);
    g_free(want);
    g_clear_error(&error);
    /* 12 squares is still a room. */
    ck_assert(g_file_set_contents(path, "roll: 1d3\n1: 3x3\n2: 3x12\n3: 12x2\n", -1, NULL));
    t = ucr_pipeline_tables_load(defaults, user, &error);
    ck_assert_msg(t, "%s", error ? error->message : "?");
    ucr_tables_free(t);
    g_unlink(path);
    g_rmdir(user);
    g_free(path);
    g_free(user);
    g_free(defaults);
}
END_TEST

/* A style value: its range's ends are accepted, just past them refused
 * (walls.width is 0.01-0.4 squares). */
static char *style_message(const char *text)
{
    char *dir = g_dir_make_tmp("ucr-limits-XXXXXX", NULL);
    char *path = g_build_filename(dir, "s.ini", NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    GError *error = NULL;
    ucr_style *st = ucr_style_load(path, ucr_datadir(), &error);
    char *msg = NULL;
    if (st)
        ucr_style_free(st);
    else {
        ck_assert_int_eq(error->code, UCR_ERROR_DATA);
        msg = g_strdup(error->message);
        g_error_free(error);
    }
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
    return msg;
}

START_TEST(style_values_stay_in_their_range)
{
    static const char *const good[] = { "0.01", "0.4", "0.2" };
    static const char *const bad[] = { "0.41", "0.009", "1", "-0.2", "nan", "inf", "1e308" };
    for (gsize i = 0; i < G_N_ELEMENTS(good); i++) {
        char *text = g_strdup_printf("[walls]\nwidth=%s\n", good[i]);
        char *msg = style_message(text);
        ck_assert_msg(!msg, "walls.width=%s refused: %s", good[i], msg);
        g_free(text);
    }
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *text = g_strdup_printf("[walls]\nwidth=%s\n", bad[i]);
        char *msg = style_message(text);
        ck_assert_msg(msg, "walls.width=%s accepted", bad[i]);
        ck_assert_msg(strstr(msg, "key 'walls.width'") && strstr(msg, "is not a number from 0.01 to 0.4"), "%s",
                      msg);
        g_free(msg);
        g_free(text);
    }
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("edges");
    tcase_add_test(tc, room_sizes_are_1_to_12_each_way);
    tcase_add_test(tc, a_room_too_long_is_refused_with_its_line);
    tcase_add_test(tc, style_values_stay_in_their_range);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(limits_suite());
}
