/* Tests of the stocking stage: every room stocked, seeded, and no change to
 * the dungeon's geometry. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "gen/super/megadungeon.h"
#include "key/describe.h"
#include "key/stock.h"
#include "model/json.h"
#include "pipeline/pipeline.h"

static ucr_tables *tables;

static void tables_setup(void)
{
    tables = ucr_test_tables();
}

static void tables_teardown(void)
{
    ucr_tables_free(tables);
}

static ucr_megadungeon *generate(const char *seed)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
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
                /* A trap the method put at a junction (seed 002) is described,
                 * not stocked again: the map marks it once. */
                if (strcmp(y->contents_kind, "trap") == 0)
                    ck_assert(y->feature != UCR_FEATURE_NONE ? !(y->stock & UCR_STOCK_TRAP) && y->trap
                                                              : (y->stock & UCR_STOCK_TRAP) != 0);
                if (y->feature != UCR_FEATURE_NONE && y->kind != UCR_AREA_ROOM)
                    ck_assert_str_eq(y->contents_kind, y->feature == UCR_FEATURE_TRAP ||
                                                               y->feature == UCR_FEATURE_TRAP_DISABLED
                                                           ? "trap"
                                                           : "obstacle");
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

/* Treasure adds up (issue 12): every area's treasure_gp is the sum of its
 * treasures' values, every node's the sum of its areas', and deeper nodes
 * are richer and hold harder monsters. */
START_TEST(treasure_totals_add_up)
{
    double gp_by_level[4] = { 0 }, hd_by_level[4] = { 0 };
    int areas_by_level[4] = { 0 }, monsters_by_level[4] = { 0 }, valued = 0;
    for (int s = 0; s < 40; s++) {
        char *seed = g_strdup_printf("totals-%d", s);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        ck_assert_ptr_nonnull(md->name);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            ck_assert_ptr_nonnull(n->name);
            for (guint j = 0; j < i; j++)
                ck_assert_str_ne(n->name, ((const ucr_node *)g_ptr_array_index(md->nodes, j))->name);
            int level = MIN(n->depth, 3), node_sum = 0;
            for (guint k = 0; k < n->areas->len; k++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, k);
                int sum = 0;
                for (guint t = 0; t < a->treasure->len; t++) {
                    const ucr_treasure *tr = &g_array_index(a->treasure, ucr_treasure, t);
                    ck_assert_int_gt(tr->value, 0);
                    sum += tr->value;
                    valued++;
                }
                ck_assert_int_eq(sum, a->treasure_gp);
                node_sum += a->treasure_gp;
                gp_by_level[level] += a->treasure_gp;
                areas_by_level[level]++;
                for (guint m = 0; m < a->monsters->len; m++) {
                    const ucr_monster *mo = &g_array_index(a->monsters, ucr_monster, m);
                    int dice, add;
                    const char *hd = NULL;
                    for (guint f = 0; f < mo->fields->len; f++)
                        if (!strcmp(g_array_index(mo->fields, ucr_field, f).key, "hd"))
                            hd = g_array_index(mo->fields, ucr_field, f).value;
                    ck_assert(hd && ucr_hit_dice_parse(hd, &dice, &add));
                    hd_by_level[level] += dice ? dice : 0.5;
                    monsters_by_level[level]++;
                }
            }
            ck_assert_int_eq(node_sum, n->treasure_gp);
            /* The intro says the node's total. */
            char *intro = ucr_key_node_intro_markup(md, n);
            if (n->treasure_gp) {
                char *want = n->treasure_gp >= 1000
                                 ? g_strdup_printf("<b>%d,%03d gp</b> in all", n->treasure_gp / 1000, n->treasure_gp % 1000)
                                 : g_strdup_printf("<b>%d gp</b> in all", n->treasure_gp);
                ck_assert_msg(strstr(intro, want), "%s", intro);
                g_free(want);
            }
            ck_assert_msg(strstr(intro, "Wandering monsters") != NULL, "%s", intro);
            g_free(intro);
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    ck_assert_int_gt(valued, 100);
    for (int l = 1; l < 3; l++) {
        ck_assert_msg(areas_by_level[l] > 100 && areas_by_level[l + 1] > 100, "level %d: %d areas", l,
                      areas_by_level[l]);
        ck_assert_msg(gp_by_level[l] / areas_by_level[l] < gp_by_level[l + 1] / areas_by_level[l + 1],
                      "level %d is not poorer than level %d", l, l + 1);
        ck_assert_msg(hd_by_level[l] / monsters_by_level[l] < hd_by_level[l + 1] / monsters_by_level[l + 1],
                      "level %d's monsters are not weaker than level %d's", l, l + 1);
    }
}
END_TEST

/* Every stat line of 1,000 dungeons reads back with one regular expression,
 * and says as many hit points as there are monsters. */
START_TEST(stat_lines_parse)
{
    GRegex *re = g_regex_new("^([A-Z][^:;]*): No\\. ([0-9]+); AC ([0-9]+ \\[[0-9]+\\]); "
                             "HD ([0-9]+([+-][0-9]+)?|1/2); hp ([0-9]+(, [0-9]+)*); Att ([^;]+); MV ([^;]+); "
                             "ML ([0-9]+)(; .+)?$",
                             0, 0, NULL);
    GRegex *wander = g_regex_new("^([A-Z][^:;]*): No\\. ([0-9]+(d[0-9]+([+-][0-9]+)?)?); AC [0-9]+ \\[[0-9]+\\]; "
                                 "HD ([0-9]+([+-][0-9]+)?|1/2); Att ([^;]+); MV ([^;]+); ML ([0-9]+)$",
                                 0, 0, NULL);
    int lines = 0, wandering = 0;
    int seeds = g_getenv("UCR_SAN") ? 100 : 1000;   /* sanitizers: a tenth, same checks */
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "stats-%d", s);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 2, 2, tables, NULL, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        ucr_megadungeon_stock(md, tables, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint k = 0; k < n->areas->len; k++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, k);
                for (guint m = 0; m < a->monsters->len; m++) {
                    const ucr_monster *mo = &g_array_index(a->monsters, ucr_monster, m);
                    char *line = ucr_key_monster_stats(mo);
                    GMatchInfo *mi = NULL;
                    ck_assert_msg(g_regex_match(re, line, 0, &mi), "seed %s: '%s'", seed, line);
                    char *no = g_match_info_fetch(mi, 2), *hp = g_match_info_fetch(mi, 6);
                    ck_assert_int_eq(atoi(no), mo->count);
                    char **each = g_strsplit(hp, ", ", -1);
                    ck_assert_int_eq((int)g_strv_length(each), mo->count);
                    ck_assert_str_eq(line, mo->stats);
                    g_strfreev(each);
                    g_free(no);
                    g_free(hp);
                    g_match_info_free(mi);
                    g_free(line);
                    lines++;
                }
            }
            for (guint w = 0; s < 20 && w < n->wandering->len; w++) {
                const ucr_wandering_row *row = &g_array_index(n->wandering, ucr_wandering_row, w);
                ck_assert_msg(g_regex_match(wander, row->monster.stats, 0, NULL), "'%s'", row->monster.stats);
                wandering++;
            }
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(lines, seeds * 2);
    ck_assert_int_gt(wandering, 100);
    g_regex_unref(re);
    g_regex_unref(wander);
}
END_TEST

/* Room descriptions vary (issue 12): over 1,000 rooms no row of the
 * description tables (one sentence each) is used for more than 10% of the
 * rooms, and two rooms joined by a passage never read the same. */
START_TEST(room_descriptions_vary)
{
    GHashTable *uses = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    int rooms = 0;
    for (int s = 0; rooms < 1000; s++) {
        char *seed = g_strdup_printf("vary-%d", s);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint k = 0; k < n->areas->len; k++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, k);
                if (a->kind != UCR_AREA_ROOM)
                    continue;
                rooms++;
                char **sentences = g_strsplit(a->shape, ". ", -1);
                for (int j = 0; sentences[j]; j++) {
                    char *key = g_strdup(sentences[j]);
                    g_hash_table_insert(uses, key, GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(uses, key)) + 1));
                }
                g_strfreev(sentences);
            }
            for (guint p = 0; p < n->passages->len; p++) {
                const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, p);
                if (ps->a == ps->b || ps->a >= (int)n->areas->len || ps->b >= (int)n->areas->len)
                    continue;
                const ucr_area *x = &g_array_index(n->areas, ucr_area, ps->a);
                const ucr_area *y = &g_array_index(n->areas, ucr_area, ps->b);
                if (x->shape && y->shape)
                    ck_assert_msg(strcmp(x->shape, y->shape) != 0, "seed %s %s-%d and %d: %s", seed, n->id, x->key,
                                  y->key, x->shape);
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, uses);
    while (g_hash_table_iter_next(&it, &key, &value))
        ck_assert_msg(GPOINTER_TO_INT(value) * 10 <= rooms, "'%s' in %d of %d rooms", (char *)key,
                      GPOINTER_TO_INT(value), rooms);
    ck_assert_int_gt((int)g_hash_table_size(uses), 40);
    g_hash_table_destroy(uses);
}
END_TEST

/* The flavour of an area's prose entry (describe.h): what stands between
 * its heading ("12. Room, 30 × 20 ft.") and its exits, markup stripped,
 * less the words that label or route ("Monster.", "Stairs down to C-7"). */
static char *entry_flavour(const char *markup)
{
    GString *plain = g_string_new(NULL);
    const char *head = strstr(markup, "</b>");   /* "<b>12. Room</b>, 30 × 20 ft. " */
    head = head && strstr(head, ". ") ? strstr(head, ". ") + 2 : markup;
    for (const char *p = head; *p; p++) {
        if (*p == '<') {
            p = strchr(p, '>');
            continue;
        }
        g_string_append_c(plain, *p);
    }
    char *text = g_string_free(plain, FALSE);
    char *start = text;
    char *end = strstr(start, "Exits — ");
    if (!end)
        end = strstr(start, "No exits");
    char *out = end ? g_strndup(start, (gsize)(end - start)) : g_strdup(start);
    g_free(text);
    return out;
}

static gboolean routing(const char *sentence)
{
    static const char *const starts[] = { "Monster", "Trap", "Special", "Treasure", "Obstacle", "Stairs ",
                                          "A ladder", "A trap door", "The way", "Entrance:", "On level",
                                          "The treasure here", "The tunnel changes", NULL };
    for (int i = 0; starts[i]; i++)
        if (g_str_has_prefix(sentence, starts[i]))
            return TRUE;
    return FALSE;
}

/* Counts the sentences of @flavour in @said. */
static void said_count(GHashTable *said, const char *flavour)
{
    char **sentences = g_strsplit(flavour, ". ", -1);
    for (int j = 0; sentences[j]; j++) {
        char *k = g_strstrip(sentences[j]);
        if (g_str_has_suffix(k, "."))
            k[strlen(k) - 1] = '\0';
        if (!*k || routing(k) || g_str_has_prefix(k, "(") || strlen(k) < 12)
            continue;
        g_hash_table_insert(said, g_strdup(k), GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(said, k)) + 1));
    }
    g_strfreev(sentences);
}

/* No sentence of description more than three times in one booklet: every
 * area's entry and every node's theme, over 100 dungeons (#24: "Scratching
 * sounds behind the walls …" was in 11 entries of the goblin-king booklet). */
START_TEST(flavour_said_at_most_three_times)
{
    int worst = 0, sentences = 0;
    char *worst_what = NULL;
    for (int s = 0; s < 100; s++) {
        char *seed = g_strdup_printf("said-%d", s);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        GHashTable *said = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            if (n->theme)
                said_count(said, n->theme);
            for (guint k = 0; k < n->areas->len; k++) {
                char *m = ucr_key_area_markup(md, n, (int)k, FALSE);
                char *flavour = entry_flavour(m);
                said_count(said, flavour);
                g_free(flavour);
                g_free(m);
            }
        }
        GHashTableIter it;
        gpointer key, value;
        g_hash_table_iter_init(&it, said);
        while (g_hash_table_iter_next(&it, &key, &value)) {
            sentences++;
            if (GPOINTER_TO_INT(value) > worst) {
                worst = GPOINTER_TO_INT(value);
                g_free(worst_what);
                worst_what = g_strdup_printf("seed %s: '%s' %d times", seed, (char *)key, worst);
            }
        }
        g_hash_table_destroy(said);
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    printf("flavour: %d sentences over 100 booklets, the most said %s\n", sentences, worst_what);
    ck_assert_msg(worst <= 3, "%s", worst_what);
    g_free(worst_what);
}
END_TEST

/* A megadungeon of @count nodes without areas: what the names need. */
static ucr_megadungeon *bare_dungeon(int count)
{
    ucr_megadungeon *md = g_new0(ucr_megadungeon, 1);
    md->nodes = g_ptr_array_new_with_free_func((GDestroyNotify)ucr_node_free);
    for (int i = 0; i < count; i++) {
        char id[8];
        g_snprintf(id, sizeof id, "N%d", i);
        g_ptr_array_add(md->nodes, ucr_node_new(id, i % 10, i / 10));
    }
    return md;
}

/* The most stems two node names of @md share, and which. */
static int names_shared_most(const ucr_megadungeon *md, char **which)
{
    int most = 0;
    GPtrArray *stems = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    for (guint i = 0; i < md->nodes->len; i++)
        g_ptr_array_add(stems, ucr_stock_name_stems(((ucr_node *)g_ptr_array_index(md->nodes, i))->name));
    for (guint i = 0; i < stems->len; i++)
        for (guint k = i + 1; k < stems->len; k++) {
            int n = ucr_stock_stems_shared(g_ptr_array_index(stems, i), g_ptr_array_index(stems, k));
            if (n > most) {
                most = n;
                g_free(*which);
                *which = g_strdup_printf("'%s' and '%s'", ((ucr_node *)g_ptr_array_index(md->nodes, i))->name,
                                         ((ucr_node *)g_ptr_array_index(md->nodes, k))->name);
            }
        }
    g_ptr_array_unref(stems);
    return most;
}

/* Node names (#24: "The Gaol of Whispers" and "The Whispering Gaol" in one
 * dungeon; 66 pairs of a 10×10 sharing two stems): no two nodes of a 3×3
 * share a word stem, none of a 10×10 share two, over 1,000 dungeons of
 * each; and a sample of whole dungeons (their JSON's names) agrees. */
START_TEST(node_names_share_no_stem)
{
    GPtrArray *a = ucr_stock_name_stems("The Gaol of Whispers"), *b = ucr_stock_name_stems("The Whispering Gaol");
    GPtrArray *c = ucr_stock_name_stems("The Bone-Strewn Chapels"), *d = ucr_stock_name_stems("The Kennels of Bones");
    ck_assert_int_eq(ucr_stock_stems_shared(a, b), 2);
    ck_assert_int_eq(ucr_stock_stems_shared(c, d), 1);
    ck_assert_int_eq((int)a->len, 2);   /* "the", "of" are no stems */
    g_ptr_array_unref(a);
    g_ptr_array_unref(b);
    g_ptr_array_unref(c);
    g_ptr_array_unref(d);
    int sizes[2] = { 9, 100 }, allowed[2] = { 0, 1 };
    for (int z = 0; z < 2; z++) {
        int worst = 0;
        char *which = NULL;
        for (int s = 0; s < 1000; s++) {
            char *seed = g_strdup_printf("names-%d", s);
            ucr_megadungeon *md = bare_dungeon(sizes[z]);
            ucr_megadungeon_stock(md, tables, seed);
            char *here = NULL;
            int most = names_shared_most(md, &here);
            if (most > worst) {
                worst = most;
                g_free(which);
                which = g_strdup_printf("seed %s: %s", seed, here);
            }
            g_free(here);
            ucr_megadungeon_free(md);
            g_free(seed);
        }
        printf("names: %d nodes, 1,000 dungeons: at most %d stems shared%s%s\n", sizes[z], worst,
               which ? ", " : "", which ? which : "");
        ck_assert_msg(worst <= allowed[z], "%d nodes: %s", sizes[z], which);
        g_free(which);
    }
    for (int s = 0; s < 5; s++) {   /* whole dungeons, as the JSON names them */
        char *seed = g_strdup_printf("names-%d", s), *which = NULL;
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        ck_assert_msg(names_shared_most(md, &which) == 0, "seed %s: %s", seed, which);
        g_free(which);
        ucr_megadungeon_free(md);
        g_free(seed);
    }
}
END_TEST

/* The exits of an entry, one clause each ("north: a passage (30 ft) to 6"). */
static char **entry_exits(const char *markup)
{
    const char *at = strstr(markup, "Exits — ");
    if (!at)
        return g_new0(char *, 1);
    at += strlen("Exits — ");
    const char *end = strstr(at, ".\n");
    char *list = end ? g_strndup(at, (gsize)(end - at)) : g_strdup(at);
    if (!end && g_str_has_suffix(list, "."))
        list[strlen(list) - 1] = '\0';
    GRegex *re = g_regex_new("; (?=(north|east|south|west)[:,] )", 0, 0, NULL);
    char **clauses = g_regex_split(re, list, 0);
    g_regex_unref(re);
    g_free(list);
    /* g_regex_split puts the lookahead's group between the pieces. */
    GPtrArray *out = g_ptr_array_new();
    for (int i = 0; clauses[i]; i++)
        if (strcmp(clauses[i], "north") && strcmp(clauses[i], "east") && strcmp(clauses[i], "south") &&
            strcmp(clauses[i], "west"))
            g_ptr_array_add(out, g_strdup(clauses[i]));
    g_strfreev(clauses);
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

/* The far-end doors and loops of area @k of @n: passages from it whose
 * other end is an area with a door of that passage (@doors_far), and
 * passages from it back to it (@loops). */
static void far_ends(const ucr_node *n, int k, int *doors_far, int *loops)
{
    *doors_far = *loops = 0;
    for (guint p = 0; p < n->passages->len; p++) {
        const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, p);
        if (ps->a == k && ps->b == k) {
            (*loops)++;
            continue;
        }
        int other = ps->a == k ? ps->b : ps->b == k ? ps->a : -1;
        if (other < 0 || other >= (int)n->areas->len)
            continue;
        for (guint d = 0; d < n->doors->len; d++) {
            const ucr_door *dr = &g_array_index(n->doors, ucr_door, d);
            if (dr->area == other && dr->passage == (int)p) {
                (*doors_far)++;
                break;
            }
        }
    }
}

/* True if @text holds a number of four digits or more without its
 * thousands grouped ("1100 silver pieces" beside "1,540 gp"). */
static gboolean ungrouped_number(const char *text)
{
    GRegex *re = g_regex_new("(?<![0-9,d])[0-9]{4,}(?![0-9])", 0, 0, NULL);
    gboolean found = g_regex_match(re, text, 0, NULL);
    g_regex_unref(re);
    return found;
}

/* Exit lists (#24, #22): no clause twice in one entry (two passages read as
 * two), a passage back into its own area says it loops back, a door at the
 * far end of a passage is named from both ends, every tunnel of an area is
 * listed with its own destination, one number format; over 100 dungeons. */
START_TEST(exit_lists_say_each_way_once)
{
    int twice = 0, loops_said = 0, far_said = 0, tunnels = 0;
    for (int s = 0; s < 100; s++) {
        char *seed = g_strdup_printf("exits-%d", s);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint k = 0; k < n->areas->len; k++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, k);
                char *m = ucr_key_area_markup(md, n, (int)k, FALSE);
                char **ex = entry_exits(m);
                for (int x = 0; ex[x]; x++) {
                    for (int y = x + 1; ex[y]; y++)
                        ck_assert_msg(strcmp(ex[x], ex[y]) != 0, "seed %s %s-%d says twice: %s", seed, n->id,
                                      a->key, ex[x]);
                    char *own = g_strdup_printf(" to %d", a->key);
                    ck_assert_msg(!g_str_has_suffix(ex[x], own), "seed %s %s-%d leads to itself: %s", seed,
                                  n->id, a->key, ex[x]);
                    g_free(own);
                    twice += strstr(ex[x], "twice") || strstr(ex[x], "two passages");
                }
                int doors_far, loops;
                far_ends(n, (int)k, &doors_far, &loops);
                int into = 0, back = 0;
                for (const char *p = m; (p = strstr(p, " into ")) != NULL; p++)
                    into++;
                for (const char *p = m; (p = strstr(p, "loops back here")) != NULL; p++)
                    back++;
                ck_assert_msg(back == loops, "seed %s %s-%d: %d loops, %d said: %s", seed, n->id, a->key, loops,
                              back, m);
                ck_assert_msg(into >= doors_far - 1 && (doors_far == 0 || into > 0),
                              "seed %s %s-%d: %d doors at far ends, %d named: %s", seed, n->id, a->key, doors_far,
                              into, m);
                loops_said += back;
                far_said += into;
                ucr_key_row row;
                ucr_key_area_row(md, n, (int)k, &row);
                for (guint l = 0; l < n->links->len; l++) {
                    const ucr_link *ln = &g_array_index(n->links, ucr_link, l);
                    if (ln->area != (int)k || !ln->has_side || ln->kind == UCR_LINK_ENTRANCE)
                        continue;
                    char *t = ucr_key_link_target(md, ln), *want = g_strdup_printf("%s (tunnel", t);
                    ck_assert_msg(strstr(row.exits, want) || !strstr(row.exits, "(tunnel"),
                                  "seed %s %s-%d: tunnel to %s missing from '%s'", seed, n->id, a->key, t, row.exits);
                    tunnels += strstr(row.exits, want) != NULL;
                    g_free(t);
                    g_free(want);
                }
                ck_assert_msg(!ungrouped_number(m) && !ungrouped_number(row.treasure) && !ungrouped_number(row.exits),
                              "seed %s %s-%d: a number not grouped: %s", seed, n->id, a->key, m);
                ucr_key_row_clear(&row);
                g_strfreev(ex);
                g_free(m);
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    printf("exits: %d said as two, %d loops back, %d far doors named, %d tunnels\n", twice, loops_said, far_said,
           tunnels);
    ck_assert_int_gt(twice, 0);
    ck_assert_int_gt(loops_said, 0);
    ck_assert_int_gt(far_said, 100);
    ck_assert_int_gt(tunnels, 100);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stock");
    TCase *tc = tcase_create("stocking");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, tables_setup, tables_teardown);
    tcase_add_test(tc, same_seed_same_contents);
    tcase_add_test(tc, stocking_keeps_the_geometry);
    tcase_add_test(tc, odds_look_like_the_table);
    tcase_add_test(tc, key_rows_and_dice);
    tcase_add_test(tc, counts_agree_with_nouns);
    tcase_add_test(tc, treasure_totals_add_up);
    tcase_add_test(tc, stat_lines_parse);
    tcase_add_test(tc, room_descriptions_vary);
    tcase_add_test(tc, flavour_said_at_most_three_times);
    tcase_add_test(tc, node_names_share_no_stem);
    tcase_add_test(tc, exit_lists_say_each_way_once);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
