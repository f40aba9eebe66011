/* undercroft — output files that are complete or absent.
 *
 * Everything is written to a temporary file beside the target (same folder,
 * so rename() is atomic) and renamed over it only once the writer says the
 * content is complete.  The temporary has no name while it is written where
 * the file system allows (core/tempfile.h), so nothing is left whatever
 * ends the process; a failure, an abort or a signal (core/signal.c) removes
 * a named one, so no half-written or empty output is ever left behind, and
 * a file already at the path stays as it was.  What is at the path is
 * looked at again just before the rename: a FIFO, device, folder or link
 * made there while we wrote is refused (73) and left alone.  A set of files
 * (the maps of every node) is put in place all together or not at all.
 *
 * What may be at the path (doc/usage.md, "Where the output goes"):
 *   - nothing, or a regular file: it is replaced (keeping its permissions);
 *   - a symbolic link: it is followed, and the file it points to is
 *     replaced atomically (a link to nothing is refused);
 *   - anything else (a device, a FIFO, a folder, a socket): refused, exit
 *     73, even as root — /dev/null is never replaced by a PDF;
 *   - "-": standard output.  The whole output is kept in memory and written
 *     only once complete, so a failed run writes nothing there either.
 * A write that fails says why ("No space left on device") and exits 74. */
#ifndef UCR_OUTFILE_H
#define UCR_OUTFILE_H

#include <stdio.h>
#include <glib.h>

typedef struct ucr_outfile ucr_outfile;

/** TRUE if @path means standard output ("-"). */
gboolean ucr_outfile_is_stdout(const char *path);

/** Creates the temporary file for @path.  Returns NULL and sets @error
 *  (UCR_ERROR_CANTCREAT, naming @path and why) if the folder is missing or
 *  not writable or the path holds something that is not a regular file.
 *  The caller ends it with commit or abort. */
ucr_outfile *ucr_outfile_open(const char *path, GError **error);

/** The stream to write to; owned by @out. */
FILE *ucr_outfile_stream(ucr_outfile *out);

/** Flushes, closes and renames the file into place (or writes it to
 *  standard output), then frees @out.  On failure the temporary file is
 *  removed and @error set: UCR_ERROR_IOERR with the reason when a write
 *  failed, UCR_ERROR_CANTCREAT when the rename did. */
gboolean ucr_outfile_commit(ucr_outfile *out, GError **error);

/** Commits @n files at once: every one is renamed into place or none is
 *  (the files already replaced are put back when a later one cannot be:
 *  an immutable file, a folder made at its path).  Frees every out.
 *  Errors as for ucr_outfile_commit, naming the file at fault. */
gboolean ucr_outfile_commit_all(ucr_outfile **outs, guint n, GError **error);

/** Discards the temporary file and frees @out.  NULL is allowed. */
void ucr_outfile_abort(ucr_outfile *out);

/** Like ucr_outfile_abort, for a writer that failed: if a write to the
 *  stream failed, *@error (the writer's, which cannot know why) is replaced
 *  by one naming the file and the reason, UCR_ERROR_IOERR. */
void ucr_outfile_abort_error(ucr_outfile *out, GError **error);

#endif
