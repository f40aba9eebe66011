/* Tests of the non-linearity metrics on graphs with known answers. */
#include <check.h>

#include "check_run.h"
#include <stdlib.h>

#include "key/analysis.h"

static ucr_stats analyse(int n, const int (*edges)[2], int m)
{
    ucr_graph *g = ucr_graph_new(n);
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

int main(void)
{
    Suite *s = suite_create("analysis");
    TCase *tc = tcase_create("graphs");
    tcase_add_test(tc, tree);
    tcase_add_test(tc, ring);
    tcase_add_test(tc, two_rings_and_a_bridge);
    tcase_add_test(tc, figure_eight);
    tcase_add_test(tc, parallel_passages_and_pieces);
    tcase_add_test(tc, stairs_are_a_way_out);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
