/* undercroft — what the two pre-connecting methods share (seeds 000, 001).
 *
 * "Pre-connecting": instead of waiting for the random twists of a corridor to
 * reach a room, roll where the corridor goes and adjust its shape to fit
 * (seed 000).  The methods `numbered` (SubMethod I) and `clock` /
 * `tictactoe` (SubMethod II) draw as they roll, on one canvas, with:
 *
 *  - a router that draws a corridor "as straight as possible" (A* with a
 *    turn penalty, U-turns allowed) to a rolled destination, and that may run
 *    straight across a room or corridor in its way;
 *  - the crossing table of seed 000 (also offered by seed 001, SubMethod II,
 *    "which will add a chance for sublevels above or below"), rolled for each
 *    element a corridor runs across:
 *
 *        d10   1-4 corridor runs under area
 *              5   secret door connects to area
 *              6-9 corridor runs above area
 *              0   dead end, no connection
 *
 *    "If the corridor runs under or above the area, there will be stairs just
 *    before it crosses the area, and stairs on the other side.  Optionally,
 *    there are stairs on even rolls and ladders on odd rolls": the option is
 *    taken.  "If the corridor ends, either with a secret door or a true dead
 *    end, there is no need to worry about finishing the connection": the
 *    corridor stops there and the destination it was heading for is not
 *    drawn (a new room it was heading for is not made).
 *
 * Readings chosen here:
 *  - A corridor "has to cross" an element when going around it would be more
 *    than UCR_PC_DETOUR squares longer than going straight across (or there
 *    is no way around).  It crosses a room straight through, and a corridor
 *    at right angles where that corridor runs straight.
 *  - A secret door into a crossed corridor joins it at a new junction (an
 *    intersection area on that corridor) with the secret door on its wall.
 *  - A dead end stops one square short of the crossed element.
 *  - Two elements one square of rock apart (two corridors side by side, a
 *    room behind a corridor) are crossed in one stretch (where the method
 *    asks, ucr_pc.stretch: numbered), each rolled on the
 *    table: the corridor stays under (over) on the square between when both
 *    rolls agree, and takes one flight of stairs there from under to over
 *    (or over to under) when they do not; a secret door into the second
 *    opens from that square; a dead end before the second stops one square
 *    short of the first (the square between touches the second).
 */
#ifndef UCR_PRECONNECT_H
#define UCR_PRECONNECT_H

#include "model/honour_rule.h"

#include <stdbool.h>

#include "gen/kit/attach.h"
#include "gen/kit/canvas.h"
#include "gen/node_method.h"

/* Going around must cost this many squares more than going across before a
 * corridor crosses. */
#define UCR_PC_DETOUR 10

/* At most this many elements, one square of rock apart, in one stretch under
 * or over (seed 000 rolls once for each). */
#define UCR_PC_STRETCH_MAX 2


/** Results of seed 000's crossing table. */
typedef enum {
    UCR_PC_UNDER,      /* 1-4 */
    UCR_PC_SECRET,     /* 5 */
    UCR_PC_OVER,       /* 6-9 */
    UCR_PC_DEAD_END    /* 0 */
} ucr_pc_cross;

/** Reads a row of the crossing table (templates/tables/numbered-crossing.txt);
 *  @ladder (if not NULL) says whether the steps are a ladder (the seed's
 *  optional "ladders on odd rolls"). */
ucr_pc_cross ucr_pc_cross_row(const ucr_table_row *row, bool *ladder);

/** The d10 of seed 000's tables as the seed prints it: 1..9 and 0 for a
 *  total of 10 on a d10 table; other dice as rolled. */
int ucr_pc_face(const ucr_table *table, int total);

/** What the pre-connecting methods draw on: the node and its canvas (whose
 *  busy squares no later crossing or junction may use). */
typedef struct {
    ucr_node *node;        /* borrowed */
    ucr_canvas *cv;        /* owned */
    ucr_prng *rng;         /* borrowed */
    const ucr_tables *tables; /* borrowed: the crossing and room tables */
    int next_key;          /* the number the next numbered area gets */
    bool number_junctions; /* junctions made by joining a corridor are numbered as drawn */
    bool force_under;      /* superstructure tunnels run under what they cross, unrolled */
    unsigned target_walls; /* ucr_pc_route: bit per ucr_dir of the walls of a target area a
                            * corridor may end on (seed 001: the second door's wall); 0 any */
    int max_cells;         /* ucr_pc_route: no path of more squares than this; 0 no bound */
    int stretch;           /* ucr_pc_route: elements one square of rock apart a crossing may
                            * pass in one stretch, at most UCR_PC_STRETCH_MAX (numbered); 0 or
                            * 1: one (clock's and tictactoe's "already there" joins fell
                            * under 90% with two) */
    GByteArray *checked;   /* owned: per passage, walked by ucr_pc_corridor_checks already */
    GByteArray *every;     /* owned: per passage, its checks' interval in squares where it is
                            * not the caller's (ucr_pc_check_every); 0 the caller's */
    int door_slide;        /* ucr_pc_corridor_checks: how far (squares, 3 to 5) a door's check whose
                            * square takes nothing is tried on and back along the corridor ("every
                            * 60 feet or so"); 0 or less: 3 (compass: 5, as a side passage whose
                            * destination is rolled first) */
    bool tight_checks;     /* ucr_pc_corridor_checks: a side passage's router searches no farther
                            * than the length it accepts (faster; it may then find a way the
                            * unbounded search would have found too long) */
    /* ucr_pc_corridor_checks: if set, the method says where a side passage
     * a check finds leads when no room lies beside it (a pre-connecting
     * method rolls its destination, seed 001), instead of the dead end.
     * Called with the junction made on the
     * corridor, the wall it leaves by and whether it is a door; it draws
     * at least a one-square stub from that wall, appends what became of it
     * to @rec, and may add areas and passages (checked in a later call). */
    void (*check_exit)(void *data, int junction, ucr_dir wall, bool door, GString *rec);
    /* ucr_pc_corridor_checks, with check_exit: if set, a side passage with
     * no room beside rolls its destination before its wall ("roll
     * immediately for where the corridor goes and adjust the shape to fit",
     * seed 000): the method rolls it, appends its dice to @dice and gives
     * the direction it lies in (*@vx east, *@vy south); the passage opens on
     * the wall facing it (the coin's wall when it lies straight along the
     * corridor), never on the wall facing away.  The next check_exit uses
     * that roll. */
    void (*check_aim)(void *data, GString *dice, double *vx, double *vy);
    void *check_data;
} ucr_pc;

/** A drawing context on @node, whose width and height are set; free with
 *  ucr_pc_free(), which leaves the node alone. */
ucr_pc *ucr_pc_new(ucr_node *node, ucr_prng *rng, const ucr_tables *tables);
void ucr_pc_free(ucr_pc *pc);

/** Adds an area (taking @rolled); @numbered: it gets the next number as
 *  drawn, else key 0 (numbered later, after the numbered ones).  Returns its
 *  index. */
int ucr_pc_area_add(ucr_pc *pc, ucr_area_kind kind, int x, int y, int w, int h, bool numbered,
                    char *rolled);


/** A free square in front of wall @side of @area, from position @hint along
 *  the wall outwards; false if the wall has none. */
bool ucr_pc_mouth(const ucr_pc *pc, int area, ucr_dir side, int hint, ucr_point *out);

/** The square in front of wall position @k of @a on @side. */
ucr_point ucr_pc_wall_square(const ucr_area *a, ucr_dir side, int k);

/** Where a corridor is going: an area (its canvas owner and rectangle), or
 *  a point (owner UCR_CANVAS_EMPTY, 1×1 rectangle) where it ends in rock. */
typedef struct {
    int owner;
    int x, y, w, h;
    bool avoid;            /* back to its own room: not through a mouth near… */
    ucr_point avoid_at;    /* …this one (the door it left by) */
} ucr_pc_target;

/** A stretch of a route across an element, or across elements one square of
 *  rock apart (UCR_PC_STRETCH_MAX): cells [first, last]; @owner the first
 *  element (the canvas tells the others). */
typedef struct {
    int first, last;
    int owner;             /* canvas owner crossed: area index or UCR_ATTACH_PASSAGE + k */
} ucr_pc_jump;

/** A routed corridor before it is drawn. */
typedef struct {
    GArray *cells;         /* ucr_point */
    GArray *jumps;         /* ucr_pc_jump, in order */
} ucr_pc_path;

/** Routes from square @from (touching area @from_owner) to @t, crossing
 *  elements where going around costs more than UCR_PC_DETOUR (if
 *  @crossings).  Returns false if there is no route; else fills @out, which
 *  the caller hands to ucr_pc_connect() or frees with ucr_pc_path_clear(). */
bool ucr_pc_route(const ucr_pc *pc, ucr_point from, int from_owner, const ucr_pc_target *t,
                  bool crossings, ucr_pc_path *out);
void ucr_pc_path_clear(ucr_pc_path *path);

/** Whether ucr_pc_route() may give up before searching, where the regions of
 *  rock show that no search could find a route (on by default).  Off, every
 *  route is searched: the same routes, slower.  For tests, which compare the
 *  two; not thread-safe (set it before generating). */
void ucr_pc_set_shortcuts(bool on);

/** A new area a corridor is heading for: made only if the corridor gets
 *  there.  Its rectangle is on the canvas as UCR_CANVAS_TENTATIVE meanwhile. */
typedef struct {
    ucr_area_kind kind;
    int x, y, w, h;
    bool numbered;
    char *rolled;          /* taken */
} ucr_pc_pending;

/** How a corridor ended. */
typedef struct {
    int passage;           /* its index */
    int vertex;            /* the vertex it ends at */
    int area;              /* the area it ends at, or -1 (dead end) */
    bool reached;          /* true: where the dice sent it; false: cut short by a crossing */
} ucr_pc_end;

/** Draws @path (taken) as a passage from area @from_area, with a door of
 *  @door (or none if < 0) at its start, to @t: area @t->owner, a dead end at
 *  the point, or the @pending area (made now).  Rolls the crossing table for
 *  every jump in order (seed 000), appending what it rolled to @record; a
 *  secret door or a dead end cuts the corridor short and drops @pending.
 *  Returns how it ended. */
ucr_pc_end ucr_pc_connect(ucr_pc *pc, ucr_pc_path *path, int from_area, int door,
                          const ucr_pc_target *t, ucr_pc_pending *pending, GString *record);

/** A corridor that could go nowhere: a one-square dead end in front of
 *  @mouth, with a door.  Returns how it ended. */
ucr_pc_end ucr_pc_stub(ucr_pc *pc, int from_area, ucr_point mouth, int door);

/** Splits passage @passage at cell @index into two, with a new junction area
 *  on that square (numbered as drawn if @numbered; @rolled taken).  Returns
 *  the junction's index, or -1 if that square cannot take one (an end, a
 *  crossing, steps, a bend touching something). */
int ucr_pc_split(ucr_pc *pc, int passage, int index, bool numbered, char *rolled);

/** A side passage from junction @jn (a square on a corridor) through wall
 *  @d that meets another corridor 20-50 ft straight out, where nothing else
 *  fits (seed 001: "If there is a room or corridor already in that
 *  location, the new corridor connects with it"): the rock between drawn as
 *  a passage (a door at its start if @door) and that corridor split at a
 *  new junction there (numbered if pc->number_junctions; @rolled taken, its
 *  record), whose ways on are the corridor's own.  Not onto a corridor of
 *  @jn's own.  Unlike a check's own join, networks sharing two rooms may
 *  join (compass's room loops a room stayed 0.56 over 200 seeds).  Appends
 *  what it drew to @rec; returns the new junction, or -1 (nothing drawn). */
int ucr_pc_join_beyond(ucr_pc *pc, int jn, ucr_dir d, bool door, char *rolled, GString *rec);

/** Whether ucr_pc_split() could put a junction at cell @j of passage @k. */
bool ucr_pc_split_ok(const ucr_pc *pc, int k, int j);

/** Index of @p in passage @k's cells, or -1. */
int ucr_pc_cell_index(const ucr_pc *pc, int k, ucr_point p);

/** Seeds 000 and 001: "test the corridor every 60 feet or so for side
 *  passages or doors" (000: "on a 7+, draw 60 feet of corridor and then test
 *  for turns, doors, or side passages"; 001's variant: every 30 ft).  Every
 *  @every squares along each corridor drawn so far and not walked by an
 *  earlier call, rolls the table
 *  corridor-check ([none], [side], [door]; skipped if the tables have none):
 *  a side passage or a door opens on a wall chosen by a coin, at a new
 *  junction on the corridor, and leads to the nearest room on that side (not
 *  the corridor's own ends: the pre-connecting reading, which closes a loop),
 *  else a side passage dead ends after up to 60 ft (or, with
 *  pc->check_exit, leads where the method says) and a door opens on a new
 *  room (@new_rooms: the room table's size, 10-60 ft off, shifted or smaller
 *  to fit); failing those, it meets what lies straight beside the corridor
 *  within 50 ft (a room's wall, or a corridor joined at a new junction whose
 *  network shares at most one room with this one's).  A check whose square
 *  takes nothing is tried 10-30 ft on and back along the corridor, round
 *  a bend too (a side passage with pc->check_exit: along its own straight
 *  stretch only) ("every 60 feet or so"), else not drawn.  A passage given its
 *  own interval (ucr_pc_check_every) is checked at that.  Each check is
 *  recorded in the node's rolls. */
void ucr_pc_corridor_checks(ucr_pc *pc, int every, bool new_rooms);

/** Passage @k (and the parts it is later split into) is checked every
 *  @every squares instead of the interval ucr_pc_corridor_checks() is given
 *  (seed 000's corridors back to their own room: "check every 60 feet, or
 *  possibly even every 30 feet"); its checks' records say so. */
void ucr_pc_check_every(ucr_pc *pc, int k, int every);

/** Puts the request's joins (map-edge tunnels) and arrivals (stair landings)
 *  on the drawn node and fills req->link_area.  A tunnel that cannot reach
 *  its edge around what is drawn runs under it (stairs down and up, no
 *  roll: it is the superstructure's tunnel, not a rolled corridor).  Returns false if one found no
 *  room (the caller redraws the node). */
bool ucr_pc_attach(ucr_pc *pc, const ucr_node_request *req);

/** Empties @node's areas, passages, doors, vertices and rolls for a new try. */
void ucr_pc_node_reset(ucr_node *node);

/** Rolls a room size on the room-size table (rotated on a coin), writing
 *  "room size 1d20=N: WxH" to @record.  A malformed row reads as 3x3. */
void ucr_pc_room_size(const ucr_tables *tables, ucr_prng *rng, int *w, int *h, GString *record);

/** The table the crossings read (numbered-crossing), for the node methods
 *  that pre-connect to list among theirs. */
extern const ucr_table_need ucr_pc_tables[];

/** The drawn-as-rolled rules (model/honour_rule.h) of the exits the
 *  pre-connecting methods roll, and of the corridor checks (seed 000): each
 *  method that writes such records lists them in its .honour. */
extern const ucr_honour_rule UCR_PC_HONOUR_EXITS[], UCR_PC_HONOUR_CHECKS[];

#endif
