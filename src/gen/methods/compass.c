/* undercroft — the compass node method (seed 001 variant); the readings are
 * in method_compass.h. */
#include "gen/methods/compass.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gen/kit/attach.h"
#include "gen/kit/embed.h"
#include "gen/kit/preconnect.h"
#include "model/honour_rule.h"
#include "gen/kit/search_inline.h"

enum { TURN_COST = 3, NO_LAP = 99, MAX_AREAS = 512, EDGE = 2 };

/* Fewer rooms than this is no sublevel (issue 22): the GM adds exits, at
 * most GM_TRIES of them. */
enum { MIN_ROOMS = 4, GM_TRIES = 16 };

/* The map at a node size (--node-size): room 9 in the middle (cx, cy), the
 * eight direction rooms on a ring around it (ring_* squares from its
 * centre) and the outer ring (out_*) at the edge; the collar of rock round
 * room 9 (collar_class); how far an outer room is looked for from its place;
 * the least room 9 and a direction room may be (one more for a direction
 * room with --drop-dice); beyond how many squares from room 9's centre a
 * corridor going round it costs more (it keeps inside the ring of direction
 * rooms rather than fencing them in).
 *  - standard: 39 × 45 squares, within UCR_STANDARD_W × UCR_STANDARD_H
 *    (an A4 page at 4 mm a square, an A5 spread at 3.5 mm);
 *  - pocket: 36 × 26 (UCR_POCKET_W × UCR_POCKET_H), the same lattice
 *    drawn closer, with a collar of two, room 9 at least 4 × 4 and a
 *    direction room 3 × 3 (an outer room mostly finds no place between the
 *    ring and the edge: its corridor leads to the nearest room that way, as
 *    the seed's "or in that general direction" allows);
 *  - large: 82 × 73, the first standard map's (55 × 49) half again. */
typedef struct {
    int w, h, cx, cy, ring_x, ring_y, out_x, out_y;
    int collar, outer_reach, hub_least, dir_least, lap_band;
} compass_geom;

static const compass_geom GEOMS[] = {
    [UCR_NODE_STANDARD] = { 39, 45, 19, 22, 9, 10, 16, 19, 3, 16, 5, 4, 7 },
    [UCR_NODE_POCKET] = { 36, 26, 17, 12, 9, 7, 15, 10, 2, 8, 4, 3, 5 },
    [UCR_NODE_LARGE] = { 82, 73, 41, 36, 19, 18, 33, 30, 3, 18, 5, 4, 14 },
};

/* A square held as rock while the node is drawn (the band along the map's
 * edge, a door's mouth kept clear): routes go round it.  Released, it is
 * empty again, unless something has been drawn on it since. */
enum { HELD = INT_MIN };

static void square_release(ucr_canvas *cv, ucr_point p)
{
    if (ucr_canvas_owner(cv, p) == HELD)
        ucr_canvas_set(cv, p, UCR_CANVAS_EMPTY);
}

static const char *DIR8_NAME[9] = { "", "north", "north-east", "east", "south-east",
                                    "south", "south-west", "west", "north-west" };

/* ---- the tables (templates/tables/compass-*.txt) ---------------------- */

ucr_compass_dest ucr_compass_destination(const char *kind)
{
    ucr_compass_dest d = { UCR_COMPASS_TO_DEAD_END, 0, 0, 0 };
    if (g_strcmp0(kind, "start") == 0) {
        d.kind = UCR_COMPASS_TO_START;          /* "9: back to the starting room" */
        return d;
    }
    for (int i = 1; i <= 8; i++)
        if (g_strcmp0(kind, DIR8_NAME[i]) == 0) {
            d.kind = UCR_COMPASS_TO_DIRECTION;  /* "rooms 1 through 8 represent directions" */
            d.dir = i;
            d.dx = UCR_DIR8_DX[i];
            d.dy = UCR_DIR8_DY[i];
        }
    return d;                                   /* "0: the door goes nowhere" */
}

ucr_compass_door ucr_compass_door_kind(const char *kind)
{
    static const char *const WALLS[4] = { "north", "east", "south", "west" };
    ucr_compass_door d = { UCR_COMPASS_DOOR_NONE, UCR_NORTH };
    for (int i = 0; i < 4; i++)
        if (g_strcmp0(kind, WALLS[i]) == 0) {
            d.kind = UCR_COMPASS_DOOR_WALL;     /* 1 north, 2 east, 3 south, 4 west wall */
            d.wall = (ucr_dir)i;
        }
    if (g_strcmp0(kind, "ladder") == 0)
        d.kind = UCR_COMPASS_DOOR_LADDER;       /* "5: ladder up/down, centre of room" */
    else if (g_strcmp0(kind, "stairs") == 0)
        d.kind = UCR_COMPASS_DOOR_STAIRS;       /* "6: stairs up/down, centre of room" */
    return d;                                   /* "7+ meaning no door" */
}

int ucr_compass_dead_end_length(const char *kind)
{
    /* "a d6 for tunnel length (in squares,) treating a 6 as a length of 0":
     * the row's kind is the length. */
    if (!kind || !g_str_has_prefix(kind, "length-"))
        return 0;
    const char *n = kind + 7;
    return n[0] >= '0' && n[0] <= '9' && !n[1] ? n[0] - '0' : 0;
}

bool ucr_compass_route_rolls(int cw_steps, bool variety)
{
    return variety || cw_steps == 4;
}

ucr_compass_way ucr_compass_route_way(int cw_steps, bool variety, bool heads, int d6)
{
    if (!variety) {
        /* The corridor goes round room 9 the short way; straight behind
         * there are two: "Flip a coin, or roll a d6: tails or odd numbers
         * means use the left-hand path, heads or even numbers means use the
         * right hand path." */
        if (cw_steps == 0)
            return UCR_COMPASS_STRAIGHT;
        if (cw_steps == 4)
            return heads ? UCR_COMPASS_RIGHT : UCR_COMPASS_LEFT;
        return cw_steps < 4 ? UCR_COMPASS_RIGHT : UCR_COMPASS_LEFT;
    }
    /* "If you would like more variety, you can use the coin toss ... every
     * time you have a choice between a red path and a blue path ... In cases
     * where there are three choices (red, white and blue,) any result of 5+
     * on 1d6 means use the white path, or go straight." */
    if (cw_steps == 0 && d6 >= 5)
        return UCR_COMPASS_STRAIGHT;
    return heads ? UCR_COMPASS_RIGHT : UCR_COMPASS_LEFT;
}

/* ---- the plan --------------------------------------------------------- */

typedef struct {
    ucr_node *node;         /* drawn in roll, handed over by embed */
    GPtrArray *steps;       /* ucr_step*: the ladders and stairs that leave */
    GArray *step_area;      /* int: the landing of each step */
    ucr_pc *pc;             /* the node's pre-connecting canvas, for embed */
} compass_plan;

/* --drop-dice: one dropped die, where it landed and where its door is. */
typedef struct {
    ucr_dir side;               /* the d4: the wall it landed by */
    int pos;                    /* the spot along that wall */
    ucr_dir wall;               /* the door's wall (facing where it leads) */
    int at;                     /* the door's spot along it */
    const char *kind;           /* its face's row on compass-direction */
    GString *face;              /* what the face roll wrote */
    bool reserved;              /* the door's mouth is kept free (off the map) … */
    ucr_point mouth;            /* … at this square */
    bool beyond_held;           /* … and the square beyond it (a way out of the mouth) */
    ucr_point beyond;
} drop_die;

/* --drop-dice: the 2d3 of a room and the dice it dropped. */
typedef struct drop_plan {
    int d1, d2, n;
    drop_die die[6];
} drop_plan;

typedef struct {
    compass_plan *plan;
    ucr_node *node;
    ucr_pc *pc;                 /* the pre-connecting canvas: routes that cross (seed 000) */
    ucr_canvas *cv;             /* pc->cv */
    ucr_prng *rng;
    const ucr_tables *tables;
    const ucr_table *t_dir, *t_check, *t_second, *t_dead;
    const ucr_table *t_unmapped, *t_lexi, *t_obstacle; /* the junction tables */
    bool drop_dice;
    bool four_dice;             /* --drop-count 4: four d10s, not 2d3 */
    ucr_stair centre_stair; /* the ladder or stairs of a way back in the middle of room 9, or none */
    bool variety;               /* red/blue coin at every choice round room 9 */
    int slot[5][5];             /* area index of the room at lattice (dx+2, dy+2), or -1 */
    int sx[MAX_AREAS], sy[MAX_AREAS]; /* lattice place of each room area; 99 for others */
    GString *rolled[MAX_AREAS];
    char *label[MAX_AREAS];
    int exit_landing[MAX_AREAS]; /* per room: the landing of its ladders and stairs out + 1, or 0 */
    struct drop_plan *drops[MAX_AREAS]; /* --drop-dice: each direction room's dice, rolled when it is made */
    int gm_misses;              /* the GM's exits that added no room */
    int gm_stubs;               /* the GM's side passages that found no room */
    bool gm_crossing;           /* area_beyond's corridor may cross what is in its way */
    int gm_band;                /* … and its room may lie beside the band at the map's edge (1), or in
                                 * its inner row (2) */
    bool table_room;            /* area_beyond places a junction table's room or junction: also
                                 * a square off and smaller, down to 2 × 2 (PLACE_TABLE) */
    struct drop_plan *expanding; /* --drop-dice: the dice of the room whose doors are being drawn */
    ucr_point kept[MAX_AREAS][4];  /* per room and wall: a mouth kept free for corridors to come in … */
    bool keeping[MAX_AREAS][4];    /* … while this is set */
    int hub;
    double lap_cx, lap_cy;
    double *angles;             /* angle_of every square, once the centre is known */
    struct lap_squares *lap;    /* the lap router's squares, kept from route to route */
    const compass_geom *g;      /* the node size's map */
} builder;

static void note(builder *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void note(builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_ptr_array_add(b->node->rolls, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

static const ucr_area *area_at(const builder *b, int i)
{
    return &g_array_index(b->node->areas, ucr_area, i);
}

/* Rolls on @t, writing "name NdM=F" to @rec (a d10's 10 is its 0, as the
 * seed prints it); returns the row's [kind]. */
static const char *table_roll(builder *b, const ucr_table *t, GString *rec)
{
    int total = 0;
    const ucr_table_row *row = ucr_table_roll(t, b->rng, &total);
    g_string_append_printf(rec, "%s %dd%d=%d", t->name, t->count, t->sides, ucr_pc_face(t, total));
    return row->tag;
}

/* ---- squares and routes ------------------------------------------------ */

/* True if @p is beside a square of @area that a corridor runs under or over
 * (gen/kit/preconnect.h): a door there would open into the crossing. */
static bool beside_crossing(const builder *b, ucr_point p, int area)
{
    for (int d = 0; d < 4; d++) {
        ucr_point q = ucr_point_step(p, (ucr_dir)d);
        if (ucr_canvas_inside(b->cv, q) && ucr_canvas_owner(b->cv, q) == area && b->pc &&
            ucr_canvas_busy(b->cv, q))
            return true;
    }
    return false;
}

/* The angle of a square's centre around the winding centre, clockwise from
 * north, in [0, 2π). */
static double angle_of(const builder *b, ucr_point p)
{
    double a = atan2(p.x + 0.5 - b->lap_cx, -(p.y + 0.5 - b->lap_cy));
    return a < 0 ? a + 2 * G_PI : a;
}

typedef struct {
    int goal_area;          /* the corridor ends on a wall of this area */
    unsigned goal_walls;    /* bit per ucr_dir allowed for the last square */
    int want_lap;           /* NO_LAP, or how often it crosses the reference ray */
    ucr_point avoid;        /* for loops back to the same room: the start mouth */
    bool use_avoid;
    int goal_edge;          /* ucr_dir: end at that map edge instead (goal_area -1) */
    ucr_area rect;          /* the goal area's rectangle (it may not be an area yet:
                             * goal_area UCR_CANVAS_TENTATIVE) */
} route_goal;

static bool on_edge(const ucr_canvas *cv, ucr_point p, int side)
{
    switch (side) {
    case UCR_NORTH: return p.y == 0;
    case UCR_SOUTH: return p.y == ucr_canvas_height(cv) - 1;
    case UCR_WEST: return p.x == 0;
    case UCR_EAST: return p.x == ucr_canvas_width(cv) - 1;
    }
    return false;
}

/* Room 9 keeps a collar of @collar squares of rock where corridors only run
 * straight in or out of it, so that a corridor going round it never walls
 * up its other doors: the spokes of the hub.  Per square, which moves may
 * enter or leave it: COLLAR_ANY beyond the collar, none at its corners,
 * north-south only above and below the room, east-west only beside it (and
 * on the room's own squares). */
enum { COLLAR_ANY, COLLAR_NONE, COLLAR_VERTICAL, COLLAR_HORIZONTAL };

static guint8 collar_class(const ucr_area *hub, int collar, ucr_point p)
{
    int dx = p.x < hub->x ? hub->x - p.x : p.x >= hub->x + hub->w ? p.x - (hub->x + hub->w - 1) : 0;
    int dy = p.y < hub->y ? hub->y - p.y : p.y >= hub->y + hub->h ? p.y - (hub->y + hub->h - 1) : 0;
    if (MAX(dx, dy) > collar)
        return COLLAR_ANY;
    if (dx > 0 && dy > 0)
        return COLLAR_NONE;
    return dy > 0 ? COLLAR_VERTICAL : COLLAR_HORIZONTAL;
}

static bool collar_allows(guint8 cls, int d)
{
    bool vertical = d == UCR_NORTH || d == UCR_SOUTH;
    return cls == COLLAR_ANY || (cls == COLLAR_VERTICAL && vertical) || (cls == COLLAR_HORIZONTAL && !vertical);
}

/* The lap router's squares, made on the first route of a node and kept:
 * the rules read them (the search's own arrays are the canvas's). */
typedef struct lap_squares {
    double *rel;                /* per square: angle from this route's reference ray */
    guint8 *occ, *near, *free_sq; /* per square */
    guint8 *collar;             /* per square: collar_class (room 9 does not move) */
} lap_squares;

static lap_squares *lap_squares_get(builder *b)
{
    if (b->lap)
        return b->lap;
    int W = ucr_canvas_width(b->cv), cells = W * ucr_canvas_height(b->cv);
    lap_squares *s = g_new0(lap_squares, 1);
    s->rel = g_new(double, cells);
    s->occ = g_new(guint8, cells);
    s->near = g_new(guint8, cells);
    s->free_sq = g_new(guint8, cells);
    s->collar = g_new(guint8, cells);
    const ucr_area *hub = area_at(b, b->hub);
    for (int i = 0; i < cells; i++)
        s->collar[i] = collar_class(hub, b->g->collar, (ucr_point){ i % W, i / W });
    b->lap = s;
    return s;
}

static void lap_squares_free(lap_squares *s)
{
    if (!s)
        return;
    g_free(s->rel);
    g_free(s->occ);
    g_free(s->near);
    g_free(s->free_sq);
    g_free(s->collar);
    g_free(s);
}

/* Each square's angle from the reference ray through @start, and which
 * squares a corridor may cross: computed once per search.  (square_ok with
 * no anchor: rock, and rock all round: the occupied squares grown by one, a
 * row pass then a column pass.) */
static void lap_squares_prepare(builder *b, lap_squares *s, ucr_point start, const route_goal *g)
{
    int W = ucr_canvas_width(b->cv), H = ucr_canvas_height(b->cv), cells = W * H;
    double ref = angle_of(b, start) - 0.25;
    if (!b->angles) {
        b->angles = g_new(double, cells);
        for (int i = 0; i < cells; i++)
            b->angles[i] = angle_of(b, (ucr_point){ i % W, i / W });
    }
    for (int i = 0; i < cells; i++) {
        double a = b->angles[i] - ref;
        while (a < 0)
            a += 2 * G_PI;
        while (a >= 2 * G_PI)
            a -= 2 * G_PI;
        s->rel[i] = a;
    }
    guint8 *occ = s->occ, *near = s->near;
    for (int i = 0; i < cells; i++)
        occ[i] = b->cv->owner[i] != UCR_CANVAS_EMPTY;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            near[i] = occ[i] | (x > 0 && occ[i - 1]) | (x + 1 < W && occ[i + 1]);
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            bool ok = !(near[i] | (y > 0 && near[i - W]) | (y + 1 < H && near[i + W]));
            /* A band of rock along the map edge stays free for the
             * superstructure tunnels that join the node there. */
            bool band_n = y < 2, band_s = y >= H - 2, band_w = x < 2, band_e = x >= W - 2;
            if (g->goal_area >= 0 ? (band_n || band_s || band_w || band_e)
                                  : ((band_n && g->goal_edge != UCR_NORTH) || (band_s && g->goal_edge != UCR_SOUTH) ||
                                     (band_w && g->goal_edge != UCR_WEST) || (band_e && g->goal_edge != UCR_EAST)))
                ok = false;
            s->free_sq[i] = ok;
        }
}

/* The rules of route_from (extra state: the lap + 1). */
typedef struct {
    builder *b;
    const route_goal *g;
    const ucr_area *ga;         /* the goal rectangle, or one far off the map */
    ucr_point start;
    const lap_squares *sq;
} lap_route;

/* The goal: the map edge asked for, or a mouth on an allowed wall of the
 * goal area; any other mouth of the goal ends the corridor. */
static ucr_search_visit lap_visit(void *data, ucr_search *s, const ucr_search_at *at)
{
    (void)s;
    const lap_route *r = data;
    const route_goal *g = r->g;
    ucr_point p = at->p;
    if (ucr_point_eq(p, r->start))
        return UCR_VISIT_GO;
    if (g->goal_area < 0 && on_edge(r->b->cv, p, g->goal_edge))
        return UCR_VISIT_GOAL;
    if (!ucr_area_touches(r->ga, p))
        return UCR_VISIT_GO;
    int lap = at->extra - 1;
    if ((g->goal_walls >> ucr_area_wall_of(r->ga, p) & 1u) && (g->want_lap == NO_LAP || g->want_lap == lap) &&
        !(g->use_avoid && abs(p.x - g->avoid.x) <= 2 && abs(p.y - g->avoid.y) <= 2) &&
        ucr_canvas_square_ok(r->b->cv, p, g->goal_area) && !beside_crossing(r->b, p, g->goal_area))
        return UCR_VISIT_GOAL;
    return UCR_VISIT_STOP;
}

static bool lap_step(void *data, ucr_search *s, const ucr_search_at *at, ucr_dir d, ucr_search_move *mv)
{
    const lap_route *r = data;
    const route_goal *g = r->g;
    ucr_point p = at->p, q = ucr_point_step(p, d);
    if (!ucr_canvas_inside(r->b->cv, q))
        return false;
    int W = ucr_canvas_width(r->b->cv), cell = p.y * W + p.x, qi = q.y * W + q.x;
    if (!r->sq->free_sq[qi] &&
        !(g->goal_area >= 0 && ucr_area_touches(r->ga, q) && ucr_canvas_square_ok(r->b->cv, q, g->goal_area)))
        return false;
    if (!collar_allows(r->sq->collar[cell], d) || !collar_allows(r->sq->collar[qi], d))
        return false;
    int nl = at->extra - 1;
    double ra = r->sq->rel[cell], rb = r->sq->rel[qi];
    if (ra > 1.5 * G_PI && rb < 0.5 * G_PI)
        nl++;
    else if (ra < 0.5 * G_PI && rb > 1.5 * G_PI)
        nl--;
    if (nl < -1 || nl > 1)
        return false;
    mv->cost = 1 + (d != at->head && !ucr_point_eq(p, r->start) ? TURN_COST : 0);
    /* Corridors round room 9 keep inside the ring of direction rooms rather
     * than fencing them in. */
    if (g->want_lap != NO_LAP && MAX(abs(q.x - (int)r->b->lap_cx), abs(q.y - (int)r->b->lap_cy)) > r->b->g->lap_band)
        mv->cost += 2;
    mv->to = ucr_search_state(s, q, d, nl + 1);
    return true;
}

/* Dijkstra over (square, heading, lap) from @start: steps cost 1, turns
 * TURN_COST more.  The lap counts crossings of the ray from the winding
 * centre just anticlockwise of @start (+1 clockwise, −1 anticlockwise), so
 * that a goal can ask for the left- or right-hand way round room 9 (seed
 * 001: the red and blue paths).  Returns the squares, or NULL. */
static GArray *route_from(builder *b, ucr_point start, int start_area, const route_goal *g)
{
    if (!ucr_canvas_square_ok(b->cv, start, start_area))
        return NULL;
    lap_squares *sq = lap_squares_get(b);
    lap_squares_prepare(b, sq, start, g);
    ucr_area none = { 0 };
    none.x = none.y = -100;
    lap_route r = { b, g, g->goal_area >= 0 ? &g->rect : &none, start, sq };
    ucr_search_rules rules = { .queue = UCR_SEARCH_BUCKETS, .extra = 3, .data = &r, .visit = lap_visit,
                               .step = lap_step };
    ucr_search *s = ucr_canvas_search(b->cv);
    ucr_search_begin(s, &rules);
    for (int h = 0; h < 4; h++)
        ucr_search_start(s, &(ucr_search_move){ .to = ucr_search_state(s, start, (ucr_dir)h, 1) });
    int goal = ucr_search_run_inline(s, &rules);
    return goal >= 0 ? ucr_search_path(s, goal) : NULL;
}

/* The positions along @side of @a, starting at @hint and moving outwards
 * from it (the middle of the wall when @hint < 0). */
static int wall_order(const ucr_area *a, ucr_dir side, int hint, int *out)
{
    int wl = ucr_area_wall_length(a, side), n = 0;
    int h = hint >= 0 && hint < wl ? hint : (wl - 1) / 2;
    for (int dt = 0; dt < wl; dt++)
        for (int sgn = 0; sgn < 2; sgn++) {
            if (sgn && !dt)
                continue;
            int k = h + (sgn ? -dt : dt);
            if (k >= 0 && k < wl)
                out[n++] = k;
        }
    return n;
}

/* True if the route passes a square twice or runs beside itself (a lap
 * around room 9 may): a corridor that touches itself reads as two, and a
 * junction on it could split it into two that touch. */
static bool path_repeats(const GArray *p)
{
    for (guint i = 0; i < p->len; i++)
        for (guint j = i + 2; j < p->len; j++) {
            ucr_point a = g_array_index(p, ucr_point, i), c = g_array_index(p, ucr_point, j);
            if (abs(a.x - c.x) + abs(a.y - c.y) <= 1)
                return true;
        }
    return false;
}

/* Routes from a door on wall @side of area @from (positions from @hint). */
static GArray *route(builder *b, int from, ucr_dir side, int hint, route_goal *g)
{
    const ucr_area *a = area_at(b, from);
    int order[64];
    int n = wall_order(a, side, hint, order), searched = 0;
    for (int i = 0; i < n && searched < 2; i++) {
        ucr_point m = ucr_area_mouth(a, side, order[i]);
        if (!ucr_canvas_square_ok(b->cv, m, from) || beside_crossing(b, m, from))
            continue;
        /* Two mouths of a wall that both find no way: the wall is walled
         * off, the other mouths will not do better. */
        searched++;
        g->avoid = m;
        GArray *p = route_from(b, m, from, g);
        if (p && !path_repeats(p))
            return p;
        if (p)
            g_array_free(p, TRUE);
    }
    return NULL;
}

static void note_moved(GString *rec, ucr_dir side, ucr_dir used)
{
    if (used != side)
        g_string_append_printf(rec, " (the %s wall is full: the door is in the %s wall)", ucr_dir_name(side),
                               ucr_dir_name(used));
}

/* ---- rooms ------------------------------------------------------------- */

static int lattice_x(const builder *b, int sx)
{
    int r = abs(sx) == 2 ? b->g->out_x : b->g->ring_x;
    return b->g->cx + r * (sx > 0) - r * (sx < 0);
}

static int lattice_y(const builder *b, int sy)
{
    int r = abs(sy) == 2 ? b->g->out_y : b->g->ring_y;
    return b->g->cy + r * (sy > 0) - r * (sy < 0);
}

/* The seed's names: room 9 is the start, rooms 1-8 the directions around it
 * (1 north, clockwise); the outer ring has no number in the seed. */
static char *slot_label(int sx, int sy)
{
    if (!sx && !sy)
        return g_strdup("the starting room (room 9)");
    int ux = sx > 0 ? 1 : sx < 0 ? -1 : 0, uy = sy > 0 ? 1 : sy < 0 ? -1 : 0;
    int d = 1;
    while (d < 8 && !(UCR_DIR8_DX[d] == ux && UCR_DIR8_DY[d] == uy))
        d++;
    if (abs(sx) <= 1 && abs(sy) <= 1)
        return g_strdup_printf("the room to the %s (room %d)", DIR8_NAME[d], d);
    if (abs(sx) == abs(sy) || !sx || !sy)
        return g_strdup_printf("the outer room to the %s", DIR8_NAME[d]);
    /* Between a direction and a diagonal: the compass's sixteen winds
     * ("east-north-east"), so that every room has a name of its own. */
    const char *major = abs(sx) > abs(sy) ? (sx > 0 ? "east" : "west") : (sy > 0 ? "south" : "north");
    return g_strdup_printf("the outer room to the %s-%s", major, DIR8_NAME[d]);
}

/* Whether rectangle (x, y, w, h) may hold the room: clear, "in that
 * general direction" @dir from @from (NULL: anywhere), and apart from the
 * @na places in @avoid. */
static bool spot_fits(const builder *b, int x, int y, int w, int h, const ucr_area *from, int dir,
                      const ucr_area *avoid, int na)
{
    int mw = ucr_canvas_width(b->cv), mh = ucr_canvas_height(b->cv);
    if (x < 2 || y < 2 || x + w > mw - 2 || y + h > mh - 2 || !ucr_canvas_clear(b->cv, x, y, w, h, 2))
        return false;
    if (from && (x + w / 2.0 - from->x - from->w / 2.0) * UCR_DIR8_DX[dir] +
                        (y + h / 2.0 - from->y - from->h / 2.0) * UCR_DIR8_DY[dir] < 1)
        return false;
    for (int i = 0; i < na; i++)
        if (x < avoid[i].x + avoid[i].w && avoid[i].x < x + w && y < avoid[i].y + avoid[i].h && avoid[i].y < y + h)
            return false;
    return true;
}

/* The search of room_spot(): rings round the lattice place (sx, sy), the
 * room smaller as it must be, down to @least.  True with the rectangle in
 * @out if one fits. */
static bool spot_search(const builder *b, int sx, int sy, int w, int h, int least, const ucr_area *from, int dir,
                        const ucr_area *avoid, int na, ucr_area *out)
{
    int mw = ucr_canvas_width(b->cv), mh = ucr_canvas_height(b->cv);
    /* The outer ring lies at the edge of the map, where the rooms of the
     * ring and their corridors crowd it: its rooms are looked for farther
     * from their place, from the place moved onto the map as far as the
     * room needs (the dice fall on the table, and the table is the map). */
    bool outer = abs(sx) == 2 || abs(sy) == 2;
    int reach = outer ? b->g->outer_reach : 5;
    for (int shrink = 0; shrink < 5; shrink++) {
        int rw = MAX(least, w - shrink), rh = MAX(least, h - shrink);
        int cx = lattice_x(b, sx), cy = lattice_y(b, sy);
        if (outer) {
            cx = CLAMP(cx, 2 * EDGE + rw / 2, mw - 2 * EDGE - rw + rw / 2);
            cy = CLAMP(cy, 2 * EDGE + rh / 2, mh - 2 * EDGE - rh + rh / 2);
        }
        for (int r = 0; r <= reach; r++)
            for (int oy = -r; oy <= r; oy++)
                for (int ox = -r; ox <= r; ox++) {
                    int x = cx - rw / 2 + ox, y = cy - rh / 2 + oy;
                    if (MAX(abs(ox), abs(oy)) != r || !spot_fits(b, x, y, rw, rh, from, dir, avoid, na))
                        continue;
                    *out = (ucr_area){ .kind = UCR_AREA_ROOM, .x = x, .y = y, .w = rw, .h = rh, .link = -1 };
                    return true;
                }
    }
    return false;
}

static bool route_off_wall(builder *b, int room, ucr_dir w, int hint, ucr_pc_target *t, unsigned walls,
                           ucr_pc_path *path);

/* Whether a corridor from a mouth of wall @side of @room (nearest @hint)
 * has a way to a room at @spot, as the map is now. */
static bool spot_reached(builder *b, int room, ucr_dir side, int hint, const ucr_area *spot)
{
    ucr_pc_target t = { UCR_CANVAS_TENTATIVE, spot->x, spot->y, spot->w, spot->h, false, { 0, 0 } };
    ucr_pc_path path;
    ucr_canvas_fill(b->cv, spot->x, spot->y, spot->w, spot->h, UCR_CANVAS_TENTATIVE);
    bool found = route_off_wall(b, room, side, hint, &t, 0, &path);
    ucr_canvas_fill(b->cv, spot->x, spot->y, spot->w, spot->h, UCR_CANVAS_EMPTY);
    if (found)
        ucr_pc_path_clear(&path);
    return found;
}

/* Where a door's room goes (room_spot()): with --drop-dice, from the
 * wall its die landed by (@side of @room, at @hint; @room -1: anywhere). */
typedef struct {
    int room;
    ucr_dir side;
    int hint;
} spot_door;

/* A place for the room of lattice place (sx, sy): size from the room table,
 * as near its place as the map allows, smaller if it must be, and always
 * "in that general direction" @dir (1..8) from @from (the room whose door
 * leads there; NULL for room 9).  With @door->room >= 0 (--drop-dice) a
 * place that a corridor from the die's wall reaches comes first: the
 * nearest, then up to two more apart from those tried, else the nearest
 * ("the positions of the dice indicating the approximate position of the
 * door"; the room is only "in that general direction").  Stores the
 * rectangle in @out and what was rolled in @rolled (new); false if none. */
static bool room_spot(builder *b, int sx, int sy, const ucr_area *from, int dir, const spot_door *door,
                      ucr_area *out, GString **rolled)
{
    int total = 0, w = 3, h = 3;
    const ucr_table_row *row = ucr_table_roll(b->tables->room_size, b->rng, &total);
    ucr_table_parse_size(row->text, &w, &h);
    /* A direction room rolls four door checks and corridors arrive from
     * every side: at least 4 × 4, so that a wall takes two doors (5 × 5 with
     * --drop-dice, where all four dice are doors); room 9,
     * the hub ("one sample door in each of the four directions", and every
     * 9 comes back to it), at least 5 × 5; the outer ring, at the edge of
     * the map and rolling no doors, 3 × 3. */
    int least = !sx && !sy ? b->g->hub_least : abs(sx) <= 1 && abs(sy) <= 1 ? b->g->dir_least + b->drop_dice : 3;
    int w0 = w, h0 = h;
    w = MAX(w, least);
    h = MAX(h, least);
    if (!spot_search(b, sx, sy, w, h, least, from, dir, NULL, 0, out))
        return false;
    ucr_area tried[3] = { *out }, alt;
    for (int n = 1; door && door->room >= 0 && !spot_reached(b, door->room, door->side, door->hint, &tried[n - 1]);
         n++) {
        if (n == 3 || !spot_search(b, sx, sy, w, h, least, from, dir, tried, n, &alt))
            break;
        tried[n] = alt;
        *out = alt;
    }
    if (door && door->room >= 0 && !spot_reached(b, door->room, door->side, door->hint, out))
        *out = tried[0];
    char *label = slot_label(sx, sy);
    *rolled = g_string_new(NULL);
    g_string_append_printf(*rolled, "%s; size %dd%d=%d: %s", label, b->tables->room_size->count,
                           b->tables->room_size->sides, total, row->text);
    if (out->w != w0 || out->h != h0)
        g_string_append_printf(*rolled, " (drawn %dx%d)", out->w, out->h);
    g_free(label);
    return true;
}

static void drop_plan_roll(builder *b, int room);

/* With --drop-dice (2 to 6 doors a room, which crowd the map), every wall
 * of a room keeps one mouth free (marked off the map) while other
 * corridors are drawn, so that no corridor running along the wall takes
 * them all (a corridor beside a wall leaves no square in front of it for
 * a door): whatever comes to the room later finds a way in, and the
 * room's own doors a way out.  Released while a corridor leaves or comes
 * to the room (walls_open), kept again afterwards at a mouth still free
 * (walls_keep).  Without the option it changes nothing but the cost:
 * routes round the kept mouths search farther. */
static void walls_keep(builder *b, int room)
{
    if (!b->drop_dice || room < 0 || room >= MAX_AREAS || !b->label[room])
        return;
    const ucr_area *a = area_at(b, room);
    for (int w = 0; w < 4; w++) {
        ucr_point m;
        if (b->keeping[room][w] || !ucr_pc_mouth(b->pc, room, (ucr_dir)w, (ucr_area_wall_length(a, (ucr_dir)w) - 1) / 2, &m))
            continue;
        ucr_canvas_set(b->cv, m, HELD);
        b->kept[room][w] = m;
        b->keeping[room][w] = true;
    }
}

static void walls_open(builder *b, int room)
{
    if (room < 0 || room >= MAX_AREAS)
        return;
    for (int w = 0; w < 4; w++) {
        if (b->keeping[room][w])
            square_release(b->cv, b->kept[room][w]);
        b->keeping[room][w] = false;
    }
}

/* All rooms' kept mouths released (@open) or kept again. */
static void walls_all(builder *b, bool open)
{
    for (guint i = 0; i < b->node->areas->len && i < MAX_AREAS; i++)
        if (open)
            walls_open(b, (int)i);
        else
            walls_keep(b, (int)i);
}

/* Records that area @idx is the room of lattice place (sx, sy).  With
 * --drop-dice a room that will roll doors drops its dice now, so that the
 * mouths of its doors are kept free from the moment it is on the map. */
static void room_register(builder *b, int idx, int sx, int sy, GString *rolled)
{
    g_assert(idx < MAX_AREAS);
    b->sx[idx] = sx;
    b->sy[idx] = sy;
    b->slot[sx + 2][sy + 2] = idx;
    b->label[idx] = slot_label(sx, sy);
    b->rolled[idx] = rolled;
    if (b->drop_dice && abs(sx) <= 1 && abs(sy) <= 1)
        drop_plan_roll(b, idx);
    walls_keep(b, idx);
}

/* A landing for stairs or a ladder that leave the node, joined to @room by
 * a short straight passage (2-5 squares). */
static int landing_place(builder *b, int room, ucr_stair stair)
{
    const ucr_area a = *area_at(b, room);
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    int d0 = ucr_dice_d(b->rng, 4) - 1;
    for (int len = 2; len <= 5; len++)
        for (int dd = 0; dd < 4; dd++) {
            ucr_dir side = (ucr_dir)((d0 + dd) % 4);
            int order[64];
            int n = wall_order(&a, side, -1, order);
            for (int i = 0; i < n; i++) {
                g_array_set_size(cells, 0);
                ucr_point p = ucr_area_mouth(&a, side, order[i]);
                bool ok = true;
                for (int k = 0; k < len && ok; k++) {
                    ok = ucr_canvas_square_ok(b->cv, p, k == 0 ? room : UCR_CANVAS_EMPTY) && !(k == 0 && beside_crossing(b, p, room));
                    g_array_append_val(cells, p);
                    p = ucr_point_step(p, side);
                }
                if (!ok || !ucr_canvas_inside(b->cv, p) || !ucr_canvas_clear(b->cv, p.x, p.y, 1, 1, 1))
                    continue;
                ucr_area land = ucr_area_make(UCR_AREA_STAIRS, p.x, p.y, 1, 1);
                land.stair = stair;
                int li = ucr_node_add_area(b->node, b->cv, &land);
                if (li < MAX_AREAS)
                    b->sx[li] = b->sy[li] = 99;
                ucr_node_add_passage(b->node, b->cv, cells, room, li, UCR_EDGE_OPEN);
                return li;
            }
        }
    g_array_free(cells, TRUE);
    return -1;
}

/* ---- doors --------------------------------------------------------------- */

/* Draws a dead end of @len squares out of wall @side of @room, turning
 * left (@turn < 0) or right after 2 squares.  Returns false if it does not
 * fit anywhere on that wall. */
static bool dead_end_draw(builder *b, int room, ucr_dir side, int hint, int len, int turn)
{
    const ucr_area a = *area_at(b, room);
    int order[64];
    int n = wall_order(&a, side, hint, order);
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int i = 0; i < n; i++) {
        g_array_set_size(cells, 0);
        ucr_point p = ucr_area_mouth(&a, side, order[i]);
        ucr_dir d = side;
        bool ok = true;
        for (int k = 0; k < len && ok; k++) {
            if (k == 2 && turn)
                d = (ucr_dir)((d + (turn < 0 ? 3 : 1)) % 4);
            if (k > 0)
                p = ucr_point_step(p, d);
            ok = ucr_canvas_square_ok(b->cv, p, k == 0 ? room : UCR_CANVAS_EMPTY) && !(k == 0 && beside_crossing(b, p, room));
            g_array_append_val(cells, p);
        }
        if (!ok)
            continue;
        ucr_point end = g_array_index(cells, ucr_point, cells->len - 1);
        /* A dead end stays as rolled: no later corridor crosses it or
         * joins it (gen/kit/preconnect.h keeps off busy squares). */
        for (guint c = 0; c < cells->len; c++) {
            ucr_point q = g_array_index(cells, ucr_point, c);
            ucr_canvas_busy_set(b->cv, q, true);
        }
        int v = ucr_node_add_vertex(b->node, UCR_VERTEX_DEAD_END, end);
        int pi = ucr_node_add_passage(b->node, b->cv, cells, room, v, UCR_EDGE_OPEN);
        ucr_node_add_door(b->node, room, pi, UCR_DOOR_PLAIN);
        return true;
    }
    g_array_free(cells, TRUE);
    return false;
}

/* The door at the last square of passage @pi, on @area (the second door of
 * a corridor that comes back to its own room). */
static void door_at_end(builder *b, int area, int pi)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, pi);
    ucr_point cell = g_array_index(p->cells, ucr_point, p->cells->len - 1);
    ucr_door d = { UCR_DOOR_PLAIN, area, pi, cell, ucr_area_wall_of(area_at(b, area), cell) };
    g_array_append_val(b->node->doors, d);
}

/* A corridor that found no way at all (nothing left to cross into): what
 * it got to, 2 squares, as a dead end. */
static void blocked_fallback(builder *b, int room, ucr_dir side, int hint, GString *rec)
{
    for (int len = 2; len >= 1; len--)
        for (int k = 0; k < 4; k++)
            if (dead_end_draw(b, room, (ucr_dir)((side + k) % 4), k ? -1 : hint, len, 0)) {
                g_string_append_printf(rec, " — no way on the map: drawn as a dead end of %d square%s", len,
                                       len == 1 ? "" : "s");
                return;
            }
    g_string_append(rec, " — no way on the map, no room even for a dead end: a false door");
}

/* Where a corridor is going. */
typedef struct {
    int owner;              /* an area's index, or UCR_CANVAS_TENTATIVE: a new room */
    ucr_area rect;          /* its rectangle */
    unsigned walls;         /* bit per ucr_dir of the walls it may end on; 0 any */
    int want_lap;           /* round room 9: NO_LAP, or the lap the path must make */
    ucr_pc_pending *pending;
} corridor_goal;

/* Ends @path (routed from @room's mouth on wall @w, moved from @side) at a
 * new junction in corridor @q at its cell @cell, and connects it: "If
 * there is a room or corridor already in that location, the new corridor
 * connects with it" (seed 001, SubMethod II).  @why closes the record.
 * A corridor that cannot be split there: @path is cleared, *@ok false. */
static ucr_pc_end join_corridor_at(builder *b, ucr_pc_path *path, int room, ucr_dir side, ucr_dir w, int q,
                                   int cell, const char *why, GString *rec, bool *ok)
{
    ucr_pc_end none = { -1, -1, -1, false };
    int jn = ucr_pc_split(b->pc, q, cell, false, g_strdup("where a corridor joins another"));
    *ok = jn >= 0;
    if (!*ok) {
        ucr_pc_path_clear(path);
        return none;
    }
    const ucr_area *ja = area_at(b, jn);
    ucr_pc_target tj = { jn, ja->x, ja->y, 1, 1, false, { 0, 0 } };
    note_moved(rec, side, w);
    g_string_append(rec, why);
    return ucr_pc_connect(b->pc, path, room, UCR_DOOR_PLAIN, &tj, NULL, rec);
}

/* When no corridor reaches room @to's walls (they are full, or walled in),
 * the corridor joins one that leads to it, at a new junction: "If there is
 * a room or corridor already in that location, the new corridor connects
 * with it" (seed 001, SubMethod II, which this variant builds on). */
static ucr_pc_end join_its_corridor_walls(builder *b, int room, ucr_dir side, int hint, int to, GString *rec,
                                          int walls)
{
    static const int turn[4] = { 0, 1, 3, 2 };
    ucr_node *node = b->node;
    ucr_pc_end none = { -1, -1, -1, false };
    int routes = 0;
    for (int k = 0; k < walls && routes < 12; k++) {
        ucr_dir w = (ucr_dir)((side + turn[k]) % 4);
        int wl = ucr_area_wall_length(area_at(b, room), w);
        ucr_point m;
        if (!ucr_pc_mouth(b->pc, room, w, k == 0 && hint >= 0 ? hint : (wl - 1) / 2, &m))
            continue;
        int failed = 0;   /* a mouth that reaches no corridor twice is walled in */
        for (guint q = 0; q < node->passages->len && routes < 12 && failed < 2; q++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, q);
            if ((p->a != to && p->b != to) || p->a == room || p->b == room || p->kind == UCR_EDGE_BLOCKED)
                continue;
            for (int j = 2; j + 1 < (int)p->cells->len && j <= 6 && routes < 12 && failed < 2; j += 2) {
                int jj = p->a == to ? j : (int)p->cells->len - 1 - j;
                ucr_point c = g_array_index(p->cells, ucr_point, jj);
                ucr_pc_target t = { UCR_ATTACH_PASSAGE + (int)q, c.x, c.y, 1, 1, false, { 0, 0 } };
                ucr_pc_path path;
                routes++;
                if (!ucr_pc_route(b->pc, m, room, &t, true, &path)) {
                    failed++;
                    continue;
                }
                bool ok;
                ucr_pc_end end = join_corridor_at(b, &path, room, side, w, (int)q, jj,
                                                  " (its walls are out of reach: the corridor joins one that leads there)",
                                                  rec, &ok);
                if (ok)
                    return end;
            }
        }
    }
    return none;
}

static ucr_pc_end way_on_draw(builder *b, int room, ucr_dir side, int hint, const ucr_area *goal, GString *rec,
                              int walls);

/* A place a corridor may end at, found by way_on(). */
typedef struct {
    int owner;              /* an area, or UCR_ATTACH_PASSAGE + a passage */
    ucr_point at;           /* the passage's square (for a passage) */
    int score;              /* lower is better */
} way_end;

/* True if passage @k leads somewhere from @room: not only back to @room
 * or to dead ends (joining it would be a dead end too). */
static bool passage_leads_on(const builder *b, int k, int room)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    int ends[2] = { p->a, p->b }, on = 0;
    for (int e = 0; e < 2; e++) {
        const ucr_vertex *v = &g_array_index(b->node->vertices, ucr_vertex, ends[e]);
        on += v->kind == UCR_VERTEX_EXIT || (v->kind == UCR_VERTEX_AREA && ends[e] != room);
    }
    return on > 0 && p->kind != UCR_EDGE_BLOCKED;
}

/* When no route reaches where the dice sent a corridor (the rock round the
 * door is fenced in by corridors it may not cross: their bends, steps,
 * dead ends), it goes as far that way as the map lets it and joins what it
 * meets there: the nearest room, junction or corridor it can reach, nearest
 * to @goal first — "If there is a room or corridor already in that
 * location, the new corridor connects with it" (seed 001, SubMethod II,
 * which this variant builds on).  A breadth-first walk over the free rock
 * from each wall's mouth finds what is in reach; the router then draws the
 * way to the best few.  Appends what it joined to @rec; returns how it
 * ended (passage -1: nothing in reach).  Every wall is open meanwhile
 * (walls_keep): what it joins it joins at its kept mouth too. */
static ucr_pc_end way_on_walls(builder *b, int room, ucr_dir side, int hint, const ucr_area *goal, GString *rec,
                               int walls)
{
    walls_all(b, true);
    ucr_pc_end end = way_on_draw(b, room, side, hint, goal, rec, walls);
    walls_all(b, false);
    walls_open(b, room);   /* the room's own doors are still being drawn */
    return end;
}

static ucr_pc_end way_on(builder *b, int room, ucr_dir side, int hint, const ucr_area *goal, GString *rec)
{
    return way_on_walls(b, room, side, hint, goal, rec, 4);
}

/* How many junctions in a row a corridor may pass on its way to the room
 * it is said to lead to. */
enum { LEAD_HOPS = 2 };

/* The room whose rectangle @goal is (where the dice sent the corridor), or
 * -1 (a place with no room on the map). */
static int goal_room(const builder *b, const ucr_area *goal)
{
    for (guint i = 0; i < b->node->areas->len; i++) {
        const ucr_area *a = area_at(b, (int)i);
        if (a->kind == UCR_AREA_ROOM && a->x == goal->x && a->y == goal->y && a->w == goal->w && a->h == goal->h)
            return (int)i;
    }
    return -1;
}

static bool junction_to(const builder *b, int v, int to, int from, int hops);

/* Whether passage @q leads to room @to: one of its ends, or a junction
 * (up to @hops of them in a row) that another corridor leaves for it. */
static bool passage_to(const builder *b, int q, int to, int hops)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, q);
    if (to < 0 || p->kind == UCR_EDGE_BLOCKED)
        return false;
    if (p->a == to || p->b == to)
        return true;
    return hops > 0 && (junction_to(b, p->a, to, q, hops - 1) || junction_to(b, p->b, to, q, hops - 1));
}

/* Whether area @v is a junction one of whose corridors but @from leads to
 * room @to (passage_to). */
static bool junction_to(const builder *b, int v, int to, int from, int hops)
{
    if (v < 0 || v >= (int)b->node->areas->len || area_at(b, v)->kind != UCR_AREA_JUNCTION)
        return false;
    for (guint q = 0; q < b->node->passages->len; q++) {
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, q);
        if ((int)q != from && (p->a == v || p->b == v) && passage_to(b, (int)q, to, hops))
            return true;
    }
    return false;
}

static ucr_pc_end way_on_draw(builder *b, int room, ucr_dir side, int hint, const ucr_area *goal, GString *rec,
                              int walls)
{
    static const int turn[4] = { 0, 1, 3, 2 };
    int to = goal_room(b, goal);
    enum { TRIES = 4 };
    ucr_pc_end none = { -1, -1, -1, false };
    int W = ucr_canvas_width(b->cv), cells = W * ucr_canvas_height(b->cv);
    int *seen = g_new(int, cells), *queue = g_new(int, cells);
    ucr_pc_end end = none;
    for (int k = 0; k < walls && end.passage < 0; k++) {
        ucr_dir w = (ucr_dir)((side + turn[k]) % 4);
        int wl = ucr_area_wall_length(area_at(b, room), w);
        ucr_point m;
        if (!ucr_pc_mouth(b->pc, room, w, k == 0 && hint >= 0 ? hint : (wl - 1) / 2, &m))
            continue;
        for (int i = 0; i < cells; i++)
            seen[i] = -1;
        int head = 0, tail = 0;
        seen[m.y * W + m.x] = 0;
        queue[tail++] = m.y * W + m.x;
        way_end best[TRIES];
        int nbest = 0;
        while (head < tail) {
            int cur = queue[head++];
            ucr_point s = { cur % W, cur / W };
            for (int d = 0; d < 4 * 5; d++) {
                /* A free square goes on the walk; a square beside it that
                 * is not free (it touches something) may end a corridor
                 * there, at what it touches. */
                ucr_point g = ucr_point_step(s, (ucr_dir)(d / 5));
                if (!ucr_canvas_inside(b->cv, g) || ucr_canvas_owner(b->cv, g) != UCR_CANVAS_EMPTY)
                    continue;
                int gi = g.y * W + g.x;
                if (d % 5 == 0) {
                    if (seen[gi] < 0 && ucr_canvas_square_ok(b->pc->cv, g, UCR_CANVAS_EMPTY)) {
                        seen[gi] = seen[cur] + 1;
                        queue[tail++] = gi;
                    }
                    continue;
                }
                if (seen[gi] >= 0)
                    continue;
                ucr_point c = ucr_point_step(g, (ucr_dir)(d % 5 - 1));
                int o = ucr_canvas_owner(b->cv, c);
                if (o == UCR_CANVAS_EMPTY || o == HELD || o == room || o == UCR_CANVAS_TENTATIVE)
                    continue;
                way_end e = { o, c, 0 };
                if (o >= UCR_ATTACH_PASSAGE) {
                    int q = o - UCR_ATTACH_PASSAGE;
                    if (!passage_leads_on(b, q, room) || !ucr_pc_split_ok(b->pc, q, ucr_pc_cell_index(b->pc, q, c)))
                        continue;
                } else if (!ucr_canvas_square_ok(b->pc->cv, g, o) || beside_crossing(b, g, o)) {
                    continue;
                }
                /* Nearest the destination first, then the shorter way. */
                int gx = c.x < goal->x ? goal->x - c.x : c.x >= goal->x + goal->w ? c.x - goal->x - goal->w + 1 : 0;
                int gy = c.y < goal->y ? goal->y - c.y : c.y >= goal->y + goal->h ? c.y - goal->y - goal->h + 1 : 0;
                e.score = 4 * (gx + gy) + seen[cur];
                /* --drop-dice: the room itself, or a corridor that leads
                 * there, before what lies nearer on the way. */
                if (b->drop_dice && (o == to || junction_to(b, o, to, -1, LEAD_HOPS) ||
                                     (o >= UCR_ATTACH_PASSAGE && passage_to(b, o - UCR_ATTACH_PASSAGE, to, LEAD_HOPS))))
                    e.score = seen[cur];
                /* The best TRIES, in order; each area or corridor once, at its best. */
                int at = -1;
                for (int i = 0; i < nbest && at < 0; i++)
                    if (best[i].owner == o)
                        at = e.score < best[i].score ? i : TRIES;
                if (at < 0 && nbest < TRIES)
                    at = nbest++;
                else if (at < 0 && e.score < best[TRIES - 1].score)
                    at = TRIES - 1;
                if (at < 0 || at == TRIES)
                    continue;
                best[at] = e;
                for (int i = at; i > 0 && best[i].score < best[i - 1].score; i--) {
                    way_end t = best[i];
                    best[i] = best[i - 1];
                    best[i - 1] = t;
                }
            }
        }
        for (int i = 0; i < nbest && end.passage < 0; i++) {
            const way_end *e = &best[i];
            ucr_pc_path path;
            if (e->owner >= UCR_ATTACH_PASSAGE) {
                int q = e->owner - UCR_ATTACH_PASSAGE;
                ucr_pc_target t = { e->owner, e->at.x, e->at.y, 1, 1, false, { 0, 0 } };
                if (!ucr_pc_route(b->pc, m, room, &t, false, &path))
                    continue;
                bool ok;
                end = join_corridor_at(b, &path, room, side, w, q, ucr_pc_cell_index(b->pc, q, e->at),
                                       passage_to(b, q, to, LEAD_HOPS)
                                           ? " (its walls are out of reach: the corridor joins one that leads there)"
                                           : " (no way there: the corridor joins a corridor on its way)",
                                       rec, &ok);
            } else {
                const ucr_area *a = area_at(b, e->owner);
                ucr_pc_target t = { e->owner, a->x, a->y, a->w, a->h, false, { 0, 0 } };
                if (!ucr_pc_route(b->pc, m, room, &t, false, &path))
                    continue;
                note_moved(rec, side, w);
                /* The room the dice sent it to, reached the way the map
                 * leaves (a second door of room 9 not on its d6 wall). */
                if (e->owner == to)
                    g_string_append(rec, " (no way to the wall it was sent to: the corridor reaches the room the way"
                                         " the map leaves)");
                else if (a->kind == UCR_AREA_ROOM && e->owner < MAX_AREAS && b->label[e->owner])
                    g_string_append_printf(rec, " (no way there: the corridor joins %s on its way)",
                                           b->label[e->owner]);
                else if (junction_to(b, e->owner, to, -1, LEAD_HOPS))
                    g_string_append(rec, " (its walls are out of reach: the corridor joins a junction on the way there)");
                else if (e->owner != to)
                    g_string_append_printf(rec, " (no way there: the corridor joins the %s on its way)",
                                           a->kind == UCR_AREA_JUNCTION ? "junction" : "landing");
                end = ucr_pc_connect(b->pc, &path, room, UCR_DOOR_PLAIN, &t, NULL, rec);
            }
        }
    }
    g_free(seen);
    g_free(queue);
    return end;
}

static ucr_pc_end corridor_draw(builder *b, int room, ucr_dir side, int hint, const corridor_goal *cg, GString *rec);

/* Draws a corridor from a door in wall @side of @room (position @hint, -1
 * the middle) to @cg.  Round room 9 it first takes the red, white or blue
 * path the dice chose (the lap router above, which never crosses); else,
 * and when that way is walled off, it goes as straight as the map allows,
 * crossing under or over what is in its way on seed 000's d10 table
 * (gen/kit/preconnect.h).  A wall with no free square moves the door to the
 * next wall: the destination is what the dice decided, the wall only
 * where the door sits.  Appends what happened to @rec.  Returns how it
 * ended; passage -1 if there was no way at all.  The walls of the room it
 * goes to are open meanwhile (walls_keep; the room it leaves is open while
 * it rolls its doors). */
static ucr_pc_end corridor(builder *b, int room, ucr_dir side, int hint, const corridor_goal *cg, GString *rec)
{
    int to = cg->owner >= 0 && cg->owner < MAX_AREAS && cg->owner != room ? cg->owner : -1;
    walls_open(b, to);
    ucr_pc_end end = corridor_draw(b, room, side, hint, cg, rec);
    walls_keep(b, to);
    return end;
}

/* Routes from wall @w of @room to @t, from every free mouth of that wall
 * nearest @hint first (the middle when @hint < 0), so that a door stays
 * where its die put it while some mouth of the wall has a way; the first
 * way found goes to @path.  False if none has. */
static bool route_off_wall(builder *b, int room, ucr_dir w, int hint, ucr_pc_target *t, unsigned walls,
                           ucr_pc_path *path)
{
    const ucr_area *a = area_at(b, room);
    int order[64], n = wall_order(a, w, hint, order), tried = 0;
    /* --drop-dice: more of a die's wall's mouths, so that its door keeps
     * the wall while any has a way. */
    int most = b->expanding ? 8 : 3;
    for (int i = 0; i < n && tried < most; i++) {
        ucr_point m;
        if (!ucr_pc_mouth(b->pc, room, w, order[i], &m) || (i && (m.x != ucr_area_mouth(a, w, order[i]).x ||
                                                              m.y != ucr_area_mouth(a, w, order[i]).y)))
            continue;
        tried++;
        t->avoid_at = m;
        b->pc->target_walls = walls;
        bool found = ucr_pc_route(b->pc, m, room, t, true, path);
        b->pc->target_walls = 0;
        /* A way that comes back beside itself (under one room twice) would
         * touch itself: not a corridor. */
        if (found && path_repeats(path->cells)) {
            ucr_pc_path_clear(path);
            found = false;
        }
        if (found)
            return true;
    }
    return false;
}

/* --drop-dice: the mouths still kept for the dice of the room being
 * expanded that are not drawn yet, freed (@lift) for one more try at a
 * die's own wall, or kept again where they are still free.  Returns
 * whether any was freed. */
static bool dice_lift(builder *b, bool lift)
{
    bool any = false;
    for (int r = 0; r < MAX_AREAS; r++) {
        drop_plan *pl = b->drops[r];
        for (int i = 0; pl && i < pl->n && pl == b->expanding; i++) {
            drop_die *d = &pl->die[i];
            if (!d->reserved)
                continue;
            if (lift && ucr_canvas_owner(b->cv, d->mouth) == HELD) {
                square_release(b->cv, d->mouth);
                any = true;
            } else if (!lift) {
                if (ucr_canvas_owner(b->cv, d->mouth) == UCR_CANVAS_EMPTY)
                    ucr_canvas_set(b->cv, d->mouth, HELD);
                else if (ucr_canvas_owner(b->cv, d->mouth) != HELD)
                    d->reserved = false;
            }
        }
    }
    return any;
}

/* One try at a corridor off wall @w (a lap round room 9 when @g is set). */
static bool corridor_try(builder *b, int room, ucr_dir w, int hint, route_goal *g, ucr_pc_target *t,
                         unsigned walls, ucr_pc_path *path)
{
    if (!g)
        return route_off_wall(b, room, w, hint, t, walls, path);
    GArray *cells = route(b, room, w, hint, g);
    if (!cells)
        return false;
    *path = (ucr_pc_path){ cells, g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump)) };
    return true;
}

/* Whether any room keeps a mouth of a wall free (walls_keep). */
static bool walls_held(const builder *b)
{
    for (guint i = 0; i < b->node->areas->len && i < MAX_AREAS; i++)
        for (int w = 0; w < 4; w++)
            if (b->keeping[i][w])
                return true;
    return false;
}

/* Tries the walls from @side round (its own first: its door stays where
 * it was rolled; with --drop-dice once more with the mouths kept for the
 * room's other dice freed), drawing the first corridor found. */
static bool corridor_walls(builder *b, int room, ucr_dir side, int hint, route_goal *g, ucr_pc_target *t,
                           const corridor_goal *cg, GString *rec, ucr_pc_end *end, int k0, int k1)
{
    static const int turn[4] = { 0, 1, 3, 2 };
    for (int k = k0; k < k1; k++) {
        ucr_dir w = (ucr_dir)((side + turn[k ? k - 1 : 0]) % 4);
        ucr_pc_path path;
        if (k == 1 && !((int)dice_lift(b, true) | (int)walls_held(b)))   /* both: each frees mouths */
            continue;
        if (k == 1)
            walls_all(b, true);
        bool found = corridor_try(b, room, w, k < 2 ? hint : -1, g, t, cg->walls, &path);
        if (found) {
            note_moved(rec, side, w);
            *end = ucr_pc_connect(b->pc, &path, room, UCR_DOOR_PLAIN, t, cg->pending, rec);
        }
        if (k == 1) {
            dice_lift(b, false);
            walls_all(b, false);
            walls_open(b, room);
            if (cg->owner >= 0 && cg->owner < MAX_AREAS)
                walls_open(b, cg->owner);
        }
        if (found)
            return true;
    }
    return false;
}

/* --drop-dice, a door whose room is mapped but out of reach from its
 * die's wall: its corridor joins one that leads there, else what it meets
 * on its way, from the wall's mouths nearest the die's spot first (a mouth
 * fenced in by the corridors beside it may leave another its way). */
enum { JOIN_MOUTHS = 4 };
static ucr_pc_end join_on_own_wall(builder *b, int room, ucr_dir side, int hint, const corridor_goal *cg,
                                   GString *rec)
{
    const ucr_area *a = area_at(b, room);
    int order[64], n = wall_order(a, side, hint, order), tried = 0;
    ucr_pc_end end = { -1, -1, -1, false };
    for (int i = 0; i < n && tried < JOIN_MOUTHS && end.passage < 0; i++) {
        ucr_point m, at = ucr_area_mouth(a, side, order[i]);
        if (!ucr_pc_mouth(b->pc, room, side, order[i], &m) || m.x != at.x || m.y != at.y)
            continue;
        tried++;
        end = join_its_corridor_walls(b, room, side, order[i], cg->owner, rec, 1);
        if (end.passage < 0)
            end = way_on_walls(b, room, side, order[i], &cg->rect, rec, 1);
    }
    return end;
}

static ucr_pc_end corridor_draw(builder *b, int room, ucr_dir side, int hint, const corridor_goal *cg, GString *rec)
{
    ucr_pc_target t = { cg->owner, cg->rect.x, cg->rect.y, cg->rect.w, cg->rect.h, cg->owner == room,
                        { 0, 0 } };
    ucr_pc_end none = { -1, -1, -1, false }, end;
    if (cg->want_lap != NO_LAP) {
        route_goal g = { cg->owner, cg->walls ? cg->walls : 0xfu, cg->want_lap, { 0, 0 }, cg->owner == room, 0,
                         cg->rect };
        /* Its own wall first, by the path the dice chose or, failing
         * that, the way the map leaves: with --drop-dice the door's wall is
         * where its die landed; then the other walls. */
        int own = b->drop_dice ? 2 : 5;
        if (corridor_walls(b, room, side, hint, &g, &t, cg, rec, &end, 0, own))
            return end;
        g_string_append(rec, " (that path is walled off: the corridor goes the way the map leaves)");
        if (own < 5 && (corridor_walls(b, room, side, hint, NULL, &t, cg, rec, &end, 0, own) ||
                        corridor_walls(b, room, side, hint, &g, &t, cg, rec, &end, own, 5)))
            return end;
    }
    bool mapped = cg->owner >= 0 && cg->owner != UCR_CANVAS_TENTATIVE && cg->owner != room;
    if (b->expanding && mapped) {
        /* --drop-dice: the door stays on its die's wall while some way
         * leaves it: to the room, else joining a corridor that leads
         * there or what it meets on its way (seed 001, SubMethod II: "the
         * new corridor connects with it"). */
        if (corridor_walls(b, room, side, hint, NULL, &t, cg, rec, &end, 0, 2))
            return end;
        end = join_on_own_wall(b, room, side, hint, cg, rec);
        if (end.passage >= 0)
            return end;
    }
    if (corridor_walls(b, room, side, hint, NULL, &t, cg, rec, &end, 0, 5))
        return end;
    if (mapped)
        return join_its_corridor_walls(b, room, side, hint, cg->owner, rec, 4);
    return none;
}

static corridor_goal goal_of_area(const builder *b, int area)
{
    corridor_goal cg = { area, *area_at(b, area), 0, NO_LAP, NULL };
    return cg;
}

/* seed 001 variant, 0: "the door goes nowhere: it opens on a blank wall or a
 * short, dead-end tunnel". */
static void door_dead_end(builder *b, int room, ucr_dir side, int hint, GString *rec)
{
    g_string_append(rec, ": nowhere; length ");
    int len = ucr_compass_dead_end_length(table_roll(b, b->t_dead, rec));
    if (len == 0) {
        g_string_append(rec, ": 0, a blank wall (a false door)");
        return;
    }
    int turn = 0, t6 = 0;
    if (len > 2) {
        /* "rolling another d6 to have the tunnel turn left or right after 2
         * squares": odd left, even right (the seed's own coin). */
        t6 = ucr_dice_d(b->rng, 6);
        turn = t6 % 2 ? -1 : 1;
    }
    g_string_append_printf(rec, ": a dead end of %d square%s", len, len == 1 ? "" : "s");
    if (t6)
        g_string_append_printf(rec, ", turning %s after 2 (1d6=%d)", turn < 0 ? "left" : "right", t6);
    /* The door stays on its wall: where the tunnel does not fit, it is
     * shorter ("a short, dead-end tunnel"), down to the blank wall the same
     * roll allows. */
    for (int l = len; l >= 1; l--)
        if (dead_end_draw(b, room, side, hint, l, l > 2 ? turn : 0) ||
            (l > 2 && dead_end_draw(b, room, side, hint, l, -turn))) {
            if (l < len)
                g_string_append_printf(rec, " (the %s wall has room for %d: drawn %d square%s long)",
                                       ucr_dir_name(side), l, l, l == 1 ? "" : "s");
            return;
        }
    g_string_append_printf(rec, " (no room in front of the %s wall: a blank wall, a false door)",
                           ucr_dir_name(side));
}


/* May a way under the floor of @a take square @c?  A square of the room no
 * other crossing holds (the middle may be @shared: one ladder for two ways
 * back), beside nothing outside the room but rock and the corridor's own
 * last square @at (not beside another way in at a corner). */
static bool under_floor_ok(const builder *b, const ucr_area *a, ucr_point c, ucr_point at, bool shared)
{
    if (!ucr_area_contains(a, c) || (ucr_canvas_busy(b->cv, c) && !shared))
        return false;
    for (int d = 0; d < 4; d++) {
        ucr_point nb = { c.x + UCR_DIR_DX[d], c.y + UCR_DIR_DY[d] };
        if (!ucr_area_contains(a, nb) && !(nb.x == at.x && nb.y == at.y) &&
            ucr_canvas_owner(b->cv, nb) != UCR_CANVAS_EMPTY)
            return false;
    }
    return true;
}

/* Runs passage @k on from its end at @room's wall under (@under) or over
 * the room's floor to its middle square, where it ends with @stair: seed
 * 001's "Ladder Up/Down, center of room".  The way is straight in to the
 * middle's row (or column) and along it, or where those squares will not
 * do the shortest way (breadth first, directions in a fixed order).  The
 * squares stay the room's (a crossing of it, kept busy so that no other
 * corridor crosses or opens there).  Returns false, changing nothing, if
 * there is no way. */
static bool centre_under_room(builder *b, int k, int room, bool under, ucr_stair stair)
{
    const ucr_area *a = area_at(b, room);
    ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    ucr_point at = g_array_index(p->cells, ucr_point, p->cells->len - 1);
    ucr_point mid = { a->x + a->w / 2, a->y + a->h / 2 };
    ucr_dir in = (ucr_dir)((ucr_area_wall_of(a, at) + 2) % 4);
    ucr_point entry = { at.x + UCR_DIR_DX[in], at.y + UCR_DIR_DY[in] };
    bool share = b->centre_stair == stair;
    GArray *way = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    bool ok = true;
    for (ucr_point q = entry; ok;) {
        ok = under_floor_ok(b, a, q, at, share && q.x == mid.x && q.y == mid.y);
        g_array_append_val(way, q);
        if (q.x == mid.x && q.y == mid.y)
            break;
        if (in == UCR_NORTH || in == UCR_SOUTH ? q.y != mid.y : q.x != mid.x) {
            q.x += UCR_DIR_DX[in];
            q.y += UCR_DIR_DY[in];
        } else {
            q.x += (mid.x > q.x) - (mid.x < q.x);
            q.y += (mid.y > q.y) - (mid.y < q.y);
        }
    }
    if (!ok && under_floor_ok(b, a, entry, at, share && entry.x == mid.x && entry.y == mid.y)) {
        int W = a->w, N = a->w * a->h, head = 0, tail = 0;
        int goal = (mid.y - a->y) * W + (mid.x - a->x), start = (entry.y - a->y) * W + (entry.x - a->x);
        int *prev = g_new(int, N), *queue = g_new(int, N);
        for (int i = 0; i < N; i++)
            prev[i] = -2;
        prev[start] = -1;
        queue[tail++] = start;
        while (head < tail && prev[goal] == -2) {
            int cur = queue[head++];
            for (int d = 0; d < 4; d++) {
                ucr_point c = { a->x + cur % W + UCR_DIR_DX[d], a->y + cur / W + UCR_DIR_DY[d] };
                if (!ucr_area_contains(a, c))
                    continue;
                int ci = (c.y - a->y) * W + (c.x - a->x);
                if (prev[ci] == -2 && under_floor_ok(b, a, c, at, share && ci == goal)) {
                    prev[ci] = cur;
                    queue[tail++] = ci;
                }
            }
        }
        ok = prev[goal] != -2;
        g_array_set_size(way, 0);
        for (int cur = ok ? goal : -1; cur >= 0; cur = prev[cur]) {
            ucr_point c = { a->x + cur % W, a->y + cur / W };
            g_array_prepend_val(way, c);
        }
        g_free(prev);
        g_free(queue);
    }
    if (!ok) {
        g_array_free(way, TRUE);
        return false;
    }
    int first = (int)p->cells->len;
    g_array_append_vals(p->cells, way->data, way->len);
    for (guint i = 0; i < way->len; i++) {
        ucr_point c = g_array_index(way, ucr_point, i);
        ucr_canvas_busy_set(b->cv, c, true);
    }
    if (!p->crossings)
        p->crossings = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
    ucr_crossing cr = { first, (int)p->cells->len - 1, under ? UCR_CROSS_UNDER : UCR_CROSS_OVER, room, -1 };
    g_array_append_val(p->crossings, cr);
    ucr_passage_stairs s2 = { (int)p->cells->len - 1, stair };
    g_array_append_val(p->stairs, s2);
    g_array_free(way, TRUE);
    b->centre_stair = stair;
    return true;
}

/* seed 001 variant, 9: "the corridor leads back to the starting room.  Roll
 * a d6 for the location of the second door ... Connect the first and second
 * door, making sure to include a ladder or staircase in the opposite
 * direction if the result was 5+." */
static void door_back(builder *b, int room, ucr_dir side, int hint, GString *rec)
{
    g_string_append_printf(rec, ": back to the starting room; second door ");
    ucr_compass_door second = ucr_compass_door_kind(table_roll(b, b->t_second, rec));
    corridor_goal cg = goal_of_area(b, b->hub);
    ucr_stair down = UCR_STAIR_NONE, up = UCR_STAIR_NONE;
    if (second.kind == UCR_COMPASS_DOOR_WALL) {
        cg.walls = 1u << second.wall;
        g_string_append_printf(rec, ": the %s wall", ucr_dir_name(second.wall));
    } else {
        bool heads = ucr_dice_coin(b->rng);
        bool ladder = second.kind == UCR_COMPASS_DOOR_LADDER;
        /* Down from the door, back up into the room (or the other way round
         * on tails). */
        down = ladder ? (heads ? UCR_LADDER_DOWN : UCR_LADDER_UP) : (heads ? UCR_STAIR_DOWN : UCR_STAIR_UP);
        up = ladder ? (heads ? UCR_LADDER_UP : UCR_LADDER_DOWN) : (heads ? UCR_STAIR_UP : UCR_STAIR_DOWN);
        g_string_append_printf(rec, ": %s in the centre of the room (coin %s: %s, back by %s)",
                               ladder ? "a ladder" : "stairs", heads ? "heads" : "tails", ucr_stair_name(down),
                               ucr_stair_name(up));
    }
    ucr_pc_end end = corridor(b, room, side, hint, &cg, rec);
    if (end.passage < 0 && cg.walls) {
        cg.walls = 0;
        end = corridor(b, room, side, hint, &cg, rec);
        if (end.passage >= 0) {
            const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, end.passage);
            ucr_point last = g_array_index(p->cells, ucr_point, p->cells->len - 1);
            g_string_append_printf(rec, " (no way to the %s wall: the second door is in the %s wall)",
                                   ucr_dir_name(second.wall), ucr_dir_name(ucr_area_wall_of(area_at(b, b->hub), last)));
        }
    }
    if (end.passage < 0)
        end = way_on(b, room, side, hint, area_at(b, b->hub), rec);
    if (end.passage < 0) {
        blocked_fallback(b, room, side, hint, rec);
        return;
    }
    if (!end.reached || end.area != b->hub)
        return;   /* cut short, or joined a corridor that leads there */
    g_string_append_printf(rec, " = area %d", area_at(b, b->hub)->key);
    ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, end.passage);
    if (down == UCR_STAIR_NONE) {
        door_at_end(b, b->hub, end.passage);
        return;
    }
    /* The flight down just past the first door, where no crossing has
     * steps of its own; the way back up stands where the seed puts it,
     * "center of room": the corridor runs on under (or over) room 9's floor
     * to its middle square and comes up (or down) there. */
    int n = (int)p->cells->len, i1 = MIN(1, n - 1), i2 = n - 1;
    for (guint k = 0; k < p->stairs->len; k++) {
        int at = g_array_index(p->stairs, ucr_passage_stairs, k).index;
        if (at == i1 || at == i2 || at == i1 + 1 || at == i2 - 1)
            i1 = i2 = -1;
    }
    if (i1 < 0) {
        g_string_append(rec, " (its own crossings take the flights: no second pair)");
        return;
    }
    ucr_passage_stairs s1 = { i1, down };
    g_array_append_val(p->stairs, s1);
    /* The mouths room 9 keeps free are rock, not doors: the way under the
     * floor may pass beside them. */
    bool kept = room != b->hub;
    if (kept)
        walls_open(b, b->hub);
    bool centred = centre_under_room(b, end.passage, b->hub, down == UCR_STAIR_DOWN || down == UCR_LADDER_DOWN, up);
    if (kept)
        walls_keep(b, b->hub);
    if (!centred) {
        /* Another way under the room is in the way: up at its wall. */
        p = &g_array_index(b->node->passages, ucr_passage, end.passage);
        ucr_passage_stairs s2 = { i2, up };
        if (i2 != i1)
            g_array_append_val(p->stairs, s2);
        g_string_append(rec, " (the middle of the room is taken: up at its wall)");
    }
}

/* The room nearest to @room "in that general direction" @dir (1..8): its
 * centre on that side of @room's, the nearest and most nearly in line
 * first.  Returns its index, or -1. */
static int room_towards(const builder *b, int room, int dir)
{
    const ucr_area *r = area_at(b, room);
    int best = -1;
    double best_score = 0;
    for (guint i = 0; i < b->node->areas->len && i < MAX_AREAS; i++) {
        const ucr_area *a = area_at(b, (int)i);
        if ((int)i == room || a->kind != UCR_AREA_ROOM || !b->label[i])
            continue;
        double dx = a->x + a->w / 2.0 - r->x - r->w / 2.0, dy = a->y + a->h / 2.0 - r->y - r->h / 2.0;
        double dot = dx * UCR_DIR8_DX[dir] + dy * UCR_DIR8_DY[dir];
        if (dot < 1)
            continue;
        double score = (dx * dx + dy * dy) / dot;
        if (best < 0 || score < best_score) {
            best = (int)i;
            best_score = score;
        }
    }
    return best;
}

/* --drop-dice, a new room no corridor from the door reaches: "or in that
 * general direction", the corridor leads to room @near, the nearest room
 * already mapped that way (room_towards), as where no room fits at all. */
static void door_nearest_room(builder *b, int room, ucr_dir side, int hint, int near, GString *rec)
{
    g_string_append_printf(rec, " (no way to a room there: to %s, the nearest room that way)", b->label[near]);
    corridor_goal cg = goal_of_area(b, near);
    ucr_pc_end end = corridor(b, room, side, hint, &cg, rec);
    if (end.passage < 0 && way_on(b, room, side, hint, &cg.rect, rec).passage < 0)
        blocked_fallback(b, room, side, hint, rec);
    else if (end.reached && end.area >= 0 && area_at(b, end.area)->key > 0)
        g_string_append_printf(rec, " = area %d", area_at(b, end.area)->key);
}

/* seed 001 variant, 1-8: "the door leads due north, to Room 1 in the
 * illustration, or in that general direction" — the room in that direction
 * from @room on the lattice, already mapped (the corridor joins it: a loop)
 * or drawn now. */
static void door_direction(builder *b, int room, ucr_dir side, int hint, ucr_compass_dest dest, GString *rec,
                           int *queue, int *nq)
{
    int tx = b->sx[room] + dest.dx, ty = b->sy[room] + dest.dy;
    int target = b->slot[tx + 2][ty + 2];
    g_string_append_printf(rec, ": %s", DIR8_NAME[dest.dir]);
    corridor_goal cg;
    ucr_pc_pending pend = { UCR_AREA_ROOM, 0, 0, 0, 0, true, NULL };
    GString *rolled = NULL;
    if (target >= 0) {
        cg = goal_of_area(b, target);
        g_string_append_printf(rec, ", to %s (already mapped)", b->label[target]);
    } else {
        ucr_area spot;
        char *where = slot_label(tx, ty);
        spot_door door = { b->expanding && room != b->hub ? room : -1, side, hint };
        if (room_spot(b, tx, ty, area_at(b, room), dest.dir, &door, &spot, &rolled)) {
            g_string_append_printf(rec, ", to %s (new)", where);
            ucr_canvas_fill(b->cv, spot.x, spot.y, spot.w, spot.h, UCR_CANVAS_TENTATIVE);
            pend.x = spot.x;
            pend.y = spot.y;
            pend.w = spot.w;
            pend.h = spot.h;
            cg = (corridor_goal){ UCR_CANVAS_TENTATIVE, spot, 0, NO_LAP, &pend };
        } else {
            /* "or in that general direction": no room fits at its place, so
             * the corridor leads to the nearest room already mapped that
             * way. */
            int near = room_towards(b, room, dest.dir);
            if (near < 0) {
                g_string_append_printf(rec, ", to %s, which has no room on the map", where);
                g_free(where);
                ucr_area there = ucr_area_make(UCR_AREA_ROOM, CLAMP(lattice_x(b, tx), 0, ucr_canvas_width(b->cv) - 1),
                                               CLAMP(lattice_y(b, ty), 0, ucr_canvas_height(b->cv) - 1), 1, 1);
                if (way_on(b, room, side, hint, &there, rec).passage < 0)
                    blocked_fallback(b, room, side, hint, rec);
                return;
            }
            g_string_append_printf(rec, ", to %s, which has no room on the map: to %s, the nearest room that way",
                                   where, b->label[near]);
            cg = goal_of_area(b, near);
        }
        g_free(where);
    }
    if (room == b->hub) {
        /* Around the starting room: the red, white or blue path. */
        int cw = ((dest.dir - 1) - 2 * (int)side + 16) % 8;
        bool rolls = ucr_compass_route_rolls(cw, b->variety);
        int d6 = rolls && cw == 0 ? ucr_dice_d(b->rng, 6) : 0;
        bool heads = false;
        ucr_compass_way way = ucr_compass_route_way(cw, b->variety, false, d6);
        if (rolls && way != UCR_COMPASS_STRAIGHT) {
            heads = ucr_dice_coin(b->rng);
            way = ucr_compass_route_way(cw, b->variety, heads, d6);
        }
        cg.want_lap = way == UCR_COMPASS_STRAIGHT ? 0 : way == UCR_COMPASS_LEFT ? -1 : cw == 0 ? 1 : 0;
        if (d6)
            g_string_append_printf(rec, "; straight ahead, 1d6=%d%s", d6, d6 >= 5 ? ": the white path, straight" : "");
        if (rolls && way != UCR_COMPASS_STRAIGHT)
            g_string_append_printf(rec, "; coin %s:", heads ? "heads" : "tails");
        else if (cw)
            g_string_append(rec, "; the short way:");
        if (way != UCR_COMPASS_STRAIGHT)
            g_string_append_printf(rec, " the %s path, %s round room 9%s",
                                   way == UCR_COMPASS_LEFT ? "left-hand (red)" : "right-hand (blue)",
                                   way == UCR_COMPASS_LEFT ? "left" : "right", cw == 0 ? ", a full spiral" : "");
    }
    ucr_pc_end end = corridor(b, room, side, hint, &cg, rec);
    if (end.passage < 0) {
        if (pend.w)
            ucr_canvas_fill(b->cv, pend.x, pend.y, pend.w, pend.h, UCR_CANVAS_EMPTY);
        if (rolled)
            g_string_free(rolled, TRUE);
        int near = pend.w && b->drop_dice ? room_towards(b, room, dest.dir) : -1;
        if (near >= 0)
            door_nearest_room(b, room, side, hint, near, rec);
        else if (way_on(b, room, side, hint, &cg.rect, rec).passage < 0)
            blocked_fallback(b, room, side, hint, rec);
        return;
    }
    if (end.reached && end.area >= 0 && area_at(b, end.area)->key > 0)
        g_string_append_printf(rec, " = area %d", area_at(b, end.area)->key);
    if (rolled && end.reached) {
        room_register(b, end.area, tx, ty, rolled);
        if (abs(tx) <= 1 && abs(ty) <= 1)
            queue[(*nq)++] = end.area;
    } else if (rolled) {
        g_string_free(rolled, TRUE);   /* cut short on the way: the room is not made */
    }
}

/* Where the door in wall @side of @room leads (position along the wall from
 * @hint): the d10 of seed 001's variant on compass-direction.txt, or the
 * face a dropped die shows (@face_rolled: @rec holds it already). */
static void door_resolve(builder *b, int room, ucr_dir side, int hint, const char *kind, GString *rec, int *queue,
                         int *nq)
{
    ucr_compass_dest dest = ucr_compass_destination(kind);
    if (dest.kind == UCR_COMPASS_TO_DEAD_END)
        door_dead_end(b, room, side, hint, rec);
    else if (dest.kind == UCR_COMPASS_TO_START)
        door_back(b, room, side, hint, rec);
    else
        door_direction(b, room, side, hint, dest, rec, queue, nq);
    note(b, "%s, %s door: %s", b->label[room], ucr_dir_name(side), rec->str);
    g_string_append_printf(b->rolled[room], "; %s door: %s", ucr_dir_name(side), rec->str);
}

/* Last resort for stairs from another level: a landing in the first free
 * rock from the middle of the map, cut off from this level's corridors
 * (the analysis counts it as unreachable).  Returns it, or -1. */
static int landing_alone(ucr_node *node, ucr_canvas *cv, ucr_stair stair)
{
    int w = ucr_canvas_width(cv), cx = (w - 1) / 2, cy = (ucr_canvas_height(cv) - 1) / 2;
    for (int r = 0; r < w; r++)
        for (int y = cy - r; y <= cy + r; y++)
            for (int x = cx - r; x <= cx + r; x++) {
                if (MAX(abs(x - cx), abs(y - cy)) != r || !ucr_canvas_clear(cv, x, y, 1, 1, 2))
                    continue;
                ucr_area a = ucr_area_make(UCR_AREA_STAIRS, x, y, 1, 1);
                a.stair = stair;
                return ucr_node_add_area(node, cv, &a);
            }
    return -1;
}

/* Adds a ladder or stairs that leave the node from @room. */
static void exit_add(builder *b, int room, bool ladder)
{
    bool heads = ucr_dice_coin(b->rng);
    ucr_stair st = ladder ? (heads ? UCR_LADDER_DOWN : UCR_LADDER_UP) : (heads ? UCR_STAIR_DOWN : UCR_STAIR_UP);
    /* The seed puts every one of them in the centre of the room: a room
     * that rolls a second keeps one stairwell, its flights going both ways
     * (DESIGN "Levels": a room's ways out are not a hub of landings). */
    int li = room < MAX_AREAS ? b->exit_landing[room] - 1 : -1;
    if (li < 0)
        li = landing_place(b, room, st);
    for (guint k = 0; li < 0 && k < b->node->areas->len; k++)
        if (area_at(b, (int)k)->kind == UCR_AREA_ROOM)
            li = landing_place(b, (int)k, st);
    if (li < 0)
        li = landing_alone(b->node, b->cv, st);
    note(b, "%s: %s in the centre of the room, coin %s: %s%s", b->label[room], ladder ? "ladder" : "stairs",
         heads ? "heads" : "tails", ucr_stair_name(st), li < 0 ? " (no room on the map)" : "");
    if (li < 0) {
        b->node->unplaced++;
        return;
    }
    if (room < MAX_AREAS && !b->exit_landing[room])
        b->exit_landing[room] = li + 1;
    ucr_step *step = g_new0(ucr_step, 1);
    step->kind = UCR_STEP_STAIRS;
    step->stair = st;
    step->link = -1;
    g_ptr_array_add(b->plan->steps, step);
    g_array_append_val(b->plan->step_area, li);
}

/* The walls of @room that face where a door reading @dest leads (bit per
 * ucr_dir): those beyond which the room it joins lies — the mapped room at
 * that lattice place, or the starting room for a 9 — or, for a room not
 * drawn yet, the walls the direction points through (north-east: the north
 * and east walls).  Every wall for a door that leads nowhere, or back to
 * the room it is in. */
static unsigned facing_walls(const builder *b, int room, ucr_compass_dest dest)
{
    const ucr_area *r = area_at(b, room);
    int target = -1;
    if (dest.kind == UCR_COMPASS_TO_START && room != b->hub)
        target = b->hub;
    else if (dest.kind == UCR_COMPASS_TO_DIRECTION) {
        int tx = b->sx[room] + dest.dx, ty = b->sy[room] + dest.dy;
        if (abs(tx) <= 2 && abs(ty) <= 2)
            target = b->slot[tx + 2][ty + 2];
        if (target < 0)
            return (dest.dy < 0 ? 1u << UCR_NORTH : 0) | (dest.dy > 0 ? 1u << UCR_SOUTH : 0) |
                   (dest.dx < 0 ? 1u << UCR_WEST : 0) | (dest.dx > 0 ? 1u << UCR_EAST : 0);
    }
    if (target < 0)
        return 0xfu;
    const ucr_area *t = area_at(b, target);
    unsigned m = (t->y + t->h <= r->y ? 1u << UCR_NORTH : 0) | (t->y >= r->y + r->h ? 1u << UCR_SOUTH : 0) |
                 (t->x + t->w <= r->x ? 1u << UCR_WEST : 0) | (t->x >= r->x + r->w ? 1u << UCR_EAST : 0);
    return m ? m : 0xfu;
}

/* --drop-dice: where the door of a die that landed by wall @side at @pos
 * goes.  "The positions of the dice indicating the approximate position of
 * the door": on the die's wall, at its spot (issue 22: moving it to the
 * wall facing where it leads moved 55% of the dice).  @facing is kept for
 * the corridor: it sets off from that wall and goes round the room's
 * corner where its room lies another way.  Returns the wall and stores the
 * spot in @at. */
static ucr_dir drop_door_wall(const builder *b, int room, ucr_dir side, int pos, unsigned facing, int *at)
{
    (void)b;
    (void)room;
    (void)facing;
    *at = pos;
    return side;
}

/* Keeps the mouth of die @d's door (in front of @room's wall) free until
 * its corridor is drawn: marked as off the map, so that no other corridor
 * runs across or beside it (a corridor that runs along a wall takes every
 * mouth of that wall) and no room is placed on it.  Where the wall has no
 * free mouth left, nothing is kept. */
static void drop_reserve(builder *b, int room, drop_die *d)
{
    const ucr_area *a = area_at(b, room);
    ucr_point m;
    if (!ucr_pc_mouth(b->pc, room, d->wall, d->at, &m))
        return;
    d->reserved = true;
    d->mouth = m;
    d->at = d->wall == UCR_NORTH || d->wall == UCR_SOUTH ? m.x - a->x : m.y - a->y;
    ucr_canvas_set(b->cv, m, HELD);
    /* The square beyond too: a corridor passing the wall one square out
     * would leave the mouth no way on (it may not run along the wall). */
    d->beyond = ucr_point_step(m, d->wall);
    d->beyond_held = ucr_canvas_inside(b->cv, d->beyond) &&
                     ucr_canvas_owner(b->cv, d->beyond) == UCR_CANVAS_EMPTY;
    if (d->beyond_held)
        ucr_canvas_set(b->cv, d->beyond, HELD);
}

static void drop_release(builder *b, drop_die *d)
{
    if (d->reserved)
        square_release(b->cv, d->mouth);
    if (d->beyond_held)
        square_release(b->cv, d->beyond);
    d->reserved = d->beyond_held = false;
}

/* Keeps the mouths of the dice of @pl on wall @w (drop_reserve), in the
 * order they were dropped (@spread false) or along the wall, each at the
 * spot of its rank spread evenly over the wall (@spread).  Returns how
 * many it kept. */
static int drop_keep_wall(builder *b, int room, drop_plan *pl, ucr_dir w, bool spread)
{
    int idx[6], k = 0, kept = 0, wl = ucr_area_wall_length(area_at(b, room), w);
    for (int i = 0; i < pl->n; i++)
        if (pl->die[i].wall == w)
            idx[k++] = i;
    for (int i = 1; spread && i < k; i++)
        for (int j = i; j > 0 && pl->die[idx[j]].pos < pl->die[idx[j - 1]].pos; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    for (int j = 0; j < k; j++) {
        drop_die *d = &pl->die[idx[j]];
        d->at = spread && k > 1 ? (j * (wl - 1) + (k - 1) / 2) / (k - 1) : d->pos;
        drop_reserve(b, room, d);
        kept += d->reserved;
    }
    return kept;
}

static void drop_free_wall(builder *b, drop_plan *pl, ucr_dir w)
{
    for (int i = 0; i < pl->n; i++)
        if (pl->die[i].wall == w)
            drop_release(b, &pl->die[i]);
}

/* Keeps the mouths of the dice that landed by wall @w.  Each keeps its
 * own spot's mouth, else the nearest free one; where that leaves a die of
 * the wall none (two kept a square apart leave no mouth between them),
 * the dice's doors are spread along the wall in the order they lie, when
 * that keeps more: "the positions of the dice indicating the approximate
 * position of the door" (seed 001). */
static void drop_reserve_wall(builder *b, int room, drop_plan *pl, ucr_dir w)
{
    int on = 0;
    for (int i = 0; i < pl->n; i++)
        on += pl->die[i].wall == w;
    int kept = drop_keep_wall(b, room, pl, w, false);
    if (kept == on)
        return;
    drop_free_wall(b, pl, w);
    if (drop_keep_wall(b, room, pl, w, true) > kept)
        return;
    drop_free_wall(b, pl, w);
    drop_keep_wall(b, room, pl, w, false);
}

/* "roll four d10s all at once and read the result as if you were using a
 * drop-dice table, with the positions of the dice indicating the
 * approximate position of the door": where each lands is a d4 wall and a
 * spot along it, its face where the door leads.  "Or make the number of
 * d10s rolled variable by rolling 2d3 first for the number of dice to
 * roll."  Rolled when the room is made (room_register); read when it is
 * expanded (room_expand). */
static void drop_plan_roll(builder *b, int room)
{
    drop_plan *pl = g_new0(drop_plan, 1);
    if (b->four_dice) {
        pl->n = 4;              /* "roll four d10s all at once" */
    } else {
        pl->d1 = ucr_dice_d(b->rng, 3);
        pl->d2 = ucr_dice_d(b->rng, 3);
        pl->n = pl->d1 + pl->d2;
    }
    for (int i = 0; i < pl->n; i++) {
        drop_die *d = &pl->die[i];
        const ucr_area *a = area_at(b, room);
        d->side = (ucr_dir)(ucr_dice_d(b->rng, 4) - 1);
        d->pos = ucr_dice_d(b->rng, ucr_area_wall_length(a, d->side)) - 1;
        d->face = g_string_new(NULL);
        d->kind = table_roll(b, b->t_dir, d->face);
        d->wall = drop_door_wall(b, room, d->side, d->pos, facing_walls(b, room, ucr_compass_destination(d->kind)),
                                 &d->at);
    }
    for (int w = 0; w < 4; w++)
        drop_reserve_wall(b, room, pl, (ucr_dir)w);
    b->drops[room] = pl;
}

static void room_expand_doors(builder *b, int room, int *queue, int *nq);

/* Whether die @d's wall faces where its door leads, as the map is now. */
static bool drop_faces(const builder *b, int room, const drop_die *d)
{
    return facing_walls(b, room, ucr_compass_destination(d->kind)) >> d->wall & 1u;
}

/* Rolls the doors of @room and where each leads (room_expand_doors), with
 * the room's own walls open (walls_keep). */
static void room_expand(builder *b, int room, int *queue, int *nq)
{
    walls_open(b, room);
    room_expand_doors(b, room, queue, nq);
    walls_keep(b, room);
}

static void room_expand_doors(builder *b, int room, int *queue, int *nq)
{
    if (b->drop_dice) {
        drop_plan *pl = b->drops[room];
        g_assert(pl);
        char *count = b->four_dice ? g_strdup("four d10s dropped")
                                   : g_strdup_printf("2d3=%d (%d+%d): %d dice dropped", pl->n, pl->d1, pl->d2, pl->n);
        note(b, "%s: %s", b->label[room], count);
        g_string_append_printf(b->rolled[room], "; %s", count);
        g_free(count);
        b->expanding = pl;
        /* The dice whose corridors go round the room first, while its
         * sides are open; those whose wall faces where they lead after. */
        int order[6], no = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < pl->n; i++)
                if (drop_faces(b, room, &pl->die[i]) == (pass == 1))
                    order[no++] = i;
        for (int oi = 0; oi < pl->n; oi++) {
            int i = order[oi];
            drop_die *d = &pl->die[i];
            drop_release(b, d);
            GString *rec = g_string_new(NULL);
            g_string_append_printf(rec, "drop die %d lands by the %s wall (d4=%d, spot %d)", i + 1,
                                   ucr_dir_name(d->side), d->side + 1, d->pos + 1);
            if (d->wall != d->side)
                g_string_append_printf(rec, ", the door in the %s wall, which faces where it leads",
                                       ucr_dir_name(d->wall));
            g_string_append_printf(rec, ": %s", d->face->str);
            door_resolve(b, room, d->wall, d->at, d->kind, rec, queue, nq);
            g_string_free(rec, TRUE);
        }
        b->expanding = NULL;
        return;
    }
    /* "rolling four d8s and reading the result off the d6 table above, with
     * 7+ meaning no door" (compass-door-check.txt). */
    const char *kinds[4];
    GString *checks = g_string_new(NULL);
    bool any;
    int tries = 0;
    do {
        any = false;
        g_string_truncate(checks, 0);
        g_string_append_printf(checks, "door checks %s 4 × %dd%d =",
                               b->t_check->name, b->t_check->count, b->t_check->sides);
        for (int i = 0; i < 4; i++) {
            int total = 0;
            const ucr_table_row *row = ucr_table_roll(b->t_check, b->rng, &total);
            kinds[i] = row->tag;
            g_string_append_printf(checks, "%s %d", i ? "," : "", total);
            any |= ucr_compass_door_kind(kinds[i]).kind == UCR_COMPASS_DOOR_WALL;
        }
        tries++;
        /* The seed's whole method starts from the corridors leading out of
         * the starting room: a room 9 with no door rolls again. */
        if (room == b->hub && !any)
            note(b, "%s: %s (no door: room 9 rolls again)", b->label[room], checks->str);
    } while (room == b->hub && !any && tries < 20);
    note(b, "%s: %s", b->label[room], checks->str);
    g_string_append_printf(b->rolled[room], "; %s", checks->str);
    g_string_free(checks, TRUE);
    /* The doors first, then the ladders and stairs, which may go wherever
     * a wall has room. */
    for (int i = 0; i < 4; i++) {
        ucr_compass_door dc = ucr_compass_door_kind(kinds[i]);
        if (dc.kind != UCR_COMPASS_DOOR_WALL)
            continue;
        GString *rec = g_string_new(NULL);
        const char *kind = table_roll(b, b->t_dir, rec);
        door_resolve(b, room, dc.wall, -1, kind, rec, queue, nq);
        g_string_free(rec, TRUE);
    }
    for (int i = 0; i < 4; i++) {
        ucr_compass_door dc = ucr_compass_door_kind(kinds[i]);
        if (dc.kind == UCR_COMPASS_DOOR_LADDER || dc.kind == UCR_COMPASS_DOOR_STAIRS)
            exit_add(b, room, dc.kind == UCR_COMPASS_DOOR_LADDER);
    }
}

static int rooms_drawn(const builder *b)
{
    int n = 0;
    for (guint i = 0; i < b->node->areas->len; i++)
        n += area_at(b, (int)i)->kind == UCR_AREA_ROOM;
    return n;
}

/* Whether a door of @room reading @dest leads to a lattice place with no
 * room yet (a new room, if one fits there). */
static bool gm_leads_on(const builder *b, int room, ucr_compass_dest dest)
{
    if (dest.kind != UCR_COMPASS_TO_DIRECTION)
        return false;
    int tx = b->sx[room] + dest.dx, ty = b->sy[room] + dest.dy;
    return abs(tx) <= 2 && abs(ty) <= 2 && b->slot[tx + 2][ty + 2] < 0;
}

/* Whether the GM's new area @w × @h at (@x, @y) fits: inside the band
 * along the map's edge, on rock with a square of rock round it.  For the
 * GM's last tries (gm_band) the band (HELD while the node is drawn) counts
 * as that rock (1), and then its inner row as room for the area (2): a
 * pocket map fenced in by its corridors may have no other place for a
 * fourth room (rates-76 node F, pk-378 node D). */
static bool gm_fits(const builder *b, int x, int y, int w, int h)
{
    int edge = b->gm_band > 1 ? EDGE - 1 : EDGE;
    if (x < edge || y < edge || x + w > b->g->w - edge || y + h > b->g->h - edge)
        return false;
    if (!b->gm_band)
        return ucr_canvas_clear(b->cv, x, y, w, h, 1);
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) {
            int o = ucr_canvas_owner(b->cv, (ucr_point){ i, j });
            if (o != UCR_CANVAS_EMPTY && (o != HELD || b->gm_band < 2))
                return false;
        }
    for (int j = y - 1; j <= y + h; j++)
        for (int i = x - 1; i <= x + w; i++) {
            int o = ucr_canvas_owner(b->cv, (ucr_point){ i, j });
            if (o != UCR_CANVAS_EMPTY && o != HELD)
                return false;
        }
    return true;
}

/* The corridor from mouth @m of area @from to the new area @t: its one
 * square where the area lies just beyond the mouth (PLACE_TABLE's one
 * square of corridor, which the router does not draw: its first square may
 * touch only the area it leaves), else routed.  False where none may be. */
static bool area_route(builder *b, int from, ucr_point m, const ucr_pc_target *t, ucr_pc_path *path)
{
    bool beside = false;
    for (int d = 0; d < 4; d++) {
        ucr_point q = ucr_point_step(m, (ucr_dir)d);
        beside |= ucr_point_in_rect(q, t->x, t->y, t->w, t->h);
    }
    if (!beside)
        return ucr_pc_route(b->pc, m, from, t, b->gm_crossing, path);
    if (!ucr_canvas_square_between(b->cv, m, from, t->owner))
        return false;
    path->cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    g_array_append_val(path->cells, m);
    path->jumps = g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump));
    return true;
}

/* One place for area_beyond's new area: @w × @h at (@x, @y), reached by a
 * corridor from mouth @m of area @from.  Returns the area; -1 with @rolled
 * still owned by the caller where it does not fit or no way leads there
 * (*@drawn false), -1 with it taken where the corridor was drawn but cut
 * short (*@drawn true). */
static int area_place(builder *b, int from, ucr_point m, int x, int y, int w, int h, ucr_area_kind kind,
                      char **rolled, int door, GString *rec, bool *drawn)
{
    *drawn = false;
    if (!gm_fits(b, x, y, w, h))
        return -1;
    /* The band's squares it may lie on (gm_band 2) are rock again if it
     * is not drawn. */
    GArray *band = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++)
            if (ucr_canvas_owner(b->cv, (ucr_point){ i, j }) == HELD)
                g_array_append_val(band, ((ucr_point){ i, j }));
    ucr_canvas_fill(b->cv, x, y, w, h, UCR_CANVAS_TENTATIVE);
    ucr_pc_target t = { UCR_CANVAS_TENTATIVE, x, y, w, h, false, m };
    ucr_pc_path path;
    bool found = area_route(b, from, m, &t, &path);
    if (!found) {
        ucr_canvas_fill(b->cv, x, y, w, h, UCR_CANVAS_EMPTY);
        for (guint i = 0; i < band->len; i++)
            ucr_canvas_set(b->cv, g_array_index(band, ucr_point, i), HELD);
    }
    g_array_free(band, TRUE);
    if (!found)
        return -1;
    *drawn = true;
    ucr_pc_pending pend = { kind, x, y, w, h, kind == UCR_AREA_ROOM || b->pc->number_junctions, *rolled };
    *rolled = NULL;
    ucr_pc_end end = ucr_pc_connect(b->pc, &path, from, door, &t, &pend, rec);
    if (!end.reached || end.area < 0)
        return -1;
    if (kind == UCR_AREA_ROOM)
        g_string_append_printf(rec, " = area %d (%dx%d)", area_at(b, end.area)->key, w, h);
    return end.area;
}

/* The rectangle @w × @h whose near side lies @gap squares beyond mouth @m
 * (through wall @side), shifted @shift squares along the wall from
 * centred on it; its corner to @x, @y. */
static void beyond_rect(ucr_dir side, ucr_point m, int gap, int shift, int w, int h, int *x, int *y)
{
    *x = side == UCR_EAST ? m.x + gap : side == UCR_WEST ? m.x - gap - w + 1 : m.x - (w - 1) / 2 + shift;
    *y = side == UCR_SOUTH ? m.y + gap : side == UCR_NORTH ? m.y - gap - h + 1 : m.y - (h - 1) / 2 + shift;
}

/* Where area_beyond looks for its new area, in order: each stage from
 * some mouths of the wall (its middle, or its middle and ends), some gaps
 * out from it, shifted along it or not, the area (a room) smaller by up to
 * @shrinks - 1 squares a side, down to @least_side (as rolled first, or at
 * least 3 × 3 from the first try) — nearest first within a stage, at most
 * @routes ways searched (each a search of the map; 0: no limit). */
typedef struct {
    bool ends;          /* the wall's ends too, not only its middle */
    int near;           /* the nearest gap: 2 (two squares of corridor), 1 (one) */
    int far;            /* the farthest gap; 0: seven squares, fourteen where
                         * the GM's corridor may cross what is in its way */
    bool along;         /* shifted along the wall, up to the area's length */
    int shrinks;
    bool least;         /* a room at least 3 × 3 from the first try */
    int routes;
    int least_side;     /* the smallest side a room shrinks to */
} place_stage;

enum { AREA_ROUTES = 10 };
static const place_stage PLACE_STAGES[] = {
    { false, 2, 5, false, 3, false, 0, 3 },           /* straight out, two to five squares */
    { true, 2, 0, true, 4, true, AREA_ROUTES, 3 },    /* further off and along the wall */
};
/* A junction table's room or junction (SubMethod II's where a side passage
 * leads, leximorph's beside a junction) where none fits as above: a
 * square of corridor to it, and a room smaller if it must, down to 2 × 2
 * (as leximorph's rooms grown on a junction, seed 002). */
static const place_stage PLACE_TABLE = { true, 1, 5, true, 8, false, AREA_ROUTES, 2 };

/* One size of a stage (@rw × @rh) from mouth @m: the places nearest first
 * (by how far out and along).  Returns the area; -1 with *@done set where
 * one was drawn but cut short or the stage's routes are spent. */
static int stage_size(builder *b, int from, ucr_dir side, ucr_point m, const place_stage *st, int rw, int rh,
                      ucr_area_kind kind, char **rolled, int door, GString *rec, int *routes, bool *done)
{
    int far = st->far ? st->far : b->gm_crossing ? 14 : 7;
    int span = !st->along ? 0 : side == UCR_NORTH || side == UCR_SOUTH ? rw : rh;
    for (int reach = 0; reach <= far + span - 2; reach++)
        for (int gap = st->near; gap <= far; gap++) {
            int sh = reach - (gap - st->near);
            if (sh < 0 || sh > span)
                continue;
            for (int sgn = 0; sgn < 2; sgn++) {
                if (sgn && !sh)
                    continue;
                int x, y;
                beyond_rect(side, m, gap, sgn ? -sh : sh, rw, rh, &x, &y);
                if (!gm_fits(b, x, y, rw, rh))
                    continue;
                bool drawn;
                int got = area_place(b, from, m, x, y, rw, rh, kind, rolled, door, rec, &drawn);
                *done = got >= 0 || drawn || (st->routes && ++*routes >= st->routes);
                if (*done)
                    return got;
            }
        }
    return -1;
}

/* A new area of @kind, @w × @h (a room shrunk towards 3 × 3 where it does
 * not fit), beyond wall @side of area @from, joined to it by a corridor
 * with a door of @door (none if < 0): two to five squares straight out
 * from the middle of the wall, else further off (up to seven squares,
 * fourteen where the GM's corridor may cross what is in its way,
 * gm_crossing) from its middle and its ends, shifted along it
 * (PLACE_STAGES); for a junction table's (b->table_room) then one square
 * out and down to 2 × 2 (PLACE_TABLE).  Takes @rolled.  Appends how it ended to @rec; returns
 * the area, or -1 if none fits. */
/* One stage of area_beyond (PLACE_STAGES): each size from as rolled down
 * to the stage's smallest, from the wall's mouths.  Returns the area; -1
 * with *@done set where one was drawn but cut short or the stage's routes
 * are spent. */
static int stage_try(builder *b, int from, ucr_dir side, const place_stage *st, int w, int h, ucr_area_kind kind,
                     char **rolled, int door, GString *rec, bool *done)
{
    int wl = ucr_area_wall_length(area_at(b, from), side), hints[3] = { (wl - 1) / 2, 0, wl - 1 };
    int routes = 0, got = -1, pw = w, ph = h;
    for (int shrink = 0; shrink < st->shrinks && !*done; shrink++) {
        bool smaller = kind == UCR_AREA_ROOM && (shrink || st->least);
        int rw = smaller ? MAX(st->least_side, w - shrink) : w, rh = smaller ? MAX(st->least_side, h - shrink) : h;
        if (shrink && ((rw == w && rh == h) || (rw == pw && rh == ph)))
            break;   /* no smaller: the same places again */
        pw = rw;
        ph = rh;
        for (int hi = 0; hi < (st->ends ? 3 : 1) && !*done; hi++) {
            ucr_point m;
            if ((hi && hints[hi] == hints[0]) || !ucr_pc_mouth(b->pc, from, side, hints[hi], &m))
                continue;
            got = stage_size(b, from, side, m, st, rw, rh, kind, rolled, door, rec, &routes, done);
        }
    }
    return got;
}

static int area_beyond(builder *b, int from, ucr_dir side, int w, int h, ucr_area_kind kind, char *rolled,
                       int door, GString *rec)
{
    int got = -1;
    bool done = false;
    for (guint si = 0; si < G_N_ELEMENTS(PLACE_STAGES) && !done; si++)
        got = stage_try(b, from, side, &PLACE_STAGES[si], w, h, kind, &rolled, door, rec, &done);
    if (!done && b->table_room)
        got = stage_try(b, from, side, &PLACE_TABLE, w, h, kind, &rolled, door, rec, &done);
    g_free(rolled);
    /* A room smaller than rolled says so in its own record, too. */
    if (got >= 0 && kind == UCR_AREA_ROOM && area_at(b, got)->kind == UCR_AREA_ROOM &&
        area_at(b, got)->w * area_at(b, got)->h < w * h) {
        ucr_area *a = &g_array_index(b->node->areas, ucr_area, got);
        char *drawn = g_strdup_printf("drawn %dx%d: smaller, to fit", a->w, a->h);
        ucr_area_record_append(a, drawn);
        g_free(drawn);
    }
    return got;
}

/* The GM's exit where no rolled way leads anywhere new (a map too crowded
 * for the lattice's rooms): a door in wall @side of @room and a new room
 * (room-size table) beyond it, as a corridor check's door finds one.
 * Appends to @rec; false if none fits. */
static bool gm_room_beyond(builder *b, int room, ucr_dir side, GString *rec)
{
    GString *size = g_string_new(NULL);
    int w, h;
    ucr_pc_room_size(b->tables, b->rng, &w, &h, size);
    g_string_append_printf(rec, "so the GM draws a room beyond the door (%s)", size->str);
    char *rolled = g_strdup_printf("beyond the GM's added door: %s", size->str);
    g_string_free(size, TRUE);
    return area_beyond(b, room, side, w, h, UCR_AREA_ROOM, rolled, UCR_DOOR_PLAIN, rec) >= 0;
}

/* Writes the GM's door @rec (in wall @side of @room) into the room's
 * record and the node's rolls. */
static void gm_record(builder *b, int room, ucr_dir side, const GString *rec)
{
    if (room < MAX_AREAS && b->label[room]) {
        note(b, "%s, %s door: %s", b->label[room], ucr_dir_name(side), rec->str);
        g_string_append_printf(b->rolled[room], "; %s door: %s", ucr_dir_name(side), rec->str);
        return;
    }
    char *door = g_strdup_printf("%s door: %s", ucr_dir_name(side), rec->str);
    note(b, "room %d, %s", area_at(b, room)->key, door);
    ucr_area_record_append(&g_array_index(b->node->areas, ucr_area, room), door);
    g_free(door);
}

/* The GM's door in wall @side of @room (gm_exit): where it leads is the
 * variant's d10, rolled again while it leads nowhere new (0, 9, a place
 * already mapped: the GM's exit is for more dungeon); after two exits that
 * found no new room, the map is too crowded for the lattice's rooms and
 * the GM draws one beyond the door.  False if nothing was drawn. */
static bool gm_door(builder *b, int room, ucr_dir side, GString *rec, int *queue, int *nq)
{
    /* Only room 9 and the eight round it read the d10 (the lattice ends
     * at the outer ring): from any other room the GM draws one beyond. */
    bool inner = b->label[room] && abs(b->sx[room]) <= 1 && abs(b->sy[room]) <= 1;
    if (b->gm_misses >= 2 || !inner) {
        g_string_append(rec, "the lattice has no room to give, ");
        if (!gm_room_beyond(b, room, side, rec))
            return false;
        gm_record(b, room, side, rec);
        return true;
    }
    const char *kind = NULL;
    for (int r = 0; r < 6; r++) {
        if (r)
            g_string_append(rec, " (nothing new there: the GM rolls again) ");
        kind = table_roll(b, b->t_dir, rec);
        if (gm_leads_on(b, room, ucr_compass_destination(kind)))
            break;
    }
    door_resolve(b, room, side, -1, kind, rec, queue, nq);
    return true;
}

/* Seed 003's answer when the dice close the map early: "if you decide you
 * need more exits, you can go back and place them manually".  The GM's
 * exit is a door in a room rolled among those drawn, by a rolled wall (the
 * others in turn, and the next room, where a wall has no free mouth); where
 * it leads is the variant's d10, as for any door.  False if no wall has
 * room for one. */
static bool gm_exit(builder *b, int *queue, int *nq)
{
    int inner[MAX_AREAS], n = 0;
    for (guint i = 0; i < b->node->areas->len && i < MAX_AREAS; i++)
        if (area_at(b, (int)i)->kind == UCR_AREA_ROOM)
            inner[n++] = (int)i;
    int first = ucr_dice_d(b->rng, n), wall = ucr_dice_d(b->rng, 4) - 1, have = rooms_drawn(b);
    for (int i = 0; i < n; i++) {
        int room = inner[(first - 1 + i) % n];
        for (int k = 0; k < 4; k++) {
            ucr_dir side = (ucr_dir)((wall + k) % 4);
            const ucr_area *a = area_at(b, room);
            ucr_point m;
            if (!ucr_pc_mouth(b->pc, room, side, (ucr_area_wall_length(a, side) - 1) / 2, &m))
                continue;
            GString *rec = g_string_new(NULL);
            g_string_append_printf(rec, "the map closed at %d room%s, so the GM adds an exit (seed 003; 1d%d=%d, "
                                        "d4=%d): ", have, have == 1 ? "" : "s", n, first, wall + 1);
            walls_open(b, room);
            bool drawn = gm_door(b, room, side, rec, queue, nq);
            walls_keep(b, room);
            g_string_free(rec, TRUE);
            if (!drawn)
                continue;
            return true;
        }
    }
    return false;
}

/* After the corridor checks, a node still under MIN_ROOMS rooms: the GM's
 * door in a room's wall (a rolled room first, a rolled wall first) with a
 * room beyond it.  True if one was drawn. */
static bool gm_late_room(builder *b, int have)
{
    int rooms[MAX_AREAS], n = 0;
    for (guint i = 0; i < b->node->areas->len && i < MAX_AREAS; i++)
        if (area_at(b, (int)i)->kind == UCR_AREA_ROOM)
            rooms[n++] = (int)i;
    int first = ucr_dice_d(b->rng, n), wall = ucr_dice_d(b->rng, 4) - 1;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            int room = rooms[(first - 1 + i) % n];
            ucr_dir side = (ucr_dir)((wall + k) % 4);
            ucr_point m;
            const ucr_area *a = area_at(b, room);
            if (!ucr_pc_mouth(b->pc, room, side, (ucr_area_wall_length(a, side) - 1) / 2, &m))
                continue;
            GString *rec = g_string_new(NULL);
            g_string_append_printf(rec, "the map closed at %d room%s after the corridor checks, so the GM adds an "
                                        "exit (seed 003; 1d%d=%d, d4=%d): ", have, have == 1 ? "" : "s", n, first,
                                   wall + 1);
            bool drawn = gm_room_beyond(b, room, side, rec);
            if (drawn)
                gm_record(b, room, side, rec);
            g_string_free(rec, TRUE);
            if (drawn)
                return true;
        }
    return false;
}

/* Whether the rock from mouth @m out @gap squares through @d (a room's
 * near side there, @shift squares aside) is clear for its corridor: every
 * square of a straight way there and round it rock, and the room not
 * shifted off that line.  A room that fits beyond a corridor the GM's way
 * may not cross is no exit: its side passage would be drawn a dead end
 * (pk-883 node A: three such stubs south of a corridor towards the rock
 * beyond the corridor round it used the GM's tries before its crossings
 * and the band were allowed). */
static bool way_out_clear(const builder *b, ucr_point m, ucr_dir d, int gap, int shift)
{
    if (abs(shift) > 1)
        return false;
    if (gap < 2)
        return true;   /* the room lies just beyond the mouth */
    ucr_point a = ucr_point_step(m, d), z = a;
    for (int k = 2; k < gap; k++)
        z = ucr_point_step(z, d);
    return ucr_canvas_clear(b->cv, MIN(a.x, z.x), MIN(a.y, z.y), abs(z.x - a.x) + 1, abs(z.y - a.y) + 1, 1);
}

/* Whether a side passage may leave cell @j of passage @p through its wall
 * @d, and a room of 3 × 3 fits two to five squares out (2 × 2 from one
 * square out in the GM's last tries, b->table_room), shifted up to two
 * squares aside, with a straight way there through rock (way_out_clear),
 * or any way where the GM's corridor may cross what is in it. */
static bool room_fits_off(const builder *b, const ucr_passage *p, guint j, ucr_dir d)
{
    ucr_point c = g_array_index(p->cells, ucr_point, j), m = ucr_point_step(c, d);
    if (!ucr_canvas_inside(b->cv, m) || ucr_canvas_owner(b->cv, m) != UCR_CANVAS_EMPTY)
        return false;
    /* The side passage's first square touches nothing but the junction
     * and, corner to corner, the corridor's squares either side of it. */
    ucr_point prev = g_array_index(p->cells, ucr_point, j - 1), next = g_array_index(p->cells, ucr_point, j + 1);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ucr_point q = { m.x + dx, m.y + dy };
            bool mine = (q.x == c.x && q.y == c.y) || (dx && dy && ((q.x == prev.x && q.y == prev.y) ||
                                                                   (q.x == next.x && q.y == next.y)));
            if ((dx || dy) && !mine && ucr_canvas_inside(b->cv, q) &&
                ucr_canvas_owner(b->cv, q) != UCR_CANVAS_EMPTY)
                return false;
        }
    /* The GM's last tries (table_room): a room down to 2 × 2, one square
     * out, as PLACE_TABLE places them. */
    int side = b->table_room ? 2 : 3;
    for (int gap = side == 2 ? 1 : 2; gap <= 5; gap++)
        for (int shift = -2; shift <= 2; shift++) {
            int x, y;
            beyond_rect(d, m, gap, shift, side, side, &x, &y);
            if (gm_fits(b, x, y, side, side) && (b->gm_crossing || way_out_clear(b, m, d, gap, shift)))
                return true;
        }
    return false;
}

/* The GM's side passage where every room's walls are taken: a junction on
 * a corridor (a rolled one first) with room for a room beside it, and a
 * room beyond, through a door; where no way leads there, the side passage
 * is a dead end and the GM looks again (three such a node at most).  True
 * if anything was drawn. */
static bool gm_late_corridor(builder *b, int have)
{
    guint np = b->node->passages->len;
    if (!np || b->gm_stubs >= 3)
        return false;
    int first = ucr_dice_d(b->rng, (int)np) - 1;
    for (guint i = 0; i < np; i++) {
        int k = (int)((first + i) % np);
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
        for (guint j = 1; j + 1 < p->cells->len; j++) {
            ucr_point c = g_array_index(p->cells, ucr_point, j), nx = g_array_index(p->cells, ucr_point, j + 1);
            ucr_dir along = nx.x > c.x ? UCR_EAST : nx.x < c.x ? UCR_WEST : nx.y > c.y ? UCR_SOUTH : UCR_NORTH;
            for (int s = 1; s < 4; s += 2) {
                ucr_dir side = (ucr_dir)((along + s) % 4);
                if (!ucr_pc_split_ok(b->pc, k, (int)j) || !room_fits_off(b, p, j, side))
                    continue;
                GString *rec = g_string_new(NULL);
                g_string_append_printf(rec, "the map closed at %d room%s and no room's wall has a way out, so the "
                                            "GM adds an exit off a corridor (seed 003): ", have, have == 1 ? "" : "s");
                int jn = ucr_pc_split(b->pc, k, (int)j, b->pc->number_junctions,
                                      g_strdup("where the GM's side passage branches off (seed 003)"));
                bool drawn = false;
                guint before = b->node->passages->len;
                if (jn >= 0) {
                    /* Kept from crossings (ucr_pc_split); its own way may
                     * leave it meanwhile. */
                    bool was = ucr_canvas_busy(b->cv, c);
                    ucr_canvas_busy_set(b->cv, c, false);
                    drawn = gm_room_beyond(b, jn, side, rec);
                    ucr_canvas_busy_set(b->cv, c, was);
                    /* A way cut short by a crossing is drawn already. */
                    if (!drawn && b->node->passages->len == before)
                        ucr_pc_stub(b->pc, jn, ucr_point_step(c, side), UCR_DOOR_PLAIN);
                    gm_record(b, jn, side, rec);
                }
                g_string_free(rec, TRUE);
                if (jn >= 0) {
                    b->gm_stubs += !drawn;
                    return true;   /* the passages have changed */
                }
            }
        }
    }
    return false;
}

/* Seed 003's answer once more, after the corridor checks (which may take
 * the rock the GM's first exits would have used): rooms beyond doors
 * until the node has MIN_ROOMS, from rooms' walls, else off corridors. */
static void gm_after_checks(builder *b)
{
    int stage = 0, small_stage = 0;
    for (int tries = 0; tries < GM_TRIES; tries++) {
        int have = rooms_drawn(b);
        if (have >= MIN_ROOMS)
            break;
        /* Fenced in by corridors all round: the GM's corridor crosses
         * them (seed 000's crossing table), as any corridor may; then
         * its room may lie beside the band along the map's edge, last in
         * the band's inner row (the outermost stays free for tunnels). */
        b->gm_crossing = stage >= 1;
        b->gm_band = MIN(2, MAX(0, stage - 1));
        /* Last, where no 3 × 3 room has a place with rock round it: a
         * smaller one, down to 2 × 2, one square of corridor out (as a
         * junction table's, seed 002), its side passages counted apart
         * (stats-194 node G, stats-729 node C with --drop-dice). */
        b->table_room = stage == 4;
        if (stage == 4 && !small_stage++)
            b->gm_stubs = 0;
        if (gm_late_room(b, have) || gm_late_corridor(b, have))
            continue;
        if (stage == 4)
            break;
        stage++;
    }
    b->gm_crossing = false;
    b->gm_band = 0;
    b->table_room = false;
}

/* ---- a room grown on the junction (seed 002) ---------------------------- */

enum { GROW_WAYS = 8 };

/* The ways that enter a room grown on a junction, and how many squares of
 * each (from the room's end) it takes: the passages that end at the
 * junction, and a corridor a square or two off that the room takes in
 * (swallow >= 0), which becomes two ways, its cells before the room and
 * its cells after it. */
typedef struct {
    int n;
    int k[GROW_WAYS];
    int start[GROW_WAYS];      /* the cell nearest the junction (the room) */
    int dir[GROW_WAYS];        /* +1: outwards is up the cells, -1 down */
    int eat[GROW_WAYS];
    int own;                   /* ways [0, own) end at the junction */
    int swallow;               /* the passage taken in, or -1 */
    int mate;                  /* a junction a square or two off taken in too, or -1 … */
    int bridge;                /* … and the passage between them, all inside the room */
} grow_ways;

/* The passages ending at @jn into @ws; false where one cannot be followed
 * (both its ends there, or more than GROW_WAYS of them). */
static bool grow_ways_get(const builder *b, int jn, grow_ways *ws)
{
    ws->n = 0;
    ws->swallow = -1;
    ws->mate = ws->bridge = -1;
    for (guint k = 0; k < b->node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
        if (p->a != jn && p->b != jn)
            continue;
        if ((p->a == jn && p->b == jn) || ws->n == GROW_WAYS - 2)
            return false;
        ws->k[ws->n] = (int)k;
        ws->start[ws->n] = p->a == jn ? 0 : (int)p->cells->len - 1;
        ws->dir[ws->n++] = p->a == jn ? 1 : -1;
    }
    ws->own = ws->n;
    return ws->n > 0;
}

/* Square @e of way @i of @ws counted from the room's end; how many there
 * are into *@n. */
static ucr_point way_cell(const builder *b, const grow_ways *ws, int i, int e, int *n)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, ws->k[i]);
    *n = ws->dir[i] > 0 ? (int)p->cells->len - ws->start[i] : ws->start[i] + 1;
    return g_array_index(p->cells, ucr_point, ws->start[i] + ws->dir[i] * MIN(e, *n - 1));
}

/* Whether any of cells [@lo, @hi] of @p carries stairs, a crossing or the
 * collapse (a room may not swallow them, nor have them at its door). */
static bool way_marked(const ucr_passage *p, int lo, int hi)
{
    if (p->rubble >= lo && p->rubble <= hi)
        return true;
    for (guint i = 0; p->stairs && i < p->stairs->len; i++) {
        int s = g_array_index(p->stairs, ucr_passage_stairs, i).index;
        if (s >= lo && s <= hi)
            return true;
    }
    for (guint i = 0; p->crossings && i < p->crossings->len; i++) {
        const ucr_crossing *c = &g_array_index(p->crossings, ucr_crossing, i);
        if (c->last >= lo && c->first <= hi)
            return true;
    }
    return false;
}

/* How many squares of way @i (from the room's end) the rectangle takes, or
 * -1 where they cannot go: none of it left, a later square back inside, a
 * diagonal step, stairs, a crossing or a busy square among them, or the
 * first square left not side by side with the rectangle's wall. */
static int way_eat(const builder *b, const grow_ways *ws, int i, int x, int y, int w, int h)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, ws->k[i]);
    int n, e = 0;
    way_cell(b, ws, i, 0, &n);
    while (e < n && ucr_point_in_rect(way_cell(b, ws, i, e, &n), x, y, w, h))
        e++;
    if (e == n)
        return -1;
    for (int c = e + 1; c < n; c++)
        if (ucr_point_in_rect(way_cell(b, ws, i, c, &n), x, y, w, h))
            return -1;
    for (int c = 0; c < e; c++) {
        ucr_point q = way_cell(b, ws, i, c, &n), d = way_cell(b, ws, i, c + 1, &n);
        if (ucr_canvas_busy(b->cv, q) || abs(q.x - d.x) + abs(q.y - d.y) != 1)
            return -1;
    }
    int lo = MIN(ws->start[i], ws->start[i] + ws->dir[i] * e), hi = MAX(ws->start[i], ws->start[i] + ws->dir[i] * e);
    if (e && way_marked(p, lo, hi))
        return -1;
    ucr_point f = way_cell(b, ws, i, e, &n);
    bool across = f.x >= x && f.x < x + w && (f.y == y - 1 || f.y == y + h);
    bool along = f.y >= y && f.y < y + h && (f.x == x - 1 || f.x == x + w);
    return across || along ? e : -1;
}

/* Whether the way's first square left after the room takes its share is @s. */
static bool grow_way_end(const builder *b, const grow_ways *ws, ucr_point s)
{
    for (int i = 0; i < ws->n; i++) {
        int n;
        ucr_point f = way_cell(b, ws, i, ws->eat[i], &n);
        if (f.x == s.x && f.y == s.y)
            return true;
    }
    return false;
}

/* Whether @s, a corner of the square of rock round a room grown on a
 * junction, is a square of one of the junction's own ways: the way turns
 * there as it leaves the room, touching it corner to corner only. */
static bool grow_own_corner(const builder *b, const grow_ways *ws, ucr_point s, int x, int y, int w, int h)
{
    if ((s.x != x - 1 && s.x != x + w) || (s.y != y - 1 && s.y != y + h))
        return false;
    int o = ucr_canvas_owner(b->cv, s);
    for (int i = 0; i < ws->n; i++)
        if (o == UCR_ATTACH_PASSAGE + ws->k[i])
            return true;
    return false;
}

/* Leximorph's room where the corridors round the junction run a square or
 * two off it: the one corridor (not the junction's own) that the rectangle
 * crosses in one straight run, not at its ends, is taken in — the room
 * joins it, as a room at a junction joins the tunnels that meet there
 * (seed 002) — as two ways into @ws.  False where more than one corridor,
 * or anything else, lies inside. */
static bool grow_swallow(const builder *b, grow_ways *ws, int x, int y, int w, int h)
{
    ws->n = ws->own;
    ws->swallow = -1;
    for (int yy = y; yy < y + h; yy++)
        for (int xx = x; xx < x + w; xx++) {
            int o = ucr_canvas_owner(b->cv, (ucr_point){ xx, yy });
            if (o < UCR_ATTACH_PASSAGE || o == UCR_ATTACH_PASSAGE + ws->swallow)
                continue;
            bool own = false;
            for (int i = 0; i < ws->own && !own; i++)
                own = o == UCR_ATTACH_PASSAGE + ws->k[i];
            if (own)
                continue;
            if (ws->swallow >= 0 || ws->n + 2 > GROW_WAYS)
                return false;
            ws->swallow = o - UCR_ATTACH_PASSAGE;
        }
    if (ws->swallow < 0)
        return true;
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, ws->swallow);
    int len = (int)p->cells->len, i0 = -1, i1 = -1;
    for (int c = 0; c < len; c++)
        if (ucr_point_in_rect(g_array_index(p->cells, ucr_point, c), x, y, w, h)) {
            if (i1 >= 0 && c != i1 + 1)
                return false;   /* in twice */
            i0 = i0 < 0 ? c : i0;
            i1 = c;
        }
    if (i0 < 1 || i1 > len - 2 || p->kind == UCR_EDGE_BLOCKED)
        return false;
    ws->k[ws->n] = ws->swallow;
    ws->start[ws->n] = i1;
    ws->dir[ws->n++] = -1;
    ws->k[ws->n] = ws->swallow;
    ws->start[ws->n] = i0;
    ws->dir[ws->n++] = 1;
    return true;
}

/* Whether a room @w × @h at (@x, @y) may be grown on junction @jn (inside
 * the rectangle): it holds the junction's square, rock and the ends of the
 * junction's own ways (which it takes, filling ws->eat) and, with @swallow,
 * of one corridor it takes in, and the square of rock round it holds
 * nothing but those ways, each entering it side by side (and, at a corner,
 * turning away from it), so that what touches on the map is what the dice
 * joined. */
static bool grow_fits(const builder *b, int jn, grow_ways *ws, int x, int y, int w, int h, bool swallow)
{
    const ucr_area *j = area_at(b, jn);
    if (swallow) {
        if (!grow_swallow(b, ws, x, y, w, h) || ws->swallow < 0)
            return false;
    } else {
        ws->n = ws->own;
        ws->swallow = -1;
    }
    for (int i = 0; i < ws->n; i++)
        if ((ws->eat[i] = way_eat(b, ws, i, x, y, w, h)) < 0)
            return false;
    const ucr_area *m = ws->mate >= 0 ? area_at(b, ws->mate) : NULL;
    if (m && !ucr_point_in_rect((ucr_point){ m->x, m->y }, x, y, w, h))
        return false;
    for (int yy = y - 1; yy <= y + h; yy++)
        for (int xx = x - 1; xx <= x + w; xx++) {
            ucr_point s = { xx, yy };
            int o = ucr_canvas_owner(b->cv, s);
            if ((xx == j->x && yy == j->y) || (m && xx == m->x && yy == m->y))
                continue;
            bool in = ucr_point_in_rect(s, x, y, w, h);
            if (in && ws->bridge >= 0 && o == UCR_ATTACH_PASSAGE + ws->bridge && !ucr_canvas_busy(b->cv, s))
                continue;
            if (!in) {
                if (o != UCR_CANVAS_EMPTY && !grow_way_end(b, ws, s) && !grow_own_corner(b, ws, s, x, y, w, h))
                    return false;
                continue;
            }
            if (ucr_canvas_busy(b->cv, s))
                return false;
            bool eaten = false;
            for (int i = 0; i < ws->n && !eaten; i++)
                eaten = ws->eat[i] && o == UCR_ATTACH_PASSAGE + ws->k[i];
            if (o != UCR_CANVAS_EMPTY && !eaten)
                return false;
        }
    return true;
}

/* The wall of the rectangle that square @f, just outside it, faces. */
static ucr_dir rect_side(ucr_point f, int x, int y, int h)
{
    return f.y < y ? UCR_NORTH : f.y >= y + h ? UCR_SOUTH : f.x < x ? UCR_WEST : UCR_EAST;
}

/* Drops the first @e cells of @p, its steps, crossings and collapse
 * counted on from the new first cell. */
static void way_trim_front(ucr_passage *p, int e)
{
    g_array_remove_range(p->cells, 0, (guint)e);
    if (p->rubble >= 0)
        p->rubble -= e;
    for (guint s = 0; p->stairs && s < p->stairs->len; s++)
        g_array_index(p->stairs, ucr_passage_stairs, s).index -= e;
    for (guint c = 0; p->crossings && c < p->crossings->len; c++) {
        g_array_index(p->crossings, ucr_crossing, c).first -= e;
        g_array_index(p->crossings, ucr_crossing, c).last -= e;
    }
}

/* The corridor a room grown on @jn takes in (ws->swallow) becomes two
 * passages that end at the room: split where it enters, the squares
 * inside dropped, the second half's squares its own on the canvas. */
static void grow_split(builder *b, int jn, const grow_ways *ws)
{
    int k = ws->swallow, i0 = ws->start[ws->own + 1], i1 = ws->start[ws->own];
    int k2 = ucr_node_split_passage(b->node, k, i0, jn);
    ucr_passage *p2 = &g_array_index(b->node->passages, ucr_passage, k2);
    if (i1 > i0)
        way_trim_front(p2, i1 - i0);
    for (guint c = 0; c < p2->cells->len; c++) {
        ucr_point q = g_array_index(p2->cells, ucr_point, c);
        if (ucr_canvas_owner(b->cv, q) == UCR_ATTACH_PASSAGE + k)
            ucr_canvas_set(b->cv, q, UCR_ATTACH_PASSAGE + k2);
    }
}

/* Grows junction @jn into the room @w × @h at (@x, @y) that grow_fits()
 * allowed: its ways shortened by what it takes, their doors moved to where
 * they now meet it, a corridor it takes in split round it, the room
 * numbered as drawn. */
static void grow_apply(builder *b, int jn, const grow_ways *ws, int x, int y, int w, int h)
{
    for (int i = 0; i < ws->own; i++) {
        ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, ws->k[i]);
        int e = ws->eat[i], n;
        if (!e)
            continue;
        if (ws->dir[i] > 0)
            way_trim_front(p, e);
        else
            g_array_set_size(p->cells, p->cells->len - (guint)e);
        grow_ways moved = *ws;
        moved.start[i] = ws->dir[i] > 0 ? 0 : (int)p->cells->len - 1;
        ucr_point f = way_cell(b, &moved, i, 0, &n);
        for (guint d = 0; d < b->node->doors->len; d++) {
            ucr_door *dr = &g_array_index(b->node->doors, ucr_door, d);
            if ((dr->area == jn || dr->area == ws->mate) && dr->passage == ws->k[i]) {
                dr->cell = f;
                dr->side = rect_side(f, x, y, h);
            }
        }
    }
    if (ws->swallow >= 0)
        grow_split(b, jn, ws);
    ucr_canvas_fill(b->cv, x, y, w, h, jn);
    ucr_area *a = &g_array_index(b->node->areas, ucr_area, jn);
    a->kind = UCR_AREA_ROOM;
    a->x = x;
    a->y = y;
    a->w = w;
    a->h = h;
    if (!a->key)
        a->key = b->pc->next_key++;
}

/* Whether the rectangle lies only towards @toward from (@jx, @jy), on its
 * far wall (any way where @toward < 0). */
static bool grow_toward(int toward, int jx, int jy, int x, int y, int w, int h)
{
    switch (toward) {
    case UCR_NORTH: return y + h - 1 == jy;
    case UCR_SOUTH: return y == jy;
    case UCR_WEST: return x + w - 1 == jx;
    case UCR_EAST: return x == jx;
    default: return true;
    }
}

/* Seed 002's d6 = 6 as the leximorph method draws it: the junction is a
 * room (@rw × @rh, turned or smaller down to 2 × 2 where it must), grown
 * round the junction's square over the rock beside it and the first
 * squares of the ways that meet there, which now enter the room.  Tries
 * the sizes largest first, each placed round the junction from the middle
 * outwards; no search, a look at the squares only.  With @toward >= 0 the
 * room lies only that way from the junction's square (SubMethod II's room
 * straight off the corridor).  Appends to @rec; false where no size fits. */
/* Grows @jn into a room @w × @h (or turned, where @turns) placed round
 * the junction's square from the middle outwards, as junction_grow()
 * describes; false where no place fits. */
static bool grow_size(builder *b, int jn, grow_ways *ws, int w, int h, bool turns, int toward, bool swallow)
{
    const ucr_area *j = area_at(b, jn);
    int jx = j->x, jy = j->y;
    for (int turn = 0; turn < (w == h || !turns ? 1 : 2); turn++) {
        int tw = turn ? h : w, th = turn ? w : h;
        for (int oy = 0; oy < th; oy++)
            for (int ox = 0; ox < tw; ox++) {
                int x = jx - (tw - 1) / 2 + ((ox % 2) ? -(ox + 1) / 2 : ox / 2);
                int y = jy - (th - 1) / 2 + ((oy % 2) ? -(oy + 1) / 2 : oy / 2);
                if (!ucr_point_in_rect((ucr_point){ jx, jy }, x, y, tw, th) || !grow_toward(toward, jx, jy, x, y, tw, th) ||
                    !grow_fits(b, jn, ws, x, y, tw, th, swallow))
                    continue;
                grow_apply(b, jn, ws, x, y, tw, th);
                return true;
            }
    }
    return false;
}

static bool grow_sizes(builder *b, int jn, grow_ways *ws, int rw, int rh, int toward, bool swallow);

/* Whether @w × @h is one of the sizes junction_grow() tries first: the
 * rolled size less the same on both sides, down to 2. */
static bool grow_first_size(int rw, int rh, int w, int h)
{
    for (int s = 0; s < 12; s++) {
        if (w == MAX(2, rw - s) && h == MAX(2, rh - s))
            return true;
        if (MAX(2, rw - s) == 2 && MAX(2, rh - s) == 2)
            break;
    }
    return false;
}

/* Seed 002's d6 = 6 as the leximorph method draws it: the junction is a
 * room (@rw × @rh, turned or smaller down to 2 × 2 where it must), grown
 * round the junction's square over the rock beside it and the first
 * squares of the ways that meet there, which now enter the room.  Tries
 * the sizes largest first (the rolled size less the same on both sides,
 * then every other size within it, the most floor first), each placed
 * round the junction from the middle outwards; no search, a look at the
 * squares only.  With @toward >= 0 the room lies only that way from the
 * junction's square (SubMethod II's room straight off the corridor).
 * Appends to @rec; false where no size fits. */
static bool junction_grow(builder *b, int jn, int rw, int rh, int toward, bool swallow, GString *rec)
{
    grow_ways ws;
    if (!grow_ways_get(b, jn, &ws) || !grow_sizes(b, jn, &ws, rw, rh, toward, swallow))
        return false;
    const ucr_area *a = area_at(b, jn);
    g_string_append_printf(rec, " = area %d (%dx%d, grown on the junction%s", a->key, a->w, a->h,
                           swallow ? ", taking in the corridor beside it" : "");
    if (a->w * a->h < rw * rh)
        g_string_append_printf(rec, "; only %dx%d fits", a->w, a->h);
    g_string_append(rec, ")");
    return true;
}

/* The sizes junction_grow() tries, largest first, for the ways @ws; false
 * where none fits, else the junction is grown. */
static bool grow_sizes(builder *b, int jn, grow_ways *ws, int rw, int rh, int toward, bool swallow)
{
    for (int s = 0; s < 12; s++) {
        int w = MAX(2, rw - s), h = MAX(2, rh - s);
        if (grow_size(b, jn, ws, w, h, true, toward, swallow))
            return true;
        if (w == 2 && h == 2)
            break;
    }
    /* Then the sizes between: a room narrower one way only (a corridor
     * two squares off on one side, none on the other), turned too. */
    int mw = MAX(rw, 2), mh = MAX(rh, 2);
    for (int area = mw * mh; area >= 4; area--)
        for (int w = 2; w <= mw; w++) {
            int h = area / w;
            if (h * w != area || h < 2 || h > mh || grow_first_size(rw, rh, w, h))
                continue;
            if (grow_size(b, jn, ws, w, h, false, toward, swallow) ||
                (w != h && h <= mw && w <= mh && grow_size(b, jn, ws, h, w, false, toward, swallow)))
                return true;
        }
    return false;
}

/* ---- a room that takes in the junction beside it ------------------------ */

/* Drops passage @k (its squares already the room's): its doors go, and
 * every passage index after it (canvas, doors, crossings, the checks'
 * marks) moves down one. */
static void passage_drop(builder *b, int k)
{
    ucr_node *node = b->node;
    for (guint d = node->doors->len; d-- > 0;) {
        ucr_door *dr = &g_array_index(node->doors, ucr_door, d);
        if (dr->passage == k)
            g_array_remove_index(node->doors, d);
        else if (dr->passage > k)
            dr->passage--;
    }
    for (guint q = 0; q < node->passages->len; q++) {
        ucr_passage *p = &g_array_index(node->passages, ucr_passage, q);
        for (guint c = 0; p->crossings && c < p->crossings->len; c++) {
            ucr_crossing *x = &g_array_index(p->crossings, ucr_crossing, c);
            if (x->passage > k)
                x->passage--;
        }
    }
    for (int y = 0; y < b->cv->h; y++)
        for (int x = 0; x < b->cv->w; x++) {
            int o = ucr_canvas_owner(b->cv, (ucr_point){ x, y });
            if (o > UCR_ATTACH_PASSAGE + k)
                ucr_canvas_set(b->cv, (ucr_point){ x, y }, o - 1);
        }
    if (b->pc->checked && (int)b->pc->checked->len > k)
        g_byte_array_remove_index(b->pc->checked, (guint)k);
    if (b->pc->every && (int)b->pc->every->len > k)
        g_byte_array_remove_index(b->pc->every, (guint)k);
    ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
    g_array_free(p->cells, TRUE);
    if (p->stairs)
        g_array_free(p->stairs, TRUE);
    if (p->crossings)
        g_array_free(p->crossings, TRUE);
    g_array_remove_index(node->passages, (guint)k);
}

/* Shifts the builder's per-area arrays down over @v. */
static void builder_area_drop(builder *b, int v)
{
    if (b->rolled[v])
        g_string_free(b->rolled[v], TRUE);
    g_free(b->label[v]);
    g_free(b->drops[v]);
    size_t n = (size_t)(MAX_AREAS - v - 1);
#define SHIFT(arr) memmove(&(arr)[v], &(arr)[v + 1], n * sizeof (arr)[0])
    SHIFT(b->sx); SHIFT(b->sy); SHIFT(b->rolled); SHIFT(b->label); SHIFT(b->exit_landing);
    SHIFT(b->drops); SHIFT(b->kept); SHIFT(b->keeping);
#undef SHIFT
    b->rolled[MAX_AREAS - 1] = NULL;
    b->label[MAX_AREAS - 1] = NULL;
    b->drops[MAX_AREAS - 1] = NULL;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            b->slot[i][j] -= b->slot[i][j] > v;
    b->hub -= b->hub > v;
    for (guint i = 0; b->plan->step_area && i < b->plan->step_area->len; i++)
        g_array_index(b->plan->step_area, int, i) -= g_array_index(b->plan->step_area, int, i) > v;
}

/* Drops area @v (a junction now part of a room: no passage or door ends
 * at it any more): every area index after it moves down one, on the
 * canvas, the vertices, passages, doors, crossings, links and builder. */
static void area_drop(builder *b, int v)
{
    ucr_node *node = b->node;
    ucr_area *a = &g_array_index(node->areas, ucr_area, v);
    g_free(a->rolled);
    ucr_area_stock_clear(a);
    g_array_remove_index(node->areas, (guint)v);
    g_array_remove_index(node->vertices, (guint)v);
    for (guint i = 0; i < node->vertices->len; i++) {
        ucr_vertex *vx = &g_array_index(node->vertices, ucr_vertex, i);
        vx->area -= vx->area > v;
    }
    for (guint q = 0; q < node->passages->len; q++) {
        ucr_passage *p = &g_array_index(node->passages, ucr_passage, q);
        p->a -= p->a > v;
        p->b -= p->b > v;
        for (guint c = 0; p->crossings && c < p->crossings->len; c++)
            g_array_index(p->crossings, ucr_crossing, c).area -= g_array_index(p->crossings, ucr_crossing, c).area > v;
    }
    for (guint d = 0; d < node->doors->len; d++)
        g_array_index(node->doors, ucr_door, d).area -= g_array_index(node->doors, ucr_door, d).area > v;
    for (guint l = 0; node->links && l < node->links->len; l++)
        g_array_index(node->links, ucr_link, l).area -= g_array_index(node->links, ucr_link, l).area > v;
    node->entry_area -= node->entry_area > v;
    for (int y = 0; y < b->cv->h; y++)
        for (int x = 0; x < b->cv->w; x++) {
            int o = ucr_canvas_owner(b->cv, (ucr_point){ x, y });
            if (o > v && o < UCR_CANVAS_TENTATIVE)
                ucr_canvas_set(b->cv, (ucr_point){ x, y }, o - 1);
        }
    builder_area_drop(b, v);
}

/* Whether passage @k, between junctions @jn and @v, may lie wholly inside
 * a room grown on them: a square or two long, nothing on it or crossing
 * it, and the only passage between them. */
static bool bridge_ok(const builder *b, int jn, int v, int k)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    if (p->cells->len > 2 || p->kind == UCR_EDGE_BLOCKED || way_marked(p, 0, (int)p->cells->len - 1))
        return false;
    for (guint q = 0; q < b->node->passages->len; q++) {
        const ucr_passage *o = &g_array_index(b->node->passages, ucr_passage, q);
        if ((int)q != k && ((o->a == jn && o->b == v) || (o->a == v && o->b == jn)))
            return false;
        for (guint c = 0; o->crossings && c < o->crossings->len; c++)
            if (g_array_index(o->crossings, ucr_crossing, c).passage == k)
                return false;
    }
    return true;
}

/* The junction at the far end of way @i of @ws that a room grown on @jn
 * may take in (a junction of the node's corridors, no tunnel's or
 * stairs', whose own d6 drew nothing there and rolled no room), or -1. */
static int grow_mate(const builder *b, int jn, const grow_ways *ws, int i)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, ws->k[i]);
    int v = p->a == jn ? p->b : p->a;
    if (v < 0 || v >= (int)b->node->areas->len || v == jn)
        return -1;
    const ucr_area *m = area_at(b, v);
    if (m->kind != UCR_AREA_JUNCTION || m->link >= 0 || m->stair != UCR_STAIR_NONE ||
        m->feature != UCR_FEATURE_NONE || (m->rolled && strstr(m->rolled, "d6=6")))
        return -1;
    return bridge_ok(b, jn, v, ws->k[i]) ? v : -1;
}

/* The ways of a room grown on @jn and junction @v together into @ws: each
 * one's, less bridge @k between them; false where they cannot be followed. */
static bool grow_pair_ways(const builder *b, int jn, int v, int k, grow_ways *ws)
{
    grow_ways mine, theirs;
    if (!grow_ways_get(b, jn, &mine) || !grow_ways_get(b, v, &theirs) || mine.n + theirs.n - 2 > GROW_WAYS - 2)
        return false;
    *ws = mine;
    ws->n = 0;
    for (int s = 0; s < 2; s++) {
        const grow_ways *from = s ? &theirs : &mine;
        for (int i = 0; i < from->n; i++) {
            if (from->k[i] == k)
                continue;
            ws->k[ws->n] = from->k[i];
            ws->start[ws->n] = from->start[i];
            ws->dir[ws->n++] = from->dir[i];
        }
    }
    ws->own = ws->n;
    ws->mate = v;
    ws->bridge = k;
    return true;
}

/* Joins junction @v to the room just grown on *@jn over bridge @k: its
 * ways and doors now the room's, the bridge and @v dropped (*@jn moves
 * down one where @v came before it). */
static void grow_pair_join(builder *b, int *jn, int v, int k)
{
    for (guint q = 0; q < b->node->passages->len; q++) {
        ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, q);
        if ((int)q == k)
            continue;
        if (p->a == v)
            p->a = *jn;
        if (p->b == v)
            p->b = *jn;
    }
    for (guint d = 0; d < b->node->doors->len; d++) {
        ucr_door *dr = &g_array_index(b->node->doors, ucr_door, d);
        if (dr->area == v && dr->passage != k)
            dr->area = *jn;
    }
    passage_drop(b, k);
    area_drop(b, v);
    *jn -= *jn > v;
}

/* Leximorph's room where a way of the junction runs a square or two to
 * another junction and no room fits round the first alone: the room takes
 * in both (seed 002, "how the two tunnels connect: room"), the way between
 * them inside it, the other junction's ways now entering the room.  Says
 * so in @rec (with the other junction's own roll, if it has one).  Returns
 * the area index dropped (the other junction; *@jn moves down one where it
 * came before), or -1 where none fits. */
static int junction_grow_pair(builder *b, int *jn, int rw, int rh, GString *rec)
{
    grow_ways own;
    if (!grow_ways_get(b, *jn, &own))
        return -1;
    for (int i = 0; i < own.own; i++) {
        int v = grow_mate(b, *jn, &own, i), k = own.k[i];
        grow_ways ws;
        if (v < 0 || !grow_pair_ways(b, *jn, v, k, &ws))
            continue;
        char *theirs = g_strdup(area_at(b, v)->rolled);
        if (!grow_sizes(b, *jn, &ws, rw, rh, -1, false)) {
            g_free(theirs);
            continue;
        }
        grow_pair_join(b, jn, v, k);
        const ucr_area *a = area_at(b, *jn);
        g_string_append_printf(rec, " = area %d (%dx%d, grown on the junction, taking in the junction beside it",
                               a->key, a->w, a->h);
        if (a->w * a->h < rw * rh)
            g_string_append_printf(rec, "; only %dx%d fits", a->w, a->h);
        /* The other junction's d6 is rolled already where it came first;
         * else it has none of its own: it is this room. */
        bool rolled = theirs && strstr(theirs, "the leximorph junction table");
        g_string_append_printf(rec, "; the junction beside it (%s) is part of the room%s", theirs ? theirs : "",
                               rolled ? "" : ", with no d6 of its own");
        g_string_append(rec, ")");
        g_free(theirs);
        return v;
    }
    return -1;
}

/* ---- the junction table (seed 001 variant) ------------------------------ */

/* "You can use the junction table from either SubMethod II or the
 * pre-loaded leximorph method, along with some method of checking every 60
 * feet of corridor for additional exits, to fill in extra details."
 *
 * SubMethod II's (clock-unmapped, d10) says what lies where a side passage
 * the checks find goes, when no room is beside it (check_exit): "On a 0,
 * the passage dead ends.  On any result up to 6, there's a junction.  Roll
 * again twice for destination ... with doubles indicating that the junction
 * is a turn rather than an intersection.  On any result over 6, there's a
 * room."  The two destinations are d8s over the variant's eight directions,
 * each a way of 20 ft from the new junction towards it. */
static void junction_ways(builder *b, int jn, ucr_dir came, GString *rec)
{
    int d1 = ucr_dice_d(b->rng, 8), d2 = ucr_dice_d(b->rng, 8);
    g_string_append_printf(rec, "; d8=%d, d8=%d: %s", d1, d2, d1 == d2 ? "a turn" : "an intersection");
    for (int i = 0; i < (d1 == d2 ? 1 : 2); i++) {
        int d = i ? d2 : d1;
        /* The general direction: north and north-east north, and so on
         * round; back the way it came is straight on instead. */
        ucr_dir w = (ucr_dir)((d - 1) / 2);
        if (w == (ucr_dir)((came + 2) % 4))
            w = came;
        bool ok = dead_end_draw(b, jn, w, 0, 2, 0) || dead_end_draw(b, jn, w, 0, 1, 0);
        g_string_append_printf(rec, "; %s (d8=%d): %s", DIR8_NAME[d], d, ok ? "a way on, 20 ft" : "no room that way");
    }
}

/* SubMethod II's room where a side passage leads, through wall @wall of
 * junction @jn (@size: the room-size roll, @w × @h): beyond the wall, else
 * (an open way, not a door) straight off the corridor.  Returns the area or
 * -1; appends to @rec. */
static int submethod2_room(builder *b, int jn, ucr_dir wall, bool door, int w, int h, const char *size,
                           GString *rec)
{
    int got = area_beyond(b, jn, wall, w, h, UCR_AREA_ROOM,
                          g_strdup_printf("where a side passage leads (SubMethod II's junction table): %s", size),
                          door ? UCR_DOOR_PLAIN : -1, rec);
    /* No rock for a passage and a room beyond it: the room opens straight
     * off the corridor, grown on the junction towards the wall (seed 000:
     * "there is no corridor and the door leads directly into the new
     * room"); an open way, so not for a door. */
    if (got >= 0 || door)
        return got;
    GString *grown = g_string_new(" (no rock for a passage: the room opens off the corridor");
    if (junction_grow(b, jn, w, h, (int)wall, false, grown)) {
        g_string_append(rec, grown->str);
        g_string_append(rec, ")");
        got = jn;
        char *said = g_strdup_printf("where a side passage leads (SubMethod II's junction table): %s, "
                                     "opening straight off the corridor", size);
        ucr_area_record_append(&g_array_index(b->node->areas, ucr_area, jn), said);
        g_free(said);
    }
    g_string_free(grown, TRUE);
    return got;
}

/* SubMethod II's junction where a side passage leads, through wall @wall
 * of junction @jn: a new one beyond the wall with its two d8 ways, else
 * where a corridor already runs (two squares of rock to it, as most of
 * those left over: no new junction with a way on fits there) a junction on
 * it, whose ways on are its own (seed 001: "If there is a room or corridor
 * already in that location, the new corridor connects with it").  Returns
 * the junction or -1; appends to @rec. */
static int submethod2_junction(builder *b, int jn, ucr_dir wall, bool door, GString *rec)
{
    int got = area_beyond(b, jn, wall, 1, 1, UCR_AREA_JUNCTION,
                          g_strdup("where a side passage leads (SubMethod II's junction table)"),
                          door ? UCR_DOOR_PLAIN : -1, rec);
    if (got >= 0) {
        junction_ways(b, got, wall, rec);
        return got;
    }
    GString *join = g_string_new(" (");
    got = ucr_pc_join_beyond(b->pc, jn, wall, door,
                             g_strdup("where a side passage leads (SubMethod II's junction table), "
                                      "on a corridor already there"),
                             join);
    if (got >= 0) {
        g_string_append(rec, join->str);
        g_string_append(rec, ")");
    }
    g_string_free(join, TRUE);
    return got;
}

static void check_exit_submethod2(void *data, int jn, ucr_dir wall, bool door, GString *rec)
{
    builder *b = data;
    int total = 0;
    const ucr_table_row *row = ucr_table_roll(b->t_unmapped, b->rng, &total);
    g_string_append_printf(rec, "SubMethod II's junction table %s %dd%d=%d: %s", b->t_unmapped->name,
                           b->t_unmapped->count, b->t_unmapped->sides, total % 10, row->text);
    int got = -1;
    /* The junction's square is kept from crossings (ucr_pc_split); its own
     * way may leave it meanwhile. */
    const ucr_area *j = area_at(b, jn);
    ucr_point at = { j->x, j->y };
    bool was = ucr_canvas_busy(b->cv, at);
    ucr_canvas_busy_set(b->cv, at, false);
    b->table_room = true;
    bool room = g_strcmp0(row->tag, "room") == 0, junction = g_strcmp0(row->tag, "junction") == 0;
    GString *size = g_string_new(NULL);
    int w = 0, h = 0;
    if (room) {
        ucr_pc_room_size(b->tables, b->rng, &w, &h, size);
        g_string_append_printf(rec, " (%s)", size->str);
    }
    /* The check's wall was a coin's, "the other if that one has no room"
     * (ucr_pc_corridor_checks): where the rolled room or junction fits
     * nowhere through it (a corridor along the map's edge band, two
     * squares of rock before it), the passage leaves by the other wall. */
    for (int pass = 0; pass < 2 && got < 0 && (room || junction); pass++) {
        ucr_dir d = pass ? (ucr_dir)((wall + 2) % 4) : wall;
        GString *try_rec = g_string_new(NULL);
        if (pass)
            g_string_append_printf(try_rec, " (no place for it through the %s wall: through the %s wall)",
                                   ucr_dir_name(wall), ucr_dir_name(d));
        got = room ? submethod2_room(b, jn, d, door, w, h, size->str, try_rec)
                   : submethod2_junction(b, jn, d, door, try_rec);
        if (got >= 0 || !pass)
            g_string_append(rec, try_rec->str);
        g_string_free(try_rec, TRUE);
    }
    g_string_free(size, TRUE);
    b->table_room = false;
    if (got < 0) {
        if (room || junction)
            g_string_append(rec, " (no room for it: a dead end)");
        ucr_pc_stub(b->pc, jn, ucr_point_step(at, wall), door ? UCR_DOOR_PLAIN : -1);
    }
    ucr_canvas_busy_set(b->cv, at, was);
}

/* The passage of @jn that has no door at that end yet, rolled among them
 * (1dN), or -1. */
static int junction_door_passage(builder *b, int jn, GString *rec)
{
    int cand[16], n = 0;
    for (guint k = 0; k < b->node->passages->len && n < 16; k++) {
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
        if (p->a != jn && p->b != jn)
            continue;
        bool has = false;
        for (guint d = 0; d < b->node->doors->len && !has; d++) {
            const ucr_door *dr = &g_array_index(b->node->doors, ucr_door, d);
            has = dr->area == jn && dr->passage == (int)k;
        }
        if (!has)
            cand[n++] = (int)k;
    }
    if (!n)
        return -1;
    int r = n > 1 ? ucr_dice_d(b->rng, n) : 1;
    if (n > 1)
        g_string_append_printf(rec, " (d%d=%d of its ways)", n, r);
    return cand[r - 1];
}

/* The leximorph table (seed 002): "At every corner or junction ... roll to
 * see how the two tunnels connect (d6): 1 ordinary junction, 2 trapped
 * junction, 3 trapped junction (disabled), 4 minor obstacle (debris, pool
 * of liquid), 5 door, 6 room" — at every junction of the node's corridors.
 * A room is drawn beside the junction where one fits (a wall rolled, the
 * others in turn), else the junction stays ordinary.  Returns the index
 * of a junction beside it that its room took in (dropped: the indices
 * after it move down one), or -1. */
static int junction_leximorph(builder *b, int jn)
{
    int dropped = -1;
    const ucr_table *jt = b->t_lexi;
    int d6 = 0;
    const ucr_table_row *row = ucr_table_roll(jt, b->rng, &d6);
    GString *w = g_string_new(NULL);
    g_string_printf(w, "the leximorph junction table %s d%d=%d: %s", jt->name, jt->sides, d6, row->text);
    ucr_area_feature f = UCR_FEATURE_NONE;
    if (g_strcmp0(row->tag, "trapped") == 0) {
        f = UCR_FEATURE_TRAP;
    } else if (g_strcmp0(row->tag, "disabled") == 0) {
        f = UCR_FEATURE_TRAP_DISABLED;
    } else if (g_strcmp0(row->tag, "obstacle") == 0) {
        const ucr_table_row *o = ucr_table_roll(b->t_obstacle, b->rng, NULL);
        f = g_strcmp0(o->tag, "debris") == 0 ? UCR_FEATURE_DEBRIS : UCR_FEATURE_POOL;
        g_string_append_printf(w, ", coin: %s", o->text);
    } else if (g_strcmp0(row->tag, "door") == 0) {
        int k = junction_door_passage(b, jn, w);
        if (k >= 0)
            ucr_node_add_door(b->node, jn, k, UCR_DOOR_PLAIN);
        else
            g_string_append(w, " (every way has one already)");
    } else if (g_strcmp0(row->tag, "room") == 0) {
        GString *size = g_string_new(NULL);
        int rw, rh, first = ucr_dice_d(b->rng, 4) - 1, got = -1;
        ucr_pc_room_size(b->tables, b->rng, &rw, &rh, size);
        g_string_append_printf(w, "; %s", size->str);
        /* The junction's square is kept from crossings (ucr_pc_split);
         * the room's way may leave it meanwhile. */
        const ucr_area *j = area_at(b, jn);
        ucr_point at = { j->x, j->y };
        bool was = ucr_canvas_busy(b->cv, at);
        ucr_canvas_busy_set(b->cv, at, false);
        if (junction_grow(b, jn, rw, rh, -1, false, w))
            got = jn;
        b->table_room = true;
        for (int k = 0; k < 4 && got < 0; k++)
            got = area_beyond(b, jn, (ucr_dir)((first + k) % 4), rw, rh, UCR_AREA_ROOM,
                              g_strdup_printf("at a junction (the leximorph junction table): %s", size->str), -1, w);
        b->table_room = false;
        /* Corridors a square or two off on every side (on these maps they
         * run a square apart): the room takes in the nearest, which now
         * meets the others in it ("how the two tunnels connect: room"). */
        if (got < 0 && junction_grow(b, jn, rw, rh, -1, true, w))
            got = jn;
        /* A way a square or two long to another junction, inside any room
         * round this one: the room takes in both. */
        if (got < 0 && (dropped = junction_grow_pair(b, &jn, rw, rh, w)) >= 0)
            got = jn;
        ucr_canvas_busy_set(b->cv, at, was);
        if (got < 0)
            g_string_append(w, " (no room fits beside it: an ordinary junction)");
        g_string_free(size, TRUE);
    }
    ucr_area *a = &g_array_index(b->node->areas, ucr_area, jn);
    a->feature = f;
    /* A junction the 6 grew into a room is that room, stocked as one (as
     * leximorph's own rooms are); a junction keeps what the d6 said. */
    a->feature_rolled = a->kind == UCR_AREA_JUNCTION;
    ucr_area_record_append(a, w->str);
    g_ptr_array_add(b->node->rolls, g_string_free(w, FALSE));
    return dropped;
}

static void junctions_leximorph(builder *b)
{
    int n = (int)b->node->areas->len;   /* not the rooms it adds */
    for (int i = 0; i < n; i++) {
        if (area_at(b, i)->kind != UCR_AREA_JUNCTION)
            continue;
        int dropped = junction_leximorph(b, i);
        if (dropped >= 0 && dropped < n)
            n--;
        if (dropped >= 0 && dropped < i)
            i--;
    }
}

/* The dice dropped on the map are picked up: their squares freed, their
 * faces forgotten. */
static void drops_free(builder *b)
{
    for (int i = 0; i < MAX_AREAS; i++)
        if (b->drops[i]) {
            for (int k = 0; k < b->drops[i]->n; k++) {
                drop_release(b, &b->drops[i]->die[k]);
                g_string_free(b->drops[i]->die[k].face, TRUE);
            }
            g_free(b->drops[i]);
        }
}

/* Which junction table the node uses (true: leximorph's), as given or by
 * a coin ("either"), written to the rolls. */
static bool junction_table(builder *b, ucr_compass_junctions j)
{
    bool heads = false;
    if (j == UCR_COMPASS_JUNCTIONS_ROLL)
        heads = ucr_dice_coin(b->rng);
    bool lexi = j == UCR_COMPASS_JUNCTIONS_LEXIMORPH || (j == UCR_COMPASS_JUNCTIONS_ROLL && heads);
    note(b, "junction table%s: %s (seed 001 variant)", j != UCR_COMPASS_JUNCTIONS_ROLL ? " (--junctions)"
                                                        : heads ? ", coin heads" : ", coin tails",
         lexi ? "the leximorph method's, d6 at every junction" : "SubMethod II's, d10 where a side passage leads");
    return lexi;
}

static void *compass_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                          const ucr_method_options *options)
{
    (void)join_sides;
    const compass_geom *g = &GEOMS[options ? options->node_size : UCR_NODE_STANDARD];
    compass_plan *plan = g_new0(compass_plan, 1);
    plan->steps = g_ptr_array_new_with_free_func(g_free);
    plan->step_area = g_array_new(FALSE, FALSE, sizeof(int));
    builder *b = g_new0(builder, 1);
    b->plan = plan;
    b->node = ucr_node_new("?", 0, 0);
    b->node->method = "compass";
    b->g = g;
    b->node->width = g->w;
    b->node->height = g->h;
    b->pc = ucr_pc_new(b->node, rng, tables);
    b->cv = b->pc->cv;
    b->rng = rng;
    b->tables = tables;
    /* Checked at load (COMPASS_TABLES, below). */
    b->t_dir = ucr_tables_need(tables, "compass-direction");
    b->t_check = ucr_tables_need(tables, "compass-door-check");
    b->t_second = ucr_tables_need(tables, "compass-second-door");
    b->t_dead = ucr_tables_need(tables, "compass-dead-end");
    b->t_unmapped = ucr_tables_need(tables, "clock-unmapped");
    b->t_lexi = ucr_tables_need(tables, "leximorph-junction");
    b->t_obstacle = ucr_tables_need(tables, "leximorph-obstacle");
    const ucr_compass_options *own = ucr_method_options_get(options, &ucr_compass_method);
    b->drop_dice = own && own->drop_dice;
    b->four_dice = own && own->four_dice;
    b->variety = own && own->variety;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            b->slot[i][j] = -1;
    for (int i = 0; i < MAX_AREAS; i++)
        b->sx[i] = b->sy[i] = 99;
    ucr_area spot;
    GString *rolled;
    /* A band of EDGE squares along the map's edge stays rock while the node
     * is drawn (marked as off the map), so that the superstructure's tunnels,
     * added in embed on a fresh canvas, always find a way in. */
    ucr_canvas_fill(b->cv, 0, 0, g->w, EDGE, HELD);
    ucr_canvas_fill(b->cv, 0, g->h - EDGE, g->w, EDGE, HELD);
    ucr_canvas_fill(b->cv, 0, 0, EDGE, g->h, HELD);
    ucr_canvas_fill(b->cv, g->w - EDGE, 0, EDGE, g->h, HELD);
    bool placed = room_spot(b, 0, 0, NULL, 0, NULL, &spot, &rolled);
    g_assert(placed);
    /* Rooms are numbered as drawn: the starting room is 1. */
    b->hub = ucr_pc_area_add(b->pc, UCR_AREA_ROOM, spot.x, spot.y, spot.w, spot.h, true, NULL);
    g_assert(b->hub == 0);
    room_register(b, b->hub, 0, 0, rolled);
    const ucr_area *hub = area_at(b, b->hub);
    b->lap_cx = hub->x + hub->w / 2.0;
    b->lap_cy = hub->y + hub->h / 2.0;
    /* The hub first, then every direction room in the order it was drawn. */
    int queue[32], nq = 0;
    queue[nq++] = b->hub;
    int qi = 0;
    for (; qi < nq; qi++)
        room_expand(b, queue[qi], queue, &nq);
    /* Where the dice close the map early, the GM adds an exit (seed 003)
     * and the rooms it leads to roll theirs in turn. */
    for (int tries = 0, had = rooms_drawn(b); had < MIN_ROOMS && tries < GM_TRIES && gm_exit(b, queue, &nq);
         tries++) {
        for (; qi < nq; qi++)
            room_expand(b, queue[qi], queue, &nq);
        b->gm_misses += rooms_drawn(b) == had;
        had = rooms_drawn(b);
    }
    /* Every door is drawn: the mouths kept free are rock again. */
    walls_all(b, true);
    drops_free(b);
    /* Seed 001: "some method of checking every 60 feet of corridor for
     * additional exits"; --compass-checks 30 checks every 30 ft, as seed
     * 000 allows ("check every 60 feet, or possibly even every 30 feet"). */
    int feet = own && own->check_feet ? own->check_feet : 60;
    note(b, "corridor checks every %d ft%s", feet, feet == 60 ? " (seed 001)" : " (seed 000 allows it)");
    bool lexi = junction_table(b, own ? own->junctions : UCR_COMPASS_JUNCTIONS_ROLL);
    if (!lexi) {
        b->pc->check_exit = check_exit_submethod2;
        b->pc->check_data = b;
    }
    /* A check's door whose square takes nothing is slid up to 50 ft on
     * and back (as clock's side passages are), not 30: over 200 seeds 30
     * ft found nothing for 11% of compass's doors, 50 ft for 8%. */
    b->pc->door_slide = 5;
    ucr_pc_corridor_checks(b->pc, feet / 10, true);
    b->pc->check_exit = NULL;
    b->pc->check_data = NULL;
    if (lexi)
        junctions_leximorph(b);
    gm_after_checks(b);
    for (guint i = 0; i < b->node->areas->len && i < MAX_AREAS; i++) {
        ucr_area *a = &g_array_index(b->node->areas, ucr_area, i);
        if (b->rolled[i])
            a->rolled = g_string_free(b->rolled[i], FALSE);
        else if (a->kind == UCR_AREA_STAIRS && !a->rolled)
            a->rolled = g_strdup(ucr_stair_name(a->stair));
        g_free(b->label[i]);
    }
    plan->node = b->node;
    plan->pc = b->pc;
    g_free(b->angles);
    lap_squares_free(b->lap);
    g_free(b);
    return plan;
}

static void compass_exits(void *p, GPtrArray *out)
{
    compass_plan *plan = p;
    for (guint i = 0; i < plan->steps->len; i++)
        g_ptr_array_add(out, g_ptr_array_index(plan->steps, i));
}

/* When no area has a straight way out to map side @side (gen/kit/attach.h),
 * the superstructure tunnel winds in to the nearest room that a corridor
 * can reach.  Returns that area, or -1. */
static int edge_route(ucr_node *node, ucr_canvas *cv, ucr_dir side, const ucr_half *half, ucr_node_size size)
{
    builder b = { 0 };
    b.node = node;
    b.cv = cv;
    b.g = &GEOMS[size];
    const ucr_area *hub = &g_array_index(node->areas, ucr_area, 0);
    b.lap_cx = hub->x + hub->w / 2.0;
    b.lap_cy = hub->y + hub->h / 2.0;
    int na = (int)node->areas->len;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < na; i++) {
            const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
            if ((a->kind == UCR_AREA_ROOM) != (pass == 0))
                continue;
            for (int w = 0; w < 4; w++) {
                route_goal g = { -1, 0, NO_LAP, { 0, 0 }, false, side, { 0 } };
                GArray *cells = route(&b, i, (ucr_dir)((side + w) % 4), -1, &g);
                if (!cells)
                    continue;
                ucr_attach_tunnel_passage(node, cv, cells, i, half);
                g_free(b.angles);
                lap_squares_free(b.lap);
                return i;
            }
        }
    g_free(b.angles);
    lap_squares_free(b.lap);
    return -1;
}

/* Last resort for a superstructure tunnel: it ends at a junction of its own
 * just inside the map edge (the node's rooms are walled off from that side
 * by its corridors).  Returns the junction, or -1. */
static int edge_junction(ucr_node *node, ucr_canvas *cv, ucr_dir side, const ucr_half *half)
{
    int W = ucr_canvas_width(cv), H = ucr_canvas_height(cv);
    int along = side == UCR_NORTH || side == UCR_SOUTH ? W : H;
    ucr_dir in = (ucr_dir)((side + 2) % 4);
    /* Two squares in and deeper first; one square in last (the drawing
     * keeps the outermost EDGE squares free, so that one always fits). */
    for (int di = 0; di < 20; di++)
        for (int k0 = 0, depth = di < 19 ? di + 2 : 1; k0 < along - 4; k0++) {
            int k = along / 2 + (k0 % 2 ? -(k0 + 1) / 2 : k0 / 2);
            ucr_point e = side == UCR_NORTH ? (ucr_point){ k, 0 } : side == UCR_SOUTH ? (ucr_point){ k, H - 1 }
                          : side == UCR_WEST ? (ucr_point){ 0, k } : (ucr_point){ W - 1, k };
            ucr_point j = ucr_point_walk(e, in, depth);
            if (!ucr_canvas_clear(cv, j.x, j.y, 1, 1, 1))
                continue;
            GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
            bool ok = true;
            for (int i = depth - 1; i >= 0 && ok; i--) {
                ucr_point c = ucr_point_walk(e, in, i);
                ok = ucr_canvas_square_ok(cv, c, UCR_CANVAS_EMPTY);
                g_array_append_val(cells, c);
            }
            if (!ok) {
                g_array_free(cells, TRUE);
                continue;
            }
            ucr_area a = ucr_area_make(UCR_AREA_JUNCTION, j.x, j.y, 1, 1);
            a.rolled = g_strdup("where the superstructure tunnel ends");
            int ai = ucr_node_add_area(node, cv, &a);
            ucr_attach_tunnel_passage(node, cv, cells, ai, half);
            return ai;
        }
    return -1;
}

/* Marks the free squares of the band along map side @side as off the map
 * (@on), or frees them again. */
static void edge_band_mark(ucr_canvas *cv, ucr_dir side, bool on)
{
    /* One square deeper than while drawing: a junction two squares in
     * needs the square inside it free (gen/kit/preconnect.h). */
    enum { BAND = EDGE + 1 };
    int W = ucr_canvas_width(cv), H = ucr_canvas_height(cv);
    int x0 = side == UCR_EAST ? W - BAND : 0, y0 = side == UCR_SOUTH ? H - BAND : 0;
    int w = side == UCR_EAST || side == UCR_WEST ? BAND : W, h = side == UCR_NORTH || side == UCR_SOUTH ? BAND : H;
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++) {
            ucr_point p = { x, y };
            if (!on)
                square_release(cv, p);
            else if (ucr_canvas_owner(cv, p) == UCR_CANVAS_EMPTY)
                ucr_canvas_set(cv, p, HELD);
        }
}

/* The pre-connecting canvas drawn anew from @node (its passages' squares
 * included: ucr_attach_canvas), keeping the busy squares of its crossings. */
static ucr_canvas *canvas_redraw(ucr_pc *pc, ucr_node *node)
{
    ucr_canvas *cv = ucr_attach_canvas(node);
    ucr_canvas_busy_copy(cv, pc->cv);
    ucr_canvas_free(pc->cv);
    pc->cv = cv;
    return cv;
}

static ucr_node *compass_embed(void *p, const char *id, int col, int row, const ucr_node_request *req,
                               ucr_prng *rng, GError **error)
{
    compass_plan *plan = p;
    ucr_node *node = ucr_embed_take(&plan->node, id, col, row, "compass", error);
    if (!node)
        return NULL;
    for (guint i = 0; i < plan->steps->len; i++) {
        const ucr_step *st = g_ptr_array_index(plan->steps, i);
        if (st->link >= 0)
            req->link_area[st->link] = g_array_index(plan->step_area, int, i);
    }
    /* The pre-connecting canvas, with every square a crossing runs over
     * marked as the corridor's too, so that nothing new opens beside one. */
    ucr_pc *pc = plan->pc;
    plan->pc = NULL;
    canvas_redraw(pc, node);
    pc->rng = rng;
    ucr_canvas *cv = pc->cv;
    const char *lost = NULL;
    for (int d = 0; d < 4 && !lost; d++) {
        const ucr_join_request *j = &req->joins[d];
        if (!j->used)
            continue;
        /* Along the other sides the band stays rock for their tunnels. */
        for (int e = 0; e < 4; e++)
            if (e != d)
                edge_band_mark(cv, (ucr_dir)e, true);
        int ai = ucr_attach_edge(node, cv, (ucr_dir)d, &j->half, rng);
        if (ai < 0) {
            /* Routed in, under what is in the way (gen/kit/preconnect.h). */
            ucr_node_request one = *req;
            for (int e = 0; e < 4; e++)
                one.joins[e].used = e == d;
            one.n_arrivals = 0;
            if (ucr_pc_attach(pc, &one)) {
                /* Its crossings' squares count as the tunnel's too. */
                cv = canvas_redraw(pc, node);
                continue;
            }
        }
        if (ai < 0)
            ai = edge_route(node, cv, (ucr_dir)d, &j->half, req->size);
        if (ai < 0)
            ai = edge_junction(node, cv, (ucr_dir)d, &j->half);
        for (int e = 0; e < 4; e++)
            edge_band_mark(cv, (ucr_dir)e, false);
        /* Last, its junction near a corner, in the other sides' bands: a
         * pocket map's corridors can fill every other square along the
         * edge (pkd-554 node E, --drop-dice, pocket). */
        if (ai < 0)
            ai = edge_junction(node, cv, (ucr_dir)d, &j->half);
        if (ai < 0)
            lost = "superstructure tunnel";
        else if (j->link >= 0)
            req->link_area[j->link] = ai;
    }
    for (int k = 0; k < req->n_arrivals && !lost; k++) {
        int li = ucr_attach_landing(node, cv, req->arrivals[k].stair, rng);
        if (li < 0) {
            ucr_node_request one = *req;
            for (int e = 0; e < 4; e++)
                one.joins[e].used = false;
            one.arrivals = &req->arrivals[k];
            one.n_arrivals = 1;
            if (ucr_pc_attach(pc, &one)) {
                cv = canvas_redraw(pc, node);
                continue;
            }
        }
        if (li < 0)
            li = landing_alone(node, cv, req->arrivals[k].stair);
        if (li < 0)
            lost = "stair from another level";
        else
            req->link_area[req->arrivals[k].link] = li;
    }
    ucr_pc_free(pc);
    if (lost) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "node %s: a %s found no place (please report the seed)",
                    id, lost);
        ucr_node_free(node);
        return NULL;
    }
    return node;
}

static void compass_free(void *p)
{
    compass_plan *plan = p;
    if (!plan)
        return;
    ucr_node_free(plan->node);
    ucr_pc_free(plan->pc);
    g_ptr_array_free(plan->steps, TRUE);
    g_array_free(plan->step_area, TRUE);
    g_free(plan);
}

/* The variant's tables (templates/tables/compass-*.txt) and the kinds of row
 * this file acts on. */
static const char *const COMPASS_DIRECTION_KINDS[] = { "north", "north-east", "east", "south-east", "south",
                                                       "south-west", "west", "north-west", "start",
                                                       "dead-end", NULL };
static const char *const COMPASS_CHECK_KINDS[] = { "north", "east", "south", "west", "ladder", "stairs",
                                                   "none", NULL };
static const char *const COMPASS_SECOND_KINDS[] = { "north", "east", "south", "west", "ladder", "stairs",
                                                    NULL };
static const char *const COMPASS_LENGTH_KINDS[] = { "length-0", "length-1", "length-2", "length-3", "length-4",
                                                    "length-5", "length-6", "length-7", "length-8",
                                                    "length-9", NULL };
static const char *const COMPASS_UNMAPPED_KINDS[] = { "junction", "room", "dead-end", NULL };
static const char *const COMPASS_LEXI_KINDS[] = { "ordinary", "trapped", "disabled", "obstacle", "door", "room",
                                                  NULL };
static const char *const COMPASS_OBSTACLE_KINDS[] = { "pool", "debris", NULL };
static const ucr_table_need COMPASS_NEEDS[] = {
    { "compass-direction", COMPASS_DIRECTION_KINDS, NULL, FALSE },
    { "compass-door-check", COMPASS_CHECK_KINDS, NULL, FALSE },
    { "compass-second-door", COMPASS_SECOND_KINDS, NULL, FALSE },
    { "compass-dead-end", COMPASS_LENGTH_KINDS, NULL, FALSE },
    { "clock-unmapped", COMPASS_UNMAPPED_KINDS, NULL, FALSE },
    { "leximorph-junction", COMPASS_LEXI_KINDS, NULL, FALSE },
    { "leximorph-obstacle", COMPASS_OBSTACLE_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};
static const ucr_table_need *const COMPASS_TABLES[] = { COMPASS_NEEDS, ucr_pc_tables, NULL };

/* The command line: --drop-dice, --drop-count, --variety, --compass-checks
 * and --junctions, read by compass_roll. */
typedef struct {
    gboolean drop_dice, variety;     /* as GOption sets them */
    char *drop_count, *junctions;
    int check_feet;
    ucr_compass_options options;
} compass_cli;

static void *compass_cli_new(GOptionEntry **entries)
{
    compass_cli *c = g_new0(compass_cli, 1);
    const GOptionEntry list[] = {
        { "drop-dice", 0, 0, G_OPTION_ARG_NONE, &c->drop_dice,
          "compass method: read the doors as dropped d10s, 2d3 of them (seed 001 variant)", NULL },
        { "drop-count", 0, 0, G_OPTION_ARG_STRING, &c->drop_count,
          "compass method: how many d10s --drop-dice drops: 4 (\"roll four d10s all at once\") or 2d3 "
          "(the default; implies --drop-dice)", "4|2d3" },
        { "variety", 0, 0, G_OPTION_ARG_NONE, &c->variety,
          "compass method: a coin for the red or blue path round the starting room at every choice", NULL },
        { "compass-checks", 0, 0, G_OPTION_ARG_INT, &c->check_feet,
          "compass method: check the corridors for doors and side passages every 60 ft (the default, "
          "seed 001) or 30 ft (seed 000 allows it)", "60|30" },
        { "junctions", 0, 0, G_OPTION_ARG_STRING, &c->junctions,
          "compass method: the junction table that fills in details: submethod2 (d10: dead end, junction, "
          "room), leximorph (d6: trap, obstacle, door, room...) or roll (a coin per node, the default)",
          "submethod2|leximorph|roll" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    *entries = g_memdup2(list, sizeof list);
    return c;
}

/* Refuses a value the options do not take, naming it and what they do. */
static gboolean compass_cli_ready(void *state, GError **error)
{
    compass_cli *c = state;
    if (c->drop_count && strcmp(c->drop_count, "4") != 0 && strcmp(c->drop_count, "2d3") != 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --drop-count '%s': use 4 or 2d3", c->drop_count);
        return FALSE;
    }
    if (c->check_feet && c->check_feet != 30 && c->check_feet != 60) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --compass-checks %d: use 60 or 30 (feet)",
                    c->check_feet);
        return FALSE;
    }
    if (c->junctions && strcmp(c->junctions, "submethod2") != 0 && strcmp(c->junctions, "leximorph") != 0 &&
        strcmp(c->junctions, "roll") != 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "bad --junctions '%s': use submethod2, leximorph or roll", c->junctions);
        return FALSE;
    }
    return TRUE;
}

static const void *compass_cli_get(void *state)
{
    compass_cli *c = state;
    c->options.drop_dice = c->drop_dice || c->drop_count;
    c->options.four_dice = c->drop_count && strcmp(c->drop_count, "4") == 0;
    c->options.variety = c->variety;
    c->options.check_feet = c->check_feet;
    c->options.junctions = !c->junctions || strcmp(c->junctions, "roll") == 0 ? UCR_COMPASS_JUNCTIONS_ROLL
                           : strcmp(c->junctions, "leximorph") == 0       ? UCR_COMPASS_JUNCTIONS_LEXIMORPH
                                                                          : UCR_COMPASS_JUNCTIONS_SUBMETHOD2;
    return &c->options;
}

static void compass_cli_free(void *state)
{
    compass_cli *c = state;
    g_free(c->drop_count);
    g_free(c->junctions);
    g_free(c);
}

static const ucr_cli_range COMPASS_RANGES[] = {
    { "compass-checks", 30, 60 },
    { NULL, 0, 0 },
};

static const ucr_method_cli COMPASS_CLI = {
    .state_new = compass_cli_new,
    .ready = compass_cli_ready,
    .get = compass_cli_get,
    .state_free = compass_cli_free,
    .ranges = COMPASS_RANGES,
};

/* The rules of this method the map can override, for the drawn-as-rolled
 * report (key/honour.c); tests/honour_recount.py reads the same records. */
static const ucr_honour_rule COMPASS_RULES[] = {
    { "d10 direction: the corridor reaches that room (seed 001 variant)",
      "compass-direction 1d10=[0-9]+: [a-z-]+, to ",
      { { "\\(no way there: the corridor joins", "joins a corridor on its way" } } },
    { "--drop-dice: the door on the wall the die lands by (seed 001 variant)",
      "drop die [0-9]+ lands by the [a-z]+ wall",
      { { "lands by the [a-z]+ wall \\([^)]*\\), the door in the [a-z]+ wall, which faces where it leads",
          "moved to the wall facing where it leads" },
        { "wall is full: the door is in the", "that wall is full" } } },
    { "SubMethod II's junction table: the room or junction where a side passage leads (seed 001 variant)",
      "clock-unmapped 1d10=[0-9]+: a (room|junction)",
      { { "\\(no room for it: a dead end\\)", "no room for it: a dead end" } } },
    { "the leximorph junction table: a room at the junction (seed 001 variant, seed 002)",
      "leximorph-junction d6=6: room",
      { { "no room fits beside it", "no room fits beside it" } } },
    { NULL, NULL, { { NULL, NULL } } },
};
static const ucr_honour_rule *const COMPASS_HONOUR[] = { UCR_PC_HONOUR_CHECKS, COMPASS_RULES, NULL };

const ucr_node_method ucr_compass_method = {
    .honour = COMPASS_HONOUR,
    .name = "compass",
    .seeds = "001",
    .summary = "pre-connecting, the variant: d10 over eight compass directions round starting room 9 (9 back "
               "to it, 0 dead end), red/blue paths round it, d10 crossings under/over",
    .roll = compass_roll,
    .exits = compass_exits,
    .embed = compass_embed,
    .free = compass_free,
    .tables = COMPASS_TABLES,
    .cli = &COMPASS_CLI,
    .sized = true,
};
