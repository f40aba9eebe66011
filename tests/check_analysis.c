/* Tests of the non-linearity metrics on graphs with known answers. */
#include <check.h>

#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "key/analysis.h"

static ucr_stats analyse(int n, const int (*edges)[2], int m)
{
    ucr_graph *g = ucr_graph_new(n);
    g->entry = 0;
    for (int i = 0; i < m; i++)
        ucr_graph_add_edge(g, edges[i][0], edges[i][1]);
    ucr_stats s = { 0 };
    ucr_graph_analyse(g, &s);
    ucr_graph_free(g);
    return s;
}

START_TEST(tree)
{
    /* 0-1-2, 1-3, 3-4: no loops; 1 and 3 are cut vertices; 4 bridges;
     * leaves 0, 2, 4 are dead ends. */
    static const int e[][2] = { { 0, 1 }, { 1, 2 }, { 1, 3 }, { 3, 4 } };
    ucr_stats s = analyse(5, e, 4);
    ck_assert_int_eq(s.loops, 0);
    ck_assert_int_eq(s.components, 1);
    ck_assert_int_eq(s.chokepoints, 2);
    ck_assert_int_eq(s.bridges, 4);
    ck_assert_int_eq(s.dead_ends, 3);
    ck_assert_int_eq(s.on_loop, 0);
    ck_assert(s.loop_share == 0.0);
    ck_assert_int_eq(s.largest_loop, 0);
    /* From 0: 1 at 1, 2 and 3 at 2, 4 at 3. */
    ck_assert_int_eq(s.farthest, 3);
    ck_assert_int_eq(s.farthest_area, 4);
}
END_TEST

START_TEST(ring)
{
    static const int e[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 0 } };
    ucr_stats s = analyse(5, e, 5);
    ck_assert_int_eq(s.loops, 1);
    ck_assert_int_eq(s.chokepoints, 0);
    ck_assert_int_eq(s.bridges, 0);
    ck_assert_int_eq(s.dead_ends, 0);
    ck_assert_int_eq(s.on_loop, 5);
    ck_assert(s.loop_share == 1.0);
    ck_assert_int_eq(s.largest_loop, 5);
    /* Halfway round a ring of five: two steps either way. */
    ck_assert_int_eq(s.farthest, 2);
}
END_TEST

START_TEST(two_rings_and_a_bridge)
{
    /* Triangle 0-1-2, triangle 3-4-5, bridge 2-3. */
    static const int e[][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 3, 4 }, { 4, 5 }, { 5, 3 }, { 2, 3 } };
    ucr_stats s = analyse(6, e, 7);
    ck_assert_int_eq(s.loops, 2);
    ck_assert_int_eq(s.chokepoints, 2);   /* 2 and 3 */
    ck_assert_int_eq(s.bridges, 1);
    ck_assert_int_eq(s.dead_ends, 0);
    /* The bridge's ends lie on their own triangles: every area is on a loop,
     * and the largest loop is a triangle, not the six joined by the bridge. */
    ck_assert_int_eq(s.on_loop, 6);
    ck_assert_int_eq(s.largest_loop, 3);
    ck_assert_int_eq(s.farthest, 3);   /* 0 → 2 → 3 → 4 */
}
END_TEST

START_TEST(figure_eight)
{
    /* Two rings sharing vertex 0: one cut vertex, no bridge. */
    static const int e[][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 0, 3 }, { 3, 4 }, { 4, 0 } };
    ucr_stats s = analyse(5, e, 6);
    ck_assert_int_eq(s.loops, 2);
    ck_assert_int_eq(s.chokepoints, 1);
    ck_assert_int_eq(s.bridges, 0);
    /* Two biconnected components of three, not one tangle of five: the
     * shared area is a chokepoint between the two loops. */
    ck_assert_int_eq(s.on_loop, 5);
    ck_assert_int_eq(s.largest_loop, 3);
}
END_TEST

START_TEST(grid_of_four_loops)
{
    /* A 3 × 3 grid of intersections with every tunnel open: 12 edges, nine
     * vertices, four independent loops, one biconnected tangle of nine. */
    int e[12][2], m = 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            if (c < 2) { e[m][0] = r * 3 + c; e[m][1] = r * 3 + c + 1; m++; }
            if (r < 2) { e[m][0] = r * 3 + c; e[m][1] = r * 3 + c + 3; m++; }
        }
    ucr_stats s = analyse(9, (const int (*)[2])e, m);
    ck_assert_int_eq(s.loops, 4);
    ck_assert_int_eq(s.on_loop, 9);
    ck_assert_int_eq(s.largest_loop, 9);
    ck_assert_int_eq(s.chokepoints, 0);
    ck_assert_int_eq(s.farthest, 4);
    ck_assert_int_eq(s.farthest_area, 8);
}
END_TEST

START_TEST(self_loop_and_non_areas)
{
    /* Area 0 has a passage that leaves and re-enters it; vertices 3 and 4
     * are not areas (a dead end and a map exit): they count in no share. */
    ucr_graph *g = ucr_graph_new(5);
    g->nareas = 3;
    g->entry = 0;
    ucr_graph_add_edge_length(g, 0, 0, 6);
    ucr_graph_add_edge_length(g, 0, 1, 4);
    ucr_graph_add_edge_length(g, 1, 2, 5);
    ucr_graph_add_edge_length(g, 1, 3, 30);   /* longer, but no area */
    ucr_graph_add_edge_length(g, 2, 4, 1);
    ucr_stats s = { 0 };
    ucr_graph_analyse(g, &s);
    ck_assert_int_eq(s.loops, 1);
    ck_assert_int_eq(s.on_loop, 1);
    ck_assert_int_eq(s.largest_loop, 1);
    ck_assert(s.loop_share > 0.333 && s.loop_share < 0.334);
    ck_assert_int_eq(s.farthest, 9);          /* squares 4 + 5 to area 2 */
    ck_assert_int_eq(s.farthest_area, 2);
    ucr_graph_free(g);
}
END_TEST

START_TEST(farthest_takes_the_short_way)
{
    /* A ring whose one side is long: the walk goes the short way round. */
    ucr_graph *g = ucr_graph_new(3);
    g->entry = 0;
    ucr_graph_add_edge_length(g, 0, 1, 10);
    ucr_graph_add_edge_length(g, 1, 2, 3);
    ucr_graph_add_edge_length(g, 2, 0, 4);
    ucr_stats s = { 0 };
    ucr_graph_analyse(g, &s);
    ck_assert_int_eq(s.farthest, 7);
    ck_assert_int_eq(s.farthest_area, 1);
    ucr_graph_free(g);
}
END_TEST

START_TEST(parallel_passages_and_pieces)
{
    /* Two passages between the same areas are a loop, not a bridge; a
     * second piece counts as a component; an isolated area is no dead end. */
    static const int e[][2] = { { 0, 1 }, { 0, 1 }, { 2, 3 } };
    ucr_stats s = analyse(5, e, 3);
    ck_assert_int_eq(s.components, 3);
    ck_assert_int_eq(s.loops, 1);
    ck_assert_int_eq(s.bridges, 1);
    ck_assert_int_eq(s.dead_ends, 2);
    ck_assert_int_eq(s.on_loop, 2);
    ck_assert_int_eq(s.largest_loop, 2);
    ck_assert(s.loop_share > 0.399 && s.loop_share < 0.401);
    ck_assert_int_eq(s.farthest, 1);   /* areas 2-4 are not reached from 0 */
}
END_TEST

START_TEST(stairs_are_a_way_out)
{
    /* A leaf that has stairs elsewhere is not a dead end. */
    ucr_graph *g = ucr_graph_new(3);
    ucr_graph_add_edge(g, 0, 1);
    ucr_graph_add_edge(g, 1, 2);
    g->leaves_elsewhere[2] = TRUE;
    ucr_stats s = { 0 };
    ucr_graph_analyse(g, &s);
    ck_assert_int_eq(s.dead_ends, 1);
    ucr_graph_free(g);
}
END_TEST

/* A node of @nareas areas (kinds from @kinds: 'R' room, 'J' junction,
 * 'S' stair landing) plus one dead end, for the room-graph count. */
static ucr_node *room_node(const char *kinds)
{
    ucr_node *n = ucr_node_new("A", 0, 0);
    int na = (int)strlen(kinds);
    for (int i = 0; i < na; i++) {
        ucr_area a = { 0 };
        a.key = i + 1;
        a.kind = kinds[i] == 'R' ? UCR_AREA_ROOM : kinds[i] == 'J' ? UCR_AREA_JUNCTION : UCR_AREA_STAIRS;
        a.link = -1;
        g_array_append_val(n->areas, a);
        ucr_vertex v = { UCR_VERTEX_AREA, i, { 0, 0 } };
        g_array_append_val(n->vertices, v);
    }
    ucr_vertex dead = { UCR_VERTEX_DEAD_END, -1, { 0, 0 } };
    g_array_append_val(n->vertices, dead);
    return n;
}

static void room_passage(ucr_node *n, int a, int b, ucr_edge_kind kind)
{
    ucr_passage p = { 0 };
    p.cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    p.stairs = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
    p.a = a;
    p.b = b;
    p.kind = kind;
    p.rubble = -1;
    g_array_append_val(n->passages, p);
}

START_TEST(room_graph_loops)
{
    /* Rooms 0, 1, 2; junction 3; stair landing 4; dead end 5. */
    ucr_node *n = room_node("RRRJS");
    /* One network (junction, landing and dead end glue it) touching all
     * three rooms, twice room 2: a star, no loop between rooms. */
    room_passage(n, 0, 3, UCR_EDGE_OPEN);
    room_passage(n, 1, 3, UCR_EDGE_DOOR);
    room_passage(n, 3, 4, UCR_EDGE_OPEN);
    room_passage(n, 4, 2, UCR_EDGE_OPEN);
    room_passage(n, 2, 3, UCR_EDGE_OPEN);
    room_passage(n, 3, 5, UCR_EDGE_OPEN);
    /* Out of room 0 and back: no loop between rooms. */
    room_passage(n, 0, 0, UCR_EDGE_OPEN);
    /* Collapsed: not passable. */
    room_passage(n, 1, 2, UCR_EDGE_BLOCKED);
    int rooms = -1;
    ck_assert_int_eq(ucr_node_room_loops(n, &rooms), 0);
    ck_assert_int_eq(rooms, 3);
    /* A corridor straight from room 0 to room 1 beside the network: a loop. */
    room_passage(n, 0, 1, UCR_EDGE_OPEN);
    ck_assert_int_eq(ucr_node_room_loops(n, NULL), 1);
    /* A secret one from 1 to 2: found, it is a second loop. */
    room_passage(n, 1, 2, UCR_EDGE_SECRET);
    ck_assert_int_eq(ucr_node_room_loops(n, NULL), 2);
    /* The node's own graph counts every passage: far more loops. */
    ucr_graph *g = ucr_node_graph(n);
    ucr_stats s = { 0 };
    ucr_graph_analyse(g, &s);
    ucr_graph_free(g);
    ck_assert_int_eq(s.loops, 9 - 6 + 1);
    ucr_node_free(n);
}
END_TEST

START_TEST(room_graph_without_rooms)
{
    /* Only junctions: loops of corridors, none between rooms. */
    ucr_node *n = room_node("JJJ");
    room_passage(n, 0, 1, UCR_EDGE_OPEN);
    room_passage(n, 1, 2, UCR_EDGE_OPEN);
    room_passage(n, 2, 0, UCR_EDGE_OPEN);
    int rooms = -1;
    ck_assert_int_eq(ucr_node_room_loops(n, &rooms), 0);
    ck_assert_int_eq(rooms, 0);
    ucr_node_free(n);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("analysis");
    TCase *tc = tcase_create("graphs");
    tcase_add_test(tc, tree);
    tcase_add_test(tc, ring);
    tcase_add_test(tc, two_rings_and_a_bridge);
    tcase_add_test(tc, figure_eight);
    tcase_add_test(tc, grid_of_four_loops);
    tcase_add_test(tc, self_loop_and_non_areas);
    tcase_add_test(tc, farthest_takes_the_short_way);
    tcase_add_test(tc, parallel_passages_and_pieces);
    tcase_add_test(tc, stairs_are_a_way_out);
    tcase_add_test(tc, room_graph_loops);
    tcase_add_test(tc, room_graph_without_rooms);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
