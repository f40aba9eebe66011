/* undercroft — stocking: what is in every room, at every crossing and behind
 * every door, who holds each node and what wanders there, rolled on the
 * editable tables (tables/table.h).
 *
 * A stage after generation that changes no geometry: it fills the stocking
 * fields of the model (model/model.h) and turns ordinary doors into the
 * kinds the door table rolls (locked, trapped).  Secret doors stay secret,
 * and doors a node method made locked or trapped stay so.
 *
 * Dice streams: the names on "stock/names"; each node's theme on
 * "stock/<node>"; each area on "stock/<node>/<key>" (its contents' kind
 * first, so a monster or treasure table that rolls more dice changes only
 * that area's words, never a trap mark on the map); the doors on
 * "stock/<node>/doors"; the shuffles of the decks that "draw: deck" tables
 * are dealt from, one per table for the whole dungeon, on "stock/decks"
 * (tables/table.h).  Generating the same seed without stocking gives the
 * same map.  A dungeon's key says no sentence of description more than
 * three times where the tables allow: a room's look is drawn again, and a
 * monster's phrase, and a theme's sign is left out.
 *
 * What is rolled where (the seeds leave room contents and door types "to
 * Appendix A or another random dungeon generator", seed 002):
 *   - the dungeon: dungeon-name; every node: node-name, its parts dealt
 *     from decks and sharing no word stem with another node's while the
 *     tables allow (ucr_stock_name_stems), theme (dealt), and its level's
 *     wandering table (wandering, a level table);
 *   - rooms: contents, then room-shape (never a sentence of a room joined
 *     to it by a passage);
 *   - intersections and stair landings: junction (seed 002's d6 junction
 *     table without its door and room results, which the map already has),
 *     or, where the node method put a feature (seed 002's trapped
 *     junctions, debris, pools), passage-trap, passage-trap-sprung,
 *     junction-debris or junction-pool to describe it;
 *   - ordinary doors: door.
 * Level tables ("roll: level") read the node's depth.  A reference to a
 * monster table (columns, one with "hd") places monsters: number appearing
 * and each one's hit points rolled, half of them from the node's theme; to
 * a treasure table (a column "gp") places a treasure valued in gold pieces,
 * summed per area and per node.
 * An area's flags (UCR_STOCK_MONSTER, _TRAP, _TREASURE) say whether its roll
 * passed through the tables "monster", "trap" or any "…-trap", "treasure".
 */
#ifndef UCR_STOCK_H
#define UCR_STOCK_H

#include "tables/table.h"
#include "model/model.h"

/** Stocks every node of @md from @tables, with PRNG streams derived from
 *  @seed.  Cannot fail: @tables have been checked when loaded.  Call it
 *  once per megadungeon. */
void ucr_megadungeon_stock(ucr_megadungeon *md, const ucr_tables *tables, const char *seed);

/** The word stems of a node's or dungeon's name, each once: its words
 *  lower-cased, less "the", "of", "a", "an", "and", "in", each cut of a
 *  plural or verb ending ("Whispers", "Whispering" → "whisper";
 *  "Bone-Strewn" → "bone", "strewn").  Free with g_ptr_array_unref(). */
GPtrArray *ucr_stock_name_stems(const char *name);

/** How many stems two ucr_stock_name_stems() arrays share. */
int ucr_stock_stems_shared(const GPtrArray *a, const GPtrArray *b);

/** The tables the stocking reads (room-shape, door, contents, junction),
 *  with their kinds, for the tables' load (tables/table.h). */
extern const ucr_table_need ucr_stock_tables[];

#endif
