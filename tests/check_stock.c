/* Tests of the stocking stage: every room stocked, seeded, and no change to
 * the dungeon's geometry. */
#include <check.h>

#include "check_run.h"
#include <string.h>

#include "core/datadir.h"
#include "gen/megadungeon.h"
#include "key/describe.h"
#include "key/stock.h"
#include "model/json.h"

static ucr_tables *tables;

static void tables_setup(void)
{
    GError *error = NULL;
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    tables = ucr_tables_load(dir, &error);
    g_free(dir);
    ck_assert_msg(tables != NULL, "tables: %s", error ? error->message : "?");
}

static void tables_teardown(void)
{
    ucr_tables_free(tables);
}

static ucr_megadungeon *generate(const char *seed)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_megadungeon_generate(&opt, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

static const char *const KINDS[] = { "empty", "monster", "trap", "special", "treasure", "obstacle" };

static gboolean kind_known(const char *k)
{
    for (gsize i = 0; k && i < G_N_ELEMENTS(KINDS); i++)
        if (strcmp(k, KINDS[i]) == 0)
            return TRUE;
    return FALSE;
}

START_TEST(same_seed_same_contents)
{
    ucr_megadungeon *a = generate("stock-1"), *b = generate("stock-1");
    ucr_megadungeon_stock(a, tables, "stock-1");
    ucr_megadungeon_stock(b, tables, "stock-1");
    char *ja = ucr_json_write(a), *jb = ucr_json_write(b);
    ck_assert_str_eq(ja, jb);
    ck_assert_ptr_nonnull(strstr(ja, "\"stock\": {"));
    g_free(ja);
    g_free(jb);
    /* Another seed stocks the same rooms differently. */
    ucr_megadungeon *c = generate("stock-1");
    ucr_megadungeon_stock(c, tables, "stock-2");
    int differ = 0;
    for (guint i = 0; i < a->nodes->len; i++) {
        const ucr_node *na = g_ptr_array_index(a->nodes, i), *nc = g_ptr_array_index(c->nodes, i);
        for (guint k = 0; k < na->areas->len; k++)
            differ += strcmp(g_array_index(na->areas, ucr_area, k).contents,
                             g_array_index(nc->areas, ucr_area, k).contents) != 0;
    }
    ck_assert_int_gt(differ, 10);
    ucr_megadungeon_free(a);
    ucr_megadungeon_free(b);
    ucr_megadungeon_free(c);
}
END_TEST

START_TEST(stocking_keeps_the_geometry)
{
    for (int s = 0; s < 40; s++) {
        char *seed = g_strdup_printf("geometry-%d", s);
        ucr_megadungeon *plain = generate(seed), *stocked = generate(seed);
        ucr_megadungeon_stock(stocked, tables, seed);
        for (guint i = 0; i < plain->nodes->len; i++) {
            const ucr_node *p = g_ptr_array_index(plain->nodes, i), *q = g_ptr_array_index(stocked->nodes, i);
            ck_assert_int_eq(p->areas->len, q->areas->len);
            ck_assert_int_eq(p->passages->len, q->passages->len);
            ck_assert_int_eq(p->doors->len, q->doors->len);
            ck_assert_int_eq(q->door_stock->len, q->doors->len);
            ck_assert(memcmp(&p->stats, &q->stats, sizeof p->stats) == 0);
            for (guint k = 0; k < p->areas->len; k++) {
                const ucr_area *x = &g_array_index(p->areas, ucr_area, k);
                const ucr_area *y = &g_array_index(q->areas, ucr_area, k);
                ck_assert(x->x == y->x && x->y == y->y && x->w == y->w && x->h == y->h && x->key == y->key);
                ck_assert_ptr_null(x->contents);
                /* Every area stocked; rooms with a shape and a kind. */
                ck_assert_ptr_nonnull(y->contents);
                ck_assert_ptr_nonnull(y->stocked);
                ck_assert_msg(kind_known(y->contents_kind), "kind %s", y->contents_kind);
                ck_assert(g_ascii_isupper(y->contents[0]) || g_ascii_isdigit(y->contents[0]));
                if (y->kind == UCR_AREA_ROOM)
                    ck_assert_ptr_nonnull(y->shape);
                else
                    ck_assert_ptr_null(y->shape);
                if (strcmp(y->contents_kind, "monster") == 0)
                    ck_assert(y->stock & UCR_STOCK_MONSTER);
                if (strcmp(y->contents_kind, "trap") == 0)
                    ck_assert(y->stock & UCR_STOCK_TRAP);
                if (strcmp(y->contents_kind, "treasure") == 0)
                    ck_assert(y->stock & UCR_STOCK_TREASURE);
            }
            for (guint k = 0; k < p->doors->len; k++) {
                const ucr_door *x = &g_array_index(p->doors, ucr_door, k);
                const ucr_door *y = &g_array_index(q->doors, ucr_door, k);
                const ucr_door_stock *ds = &g_array_index(q->door_stock, ucr_door_stock, k);
                ck_assert(x->area == y->area && x->passage == y->passage && x->side == y->side &&
                          x->cell.x == y->cell.x && x->cell.y == y->cell.y);
                /* Secret doors stay secret and get no description. */
                if (x->kind == UCR_DOOR_SECRET) {
                    ck_assert_int_eq(y->kind, UCR_DOOR_SECRET);
                    ck_assert_ptr_null(ds->detail);
                } else {
                    ck_assert_int_eq(x->kind, UCR_DOOR_PLAIN);
                    ck_assert(y->kind == UCR_DOOR_PLAIN || y->kind == UCR_DOOR_LOCKED ||
                              y->kind == UCR_DOOR_TRAPPED);
                    ck_assert_ptr_nonnull(ds->detail);
                    ck_assert(g_str_has_prefix(ds->rolled, "door 1d20="));
                }
            }
        }
        ucr_megadungeon_free(plain);
        ucr_megadungeon_free(stocked);
        g_free(seed);
    }
}
END_TEST

START_TEST(odds_look_like_the_table)
{
    /* contents.txt: 1d12, empty 4, monster 4, trap 2, special 1, treasure 1. */
    int rooms = 0, kinds[G_N_ELEMENTS(KINDS)] = { 0 }, locked = 0, doors = 0;
    for (int s = 0; s < 60; s++) {
        char *seed = g_strdup_printf("odds-%d", s);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint k = 0; k < n->areas->len; k++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, k);
                if (a->kind != UCR_AREA_ROOM)
                    continue;
                rooms++;
                for (gsize j = 0; j < G_N_ELEMENTS(KINDS); j++)
                    kinds[j] += strcmp(a->contents_kind, KINDS[j]) == 0;
            }
            for (guint k = 0; k < n->doors->len; k++) {
                ucr_door_kind dk = g_array_index(n->doors, ucr_door, k).kind;
                doors += dk != UCR_DOOR_SECRET;
                locked += dk == UCR_DOOR_LOCKED;
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    ck_assert_int_gt(rooms, 300);
    double empty = (double)kinds[0] / rooms, monster = (double)kinds[1] / rooms;
    ck_assert_msg(empty > 0.25 && empty < 0.42, "empty %.2f", empty);
    ck_assert_msg(monster > 0.25 && monster < 0.42, "monster %.2f", monster);
    ck_assert_int_eq(kinds[5], 0);   /* no obstacles in rooms' table */
    /* door.txt: locked on 15-18 of 1d20. */
    double lk = (double)locked / doors;
    ck_assert_msg(lk > 0.12 && lk < 0.28, "locked %.2f", lk);
}
END_TEST

/* The key a GM runs (describe.h): a row for every area that agrees with
 * its stocking, the dice only on request, no seed jargon. */
START_TEST(key_rows_and_dice)
{
    int rows = 0, with_who = 0, with_trap = 0, with_treasure = 0;
    for (int s = 0; s < 10; s++) {
        char *seed = g_strdup_printf("rows-%d", s);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            char *intro = ucr_key_node_intro_markup(md, n);
            char *level = g_strdup_printf("level %d.", n->depth);
            ck_assert_msg(strstr(intro, level) != NULL, "%s", intro);
            g_free(level);
            g_free(intro);
            for (guint k = 0; k < n->areas->len; k++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, k);
                ucr_key_row row;
                ucr_key_area_row(md, n, (int)k, &row);
                rows++;
                ck_assert_ptr_nonnull(row.what);
                ck_assert_msg(*row.what, "seed %s %s-%d: no what", seed, n->id, a->key);
                /* Who is here exactly when a monster was rolled. */
                ck_assert_int_eq(*row.who != 0, (a->stock & UCR_STOCK_MONSTER) != 0);
                ck_assert_int_eq(*row.treasure != 0, a->treasure && a->treasure->len > 0);
                with_who += *row.who != 0;
                with_trap += *row.trap != 0;
                with_treasure += *row.treasure != 0;
                ck_assert_msg(!strchr(row.what, '<') && !strchr(row.exits, '<'), "markup in a row: %s",
                              row.what);
                ucr_key_row_clear(&row);
                ck_assert_ptr_null(row.what);
                char *plain = ucr_key_area_markup(md, n, (int)k, FALSE);
                char *dice = ucr_key_area_markup(md, n, (int)k, TRUE);
                ck_assert_msg(strstr(plain, "Rolled:") == NULL, "%s", plain);
                ck_assert_msg(strstr(plain, "seed 00") == NULL, "jargon: %s", plain);
                ck_assert_msg(strstr(dice, "Rolled:") != NULL || !a->stocked, "%s", dice);
                ck_assert_msg(g_str_has_prefix(dice, plain), "the dice come last: %s", dice);
                g_free(plain);
                g_free(dice);
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    ck_assert_int_gt(rows, 500);
    ck_assert_int_gt(with_who, 20);
    ck_assert_int_gt(with_trap, 20);
    ck_assert_int_gt(with_treasure, 20);
}
END_TEST

START_TEST(counts_agree_with_nouns)
{
    char *one = ucr_key_count(1, "gem", "gems"), *two = ucr_key_count(2, "gem", "gems");
    ck_assert_str_eq(one, "1 gem");
    ck_assert_str_eq(two, "2 gems");
    g_free(one);
    g_free(two);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stock");
    TCase *tc = tcase_create("stocking");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, tables_setup, tables_teardown);
    tcase_add_test(tc, same_seed_same_contents);
    tcase_add_test(tc, stocking_keeps_the_geometry);
    tcase_add_test(tc, odds_look_like_the_table);
    tcase_add_test(tc, key_rows_and_dice);
    tcase_add_test(tc, counts_agree_with_nouns);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
