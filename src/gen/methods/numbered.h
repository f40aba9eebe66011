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
 *    position rolled along the wall (the next free one if taken), and their
 *    d10s, are pencilled in as soon as the room is drawn; a d10 back to the
 *    room (5, or its own number among rooms 1-5) is drawn then, and after it
 *    a d10 to a room drawn before (-1 to -4, or a lower number among rooms
 *    1-5), while the way there is open; those to new rooms when the rooms
 *    are visited in number order, each exit in turn, as a GM maps.  An exit whose room has no free wall left (corridors already run
 *    along every wall) is walled up, and the rolls say so.
 *  - Fewer than 4 rooms is no sublevel: when the dice close the map early,
 *    the GM adds an exit (seed 003: "if you decide you need more exits, you
 *    can go back and place them manually") on a rolled room's rolled wall,
 *    leading to a new room at the end of a d10 corridor; where no room's wall
 *    has space, a door off a corridor to a new room beside it.  The rolls say
 *    "the map closed at N rooms, so the GM adds …".
 *  - Room sizes: templates/tables/room-size.txt.
 *  - A new room takes the next number (rooms are numbered as drawn), so "+3"
 *    from room 7 when only 8 rooms exist means "a room not drawn yet": it
 *    becomes room 9.  A number past the last room once the budget is spent
 *    counts on from room 1 (the rooms of a full node form a ring), and so
 *    does a new room that finds no space in that direction.
 *  - A room whose walls no corridor can reach any more (full, or walled in
 *    by corridors) is reached through one of its own corridors, joined at a
 *    new junction as near its door as a way gets there (from the rolled door,
 *    else another wall's); within 20 ft of the door that is reaching the room
 *    ("reaches its door by the corridor there").  If even that fails the exit
 *    is a one-square dead end, and the rolls say so.
 *  - 5, back to the current room: a coin picks the reading tried first —
 *    a T (a stem of 10-40 ft to a junction whose arms meet again round a
 *    pillar of rock) or two doors (the corridor comes back to a second door
 *    of the room, around it, never around half the map) — then the other;
 *    then two doors whose corridors meet (the new corridor joins one of the
 *    room's own network).  Each is planned whole before anything is drawn,
 *    from the rolled door, other doors on its wall, then the other walls;
 *    a loop that must cross something comes last (the crossing table may
 *    cut it short).  A room boxed in on every side gets a dead end.
 *  - A corridor to a room already drawn leaves by another wall when the
 *    rolled door has no way there (the rolls say so).
 *  - 0, distant room: the first room in that direction is the nearest room
 *    lying wholly beyond the door within 45° of it; its number becomes the
 *    "current" one and the d10 is rolled again (chains of 0s too).  With no
 *    room that way the exit is postponed until every room is mapped; if the
 *    area is still unmapped then, the corridor runs up to 60 ft into it and
 *    ends (a dead end left for later).
 *  - Corridor length 7+: 60 ft, then 1d6: 1-2 turns left, 3-4 turns right,
 *    5-6 goes straight on, for 30 ft more (or 10-60 ft, where 30 do not
 *    fit: the text rolls only the 60 ft and the test).  When a rolled corridor has no
 *    space, it is tried from other doors along the wall, a 1-6 length bent
 *    once (the roll is a length, not a shape), then stretched, then the room
 *    is sought anywhere in the door's general direction (a corridor routed
 *    to it).  A new room keeps two squares of rock round it where it can.
 *  - Junctions made where a secret door joins a crossed corridor are not
 *    rooms: they get numbers after the rooms.
 *  - A 5's corridor is checked "every 60 feet, or possibly even every 30
 *    feet, for doors or branches off the main corridor": every 60 ft, or
 *    with --loop-checks 30 every 30 ft (the checks' records say so).
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

/** Its options (ucr_method_options_get()), from --loop-checks; zero fields
 *  are the defaults. */
typedef struct {
    int loop_checks;   /* feet between the checks of a corridor back to its own room
                        * (a 5): 60 (0, the default, as seed 000 reads) or 30 (its
                        * "possibly even every 30 feet") */
} ucr_numbered_options;

/** seed 000's destination table (templates/tables/numbered-destination.txt):
 *  stores in @dest the room number a roll of @total gives from room
 *  @current, or returns false for a distant room (roll again from there). */
bool ucr_numbered_destination(const ucr_table *table, int current, int total, int *dest);

#endif
