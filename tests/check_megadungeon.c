/* Property tests of the generated megadungeon: the invariants every seed
 * must keep (DESIGN §1 "The map", issue #2), over a thousand seeds. */
#include <check.h>
#include <glib/gstdio.h>

#include "check_run.h"
#include "fixture.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "core/error.h"
#include "gen/super/megadungeon.h"
#include "key/analysis.h"
#include "model/json.h"
#include "invariants.h"
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

static ucr_megadungeon *generate(const char *seed, int cols, int rows)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, cols, rows, tables, ucr_node_method_lookup("grid"), { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

static void check_megadungeon(const ucr_megadungeon *md, const char *seed)
{
    ucr_test_check_megadungeon(md, seed);
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        if (strcmp(n->method, "grid") != 0)
            continue;
        ck_assert_int_eq(n->rolls->len, 36);   /* seed 004: 36 rolls */
        /* Step 3 fills every intersection a tunnel reaches with a room
         * (gen/methods/grid.h); none is left as a bare crossing. */
        int crossings = 0;
        for (guint a = 0; a < n->areas->len; a++) {
            const ucr_area *ar = AREA(n, a);
            if (ar->rolled && g_str_has_prefix(ar->rolled, "intersection ")) {
                ck_assert_int_eq(ar->kind, UCR_AREA_ROOM);
                crossings++;
            }
        }
        ck_assert_int_ge(crossings, 1);
        ck_assert_int_le(crossings, 9);
        /* A tunnel link sits on the junction whose passage leaves the map on
         * the link's side (a wrong link handle once put it elsewhere). */
        for (guint k = 0; k < n->links->len; k++) {
            const ucr_link *l = &g_array_index(n->links, ucr_link, k);
            if (l->kind != UCR_LINK_TUNNEL)
                continue;
            bool leaves = false;
            for (guint p = 0; p < n->passages->len; p++) {
                const ucr_passage *ps = PASSAGE(n, p);
                const ucr_vertex *vb = &g_array_index(n->vertices, ucr_vertex, ps->b);
                if (ps->a != l->area || vb->kind != UCR_VERTEX_EXIT)
                    continue;
                leaves |= (l->side == UCR_NORTH && vb->at.y == 0) ||
                          (l->side == UCR_SOUTH && vb->at.y == n->height - 1) ||
                          (l->side == UCR_WEST && vb->at.x == 0) ||
                          (l->side == UCR_EAST && vb->at.x == n->width - 1);
            }
            ck_assert_msg(leaves, "seed %s node %s: tunnel link %s at area %d does not leave the map there",
                          seed, n->id, ucr_dir_name(l->side), AREA(n, l->area)->key);
        }
    }
}

START_TEST(invariants_over_many_seeds)
{
    int seeds = g_getenv("UCR_SAN") ? SEEDS / 4 : SEEDS;
    long loops = 0, areas = 0, unreachable = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "prop-%d", s);
        ucr_megadungeon *md = generate(seed, 3, 3);
        check_megadungeon(md, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            loops += n->stats.loops;
            areas += n->stats.areas;
            unreachable += n->stats.unreachable;
        }
        ucr_megadungeon_free(md);
    }
    /* The grid keeps its loops (seed 004), and most of the dungeon can be
     * walked to from the surface. */
    ck_assert_msg(loops > seeds * 9 / 4, "only %ld loops in %d nodes", loops, seeds * 9);
    ck_assert_msg(unreachable * 5 < areas, "%ld of %ld areas unreachable", unreachable, areas);
}
END_TEST

START_TEST(other_sizes)
{
    static const int sizes[][2] = { { 1, 1 }, { 4, 2 }, { 1, 5 }, { 5, 1 }, { 2, 5 }, { 6, 6 } };
    for (unsigned k = 0; k < G_N_ELEMENTS(sizes); k++)
        for (int s = 0; s < 20; s++) {
            char seed[32];
            g_snprintf(seed, sizeof seed, "size-%d", s);
            ucr_megadungeon *md = generate(seed, sizes[k][0], sizes[k][1]);
            ck_assert_int_eq(md->columns, sizes[k][0]);
            ck_assert_int_eq(md->rows, sizes[k][1]);
            check_megadungeon(md, seed);
            ucr_megadungeon_free(md);
        }
}
END_TEST

START_TEST(same_seed_same_dungeon)
{
    ucr_megadungeon *a = generate("goblin-king", 3, 3), *b = generate("goblin-king", 3, 3);
    ucr_megadungeon *c = generate("goblin-queen", 3, 3);
    char *ja = ucr_json_write(a), *jb = ucr_json_write(b), *jc = ucr_json_write(c);
    ck_assert_str_eq(ja, jb);
    ck_assert_str_ne(ja, jc);
    /* A node's own dice do not depend on the superstructure around it. */
    ucr_megadungeon *d = generate("goblin-king", 4, 2);
    const ucr_node *na = g_ptr_array_index(a->nodes, 0), *nd = g_ptr_array_index(d->nodes, 0);
    for (int i = 0; i < 36; i++) {
        /* The dice, not the note on where a superstructure tunnel joins. */
        char *ra = g_strdup(g_ptr_array_index(na->rolls, i)), *rd = g_strdup(g_ptr_array_index(nd->rolls, i));
        char *cut;
        if ((cut = strstr(ra, " (superstructure")))
            *cut = '\0';
        if ((cut = strstr(rd, " (superstructure")))
            *cut = '\0';
        ck_assert_str_eq(ra, rd);
        g_free(ra);
        g_free(rd);
    }
    g_free(ja);
    g_free(jb);
    g_free(jc);
    ucr_megadungeon_free(a);
    ucr_megadungeon_free(b);
    ucr_megadungeon_free(c);
    ucr_megadungeon_free(d);
}
END_TEST

START_TEST(depth_follows_the_entrance)
{
    for (int s = 0; s < 200; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "depth-%d", s);
        ucr_megadungeon *md = generate(seed, 3, 3);
        const ucr_node *en = g_ptr_array_index(md->nodes, md->entrance_node);
        ck_assert_int_eq(en->depth, 1);
        /* Stairs up to the surface only from level 1. */
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint k = 0; k < n->links->len; k++) {
                const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                if (l->exit == UCR_EXIT_SURFACE)
                    ck_assert_msg(n->depth == 1, "seed %s: node %s at level %d leads to the surface", seed,
                                  n->id, n->depth);
            }
        }
        ucr_megadungeon_free(md);
    }
}
END_TEST

static int deepest_of(const ucr_megadungeon *md)
{
    int d = 0;
    for (guint i = 0; i < md->nodes->len; i++)
        d = MAX(d, ((const ucr_node *)g_ptr_array_index(md->nodes, i))->depth);
    return d;
}

/* DESIGN "Levels": a 3 × 3 megadungeon runs at least three levels deep, every
 * stair means a change of level that agrees with the levels of its ends, and
 * every superstructure tunnel says the levels it climbs or descends. */
START_TEST(levels_are_coherent)
{
    int seeds = g_getenv("UCR_SAN") ? SEEDS / 4 : SEEDS;
    for (int s = 1; s <= seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "stats-%d", s);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        int deepest = 0, shallowest = 1000;
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            deepest = MAX(deepest, n->depth);
            shallowest = MIN(shallowest, n->depth);
            for (guint k = 0; k < n->links->len; k++) {
                const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                bool down = l->kind == UCR_LINK_STAIRS_DOWN || l->kind == UCR_LINK_LADDER_DOWN;
                bool up = l->kind == UCR_LINK_STAIRS_UP || l->kind == UCR_LINK_LADDER_UP;
                if (l->exit == UCR_EXIT_SURFACE)
                    ck_assert_msg(n->depth == 1, "seed %s: node %s at level %d leads to the surface", seed,
                                  n->id, n->depth);
                if ((!down && !up) || l->exit != UCR_EXIT_NONE)
                    continue;
                ck_assert_msg(!(down && l->exit == UCR_EXIT_SURFACE) && !(up && l->exit == UCR_EXIT_BELOW),
                              "seed %s: node %s: a %s out of the booklet the wrong way", seed, n->id,
                              ucr_link_kind_name(l->kind));
                const ucr_node *t = g_ptr_array_index(md->nodes, l->to_node);
                /* Exactly one level, the way the stair goes. */
                ck_assert_msg(t->depth == n->depth + (down ? 1 : -1), "seed %s: %s from %s (level %d) to %s (level %d)",
                              seed, ucr_link_kind_name(l->kind), n->id, n->depth, t->id, t->depth);
            }
        }
        /* Every way out of the booklet is counted as a hook. */
        int surface = 0, below = 0;
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint k = 0; k < n->links->len; k++) {
                const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                surface += l->exit == UCR_EXIT_SURFACE && l->kind != UCR_LINK_ENTRANCE;
                below += l->exit == UCR_EXIT_BELOW;
                /* Down below only from the deepest level. */
                if (l->exit == UCR_EXIT_BELOW)
                    ck_assert_msg(n->depth >= deepest_of(md), "seed %s: %s at level %d leads below the booklet",
                                  seed, n->id, n->depth);
            }
        }
        ck_assert_int_eq(md->stats.hooks_surface, surface);
        ck_assert_int_eq(md->stats.hooks_below, below);
        ck_assert_int_eq(shallowest, 1);
        ck_assert_msg(deepest >= 3, "seed %s: only %d levels", seed, deepest);
        for (guint t = 0; t < md->tunnels->len; t++) {
            const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
            const ucr_node *a = g_ptr_array_index(md->nodes, tu->from), *b = g_ptr_array_index(md->nodes, tu->to);
            ck_assert_msg(tu->descent == b->depth - a->depth, "seed %s: tunnel %s-%s descends %d, levels %d to %d",
                          seed, a->id, b->id, tu->descent, a->depth, b->depth);
            if (tu->kind == UCR_TUNNEL_BLOCKED)
                continue;
            /* The tunnel's link says so at both ends. */
            for (guint k = 0; k < a->links->len; k++) {
                const ucr_link *l = &g_array_index(a->links, ucr_link, k);
                if (l->kind == UCR_LINK_TUNNEL && l->to_node == (int)tu->to && tu->descent)
                    ck_assert_msg(strstr(l->via, tu->descent > 0 ? "down" : "up") && strstr(l->via, "level"),
                                  "seed %s: tunnel %s-%s: '%s'", seed, a->id, b->id, l->via);
            }
        }
        ucr_megadungeon_free(md);
    }
}
END_TEST

/* The mixed dungeon's method roll is the table node-method
 * (templates/tables/node-method.txt).  The default is one die over the
 * registry, each method once in the registry's order: the roll as it was
 * before it was a table, so that no seed's dungeon changed. */
START_TEST(the_default_method_table_is_the_registry)
{
    const ucr_table *t = ucr_tables_lookup(tables, UCR_NODE_METHOD_TABLE);
    ck_assert_ptr_nonnull(t);
    const ucr_node_method *const *m = ucr_node_methods();
    int n = 0;
    while (m[n])
        n++;
    ck_assert_int_eq(t->count, 1);
    ck_assert_int_eq(t->sides, n);
    ck_assert_uint_eq(t->rows->len, (guint)n);
    for (int i = 0; i < n; i++) {
        const ucr_table_row *r = &g_array_index(t->rows, ucr_table_row, i);
        ck_assert_int_eq(r->lo, i + 1);
        ck_assert_int_eq(r->hi, i + 1);
        ck_assert_str_eq(r->tag, m[i]->name);
    }
}
END_TEST

/* A user's table @text for node-method, in a folder of its own, over the
 * defaults: the tables, or NULL with @error set. */
static ucr_tables *method_table_load(const char *text, GError **error)
{
    char *dir = g_dir_make_tmp("ucr-node-method-XXXXXX", NULL);
    char *path = g_build_filename(dir, UCR_NODE_METHOD_TABLE ".txt", NULL);
    g_file_set_contents(path, text, -1, NULL);
    char *defaults = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    ucr_tables *t = ucr_pipeline_tables_load(defaults, dir, error);
    remove(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
    g_free(defaults);
    return t;
}

/* The table decides the mix: weights are ranges of the roll, and a method
 * the table does not name is in no mixed dungeon. */
START_TEST(the_method_table_decides_the_mix)
{
    GError *error = NULL;
    ucr_tables *mine = method_table_load("# pips, twice as often as clock\nroll: 1d6\n"
                                         "1-4: [pips] the simple d6 method\n5-6: [clock] clock\n", &error);
    ck_assert_msg(mine != NULL, "%s", error ? error->message : "?");
    int pips = 0, clock = 0;
    for (int s = 1; s <= 40; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "mix-%d", s);
        ucr_gen_options opt = { seed, 3, 3, mine, NULL, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *node = g_ptr_array_index(md->nodes, i);
            pips += !strcmp(node->method, "pips");
            clock += !strcmp(node->method, "clock");
            ck_assert_msg(!strcmp(node->method, "pips") || !strcmp(node->method, "clock"),
                          "seed %s: node %s is %s", seed, node->id, node->method);
        }
        ucr_megadungeon_free(md);
    }
    /* 360 nodes at 4 in 6 against 2 in 6. */
    ck_assert_msg(pips > clock * 3 / 2 && clock > 60, "pips %d, clock %d", pips, clock);
    ucr_tables_free(mine);
}
END_TEST

/* A row that names no method, or no row's kind at all, is refused where it is. */
START_TEST(an_unknown_method_is_refused)
{
    GError *error = NULL;
    ucr_tables *t = method_table_load("roll: 1d2\n1: [grid] grid\n2: [gird] a typo\n", &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    ck_assert_msg(strstr(error->message, "node-method.txt:3:") && strstr(error->message, "[compass]") &&
                      strstr(error->message, "gird"),
                  "%s", error->message);
    g_clear_error(&error);
    t = method_table_load("roll: 1d2\n1-2: grid\n", &error);
    ck_assert_ptr_null(t);
    ck_assert_msg(strstr(error->message, "node-method.txt:2:"), "%s", error->message);
    g_clear_error(&error);
}
END_TEST

/* The via of @from's tunnel link to node @to, or NULL. */
static const char *tunnel_via_to(const ucr_node *from, int to)
{
    for (guint k = 0; k < from->links->len; k++) {
        const ucr_link *l = &g_array_index(from->links, ucr_link, k);
        if (l->kind == UCR_LINK_TUNNEL && l->to_node == to)
            return l->via;
    }
    return NULL;
}

/* Issue #22: seed 004's stairs go down, up on double 5s or 6s, and the
 * levels follow them in at least 90% of the stair tunnels of 1,000 mixed
 * dungeons (before: 31%, and 32% the opposite way); where the levels
 * round a loop cannot all agree, the key says so at both ends, and only
 * there. */
START_TEST(stairs_go_the_way_rolled)
{
    int seeds = g_getenv("UCR_SAN") ? 60 : 1000;
    long rolled = 0, honoured = 0, opposite = 0, noted = 0;
    for (int s = 1; s <= seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "rolled-%d", s);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        for (guint t = 0; t < md->tunnels->len; t++) {
            const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
            if (tu->kind == UCR_TUNNEL_BLOCKED)
                continue;
            const ucr_node *a = g_ptr_array_index(md->nodes, tu->from), *b = g_ptr_array_index(md->nodes, tu->to);
            int went = b->depth - a->depth;
            bool kept = tu->rolled_descent * went > 0;
            if (tu->rolled_descent) {
                rolled++;
                honoured += kept;
                opposite += tu->rolled_descent * went < 0;
            }
            for (int end = 0; end < 2; end++) {
                const char *via = tunnel_via_to(end ? b : a, end ? (int)tu->from : (int)tu->to);
                ck_assert_msg(via != NULL, "seed %s: tunnel %s-%s not keyed at %s", seed, a->id, b->id,
                              end ? b->id : a->id);
                int said = end ? -tu->rolled_descent : tu->rolled_descent;
                if (!tu->rolled_descent || kept) {
                    ck_assert_msg(!strstr(via, "though rolled"), "seed %s: %s-%s: '%s'", seed, a->id, b->id, via);
                    continue;
                }
                char *want = g_strdup_printf("though rolled going %s: the levels around cannot all agree",
                                             said > 0 ? "down" : "up");
                ck_assert_msg(strstr(via, want), "seed %s: tunnel %s-%s (rolled %+d, levels %d to %d): '%s'", seed,
                              a->id, b->id, tu->rolled_descent, a->depth, b->depth, via);
                g_free(want);
                noted++;
            }
        }
        ucr_megadungeon_free(md);
    }
    printf("stairs as rolled: %d dungeons, %ld stair tunnels with a rolled direction: %ld the way rolled (%.1f%%), "
           "%ld the other way, %ld level; %ld ends keyed as disagreeing\n",
           seeds, rolled, honoured, 100.0 * honoured / rolled, opposite, rolled - honoured - opposite, noted);
    ck_assert_msg(honoured * 10 >= rolled * 9, "%ld of %ld stair tunnels the way rolled", honoured, rolled);
}
END_TEST

/* The example: --seed a1, B rolled "2d6=9 (6+3): stairs down"
 * toward E, and its key said "1 level up". */
START_TEST(seed_a1_stairs_down)
{
    GError *error = NULL;
    ucr_gen_options opt = { "a1", 3, 3, tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "%s", error ? error->message : "?");
    const ucr_node *b = g_ptr_array_index(md->nodes, 1), *e = g_ptr_array_index(md->nodes, 4);
    ck_assert_int_eq(e->depth, b->depth + 1);
    ck_assert_msg(strstr(tunnel_via_to(b, 4), "stairs, 1 level down"), "B to E: '%s'", tunnel_via_to(b, 4));
    ucr_megadungeon_free(md);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("megadungeon");
    TCase *tc = tcase_create("invariants");
    tcase_add_unchecked_fixture(tc, tables_setup, tables_teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, invariants_over_many_seeds);
    tcase_add_test(tc, other_sizes);
    tcase_add_test(tc, same_seed_same_dungeon);
    tcase_add_test(tc, depth_follows_the_entrance);
    tcase_add_test(tc, levels_are_coherent);
    tcase_add_test(tc, the_default_method_table_is_the_registry);
    tcase_add_test(tc, the_method_table_decides_the_mix);
    tcase_add_test(tc, an_unknown_method_is_refused);
    tcase_add_test(tc, stairs_go_the_way_rolled);
    tcase_add_test(tc, seed_a1_stairs_down);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
