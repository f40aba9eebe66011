#include "gen/methods/grid.h"

#include <stdlib.h>
#include <string.h>

#include <limits.h>

#include "core/error.h"
#include "gen/kit/canvas.h"

/* Lattice of the nine intersections: spacing in squares, and the margin
 * between the outer intersections and the map edge (room for the stubs and
 * the superstructure tunnels).  "More-or-less" straight tunnels: each
 * intersection is moved up to JITTER squares from the lattice. */
enum { N = 3, EMBED_ATTEMPTS = 8, TURN_COST = 4 };
/* Room exits' halves an attempt can hold: two side walls per room on a
 * tunnel, and a room is at least seven squares of tunnel. */
enum { MAX_EXITS = 96 };

/* The lattice at a node size (--node-size): its spacing (x, y), its margins
 * (x, y), how far an intersection is moved (x, y), the largest room at a
 * crossing (the rolled size, cut to it so that the lattice's tunnels keep
 * their length; the key says so), the longest a room exit's tunnel runs to
 * meet another (a lattice spacing and a bit, two turns at most on the
 * longest), the rock an outward stub leaves before the map's edge, and
 * whether a room on a tunnel that finds no place at its size may be a
 * closet (else only on the last attempt).  The map is 2 margins + 2
 * spacings + 1 square each way:
 *  - standard 39 x 45, within UCR_STANDARD_W x UCR_STANDARD_H (an A4
 *    page at 4 mm a square, an A5 spread at 3.5 mm);
 *  - pocket 35 x 25, within UCR_POCKET_W x UCR_POCKET_H: crossings at most
 *    3 x 3, rows not moved (the north and south margins hold a stub or a
 *    joining tunnel only so), stubs running to the square next to the
 *    edge, closets rather than an attempt lost (4 squares of tunnel between
 *    two crossings of a column hold a 2 x 2 room at most; further attempts
 *    would shrink the crossings to single squares);
 *  - large 79 x 69, the first standard map's (53 x 47) half again, its
 *    crossings as rolled. */
typedef struct {
    int sx, sy, mx, my, jx, jy, cross_w, cross_h, reach, stub_gap;
    bool closets;
} lattice;

static const lattice LATTICES[] = {
    [UCR_NODE_STANDARD] = { 13, 14, 6, 8, 2, 2, 5, 4, 40, 2, false },
    [UCR_NODE_POCKET] = { 11, 7, 6, 5, 1, 0, 3, 3, 22, 1, true },
    [UCR_NODE_LARGE] = { 27, 22, 12, 12, 3, 3, 6, 6, 33, 2, false },
};

static int lattice_w(const lattice *l)
{
    return 2 * l->mx + 2 * l->sx + 1;
}

static int lattice_h(const lattice *l)
{
    return 2 * l->my + 2 * l->sy + 1;
}

/* Costs an exit's search can reach: length, two turns, the offset along the
 * wall. */
static int exit_costs(const lattice *l)
{
    return l->reach + 2 * TURN_COST + 8;
}
/* A node's tunnel ends lead elsewhere by one stair for so many of the areas
 * it is sure to have (grid_exits). */
enum { EXITS_PER_AREAS = 4 };

/* Canvas owners: areas are their index; a tunnel's skeleton is SKELETON+seg;
 * an intersection no tunnel reaches keeps its square as RESERVED+r*N+c, so
 * that the tunnels route as they would round a room there. */
enum { SKELETON = 100000, RESERVED = 90000 };

struct ucr_grid_plan {
    ucr_half halves[N][N][4];      /* [row][col][dir] */
    int join_index[4];             /* which outside intersection, 0..2, or -1 */
};

static const char *DIR_LETTER = "NESW";

/* Rolls the 36 directions and the join intersections of the sides in
 * @join_sides (ucr_node_method.roll). */
static void *grid_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                       const ucr_method_options *options)
{
    (void)options;
    ucr_grid_plan *plan = g_new0(ucr_grid_plan, 1);
    /* seed 004: "Rolling for each direction at every intersection would mean
     * 36 rolls" — row by row, north/east/south/west. */
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            for (int d = 0; d < 4; d++)
                ucr_roll004_half(tables, rng, &plan->halves[r][c][d]);
    for (int d = 0; d < 4; d++)
        plan->join_index[d] = join_sides[d] ? ucr_dice_d(rng, 3) - 1 : -1;
    return plan;
}

static void grid_free(void *plan)
{
    g_free(plan);
}

/* The outside intersection a side's join uses. */
static void join_junction(const ucr_grid_plan *plan, ucr_dir side, int *r, int *c)
{
    int i = plan->join_index[side];
    switch (side) {
    case UCR_NORTH: *r = 0; *c = i; break;
    case UCR_SOUTH: *r = N - 1; *c = i; break;
    case UCR_WEST: *r = i; *c = 0; break;
    case UCR_EAST: *r = i; *c = N - 1; break;
    }
}

static bool is_outward(int r, int c, ucr_dir d)
{
    return (d == UCR_NORTH && r == 0) || (d == UCR_SOUTH && r == N - 1) ||
           (d == UCR_WEST && c == 0) || (d == UCR_EAST && c == N - 1);
}

static bool is_joined(const ucr_grid_plan *plan, int r, int c, ucr_dir d)
{
    if (!is_outward(r, c, d) || plan->join_index[d] < 0)
        return false;
    int jr, jc;
    join_junction(plan, d, &jr, &jc);
    return jr == r && jc == c;
}

/* Whether the tunnel that half (r, c, d) belongs to is open: an inner
 * tunnel is cut only where both its ends roll a wall (see the header);
 * outward stubs never go through. */
static bool half_goes_through(const ucr_grid_plan *plan, int r, int c, ucr_dir d)
{
    if (is_outward(r, c, d))
        return false;
    int r2 = r + (d == UCR_SOUTH) - (d == UCR_NORTH), c2 = c + (d == UCR_EAST) - (d == UCR_WEST);
    return plan->halves[r][c][d].through || plan->halves[r2][c2][(d + 2) % 4].through;
}

static int last_station(const ucr_half *h)
{
    for (int i = h->n - 1; i >= 0; i--)
        if (h->steps[i].kind == UCR_STEP_STAIRS || h->steps[i].kind == UCR_STEP_ROOM_DOOR ||
            h->steps[i].kind == UCR_STEP_ROOM_OPEN)
            return i;
    return -1;
}

/* Rooms, and stairs that lead to another node, are areas on the tunnel
 * ("stations"); stairs that only change the tunnel's level are drawn as
 * steps in the passage. */
static bool is_station(const ucr_step *st)
{
    return st->kind == UCR_STEP_ROOM_DOOR || st->kind == UCR_STEP_ROOM_OPEN ||
           (st->kind == UCR_STEP_STAIRS && st->link >= 0);
}

/* Seed 004: a tunnel that rolled "9-12 stairs down … roll again" and then a
 * wall goes down its steps and ends.  Where those stairs lead is the
 * generator's choice: to another node (they are the node's exits), or a level
 * down within the node, steps in the tunnel before its dead end (as stairs
 * on a tunnel that goes on are drawn).  A node whose tunnels end in many
 * stairs would be a hub of landings (DESIGN "Levels": at most about a
 * quarter of its areas; two thirds of grid nodes were hubs, one of 25 areas
 * had ten), so a node leads elsewhere by about a quarter of the areas it is
 * sure to have (its nine intersections and the rooms rolled on its
 * tunnels; room exits add more as it is drawn), less one for the stairs
 * that come in, spread over its tunnel ends in their rolled order; the rest
 * stay in the node. */
/* The stairs and ladders that leave the node (ucr_node_method.exits):
 * stairs at tunnel ends, about one for four of the areas the node is sure
 * to have (the others stay steps down to the tunnel's dead end: no node a
 * hub of landings). */
static void grid_exits(void *vplan, GPtrArray *out)
{
    ucr_grid_plan *plan = vplan;
    GPtrArray *ends = g_ptr_array_new();
    int rooms = 0;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            for (int d = 0; d < 4; d++) {
                ucr_half *h = &plan->halves[r][c][d];
                for (int i = 0; i < h->n; i++)
                    rooms += h->steps[i].kind == UCR_STEP_ROOM_DOOR || h->steps[i].kind == UCR_STEP_ROOM_OPEN;
                if (is_joined(plan, r, c, d) || half_goes_through(plan, r, c, d))
                    continue;
                int i = last_station(h);
                if (i >= 0 && h->steps[i].kind == UCR_STEP_STAIRS)
                    g_ptr_array_add(ends, &h->steps[i]);
            }
    /* One landing of the quarter is kept for the stairs that come in. */
    int n = (int)ends->len, keep = MAX(1, (N * N + rooms) / EXITS_PER_AREAS - 1);
    for (int k = 0; k < n; k++)
        /* The k-th end leads elsewhere when it takes the count of kept ends
         * past a multiple: keep of n, evenly spread. */
        if (n <= keep || (k + 1) * keep / n > k * keep / n)
            g_ptr_array_add(out, g_ptr_array_index(ends, k));
    g_ptr_array_free(ends, TRUE);
}

/* ---- embedding ---------------------------------------------------------- */

typedef struct {
    int exit_door;      /* door kind at the stop the leg leaves, or -1 */
    int entry_door;     /* door kind at the station the leg enters, or -1 */
    bool blocked;
    int nstairs;        /* steps inside the leg, as met walking out from the stop */
    ucr_stair stairs[UCR_HALF_MAX_STEPS];
} leg;

typedef struct {
    int area;
    int a, b;           /* global path indices inside the station */
} station;

typedef struct {
    const ucr_half *h;
    int n;
    station st[UCR_HALF_MAX_STEPS];
    leg legs[UCR_HALF_MAX_STEPS + 1];  /* legs[k]: stop k → stop k+1; legs[n]: trailing */
} half_layout;

/* Where a room exit's tunnel meets a tunnel of the grid: a T junction at
 * global path index g (seed 004: room exits "generate additional tunnels"). */
typedef struct {
    int g, area;
} tee;

typedef struct {
    int r, c;           /* intersection at end a (-1 for a room exit) */
    int r2, c2;         /* intersection at end b, if any */
    ucr_dir dir;        /* direction from a */
    int ja, jb;         /* areas at the ends; -1: none (outward, or an intersection
                         * that only this tunnel's walled, empty half reaches) */
    bool inner;         /* between two intersections (or a room exit's tunnel) */
    int oa, ob;         /* canvas owners at the ends (areas, or reserved squares) */
    bool exit;          /* a room exit's tunnel (step 3), not one of the lattice */
    GArray *tees;       /* tee: room exits that meet this tunnel; NULL: none */
    const ucr_half *ha, *hb;
    bool a_through, b_through;
    bool to_edge;       /* outward and joined: reaches the map edge */
    bool stub_open;     /* outward, not joined, rolled open: show a stub */
    int link;           /* join link handle, or -1 */
    GArray *path;       /* ucr_point */
    int mid;            /* last global index of a's half */
    half_layout la, lb;
} segment;

typedef struct {
    ucr_node *node;
    ucr_canvas *canvas;
    const ucr_node_request *req;
    ucr_prng *rng;
    GArray *segments;   /* segment */
    ucr_half arrival_halves[N][N][4]; /* halves with arrivals added */
    ucr_point junction[N][N];
    int jarea[N][N];    /* the room at each intersection, or -1: no tunnel reaches it */
    bool mouth_used[N][N][4]; /* a tunnel of the lattice leaves that wall */
    ucr_half exit_halves[MAX_EXITS]; /* room exits rolled in this attempt */
    int n_exit_halves;
    const lattice *lat;  /* the node size's */
    int *gidx;          /* a skeleton square's index along its segment's path */
    bool last_attempt;
    int attempt;        /* 0 … EMBED_ATTEMPTS - 1 */
    /* While a room exit's tunnel is sought (nets_build): the corridor
     * networks, as union-find over areas then each segment's stretches,
     * and those the room already opens on. */
    int *net, *net_first;
    GArray *room_nets;  /* int */
} embedder;

static int door_max(int a, int b)
{
    /* A secret door hides whatever plain door the same spot rolled. */
    if (a == UCR_DOOR_SECRET || b == UCR_DOOR_SECRET)
        return UCR_DOOR_SECRET;
    return a > b ? a : b;
}

static int area_add(embedder *e, ucr_area_kind kind, int x, int y, int w, int h, ucr_stair stair,
                    char *rolled)
{
    ucr_area a = ucr_area_make(kind, x, y, w, h);
    a.stair = stair;
    a.rolled = rolled;
    g_array_append_val(e->node->areas, a);
    int idx = (int)e->node->areas->len - 1;
    ucr_canvas_fill(e->canvas, x, y, w, h, idx);
    return idx;
}

/* Global path index for local index @i of the half at end @b_side. */
static int global_index(const segment *s, bool b_side, int i)
{
    return b_side ? (int)s->path->len - 1 - i : i;
}

static ucr_point path_at(const segment *s, int g)
{
    return g_array_index(s->path, ucr_point, g);
}

static bool rect_has(int x, int y, int w, int h, ucr_point p)
{
    return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h;
}

/* Can a w×h station go at (x, y) on segment @s's path, covering local
 * indices within [lo, hi] and including local index @t?  On success stores
 * the covered global range. */
static bool station_fits(const embedder *e, const segment *s, int seg_index, bool b_side, int x,
                         int y, int w, int h, int t, int lo, int hi, int *ga, int *gb)
{
    const ucr_canvas *cv = e->canvas;
    if (x - 1 < 0 || y - 1 < 0 || x + w + 1 > ucr_canvas_width(cv) ||
        y + h + 1 > ucr_canvas_height(cv))
        return false;
    for (int j = y - 1; j <= y + h; j++)
        for (int i = x - 1; i <= x + w; i++) {
            int o = ucr_canvas_owner(cv, (ucr_point){ i, j });
            if (o != UCR_CANVAS_EMPTY && o != SKELETON + seg_index)
                return false;
        }
    int first = -1, last = -1, len = (int)s->path->len;
    for (int g = 0; g < len; g++) {
        if (!rect_has(x, y, w, h, path_at(s, g)))
            continue;
        if (first < 0)
            first = g;
        else if (g != last + 1)
            return false;   /* the path would enter the room twice */
        last = g;
    }
    if (first < 0)
        return false;
    int la = b_side ? len - 1 - last : first, lb = b_side ? len - 1 - first : last;
    if (la < lo || lb > hi || t < la || t > lb)
        return false;
    /* No other square of the path may touch the room's walls. */
    for (int g = 0; g < len; g++) {
        if (g >= first - 1 && g <= last + 1)
            continue;
        ucr_point p = path_at(s, g);
        bool beside = (p.x >= x && p.x < x + w && (p.y == y - 1 || p.y == y + h)) ||
                      (p.y >= y && p.y < y + h && (p.x == x - 1 || p.x == x + w));
        if (beside)
            return false;
    }
    *ga = first;
    *gb = last;
    return true;
}

/* Candidate sizes, largest first: the rolled size, turned, then shrinking. */
static int station_sizes(int w, int h, bool stairs, bool last_resort, int out[][2])
{
    int n = 0;
    if (stairs) {
        /* A 20-ft flight along the tunnel, else a single square of steps. */
        static const int s[][2] = { { 2, 1 }, { 1, 2 }, { 1, 1 } };
        for (int i = 0; i < 3; i++) {
            out[n][0] = s[i][0];
            out[n][1] = s[i][1];
            n++;
        }
        return n;
    }
    for (int shrink = 0; shrink < 12; shrink++) {
        int a = w - shrink, b = h - shrink;
        if (a < 2) a = 2;
        if (b < 2) b = 2;
        if (n > 0 && out[n - 1][0] == b && out[n - 1][1] == a && n >= 2 &&
            out[n - 2][0] == a && out[n - 2][1] == b)
            break;  /* already at 2x2 */
        out[n][0] = a; out[n][1] = b; n++;
        out[n][0] = b; out[n][1] = a; n++;
        if (a == 2 && b == 2)
            break;
    }
    if (last_resort) {
        /* Rather a closet than a room lost: 20 × 10 ft. */
        out[n][0] = 2; out[n][1] = 1; n++;
        out[n][0] = 1; out[n][1] = 2; n++;
    }
    return n;
}

/* Places one station of half @b_side near local index @target. */
static bool station_place(embedder *e, segment *s, int seg_index, bool b_side, int target, int lo,
                          int hi, int w, int h, bool stairs, int *x_out, int *y_out, int *w_out,
                          int *h_out, int *ga, int *gb)
{
    int sizes[32][2];
    int nsizes = station_sizes(w, h, stairs, e->last_attempt || e->lat->closets, sizes);
    for (int k = 0; k < nsizes; k++) {
        int sw = sizes[k][0], sh = sizes[k][1];
        for (int dt = 0; dt <= hi - lo; dt++)
            for (int sign = 0; sign < 2; sign++) {
                int t = target + (sign ? -dt : dt);
                if ((sign && !dt) || t < lo || t > hi)
                    continue;
                ucr_point p = path_at(s, global_index(s, b_side, t));
                /* Offsets from the centre outwards, so the tunnel runs
                 * through the middle of the room when it can. */
                for (int oy = 0; oy < sh; oy++)
                    for (int ox = 0; ox < sw; ox++) {
                        int dx = (sw - 1) / 2 + ((ox % 2) ? -(ox + 1) / 2 : ox / 2);
                        int dy = (sh - 1) / 2 + ((oy % 2) ? -(oy + 1) / 2 : oy / 2);
                        if (dx < 0 || dx >= sw || dy < 0 || dy >= sh)
                            continue;
                        int x = p.x - dx, y = p.y - dy;
                        if (station_fits(e, s, seg_index, b_side, x, y, sw, sh, t, lo, hi, ga, gb)) {
                            *x_out = x;
                            *y_out = y;
                            *w_out = sw;
                            *h_out = sh;
                            return true;
                        }
                    }
            }
    }
    return false;
}

static char *room_rolled(const ucr_half *h, int total, const ucr_table_row *row)
{
    char *d = ucr_roll004_describe(h);
    char *s = g_strdup_printf("%s; room size 1d20=%d: %s", d, total, row->text);
    g_free(d);
    return s;
}

static int stop_area(const segment *s, bool b_side, int k);

/* Lays out one half: its stations on the path and the legs between them. */
static void half_layout_build(embedder *e, segment *s, int seg_index, bool b_side)
{
    half_layout *hl = b_side ? &s->lb : &s->la;
    const ucr_half *h = hl->h;
    int len = (int)s->path->len;
    int range_hi;   /* last local index of this half */
    if (!s->inner)
        range_hi = s->to_edge ? len - 1 : len - 2;
    else
        range_hi = b_side ? len - 2 - s->mid : s->mid;
    leg cur = { -1, -1, false, 0, { 0 } };
    hl->n = 0;
    int prev_b = -1;   /* local index of the last square of the previous stop */
    int nstations = 0;
    for (int i = 0; i < h->n; i++)
        if (is_station(&h->steps[i]))
            nstations++;
    int placed = 0;
    for (int i = 0; i < h->n; i++) {
        const ucr_step *st = &h->steps[i];
        switch (st->kind) {
        case UCR_STEP_DOOR:
            cur.exit_door = door_max(cur.exit_door, UCR_DOOR_PLAIN);
            break;
        case UCR_STEP_SECRET:
            cur.exit_door = UCR_DOOR_SECRET;
            break;
        case UCR_STEP_BLOCKED:
            cur.blocked = true;
            break;
        case UCR_STEP_STAIRS:
            if (st->link < 0) {
                cur.stairs[cur.nstairs++] = st->stair;
                break;
            }
            /* a landing that leads to another node */
            /* fall through */
        case UCR_STEP_ROOM_DOOR:
        case UCR_STEP_ROOM_OPEN: {
            bool stairs = st->kind == UCR_STEP_STAIRS;
            int w = 1, hh = 1, total = 0;
            const ucr_table_row *row = NULL;
            if (!stairs) {
                row = ucr_table_roll(e->req->tables->room_size, e->rng, &total);
                ucr_table_parse_size(row->text, &w, &hh);
            }
            placed++;
            int lo = prev_b + 2, hi = range_hi - 1;
            /* Spread the stations along the half, leaving each one still to
             * come about three squares (a flight of steps and a gap). */
            int left = nstations - placed;
            int slack = hi - lo - 3 * left;
            int target = lo + (slack > 0 ? slack / (left + 2) : 0);
            int x, y, sw, sh, ga, gb;
            if (lo > hi || !station_place(e, s, seg_index, b_side, target, lo, hi, w, hh, stairs,
                                          &x, &y, &sw, &sh, &ga, &gb)) {
                if (stairs && e->last_attempt) {
                    /* Last resort, so that no link is lost: the stairs go
                     * down from the middle of the stop before them. */
                    e->req->link_area[st->link] = stop_area(s, b_side, hl->n);
                    break;
                }
                e->node->unplaced++;
                break;
            }
            char *rolled = st->arrival ? NULL : stairs ? ucr_roll004_describe(h) : room_rolled(h, total, row);
            if (rolled && !stairs && !s->inner && s->to_edge) {
                /* A chamber of the superstructure tunnel (megadungeon.c,
                 * join_half): its dice are the superstructure's. */
                char *t = g_strdup_printf("superstructure tunnel %s, a chamber on the way: %s",
                                          ucr_dir_name(s->dir), rolled);
                g_free(rolled);
                rolled = t;
            }
            int area = area_add(e, stairs ? UCR_AREA_STAIRS : UCR_AREA_ROOM, x, y, sw, sh,
                                stairs ? st->stair : UCR_STAIR_NONE, rolled);
            if (stairs && st->link >= 0)
                e->req->link_area[st->link] = area;
            if (st->kind == UCR_STEP_ROOM_DOOR) {
                /* seed 004: "door to … room": any door already pending on
                 * this stretch is that door. */
                cur.entry_door = cur.exit_door >= 0 ? cur.exit_door : UCR_DOOR_PLAIN;
                cur.exit_door = -1;
            }
            hl->legs[hl->n] = cur;
            station *sta = &hl->st[hl->n];
            sta->area = area;
            sta->a = ga;
            sta->b = gb;
            hl->n++;
            prev_b = b_side ? len - 1 - ga : gb;
            cur = (leg){ -1, -1, false, 0, { 0 } };
            break;
        }
        }
    }
    hl->legs[hl->n] = cur;
}

static int vertex_add(ucr_node *node, ucr_vertex_kind kind, ucr_point at)
{
    ucr_vertex v = { kind, -1, at };
    g_array_append_val(node->vertices, v);
    return (int)node->vertices->len - 1;
}

static void door_add(ucr_node *node, int kind, int area, int passage, ucr_point cell)
{
    if (kind < 0 || area < 0)
        return;
    ucr_door d = { (ucr_door_kind)kind, area, passage, cell,
                   ucr_area_wall_of(&g_array_index(node->areas, ucr_area, area), cell) };
    g_array_append_val(node->doors, d);
}

/* Puts a leg's steps on cells [lo, hi] of @p, evenly, as met from @lo
 * (or from @hi when @backwards), skipping the collapse. */
static void stairs_spread(ucr_passage *p, const leg *lg, int lo, int hi, bool backwards)
{
    if (!lg || lg->nstairs == 0)
        return;
    if (hi < lo)
        hi = lo;
    for (int k = 0; k < lg->nstairs; k++) {
        int off = (int)((hi - lo + 1) * (k + 1) / (lg->nstairs + 1));
        int idx = backwards ? hi - off : lo + off;
        if (idx < lo) idx = lo;
        if (idx > hi) idx = hi;
        if (idx == p->rubble && idx + 1 <= hi)
            idx++;
        ucr_passage_stairs ps = { idx, backwards ? ucr_stair_opposite(lg->stairs[k]) : lg->stairs[k] };
        g_array_append_val(p->stairs, ps);
    }
}

static int stairs_order(gconstpointer a, gconstpointer b)
{
    return ((const ucr_passage_stairs *)a)->index - ((const ucr_passage_stairs *)b)->index;
}

/* Adds cells [lo, hi] of the whole passage @whole as one passage from vertex
 * @va to @vb, with the doors of its ends; the whole passage is kept as it is
 * when it is all one piece (its arrays then belong to the node). */
static void pieces_add(embedder *e, ucr_passage *whole, int lo, int hi, int va, int vb, int area_a,
                       int area_b, int door_a, int door_b)
{
    ucr_node *node = e->node;
    int n = (int)whole->cells->len;
    ucr_passage p = { 0 };
    if (lo == 0 && hi == n - 1) {
        p = *whole;
    } else {
        p.cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
        g_array_append_vals(p.cells, &g_array_index(whole->cells, ucr_point, lo), (guint)(hi - lo + 1));
        p.stairs = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
        for (guint k = 0; k < whole->stairs->len; k++) {
            ucr_passage_stairs ps = g_array_index(whole->stairs, ucr_passage_stairs, k);
            if (ps.index < lo || ps.index > hi)
                continue;
            ps.index -= lo;
            g_array_append_val(p.stairs, ps);
        }
        p.rubble = whole->rubble >= lo && whole->rubble <= hi ? whole->rubble - lo : -1;
    }
    p.a = va;
    p.b = vb;
    if (p.rubble >= 0)
        p.kind = UCR_EDGE_BLOCKED;
    else if (door_a == UCR_DOOR_SECRET || door_b == UCR_DOOR_SECRET)
        p.kind = UCR_EDGE_SECRET;
    else if (door_a >= 0 || door_b >= 0)
        p.kind = UCR_EDGE_DOOR;
    else
        p.kind = UCR_EDGE_OPEN;
    g_array_append_val(node->passages, p);
    int pi = (int)node->passages->len - 1;
    ucr_passage *pp = &g_array_index(node->passages, ucr_passage, pi);
    door_add(node, door_a, area_a, pi, g_array_index(pp->cells, ucr_point, 0));
    door_add(node, door_b, area_b, pi, g_array_index(pp->cells, ucr_point, pp->cells->len - 1));
}

/* Adds the passage over global path indices [g0, g1], walked from g0.
 * @va/@vb are the vertices at the g0 and g1 ends; @area_a/@area_b the areas
 * there (or -1) for the doors.  @rubble_at is a global index or -1.  The
 * steps of leg @la lie in the part nearer g0 (up to global @split), those of
 * @lb, met from the g1 end, in the rest. */
static void passage_add(embedder *e, segment *s, int g0, int g1, int va, int vb, int area_a,
                        int area_b, int door_a, int door_b, bool blocked, int rubble_at,
                        const leg *la, const leg *lb, int split)
{
    ucr_passage p = { 0 };
    p.cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    int step = g1 >= g0 ? 1 : -1;
    p.rubble = -1;
    for (int g = g0;; g += step) {
        ucr_point pt = path_at(s, g);
        if (g == rubble_at)
            p.rubble = (int)p.cells->len;
        g_array_append_val(p.cells, pt);
        if (g == g1)
            break;
    }
    if (blocked && p.rubble < 0)
        p.rubble = (int)p.cells->len / 2;
    p.stairs = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
    int n = (int)p.cells->len;
    int cut = lb ? abs(split - g0) : n - 1;   /* last local index of la's part */
    if (cut > n - 1) cut = n - 1;
    if (cut < 0) cut = 0;
    int lo = n >= 3 ? 1 : 0, hi = n >= 3 ? n - 2 : n - 1;
    stairs_spread(&p, la, lo, lb ? MAX(lo, MIN(cut, hi)) : hi, false);
    stairs_spread(&p, lb, MIN(cut + 1, hi), hi, true);
    g_array_sort(p.stairs, stairs_order);
    /* Where room exits' tunnels meet this stretch (tees), it is cut into
     * pieces that end at the T junctions. */
    int cut_at[UCR_HALF_MAX_STEPS * 4 + 8], ncut = 0;
    for (guint t = 0; s->tees && t < s->tees->len && ncut < (int)G_N_ELEMENTS(cut_at); t++) {
        const tee *te = &g_array_index(s->tees, tee, t);
        int li = (te->g - g0) * step;
        if (li > 0 && li < n - 1)
            cut_at[ncut++] = li;
    }
    if (ncut == 0) {
        pieces_add(e, &p, 0, n - 1, va, vb, area_a, area_b, door_a, door_b);
    } else {
        for (int i = 1; i < ncut; i++)   /* in walking order */
            for (int j = i; j > 0 && cut_at[j - 1] > cut_at[j]; j--) {
                int t = cut_at[j]; cut_at[j] = cut_at[j - 1]; cut_at[j - 1] = t;
            }
        /* Nothing lies on the junction square itself: a collapse or steps
         * there move one square along. */
        for (int i = 0; i < ncut; i++) {
            if (p.rubble == cut_at[i])
                p.rubble += cut_at[i] + 1 < n - 1 ? 1 : -1;
            for (guint k = 0; k < p.stairs->len; k++) {
                ucr_passage_stairs *ps = &g_array_index(p.stairs, ucr_passage_stairs, k);
                if (ps->index == cut_at[i])
                    ps->index += ps->index > 0 ? -1 : 1;
            }
        }
        int start = 0, from_v = va, from_area = area_a, from_door = door_a;
        for (int i = 0; i <= ncut; i++) {
            int end = i < ncut ? cut_at[i] - 1 : n - 1;
            int to_v = vb, to_area = area_b, to_door = door_b;
            if (i < ncut) {
                to_area = -1;
                to_door = -1;
                for (guint t = 0; t < s->tees->len; t++) {
                    const tee *te = &g_array_index(s->tees, tee, t);
                    if ((te->g - g0) * step == cut_at[i])
                        to_v = te->area;
                }
            }
            pieces_add(e, &p, start, end, from_v, to_v, from_area, to_area, from_door, to_door);
            if (i < ncut) {
                start = cut_at[i] + 1;
                from_v = to_v;
                from_area = -1;
                from_door = -1;
            }
        }
        g_array_free(p.cells, TRUE);
        g_array_free(p.stairs, TRUE);
    }
}

/* Stops of a half in global order: index 0 is the junction. */
static void stop_range(const segment *s, bool b_side, int k, int *first, int *last)
{
    const half_layout *hl = b_side ? &s->lb : &s->la;
    if (k == 0) {
        *first = *last = b_side ? (int)s->path->len : -1;
        return;
    }
    *first = hl->st[k - 1].a;
    *last = hl->st[k - 1].b;
}

static int stop_area(const segment *s, bool b_side, int k)
{
    const half_layout *hl = b_side ? &s->lb : &s->la;
    if (k == 0)
        return b_side ? s->jb : s->ja;
    return hl->st[k - 1].area;
}

/* Legs between the stops of one half, all but the trailing one. */
static void half_passages(embedder *e, segment *s, bool b_side)
{
    const half_layout *hl = b_side ? &s->lb : &s->la;
    for (int k = 0; k < hl->n; k++) {
        int f0, l0, f1, l1;
        stop_range(s, b_side, k, &f0, &l0);
        stop_range(s, b_side, k + 1, &f1, &l1);
        int from = b_side ? f0 - 1 : l0 + 1;   /* first square after stop k */
        int to = b_side ? l1 + 1 : f1 - 1;     /* last square before stop k+1 */
        int aa = stop_area(s, b_side, k), ab = stop_area(s, b_side, k + 1);
        const leg *lg = &hl->legs[k];
        passage_add(e, s, from, to, aa, ab, aa, ab, lg->exit_door, lg->entry_door, lg->blocked, -1,
                    lg, NULL, to);
    }
}

/* A trailing leg of a half that does not go through: a short stub into
 * rock, shown only if something is on it (a door, a collapse). */
static void stub_add(embedder *e, segment *s, bool b_side, int limit)
{
    const half_layout *hl = b_side ? &s->lb : &s->la;
    const leg *tr = &hl->legs[hl->n];
    int f, l;
    stop_range(s, b_side, hl->n, &f, &l);
    int from = b_side ? f - 1 : l + 1;
    bool outward = !s->inner;
    if (tr->exit_door < 0 && !tr->blocked && tr->nstairs == 0 && !(outward && s->stub_open))
        return;
    /* Two squares (three for an outward stub), or up to @limit (the global
     * index this side may reach). */
    int reach = outward ? 2 : 1;
    if (tr->nstairs)
        reach += tr->nstairs + 1;
    int to = b_side ? from - reach : from + reach;
    if (b_side ? to < limit : to > limit)
        to = limit;
    if (b_side ? to > from : to < from)
        return;
    int area = stop_area(s, b_side, hl->n);
    int dead = vertex_add(e->node, UCR_VERTEX_DEAD_END, path_at(s, to));
    passage_add(e, s, from, to, area, dead, area, -1, tr->exit_door, -1, tr->blocked,
                tr->blocked ? to : -1, tr, NULL, to);
}

static void segment_passages(embedder *e, segment *s)
{
    int len = (int)s->path->len;
    half_passages(e, s, false);
    if (s->inner)
        half_passages(e, s, true);
    const half_layout *A = &s->la, *B = &s->lb;
    int fa, la_, fb, lb_;
    stop_range(s, false, A->n, &fa, &la_);
    if (!s->inner) {
        /* Outward: to the map edge if joined, else a stub. */
        if (s->to_edge) {
            const leg *tr = &A->legs[A->n];
            int area = stop_area(s, false, A->n);
            int exit = vertex_add(e->node, UCR_VERTEX_EXIT, path_at(s, len - 1));
            int rubble = tr->blocked ? la_ + 1 + (len - 1 - la_) / 2 : -1;
            passage_add(e, s, la_ + 1, len - 1, area, exit, area, -1, tr->exit_door, -1,
                        tr->blocked, rubble, tr, NULL, len - 1);
        } else {
            stub_add(e, s, false, len - 3);
        }
        return;
    }
    stop_range(s, true, B->n, &fb, &lb_);
    int from = la_ + 1, to = fb - 1;   /* the stretch between the last stops */
    const leg *ta = &A->legs[A->n], *tb = &B->legs[B->n];
    int area_a = stop_area(s, false, A->n), area_b = stop_area(s, true, B->n);
    if (s->a_through || s->b_through) {
        if (to < from)
            return;
        int rubble = -1;
        if (ta->blocked)
            rubble = from + (s->mid - from) / 2;
        else if (tb->blocked)
            rubble = s->mid + 1 + (to - s->mid - 1) / 2;
        if (rubble >= 0)
            rubble = CLAMP(rubble, from, to);
        passage_add(e, s, from, to, area_a, area_b, area_a, area_b, ta->exit_door, tb->exit_door,
                    ta->blocked || tb->blocked, rubble, ta, tb, s->mid);
        return;
    }
    stub_add(e, s, false, s->mid - 1);
    stub_add(e, s, true, s->mid + 1);
}

/* The half a side's intersection shows: rolled, replaced by a join, or with
 * arrivals added. */
static const ucr_half *half_for(embedder *e, const ucr_grid_plan *plan, int r, int c, ucr_dir d,
                                bool *through, bool *to_edge, int *link)
{
    *to_edge = false;
    *link = -1;
    if (is_joined(plan, r, c, d)) {
        const ucr_join_request *j = &e->req->joins[d];
        *through = j->half.through;
        *to_edge = j->half.through;
        *link = j->link;
        return &j->half;
    }
    *through = half_goes_through(plan, r, c, d);
    return &e->arrival_halves[r][c][d];
}

static bool half_is_empty(const ucr_half *h, bool through)
{
    return h->n == 0 && !through;
}

/* Whether a tunnel leaves intersection (r, c): one of its directions goes
 * through, or a superstructure tunnel joins there. */
static bool junction_open(const ucr_grid_plan *plan, int r, int c)
{
    for (int d = 0; d < 4; d++)
        if (is_joined(plan, r, c, (ucr_dir)d) || half_goes_through(plan, r, c, (ucr_dir)d))
            return true;
    return false;
}

/* Adds the arrivals: each becomes a stair landing at the end of a walled,
 * empty direction of an intersection picked by 1d9 (then the next ones). */
static void arrivals_place(embedder *e, const ucr_grid_plan *plan)
{
    memcpy(e->arrival_halves, plan->halves, sizeof e->arrival_halves);
    for (int k = 0; k < e->req->n_arrivals; k++) {
        const ucr_arrival *arr = &e->req->arrivals[k];
        int start = ucr_dice_d(e->rng, N * N) - 1, dstart = ucr_dice_d(e->rng, 4) - 1;
        bool done = false;
        /* Passes: empty walled inner directions (a whole tunnel's length
         * for the landing), then empty outward stubs, then any direction
         * that does not go through, then any tunnel at all (a landing on
         * the way) — first at intersections that a tunnel leaves, so that
         * the landing is not a pocket that only the stairs reach and the
         * landings spread, then anywhere. */
        for (int pass = 0; pass < 8 && !done; pass++)
            for (int j = 0; j < N * N && !done; j++) {
                int idx = (start + j) % (N * N), r = idx / N, c = idx % N;
                if (pass < 4 && !junction_open(plan, r, c))
                    continue;
                for (int dd = 0; dd < 4 && !done; dd++) {
                    ucr_dir d = (ucr_dir)((dstart + dd) % 4);
                    ucr_half *h = &e->arrival_halves[r][c][d];
                    if (is_joined(plan, r, c, d) || h->n >= UCR_HALF_MAX_STEPS)
                        continue;
                    bool through = half_goes_through(plan, r, c, d);
                    bool outward = is_outward(r, c, d);
                    int kind = pass % 4;
                    /* …and, at first, not more than one landing to a half. */
                    if (pass < 4 && h->n >= 2)
                        continue;
                    if (kind == 0 && (outward || !half_is_empty(h, through)))
                        continue;
                    if (kind == 1 && (!outward || !half_is_empty(h, through)))
                        continue;
                    if (kind == 2 && through)
                        continue;
                    ucr_step st = { UCR_STEP_STAIRS, arr->stair, arr->link, true, NULL };
                    h->steps[h->n++] = st;
                    done = true;
                }
            }
        if (!done)
            e->node->unplaced++;
    }
}

static void segments_free(GArray *segs)
{
    for (guint i = 0; i < segs->len; i++) {
        segment *s = &g_array_index(segs, segment, i);
        if (s->path)
            g_array_free(s->path, TRUE);
        if (s->tees)
            g_array_free(s->tees, TRUE);
    }
    g_array_free(segs, TRUE);
}

static ucr_point border_square(const embedder *e, ucr_point j, ucr_dir d)
{
    switch (d) {
    case UCR_NORTH: return (ucr_point){ j.x, 0 };
    case UCR_SOUTH: return (ucr_point){ j.x, ucr_canvas_height(e->canvas) - 1 };
    case UCR_WEST: return (ucr_point){ 0, j.y };
    default: return (ucr_point){ ucr_canvas_width(e->canvas) - 1, j.y };
    }
}

/* The squares from @from to @to along x first (or y first when @y_first),
 * if a corridor may use every one of them; else NULL. */
static GArray *route_l(const ucr_canvas *cv, ucr_point from, int from_owner, ucr_point to, int to_owner,
                       bool y_first)
{
    int n = abs(to.x - from.x) + abs(to.y - from.y);
    int dx = (to.x > from.x) - (to.x < from.x), dy = (to.y > from.y) - (to.y < from.y);
    GArray *path = g_array_sized_new(FALSE, FALSE, sizeof(ucr_point), (guint)n + 1);
    ucr_point p = from;
    for (int k = 0; k <= n; k++) {
        int anchor = k == 0 ? from_owner : k == n ? to_owner : UCR_CANVAS_EMPTY;
        if (!ucr_canvas_square_ok(cv, p, anchor)) {
            g_array_free(path, TRUE);
            return NULL;
        }
        g_array_append_val(path, p);
        bool along_y = y_first ? p.y != to.y : p.x == to.x;
        if (along_y)
            p.y += dy;
        else
            p.x += dx;
    }
    return path;
}

/* ucr_canvas_route(), with a short cut: a straight tunnel, or one with a
 * single turn, over free squares is a shortest route with the fewest turns
 * (the one A* would find, or its mirror), so no search is needed. */
static GArray *route(embedder *e, ucr_point from, int from_owner, ucr_point to, int to_owner,
                     int turn_cost)
{
    const ucr_canvas *cv = e->canvas;
    if (ucr_canvas_inside(cv, from) && ucr_canvas_inside(cv, to)) {
        bool aligned = from.x == to.x || from.y == to.y;
        for (int k = 0; k < (aligned ? 1 : 2); k++) {
            GArray *path = route_l(cv, from, from_owner, to, to_owner, k == 1);
            if (path)
                return path;
        }
    }
    return ucr_canvas_route(cv, from, from_owner, to, to_owner, turn_cost);
}

/* Squares a half needs along its tunnel: a room about seven, a landing or
 * steps about three. */
static int half_need(const ucr_half *h)
{
    int need = 2;
    for (int i = 0; h && i < h->n; i++) {
        ucr_step_kind k = h->steps[i].kind;
        if (k == UCR_STEP_ROOM_DOOR || k == UCR_STEP_ROOM_OPEN)
            need += 7;
        else if (k == UCR_STEP_STAIRS)
            need += 3;
    }
    return need;
}

/* Where a's half ends: the two halves share the tunnel in proportion to
 * what each must hold, so a crowded half borrows length from an empty one. */
static int split_point(const segment *s)
{
    int len = (int)s->path->len;
    if (!s->inner)
        return len - 1;
    int na = half_need(s->ha), nb = half_need(s->hb);
    int mid = (int)((double)len * na / (na + nb)) - 1;
    if (mid < 1)
        mid = 1;
    if (mid > len - 3)
        mid = len - 3;
    return mid;
}

/* An outward stub that does not join anything: straight out as far as its
 * rooms and landings need, turning along the margin (left or right, as a
 * coin says) when the edge is nearer than that. */
static GArray *stub_route(embedder *e, const segment *s, ucr_point ja, ucr_point from)
{
    int need = half_need(s->ha) + 1;
    ucr_point edge = border_square(e, ja, s->dir);
    int room = abs(edge.x - ja.x) + abs(edge.y - ja.y) - e->lat->stub_gap;   /* squares short of the edge */
    /* Straight out, then turning: only those shapes are tried (no search),
     * until the last resort below. */
    bool y_first = s->dir == UCR_NORTH || s->dir == UCR_SOUTH;
    if (need <= room) {
        ucr_point to = ucr_point_walk(ja, s->dir, need);
        GArray *path = route_l(e->canvas, from, s->oa, to, s->oa, y_first);
        if (path)
            return path;
    }
    /* Turn at the margin, left or right, then nearer the intersection;
     * failing all that, as far straight out as there is room. */
    /* The sideways run stays within half the lattice spacing, so that the
     * neighbouring intersection's stub keeps its own margin. */
    int max_side = (s->dir == UCR_NORTH || s->dir == UCR_SOUTH ? e->lat->sx : e->lat->sy) / 2 - 1;
    bool left_first = ucr_dice_coin(e->rng);
    for (int depth = MIN(room, need - 1); depth >= 2; depth--)
        for (int k = 0; k < 2; k++) {
            ucr_dir side = (ucr_dir)((s->dir + ((k == 0) == left_first ? 3 : 1)) % 4);
            ucr_point to = ucr_point_walk(ucr_point_walk(ja, s->dir, depth), side,
                                          MIN(need - depth, max_side));
            GArray *path = route_l(e->canvas, from, s->oa, to, s->oa, y_first);
            if (path)
                return path;
        }
    for (int depth = room; depth >= 2; depth--) {
        ucr_point to = ucr_point_walk(ja, s->dir, depth);
        GArray *path = route(e, from, s->oa, to, s->oa, TURN_COST);
        if (path)
            return path;
    }
    return NULL;
}

/* Lays square @p of segment @seg's skeleton, its @g-th, on the canvas. */
static void skeleton_set(embedder *e, ucr_point p, int seg, int g)
{
    ucr_canvas_set(e->canvas, p, SKELETON + seg);
    e->gidx[p.y * ucr_canvas_width(e->canvas) + p.x] = g;
}

/* The square just outside the middle of wall @d of the room at an
 * intersection, where the tunnel that way leaves it. */
static ucr_point cross_mouth(const embedder *e, int r, int c, ucr_dir d)
{
    int a = e->jarea[r][c];
    if (a < 0)
        return ucr_point_step(e->junction[r][c], d);
    const ucr_area *ar = &g_array_index(e->node->areas, ucr_area, a);
    ucr_point j = e->junction[r][c];
    switch (d) {
    case UCR_NORTH: return (ucr_point){ j.x, ar->y - 1 };
    case UCR_SOUTH: return (ucr_point){ j.x, ar->y + ar->h };
    case UCR_WEST: return (ucr_point){ ar->x - 1, j.y };
    default: return (ucr_point){ ar->x + ar->w, j.y };
    }
}


/* Whether a room exit's tunnel may meet segment @s at global index @g: the
 * square is drawn as passage (not a room or landing on the tunnel, nor the
 * squares beside them, nor a stretch that ends in rock), and no other T
 * junction is next to it. */
static bool tee_ok(const segment *s, int g)
{
    int len = (int)s->path->len;
    if (g <= 0 || g >= len - 1)
        return false;
    const half_layout *hls[2] = { &s->la, &s->lb };
    int last_a = -1, first_b = len;
    for (int side = 0; side < 2; side++) {
        if (side && !s->inner)
            break;
        for (int k = 0; k < hls[side]->n; k++) {
            const station *st = &hls[side]->st[k];
            if (g >= st->a - 1 && g <= st->b + 1)
                return false;
            if (!side)
                last_a = MAX(last_a, st->b);
            else
                first_b = MIN(first_b, st->a);
        }
    }
    /* Past the last stops, a tunnel that does not go through is drawn only
     * as short stubs. */
    bool through = s->inner ? s->a_through || s->b_through : s->to_edge;
    if (!through && g > last_a && g < first_b)
        return false;
    for (guint t = 0; s->tees && t < s->tees->len; t++)
        if (abs(g_array_index(s->tees, tee, t).g - g) <= 1)
            return false;
    return true;
}

/* Lays a room exit's tunnel straight out of wall @d of room @room, from the
 * square @mouth, to the first tunnel or room it meets.  Returns the path
 * (the caller owns it) and what it meets: an area (@met_area) or a tunnel
 * square (@met_seg, @met_g); NULL if it runs into anything else or off the
 * map. */
/* Whether area @room is an end or a stop of segment @s. */
static bool segment_touches(const segment *s, int room)
{
    if (s->ja == room || s->jb == room)
        return true;
    for (int k = 0; k < s->la.n; k++)
        if (s->la.st[k].area == room)
            return true;
    for (int k = 0; s->inner && k < s->lb.n; k++)
        if (s->lb.st[k].area == room)
            return true;
    return false;
}

/* Whether a room other than @room stands on segment @s between where
 * @room is on it (an end or a stop) and global index @g: a room exit's
 * tunnel that meets its own tunnel there is a new way between rooms, a loop
 * round that room. */
static bool room_between(const embedder *e, const segment *s, int room, int g)
{
    int lo = INT_MIN, hi = INT_MIN;
    if (s->ja == room)
        lo = hi = -1;
    else if (s->jb == room)
        lo = hi = (int)s->path->len;
    const half_layout *hls[2] = { &s->la, &s->lb };
    for (int side = 0; side < 2 && lo == INT_MIN; side++)
        for (int k = 0; k < hls[side]->n && (!side || s->inner); k++)
            if (hls[side]->st[k].area == room) {
                lo = hls[side]->st[k].a;
                hi = hls[side]->st[k].b;
            }
    if (lo == INT_MIN)
        return false;
    int from = g < lo ? g : hi, to = g < lo ? lo : g;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < hls[side]->n && (!side || s->inner); k++) {
            const station *st = &hls[side]->st[k];
            if (st->area != room && st->a > from && st->b < to &&
                g_array_index(e->node->areas, ucr_area, st->area).kind == UCR_AREA_ROOM)
                return true;
        }
    return false;
}

/* ---- corridor networks, for the room loops (issue #22) -------------------- */

/* The rooms on segment @s that end before global index @g (rooms split a
 * tunnel into stretches; landings and junctions do not). */
static int rooms_before(const embedder *e, const segment *s, int g)
{
    int n = 0;
    for (int side = 0; side < 2 && (!side || s->inner); side++) {
        const half_layout *hl = side ? &s->lb : &s->la;
        for (int k = 0; k < hl->n; k++)
            n += hl->st[k].b < g &&
                 g_array_index(e->node->areas, ucr_area, hl->st[k].area).kind == UCR_AREA_ROOM;
    }
    return n;
}

/* The union-find slot of the stretch of segment @si holding index @g: a
 * tunnel that does not go through is two stretches with rock between. */
static int stretch_of(const embedder *e, int si, int g)
{
    const segment *s = &g_array_index(e->segments, segment, si);
    bool broken = s->inner && !s->a_through && !s->b_through;
    return e->net_first[si] + rooms_before(e, s, g) + (broken && g > s->mid);
}

static int net_find(int *net, int i)
{
    while (net[i] != i)
        i = net[i] = net[net[i]];
    return i;
}

static bool is_room(const embedder *e, int area)
{
    return area >= 0 && g_array_index(e->node->areas, ucr_area, area).kind == UCR_AREA_ROOM;
}

/* A segment's end at area @area meets stretch @slot: a room opens on it
 * (remembered when it is @room), anything else joins the network. */
static void net_end(embedder *e, int area, int slot, int room)
{
    if (area < 0)
        return;
    if (!is_room(e, area))
        e->net[net_find(e->net, area)] = net_find(e->net, slot);
    else if (area == room)
        g_array_append_val(e->room_nets, slot);
}

/* The networks of the tunnels drawn so far, and those @room opens on. */
static void nets_build(embedder *e, int room)
{
    int na = (int)e->node->areas->len, ns = (int)e->segments->len, total = na;
    e->net_first = g_new(int, ns + 1);
    for (int i = 0; i < ns; i++) {
        e->net_first[i] = total;
        total += rooms_before(e, &g_array_index(e->segments, segment, i), INT_MAX) + 2;
    }
    e->net = g_new(int, total);
    for (int i = 0; i < total; i++)
        e->net[i] = i;
    e->room_nets = g_array_new(FALSE, FALSE, sizeof(int));
    for (int i = 0; i < ns; i++) {
        const segment *s = &g_array_index(e->segments, segment, i);
        int len = (int)s->path->len;
        net_end(e, s->ja, stretch_of(e, i, -1), room);
        if (s->inner)
            net_end(e, s->jb, stretch_of(e, i, len), room);
        for (int side = 0; side < 2 && (!side || s->inner); side++) {
            const half_layout *hl = side ? &s->lb : &s->la;
            for (int k = 0; k < hl->n; k++)
                if (hl->st[k].area == room) {
                    int before = stretch_of(e, i, hl->st[k].a), after = stretch_of(e, i, hl->st[k].b + 1);
                    g_array_append_val(e->room_nets, before);
                    g_array_append_val(e->room_nets, after);
                } else if (!is_room(e, hl->st[k].area)) {
                    net_end(e, hl->st[k].area, stretch_of(e, i, hl->st[k].a), room);
                }
        }
        for (guint t = 0; s->tees && t < s->tees->len; t++) {
            const tee *te = &g_array_index(s->tees, tee, t);
            net_end(e, te->area, stretch_of(e, i, te->g), room);
        }
    }
}

static void nets_free(embedder *e)
{
    g_clear_pointer(&e->net, g_free);
    g_clear_pointer(&e->net_first, g_free);
    if (e->room_nets)
        g_array_free(e->room_nets, TRUE);
    e->room_nets = NULL;
}

/* Whether union-find slot @slot is a network the room already opens on: a
 * room exit's tunnel meeting it would be no new way between rooms. */
static bool net_is_rooms(const embedder *e, int slot)
{
    if (!e->net)
        return false;
    int root = net_find(e->net, slot);
    for (guint i = 0; i < e->room_nets->len; i++)
        if (net_find(e->net, g_array_index(e->room_nets, int, i)) == root)
            return true;
    return false;
}

/* Whether square @t, met by a room exit's tunnel from @room, is something
 * the tunnel may end at: another tunnel's square where a T junction may go
 * (@seg, @g), or another room or junction (@area); never a corridor network
 * the room already opens on (issue #22: that tunnel would be no new way
 * between rooms, no room loop). */
static bool exit_target(const embedder *e, int room, ucr_point t, int *seg, int *g, int *area)
{
    int o = ucr_canvas_owner(e->canvas, t);
    *seg = *g = *area = -1;
    if (o == UCR_CANVAS_EMPTY || o == INT_MIN || (o >= RESERVED && o < SKELETON))
        return false;
    if (o >= SKELETON) {
        const segment *ts = &g_array_index(e->segments, segment, o - SKELETON);
        int gi = e->gidx[t.y * ucr_canvas_width(e->canvas) + t.x];
        /* Other tunnels, or the room's own beyond another room on it: back
         * into the stretch of tunnel the room opens on is no new way. */
        if (gi < 0 || !tee_ok(ts, gi) || (segment_touches(ts, room) && !room_between(e, ts, room, gi)) ||
            net_is_rooms(e, stretch_of(e, o - SKELETON, gi)))
            return false;
        *seg = o - SKELETON;
        *g = gi;
        return true;
    }
    const ucr_area *a = &g_array_index(e->node->areas, ucr_area, o);
    if (o == room || (a->kind != UCR_AREA_ROOM && a->kind != UCR_AREA_JUNCTION) ||
        (a->kind == UCR_AREA_JUNCTION && net_is_rooms(e, o)))
        return false;
    *area = o;
    return true;
}

/* The rules of exit_search: FIFO buckets of cost (cheapest first, first
 * come first within a cost); a state's aux[0] is the squares so far. */
typedef struct {
    embedder *e;
    int room, need;
} exit_route;

/* ucr_canvas_square_ok(p, none), remembered for the length of one search
 * (the canvas does not change during it). */
static bool square_free(embedder *e, ucr_search *s, ucr_point p)
{
    int *m = ucr_search_memo(s, p.y * ucr_canvas_width(e->canvas) + p.x);
    if (m[0] < 0)
        m[0] = ucr_canvas_square_ok(e->canvas, p, UCR_CANVAS_EMPTY);
    return m[0];
}

/* A square whose heading meets a target head-on is a goal (a fallback when
 * shorter than wanted); other squares beside things are no way on. */
static ucr_search_visit exit_visit(void *data, ucr_search *s, const ucr_search_at *at)
{
    exit_route *r = data;
    const ucr_canvas *cv = r->e->canvas;
    int len = ucr_search_aux(s, at->st, 0);
    ucr_point p = at->p, t = ucr_point_step(p, at->head);
    int sg, gg, aa;
    if (len >= 2 && exit_target(r->e, r->room, t, &sg, &gg, &aa) &&
        ucr_canvas_square_ok(cv, p, ucr_canvas_owner(cv, t)))
        return len >= r->need ? UCR_VISIT_GOAL : UCR_VISIT_FALLBACK;
    if (len > 1 && !square_free(r->e, s, p))
        return UCR_VISIT_STOP;   /* a square beside the target that is no way in */
    return UCR_VISIT_GO;
}

static bool exit_step(void *data, ucr_search *s, const ucr_search_at *at, ucr_dir nd, ucr_search_move *mv)
{
    exit_route *r = data;
    const ucr_canvas *cv = r->e->canvas;
    int head = at->head, len = ucr_search_aux(s, at->st, 0);
    if ((int)nd == (head + 2) % 4 || (len == 1 && (int)nd != head))
        return false;   /* no turning back; out of the wall at right angles */
    ucr_point q = ucr_point_step(at->p, nd);
    if (!ucr_canvas_inside(cv, q) || ucr_canvas_owner(cv, q) != UCR_CANVAS_EMPTY || len + 1 > r->e->lat->reach)
        return false;
    /* Only squares a corridor may use, or the last one before a target. */
    ucr_point t2 = ucr_point_step(q, nd);
    int sg, gg, aa;
    if (!square_free(r->e, s, q) && !(ucr_canvas_inside(cv, t2) && exit_target(r->e, r->room, t2, &sg, &gg, &aa)))
        return false;
    mv->to = ucr_search_state(s, q, nd, 0);
    mv->cost = 1 + ((int)nd != head ? TURN_COST : 0);
    mv->aux[0] = len + 1;
    return true;
}

/* The shortest way (a turn costs TURN_COST squares) for a room exit's tunnel
 * out of wall @d of room @room, leaving the wall at right angles and
 * arriving head-on at another tunnel or room, at most EXIT_REACH squares
 * long and, when it can be, at least @need long (a room or landing rolled on
 * it wants the length).  Returns the path (the caller owns it) and what it
 * meets, or NULL. */
static GArray *exit_search(embedder *e, int room, ucr_dir d, int need, int *met_area, int *met_seg,
                           int *met_g)
{
    const ucr_canvas *cv = e->canvas;
    const ucr_area *ar = &g_array_index(e->node->areas, ucr_area, room);
    exit_route r = { e, room, need };
    ucr_search_rules rules = { .queue = UCR_SEARCH_BUCKETS, .cost_limit = exit_costs(e->lat), .data = &r,
                               .visit = exit_visit, .step = exit_step };
    ucr_search *s = ucr_canvas_search(cv);
    ucr_search_begin(s, &rules);
    int span = ucr_area_wall_length(ar, d);
    /* Every square along the wall may be the mouth; the middle costs least. */
    for (int off = 0; off < span; off++) {
        ucr_point m = ucr_area_mouth(ar, d, off);
        if (!ucr_canvas_inside(cv, m) || !ucr_canvas_square_ok(cv, m, room))
            continue;
        ucr_search_move start = { .to = ucr_search_state(s, m, d, 0),
                                  .cost = MIN(abs(off - (span - 1) / 2), exit_costs(e->lat) - 1), .aux = { 1 } };
        ucr_search_start(s, &start);
    }
    int goal = ucr_search_run(s);
    if (goal < 0)
        return NULL;
    GArray *path = ucr_search_path(s, goal);
    ucr_point t = ucr_point_step(ucr_search_square(s, goal), ucr_search_heading(s, goal));
    exit_target(e, room, t, met_seg, met_g, met_area);
    return path;
}

/* The cheap first try of exit_search: straight out of the middle of the
 * wall to whatever it meets. */
static GArray *exit_straight(embedder *e, int room, ucr_dir d, int need, int *met_area, int *met_seg,
                             int *met_g)
{
    const ucr_canvas *cv = e->canvas;
    const ucr_area *ar = &g_array_index(e->node->areas, ucr_area, room);
    ucr_point m = d == UCR_NORTH   ? (ucr_point){ ar->x + (ar->w - 1) / 2, ar->y - 1 }
                  : d == UCR_SOUTH ? (ucr_point){ ar->x + (ar->w - 1) / 2, ar->y + ar->h }
                  : d == UCR_WEST  ? (ucr_point){ ar->x - 1, ar->y + (ar->h - 1) / 2 }
                                   : (ucr_point){ ar->x + ar->w, ar->y + (ar->h - 1) / 2 };
    if (!ucr_canvas_inside(cv, m) || !ucr_canvas_square_ok(cv, m, room))
        return NULL;
    for (int n = 1; n < e->lat->reach; n++) {
        ucr_point p = ucr_point_walk(m, d, n), t = ucr_point_step(p, d);
        if (!ucr_canvas_inside(cv, p) || ucr_canvas_owner(cv, p) != UCR_CANVAS_EMPTY)
            return NULL;
        if (ucr_canvas_square_ok(cv, p, UCR_CANVAS_EMPTY))
            continue;
        if (n + 1 < need || !exit_target(e, room, t, met_seg, met_g, met_area) ||
            !ucr_canvas_square_ok(cv, p, ucr_canvas_owner(cv, t)))
            return NULL;
        GArray *path = g_array_sized_new(FALSE, FALSE, sizeof(ucr_point), (guint)n + 1);
        for (int k = 0; k <= n; k++) {
            ucr_point c = ucr_point_walk(m, d, k);
            g_array_append_val(path, c);
        }
        return path;
    }
    return NULL;
}

/* The last try of a room exit: a wall one square of rock from another
 * tunnel or room (no corridor square beside it is free) opens on it through
 * that square, the middle of the wall first.  Returns the one-square path
 * (the caller owns it) and what it meets, or NULL. */
static GArray *exit_through(embedder *e, int room, ucr_dir d, int *met_area, int *met_seg, int *met_g)
{
    const ucr_canvas *cv = e->canvas;
    const ucr_area *ar = &g_array_index(e->node->areas, ucr_area, room);
    int span = ucr_area_wall_length(ar, d);
    for (int k = 0; k < span; k++) {
        int off = (span - 1) / 2 + (k % 2 ? (k + 1) / 2 : -(k / 2));
        if (off < 0 || off >= span)
            continue;
        ucr_point m = ucr_area_mouth(ar, d, off), t = ucr_point_step(m, d);
        if (!ucr_canvas_inside(cv, m) || !ucr_canvas_inside(cv, t) ||
            !exit_target(e, room, t, met_seg, met_g, met_area) ||
            !ucr_canvas_square_between(cv, m, room, ucr_canvas_owner(cv, t)))
            continue;
        GArray *path = g_array_sized_new(FALSE, FALSE, sizeof(ucr_point), 1);
        g_array_append_val(path, m);
        return path;
    }
    return NULL;
}

static const ucr_half EMPTY_THROUGH = { .through = true };

/* Takes back the areas added since there were @areas_before (rooms rolled
 * on a tunnel that is not drawn after all), leaving their squares rock. */
static void areas_forget(embedder *e, int areas_before)
{
    for (guint a = (guint)areas_before; a < e->node->areas->len; a++) {
        ucr_area *ar = &g_array_index(e->node->areas, ucr_area, a);
        ucr_canvas_fill(e->canvas, ar->x, ar->y, ar->w, ar->h, UCR_CANVAS_EMPTY);
        g_free(ar->rolled);
    }
    g_array_set_size(e->node->areas, (guint)areas_before);
}

/* Builds the tunnel of a room exit (see room_exits); false if there is no
 * straight way from wall @d to a tunnel or room. */
static bool exit_tunnel(embedder *e, int room, ucr_dir d, const ucr_half *h)
{
    /* Rooms and landings on the new tunnel want its length. */
    int need = half_need(h);
    int best_area = -1, best_seg = -1, best_g = -1;
    nets_build(e, room);
    GArray *best = exit_straight(e, room, d, need, &best_area, &best_seg, &best_g);
    if (!best)
        best = exit_search(e, room, d, need, &best_area, &best_seg, &best_g);
    if (!best)
        best = exit_through(e, room, d, &best_area, &best_seg, &best_g);
    nets_free(e);
    if (best && (int)best->len < need && (ucr_half_has(h, UCR_STEP_ROOM_DOOR) || ucr_half_has(h, UCR_STEP_ROOM_OPEN))) {
        /* Too short for the room rolled on it. */
        g_array_free(best, TRUE);
        best = NULL;
    }
    if (!best)
        return false;
    int target = best_area, areas_before = (int)e->node->areas->len;
    if (best_seg >= 0) {
        /* A T junction where it meets the tunnel. */
        segment *t = &g_array_index(e->segments, segment, best_seg);
        ucr_point q = path_at(t, best_g);
        target = area_add(e, UCR_AREA_JUNCTION, q.x, q.y, 1, 1, UCR_STAIR_NONE,
                          g_strdup("where a room exit's tunnel meets this one"));
        t = &g_array_index(e->segments, segment, best_seg);
        if (!t->tees)
            t->tees = g_array_new(FALSE, FALSE, sizeof(tee));
        tee te = { best_g, target };
        g_array_append_val(t->tees, te);
    }
    segment x = { 0 };
    x.r = x.c = x.r2 = x.c2 = -1;
    x.dir = d;
    x.ja = x.oa = room;
    x.jb = x.ob = target;
    x.inner = true;
    x.exit = true;
    x.link = -1;
    x.ha = h;
    x.hb = &EMPTY_THROUGH;
    x.a_through = true;
    x.b_through = false;
    x.path = best;
    x.mid = (int)best->len - 1;
    g_array_append_val(e->segments, x);
    int idx = (int)e->segments->len - 1;
    for (guint k = 0; k < best->len; k++)
        skeleton_set(e, g_array_index(best, ucr_point, k), idx, (int)k);
    int unplaced = e->node->unplaced;
    segment *xs = &g_array_index(e->segments, segment, idx);
    xs->la.h = xs->ha;
    half_layout_build(e, xs, idx, false);
    xs = &g_array_index(e->segments, segment, idx);
    xs->lb.h = xs->hb;
    half_layout_build(e, xs, idx, true);
    if (e->node->unplaced == unplaced)
        return true;
    /* A room rolled on it found no place beside it: no tunnel after all. */
    e->node->unplaced = unplaced;
    areas_forget(e, areas_before);
    for (guint k = 0; k < best->len; k++)
        ucr_canvas_set(e->canvas, g_array_index(best, ucr_point, k), UCR_CANVAS_EMPTY);
    if (best_seg >= 0) {
        segment *t = &g_array_index(e->segments, segment, best_seg);
        skeleton_set(e, path_at(t, best_g), best_seg, best_g);
        g_array_set_size(t->tees, t->tees->len - 1);
    }
    g_array_free(best, TRUE);
    g_array_set_size(e->segments, e->segments->len - 1);
    return false;
}

/* The lattice tunnel that leaves wall @d of crossing room @room and stops
 * in rock short of it (Step 2 rolled a wall at this end, and the tunnel
 * does not go through): its index, and in @b_side which end is the room's;
 * -1 if there is none. */
static int walled_lattice_end(const embedder *e, int room, ucr_dir d, bool *b_side)
{
    for (guint i = 0; i < e->segments->len; i++) {
        const segment *s = &g_array_index(e->segments, segment, i);
        if (!s->inner || s->exit || s->a_through || s->b_through)
            continue;
        if (s->ja == room && s->dir == d && half_is_empty(s->ha, false)) {
            *b_side = false;
            return (int)i;
        }
        if (s->jb == room && (ucr_dir)((s->dir + 2) % 4) == d && half_is_empty(s->hb, false)) {
            *b_side = true;
            return (int)i;
        }
    }
    return -1;
}

/* A crossing room's exit that goes through, out of a wall where the
 * lattice's tunnel ends in rock: the hypothetical tunnel of Step 2 is
 * there already, so the exit opens it, and the tunnel runs on to what the
 * other end drew (seed 004: "room exits can generate additional tunnels as
 * well").  The exit's half (@h) becomes that end's; its rooms and landings
 * are placed on the tunnel's share of that end.  False, and nothing
 * changed, if there is no such tunnel or a room rolled on it finds no
 * place. */
static bool exit_open_lattice(embedder *e, int room, ucr_dir d, const ucr_half *h)
{
    bool b_side = false;
    int si = walled_lattice_end(e, room, d, &b_side);
    if (si < 0)
        return false;
    int unplaced = e->node->unplaced, areas_before = (int)e->node->areas->len;
    segment *s = &g_array_index(e->segments, segment, si);
    half_layout *hl = b_side ? &s->lb : &s->la;
    const ucr_half *old = hl->h;
    hl->h = h;
    half_layout_build(e, s, si, b_side);
    s = &g_array_index(e->segments, segment, si);
    hl = b_side ? &s->lb : &s->la;
    if (e->node->unplaced == unplaced) {
        if (b_side) {
            s->hb = h;
            s->b_through = true;
        } else {
            s->ha = h;
            s->a_through = true;
        }
        return true;
    }
    /* A room rolled on it found no place: the end stays walled. */
    e->node->unplaced = unplaced;
    areas_forget(e, areas_before);
    for (guint g = 0; g < s->path->len; g++)
        if (ucr_canvas_owner(e->canvas, path_at(s, (int)g)) == UCR_CANVAS_EMPTY)
            skeleton_set(e, path_at(s, (int)g), si, (int)g);
    hl->h = old;
    half_layout_build(e, s, si, b_side);
    return false;
}

/* Seed 004: "When we get to room generation, room exits can generate
 * additional tunnels as well, which can further complicate the structure.
 * This is good.  This is a Jaquayed dungeon structure."  Every room rolls
 * the same 2d6 table for each wall that no tunnel leaves by (what that
 * direction leads to), and the roll is kept in its key entry.  A wall is a
 * wall (stairs before a wall too: exits are rolled as the node is drawn,
 * after the megadungeon has wired the stairs between nodes, so such stairs
 * could lead nowhere); anything that goes through is a new tunnel out of that wall,
 * carrying what the roll put on it (a door or secret door at the room, a
 * collapse, steps, a further room), to the nearest other tunnel (a T
 * junction there) or room (exit_search).  An exit with no way on this map
 * (nothing within reach, or too short for the room rolled on it) stays a
 * wall, and the key says so.  A room on a new tunnel rolls its exits in turn
 * (seed 001, on Appendix A: "additional rooms that have their own set of
 * exits"), until the map is full. */
static void exits_roll(embedder *e, int room, const bool used[4], bool crossing)
{
    for (int d = 0; d < 4; d++) {
        if (used[d] || e->n_exit_halves >= MAX_EXITS)
            continue;
        ucr_half *h = &e->exit_halves[e->n_exit_halves++];
        ucr_roll004_half(e->req->tables, e->rng, h);
        char *desc = ucr_roll004_describe(h);
        GString *note = g_string_new(NULL);
        g_string_append_printf(note, "; exit %s: %s", ucr_dir_name((ucr_dir)d), desc);
        g_free(desc);
        if (h->through) {
            bool drawn = (crossing && exit_open_lattice(e, room, (ucr_dir)d, h)) ||
                         exit_tunnel(e, room, (ucr_dir)d, h);
            if (!drawn)
                g_string_append(note, " (no way for it on this map: a wall)");
            ucr_node_outcome(e->node, "a room's exit that goes through: a tunnel on (seed 004)",
                             drawn ? NULL : "no way on this map: a wall");
        }
        ucr_area *ap = &g_array_index(e->node->areas, ucr_area, room);
        char *rolled = g_strconcat(ap->rolled ? ap->rolled : "", note->str, NULL);
        g_free(ap->rolled);
        ap->rolled = rolled;
        g_string_free(note, TRUE);
    }
}

static void room_exits(embedder *e)
{
    /* The rooms at the intersections first: their walls that no tunnel
     * leaves by (Step 2 rolled a wall that way, or it faces the map's edge). */
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            if (e->jarea[r][c] >= 0)
                exits_roll(e, e->jarea[r][c], e->mouth_used[r][c], true);
    /* Then the rooms on the tunnels, and on the new tunnels as they come
     * (the segments array grows while it is walked). */
    for (guint i = 0; i < e->segments->len; i++)
        for (int side = 0; side < 2; side++) {
            segment *s = &g_array_index(e->segments, segment, i);
            if (side && !s->inner)
                break;
            int nst = side ? s->lb.n : s->la.n;
            for (int k = 0; k < nst; k++) {
                s = &g_array_index(e->segments, segment, i);   /* the array may have moved */
                station st = side ? s->lb.st[k] : s->la.st[k];
                const ucr_area *ar = &g_array_index(e->node->areas, ucr_area, st.area);
                if (ar->kind != UCR_AREA_ROOM)
                    continue;
                bool used[4] = { false };
                if (st.a > 0)
                    used[ucr_area_wall_of(ar, path_at(s, st.a - 1))] = true;
                if (st.b + 1 < (int)s->path->len)
                    used[ucr_area_wall_of(ar, path_at(s, st.b + 1))] = true;
                exits_roll(e, st.area, used, false);
            }
        }
}

/* Forget where an earlier try put this node's links. */
static void links_forget(embedder *e, const ucr_grid_plan *plan)
{
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            for (int d = 0; d < 4; d++) {
                const ucr_half *h = &plan->halves[r][c][d];
                for (int k = 0; k < h->n; k++)
                    if (h->steps[k].link >= 0)
                        e->req->link_area[h->steps[k].link] = -1;
            }
    for (int k = 0; k < e->req->n_arrivals; k++)
        e->req->link_area[e->req->arrivals[k].link] = -1;
    for (int d = 0; d < 4; d++)
        if (e->req->joins[d].used && e->req->joins[d].link >= 0)
            e->req->link_area[e->req->joins[d].link] = -1;
}

/* Segments: east and south of each intersection, and the outward ones;
 * marks in used the intersections a tunnel reaches. */
static void segments_collect(embedder *e, const ucr_grid_plan *plan, bool used[N][N])
{
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            for (int d = 0; d < 4; d++) {
                bool outward = is_outward(r, c, d);
                if (!outward && (d == UCR_NORTH || d == UCR_WEST))
                    continue;   /* the neighbour's east/south covers it */
                segment s = { 0 };
                s.link = -1;    /* only a joined outward segment carries a link */
                s.r = r;
                s.c = c;
                s.r2 = s.c2 = -1;
                s.dir = d;
                s.jb = -1;
                int link;
                bool to_edge;
                s.ha = half_for(e, plan, r, c, d, &s.a_through, &to_edge, &link);
                if (!outward) {
                    int r2 = r + (d == UCR_SOUTH), c2 = c + (d == UCR_EAST);
                    ucr_dir back = (ucr_dir)((d + 2) % 4);
                    bool te2;
                    int l2;
                    s.r2 = r2;
                    s.c2 = c2;
                    s.inner = true;
                    s.hb = half_for(e, plan, r2, c2, back, &s.b_through, &te2, &l2);
                    bool ea = half_is_empty(s.ha, s.a_through), eb = half_is_empty(s.hb, s.b_through);
                    if (ea && eb)
                        continue;
                    /* An end that rolled a wall and nothing else is rock,
                     * unless the tunnel goes through: no room there for it. */
                    g_array_append_val(e->segments, s);
                    e->mouth_used[r][c][d] = !ea || s.a_through || s.b_through;
                    e->mouth_used[r2][c2][back] = !eb || s.a_through || s.b_through;
                    used[r][c] |= e->mouth_used[r][c][d];
                    used[r2][c2] |= e->mouth_used[r2][c2][back];
                    continue;
                } else {
                    s.to_edge = to_edge;
                    s.link = link;
                    s.stub_open = !is_joined(plan, r, c, d) && plan->halves[r][c][d].through;
                    if (half_is_empty(s.ha, s.a_through) && !s.stub_open)
                        continue;
                }
                used[r][c] = true;
                e->mouth_used[r][c][d] = true;
                g_array_append_val(e->segments, s);
            }
}

/* Step 3, "filled in on Step 3": where the tunnels cross there is a room.
 * In the superstructure the same process puts a node at every
 * intersection ("each 'room' is actually a substructure"): one level
 * down, what stands at an intersection is a room, sized from the room
 * table.  An intersection no tunnel reaches stays rock. */
static void crossings_place(embedder *e, bool used[N][N])
{
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            if (!used[r][c]) {
                ucr_canvas_set(e->canvas, e->junction[r][c], RESERVED + r * N + c);
                continue;
            }
            int total = 0, w = 1, h = 1;
            const ucr_table_row *row = ucr_table_roll(e->req->tables->room_size, e->rng, &total);
            ucr_table_parse_size(row->text, &w, &h);
            int rw = w, rh = h;
            /* Later attempts, when the tunnels found no way round them,
             * keep the crossings smaller. */
            w = MIN(w, e->attempt < 4 ? e->lat->cross_w : e->attempt < 6 ? 3 : 1);
            h = MIN(h, e->attempt < 4 ? e->lat->cross_h : e->attempt < 6 ? 3 : 1);
            char *rolled = w != rw || h != rh
                               ? g_strdup_printf("intersection %c%d: room size 1d20=%d: %s, %dx%d at the "
                                                 "crossing so that the tunnels keep their length",
                                                 'a' + c, r + 1, total, row->text, w, h)
                               : g_strdup_printf("intersection %c%d: room size 1d20=%d: %s", 'a' + c,
                                                 r + 1, total, row->text);
            ucr_point j = e->junction[r][c];
            e->jarea[r][c] = area_add(e, UCR_AREA_ROOM, j.x - (w - 1) / 2, j.y - (h - 1) / 2, w, h,
                                      UCR_STAIR_NONE, rolled);
        }
}

/* Each segment's two ends: the crossing's room, or the rock reserved for it. */
static void segment_ends(embedder *e)
{
    for (guint i = 0; i < e->segments->len; i++) {
        segment *s = &g_array_index(e->segments, segment, i);
        s->ja = e->jarea[s->r][s->c];
        s->jb = s->r2 >= 0 ? e->jarea[s->r2][s->c2] : -1;
        s->oa = s->ja >= 0 ? s->ja : RESERVED + s->r * N + s->c;
        s->ob = s->jb >= 0 || s->r2 < 0 ? s->jb : RESERVED + s->r2 * N + s->c2;
    }
}

/* Route every skeleton before any room is carved, so that rooms fit
 * around the tunnels and never across them: first the tunnels between
 * intersections and to the map edge, then the stubs, which may bend
 * into whatever margin is left. */
static bool segments_route(embedder *e)
{
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < e->segments->len; i++) {
            segment *s = &g_array_index(e->segments, segment, i);
            bool stub = !s->inner && !s->to_edge;
            if (stub != (pass == 1))
                continue;
            ucr_point from = cross_mouth(e, s->r, s->c, s->dir);
            if (stub) {
                s->path = stub_route(e, s, ucr_point_step(from, (ucr_dir)((s->dir + 2) % 4)), from);
            } else if (s->inner) {
                ucr_point to = cross_mouth(e, s->r2, s->c2, (ucr_dir)((s->dir + 2) % 4));
                s->path = route(e, from, s->oa, to, s->ob, TURN_COST);
            } else {
                s->path = route(e, from, s->oa, border_square(e, from, s->dir), s->oa,
                                           TURN_COST);
            }
            if (!s->path || s->path->len < (stub ? 2u : 3u))
                return false;
            s->mid = split_point(s);
            for (guint k = 0; k < s->path->len; k++)
                skeleton_set(e, g_array_index(s->path, ucr_point, k), (int)i, (int)k);
        }
    return true;
}

/* One try at the whole node; false if a tunnel found no route (the caller
 * tries again with the intersections moved). */
static bool embed_try(embedder *e, const ucr_grid_plan *plan, bool last)
{
    ucr_node *node = e->node;
    links_forget(e, plan);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            const lattice *l = e->lat;
            int jx = ucr_dice_d(e->rng, 2 * l->jx + 1) - 1 - l->jx;
            int jy = ucr_dice_d(e->rng, 2 * l->jy + 1) - 1 - l->jy;
            e->junction[r][c] = (ucr_point){ l->mx + c * l->sx + jx, l->my + r * l->sy + jy };
            e->jarea[r][c] = -1;
        }
    arrivals_place(e, plan);
    e->segments = g_array_new(FALSE, TRUE, sizeof(segment));
    e->n_exit_halves = 0;
    memset(e->mouth_used, 0, sizeof e->mouth_used);
    bool used[N][N] = { { false } };
    segments_collect(e, plan, used);
    crossings_place(e, used);
    segment_ends(e);
    if (!segments_route(e))
        return false;
    for (guint i = 0; i < e->segments->len; i++) {
        segment *s = &g_array_index(e->segments, segment, i);
        s->la.h = s->ha;
        half_layout_build(e, s, (int)i, false);
        if (s->inner) {
            s->lb.h = s->hb;
            half_layout_build(e, s, (int)i, true);
        }
    }
    room_exits(e);
    /* Something found no room: move the intersections and try again. */
    if (node->unplaced && !last)
        return false;
    for (guint i = 0; i < node->areas->len; i++) {
        ucr_vertex v = { UCR_VERTEX_AREA, (int)i, { 0, 0 } };
        g_array_append_val(node->vertices, v);
    }
    for (guint i = 0; i < e->segments->len; i++) {
        segment *s = &g_array_index(e->segments, segment, i);
        segment_passages(e, s);
        /* The superstructure tunnel goes on from the last area before the
         * edge (the intersection's room, a chamber on the way, or where a
         * room exit's tunnel meets it): the start of the passage that
         * leaves the map, the last one laid. */
        if (s->link >= 0)
            e->req->link_area[s->link] =
                g_array_index(node->passages, ucr_passage, node->passages->len - 1).a;
    }
    return true;
}

static void node_reset(ucr_node *node)
{
    for (guint i = 0; i < node->areas->len; i++)
        g_free(g_array_index(node->areas, ucr_area, i).rolled);
    for (guint i = 0; i < node->passages->len; i++) {
        g_array_free(g_array_index(node->passages, ucr_passage, i).cells, TRUE);
        g_array_free(g_array_index(node->passages, ucr_passage, i).stairs, TRUE);
    }
    g_array_set_size(node->areas, 0);
    g_array_set_size(node->passages, 0);
    g_array_set_size(node->doors, 0);
    g_array_set_size(node->vertices, 0);
    node->unplaced = 0;
}

/* Draws the node on the grid (ucr_node_method.embed). */
static ucr_node *grid_embed(void *vplan, const char *id, int col, int row, const ucr_node_request *req,
                            ucr_prng *rng, GError **error)
{
    ucr_grid_plan *plan = vplan;
    embedder e = { 0 };
    e.node = ucr_node_new(id, col, row);
    e.node->method = "grid";
    e.lat = &LATTICES[req->size];
    int mw = lattice_w(e.lat), mh = lattice_h(e.lat);
    e.node->width = mw;
    e.node->height = mh;
    e.gidx = g_new0(int, mw * mh);
    e.req = req;
    e.rng = rng;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            for (int d = 0; d < 4; d++) {
                char *desc = ucr_roll004_describe(&plan->halves[r][c][d]);
                g_ptr_array_add(e.node->rolls, g_strdup_printf("intersection %c%d %c: %s%s",
                                                               'a' + c, r + 1, DIR_LETTER[d], desc,
                                                               is_joined(plan, r, c, d)
                                                                   ? " (superstructure tunnel joins here)"
                                                                   : ""));
                g_free(desc);
            }
    bool ok = false;
    for (int attempt = 0; attempt < EMBED_ATTEMPTS; attempt++) {
        e.canvas = ucr_canvas_new(mw, mh);
        e.last_attempt = attempt == EMBED_ATTEMPTS - 1;
        e.attempt = attempt;
        ok = embed_try(&e, plan, e.last_attempt);
        ucr_canvas_free(e.canvas);
        e.canvas = NULL;
        if (e.segments)
            segments_free(e.segments);
        e.segments = NULL;
        if (ok)
            break;
        node_reset(e.node);
    }
    g_free(e.gidx);
    if (ok)
        return e.node;
    g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE,
                "node %s: could not route its tunnels in %d attempts (please report the seed)", id,
                EMBED_ATTEMPTS);
    ucr_node_free(e.node);
    return NULL;
}

/* ---- the method --------------------------------------------------------- */

static const ucr_table_need *const GRID_TABLES[] = { ucr_roll004_tables, NULL };

const ucr_node_method ucr_grid_method = {
    .name = "grid",
    .seeds = "004",
    .summary = "RDG 2.0 substructure: a 3x3 tunnel grid, 36 direction rolls on 2d6 with doubles",
    .roll = grid_roll,
    .exits = grid_exits,
    .embed = grid_embed,
    .free = grid_free,
    .tables = GRID_TABLES,
    .sized = true,
};
