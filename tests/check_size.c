/* Node sizes (--node-size, gen/node_method.h): every method draws at every
 * size, and every node lies within its size's bound — standard at most
 * UCR_STANDARD_W x UCR_STANDARD_H, pocket at most UCR_POCKET_W x
 * UCR_POCKET_H, large at least the same seed's standard map and at most half
 * again the standard bound each way — over many seeds (UCR_SIZE_SEEDS, 100 by default;
 * make sizes runs 1,000 and prints the extents measured). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/datadir.h"
#include "gen/super/megadungeon.h"
#include "pipeline/pipeline.h"

static ucr_tables *tables;

static void setup(void)
{
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    GError *error = NULL;
    tables = ucr_pipeline_tables_load(dir, NULL, &error);
    ck_assert_msg(tables != NULL, "%s", error ? error->message : "");
    g_free(dir);
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

static int seeds(void)
{
    const char *n = getenv("UCR_SIZE_SEEDS");
    return n && atoi(n) > 0 ? atoi(n) : 100;
}

/* The drawn squares of @node (areas and passages): all within its map,
 * their bounding box's width and height into @dw, @dh. */
static void drawn_extent(const ucr_node *node, const char *seed, int *dw, int *dh)
{
    int x0 = node->width, y0 = node->height, x1 = -1, y1 = -1;
    for (guint i = 0; i < node->areas->len; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        ck_assert_msg(a->x >= 0 && a->y >= 0 && a->x + a->w <= node->width && a->y + a->h <= node->height,
                      "%s %s: area %u at %d,%d %dx%d outside %dx%d", node->method, seed, i, a->x, a->y, a->w,
                      a->h, node->width, node->height);
        x0 = MIN(x0, a->x);
        y0 = MIN(y0, a->y);
        x1 = MAX(x1, a->x + a->w - 1);
        y1 = MAX(y1, a->y + a->h - 1);
    }
    for (guint i = 0; i < node->passages->len; i++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, i);
        for (guint k = 0; k < p->cells->len; k++) {
            ucr_point c = g_array_index(p->cells, ucr_point, k);
            ck_assert_msg(c.x >= 0 && c.y >= 0 && c.x < node->width && c.y < node->height,
                          "%s %s: passage %u at %d,%d outside %dx%d", node->method, seed, i, c.x, c.y,
                          node->width, node->height);
            x0 = MIN(x0, c.x);
            y0 = MIN(y0, c.y);
            x1 = MAX(x1, c.x);
            y1 = MAX(y1, c.y);
        }
    }
    *dw = x1 - x0 + 1;
    *dh = y1 - y0 + 1;
}

/* A 1x1 dungeon of method @m at @size; the caller frees it. */
static ucr_megadungeon *generate(const ucr_node_method *m, ucr_node_size size, const char *seed)
{
    ucr_gen_options gen = { seed, 1, 1, tables, m, { 0 } };
    gen.method_options.node_size = size;
    GError *error = NULL;
    ucr_megadungeon *md = ucr_megadungeon_generate(&gen, &error);
    ck_assert_msg(md != NULL, "%s %s %s: %s", m->name, ucr_node_size_name(size), seed,
                  error ? error->message : "");
    ck_assert_int_eq(md->node_size, size);
    return md;
}

/* Every registered method draws at every size (.sized): the mix takes
 * --node-size pocket and large. */
START_TEST(every_method_is_sized)
{
    for (const ucr_node_method *const *it = ucr_node_methods(); *it; it++)
        ck_assert_msg((*it)->sized, "%s draws standard nodes only", (*it)->name);
}
END_TEST

/* The bound of a node at @size, wide x tall: standard UCR_STANDARD_W x
 * UCR_STANDARD_H, leximorph four squares more each way (the sheet crops its
 * margin: four letters at four squares a character take 44 across) or, wider
 * than tall, 57 x 36 (gen/methods/leximorph.c); large half again the
 * largest native map (compass, 55 x 49), a method's large map being half
 * again its own. */
static void size_bound(const ucr_node_method *m, ucr_node_size size, const ucr_node *node, int *bw, int *bh)
{
    *bw = size == UCR_NODE_POCKET ? UCR_POCKET_W : UCR_STANDARD_W;
    *bh = size == UCR_NODE_POCKET ? UCR_POCKET_H : UCR_STANDARD_H;
    if (size == UCR_NODE_STANDARD && !strcmp(m->name, "leximorph")) {
        bool turned = node->width > node->height && node->height <= 36;
        *bw = turned ? 57 : UCR_STANDARD_W + 4;
        *bh = turned ? 36 : UCR_STANDARD_H + 4;
    }
    if (size == UCR_NODE_LARGE) {
        *bw = 55 * 3 / 2;
        *bh = 49 * 3 / 2;
    }
}

/* A large node of @m for @seed is at least the same seed's standard map. */
static void assert_large_not_smaller(const ucr_node_method *m, const ucr_node *node, const char *seed)
{
    ucr_megadungeon *std = generate(m, UCR_NODE_STANDARD, seed);
    const ucr_node *sn = g_ptr_array_index(std->nodes, 0);
    ck_assert_msg(node->width >= sn->width && node->height >= sn->height,
                  "%s large %s: map %dx%d, smaller than standard %dx%d", m->name, seed, node->width,
                  node->height, sn->width, sn->height);
    ucr_megadungeon_free(std);
}

/* Each method at each size over the seeds: every drawn square on the map,
 * standard within UCR_STANDARD_W x UCR_STANDARD_H, pocket within
 * UCR_POCKET_W x UCR_POCKET_H, large no smaller than the same seed's
 * standard map, nothing rolled left off.  Prints the maps and drawn extents
 * measured (make sizes quotes them in doc/generation.md). */
START_TEST(methods_draw_within_the_bound)
{
    const ucr_node_method *m = ucr_node_methods()[_i / 3];
    ucr_node_size size = (ucr_node_size)(_i % 3);
    int map_w = 0, map_h = 0, max_w = 0, max_h = 0, unplaced = 0, n = seeds();
    double sum_w = 0, sum_h = 0;
    for (int s = 1; s <= n; s++) {
        char *seed = g_strdup_printf("size-%d", s);
        ucr_megadungeon *md = generate(m, size, seed);
        const ucr_node *node = g_ptr_array_index(md->nodes, 0);
        int bw, bh;
        size_bound(m, size, node, &bw, &bh);
        ck_assert_msg(node->width <= bw && node->height <= bh, "%s %s %s: map %dx%d, bound %dx%d", m->name,
                      ucr_node_size_name(size), seed, node->width, node->height, bw, bh);
        if (size == UCR_NODE_LARGE)
            assert_large_not_smaller(m, node, seed);
        int dw, dh;
        drawn_extent(node, seed, &dw, &dh);
        map_w = MAX(map_w, node->width);
        map_h = MAX(map_h, node->height);
        max_w = MAX(max_w, dw);
        max_h = MAX(max_h, dh);
        sum_w += dw;
        sum_h += dh;
        unplaced += node->unplaced;
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    printf("| %s | %s | %d | %d x %d | %d x %d | %.1f x %.1f | %d |\n", m->name, ucr_node_size_name(size), n,
           map_w, map_h, max_w, max_h, sum_w / n, sum_h / n, unplaced);
    fflush(stdout);
}
END_TEST

/* The extents: standard within the standard bound, pocket never above its
 * bound, large half again the native map. */
START_TEST(extents_follow_the_size)
{
    int w, h;
    ucr_node_size_extent(UCR_NODE_STANDARD, 48, 44, &w, &h);
    ck_assert(w == UCR_STANDARD_W && h == 44);
    ucr_node_size_extent(UCR_NODE_STANDARD, 36, 50, &w, &h);
    ck_assert(w == 36 && h == UCR_STANDARD_H);
    ucr_node_size_extent(UCR_NODE_POCKET, 48, 44, &w, &h);
    ck_assert(w == UCR_POCKET_W && h == UCR_POCKET_H);
    ucr_node_size_extent(UCR_NODE_LARGE, 48, 44, &w, &h);
    ck_assert(w == 72 && h == 66);
    ucr_node_size s;
    ck_assert(ucr_node_size_parse("pocket", &s) && s == UCR_NODE_POCKET);
    ck_assert(!ucr_node_size_parse("tiny", &s));
    ck_assert_str_eq(ucr_node_size_name(UCR_NODE_LARGE), "large");
}
END_TEST

static Suite *size_suite(void)
{
    Suite *s = suite_create("size");
    TCase *tc = tcase_create("size");
    tcase_set_timeout(tc, 0);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, extents_follow_the_size);
    tcase_add_test(tc, every_method_is_sized);
    int methods = 0;
    while (ucr_node_methods()[methods])
        methods++;
    printf("| method | size | seeds | map | drawn extent, largest | drawn extent, mean | unplaced |\n"
           "| --- | --- | ---: | --- | --- | --- | ---: |\n");
    tcase_add_loop_test(tc, methods_draw_within_the_bound, 0, 3 * methods);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(size_suite());
}
