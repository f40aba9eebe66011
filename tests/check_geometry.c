/* Tests of the geometry the node methods share (model/model.h): mouths and
 * walls of an area, direction steps, stairs seen from either end. */
#include <check.h>

#include "check_run.h"
#include <stdlib.h>

#include "gen/kit/canvas.h"
#include "model/model.h"

/* A 3 × 2 room at (4, 5): every mouth is outside it, touches it, faces the
 * wall it was asked for, and a wall has as many mouths as squares. */
START_TEST(mouths_and_walls)
{
    ucr_area a = ucr_area_make(UCR_AREA_ROOM, 4, 5, 3, 2);
    ck_assert_int_eq(a.link, -1);
    ck_assert_int_eq(a.stair, UCR_STAIR_NONE);
    ck_assert_int_eq(ucr_area_wall_length(&a, UCR_NORTH), 3);
    ck_assert_int_eq(ucr_area_wall_length(&a, UCR_SOUTH), 3);
    ck_assert_int_eq(ucr_area_wall_length(&a, UCR_EAST), 2);
    ck_assert_int_eq(ucr_area_wall_length(&a, UCR_WEST), 2);
    int mouths = 0;
    for (int d = 0; d < 4; d++)
        for (int k = 0; k < ucr_area_wall_length(&a, (ucr_dir)d); k++) {
            ucr_point m = ucr_area_mouth(&a, (ucr_dir)d, k);
            ck_assert(!ucr_area_contains(&a, m));
            ck_assert(ucr_area_touches(&a, m));
            ck_assert_int_eq(ucr_area_wall_of(&a, m), d);
            /* One step back from a mouth is inside the room. */
            ck_assert(ucr_area_contains(&a, ucr_point_step(m, ucr_dir_opposite((ucr_dir)d))));
            mouths++;
        }
    ck_assert_int_eq(mouths, 10);
    /* Squares touching on every side, and no more: the perimeter's. */
    int touching = 0;
    for (int y = 0; y < 12; y++)
        for (int x = 0; x < 12; x++)
            touching += ucr_area_touches(&a, (ucr_point){ x, y });
    ck_assert_int_eq(touching, 10);
    ck_assert_int_eq(ucr_area_mouth(&a, UCR_NORTH, 0).y, 4);
    ck_assert_int_eq(ucr_area_mouth(&a, UCR_EAST, 1).x, 7);
    ck_assert(ucr_point_eq(ucr_area_mouth(&a, UCR_WEST, 1), (ucr_point){ 3, 6 }));
}
END_TEST

START_TEST(directions_and_stairs)
{
    for (int d = 0; d < 4; d++) {
        ucr_dir o = ucr_dir_opposite((ucr_dir)d);
        ck_assert_int_eq(ucr_dir_opposite(o), d);
        ck_assert_int_eq(UCR_DIR_DX[d], -UCR_DIR_DX[o]);
        ck_assert_int_eq(UCR_DIR_DY[d], -UCR_DIR_DY[o]);
        ck_assert_int_eq(abs(UCR_DIR_DX[d]) + abs(UCR_DIR_DY[d]), 1);
        ucr_point p = ucr_point_walk((ucr_point){ 5, 5 }, (ucr_dir)d, 3);
        ck_assert(ucr_point_eq(p, (ucr_point){ 5 + 3 * UCR_DIR_DX[d], 5 + 3 * UCR_DIR_DY[d] }));
    }
    ck_assert_int_eq(UCR_DIR_DY[UCR_NORTH], -1);   /* y grows south */
    /* The seeds' eight: 1 north, clockwise; 1, 3, 5, 7 are the four. */
    ck_assert(UCR_DIR8_DX[0] == 0 && UCR_DIR8_DY[0] == 0);
    for (int i = 1; i <= 8; i++) {
        int o = (i + 3) % 8 + 1;
        ck_assert_int_eq(UCR_DIR8_DX[i], -UCR_DIR8_DX[o]);
        ck_assert_int_eq(UCR_DIR8_DY[i], -UCR_DIR8_DY[o]);
        ck_assert_int_eq(abs(UCR_DIR8_DX[i]) + abs(UCR_DIR8_DY[i]), i % 2 ? 1 : 2);
        if (i % 2)
            ck_assert(UCR_DIR8_DX[i] == UCR_DIR_DX[i / 2] && UCR_DIR8_DY[i] == UCR_DIR_DY[i / 2]);
    }
    const ucr_stair all[] = { UCR_STAIR_DOWN, UCR_STAIR_UP, UCR_LADDER_DOWN, UCR_LADDER_UP };
    for (int i = 0; i < 4; i++) {
        ucr_stair o = ucr_stair_opposite(all[i]);
        ck_assert_int_eq(ucr_stair_opposite(o), all[i]);
        ck_assert(ucr_stair_is_down(o) != ucr_stair_is_down(all[i]));
        ck_assert(ucr_stair_is_ladder(o) == ucr_stair_is_ladder(all[i]));
    }
    ck_assert(ucr_stair_is_down(UCR_LADDER_DOWN) && ucr_stair_is_ladder(UCR_LADDER_DOWN));
    ck_assert(!ucr_stair_is_down(UCR_STAIR_UP) && !ucr_stair_is_ladder(UCR_STAIR_UP));
    ck_assert_int_eq(ucr_stair_opposite(UCR_STAIR_NONE), UCR_STAIR_NONE);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("geometry");
    TCase *tc = tcase_create("shared");
    tcase_add_test(tc, mouths_and_walls);
    tcase_add_test(tc, directions_and_stairs);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
