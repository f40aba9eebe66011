#include "gen/kit/canvas.h"

#include "core/heap.h"

#include <limits.h>
#include <stdlib.h>



ucr_point ucr_point_step(ucr_point p, ucr_dir dir)
{
    ucr_point q = { p.x + UCR_DIR_DX[dir], p.y + UCR_DIR_DY[dir] };
    return q;
}

ucr_point ucr_point_walk(ucr_point p, ucr_dir dir, int n)
{
    ucr_point q = { p.x + UCR_DIR_DX[dir] * n, p.y + UCR_DIR_DY[dir] * n };
    return q;
}

ucr_canvas *ucr_canvas_new(int w, int h)
{
    ucr_canvas *c = g_new0(ucr_canvas, 1);
    c->w = w;
    c->h = h;
    c->owner = g_new(int, (gsize)w * (gsize)h);
    for (int i = 0; i < w * h; i++)
        c->owner[i] = UCR_CANVAS_EMPTY;
    return c;
}

void ucr_canvas_free(ucr_canvas *c)
{
    if (!c)
        return;
    g_free(c->owner);
    g_free(c);
}

int ucr_canvas_width(const ucr_canvas *c) { return c->w; }
int ucr_canvas_height(const ucr_canvas *c) { return c->h; }

void ucr_canvas_set(ucr_canvas *c, ucr_point p, int owner)
{
    if (ucr_canvas_inside(c, p))
        c->owner[p.y * c->w + p.x] = owner;
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

/* A square may carry the corridor if it is empty, inside, and touches nothing
 * but rock.  The first and last squares (mouths) may touch their own area
 * @anchor, and diagonally the other mouths of that area: a junction's four
 * mouths sit diagonally next to each other. */
static bool touches_anchor(const ucr_canvas *c, ucr_point q, int anchor)
{
    for (int d = 0; d < 4; d++)
        if (ucr_canvas_owner(c, ucr_point_step(q, (ucr_dir)d)) == anchor)
            return true;
    return false;
}

bool ucr_canvas_square_ok(const ucr_canvas *c, ucr_point p, int anchor)
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

GArray *ucr_canvas_route(const ucr_canvas *c, ucr_point from, int from_owner,
                         ucr_point to, int to_owner, int turn_cost)
{
    if (!ucr_canvas_inside(c, from) || !ucr_canvas_inside(c, to))
        return NULL;
    if (!ucr_canvas_square_ok(c, from, from_owner) || !ucr_canvas_square_ok(c, to, to_owner))
        return NULL;
    /* States are (square, heading); the heading lets turns cost extra. */
    int nstates = c->w * c->h * 4;
    int *dist = g_new(int, nstates);
    int *prev = g_new(int, nstates);
    for (int i = 0; i < nstates; i++) {
        dist[i] = INT_MAX;
        prev[i] = -1;
    }
    GArray *heap = g_array_new(FALSE, FALSE, sizeof(ucr_heap_item));
    int start_cell = from.y * c->w + from.x;
    for (int d = 0; d < 4; d++) {
        dist[start_cell * 4 + d] = 0;
        ucr_heap_push(heap, abs(from.x - to.x) + abs(from.y - to.y), start_cell * 4 + d);
    }
    int goal_state = -1;
    while (heap->len) {
        ucr_heap_item it = ucr_heap_pop(heap);
        int st = it.state, cell = st / 4, head = st % 4;
        ucr_point p = { cell % c->w, cell / c->w };
        int g = dist[st];
        if (it.prio - (abs(p.x - to.x) + abs(p.y - to.y)) > g)
            continue;   /* stale entry */
        if (p.x == to.x && p.y == to.y) {
            goal_state = st;
            break;
        }
        for (int d = 0; d < 4; d++) {
            ucr_point q = { p.x + UCR_DIR_DX[d], p.y + UCR_DIR_DY[d] };
            if (!ucr_canvas_inside(c, q))
                continue;
            bool is_goal = q.x == to.x && q.y == to.y;
            if (!is_goal && !ucr_canvas_square_ok(c, q, UCR_CANVAS_EMPTY))
                continue;
            int step = 1 + (d != head && !(p.x == from.x && p.y == from.y) ? turn_cost : 0);
            int ns = (q.y * c->w + q.x) * 4 + d;
            if (g + step < dist[ns]) {
                dist[ns] = g + step;
                prev[ns] = st;
                ucr_heap_push(heap, g + step + abs(q.x - to.x) + abs(q.y - to.y), ns);
            }
        }
    }
    GArray *path = NULL;
    if (goal_state >= 0) {
        GArray *rev = g_array_new(FALSE, FALSE, sizeof(ucr_point));
        for (int st = goal_state; st >= 0; st = prev[st]) {
            int cell = st / 4;
            ucr_point p = { cell % c->w, cell / c->w };
            g_array_append_val(rev, p);
        }
        path = g_array_sized_new(FALSE, FALSE, sizeof(ucr_point), rev->len);
        for (int i = (int)rev->len - 1; i >= 0; i--)
            g_array_append_val(path, g_array_index(rev, ucr_point, i));
        g_array_free(rev, TRUE);
    }
    g_array_free(heap, TRUE);
    g_free(dist);
    g_free(prev);
    return path;
}
