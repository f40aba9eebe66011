/* undercroft — where templates/ and fonts/ are. */
#ifndef UCR_DATADIR_H
#define UCR_DATADIR_H

#include <glib.h>

/** The folder holding templates/ and fonts/: $UNDERCROFT_DATADIR if set;
 *  else the source tree the executable was built in (so ./build/undercroft
 *  works from a checkout); else the installed share/undercroft.
 *  The result is owned by the module; never NULL. */
const char *ucr_datadir(void);

/** Checks that the data folder holds templates/tables, templates/styles
 *  and fonts; otherwise sets @error (UCR_ERROR_NOINPUT) naming the folder
 *  and where it came from (UNDERCROFT_DATADIR or the install). */
gboolean ucr_datadir_check(GError **error);

#endif
