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

static Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, node_ids_are_spreadsheet_columns);
    tcase_add_test(tc, directions_are_named_clockwise_from_north);
    tcase_add_test(tc, kinds_are_named_as_the_json_model_says);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(model_suite());
}
