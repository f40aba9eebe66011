/* undercroft — reading a data file the user may have pointed anywhere.
 *
 * Tables, letter shapes and styles are small text files.  What is at their
 * path may be anything: a FIFO (a read would wait forever), a device, a
 * folder, a file of gigabytes.  Every data file is read through here, so each
 * parser sees only the bytes of a regular file of bounded size. */
#ifndef UCR_DATAFILE_H
#define UCR_DATAFILE_H

#include <glib.h>

/** The largest data file read, in bytes (doc/limits.md). */
#define UCR_DATAFILE_MAX (1024 * 1024)

/** Reads the regular file @path (at most UCR_DATAFILE_MAX bytes) into a
 *  NUL-terminated buffer (*@contents, freed by the caller; *@length without
 *  the NUL, may be NULL), without a UTF-8 byte order mark at its start.
 *  @what names the file in messages ("table").
 *  Errors: missing or unreadable → UCR_ERROR_NOINPUT; not a regular file
 *  (FIFO, device, folder) → UCR_ERROR_NOINPUT, without reading from it;
 *  too large → UCR_ERROR_DATA. */
gboolean ucr_datafile_read(const char *path, const char *what, char **contents, gsize *length,
                           GError **error);

/** The names of the .ini files in @dir, sorted, without ".ini", joined by
 *  ", " ("a4, a5, digest, letter"), leaving out those whose name ends with
 *  @skip (NULL: none): the choices an "unknown NAME" message offers.  NULL
 *  when there are none.  The caller frees it. */
char *ucr_datafile_ini_names(const char *dir, const char *skip);

#endif
