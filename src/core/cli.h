/* undercroft — command-line text as the user typed it.
 *
 * undercroft never takes the user's locale: its numbers, messages and files
 * must not depend on it (same seed + options → same bytes).  Without a
 * locale, GLib takes the arguments for ASCII and refused every non-ASCII
 * seed ("Zauberküche", "地下城") with "Invalid byte sequence in conversion
 * input", naming no option.  So the character type alone is pinned to
 * C.UTF-8 (whatever the user's locale: C, POSIX, de_DE.UTF-8 …) and every
 * text option is checked for valid UTF-8 by name.  A seed that is not
 * valid UTF-8 is refused (it is printed in the booklet and the JSON). */
#ifndef UCR_CLI_H
#define UCR_CLI_H

#include <glib.h>

/** The longest text option (a seed) in bytes. */
#define UCR_CLI_TEXT_MAX 1000

/** Parses @argc/@argv with @ctx (whose main entries are @entries), the
 *  arguments taken as UTF-8 in any locale.  A text option whose value is
 *  not valid UTF-8, not printable (core/printable.h) or longer than
 *  UCR_CLI_TEXT_MAX bytes is refused naming the option (UCR_ERROR_USAGE); file
 *  names (G_OPTION_ARG_FILENAME) are bytes and may be anything.  Other
 *  errors are GOption's (unknown option, missing value). */
gboolean ucr_cli_parse(GOptionContext *ctx, const GOptionEntry *entries, int *argc, char ***argv,
                       GError **error);

/** The whole numbers an integer option accepts: --@name from @min to @max. */
typedef struct {
    const char *name;
    long min, max;
} ucr_cli_range;

/** Like ucr_cli_parse, and every integer option given (G_OPTION_ARG_INT)
 *  must be a decimal whole number within its entry of @ranges (a list ended
 *  by a NULL name): "bad --count 0: expected a whole number from 1 to
 *  1000000" (UCR_ERROR_USAGE), never taken as "not given".  Also refuses a
 *  malformed $SOURCE_DATE_EPOCH (see ucr_cli_source_date). */
gboolean ucr_cli_parse_ranged(GOptionContext *ctx, const GOptionEntry *entries, const ucr_cli_range *ranges,
                              int *argc, char ***argv, GError **error);

/** The latest time a PDF can state: 9999-12-31 23:59:59 UTC. */
#define UCR_SOURCE_DATE_MAX 253402300799LL

/** Checks $SOURCE_DATE_EPOCH as reproducible-builds.org says to: unset or
 *  empty is fine; otherwise it must be a decimal whole number of seconds
 *  from 0 to UCR_SOURCE_DATE_MAX, or it is an error (UCR_ERROR_USAGE naming
 *  the value), never silently replaced by our default date. */
gboolean ucr_cli_source_date(GError **error);

#endif
