/* Node sizes (--node-size, gen/node_method.h): every node a sized method
 * draws lies within its size's bound, over many seeds (UCR_SIZE_SEEDS, 1000
 * by default; make check may set fewer). */
#include <check.h>
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
    return n && atoi(n) > 0 ? atoi(n) : 1000;
}

/* The drawn squares of @node (areas and passages), all within w x h. */
static void assert_within(const ucr_node *node, int w, int h, const char *seed)
{
    for (guint i = 0; i < node->areas->len; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        ck_assert_msg(a->x >= 0 && a->y >= 0 && a->x + a->w <= w && a->y + a->h <= h,
                      "%s %s: area %u at %d,%d %dx%d outside %dx%d", node->method, seed, i, a->x, a->y,
                      a->w, a->h, w, h);
    }
    for (guint i = 0; i < node->passages->len; i++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, i);
        for (guint k = 0; k < p->cells->len; k++) {
            ucr_point c = g_array_index(p->cells, ucr_point, k);
            ck_assert_msg(c.x >= 0 && c.y >= 0 && c.x < w && c.y < h, "%s %s: passage %u at %d,%d outside %dx%d",
                          node->method, seed, i, c.x, c.y, w, h);
        }
    }
}

/* Each sized method at each size: the map is the size's extent of the
 * method's standard map, pocket within UCR_POCKET_W x UCR_POCKET_H, and
 * every drawn square on it. */
START_TEST(sized_methods_draw_within_the_bound)
{
    const ucr_node_method *m = NULL;
    int k = 0;
    for (const ucr_node_method *const *it = ucr_node_methods(); *it; it++)
        if ((*it)->sized && k++ == _i / 3)
            m = *it;
    if (!m)
        return;
    ucr_node_size size = (ucr_node_size)(_i % 3);
    int std_w = 0, std_h = 0;
    for (int s = 1; s <= seeds(); s++) {
        char *seed = g_strdup_printf("size-%d", s);
        ucr_gen_options gen = { seed, 1, 1, tables, m, { 0 } };
        gen.method_options.node_size = size;
        GError *error = NULL;
        ucr_megadungeon *md = ucr_megadungeon_generate(&gen, &error);
        ck_assert_msg(md != NULL, "%s %s: %s", m->name, seed, error ? error->message : "");
        ck_assert_int_eq(md->node_size, size);
        const ucr_node *node = g_ptr_array_index(md->nodes, 0);
        if (size == UCR_NODE_POCKET) {
            ck_assert_int_le(node->width, UCR_POCKET_W);
            ck_assert_int_le(node->height, UCR_POCKET_H);
        }
        if (!std_w) {
            std_w = node->width;
            std_h = node->height;
        }
        ck_assert_msg(node->width == std_w && node->height == std_h, "%s %s: map %dx%d, first %dx%d", m->name,
                      seed, node->width, node->height, std_w, std_h);
        assert_within(node, node->width, node->height, seed);
        ucr_megadungeon_free(md);
        g_free(seed);
    }
}
END_TEST

/* The extents: pocket never above the bound, large half again. */
START_TEST(extents_follow_the_size)
{
    int w, h;
    ucr_node_size_extent(UCR_NODE_STANDARD, 48, 44, &w, &h);
    ck_assert(w == 48 && h == 44);
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
    tcase_add_loop_test(tc, sized_methods_draw_within_the_bound, 0, 3 * 4);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(size_suite());
}
