/* undercroft — the compass node method (seed 001 variant); the readings are
 * in method_compass.h. */
#include "gen/method_compass.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gen/attach.h"

/* The map: room 9 in the middle, the eight direction rooms on a ring around
 * it (RING_* squares from its centre) and the outer ring (OUT_*) at the
 * edge.  55 × 49 squares fits an A4 page like the grid method's map. */
enum { MAP_W = 55, MAP_H = 49, CX = 27, CY = 24 };
enum { RING_X = 13, RING_Y = 12, OUT_X = 22, OUT_Y = 20 };
enum { TURN_COST = 3, NO_LAP = 99, MAX_AREAS = 512, COLLAR = 3 };

static const char *DIR8_NAME[9] = { "", "north", "north-east", "east", "south-east",
                                    "south", "south-west", "west", "north-west" };
static const int DIR8_DX[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
static const int DIR8_DY[9] = { 0, -1, -1, 0, 1, 1, 1, 0, -1 };

/* ---- the tables ------------------------------------------------------- */

ucr_compass_dest ucr_compass_destination(int d10)
{
    ucr_compass_dest d = { UCR_COMPASS_TO_DEAD_END, 0, 0, 0 };
    if (d10 == 9) {
        d.kind = UCR_COMPASS_TO_START;          /* "9: back to the starting room" */
    } else if (d10 >= 1 && d10 <= 8) {
        d.kind = UCR_COMPASS_TO_DIRECTION;      /* "rooms 1 through 8 represent directions" */
        d.dir = d10;
        d.dx = DIR8_DX[d10];
        d.dy = DIR8_DY[d10];
    }
    return d;                                   /* "0: the door goes nowhere" */
}

ucr_compass_door ucr_compass_door_check(int roll)
{
    ucr_compass_door d = { UCR_COMPASS_DOOR_NONE, UCR_NORTH };
    if (roll >= 1 && roll <= 4) {
        d.kind = UCR_COMPASS_DOOR_WALL;         /* 1 north, 2 east, 3 south, 4 west wall */
        d.wall = (ucr_dir)(roll - 1);
    } else if (roll == 5) {
        d.kind = UCR_COMPASS_DOOR_LADDER;       /* "5: ladder up/down, centre of room" */
    } else if (roll == 6) {
        d.kind = UCR_COMPASS_DOOR_STAIRS;       /* "6: stairs up/down, centre of room" */
    }
    return d;                                   /* "7+ meaning no door" */
}

int ucr_compass_dead_end_length(int d6)
{
    return d6 >= 6 ? 0 : d6;                    /* "treating a 6 as a length of 0" */
}

ucr_compass_way ucr_compass_route_way(int cw_steps, bool heads, int d6)
{
    /* "In cases where there are three choices (red, white and blue,) any
     * result of 5+ on 1d6 means use the white path, or go straight." */
    if (cw_steps == 0 && d6 >= 5)
        return UCR_COMPASS_STRAIGHT;
    /* "tails or odd numbers means use the left-hand path, heads or even
     * numbers means use the right hand path" */
    return heads ? UCR_COMPASS_RIGHT : UCR_COMPASS_LEFT;
}

/* ---- the plan --------------------------------------------------------- */

typedef struct {
    ucr_node *node;         /* drawn in roll, handed over by embed */
    GPtrArray *steps;       /* ucr_step*: the ladders and stairs that leave */
    GArray *step_area;      /* int: the landing of each step */
} compass_plan;

typedef struct {
    compass_plan *plan;
    ucr_node *node;
    ucr_canvas *cv;
    ucr_prng *rng;
    const ucr_tables *tables;
    bool drop_dice;
    int slot[5][5];             /* area index of the room at lattice (dx+2, dy+2), or -1 */
    int sx[MAX_AREAS], sy[MAX_AREAS]; /* lattice place of each room area; 99 for others */
    GString *rolled[MAX_AREAS];
    char *label[MAX_AREAS];
    int hub;
    double lap_cx, lap_cy;
    double *angles;             /* angle_of every square, once the centre is known */
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

/* ---- squares and routes ------------------------------------------------ */

static bool touches_anchor(const ucr_canvas *c, ucr_point q, int anchor)
{
    for (int d = 0; d < 4; d++)
        if (ucr_canvas_owner(c, ucr_point_step(q, (ucr_dir)d)) == anchor)
            return true;
    return false;
}

/* A square may carry a corridor if it is rock and touches nothing, except
 * (for a mouth) its own area @anchor and, diagonally, that area's other
 * mouths — the rule of gen/canvas.h, which the invariants check. */
static bool square_ok(const ucr_canvas *c, ucr_point p, int anchor)
{
    if (!ucr_canvas_inside(c, p) || ucr_canvas_owner(c, p) != UCR_CANVAS_EMPTY)
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy)
                continue;
            ucr_point q = { p.x + dx, p.y + dy };
            if (!ucr_canvas_inside(c, q))
                continue;
            int o = ucr_canvas_owner(c, q);
            if (o == UCR_CANVAS_EMPTY)
                continue;
            if (anchor != UCR_CANVAS_EMPTY) {
                if (o == anchor && (!dx || !dy))
                    continue;
                if (dx && dy && touches_anchor(c, q, anchor))
                    continue;
            }
            return false;
        }
    return true;
}

static ucr_point mouth(const ucr_area *a, ucr_dir side, int k)
{
    switch (side) {
    case UCR_NORTH: return (ucr_point){ a->x + k, a->y - 1 };
    case UCR_SOUTH: return (ucr_point){ a->x + k, a->y + a->h };
    case UCR_WEST: return (ucr_point){ a->x - 1, a->y + k };
    default: return (ucr_point){ a->x + a->w, a->y + k };
    }
}

static int wall_length(const ucr_area *a, ucr_dir side)
{
    return side == UCR_NORTH || side == UCR_SOUTH ? a->w : a->h;
}

/* Which wall of @a the mouth @p lies on (p must touch a). */
static ucr_dir wall_of(const ucr_area *a, ucr_point p)
{
    return p.y < a->y ? UCR_NORTH : p.y >= a->y + a->h ? UCR_SOUTH : p.x < a->x ? UCR_WEST : UCR_EAST;
}

static bool touches_area(const ucr_area *a, ucr_point p)
{
    bool inx = p.x >= a->x && p.x < a->x + a->w, iny = p.y >= a->y && p.y < a->y + a->h;
    return (inx && (p.y == a->y - 1 || p.y == a->y + a->h)) ||
           (iny && (p.x == a->x - 1 || p.x == a->x + a->w));
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
} route_goal;

static bool on_edge(ucr_point p, int side)
{
    switch (side) {
    case UCR_NORTH: return p.y == 0;
    case UCR_SOUTH: return p.y == MAP_H - 1;
    case UCR_WEST: return p.x == 0;
    case UCR_EAST: return p.x == MAP_W - 1;
    }
    return false;
}

/* Room 9 keeps a collar of COLLAR squares of rock where corridors only run
 * straight in or out of it, so that a corridor going round it never walls
 * up its other doors: the spokes of the hub.  Returns whether a move along
 * @d may enter or leave square @p. */
static bool collar_allows(const ucr_area *hub, ucr_point p, int d)
{
    int dx = p.x < hub->x ? hub->x - p.x : p.x >= hub->x + hub->w ? p.x - (hub->x + hub->w - 1) : 0;
    int dy = p.y < hub->y ? hub->y - p.y : p.y >= hub->y + hub->h ? p.y - (hub->y + hub->h - 1) : 0;
    if (MAX(dx, dy) > COLLAR)
        return true;
    if (dx > 0 && dy > 0)
        return false;
    bool vertical = d == UCR_NORTH || d == UCR_SOUTH;
    return dy > 0 ? vertical : !vertical;
}

/* Dijkstra over (square, heading, lap) from @start: steps cost 1, turns
 * TURN_COST more.  The lap counts crossings of the ray from the winding
 * centre just anticlockwise of @start (+1 clockwise, −1 anticlockwise), so
 * that a goal can ask for the left- or right-hand way round room 9 (seed
 * 001: the red and blue paths).  Returns the squares, or NULL. */
static GArray *route_from(builder *b, ucr_point start, int start_area, const route_goal *g)
{
    const ucr_canvas *c = b->cv;
    if (!square_ok(c, start, start_area))
        return NULL;
    int W = MAP_W, H = MAP_H, cells = W * H, nstates = cells * 4 * 3;
    double ref = angle_of(b, start) - 0.25;
    double *rel = g_new(double, cells);
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
        rel[i] = a;
    }
    /* Which squares a corridor may cross: computed once per search. */
    /* (square_ok with no anchor: rock, and rock all round.) */
    guint8 *occ = g_new(guint8, cells), *free_sq = g_new(guint8, cells);
    for (int i = 0; i < cells; i++)
        occ[i] = ucr_canvas_owner(c, (ucr_point){ i % W, i / W }) != UCR_CANVAS_EMPTY;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool ok = !occ[y * W + x];
            for (int dy = -1; dy <= 1 && ok; dy++)
                for (int dx = -1; dx <= 1 && ok; dx++) {
                    int xx = x + dx, yy = y + dy;
                    if (xx >= 0 && yy >= 0 && xx < W && yy < H && occ[yy * W + xx])
                        ok = false;
                }
            /* A band of rock along the map edge stays free for the
             * superstructure tunnels that join the node there. */
            bool band_n = y < 2, band_s = y >= H - 2, band_w = x < 2, band_e = x >= W - 2;
            if (g->goal_area >= 0 ? (band_n || band_s || band_w || band_e)
                                  : ((band_n && g->goal_edge != UCR_NORTH) || (band_s && g->goal_edge != UCR_SOUTH) ||
                                     (band_w && g->goal_edge != UCR_WEST) || (band_e && g->goal_edge != UCR_EAST)))
                ok = false;
            free_sq[y * W + x] = ok;
        }
    g_free(occ);
    int *dist = g_new(int, nstates), *prev = g_new(int, nstates);
    for (int i = 0; i < nstates; i++) {
        dist[i] = INT_MAX;
        prev[i] = -1;
    }
    /* A bucket queue: costs are small integers. */
    GArray **buckets = NULL;
    int nb = 0;
#define PUSH(cost, st)                                                                  \
    do {                                                                                \
        if ((cost) >= nb) {                                                             \
            int nn = (cost) + 64;                                                       \
            buckets = g_renew(GArray *, buckets, nn);                                   \
            for (int z = nb; z < nn; z++)                                               \
                buckets[z] = g_array_new(FALSE, FALSE, sizeof(int));                    \
            nb = nn;                                                                    \
        }                                                                               \
        int st_ = (st);                                                                 \
        g_array_append_val(buckets[(cost)], st_);                                       \
    } while (0)
    int s0 = (start.y * W + start.x) * 12;
    for (int h = 0; h < 4; h++) {
        dist[s0 + h * 3 + 1] = 0;
        PUSH(0, s0 + h * 3 + 1);
    }
    int goal = -1;
    ucr_area none = { 0 };
    none.x = none.y = -100;
    const ucr_area *hub = area_at(b, b->hub);
    const ucr_area *ga = g->goal_area >= 0 ? area_at(b, g->goal_area) : &none;
    for (int cost = 0; cost < nb && goal < 0; cost++) {
        for (guint k = 0; k < buckets[cost]->len && goal < 0; k++) {
            int st = g_array_index(buckets[cost], int, k);
            if (dist[st] != cost)
                continue;
            int cell = st / 12, head = (st % 12) / 3, lap = st % 3 - 1;
            ucr_point p = { cell % W, cell / W };
            bool at_start = p.x == start.x && p.y == start.y;
            /* The goal: a mouth on an allowed wall of the goal area. */
            if (!at_start && g->goal_area < 0 && on_edge(p, g->goal_edge)) {
                goal = st;
                break;
            }
            if (!at_start && touches_area(ga, p) && (g->goal_walls >> wall_of(ga, p) & 1u) &&
                (g->want_lap == NO_LAP || g->want_lap == lap) &&
                !(g->use_avoid && abs(p.x - g->avoid.x) <= 2 && abs(p.y - g->avoid.y) <= 2) &&
                square_ok(c, p, g->goal_area)) {
                goal = st;
                break;
            }
            for (int d = 0; d < 4; d++) {
                ucr_point q = ucr_point_step(p, (ucr_dir)d);
                if (!ucr_canvas_inside(c, q))
                    continue;
                int qi = q.y * W + q.x;
                if (!free_sq[qi] && !(g->goal_area >= 0 && touches_area(ga, q) && square_ok(c, q, g->goal_area)))
                    continue;
                if (!collar_allows(hub, p, d) || !collar_allows(hub, q, d))
                    continue;
                /* A mouth of the goal ends the corridor: go no further. */
                if (touches_area(ga, p) && !at_start)
                    continue;
                int qc = q.y * W + q.x, nl = lap;
                double ra = rel[cell], rb = rel[qc];
                if (ra > 1.5 * G_PI && rb < 0.5 * G_PI)
                    nl++;
                else if (ra < 0.5 * G_PI && rb > 1.5 * G_PI)
                    nl--;
                if (nl < -1 || nl > 1)
                    continue;
                int step = 1 + (d != head && !at_start ? TURN_COST : 0);
                /* Corridors round room 9 keep inside the ring of direction
                 * rooms rather than fencing them in. */
                if (g->want_lap != NO_LAP &&
                    MAX(abs(q.x - (int)b->lap_cx), abs(q.y - (int)b->lap_cy)) > RING_Y - 4)
                    step += 2;
                int ns = qc * 12 + d * 3 + nl + 1;
                if (cost + step < dist[ns]) {
                    dist[ns] = cost + step;
                    prev[ns] = st;
                    PUSH(cost + step, ns);
                }
            }
        }
    }
#undef PUSH
    GArray *path = NULL;
    if (goal >= 0) {
        GArray *rev = g_array_new(FALSE, FALSE, sizeof(ucr_point));
        for (int st = goal; st >= 0; st = prev[st]) {
            ucr_point p = { (st / 12) % W, (st / 12) / W };
            g_array_append_val(rev, p);
        }
        path = g_array_sized_new(FALSE, FALSE, sizeof(ucr_point), rev->len);
        for (int i = (int)rev->len - 1; i >= 0; i--)
            g_array_append_val(path, g_array_index(rev, ucr_point, i));
        g_array_free(rev, TRUE);
    }
    for (int i = 0; i < nb; i++)
        g_array_free(buckets[i], TRUE);
    g_free(buckets);
    g_free(rel);
    g_free(free_sq);
    g_free(dist);
    g_free(prev);
    return path;
}

/* The positions along @side of @a, starting at @hint and moving outwards
 * from it (the middle of the wall when @hint < 0). */
static int wall_order(const ucr_area *a, ucr_dir side, int hint, int *out)
{
    int wl = wall_length(a, side), n = 0;
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

/* True if the route passes a square twice (a lap around room 9 may). */
static bool path_repeats(const GArray *p)
{
    for (guint i = 0; i < p->len; i++)
        for (guint j = i + 1; j < p->len; j++) {
            ucr_point a = g_array_index(p, ucr_point, i), c = g_array_index(p, ucr_point, j);
            if (a.x == c.x && a.y == c.y)
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
        ucr_point m = mouth(a, side, order[i]);
        if (!square_ok(b->cv, m, from))
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

/* Routes from wall @side of @from, or, when that wall is full, from the
 * others (the destination is what the dice decided; the wall only where the
 * door sits).  Stores the wall used in @used. */
static GArray *route_any_wall(builder *b, int from, ucr_dir side, int hint, route_goal *g, ucr_dir *used)
{
    static const int turn[4] = { 0, 1, 3, 2 };
    for (int k = 0; k < 4; k++) {
        ucr_dir w = (ucr_dir)((side + turn[k]) % 4);
        GArray *p = route(b, from, w, k ? -1 : hint, g);
        if (p) {
            *used = w;
            return p;
        }
    }
    return NULL;
}

static void note_moved(builder *b, ucr_dir side, ucr_dir used)
{
    if (used != side)
        note(b, "  the %s wall is full: the door is in the %s wall", ucr_dir_name(side), ucr_dir_name(used));
}

/* ---- rooms ------------------------------------------------------------- */

static int lattice_x(int sx) { return CX + (abs(sx) == 2 ? OUT_X : RING_X) * (sx > 0) - (abs(sx) == 2 ? OUT_X : RING_X) * (sx < 0); }
static int lattice_y(int sy) { return CY + (abs(sy) == 2 ? OUT_Y : RING_Y) * (sy > 0) - (abs(sy) == 2 ? OUT_Y : RING_Y) * (sy < 0); }

static char *slot_label(int sx, int sy)
{
    if (!sx && !sy)
        return g_strdup("room 9");
    if (abs(sx) <= 1 && abs(sy) <= 1)
        for (int d = 1; d <= 8; d++)
            if (DIR8_DX[d] == sx && DIR8_DY[d] == sy)
                return g_strdup_printf("room %d", d);
    return g_strdup_printf("outer room %s%s",
                           sy < 0 ? "N" : sy > 0 ? "S" : "", sx < 0 ? "W" : sx > 0 ? "E" : "");
}

/* Places the room of lattice place (sx, sy): size from the room table, as
 * near its place as the map allows, smaller if it must be.  Returns its
 * index or -1. */
static int room_place(builder *b, int sx, int sy)
{
    int total = 0, w = 3, h = 3;
    const ucr_table_row *row = ucr_table_roll(b->tables->room_size, b->rng, &total);
    ucr_table_parse_size(row->text, &w, &h);
    /* Every room here rolls four door checks (room 9 has "one sample door in
     * each of the four directions"): at least 3 × 3, so that two doors
     * fit on one wall. */
    w = MAX(w, 3);
    h = MAX(h, 3);
    int cx = lattice_x(sx), cy = lattice_y(sy);
    for (int shrink = 0; shrink < 5; shrink++) {
        int rw = MAX(3, w - shrink), rh = MAX(3, h - shrink);
        for (int r = 0; r <= 5; r++)
            for (int oy = -r; oy <= r; oy++)
                for (int ox = -r; ox <= r; ox++) {
                    if (MAX(abs(ox), abs(oy)) != r)
                        continue;
                    int x = cx - rw / 2 + ox, y = cy - rh / 2 + oy;
                    if (x < 2 || y < 2 || x + rw > MAP_W - 2 || y + rh > MAP_H - 2)
                        continue;
                    if (!ucr_canvas_clear(b->cv, x, y, rw, rh, 2))
                        continue;
                    ucr_area a = { 0 };
                    a.kind = UCR_AREA_ROOM;
                    a.x = x;
                    a.y = y;
                    a.w = rw;
                    a.h = rh;
                    a.link = -1;
                    int idx = ucr_node_add_area(b->node, b->cv, &a);
                    g_assert(idx < MAX_AREAS);
                    b->sx[idx] = sx;
                    b->sy[idx] = sy;
                    b->slot[sx + 2][sy + 2] = idx;
                    b->label[idx] = slot_label(sx, sy);
                    b->rolled[idx] = g_string_new(NULL);
                    g_string_append_printf(b->rolled[idx], "%s; size 1d20=%d: %s", b->label[idx], total,
                                           row->text);
                    if (rw != w || rh != h)
                        g_string_append_printf(b->rolled[idx], " (drawn %dx%d to fit)", rw, rh);
                    return idx;
                }
    }
    return -1;
}

/* Takes back the room just placed (the last area) when no corridor reaches
 * it, so that no room is left unconnected. */
static void room_unplace(builder *b, int idx)
{
    ucr_node *n = b->node;
    g_assert(idx == (int)n->areas->len - 1);
    const ucr_area a = *area_at(b, idx);
    ucr_canvas_fill(b->cv, a.x, a.y, a.w, a.h, UCR_CANVAS_EMPTY);
    b->slot[b->sx[idx] + 2][b->sy[idx] + 2] = -1;
    g_string_free(b->rolled[idx], TRUE);
    b->rolled[idx] = NULL;
    g_free(b->label[idx]);
    b->label[idx] = NULL;
    g_array_remove_index(n->vertices, (guint)idx);
    for (guint k = 0; k < n->passages->len; k++) {
        ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
        if (p->a > idx)
            p->a--;
        if (p->b > idx)
            p->b--;
    }
    g_array_set_size(n->areas, (guint)idx);
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
                ucr_point p = mouth(&a, side, order[i]);
                bool ok = true;
                for (int k = 0; k < len && ok; k++) {
                    ok = square_ok(b->cv, p, k == 0 ? room : UCR_CANVAS_EMPTY);
                    g_array_append_val(cells, p);
                    p = ucr_point_step(p, side);
                }
                if (!ok || !ucr_canvas_inside(b->cv, p) || !ucr_canvas_clear(b->cv, p.x, p.y, 1, 1, 1))
                    continue;
                ucr_area land = { 0 };
                land.kind = UCR_AREA_STAIRS;
                land.x = p.x;
                land.y = p.y;
                land.w = 1;
                land.h = 1;
                land.stair = stair;
                land.link = -1;
                int li = ucr_node_add_area(b->node, b->cv, &land);
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
        ucr_point p = mouth(&a, side, order[i]);
        ucr_dir d = side;
        bool ok = true;
        for (int k = 0; k < len && ok; k++) {
            if (k == 2 && turn)
                d = (ucr_dir)((d + (turn < 0 ? 3 : 1)) % 4);
            if (k > 0)
                p = ucr_point_step(p, d);
            ok = square_ok(b->cv, p, k == 0 ? room : UCR_CANVAS_EMPTY);
            g_array_append_val(cells, p);
        }
        if (!ok)
            continue;
        ucr_point end = g_array_index(cells, ucr_point, cells->len - 1);
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
    ucr_door d = { UCR_DOOR_PLAIN, area, pi, cell, wall_of(area_at(b, area), cell) };
    g_array_append_val(b->node->doors, d);
}

/* A corridor that found no way: what it got to, 2 squares, as a dead end. */
static void blocked_fallback(builder *b, int room, ucr_dir side, int hint, const char *what)
{
    for (int len = 2; len >= 1; len--)
        for (int k = 0; k < 4; k++)
        if (dead_end_draw(b, room, (ucr_dir)((side + k) % 4), k ? -1 : hint, len, 0)) {
            note(b, "  %s: no way on the map, drawn as a dead end of %d squares", what, len);
            return;
        }
    note(b, "  %s: no room even for a dead end; the door is a false door", what);
}

/* seed 001 variant: where the door in wall @side of @room leads, from the
 * d10 face @d10 (position along the wall from @hint). */
static void door_resolve(builder *b, int room, ucr_dir side, int hint, int d10, int *queue, int *nq)
{
    const char *rl = b->label[room];
    ucr_compass_dest dest = ucr_compass_destination(d10);
    if (dest.kind == UCR_COMPASS_TO_DEAD_END) {
        int d6 = ucr_dice_d(b->rng, 6), len = ucr_compass_dead_end_length(d6);
        if (len == 0) {
            note(b, "%s, %s door: d10=0: dead end; length 1d6=6: 0, a blank wall (false door)", rl,
                 ucr_dir_name(side));
            g_string_append_printf(b->rolled[room], "; a false door in the %s wall opens on a blank wall",
                                   ucr_dir_name(side));
            return;
        }
        int turn = 0, t6 = 0;
        if (len > 2) {
            t6 = ucr_dice_d(b->rng, 6);
            turn = t6 % 2 ? -1 : 1;
        }
        char turned[64] = "";
        if (t6)
            g_snprintf(turned, sizeof turned, ", turning %s after 2 (1d6=%d)", turn < 0 ? "left" : "right", t6);
        note(b, "%s, %s door: d10=0: dead end; length 1d6=%d: %d square%s%s", rl, ucr_dir_name(side), d6, len,
             len == 1 ? "" : "s", turned);
        bool drawn = false;
        for (int k = 0; k < 4 && !drawn; k++) {
            ucr_dir w = (ucr_dir)((side + (k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 3 : 2)) % 4);
            drawn = dead_end_draw(b, room, w, k ? -1 : hint, len, turn) ||
                    dead_end_draw(b, room, w, k ? -1 : hint, len, -turn);
            if (drawn)
                note_moved(b, side, w);
        }
        if (!drawn)
            blocked_fallback(b, room, side, hint, "the dead end");
        return;
    }
    if (dest.kind == UCR_COMPASS_TO_START) {
        int d6 = ucr_dice_d(b->rng, 6);
        ucr_compass_door second = ucr_compass_door_check(d6);
        route_goal g = { room, 0xfu, NO_LAP, { 0, 0 }, true, 0 };
        ucr_stair down = UCR_STAIR_NONE, up = UCR_STAIR_NONE;
        if (second.kind == UCR_COMPASS_DOOR_WALL) {
            g.goal_walls = 1u << second.wall;
            note(b, "%s, %s door: d10=9: back to the starting room; second door 1d6=%d: %s wall", rl,
                 ucr_dir_name(side), d6, ucr_dir_name(second.wall));
        } else {
            bool heads = ucr_dice_coin(b->rng);
            bool ladder = second.kind == UCR_COMPASS_DOOR_LADDER;
            /* "making sure to include a ladder or staircase in the opposite
             * direction": down from the door, back up into the room (or the
             * other way round on tails). */
            down = ladder ? (heads ? UCR_LADDER_DOWN : UCR_LADDER_UP) : (heads ? UCR_STAIR_DOWN : UCR_STAIR_UP);
            up = ladder ? (heads ? UCR_LADDER_UP : UCR_LADDER_DOWN) : (heads ? UCR_STAIR_UP : UCR_STAIR_DOWN);
            note(b, "%s, %s door: d10=9: back to the starting room; second door 1d6=%d: %s (coin %s: %s, "
                    "back by %s)",
                 rl, ucr_dir_name(side), d6, ladder ? "ladder" : "stairs", heads ? "heads" : "tails",
                 ucr_stair_name(down), ucr_stair_name(up));
        }
        ucr_dir used = side;
        GArray *cells = route_any_wall(b, room, side, hint, &g, &used);
        if (!cells && second.kind == UCR_COMPASS_DOOR_WALL) {
            g.goal_walls = 0xfu;
            cells = route_any_wall(b, room, side, hint, &g, &used);
            if (cells)
                note(b, "  the %s wall had no room for the second door: it is in the %s wall", ucr_dir_name(second.wall),
                     ucr_dir_name(wall_of(area_at(b, room), g_array_index(cells, ucr_point, cells->len - 1))));
        }
        if (!cells) {
            blocked_fallback(b, room, side, hint, "the corridor back");
            return;
        }
        note_moved(b, side, used);
        int pi = ucr_node_add_passage(b->node, b->cv, cells, room, room, UCR_EDGE_OPEN);
        ucr_node_add_door(b->node, room, pi, UCR_DOOR_PLAIN);
        if (down != UCR_STAIR_NONE) {
            ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, pi);
            ucr_passage_stairs s1 = { MIN(1, (int)cells->len - 1), down };
            ucr_passage_stairs s2 = { (int)cells->len - 1, up };
            g_array_append_val(p->stairs, s1);
            if (s2.index != s1.index)
                g_array_append_val(p->stairs, s2);
        } else {
            door_at_end(b, room, pi);
        }
        return;
    }
    /* 1-8: a direction. */
    int tx = b->sx[room] + dest.dx, ty = b->sy[room] + dest.dy;
    int target = b->slot[tx + 2][ty + 2];
    GString *rec = g_string_new(NULL);
    g_string_printf(rec, "%s, %s door: d10=%d: %s", rl, ucr_dir_name(side), d10, DIR8_NAME[dest.dir]);
    bool fresh = target < 0;
    if (fresh) {
        target = room_place(b, tx, ty);
        if (target < 0) {
            char *where = slot_label(tx, ty);
            note(b, "%s: %s, which has no room on the map", rec->str, where);
            g_free(where);
            g_string_free(rec, TRUE);
            blocked_fallback(b, room, side, hint, "the corridor");
            return;
        }

    }
    g_string_append_printf(rec, ": %s%s", b->label[target], fresh ? " (new)" : " (already mapped)");
    route_goal g = { target, 0xfu, NO_LAP, { 0, 0 }, false, 0 };
    if (room == b->hub) {
        /* Around the starting room: the red, white or blue path. */
        int cw = ((dest.dir - 1) - 2 * (int)side + 16) % 8;
        int d6 = cw == 0 ? ucr_dice_d(b->rng, 6) : 0;
        bool heads = false;
        ucr_compass_way way = ucr_compass_route_way(cw, false, d6);
        if (way != UCR_COMPASS_STRAIGHT) {
            heads = ucr_dice_coin(b->rng);
            way = ucr_compass_route_way(cw, heads, d6);
        }
        g.want_lap = way == UCR_COMPASS_STRAIGHT ? 0 : way == UCR_COMPASS_LEFT ? -1 : cw == 0 ? 1 : 0;
        if (d6)
            g_string_append_printf(rec, "; straight ahead, 1d6=%d%s", d6, d6 >= 5 ? ": the white path, straight" : "");
        if (way != UCR_COMPASS_STRAIGHT)
            g_string_append_printf(rec, "; coin %s: the %s path, %s round room 9%s", heads ? "heads" : "tails",
                                   way == UCR_COMPASS_LEFT ? "left-hand (red)" : "right-hand (blue)",
                                   way == UCR_COMPASS_LEFT ? "left" : "right", cw == 0 ? ", a full spiral" : "");
    }
    ucr_dir used = side;
    GArray *cells = route_any_wall(b, room, side, hint, &g, &used);
    if (!cells && g.want_lap != NO_LAP) {
        g.want_lap = NO_LAP;
        cells = route_any_wall(b, room, side, hint, &g, &used);
        if (cells)
            g_string_append(rec, " (that way was blocked: the corridor takes the way the map leaves)");
    }
    note(b, "%s", rec->str);
    g_string_free(rec, TRUE);
    if (!cells) {
        if (fresh)
            room_unplace(b, target);
        blocked_fallback(b, room, side, hint, "the corridor");
        return;
    }
    if (fresh && abs(tx) <= 1 && abs(ty) <= 1)
        queue[(*nq)++] = target;
    note_moved(b, side, used);
    int pi = ucr_node_add_passage(b->node, b->cv, cells, room, target, UCR_EDGE_OPEN);
    ucr_node_add_door(b->node, room, pi, UCR_DOOR_PLAIN);
}

/* Last resort for stairs from another level: a landing in the first free
 * rock from the middle of the map, cut off from this level's corridors
 * (the analysis counts it as unreachable).  Returns it, or -1. */
static int landing_alone(ucr_node *node, ucr_canvas *cv, ucr_stair stair)
{
    for (int r = 0; r < MAP_W; r++)
        for (int y = CY - r; y <= CY + r; y++)
            for (int x = CX - r; x <= CX + r; x++) {
                if (MAX(abs(x - CX), abs(y - CY)) != r || !ucr_canvas_clear(cv, x, y, 1, 1, 2))
                    continue;
                ucr_area a = { 0 };
                a.kind = UCR_AREA_STAIRS;
                a.x = x;
                a.y = y;
                a.w = a.h = 1;
                a.stair = stair;
                a.link = -1;
                return ucr_node_add_area(node, cv, &a);
            }
    return -1;
}

/* Adds a ladder or stairs that leave the node from @room. */
static void exit_add(builder *b, int room, bool ladder)
{
    bool heads = ucr_dice_coin(b->rng);
    ucr_stair st = ladder ? (heads ? UCR_LADDER_DOWN : UCR_LADDER_UP) : (heads ? UCR_STAIR_DOWN : UCR_STAIR_UP);
    int li = landing_place(b, room, st);
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
    ucr_step *step = g_new0(ucr_step, 1);
    step->kind = UCR_STEP_STAIRS;
    step->stair = st;
    step->link = -1;
    g_ptr_array_add(b->plan->steps, step);
    g_array_append_val(b->plan->step_area, li);
}

/* Rolls the doors of @room and where each leads. */
static void room_expand(builder *b, int room, int *queue, int *nq)
{
    const ucr_area *a = area_at(b, room);
    if (b->drop_dice) {
        /* Four d10s dropped on the room: where each lands is its door. */
        g_string_append(b->rolled[room], "; four d10s dropped:");
        for (int i = 0; i < 4; i++) {
            ucr_dir side = (ucr_dir)(ucr_dice_d(b->rng, 4) - 1);
            int pos = ucr_dice_d(b->rng, wall_length(a, side)) - 1;
            int d10 = ucr_dice_d10_face(b->rng);
            g_string_append_printf(b->rolled[room], "%s %d by the %s wall", i ? "," : "", d10, ucr_dir_name(side));
            note(b, "%s: drop die %d lands by the %s wall (d4=%d, spot %d): d10=%d", b->label[room], i + 1,
                 ucr_dir_name(side), side + 1, pos + 1, d10);
            door_resolve(b, room, side, pos, d10, queue, nq);
            a = area_at(b, room);
        }
        return;
    }
    int d8[4];
    bool any;
    int tries = 0;
    do {
        any = false;
        for (int i = 0; i < 4; i++) {
            d8[i] = ucr_dice_d(b->rng, 8);
            any |= ucr_compass_door_check(d8[i]).kind == UCR_COMPASS_DOOR_WALL;
        }
        note(b, "%s: door checks 4d8 = %d, %d, %d, %d%s", b->label[room], d8[0], d8[1], d8[2], d8[3],
             room == b->hub && !any ? " (no door: room 9 rolls again)" : "");
        tries++;
    } while (room == b->hub && !any && tries < 20);
    g_string_append_printf(b->rolled[room], "; door checks 4d8 = %d, %d, %d, %d", d8[0], d8[1], d8[2], d8[3]);
    /* The doors first, then the ladders and stairs, which may go wherever
     * a wall has room. */
    for (int i = 0; i < 4; i++) {
        ucr_compass_door dc = ucr_compass_door_check(d8[i]);
        if (dc.kind == UCR_COMPASS_DOOR_WALL)
            door_resolve(b, room, dc.wall, -1, ucr_dice_d10_face(b->rng), queue, nq);
    }
    for (int i = 0; i < 4; i++) {
        ucr_compass_door dc = ucr_compass_door_check(d8[i]);
        if (dc.kind == UCR_COMPASS_DOOR_LADDER || dc.kind == UCR_COMPASS_DOOR_STAIRS)
            exit_add(b, room, dc.kind == UCR_COMPASS_DOOR_LADDER);
    }
}

static void *compass_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                          const ucr_method_options *options)
{
    (void)join_sides;
    compass_plan *plan = g_new0(compass_plan, 1);
    plan->steps = g_ptr_array_new_with_free_func(g_free);
    plan->step_area = g_array_new(FALSE, FALSE, sizeof(int));
    builder *b = g_new0(builder, 1);
    b->plan = plan;
    b->node = ucr_node_new("?", 0, 0);
    b->node->method = "compass";
    b->node->width = MAP_W;
    b->node->height = MAP_H;
    b->cv = ucr_canvas_new(MAP_W, MAP_H);
    b->rng = rng;
    b->tables = tables;
    b->drop_dice = options && options->drop_dice;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            b->slot[i][j] = -1;
    b->hub = room_place(b, 0, 0);
    g_assert(b->hub == 0);
    const ucr_area *hub = area_at(b, b->hub);
    b->lap_cx = hub->x + hub->w / 2.0;
    b->lap_cy = hub->y + hub->h / 2.0;
    g_string_prepend(b->rolled[0], "the starting room; ");
    /* The hub first, then every direction room in the order it was drawn. */
    int queue[32], nq = 0;
    queue[nq++] = b->hub;
    for (int qi = 0; qi < nq; qi++)
        room_expand(b, queue[qi], queue, &nq);
    for (guint i = 0; i < b->node->areas->len; i++) {
        ucr_area *a = &g_array_index(b->node->areas, ucr_area, i);
        if (b->rolled[i])
            a->rolled = g_string_free(b->rolled[i], FALSE);
        else if (a->kind == UCR_AREA_STAIRS)
            a->rolled = g_strdup(ucr_stair_name(a->stair));
        g_free(b->label[i]);
    }
    plan->node = b->node;
    ucr_canvas_free(b->cv);
    g_free(b->angles);
    g_free(b);
    return plan;
}

static void compass_exits(void *p, GPtrArray *out)
{
    compass_plan *plan = p;
    for (guint i = 0; i < plan->steps->len; i++)
        g_ptr_array_add(out, g_ptr_array_index(plan->steps, i));
}

/* When no area has a straight way out to map side @side (gen/attach.h),
 * the superstructure tunnel winds in to the nearest room that a corridor
 * can reach.  Returns that area, or -1. */
static int edge_route(ucr_node *node, ucr_canvas *cv, ucr_dir side, const ucr_half *half)
{
    builder b = { 0 };
    b.node = node;
    b.cv = cv;
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
                route_goal g = { -1, 0, NO_LAP, { 0, 0 }, false, side };
                GArray *cells = route(&b, i, (ucr_dir)((side + w) % 4), -1, &g);
                if (!cells)
                    continue;
                bool blocked = ucr_half_has(half, UCR_STEP_BLOCKED);
                int exit = ucr_node_add_vertex(node, UCR_VERTEX_EXIT, g_array_index(cells, ucr_point, cells->len - 1));
                int p = ucr_node_add_passage(node, cv, cells, i, exit, blocked ? UCR_EDGE_BLOCKED : UCR_EDGE_OPEN);
                if (ucr_half_has(half, UCR_STEP_SECRET))
                    ucr_node_add_door(node, i, p, UCR_DOOR_SECRET);
                else if (ucr_half_has(half, UCR_STEP_DOOR))
                    ucr_node_add_door(node, i, p, UCR_DOOR_PLAIN);
                g_free(b.angles);
                return i;
            }
        }
    g_free(b.angles);
    return -1;
}

/* Last resort for a superstructure tunnel: it ends at a junction of its own
 * just inside the map edge (the node's rooms are walled off from that side
 * by its corridors).  Returns the junction, or -1. */
static int edge_junction(ucr_node *node, ucr_canvas *cv, ucr_dir side, const ucr_half *half)
{
    int along = side == UCR_NORTH || side == UCR_SOUTH ? MAP_W : MAP_H;
    ucr_dir in = (ucr_dir)((side + 2) % 4);
    for (int depth = 2; depth <= 20; depth++)
        for (int k0 = 0; k0 < along - 4; k0++) {
            int k = along / 2 + (k0 % 2 ? -(k0 + 1) / 2 : k0 / 2);
            ucr_point e = side == UCR_NORTH ? (ucr_point){ k, 0 } : side == UCR_SOUTH ? (ucr_point){ k, MAP_H - 1 }
                          : side == UCR_WEST ? (ucr_point){ 0, k } : (ucr_point){ MAP_W - 1, k };
            ucr_point j = ucr_point_walk(e, in, depth);
            if (!ucr_canvas_clear(cv, j.x, j.y, 1, 1, 1))
                continue;
            GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
            bool ok = true;
            for (int i = depth - 1; i >= 0 && ok; i--) {
                ucr_point c = ucr_point_walk(e, in, i);
                ok = square_ok(cv, c, UCR_CANVAS_EMPTY);
                g_array_append_val(cells, c);
            }
            if (!ok) {
                g_array_free(cells, TRUE);
                continue;
            }
            ucr_area a = { 0 };
            a.kind = UCR_AREA_JUNCTION;
            a.x = j.x;
            a.y = j.y;
            a.w = a.h = 1;
            a.link = -1;
            a.rolled = g_strdup("where the superstructure tunnel ends");
            int ai = ucr_node_add_area(node, cv, &a);
            bool blocked = ucr_half_has(half, UCR_STEP_BLOCKED);
            int exit = ucr_node_add_vertex(node, UCR_VERTEX_EXIT, g_array_index(cells, ucr_point, cells->len - 1));
            int p = ucr_node_add_passage(node, cv, cells, ai, exit, blocked ? UCR_EDGE_BLOCKED : UCR_EDGE_OPEN);
            if (ucr_half_has(half, UCR_STEP_SECRET))
                ucr_node_add_door(node, ai, p, UCR_DOOR_SECRET);
            else if (ucr_half_has(half, UCR_STEP_DOOR))
                ucr_node_add_door(node, ai, p, UCR_DOOR_PLAIN);
            return ai;
        }
    return -1;
}

static ucr_node *compass_embed(void *p, const char *id, int col, int row, const ucr_node_request *req,
                               ucr_prng *rng, GError **error)
{
    compass_plan *plan = p;
    ucr_node *node = plan->node;
    plan->node = NULL;
    g_free(node->id);
    node->id = g_strdup(id);
    node->col = col;
    node->row = row;
    for (guint i = 0; i < plan->steps->len; i++) {
        const ucr_step *st = g_ptr_array_index(plan->steps, i);
        if (st->link >= 0)
            req->link_area[st->link] = g_array_index(plan->step_area, int, i);
    }
    ucr_canvas *cv = ucr_attach_canvas(node);
    const char *lost = NULL;
    for (int d = 0; d < 4 && !lost; d++) {
        const ucr_join_request *j = &req->joins[d];
        if (!j->used)
            continue;
        int ai = ucr_attach_edge(node, cv, (ucr_dir)d, &j->half, rng);
        if (ai < 0)
            ai = edge_route(node, cv, (ucr_dir)d, &j->half);
        if (ai < 0)
            ai = edge_junction(node, cv, (ucr_dir)d, &j->half);
        if (ai < 0)
            {
            lost = "superstructure tunnel";
            if (g_getenv("UCR_DEBUG")) {
                g_printerr("side %d\n", d);
                for (int y = 0; y < MAP_H; y++) {
                    for (int x = 0; x < MAP_W; x++) {
                        int o = ucr_canvas_owner(cv, (ucr_point){ x, y });
                        g_printerr("%c", o == UCR_CANVAS_EMPTY ? '.' : o >= UCR_ATTACH_PASSAGE ? '#' : 'R');
                    }
                    g_printerr("\n");
                }
            }
        }
        else if (j->link >= 0)
            req->link_area[j->link] = ai;
    }
    for (int k = 0; k < req->n_arrivals && !lost; k++) {
        int li = ucr_attach_landing(node, cv, req->arrivals[k].stair, rng);
        if (li < 0)
            li = landing_alone(node, cv, req->arrivals[k].stair);
        if (li < 0)
            lost = "stair from another level";
        else
            req->link_area[req->arrivals[k].link] = li;
    }
    ucr_canvas_free(cv);
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
    g_ptr_array_free(plan->steps, TRUE);
    g_array_free(plan->step_area, TRUE);
    g_free(plan);
}

const ucr_node_method ucr_compass_method = {
    "compass", "001",
    "non-linear variant: d10 over eight directions around a starting room (9 back, 0 dead end)",
    compass_roll, compass_exits, compass_embed, compass_free,
};
