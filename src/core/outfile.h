/* undercroft — output files that are complete or absent.
 *
 * Everything is written to a temporary file beside the target (same folder,
 * so rename() is atomic) and renamed over it only once the writer says the
 * content is complete.  A failure or an abort unlinks the temporary file, so
 * no half-written or empty output is ever left behind. */
#ifndef UCR_OUTFILE_H
#define UCR_OUTFILE_H

#include <stdio.h>
#include <glib.h>

typedef struct ucr_outfile ucr_outfile;

/** Creates the temporary file for @path.  Returns NULL and sets @error
 *  (UCR_ERROR_CANTCREAT, naming @path) if the folder is missing or not
 *  writable.  The caller ends it with commit or abort. */
ucr_outfile *ucr_outfile_open(const char *path, GError **error);

/** The stream to write to; owned by @out. */
FILE *ucr_outfile_stream(ucr_outfile *out);

/** Flushes, closes and renames the file into place, then frees @out.
 *  On failure the temporary file is removed and @error set. */
gboolean ucr_outfile_commit(ucr_outfile *out, GError **error);

/** Discards the temporary file and frees @out.  NULL is allowed. */
void ucr_outfile_abort(ucr_outfile *out);

#endif
