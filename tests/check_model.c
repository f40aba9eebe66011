/* The model's names and node ids as the JSON model (README, "The JSON
 * model") and the key spell them: a name that changes is a format change. */
#include <check.h>
#include <glib.h>
#include <string.h>

#include "check_run.h"
#include "model/model.h"

/* Node ids run like spreadsheet columns: A..Z, AA..AZ, BA..; a 10 x 10
 * megadungeon goes up to CV. */
START_TEST(node_ids_are_spreadsheet_columns)
{
    static const struct { int index; const char *id; } cases[] = {
        { 0, "A" }, { 1, "B" }, { 25, "Z" }, { 26, "AA" }, { 27, "AB" }, { 51, "AZ" },
        { 52, "BA" }, { 77, "BZ" }, { 78, "CA" }, { 99, "CV" }, { 701, "ZZ" }, { 702, "AAA" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *id = ucr_node_id_for_index(cases[i].index);
        ck_assert_msg(!g_strcmp0(id, cases[i].id), "node %d: '%s', want '%s'", cases[i].index, id, cases[i].id);
        g_free(id);
    }
    /* Every id of the largest megadungeon (10 x 10) once, in order. */
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    char *prev = NULL;
    for (int i = 0; i < 100; i++) {
        char *id = ucr_node_id_for_index(i);
        ck_assert_msg(!g_hash_table_contains(seen, id), "node %d: '%s' again", i, id);
        if (prev)
            ck_assert_msg(strlen(prev) < strlen(id) || strcmp(prev, id) < 0, "'%s' after '%s'", id, prev);
        g_hash_table_add(seen, g_strdup(id));
        g_free(prev);
        prev = id;
    }
    g_free(prev);
    g_hash_table_destroy(seen);
}
END_TEST

START_TEST(directions_are_named_clockwise_from_north)
{
    ck_assert_str_eq(ucr_dir_name(UCR_NORTH), "north");
    ck_assert_str_eq(ucr_dir_name(UCR_EAST), "east");
    ck_assert_str_eq(ucr_dir_name(UCR_SOUTH), "south");
    ck_assert_str_eq(ucr_dir_name(UCR_WEST), "west");
    ck_assert_str_eq(ucr_dir_name((ucr_dir)4), "?");
}
END_TEST

/* The kinds as the README's JSON model lists them. */
START_TEST(kinds_are_named_as_the_json_model_says)
{
    ck_assert_str_eq(ucr_door_kind_name(UCR_DOOR_PLAIN), "door");
    ck_assert_str_eq(ucr_door_kind_name(UCR_DOOR_SECRET), "secret");
    ck_assert_str_eq(ucr_door_kind_name(UCR_DOOR_LOCKED), "locked");
    ck_assert_str_eq(ucr_door_kind_name(UCR_DOOR_TRAPPED), "trapped");
    ck_assert_str_eq(ucr_edge_kind_name(UCR_EDGE_OPEN), "open");
    ck_assert_str_eq(ucr_edge_kind_name(UCR_EDGE_DOOR), "door");
    ck_assert_str_eq(ucr_edge_kind_name(UCR_EDGE_SECRET), "secret");
    ck_assert_str_eq(ucr_edge_kind_name(UCR_EDGE_BLOCKED), "blocked");
    ck_assert_str_eq(ucr_link_kind_name(UCR_LINK_STAIRS_DOWN), "stairs-down");
    ck_assert_str_eq(ucr_link_kind_name(UCR_LINK_STAIRS_UP), "stairs-up");
    ck_assert_str_eq(ucr_link_kind_name(UCR_LINK_LADDER_DOWN), "ladder-down");
    ck_assert_str_eq(ucr_link_kind_name(UCR_LINK_LADDER_UP), "ladder-up");
    ck_assert_str_eq(ucr_link_kind_name(UCR_LINK_TUNNEL), "tunnel");
    ck_assert_str_eq(ucr_link_kind_name(UCR_LINK_ENTRANCE), "entrance");
    ck_assert_str_eq(ucr_tunnel_kind_name(UCR_TUNNEL_OPEN), "open");
    ck_assert_str_eq(ucr_tunnel_kind_name(UCR_TUNNEL_DOOR), "door");
    ck_assert_str_eq(ucr_tunnel_kind_name(UCR_TUNNEL_SECRET), "secret");
    ck_assert_str_eq(ucr_tunnel_kind_name(UCR_TUNNEL_STAIRS), "stairs");
    ck_assert_str_eq(ucr_tunnel_kind_name(UCR_TUNNEL_LADDER), "ladder");
    ck_assert_str_eq(ucr_tunnel_kind_name(UCR_TUNNEL_BLOCKED), "blocked");
    ck_assert_str_eq(ucr_area_kind_name(UCR_AREA_ROOM), "room");
    ck_assert_str_eq(ucr_area_kind_name(UCR_AREA_JUNCTION), "junction");
    ck_assert_str_eq(ucr_area_kind_name(UCR_AREA_STAIRS), "stairs");
    ck_assert_str_eq(ucr_stair_name(UCR_STAIR_DOWN), "stairs down");
    ck_assert_str_eq(ucr_stair_name(UCR_STAIR_UP), "stairs up");
    ck_assert_str_eq(ucr_stair_name(UCR_LADDER_DOWN), "ladder down");
    ck_assert_str_eq(ucr_stair_name(UCR_LADDER_UP), "ladder up");
}
END_TEST

/* A passage of cells x = @x0 … @x1 (or, @down, y = …) on the line @at. */
static GArray *cells_line(int x0, int x1, int at, bool down)
{
    GArray *c = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int x = x0; x <= x1; x++) {
        ucr_point p = down ? (ucr_point){ at, x } : (ucr_point){ x, at };
        g_array_append_val(c, p);
    }
    return c;
}

static int passage_add(ucr_node *node, GArray *cells, int a, int b, ucr_edge_kind kind)
{
    ucr_passage p = { cells, a, b, kind, -1, g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs)), NULL };
    g_array_append_val(node->passages, p);
    return (int)node->passages->len - 1;
}

static void crossing_add(ucr_passage *p, int first, int last, ucr_cross_kind kind, int passage)
{
    if (!p->crossings)
        p->crossings = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
    ucr_crossing cr = { first, last, kind, -1, passage };
    g_array_append_val(p->crossings, cr);
}

static ucr_passage *passage_at(ucr_node *node, int k)
{
    return &g_array_index(node->passages, ucr_passage, k);
}

/* A node's parts: areas joined by open passages and secret doors share
 * one, a collapse cuts; every other test of parts (pockets, landings, the
 * analysis) stands on this. */
/* An area's record grows by "; " and the new words; a new record is just
 * the words (what the key prints after the area's name). */
START_TEST(records_append_after_a_semicolon)
{
    ucr_area a = ucr_area_make(UCR_AREA_ROOM, 0, 0, 2, 2);
    ucr_area_record_append(&a, "2d6 = 7");
    ck_assert_str_eq(a.rolled, "2d6 = 7");
    ucr_area_record_append(&a, "stairs down");
    ck_assert_str_eq(a.rolled, "2d6 = 7; stairs down");
    g_free(a.rolled);
}
END_TEST

/* What became of a roll, kept where the method decides (ucr_outcome):
 * in order, a NULL reason for "as rolled"; a node without any keeps none. */
START_TEST(outcomes_are_kept_in_order)
{
    ucr_node *node = ucr_node_new("A", 0, 0);
    ck_assert_ptr_null(node->outcomes);
    ucr_node_outcome(node, "d8 pair of doors", NULL);
    ucr_node_outcome(node, "d8 pair of doors", "room for only one: one door");
    ck_assert_uint_eq(node->outcomes->len, 2);
    ck_assert_ptr_null(g_array_index(node->outcomes, ucr_outcome, 0).reason);
    ck_assert_str_eq(g_array_index(node->outcomes, ucr_outcome, 1).reason, "room for only one: one door");
    ck_assert_str_eq(g_array_index(node->outcomes, ucr_outcome, 1).rule, "d8 pair of doors");
    ucr_node_free(node);
}
END_TEST

START_TEST(parts_join_by_passages_not_collapses)
{
    ucr_node *node = ucr_node_new("A", 0, 0);
    for (int i = 0; i < 5; i++) {
        ucr_area a = ucr_area_make(UCR_AREA_ROOM, i * 4, 0, 3, 3);
        g_array_append_val(node->areas, a);
        ucr_vertex v = { UCR_VERTEX_AREA, i, { 0, 0 } };
        g_array_append_val(node->vertices, v);
    }
    passage_add(node, cells_line(3, 3, 1, false), 0, 1, UCR_EDGE_OPEN);
    passage_add(node, cells_line(7, 7, 1, false), 1, 2, UCR_EDGE_BLOCKED);
    passage_add(node, cells_line(11, 11, 1, false), 2, 3, UCR_EDGE_SECRET);
    passage_add(node, cells_line(15, 15, 1, false), 3, 4, UCR_EDGE_DOOR);
    passage_add(node, cells_line(15, 15, 2, false), 4, 2, UCR_EDGE_OPEN);
    int *part = ucr_node_parts(node);
    ck_assert_int_eq(part[0], part[1]);
    ck_assert_int_ne(part[1], part[2]);
    ck_assert_int_eq(part[2], part[3]);
    ck_assert_int_eq(part[3], part[4]);
    for (int v = 0; v < 5; v++)
        ck_assert_int_eq(part[part[v]], part[v]);   /* a representative stands for itself */
    g_free(part);
    ucr_node_free(node);
}
END_TEST

/* A junction put on a corridor (seed 003's T, the pre-connecting methods'
 * "junction" on a corridor already drawn) splits it in two: everything on
 * the corridor keeps its square, and each half says what it passes. */
START_TEST(split_passage_keeps_what_lies_on_each_half)
{
    ucr_node *node = ucr_node_new("A", 0, 0);
    ucr_area rooms[3] = { ucr_area_make(UCR_AREA_ROOM, 0, 4, 3, 3), ucr_area_make(UCR_AREA_ROOM, 14, 4, 3, 3),
                          ucr_area_make(UCR_AREA_JUNCTION, 8, 5, 1, 1) };
    for (int i = 0; i < 3; i++) {
        g_array_append_val(node->areas, rooms[i]);
        ucr_vertex v = { UCR_VERTEX_AREA, i, { 0, 0 } };
        g_array_append_val(node->vertices, v);
    }
    /* Room 0 to room 1 along y = 5, a door at room 0, a secret door at
     * room 1; steps down on its 3rd square, a slope up on its 9th, under a
     * corridor on its 4th and over one on its 8th; two corridors cross it,
     * on its 2nd square and its 8th. */
    int k = passage_add(node, cells_line(3, 13, 5, false), 0, 1, UCR_EDGE_SECRET);
    int over_head = passage_add(node, cells_line(3, 7, 4, true), 3, 4, UCR_EDGE_OPEN);
    int over_tail = passage_add(node, cells_line(3, 7, 10, true), 5, 6, UCR_EDGE_OPEN);
    ucr_passage_stairs steps[2] = { { 2, UCR_STAIR_DOWN }, { 8, UCR_SLOPE_UP } };
    g_array_append_vals(passage_at(node, k)->stairs, steps, 2);
    crossing_add(passage_at(node, k), 3, 3, UCR_CROSS_UNDER, over_head);
    crossing_add(passage_at(node, k), 7, 7, UCR_CROSS_OVER, over_tail);
    crossing_add(passage_at(node, over_head), 2, 2, UCR_CROSS_OVER, k);   /* (4, 5): the first half */
    crossing_add(passage_at(node, over_tail), 2, 2, UCR_CROSS_UNDER, k);  /* (10, 5): the second */
    ucr_door doors[2] = { { UCR_DOOR_PLAIN, 0, k, { 3, 5 }, UCR_EAST }, { UCR_DOOR_SECRET, 1, k, { 13, 5 }, UCR_WEST } };
    g_array_append_vals(node->doors, doors, 2);

    int k2 = ucr_node_split_passage(node, k, 5, 2);   /* at (8, 5), the junction's square */

    ck_assert_int_eq(k2, 3);
    ucr_passage *head = passage_at(node, k), *tail = passage_at(node, k2);
    ck_assert_int_eq((int)head->cells->len, 5);
    ck_assert_int_eq(g_array_index(head->cells, ucr_point, 4).x, 7);
    ck_assert_int_eq((int)tail->cells->len, 5);
    ck_assert_int_eq(g_array_index(tail->cells, ucr_point, 0).x, 9);
    ck_assert_int_eq(g_array_index(tail->cells, ucr_point, 4).x, 13);
    ck_assert_int_eq(head->a, 0);
    ck_assert_int_eq(head->b, 2);
    ck_assert_int_eq(tail->a, 2);
    ck_assert_int_eq(tail->b, 1);
    ck_assert_int_eq(tail->rubble, -1);
    /* Each half passes its own door: a plain one, a secret one. */
    ck_assert_int_eq(head->kind, UCR_EDGE_DOOR);
    ck_assert_int_eq(tail->kind, UCR_EDGE_SECRET);
    ck_assert_int_eq(g_array_index(node->doors, ucr_door, 0).passage, k);
    ck_assert_int_eq(g_array_index(node->doors, ucr_door, 1).passage, k2);
    /* The steps keep their squares: (5, 5) on the first half, (11, 5) on
     * the second, its 3rd square. */
    ck_assert_int_eq((int)head->stairs->len, 1);
    ck_assert_int_eq(g_array_index(head->stairs, ucr_passage_stairs, 0).index, 2);
    ck_assert_int_eq((int)tail->stairs->len, 1);
    ck_assert_int_eq(g_array_index(tail->stairs, ucr_passage_stairs, 0).index, 2);
    ck_assert_int_eq(g_array_index(tail->stairs, ucr_passage_stairs, 0).stair, UCR_SLOPE_UP);
    /* So do its own crossings, and the corridors that cross it name the
     * half they cross. */
    ck_assert_int_eq((int)head->crossings->len, 1);
    ck_assert_int_eq(g_array_index(head->crossings, ucr_crossing, 0).first, 3);
    ck_assert_int_eq((int)tail->crossings->len, 1);
    ck_assert_int_eq(g_array_index(tail->crossings, ucr_crossing, 0).first, 1);
    ck_assert_int_eq(g_array_index(tail->crossings, ucr_crossing, 0).kind, UCR_CROSS_OVER);
    ck_assert_int_eq(g_array_index(passage_at(node, over_head)->crossings, ucr_crossing, 0).passage, k);
    ck_assert_int_eq(g_array_index(passage_at(node, over_tail)->crossings, ucr_crossing, 0).passage, k2);
    ucr_node_free(node);
}
END_TEST

/* With nothing beyond the split, the first half keeps no empty list of
 * crossings and the second has none. */
START_TEST(split_passage_leaves_no_empty_crossings)
{
    ucr_node *node = ucr_node_new("A", 0, 0);
    int k = passage_add(node, cells_line(3, 9, 5, false), 0, 1, UCR_EDGE_OPEN);
    crossing_add(passage_at(node, k), 5, 6, UCR_CROSS_UNDER, -1);
    int k2 = ucr_node_split_passage(node, k, 2, 2);
    ck_assert_ptr_null(passage_at(node, k)->crossings);
    ck_assert_int_eq((int)passage_at(node, k2)->crossings->len, 1);
    ck_assert_int_eq(g_array_index(passage_at(node, k2)->crossings, ucr_crossing, 0).first, 2);
    ck_assert_int_eq(g_array_index(passage_at(node, k2)->crossings, ucr_crossing, 0).last, 3);
    ck_assert_int_eq(passage_at(node, k)->kind, UCR_EDGE_OPEN);
    ck_assert_int_eq(passage_at(node, k2)->kind, UCR_EDGE_OPEN);
    ucr_node_free(node);
}
END_TEST

static Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, node_ids_are_spreadsheet_columns);
    tcase_add_test(tc, directions_are_named_clockwise_from_north);
    tcase_add_test(tc, kinds_are_named_as_the_json_model_says);
    tcase_add_test(tc, records_append_after_a_semicolon);
    tcase_add_test(tc, outcomes_are_kept_in_order);
    suite_add_tcase(s, tc);
    TCase *split = tcase_create("split");
    tcase_add_test(split, parts_join_by_passages_not_collapses);
    tcase_add_test(split, split_passage_keeps_what_lies_on_each_half);
    tcase_add_test(split, split_passage_leaves_no_empty_crossings);
    suite_add_tcase(s, split);
    return s;
}

int main(void)
{
    return ucr_check_run(model_suite());
}
