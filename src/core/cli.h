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

#endif
