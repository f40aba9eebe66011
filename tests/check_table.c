/* Tests of the dice-table files: good ones load, bad ones say file:line. */
#include <check.h>

#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/error.h"
#include "pipeline/pipeline.h"
#include "tables/table.h"

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
    /* Pairs of faces (seed 004's doubles) only on two dice, once each. */
    expect_error("roll: 1d6\n1-6: a\n2+2: b\n", 3, "needs a table of two dice, not 1d6");
    expect_error("roll: 2d6\n2-12: a\n2+7: b\n", 3, "'2+7' is not a pair of faces of 2d6");
    expect_error("roll: 2d6\n2-12: a\n3+1: b\n1+3: c\n", 4, "the pair 1+3 is covered twice (also on line 3)");
    expect_error("roll: 2d6\n2-11: a\n6+6: b\n", 3, "no row covers a roll of 12");
    /* Level tables and tables with columns (the stocking's). */
    expect_error("roll: level\n1-5: a\n", 2, "no row covers level 6 (a level table covers 1-20)");
    expect_error("roll: 1d2\ncolumns: a | b\n1: x\n2: x | y\n", 3, "expected 2 values separated by '|' (a | b), got 1");
    expect_error("roll: 1d2\ncolumns: a | A\n1: x | y\n2: x | y\n", 2, "column 'a' is named twice");
    expect_error("roll: 1d2\ncolumns: a | b\n1: x | {y}\n2: x | y\n", 3, "plain values");
    expect_error("roll: 1d2\ncolumns: name | hd\n1: x | 1\n2: x | 1\n", 2, "needs the columns");
    const char *head = "roll: 1d2\ncolumns: name | plural | no | ac | hd | att | mv | ml\n";
    char *t = g_strconcat(head, "1: orc | orcs | 1d6 | 6 [13] | 1 | 1 axe | 40 ft | 8\n",
                          "2: orc | orcs | 1d6 | 6 [13] | 2 kinds | 1 axe | 40 ft | 8\n", NULL);
    expect_error(t, 4, "column 'hd' must be hit dice");
    g_free(t);
    t = g_strconcat(head, "1: orc | orcs | some | 6 [13] | 1 | 1 axe | 40 ft | 8\n",
                    "2: orc | orcs | 1d6 | 6 [13] | 1 | 1 axe | 40 ft | 8\n", NULL);
    expect_error(t, 3, "column 'no' must be a number or dice");
    g_free(t);
    t = g_strconcat(head, "1: orc | orcs | 1 | 6 [13] | 1 | 1 axe; 1 bite | 40 ft | 8\n",
                    "2: orc | orcs | 1d6 | 6 [13] | 1 | 1 axe | 40 ft | 8\n", NULL);
    expect_error(t, 3, "column 'att' must be free of ';'");
    g_free(t);
    expect_error("roll: 1d2\ncolumns: no | item | items | gp\n1: 1 | a | b | 1d6*x\n2: 1 | a | b | 1\n", 3,
                 "column 'gp' must be gold pieces");
    expect_error("roll: 1d2\ncheck: often\ncheck: again\n1-2: a\n", 3, "roll range");
    /* Decks: one die, the word "deck", before the rows. */
    expect_error("roll: 2d6\ndraw: deck\n2-12: a\n", 2, "'draw: deck' needs a table of one die");
    expect_error("roll: level\ndraw: deck\n1-20: a\n", 2, "'draw: deck' needs a table of one die");
    expect_error("roll: 1d6\ndraw: shuffle\n1-6: a\n", 2, "'draw:' takes 'deck'");
    expect_error("roll: 1d6\n1-3: a\ndraw: deck\n4-6: b\n", 3, "roll range");
}
END_TEST

START_TEST(pairs_take_precedence_over_their_total)
{
    char *path = write_table("pairs.txt", "roll: 2d6\n2-12: plain\n3+3: double three\n1+5: one and five\n");
    GError *error = NULL;
    ucr_table *t = ucr_table_load(path, &error);
    ck_assert_msg(t, "%s", error ? error->message : "?");
    ck_assert_str_eq(ucr_table_pick(t, 6, (int[]){ 3, 3 })->text, "double three");
    ck_assert_str_eq(ucr_table_pick(t, 6, (int[]){ 5, 1 })->text, "one and five");
    ck_assert_str_eq(ucr_table_pick(t, 6, (int[]){ 2, 4 })->text, "plain");
    ck_assert_str_eq(ucr_table_pick(t, 6, NULL)->text, "plain");
    ck_assert_ptr_null(ucr_table_pick(t, 13, NULL));
    /* Rolled: the doubles come up about one time in six, and always read the pair row. */
    ucr_prng rng;
    ucr_prng_seed(&rng, "pairs", "test");
    int three = 0;
    for (int i = 0; i < 3600; i++) {
        ucr_table_dice d;
        const ucr_table_row *row = ucr_table_roll_dice(t, &rng, &d);
        ck_assert_int_eq(d.n, 2);
        ck_assert_int_eq(d.total, d.faces[0] + d.faces[1]);
        bool pair33 = d.faces[0] == 3 && d.faces[1] == 3;
        ck_assert(pair33 == (strcmp(row->text, "double three") == 0));
        three += pair33;
    }
    ck_assert_msg(three > 50 && three < 150, "3+3 came up %d times in 3600", three);
    ucr_table_dice d = { 7, 2, { 2, 5 } };
    char *text = ucr_table_dice_text(t, &d);
    ck_assert_str_eq(text, "2d6=7 (2+5)");
    g_free(text);
    ucr_table_free(t);
    g_free(path);
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
    ucr_tables *t = ucr_pipeline_tables_load(dir, NULL, &error);
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
    ucr_tables *t = ucr_pipeline_tables_load(tdir, NULL, &error);
    ck_assert_msg(t != NULL, "%s", error ? error->message : "");
    ucr_tables_free(t);
    g_free(tdir);
}
END_TEST

static char *defaults_dir(void)
{
    return g_build_filename(ucr_datadir(), "templates", "tables", NULL);
}

/* Loads the shipped tables with the tmp dir over them and expects an error
 * at @file:@line saying @words. */
static void expect_overlay_error(const char *file, int line, int code, const char *words)
{
    char *defaults = defaults_dir();
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, dir, &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, code);
    if (file) {
        char *where = g_strdup_printf("%s/%s:%d: ", dir, file, line);
        ck_assert_msg(g_str_has_prefix(error->message, where), "'%s' should start with '%s'",
                      error->message, where);
        g_free(where);
    }
    ck_assert_msg(strstr(error->message, words), "'%s' should say '%s'", error->message, words);
    g_error_free(error);
    g_free(defaults);
}

START_TEST(syntax_of_kinds_and_references)
{
    expect_error("roll: 1d2\n1: [monster a\n2: b\n", 2, "kind in brackets");
    expect_error("roll: 1d2\n1: [Monster] a\n2: b\n", 2, "kind in brackets");
    expect_error("roll: 1d2\n1: a {treasure\n2: b\n", 2, "'{' without its '}'");
    expect_error("roll: 1d2\n1: a treasure}\n2: b\n", 2, "'}' without its '{'");
    expect_error("roll: 1d2\n1: a {Big Treasure}\n2: b\n", 2, "neither a table name");
    expect_error("roll: 1d2\n1: a {2d0}\n2: b\n", 2, "neither a table name");
    /* A kind alone is a result. */
    char *path = write_table("k.txt", "roll: 1d2\n1: [empty]\n2: [monster] {1d4+1} rats\n");
    GError *error = NULL;
    ucr_table *t = ucr_table_load(path, &error);
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->name, "k");
    ck_assert_str_eq(g_array_index(t->rows, ucr_table_row, 0).tag, "empty");
    ck_assert_str_eq(g_array_index(t->rows, ucr_table_row, 0).text, "");
    ck_assert_str_eq(g_array_index(t->rows, ucr_table_row, 1).tag, "monster");
    ck_assert_str_eq(g_array_index(t->rows, ucr_table_row, 1).text, "{1d4+1} rats");
    ucr_table_free(t);
    g_free(path);
}
END_TEST

START_TEST(references_must_resolve_without_loops)
{
    g_free(write_table("treasure.txt", "roll: 1d2\n1: gold\n2: {gems} and gold\n"));
    expect_overlay_error("treasure.txt", 3, UCR_ERROR_DATA, "'{gems}' refers to a table 'gems' that does not exist");
    g_free(write_table("gems.txt", "# gems\nroll: 1d2\n1: a ruby\n2: a ruby inside {treasure}\n"));
    expect_overlay_error("gems.txt", 4, UCR_ERROR_DATA, "loop of references (treasure → gems → treasure)");
    /* A table that rolls on itself is the shortest loop. */
    g_free(write_table("gems.txt", "roll: 1d2\n1: a ruby\n2: {gems}, twice\n"));
    expect_overlay_error("gems.txt", 3, UCR_ERROR_DATA, "(gems → gems)");
}
END_TEST

START_TEST(program_tables_need_their_kinds)
{
    g_free(write_table("door.txt", "roll: 1d2\n1: [door] a door\n2: [ajar] a door left open\n"));
    expect_overlay_error("door.txt", 3, UCR_ERROR_DATA, "[door], [locked] or [trapped], not ajar");
    g_free(write_table("door.txt", "roll: 1d2\n1: [door] a door\n2: [door] a door\n"));
    g_free(write_table("contents.txt", "roll: 1d2\n1: Empty.\n2: [monster] {monster}.\n"));
    expect_overlay_error("contents.txt", 2, UCR_ERROR_DATA, "must start with its kind");
    g_free(write_table("contents.txt", "roll: 1d2\n1: [empty] Empty.\n2: [monster] {monster}.\n"));
    /* The seeds' own tables: seed 004's directions. */
    g_free(write_table("rdg-direction.txt", "roll: 2d6\n2-11: [wall] wall\n12: [portal] a portal\n"));
    expect_overlay_error("rdg-direction.txt", 3, UCR_ERROR_DATA, "[stairs-up], not portal");
    g_free(write_table("rdg-direction.txt", "roll: 2d6\n2-12: [wall] wall\n"));
    /* Rows the program reads as numbers say which numbers. */
    g_free(write_table("numbered-destination.txt", "roll: 1d2\n1: [relative] +12\n2: [distant] far\n"));
    expect_overlay_error("numbered-destination.txt", 2, UCR_ERROR_DATA,
                         "'+12': a [relative] row is a number from -9 to +9");
    g_free(write_table("numbered-destination.txt", "roll: 1d2\n1: [relative] -1\n2: [distant] far\n"));
    g_free(write_table("numbered-corridor.txt", "roll: 1d2\n1: [length] 15\n2: [none] no corridor\n"));
    expect_overlay_error("numbered-corridor.txt", 2, UCR_ERROR_DATA, "length in feet: 10, 20");
}
END_TEST

START_TEST(missing_folder_or_table_is_noinput)
{
    char *defaults = defaults_dir();
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, "/nonexistent/undercroft-tables", &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_NOINPUT);
    ck_assert_ptr_nonnull(strstr(error->message, "/nonexistent/undercroft-tables"));
    g_clear_error(&error);
    /* The user's folder alone lacks the tables the program needs. */
    g_free(write_table("room-size.txt", "roll: 1d2\n1: 2x2\n2: 3x3\n"));
    t = ucr_pipeline_tables_load(dir, NULL, &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_NOINPUT);
    ck_assert_ptr_nonnull(strstr(error->message, "missing table"));
    g_error_free(error);
    g_free(defaults);
}
END_TEST

START_TEST(overlay_replaces_and_adds)
{
    g_free(write_table("room-size.txt", "roll: 1d2\n1-2: 7x7\n"));
    g_free(write_table("contents.txt", "roll: 1d2\n1-2: [monster] {gang} guarding {treasure}.\n"));
    g_free(write_table("gang.txt", "roll: 1d2\n1-2: {2d4} goblins\n"));
    g_free(write_table("notes.md", "not a table: ignored, it is no .txt\n"));
    char *defaults = defaults_dir();
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, dir, &error);
    ck_assert_msg(t != NULL, "%s", error ? error->message : "");
    ck_assert_int_eq(t->room_size->rows->len, 1);
    ck_assert_str_eq(g_array_index(t->room_size->rows, ucr_table_row, 0).text, "7x7");
    ck_assert_ptr_nonnull(ucr_tables_lookup(t, "gang"));
    ck_assert_ptr_nonnull(ucr_tables_lookup(t, "dressing"));   /* a default, kept */
    ucr_prng rng;
    ucr_prng_seed(&rng, "overlay", "test");
    for (int i = 0; i < 50; i++) {
        ucr_roll r;
        ucr_tables_roll(t, "contents", &rng, &r);
        ck_assert_str_eq(r.tag, "monster");
        int goblins = 0;
        char rest[400];
        ck_assert_msg(sscanf(r.text, "%d goblins guarding %399[^\n]", &goblins, rest) == 2, "%s", r.text);
        ck_assert(goblins >= 2 && goblins <= 8);
        ck_assert(g_str_has_suffix(r.text, "."));
        ck_assert(strchr(r.text, '{') == NULL);
        ck_assert(ucr_roll_visited(&r, "gang") && ucr_roll_visited(&r, "treasure"));
        ck_assert(!ucr_roll_visited(&r, "monster"));
        ck_assert(g_str_has_prefix(r.rolled, "contents 1d2="));
        ck_assert_ptr_nonnull(strstr(r.rolled, "; gang 1d2="));
        ck_assert_ptr_nonnull(strstr(r.rolled, "; 2d4="));
        ck_assert_ptr_nonnull(strstr(r.rolled, "; treasure level 1; treasure-1 1d12="));
        ucr_roll_clear(&r);
    }
    ucr_tables_free(t);
    g_free(defaults);
}
END_TEST

START_TEST(dice_expressions_and_hit_dice)
{
    ucr_dice_expr e;
    ck_assert(ucr_dice_expr_parse("3", &e) && e.count == 0 && e.add == 3);
    ck_assert(ucr_dice_expr_parse("2d4+1", &e) && e.count == 2 && e.sides == 4 && e.add == 1);
    ck_assert(ucr_dice_expr_parse("3d6*10", &e) && e.mul == 10 && e.div == 1);
    ck_assert(ucr_dice_expr_parse("1/100", &e) && e.add == 1 && e.div == 100);
    ck_assert(!ucr_dice_expr_parse("d", &e) && !ucr_dice_expr_parse("2d6*", &e) && !ucr_dice_expr_parse("", &e));
    ucr_prng rng;
    ucr_prng_seed(&rng, "expr", "test");
    ck_assert(ucr_dice_expr_parse("3d6*10", &e));
    for (int i = 0; i < 200; i++) {
        int v = ucr_dice_expr_roll(&e, &rng);
        ck_assert(v >= 30 && v <= 180 && v % 10 == 0);
    }
    int d, a;
    ck_assert(ucr_hit_dice_parse("1-1", &d, &a) && d == 1 && a == -1);
    ck_assert(ucr_hit_dice_parse("6+3", &d, &a) && d == 6 && a == 3);
    ck_assert(ucr_hit_dice_parse("1/2", &d, &a) && d == 0);
    ck_assert(!ucr_hit_dice_parse("2d8", &d, &a) && !ucr_hit_dice_parse("x", &d, &a));
}
END_TEST

/* "roll: level" tables answer the dungeon level, and the stocking's
 * hook replaces rolls on tables with columns. */
static char *hook_count(const ucr_table *t, ucr_prng *rng, GString *rolled, void *data)
{
    (void)rng;
    (void)rolled;
    ++*(int *)data;
    return g_strdup_printf("<%s>", t->name);
}

START_TEST(level_tables_choose_by_depth)
{
    char *defaults = defaults_dir();
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, NULL, &error);
    ck_assert_msg(t != NULL, "%s", error ? error->message : "");
    ck_assert_str_eq(ucr_tables_resolve(t, "monster", 1)->name, "monster-1");
    ck_assert_str_eq(ucr_tables_resolve(t, "monster", 2)->name, "monster-2");
    ck_assert_str_eq(ucr_tables_resolve(t, "monster", 3)->name, "monster-3");
    ck_assert_str_eq(ucr_tables_resolve(t, "monster", 99)->name, "monster-3");
    ck_assert_str_eq(ucr_tables_resolve(t, "dressing", 5)->name, "dressing");
    ucr_prng rng;
    ucr_prng_seed(&rng, "levels", "test");
    int calls = 0;
    for (int i = 0; i < 40; i++) {
        ucr_roll r;
        ucr_tables_roll_at(t, "contents", 2, &rng, hook_count, &calls, &r);
        if (ucr_roll_visited(&r, "monster")) {
            ck_assert_msg(strstr(r.text, "<monster-2>") != NULL, "%s", r.text);
            ck_assert_msg(strstr(r.rolled, "monster level 2") != NULL, "%s", r.rolled);
        }
        ck_assert_msg(strstr(r.text, "<monster-1>") == NULL && strstr(r.text, "<treasure-3>") == NULL, "%s", r.text);
        ucr_roll_clear(&r);
    }
    ck_assert_int_gt(calls, 5);
    ucr_tables_free(t);
    g_free(defaults);
}
END_TEST

START_TEST(nested_rolls_are_seeded)
{
    char *defaults = defaults_dir();
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, NULL, &error);
    ck_assert_ptr_nonnull(t);
    ucr_prng a, b;
    ucr_prng_seed(&a, "same", "stock/A");
    ucr_prng_seed(&b, "same", "stock/A");
    for (int i = 0; i < 200; i++) {
        ucr_roll ra, rb;
        ucr_tables_roll(t, "contents", &a, &ra);
        ucr_tables_roll(t, "contents", &b, &rb);
        ck_assert_str_eq(ra.text, rb.text);
        ck_assert_str_eq(ra.rolled, rb.rolled);
        ck_assert(ra.text[0] != '\0' && ra.tag != NULL);
        ck_assert(strchr(ra.text, '{') == NULL && strchr(ra.text, '}') == NULL);
        ucr_roll_clear(&ra);
        ucr_roll_clear(&rb);
    }
    ucr_tables_free(t);
    g_free(defaults);
    char s[] = "a pack of rats. it waits! then? no";
    ucr_text_capitalise(s);
    ck_assert_str_eq(s, "A pack of rats. It waits! Then? No");
    /* A sentence ends at . ! ? before a space or the end only; quotes and
     * brackets open one; a number's point does not end one. */
    char q[] = "\"who goes there?\" (a trap.) 1.5 ft of water. \"halt!\" he says. end.";
    ucr_text_capitalise(q);
    ck_assert_str_eq(q, "\"Who goes there?\" (a trap.) 1.5 ft of water. \"Halt!\" he says. End.");
    char e[] = "it waits...  (then) \"no\".";
    ucr_text_capitalise(e);
    ck_assert_str_eq(e, "It waits...  (Then) \"no\".");
}
END_TEST

/* The index reads what a scan of the rows would: every total of a 2d1000
 * table, and every pair of faces of one with many pairs. */
START_TEST(rows_are_indexed)
{
    GString *text = g_string_new("roll: 2d1000\n2-700: low\n701-1300: [mid] middle\n1301-2000: high\n");
    for (int a = 1; a <= 1000; a += 7)
        for (int b = a; b <= 1000; b += 13)
            g_string_append_printf(text, "%d+%d: pair %d %d\n", b, a, a, b);   /* either order */
    char *path = write_table("big.txt", text->str);
    GError *error = NULL;
    ucr_table *t = ucr_table_load(path, &error);
    ck_assert_msg(t != NULL, "%s", error ? error->message : "?");
    for (int v = 2; v <= 2000; v++) {
        const char *want = v <= 700 ? "low" : v <= 1300 ? "middle" : "high";
        ck_assert_str_eq(ucr_table_pick(t, v, NULL)->text, want);
    }
    ck_assert_ptr_null(ucr_table_pick(t, 1, NULL));
    ck_assert_ptr_null(ucr_table_pick(t, 2001, NULL));
    for (int a = 1; a <= 1000; a++)
        for (int b = 1; b <= 1000; b += 3) {
            const ucr_table_row *row = ucr_table_pick(t, a + b, (int[]){ a, b });
            int lo = MIN(a, b), hi = MAX(a, b);
            if ((lo - 1) % 7 == 0 && (hi - lo) % 13 == 0) {
                char *want = g_strdup_printf("pair %d %d", lo, hi);
                ck_assert_str_eq(row->text, want);
                g_free(want);
            } else {
                ck_assert(row->pair[0] == 0);
            }
        }
    ucr_table_free(t);
    g_free(path);
    g_string_free(text, TRUE);
}
END_TEST

/* Messages a user can act on: a byte order mark is no character of the
 * first line, and dice out of range name the limits. */
START_TEST(clear_messages)
{
    char *path = write_table("bom.txt", "\xef\xbb\xbfroll: 1d2\n1-2: a\n");
    GError *error = NULL;
    ucr_table *t = ucr_table_load(path, &error);
    ck_assert_msg(t != NULL, "%s", error ? error->message : "?");
    ucr_table_free(t);
    g_free(path);
    expect_error("roll: 1d1\n1: a\n", 1, "'roll: NdM' with 1-10 dice of 2-1000 sides (e.g. 'roll: 1d20') or "
                                         "'roll: level', got 'roll: 1d1'");
    expect_error("roll: 11d6\n11-66: a\n", 1, "1-10 dice of 2-1000 sides");
    expect_error("roll: 1d1001\n1-1001: a\n", 1, "1-10 dice of 2-1000 sides");
}
END_TEST

/* "draw: deck" (#24): every face once before any comes again, the faces'
 * rows as often as the dice give them over a cycle, the same deal from the
 * same seed, nested decks dealt too, and no deck without decks given. */
START_TEST(decks_deal_without_replacement)
{
    char *path = write_table("deck.txt", "roll: 1d8\ndraw: deck\n1-4: low\n5: e\n6: f\n7: g\n8: h\n");
    GError *error = NULL;
    ucr_table *t = ucr_table_load(path, &error);
    ck_assert_msg(t != NULL, "%s", error ? error->message : "");
    ck_assert(t->deck);
    ucr_table_decks *decks = ucr_table_decks_new("seed", "test/decks");
    ucr_prng rng;
    ucr_prng_seed(&rng, "seed", "unused");
    ucr_prng before = rng;
    int last = -1;   /* no face twice in a row, across a reshuffle too */
    for (int cycle = 0; cycle < 50; cycle++) {
        int seen[9] = { 0 }, low = 0;
        for (int i = 0; i < 8; i++) {
            int face;
            const ucr_table_row *row = ucr_table_draw(t, decks, &rng, &face);
            ck_assert_int_ge(face, 1);
            ck_assert_int_le(face, 8);
            ck_assert_int_eq(seen[face]++, 0);   /* no face twice in a cycle */
            low += strcmp(row->text, "low") == 0;
            ck_assert_int_ne(face, last);
            last = face;
        }
        ck_assert_int_eq(low, 4);   /* "1-4" four times in eight, as the die gives it */
    }
    ck_assert_mem_eq(&rng, &before, sizeof rng);   /* a deck never touches the roll's stream */
    /* The same seed deals the same; another deals otherwise. */
    ucr_table_decks *a = ucr_table_decks_new("s1", "l"), *b = ucr_table_decks_new("s1", "l"),
                    *c = ucr_table_decks_new("s2", "l");
    int same = 0, differ = 0;
    for (int i = 0; i < 40; i++) {
        int x = ucr_table_decks_deal(a, "t", 10), y = ucr_table_decks_deal(b, "t", 10), z = ucr_table_decks_deal(c, "t", 10);
        same += x == y;
        differ += x != z;
    }
    ck_assert_int_eq(same, 40);
    ck_assert_int_gt(differ, 10);
    /* Without decks a deck table is rolled as any other. */
    int total;
    ck_assert_ptr_nonnull(ucr_table_draw(t, NULL, &rng, &total));
    ucr_table_decks_free(a);
    ucr_table_decks_free(b);
    ucr_table_decks_free(c);
    ucr_table_decks_free(decks);
    ucr_table_decks_free(NULL);
    ucr_table_free(t);
    g_free(path);
}
END_TEST

/* A row of two decks ("{passage-trap-trigger} that {passage-trap-effect}",
 * 12 x 20) says no whole phrase twice before every one has come once, and
 * each half still comes as often as its own deck deals it. */
START_TEST(rows_of_two_decks_deal_new_pairs)
{
    char *defaults = defaults_dir();
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, NULL, &error);
    ck_assert_ptr_nonnull(t);
    ucr_table_decks *decks = ucr_table_decks_new("pairs", "test/decks");
    ucr_prng rng;
    ucr_prng_seed(&rng, "pairs", "stock/A");
    GHashTable *said = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GHashTable *triggers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (int i = 0; i < 12 * 20; i++) {
        ucr_roll r;
        ucr_tables_deal_at(t, "passage-trap", 1, &rng, decks, NULL, NULL, &r);
        ck_assert_msg(g_hash_table_add(said, g_strdup(r.text)), "deal %d said '%s' again", i, r.text);
        const char *that = strstr(r.text, " that ");
        ck_assert_ptr_nonnull(that);
        char *trigger = g_strndup(r.text, (gsize)(that - r.text));
        gpointer n = g_hash_table_lookup(triggers, trigger);
        g_hash_table_replace(triggers, trigger, GINT_TO_POINTER(GPOINTER_TO_INT(n) + 1));
        ucr_roll_clear(&r);
    }
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, triggers);
    while (g_hash_table_iter_next(&it, &key, &value))
        ck_assert_int_eq(GPOINTER_TO_INT(value), 20);   /* 12 triggers, each 20 times */
    ck_assert_int_eq(g_hash_table_size(triggers), 12);
    g_hash_table_destroy(triggers);
    g_hash_table_destroy(said);
    ucr_table_decks_free(decks);
    ucr_tables_free(t);
    g_free(defaults);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("table");
    TCase *tc = tcase_create("files");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_add_test(tc, good_table_rolls_every_row);
    tcase_add_test(tc, bad_tables_name_file_and_line);
    tcase_add_test(tc, dice_expressions_and_hit_dice);
    tcase_add_test(tc, level_tables_choose_by_depth);
    tcase_add_test(tc, missing_table_is_noinput);
    tcase_add_test(tc, room_sizes_are_checked);
    tcase_add_test(tc, shipped_tables_load);
    tcase_add_test(tc, pairs_take_precedence_over_their_total);
    tcase_add_test(tc, syntax_of_kinds_and_references);
    tcase_add_test(tc, references_must_resolve_without_loops);
    tcase_add_test(tc, program_tables_need_their_kinds);
    tcase_add_test(tc, missing_folder_or_table_is_noinput);
    tcase_add_test(tc, overlay_replaces_and_adds);
    tcase_add_test(tc, nested_rolls_are_seeded);
    tcase_add_test(tc, rows_are_indexed);
    tcase_add_test(tc, clear_messages);
    tcase_add_test(tc, decks_deal_without_replacement);
    tcase_add_test(tc, rows_of_two_decks_deal_new_pairs);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
