#include "gen/kit/canvas.h"
#include "gen/kit/search_inline.h"


#include <limits.h>
#include <stdlib.h>
#include <string.h>



ucr_search *ucr_canvas_search(const ucr_canvas *cc)
{
    ucr_canvas *c = (ucr_canvas *)cc;   /* made on first use, like a cache */
    if (!c->search)
        c->search = ucr_search_new(c->w, c->h);
    return c->search;
}

ucr_canvas *ucr_canvas_new(int w, int h)
{
    ucr_canvas *c = g_new0(ucr_canvas, 1);
    c->w = w;
    c->h = h;
    c->owner = g_new(int, (gsize)w * (gsize)h);
    for (int i = 0; i < w * h; i++)
        c->owner[i] = UCR_CANVAS_EMPTY;
    c->busy = g_new0(guint8, (gsize)w * (gsize)h);
    /* The search and the regions are made when first asked for
     * (ucr_canvas_search, ucr_canvas_region): a pips node, and most of the
     * canvases the superstructure tries, never route. */
    c->version = 1;   /* != region_at: nothing worked out yet */
    return c;
}

void ucr_canvas_free(ucr_canvas *c)
{
    if (!c)
        return;
    g_free(c->owner);
    g_free(c->busy);
    g_free(c->region);
    g_free(c->region_at);
    g_free(c->queue);
    ucr_search_free(c->search);
    g_free(c);
}

int ucr_canvas_width(const ucr_canvas *c) { return c->w; }
int ucr_canvas_height(const ucr_canvas *c) { return c->h; }

void ucr_canvas_set(ucr_canvas *c, ucr_point p, int owner)
{
    if (ucr_canvas_inside(c, p) && c->owner[p.y * c->w + p.x] != owner) {
        c->owner[p.y * c->w + p.x] = owner;
        c->nregions = 0;   /* the labels of the last version are void */
        if (++c->version == 0) {
            /* After 2^32 changes: no old label may pass for a new one. */
            if (c->region_at)
                memset(c->region_at, 0, (size_t)c->w * (size_t)c->h * sizeof *c->region_at);
            c->version = 1;
        }
    }
}

void ucr_canvas_busy_set(ucr_canvas *c, ucr_point p, bool on)
{
    if (ucr_canvas_inside(c, p))
        c->busy[p.y * c->w + p.x] = on;
}

void ucr_canvas_busy_copy(ucr_canvas *dst, const ucr_canvas *src)
{
    g_return_if_fail(dst->w == src->w && dst->h == src->h);
    memcpy(dst->busy, src->busy, (size_t)src->w * (size_t)src->h);
}

void ucr_canvas_fill(ucr_canvas *c, int x, int y, int w, int h, int owner)
{
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++)
            ucr_canvas_set(c, (ucr_point){ i, j }, owner);
}

bool ucr_canvas_clear(const ucr_canvas *c, int x, int y, int w, int h, int margin)
{
    for (int j = y - margin; j < y + h + margin; j++)
        for (int i = x - margin; i < x + w + margin; i++)
            if (ucr_canvas_owner(c, (ucr_point){ i, j }) != UCR_CANVAS_EMPTY)
                return false;
    return true;
}

/* Whether a square beside @q is owned by @a or @b. */
static bool touches_either(const ucr_canvas *c, ucr_point q, int a, int b)
{
    for (int d = 0; d < 4; d++) {
        int o = ucr_canvas_owner(c, ucr_point_step(q, (ucr_dir)d));
        if (o == a || o == b)
            return true;
    }
    return false;
}

/* A square may carry the corridor if it is empty, inside, and touches nothing
 * but rock.  A mouth may touch its own areas @a and @b side by side, and
 * diagonally what sits beside them (their other mouths: a junction's four
 * mouths sit diagonally next to each other).  @a UCR_CANVAS_EMPTY: no area. */
static bool square_ok_with(const ucr_canvas *c, ucr_point p, int a, int b)
{
    if (ucr_canvas_owner(c, p) != UCR_CANVAS_EMPTY)
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy)
                continue;
            ucr_point q = { p.x + dx, p.y + dy };
            if (!ucr_canvas_inside(c, q))
                continue;   /* the map edge is rock */
            int o = ucr_canvas_owner(c, q);
            if (o == UCR_CANVAS_EMPTY)
                continue;
            if (a != UCR_CANVAS_EMPTY) {
                if ((o == a || o == b) && (!dx || !dy))
                    continue;
                if (dx && dy && touches_either(c, q, a, b))
                    continue;
            }
            return false;
        }
    return true;
}

bool ucr_canvas_square_ok(const ucr_canvas *c, ucr_point p, int anchor)
{
    return square_ok_with(c, p, anchor, anchor);
}

bool ucr_canvas_square_between(const ucr_canvas *c, ucr_point p, int a, int b)
{
    return square_ok_with(c, p, a, b);
}

/* The rules of ucr_canvas_route: A* towards @to, a turn costing @turn_cost
 * more except on the first square. */
typedef struct {
    const ucr_canvas *c;
    ucr_point from, to;
    int turn_cost;
} canvas_route;

static int canvas_heuristic(void *data, int st)
{
    const canvas_route *r = data;
    ucr_point p = ucr_search_square(ucr_canvas_search(r->c), st);
    return abs(p.x - r->to.x) + abs(p.y - r->to.y);
}

static ucr_search_visit canvas_visit(void *data, ucr_search *s, const ucr_search_at *at)
{
    (void)s;
    const canvas_route *r = data;
    return ucr_point_eq(at->p, r->to) ? UCR_VISIT_GOAL : UCR_VISIT_GO;
}

static bool canvas_step(void *data, ucr_search *s, const ucr_search_at *at, ucr_dir d, ucr_search_move *mv)
{
    const canvas_route *r = data;
    ucr_point p = at->p, q = ucr_point_step(p, d);
    if (!ucr_canvas_inside(r->c, q))
        return false;
    if (!ucr_point_eq(q, r->to)) {
        /* Asked once a square and search: each square is reached from four sides in four headings. */
        int *m = ucr_search_memo(s, q.y * r->c->w + q.x);
        if (m[0] < 0)
            m[0] = ucr_canvas_square_ok(r->c, q, UCR_CANVAS_EMPTY);
        if (!m[0])
            return false;
    }
    mv->to = ucr_search_state(s, q, d, 0);
    mv->cost = 1 + (d != at->head && !ucr_point_eq(p, r->from) ? r->turn_cost : 0);
    return true;
}

GArray *ucr_canvas_route(const ucr_canvas *c, ucr_point from, int from_owner,
                         ucr_point to, int to_owner, int turn_cost)
{
    if (!ucr_canvas_inside(c, from) || !ucr_canvas_inside(c, to))
        return NULL;
    if (!ucr_canvas_square_ok(c, from, from_owner) || !ucr_canvas_square_ok(c, to, to_owner))
        return NULL;
    canvas_route r = { c, from, to, turn_cost };
    ucr_search_rules rules = { .queue = UCR_SEARCH_HEAP, .data = &r, .visit = canvas_visit,
                               .step = canvas_step, .heuristic = canvas_heuristic };
    ucr_search *s = ucr_canvas_search(c);
    ucr_search_begin(s, &rules);
    for (int d = 0; d < 4; d++)
        ucr_search_start(s, &(ucr_search_move){ .to = ucr_search_state(s, from, (ucr_dir)d, 0) });
    int goal = ucr_search_run_inline(s, &rules);
    return goal >= 0 ? ucr_search_path(s, goal) : NULL;
}

/* ---- regions of rock ---------------------------------------------------- */

/* The label of square @i, or REGION_UNKNOWN if not worked out since the
 * canvas last changed. */
#define REGION_UNKNOWN (-2)

static inline int region_get(const ucr_canvas *c, int i)
{
    return c->region_at[i] == c->version ? c->region[i] : REGION_UNKNOWN;
}

static inline void region_put(ucr_canvas *c, int i, int label)
{
    c->region_at[i] = c->version;
    c->region[i] = label;
}

static bool region_square(const ucr_canvas *c, ucr_point p)
{
    return p.x > 0 && p.y > 0 && p.x < c->w - 1 && p.y < c->h - 1 && ucr_canvas_square_ok(c, p, UCR_CANVAS_EMPTY);
}

/* Labels @p's region (a flood over free squares).  Past @cap squares, or on
 * meeting a square already known to lie in a large region, every square
 * reached is marked large and the flood stops: its frontier stays unknown,
 * and a later flood from there meets the large squares and stops too. */
static int region_flood(ucr_canvas *c, int start, int cap)
{
    int id = c->nregions++, n = 0, head = 0, label = id;
    region_put(c, start, id);
    c->queue[n++] = start;
    while (head < n && label == id) {
        int i = c->queue[head++];
        ucr_point p = { i % c->w, i / c->w };
        for (int d = 0; d < 4 && label == id; d++) {
            ucr_point q = ucr_point_step(p, (ucr_dir)d);
            int j = q.y * c->w + q.x;
            if (!ucr_canvas_inside(c, q))
                continue;
            int was = region_get(c, j);
            if (was == UCR_CANVAS_REGION_LARGE)
                label = UCR_CANVAS_REGION_LARGE;
            else if (was == REGION_UNKNOWN) {
                bool free = region_square(c, q);
                region_put(c, j, free ? id : UCR_CANVAS_REGION_NONE);
                if (free && (c->queue[n++] = j, n > cap))
                    label = UCR_CANVAS_REGION_LARGE;
            }
        }
    }
    if (label != id)
        for (int k = 0; k < n; k++)
            region_put(c, c->queue[k], label);
    return label;
}

int ucr_canvas_region(const ucr_canvas *cc, ucr_point p, int cap)
{
    ucr_canvas *c = (ucr_canvas *)cc;   /* the labels are a cache */
    if (!ucr_canvas_inside(c, p))
        return UCR_CANVAS_REGION_NONE;
    if (!c->region_at) {
        gsize n = (gsize)c->w * (gsize)c->h;
        c->region = g_new(int, n);
        c->queue = g_new(int, n);
        c->region_at = g_new0(guint32, n);
    }
    int i = p.y * c->w + p.x;
    int label = region_get(c, i);
    if (label == REGION_UNKNOWN) {
        label = region_square(c, p) ? region_flood(c, i, cap) : UCR_CANVAS_REGION_NONE;
        region_put(c, i, label);
    }
    return label;
}
