/* undercroft — the megadungeon model.
 *
 * The model is plain data that every later stage reads (key, analysis, layout,
 * JSON): it knows nothing of dice or pages.  Coordinates are grid squares of
 * 10 ft from the node map's top-left corner.  A square (x, y) covers
 * [x, x+1) × [y, y+1); rooms are rectangles of whole squares; passages are
 * chains of squares one square wide.
 *
 * Ownership: a ucr_megadungeon owns everything reachable from it, including
 * its nodes and their arrays; free it with ucr_megadungeon_free().
 */
#ifndef UCR_MODEL_H
#define UCR_MODEL_H

#include <stdbool.h>
#include <glib.h>

#define UCR_FORMAT "undercroft/1"

typedef struct { int x, y; } ucr_point;

typedef enum { UCR_NORTH, UCR_EAST, UCR_SOUTH, UCR_WEST } ucr_dir;

/* The one direction table of the program (gen/kit steps, layout/map.c
 * walls, every method). */
/** The step of one square towards @dir (y grows south). */
extern const int UCR_DIR_DX[4], UCR_DIR_DY[4];
/** The eight directions as the seeds number them: 1 north, 2 north-east,
 *  clockwise to 8 north-west; 0 is no step. */
extern const int UCR_DIR8_DX[9], UCR_DIR8_DY[9];

/** What an area is. */
typedef enum {
    UCR_AREA_ROOM,      /* a room from the room table */
    UCR_AREA_JUNCTION,  /* an intersection of the tunnel network */
    UCR_AREA_STAIRS     /* a stair or ladder landing */
} ucr_area_kind;

/** Vertical ways: stairs or ladder, up or down; inside a passage also a
 *  slope (seed 003: "insert stairs or a slope"), a ramp rather than steps:
 *  only passages hold slopes (ucr_passage_stairs), never an area or a link. */
typedef enum {
    UCR_STAIR_NONE,
    UCR_STAIR_DOWN,
    UCR_STAIR_UP,
    UCR_LADDER_DOWN,
    UCR_LADDER_UP,
    UCR_SLOPE_DOWN,
    UCR_SLOPE_UP
} ucr_stair;

/** What the stocking put in an area, for the map and the tests: set when its
 *  rolls passed through the table of that name (key/stock.h). */
typedef enum {
    UCR_STOCK_MONSTER = 1 << 0,
    UCR_STOCK_TRAP = 1 << 1,
    UCR_STOCK_TREASURE = 1 << 2
} ucr_stock_flags;
/** One column of a data-table row, as written in the table ("ac" → "6"). */
typedef struct {
    char *key, *value;
} ucr_field;

/** A monster the stocking placed (or a wandering-monster table row), from a
 *  monster table with columns (tables/table.h).  All strings owned. */
typedef struct {
    char *name, *plural;   /* "goblin", "goblins" */
    char *appearing;       /* the table's number-appearing dice, "1d6+2" */
    int count;             /* how many are here (rolled); 0 in a wandering table */
    GArray *hp;            /* int: each one's hit points (rolled); NULL in a wandering table */
    char *doing;           /* what they are doing, a phrase; may be "" */
    char *stats;           /* the compact stat line, plain text (describe.h) */
    GArray *fields;        /* ucr_field: every column of the row, in the table's order */
} ucr_monster;

/** A treasure the stocking placed: what it is and what it is worth. */
typedef struct {
    char *text;            /* "2 gems worth 50 gp each", a noun phrase */
    int value;             /* in gold pieces (gp), the one coin unit of the key */
} ucr_treasure;

/** One row of a level's wandering-monster table. */
typedef struct {
    int lo, hi;            /* the roll it answers */
    ucr_monster monster;   /* count 0, hp NULL: roll them when met */
} ucr_wandering_row;

/** Something in an area that the map and the key show (seed 002's junction
 *  table: trapped junctions, minor obstacles). */
typedef enum {
    UCR_FEATURE_NONE,
    UCR_FEATURE_TRAP,          /* a trapped junction */
    UCR_FEATURE_TRAP_DISABLED, /* a trapped junction whose trap is disabled */
    UCR_FEATURE_DEBRIS,        /* a minor obstacle: debris */
    UCR_FEATURE_POOL           /* a minor obstacle: a pool of liquid */
} ucr_area_feature;

typedef struct {
    int key;               /* the number on the map and in the key, from 1 */
    ucr_area_kind kind;
    int x, y, w, h;        /* rectangle, in squares */
    ucr_stair stair;       /* UCR_STAIR_NONE unless kind is STAIRS, or a room with a stair
                            * (or trap door) in the middle of its floor (seed 003) */
    int link;              /* index into the node's links, or -1 */
    char *rolled;          /* what the dice said, for the key ("2d6 = 4 (2+2)…") */
    /* Stocking (key/stock.h); NULL and 0 until ucr_megadungeon_stock() runs.
     * All owned by the area. */
    char *contents;        /* what is here, whole sentences; NULL: nothing rolled */
    char *contents_kind;   /* its row's [kind]: "empty", "monster", "trap", … */
    char *shape;           /* rooms: walls, floor, ceiling, one sentence */
    char *stocked;         /* the stocking's dice, for the record */
    unsigned stock;        /* ucr_stock_flags */
    GArray *monsters;      /* ucr_monster, who is here; NULL until stocked */
    GArray *treasure;      /* ucr_treasure; NULL until stocked */
    int treasure_gp;       /* the sum of treasure's values */
    char *trap;            /* the trap, a noun phrase; NULL: none */
    const char *unreachable; /* analysis: why no route from the surface reaches it
                              * (static text), or NULL */
    ucr_area_feature feature; /* UCR_FEATURE_NONE unless a rule put something here */
    bool feature_rolled;   /* a node method rolled what lies here (seed 002's d6 at every
                            * junction), UCR_FEATURE_NONE included: the feature is the one
                            * truth, and stocking rolls no junction table over it */
    /* Seed 003's diamond room: the rectangle is a square of odd side s with
     * the diamond inscribed, its walls at 45° along the squares' diagonals
     * and a one-square flat at each corner (tip).  The floor is the squares
     * within (s-1)/2 steps of the middle square, plus half (a triangle) of
     * those one step further; the rest of the square is rock that nothing
     * else may use.  Doors sit only at the four tips, in the middle of the
     * square's sides, as on a rectangle's wall. */
    bool diamond;
    int level;             /* analysis: its dungeon level — the node's depth, or another where
                            * stairs or a ladder inside the node lead down or up to it */
    int pocket_way;        /* analysis: the area is in a pocket of its node (no passage joins
                            * it to the node's tunnels or entrance) that is reached only by
                            * the stairs or ladder of this area index; -1 otherwise */
    /* Seed 003's trap door ("the room has a trap door or staircase"; "insert
     * stairs or a trap door"): a stair of kind UCR_LADDER_DOWN that is a
     * trap door in the floor with a ladder beneath, drawn and keyed as a
     * trap door.  The megadungeon wires it as the ladder it is. */
    bool trapdoor;
} ucr_area;

/** Doors sit on the edge between a room-like area and a passage square. */
typedef enum {
    UCR_DOOR_PLAIN,
    UCR_DOOR_SECRET,
    UCR_DOOR_LOCKED,
    UCR_DOOR_TRAPPED
} ucr_door_kind;

typedef struct {
    ucr_door_kind kind;
    int area;              /* index of the area whose wall holds the door */
    int passage;           /* index of the passage on the other side */
    ucr_point cell;        /* the passage square in front of the door */
    ucr_dir side;          /* which wall of the area */
} ucr_door;

/** What the stocking rolled for a door (key/stock.h).  Kept beside the doors
 *  rather than in ucr_door, so that node methods can keep building doors
 *  with short initialisers. */
typedef struct {
    char *detail;          /* "a stuck door (…)", a noun phrase; NULL: not rolled */
    char *rolled;          /* the dice; NULL: not rolled */
} ucr_door_stock;

/** Ends of passages that are not areas are graph vertices of their own. */
typedef enum {
    UCR_VERTEX_AREA,       /* the vertex of an area */
    UCR_VERTEX_DEAD_END,   /* a passage that stops in rock */
    UCR_VERTEX_EXIT        /* a passage that leaves the node's map */
} ucr_vertex_kind;

typedef struct {
    ucr_vertex_kind kind;
    int area;              /* area index for UCR_VERTEX_AREA, else -1 */
    ucr_point at;          /* the square of a dead end or exit */
} ucr_vertex;

/** How a passage can be travelled. */
typedef enum {
    UCR_EDGE_OPEN,         /* open passage, or one behind an ordinary door */
    UCR_EDGE_DOOR,         /* through at least one door */
    UCR_EDGE_SECRET,       /* through a secret door: passable once found */
    UCR_EDGE_BLOCKED       /* collapsed: not passable */
} ucr_edge_kind;

/** Steps or a ladder inside a passage: the tunnel changes level and goes on. */
typedef struct {
    int index;             /* index in the passage's cells */
    ucr_stair stair;       /* as met walking from vertex a towards vertex b */
} ucr_passage_stairs;

/** How a passage passes another element without joining it (seed 000's
 *  crossing table: "corridor runs under area" / "runs above area"). */
typedef enum {
    UCR_CROSS_UNDER,
    UCR_CROSS_OVER
} ucr_cross_kind;

/** A stretch of a passage that runs under or over an area or another
 *  passage: cells [first, last] of the passage lie on squares that the
 *  crossed element keeps (it is drawn on top, the crossing dashed).  The
 *  squares just before and after the stretch may touch the crossed element;
 *  they carry the stairs or ladders down and up. */
typedef struct {
    int first, last;       /* indices in the passage's cells */
    ucr_cross_kind kind;
    int area;              /* index of the area crossed, or -1 */
    int passage;           /* index of the passage crossed, or -1 */
} ucr_crossing;

/* Consecutive cells of a passage are side by side, or (seed 003's diagonal
 * corridors) corner to corner: a diagonal step is drawn at 45°, its walls
 * along the squares' diagonals, over half of each of the two squares
 * beside it, which nothing else may use. */
typedef struct {
    GArray *cells;         /* ucr_point, in order from vertex a to vertex b */
    int a, b;              /* graph vertices at the two ends */
    ucr_edge_kind kind;
    int rubble;            /* index in cells of the collapse, or -1 */
    GArray *stairs;        /* ucr_passage_stairs, by index */
    GArray *crossings;     /* ucr_crossing, in order along the cells; NULL: none */
} ucr_passage;

typedef enum {
    UCR_LINK_STAIRS_DOWN,
    UCR_LINK_STAIRS_UP,
    UCR_LINK_LADDER_DOWN,
    UCR_LINK_LADDER_UP,
    UCR_LINK_TUNNEL,       /* a superstructure tunnel */
    UCR_LINK_ENTRANCE      /* the way in from the surface */
} ucr_link_kind;

/** Where a link leads outside the megadungeon's nodes. */
typedef enum {
    UCR_EXIT_NONE,         /* leads to another node: to_node/to_area */
    UCR_EXIT_SURFACE,      /* up and out to the surface */
    UCR_EXIT_BELOW         /* down to levels not in this booklet */
} ucr_exit;

typedef struct {
    int area;              /* index of the area in this node */
    ucr_link_kind kind;
    ucr_exit exit;
    int to_node;           /* node index, or -1 for an exit */
    int to_area;           /* area index in that node, or -1 */
    bool has_side;         /* true for tunnels and tunnel entrances */
    ucr_dir side;          /* then: the map side it leaves by */
    char *via;             /* for tunnels: what lies in the tunnel ("door", "stairs down") */
    bool landed;           /* the far end of stairs from another node, landed once the nodes
                            * were drawn: in a pocket to open, the node of its level with the
                            * fewest landings for its size, or a hall that holds stairs
                            * already; or stairs to a part nothing else reached
                            * (gen/super/megadungeon.c) */
} ucr_link;

/** Non-linearity figures computed from the node's graph (see key/analysis.h).
 *  For the superstructure, "areas" are nodes and "passages" tunnels. */
typedef struct {
    int areas, passages, vertices, edges, components;
    int loops;             /* cyclomatic number E − V + C over passable edges */
    int chokepoints;       /* articulation vertices */
    int bridges;
    int dead_ends;         /* vertices with one passable way in or out */
    int unreachable;       /* areas that no route from the surface reaches */
    int on_loop;           /* areas that lie on at least one loop */
    double loop_share;     /* on_loop / areas (0 without areas) */
    int largest_loop;      /* areas in the largest biconnected component holding a loop */
    int farthest;          /* distance from the entry to the farthest area reached: squares
                            * of passage in a node, tunnels in the superstructure */
    int farthest_area;     /* that area (node index in the superstructure), or -1 */
    int secret_only;       /* areas reached from the surface only through secret doors */
    /* The count other generators are compared by (key/analysis.h,
     * ucr_node_room_loops): rooms are the vertices, each corridor network
     * one more vertex joined once to every room it touches.  Nodes only. */
    int rooms;             /* areas of kind UCR_AREA_ROOM */
    int room_loops;        /* E − V + C of that room graph */
    /* The superstructure only: the ways out of the booklet, deliberate
     * hooks for the GM (DESIGN "Levels"): stairs or ladders up to the
     * surface from level 1 (the entrance not counted), and down to levels
     * below the booklet. */
    int hooks_surface, hooks_below;
    /* Levels (DESIGN "Levels"), key/analysis.h.  landings: areas holding
     * stairs or ladders to another node, the surface or below; pockets:
     * parts of a node that no passage joins to its tunnels or entrance
     * (else to its entry area).  The superstructure sums them, and counts
     * in hubs the nodes with more landings than a quarter of their areas. */
    int landings, pockets, hubs;
} ucr_stats;

/** What became of one roll of a rule that the map can override, where the
 *  roll record does not say it: kept by the method where it decides, read
 *  by `undercroft stats` (key/honour.h) and the JSON. */
typedef struct {
    const char *rule;      /* static: the rule as the report names it */
    const char *reason;    /* static: why it was not drawn as rolled; NULL: as rolled */
} ucr_outcome;

typedef struct {
    char *id;              /* "A", "B", … "AA" */
    const char *method;    /* node method name, static */
    int col, row;          /* place in the superstructure */
    int depth;             /* dungeon level, 1 = first below the surface */
    int width, height;     /* map size in squares */
    GArray *areas;         /* ucr_area */
    GArray *passages;      /* ucr_passage */
    GArray *doors;         /* ucr_door */
    GArray *vertices;      /* ucr_vertex; vertex i < areas->len is area i */
    GArray *links;         /* ucr_link */
    int entry_area;        /* where the analysis starts walking (area index) */
    GPtrArray *rolls;      /* char*: every roll the method made, in order, for the record */
    GArray *outcomes;      /* ucr_outcome: what became of the rolls whose record does not
                            * say it (key/honour.h); NULL: none */
    int unplaced;          /* rolled features that found no room on the map (should be 0) */
    GArray *door_stock;    /* ucr_door_stock, parallel to doors; NULL until stocked */
    const char *unreachable; /* analysis: why none of its areas is reached from the
                              * surface (static text), or NULL */
    ucr_stats stats;
    /* Stocking (key/stock.h); NULL and 0 until ucr_megadungeon_stock() runs. */
    char *name;            /* "The Sunken Galleries", rolled on the tables */
    char *theme;           /* who or what the node belongs to, or NULL: no theme */
    int treasure_gp;       /* the sum of its areas' treasure_gp */
    char *wandering_check; /* how often to roll: "1 in 6, every 2 turns" */
    char *wandering_dice;  /* the die of its level's table: "1d6", "1d8" */
    GArray *wandering;     /* ucr_wandering_row: its level's wandering monsters */
} ucr_node;

/** One direction of one superstructure intersection, as rolled. */
typedef struct {
    char *rolled;          /* human-readable dice record */
    bool through;          /* passable to its far end */
} ucr_super_half;

typedef enum {
    UCR_TUNNEL_OPEN,
    UCR_TUNNEL_DOOR,
    UCR_TUNNEL_SECRET,
    UCR_TUNNEL_STAIRS,
    UCR_TUNNEL_LADDER,
    UCR_TUNNEL_BLOCKED,
    UCR_TUNNEL_WALL        /* no way through: not listed as a tunnel */
} ucr_tunnel_kind;

typedef struct {
    int from, to;          /* node indices; from is west of / north of to */
    ucr_tunnel_kind kind;
    int descent;           /* levels down going from → to (negative: up) */
    int rolled_descent;    /* what seed 004's stairs said: levels down from → to as
                            * rolled, before the levels were chosen (descent) */
    bool chamber;          /* a room lies on the way (double 2s or 4s) */
    char *rolled_from, *rolled_to;
} ucr_tunnel;

typedef struct {
    char *seed;
    char *version;
    int columns, rows;
    GPtrArray *nodes;      /* ucr_node*, row-major */
    GArray *tunnels;       /* ucr_tunnel */
    ucr_super_half *halves; /* columns*rows*4, [node*4 + dir] */
    int entrance_node, entrance_area;
    ucr_dir entrance_side; /* map side of the entrance tunnel, or -1 if stairs */
    bool entrance_stairs;  /* true: stairs down from the surface */
    ucr_stats stats;       /* of the superstructure graph */
    char *name;            /* the dungeon's name, rolled on the tables; NULL until stocked */
    int node_size;         /* ucr_node_size (gen/node_method.h): 0 standard, 1 pocket, 2 large */
} ucr_megadungeon;

ucr_node *ucr_node_new(const char *id, int col, int row);
/** Frees what @m owns (not @m itself) and zeroes it. */
void ucr_monster_clear(ucr_monster *m);
/** Frees an area's stocking (contents, monsters, treasure, …), leaving its
 *  geometry. */
void ucr_area_stock_clear(ucr_area *a);
void ucr_node_free(ucr_node *node);
void ucr_megadungeon_free(ucr_megadungeon *md);

/** Static names used by the JSON model, the key and the tests. */
const char *ucr_area_kind_name(ucr_area_kind kind);
const char *ucr_stair_name(ucr_stair stair);           /* "stairs down", "ladder up", "slope down" */
/** True for UCR_SLOPE_DOWN and UCR_SLOPE_UP. */
bool ucr_stair_is_slope(ucr_stair stair);
const char *ucr_area_feature_name(ucr_area_feature f); /* "trap", "disabled trap", … */
const char *ucr_door_kind_name(ucr_door_kind kind);
const char *ucr_edge_kind_name(ucr_edge_kind kind);
const char *ucr_link_kind_name(ucr_link_kind kind);    /* "stairs-down", "tunnel" */
const char *ucr_tunnel_kind_name(ucr_tunnel_kind kind);
const char *ucr_dir_name(ucr_dir dir);                 /* "north" … */
const char *ucr_cross_kind_name(ucr_cross_kind kind);  /* "under", "over" */

/** The node id for index @i in row-major order: A..Z, AA, AB, …;
 *  the caller frees the result. */
char *ucr_node_id_for_index(int i);

/** True if square @p is inside @area's rectangle. */
bool ucr_area_contains(const ucr_area *area, ucr_point p);

/* ---- geometry every node method shares ---------------------------------- */


/** The direction back: north for south, east for west. */
ucr_dir ucr_dir_opposite(ucr_dir dir);

static inline bool ucr_point_eq(ucr_point a, ucr_point b)
{
    return a.x == b.x && a.y == b.y;
}

/** An area of @kind on the rectangle @x, @y, @w × @h, with nothing on it
 *  yet (no stair, feature, key, link or record), to fill in and add. */
ucr_area ucr_area_make(ucr_area_kind kind, int x, int y, int w, int h);

/** Notes that one roll of @rule (static text) was drawn as rolled (@reason
 *  NULL) or not, and why (static text). */
void ucr_node_outcome(ucr_node *node, const char *rule, const char *reason);

/** Adds @text to what the dice said of @area (its record for the key),
 *  after a "; " when it holds something already. */
void ucr_area_record_append(ucr_area *area, const char *text);

/** The square just outside wall position @k (0-based, west to east or north
 *  to south) of @area's @side: where a door in that wall opens. */
ucr_point ucr_area_mouth(const ucr_area *area, ucr_dir side, int k);

/** The squares along @area's @side: its width for north and south, else
 *  its height. */
int ucr_area_wall_length(const ucr_area *area, ucr_dir side);

/** The wall of @area that outside square @p faces (north when above it,
 *  then south when below, west, east). */
ucr_dir ucr_area_wall_of(const ucr_area *area, ucr_point p);

/** True if @p is outside @area and shares an edge with it (a mouth). */
bool ucr_area_touches(const ucr_area *area, ucr_point p);

/** Stairs or ladder going down. */
bool ucr_stair_is_down(ucr_stair stair);
/** A ladder, up or down. */
bool ucr_stair_is_ladder(ucr_stair stair);
/** The same way seen from its other end (stairs down are stairs up from
 *  below); UCR_STAIR_NONE stays none. */
ucr_stair ucr_stair_opposite(ucr_stair stair);

/** The parts of @node: for every vertex (areas first), a representative
 *  vertex that it shares with every vertex joined to it by passages that are
 *  not collapsed (secret doors count: they are there to be found).  The
 *  caller frees the array (vertices->len entries, at least one). */
int *ucr_node_parts(const ucr_node *node);

/** Splits passage @k of @node at its cell @j (0 < @j < length - 1), where
 *  area @junction (already added, a junction on that square) now stands
 *  between the two halves: passage @k keeps cells 0 … @j-1 and ends at
 *  @junction; a new passage (its index returned) runs from @junction over
 *  cells @j+1 … to the old far end.  The steps and crossings beyond the
 *  split, the crossings of other passages over the second half and a door
 *  at the far end go with the second half; each half's kind says whether
 *  it passes a door.  The caller keeps its own canvas, if any. */
int ucr_node_split_passage(ucr_node *node, int k, int j, int junction);

/** Removes vertex @v of @node (not an area's: @v >= areas->len); the
 *  passage ends after it move down one. */
void ucr_node_remove_vertex(ucr_node *node, int v);

/** Whether passage @p of @node ends in a dead end reached square on (not by
 *  a diagonal step); then its last square *@end and the heading @dx, @dy
 *  there. */
bool ucr_passage_dead_end(const ucr_node *node, const ucr_passage *p, ucr_point *end, int *dx, int *dy);

/** Index of the node with @id, or -1. */
int ucr_megadungeon_find_node(const ucr_megadungeon *md, const char *id);

#endif
