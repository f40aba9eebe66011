/* undercroft — the key's words: what a GM reads for every area, and the
 * analysis figures in a line.
 *
 * The text is Pango markup (bold, italics, small print) or plain UTF-8 for
 * the room table; it says nothing of pages.  Every count agrees with its
 * noun ("1 gem", "2 gems"), every sum is worked out, and the dice that made
 * an area (with the seeds' words for them) appear only when asked for.
 *
 * An area's prose entry reads, in order: its number and kind with its size;
 * what the players see (room shape, in italics, to read aloud); who is there
 * with their stat lines; what else is there (trap, treasure with its value);
 * stairs and tunnels and where they lead; every exit with its door and where
 * the passage goes; why no route reaches it, if none does; and, with
 * show_dice, in small print what the dice rolled.
 *
 * References to other areas are written "C-7" (node id, dash, key number),
 * and to areas of the same node by their number alone, so that a layout can
 * link them.
 */
#ifndef UCR_DESCRIBE_H
#define UCR_DESCRIBE_H

#include "model/model.h"

/** One row of a node's room table, plain UTF-8 (no markup), each field
 *  owned (g_free).  Empty string when nothing.  References to other areas
 *  are written "C-7" (node id, dash, key number). */
typedef struct {
    char *what, *who, *trap, *treasure, *exits;
} ucr_key_row;

/** Fills @row for area index @area of @n.  Clear it with ucr_key_row_clear(). */
void ucr_key_area_row(const ucr_megadungeon *md, const ucr_node *n, int area, ucr_key_row *row);
void ucr_key_row_clear(ucr_key_row *row);

/** The exits of area index @area of @n for a mini-zine's terse key, plain
 *  UTF-8: "N 3, E 5 (door), W dead end (locked) ×2, E C-7 (tunnel,
 *  secret)" — each exit by its side, where it leads and the door at this
 *  end only (the map shows the door at the far end), exits alike said once
 *  with how many.  Empty when there are none.  The caller frees it. */
char *ucr_key_area_exits_terse(const ucr_megadungeon *md, const ucr_node *n, int area);

/** The prose entry of area index @area (Pango markup, <b>/<i> allowed); the
 *  dice that made it only when @show_dice.  The caller frees it. */
char *ucr_key_area_markup(const ucr_megadungeon *md, const ucr_node *n, int area, gboolean show_dice);

/** Whether area index @area of @n has anything for its prose entry beyond
 *  its exits: a room (its shape is read aloud), stairs or a ladder, a link,
 *  contents other than "empty", monsters, treasure, a trap, another level,
 *  or a word on how it is reached.  A bare junction or an empty dead end
 *  has not: the room table's row says all there is (its exits), and the
 *  booklet prints no prose entry for it. */
gboolean ucr_key_area_has_prose(const ucr_node *n, int area);

/** What opens a node's key (Pango markup): its name and theme, its level,
 *  its treasure total, and its level's wandering-monster table with how
 *  often to roll.  The caller frees it. */
char *ucr_key_node_intro_markup(const ucr_megadungeon *md, const ucr_node *n);

/** A monster's compact stat line, plain text:
 *  "Goblin: No. 5; AC 6 [13]; HD 1-1; hp 4, 3, 5, 2, 1; Att 1 weapon (1d6);
 *  MV 60 ft; ML 7" then any further columns of its table ("; XP 5").  A
 *  wandering-monster row gives the dice ("No. 1d6+2") and no hp.  The
 *  caller frees it. */
char *ucr_key_monster_stats(const ucr_monster *m);

/** The dungeon's name ("The Drowned Vaults of Ysh"), or "Undercroft"
 *  before stocking; a node's name, or "Node C" before stocking.  Static or
 *  owned by the model: do not free. */
const char *ucr_key_dungeon_name(const ucr_megadungeon *md);
const char *ucr_key_node_name(const ucr_node *n);

/** "1,540" (and "-1,540", "950"): every number the key prints, its
 *  thousands grouped so that one format reads throughout.  The caller frees
 *  it. */
char *ucr_key_number(int v);

/** Appends @fmt to @s with every argument escaped for Pango markup
 *  (g_markup_vprintf_escaped): the key's entries and the terse key's. */
void ucr_key_append_escaped(GString *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/** "1,540": a sum of gold pieces with its thousands grouped, as the key
 *  prints it.  The caller frees it. */
char *ucr_key_gp(int gp);

/** "1 gem" / "2 gems": @n then the singular or plural.  The caller frees it. */
char *ucr_key_count(int n, const char *one, const char *many);

/** Where link @l leads: "C-7", "the surface", "below"; the caller frees it. */
char *ucr_key_link_target(const ucr_megadungeon *md, const ucr_link *l);

/** The analysis of @node in one short paragraph of markup (areas, loops,
 *  areas on loops, largest loop, chokepoints, dead ends, farthest area,
 *  unreachable areas and why).  The caller frees it. */
char *ucr_key_node_stats_markup(const ucr_node *node);

/** The same for the superstructure of @md (nodes and tunnels). */
char *ucr_key_super_stats_markup(const ucr_megadungeon *md);

#endif
