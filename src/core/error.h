/* undercroft — errors.  We use GLib's GError with one domain whose codes are
 * the sysexits.h exit statuses, so a failure carries its message and its exit
 * code together up to main(). */
#ifndef UCR_ERROR_H
#define UCR_ERROR_H

#include <glib.h>

#define UCR_ERROR (ucr_error_quark())

/** Error codes: the process exit status that main() returns for them. */
typedef enum {
    UCR_ERROR_USAGE = 64,    /* EX_USAGE: bad option or value */
    UCR_ERROR_DATA = 65,     /* EX_DATAERR: bad data file (table, template) */
    UCR_ERROR_NOINPUT = 66,  /* EX_NOINPUT: a file we need is missing */
    UCR_ERROR_SOFTWARE = 70, /* EX_SOFTWARE: internal error */
    UCR_ERROR_CANTCREAT = 73, /* EX_CANTCREAT: cannot create the output */
    UCR_ERROR_IOERR = 74     /* EX_IOERR: writing the output failed (disk full) */
} ucr_error_code;

GQuark ucr_error_quark(void);

/** Prints @error as the program's one line on stderr ("undercroft: …"),
 *  frees it and returns its exit status (UCR_ERROR_SOFTWARE for an error
 *  of another domain). */
int ucr_error_report(GError *error);

#endif
