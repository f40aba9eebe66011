/* undercroft — node method "leximorph": pre-loading (seeds 002 and 001,
 * "Pre-Loading Random Non-Linear Dungeons").
 *
 * The node is divided into sectors (four quarters by default, --sectors N
 * for 1 to 9, laid out in rows of ceil(sqrt(N))).  Each sector gets a letter:
 * d10 on seed 002's table (0 R, 1 A, 2 D, 3 T, 4 Q, 5 L, 6 X, 7 P, 8 B,
 * 9 lowercase g) and a d4 rotation (1 normal, 2 a quarter turn clockwise,
 * 3 upside down, 4 a quarter turn counter-clockwise), or the letters of
 * --word in reading order (one sector per letter).  The letters' tunnel
 * skeletons are data (templates/letters.txt, gen/methods/letters.h).  Then, as the
 * seed says:
 *  - "Make sure each letter touches the adjacent letters": every pair of
 *    sectors side by side, and one above the other, is joined by a
 *    connector tunnel routed on the grid between the nearest facing ends of
 *    the two letters, so the template is one network of tunnels.
 *  - "At every corner or junction between letters or within each letter,
 *    roll … (d6)": every corner and junction of the skeleton (letters and
 *    connectors) is a junction area rolled on the d6 table.
 *  - "Check both sides of the tunnel every 60 feet for doors or branches
 *    (d8)": along each tunnel, every 6 squares from the junction it leaves.
 *
 * Readings chosen here, where the seed leaves a choice:
 *  - Rotation is the seed's option, off by default so that the letters read
 *    on the map (an upside-down g is hard to tell from a 6); --rotate turns
 *    it on for rolled letters.  --word letters are always upright.
 *  - Letters are drawn with angles, never curves (the seed allows both), one
 *    character of the file every 3 to 5 squares, as many as let the whole
 *    word print on one page (issue #11: at most 44 x 66 squares, or 76 x 36
 *    turned; a margin of 5 squares and gaps of 6, or 3 and 4 where those do
 *    not fit); where none does (seven letters or more, or a letters file's
 *    large letters), the most (2 to 5) whose map is at most 62 x 62.
 *  - Stroke ends are dead ends unless a connector or a superstructure
 *    tunnel starts there (then they are junctions and roll the d6).
 *  - The 60-ft checks are measured along each tunnel from the junction or
 *    room it leaves, starting again at every junction (a GM walks a tunnel
 *    from junction to junction); a tunnel shorter than 70 ft between two
 *    junctions has none: its junctions rolled for it already; nor has a
 *    tunnel hard by the map's edge (a door there would open on nothing).
 *    A check with anything but blank walls on both sides becomes a junction
 *    area three squares long on the tunnel, so that what opens off the
 *    tunnel is a passage (with its door on that junction's wall), with room
 *    for two openings on one side (d8 4 and 7).  Where the side passage or
 *    door meets the tunnel is a junction within the letter: it rolls the
 *    d6 like every other, so its trap or obstacle is the model's feature
 *    (drawn and keyed, never junction.txt's), and on a 6 a room grows on
 *    the tunnel there, the tunnel running through it and the side ways
 *    leaving from its walls.
 *  - A door, secret door or side passage whose wall faces a room already
 *    drawn a few squares off opens into that room (the room behind the door
 *    is the one there).  Where a door or branch finds no room for a new
 *    room, it leads to the area next door (through the wall, or by a short
 *    routed passage); where
 *    crowding leaves room for only one of two openings (d8 4, 7), that one
 *    stands and the roll record says so.  A node where something still
 *    finds no room is drawn again (up to 16 times), letters moved a square.
 *  - d6 1 ordinary junction; 2 trapped junction and 3 trapped, disabled
 *    (the area's feature, shown on the map and in the key); 4 minor
 *    obstacle: debris or a pool of liquid by a coin; 5 a door on the
 *    junction's wall towards one of its tunnels (1dN over them); 6 a room
 *    (room-size table) grown around the junction, the tunnels entering it.
 *  - d8 1 blank wall; 2 a secret door to a room; 3 a side passage (2-5
 *    squares) to a room, or a dead end where no room fits; 4 two passages
 *    at 45° (two squares out, then diagonally back and forward along the
 *    tunnel, the squares beside each diagonal step half floor), each to a
 *    room — drawn out-and-turning where a diagonal does not fit — or a
 *    dead end.  The side passages of 3 and 4 are passages, not doors: "rooms
 *    and additional corridors that connect to that structure" (the
 *    pre-loading post), so once every check has its rolls, each room one
 *    reached goes on, from its far or side walls, to the nearest room
 *    within 60 ft; those rooms sit on loops.  5 a blocked side passage (rubble, dead end
 *    beyond); 6 a door to a room; 7 two doors side by side into one room (two
 *    rooms if one will not fit); 8 stairs that leave the node: a landing
 *    off the tunnel, down on 1-4 on a d6, up on 5-6 (the megadungeon goes
 *    down), linked to another node by the megadungeon.
 *  - Rooms are sized from templates/tables/room-size.txt, turned or shrunk
 *    (down to a 10-ft closet) until they fit; the key says so.  So that the
 *    word reads on the map, a letter's counters (the inside of an A, B, D,
 *    O…) hold closets of one or two squares only, and a room grown on a
 *    stroke reaches one square into a counter at most.
 *  - A superstructure tunnel joins at the outermost end of a letter on its
 *    side (1dN among the outermost) and runs to the map edge.
 *
 * Everything is drawn in roll (the stairs that leave the node depend on the
 * drawing); embed adds the tunnels' doors and the arriving stairs.
 */
#ifndef UCR_METHOD_LEXIMORPH_H
#define UCR_METHOD_LEXIMORPH_H

#include "gen/methods/letters.h"
#include "gen/node_method.h"

#define UCR_LEXI_MAX_SECTORS 9

extern const ucr_node_method ucr_leximorph_method;

/** Its options (ucr_method_options_get()), from --word, --sectors, --rotate
 *  and --letters; zero fields are the defaults. */
typedef struct {
    const char *word;               /* letters to use instead of rolling */
    int sectors;                    /* number of sectors (default 4) */
    bool rotate;                    /* roll seed 002's optional d4 rotation */
    const ucr_letters *letters;     /* letter shapes (gen/methods/letters.h); NULL: templates/letters.txt */
    ucr_node_size size;             /* the node's size (--node-size; the method sets it from
                                     * ucr_method_options.node_size) */
} ucr_leximorph_options;

/* seed 002's tables are data: templates/tables/leximorph-letter.txt (d10),
 * leximorph-rotation.txt (d4), leximorph-junction.txt (d6),
 * leximorph-obstacle.txt, leximorph-wall.txt (d8) and leximorph-stairs.txt.
 * These read a row's [kind] (checked when the tables load). */

/** A row of the letter table: its letter ('R' … 'g'). */
char ucr_leximorph_letter(const ucr_table_row *row);

/** A row of the rotation table: ucr_glyph_rotate()'s quarter turns, 1..4
 *  (1 upright, 2 clockwise, 3 upside down, 4 counter-clockwise). */
int ucr_leximorph_rotation(const ucr_table_row *row);

/** seed 002's d6 junction table. */
typedef enum {
    UCR_LEXI_ORDINARY = 1,
    UCR_LEXI_TRAPPED,
    UCR_LEXI_TRAPPED_DISABLED,
    UCR_LEXI_OBSTACLE,
    UCR_LEXI_DOOR,
    UCR_LEXI_ROOM
} ucr_lexi_junction;

/** What a row of the d6 junction table (its [kind]) says, and the seed's words. */
ucr_lexi_junction ucr_leximorph_junction(const ucr_table_row *row);
const char *ucr_leximorph_junction_name(ucr_lexi_junction j);

/** seed 002's d8 table for both sides of a tunnel every 60 ft. */
typedef enum {
    UCR_LEXI_BLANK = 1,
    UCR_LEXI_SECRET_DOOR,
    UCR_LEXI_BRANCH,
    UCR_LEXI_DIAGONALS,
    UCR_LEXI_BLOCKED,
    UCR_LEXI_SIDE_DOOR,
    UCR_LEXI_DOOR_PAIR,
    UCR_LEXI_STAIRS
} ucr_lexi_side;

/** What a row of the d8 wall table (its [kind]) says, and the seed's words. */
ucr_lexi_side ucr_leximorph_side(const ucr_table_row *row);
const char *ucr_leximorph_side_name(ucr_lexi_side s);

typedef struct ucr_leximorph_plan ucr_leximorph_plan;

/** Rolls and draws a node (see above); @options may be NULL (the
 *  defaults).  Free with ucr_leximorph_plan_free(). */
ucr_leximorph_plan *ucr_leximorph_plan_roll(ucr_prng *rng, const bool join_sides[4],
                                            const ucr_tables *tables,
                                            const ucr_leximorph_options *options);
/** Frees a ucr_leximorph_plan (the method's free: its plan is a void *). */
void ucr_leximorph_plan_free(void *plan);
/** The stairs that leave the node, into @out (ucr_step*; the method's exits). */
void ucr_leximorph_plan_exits(void *plan, GPtrArray *out);
/** Hands over the node of a ucr_leximorph_plan (the method's embed; the plan
 *  keeps its letters for inspection). */
ucr_node *ucr_leximorph_embed(void *plan, const char *id, int col, int row, const ucr_node_request *req,
                              ucr_prng *rng, GError **error);

/* For tests: what the plan drew. */
int ucr_leximorph_plan_letter_count(const ucr_leximorph_plan *plan);
/** Squares from one cell of the letters file to the next on the map. */
int ucr_leximorph_plan_scale(const ucr_leximorph_plan *plan);
/** The letter of sector @i (its glyph's name). */
char ucr_leximorph_plan_letter(const ucr_leximorph_plan *plan, int i);
/** The squares (ucr_point) of sector @i's letter skeleton on the map. */
const GArray *ucr_leximorph_plan_letter_squares(const ucr_leximorph_plan *plan, int i);
/** For each of those squares (int, same order), the stroke of the letters
 *  file it lies on (between two cells; a diagonal stroke with its two
 *  straight ends), numbered over the node, or -1 for a cell's own square. */
const GArray *ucr_leximorph_plan_letter_strokes(const ucr_leximorph_plan *plan, int i);
/** The tunnel template (letters, connectors, superstructure tunnels) before
 *  any room was added: width × height flags, row-major; borrowed. */
const guint8 *ucr_leximorph_plan_skeleton(const ucr_leximorph_plan *plan, int *width, int *height);

#endif
