/* undercroft — tests of the terse key a mini-zine prints (key/terse.h): it
 * is the booklet's key in short, so every area with anything in it has an
 * entry, every monster group its stat line with hit points, every trap and
 * piece of treasure its words and value, every exit is said once, and the
 * numbers of the bare junctions are in the key's last line. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include <pango/pango.h>
#include <stdio.h>
#include <string.h>

#include "gen/node_method.h"
#include "key/describe.h"
#include "key/terse.h"
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

static ucr_megadungeon *generate(const char *seed, const ucr_node_method *method, int side, ucr_node_size size)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, side, side, tables, method, { 0 } };
    opt.method_options.node_size = size;
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, TRUE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

/* The text of markup @m, which must parse (a layout sets it as Pango
 * markup), with its first letters folded so that "A scroll" matches
 * "a scroll". */
static char *plain(const char *m)
{
    char *text = NULL;
    GError *error = NULL;
    ck_assert_msg(pango_parse_markup(m, -1, 0, NULL, &text, NULL, &error), "markup %s: %s", m,
                  error ? error->message : "?");
    char *down = g_utf8_strdown(text, -1);
    g_free(text);
    return down;
}

static bool holds(const char *text, const char *part)
{
    char *p = g_utf8_strdown(part, -1);
    bool found = strstr(text, p) != NULL;
    g_free(p);
    return found;
}

/* A list of exits split where a comma stands outside brackets:
 * "N 3, E C-7 (tunnel, door)" is two. */
static GPtrArray *split_exits(const char *at, const char *end)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    int depth = 0;
    const char *from = at;
    for (const char *p = at; p <= end && from < end; p++) {
        if (p < end && *p == '(')
            depth++;
        else if (p < end && *p == ')')
            depth--;
        else if (p == end || (depth == 0 && p[0] == ',' && p[1] == ' ')) {
            g_ptr_array_add(out, g_strndup(from, (gsize)(p - from)));
            from = p + 2;
        }
    }
    return out;
}

/* The exits of an entry's (lower-case) text. */
static GPtrArray *exits_of(const char *text)
{
    /* The last: a trap may "seal the exits" earlier in the entry. */
    const char *at = g_strrstr(text, "exits ");
    if (!at)
        return g_ptr_array_new();
    at += strlen("exits ");
    const char *end = at + strlen(at);
    if (end > at && end[-1] == '.')
        end--;
    return split_exits(at, end);
}

/* Every area of every node of @md against its terse entry; adds the
 * entries, stat lines and bare junctions seen to @counts. */
static void check_dungeon(const ucr_megadungeon *md, int counts[3])
{
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        char *bare_m = ucr_key_terse_bare(n);
        char *bare = bare_m ? plain(bare_m) : g_strdup("");
        for (guint k = 0; k < n->areas->len; k++) {
            const ucr_area *a = &g_array_index(n->areas, ucr_area, k);
            char *m = ucr_key_terse_area(md, n, (int)k);
            char *num = g_strdup_printf("%d", a->key);
            if (!ucr_key_area_has_prose(n, (int)k)) {
                ck_assert_msg(!m, "%s %s-%d: an entry for a bare junction: %s", md->seed, n->id, a->key, m);
                char **nums = g_strsplit_set(strchr(bare, ':'), ":, .", -1);
                ck_assert_msg(g_strv_contains((const char *const *)nums, num), "%s %s-%d: not in '%s'", md->seed,
                              n->id, a->key, bare);
                g_strfreev(nums);
                counts[2]++;
                g_free(num);
                continue;
            }
            ck_assert_msg(m != NULL, "%s %s-%d: no entry", md->seed, n->id, a->key);
            char *text = plain(m), *head = g_strdup_printf("%d. ", a->key);
            ck_assert_msg(g_str_has_prefix(text, head), "%s %s-%d: %s", md->seed, n->id, a->key, text);
            for (guint g = 0; a->monsters && g < a->monsters->len; g++) {
                const ucr_monster *mo = &g_array_index(a->monsters, ucr_monster, g);
                if (!mo->fields)
                    continue;
                char *line = ucr_key_monster_stats(mo);
                ck_assert_msg(holds(text, line) && mo->hp && strstr(line, "; hp "), "%s %s-%d: no stat line '%s' in %s",
                              md->seed, n->id, a->key, line, text);
                g_free(line);
                counts[1]++;
            }
            for (guint t = 0; a->treasure && t < a->treasure->len; t++) {
                const ucr_treasure *tr = &g_array_index(a->treasure, ucr_treasure, t);
                ck_assert_msg(holds(text, tr->text), "%s %s-%d: no treasure '%s' in %s", md->seed, n->id, a->key,
                              tr->text, text);
            }
            ck_assert_msg(!a->trap || holds(text, a->trap), "%s %s-%d: no trap in %s", md->seed, n->id, a->key, text);
            GPtrArray *ex = exits_of(text);
            for (guint x = 0; x < ex->len; x++) {
                const char *e = g_ptr_array_index(ex, x);
                ck_assert_msg(!strstr(e, " at "), "%s %s-%d: a far door in '%s'", md->seed, n->id, a->key, e);
                for (guint y = x + 1; y < ex->len; y++)
                    ck_assert_msg(strcmp(e, g_ptr_array_index(ex, y)) != 0, "%s %s-%d: '%s' twice: %s", md->seed,
                                  n->id, a->key, e, text);
            }
            g_ptr_array_free(ex, TRUE);
            counts[0]++;
            g_free(head);
            g_free(text);
            g_free(num);
            g_free(m);
        }
        g_free(bare);
        g_free(bare_m);
        char *intro = ucr_key_terse_intro(md, n), *ti = plain(intro);
        for (guint w = 0; n->wandering && w < n->wandering->len; w++) {
            char *line = ucr_key_monster_stats(&g_array_index(n->wandering, ucr_wandering_row, w).monster);
            ck_assert_msg(holds(ti, line), "%s %s: no wandering '%s'", md->seed, n->id, line);
            g_free(line);
        }
        g_free(ti);
        g_free(intro);
    }
}

/* Pocket nodes of every method that draws them (the mini-zine's), and a
 * standard 3 x 3 dungeon of the mix. */
START_TEST(terse_key_holds_the_key)
{
    int counts[3] = { 0 }, methods = 0;
    for (const ucr_node_method *const *me = ucr_node_methods(); *me; me++) {
        if (!(*me)->sized)
            continue;
        methods++;
        for (int s = 1; s <= 25; s++) {
            char *seed = g_strdup_printf("terse-%d", s);
            ucr_megadungeon *md = generate(seed, *me, 1, UCR_NODE_POCKET);
            check_dungeon(md, counts);
            ucr_megadungeon_free(md);
            g_free(seed);
        }
    }
    for (int s = 1; s <= 3; s++) {
        char *seed = g_strdup_printf("terse-mix-%d", s);
        ucr_megadungeon *md = generate(seed, NULL, 3, UCR_NODE_STANDARD);
        check_dungeon(md, counts);
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    printf("terse: %d methods, %d entries, %d stat lines, %d bare junctions\n", methods, counts[0], counts[1],
           counts[2]);
    ck_assert_int_gt(methods, 0);
    ck_assert_int_gt(counts[1], 50);
    ck_assert_int_gt(counts[2], 10);
}
END_TEST

/* The exits in a mini-zine's words: side, where, the door at this end. */
START_TEST(terse_exits_read_short)
{
    int doors = 0, kinds = 0;
    for (int s = 1; s <= 20; s++) {
        char *seed = g_strdup_printf("terse-exits-%d", s);
        ucr_megadungeon *md = generate(seed, NULL, 2, UCR_NODE_STANDARD);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint k = 0; k < n->areas->len; k++) {
                char *e = ucr_key_area_exits_terse(md, n, (int)k);
                GPtrArray *parts = split_exits(e, e + strlen(e));
                for (guint p = 0; p < parts->len; p++) {
                    const char *x = g_ptr_array_index(parts, p);
                    ck_assert_msg(strchr("NESW", x[0]) && x[1] == ' ', "'%s' in '%s'", x, e);
                }
                doors += strstr(e, "(door)") != NULL;
                kinds += strstr(e, "(locked)") || strstr(e, "(secret)") || strstr(e, "(trapped)");
                ck_assert_msg(!strstr(e, "door at") && !strstr(e, "; "), "'%s'", e);
                g_ptr_array_free(parts, TRUE);
                g_free(e);
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    ck_assert_int_gt(doors, 20);
    ck_assert_int_gt(kinds, 5);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("terse");
    TCase *tc = tcase_create("terse");
    tcase_add_unchecked_fixture(tc, tables_setup, tables_teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, terse_key_holds_the_key);
    tcase_add_test(tc, terse_exits_read_short);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
