/* undercroft — the key's words: what a GM reads for every area, and the
 * analysis figures in a line.
 *
 * The text is Pango markup (bold, italics, small print) so that any layout
 * can show it; it says nothing of pages.  An area's entry reads, in order:
 * its number and kind with its size; what the players see (room shape, in
 * italics, to read aloud); what is there (contents, after its kind in bold:
 * "Monster.", "Trap."); stairs and tunnels and where they lead; every exit
 * with its door and where the passage goes; why no route reaches it, if
 * none does; and in small print what the dice rolled.
 */
#ifndef UCR_DESCRIBE_H
#define UCR_DESCRIBE_H

#include "model/model.h"

/** The key entry of area @area (index) of @node, as Pango markup, in full
 *  sentences.  The caller frees it. */
char *ucr_key_area_markup(const ucr_megadungeon *md, const ucr_node *node, int area,
                          gboolean show_dice);

/** One row of a node's room table, plain UTF-8 (no markup), each field
 *  owned (g_free), "" when nothing. */
typedef struct {
    char *what, *who, *trap, *treasure, *exits;
} ucr_key_row;

/** Fills @row for area index @area of @n.  Clear it with ucr_key_row_clear(). */
void ucr_key_area_row(const ucr_megadungeon *md, const ucr_node *n, int area, ucr_key_row *row);
void ucr_key_row_clear(ucr_key_row *row);

/** What opens a node's key (Pango markup); the caller frees it. */
char *ucr_key_node_intro_markup(const ucr_megadungeon *md, const ucr_node *n);

/** Where link @l leads: "C-7", "the surface", "below"; the caller frees it. */
char *ucr_key_link_target(const ucr_megadungeon *md, const ucr_link *l);

/** The analysis of @node in one short paragraph of markup (areas, loops,
 *  areas on loops, largest loop, chokepoints, dead ends, farthest area,
 *  unreachable areas and why).  The caller frees it. */
char *ucr_key_node_stats_markup(const ucr_node *node);

/** The same for the superstructure of @md (nodes and tunnels). */
char *ucr_key_super_stats_markup(const ucr_megadungeon *md);

#endif
