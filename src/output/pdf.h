/* undercroft — the booklet as a PDF file: laid out once (layout/booklet),
 * replayed onto the chosen backend. */
#ifndef UCR_OUTPUT_PDF_H
#define UCR_OUTPUT_PDF_H

#include <stdio.h>
#include <glib.h>
#include "layout/booklet.h"
#include "layout/impose.h"

typedef enum { UCR_BACKEND_CAIRO, UCR_BACKEND_HARU } ucr_pdf_backend;

/** "cairo" or "haru" → @backend; FALSE for anything else. */
gboolean ucr_pdf_backend_parse(const char *name, ucr_pdf_backend *backend);

/** Writes the booklet of @md to @stream (borrowed, left open) through
 *  @backend, with the fonts of DATADIR/fonts, imposed by @impose (NULL:
 *  page by page).  A saddle imposition puts @opt's pages 2-up; a mini-zine
 *  takes @opt's paper as its sheet and lays the node (opt->node_id, or the
 *  first) out on its panels, and fails with UCR_ERROR_USAGE, saying how
 *  many pages it needs, when that is more than the panels.  Returns FALSE
 *  with @error set on failure; what was written to @stream is then
 *  incomplete and the caller discards it. */
gboolean ucr_pdf_write_booklet(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                               ucr_pdf_backend backend, const ucr_imposition *impose, FILE *stream,
                               GError **error);

#endif
