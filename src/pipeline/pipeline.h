/* undercroft — one run assembled: the stages in the order they run.
 *
 *   tables → generate → stock → analyse → lay out
 *
 * The dice tables (tables/table.h) are loaded once, checked for every table
 * a stage reads (each stage and each node method declares its own);
 * generation (gen/super/megadungeon.h) draws the dungeon; stocking (key/stock.h)
 * fills it and changes no geometry; the analysis (key/analysis.h) measures
 * what was drawn and says what no route reaches; layout and output read it
 * all.  main.c, a batch's jobs, `undercroft stats` and the tests run these
 * stages through here so that they run them alike. */
#ifndef UCR_PIPELINE_H
#define UCR_PIPELINE_H

#include "gen/super/megadungeon.h"
#include "tables/table.h"

/** Loads the tables of @defaults with those of @user (may be NULL) over
 *  them, as ucr_tables_load_with() does, checked for every table that the
 *  stocking, the superstructure and every registered node method read,
 *  and by each method's tables_check (gen/node_method.h). */
ucr_tables *ucr_pipeline_tables_load(const char *defaults, const char *user, GError **error);

/** The dungeon of @opt: generated, stocked (when @stock: `undercroft stats`
 *  skips it, since it changes no figure) and analysed.  NULL with @error set
 *  on an internal failure.  Free with ucr_megadungeon_free(). */
ucr_megadungeon *ucr_pipeline_dungeon(const ucr_gen_options *opt, gboolean stock, GError **error);

#endif
