/* undercroft — text that can be printed: the one check every text a user
 * gives us passes before we accept it (the seed and other text options in
 * core/cli.c, the rows of a table in tables/table.c).
 *
 * Valid UTF-8 is not enough.  A noncharacter (U+FDD0…U+FDEF and the last
 * two code points of every plane: U+FFFE, U+FFFF, U+1FFFE … U+10FFFF) is
 * refused by cairo's PDF writer ("input string not valid UTF-8") after the
 * whole booklet is laid out, while libharu, SVG, PNG and JSON take it; and a
 * control character (C0 other than tab and line ends, DEL, C1) prints as
 * nothing or as a box.  Refused at input, every backend writes the same. */
#ifndef UCR_PRINTABLE_H
#define UCR_PRINTABLE_H

#include <glib.h>

/** Room for the reason ucr_printable_check gives. */
#define UCR_PRINTABLE_WHY_MAX 96

/** Checks @text (@len bytes, or up to its NUL if -1; valid UTF-8).  TRUE if
 *  every character is printable (tab, CR and LF allowed).  Else FALSE, with
 *  the 1-based line and character (within the line) of the first one that
 *  is not in *@line and *@column, and @why (UCR_PRINTABLE_WHY_MAX bytes) saying
 *  what it is: "U+FFFE is a noncharacter, not text".  @line, @column may be
 *  NULL. */
gboolean ucr_printable_check(const char *text, gssize len, int *line, int *column, char *why);

#endif
