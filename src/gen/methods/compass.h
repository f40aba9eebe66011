/* undercroft — the compass node method (seed 001, "Non-Linear Dungeon-Making:
 * Variant"): a starting room (9) with the eight directions around it.
 *
 * The dice tables are data: templates/tables/compass-direction.txt (the
 * d10), compass-door-check.txt (the 4d8 door checks), compass-second-door.txt
 * (the d6 for a 9) and compass-dead-end.txt (the d6 for a 0); the method acts
 * on each row's [kind] (checked when the tables load).
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
 *    d4 wall (N E S W) and a spot along that wall; its face is read on the
 *    direction table.  The door stays on the die's wall (issue 22), at the
 *    free spot nearest the die ("approximate"); its corridor goes round the
 *    room where its room lies another way.  Only a wall with no way out at
 *    all puts the door on the next wall, and the record says so ("the east
 *    wall is full").  How many dice: "make the number of d10s rolled
 *    variable by rolling 2d3 first for the number of dice to roll" — each
 *    room rolls 2d3 (2 to 6 dice, 4 the commonest), or drops four with
 *    --drop-count 4 ("roll four d10s all at once"), when it is drawn: the
 *    mouths of their doors and the square beyond each stay clear of the
 *    corridors drawn before the room rolls its own.
 *  - Corridor checks every 60 ft ("some method of checking every 60 feet of
 *    corridor for additional exits"), every 30 ft with --compass-checks 30
 *    (seed 000: "or possibly even every 30 feet").
 *  - The junction table, "from either SubMethod II or the pre-loaded
 *    leximorph method": a coin per node, or --junctions.  SubMethod II's d10
 *    says what a check's side passage leads to where no room is beside it
 *    (0 a dead end, 1-6 a junction with two d8 ways, doubles a turn, 7-9 a
 *    room); leximorph's d6 is rolled at every junction (trap, disabled trap,
 *    obstacle, door, room beside it).
 *  - A node under 4 rooms: the GM adds an exit (seed 003), its d10 rolled
 *    again while it leads nowhere new, or a room drawn beyond its door where
 *    the lattice has no room to give.
 *  - Where a door leads, d10: 1-8 the direction (1 north, 2 north-east,
 *    clockwise to 8 north-west), "whatever wall the door is on"; 9 back to
 *    the starting room; 0 a dead end.
 *  - Routes around the starting room.  The seed's rule: a corridor goes
 *    round room 9 the short way, and where its destination is straight
 *    behind the door there are two, "the red path to the left or the blue
 *    path to the right": tails (the coin) left, heads right.  "If you would
 *    like more variety" (--variety): the coin at every choice, so that a
 *    corridor may take the long way round, and where the destination is
 *    straight ahead 5+ on 1d6 goes straight (white), else the coin sends it
 *    spiralling once round room 9.  The router enforces the side by counting
 *    how the corridor winds around the centre of room 9.
 *  - 9: "the corridor leads back to the starting room.  Roll a d6 for the
 *    location of the second door: 1 north wall, 2 east, 3 south, 4 west,
 *    5 ladder, 6 stairs, centre of the room."  The starting room is room 9,
 *    from whichever room the door is in (the seed calls room 9 "the starting
 *    point" and "your starting room"): the corridors coming back to it are
 *    the spokes of the hub and its loops.  On 1-4 the corridor comes to a
 *    second door on that wall of room 9.  On 5-6 it goes down a flight (or
 *    ladder) just past the first door (up on tails) and comes back by the
 *    matching ladder or stairs where the seed puts them, "center of room":
 *    it runs on under (over) room 9's floor to its middle square, a
 *    crossing of the room that ends there with the ladder or stairs (the
 *    map draws it dashed under the wall and the ladder in the middle; the
 *    key lists it as "the ladder in the middle of the room" on the side it
 *    comes from).  The way under the floor is the shortest from the wall to
 *    the middle over squares that no other crossing holds and that touch
 *    nothing outside the room but rock; where there is none (other doors
 *    hem the way in) it rises at the room's wall instead, and says so (18%
 *    of them over 1,000 seeds).  Two ways back by the same kind of ladder
 *    or stairs share the one in the middle.
 *  - 0: "a blank wall or a short, dead-end tunnel": d6 squares (6 = 0, a false
 *    door on a blank wall, noted in the key), and for a tunnel longer than 2
 *    squares "another d6 to have the tunnel turn left or right after 2
 *    squares": odd left, even right (the seed's own reading of a d6 as a
 *    coin).  No later corridor crosses or joins a dead end.
 *  - Beyond the hub ("use the junction table ... along with some method of
 *    checking every 60 feet", left to the reader): the method is repeated
 *    from every room at the eight directions.  The rooms sit on a 5 × 5
 *    lattice of directions centred on room 9; a direction room rolls its own
 *    door checks and d10s, with the directions read around itself: towards
 *    room 9 or a neighbouring direction room the corridor joins what is there
 *    (the loops the seed is after), outwards it reaches a room in the outer
 *    ring, which is not rolled further (the edge of the sublevel).  A place
 *    where no room fits leads to the nearest room already mapped "in that
 *    general direction" (an outer room is looked for up to 12 squares from
 *    its place, moved onto the map as far as its size needs).
 *  - Crossings.  The variant builds on SubMethod II, which offers "the d10
 *    table for crossing pre-existing corridors from the SubMethod I post"
 *    (seed 000): a corridor goes where its d10 sent it, and where going
 *    round what is in its way would cost more than 100 ft it crosses it on
 *    that table (gen/kit/preconnect.h, templates/tables/numbered-crossing.txt:
 *    1-4 under, 5 a secret door into it, 6-9 over, 0 a dead end; stairs or
 *    ladders either side, drawn dashed).  A
 *    room whose walls are all taken is reached by joining a corridor that
 *    leads to it, at a new junction ("If there is a room or corridor already
 *    in that location, the new corridor connects with it", SubMethod II).
 *  - With --drop-dice every wall of every room keeps one mouth clear while
 *    other corridors are drawn (a corridor running beside a wall leaves no
 *    square in front of it for a door), so that no room is walled in by
 *    the corridors of its neighbours' many doors.
 *  - A destination that no route reaches even so: the corridor joins the
 *    nearest room, junction or corridor it can reach that way ("If there is
 *    a room or corridor already in that location, the new corridor
 *    connects with it"); with nothing in reach it is drawn as the dead end
 *    of 2 squares it got to, and the record says so (under 1% of the doors).
 *  - Rooms are numbered as drawn (room 9 is 1); the key names each by its
 *    place ("the room to the north-east (room 2)"), and every door's dice and
 *    where it led are in the room's Rolled line.
 */
#ifndef UCR_METHOD_COMPASS_H
#define UCR_METHOD_COMPASS_H

#include <stdbool.h>
#include "gen/node_method.h"

/** The compass method, for the registry. */
extern const ucr_node_method ucr_compass_method;

/** Which junction table fills in a node's details (seed 001 variant: "the
 *  junction table from either SubMethod II or the pre-loaded leximorph
 *  method"). */
typedef enum {
    UCR_COMPASS_JUNCTIONS_ROLL,        /* a coin per node picks one */
    UCR_COMPASS_JUNCTIONS_SUBMETHOD2,  /* d10: dead end, junction or room (clock-unmapped) */
    UCR_COMPASS_JUNCTIONS_LEXIMORPH    /* d6: ordinary, trapped, disabled, obstacle, door, room */
} ucr_compass_junctions;

/** Its options (ucr_method_options_get()): --drop-dice, --drop-count,
 *  --variety, --compass-checks and --junctions.  { 0 } is the default. */
typedef struct {
    bool drop_dice;   /* the drop-dice reading of the doors */
    bool four_dice;   /* --drop-count 4: four d10s dropped, not 2d3 of them */
    bool variety;     /* red or blue path by a coin at every choice */
    int check_feet;   /* corridor checks every this many feet: 60 (0 reads as 60) or 30 */
    ucr_compass_junctions junctions;
} ucr_compass_options;

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
