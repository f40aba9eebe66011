/* undercroft — where templates/ and fonts/ are. */
#ifndef UCR_DATADIR_H
#define UCR_DATADIR_H

#include <glib.h>

/** The folder holding templates/ and fonts/: $UNDERCROFT_DATADIR if set;
 *  else, for an executable inside the source tree it was built from
 *  (./build/undercroft, the tests), that tree; else ../share/undercroft
 *  beside the executable's folder (an install under any PREFIX or
 *  DESTDIR); else the configured install folder (PREFIX/share/undercroft).
 *  The result is owned by the module; never NULL. */
const char *ucr_datadir(void);

/** Checks that the data folder holds templates/tables, templates/styles
 *  and fonts; otherwise sets @error (UCR_ERROR_NOINPUT) naming the folder
 *  and where it came from (UNDERCROFT_DATADIR or the install). */
gboolean ucr_datadir_check(GError **error);

#endif
