/* undercroft — node method "pips": seed 003, "Simple Random Dungeon".
 *
 * The shape-based method: a GM with one six-sided die and a dice map draws
 * the dungeon piece by piece, each piece rolled at the end of the last.  Every
 * throw of the die is read three ways (the computer has no dice map, so each
 * reading is a roll on a table of its own, templates/tables/pips-*.txt):
 *
 *  - the pips (pips-what, 1d6), a mnemonic of what lies there:
 *        1 a 20-ft corridor that dead-ends      2-3 60 ft of corridor
 *        4-5 a room                             6   an elongated room
 *  - where the die landed on the dice map (pips-landing, 1d10): the edge it
 *    lands closest to is the compass direction (1-2 north, 3-4 east,
 *    5-6 south, 7-8 west), 9-10 the centre;
 *  - how the die lies (pips-lie, 1d6): 1-4 square to the map's edges,
 *    5 turned about 45° to the left, 6 to the right.  A square symbol (4, 5)
 *    on a turned die makes a diamond room; the line of dots of a 2 or 3 on a
 *    turned die makes a diagonal corridor, heading the landing direction
 *    turned 45° the way the die is turned ("use the orientation of the dots
 *    to determine the orientation of the tunnel").
 *
 * The rules, each cited where it is applied in method_pips.c:
 *  - Start: "either stairs down or a tunnel leading into a hill".  A node that
 *    a superstructure tunnel joins starts with that tunnel: it enters from
 *    one joined map side (the first in a rolled order) and ends at a junction
 *    six squares in; otherwise the node starts at a stair landing near the map's
 *    middle, which the first stairs arriving from another node use.  One
 *    throw says what lies at the end of the tunnel or staircase.
 *  - Rooms have one entrance and one exit: one throw per room for its exit
 *    (a 5: two throws).  The landing gives the wall; for a diamond, the
 *    corner pointing that way.  The centre: "the room has a trap door or
 *    staircase" (pips-down), in the middle of the room itself (the room's
 *    `stair`, and `trapdoor` for a trap door), leading to the next floor
 *    (an exit of the node, wired by the megadungeon); the throw "for what's
 *    on the next floor" is made and travels with the stairs as their hint
 *    (gen/node_method.h) to the node they lead to, which lands them where it
 *    says (ucr_embed_hinted()): a 1 at the end of a dead end, a 2-3 at the
 *    end of a corridor, a 4-5 in the middle of a room, a 6 of an elongated
 *    one, towards the map side the die landed nearest (the centre: the
 *    map's middle).  A pips node's own start, stairs down, takes stairs
 *    whose throw found what its first throw found at their foot (when none
 *    does, the first from above all the same: the node is drawn from it).  A room exit that
 *    leads to a room opens on a one-square passage to it.
 *  - Corridors: a 2-3 is 60 ft (6 squares) in the direction the die says; at
 *    its end one throw (a 3: two, "Y branches, four- or five-way
 *    intersections") says what comes next and which way.  The centre: "the
 *    passage Ts, or has a doorway on either side", a coin says which
 *    (heads the T): two arms, left and right, each thrown for what lies
 *    that way, through a door of the junction where the passage ends for
 *    the doorways.  Two or more ways meet at a junction square.  A way back along the
 *    corridor doubles back: the corridor jogs two squares aside (the way the
 *    die is turned; left if square) and runs back.
 *  - A 1 is 20 ft of corridor (2 squares) that dead-ends; "roll another die
 *    and insert stairs or a trap door if another 1 is rolled" (pips-down).
 *  - "If a passage double backs and crosses an already-mapped portion,
 *    insert stairs or a slope": a way goes on past what it meets.  A
 *    straight corridor that meets a room or a corridor at right angles goes
 *    under or over it (pips-cross), with steps before and after; it never
 *    joins it; one flight passes under (over) all that stands in a row on
 *    its line, side by side or a square of rock apart where there is no
 *    rock to come up on between, and under a dead end's tip or the square
 *    before a door as under a corridor's middle.  A way out whose door
 *    faces what stands a square beyond the wall goes down (up) from its
 *    door and under (over) it (five squares or more from a map's edge it
 *    heads to that a superstructure tunnel joins: the rock there is the
 *    tunnel's chamber's).  The start's
 *    tunnel is the superstructure's: a way passes under (over) it only
 *    where a square of it, with the squares either side, stays clear of
 *    crossings for the chamber seed 004 may draw on it.  Where it meets it off square (a corner, a bend), it
 *    sidesteps a square or up to three and crosses there or passes beside;
 *    a diagonal way turns square to cross, or sidesteps, or turns square
 *    round it.  A way is cut short only where it cannot go on, and the
 *    record says why: "at the map's edge", "blocked" (it runs into the map
 *    and cannot cross it there; "the map's edge beyond what it meets"),
 *    "beside the map" (it would run along the map with no way past).  A
 *    way leaves a wall where there is rock beyond its mouth, or else where
 *    it can cross what stands before the wall, when the wall has room.
 *  - "If a passage or room is adjacent to an already-mapped area, feel free
 *    to add a secret door": a dead end that stops one square short of a
 *    room's wall gets a secret door into it on a roll (pips-secret), and so
 *    may a room that a corridor runs alongside for 30 ft, a square of rock
 *    between (once per room, from a new junction on the corridor), and two
 *    rooms a square of rock apart, not joined already (once a pair: a
 *    secret door on each wall of that square); so may a dead end one square
 *    short of a corridor across its line (the corridor parts at a junction
 *    there) and two corridors side by side for 30 ft, a square of rock
 *    between (once a corridor, a junction on each).
 *  - The exit "on the wall the die landed by", where that wall has no room
 *    for another mouth but a way already leaves it by a door: the exit
 *    leaves by that door, and parts from that way at a junction up to four
 *    squares outside, on a straight or at a square turn of it ("by its
 *    door" in the record), or, where that way
 *    leads four squares or fewer to a junction, at that junction.  Where
 *    that way is the one square between two rooms, the GM's eraser first
 *    draws the room two squares further on (where it fits and no other way
 *    leaves it yet): the room itself, or the room beyond when the way is an
 *    earlier exit's.  Two exits thrown to one wall of a square room: the
 *    room is drawn with room on that wall for two doors where it fits so,
 *    and the first leaves by the wall's end, leaving the second the rest
 *    of it; where the wall has room for one door only (a diamond's tip, a
 *    short wall) both leave by it and part at a junction just outside it
 *    (or 10 ft further on).
 *    A room is drawn with a square of rock before every wall where it fits
 *    so (a wall against the map's edge has no door), against it else.
 *    A room's exit throws are made before it is drawn (and read when its
 *    exits are drawn): the GM draws it, along the way in or a square
 *    smaller each way, where the walls they landed by have a way out;
 *    where one lands by the wall of its door and the way in is shorter
 *    than three squares, the way in is drawn 20 ft longer first, so that
 *    the exit can part from it outside the door; where the room a door
 *    beyond another finds no place there for its exits' walls, the one
 *    square between them is drawn 10 or 20 ft longer, else 10 or 20 ft on
 *    and then 10 or 20 ft to one side, the room beyond that turn (a way
 *    between two rooms has no rolled length).  A room with no room
 *    ahead at the map's edge is drawn to one side of the way's end (where
 *    its exits' walls have a way out, else where those walls are on the
 *    map).  A wall against the map's edge is
 *    recorded as such ("that wall faces the map's edge").
 *  - "a doorway on either side": the junction stands where both doorways
 *    find room, up to 50 ft back along the way or 30 ft on; where nothing
 *    lies beyond the way's end (the map's edge), on its last squares, the
 *    way 10 or 20 ft shorter; a doorway that falls on a way another throw
 *    found makes that way leave by it.
 *  - "If you decide you need more exits, you can go back and place them
 *    manually": a node that ends with fewer than five rooms gets an extra
 *    exit thrown for its earliest rooms, as a GM would add one; the GM
 *    throws the die first and places the exit on the first of those rooms
 *    where the throw fits (a free square on the wall it landed by; the
 *    centre: a room with its way down already); a throw that fits none is
 *    thrown again, up to six times (named in the GM's note).  A node stops at 24 areas
 *    ("the map is full"); what is still open then ends there.
 *  - Loops: none are added but by the secret doors (a room reached another
 *    way), as seed 001 says of this method.
 *  - The superstructure's other tunnels (seed 004) are drawn after the node,
 *    from the area nearest their side, three squares long at least where
 *    one can be; the ways and rooms keep off the last three squares by
 *    those sides, so that a chamber the tunnel rolls finds rock on it.
 *
 * Geometry (model/model.h): diamond rooms are areas with `diamond` set, an
 * odd-sided bounding square whose doors sit at the four corners (the tips);
 * diagonal corridors are passages whose consecutive squares step
 * diagonally.  Sizes: pips-room.txt (square rooms and diamonds: a diamond's
 * side is the rolled side made odd, at least 7) and pips-long-room.txt.
 *
 * The method draws the whole node in roll (its exits are stairs it rolls),
 * on a 44 × 40 map, drawing again from the same stream (up to 8 times) if a
 * joined map side cannot be reached or the dice left not one room; embed
 * adds the joins' doors and the arriving stairs through gen/kit/embed.h (where
 * their hint says; else a landing beside an area, or where none has room,
 * at the end of a dead end, or in the middle of a room without stairs of
 * its own).
 *
 * A slope is a slope (pips-cross [slope-under] / [slope-over]): steps of kind
 * UCR_SLOPE_DOWN / UCR_SLOPE_UP in the passage, drawn as a ramp and keyed
 * "a slope down"; a trap door is a trap door: a ladder down (as the
 * megadungeon wires it) in an area marked `trapdoor`, drawn and keyed as a
 * trap door.  Limits of the model, chosen here: two throws at a
 * corridor's end that point the same way are one way (the first throw's);
 * a way that would leave a junction by the side it was entered is not
 * drawn (recorded).
 */
#ifndef UCR_METHOD_PIPS_H
#define UCR_METHOD_PIPS_H

#include "gen/node_method.h"

/** The method, for the registry (gen/registry.c). */
extern const ucr_node_method ucr_method_pips;

#endif
