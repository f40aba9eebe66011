#include "gen/grid_method.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gen/canvas.h"

/* Lattice of the nine intersections: spacing in squares, and the margin
 * between the outer intersections and the map edge (room for the stubs and
 * the superstructure tunnels).  "More-or-less" straight tunnels: each
 * intersection is moved up to JITTER squares from the lattice. */
enum { SPACING_X = 18, SPACING_Y = 15, MARGIN = 8, JITTER = 2, N = 3 };
enum { MAP_W = 2 * MARGIN + 2 * SPACING_X + 1, MAP_H = 2 * MARGIN + 2 * SPACING_Y + 1 };
enum { EMBED_ATTEMPTS = 8, TURN_COST = 4 };

/* Canvas owners: areas are their index; a tunnel's skeleton is SKELETON+seg. */
enum { SKELETON = 100000 };

struct ucr_grid_plan {
    ucr_half halves[N][N][4];      /* [row][col][dir] */
    int join_index[4];             /* which outside intersection, 0..2, or -1 */
};

static const char *DIR_LETTER = "NESW";

ucr_grid_plan *ucr_grid_plan_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables)
{
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

void ucr_grid_plan_free(ucr_grid_plan *plan)
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

void ucr_grid_plan_exits(ucr_grid_plan *plan, GPtrArray *out)
{
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            for (int d = 0; d < 4; d++) {
                if (is_joined(plan, r, c, d) || half_goes_through(plan, r, c, d))
                    continue;
                ucr_half *h = &plan->halves[r][c][d];
                int i = last_station(h);
                if (i >= 0 && h->steps[i].kind == UCR_STEP_STAIRS)
                    g_ptr_array_add(out, &h->steps[i]);
            }
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

typedef struct {
    int r, c;           /* intersection at end a */
    ucr_dir dir;        /* direction from a */
    int ja, jb;         /* junction areas; jb = -1 for outward */
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
    bool last_attempt;
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
    int nsizes = station_sizes(w, h, stairs, e->last_attempt, sizes);
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
    if (s->jb < 0)
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

/* Adds the passage over global path indices [g0, g1], walked from g0.
 * @va/@vb are the vertices at the g0 and g1 ends; @area_a/@area_b the areas
 * there (or -1) for the doors.  @rubble_at is a global index or -1.  The
 * steps of leg @la lie in the part nearer g0 (up to global @split), those of
 * @lb, met from the g1 end, in the rest. */
static void passage_add(embedder *e, segment *s, int g0, int g1, int va, int vb, int area_a,
                        int area_b, int door_a, int door_b, bool blocked, int rubble_at,
                        const leg *la, const leg *lb, int split)
{
    ucr_node *node = e->node;
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
    p.a = va;
    p.b = vb;
    if (blocked)
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
    bool outward = s->jb < 0;
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
    if (s->jb >= 0)
        half_passages(e, s, true);
    const half_layout *A = &s->la, *B = &s->lb;
    int fa, la_, fb, lb_;
    stop_range(s, false, A->n, &fa, &la_);
    if (s->jb < 0) {
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
         * the way). */
        for (int pass = 0; pass < 4 && !done; pass++)
            for (int j = 0; j < N * N && !done; j++) {
                int idx = (start + j) % (N * N), r = idx / N, c = idx % N;
                for (int dd = 0; dd < 4 && !done; dd++) {
                    ucr_dir d = (ucr_dir)((dstart + dd) % 4);
                    ucr_half *h = &e->arrival_halves[r][c][d];
                    if (is_joined(plan, r, c, d) || h->n >= UCR_HALF_MAX_STEPS)
                        continue;
                    bool through = half_goes_through(plan, r, c, d);
                    bool outward = is_outward(r, c, d);
                    if (pass == 0 && (outward || !half_is_empty(h, through)))
                        continue;
                    if (pass == 1 && (!outward || !half_is_empty(h, through)))
                        continue;
                    if (pass == 2 && through)
                        continue;
                    ucr_step st = { UCR_STEP_STAIRS, arr->stair, arr->link, true };
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
    }
    g_array_free(segs, TRUE);
}

static ucr_point border_square(ucr_point j, ucr_dir d)
{
    switch (d) {
    case UCR_NORTH: return (ucr_point){ j.x, 0 };
    case UCR_SOUTH: return (ucr_point){ j.x, MAP_H - 1 };
    case UCR_WEST: return (ucr_point){ 0, j.y };
    default: return (ucr_point){ MAP_W - 1, j.y };
    }
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
    if (s->jb < 0)
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
    ucr_point edge = border_square(ja, s->dir);
    int room = abs(edge.x - ja.x) + abs(edge.y - ja.y) - 2;   /* squares short of the edge */
    if (need <= room) {
        ucr_point to = ucr_point_walk(ja, s->dir, need);
        GArray *path = ucr_canvas_route(e->canvas, from, s->ja, to, s->ja, TURN_COST);
        if (path)
            return path;
    }
    /* Turn at the margin, left or right, then nearer the intersection;
     * failing all that, as far straight out as there is room. */
    /* The sideways run stays within half the lattice spacing, so that the
     * neighbouring intersection's stub keeps its own margin. */
    int max_side = (s->dir == UCR_NORTH || s->dir == UCR_SOUTH ? SPACING_X : SPACING_Y) / 2 - 1;
    bool left_first = ucr_dice_coin(e->rng);
    for (int depth = MIN(room, need - 1); depth >= 2; depth--)
        for (int k = 0; k < 2; k++) {
            ucr_dir side = (ucr_dir)((s->dir + ((k == 0) == left_first ? 3 : 1)) % 4);
            ucr_point to = ucr_point_walk(ucr_point_walk(ja, s->dir, depth), side,
                                          MIN(need - depth, max_side));
            GArray *path = ucr_canvas_route(e->canvas, from, s->ja, to, s->ja, TURN_COST);
            if (path)
                return path;
        }
    for (int depth = room; depth >= 2; depth--) {
        ucr_point to = ucr_point_walk(ja, s->dir, depth);
        GArray *path = ucr_canvas_route(e->canvas, from, s->ja, to, s->ja, TURN_COST);
        if (path)
            return path;
    }
    return NULL;
}

/* One try at the whole node; false if a tunnel found no route (the caller
 * tries again with the intersections moved). */
static bool embed_try(embedder *e, const ucr_grid_plan *plan, bool last)
{
    ucr_node *node = e->node;
    /* Forget where an earlier try put this node's links. */
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
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            int jx = ucr_dice_d(e->rng, 2 * JITTER + 1) - 1 - JITTER;
            int jy = ucr_dice_d(e->rng, 2 * JITTER + 1) - 1 - JITTER;
            e->junction[r][c] = (ucr_point){ MARGIN + c * SPACING_X + jx, MARGIN + r * SPACING_Y + jy };
            char *rolled = g_strdup_printf("intersection %c%d", 'a' + c, r + 1);
            area_add(e, UCR_AREA_JUNCTION, e->junction[r][c].x, e->junction[r][c].y, 1, 1,
                     UCR_STAIR_NONE, rolled);
        }
    arrivals_place(e, plan);
    e->segments = g_array_new(FALSE, TRUE, sizeof(segment));
    /* Segments: east and south of each intersection, and the outward ones. */
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
                s.dir = d;
                s.ja = r * N + c;
                s.jb = -1;
                int link;
                bool to_edge;
                s.ha = half_for(e, plan, r, c, d, &s.a_through, &to_edge, &link);
                if (!outward) {
                    int r2 = r + (d == UCR_SOUTH), c2 = c + (d == UCR_EAST);
                    ucr_dir back = (ucr_dir)((d + 2) % 4);
                    bool te2;
                    int l2;
                    s.jb = r2 * N + c2;
                    s.hb = half_for(e, plan, r2, c2, back, &s.b_through, &te2, &l2);
                    if (half_is_empty(s.ha, s.a_through) && half_is_empty(s.hb, s.b_through))
                        continue;
                } else {
                    s.to_edge = to_edge;
                    s.link = link;
                    s.stub_open = !is_joined(plan, r, c, d) && plan->halves[r][c][d].through;
                    if (half_is_empty(s.ha, s.a_through) && !s.stub_open)
                        continue;
                }
                g_array_append_val(e->segments, s);
            }
    /* Route every skeleton before any room is carved, so that rooms fit
     * around the tunnels and never across them: first the tunnels between
     * intersections and to the map edge, then the stubs, which may bend
     * into whatever margin is left. */
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < e->segments->len; i++) {
            segment *s = &g_array_index(e->segments, segment, i);
            bool stub = s->jb < 0 && !s->to_edge;
            if (stub != (pass == 1))
                continue;
            ucr_point ja = e->junction[s->r][s->c];
            ucr_point from = ucr_point_step(ja, s->dir);
            if (stub) {
                s->path = stub_route(e, s, ja, from);
            } else if (s->jb >= 0) {
                int r2 = s->jb / N, c2 = s->jb % N;
                ucr_point to = ucr_point_step(e->junction[r2][c2], (ucr_dir)((s->dir + 2) % 4));
                s->path = ucr_canvas_route(e->canvas, from, s->ja, to, s->jb, TURN_COST);
            } else {
                s->path = ucr_canvas_route(e->canvas, from, s->ja, border_square(ja, s->dir), s->ja,
                                           TURN_COST);
            }
            if (!s->path || s->path->len < (stub ? 2u : 3u))
                return false;
            s->mid = split_point(s);
            for (guint k = 0; k < s->path->len; k++)
                ucr_canvas_set(e->canvas, g_array_index(s->path, ucr_point, k), SKELETON + (int)i);
        }
    for (guint i = 0; i < e->segments->len; i++) {
        segment *s = &g_array_index(e->segments, segment, i);
        s->la.h = s->ha;
        half_layout_build(e, s, (int)i, false);
        if (s->jb >= 0) {
            s->lb.h = s->hb;
            half_layout_build(e, s, (int)i, true);
        }
    }
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
        if (s->link >= 0)
            e->req->link_area[s->link] = s->ja;
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

ucr_node *ucr_grid_embed(ucr_grid_plan *plan, const char *id, int col, int row,
                         const ucr_node_request *req, ucr_prng *rng, GError **error)
{
    embedder e = { 0 };
    e.node = ucr_node_new(id, col, row);
    e.node->method = "grid";
    e.node->width = MAP_W;
    e.node->height = MAP_H;
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
    for (int attempt = 0; attempt < EMBED_ATTEMPTS; attempt++) {
        e.canvas = ucr_canvas_new(MAP_W, MAP_H);
        e.last_attempt = attempt == EMBED_ATTEMPTS - 1;
        bool ok = embed_try(&e, plan, e.last_attempt);
        ucr_canvas_free(e.canvas);
        e.canvas = NULL;
        if (e.segments)
            segments_free(e.segments);
        e.segments = NULL;
        if (ok)
            return e.node;
        node_reset(e.node);
    }
    g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE,
                "node %s: could not route its tunnels in %d attempts (please report the seed)", id,
                EMBED_ATTEMPTS);
    ucr_node_free(e.node);
    return NULL;
}

/* ---- the method --------------------------------------------------------- */

static void *grid_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                       const ucr_method_options *options)
{
    (void)options;
    return ucr_grid_plan_roll(rng, join_sides, tables);
}

static void grid_exits(void *plan, GPtrArray *out)
{
    ucr_grid_plan_exits(plan, out);
}

static ucr_node *grid_embed(void *plan, const char *id, int col, int row, const ucr_node_request *req,
                            ucr_prng *rng, GError **error)
{
    return ucr_grid_embed(plan, id, col, row, req, rng, error);
}

static void grid_free(void *plan)
{
    ucr_grid_plan_free(plan);
}

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
};
