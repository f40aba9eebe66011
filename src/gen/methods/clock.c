#include "gen/methods/clock.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/kit/embed.h"
#include "gen/kit/preconnect.h"
#include "model/honour_rule.h"

/* ROUTES: placements a new area tries per size; JOIN_ROUTES: squares of a
 * corridor a way tries to join; WAY_ROUTES: routes one way may try in all;
 * JOIN_SLACK: a corridor is joined "as it runs" — no more than this many
 * squares beyond the straight distance; CHECK_ROUNDS: corridor checks on the
 * corridors the last round's exits drew; AT_DOOR: a way that joins an area's
 * corridor no more than this many squares out of its door joins the area
 * "at its door"; MIN_ROOMS: a node closed with fewer rooms reopens a wall,
 * up to REOPEN_TRIES times. */
/* MAP_W x MAP_H: the standard map; the node drawn at the requested size
 * (ucr_node_size_extent) reads its own from the canvas. */
enum { MAP_W = 48, MAP_H = 44, ATTEMPTS = 8, WIN = 2, ROUTES = 4, JOIN_ROUTES = 6, WAY_ROUTES = 12, DETOUR = 16,
       JOIN_SLACK = 8, GROW = 5, CHECK_ROUNDS = 4, AT_DOOR = 2,
       MIN_ROOMS = 4, REOPEN_TRIES = 24, OPEN_ROCK = 60, GM_ROUTES = 64, THERE_MAX = 4,
       JUNCTION_BUDGET = 2, MEET = 8, BY_MOUTH = 3, BRANCH = 12, BRANCH_TRIES = 14, NEAR = UCR_CLOCK_NEAR, ROUND_ROUTES = 18 };

/* The [kind]s of the position tables (checked when the tables load): a row's
 * kind is the position it sends the corridor to. */
static const char *const CLOCK_TAGS[] = { "one", "two", "three", "four", "five", "six", "seven", "eight",
                                          "nine", "ten", "eleven", "twelve", NULL };
static const char *const TTT_TAGS[] = { "north", "north-east", "east", "south-east", "south", "south-west",
                                        "west", "north-west", NULL };

/* The current area's "centre square": its rectangle grown to GROW × GROW. */
static void centre_square(const ucr_area *a, int *x, int *y, int *w, int *h)
{
    *w = MAX(a->w, GROW);
    *h = MAX(a->h, GROW);
    *x = a->x - (*w - a->w) / 2;
    *y = a->y - (*h - a->h) / 2;
}

static void clip(int lo, int hi, int *x, int *w)
{
    int x1 = MIN(*x + *w, hi + 1);
    *x = MAX(*x, lo);
    *w = MAX(x1 - *x, 1);
    if (*x > hi)
        *x = hi;
}

void ucr_clock_location(const ucr_area *a, int pos, bool tictactoe, int map_w, int map_h, int *x, int *y,
                        int *w, int *h, int *mx, int *my)
{
    int cx, cy, cw, ch;
    centre_square(a, &cx, &cy, &cw, &ch);
    if (tictactoe) {
        int dx = UCR_DIR8_DX[pos], dy = UCR_DIR8_DY[pos], S = UCR_TTT_SQUARE;
        *x = dx < 0 ? cx - S : dx > 0 ? cx + cw : cx;
        *y = dy < 0 ? cy - S : dy > 0 ? cy + ch : cy;
        *w = dx ? S : cw;
        *h = dy ? S : ch;
    } else {
        /* h × 30° clockwise from north, on the ellipse RING squares beyond
         * the centre square's walls. */
        double t = (pos % 12) * G_PI / 6.0;
        double ox = cx + (cw - 1) / 2.0, oy = cy + (ch - 1) / 2.0;
        int px = (int)lround(ox + (cw / 2.0 + UCR_CLOCK_RING) * sin(t));
        int py = (int)lround(oy - (ch / 2.0 + UCR_CLOCK_RING) * cos(t));
        *x = px - WIN;
        *y = py - WIN;
        *w = *h = 2 * WIN + 1;
    }
    /* The outer two rings of squares are for the tunnels that leave the map. */
    clip(2, map_w - 3, x, w);
    clip(2, map_h - 3, y, h);
    *mx = *x + *w / 2;
    *my = *y + *h / 2;
}

typedef struct {
    const ucr_tables *tables;
    bool tictactoe;
} plan;

/* A rolled location: its rectangle and middle square. */
typedef struct {
    int x, y, w, h, mx, my;
} location;

typedef struct {
    ucr_pc *pc;
    const plan *p;
    GArray *area_of;      /* int, by key - 1 */
    GArray *expand;       /* bool, by key - 1: the dice made it, its exits are rolled */
    GArray *origin;       /* int, by key - 1: the room whose key holds its rolls */
    GPtrArray *notes;     /* GString*, by key - 1 */
    int rooms, junctions; /* made by the dice so far */
    int budget;           /* rooms; as many rolled junctions */
    int routes;           /* routes the current way may still try */
    int expanded;         /* keys up to this one have rolled their ways */
    bool door_out;        /* the way being drawn leaves by a door (a corridor check's) */
    bool check_way;       /* the way being drawn is a corridor check's side passage or door */
    bool no_cross;        /* the way being drawn goes round what lies between, never across */
    bool round_first;     /* …for now: a way to something already there (resolve_there) */
    bool gm_room;         /* the way being drawn is the GM's added exit, to a new room… */
    location gm_loc;      /* …in this open rock */
    int aim_pos;          /* a check's side passage: the position rolled before its wall, or 0 */
    GString *aim_rec;     /* …and its dice */
    int out_min, out_max; /* how far out on a room's corridor a way may join it (join_its_corridor) */
    bool towards;         /* a new area's middle must lie towards (vx, vy) from (fx, fy) (area_by_mouth) */
    double fx, fy, vx, vy;
} drawer;

/* Every route of a way counts against its allowance: a way with no way
 * out (a mouth walled in by corridors) gives up soon. */
static bool route_within(drawer *dr, ucr_point from, int from_owner, const ucr_pc_target *t, ucr_pc_path *out,
                         int slack)
{
    if (dr->routes <= 0)
        return false;
    dr->routes--;
    /* "The corridor heads towards the indicated destination": not around
     * half the map.  The router searches no farther than that. */
    int dx = from.x < t->x ? t->x - from.x : from.x >= t->x + t->w ? from.x - (t->x + t->w - 1) : 0;
    int dy = from.y < t->y ? t->y - from.y : from.y >= t->y + t->h ? from.y - (t->y + t->h - 1) : 0;
    dr->pc->max_cells = slack >= 0 ? dx + dy + slack : 2 * (dx + dy) + DETOUR;
    if (dr->gm_room)
        dr->pc->max_cells = 0;   /* the GM's corridor winds to the rock he chose */
    bool ok = ucr_pc_route(dr->pc, from, from_owner, t, !dr->no_cross && !dr->round_first, out);
    dr->pc->max_cells = 0;
    return ok;
}

static bool route(drawer *dr, ucr_point from, int from_owner, const ucr_pc_target *t, ucr_pc_path *out)
{
    return route_within(dr, from, from_owner, t, out, -1);
}

static const ucr_area *area_at(const drawer *dr, int idx)
{
    return &g_array_index(dr->pc->node->areas, ucr_area, idx);
}

/* A way leaves a room by a door (and a corridor check's door way, by
 * its door); a junction's way is open. */
static int way_door(const drawer *dr, int from)
{
    return dr->door_out || area_at(dr, from)->kind == UCR_AREA_ROOM ? UCR_DOOR_PLAIN : -1;
}

static int key_count(const drawer *dr)
{
    return (int)dr->area_of->len;
}

/* Registers every numbered area not yet known (new rooms, junctions, and the
 * junctions a secret door or a join made on a corridor), their rolls to go
 * to area @origin's notes (0: each its own). */
static void sync(drawer *dr, int origin)
{
    const ucr_node *node = dr->pc->node;
    for (guint i = 0; i < node->areas->len; i++) {
        int key = g_array_index(node->areas, ucr_area, i).key;
        if (key <= key_count(dr))
            continue;
        int idx = (int)i;
        bool no = false;
        int o = origin ? origin : key;
        g_array_append_val(dr->area_of, idx);
        g_array_append_val(dr->expand, no);
        g_array_append_val(dr->origin, o);
        g_ptr_array_add(dr->notes, g_string_new(NULL));
    }
}

static const char *area_word(const ucr_area *a)
{
    return a->kind == UCR_AREA_ROOM ? "room" : a->kind == UCR_AREA_JUNCTION ? "junction" : "landing";
}

/* Candidate sizes: as rolled, turned, then smaller down to 2 × 2. */
static int sizes(int w, int h, int out[][2])
{
    int n = 0;
    for (int s = 0; s < 6; s++) {
        int a = MAX(w - s, 2), b = MAX(h - s, 2);
        if (n && out[n - 1][0] == a && out[n - 1][1] == b)
            break;
        out[n][0] = a; out[n][1] = b; n++;
        if (a != b) {
            out[n][0] = b; out[n][1] = a; n++;
        }
        if (a == 2 && b == 2)
            break;
    }
    return n;
}

/* The squares of @loc, nearest its middle first, row by row within a
 * distance: a counting sort (a pass per distance over the whole location
 * was a twentieth of clock's time). */
static GArray *squares_by_middle(const location *loc)
{
    int dmax = loc->w + loc->h;
    int *start = g_new0(int, dmax + 2);
    for (int y = loc->y; y < loc->y + loc->h; y++)
        for (int x = loc->x; x < loc->x + loc->w; x++) {
            int d = abs(x - loc->mx) + abs(y - loc->my);
            if (d <= dmax)
                start[d + 1]++;
        }
    for (int d = 0; d <= dmax; d++)
        start[d + 1] += start[d];
    GArray *sq = g_array_sized_new(FALSE, FALSE, sizeof(ucr_point), (guint)start[dmax + 1]);
    g_array_set_size(sq, (guint)start[dmax + 1]);
    for (int y = loc->y; y < loc->y + loc->h; y++)
        for (int x = loc->x; x < loc->x + loc->w; x++) {
            int d = abs(x - loc->mx) + abs(y - loc->my);
            if (d <= dmax)
                g_array_index(sq, ucr_point, start[d]++) = (ucr_point){ x, y };
        }
    g_free(start);
    return sq;
}

/* Whether canvas owner @o may be "what is there" for a way from @self:
 * a room or corridor drawn, neither @self nor one of its own corridors
 * (@rooms: rooms only). */
static bool there_ok(const drawer *dr, int o, int self, bool rooms)
{
    if (o == UCR_CANVAS_EMPTY || o == INT_MIN || o == UCR_CANVAS_TENTATIVE || o == self)
        return false;
    if (rooms && (o >= UCR_ATTACH_PASSAGE || area_at(dr, o)->kind != UCR_AREA_ROOM))
        return false;
    if (o >= UCR_ATTACH_PASSAGE) {
        const ucr_passage *p = &g_array_index(dr->pc->node->passages, ucr_passage, o - UCR_ATTACH_PASSAGE);
        if (p->a == self || p->b == self)
            return false;
    }
    return true;
}

/* What is in the location, leaving out @self and its own corridors: up to
 * THERE_MAX owners in *@out, best first (none: unmapped).  Seed 001 rolls
 * "the room that is in that relative position as the destination of a
 * corridor", so a room with a square in the location — or within
 * UCR_CLOCK_REACH of it — comes first, the one nearest the middle; then
 * the areas and corridors in the location nearest the middle ("if there is
 * a room or corridor already in that location, the new corridor connects
 * with it": when the first is out of reach, the way joins the next). */
static int whats_there(const drawer *dr, const location *loc, int self, int out[THERE_MAX])
{
    const ucr_pc *pc = dr->pc;
    int R = UCR_CLOCK_REACH;
    const location wide = { loc->x - R, loc->y - R, loc->w + 2 * R, loc->h + 2 * R, loc->mx, loc->my };
    int n = 0;
    for (int pass = 0; pass < 2 && n < THERE_MAX; pass++) {
        bool rooms = pass == 0;
        GArray *sq = squares_by_middle(rooms ? &wide : loc);
        for (guint i = 0; i < sq->len && n < THERE_MAX; i++) {
            ucr_point q = g_array_index(sq, ucr_point, i);
            if (!ucr_canvas_inside(pc->cv, q))
                continue;
            int o = ucr_canvas_owner(pc->cv, q);
            bool seen = false;
            for (int k = 0; k < n; k++)
                seen = seen || out[k] == o;
            if (!seen && there_ok(dr, o, self, rooms))
                out[n++] = o;
        }
        g_array_free(sq, TRUE);
    }
    return n;
}

/* A corridor from @m (by a door if @from is a room) to area @to. */
static bool join_area(drawer *dr, int from, ucr_point m, int to, GString *cross, ucr_pc_end *end)
{
    ucr_pc *pc = dr->pc;
    const ucr_area *a = area_at(dr, to);
    ucr_pc_target t = { to, a->x, a->y, a->w, a->h, false, m };
    ucr_pc_path path;
    if (!route(dr, m, from, &t, &path))
        return false;
    int door = way_door(dr, from);
    *end = ucr_pc_connect(pc, &path, from, door, &t, NULL, cross);
    return true;
}

/* Joins corridor @k at a new junction on its square nearest the location's
 * middle (where a junction may stand); returns the junction's area, or -1. */
static int join_corridor(drawer *dr, int from, ucr_point m, int k, const location *loc, GString *cross,
                         ucr_pc_end *end)
{
    ucr_pc *pc = dr->pc;
    const ucr_passage *p = &g_array_index(pc->node->passages, ucr_passage, k);
    int n = (int)p->cells->len, tries = 0, jn = -1;
    int *order = g_new(int, n), *dist = g_new(int, n);
    for (int j = 0; j < n; j++) {
        ucr_point c = g_array_index(p->cells, ucr_point, j);
        order[j] = j;
        dist[j] = abs(c.x - loc->mx) + abs(c.y - loc->my);
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && dist[order[j]] < dist[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    /* The shortest of a few routes (a corridor joined "as it runs", not by
     * a winding detour), stopping at one nearly straight. */
    ucr_pc_path best = { NULL, NULL };
    int best_j = -1, best_len = INT_MAX;
    for (int i = 0; i < n && tries < JOIN_ROUTES; i++) {
        int j = order[i];
        ucr_point s = g_array_index(p->cells, ucr_point, j);
        if (j <= 0 || j >= n - 1 || ucr_canvas_owner(pc->cv, s) != UCR_ATTACH_PASSAGE + k ||
            !ucr_pc_split_ok(pc, k, j))
            continue;
        ucr_pc_target t = { UCR_ATTACH_PASSAGE + k, s.x, s.y, 1, 1, false, { 0, 0 } };
        ucr_pc_path path;
        tries++;
        if (!route_within(dr, m, from, &t, &path, JOIN_SLACK))
            continue;
        int len = (int)path.cells->len + 10 * (int)path.jumps->len;
        if (len < best_len) {
            ucr_pc_path_clear(&best);
            best = path;
            best_len = len;
            best_j = j;
        } else {
            ucr_pc_path_clear(&path);
        }
        if (best_len <= abs(s.x - m.x) + abs(s.y - m.y) + 4)
            break;
    }
    if (best_j >= 0) {
        jn = ucr_pc_split(pc, k, best_j, true, g_strdup("where a corridor joins another"));
        if (jn >= 0) {
            const ucr_area *a = area_at(dr, jn);
            ucr_pc_target tj = { jn, a->x, a->y, 1, 1, false, { 0, 0 } };
            int door = way_door(dr, from);
            *end = ucr_pc_connect(pc, &best, from, door, &tj, NULL, cross);
        } else {
            ucr_pc_path_clear(&best);
        }
    }
    g_free(order);
    g_free(dist);
    return jn;
}

/* Splits passage @k at cell @j for a junction and draws @path (taken, routed
 * to that cell) from area @from to it; the junction, or -1 (nothing drawn). */
static int join_cell(drawer *dr, int from, int k, int j, ucr_pc_path *path, GString *cross, ucr_pc_end *end)
{
    ucr_pc *pc = dr->pc;
    int jn = ucr_pc_split(pc, k, j, true, g_strdup("where a corridor joins another"));
    if (jn < 0) {
        ucr_pc_path_clear(path);
        return -1;
    }
    const ucr_area *a = area_at(dr, jn);
    ucr_pc_target tj = { jn, a->x, a->y, 1, 1, false, { 0, 0 } };
    *end = ucr_pc_connect(pc, path, from, way_door(dr, from), &tj, NULL, cross);
    return jn;
}

/* When no corridor reaches area @to's walls (full, or walled in): one of the
 * corridors that leave it, joined at a new junction as near @to as a way
 * gets there (the cells nearest its wall first, over all its corridors,
 * dr->out_min to dr->out_max squares out);
 * *@out: the squares of corridor between @to's wall and the junction.
 * Returns the junction, or -1 if none. */
static int join_its_corridor(drawer *dr, int from, ucr_point m, int to, GString *cross, ucr_pc_end *end, int *out)
{
    ucr_pc *pc = dr->pc;
    ucr_node *node = pc->node;
    int tries = 0;
    for (int d = dr->out_min; d <= dr->out_max && tries < JOIN_ROUTES && dr->routes > 0; d++) {
        bool any = false;
        for (guint k = 0; k < node->passages->len && tries < JOIN_ROUTES; k++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            int n = (int)p->cells->len;
            if ((p->a != to && p->b != to) || p->a == from || p->b == from || d >= n - 1)
                continue;
            any = true;
            int j = p->a == to ? d : n - 1 - d;
            ucr_point s = g_array_index(p->cells, ucr_point, j);
            if (ucr_canvas_owner(pc->cv, s) != UCR_ATTACH_PASSAGE + (int)k || !ucr_pc_split_ok(pc, (int)k, j))
                continue;
            ucr_pc_target t = { UCR_ATTACH_PASSAGE + (int)k, s.x, s.y, 1, 1, false, { 0, 0 } };
            ucr_pc_path path;
            tries++;
            if (!route_within(dr, m, from, &t, &path, JOIN_SLACK))
                continue;
            *out = d;
            return join_cell(dr, from, (int)k, j, &path, cross, end);
        }
        if (!any)
            break;
    }
    return -1;
}

/* A room @rw x @rh with square @c of a location in it, centred on @c where
 * the map allows, else pushed in off the map's edge (a location clipped at
 * the edge is a strip a centred room never fits: "the room that is in that
 * relative position" need only stand in it).  False if the place is not
 * clear or was tried already for this size (@tried, *@ntried of them). */
static bool placement(const ucr_canvas *cv, ucr_point c, int rw, int rh, int *x, int *y, ucr_point *tried,
                      int *ntried)
{
    *x = CLAMP(c.x - (rw - 1) / 2, 2, cv->w - 2 - rw);
    *y = CLAMP(c.y - (rh - 1) / 2, 2, cv->h - 2 - rh);
    if (*x < 2 || *y < 2 || !ucr_canvas_clear(cv, *x, *y, rw, rh, 1))
        return false;
    for (int i = 0; i < *ntried; i++)
        if (tried[i].x == *x && tried[i].y == *y)
            return false;
    tried[(*ntried)++] = (ucr_point){ *x, *y };
    return true;
}

/* A place found for a new area: its rectangle and the corridor there. */
typedef struct {
    int x, y, w, h;
    ucr_pc_path path;
} site;

/* A place for a new area (w × h, placed over the location) and a corridor
 * there from @m, a square that may touch canvas owner @owner: of a few
 * placements, the one with the most direct corridor.  False if none fits
 * or there is no way there. */
static bool area_site(drawer *dr, int owner, ucr_point m, const location *loc, ucr_area_kind kind, int w, int h,
                      site *out)
{
    ucr_pc *pc = dr->pc;
    int sz[16][2];
    int ns = kind == UCR_AREA_ROOM ? sizes(w, h, sz) : (sz[0][0] = sz[0][1] = 1, 1);
    GArray *sq = squares_by_middle(loc);
    int routes = 0, found = 0, best_len = INT_MAX;
    /* A corridor this short is as direct as it gets. */
    int direct = abs(loc->mx - m.x) + abs(loc->my - m.y) + 2;
    out->path = (ucr_pc_path){ NULL, NULL };
    /* Sizes shrink only when the rolled one finds no place (the GM's room
     * tries them all: he chose open rock for it). */
    int limit = dr->gm_room ? GM_ROUTES : 2 * ROUTES;
    ucr_point tried[GM_ROUTES];
    int ntried = 0;
    for (int k = 0; k < ns && !found && routes < limit; k++, ntried = 0)
        for (guint i = 0; i < sq->len && found < 3 && best_len > direct && routes < limit; i++) {
            ucr_point c = g_array_index(sq, ucr_point, i);
            int rw = sz[k][0], rh = sz[k][1];
            int x, y;
            if (!placement(pc->cv, c, rw, rh, &x, &y, tried, &ntried) ||
                (dr->towards && (x + (rw - 1) / 2.0 - dr->fx) * dr->vx + (y + (rh - 1) / 2.0 - dr->fy) * dr->vy <= 0))
                continue;
            ucr_canvas_fill(pc->cv, x, y, rw, rh, UCR_CANVAS_TENTATIVE);
            ucr_pc_target t = { UCR_CANVAS_TENTATIVE, x, y, rw, rh, false, { 0, 0 } };
            ucr_pc_path path;
            routes++;
            bool ok = route(dr, m, owner, &t, &path);
            ucr_canvas_fill(pc->cv, x, y, rw, rh, UCR_CANVAS_EMPTY);
            if (!ok)
                continue;
            found++;
            int len = (int)path.cells->len + 10 * (int)path.jumps->len;
            if (len < best_len) {
                ucr_pc_path_clear(&out->path);
                *out = (site){ x, y, rw, rh, path };
                best_len = len;
            } else {
                ucr_pc_path_clear(&path);
            }
        }
    g_array_free(sq, TRUE);
    return found > 0;
}

/* Makes the new area of @st (its corridor taken) from area @from. */
static void area_make(drawer *dr, int from, site *st, ucr_area_kind kind, char *rolled, GString *cross,
                      ucr_pc_end *end)
{
    ucr_pc *pc = dr->pc;
    ucr_canvas_fill(pc->cv, st->x, st->y, st->w, st->h, UCR_CANVAS_TENTATIVE);
    ucr_pc_target t = { UCR_CANVAS_TENTATIVE, st->x, st->y, st->w, st->h, false, { 0, 0 } };
    ucr_pc_pending pend = { kind, st->x, st->y, st->w, st->h, true, rolled };
    *end = ucr_pc_connect(pc, &st->path, from, way_door(dr, from), &t, &pend, cross);
}

/* Routes to a new area (w × h, placed over the location) and makes it
 * (area_site).  False if none fits or there is no way there. */
static bool new_area(drawer *dr, int from, ucr_point m, const location *loc, ucr_area_kind kind, int w,
                     int h, char *rolled, GString *cross, ucr_pc_end *end)
{
    site st;
    if (!area_site(dr, from, m, loc, kind, w, h, &st)) {
        g_free(rolled);
        return false;
    }
    area_make(dr, from, &st, kind, rolled, cross, end);
    return true;
}

/* The passage heads for the location and ends in rock at its edge. */
static bool dead_end(drawer *dr, int from, ucr_point m, const location *loc, GString *cross, ucr_pc_end *end)
{
    ucr_pc *pc = dr->pc;
    ucr_pc_target t = { UCR_CANVAS_EMPTY, loc->x, loc->y, loc->w, loc->h, false, { 0, 0 } };
    ucr_pc_path path;
    if (!route(dr, m, from, &t, &path))
        return false;
    int door = way_door(dr, from);
    *end = ucr_pc_connect(pc, &path, from, door, &t, NULL, cross);
    return true;
}

static void stub(drawer *dr, int from, ucr_point m)
{
    ucr_pc_stub(dr->pc, from, m, way_door(dr, from));
}

static const char *position_table(const drawer *dr)
{
    return dr->p->tictactoe ? "tictactoe-position" : "clock-position";
}

/* Rolls a position on the method's table: its number, and "position
 * 1d12=7: 7 o'clock" appended to @rec. */
static int position_roll(drawer *dr, GString *rec)
{
    const ucr_table *t = ucr_tables_lookup(dr->p->tables, position_table(dr));
    int total = 0;
    const ucr_table_row *row = ucr_table_roll(t, dr->pc->rng, &total);
    g_string_append_printf(rec, "position %dd%d=%d: %s", t->count, t->sides, total, row->text);
    const char *const *tags = dr->p->tictactoe ? TTT_TAGS : CLOCK_TAGS;
    for (int i = 0; tags[i]; i++)
        if (!g_strcmp0(row->tag, tags[i]))
            return i + 1;
    return 1;   /* unreachable: the kinds are checked at load */
}

/* The ways out of area @from towards @loc, best first: on @side (a room's
 * rolled wall, at @hint) then the next walls clockwise, or, if @side < 0,
 * the side facing the location first.  Returns how many (at most 4). */
static int mouths_for(drawer *dr, int from, int side, int hint, const location *loc, ucr_point m[4],
                      ucr_dir sides[4])
{
    const ucr_area *a = area_at(dr, from);
    int order[4];
    if (side >= 0) {
        for (int k = 0; k < 4; k++)
            order[k] = (side + k) % 4;
    } else {
        int dx = loc->mx - (a->x + a->w / 2), dy = loc->my - (a->y + a->h / 2);
        int hx = dx >= 0 ? UCR_EAST : UCR_WEST, vy = dy >= 0 ? UCR_SOUTH : UCR_NORTH;
        int first = abs(dx) >= abs(dy) ? hx : vy, second = first == hx ? vy : hx;
        order[0] = first;
        order[1] = second;
        order[2] = (second + 2) % 4;
        order[3] = (first + 2) % 4;
    }
    int n = 0;
    for (int k = 0; k < 4; k++)
        if (ucr_pc_mouth(dr->pc, from, (ucr_dir)order[k], k == 0 ? hint : 0, &m[n]))
            sides[n++] = (ucr_dir)order[k];
    return n;
}

static void note(drawer *dr, int key, const char *text)
{
    GString *s = g_ptr_array_index(dr->notes, key - 1);
    g_string_append_printf(s, "%s%s", s->len ? "; " : "", text);
}

static void record(drawer *dr, int origin, GString *rec)
{
    note(dr, origin, rec->str);
    g_ptr_array_add(dr->pc->node->rolls, g_string_free(rec, FALSE));
}

/* What a location holds, read once before any corridor is tried. */
typedef struct {
    int there;          /* canvas owner, or UCR_CANVAS_EMPTY: unmapped */
    int others[THERE_MAX]; /* what else is there, best first (others[0] == there) */
    int n_others;
    const char *kind;   /* unmapped: "room", "junction" or "dead-end" */
    int w, h;           /* a new room's size */
    char *size;         /* a new room's size roll */
} holds;

/* The vertices area @a reaches by corridors through junctions only, as a
 * parent array by vertex (-1: not reached; @a its own parent): a room or
 * dead end reached is an end, not passed through.  The caller frees it. */
static int *corridor_network(const ucr_node *n, int a)
{
    int nv = (int)n->vertices->len;
    int *parent = g_new(int, nv), *queue = g_new(int, nv), head = 0, tail = 0;
    for (int v = 0; v < nv; v++)
        parent[v] = -1;
    parent[a] = a;
    queue[tail++] = a;
    while (head < tail) {
        int v = queue[head++];
        for (guint k = 0; k < n->passages->len; k++) {
            const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
            int w = p->a == v ? p->b : p->b == v ? p->a : -1;
            if (w < 0 || parent[w] >= 0)
                continue;
            parent[w] = v;
            if (w < (int)n->areas->len && g_array_index(n->areas, ucr_area, w).kind == UCR_AREA_JUNCTION)
                queue[tail++] = w;
        }
    }
    g_free(queue);
    return parent;
}

/* Whether @v is @from itself or a junction of its corridor network. */
static bool network_hub(const drawer *dr, const int *parent, int from, int v)
{
    return v == from || (v >= 0 && v < (int)dr->pc->node->areas->len && parent[v] >= 0 &&
                         area_at(dr, v)->kind == UCR_AREA_JUNCTION);
}

/* The vertex of what is there (an area, or a corridor's end that area
 * @from's network passes through) if @from's corridors already lead there
 * through junctions only; else -1. */
static int already_joined(const drawer *dr, const int *parent, int from, int there)
{
    if (there < UCR_ATTACH_PASSAGE)
        return there != from && parent[there] >= 0 ? there : -1;
    const ucr_passage *p = &g_array_index(dr->pc->node->passages, ucr_passage, there - UCR_ATTACH_PASSAGE);
    return network_hub(dr, parent, from, p->a) ? p->b : network_hub(dr, parent, from, p->b) ? p->a : -1;
}

/* When what is there is already joined to area @from by corridors (through
 * junctions) but no new corridor reaches it: one of the corridors between
 * them (@from's own too: a passage that rejoins its corridor further on),
 * joined at a new junction, so that the way meets the corridors that lead
 * there.  The junction, or -1. */
static int join_between(drawer *dr, int from, ucr_point m, int to, const int *parent, const location *loc,
                        GString *cross, ucr_pc_end *end)
{
    for (int v = to; v != from && parent[v] != v; v = parent[v]) {
        int u = parent[v];
        const ucr_node *n = dr->pc->node;
        for (guint k = 0; k < n->passages->len && dr->routes > 0; k++) {
            const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
            if (!((p->a == u && p->b == v) || (p->a == v && p->b == u)))
                continue;
            int jn = join_corridor(dr, from, m, (int)k, loc, cross, end);
            if (jn >= 0)
                return jn;
        }
    }
    return -1;
}

/* Tries one way from mouth @m; false (nothing drawn) if there is no way. */
static bool way_draw(drawer *dr, int from, ucr_point m, const location *loc, const holds *hd, bool second,
                     GString *out, GString *cross, ucr_pc_end *end, bool *made)
{
    ucr_pc *pc = dr->pc;
    bool drawn = false;
    if (hd->there != UCR_CANVAS_EMPTY && hd->there < UCR_ATTACH_PASSAGE) {
        const ucr_area *a = area_at(dr, hd->there);
        int key = a->key;
        const char *word = area_word(a);
        drawn = !second && join_area(dr, from, m, hd->there, cross, end);
        if (drawn) {
            g_string_append_printf(out, " → joins %s %d", word, key);
        } else if (second) {
            int steps = 0;
            int jn = join_its_corridor(dr, from, m, hd->there, cross, end, &steps);
            drawn = jn >= 0;
            if (drawn && steps <= AT_DOOR)
                g_string_append_printf(out, " → joins %s %d at its door (junction %d, %d ft out on its corridor)", word,
                                       key, area_at(dr, jn)->key, 10 * steps);
            else if (drawn)
                g_string_append_printf(out, " (its walls are out of reach) → joins its corridor at junction %d",
                                       area_at(dr, jn)->key);
        }
    } else if (hd->there != UCR_CANVAS_EMPTY) {
        int k = hd->there - UCR_ATTACH_PASSAGE;
        int jn = join_corridor(dr, from, m, k, loc, cross, end);
        drawn = jn >= 0;
        if (drawn) {
            g_string_append_printf(out, " → joins it at junction %d", area_at(dr, jn)->key);
        } else {
            /* No junction fits on it: the area at one of its ends. */
            const ucr_passage *p = &g_array_index(pc->node->passages, ucr_passage, k);
            int ends[2] = { p->a, p->b };
            for (int e = 0; e < 2 && !drawn; e++) {
                int v = ends[e];
                if (v >= (int)pc->node->areas->len || v == from ||
                    g_array_index(pc->node->vertices, ucr_vertex, v).kind != UCR_VERTEX_AREA)
                    continue;
                drawn = join_area(dr, from, m, v, cross, end);
                if (drawn)
                    g_string_append_printf(out, " → joins %s %d, where it leads", area_word(area_at(dr, v)),
                                           area_at(dr, v)->key);
            }
        }
    } else if (!strcmp(hd->kind, "room")) {
        drawn = new_area(dr, from, m, loc, UCR_AREA_ROOM, hd->w, hd->h, g_strdup(hd->size), cross, end);
        if (drawn && end->reached) {
            g_string_append_printf(out, " → room %d", area_at(dr, end->area)->key);
            dr->rooms++;
            *made = true;
        }
    } else if (!strcmp(hd->kind, "junction")) {
        drawn = new_area(dr, from, m, loc, UCR_AREA_JUNCTION, 1, 1, g_strdup("a junction the dice made"), cross,
                         end);
        if (drawn && end->reached) {
            g_string_append_printf(out, " → junction %d", area_at(dr, end->area)->key);
            dr->junctions++;
            *made = true;
        }
    } else {
        drawn = dead_end(dr, from, m, loc, cross, end);
        if (drawn && end->reached)
            g_string_append(out, " → dead end");
    }
    return drawn;
}

/* The wall of area @a that cell @c (outside it, beside a wall) lies by. */
static ucr_dir wall_of(const ucr_area *a, ucr_point c)
{
    return c.y < a->y ? UCR_NORTH : c.y >= a->y + a->h ? UCR_SOUTH : c.x < a->x ? UCR_WEST : UCR_EAST;
}

/* The wall by which area @from's corridor towards @to (on the network's
 * parent chain) leaves it. */
static ucr_dir wall_towards(const drawer *dr, const int *parent, int from, int to)
{
    int v = to;
    while (parent[v] != from)
        v = parent[v];
    const ucr_node *n = dr->pc->node;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
        if (p->a == from && p->b == v)
            return wall_of(area_at(dr, from), g_array_index(p->cells, ucr_point, 0));
        if (p->b == from && p->a == v)
            return wall_of(area_at(dr, from), g_array_index(p->cells, ucr_point, p->cells->len - 1));
    }
    return UCR_NORTH;   /* unreachable: the chain is made of passages */
}

/* Seed 001: "if there is a room or corridor already in that location, the
 * new corridor connects with it".  When no corridor of its own gets there
 * (walled in by what is drawn) but area @from's corridors already lead
 * there through junctions only, the way is that connection: its corridor
 * meets one of the corridors between them, or else it is the corridor
 * already there (no new one: a junction's way, or a room's exit merged with
 * the door whose corridor leads there; *@joined).  False if they are not
 * joined, or a corridor check's way found no corridor (the side passage or
 * door the check found must lead somewhere of its own). */
static bool joined_way(drawer *dr, int from, const ucr_point *m, int nm, const location *loc, int there,
                       bool other, GString *out, GString *cross, ucr_pc_end *end, bool *joined)
{
    int *parent = corridor_network(dr->pc->node, from);
    int to = already_joined(dr, parent, from, there);
    bool drawn = false;
    dr->no_cross = to >= 0;   /* never across what lies between (way_to) */
    for (int k = 0; k < nm && to >= 0 && !drawn; k++) {
        dr->routes = MAX(dr->routes, JOIN_ROUTES);
        int jn = join_between(dr, from, m[k], to, parent, loc, cross, end);
        drawn = jn >= 0;
        if (drawn)
            g_string_append_printf(out, " → joins the corridor that leads there at junction %d",
                                   area_at(dr, jn)->key);
    }
    if (!drawn && to >= 0 && !dr->check_way) {
        if (area_at(dr, from)->kind == UCR_AREA_ROOM)
            g_string_append_printf(out, " → already joined: merged with its door on the %s wall, which leads there",
                                   ucr_dir_name(wall_towards(dr, parent, from, to)));
        else
            g_string_append(out, " → already joined: the corridors from here lead there");
        if (other && to < (int)dr->pc->node->areas->len)
            g_string_append_printf(out, " (to %s %d, also there)", area_word(area_at(dr, to)), area_at(dr, to)->key);
        else if (other)
            g_string_append(out, " (to a corridor, also there)");
        *end = (ucr_pc_end){ -1, to, to < (int)dr->pc->node->areas->len ? to : -1, true };
        *joined = drawn = true;
    }
    dr->no_cross = false;
    g_free(parent);
    return drawn;
}

/* The rooms that vertex @v's corridor network (through junctions only)
 * touches, as a flag by area; the caller frees it. */
static char *network_rooms(const drawer *dr, int v)
{
    const ucr_node *n = dr->pc->node;
    char *rooms = g_new0(char, n->areas->len + 1);
    int *parent = corridor_network(n, v);
    for (guint i = 0; i < n->areas->len; i++)
        rooms[i] = parent[i] >= 0 && area_at(dr, (int)i)->kind == UCR_AREA_ROOM;
    g_free(parent);
    return rooms;
}

/* The network passage @k belongs to, as a vertex to start corridor_network
 * from: a junction at one of its ends, or else -1 (a corridor between two
 * rooms, a network of its own). */
static int passage_hub(const drawer *dr, int k)
{
    const ucr_passage *p = &g_array_index(dr->pc->node->passages, ucr_passage, k);
    int na = (int)dr->pc->node->areas->len;
    if (p->a < na && area_at(dr, p->a)->kind == UCR_AREA_JUNCTION)
        return p->a;
    if (p->b < na && area_at(dr, p->b)->kind == UCR_AREA_JUNCTION)
        return p->b;
    return -1;
}

/* Whether a corridor from area @from to passage @k keeps the loops
 * between rooms (analysis counts each corridor network as one vertex):
 * joining a junction's network to another that touches two rooms of its
 * own would make the two one vertex and lose the loops through them. */
static bool networks_fit(const drawer *dr, int from, int k)
{
    if (area_at(dr, from)->kind != UCR_AREA_JUNCTION)
        return true;
    const ucr_passage *p = &g_array_index(dr->pc->node->passages, ucr_passage, k);
    int *parent = corridor_network(dr->pc->node, from);
    bool same = network_hub(dr, parent, from, p->a) || network_hub(dr, parent, from, p->b);
    g_free(parent);
    if (same)
        return true;
    int na = (int)dr->pc->node->areas->len, hub = passage_hub(dr, k), shared = 0;
    char *mine = network_rooms(dr, from), *theirs = hub >= 0 ? network_rooms(dr, hub) : g_new0(char, na + 1);
    for (int e = 0; e < 2 && hub < 0; e++) {
        int v = e ? p->b : p->a;
        if (v < na)
            theirs[v] = area_at(dr, v)->kind == UCR_AREA_ROOM;
    }
    for (int i = 0; i < na; i++)
        shared += mine[i] && theirs[i];
    g_free(mine);
    g_free(theirs);
    return shared <= 1;
}

/* Whether passage @k leads to @there (an area, or UCR_ATTACH_PASSAGE + a
 * corridor) through junctions only: it is that corridor, or one of its
 * ends is @there or a junction of the network that reaches it. */
static bool leads_there(const drawer *dr, int k, int there)
{
    const ucr_passage *p = &g_array_index(dr->pc->node->passages, ucr_passage, k);
    int start = there;
    if (there >= UCR_ATTACH_PASSAGE) {
        if (k == there - UCR_ATTACH_PASSAGE)
            return true;
        start = passage_hub(dr, there - UCR_ATTACH_PASSAGE);
        if (start < 0)
            return false;
    }
    int *parent = corridor_network(dr->pc->node, start);
    bool yes = network_hub(dr, parent, start, p->a) || network_hub(dr, parent, start, p->b);
    g_free(parent);
    return yes;
}

/* Whether square @q may carry a straight connector: empty, free of
 * crossings, and nothing beside it across its run but rock. */
static bool connector_ok(const ucr_canvas *cv, ucr_point q, ucr_dir d)
{
    if (q.x <= 0 || q.y <= 0 || q.x >= cv->w - 1 || q.y >= cv->h - 1 ||
        ucr_canvas_owner(cv, q) != UCR_CANVAS_EMPTY || ucr_canvas_busy(cv, q))
        return false;
    for (int s = 1; s <= 3; s += 2) {
        int o = ucr_canvas_owner(cv, ucr_point_step(q, (ucr_dir)((d + s) % 4)));
        if (o != UCR_CANVAS_EMPTY && o != INT_MIN)
            return false;
    }
    return true;
}

/* Seed 001, "the new corridor connects with it", where no route gets there
 * (the mouth opens on a pocket of rock walled in by corridors): the way
 * runs straight on from mouth @m (wall @d) and meets, within MEET squares,
 * a corridor that leads to @there through junctions only, where it runs
 * straight; it joins it at a new junction.  The junction, or -1. */
static int meet_straight(drawer *dr, int from, ucr_point m, ucr_dir d, int there, GString *cross, ucr_pc_end *end,
                         bool *itself)
{
    ucr_pc *pc = dr->pc;
    int n = 0;
    ucr_point q = m;
    while (n < MEET && connector_ok(pc->cv, q, d)) {
        n++;
        q = ucr_point_step(q, d);
    }
    int o = ucr_canvas_inside(pc->cv, q) ? ucr_canvas_owner(pc->cv, q) : INT_MIN;
    if (n == 0 || o < UCR_ATTACH_PASSAGE)
        return -1;
    int k = o - UCR_ATTACH_PASSAGE, j = ucr_pc_cell_index(pc, k, q);
    const ucr_passage *p = &g_array_index(pc->node->passages, ucr_passage, k);
    if (j <= 0 || p->a == from || p->b == from || !ucr_pc_split_ok(pc, k, j) || !leads_there(dr, k, there) ||
        !networks_fit(dr, from, k))
        return -1;
    *itself = there == o;
    ucr_pc_path path = { g_array_new(FALSE, FALSE, sizeof(ucr_point)), g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump)) };
    for (int i = 0; i < n; i++) {
        ucr_point c = ucr_point_walk(m, d, i);
        g_array_append_val(path.cells, c);
    }
    return join_cell(dr, from, k, j, &path, cross, end);
}

/* meet_straight from each mouth in turn, for each thing in the location;
 * appends what it joined to @out. */
static bool way_meets(drawer *dr, int from, const ucr_point *m, const ucr_dir *sides, int nm, const location *loc,
                      const holds *hd, GString *out, GString *cross, ucr_pc_end *end, int *used)
{
    const ucr_area *a = area_at(dr, from);
    int vx = loc->mx - (a->x + a->w / 2), vy = loc->my - (a->y + a->h / 2);
    for (int c = 0; c < hd->n_others; c++)
        for (int k = 0; k < nm; k++) {
            /* Towards the location, or across: never straight away from it. */
            if (UCR_DIR_DX[sides[k]] * vx + UCR_DIR_DY[sides[k]] * vy < 0)
                continue;
            bool itself = false;
            int jn = meet_straight(dr, from, m[k], sides[k], hd->others[c], cross, end, &itself);
            if (jn < 0)
                continue;
            *used = k;
            if (itself)
                g_string_append_printf(out, " → meets it straight on at junction %d", area_at(dr, jn)->key);
            else
                g_string_append_printf(out, " → meets the corridor that leads there straight on at junction %d",
                                       area_at(dr, jn)->key);
            return true;
        }
    return false;
}

/* What location @loc of a way from area @from holds, its dice appended to
 * @rec: what is there, or the d10 of an unmapped location (seed 001), or
 * the GM's room; sets dr->no_cross for what @from's corridors reach. */
static holds what_holds(drawer *dr, int from, const location *loc, GString *rec)
{
    ucr_pc *pc = dr->pc;
    holds hd = { UCR_CANVAS_EMPTY, { 0 }, 0, NULL, 0, 0, NULL };
    if (!dr->gm_room)
        hd.n_others = whats_there(dr, loc, from, hd.others);
    if (hd.n_others)
        hd.there = hd.others[0];
    if (dr->gm_room) {
        /* Seed 003: the GM's exit leads on to more of the dungeon. */
        GString *size = g_string_new(NULL);
        ucr_pc_room_size(dr->p->tables, pc->rng, &hd.w, &hd.h, size);
        g_string_append_printf(rec, ": the GM adds a room there; %s", size->str);
        hd.kind = "room";
        hd.size = g_string_free(size, FALSE);
    } else if (hd.there != UCR_CANVAS_EMPTY && hd.there < UCR_ATTACH_PASSAGE) {
        /* seed 001: "If there is a room or corridor already in that
         * location, the new corridor connects with it." */
        const ucr_area *a = area_at(dr, hd.there);
        g_string_append_printf(rec, ": %s %d is there", area_word(a), a->key);
    } else if (hd.there != UCR_CANVAS_EMPTY) {
        g_string_append(rec, ": a corridor is there");
    } else {
        /* seed 001: "If the area hasn't been mapped yet, you can roll to see
         * what is in the area using a d10". */
        const ucr_table *t = ucr_tables_lookup(dr->p->tables, "clock-unmapped");
        int total = 0;
        const ucr_table_row *row = ucr_table_roll(t, pc->rng, &total);
        g_string_append_printf(rec, ": nothing mapped there: %dd%d=%d: %s", t->count, t->sides, total, row->text);
        hd.kind = row->tag;
        if (!strcmp(hd.kind, "room") && dr->rooms >= dr->budget) {
            g_string_append(rec, " (the node's rooms are all drawn)");
            hd.kind = "dead-end";
        } else if (!strcmp(hd.kind, "junction") && dr->junctions >= JUNCTION_BUDGET * dr->budget) {
            g_string_append(rec, " (the node's junctions are all drawn)");
            hd.kind = "dead-end";
        }
        if (!strcmp(hd.kind, "room")) {
            GString *size = g_string_new(NULL);
            ucr_pc_room_size(dr->p->tables, pc->rng, &hd.w, &hd.h, size);
            g_string_append_printf(rec, "; %s", size->str);
            hd.size = g_string_free(size, FALSE);
        }
    }
    return hd;
}

/* The way from area @from to what is there, candidate @c of @hd (or the
 * unmapped location's new area), from each mouth in turn; *@used: the
 * mouth that drew it.  What the corridors from here already reach is
 * joined by a new corridor only where one goes round what lies between:
 * crossing it would roll seed 000's table, whose secret door or dead end
 * would cut short a connection already made. */
static bool way_to(drawer *dr, int from, const ucr_point *m, int nm, const location *loc, const holds *hd,
                   int c, int stage0, GString *out, GString *cross, ucr_pc_end *end, bool *made, int *used)
{
    holds one = *hd;
    if (hd->n_others) {
        one.there = hd->others[c];
        if (!dr->check_way) {
            int *parent = corridor_network(dr->pc->node, from);
            dr->no_cross = already_joined(dr, parent, from, one.there) >= 0;
            g_free(parent);
        }
    }
    bool area_there = one.there != UCR_CANVAS_EMPTY && one.there < UCR_ATTACH_PASSAGE, drawn = false;
    for (int stage = stage0; stage < (area_there ? 2 : 1) && !drawn; stage++)
        for (int k = 0; k < nm && !drawn; k++) {
            drawn = way_draw(dr, from, m[k], loc, &one, stage == 1, out, cross, end, made);
            *used = k;
        }
    dr->no_cross = false;
    return drawn;
}

/* When nothing in the location can be reached: what lies within NEAR
 * squares around it, "in that general direction" (seed 001's variant),
 * nearest its middle first, each by way_to. */
static bool way_nearby(drawer *dr, int from, const ucr_point *m, int nm, const location *loc, const holds *hd,
                       GString *out, GString *cross, ucr_pc_end *end, bool *made, int *used)
{
    ucr_pc *pc = dr->pc;
    location near = { loc->x - NEAR, loc->y - NEAR, loc->w + 2 * NEAR, loc->h + 2 * NEAR, loc->mx, loc->my };
    clip(2, pc->cv->w - 3, &near.x, &near.w);
    clip(2, pc->cv->h - 3, &near.y, &near.h);
    int found[THERE_MAX];
    int n = whats_there(dr, &near, from, found);
    holds hn = *hd;
    hn.n_others = 0;
    for (int i = 0; i < n; i++) {
        if (found[i] != hd->there)
            hn.others[hn.n_others++] = found[i];
    }
    dr->routes = MAX(dr->routes, JOIN_ROUTES);
    bool drawn = false;
    for (int c = 0; c < hn.n_others && !drawn; c++)
        drawn = way_to(dr, from, m, nm, loc, &hn, c, 0, out, cross, end, made, used);
    if (drawn)
        g_string_append(out, " (what is there out of reach: the next thing there or beside it)");
    return drawn;
}

/* The rolled wall first; where there is no way from it, the next.  An area
 * there is reached from any wall before one of its corridors is joined
 * within AT_DOOR of its door (stage 1): the corridor goes where the dice
 * sent it whenever it can.  Then what else is in the location or beside it,
 * and only then the area's corridor farther out (before, 1.4% of the ways
 * to something already there joined it so, where the next thing was in
 * reach).  A way to something already there looks for routes round what
 * lies between first (ROUND_ROUTES of them), then (a fresh allowance)
 * across it: a crossing rolls seed 000's table, which cut short 1.4-1.8%
 * of them.  Arguments as way_to. */
static bool way_there(drawer *dr, int from, const ucr_point *m, int nm, const location *loc, const holds *hd,
                      GString *out, GString *cross, ucr_pc_end *end, bool *made, int *used)
{
    bool drawn = false;
    dr->out_min = 1;
    dr->out_max = AT_DOOR;
    for (int pass = hd->n_others ? 0 : 1; pass < 2 && !drawn; pass++) {
        dr->round_first = pass == 0;
        dr->routes = dr->gm_room ? GM_ROUTES : pass == 0 ? ROUND_ROUTES : WAY_ROUTES;
        drawn = way_to(dr, from, m, nm, loc, hd, 0, 0, out, cross, end, made, used);
        if (!drawn && hd->n_others)
            drawn = way_nearby(dr, from, m, nm, loc, hd, out, cross, end, made, used);
    }
    dr->round_first = false;
    if (!drawn && hd->n_others && hd->there < UCR_ATTACH_PASSAGE) {
        dr->out_min = AT_DOOR + 1;
        dr->out_max = INT_MAX;
        dr->routes = MAX(dr->routes, JOIN_ROUTES);
        drawn = way_to(dr, from, m, nm, loc, hd, 0, 1, out, cross, end, made, used);
    }
    return drawn;
}

/* Where no way reaches the location or beside it (the mouths open on rock
 * fenced in by corridors): the new area in the rock in front of a mouth
 * that faces the location or runs across its direction (never away),
 * BY_MOUTH squares out and shifted towards it —
 * seed 001 leaves a room's size to "any table you prefer" (new_area shrinks
 * it to fit) and its SubMethod I lets a door lead "directly into the new
 * room".  Arguments as way_to; appends nothing to @out itself. */
static bool area_by_mouth(drawer *dr, int from, const ucr_point *m, const ucr_dir *sides, int nm,
                          const location *loc, const holds *hd, GString *out, GString *cross, ucr_pc_end *end,
                          bool *made, int *used)
{
    const ucr_area *a = area_at(dr, from);
    int vx = loc->mx - (a->x + a->w / 2), vy = loc->my - (a->y + a->h / 2);
    bool drawn = false;
    /* Its middle towards the location's from the area's, never across. */
    dr->fx = a->x + (a->w - 1) / 2.0;
    dr->fy = a->y + (a->h - 1) / 2.0;
    dr->vx = loc->mx - dr->fx;
    dr->vy = loc->my - dr->fy;
    dr->towards = true;
    for (int k = 0; k < nm && !drawn; k++) {
        int dx = UCR_DIR_DX[sides[k]], dy = UCR_DIR_DY[sides[k]];
        if (dx * vx + dy * vy < 0)
            continue;   /* towards the location or across, never away */
        int mx = m[k].x + BY_MOUTH * dx + (dx ? 0 : CLAMP(vx, -2, 2));
        int my = m[k].y + BY_MOUTH * dy + (dy ? 0 : CLAMP(vy, -2, 2));
        location box = { mx - 2, my - 2, 5, 5, mx, my };
        clip(2, dr->pc->cv->w - 3, &box.x, &box.w);
        clip(2, dr->pc->cv->h - 3, &box.y, &box.h);
        box.mx = CLAMP(box.mx, box.x, box.x + box.w - 1);
        box.my = CLAMP(box.my, box.y, box.y + box.h - 1);
        dr->routes = ROUTES;
        drawn = way_draw(dr, from, m[k], &box, hd, false, out, cross, end, made);
        if (drawn)
            *used = k;
    }
    dr->towards = false;
    return drawn;
}

/* Whether @q and the square beyond it on side @d are rock: a way may
 * leave from @q that way. */
static bool opens_on_rock(const ucr_canvas *cv, ucr_point q, ucr_dir d)
{
    ucr_point r = ucr_point_step(q, d);
    return ucr_canvas_inside(cv, r) && ucr_canvas_owner(cv, q) == UCR_CANVAS_EMPTY &&
           ucr_canvas_owner(cv, r) == UCR_CANVAS_EMPTY;
}

/* The wall of area @from that its corridor @k leaves by. */
static ucr_dir door_wall(const drawer *dr, int from, int k)
{
    const ucr_passage *p = &g_array_index(dr->pc->node->passages, ucr_passage, k);
    return wall_of(area_at(dr, from), g_array_index(p->cells, ucr_point, p->a == from ? 0 : p->cells->len - 1));
}

/* Tries the new room of @hd from the side @d of cell @j of area @from's
 * corridor @k: a place and a corridor to it from the square beside the
 * cell, then a junction splits the corridor there.  False: nothing drawn. */
static bool branch_at(drawer *dr, int from, int k, int j, ucr_dir d, const location *loc, const holds *hd,
                      GString *out, GString *cross, ucr_pc_end *end, bool *made)
{
    ucr_pc *pc = dr->pc;
    ucr_point s = g_array_index(g_array_index(pc->node->passages, ucr_passage, k).cells, ucr_point, j);
    ucr_point m = ucr_point_step(s, d);
    site st;
    dr->routes = ROUTES;
    if (!opens_on_rock(pc->cv, m, d) ||
        !area_site(dr, UCR_ATTACH_PASSAGE + k, m, loc, UCR_AREA_ROOM, hd->w, hd->h, &st))
        return false;
    ucr_dir wall = door_wall(dr, from, k);   /* before the split renumbers the halves */
    int jn = ucr_pc_split(pc, k, j, true, g_strdup("where a way branches off a corridor"));
    if (jn < 0) {
        ucr_pc_path_clear(&st.path);
        return false;
    }
    area_make(dr, jn, &st, UCR_AREA_ROOM, g_strdup(hd->size), cross, end);
    /* A room's exit shares the way out of that corridor (a door or an
     * opening; no door of its own): the exits rule counts it apart
     * (gen/kit/preconnect.c). */
    if (area_at(dr, from)->kind == UCR_AREA_ROOM)
        g_string_append_printf(out, " → shares its corridor out of the %s wall, which branches at junction %d",
                               ucr_dir_name(wall), area_at(dr, jn)->key);
    else
        g_string_append_printf(out, " → branches off its corridor at junction %d", area_at(dr, jn)->key);
    if (end->reached) {
        g_string_append_printf(out, " → room %d", area_at(dr, end->area)->key);
        dr->rooms++;
        *made = true;
    }
    return true;
}

/* Seed 001: "the corridor heads towards the indicated destination".  Where
 * no way leaves area @from for a new room there (its free walls open on
 * rock fenced in by its own corridors, which run the way the dice point),
 * the way branches off one of those corridors, BRANCH squares out at most,
 * from a square beside it that faces the location, at a new junction — the
 * mouth moved along the corridor's stretch.  Arguments as way_to. */
static bool area_by_branch(drawer *dr, int from, const location *loc, const holds *hd, GString *out,
                           GString *cross, ucr_pc_end *end, bool *made)
{
    const ucr_node *node = dr->pc->node;
    const ucr_area *a = area_at(dr, from);
    int vx = loc->mx - (a->x + a->w / 2), vy = loc->my - (a->y + a->h / 2), tries = 0;
    for (int d = 1; d <= BRANCH && tries < BRANCH_TRIES; d++)
        for (guint k = 0; k < node->passages->len && tries < BRANCH_TRIES; k++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            int n = (int)p->cells->len;
            if ((p->a != from && p->b != from) || d >= n - 1)
                continue;
            int j = p->a == from ? d : n - 1 - d;
            ucr_point s = g_array_index(p->cells, ucr_point, j), b = g_array_index(p->cells, ucr_point, j - 1);
            if (ucr_canvas_owner(dr->pc->cv, s) != UCR_ATTACH_PASSAGE + (int)k || !ucr_pc_split_ok(dr->pc, (int)k, j))
                continue;
            /* The sides of the run at the cell (before it, from cell j - 1). */
            ucr_dir run = b.x < s.x ? UCR_EAST : b.x > s.x ? UCR_WEST : b.y < s.y ? UCR_SOUTH : UCR_NORTH;
            for (int e = 1; e <= 3 && tries < BRANCH_TRIES; e += 2) {
                ucr_dir side = (ucr_dir)((run + e) % 4);
                if (UCR_DIR_DX[side] * vx + UCR_DIR_DY[side] * vy <= 0)
                    continue;
                tries++;
                if (branch_at(dr, from, (int)k, j, side, loc, hd, out, cross, end, made))
                    return true;
            }
        }
    return false;
}

/* A new area whose location and its surroundings no way reaches: in the
 * rock a mouth opens on, towards it, or (a room) off the area's own
 * corridor, in the location or beside it, recorded in @rec; *@used -1
 * when the way leaves by no mouth of its own.  Arguments as way_to. */
static bool way_fenced(drawer *dr, int from, const ucr_point *m, const ucr_dir *sides, int nm, const location *loc,
                       const holds *hd, GString *rec, GString *out, GString *cross, ucr_pc_end *end, bool *made,
                       int *used)
{
    if (area_by_mouth(dr, from, m, sides, nm, loc, hd, out, cross, end, made, used)) {
        g_string_append(rec, " (in the rock its way opens on, towards it)");
        return true;
    }
    /* A corridor check's side passage or door leaves where the check found
     * it (its junction keeps three ways), never farther along. */
    if (strcmp(hd->kind, "room") || dr->check_way)
        return false;
    int was = *used;
    *used = -1;
    if (area_by_branch(dr, from, loc, hd, out, cross, end, made))
        return true;
    location near = { loc->x - NEAR, loc->y - NEAR, loc->w + 2 * NEAR, loc->h + 2 * NEAR, loc->mx, loc->my };
    clip(2, dr->pc->cv->w - 3, &near.x, &near.w);
    clip(2, dr->pc->cv->h - 3, &near.y, &near.h);
    if (area_by_branch(dr, from, &near, hd, out, cross, end, made)) {
        g_string_append(rec, " (beside it)");
        return true;
    }
    *used = was;
    return false;
}

/* One way out of area @from to position @pos: seed 001's rule.  Its record
 * @rec (taken) goes to the notes of area @origin.  Returns the area the way
 * reached, or -1 (a dead end, cut short, walled up). */
static int resolve(drawer *dr, int from, int origin, int side, int hint, int pos, GString *rec)
{
    ucr_pc *pc = dr->pc;
    location loc;
    if (dr->gm_room)
        loc = dr->gm_loc;
    else
        ucr_clock_location(area_at(dr, from), pos, dr->p->tictactoe, pc->cv->w, pc->cv->h, &loc.x, &loc.y, &loc.w,
                           &loc.h, &loc.mx, &loc.my);
    ucr_point m[4];
    ucr_dir sides[4];
    int nm = mouths_for(dr, from, side, hint, &loc, m, sides);
    if (!nm) {
        g_string_append(rec, ": no free wall left → walled up");
        record(dr, origin, rec);
        return -1;
    }
    holds hd = what_holds(dr, from, &loc, rec);
    GString *cross = g_string_new(NULL), *out = g_string_new(NULL);
    ucr_pc_end end = { -1, -1, -1, true };
    bool made = false;
    int used = 0;
    bool drawn = way_there(dr, from, m, nm, &loc, &hd, out, cross, &end, &made, &used);
    bool new_there = hd.kind && strcmp(hd.kind, "dead-end");
    for (int far = 1; far <= 2 && !drawn && new_there; far++) {
        /* No space or no way for a new area there: farther out, "or in that
         * general direction" (seed 001's variant), 40 then 80 ft. */
        const ucr_area *a = area_at(dr, from);
        double vx = loc.mx - (a->x + (a->w - 1) / 2.0), vy = loc.my - (a->y + (a->h - 1) / 2.0);
        double len = sqrt(vx * vx + vy * vy);
        if (len < 1)
            break;
        int sx = (int)lround(vx / len * 4 * far), sy = (int)lround(vy / len * 4 * far);
        location out_loc = { loc.x + sx, loc.y + sy, loc.w, loc.h, loc.mx + sx, loc.my + sy };
        clip(2, pc->cv->w - 3, &out_loc.x, &out_loc.w);
        clip(2, pc->cv->h - 3, &out_loc.y, &out_loc.h);
        out_loc.mx = CLAMP(out_loc.mx, out_loc.x, out_loc.x + out_loc.w - 1);
        out_loc.my = CLAMP(out_loc.my, out_loc.y, out_loc.y + out_loc.h - 1);
        dr->routes = WAY_ROUTES;
        for (int k = 0; k < nm && !drawn; k++) {
            drawn = way_draw(dr, from, m[k], &out_loc, &hd, false, out, cross, &end, &made);
            used = k;
        }
        if (drawn)
            g_string_append(rec, " (farther out)");
    }
    if (!drawn && new_there) {
        /* Nor there: anywhere within NEAR squares of the location. */
        location near = { loc.x - NEAR, loc.y - NEAR, loc.w + 2 * NEAR, loc.h + 2 * NEAR, loc.mx, loc.my };
        clip(2, pc->cv->w - 3, &near.x, &near.w);
        clip(2, pc->cv->h - 3, &near.y, &near.h);
        dr->routes = WAY_ROUTES;
        for (int k = 0; k < nm && !drawn; k++) {
            drawn = way_draw(dr, from, m[k], &near, &hd, false, out, cross, &end, &made);
            used = k;
        }
        if (drawn)
            g_string_append(rec, " (beside it)");
    }
    if (!drawn && new_there && !dr->gm_room)
        drawn = way_fenced(dr, from, m, sides, nm, &loc, &hd, rec, out, cross, &end, &made, &used);
    if (!drawn && !dr->gm_room)
        drawn = way_meets(dr, from, m, sides, nm, &loc, &hd, out, cross, &end, &used);
    bool joined = false;
    for (int c = 0; c < hd.n_others && !drawn; c++)
        drawn = joined_way(dr, from, m, nm, &loc, hd.others[c], c > 0, out, cross, &end, &joined);
    if (!drawn && !dr->gm_room) {
        /* No space for a new area there, or no way to what is there: the
         * passage heads for the location and ends in rock. */
        for (int k = 0; k < nm && !drawn; k++) {
            drawn = dead_end(dr, from, m[k], &loc, cross, &end);
            used = k;
        }
        if (drawn && end.reached)
            g_string_append(out, " (no space or no way for it) → dead end");
    }
    if (side >= 0 && used >= 0 && sides[used] != (ucr_dir)side)
        g_string_append_printf(rec, " (by the %s wall)", ucr_dir_name(sides[used]));
    if (!drawn && dr->gm_room) {
        /* The GM adds an exit for a room, or none. */
        g_string_append(rec, " (no room for it: the GM adds none)");
    } else if (!drawn) {
        g_string_append(rec, " (no way there: a dead end)");
        stub(dr, from, m[0]);
    } else if (!end.reached) {
        g_string_append(rec, " (cut short: it never gets there)");
    }
    g_string_append(rec, out->str);
    g_string_append(rec, cross->str);
    g_string_free(out, TRUE);
    g_string_free(cross, TRUE);
    sync(dr, origin);
    if (made) {
        int key = area_at(dr, end.area)->key;
        g_array_index(dr->expand, bool, key - 1) = true;
        if (hd.size)
            note(dr, key, hd.size);
    }
    g_free(hd.size);
    record(dr, origin, rec);
    dr->no_cross = false;
    return drawn && end.reached ? end.area : -1;
}

/* A room's exits: 1d3 besides the door it was entered by (room 1: 1d3+1),
 * each on a rolled wall, then its destination. */
static void expand_room(drawer *dr, int key)
{
    ucr_pc *pc = dr->pc;
    int idx = g_array_index(dr->area_of, int, key - 1);
    int n = ucr_dice_d(pc->rng, 3) + (key == 1);
    const char *dice = key == 1 ? "1d3+1" : "1d3";
    g_ptr_array_add(pc->node->rolls, g_strdup_printf("room %d: %s=%d exits", key, dice, n));
    char *s = g_strdup_printf("exits %s=%d", dice, n);
    note(dr, key, s);
    g_free(s);
    int side[4], hint[4];
    for (int e = 0; e < n; e++) {
        const ucr_area *a = area_at(dr, idx);
        side[e] = ucr_dice_d(pc->rng, 4) - 1;
        int wl = ucr_area_wall_length(a, (ucr_dir)side[e]);
        hint[e] = ucr_dice_d(pc->rng, wl) - 1;
    }
    for (int e = 0; e < n; e++) {
        GString *rec = g_string_new(NULL);
        g_string_append_printf(rec, "room %d exit %d (%s wall): ", key, e + 1, ucr_dir_name((ucr_dir)side[e]));
        int pos = position_roll(dr, rec);
        resolve(dr, idx, key, side[e], hint[e], pos, rec);
    }
}

/* seed 001: a junction rolls "again twice for destination … with doubles
 * indicating that the junction is a turn rather than an intersection". */
static void expand_junction(drawer *dr, int key)
{
    int idx = g_array_index(dr->area_of, int, key - 1);
    int origin = g_array_index(dr->origin, int, key - 1);
    GString *rec = g_string_new(NULL);
    g_string_append_printf(rec, "junction %d: ", key);
    int pos[2];
    pos[0] = position_roll(dr, rec);
    g_string_append(rec, ", ");
    pos[1] = position_roll(dr, rec);
    bool turn = pos[0] == pos[1];
    g_string_append(rec, turn ? ": doubles, a turn" : ": an intersection, two ways on");
    record(dr, origin, rec);
    for (int w = 0; w < (turn ? 1 : 2); w++) {
        GString *r = g_string_new(NULL);
        g_string_append_printf(r, "junction %d way %d (position %d)", key, w + 1, pos[w]);
        resolve(dr, idx, origin, -1, 0, pos[w], r);
    }
}

/* Areas in number order, as drawn; each one the dice made rolls its ways. */
static void expand_all(drawer *dr)
{
    for (int key = dr->expanded + 1; key <= key_count(dr); key++) {
        dr->expanded = key;
        if (!g_array_index(dr->expand, bool, key - 1))
            continue;
        if (area_at(dr, g_array_index(dr->area_of, int, key - 1))->kind == UCR_AREA_ROOM)
            expand_room(dr, key);
        else
            expand_junction(dr, key);
    }
}

static void draw(drawer *dr)
{
    ucr_pc *pc = dr->pc;
    pc->number_junctions = true;
    dr->budget = 8 + ucr_dice_d(pc->rng, 6);
    g_ptr_array_add(pc->node->rolls, g_strdup_printf("room budget 8+1d6=%d", dr->budget));
    GString *size = g_string_new(NULL);
    int w, h;
    ucr_pc_room_size(dr->p->tables, pc->rng, &w, &h, size);
    int x = pc->cv->w / 2 - w / 2 + ucr_dice_d(pc->rng, 7) - 4;
    int y = pc->cv->h / 2 - h / 2 + ucr_dice_d(pc->rng, 7) - 4;
    ucr_pc_area_add(pc, UCR_AREA_ROOM, x, y, w, h, true, NULL);
    g_ptr_array_add(pc->node->rolls, g_strdup_printf("room 1: %s", size->str));
    sync(dr, 1);
    note(dr, 1, size->str);
    g_string_free(size, TRUE);
    g_array_index(dr->expand, bool, 0) = true;
    dr->rooms = 1;
    expand_all(dr);
}

/* The notes go to the areas' "rolled" (the key's "Rolled:"). */
static void notes_finish(drawer *dr)
{
    for (int key = 1; key <= key_count(dr); key++) {
        ucr_area *a = &g_array_index(dr->pc->node->areas, ucr_area, g_array_index(dr->area_of, int, key - 1));
        GString *s = g_ptr_array_index(dr->notes, key - 1);
        if (!s->len)
            continue;
        if (a->kind == UCR_AREA_ROOM) {
            /* A new room's size was rolled on the way there: its own note
             * says what it is, then its exits. */
            g_free(a->rolled);
            a->rolled = g_strdup(s->str);
        } else {
            /* A corridor check's junction: where it is, then its way. */
            ucr_area_record_append(a, s->str);
        }
    }
}

/* seed 001 for the side passages and doors the corridor checks find: "you
 * would replace any roll for direction with a roll for destination" (the
 * pre-connecting thesis, seed 000's "roll immediately for where the corridor
 * goes"): the way rolls its position around the junction on the corridor
 * like any other way, and joins what is there or rolls the d10. */
static void check_exit(void *data, int jn, ucr_dir wall, bool door, GString *crec)
{
    drawer *dr = data;
    int key = area_at(dr, jn)->key;
    sync(dr, key);
    GString *rec = g_string_new(NULL);
    g_string_append_printf(rec, "junction %d %s (%s wall): ", key, door ? "door" : "side passage",
                           ucr_dir_name(wall));
    int pos = dr->aim_pos;
    if (pos)
        g_string_append(rec, dr->aim_rec->str);
    else
        pos = position_roll(dr, rec);
    dr->aim_pos = 0;
    dr->door_out = door;
    dr->check_way = true;
    guint before = dr->pc->node->passages->len;
    /* The junction's square is kept from crossings (ucr_pc_split); its own
     * way may leave it meanwhile. */
    const ucr_area *j = area_at(dr, jn);
    ucr_point at = { j->x, j->y };
    bool was = ucr_canvas_busy(dr->pc->cv, at);
    ucr_canvas_busy_set(dr->pc->cv, at, false);
    int end = resolve(dr, jn, key, wall, 0, pos, rec);
    ucr_canvas_busy_set(dr->pc->cv, at, was);
    if (dr->pc->node->passages->len == before) {
        /* Walled up after all: the check found a way out, so it is one. */
        stub(dr, jn, ucr_point_step(at, wall));
    }
    dr->door_out = false;
    dr->check_way = false;
    if (end >= 0 && area_at(dr, end)->kind == UCR_AREA_ROOM)
        g_string_append_printf(crec, "to room %d (junction %d, position %d)", area_at(dr, end)->key, key, pos);
    else
        g_string_append_printf(crec, "junction %d, position %d", key, pos);
}

/* A check's side passage rolls its position before its wall (pc->check_aim):
 * the way opens on the side of the corridor facing it. */
static void check_aim(void *data, GString *dice, double *vx, double *vy)
{
    drawer *dr = data;
    g_string_truncate(dr->aim_rec, 0);
    dr->aim_pos = position_roll(dr, dr->aim_rec);
    g_string_append(dice, dr->aim_rec->str);
    int n = dr->p->tictactoe ? 8 : 12, k = dr->p->tictactoe ? dr->aim_pos - 1 : dr->aim_pos % 12;
    double t = k * 2 * G_PI / n;   /* clockwise from north */
    *vx = sin(t);
    *vy = -cos(t);
}

static void *clock_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                        const ucr_method_options *options)
{
    (void)rng;
    (void)join_sides;
    (void)options;
    plan *p = g_new0(plan, 1);
    p->tables = tables;
    return p;
}

static void *tictactoe_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                            const ucr_method_options *options)
{
    plan *p = clock_roll(rng, join_sides, tables, options);
    p->tictactoe = true;
    return p;
}

static void clock_exits(void *p, GPtrArray *out)
{
    (void)p;
    (void)out;   /* no stairs of its own leave the node */
}

static void notes_free(gpointer s)
{
    g_string_free(s, TRUE);
}

/* Seed 001 (SubMethod II) leaves "some method of checking every 60 feet of
 * corridor for additional exits" to fill in details; the exits they find
 * roll where they lead (check_exit), and the corridors those draw are
 * checked in turn, up to CHECK_ROUNDS rounds. */
static void checks_run(drawer *dr)
{
    ucr_pc *pc = dr->pc;
    ucr_node *node = pc->node;
    for (int round = 0; round < CHECK_ROUNDS; round++) {
        guint passages = node->passages->len;
        int known = key_count(dr);
        ucr_pc_corridor_checks(pc, 6, true);
        sync(dr, 0);
        /* A room behind a check's door is a room like any other: it
         * rolls its exits (seed 001, every door pre-connected). */
        for (int key = known + 1; key <= key_count(dr); key++) {
            const ucr_area *a = area_at(dr, g_array_index(dr->area_of, int, key - 1));
            if (a->kind != UCR_AREA_ROOM)
                continue;
            g_array_index(dr->expand, bool, key - 1) = true;
            note(dr, key, a->rolled);
            dr->rooms++;
        }
        expand_all(dr);
        if (node->passages->len == passages)
            break;
    }
}

static int rooms_drawn(const ucr_node *node)
{
    int n = 0;
    for (guint i = 0; i < node->areas->len; i++)
        n += g_array_index(node->areas, ucr_area, i).kind == UCR_AREA_ROOM;
    return n;
}

/* Records of area @key's exits or ways so far ("room K exit N", "junction
 * K way N"). */
static int ways_of(const drawer *dr, const ucr_area *a)
{
    char *prefix = g_strdup_printf("%s %d %s ", area_word(a), a->key, a->kind == UCR_AREA_ROOM ? "exit" : "way");
    int n = 0;
    for (guint r = 0; r < dr->pc->node->rolls->len; r++)
        n += g_str_has_prefix(g_ptr_array_index(dr->pc->node->rolls, r), prefix);
    g_free(prefix);
    return n;
}

/* Whether a 2 x 2 room fits with its top-left square at @p, with @margin
 * squares of rock round it (2: room for a corridor to come in by). */
static bool room_fits(const ucr_pc *pc, ucr_point p, int margin)
{
    return p.x >= 3 && p.y >= 3 && p.x + 2 <= pc->cv->w - 3 && p.y + 2 <= pc->cv->h - 3 &&
           ucr_canvas_clear(pc->cv, p.x, p.y, 2, 2, margin);
}

/* Whether a corridor may run over square @p: free, and not on the map's
 * outermost ring (the tunnels' that leave the map). */
static bool rock_square(const ucr_pc *pc, ucr_point p)
{
    return p.x > 0 && p.y > 0 && p.x < pc->cv->w - 1 && p.y < pc->cv->h - 1 &&
           ucr_canvas_square_ok(pc->cv, p, UCR_CANVAS_EMPTY);
}

/* Whether a corridor from square @m, leaving by @side, finds open rock: a
 * place for a room among the first OPEN_ROCK squares it could run over,
 * reached from the square beyond @m without crossing anything; @spot (if
 * not NULL): the nearest, as the top-left square of a 2 x 2 room. */
static bool rock_open(ucr_pc *pc, ucr_point m, ucr_dir side, int margin, ucr_point *spot)
{
    ucr_point first = ucr_point_step(m, side);
    if (!rock_square(pc, first))
        return false;
    int w = pc->cv->w;
    GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    GArray *queue = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    g_array_append_val(queue, first);
    g_hash_table_add(seen, GINT_TO_POINTER(first.y * w + first.x + 1));
    g_hash_table_add(seen, GINT_TO_POINTER(m.y * w + m.x + 1));
    bool open = false;
    for (guint i = 0; i < queue->len && i < OPEN_ROCK && !open; i++) {
        ucr_point p = g_array_index(queue, ucr_point, i);
        open = room_fits(pc, p, margin);
        if (open && spot)
            *spot = p;
        for (int d = 0; d < 4; d++) {
            ucr_point q = ucr_point_step(p, (ucr_dir)d);
            gpointer key = GINT_TO_POINTER(q.y * w + q.x + 1);
            if (g_hash_table_contains(seen, key) || !rock_square(pc, q))
                continue;
            g_hash_table_add(seen, key);
            g_array_append_val(queue, q);
        }
    }
    g_array_free(queue, TRUE);
    g_hash_table_destroy(seen);
    return open;
}

/* Where the GM may add an exit: a wall of a numbered room or junction, or
 * a side of a corridor's square that may take a junction, with open rock
 * beyond (rock_open). */
typedef struct {
    int area;           /* area index, or -1: passage @passage at cell @cell */
    int passage, cell;
    ucr_dir side;
    ucr_point at;       /* the mouth (an area's) or the corridor square */
    ucr_point spot;     /* where a room fits beyond (rock_open) */
} gm_exit;

static void gm_exits_of_areas(const drawer *dr, int margin, GArray *out)
{
    const ucr_node *node = dr->pc->node;
    for (int i = 0; i < (int)node->areas->len; i++) {
        const ucr_area *a = area_at(dr, i);
        if (a->key <= 0 || (a->kind != UCR_AREA_ROOM && a->kind != UCR_AREA_JUNCTION))
            continue;
        for (int d = 0; d < 4; d++) {
            gm_exit e = { i, -1, -1, (ucr_dir)d, { 0, 0 }, { 0, 0 } };
            if (ucr_pc_mouth(dr->pc, i, (ucr_dir)d, 0, &e.at) && rock_open(dr->pc, e.at, (ucr_dir)d, margin, &e.spot))
                g_array_append_val(out, e);
        }
    }
}

static void gm_exits_of_corridors(const drawer *dr, int margin, GArray *out)
{
    const ucr_node *node = dr->pc->node;
    for (int k = 0; k < (int)node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        /* Every third square: enough choice, a third of the work. */
        for (int j = 1; j < (int)p->cells->len - 1; j += 3) {
            ucr_point c = g_array_index(p->cells, ucr_point, j);
            if (ucr_canvas_owner(dr->pc->cv, c) != UCR_ATTACH_PASSAGE + k || !ucr_pc_split_ok(dr->pc, k, j))
                continue;
            for (int d = 0; d < 4; d++) {
                ucr_point side = ucr_point_step(c, (ucr_dir)d);
                gm_exit e = { -1, k, j, (ucr_dir)d, c, { 0, 0 } };
                if (ucr_canvas_owner(dr->pc->cv, side) == UCR_CANVAS_EMPTY &&
                    rock_open(dr->pc, side, (ucr_dir)d, margin, &e.spot))
                    g_array_append_val(out, e);
            }
        }
    }
}

/* The position (seed 001's, around area @a) nearest the square @p. */
static int position_of(const drawer *dr, const ucr_area *a, ucr_point p)
{
    double dx = p.x + 0.5 - (a->x + a->w / 2.0), dy = p.y + 0.5 - (a->y + a->h / 2.0);
    double turn = atan2(dx, -dy) / (2 * G_PI);   /* clockwise from north */
    int n = dr->p->tictactoe ? 8 : 12;
    int k = ((int)lround(turn * n) % n + n) % n;
    return dr->p->tictactoe ? k + 1 : (k ? k : 12);
}

/* The GM's exit from area @idx (a new junction on a corridor if @corridor)
 * by wall @side: its record, and the way to a new room there. */
static void gm_way(drawer *dr, int idx, ucr_dir side, ucr_point spot, bool corridor, const char *why)
{
    ucr_pc *pc = dr->pc;
    const ucr_area *a = area_at(dr, idx);
    int key = a->key;
    int hint = a->kind == UCR_AREA_ROOM ? ucr_dice_d(pc->rng, ucr_area_wall_length(a, side)) - 1 : 0;
    GString *roll = g_string_new(NULL), *rec = g_string_new(NULL);
    ucr_point mid = { spot.x + 1, spot.y + 1 };
    int pos = position_of(dr, a, mid);
    const ucr_table *t = ucr_tables_lookup(dr->p->tables, position_table(dr));
    const char *const *tags = dr->p->tictactoe ? TTT_TAGS : CLOCK_TAGS;
    const char *text = tags[pos - 1];
    for (guint i = 0; i < t->rows->len; i++)
        if (!g_strcmp0(g_array_index(t->rows, ucr_table_row, i).tag, tags[pos - 1]))
            text = g_array_index(t->rows, ucr_table_row, i).text;
    g_string_append_printf(roll, "the GM puts it in the open rock at position %d: %s", pos, text);
    if (a->kind == UCR_AREA_ROOM)
        g_string_append_printf(rec, "room %d exit %d (%s wall): %s: %s", key, ways_of(dr, a) + 1, ucr_dir_name(side),
                               why, roll->str);
    else
        g_string_append_printf(rec, "junction %d way %d (position %d): %s, %s wall: %s", key,
                               MAX(ways_of(dr, a), 2) + 1, pos, why, ucr_dir_name(side), roll->str);
    g_string_free(roll, TRUE);
    dr->gm_room = true;
    dr->gm_loc = (location){ spot.x - 1, spot.y - 1, 4, 4, spot.x, spot.y };
    dr->door_out = corridor;
    dr->check_way = corridor;
    /* A junction split on a corridor keeps its square from crossings
     * (ucr_pc_split); its own way may leave it meanwhile (as check_exit). */
    ucr_point at = { a->x, a->y };
    bool was = ucr_canvas_busy(pc->cv, at);
    if (corridor)
        ucr_canvas_busy_set(pc->cv, at, false);
    int origin = a->kind == UCR_AREA_ROOM ? key : g_array_index(dr->origin, int, key - 1);
    resolve(dr, idx, origin, side, hint, pos, rec);
    ucr_canvas_busy_set(pc->cv, at, was);
    dr->gm_room = dr->door_out = dr->check_way = false;
}

/* The map closed with fewer than MIN_ROOMS rooms (every way ended): one
 * more exit, as the GM adds it (seed 003: "if you decide you need more
 * exits, you can go back and place them manually") — rolled among the
 * walls of rooms and junctions with open rock beyond, or failing one, the
 * sides of corridors (a door on a new junction there); its position rolled
 * (seed 001), and a new room there (farther out if that is taken), for the
 * GM adds an exit to have more dungeon.  False if there is no such place. */
static bool reopen(drawer *dr)
{
    ucr_pc *pc = dr->pc;
    GArray *open = g_array_new(FALSE, FALSE, sizeof(gm_exit));
    bool corridor = false;
    /* Rock for a room with space round it for its corridor; on a map full
     * of corridors (a pocket node), rock for a room at all. */
    for (int margin = 2; margin >= 1 && !open->len; margin--) {
        gm_exits_of_areas(dr, margin, open);
        corridor = !open->len;
        if (corridor)
            gm_exits_of_corridors(dr, margin, open);
    }
    if (!open->len) {
        g_array_free(open, TRUE);
        return false;
    }
    int have = rooms_drawn(pc->node), pick = ucr_dice_d(pc->rng, (int)open->len);
    gm_exit e = g_array_index(open, gm_exit, pick - 1);
    char *why = g_strdup_printf("added, the map closed with %d room%s (seed 003: the GM adds an exit; "
                                "1d%u=%d of the %s with open rock beyond)",
                                have, have == 1 ? "" : "s", open->len, pick,
                                corridor ? "sides of corridors" : "walls");
    g_array_free(open, TRUE);
    int idx = e.area;
    if (corridor) {
        idx = ucr_pc_split(pc, e.passage, e.cell, true, g_strdup("where the GM adds a door off a corridor"));
        if (idx < 0) {
            g_free(why);
            return false;   /* unreachable: the cell was checked */
        }
        sync(dr, 0);
    }
    gm_way(dr, idx, e.side, e.spot, corridor, why);
    g_free(why);
    return true;
}

/* One attempt at the node on @pc's fresh map (gen/kit/embed.h). */
static bool clock_attempt(ucr_pc *pc, void *vp)
{
    drawer dr = { 0 };
    dr.pc = pc;
    dr.p = vp;
    dr.area_of = g_array_new(FALSE, FALSE, sizeof(int));
    dr.expand = g_array_new(FALSE, FALSE, sizeof(bool));
    dr.origin = g_array_new(FALSE, FALSE, sizeof(int));
    dr.notes = g_ptr_array_new_with_free_func(notes_free);
    draw(&dr);
    /* Seed 001 (SubMethod II) leaves "some method of checking every 60
     * feet of corridor for additional exits" to fill in details; the
     * exits they find roll where they lead (check_exit), and the
     * corridors those draw are checked in turn. */
    pc->check_exit = check_exit;
    pc->check_aim = check_aim;
    pc->check_data = &dr;
    dr.aim_rec = g_string_new(NULL);
    pc->tight_checks = true;
    /* Seed 003's answer when the dice close the map early: "if you decide
     * you need more exits, you can go back and place them manually" —
     * before the corridor checks fill the rock left, and after them. */
    int tries = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (; rooms_drawn(pc->node) < MIN_ROOMS && tries < REOPEN_TRIES; tries++) {
            if (!reopen(&dr))
                break;
            expand_all(&dr);
        }
        checks_run(&dr);
    }
    notes_finish(&dr);
    /* dr dies here: the joins and arrivals the retry adds draw no checks. */
    pc->check_exit = NULL;
    pc->check_aim = NULL;
    pc->check_data = NULL;
    g_string_free(dr.aim_rec, TRUE);
    g_array_free(dr.area_of, TRUE);
    g_array_free(dr.expand, TRUE);
    g_array_free(dr.origin, TRUE);
    g_ptr_array_free(dr.notes, TRUE);
    return true;
}

/* The last resort of a superstructure tunnel that found no way in
 * (ucr_pc_attach) can leave its junction alone: the node is drawn again
 * rather than shipped with a pocket no rule asked for. */
static ucr_node *clock_embed(void *vp, const char *id, int col, int row, const ucr_node_request *req,
                             ucr_prng *rng, GError **error)
{
    plan *p = vp;
    int w, h;
    ucr_node_size_extent(req->size, MAP_W, MAP_H, &w, &h);
    return ucr_embed_retry_joined(id, col, row, p->tictactoe ? "tictactoe" : "clock", w, h, ATTEMPTS,
                                  p->tables, req, rng, clock_attempt, p, error);
}

static void clock_free(void *p)
{
    g_free(p);
}

/* seed 001, SubMethod II (templates/tables/clock-*.txt, tictactoe-*.txt):
 * the position a row means, and what an unmapped location holds. */
static const char *const CLOCK_KINDS[] = { "one", "two", "three", "four", "five", "six", "seven", "eight",
                                           "nine", "ten", "eleven", "twelve", NULL };
static const char *const TICTACTOE_KINDS[] = { "north", "north-east", "east", "south-east", "south",
                                               "south-west", "west", "north-west", NULL };
static const char *const UNMAPPED_KINDS[] = { "dead-end", "junction", "room", NULL };
static const ucr_table_need CLOCK_NEEDS[] = {
    { "clock-position", CLOCK_KINDS, NULL, FALSE },
    { "clock-unmapped", UNMAPPED_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};
static const ucr_table_need TICTACTOE_NEEDS[] = {
    { "tictactoe-position", TICTACTOE_KINDS, NULL, FALSE },
    { "clock-unmapped", UNMAPPED_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};
static const ucr_table_need *const CLOCK_TABLES[] = { CLOCK_NEEDS, ucr_pc_tables, NULL };
static const ucr_table_need *const TICTACTOE_TABLES[] = { TICTACTOE_NEEDS, ucr_pc_tables, NULL };

/* The rules of this method the map can override, for the drawn-as-rolled
 * report (key/honour.c); tests/honour_recount.py reads the same records. */
static const ucr_honour_rule CLOCK_RULES[] = {
    { "something already there: connect to it (seed 001)",
      " is there",
      { { " is there[^;→]*\\((?:no way there: a dead end|no space or no way for it)\\)", "no way there: a dead end" },
        { " is there[^;→]*\\(cut short", "cut short" },
        { " is there \\(its walls are out of reach\\)", "joins the room's corridor" } } },
    { "nothing mapped, d10 a room: drawn (seed 001)",
      "nothing mapped there: 1d10=[0-9]+: a room",
      { { ": a room; room size [^;→]*\\(no space or no way for it\\)", "no space or no way: a dead end" },
        { ": a room; room size [^;→]*\\(no way there: a dead end\\)", "no way there: a dead end" },
        { ": a room; room size [^;→]*\\(cut short", "cut short" } } },
    { "nothing mapped, d10 a junction: drawn (seed 001)",
      "nothing mapped there: 1d10=[0-9]+: a junction",
      { { ": a junction \\(the node's junctions are all drawn\\)", "junctions all drawn: a dead end" },
        { ": a junction[^;→]*\\(no way there", "no way there: a dead end" } } },
    { NULL, NULL, { { NULL, NULL } } },
};
static const ucr_honour_rule *const CLOCK_HONOUR[] = { UCR_PC_HONOUR_EXITS, UCR_PC_HONOUR_CHECKS, CLOCK_RULES, NULL };

const ucr_node_method ucr_method_clock = {
    .honour = CLOCK_HONOUR,
    .name = "clock",
    .seeds = "001",
    .summary = "pre-connecting SubMethod II: d12 clock position of each exit's destination; "
               "unmapped: d10 dead end / junction (roll twice, doubles a turn) / room",
    .roll = clock_roll,
    .exits = clock_exits,
    .embed = clock_embed,
    .free = clock_free,
    .tables = CLOCK_TABLES,
    .sized = true,
};

const ucr_node_method ucr_method_tictactoe = {
    .honour = CLOCK_HONOUR,
    .name = "tictactoe",
    .seeds = "001",
    .summary = "SubMethod II, d8 variant: tic-tac-toe square around the area (1 top, clockwise); "
               "unmapped: d10 dead end / junction / room",
    .roll = tictactoe_roll,
    .exits = clock_exits,
    .embed = clock_embed,
    .free = clock_free,
    .tables = TICTACTOE_TABLES,
    .sized = true,
};
