/* undercroft — what the process must be sure of before anything else runs. */
#ifndef UCR_PROCESS_H
#define UCR_PROCESS_H

#include <glib.h>

/** Call first in main().  Makes sure descriptors 0, 1 and 2 are open (on
 *  /dev/null if the caller closed them: `2>&-`), so that no file we open
 *  takes their number and no library's message to stderr lands in a
 *  booklet; and ignores SIGXFSZ, so that a file growing past `ulimit -f`
 *  is a failed write we report (74) instead of a silent death.  FALSE with
 *  @error (UCR_ERROR_SOFTWARE) if /dev/null cannot be opened. */
gboolean ucr_process_init(GError **error);

#endif
