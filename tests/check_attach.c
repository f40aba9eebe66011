/* Tests of attaching landings and edge tunnels to drawn nodes. */
#include <check.h>
#include <string.h>

#include "check_run.h"
#include "core/datadir.h"
#include "gen/attach.h"
#include "gen/megadungeon.h"
#include "invariants.h"
#include "pipeline/pipeline.h"

static ucr_tables *tables;

static void setup(void)
{
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    tables = ucr_pipeline_tables_load(dir, NULL, NULL);
    g_free(dir);
    ck_assert_ptr_nonnull(tables);
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

START_TEST(landings_and_edges_keep_the_invariants)
{
    int landed = 0, tries = 0, edges = 0;
    for (int s = 0; s < 40; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "attach-%d", s);
        ucr_gen_options opt = { seed, 2, 2, tables, NULL, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, NULL);
        ck_assert_ptr_nonnull(md);
        ucr_prng rng;
        ucr_prng_seed(&rng, seed, "attach-test");
        for (guint i = 0; i < md->nodes->len; i++) {
            ucr_node *n = g_ptr_array_index(md->nodes, i);
            ucr_canvas *cv = ucr_attach_canvas(n);
            guint areas = n->areas->len, passages = n->passages->len;
            for (int k = 0; k < 4; k++) {
                tries++;
                int li = ucr_attach_landing(n, cv, k % 2 ? UCR_LADDER_UP : UCR_STAIR_DOWN, &rng);
                if (li < 0)
                    continue;
                landed++;
                const ucr_area *a = &g_array_index(n->areas, ucr_area, li);
                ck_assert_int_eq(a->kind, UCR_AREA_STAIRS);
                ck_assert_int_eq(a->stair, k % 2 ? UCR_LADDER_UP : UCR_STAIR_DOWN);
                ck_assert_int_eq(g_array_index(n->vertices, ucr_vertex, li).area, li);
            }
            ucr_half door = { 0 };
            door.n = 1;
            door.steps[0].kind = s % 3 == 0 ? UCR_STEP_SECRET : UCR_STEP_DOOR;
            door.through = true;
            for (int d = 0; d < 4; d++) {
                guint doors = n->doors->len;
                int ai = ucr_attach_edge(n, cv, (ucr_dir)d, &door, &rng);
                if (ai < 0)
                    continue;
                edges++;
                ck_assert_int_eq(n->doors->len, doors + 1);
                const ucr_door *dr = &g_array_index(n->doors, ucr_door, doors);
                ck_assert_int_eq(dr->kind, s % 3 == 0 ? UCR_DOOR_SECRET : UCR_DOOR_PLAIN);
                const ucr_passage *p = &g_array_index(n->passages, ucr_passage, n->passages->len - 1);
                const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, p->b);
                ck_assert_int_eq(v->kind, UCR_VERTEX_EXIT);
                ucr_point last = g_array_index(p->cells, ucr_point, p->cells->len - 1);
                ck_assert(d == UCR_NORTH ? last.y == 0 : d == UCR_SOUTH ? last.y == n->height - 1
                          : d == UCR_WEST ? last.x == 0 : last.x == n->width - 1);
            }
            ck_assert_int_ge(n->areas->len, areas);
            ck_assert_int_ge(n->passages->len, passages);
            ucr_test_check_node_geometry(md, n, seed);
            ucr_canvas_free(cv);
        }
        ucr_megadungeon_free(md);
    }
    /* Grid nodes have plenty of free rock: nearly every landing fits. */
    ck_assert_msg(landed * 10 >= tries * 9, "only %d of %d landings fitted", landed, tries);
    ck_assert_int_gt(edges, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("attach");
    TCase *tc = tcase_create("attach");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, landings_and_edges_keep_the_invariants);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
