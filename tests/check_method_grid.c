/* Tests of the "grid" node method (seed 004, "RDG 2.0", Steps 2 and 3),
 * read back from the model over many seeds: rooms at the intersections,
 * room exits that become tunnels, the superstructure's chambers keyed where
 * its tunnels join, and the loops between rooms that follow.  The shared
 * invariants over 1,000 grid dungeons are in check_megadungeon. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "gen/super/megadungeon.h"
#include "pipeline/pipeline.h"
#include "invariants.h"

enum { SEEDS = 1000 };

static ucr_tables *tables;

static void setup(void)
{
    tables = ucr_test_tables();
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

static int seeds(void)
{
    return g_getenv("UCR_SAN") ? SEEDS / 4 : SEEDS;
}

static ucr_megadungeon *generate(int i)
{
    char seed[32];
    g_snprintf(seed, sizeof seed, "grid-%d", i);
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, ucr_node_method_lookup("grid"), { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

/* The row text of the last roll in a seed 004 description
 * ("2d6=9 (4+5): stairs down, roll again; 1d6=2: stairs; then 2d6=5 (2+3):
 * wall" → "wall"). */
static char *last_row(const char *desc)
{
    const char *then = g_strrstr(desc, "then 2d6=");
    const char *from = then ? then : desc;
    const char *colon = strstr(from, ": ");
    ck_assert_ptr_nonnull(colon);
    const char *end = strstr(colon + 2, "; ");
    return end ? g_strndup(colon + 2, (gsize)(end - colon - 2)) : g_strdup(colon + 2);
}

/* Does a passage leave area @a through its wall on side @d? */
static bool passage_leaves(const ucr_node *n, int a, ucr_dir d)
{
    const ucr_area *ar = AREA(n, a);
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (int end = 0; end < 2; end++) {
            if ((end ? p->b : p->a) != a)
                continue;
            ucr_point c = g_array_index(p->cells, ucr_point, end ? p->cells->len - 1 : 0);
            bool side = (d == UCR_NORTH && c.y < ar->y) || (d == UCR_SOUTH && c.y >= ar->y + ar->h) ||
                        (d == UCR_WEST && c.x < ar->x) || (d == UCR_EAST && c.x >= ar->x + ar->w);
            if (side)
                return true;
        }
    }
    return false;
}

static int passages_at(const ucr_node *n, int a)
{
    int k = 0;
    for (guint i = 0; i < n->passages->len; i++)
        k += (PASSAGE(n, i)->a == a) + (PASSAGE(n, i)->b == a);
    return k;
}

/* Seed 004: "room exits can generate additional tunnels as well".  Every
 * exit a room rolled that goes through (not a wall, and not one the map had
 * no way for, which the key says) is a passage out of that wall. */
START_TEST(every_room_exit_has_a_tunnel)
{
    static const char *const DIRS[4] = { "north", "east", "south", "west" };
    long exits = 0, tunnels = 0, nowhere = 0, cross_tunnels = 0, cross_nowhere = 0;
    for (int i = 0; i < seeds(); i++) {
        ucr_megadungeon *md = generate(i);
        for (guint ni = 0; ni < md->nodes->len; ni++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, ni);
            for (guint a = 0; a < n->areas->len; a++) {
                const ucr_area *ar = AREA(n, a);
                if (ar->kind != UCR_AREA_ROOM || !ar->rolled)
                    continue;
                char **parts = g_strsplit(ar->rolled, "; exit ", -1);
                bool crossing = g_str_has_prefix(ar->rolled, "intersection ");
                int walls = 0;
                for (int k = 1; parts[k]; k++) {
                    int d = -1;
                    for (int j = 0; j < 4; j++)
                        if (g_str_has_prefix(parts[k], DIRS[j]) && parts[k][strlen(DIRS[j])] == ':')
                            d = j;
                    ck_assert_msg(d >= 0, "seed grid-%d node %s room %d: exit record '%s'", i, n->id,
                                  ar->key, parts[k]);
                    ck_assert_int_eq(walls & (1 << d), 0);   /* one roll per wall */
                    walls |= 1 << d;
                    exits++;
                    if (g_str_has_suffix(parts[k], "(no way for it on this map: a wall)")) {
                        nowhere++;
                        cross_nowhere += crossing;
                        continue;
                    }
                    char *row = last_row(parts[k] + strlen(DIRS[d]) + 2);
                    bool through = strcmp(row, "wall") != 0 && !strstr(row, "roll again");
                    g_free(row);
                    if (!through)
                        continue;
                    tunnels++;
                    cross_tunnels += crossing;
                    ck_assert_msg(passage_leaves(n, (int)a, (ucr_dir)d),
                                  "seed grid-%d node %s room %d: exit %s rolled a tunnel, no passage there",
                                  i, n->id, ar->key, DIRS[d]);
                }
                g_strfreev(parts);
            }
        }
        ucr_megadungeon_free(md);
    }
    /* The rule is in play, and most exits that go through find a way. */
    ck_assert_int_gt(tunnels, seeds() * 9);
    ck_assert_msg(nowhere * 3 < tunnels + nowhere, "%ld of %ld open exits met nothing", nowhere,
                  tunnels + nowhere);
    ck_assert_int_gt(exits, tunnels);
    /* A crossing room's exit out of a wall where the lattice's tunnel stops
     * in rock opens that tunnel, so the crossings' exits find a way: 6% of
     * them none over these seeds (18% before, when the tunnel's rock end
     * stood in the way of every mouth of that wall). */
    printf("grid over %d seeds: crossing rooms' open exits %ld drawn, %ld with no way\n", seeds(),
           cross_tunnels, cross_nowhere);
    ck_assert_msg(cross_nowhere * 100 < (cross_tunnels + cross_nowhere) * 10,
                  "%ld of %ld crossing rooms' open exits met nothing", cross_nowhere,
                  cross_tunnels + cross_nowhere);
}
END_TEST

/* Step 3 fills the intersections: each one a tunnel reaches is a room from
 * the room table (at most 5 × 4 at the crossing), and a tunnel leaves it;
 * the T junctions where room exits meet the grid join three ways. */
START_TEST(intersections_are_rooms_and_tees_join)
{
    long tees = 0;
    for (int i = 0; i < seeds(); i++) {
        ucr_megadungeon *md = generate(i);
        for (guint ni = 0; ni < md->nodes->len; ni++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, ni);
            int crossings = 0;
            for (guint a = 0; a < n->areas->len; a++) {
                const ucr_area *ar = AREA(n, a);
                if (ar->rolled && g_str_has_prefix(ar->rolled, "intersection ")) {
                    crossings++;
                    ck_assert_int_eq(ar->kind, UCR_AREA_ROOM);
                    ck_assert(strstr(ar->rolled, ": room size 1d20="));
                    ck_assert_int_le(ar->w, 5);
                    ck_assert_int_le(ar->h, 4);
                    ck_assert_msg(passages_at(n, (int)a) >= 1, "seed grid-%d node %s: crossing %d has no tunnel",
                                  i, n->id, ar->key);
                }
                if (ar->kind == UCR_AREA_JUNCTION) {
                    ck_assert_str_eq(ar->rolled, "where a room exit's tunnel meets this one");
                    ck_assert_int_ge(passages_at(n, (int)a), 3);
                    tees++;
                }
            }
            ck_assert_int_ge(crossings, 1);
            ck_assert_int_le(crossings, 9);
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(tees, seeds());
}
END_TEST

/* A superstructure "room" (double 2s behind a door, double 4s) is a chamber
 * on its tunnel: a keyed room in the node at the end that rolled it, with the
 * superstructure's dice, that the joining tunnel runs through. */
START_TEST(superstructure_rooms_are_keyed_chambers)
{
    long chambers = 0;
    for (int i = 0; i < seeds(); i++) {
        ucr_megadungeon *md = generate(i);
        /* The ends of every tunnel, and the entrance tunnel's outer end. */
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
            const char *rolled = md->halves[h].rolled;
            char *row = last_row(rolled);
            bool room = strcmp(row, "door to a room") == 0 || strcmp(row, "room") == 0;
            g_free(row);
            const ucr_node *n = g_ptr_array_index(md->nodes, h / 4);
            char *want = g_strdup_printf("superstructure tunnel %s, a chamber on the way: %s; room size",
                                         ucr_dir_name((ucr_dir)(h % 4)), rolled);
            int found = 0;
            for (guint a = 0; a < n->areas->len; a++) {
                const ucr_area *ar = AREA(n, a);
                if (!ar->rolled || !g_str_has_prefix(ar->rolled, want))
                    continue;
                found++;
                ck_assert_int_eq(ar->kind, UCR_AREA_ROOM);
                ck_assert_int_gt(ar->key, 0);
                /* The tunnel runs through it: in from the node, out to the edge. */
                ck_assert_int_ge(passages_at(n, (int)a), 2);
            }
            ck_assert_msg(found == (room ? 1 : 0), "seed grid-%d node %s side %s: %d chambers for '%s'", i,
                          n->id, ucr_dir_name((ucr_dir)(h % 4)), found, rolled);
            chambers += found;
            g_free(want);
        }
        g_array_free(ends, TRUE);
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(chambers, seeds() / 10);
}
END_TEST

/* The loops between rooms, counted as other generators are compared (rooms
 * the vertices, each corridor network one vertex; key/analysis.h): the
 * issue's bar is at least 0.25 per room and at most 15% of nodes without
 * one; and grid nodes have rooms to speak of (Step 3 fills the crossings). */
START_TEST(room_loops_over_many_seeds)
{
    long rooms = 0, loops = 0, nodes = 0, loopless = 0, walled = 0, areas = 0;
    int fewest = INT_MAX;
    GArray *per_node = g_array_new(FALSE, FALSE, sizeof(int));
    for (int i = 0; i < seeds(); i++) {
        ucr_megadungeon *md = generate(i);
        for (guint ni = 0; ni < md->nodes->len; ni++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, ni);
            nodes++;
            rooms += n->stats.rooms;
            loops += n->stats.room_loops;
            loopless += n->stats.room_loops == 0;
            fewest = MIN(fewest, n->stats.rooms);
            areas += n->areas->len;
            g_array_append_val(per_node, n->stats.rooms);
            /* Every area nothing reaches says why; pockets that no rule
             * asked for (walled in on all sides) stay rare. */
            int unreachable = 0;
            for (guint a = 0; a < n->areas->len; a++) {
                const ucr_area *ar = AREA(n, a);
                if (!ar->unreachable)
                    continue;
                unreachable++;
                walled += g_str_has_prefix(ar->unreachable, "walled in");
                /* ...and how the party gets there: rubble dug through in a
                 * stated time, rock dug or magic, or stairs from below. */
                ck_assert_msg(strstr(ar->unreachable, "dug through in 3 turns") ||
                                  strstr(ar->unreachable, "only digging") ||
                                  strstr(ar->unreachable, "stairs from the levels below"),
                              "%s-%d: '%s' does not say how it is reached", n->id, ar->key, ar->unreachable);
            }
            ck_assert_int_eq(unreachable, n->stats.unreachable);
        }
        ucr_megadungeon_free(md);
    }
    int median = 0;
    {
        int *v = (int *)per_node->data, n = (int)per_node->len;
        for (int a = 1; a < n; a++)   /* insertion sort: a few thousand small ints */
            for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
                int t = v[b]; v[b] = v[b - 1]; v[b - 1] = t;
            }
        median = v[n / 2];
    }
    g_array_free(per_node, TRUE);
    printf("grid over %d seeds: %ld room loops over %ld rooms (%.3f), %ld of %ld nodes without, the fewest "
           "rooms in a node %d\n",
           seeds(), loops, rooms, (double)loops / (double)rooms, loopless, nodes, fewest);
    /* Issue 22: the room exits' tunnels reach further and may loop round a
     * room on their own tunnel; they never end on a corridor network their
     * room already opens on, and a wall one square of rock from another
     * tunnel opens on it, and a crossing room's exit opens the lattice's
     * tunnel that stops in rock short of its wall (on the 39 x 45 standard
     * map, 0.371 a room over these seeds, then 0.392, now 0.417: the
     * issue's bar, 0.40), at most 10% of nodes without one. */
    ck_assert_msg(loops * 100 >= rooms * 40, "%ld room loops for %ld rooms", loops, rooms);
    ck_assert_msg(loopless * 100 <= nodes * 10, "%ld of %ld nodes without a loop between rooms", loopless,
                  nodes);
    /* No sublevel of fewer than four rooms. */
    ck_assert_int_ge(fewest, 4);
    ck_assert_msg(median >= 8, "median %d rooms per node", median);
    ck_assert_msg(walled * 200 < areas, "%ld of %ld areas walled in", walled, areas);
}
END_TEST

/* Issue #22: no sublevel of fewer than 4 rooms at the pocket size either
 * (the standard size: room_loops_over_many_seeds' fewest; `undercroft stats
 * --method grid --node-size pocket --count 1000`: none of 9,000 nodes). */
START_TEST(pocket_nodes_hold_four_rooms)
{
    int nodes, few = ucr_test_few_room_nodes(tables, "grid", UCR_NODE_POCKET, "grid-pocket", seeds() / 8, &nodes);
    printf("grid pocket: %d of %d nodes hold fewer than 4 rooms\n", few, nodes);
    ck_assert_msg(few == 0, "grid pocket: %d of %d nodes hold fewer than 4 rooms", few, nodes);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("method_grid");
    TCase *tc = tcase_create("properties");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, every_room_exit_has_a_tunnel);
    tcase_add_test(tc, intersections_are_rooms_and_tees_join);
    tcase_add_test(tc, superstructure_rooms_are_keyed_chambers);
    tcase_add_test(tc, room_loops_over_many_seeds);
    tcase_add_test(tc, pocket_nodes_hold_four_rooms);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
