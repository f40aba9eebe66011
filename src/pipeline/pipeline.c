/* undercroft — one run assembled (pipeline/pipeline.h). */
#include "pipeline/pipeline.h"

#include "gen/kit/roll004.h"
#include "key/analysis.h"
#include "key/stock.h"

ucr_tables *ucr_pipeline_tables_load(const char *defaults, const char *user, GError **error)
{
    /* In the order the stages run, so that a folder with several faults
     * reports the first a run would meet. */
    GPtrArray *needs = g_ptr_array_new();
    g_ptr_array_add(needs, (gpointer)ucr_stock_tables);
    g_ptr_array_add(needs, (gpointer)ucr_roll004_tables);   /* the superstructure */
    g_ptr_array_add(needs, (gpointer)ucr_node_method_roll_tables());   /* its mixed methods */
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++)
        for (int i = 0; (*m)->tables && (*m)->tables[i]; i++)
            g_ptr_array_add(needs, (gpointer)(*m)->tables[i]);
    g_ptr_array_add(needs, NULL);
    ucr_tables *tables = ucr_tables_load_with(defaults, user, (const ucr_table_need *const *)needs->pdata,
                                              error);
    g_ptr_array_free(needs, TRUE);
    /* Then what each method needs of the rows as a whole: every method,
     * since any node of a mixed dungeon may be of any. */
    for (const ucr_node_method *const *m = ucr_node_methods(); tables && *m; m++)
        if ((*m)->tables_check && !(*m)->tables_check(tables, error))
            g_clear_pointer(&tables, ucr_tables_free);
    return tables;
}

ucr_megadungeon *ucr_pipeline_dungeon(const ucr_gen_options *opt, gboolean stock, GError **error)
{
    ucr_megadungeon *md = ucr_megadungeon_generate(opt, error);
    if (!md)
        return NULL;
    if (stock)
        ucr_megadungeon_stock(md, opt->tables, opt->seed);
    ucr_megadungeon_analyse(md);
    return md;
}
