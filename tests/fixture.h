/* undercroft tests — what most suites load first: the project's own dice
 * tables and fonts from the data directory, as the program loads them.
 * A suite that cannot load them fails there, naming what and why. */
#ifndef UCR_TEST_FIXTURE_H
#define UCR_TEST_FIXTURE_H

#include <check.h>
#include <glib.h>
#include <stdio.h>

#include "core/datadir.h"
#include "pipeline/pipeline.h"
#include "render/fonts.h"
#include "tables/table.h"

/** The tables in templates/tables (ucr_tables_free them). */
static inline ucr_tables *ucr_test_tables(void)
{
    GError *error = NULL;
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    ucr_tables *t = ucr_pipeline_tables_load(dir, NULL, &error);
    ck_assert_msg(t != NULL, "tables in %s: %s", dir, error ? error->message : "?");
    g_free(dir);
    return t;
}

/** A font map of the fonts in fonts/ (g_object_unref it). */
static inline PangoFontMap *ucr_test_fonts(void)
{
    GError *error = NULL;
    char *dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *f = ucr_fonts_new(dir, &error);
    ck_assert_msg(f != NULL, "fonts in %s: %s", dir, error ? error->message : "?");
    g_free(dir);
    return f;
}

/** Issue #22: a sublevel of one or two rooms is not a dungeon.  Of @seeds
 *  3 × 3 dungeons "@prefix-1" … of @method (every node) at @size, run
 *  through the pipeline, the nodes with fewer than 4 rooms, each named on
 *  stderr; every node counted in *@nodes. */
static inline int ucr_test_few_room_nodes(const ucr_tables *tables, const char *method, ucr_node_size size,
                                          const char *prefix, int seeds, int *nodes)
{
    int few = 0;
    *nodes = 0;
    for (int s = 1; s <= seeds; s++) {
        char *seed = g_strdup_printf("%s-%d", prefix, s);
        ucr_gen_options opt = { seed, 3, 3, tables, ucr_node_method_lookup(method), { 0 } };
        opt.method_options.node_size = size;
        GError *error = NULL;
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "%s %s: %s", method, seed, error ? error->message : "?");
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            (*nodes)++;
            if (n->stats.rooms < 4) {
                few++;
                fprintf(stderr, "%s %s node %s: %d rooms\n", method, seed, n->id, n->stats.rooms);
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    return few;
}

#endif
