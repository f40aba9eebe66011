/* undercroft — node method "grid" (seed 004, RDG 2.0, Step 2).
 *
 * Six hypothetical tunnels, three running more-or-less north-south and three
 * east-west, cross at nine intersections.  Each of the four directions of
 * each intersection is rolled on the seed 004 table (36 rolls; see
 * gen/kit/roll004.h).  A direction's roll describes the half of the tunnel
 * nearest its intersection, so each tunnel between two intersections gets two
 * rolls, one per end.
 *
 * How the two ends combine: the tunnel is cut only where both ends roll a
 * wall.  Where one end rolls a wall and the other is open, the open end wins
 * and the walled half is plain tunnel; everything either end rolled (doors,
 * secret doors, collapses, stairs, rooms) lies on the tunnel.  The stricter
 * reading, a wall at either end cuts the tunnel, leaves about a fifth of the
 * tunnels open (an end is open with probability 11/25), which over 40 test
 * seeds gave nodes with no loops at all and three quarters of their areas cut
 * off: the opposite of seed 004's "some areas of the dungeon will still have
 * loops".  A collapse still cuts the tunnel (it is drawn as rubble).
 *
 * Step 3 ("a typical substructure generated on Step 2 and filled in on
 * Step 3"), room generation:
 *  - Every intersection that a tunnel leaves is a room, sized from the room
 *    table (at most 5 × 4 squares, so that the tunnels keep their length):
 *    the same process one level up puts a node at every intersection of the
 *    superstructure ("each 'room' is actually a substructure").  An
 *    intersection no tunnel leaves is rock.
 *  - "Room exits can generate additional tunnels as well": every room rolls
 *    the same 2d6 table for each wall that no tunnel leaves by.  A wall is a
 *    wall; anything that goes through is a new tunnel out of that wall, with
 *    what the roll put on it (doors, collapse, steps, a further room, which
 *    rolls its own exits), to the nearest other tunnel (a T junction) or room
 *    it meets within about a lattice spacing (a turn costs four squares);
 *    one with no way on the map stays a wall, and the key says so.
 *
 * Readings the seed leaves open, chosen here:
 *  - Rooms (double 2s, double 4s) lie on the tunnel: it enters the room and
 *    leaves it on the far side, towards the next intersection.
 *  - A superstructure tunnel's "room" is a chamber in the node at the end
 *    that rolled it, on the joining tunnel (gen/super/megadungeon.c, join_half).
 *  - Stairs with the tunnel going on past them are steps inside the node
 *    (a level change between intersections).  Stairs at the end of a walled
 *    half lead out of the node: they link to another node.
 *  - An outward direction at the map's edge carries the superstructure
 *    tunnel if one joins on that side (its own roll is replaced by the
 *    tunnel's end); otherwise it is a stub that ends in rock, and stairs on
 *    it lead to another node.
 *  - The superstructure tunnel on a side joins at the outside intersection
 *    picked by 1d3 (left to right, top to bottom).
 */
#ifndef UCR_GRID_METHOD_H
#define UCR_GRID_METHOD_H

#include "gen/node_method.h"

/** The grid method, for the registry (gen/registry.c). */
extern const ucr_node_method ucr_grid_method;

typedef struct ucr_grid_plan ucr_grid_plan;

#endif
