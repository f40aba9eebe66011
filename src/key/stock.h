/* undercroft — stocking: what is in every room, at every crossing and behind
 * every door, rolled on the editable tables (key/table.h).
 *
 * A stage after generation that changes no geometry: it fills the stocking
 * fields of the model's areas and doors (model/model.h) and turns ordinary
 * doors into the kinds the door table rolls (locked, trapped).  Secret doors
 * stay secret, and doors a node method made locked or trapped stay so.  Every node is stocked from a stream of its own,
 * "stock/<node id>", so a node's contents do not change when another node's
 * do, and generating the same seed without stocking gives the same map.
 *
 * What is rolled where (the seeds leave room contents and door types "to
 * Appendix A or another random dungeon generator", seed 002):
 *   - rooms: room-shape, then contents;
 *   - intersections and stair landings: junction (seed 002's d6 junction
 *     table without its door and room results, which the map already has);
 *     but where a node method rolled what lies there (ucr_area.feature_rolled:
 *     leximorph's d6 at every junction), the model's feature is the one truth
 *     and only a trap's detail is rolled (trap);
 *   - ordinary doors: door.
 * An area's flags (UCR_STOCK_MONSTER, _TRAP, _TREASURE) say whether its roll
 * passed through the tables "monster", "trap", "treasure" (or "door-trap"
 * for a trap).
 */
#ifndef UCR_STOCK_H
#define UCR_STOCK_H

#include "key/table.h"
#include "model/model.h"

/** Stocks every node of @md from @tables, with PRNG streams derived from
 *  @seed.  Cannot fail: @tables have been checked when loaded.  Call it
 *  once per megadungeon. */
void ucr_megadungeon_stock(ucr_megadungeon *md, const ucr_tables *tables, const char *seed);

#endif
