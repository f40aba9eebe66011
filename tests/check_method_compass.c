/* Tests of the compass node method (seed 001 variant): every row of its
 * tables, and the shared invariants plus its own properties over a thousand
 * seeds. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/datadir.h"
#include "gen/megadungeon.h"
#include "gen/method_compass.h"
#include "invariants.h"

enum { SEEDS = 1000 };

static ucr_tables *tables;

static void tables_setup(void)
{
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    tables = ucr_tables_load(dir, NULL);
    g_free(dir);
    ck_assert_ptr_nonnull(tables);
}

static void tables_teardown(void)
{
    ucr_tables_free(tables);
}

START_TEST(destination_table_every_row)
{
    /* 1 north, clockwise to 8 north-west (y grows south). */
    static const int dx[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
    static const int dy[9] = { 0, -1, -1, 0, 1, 1, 1, 0, -1 };
    for (int f = 1; f <= 8; f++) {
        ucr_compass_dest d = ucr_compass_destination(f);
        ck_assert_int_eq(d.kind, UCR_COMPASS_TO_DIRECTION);
        ck_assert_int_eq(d.dir, f);
        ck_assert_int_eq(d.dx, dx[f]);
        ck_assert_int_eq(d.dy, dy[f]);
    }
    ck_assert_int_eq(ucr_compass_destination(9).kind, UCR_COMPASS_TO_START);
    ck_assert_int_eq(ucr_compass_destination(0).kind, UCR_COMPASS_TO_DEAD_END);
}
END_TEST

START_TEST(door_table_every_row)
{
    for (int r = 1; r <= 4; r++) {
        ucr_compass_door d = ucr_compass_door_check(r);
        ck_assert_int_eq(d.kind, UCR_COMPASS_DOOR_WALL);
        ck_assert_int_eq(d.wall, (ucr_dir)(r - 1));   /* N, E, S, W */
    }
    ck_assert_int_eq(ucr_compass_door_check(5).kind, UCR_COMPASS_DOOR_LADDER);
    ck_assert_int_eq(ucr_compass_door_check(6).kind, UCR_COMPASS_DOOR_STAIRS);
    ck_assert_int_eq(ucr_compass_door_check(7).kind, UCR_COMPASS_DOOR_NONE);   /* 7+ on the d8 */
    ck_assert_int_eq(ucr_compass_door_check(8).kind, UCR_COMPASS_DOOR_NONE);
}
END_TEST

START_TEST(dead_end_and_route_rows)
{
    for (int d = 1; d <= 5; d++)
        ck_assert_int_eq(ucr_compass_dead_end_length(d), d);
    ck_assert_int_eq(ucr_compass_dead_end_length(6), 0);
    /* Straight ahead: three choices, white on 5+. */
    for (int d6 = 1; d6 <= 6; d6++) {
        ck_assert_int_eq(ucr_compass_route_way(0, true, d6), d6 >= 5 ? UCR_COMPASS_STRAIGHT : UCR_COMPASS_RIGHT);
        ck_assert_int_eq(ucr_compass_route_way(0, false, d6), d6 >= 5 ? UCR_COMPASS_STRAIGHT : UCR_COMPASS_LEFT);
    }
    /* Elsewhere: red (tails, left) or blue (heads, right). */
    for (int cw = 1; cw < 8; cw++) {
        ck_assert_int_eq(ucr_compass_route_way(cw, false, 6), UCR_COMPASS_LEFT);
        ck_assert_int_eq(ucr_compass_route_way(cw, true, 6), UCR_COMPASS_RIGHT);
    }
}
END_TEST

static ucr_megadungeon *generate(const char *seed, bool drop)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, ucr_node_method_lookup("compass"), { 0 } };
    opt.method_options.drop_dice = drop;
    ucr_megadungeon *md = ucr_megadungeon_generate(&opt, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

/* The room-9 centre and its area index in a compass node. */
static int hub_of(const ucr_node *n)
{
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        if (a->rolled && g_str_has_prefix(a->rolled, "the starting room"))
            return (int)i;
    }
    return -1;
}

static int room_called(const ucr_node *n, const char *label)
{
    size_t len = strlen(label);
    for (guint i = 0; i < n->areas->len; i++) {
        const char *r = AREA(n, i)->rolled;
        if (!r)
            continue;
        const char *s = strstr(r, label);
        if (s && (s == r || s[-1] == ' ') && (s[len] == ';'))
            return (int)i;
    }
    return -1;
}

static void check_compass_node(const ucr_node *n, const char *seed, int *dead_ends, int *backs, int *dirs)
{
    ck_assert_str_eq(n->method, "compass");
    int hub = hub_of(n);
    ck_assert_msg(hub >= 0, "seed %s node %s: no starting room", seed, n->id);
    const ucr_area *h = AREA(n, hub);
    double hx = h->x + h->w / 2.0, hy = h->y + h->h / 2.0;
    /* Every direction room lies in its direction from room 9. */
    for (int d = 1; d <= 8; d++) {
        char label[16];
        g_snprintf(label, sizeof label, "room %d", d);
        int r = room_called(n, label);
        if (r < 0)
            continue;
        const ucr_area *a = AREA(n, r);
        double ax = a->x + a->w / 2.0 - hx, ay = a->y + a->h / 2.0 - hy;
        static const int dx[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
        static const int dy[9] = { 0, -1, -1, 0, 1, 1, 1, 0, -1 };
        ck_assert_msg(dx[d] == 0 ? abs((int)ax) <= 6 : ax * dx[d] > 4, "seed %s node %s: room %d x off", seed, n->id, d);
        ck_assert_msg(dy[d] == 0 ? abs((int)ay) <= 6 : ay * dy[d] > 4, "seed %s node %s: room %d y off", seed, n->id, d);
        (*dirs)++;
    }
    /* The record of every door roll matches what is drawn. */
    for (guint i = 0; i < n->rolls->len; i++) {
        const char *r = g_ptr_array_index(n->rolls, i);
        const char *next = i + 1 < n->rolls->len ? g_ptr_array_index(n->rolls, i + 1) : "";
        bool failed = strstr(next, "no way") || strstr(next, "no room");
        if (strstr(r, "d10=0: dead end")) {
            const char *len = strstr(r, "length 1d6=");
            ck_assert_ptr_nonnull(len);
            int d6 = atoi(len + 11);
            ck_assert_int_ge(d6, 1);
            ck_assert_int_le(d6, 6);
            (*dead_ends)++;
        }
        if (strstr(r, "d10=9: back to the starting room") && !failed)
            (*backs)++;
    }
    /* Dead ends are 1-5 squares (0 is a false door, drawn as none); loops
     * back to a room start and end on that room. */
    int back_passages = 0;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        const ucr_vertex *vb = &g_array_index(n->vertices, ucr_vertex, p->b);
        if (vb->kind == UCR_VERTEX_DEAD_END)
            ck_assert_int_le(p->cells->len, 5);
        if (p->a == p->b) {
            back_passages++;
            /* A second door, or the matching stairs/ladder pair. */
            int doors = 0;
            for (guint d = 0; d < n->doors->len; d++)
                doors += g_array_index(n->doors, ucr_door, d).passage == (int)k;
            ck_assert_msg(doors == 2 || p->stairs->len == 2, "seed %s node %s: loop back without its second door",
                          seed, n->id);
            if (p->stairs->len == 2) {
                ucr_stair s1 = g_array_index(p->stairs, ucr_passage_stairs, 0).stair;
                ucr_stair s2 = g_array_index(p->stairs, ucr_passage_stairs, 1).stair;
                bool pair = (s1 == UCR_STAIR_DOWN && s2 == UCR_STAIR_UP) || (s1 == UCR_STAIR_UP && s2 == UCR_STAIR_DOWN) ||
                            (s1 == UCR_LADDER_DOWN && s2 == UCR_LADDER_UP) || (s1 == UCR_LADDER_UP && s2 == UCR_LADDER_DOWN);
                ck_assert_msg(pair, "seed %s node %s: stairs back not in the opposite direction", seed, n->id);
            }
        }
    }
    (void)back_passages;
}

static void run_seeds(const char *prefix, bool drop, int seeds)
{
    if (g_getenv("UCR_SAN"))
        seeds /= 10;
    long dead_ends = 0, backs = 0, dirs = 0, loops = 0, nodes = 0, doors = 0, blocked = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "%s-%d", prefix, s);
        ucr_megadungeon *md = generate(seed, drop);
        ucr_test_check_megadungeon(md, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            int de = 0, bk = 0, dr = 0;
            check_compass_node(n, seed, &de, &bk, &dr);
            dead_ends += de;
            backs += bk;
            dirs += dr;
            loops += n->stats.loops;
            nodes++;
            for (guint r = 0; r < n->rolls->len; r++) {
                const char *t = g_ptr_array_index(n->rolls, r);
                doors += strstr(t, " door: d10=") != NULL;
                blocked += strstr(t, "no way") || strstr(t, "no room even");
            }
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(dead_ends, 0);
    ck_assert_int_gt(backs, 0);
    /* A hub with spokes: on average at least two direction rooms. */
    ck_assert_msg(dirs >= nodes * 2, "%ld direction rooms in %ld nodes", dirs, nodes);
    /* Pre-connected: corridors lead back to mapped rooms, so nodes loop. */
    ck_assert_msg(loops * 2 >= nodes, "%ld loops in %ld nodes", loops, nodes);
    /* The map (no corridor may cross another) blocks fewer than half of the corridors the dice ask for. */
    ck_assert_msg(blocked * 2 < doors, "%ld of %ld corridors blocked", blocked, doors);
}

START_TEST(invariants_over_many_seeds)
{
    run_seeds("compass", false, SEEDS);
}
END_TEST

START_TEST(invariants_with_drop_dice)
{
    run_seeds("drop", true, SEEDS / 5);   /* the same code, another reading of the doors */
}
END_TEST

/* Mixed with the other methods (link handles are shared between nodes). */
START_TEST(mixed_methods_keep_the_invariants)
{
    int seeds = g_getenv("UCR_SAN") ? 20 : 200;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "mixed-%d", s);
        ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
        GError *error = NULL;
        ucr_megadungeon *md = ucr_megadungeon_generate(&opt, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        ucr_test_check_megadungeon(md, seed);
        ucr_megadungeon_free(md);
    }
}
END_TEST

START_TEST(same_seed_same_node)
{
    ucr_megadungeon *a = generate("compass-same", false), *b = generate("compass-same", false);
    for (guint i = 0; i < a->nodes->len; i++) {
        const ucr_node *na = g_ptr_array_index(a->nodes, i), *nb = g_ptr_array_index(b->nodes, i);
        ck_assert_int_eq(na->rolls->len, nb->rolls->len);
        for (guint r = 0; r < na->rolls->len; r++)
            ck_assert_str_eq(g_ptr_array_index(na->rolls, r), g_ptr_array_index(nb->rolls, r));
        ck_assert_int_eq(na->areas->len, nb->areas->len);
    }
    ucr_megadungeon_free(a);
    ucr_megadungeon_free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("method_compass");
    TCase *tables_tc = tcase_create("tables");
    tcase_add_test(tables_tc, destination_table_every_row);
    tcase_add_test(tables_tc, door_table_every_row);
    tcase_add_test(tables_tc, dead_end_and_route_rows);
    suite_add_tcase(s, tables_tc);
    TCase *tc = tcase_create("nodes");
    tcase_add_unchecked_fixture(tc, tables_setup, tables_teardown);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, invariants_over_many_seeds);
    tcase_add_test(tc, invariants_with_drop_dice);
    tcase_add_test(tc, mixed_methods_keep_the_invariants);
    tcase_add_test(tc, same_seed_same_node);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
