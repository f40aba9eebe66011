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
#include "layout/page.h"
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

/* Loads the shipped tables with one file of @name holding @text over them:
 * NULL if they load, else the message (freed by the caller). */
static char *tables_message(const char *name, const char *text)
{
    char *user = g_dir_make_tmp("ucr-limits-XXXXXX", NULL);
    char *path = g_build_filename(user, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    char *defaults = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, user, &error);
    char *msg = NULL;
    if (t) {
        ucr_tables_free(t);
    } else {
        ck_assert_int_eq(error->code, UCR_ERROR_DATA);
        ck_assert_msg(g_str_has_prefix(error->message, path), "'%s' does not name %s", error->message, path);
        msg = g_strdup(error->message + strlen(path));
        g_error_free(error);
    }
    g_unlink(path);
    g_rmdir(user);
    g_free(path);
    g_free(user);
    g_free(defaults);
    return msg;
}

static void table_accepted(const char *name, const char *text)
{
    char *msg = tables_message(name, text);
    ck_assert_msg(msg == NULL, "%s refused: %s", text, msg);
}

static void table_refused(const char *name, const char *text, const char *words)
{
    char *msg = tables_message(name, text);
    ck_assert_msg(msg != NULL, "%s accepted", text);
    ck_assert_msg(strstr(msg, words), "'%s' should say '%s'", msg, words);
    g_free(msg);
}

#define MONSTERS "roll: 1d2\ncolumns: name | plural | no | ac | hd | att | mv | ml\n"
#define MONSTER(no) "1-2: orc | orcs | " no " | 6 [13] | 1 | axe | 40 ft | 8\n"
#define TREASURE(no, gp) "roll: 1d2\ncolumns: no | item | items | gp\n1-2: " no " | coin | coins | " gp "\n"

/* A monster "no" gives at most 200 (each one's hit points are printed); a
 * treasure is worth 0 to 1,000,000 gp (summed per area and node). */
START_TEST(counts_and_worths_stop_at_their_bounds)
{
    table_accepted("monster-1.txt", MONSTERS MONSTER("200"));
    table_accepted("monster-1.txt", MONSTERS MONSTER("10d20"));
    table_accepted("monster-1.txt", MONSTERS MONSTER("3d6*10"));
    table_refused("monster-1.txt", MONSTERS MONSTER("201"),
                  ":3: column 'no': '201' may give 201 monsters: at most 200 appear in one place (doc/limits.md)");
    table_refused("monster-1.txt", MONSTERS MONSTER("1d2+199"), "'1d2+199' may give 201 monsters");
    table_refused("monster-1.txt", MONSTERS MONSTER("100000*10000"), "may give 1000000000 monsters");
    table_accepted("treasure-1.txt", TREASURE("1", "100*10000"));
    table_accepted("treasure-1.txt", TREASURE("2d6*100", "1/10"));
    table_accepted("treasure-1.txt", TREASURE("1d6-5", "0"));
    table_accepted("treasure-1.txt", TREASURE("2", "5000*100"));   /* 1000000 gp in all */
}
END_TEST

START_TEST(worths_past_the_bound_are_refused)
{
    table_refused("treasure-1.txt", TREASURE("2", "5001*100"),
                  ":3: column 'gp': '2' of '5001*100' gp each may be worth 1000200 gp: one treasure is worth at most "
                  "1000000 gp (doc/limits.md)");
    table_refused("treasure-1.txt", TREASURE("100000*10000", "1"), "may be worth 1000000000 gp");
    table_refused("treasure-1.txt", TREASURE("1", "1d6-2"), ":3: column 'gp': '1d6-2' may be worth -1 gp");
}
END_TEST

/* One roll's text counts a monster's stat line with every hit point. */
START_TEST(a_monster_line_counts_in_one_roll)
{
    GString *refs = g_string_new("roll: 1d2\n1-2: [monster]");
    for (int i = 0; i < 5; i++)
        g_string_append(refs, " {monster}");
    g_string_append_c(refs, '\n');
    char *user = g_dir_make_tmp("ucr-limits-XXXXXX", NULL);
    char *m = g_build_filename(user, "monster-1.txt", NULL), *c = g_build_filename(user, "contents.txt", NULL);
    ck_assert(g_file_set_contents(m, MONSTERS MONSTER("200"), -1, NULL));
    ck_assert(g_file_set_contents(c, refs->str, -1, NULL));
    char *defaults = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, user, &error);
    ck_assert_ptr_null(t);
    ck_assert_msg(strstr(error->message, "contents.txt:2: '{monster}': one roll on 'contents' may take") &&
                      strstr(error->message, "bytes of text; the limit is 4096"), "%s", error->message);
    g_error_free(error);
    g_unlink(m);
    g_unlink(c);
    g_rmdir(user);
    g_free(m);
    g_free(c);
    g_free(user);
    g_free(defaults);
    g_string_free(refs, TRUE);
}
END_TEST

/* Names head pages: at most 200 bytes a roll. */
START_TEST(names_are_short)
{
    char *row = g_strnfill(190, 'x'), *text = g_strdup_printf("roll: 1d2\n1-2: %s\n", row);
    table_accepted("node-name.txt", text);
    g_free(text);
    g_free(row);
    row = g_strnfill(201, 'x');
    text = g_strdup_printf("roll: 1d2\n1-2: %s\n", row);
    table_refused("dungeon-name.txt", text, ":2: one roll on 'dungeon-name' may take 201 bytes of text: a name is "
                                            "at most 200 (doc/limits.md)");
    g_free(text);
    g_free(row);
}
END_TEST

/* A page template: a key line of at least 16 ems, a map part of at least
 * 20 x 20 squares at min-square; A4's text block is 180 x 269 mm. */
static char *page_message(const char *key, const char *value)
{
    char *a4 = g_build_filename(ucr_datadir(), "templates", "pages", "a4.ini", NULL), *text = NULL;
    ck_assert(g_file_get_contents(a4, &text, NULL, NULL));
    char *pattern = g_strdup_printf("(?m)^%s = .*$", key), *line = g_strdup_printf("%s = %s", key, value);
    GRegex *re = g_regex_new(pattern, 0, 0, NULL);
    char *changed = g_regex_replace_literal(re, text, -1, 0, line, 0, NULL);
    g_regex_unref(re);
    GError *error = NULL;
    ucr_page_template *t = ucr_page_template_parse("p.ini", changed, strlen(changed), &error);
    char *msg = t ? NULL : g_strdup(error->message);
    if (t)
        ucr_page_template_free(t);
    g_clear_error(&error);
    g_free(a4);
    g_free(text);
    g_free(pattern);
    g_free(line);
    g_free(changed);
    return msg;
}

START_TEST(a_page_holds_a_line_and_a_map_part)
{
    char *msg = page_message("min-square", "9");
    ck_assert_msg(!msg, "%s", msg);
    msg = page_message("min-square", "9.1");
    ck_assert_msg(msg && strstr(msg, "p.ini:34: map.min-square: 9.1 mm squares on 180 × 269 mm hold 19 × 29 "
                                     "squares of a map: a map part needs at least 20 × 20"), "%s", msg);
    g_free(msg);
    /* two columns of 9 pt on A4 are 27.5 ems; at 15.1 pt 16.3, at 15.2 pt 15.98 */
    msg = page_message("body", "15.1");
    ck_assert_msg(!msg, "%s", msg);
    msg = page_message("body", "15.2");
    ck_assert_msg(msg && strstr(msg, "p.ini:22: text.body: 15.2 pt text in 2 key columns 86 mm wide makes lines of "
                                     "15.9 ems") &&
                      strstr(msg, "at least 16 are needed"), "%s", msg);
    g_free(msg);
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("edges");
    tcase_add_test(tc, room_sizes_are_1_to_12_each_way);
    tcase_add_test(tc, a_room_too_long_is_refused_with_its_line);
    tcase_add_test(tc, style_values_stay_in_their_range);
    tcase_add_test(tc, counts_and_worths_stop_at_their_bounds);
    tcase_add_test(tc, worths_past_the_bound_are_refused);
    tcase_add_test(tc, a_monster_line_counts_in_one_roll);
    tcase_add_test(tc, names_are_short);
    tcase_add_test(tc, a_page_holds_a_line_and_a_map_part);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(limits_suite());
}
