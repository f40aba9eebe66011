/* undercroft — the key in terse form, for a mini-zine's small panels.
 *
 * The booklet's key says the same at length (key/describe.h); this one
 * folds the room table's row into the entry and says each thing once, in
 * the words a game master knows: an area's number and what it is, who is
 * there by stat line (hit points and all, as the booklet prints it), its
 * trap, its treasure with what it is worth, how it is entered, and its
 * exits each once, "N 3, E 5 (door)".  An area that holds nothing but its
 * exits (a bare junction) has no entry; its number is in one line at the
 * end, so that every number on the map is found in the key.
 *
 * All text is Pango markup; nothing here knows about pages.
 */
#ifndef UCR_TERSE_H
#define UCR_TERSE_H

#include "model/model.h"

/** What opens node @n's terse key: its level, theme and treasure total,
 *  then its wandering monsters, how often to check and one table row a
 *  line.  The caller frees it. */
char *ucr_key_terse_intro(const ucr_megadungeon *md, const ucr_node *n);

/** The terse entry of area index @area of @n, or NULL for an area with
 *  nothing but its exits (ucr_key_area_has_prose()).  The caller frees it. */
char *ucr_key_terse_area(const ucr_megadungeon *md, const ucr_node *n, int area);

/** The line that names @n's areas without an entry ("Junctions with only
 *  their exits (see the map): 8, 11, 13."), or NULL when every area has
 *  one.  The caller frees it. */
char *ucr_key_terse_bare(const ucr_node *n);

#endif
