/* undercroft — node methods "clock" and "tictactoe": pre-connecting,
 * SubMethod II (seed 001).
 *
 * Instead of a room number, an exit rolls a position relative to the
 * current area (seed 001): "using 12-hour clock positions, with 12 o'clock as
 * the area due north of the current room, 3 o'clock as due east, 6 o'clock as
 * due south, and 9 o'clock as due west, so that you can roll a d12 to select
 * the room that is in that relative position as the destination of a
 * corridor" — or, for `tictactoe`, "a tic-tac-toe board over the map of the
 * area immediately around the starting room, with the center square as the
 * current room, and number the other squares clockwise from 1 to 8, starting
 * at the top.  Use a d8".  Then:
 *
 *   - "If there is a room or corridor already in that location, the new
 *     corridor connects with it" (a loop);
 *   - else "roll to see what is in the area using a d10: on a 0, the passage
 *     dead ends; on any result up to 6, there's a junction.  Roll again twice
 *     for destination … with doubles indicating that the junction is a turn
 *     rather than an intersection; on any result over 6, there's a room."
 *
 * The dice are data: templates/tables/clock-position.txt (d12, each row's
 * [kind] the clock position 1-12), tictactoe-position.txt (d8, [1]-[8]) and
 * clock-unmapped.txt (d10, [dead-end], [junction] or [room]; the d10's 0 is
 * the table's 10).  A corridor routed to its destination that has to cross a
 * room or corridor rolls seed 000's crossing table, as seed 001 allows
 * ("Alternatively, for corridors, use the d10 table for crossing pre-existing
 * corridors from the SubMethod I post"; gen/kit/preconnect.h).
 *
 * Readings the seed leaves open, chosen here (tests/check_method_clock.c
 * holds them):
 *  - Exits of a room ("roll on any table you prefer"): as for `numbered`,
 *    1d3 besides the door it was entered by (room 1: 1d3 + 1), each on a wall
 *    rolled with 1d4 (N, E, S, W) at a position rolled along it; then the
 *    position of its destination.  A junction's ways are its two rolled
 *    positions (one on doubles: a turn); each leaves by the junction's side
 *    that faces its position.
 *  - Where a position lies: the current area's "centre square" is its
 *    rectangle grown to at least 5 × 5.  A clock position h lies on the
 *    ellipse UCR_CLOCK_RING squares beyond that square's walls, at h × 30°
 *    clockwise from north (12 due north, 3 due east…); the location is the
 *    5 × 5 squares around that point.  A tic-tac-toe square is a square of
 *    the board whose centre square is that centre square, the outer squares
 *    UCR_TTT_SQUARE deep; 1 is the top middle, then clockwise (2 north-east,
 *    3 east … 8 north-west).  Locations are clipped to the map.
 *  - What "is there" (never the current area or its own corridors): seed 001
 *    rolls "the room that is in that relative position", so first a room
 *    with a square in the location or within UCR_CLOCK_REACH of it, the one
 *    nearest the middle; else the area or corridor with a square in the
 *    location nearest its middle.  An area there is joined by a corridor to
 *    one of its walls (from any wall of the current area before one of the
 *    corridors leading to it is joined instead).  A corridor there is joined
 *    at a new junction on its square nearest the middle (where a junction
 *    may stand, and "as it runs": within 80 ft of the straight distance),
 *    else at the area at its nearer end.  When no corridor reaches it, the
 *    next thing in the location or within UCR_CLOCK_NEAR squares of it is
 *    joined ("→ joins room 9 (what is there out of reach: the next thing
 *    there or beside it)").
 *  - An unmapped location: the corridor is routed to it and ends at a new
 *    junction (1 × 1) or room (room-size table) placed in the location (a room
 *    may reach beyond it), or, on a 0, in rock at the location's edge.  With
 *    no space or no way for the new area there, it goes 40, then 80 ft
 *    farther out, "or in that general direction" (seed 001's variant), or
 *    else anywhere within UCR_CLOCK_NEAR squares of the location ("beside
 *    it").  Where the mouths open on rock fenced in by corridors and none
 *    of those is reached: in the rock a mouth facing the location (or across
 *    its direction, never away) opens on, 30 ft out, its middle towards the
 *    location's, smaller down to 2 × 2 if it must (seed 001 leaves the size
 *    to "any table you prefer"); else, for a room and never for a corridor
 *    check's way, off the area's own corridor up to 120 ft out, from its
 *    side facing the location, at a new junction, to a room in the location
 *    or beside it (a room's exit then shares that corridor, recorded "shares
 *    its corridor out of the west wall", counted apart under the exits
 *    rule).  A room centred on a location clipped to a strip at the map's
 *    edge is pushed in off the edge, still standing in it.
 *  - When the node is finished: rooms and junctions are numbered as drawn
 *    (seed 001 wants keyable junctions) and expanded in number order; the
 *    node has a budget of 8 + 1d6 rooms and twice as many rolled junctions
 *    (a junction is a corridor's turn, not a keyed room: 60% of the d10).  Past
 *    the budget a "room" or "junction" result is a dead end, and the rolls
 *    say so; the node is finished when every area has been expanded (most
 *    nodes finish before the budget: the locations around fill up, and later
 *    rolls join what is there).
 *  - A corridor "heads towards the indicated destination": it is routed as
 *    straight as the map allows, leaving by the rolled wall (or the next one
 *    that has a way), never longer than twice the distance plus 160 ft.  A
 *    location with no space or no way for the new area: the passage heads
 *    there and ends in rock; with no way at all, a one-square dead end; an
 *    exit whose room has no free wall left: walled up.  All recorded.
 *  - The node's map is 48 × 44 squares; room 1 lies near its middle.
 *
 *  - The corridor checks (gen/kit/preconnect.h, every 60 ft) are pre-connected
 *    too: a side passage with no room beside it that its network does not
 *    reach rolls its position around the junction it opens at, like any
 *    junction's way; a room behind a check's door rolls its exits like every
 *    room; the corridors those draw are checked in turn (CHECK_ROUNDS).
 *
 * Every exit's rolls are in the JSON `rolls` and in the key's "Rolled:" of
 * the room whose exit began the chain (a junction's rolls go to that room; a
 * corridor check's junction keeps its way's in its own).
 * As for `numbered`, everything happens in embed, and no stairs of the
 * method's own leave the node.
 */
#ifndef UCR_METHOD_CLOCK_H
#define UCR_METHOD_CLOCK_H

#include "gen/node_method.h"

/* Distance of a clock position beyond the centre square's wall, and depth of
 * a tic-tac-toe square, in squares. */
#define UCR_CLOCK_RING 5
#define UCR_TTT_SQUARE 8
/* How far beyond a location a room still counts as "in that position". */
#define UCR_CLOCK_REACH 1
/* How far beyond a location a way looks for something to join when nothing
 * in it can be reached ("in that general direction", seed 001's variant). */
#define UCR_CLOCK_NEAR 4

/** The methods, for the registry (gen/registry.c). */
extern const ucr_node_method ucr_method_clock;
extern const ucr_node_method ucr_method_tictactoe;

/** The location that position @pos (clock 1-12, or tic-tac-toe 1-8 if
 *  @tictactoe) around @a means on a @map_w × @map_h map: the rectangle
 *  (*x, *y, *w, *h), and its middle (*mx, *my). */
void ucr_clock_location(const ucr_area *a, int pos, bool tictactoe, int map_w, int map_h, int *x, int *y,
                        int *w, int *h, int *mx, int *my);

#endif
