/* Tests of attaching landings and edge tunnels to drawn nodes. */
#include <check.h>
#include <string.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "gen/kit/attach.h"
#include "gen/super/megadungeon.h"
#include "invariants.h"
#include "model/json.h"
#include "pipeline/pipeline.h"

static ucr_tables *tables;

static void setup(void)
{
    tables = ucr_test_tables();
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

/* The row text of the last roll in a seed 004 description
 * ("2d6=9 (4+5): stairs down, roll again; 1d6=2: stairs; then 2d6=4 (2+2):
 * door to a room" → "door to a room"). */
static char *last_row(const char *desc)
{
    const char *then = g_strrstr(desc, "then 2d6=");
    const char *from = then ? then : desc;
    const char *colon = strstr(from, ": ");
    ck_assert_ptr_nonnull(colon);
    const char *end = strstr(colon + 2, "; ");
    return end ? g_strndup(colon + 2, (gsize)(end - colon - 2)) : g_strdup(colon + 2);
}

/* Does passage @p leave the map by @side (its exit vertex on that edge)? */
static bool leaves_by(const ucr_node *n, const ucr_passage *p, ucr_dir side)
{
    for (int end = 0; end < 2; end++) {
        const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, end ? p->b : p->a);
        if (v->kind != UCR_VERTEX_EXIT)
            continue;
        bool ns = v->at.y == 0 || v->at.y == n->height - 1, we = v->at.x == 0 || v->at.x == n->width - 1;
        if (ns && we && p->cells->len >= 2) {
            /* A corner: it leaves by the side its last step heads to (a
             * west tunnel may run along the north edge to the corner). */
            guint last = end ? p->cells->len - 1 : 0, before = end ? last - 1 : 1;
            ucr_point a = g_array_index(p->cells, ucr_point, before), b = g_array_index(p->cells, ucr_point, last);
            ns = b.y != a.y;
            we = b.x != a.x;
        }
        if ((side == UCR_NORTH && ns && v->at.y == 0) || (side == UCR_SOUTH && ns && v->at.y == n->height - 1) ||
            (side == UCR_WEST && we && v->at.x == 0) || (side == UCR_EAST && we && v->at.x == n->width - 1))
            return true;
    }
    return false;
}

/* Seed 004, Step 2 -> 3: a superstructure "room" result (double 2s: door to
 * a room; double 4s: room) is a real keyed chamber on its tunnel, in the
 * node at the end that rolled it, whatever that node's method: a room with
 * the superstructure's dice, a key number and contents, in the JSON, that
 * the tunnel runs through (a passage in from the node, one out to the map
 * edge on its side), holding the tunnel's link when it has one; on double
 * 2s a door on its wall.  No other end gets one. */
START_TEST(superstructure_rooms_are_chambers_in_every_method)
{
    const ucr_node_method *const *methods = ucr_node_methods();
    int per = g_getenv("UCR_SAN") ? 15 : 60;
    for (int m = 0; methods[m]; m++) {
        long chambers = 0, behind_doors = 0;
        for (int i = 0; i < per; i++) {
            char seed[64];
            g_snprintf(seed, sizeof seed, "chamber-%s-%d", methods[m]->name, i);
            ucr_gen_options opt = { seed, 3, 3, tables, methods[m], { 0 } };
            GError *error = NULL;
            ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, TRUE, &error);
            ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
            char *json = ucr_json_write(md);
            GArray *ends = g_array_new(FALSE, FALSE, sizeof(int));
            for (guint t = 0; t < md->tunnels->len; t++) {
                const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
                int d = tu->to / md->columns == tu->from / md->columns ? UCR_EAST : UCR_SOUTH;
                int a = tu->from * 4 + d, b = tu->to * 4 + (d + 2) % 4;
                g_array_append_val(ends, a);
                g_array_append_val(ends, b);
            }
            if (!md->entrance_stairs) {
                int a = md->entrance_node * 4 + (int)md->entrance_side;
                g_array_append_val(ends, a);
            }
            for (guint k = 0; k < ends->len; k++) {
                int h = g_array_index(ends, int, k);
                ucr_dir side = (ucr_dir)(h % 4);
                const char *rolled = md->halves[h].rolled;
                char *row = last_row(rolled);
                bool door = strcmp(row, "door to a room") == 0, room = door || strcmp(row, "room") == 0;
                g_free(row);
                const ucr_node *n = g_ptr_array_index(md->nodes, h / 4);
                char *want = g_strdup_printf("superstructure tunnel %s, a chamber on the way: %s; room size",
                                             ucr_dir_name(side), rolled);
                int found = 0;
                for (guint a = 0; a < n->areas->len; a++) {
                    const ucr_area *ar = AREA(n, a);
                    if (!ar->rolled || !g_str_has_prefix(ar->rolled, want))
                        continue;
                    found++;
                    ck_assert_int_eq(ar->kind, UCR_AREA_ROOM);
                    ck_assert_int_gt(ar->key, 0);
                    ck_assert_ptr_nonnull(ar->contents);   /* keyed: stocked as a room */
                    GString *js = g_string_new(NULL);
                    ucr_json_string(js, ar->rolled);
                    ck_assert_msg(strstr(json, js->str), "seed %s: chamber %s-%d not in the JSON", seed, n->id,
                                  ar->key);
                    g_string_free(js, TRUE);
                    /* The tunnel runs through it: in from the node, out by its side. */
                    int in = 0, out = 0;
                    for (guint p = 0; p < n->passages->len; p++) {
                        const ucr_passage *ps = PASSAGE(n, p);
                        if (ps->a != (int)a && ps->b != (int)a)
                            continue;
                        if (leaves_by(n, ps, side))
                            out++;
                        else
                            in++;
                    }
                    /* grid lays its stations along the tunnel as it draws
                     * it: stairs may lie between its chamber and the edge. */
                    bool grid = strcmp(n->method, "grid") == 0;
                    ck_assert_msg(in + out >= 2 && out <= 1 && (grid || out == 1),
                                  "seed %s: chamber %s-%d has %d ways in, %d out %s", seed, n->id, ar->key, in,
                                  out, ucr_dir_name(side));
                    /* The superstructure tunnel's link (if it is not
                     * collapsed) leaves from it when it is the last area
                     * before the edge. */
                    for (guint l = 0; out && l < n->links->len; l++) {
                        const ucr_link *ln = &g_array_index(n->links, ucr_link, l);
                        if ((ln->kind == UCR_LINK_TUNNEL || ln->kind == UCR_LINK_ENTRANCE) && ln->has_side &&
                            ln->side == side)
                            ck_assert_msg(ln->area == (int)a, "seed %s: %s's %s tunnel leaves from %d, not the chamber",
                                          seed, n->id, ucr_dir_name(side), AREA(n, ln->area)->key);
                    }
                    if (door) {
                        int doors = 0;
                        for (guint d = 0; d < n->doors->len; d++)
                            doors += g_array_index(n->doors, ucr_door, d).area == (int)a;
                        ck_assert_msg(doors >= 1, "seed %s: chamber %s-%d behind a door has none", seed, n->id,
                                      ar->key);
                        behind_doors++;
                    }
                }
                ck_assert_msg(found == (room ? 1 : 0), "seed %s node %s (%s) side %s: %d chambers for '%s'", seed,
                              n->id, n->method, ucr_dir_name(side), found, rolled);
                chambers += found;
                g_free(want);
            }
            for (guint ni = 0; ni < md->nodes->len; ni++)
                ucr_test_check_node_geometry(md, g_ptr_array_index(md->nodes, ni), seed);
            ucr_test_check_megadungeon(md, seed);
            g_array_free(ends, TRUE);
            g_free(json);
            ucr_megadungeon_free(md);
        }
        /* Double 2s or 4s on one of a 3 × 3's dozen-odd tunnel ends: about
         * one in nine rolls, so most dungeons hold one. */
        ck_assert_msg(chambers >= per / 3, "%s: only %ld chambers in %d dungeons", methods[m]->name, chambers, per);
        ck_assert_msg(behind_doors > 0, "%s: no chamber behind a door", methods[m]->name);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("attach");
    TCase *tc = tcase_create("attach");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, landings_and_edges_keep_the_invariants);
    tcase_add_test(tc, superstructure_rooms_are_chambers_in_every_method);
    tcase_set_timeout(tc, 900);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
