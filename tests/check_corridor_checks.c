/* Seeds 000 and 001: corridors are tested every 60 ft (every 30 ft in 001's
 * compass variant) for side passages and doors (gen/kit/preconnect.h,
 * ucr_pc_corridor_checks), read back from the recorded rolls and the model
 * over many seeds of every pre-connecting method. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "gen/super/megadungeon.h"
#include "pipeline/pipeline.h"

/* A wall that took nothing, as the honour report reads it (model/honour_rule.h). */
#define MISS "(?:nothing fits there|no room)"

static ucr_tables *tables;

static void tables_setup(void)
{
    tables = ucr_test_tables();
}

static void tables_teardown(void)
{
    ucr_tables_free(tables);
}

static int degree(const ucr_node *n, int v)
{
    int d = 0;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
        d += (p->a == v) + (p->b == v);
    }
    return d;
}

static int doors_on(const ucr_node *n, int area)
{
    int d = 0;
    for (guint k = 0; k < n->doors->len; k++)
        d += g_array_index(n->doors, ucr_door, k).area == area;
    return d;
}

START_TEST(corridors_are_checked)
{
    static const char *const methods[] = { "numbered", "clock", "tictactoe", "compass" };
    int seeds = g_getenv("UCR_SAN") ? 10 : 60;
    for (gsize m = 0; m < G_N_ELEMENTS(methods); m++) {
        int checks = 0, side = 0, door = 0, to_room = 0, nodes = 0, nodes_checked = 0;
        int rolled[2] = { 0, 0 }, drawn[2] = { 0, 0 };   /* [0] side passages, [1] doors */
        int every = strcmp(methods[m], "compass") == 0 ? 3 : 6;
        for (int s = 1; s <= seeds; s++) {
            char seed[32];
            g_snprintf(seed, sizeof seed, "checks-%d", s);
            GError *error = NULL;
            ucr_gen_options opt = { seed, 3, 3, tables, ucr_node_method_lookup(methods[m]), { 0 } };
            ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
            ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
            for (guint i = 0; i < md->nodes->len; i++) {
                const ucr_node *n = g_ptr_array_index(md->nodes, i);
                int here = 0;
                nodes++;
                for (guint r = 0; r < n->rolls->len; r++) {
                    const char *roll = g_ptr_array_index(n->rolls, r);
                    if (!g_str_has_prefix(roll, "corridor check "))
                        continue;
                    here++;
                    /* At a whole number of intervals along a corridor, and on
                     * the corridor-check table (1d10). */
                    int ft = atoi(roll + strlen("corridor check "));
                    ck_assert_msg(ft > 0 && ft % 10 == 0 && ft / 10 >= every - 1, "%s %s: '%s'", seed, n->id, roll);
                    ck_assert_msg(strstr(roll, ": 1d10="), "%s %s: '%s'", seed, n->id, roll);
                    to_room += strstr(roll, "wall: to room") != NULL;
                    /* Drawn as rolled, read as the honour report reads it. */
                    for (int x = 0; x < 2; x++) {
                        const char *what = x ? "a door" : "a side passage";
                        char *rx = g_strdup_printf(": 1d10=[0-9]+: %s", what);
                        char *miss = g_strdup_printf(": %s(?: on the [a-z]+ wall: " MISS "; [a-z]+ wall: " MISS
                                                     "|: nothing fits there(?: \\(its destination, rolled first: .*\\))?)$", what);
                        if (g_regex_match_simple(rx, roll, 0, 0)) {
                            rolled[x]++;
                            drawn[x] += !g_regex_match_simple(miss, roll, 0, 0);
                        }
                        g_free(rx);
                        g_free(miss);
                    }
                    /* Every wall tried says what it took, or that it took
                     * nothing ("west wall: no room"), never an empty "wall: ;". */
                    ck_assert_msg(!strstr(roll, "wall: ;") && !g_str_has_suffix(roll, "wall: ") &&
                                      !strstr(roll, ": no room on the "),
                                  "%s %s: '%s'", seed, n->id, roll);
                }
                checks += here;
                nodes_checked += here > 0;
                /* Every junction a check made: a side passage leaves the
                 * corridor there (three ways), and a door check's junction
                 * holds the door on its wall. */
                for (guint a = 0; a < n->areas->len; a++) {
                    const ucr_area *ar = &g_array_index(n->areas, ucr_area, a);
                    if (!ar->rolled || ar->kind != UCR_AREA_JUNCTION)
                        continue;
                    bool s_side = strstr(ar->rolled, "where a side passage branches off") != NULL;
                    bool s_door = strstr(ar->rolled, "where a door opens off the corridor") != NULL;
                    if (!s_side && !s_door)
                        continue;
                    side += s_side;
                    door += s_door;
                    ck_assert_msg(degree(n, (int)a) >= 3, "%s %s %d: a check's junction with %d ways", seed, n->id,
                                  ar->key, degree(n, (int)a));
                    if (s_door)
                        ck_assert_msg(doors_on(n, (int)a) >= 1, "%s %s %d: a door check without its door", seed,
                                      n->id, ar->key);
                }
            }
            ucr_megadungeon_free(md);
        }
        /* The rule is there: most nodes' corridors are checked, the checks
         * find side passages and doors, and some side passages reach a room
         * (a loop between rooms). */
        ck_assert_msg(nodes_checked * 10 > nodes * 7, "%s: %d of %d nodes checked", methods[m], nodes_checked, nodes);
        ck_assert_msg(side > 0 && door > 0 && to_room > 0, "%s: %d checks, %d side, %d door, %d to a room",
                      methods[m], checks, side, door, to_room);
        /* Issue 22: what a check rolls is drawn — a door or side passage at
         * the cell rolled or up to 30 ft along, to a room beside, a new room
         * behind a door, or what lies straight beside the corridor (12-40%
         * of doors and 65-72% of side passages, when only the rolled cell
         * was tried and a room beside or a dead end in rock). */
        fprintf(stderr, "%s: side passages drawn %d of %d (%.0f%%), doors %d of %d (%.0f%%)\n", methods[m],
                drawn[0], rolled[0], rolled[0] ? 100.0 * drawn[0] / rolled[0] : 0.0, drawn[1], rolled[1],
                rolled[1] ? 100.0 * drawn[1] / rolled[1] : 0.0);
        /* A check that finds nothing at its cell is tried 10-30 ft along
         * the corridor round a bend too, on the walls of the stretch there
         * (issue 22: doors 84-88% when it held to the rolled cell's own
         * stretch); compass checks among denser corridors.  A side
         * passage whose destination the method rolls first (clock,
         * tictactoe) opens only on the wall facing it, where the rock
         * beyond opens out, looking 40-50 ft along the corridor for that
         * wall (check_near): 94% over this sample (88-89% when it looked
         * 30 ft only). Under the sanitizers (10 seeds, a sixth of the
         * sample) two points lower; compass's side passages three: 87.1%
         * there on the 27 November main and 86.8% once its junction tables
         * draw more rooms (one roll fewer; 91.5% and 92.1% over the 60
         * seeds), 85.5% once its doors slide 50 ft (91.9% over the 60;
         * 91.8% over 1,000 seeds of stats against 92.0%).  Compass's doors slide up to 50 ft (pc->door_slide):
         * 90% when they slid 30 ft, 93% now (compass8). */
        bool compass = strcmp(methods[m], "compass") == 0, numbered = strcmp(methods[m], "numbered") == 0;
        int slack = g_getenv("UCR_SAN") ? 2 : 0;
        int least[2] = { (numbered ? 92 : compass ? 89 - slack : 92) - slack, (compass ? 91 : 89) - slack };
        for (int x = 0; x < 2; x++)
            ck_assert_msg(drawn[x] * 100 >= rolled[x] * least[x], "%s: %s drawn %d of %d", methods[m],
                          x ? "doors" : "side passages", drawn[x], rolled[x]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("corridor_checks");
    TCase *tc = tcase_create("checks");
    tcase_set_timeout(tc, 600);
    tcase_add_unchecked_fixture(tc, tables_setup, tables_teardown);
    tcase_add_test(tc, corridors_are_checked);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
