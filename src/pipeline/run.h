/* undercroft — one run of the command line: the options it was given,
 * checked into a plan, then one file, a batch of them, or `stats`.
 *
 *   options (main.c) → ucr_run_new: every value checked, the data files
 *   (tables, style, page template, imposition) loaded, the writer chosen
 *   → ucr_run_go: the pipeline (pipeline.h) once per dungeon, and the
 *   writer (output/writer.h) for its files.
 *
 * Checks run in a fixed order, so that a command line with several faults
 * always reports the same first one; options that would do nothing are
 * refused, never ignored. */
#ifndef UCR_PIPELINE_RUN_H
#define UCR_PIPELINE_RUN_H

#include <glib.h>

#include "gen/node_method.h"

/** The options as given (NULL, FALSE or 0 when not; first and jobs INT_MIN). */
typedef struct {
    const char *seed, *output, *size, *format, *method, *tables;
    const char *style, *node, *dpi, *paper, *backend, *impose;
    const char *node_size;   /* --node-size */
    gboolean player, show_dice, force;
    int count, first, jobs, grid_pixels;
    gboolean stats;        /* `undercroft stats` */
    const char *extra;     /* the first argument that is not an option, or NULL */
} ucr_run_args;

typedef struct ucr_run ucr_run;

/** Checks @args (and the node methods' options in @methods, borrowed for
 *  the run's life) and loads what the run reads.  NULL with @error set
 *  (UCR_ERROR_USAGE naming the bad value and what is accepted, or the
 *  data files' codes).  Free with ucr_run_free(). */
ucr_run *ucr_run_new(const ucr_run_args *args, ucr_method_cli_set *methods, GError **error);

/** Runs @run: prints the stats, or writes the file(s) of one dungeon or a
 *  batch.  Returns the exit status (a failure's message already printed). */
int ucr_run_go(ucr_run *run);

void ucr_run_free(ucr_run *run);

#endif
