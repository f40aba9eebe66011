/* undercroft — node method "numbered": pre-connecting, SubMethod I (seed 000,
 * repeated in seed 001).
 *
 * Rooms are numbered as drawn.  Each exit's destination is rolled on a d10
 * as a room number relative to the current room:
 *
 *     1-4  current room −4 … −1        6-9  current room +1 … +4
 *     5    back to the current room    0    a distant room, same direction
 *
 * ("subtract 5 from the current room number, then add the result of a
 * d10").  "For the first five rooms of a map, use the results as the raw
 * room number."  A destination already drawn is joined by a corridor drawn
 * "as straight as possible towards that room" (U-turns allowed): the loops of
 * the node come from these rolls.  A destination not drawn yet is a new room
 * "in the general direction the initial door is facing", at the end of a
 * corridor whose length is a d10: 0 no corridor, the door opens straight
 * into the new room; 1-6 that many × 10 ft; 7+ 60 ft, then a turn test.
 * A corridor that must cross a room or corridor rolls seed 000's crossing
 * table (gen/kit/preconnect.h).
 *
 * Readings the seed leaves open, chosen here (tests/check_method_numbered.c
 * holds them):
 *  - How many rooms and exits ("Appendix A or another generator"): the node
 *    has a budget of 8 + 1d6 rooms; each room has 1d3 exits besides the
 *    door it was entered by (room 1: 1d3 + 1), on walls rolled with 1d4 (N, E, S, W) at a
 *    position rolled along the wall (the next free one if taken).  Rooms
 *    are visited in number order, each exit rolled in turn, as a GM maps.
 *    An exit whose room has no free wall left (corridors already run along
 *    every wall) is walled up, and the rolls say so.
 *  - Room sizes: templates/tables/room-size.txt.
 *  - A new room takes the next number (rooms are numbered as drawn), so "+3"
 *    from room 7 when only 8 rooms exist means "a room not drawn yet": it
 *    becomes room 9.  A number past the last room once the budget is spent
 *    counts on from room 1 (the rooms of a full node form a ring), and so
 *    does a new room that finds no space in that direction.
 *  - A room whose walls no corridor can reach any more (full, or walled in
 *    by corridors) is reached through one of its own corridors, joined at a
 *    new junction; if even that fails the exit is a one-square dead end, and
 *    the rolls say so.
 *  - 5, back to the current room: the corridor leaves by the rolled door and
 *    comes back to a second door of the same room (the "two doors" reading),
 *    around the room, never around half the map.
 *  - 0, distant room: the first room in that direction is the nearest room
 *    lying wholly beyond the door within 45° of it; its number becomes the
 *    "current" one and the d10 is rolled again (chains of 0s too).  With no
 *    room that way the exit is postponed until every room is mapped; if the
 *    area is still unmapped then, the corridor runs up to 60 ft into it and
 *    ends (a dead end left for later).
 *  - Corridor length 7+: 60 ft, then 1d6: 1-2 turns left, 3-4 turns right,
 *    5-6 goes straight on, for 30 ft more.  When a rolled corridor has no
 *    space, it is stretched, then the room is sought anywhere in the door's
 *    general direction (a corridor routed to it).
 *  - Junctions made where a secret door joins a crossed corridor are not
 *    rooms: they get numbers after the rooms.
 *  - The node's map is 48 × 44 squares; room 1 lies near its middle.
 *
 * The method draws as it rolls; everything happens in embed (roll only keeps
 * the tables), so that a node with no space for a superstructure tunnel or a
 * landing can be redrawn from the same stream.  It makes no stairs of its own
 * that leave the node.
 */
#ifndef UCR_METHOD_NUMBERED_H
#define UCR_METHOD_NUMBERED_H

#include "gen/node_method.h"

/** The method, for the registry (gen/registry.c). */
extern const ucr_node_method ucr_method_numbered;

/** seed 000's destination table (templates/tables/numbered-destination.txt):
 *  stores in @dest the room number a roll of @total gives from room
 *  @current, or returns false for a distant room (roll again from there). */
bool ucr_numbered_destination(const ucr_table *table, int current, int total, int *dest);

#endif
