/* undercroft — the compass node method (seed 001, "Non-Linear Dungeon-Making:
 * Variant"): a starting room (9) with the eight directions around it.
 *
 * The seed, rule by rule, and the readings chosen where it is vague:
 *
 *  - Door checks.  "rolling four d8s and reading the result off the d6 table
 *    above, with 7+ meaning no door": each d8 is 1 north wall, 2 east,
 *    3 south, 4 west, 5 a ladder, 6 stairs (in the centre of the room; up or
 *    down by a coin, heads down), 7-8 no door.  Ladders and stairs lead to
 *    another level of the megadungeon (drawn as a landing beside the room).
 *    A starting room whose four d8s give no wall door rolls them again: the
 *    seed's whole method starts from the corridors leading out of it.
 *  - Drop dice (--drop-dice): "roll four d10s all at once and read the result
 *    as if you were using a drop-dice table, with the positions of the dice
 *    indicating the approximate position of the door, and the result
 *    indicating where the door leads".  Each die's position is simulated as a
 *    d4 wall (N E S W) and a spot along that wall; its face is the d10 below.
 *  - Where a door leads, d10: 1-8 the direction (1 north, 2 north-east,
 *    clockwise to 8 north-west), "whatever wall the door is on"; 9 back to
 *    the starting room; 0 a dead end.
 *  - Routes around the starting room: tails on a coin is the left-hand (red)
 *    path, heads the right-hand (blue) path — the seed's variety rule, so a
 *    corridor may take the long way round.  Where the destination is straight
 *    ahead there are three choices: 5+ on 1d6 goes straight (white), else the
 *    coin sends it spiralling once around room 9 to the left or right.  The
 *    router enforces the side by counting how the corridor winds around the
 *    centre of room 9, so "left" really goes round the left.
 *  - 9: "Roll a d6 for the location of the second door: 1 north wall,
 *    2 east, 3 south, 4 west, 5 ladder, 6 stairs, centre of the room."  On
 *    1-4 the corridor comes back to a door on that wall.  On 5-6 it goes
 *    down a flight (or ladder) just past the first door and comes back up by
 *    the matching ladder or stairs into the room; the model keeps passages out
 *    of rooms, so it rises at the room's wall, not its centre.
 *  - 0: "a blank wall or a short, dead-end tunnel": d6 squares (6 = 0, a false
 *    door on a blank wall, noted in the key), and for a tunnel longer than 2
 *    squares "another d6 to have the tunnel turn left or right after 2
 *    squares": odd left, even right (the seed's own reading of a d6 as a
 *    coin).
 *  - Beyond the hub ("use the junction table ... along with some method of
 *    checking every 60 feet", left to the reader): the method is repeated
 *    from every room at the eight directions.  The rooms sit on a 5 × 5
 *    lattice of directions centred on room 9; a direction room rolls its own
 *    door checks and d10s, with the directions read around itself: towards
 *    room 9 or a neighbouring direction room the corridor joins what is there
 *    (the loops the seed is after), outwards it reaches a room in the outer
 *    ring, which is not rolled further (the edge of the sublevel).  Corridors
 *    from those rooms run as straight as the map allows.
 *  - A destination that cannot be reached on the map (everything is in the
 *    way) is drawn as the dead end of 2 squares the corridor got to, and the
 *    record says so.
 */
#ifndef UCR_METHOD_COMPASS_H
#define UCR_METHOD_COMPASS_H

#include <stdbool.h>
#include "gen/node_method.h"

/** The compass method, for the registry. */
extern const ucr_node_method ucr_compass_method;

/** What a d10 says about a door's destination (seed 001 variant). */
typedef enum {
    UCR_COMPASS_TO_DIRECTION,  /* 1-8: the room in direction dir */
    UCR_COMPASS_TO_START,      /* 9: back to the starting room */
    UCR_COMPASS_TO_DEAD_END    /* 0: nowhere */
} ucr_compass_dest_kind;

typedef struct {
    ucr_compass_dest_kind kind;
    int dir;        /* 1..8 for TO_DIRECTION (1 north, clockwise), else 0 */
    int dx, dy;     /* the direction as a step on the map (y grows south) */
} ucr_compass_dest;

/** What a row of templates/tables/compass-direction.txt says, from its
 *  [kind]: "north" … "north-west" (1-8), "start" (9), "dead-end" (0). */
ucr_compass_dest ucr_compass_destination(const char *kind);

/** What a door check (d8) or the second-door d6 says. */
typedef enum {
    UCR_COMPASS_DOOR_WALL,     /* 1-4: a door on wall `wall` */
    UCR_COMPASS_DOOR_LADDER,   /* 5: a ladder in the centre of the room */
    UCR_COMPASS_DOOR_STAIRS,   /* 6: stairs in the centre */
    UCR_COMPASS_DOOR_NONE      /* 7-8 on the d8: no door */
} ucr_compass_door_kind_t;

typedef struct {
    ucr_compass_door_kind_t kind;
    ucr_dir wall;
} ucr_compass_door;

/** What a row of compass-door-check.txt or compass-second-door.txt says,
 *  from its [kind]: "north", "east", "south", "west", "ladder", "stairs" or
 *  "none". */
ucr_compass_door ucr_compass_door_kind(const char *kind);

/** Length in squares of a dead-end tunnel from its compass-dead-end.txt
 *  row's [kind], "length-0".."length-9" (the seed: the d6, and 6 = 0). */
int ucr_compass_dead_end_length(const char *kind);

/** Which way a route goes round the starting room. */
typedef enum { UCR_COMPASS_STRAIGHT, UCR_COMPASS_LEFT, UCR_COMPASS_RIGHT } ucr_compass_way;

/** Whether the way round room 9 to a destination @cw_steps eighths of a
 *  turn clockwise from the door's wall (0..7) is rolled: straight behind
 *  (4), or always with @variety (then a d6 as well where it is 0). */
bool ucr_compass_route_rolls(int cw_steps, bool variety);

/** The path from a door to a destination @cw_steps eighths of a turn
 *  clockwise from the door's wall (0..7).  Without @variety: straight on 0,
 *  the short way round otherwise, and on 4 tails (@heads false) the
 *  left-hand (red) path, heads the right-hand (blue).  With @variety: tails
 *  left, heads right, whatever the destination, except that straight ahead
 *  (0) a @d6 of 5+ goes straight (white). */
ucr_compass_way ucr_compass_route_way(int cw_steps, bool variety, bool heads, int d6);

#endif
