/* Tests that bite on geometry: the corridors seed 000 rolls are drawn as
 * long as rolled (a corridor 10 ft longer than its roll survived every
 * other test), over many seeds. */
#include <check.h>
#include <string.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "core/prng.h"
#include "gen/kit/canvas.h"
#include "gen/kit/preconnect.h"
#include "model/json.h"
#include "gen/super/megadungeon.h"
#include "invariants.h"
#include "pipeline/pipeline.h"
#include "tables/table.h"

static ucr_tables *tables;

static void setup(void)
{
    tables = ucr_test_tables();
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

START_TEST(numbered_corridors_are_as_long_as_rolled)
{
    int checked = 0, seeds = getenv("UCR_SAN") ? 40 : 150;
    GString *mismatches = g_string_new(NULL);
    for (int i = 1; i <= seeds; i++) {
        char *seed = g_strdup_printf("corridor-%d", i);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 2, 1, tables, ucr_node_method_lookup("numbered"), { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md, "seed %s: %s", seed, error ? error->message : "?");
        for (guint k = 0; k < md->nodes->len; k++)
            ucr_test_corridor_lengths(g_ptr_array_index(md->nodes, k), seed, &checked, mismatches);
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    /* Enough corridors seen for the check to mean something (about 9 a
     * seed), and all but a few as long as rolled (31 of 1,370 today: a
     * rolled corridor cut by a junction, the rooms joined again later). */
    ck_assert_msg(checked >= seeds * 6, "only %d corridors checked over %d seeds", checked, seeds);
    int wrong = 0;
    for (const char *c = mismatches->str; *c; c++)
        wrong += *c == '\n';
    ck_assert_msg(wrong * 20 <= checked, "%d of %d corridors are not as long as rolled:\n%.2000s", wrong,
                  checked, mismatches->str);
    g_string_free(mismatches, TRUE);
}
END_TEST

/* The routers give up at once on a route whose start and end lie in
 * different regions of rock (ucr_canvas_region): the regions must be exactly
 * what a corridor can cross.  A wall splits the rock; taking it away joins
 * it again; a pocket stays its own region; a large region reads as large. */
START_TEST(regions_of_rock_split_and_join)
{
    ucr_canvas *cv = ucr_canvas_new(30, 20);
    ucr_point west = { 5, 10 }, east = { 25, 10 }, north_west = { 5, 3 };
    ck_assert_int_eq(ucr_canvas_region(cv, west, 100), UCR_CANVAS_REGION_LARGE);
    ck_assert_int_eq(ucr_canvas_region(cv, east, 10000), UCR_CANVAS_REGION_LARGE);   /* worked out once a change */
    ucr_canvas_set(cv, (ucr_point){ 1, 1 }, 9);
    ucr_canvas_set(cv, (ucr_point){ 1, 1 }, UCR_CANVAS_EMPTY);
    int a = ucr_canvas_region(cv, west, 10000);
    ck_assert_int_ge(a, 0);
    ck_assert_int_ne(a, UCR_CANVAS_REGION_LARGE);
    ck_assert_int_eq(ucr_canvas_region(cv, east, 10000), a);
    ck_assert_int_eq(ucr_canvas_region(cv, (ucr_point){ 0, 5 }, 10000), UCR_CANVAS_REGION_NONE);   /* the outer ring */
    /* A corridor from top to bottom: two regions, and the squares beside it none. */
    for (int y = 0; y < 20; y++)
        ucr_canvas_set(cv, (ucr_point){ 15, y }, 7);
    a = ucr_canvas_region(cv, west, 10000);
    ck_assert_int_ge(a, 0);
    ck_assert_int_ne(a, UCR_CANVAS_REGION_LARGE);
    ck_assert_int_ne(ucr_canvas_region(cv, east, 10000), a);
    ck_assert_int_eq(ucr_canvas_region(cv, north_west, 10000), a);
    ck_assert_int_eq(ucr_canvas_region(cv, (ucr_point){ 14, 10 }, 10000), UCR_CANVAS_REGION_NONE);
    ck_assert_int_eq(ucr_canvas_region(cv, (ucr_point){ 15, 10 }, 10000), UCR_CANVAS_REGION_NONE);
    /* A pocket walled in by a room's ring: its own small region, even with a small cap. */
    for (int i = 2; i <= 8; i++) {
        ucr_canvas_set(cv, (ucr_point){ 20, i }, 8);
        ucr_canvas_set(cv, (ucr_point){ 26, i }, 8);
    }
    for (int i = 20; i <= 26; i++) {
        ucr_canvas_set(cv, (ucr_point){ i, 2 }, 8);
        ucr_canvas_set(cv, (ucr_point){ i, 8 }, 8);
    }
    int pocket = ucr_canvas_region(cv, (ucr_point){ 23, 5 }, 20);   /* 9 free squares */
    ck_assert_int_ge(pocket, 0);
    ck_assert_int_ne(pocket, UCR_CANVAS_REGION_LARGE);
    ck_assert_int_eq(ucr_canvas_region(cv, east, 20), UCR_CANVAS_REGION_LARGE);
    /* The corridor taken away (a change of the canvas): one region again. */
    for (int y = 0; y < 20; y++)
        ucr_canvas_set(cv, (ucr_point){ 15, y }, UCR_CANVAS_EMPTY);
    ck_assert_int_eq(ucr_canvas_region(cv, west, 10000), ucr_canvas_region(cv, east, 10000));
    ucr_canvas_free(cv);
}
END_TEST

/* Over random canvases: two free squares share a region exactly when the
 * canvas's own router finds a corridor between them (the outer ring taken,
 * so that neither may use it). */
START_TEST(regions_agree_with_the_router)
{
    ucr_prng rng;
    ucr_prng_seed(&rng, "regions", "test");
    int same = 0, apart = 0;
    for (int round = 0; round < 60; round++) {
        ucr_canvas *cv = ucr_canvas_new(24, 18);
        for (int x = 0; x < 24; x++)
            for (int y = 0; y < 18; y++)
                if (x == 0 || y == 0 || x == 23 || y == 17)
                    ucr_canvas_set(cv, (ucr_point){ x, y }, 1);
        int things = 3 + (int)ucr_prng_below(&rng, 8);
        for (int k = 0; k < things; k++) {
            int x = 1 + (int)ucr_prng_below(&rng, 20), y = 1 + (int)ucr_prng_below(&rng, 14);
            bool across = ucr_prng_below(&rng, 2);
            int len = 3 + (int)ucr_prng_below(&rng, 16);
            for (int i = 0; i < len; i++)
                ucr_canvas_set(cv, across ? (ucr_point){ x + i, y } : (ucr_point){ x, y + i }, 2 + k);
        }
        for (int pair = 0; pair < 40; pair++) {
            ucr_point p = { 1 + (int)ucr_prng_below(&rng, 22), 1 + (int)ucr_prng_below(&rng, 16) };
            ucr_point q = { 1 + (int)ucr_prng_below(&rng, 22), 1 + (int)ucr_prng_below(&rng, 16) };
            int rp = ucr_canvas_region(cv, p, 100000), rq = ucr_canvas_region(cv, q, 100000);
            bool free_p = ucr_canvas_square_ok(cv, p, UCR_CANVAS_EMPTY), free_q = ucr_canvas_square_ok(cv, q, UCR_CANVAS_EMPTY);
            ck_assert_int_eq(rp != UCR_CANVAS_REGION_NONE, free_p);
            ck_assert_int_eq(rq != UCR_CANVAS_REGION_NONE, free_q);
            if (!free_p || !free_q || ucr_point_eq(p, q))
                continue;
            GArray *route = ucr_canvas_route(cv, p, UCR_CANVAS_EMPTY, q, UCR_CANVAS_EMPTY, 1);
            ck_assert_msg((route != NULL) == (rp == rq), "round %d: (%d,%d) region %d, (%d,%d) region %d, route %s",
                          round, p.x, p.y, rp, q.x, q.y, rq, route ? "found" : "none");
            if (route)
                g_array_free(route, TRUE);
            if (rp == rq)
                same++;
            else
                apart++;
        }
        ucr_canvas_free(cv);
    }
    /* Both answers seen often enough for the test to mean something. */
    ck_assert_int_ge(same, 100);
    ck_assert_int_ge(apart, 50);
}
END_TEST

/* The routers give up early where the regions of rock show a route cannot
 * exist (ucr_pc_set_shortcuts): every dungeon of the methods that route
 * with the kit must come out the same with and without that. */
START_TEST(routing_shortcuts_change_nothing)
{
    const char *methods[] = { "numbered", "clock", "tictactoe", "compass", NULL };
    int seeds = getenv("UCR_SAN") ? 3 : 12;
    for (int m = 0; methods[m]; m++)
        for (int i = 1; i <= seeds; i++) {
            char *seed = g_strdup_printf("shortcut-%d", i);
            char *json[2];
            for (int on = 0; on < 2; on++) {
                ucr_pc_set_shortcuts(on);
                ucr_gen_options opt = { seed, 2, 2, tables, ucr_node_method_lookup(methods[m]), { 0 } };
                ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, NULL);
                ck_assert_msg(md, "seed %s, method %s: no dungeon", seed, methods[m]);
                json[on] = ucr_json_write(md);
                ucr_megadungeon_free(md);
            }
            ck_assert_msg(strcmp(json[0], json[1]) == 0, "seed %s, method %s: the shortcuts changed the dungeon",
                          seed, methods[m]);
            g_free(json[0]);
            g_free(json[1]);
            g_free(seed);
        }
    ucr_pc_set_shortcuts(true);
}
END_TEST

static Suite *corridors_suite(void)
{
    Suite *s = suite_create("corridors");
    TCase *tc = tcase_create("lengths");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, numbered_corridors_are_as_long_as_rolled);
    suite_add_tcase(s, tc);
    TCase *regions = tcase_create("regions");
    tcase_add_checked_fixture(regions, setup, teardown);
    tcase_add_test(regions, regions_of_rock_split_and_join);
    tcase_add_test(regions, regions_agree_with_the_router);
    tcase_add_test(regions, routing_shortcuts_change_nothing);
    tcase_set_timeout(regions, 120);
    suite_add_tcase(s, regions);
    return s;
}

int main(void)
{
    return ucr_check_run(corridors_suite());
}
