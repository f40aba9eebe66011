#include "gen/kit/preconnect.h"


#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "gen/kit/search_inline.h"

enum { TURN_COST = 3 };

ucr_pc_cross ucr_pc_cross_row(const ucr_table_row *row, bool *ladder)
{
    /* seed 000: "1-4 corridor runs under area; 5 secret door connects to
     * area; 6-9 corridor runs above area"; "Optionally, there are stairs on
     * even rolls and ladders on odd rolls" — the [kind]s of the file.  Its
     * kinds are checked when the tables load (tables/table.h). */
    const char *k = row->tag;
    if (ladder)
        *ladder = g_str_has_suffix(k, "-ladder");
    if (g_str_has_prefix(k, "under"))
        return UCR_PC_UNDER;
    if (g_str_has_prefix(k, "over"))
        return UCR_PC_OVER;
    if (strcmp(k, "secret") == 0)
        return UCR_PC_SECRET;
    return UCR_PC_DEAD_END;       /* the 0 the seed leaves open: see the file */
}

int ucr_pc_face(const ucr_table *table, int total)
{
    return table->count == 1 && table->sides == 10 ? total % 10 : total;
}


ucr_pc *ucr_pc_new(ucr_node *node, ucr_prng *rng, const ucr_tables *tables)
{
    ucr_pc *pc = g_new0(ucr_pc, 1);
    pc->node = node;
    pc->rng = rng;
    pc->tables = tables;
    pc->cv = ucr_canvas_new(node->width, node->height);
    pc->checked = g_byte_array_new();
    pc->every = g_byte_array_new();
    pc->next_key = 1;
    return pc;
}

void ucr_pc_free(ucr_pc *pc)
{
    if (!pc)
        return;
    ucr_canvas_free(pc->cv);
    g_byte_array_free(pc->checked, TRUE);
    g_byte_array_free(pc->every, TRUE);
    g_free(pc);
}

static bool busy_at(const ucr_pc *pc, ucr_point p)
{
    return ucr_canvas_busy(pc->cv, p);
}

static void busy_set(ucr_pc *pc, ucr_point p)
{
    ucr_canvas_busy_set(pc->cv, p, true);
}

/* Marks passage @k walked (g_byte_array_set_size leaves new bytes
 * undefined: they are cleared here). */
static void checked_set(ucr_pc *pc, int k)
{
    guint old = pc->checked->len;
    if (old <= (guint)k) {
        g_byte_array_set_size(pc->checked, (guint)k + 1);
        memset(pc->checked->data + old, 0, (size_t)k + 1 - old);
    }
    pc->checked->data[k] = 1;
}

static bool checked_get(const ucr_pc *pc, int k)
{
    return (guint)k < pc->checked->len && pc->checked->data[k];
}

void ucr_pc_check_every(ucr_pc *pc, int k, int every)
{
    guint old = pc->every->len;
    if (old <= (guint)k) {
        g_byte_array_set_size(pc->every, (guint)k + 1);
        memset(pc->every->data + old, 0, (size_t)k + 1 - old);
    }
    pc->every->data[k] = (guint8)CLAMP(every, 0, 255);
}

/* Passage @k's checks' interval: its own, else @every. */
static int every_get(const ucr_pc *pc, int k, int every)
{
    return (guint)k < pc->every->len && pc->every->data[k] ? pc->every->data[k] : every;
}

int ucr_pc_area_add(ucr_pc *pc, ucr_area_kind kind, int x, int y, int w, int h, bool numbered,
                    char *rolled)
{
    ucr_area a = ucr_area_make(kind, x, y, w, h);
    a.rolled = rolled;
    a.key = numbered ? pc->next_key++ : 0;
    return ucr_node_add_area(pc->node, pc->cv, &a);
}

static int owner(const ucr_pc *pc, ucr_point p)
{
    return ucr_canvas_owner(pc->cv, p);
}

ucr_point ucr_pc_wall_square(const ucr_area *a, ucr_dir side, int k)
{
    switch (side) {
    case UCR_NORTH: return (ucr_point){ a->x + k, a->y - 1 };
    case UCR_SOUTH: return (ucr_point){ a->x + k, a->y + a->h };
    case UCR_WEST: return (ucr_point){ a->x - 1, a->y + k };
    default: return (ucr_point){ a->x + a->w, a->y + k };
    }
}

/* A corridor may not end beside a stretch that runs under or over its area:
 * it would meet the crossing corridor there. */
static bool beside_crossing(const ucr_pc *pc, ucr_point q, int anchor)
{
    for (int d = 0; d < 4; d++) {
        ucr_point nb = { q.x + UCR_DIR_DX[d], q.y + UCR_DIR_DY[d] };
        if (owner(pc, nb) == anchor && busy_at(pc, nb))
            return true;
    }
    return false;
}

bool ucr_pc_mouth(const ucr_pc *pc, int area, ucr_dir side, int hint, ucr_point *out)
{
    const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, area);
    int wl = side == UCR_NORTH || side == UCR_SOUTH ? a->w : a->h;
    for (int i = 0; i < 2 * wl; i++) {
        /* hint, hint+1, hint-1, hint+2, … */
        int k = hint + ((i % 2) ? (i + 1) / 2 : -(i / 2));
        if (k < 0 || k >= wl)
            continue;
        ucr_point p = ucr_pc_wall_square(a, side, k);
        /* The next square out must be free too, or the corridor is stuck. */
        ucr_point q = { p.x + UCR_DIR_DX[side], p.y + UCR_DIR_DY[side] };
        if (ucr_canvas_square_ok(pc->cv, p, area) && !beside_crossing(pc, p, area) && ucr_canvas_inside(pc->cv, q) &&
            owner(pc, q) == UCR_CANVAS_EMPTY) {
            *out = p;
            return true;
        }
    }
    return false;
}

/* ---- routing --------------------------------------------------------- */

typedef struct {
    const ucr_pc *pc;
    const ucr_pc_target *t;
    int from_owner;
    ucr_point from;
    ucr_search *s;
    bool crossings;
    int regions[4], nregions;   /* reachable(): the start's regions of rock */
    struct closure *cl;         /* goal_side_open()'s walk back */
} route_ctx;

/* The answers about @q kept for this route: [0] free, [1] a goal. */
static int *square_memo(route_ctx *r, ucr_point q)
{
    return ucr_search_memo(r->s, q.y * r->pc->node->width + q.x);
}

/* ucr_canvas_square_ok(@q, empty), asked once per square and route (the canvas
 * does not change while a route is searched). */
static inline bool route_free(route_ctx *r, ucr_point q)
{
    int *m = square_memo(r, q);
    if (m[0] < 0)
        m[0] = ucr_canvas_square_ok(r->pc->cv, q, UCR_CANVAS_EMPTY);
    return m[0];
}

static bool is_goal(const route_ctx *r, ucr_point q);

/* is_goal(), asked once per square and route. */
static inline bool route_goal(route_ctx *r, ucr_point q)
{
    int *m = square_memo(r, q);
    if (m[1] < 0)
        m[1] = is_goal(r, q);
    return m[1];
}

static bool is_goal(const route_ctx *r, ucr_point q)
{
    const ucr_pc_target *t = r->t;
    if (q.x == r->from.x && q.y == r->from.y)
        return false;
    if (t->owner >= UCR_ATTACH_PASSAGE) {
        /* Beside one square of a corridor, to join it there: no other
         * square of anything may touch. */
        if (abs(q.x - t->x) + abs(q.y - t->y) != 1 || owner(r->pc, q) != UCR_CANVAS_EMPTY)
            return false;
        for (int d = 0; d < 4; d++) {
            ucr_point nb = { q.x + UCR_DIR_DX[d], q.y + UCR_DIR_DY[d] };
            if ((nb.x != t->x || nb.y != t->y) && owner(r->pc, nb) != UCR_CANVAS_EMPTY &&
                owner(r->pc, nb) != INT_MIN)
                return false;
        }
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int o = owner(r->pc, (ucr_point){ q.x + dx, q.y + dy });
                if (dx && dy && o != UCR_CANVAS_EMPTY && o != INT_MIN && o != t->owner)
                    return false;
            }
        return true;
    }
    if (t->owner == UCR_CANVAS_EMPTY)
        return q.x >= t->x && q.x < t->x + t->w && q.y >= t->y && q.y < t->y + t->h &&
               ucr_canvas_square_ok(r->pc->cv, q, UCR_CANVAS_EMPTY);
    bool inx = q.x >= t->x && q.x < t->x + t->w, iny = q.y >= t->y && q.y < t->y + t->h;
    bool touch = (inx && (q.y == t->y - 1 || q.y == t->y + t->h)) ||
                 (iny && (q.x == t->x - 1 || q.x == t->x + t->w));
    if (!touch)
        return false;
    if (r->pc->target_walls) {
        ucr_dir wall = q.y < t->y ? UCR_NORTH : q.y >= t->y + t->h ? UCR_SOUTH : q.x < t->x ? UCR_WEST : UCR_EAST;
        if (!(r->pc->target_walls >> wall & 1u))
            return false;
    }
    if (t->avoid && abs(q.x - t->avoid_at.x) <= 2 && abs(q.y - t->avoid_at.y) <= 2)
        return false;
    return ucr_canvas_square_ok(r->pc->cv, q, t->owner) && !beside_crossing(r->pc, q, t->owner);
}

static int heuristic(const ucr_pc_target *t, ucr_point q)
{
    int dx = q.x < t->x ? t->x - q.x : q.x >= t->x + t->w ? q.x - (t->x + t->w - 1) : 0;
    int dy = q.y < t->y ? t->y - q.y : q.y >= t->y + t->h ? q.y - (t->y + t->h - 1) : 0;
    int h = dx + dy;
    return t->owner == UCR_CANVAS_EMPTY ? h : (h > 0 ? h - 1 : 0);
}

/* The approach squares either side of a crossing: empty, their side
 * neighbours empty, and nothing but the crossed elements around them —
 * @behind (already crossed, towards -@d) and @ahead (to be crossed, towards
 * @d), the same element for an ordinary approach, two for the square of rock
 * between two elements crossed in one stretch. */
static bool approach_ok(const ucr_pc *pc, ucr_point p, ucr_dir d, int behind, int ahead)
{
    if (!ucr_canvas_inside(pc->cv, p) || owner(pc, p) != UCR_CANVAS_EMPTY || busy_at(pc, p))
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy)
                continue;
            ucr_point q = { p.x + dx, p.y + dy };
            if (!ucr_canvas_inside(pc->cv, q))
                continue;
            int o = owner(pc, q);
            if (o == UCR_CANVAS_EMPTY)
                continue;
            /* How far the square lies towards @d: 1 ahead, -1 behind, 0 beside. */
            int fwd = dx * UCR_DIR_DX[d] + dy * UCR_DIR_DY[d];
            if ((fwd > 0 && o == ahead) || (fwd < 0 && o == behind))
                continue;
            return false;
        }
    return true;
}

int ucr_pc_cell_index(const ucr_pc *pc, int k, ucr_point p)
{
    const ucr_passage *ps = &g_array_index(pc->node->passages, ucr_passage, k);
    for (guint i = 0; i < ps->cells->len; i++) {
        ucr_point c = g_array_index(ps->cells, ucr_point, i);
        if (c.x == p.x && c.y == p.y)
            return (int)i;
    }
    return -1;
}

static bool split_ok(const ucr_pc *pc, int k, int j);

bool ucr_pc_split_ok(const ucr_pc *pc, int k, int j)
{
    return split_ok(pc, k, j);
}

/* The squares of element @e from @s on, heading @d, that a corridor may run
 * straight under or over (0: it may not cross @e there). */
static int element_span(const ucr_pc *pc, ucr_point s, ucr_dir d, int e)
{
    ucr_point c = s;
    int n = 0;
    ucr_dir across = (ucr_dir)((d + 1) % 4);
    while (owner(pc, s) == e) {
        if (busy_at(pc, s))
            return 0;
        /* Beside the stretch: the element itself or rock, never a third
         * thing (a door's corridor at a room's edge row). */
        int o1 = owner(pc, (ucr_point){ s.x + UCR_DIR_DX[across], s.y + UCR_DIR_DY[across] });
        int o2 = owner(pc, (ucr_point){ s.x - UCR_DIR_DX[across], s.y - UCR_DIR_DY[across] });
        if ((o1 != e && o1 != UCR_CANVAS_EMPTY && o1 != INT_MIN) || (o2 != e && o2 != UCR_CANVAS_EMPTY && o2 != INT_MIN))
            return 0;
        n++;
        s.x += UCR_DIR_DX[d];
        s.y += UCR_DIR_DY[d];
    }
    if (e >= UCR_ATTACH_PASSAGE) {
        /* A corridor is crossed at right angles where it runs straight, and
         * never at its ends. */
        if (n != 1)
            return 0;
        ucr_point l = { c.x + UCR_DIR_DX[across], c.y + UCR_DIR_DY[across] };
        ucr_point rr = { c.x - UCR_DIR_DX[across], c.y - UCR_DIR_DY[across] };
        if (owner(pc, l) != e || owner(pc, rr) != e)
            return 0;
        /* Where a secret door could join it (seed 000, 5), too. */
        int j = ucr_pc_cell_index(pc, e - UCR_ATTACH_PASSAGE, c);
        if (!split_ok(pc, e - UCR_ATTACH_PASSAGE, j))
            return 0;
    }
    return n;
}

/* Whether the route may cross element @e (the canvas owner of a square). */
static bool crossable(const route_ctx *r, int e)
{
    return e != UCR_CANVAS_EMPTY && e != INT_MIN && e != UCR_CANVAS_TENTATIVE && e != r->from_owner &&
           e != r->t->owner;
}

/* Can a corridor at @p heading @d jump straight across the element ahead —
 * or across up to pc->stretch elements one square of rock apart, in one
 * stretch (each is still rolled on the crossing table)?  Returns the
 * number of squares crossed, the rock between included (0: no), the first
 * element and the square it lands on beyond. */
static int jump_span(const route_ctx *r, ucr_point p, ucr_dir d, int *elem, ucr_point *land)
{
    const ucr_pc *pc = r->pc;
    ucr_point q = ucr_point_step(p, d);
    ucr_point s = ucr_point_step(q, d);
    int e = owner(pc, s);
    if (!crossable(r, e) || !approach_ok(pc, q, d, e, e))
        return 0;
    int n = 0, first = e, most = MAX(1, MIN(pc->stretch, UCR_PC_STRETCH_MAX));
    for (int k = 0;; k++) {
        int m = element_span(pc, s, d, e);
        if (!m)
            return 0;
        n += m;
        s.x += m * UCR_DIR_DX[d];
        s.y += m * UCR_DIR_DY[d];
        if (approach_ok(pc, s, d, e, e))
            break;
        /* No landing beyond it: another element past one square of rock,
         * the corridor staying under (or over) between them. */
        ucr_point next = ucr_point_step(s, d);
        int e2 = ucr_canvas_inside(pc->cv, next) ? owner(pc, next) : INT_MIN;
        if (k + 1 >= most || !crossable(r, e2) || !approach_ok(pc, s, d, e, e2))
            return 0;
        s = next;
        n++;
        e = e2;
    }
    if (ucr_point_eq(s, r->from))
        return 0;
    *elem = first;
    *land = s;
    return n;
}

void ucr_pc_path_clear(ucr_pc_path *path)
{
    if (path->cells)
        g_array_free(path->cells, TRUE);
    if (path->jumps)
        g_array_free(path->jumps, TRUE);
    path->cells = path->jumps = NULL;
}

/* Whether some square of the target a route could end on passes @ok (its
 * goal squares: inside an empty target, else the squares beside it). */
static bool some_goal(route_ctx *r, bool (*ok)(route_ctx *, ucr_point))
{
    const ucr_pc_target *t = r->t;
    if (t->owner == UCR_CANVAS_EMPTY) {
        for (int y = t->y; y < t->y + t->h; y++)
            for (int x = t->x; x < t->x + t->w; x++) {
                ucr_point q = { x, y };
                if (ucr_canvas_inside(r->pc->cv, q) && route_goal(r, q) && ok(r, q))
                    return true;
            }
        return false;
    }
    /* The squares beside the rectangle (for a corridor's square, its four
     * neighbours are among them). */
    for (int x = t->x - 1; x <= t->x + t->w; x++)
        for (int y = t->y - 1; y <= t->y + t->h; y++) {
            bool edge = x == t->x - 1 || x == t->x + t->w || y == t->y - 1 || y == t->y + t->h;
            ucr_point q = { x, y };
            if (edge && ucr_canvas_inside(r->pc->cv, q) && route_goal(r, q) && ok(r, q))
                return true;
            if (!edge)
                y = t->y + t->h - 1;   /* skip the inside */
        }
    return false;
}

static bool goal_any(route_ctx *r, ucr_point q)
{
    (void)r, (void)q;
    return true;
}

/* A region of rock larger than this is not worked out (see reachable()). */
#define REGION_CAP 128

/* Whether goal square @q may be reached from the start: it is beside the
 * start, or beside a free square of a region the start opens onto (a large
 * region counts as the same: it may be). */
static bool goal_reachable(route_ctx *r, ucr_point q)
{
    for (int d = 0; d < 4; d++) {
        ucr_point n = ucr_point_step(q, (ucr_dir)d);
        if (ucr_point_eq(n, r->from))
            return true;
        int g = ucr_canvas_region(r->pc->cv, n, REGION_CAP);
        for (int i = 0; g != UCR_CANVAS_REGION_NONE && i < r->nregions; i++)
            if (r->regions[i] == g)
                return true;
    }
    return false;
}

/* Whether a route without crossings could reach the target at all: it walks
 * free squares only, so the start's regions of rock must touch a goal.  A
 * failing search learns that by walking all the rock it reaches, 16 steps
 * a square; the canvas's regions are worked out once a change.  Only ever
 * false where the search would fail: the same routes, sooner. */
static bool reachable(route_ctx *r)
{
    for (int d = 0; d < 4; d++) {
        int g = ucr_canvas_region(r->pc->cv, ucr_point_step(r->from, (ucr_dir)d), REGION_CAP);
        if (g != UCR_CANVAS_REGION_NONE)
            r->regions[r->nregions++] = g;
    }
    return some_goal(r, goal_reachable);
}

static int route_heuristic(void *data, int st)
{
    route_ctx *r = data;
    return heuristic(r->t, ucr_search_square(r->s, st));
}

/* A goal square other than the start ends the route. */
static ucr_search_visit route_visit(void *data, ucr_search *s, const ucr_search_at *at)
{
    (void)s;
    route_ctx *r = data;
    ucr_point p = at->p;
    return !ucr_point_eq(p, r->from) && route_goal(r, p) ? UCR_VISIT_GOAL : UCR_VISIT_GO;
}

/* One square on, or (with crossings) a jump across the element ahead: its
 * aux[0] the element + 1, aux[1] the squares of the path so far. */
static bool route_step(void *data, ucr_search *s, const ucr_search_at *at, ucr_dir d, ucr_search_move *mv)
{
    route_ctx *r = data;
    const ucr_pc *pc = r->pc;
    const ucr_pc_target *t = r->t;
    int w = pc->node->width, h = pc->node->height;
    ucr_point p = at->p, q = ucr_point_step(p, d);
    if (!ucr_canvas_inside(pc->cv, q))
        return false;
    /* The outermost squares are for tunnels that leave the map. */
    bool border = q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1;
    if (border && !(t->owner == UCR_CANVAS_EMPTY && (t->w == w || t->h == h)))
        return false;
    int turn = (d != at->head && !ucr_point_eq(p, r->from)) ? TURN_COST : 0;
    int elem = -1, step = 1;
    ucr_point nq = q;
    if (route_goal(r, q) || route_free(r, q)) {
        mv->cost = 1 + turn;
    } else if (r->crossings) {
        int n = jump_span(r, p, d, &elem, &nq);
        if (n <= 0 || route_goal(r, nq))
            return false;
        mv->cost = n + 2 + turn + UCR_PC_DETOUR;
        step = n + 2;
    } else {
        return false;
    }
    mv->to = ucr_search_state(s, nq, d, 0);
    if (!ucr_search_improves(s, mv->to, at->g + mv->cost))
        return false;   /* before the bound's heuristic: most moves end here */
    /* A caller's bound on the squares: no path through here can keep it
     * (the heuristic never overestimates the squares). */
    int cells = ucr_search_aux(s, at->st, 1) + step;
    if (pc->max_cells > 0 && cells + heuristic(t, nq) > pc->max_cells)
        return false;
    mv->aux[0] = elem >= 0 ? elem + 1 : 0;
    mv->aux[1] = cells;
    return true;
}

/* The route's squares, and its jumps: a jump's squares run from two after
 * the square it leaves (past the approach square) to one before the square
 * it lands on. */
static void route_walk_back(const ucr_search *s, int goal, ucr_pc_path *out)
{
    out->cells = ucr_search_path(s, goal);
    out->jumps = g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump));
    GArray *states = g_array_new(FALSE, FALSE, sizeof(int));
    ucr_search_walk(s, goal, states);
    int at = 0;
    for (guint i = 1; i < states->len; i++) {
        int st = g_array_index(states, int, i);
        ucr_point a = ucr_search_square(s, g_array_index(states, int, i - 1)), b = ucr_search_square(s, st);
        int next = at + abs(b.x - a.x) + abs(b.y - a.y);
        if (ucr_search_aux(s, st, 0)) {
            ucr_pc_jump j = { at + 2, next - 1, ucr_search_aux(s, st, 0) - 1 };
            g_array_append_val(out->jumps, j);
        }
        at = next;
    }
    g_array_free(states, TRUE);
}

static bool shortcuts = true;

/* States a route search takes before it asks whether the route can exist. */
#define SEARCH_FIRST 40

void ucr_pc_set_shortcuts(bool on)
{
    shortcuts = on;
}

/* ---- with crossings: the goal's side walked back ------------------------ */

/* Squares walked back from the goal before giving up (and searching). */
#define CLOSURE_CAP 60

/* The squares from which the goal can be reached (route_step's moves taken
 * backwards): a search that starts in none of them fails. */
typedef struct closure {
    route_ctx *r;
    guint8 *in;      /* per square */
    GArray *todo;    /* ucr_point */
    int n;
} closure;

/* Adds square @p, one a route could stand on (a free square, or an empty
 * one a crossing might land on); false when @p shows the route may exist
 * (the start, a large region) or the closure outgrew its cap. */
static bool closure_add(closure *c, ucr_point p)
{
    const ucr_pc *pc = c->r->pc;
    if (ucr_point_eq(p, c->r->from))
        return false;
    if (!ucr_canvas_inside(pc->cv, p) || c->in[p.y * pc->node->width + p.x])
        return true;
    int g = ucr_canvas_region(pc->cv, p, REGION_CAP);
    if (g == UCR_CANVAS_REGION_LARGE)
        return false;
    if (g == UCR_CANVAS_REGION_NONE && owner(pc, p) != UCR_CANVAS_EMPTY)
        return true;
    c->in[p.y * pc->node->width + p.x] = 1;
    g_array_append_val(c->todo, p);
    return ++c->n <= CLOSURE_CAP;
}

/* Goal square @q is entered by a step from a square beside it: true (open)
 * if one of those shows the route may exist. */
static bool goal_open(route_ctx *r, ucr_point q)
{
    for (int d = 0; d < 4; d++)
        if (!closure_add(r->cl, ucr_point_step(q, (ucr_dir)d)))
            return true;
    return false;
}

/* The square a crossing heading @d must leave from to land on @land (the
 * element behind @land walked back over, then the approach square; or, with
 * pc->stretch, the elements one square of rock apart of one stretch), if
 * jump_span agrees that it does; false if none. */
static bool jump_from(const route_ctx *r, ucr_point land, ucr_dir d, ucr_point *from)
{
    ucr_point q = { land.x - UCR_DIR_DX[d], land.y - UCR_DIR_DY[d] };
    int most = MAX(1, MIN(r->pc->stretch, UCR_PC_STRETCH_MAX));
    for (int k = 0; k < most; k++) {
        int e = owner(r->pc, q);
        if (e == UCR_CANVAS_EMPTY || e == INT_MIN)
            return false;
        while (owner(r->pc, q) == e) {
            q.x -= UCR_DIR_DX[d];
            q.y -= UCR_DIR_DY[d];
        }
        ucr_point p = { q.x - UCR_DIR_DX[d], q.y - UCR_DIR_DY[d] }, at;
        int elem;
        if (jump_span(r, p, d, &elem, &at) > 0 && ucr_point_eq(at, land)) {
            *from = p;
            return true;
        }
        q = p;   /* past the square of rock between, the element before */
    }
    return false;
}

/* Whether a route with crossings might reach the target though no goal
 * touches the start's regions (reachable()): the squares that lead to a
 * goal, by a step or a crossing, walked back from the goal; the route may
 * exist only if they reach the start or a large region.  A failing search
 * with crossings walks every square and crossing it can reach first. */
static bool goal_side_open(route_ctx *r)
{
    const ucr_pc *pc = r->pc;
    closure c = { r, g_new0(guint8, (gsize)pc->node->width * (gsize)pc->node->height),
                  g_array_new(FALSE, FALSE, sizeof(ucr_point)), 0 };
    r->cl = &c;
    bool open = some_goal(r, goal_open);
    for (guint i = 0; !open && i < c.todo->len; i++) {
        ucr_point y = g_array_index(c.todo, ucr_point, i), p;
        bool free = ucr_canvas_region(pc->cv, y, REGION_CAP) != UCR_CANVAS_REGION_NONE;
        for (int d = 0; d < 4 && !open; d++) {
            /* A step into a free square, from any square beside it. */
            if (free && !closure_add(&c, ucr_point_step(y, (ucr_dir)d)))
                open = true;
            /* A crossing that lands on it. */
            if (!open && jump_from(r, y, (ucr_dir)d, &p) && !closure_add(&c, p))
                open = true;
        }
    }
    g_free(c.in);
    g_array_free(c.todo, TRUE);
    return open;
}

bool ucr_pc_route(const ucr_pc *pc, ucr_point from, int from_owner, const ucr_pc_target *t,
                  bool crossings, ucr_pc_path *out)
{
    out->cells = out->jumps = NULL;
    if (!ucr_canvas_square_ok(pc->cv, from, from_owner))
        return false;
    ucr_search *s = ucr_canvas_search(pc->cv);
    route_ctx r = { pc, t, from_owner, from, s, crossings, { 0 }, 0, NULL };
    ucr_search_rules rules = { .queue = UCR_SEARCH_HEAP, .data = &r, .visit = route_visit, .step = route_step,
                               .heuristic = route_heuristic };
    ucr_search_begin(s, &rules);
    if (!some_goal(&r, goal_any))
        return false;
    for (int d = 0; d < 4; d++)
        ucr_search_start(s, &(ucr_search_move){ .to = ucr_search_state(s, from, (ucr_dir)d, 0), .aux = { 0, 1 } });
    /* Most routes that exist are found within a few dozen states; a search
     * still going then asks whether the route can exist at all before it
     * walks the rest of the rock (the same search goes on if it may). */
    int budget = SEARCH_FIRST;
    int goal = ucr_search_run_for(s, &rules, shortcuts ? &budget : NULL);
    if (goal == UCR_SEARCH_PAUSED) {
        int w = pc->node->width, h = pc->node->height;
        bool band = t->owner == UCR_CANVAS_EMPTY && (t->w == w || t->h == h);   /* may use the outermost ring */
        if (!band && !reachable(&r) && (!crossings || !goal_side_open(&r)))
            return false;
        goal = ucr_search_run_inline(s, &rules);
    }
    if (goal < 0)
        return false;
    route_walk_back(s, goal, out);
    return true;
}

/* ---- drawing --------------------------------------------------------- */

static char *element_name(const ucr_pc *pc, int elem)
{
    if (elem >= UCR_ATTACH_PASSAGE)
        return g_strdup("a corridor");
    const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, elem);
    const char *kind = a->kind == UCR_AREA_ROOM ? "room" : a->kind == UCR_AREA_JUNCTION ? "junction" : "landing";
    if (a->key > 0)
        return g_strdup_printf("%s %d", kind, a->key);
    return g_strdup_printf("a %s", kind);
}

static void claim(ucr_pc *pc, int k)
{
    const ucr_passage *p = &g_array_index(pc->node->passages, ucr_passage, k);
    for (guint c = 0; c < p->cells->len; c++) {
        bool crossing = false;
        for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
            crossing |= (int)c >= cr->first && (int)c <= cr->last;
        }
        if (!crossing)
            ucr_canvas_set(pc->cv, g_array_index(p->cells, ucr_point, c), UCR_ATTACH_PASSAGE + k);
    }
}

/* Where a corridor stops at what it would cross: the jump's index (-1:
 * none), what it crosses, the square where, and the roll's result. */
typedef struct {
    int jump, elem, at;
    ucr_pc_cross kind;
} pc_cut;

/* One element a jump crosses: cells [first, last] of the path, its canvas
 * owner; @gap: one square of rock before it, after the jump's element
 * before it (one stretch under or over, UCR_PC_STRETCH_MAX). */
typedef struct {
    int first, last, owner;
    bool gap;
} pc_part;

/* The elements jump @j crosses, in order, read off the canvas (the route
 * keeps only the first). */
static void jump_parts(const ucr_pc *pc, const ucr_pc_path *path, const ucr_pc_jump *j, GArray *parts)
{
    g_array_set_size(parts, 0);
    for (int c = j->first; c <= j->last; c++) {
        int o = owner(pc, g_array_index(path->cells, ucr_point, c));
        if (o == UCR_CANVAS_EMPTY)
            continue;   /* the rock between two of them */
        pc_part *prev = parts->len ? &g_array_index(parts, pc_part, parts->len - 1) : NULL;
        if (prev && prev->owner == o && prev->last == c - 1) {
            prev->last = c;
        } else {
            pc_part part = { c, c, o, prev != NULL };
            g_array_append_val(parts, part);
        }
    }
}

/* seed 000's d10 for crossing element @elem, recorded; superstructure
 * tunnels (force_under) run under, unrolled. */
static ucr_pc_cross cross_roll(ucr_pc *pc, int elem, GString *record, bool *ladder)
{
    *ladder = false;
    if (pc->force_under)
        return UCR_PC_UNDER;
    const ucr_table *table = ucr_tables_need(pc->tables, "numbered-crossing");
    int total;
    const ucr_table_row *row = ucr_table_roll(table, pc->rng, &total);
    ucr_pc_cross res = ucr_pc_cross_row(row, ladder);
    char *name = element_name(pc, elem);
    g_string_append_printf(record, "; crosses %s: d%d=%d: %s%s", name, table->sides, ucr_pc_face(table, total),
                           row->text,
                           res == UCR_PC_UNDER || res == UCR_PC_OVER ? (*ladder ? " (ladders)" : " (stairs)") : "");
    g_free(name);
    return res;
}

/* seed 000: "If a corridor has to cross other corridors or rooms to
 * reach its destination, roll on the following table", once for each,
 * two elements in one stretch too; a secret door or dead end stops the
 * corridor there (cut).  A dead end before the second element of a
 * stretch stops short of the first: the square of rock between them
 * touches the second, and a dead end keeps a square of rock before what it
 * would cross. */
static void crossings_roll(ucr_pc *pc, const ucr_pc_path *path, GString *record, GArray *crossings,
                           GArray *ladders, pc_cut *cut)
{
    GArray *parts = g_array_new(FALSE, FALSE, sizeof(pc_part));
    for (guint i = 0; i < path->jumps->len && cut->jump < 0; i++) {
        jump_parts(pc, path, &g_array_index(path->jumps, ucr_pc_jump, i), parts);
        guint stretch = crossings->len;
        for (guint x = 0; x < parts->len; x++) {
            const pc_part *part = &g_array_index(parts, pc_part, x);
            bool ladder;
            ucr_pc_cross res = cross_roll(pc, part->owner, record, &ladder);
            if (res == UCR_PC_SECRET || res == UCR_PC_DEAD_END) {
                *cut = (pc_cut){ (int)i, part->owner, part->first, res };
                if (res == UCR_PC_DEAD_END && part->gap) {
                    g_string_append(record, ", short of both");
                    g_array_set_size(crossings, stretch);
                    g_array_set_size(ladders, stretch);
                    cut->at = g_array_index(parts, pc_part, 0).first;
                    cut->elem = g_array_index(parts, pc_part, 0).owner;
                }
                break;
            }
            ucr_crossing cr = { part->first, part->last, res == UCR_PC_UNDER ? UCR_CROSS_UNDER : UCR_CROSS_OVER,
                                part->owner >= UCR_ATTACH_PASSAGE ? -1 : part->owner,
                                part->owner >= UCR_ATTACH_PASSAGE ? part->owner - UCR_ATTACH_PASSAGE : -1 };
            g_array_append_val(crossings, cr);
            g_array_append_val(ladders, ladder);
        }
    }
    g_array_free(parts, TRUE);
}

/* A corridor cut short: a dead end one square short of what it would
 * cross, or a secret door into it (a corridor split at a new junction);
 * returns the vertex the corridor ends at. */
static int cut_end(ucr_pc *pc, GArray *cells, GArray *crossings, pc_cut *cut, ucr_pc_end *end)
{
    ucr_node *node = pc->node;
    int end_vertex;
    if (cut->kind == UCR_PC_DEAD_END) {
        /* One square short of what it would cross. */
        g_array_set_size(cells, (guint)(cut->at - 1));
        end_vertex = ucr_node_add_vertex(node, UCR_VERTEX_DEAD_END,
                                         g_array_index(cells, ucr_point, cells->len - 1));
    } else {
        g_array_set_size(cells, (guint)cut->at);
        if (cut->elem >= UCR_ATTACH_PASSAGE) {
            ucr_point s = { 0, 0 };
            ucr_point q = g_array_index(cells, ucr_point, cells->len - 1);
            ucr_point q0 = g_array_index(cells, ucr_point, cells->len - 2);
            s.x = 2 * q.x - q0.x;
            s.y = 2 * q.y - q0.y;
            int k = cut->elem - UCR_ATTACH_PASSAGE;
            int jn = ucr_pc_split(pc, k, ucr_pc_cell_index(pc, k, s), pc->number_junctions,
                                  g_strdup("where a secret door joins this corridor"));
            end->area = jn;
            /* This corridor's own crossings of that corridor may now lie
             * on its second half. */
            int k2 = (int)node->passages->len - 1;
            for (guint x = 0; jn >= 0 && x < crossings->len; x++) {
                ucr_crossing *cr = &g_array_index(crossings, ucr_crossing, x);
                if (cr->passage == k &&
                    ucr_pc_cell_index(pc, k2, g_array_index(cells, ucr_point, cr->first)) >= 0)
                    cr->passage = k2;
            }
        } else {
            end->area = cut->elem;
        }
        if (end->area < 0) {
            /* Cannot happen (the router only crosses splittable
             * squares); stay safe with a dead end short of it. */
            g_array_set_size(cells, cells->len - 1);
            end_vertex = ucr_node_add_vertex(node, UCR_VERTEX_DEAD_END,
                                             g_array_index(cells, ucr_point, cells->len - 1));
            cut->kind = UCR_PC_DEAD_END;
        } else {
            end_vertex = end->area;
        }
    }
    return end_vertex;
}

static ucr_stair stair_kind(bool ladder, bool down)
{
    return ladder ? (down ? UCR_LADDER_DOWN : UCR_LADDER_UP) : (down ? UCR_STAIR_DOWN : UCR_STAIR_UP);
}

/* Stairs or ladders either side of each crossing; the squares around it
 * are kept free of junctions.  Two crossings one square apart (one
 * stretch, cells last + 2 == first: a separate jump leaves an approach
 * square between) share that square: no stairs where both run under (or
 * over), one flight between under and over where they do not. */
static void crossing_stairs(ucr_pc *pc, ucr_passage *p, const GArray *ladders)
{
    for (guint x = 0; x < p->crossings->len; x++) {
        const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
        const ucr_crossing *prev = x ? &g_array_index(p->crossings, ucr_crossing, x - 1) : NULL;
        bool after_prev = prev && prev->last + 2 == cr->first;
        bool before_next = x + 1 < p->crossings->len &&
                           g_array_index(p->crossings, ucr_crossing, x + 1).first == cr->last + 2;
        bool ladder = g_array_index(ladders, bool, x);
        /* seed 000: "there will be stairs just before it crosses the
         * area, and stairs on the other side". */
        bool under = cr->kind == UCR_CROSS_UNDER;
        if (!after_prev || prev->kind != cr->kind) {
            ucr_passage_stairs s1 = { cr->first - 1, stair_kind(ladder, under) };
            g_array_append_val(p->stairs, s1);
        }
        if (!before_next) {
            ucr_passage_stairs s2 = { cr->last + 1, stair_kind(ladder, !under) };
            g_array_append_val(p->stairs, s2);
        }
        for (int c = cr->first - 1; c <= cr->last + 1; c++) {
            ucr_point q = g_array_index(p->cells, ucr_point, c);
            busy_set(pc, q);
            if (cr->passage >= 0 && c >= cr->first && c <= cr->last) {
                /* The crossed corridor keeps its squares either side
                 * free of junctions too. */
                for (int d = 0; d < 4; d++)
                    busy_set(pc, (ucr_point){ q.x + UCR_DIR_DX[d], q.y + UCR_DIR_DY[d] });
            }
        }
    }
}

ucr_pc_end ucr_pc_connect(ucr_pc *pc, ucr_pc_path *path, int from_area, int door,
                          const ucr_pc_target *t, ucr_pc_pending *pending, GString *record)
{
    ucr_node *node = pc->node;
    ucr_pc_end end = { -1, -1, -1, true };
    GArray *cells = path->cells;
    GArray *crossings = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
    GArray *ladders = g_array_new(FALSE, FALSE, sizeof(bool));
    pc_cut cut = { -1, -1, -1, UCR_PC_UNDER };
    crossings_roll(pc, path, record, crossings, ladders, &cut);
    if (pending)
        ucr_canvas_fill(pc->cv, pending->x, pending->y, pending->w, pending->h, UCR_CANVAS_EMPTY);
    int end_vertex;
    if (cut.jump >= 0) {
        end.reached = false;
        if (pending) {
            g_free(pending->rolled);
            pending->rolled = NULL;
        }
        end_vertex = cut_end(pc, cells, crossings, &cut, &end);
    } else if (pending) {
        end.area = ucr_pc_area_add(pc, pending->kind, pending->x, pending->y, pending->w, pending->h,
                                   pending->numbered, pending->rolled);
        pending->rolled = NULL;
        end_vertex = end.area;
    } else if (t->owner == UCR_CANVAS_EMPTY) {
        end_vertex = ucr_node_add_vertex(node, UCR_VERTEX_DEAD_END,
                                         g_array_index(cells, ucr_point, cells->len - 1));
    } else {
        end.area = t->owner;
        end_vertex = t->owner;
    }
    /* from_area's index is unchanged by new areas (they are appended). */
    int k = ucr_node_add_passage(node, NULL, cells, from_area, end_vertex, UCR_EDGE_OPEN);
    path->cells = NULL;
    ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
    if (crossings->len) {
        p->crossings = crossings;
        crossings = NULL;
        crossing_stairs(pc, p, ladders);
    }
    claim(pc, k);
    if (door >= 0)
        ucr_node_add_door(node, from_area, k, (ucr_door_kind)door);
    if (cut.jump >= 0 && cut.kind == UCR_PC_SECRET)
        ucr_node_add_door(node, end.area, k, UCR_DOOR_SECRET);
    end.passage = k;
    end.vertex = end_vertex;
    if (crossings)
        g_array_free(crossings, TRUE);
    g_array_free(ladders, TRUE);
    ucr_pc_path_clear(path);
    return end;
}

ucr_pc_end ucr_pc_stub(ucr_pc *pc, int from_area, ucr_point mouth, int door)
{
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    g_array_append_val(cells, mouth);
    int v = ucr_node_add_vertex(pc->node, UCR_VERTEX_DEAD_END, mouth);
    int k = ucr_node_add_passage(pc->node, pc->cv, cells, from_area, v, UCR_EDGE_OPEN);
    if (door >= 0)
        ucr_node_add_door(pc->node, from_area, k, (ucr_door_kind)door);
    ucr_pc_end end = { k, v, -1, false };
    return end;
}

/* Can passage @k take a junction at cell @j?  Not at an end, a crossing or
 * steps, and the square may touch only the corridor's two halves. */
static bool split_ok(const ucr_pc *pc, int k, int j)
{
    const ucr_passage *m = &g_array_index(pc->node->passages, ucr_passage, k);
    int len = (int)m->cells->len;
    if (j <= 0 || j >= len - 1 || m->kind == UCR_EDGE_BLOCKED)
        return false;
    ucr_point s = g_array_index(m->cells, ucr_point, j);
    if (busy_at(pc, s))
        return false;
    for (guint i = 0; i < m->stairs->len; i++)
        if (g_array_index(m->stairs, ucr_passage_stairs, i).index == j)
            return false;
    for (guint i = 0; m->crossings && i < m->crossings->len; i++) {
        const ucr_crossing *cr = &g_array_index(m->crossings, ucr_crossing, i);
        if (j >= cr->first - 2 && j <= cr->last + 2)
            return false;
    }
    ucr_point a = g_array_index(m->cells, ucr_point, j - 1), b = g_array_index(m->cells, ucr_point, j + 1);
    for (int d = 0; d < 4; d++) {
        ucr_point q = { s.x + UCR_DIR_DX[d], s.y + UCR_DIR_DY[d] };
        if ((q.x == a.x && q.y == a.y) || (q.x == b.x && q.y == b.y))
            continue;
        if (owner(pc, q) != UCR_CANVAS_EMPTY)
            return false;
    }
    return true;
}

int ucr_pc_split(ucr_pc *pc, int k, int j, bool numbered, char *rolled)
{
    ucr_node *node = pc->node;
    if (!split_ok(pc, k, j)) {
        g_free(rolled);
        return -1;
    }
    ucr_point s = g_array_index(g_array_index(node->passages, ucr_passage, k).cells, ucr_point, j);
    int jn = ucr_pc_area_add(pc, UCR_AREA_JUNCTION, s.x, s.y, 1, 1, numbered, rolled);
    int k2 = ucr_node_split_passage(node, k, j, jn);
    claim(pc, k2);
    busy_set(pc, s);
    /* The second half of a walked corridor has been walked, and is
     * checked as the first. */
    if (checked_get(pc, k))
        checked_set(pc, k2);
    if (every_get(pc, k, 0))
        ucr_pc_check_every(pc, k2, every_get(pc, k, 0));
    return jn;
}

/* ---- joins and arrivals ----------------------------------------------- */

/* Areas in a rolled order, nearest @side first (all sides: @side < 0). */
static int *areas_by_edge(const ucr_pc *pc, int side, int *n)
{
    const ucr_node *node = pc->node;
    *n = (int)node->areas->len;
    int *order = g_new(int, *n + 1), *key = g_new(int, *n + 1);
    for (int i = 0; i < *n; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        int dist = side == UCR_NORTH ? a->y : side == UCR_SOUTH ? node->height - a->y - a->h
                   : side == UCR_WEST ? a->x : side == UCR_EAST ? node->width - a->x - a->w : 0;
        order[i] = i;
        key[i] = dist * 64 + ucr_dice_d(pc->rng, 64);
    }
    for (int i = 1; i < *n; i++)
        for (int j = i; j > 0 && key[order[j]] < key[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    g_free(key);
    return order;
}

/* A superstructure tunnel that cannot leave straight (gen/kit/attach.h) is
 * routed to its map edge from the nearest area that can reach it. */
static int edge_routed(ucr_pc *pc, ucr_dir side, const ucr_half *half)
{
    ucr_node *node = pc->node;
    int n;
    int *order = areas_by_edge(pc, side, &n);
    int W = node->width, H = node->height, found = -1;
    ucr_pc_target t = { UCR_CANVAS_EMPTY, side == UCR_EAST ? W - 1 : 0, side == UCR_SOUTH ? H - 1 : 0,
                        side == UCR_NORTH || side == UCR_SOUTH ? W : 1,
                        side == UCR_EAST || side == UCR_WEST ? H : 1, false, { 0, 0 } };
    ucr_pc_path path = { 0 };
    /* Around everything if it can; else across, under what is in the way. */
    for (int cross = 0; cross < 2 && found < 0; cross++)
        for (int i = 0; i < n && found < 0 && i < 8; i++)
            for (int k = 0; k < 4 && found < 0; k++) {
                ucr_point m;
                if (!ucr_pc_mouth(pc, order[i], (ucr_dir)((side + k) % 4), 0, &m))
                    continue;
                if (ucr_pc_route(pc, m, order[i], &t, cross == 1, &path))
                    found = order[i];
            }
    g_free(order);
    if (found < 0)
        return -1;
    pc->force_under = true;
    ucr_pc_end end = ucr_pc_connect(pc, &path, found, -1, &t, NULL, NULL);
    pc->force_under = false;
    g_array_index(node->vertices, ucr_vertex, end.vertex).kind = UCR_VERTEX_EXIT;
    ucr_passage *p = &g_array_index(node->passages, ucr_passage, end.passage);
    if (ucr_half_has(half, UCR_STEP_BLOCKED)) {
        p->kind = UCR_EDGE_BLOCKED;
        p->rubble = (int)p->cells->len - 1;   /* never on a crossing */
    }
    ucr_attach_tunnel_door(node, half, found, end.passage);
    return found;
}

/* A landing that finds no straight corridor beside an area (gen/kit/attach.h)
 * goes where there is space near one, joined by a routed corridor. */
static int landing_routed(ucr_pc *pc, ucr_stair stair)
{
    int n;
    int *order = areas_by_edge(pc, -1, &n);
    int found = -1, routes = 0;
    for (int i = 0; i < n && found < 0 && routes < 24; i++) {
        const ucr_area a = g_array_index(pc->node->areas, ucr_area, order[i]);
        for (int r = 3; r <= 8 && found < 0 && routes < 24; r++)
            for (int d = 0; d < 4 && found < 0 && routes < 24; d++) {
                int lw = d % 2 ? 1 : 2, lh = d % 2 ? 2 : 1;
                int x = d == UCR_EAST ? a.x + a.w + r : d == UCR_WEST ? a.x - r - lw : a.x;
                int y = d == UCR_SOUTH ? a.y + a.h + r : d == UCR_NORTH ? a.y - r - lh : a.y;
                if (!ucr_canvas_clear(pc->cv, x, y, lw, lh, 1))
                    continue;
                ucr_canvas_fill(pc->cv, x, y, lw, lh, UCR_CANVAS_TENTATIVE);
                ucr_pc_target t = { UCR_CANVAS_TENTATIVE, x, y, lw, lh, false, { 0, 0 } };
                ucr_pc_path path;
                for (int s = 0; s < 8 && found < 0; s++) {
                    ucr_point m;
                    if (!ucr_pc_mouth(pc, order[i], (ucr_dir)((d + s) % 4), 0, &m))
                        continue;
                    routes++;
                    /* Around what is drawn, else under it. */
                    if (!ucr_pc_route(pc, m, order[i], &t, s >= 4, &path))
                        continue;
                    ucr_pc_pending pend = { UCR_AREA_STAIRS, x, y, lw, lh, false, NULL };
                    pc->force_under = true;
                    ucr_pc_end end = ucr_pc_connect(pc, &path, order[i], -1, &t, &pend, NULL);
                    pc->force_under = false;
                    found = end.area;
                    ucr_area *land = &g_array_index(pc->node->areas, ucr_area, found);
                    land->stair = stair;
                }
                if (found < 0)
                    ucr_canvas_fill(pc->cv, x, y, lw, lh, UCR_CANVAS_EMPTY);
            }
    }
    g_free(order);
    return found;
}

typedef struct {
    int distance, passage, index;
} corridor_square;

/* A total order (g_array_sort is not stable). */
static int corridor_square_cmp(gconstpointer pa, gconstpointer pb)
{
    const corridor_square *a = pa, *b = pb;
    if (a->distance != b->distance)
        return a->distance < b->distance ? -1 : 1;
    if (a->passage != b->passage)
        return a->passage < b->passage ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* When every area near @ai is walled in by its own corridors: joins the
 * nearest corridor it can reach, at a new junction on it (an area alone
 * by the map edge would leave its tunnel cut off from the node). */
static bool join_nearest_corridor(ucr_pc *pc, int ai)
{
    enum { MAX_ROUTES = 40 };
    ucr_node *node = pc->node;
    const ucr_area self = g_array_index(node->areas, ucr_area, ai);
    /* Candidate squares: the inner squares of every open passage that is
     * not @ai's own, nearest first. */
    GArray *cand = g_array_new(FALSE, FALSE, sizeof(corridor_square));
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if (p->a == ai || p->b == ai || p->kind == UCR_EDGE_BLOCKED)
            continue;
        for (int j = 1; j + 1 < (int)p->cells->len; j++) {
            ucr_point c = g_array_index(p->cells, ucr_point, j);
            corridor_square e = { abs(c.x - self.x) + abs(c.y - self.y), (int)k, j };
            g_array_append_val(cand, e);
        }
    }
    g_array_sort(cand, corridor_square_cmp);
    bool done = false;
    int routes = 0;
    for (guint i = 0; i < cand->len && !done && routes < MAX_ROUTES; i++) {
        int k = g_array_index(cand, corridor_square, i).passage, j = g_array_index(cand, corridor_square, i).index;
        if (!split_ok(pc, k, j))
            continue;
        ucr_point s = g_array_index(g_array_index(node->passages, ucr_passage, k).cells, ucr_point, j);
        ucr_pc_target t = { UCR_ATTACH_PASSAGE + k, s.x, s.y, 1, 1, false, { 0, 0 } };
        for (int d = 0; d < 4 && !done && routes < MAX_ROUTES; d++) {
            ucr_point m;
            ucr_pc_path path;
            if (!ucr_pc_mouth(pc, ai, (ucr_dir)d, 0, &m))
                continue;
            routes++;
            if (!ucr_pc_route(pc, m, ai, &t, true, &path))
                continue;
            int jn = ucr_pc_split(pc, k, j, false, g_strdup("where a corridor joins another"));
            if (jn < 0) {
                ucr_pc_path_clear(&path);
                break;   /* that square cannot take a junction: the next one */
            }
            const ucr_area *a = &g_array_index(node->areas, ucr_area, jn);
            ucr_pc_target tj = { jn, a->x, a->y, 1, 1, false, { 0, 0 } };
            pc->force_under = true;
            ucr_pc_connect(pc, &path, ai, -1, &tj, NULL, NULL);
            pc->force_under = false;
            done = true;
        }
    }
    g_array_free(cand, TRUE);
    return done;
}

/* Joins new area @ai (with nothing yet) to the nearest area it can reach,
 * running under what is in the way, or else to the nearest corridor.
 * Returns false if none. */
static bool join_nearest(ucr_pc *pc, int ai)
{
    const ucr_area self = g_array_index(pc->node->areas, ucr_area, ai);
    int n = (int)pc->node->areas->len, tries = 0;
    int *order = g_new(int, n), *key = g_new(int, n);
    for (int i = 0; i < n; i++) {
        const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, i);
        order[i] = i;
        key[i] = abs(a->x + a->w / 2 - self.x) + abs(a->y + a->h / 2 - self.y);
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && key[order[j]] < key[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    bool done = false;
    for (int i = 0; i < n && !done && tries < 40; i++) {
        if (order[i] == ai)
            continue;
        const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, order[i]);
        ucr_pc_target t = { order[i], a->x, a->y, a->w, a->h, false, { 0, 0 } };
        for (int d = 0; d < 4 && !done; d++) {
            ucr_point m;
            ucr_pc_path path;
            if (!ucr_pc_mouth(pc, ai, (ucr_dir)d, 0, &m))
                continue;
            tries++;
            if (!ucr_pc_route(pc, m, ai, &t, true, &path))
                continue;
            pc->force_under = true;
            ucr_pc_connect(pc, &path, ai, -1, &t, NULL, NULL);
            pc->force_under = false;
            done = true;
        }
    }
    g_free(order);
    g_free(key);
    return done || join_nearest_corridor(pc, ai);
}

/* Last resort for a tunnel from the map edge: it comes in to a junction of
 * its own, which is then joined to the nearest area it can reach. */
static int edge_junction(ucr_pc *pc, ucr_dir side, const ucr_half *half)
{
    ucr_node *node = pc->node;
    int W = node->width, H = node->height;
    int len = side == UCR_NORTH || side == UCR_SOUTH ? W : H;
    int start = ucr_dice_d(pc->rng, len) - 1;
    for (int i = 0; i < len; i++) {
        int k = (start + i) % len;
        if (k < 2 || k > len - 3)
            continue;
        ucr_point e = side == UCR_NORTH ? (ucr_point){ k, 0 } : side == UCR_SOUTH ? (ucr_point){ k, H - 1 }
                      : side == UCR_WEST ? (ucr_point){ 0, k } : (ucr_point){ W - 1, k };
        ucr_dir in = (ucr_dir)((side + 2) % 4);
        ucr_point p1 = { e.x + UCR_DIR_DX[in], e.y + UCR_DIR_DY[in] }, j = { p1.x + UCR_DIR_DX[in], p1.y + UCR_DIR_DY[in] };
        if (!ucr_canvas_clear(pc->cv, j.x, j.y, 1, 1, 1) || !ucr_canvas_square_ok(pc->cv, e, UCR_CANVAS_EMPTY) ||
            !ucr_canvas_square_ok(pc->cv, p1, UCR_CANVAS_EMPTY))
            continue;
        int ai = ucr_pc_area_add(pc, UCR_AREA_JUNCTION, j.x, j.y, 1, 1, false,
                                 g_strdup("where a superstructure tunnel comes in"));
        GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
        g_array_append_val(cells, p1);
        g_array_append_val(cells, e);
        ucr_attach_tunnel_passage(node, pc->cv, cells, ai, half);   /* its last square is e, the exit */
        join_nearest(pc, ai);
        return ai;
    }
    return -1;
}

/* Last resort for a landing: wherever there is space, joined to the
 * nearest area it can reach. */
static int landing_anywhere(ucr_pc *pc, ucr_stair stair)
{
    int W = pc->node->width, H = pc->node->height;
    int start = ucr_dice_d(pc->rng, W * H) - 1;
    for (int i = 0; i < W * H; i++) {
        int c = (start + i) % (W * H), x = c % W, y = c / W;
        if (!ucr_canvas_clear(pc->cv, x, y, 2, 1, 2))
            continue;
        int ai = ucr_pc_area_add(pc, UCR_AREA_STAIRS, x, y, 2, 1, false, NULL);
        g_array_index(pc->node->areas, ucr_area, ai).stair = stair;
        join_nearest(pc, ai);
        return ai;
    }
    return -1;
}

bool ucr_pc_attach(ucr_pc *pc, const ucr_node_request *req)
{
    for (int d = 0; d < 4; d++) {
        const ucr_join_request *j = &req->joins[d];
        if (!j->used)
            continue;
        /* Routed here rather than with gen/kit/attach.h, which knows nothing
         * of crossings. */
        int a = edge_routed(pc, (ucr_dir)d, &j->half);
        if (a < 0)
            a = edge_junction(pc, (ucr_dir)d, &j->half);
        if (a < 0) {
            return false;
        }
        /* Seed 004's superstructure "room" (double 2s or 4s) is a chamber
         * on this tunnel (gen/kit/attach.h); with no room for it, the node is
         * drawn again. */
        if (ucr_half_has(&j->half, UCR_STEP_ROOM_DOOR) || ucr_half_has(&j->half, UCR_STEP_ROOM_OPEN)) {
            int pk = ucr_attach_join_passage(pc->node, (ucr_dir)d, a);
            int ci = pk >= 0 ? ucr_attach_chamber(pc->node, pc->cv, pk, (ucr_dir)d, &j->half, pc->tables, pc->rng)
                             : -1;
            if (ci < 0)
                return false;
            a = ci;
        }
        if (j->link >= 0)
            req->link_area[j->link] = a;
    }
    for (int k = 0; k < req->n_arrivals; k++) {
        int a = landing_routed(pc, req->arrivals[k].stair);
        if (a < 0)
            a = landing_anywhere(pc, req->arrivals[k].stair);
        if (a < 0) {
            return false;
        }
        req->link_area[req->arrivals[k].link] = a;
    }
    return true;
}

void ucr_pc_node_reset(ucr_node *node)
{
    for (guint i = 0; i < node->areas->len; i++)
        g_free(g_array_index(node->areas, ucr_area, i).rolled);
    for (guint i = 0; i < node->passages->len; i++) {
        ucr_passage *p = &g_array_index(node->passages, ucr_passage, i);
        g_array_free(p->cells, TRUE);
        g_array_free(p->stairs, TRUE);
        if (p->crossings)
            g_array_free(p->crossings, TRUE);
    }
    g_array_set_size(node->areas, 0);
    g_array_set_size(node->passages, 0);
    g_array_set_size(node->doors, 0);
    g_array_set_size(node->vertices, 0);
    g_ptr_array_set_size(node->rolls, 0);
    node->unplaced = 0;
}

void ucr_pc_room_size(const ucr_tables *tables, ucr_prng *rng, int *w, int *h, GString *record)
{
    int total = 0;
    const ucr_table_row *row = ucr_table_roll(tables->room_size, rng, &total);
    if (!ucr_table_parse_size(row->text, w, h))
        *w = *h = 3;
    g_string_append_printf(record, "room size %dd%d=%d: %s", tables->room_size->count,
                           tables->room_size->sides, total, row->text);
    /* Which way the room lies is the drawer's choice: a coin. */
    if (*w != *h && ucr_dice_coin(rng)) {
        int t = *w;
        *w = *h;
        *h = t;
    }
}

/* ---- the corridor checks of seeds 000 and 001 ---------------------------- */

/* Marks in @touched (one per area) the rooms that the network of corridors
 * holding passage @k reaches: its passages joined at every end that is not a
 * room.  A side passage to one of them adds no way between rooms. */
static void network_of(const ucr_node *node, int k, char *touched, char *used);

static void network_rooms(const ucr_node *node, int k, char *touched)
{
    char *used = g_new0(char, node->passages->len + 1);
    network_of(node, k, touched, used);
    g_free(used);
}

/* network_rooms(), and in @used (one per passage, zeroed) the passages of
 * that network. */
static void network_of(const ucr_node *node, int k, char *touched, char *used)
{
    int nv = (int)node->vertices->len, np = (int)node->passages->len;
    char *seen = g_new0(char, nv + 1);
    GArray *stack = g_array_new(FALSE, FALSE, sizeof(int));
    g_array_append_val(stack, k);
    used[k] = 1;
    while (stack->len) {
        int q = g_array_index(stack, int, stack->len - 1);
        g_array_set_size(stack, stack->len - 1);
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, q);
        for (int e = 0; e < 2; e++) {
            int v = e ? p->b : p->a;
            if (v < (int)node->areas->len && g_array_index(node->areas, ucr_area, v).kind == UCR_AREA_ROOM) {
                touched[v] = 1;
                continue;
            }
            if (seen[v])
                continue;
            seen[v] = 1;
            for (int r = 0; r < np; r++) {
                const ucr_passage *o = &g_array_index(node->passages, ucr_passage, r);
                if (!used[r] && o->kind != UCR_EDGE_BLOCKED && (o->a == v || o->b == v)) {
                    used[r] = 1;
                    g_array_append_val(stack, r);
                }
            }
        }
    }
    g_array_free(stack, TRUE);
    g_free(seen);
}

/* The nearest rooms on side @d of square @at that the network of passage @k
 * does not reach yet, nearest first; at most @max of them into @out.
 * Returns how many. */
static int rooms_beside(const ucr_pc *pc, ucr_point at, ucr_dir d, int k, int *out, int max)
{
    const ucr_node *node = pc->node;
    int n = 0, dist[8];
    char *touched = g_new0(char, node->areas->len + 1);
    network_rooms(node, k, touched);
    for (guint i = 0; i < node->areas->len; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        if (a->kind != UCR_AREA_ROOM || touched[i])
            continue;
        /* Wholly beyond the square on that side. */
        bool beyond = d == UCR_NORTH ? a->y + a->h <= at.y
                      : d == UCR_SOUTH ? a->y > at.y
                      : d == UCR_WEST ? a->x + a->w <= at.x
                                      : a->x > at.x;
        if (!beyond)
            continue;
        int cx = MAX(a->x, MIN(at.x, a->x + a->w - 1)), cy = MAX(a->y, MIN(at.y, a->y + a->h - 1));
        int dd = abs(cx - at.x) + abs(cy - at.y);
        if (n == max && dd >= dist[max - 1])
            continue;
        int slot = n < max ? n++ : max - 1;
        while (slot > 0 && dist[slot - 1] > dd) {
            out[slot] = out[slot - 1];
            dist[slot] = dist[slot - 1];
            slot--;
        }
        out[slot] = (int)i;
        dist[slot] = dd;
    }
    g_free(touched);
    return n;
}

/* Room sizes to try behind a check's door: as rolled, turned, then a
 * square smaller at a time down to 2 x 2; returns how many. */
static int door_room_sizes(int w, int h, int out[][2])
{
    int n = 0;
    for (int s = 0; s < 4; s++) {
        int a = MAX(w - s, 2), b = MAX(h - s, 2);
        if (n && out[n - 1][0] == a && out[n - 1][1] == b)
            break;
        out[n][0] = a;
        out[n][1] = b;
        n++;
        if (a != b) {
            out[n][0] = b;
            out[n][1] = a;
            n++;
        }
    }
    return n;
}

/* A check's door opens on a new room (seeds 000/001): the room rolled on
 * the room-size table, @gap squares off the corridor on side @d (2-4 first,
 * keeping a wall a door can use, then 1 and 5-6), centred on the door or
 * shifted along the corridor, smaller if it must; the first that a short
 * corridor from @mouth reaches is left UCR_CANVAS_TENTATIVE in @t, @path and
 * @pend.  Appends what it found to @rec; false if nothing fits. */
static bool room_behind_door(ucr_pc *pc, int k, ucr_point at, ucr_dir d, ucr_point mouth, ucr_pc_target *t,
                             ucr_pc_path *path, ucr_pc_pending *pend, GString *rec)
{
    enum { ROUTES = 6 };
    static const int gaps[] = { 2, 3, 4, 1, 5, 6 };
    const ucr_node *node = pc->node;
    GString *size = g_string_new(NULL);
    int w, h, sz[8][2], routes = 0;
    ucr_pc_room_size(pc->tables, pc->rng, &w, &h, size);
    int ns = door_room_sizes(w, h, sz);
    bool found = false, across = d == UCR_NORTH || d == UCR_SOUTH;
    for (int s = 0; s < ns && !found && routes < ROUTES; s++) {
        int rw = sz[s][0], rh = sz[s][1], span = across ? rw : rh;
        for (int g = 0; g < (int)G_N_ELEMENTS(gaps) && !found && routes < ROUTES; g++)
            for (int i = 0; i < span && !found && routes < ROUTES; i++) {
                int lat = (i % 2) ? (i + 1) / 2 : -(i / 2), gap = gaps[g];
                int x = d == UCR_EAST ? at.x + gap + 1 : d == UCR_WEST ? at.x - gap - rw : at.x - (rw - 1) / 2 + lat;
                int y = d == UCR_SOUTH ? at.y + gap + 1 : d == UCR_NORTH ? at.y - gap - rh : at.y - (rh - 1) / 2 + lat;
                if (x < 2 || y < 2 || x + rw > node->width - 2 || y + rh > node->height - 2 ||
                    !ucr_canvas_clear(pc->cv, x, y, rw, rh, 1))
                    continue;
                ucr_canvas_fill(pc->cv, x, y, rw, rh, UCR_CANVAS_TENTATIVE);
                *t = (ucr_pc_target){ UCR_CANVAS_TENTATIVE, x, y, rw, rh, false, { 0, 0 } };
                routes++;
                pc->max_cells = gap + 4;
                found = ucr_pc_route(pc, mouth, UCR_ATTACH_PASSAGE + k, t, false, path);
                pc->max_cells = 0;
                if (found)
                    *pend = (ucr_pc_pending){ UCR_AREA_ROOM, x, y, rw, rh, true, NULL };
                else
                    ucr_canvas_fill(pc->cv, x, y, rw, rh, UCR_CANVAS_EMPTY);
            }
    }
    if (found) {
        g_string_append_printf(rec, "to a new room (%s%s)", size->str,
                               pend->w * pend->h < w * h ? ", smaller, to fit" : "");
        pend->rolled = g_strdup_printf("behind a door off a corridor: %s", size->str);
    }
    g_string_free(size, TRUE);
    return found;
}

/* Whether square @q can carry a connector: inside the map's inner squares,
 * empty, and nothing round it but rock, the squares @ok (@n of them: the
 * cells either side of where it leaves or joins a corridor) and area
 * @room (the room it joins, for its last square; else -1). */
static bool connector_square_ok(const ucr_pc *pc, ucr_point q, const ucr_point *ok, int n, int room)
{
    if (q.x <= 0 || q.y <= 0 || q.x >= pc->cv->w - 1 || q.y >= pc->cv->h - 1 || owner(pc, q) != UCR_CANVAS_EMPTY ||
        busy_at(pc, q))
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ucr_point r = { q.x + dx, q.y + dy };
            int o = owner(pc, r);
            bool fine = o == UCR_CANVAS_EMPTY || o == INT_MIN || (room >= 0 && o == room);
            for (int i = 0; i < n && !fine; i++)
                fine = ucr_point_eq(r, ok[i]);
            if (!fine)
                return false;
        }
    return true;
}

/* Passage @k's cells @j-1, @j, @j+1 (those there) into @out; returns how many. */
static int cells_around(const ucr_pc *pc, int k, int j, ucr_point *out)
{
    const ucr_passage *p = &g_array_index(pc->node->passages, ucr_passage, k);
    int n = 0;
    for (int i = j - 1; i <= j + 1; i++)
        if (i >= 0 && i < (int)p->cells->len)
            out[n++] = g_array_index(p->cells, ucr_point, i);
    return n;
}

/* Whether joining passage @k2's network to passage @k's keeps every loop
 * between rooms (analysis counts a network as one vertex): the same
 * network, or two that share at most one room (sharing more, the two would
 * become one vertex and their loops through those rooms would count as none). */
static bool networks_may_join(const ucr_node *node, int k, int k2)
{
    guint na = node->areas->len, np = node->passages->len;
    char *t1 = g_new0(char, na + 1), *t2 = g_new0(char, na + 1), *u1 = g_new0(char, np + 1),
         *u2 = g_new0(char, np + 1);
    network_of(node, k, t1, u1);
    int shared = 0;
    bool same = u1[k2];
    if (!same) {
        network_of(node, k2, t2, u2);
        for (guint i = 0; i < na; i++)
            shared += t1[i] && t2[i];
    }
    g_free(t1);
    g_free(t2);
    g_free(u1);
    g_free(u2);
    return same || shared <= 1;
}

/* A check's side passage or door that meets what lies straight beside the
 * corridor (another corridor, or a room's wall) within 50 ft: a short
 * connector joined to it there (a corridor at a new junction).  Draws it and
 * returns the corridor's part beyond the check's junction, or -1 (nothing
 * drawn).  Appends what it met to @rec. */
static int straight_join(ucr_pc *pc, int k, int j, ucr_dir d, bool door, GString *rec)
{
    ucr_node *node = pc->node;
    ucr_point at = g_array_index(g_array_index(node->passages, ucr_passage, k).cells, ucr_point, j);
    int n = 1, o = UCR_CANVAS_EMPTY;
    for (; n <= 6; n++) {
        ucr_point q = ucr_point_walk(at, d, n);
        if (!ucr_canvas_inside(pc->cv, q))
            return -1;
        o = owner(pc, q);
        if (o != UCR_CANVAS_EMPTY)
            break;
    }
    if (n < 2 || n > 6 || o == UCR_ATTACH_PASSAGE + k || o == UCR_CANVAS_TENTATIVE || o == INT_MIN)
        return -1;
    ucr_point s = ucr_point_walk(at, d, n), last = ucr_point_walk(at, d, n - 1);
    int k2 = -1, idx = -1;
    if (o >= UCR_ATTACH_PASSAGE) {
        k2 = o - UCR_ATTACH_PASSAGE;
        idx = ucr_pc_cell_index(pc, k2, s);
        if (idx < 0 || !split_ok(pc, k2, idx) || !networks_may_join(node, k, k2))
            return -1;
    } else {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, o);
        if (a->kind != UCR_AREA_ROOM || beside_crossing(pc, last, o))
            return -1;
    }
    for (int i = 1; i < n; i++) {
        ucr_point ok[6];
        int nok = i == 1 ? cells_around(pc, k, j, ok) : 0;
        if (i == n - 1 && k2 >= 0)
            nok += cells_around(pc, k2, idx, ok + nok);
        if (!connector_square_ok(pc, ucr_point_walk(at, d, i), ok, nok, k2 < 0 && i == n - 1 ? o : -1))
            return -1;
    }
    if (!split_ok(pc, k, j))
        return -1;
    int jn = ucr_pc_split(pc, k, j, pc->number_junctions,
                         g_strdup(door ? "where a door opens off the corridor (a check every 60 ft, seeds 000/001)"
                                       : "where a side passage branches off (a check every 60 ft, seeds 000/001)"));
    int tail = (int)node->passages->len - 1;
    int to = o;
    if (k2 >= 0) {
        to = ucr_pc_split(pc, k2, idx, pc->number_junctions,
                          g_strdup("where a side passage off another corridor joins this one"));
        g_string_append_printf(rec, "meets a corridor after %d ft: joins it", (n - 1) * 10);
    } else {
        g_string_append_printf(rec, "to room %d (%d ft)", g_array_index(node->areas, ucr_area, o).key, (n - 1) * 10);
    }
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int i = 1; i < n; i++) {
        ucr_point q = ucr_point_walk(at, d, i);
        g_array_append_val(cells, q);
    }
    const ucr_area *ta = &g_array_index(node->areas, ucr_area, to);
    ucr_pc_target t = { to, ta->x, ta->y, ta->w, ta->h, false, { 0, 0 } };
    ucr_pc_path path = { cells, g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump)) };
    ucr_pc_connect(pc, &path, jn, door ? UCR_DOOR_PLAIN : -1, &t, NULL, rec);
    return tail;
}

/* A side passage from square @j of passage @k on side @d: routed from the
 * square beside it to a room on that side (the pre-connecting reading: it
 * goes somewhere already drawn), else to a new room (@new_rooms, for a door),
 * else a dead end (a side passage), else nothing.  @door: a door at its
 * start.  Returns the new tail passage of @k (after the junction) or -1 when
 * nothing was drawn; appends what became of it to @rec. */
static int side_passage(ucr_pc *pc, int k, int j, ucr_dir d, bool door, bool new_rooms, bool rooms_only,
                        GString *rec)
{
    ucr_node *node = pc->node;
    ucr_point at = g_array_index(g_array_index(node->passages, ucr_passage, k).cells, ucr_point, j);
    ucr_point mouth = ucr_point_step(at, d);
    int from = UCR_ATTACH_PASSAGE + k;
    if (!ucr_canvas_square_ok(pc->cv, mouth, from))
        return rooms_only ? -1 : straight_join(pc, k, j, d, door, rec);
    ucr_pc_path path = { NULL, NULL };
    ucr_pc_target t = { 0 };
    ucr_pc_pending pend = { UCR_AREA_ROOM, 0, 0, 0, 0, true, NULL };
    bool pending = false, found = false;
    int rooms[4], nr = rooms_only ? rooms_beside(pc, at, d, k, rooms, 4) : 0;
    for (int i = 0; i < nr && !found; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, rooms[i]);
        t = (ucr_pc_target){ rooms[i], a->x, a->y, a->w, a->h, false, { 0, 0 } };
        int cx = MAX(a->x, MIN(at.x, a->x + a->w - 1)), cy = MAX(a->y, MIN(at.y, a->y + a->h - 1));
        int direct = abs(cx - at.x) + abs(cy - at.y);
        if (pc->tight_checks)
            pc->max_cells = direct + 12;
        bool routed = direct <= 30 && ucr_pc_route(pc, mouth, from, &t, false, &path);
        pc->max_cells = 0;
        if (!routed)
            continue;
        /* As straight as the seed asks: no winding detour. */
        if ((int)path.cells->len > direct + 12) {
            ucr_pc_path_clear(&path);
            continue;
        }
        found = true;
        g_string_append_printf(rec, "to room %d", a->key);
    }
    if (!found && rooms_only)
        return -1;
    if (!found && door && new_rooms)
        found = pending = room_behind_door(pc, k, at, d, mouth, &t, &path, &pend, rec);
    if (!found && !door) {
        /* Up to 60 ft into the rock, then it stops. */
        for (int len = 6; len >= 2 && !found; len--) {
            ucr_point e = at;
            for (int s = 0; s < len; s++)
                e = ucr_point_step(e, d);
            if (!ucr_canvas_inside(pc->cv, e))
                continue;
            t = (ucr_pc_target){ UCR_CANVAS_EMPTY, e.x, e.y, 1, 1, false, { 0, 0 } };
            found = ucr_pc_route(pc, mouth, from, &t, false, &path) && (int)path.cells->len <= len + 2;
            if (!found)
                ucr_pc_path_clear(&path);
        }
        if (found)
            g_string_append_printf(rec, "a dead end after %d ft", (int)path.cells->len * 10);
    }
    if (!found) {
        int tail = straight_join(pc, k, j, d, door, rec);
        if (tail < 0)
            g_string_append(rec, "nothing fits there");
        return tail;
    }
    int jn = ucr_pc_split(pc, k, j, pc->number_junctions,
                         g_strdup(door ? "where a door opens off the corridor (a check every 60 ft, seeds 000/001)"
                                       : "where a side passage branches off (a check every 60 ft, seeds 000/001)"));
    if (jn < 0) {
        if (pending)
            ucr_canvas_fill(pc->cv, pend.x, pend.y, pend.w, pend.h, UCR_CANVAS_EMPTY);
        g_free(pend.rolled);
        ucr_pc_path_clear(&path);
        g_string_append(rec, " (no junction fits: not drawn)");
        return -1;
    }
    int tail = (int)node->passages->len - 1;
    ucr_pc_connect(pc, &path, jn, door ? UCR_DOOR_PLAIN : -1, &t, pending ? &pend : NULL, rec);
    return tail;
}

/* Whether a way may leave the junction about to stand on cell @j of @p by
 * square @mouth: empty, and touching nothing but that cell and,
 * diagonally, the corridor's cells either side of it (never the corridor
 * again round a bend, nor anything else). */
static bool exit_mouth_ok(const ucr_pc *pc, const ucr_passage *p, int j, ucr_point mouth)
{
    if (!ucr_canvas_inside(pc->cv, mouth) || owner(pc, mouth) != UCR_CANVAS_EMPTY || busy_at(pc, mouth))
        return false;
    ucr_point at = g_array_index(p->cells, ucr_point, j);
    ucr_point a = g_array_index(p->cells, ucr_point, j - 1), b = g_array_index(p->cells, ucr_point, j + 1);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ucr_point q = { mouth.x + dx, mouth.y + dy };
            if ((!dx && !dy) || owner(pc, q) == UCR_CANVAS_EMPTY || owner(pc, q) == INT_MIN)
                continue;
            bool cell = q.x == at.x && q.y == at.y;
            bool side = dx && dy && ((q.x == a.x && q.y == a.y) || (q.x == b.x && q.y == b.y));
            if (!cell && !side)
                return false;
        }
    return true;
}

/* Whether the rock beyond square @mouth (leaving by @d) opens out: at least
 * @need (at most OPEN_BEYOND) squares a corridor could run over, reached
 * from the square past @mouth without crossing anything.  A way rolled from a mouth on a
 * pocket of rock fenced in by corridors finds nothing it may join and no
 * crossing (62% of the ways to "something already there" that ended dead
 * did so); the count stops at OPEN_BEYOND, so this floods no map. */
enum { OPEN_BEYOND = 40, OPEN_FACING = 20 };

static bool rock_opens(const ucr_pc *pc, ucr_point mouth, ucr_dir d, int need)
{
    const ucr_canvas *cv = pc->cv;
    ucr_point seen[OPEN_BEYOND], first = ucr_point_step(mouth, d);
    int n = 0;
    if (first.x <= 0 || first.y <= 0 || first.x >= cv->w - 1 || first.y >= cv->h - 1 || busy_at(pc, first) ||
        !ucr_canvas_square_ok(cv, first, UCR_CANVAS_EMPTY))
        return false;
    seen[n++] = first;
    for (int i = 0; i < n && n < need; i++)
        for (int e = 0; e < 4 && n < need; e++) {
            ucr_point q = ucr_point_step(seen[i], (ucr_dir)e);
            bool known = ucr_point_eq(q, mouth);
            for (int s = 0; s < n && !known; s++)
                known = ucr_point_eq(q, seen[s]);
            if (known || q.x <= 0 || q.y <= 0 || q.x >= cv->w - 1 || q.y >= cv->h - 1 || busy_at(pc, q) ||
                !ucr_canvas_square_ok(cv, q, UCR_CANVAS_EMPTY))
                continue;
            seen[n++] = q;
        }
    return n >= need;
}

/* A check's side passage whose destination the method rolls before its
 * wall (pc->check_aim): rolled once, at the first cell that needs it. */
typedef struct {
    bool wanted, rolled;
    double v[2];     /* the direction it lies in: east, south */
    GString *dice;   /* owned: what the method rolled, for the check's record */
} check_aim;

/* How wall @d lies to the destination rolled first: 1 facing it, -1 facing
 * away, 0 along the corridor. */
static int aim_side(const check_aim *aim, ucr_dir d)
{
    double dot = UCR_DIR_DX[d] * aim->v[0] + UCR_DIR_DY[d] * aim->v[1];
    return dot > 1e-6 ? 1 : dot < -1e-6 ? -1 : 0;
}

/* Whether a side passage whose destination was rolled first (@aim) may
 * leave by square @mouth on wall @d: not facing away from it, and open rock
 * beyond (fewer squares of it on the wall facing it, whose rock the
 * destination itself may bound). */
static bool aimed_wall_ok(const ucr_pc *pc, const check_aim *aim, ucr_point mouth, ucr_dir d)
{
    int side = aim_side(aim, d);
    return side >= 0 && rock_opens(pc, mouth, d, side > 0 ? OPEN_FACING : OPEN_BEYOND);
}

/* A check's exit the method draws (pc->check_exit): where a corridor can
 * leave, on the coin's wall or the other; when the method rolls its
 * destination first (@aim), on the wall facing it, never the one facing
 * away (its way would have to cross or round the corridor it leaves), and
 * only where the rock beyond opens out (rock_opens).  The corridor is split
 * there first.
 * Returns the corridor's part beyond the junction, or -1 (nothing drawn). */
static int method_exit(ucr_pc *pc, int k, int j, ucr_dir ahead, bool left, check_aim *aim, bool door,
                       GString *rec)
{
    ucr_node *node = pc->node;
    if (aim && aim->wanted && !aim->rolled) {
        pc->check_aim(pc->check_data, aim->dice, &aim->v[0], &aim->v[1]);
        aim->rolled = true;
    }
    bool aimed = aim && aim->rolled;
    if (aimed && aim_side(aim, (ucr_dir)((ahead + 3) % 4)))
        left = aim_side(aim, (ucr_dir)((ahead + 3) % 4)) > 0;
    for (int pass = 0; pass < 2; pass++) {
        ucr_dir d = (ucr_dir)((ahead + ((left ^ pass) ? 3 : 1)) % 4);
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        ucr_point at = g_array_index(p->cells, ucr_point, j), mouth = ucr_point_step(at, d);
        ucr_point out = ucr_point_step(mouth, d);
        if (!exit_mouth_ok(pc, p, j, mouth) || !ucr_canvas_inside(pc->cv, out) ||
            owner(pc, out) != UCR_CANVAS_EMPTY || !split_ok(pc, k, j) || (aimed && !aimed_wall_ok(pc, aim, mouth, d)))
            continue;
        int jn = ucr_pc_split(pc, k, j, pc->number_junctions,
                             g_strdup(door ? "where a door opens off the corridor (a check every 60 ft, seeds 000/001)"
                                           : "where a side passage branches off (a check every 60 ft, seeds 000/001)"));
        if (jn < 0)
            continue;
        int tail = (int)node->passages->len - 1;
        checked_set(pc, tail);
        g_string_append_printf(rec, " on the %s wall: ", ucr_dir_name(d));
        pc->check_exit(pc->check_data, jn, d, door, rec);
        return tail;
    }
    g_string_append(rec, ": nothing fits there");
    return -1;
}

/* A check's side passage or door at cell @j of passage @k (heading
 * @ahead): a room on either wall first (the coin's wall before the other),
 * then what the wall alone allows.  Returns the corridor's part beyond the
 * junction, or -1; appends what each wall took to @rec. */
static int check_walls(ucr_pc *pc, int k, int j, ucr_dir ahead, bool left, check_aim *aim, bool door,
                       bool new_rooms, GString *rec)
{
    int tail = -1;
    bool said = false;
    for (int pass = 0; pass < 4 && tail < 0; pass++) {
        if (pass == 2 && !door && pc->check_exit) {
            /* No room beside: the method rolls where it leads; with no
             * wall for that, it meets what lies beside the corridor. */
            GString *try_rec = g_string_new(NULL);
            tail = method_exit(pc, k, j, ahead, left, aim, door, try_rec);
            for (int w = 0; w < 2 && tail < 0; w++) {
                ucr_dir d = (ucr_dir)((ahead + ((left ^ w) ? 3 : 1)) % 4);
                GString *join_rec = g_string_new(NULL);
                if ((tail = straight_join(pc, k, j, d, door, join_rec)) >= 0)
                    g_string_printf(try_rec, " on the %s wall: %s", ucr_dir_name(d), join_rec->str);
                g_string_free(join_rec, TRUE);
            }
            g_string_append(rec, try_rec->str);
            g_string_free(try_rec, TRUE);
            return tail;
        }
        ucr_dir d = (ucr_dir)((ahead + ((left ^ (pass & 1)) ? 3 : 1)) % 4);
        GString *try_rec = g_string_new(NULL);
        tail = side_passage(pc, k, j, d, door, new_rooms, pass < 2, try_rec);
        /* A wall that takes nothing says so (not "west wall: ;"), and the
         * walls tried are listed one after the other. */
        if (tail >= 0 || pass >= 2) {
            g_string_append_printf(rec, "%s%s wall: %s", said ? "; " : " on the ", ucr_dir_name(d),
                                   try_rec->len || tail >= 0 ? try_rec->str : "no room");
            said = true;
        }
        g_string_free(try_rec, TRUE);
    }
    return tail;
}

/* "Every 60 feet or so": a check whose cell @*j takes nothing is tried 10,
 * 20 and 30 ft on, then back, along the corridor (the first cell that takes
 * it, said in @rec; @*j moved there) — round a bend too, on the walls of
 * the stretch that cell is on (a check holding to the rolled cell's own
 * stretch found nothing for 12-16% of doors).  @aim (or NULL): a side
 * passage whose destination is rolled first (method_exit), which opens on
 * the wall facing it only: 40 and 50 ft on and back too (it found nothing
 * in 10% of checks at 30 ft, 7% at 50; clock, tictactoe).  Returns as
 * check_walls(); on no cell at all, @rec holds what the rolled cell's walls
 * took. */
static int check_near(ucr_pc *pc, int k, int *j, ucr_dir ahead, bool left, check_aim *aim, bool door,
                      bool new_rooms, GString *rec)
{
    static const int shifts[] = { 0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5 };
    int nshift = aim && aim->wanted ? (int)G_N_ELEMENTS(shifts) : 7;
    GString *first = g_string_new(NULL);
    int tail = -1;
    for (int i = 0; i < nshift && tail < 0; i++) {
        const ucr_passage *p = &g_array_index(pc->node->passages, ucr_passage, k);
        int jj = *j + shifts[i];
        if (jj < 1 || jj >= (int)p->cells->len - 1 || (i && !split_ok(pc, k, jj)))
            continue;
        /* The walls are those of the stretch the cell is on.  A side
         * passage whose destination the method rolls after its wall
         * (compass's SubMethod II) keeps to the rolled cell's stretch: round
         * a bend it would be one more way to what is already there, which
         * such ways reach less often than the method's own.  One rolled
         * first (clock, tictactoe) picks its wall and goes round. */
        ucr_point a = g_array_index(p->cells, ucr_point, jj - 1), b = g_array_index(p->cells, ucr_point, jj);
        ucr_dir here = b.x > a.x ? UCR_EAST : b.x < a.x ? UCR_WEST : b.y > a.y ? UCR_SOUTH : UCR_NORTH;
        if (i && here != ahead && !door && pc->check_exit && !(aim && aim->wanted))
            continue;
        GString *try_rec = i ? g_string_new(NULL) : first;
        tail = check_walls(pc, k, jj, i ? here : ahead, left, aim, door, new_rooms, try_rec);
        if (tail >= 0) {
            if (i)
                g_string_append_printf(rec, " %d ft %s, at (%d,%d),", 10 * abs(shifts[i]),
                                       shifts[i] > 0 ? "on" : "back", b.x, b.y);
            g_string_append(rec, try_rec->str);
            *j = jj;
        }
        if (i)
            g_string_free(try_rec, TRUE);
    }
    if (tail < 0)
        g_string_append(rec, first->str);
    g_string_free(first, TRUE);
    return tail;
}

void ucr_pc_corridor_checks(ucr_pc *pc, int every, bool new_rooms)
{
    const ucr_table *table = ucr_tables_lookup(pc->tables, "corridor-check");
    ucr_node *node = pc->node;
    if (!table || every < 2)
        return;
    guint drawn = node->passages->len;
    for (guint k0 = 0; k0 < drawn; k0++) {
        int k = (int)k0, step = every_get(pc, k, every), j = step;
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if (p->kind == UCR_EDGE_BLOCKED || checked_get(pc, k))
            continue;
        checked_set(pc, k);
        int walked = 0;
        while (j < (int)g_array_index(node->passages, ucr_passage, k).cells->len - 1) {
            const ucr_passage *q = &g_array_index(node->passages, ucr_passage, k);
            ucr_point prev = g_array_index(q->cells, ucr_point, j - 1), at = g_array_index(q->cells, ucr_point, j);
            int total = 0;
            const ucr_table_row *row = ucr_table_roll(table, pc->rng, &total);
            GString *rec = g_string_new(NULL);
            g_string_printf(rec, "corridor check %d ft along (%d,%d)", (walked + j) * 10, at.x, at.y);
            if (step != every)
                g_string_append_printf(rec, ", on a corridor checked every %d ft", step * 10);
            g_string_append_printf(rec, ": %dd%d=%d: %s", table->count, table->sides, total, row->text);
            bool side = row->tag && strcmp(row->tag, "side") == 0, door = row->tag && strcmp(row->tag, "door") == 0;
            int tail = -1;
            if (side || door) {
                ucr_dir ahead = at.x > prev.x ? UCR_EAST : at.x < prev.x ? UCR_WEST : at.y > prev.y ? UCR_SOUTH : UCR_NORTH;
                /* Which wall: a coin; the other if that one has no room. */
                bool left = ucr_dice_coin(pc->rng);
                check_aim aim = { side && pc->check_exit && pc->check_aim, false, { 0, 0 }, g_string_new(NULL) };
                tail = check_near(pc, k, &j, ahead, left, &aim, door, new_rooms, rec);
                if (aim.rolled && tail < 0)
                    g_string_append_printf(rec, " (its destination, rolled first: %s)", aim.dice->str);
                g_string_free(aim.dice, TRUE);
            }
            g_ptr_array_add(node->rolls, g_string_free(rec, FALSE));
            if (tail >= 0) {
                /* The next check 60 ft beyond the junction, on the rest. */
                walked += j + 1;
                k = tail;
                checked_set(pc, k);
                j = step - 1;
            } else {
                j += step;
            }
        }
    }
}

/* seed 000's d10 for crossing a corridor, which every pre-connecting method
 * reads through this file. */
static const char *const CROSSING_KINDS[] = { "under-stairs", "under-ladder", "over-stairs", "over-ladder",
                                              "secret", "dead-end", NULL };
const ucr_table_need ucr_pc_tables[] = {
    { "numbered-crossing", CROSSING_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};

/* ---- the drawn-as-rolled report -------------------------------------- */

/* The rules of the pre-connecting methods' exits and of the corridor checks
 * (seed 000), for key/honour.c: the methods that use them list them. */
const ucr_honour_rule UCR_PC_HONOUR_EXITS[] = {
    { "an exit or a way: drawn (seed 000, 001)",
      "(?:way [0-9]+ \\(position [0-9]+\\)|exit [0-9]+ \\([a-z]+ wall\\)):",
      { { "walled up", "no free wall: walled up" },
        { "→ already joined", "already joined: no corridor of its own" },
        { "\\(no room for it: the GM adds none\\)", "the GM's added exit found no room" },
        { "→ shares its corridor out of the [a-z]+ wall, which branches", "shares a corridor: branches off it" } } },
    { NULL, NULL, { { NULL, NULL } } },
};

const ucr_honour_rule UCR_PC_HONOUR_CHECKS[] = {
    { "corridor check: a door (seed 000)",
      "corridor check [^:]*: 1d10=[0-9]+: a door",
      { { ": a door on the [a-z]+ wall: " UCR_HONOUR_ROOM_CHECK_MISS "; [a-z]+ wall: " UCR_HONOUR_ROOM_CHECK_MISS "$",
          "nothing fits on either side" },
        { ": a door: nothing fits there$", "nothing fits" } } },
    { "corridor check: a side passage (seed 000)",
      "corridor check [^:]*: 1d10=[0-9]+: a side passage",
      { { ": a side passage on the [a-z]+ wall: " UCR_HONOUR_ROOM_CHECK_MISS "; [a-z]+ wall: " UCR_HONOUR_ROOM_CHECK_MISS "$",
          "nothing fits on either side" },
        { ": a side passage: nothing fits there(?: \\(its destination, rolled first: .*\\))?$", "nothing fits" } } },
    { NULL, NULL, { { NULL, NULL } } },
};
