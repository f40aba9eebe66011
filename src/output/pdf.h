/* undercroft — the booklet as a PDF file: laid out once (layout/booklet),
 * replayed onto the chosen backend. */
#ifndef UCR_OUTPUT_PDF_H
#define UCR_OUTPUT_PDF_H

#include <stdio.h>
#include <glib.h>
#include "layout/booklet.h"

typedef enum { UCR_BACKEND_CAIRO, UCR_BACKEND_HARU } ucr_pdf_backend;

/** "cairo" or "haru" → @backend; FALSE for anything else. */
gboolean ucr_pdf_backend_parse(const char *name, ucr_pdf_backend *backend);

/** Writes the booklet of @md to @stream (borrowed, left open) through
 *  @backend, with the fonts of DATADIR/fonts.  Returns FALSE with @error
 *  set on failure; what was written to @stream is then incomplete and the
 *  caller discards it. */
gboolean ucr_pdf_write_booklet(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                               ucr_pdf_backend backend, FILE *stream, GError **error);

#endif
