/* The key and the map agree on what lies in an area (issue 11): the model's
 * feature of an area (seed 002's d6 at every leximorph junction: trapped,
 * trapped but disabled, debris, pool) is the one truth.  The map draws one
 * mark per feature and a "T" per trap the stocking placed (check_render
 * counts them in the trace); here, over many stocked megadungeons of every
 * method, every such mark is keyed and every trap or obstacle the key names
 * is one the map draws. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include <string.h>

#include "core/datadir.h"
#include "gen/super/megadungeon.h"
#include "key/describe.h"
#include "key/stock.h"
#include "pipeline/pipeline.h"

enum { SEEDS = 1000 };

static ucr_tables *tables;

static void tables_setup(void)
{
    tables = ucr_test_tables();
}

static void tables_teardown(void)
{
    ucr_tables_free(tables);
}

/* One area: what the map draws (model feature, stock trap) against what
 * its key entry says. */
static void check_area(const ucr_megadungeon *md, const ucr_node *n, int i, const char *seed, int *seen)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
    char *key = ucr_key_area_markup(md, n, i, FALSE);
    char *low = g_utf8_strdown(key, -1);
    bool says_trap = strstr(key, "<b>Trap.</b>") != NULL;
    bool says_obstacle = strstr(key, "<b>Obstacle.</b>") != NULL;
    const char *where = n->method;
    switch (a->feature) {
    case UCR_FEATURE_TRAP:
        ck_assert_msg(says_trap && !strstr(low, "disabled"), "seed %s %s %d (%s): trap drawn, key '%s'", seed,
                      n->id, a->key, where, key);
        break;
    case UCR_FEATURE_TRAP_DISABLED:
        ck_assert_msg(says_trap && strstr(low, "disabled"), "seed %s %s %d (%s): disabled trap drawn, key '%s'",
                      seed, n->id, a->key, where, key);
        break;
    case UCR_FEATURE_DEBRIS:
        ck_assert_msg(says_obstacle && strstr(low, "debris"), "seed %s %s %d (%s): debris drawn, key '%s'", seed,
                      n->id, a->key, where, key);
        break;
    case UCR_FEATURE_POOL:
        ck_assert_msg(says_obstacle && strstr(low, "pool"), "seed %s %s %d (%s): pool drawn, key '%s'", seed,
                      n->id, a->key, where, key);
        break;
    default:
        break;
    }
    if (a->feature != UCR_FEATURE_NONE)
        seen[a->feature]++;
    /* A trap the stocking placed is drawn as a T: keyed as a trap. */
    if (a->stock & UCR_STOCK_TRAP)
        ck_assert_msg(says_trap, "seed %s %s %d (%s): T drawn, key '%s'", seed, n->id, a->key, where, key);
    /* The other way: a keyed trap is drawn (pit, sprung trap or T). */
    if (says_trap)
        ck_assert_msg(a->feature == UCR_FEATURE_TRAP || a->feature == UCR_FEATURE_TRAP_DISABLED ||
                          (a->stock & UCR_STOCK_TRAP),
                      "seed %s %s %d (%s): keyed trap not drawn: '%s'", seed, n->id, a->key, where, key);
    /* Where the node method rolled what lies there, the key says nothing
     * else: no second trap or obstacle over an ordinary junction. */
    /* A keyed obstacle is drawn, whoever put it there (the method's roll or
     * the stocking's junction table). */
    if (says_obstacle)
        ck_assert_msg(a->feature == UCR_FEATURE_DEBRIS || a->feature == UCR_FEATURE_POOL,
                      "seed %s %s %d (%s): keyed obstacle not drawn: '%s'", seed, n->id, a->key, where, key);
    if (a->feature_rolled) {
        seen[0]++;
        if (a->feature == UCR_FEATURE_NONE)
            ck_assert_msg(!says_trap && !says_obstacle && !strcmp(a->contents_kind, "empty"),
                          "seed %s %s %d (%s): an ordinary junction keyed '%s'", seed, n->id, a->key, where, key);
    }
    /* Seed 003's slope is a slope and its trap door a trap door: the map
     * draws a ramp in a passage and a hinged square, and the key says so —
     * a slope in the way to or from every area a sloping passage joins, and
     * no slope where the map draws none. */
    bool slope_here = false;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
        if (p->a != i && p->b != i)
            continue;
        for (guint x = 0; x < p->stairs->len; x++)
            slope_here |= ucr_stair_is_slope(g_array_index(p->stairs, ucr_passage_stairs, x).stair);
    }
    bool says_slope = strstr(key, "a slope down") || strstr(key, "a slope up");
    ck_assert_msg(slope_here == says_slope, "seed %s %s %d (%s): slope %s, key '%s'", seed, n->id, a->key, where,
                  slope_here ? "drawn" : "not drawn", key);
    seen[5] += slope_here;
    if (a->trapdoor) {
        ck_assert_msg(strstr(key, "Trap door") || strstr(key, "trap door"), "seed %s %s %d (%s): trap door drawn, key '%s'",
                      seed, n->id, a->key, where, key);
        seen[6]++;
    }
    g_free(low);
    g_free(key);
}

START_TEST(drawn_features_are_keyed)
{
    int seeds = g_getenv("UCR_SAN") ? SEEDS / 4 : SEEDS;
    int seen[7] = { 0 };
    GHashTable *methods = g_hash_table_new(g_str_hash, g_str_equal);
    for (int s = 1; s <= seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "features-%d", s);
        GError *error = NULL;
        /* Mixed methods, every fourth dungeon all leximorph, where the
         * features are, and every fourth all pips, where the slopes and
         * trap doors are. */
        const ucr_node_method *only = s % 4 == 0   ? ucr_node_method_lookup("leximorph")
                                      : s % 4 == 2 ? ucr_node_method_lookup("pips")
                                                   : NULL;
        ucr_gen_options opt = { seed, 3, 3, tables, only, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        ucr_megadungeon_stock(md, tables, seed);
        for (guint k = 0; k < md->nodes->len; k++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, k);
            g_hash_table_add(methods, (gpointer)n->method);
            for (guint i = 0; i < n->areas->len; i++)
                check_area(md, n, (int)i, seed, seen);
        }
        ucr_megadungeon_free(md);
    }
    /* Every method met, every feature met, and seed 002's junctions rolled. */
    int nmethods = 0;
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++)
        nmethods++;
    ck_assert_int_eq(g_hash_table_size(methods), nmethods);
    for (int f = 0; f < 7; f++)
        ck_assert_msg(seen[f] > 0, "feature %d never met (5: a slope, 6: a trap door)", f);
    g_hash_table_destroy(methods);
}
END_TEST

/* A stair landing is stocked as what it is (landing.txt), not as a junction
 * (junction.txt's minor obstacles, which the map does not draw at a
 * landing): over many stocked dungeons of every method, a landing that no
 * node method put a feature on is keyed as nothing, or as a trap that the
 * map marks with its "T"; never an obstacle, a monster or treasure; and its
 * record says the landing table was rolled. */
START_TEST(landings_are_stocked_as_landings)
{
    int seeds = g_getenv("UCR_SAN") ? 40 : 200;
    long landings = 0, trapped = 0;
    for (int s = 1; s <= seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "landings-%d", s);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        ucr_megadungeon_stock(md, tables, seed);
        for (guint k = 0; k < md->nodes->len; k++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, k);
            for (guint i = 0; i < n->areas->len; i++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
                if (a->kind != UCR_AREA_STAIRS || a->feature != UCR_FEATURE_NONE || a->feature_rolled)
                    continue;
                landings++;
                char *key = ucr_key_area_markup(md, n, (int)i, FALSE);
                bool trap = strcmp(a->contents_kind, "trap") == 0;
                ck_assert_msg(trap || strcmp(a->contents_kind, "empty") == 0, "seed %s %s-%d: a landing keyed as %s: %s",
                              seed, n->id, a->key, a->contents_kind, key);
                ck_assert_msg(!strstr(key, "<b>Obstacle.</b>"), "seed %s %s-%d: a landing keyed with an obstacle: %s",
                              seed, n->id, a->key, key);
                ck_assert_msg(g_str_has_prefix(a->stocked, "landing "), "seed %s %s-%d: stocked '%s'", seed, n->id,
                              a->key, a->stocked);
                ck_assert_int_eq(a->monsters->len, 0);
                ck_assert_int_eq(a->treasure_gp, 0);
                /* The map's T and the key's trap go together. */
                ck_assert_msg(trap == ((a->stock & UCR_STOCK_TRAP) != 0) && trap == (strstr(key, "<b>Trap.</b>") != NULL),
                              "seed %s %s-%d: trap %d, T %d: %s", seed, n->id, a->key, trap,
                              (a->stock & UCR_STOCK_TRAP) != 0, key);
                trapped += trap;
                g_free(key);
            }
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(landings, seeds * 5);
    ck_assert_int_gt(trapped, 0);
    ck_assert_int_lt(trapped * 2, landings);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("features");
    TCase *tc = tcase_create("features");
    tcase_set_timeout(tc, 600);
    tcase_add_unchecked_fixture(tc, tables_setup, tables_teardown);
    tcase_add_test(tc, drawn_features_are_keyed);
    tcase_add_test(tc, landings_are_stocked_as_landings);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
