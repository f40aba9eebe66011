#include "gen/kit/attach.h"

#include <stdlib.h>

ucr_canvas *ucr_attach_canvas(const ucr_node *node)
{
    ucr_canvas *cv = ucr_canvas_new(node->width, node->height);
    for (guint i = 0; i < node->areas->len; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        ucr_canvas_fill(cv, a->x, a->y, a->w, a->h, (int)i);
    }
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        for (guint c = 0; c < p->cells->len; c++)
            ucr_canvas_set(cv, g_array_index(p->cells, ucr_point, c), UCR_ATTACH_PASSAGE + (int)k);
    }
    return cv;
}

int ucr_node_add_area(ucr_node *node, ucr_canvas *cv, const ucr_area *area)
{
    int idx = (int)node->areas->len;
    g_array_append_val(node->areas, *area);
    ucr_vertex v = { UCR_VERTEX_AREA, idx, { 0, 0 } };
    if ((int)node->vertices->len > idx) {
        g_array_insert_val(node->vertices, idx, v);
        for (guint k = 0; k < node->passages->len; k++) {
            ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            if (p->a >= idx)
                p->a++;
            if (p->b >= idx)
                p->b++;
        }
    } else {
        g_array_append_val(node->vertices, v);
    }
    if (cv)
        ucr_canvas_fill(cv, area->x, area->y, area->w, area->h, idx);
    return idx;
}

int ucr_node_add_vertex(ucr_node *node, ucr_vertex_kind kind, ucr_point at)
{
    ucr_vertex v = { kind, -1, at };
    g_array_append_val(node->vertices, v);
    return (int)node->vertices->len - 1;
}

int ucr_node_add_passage(ucr_node *node, ucr_canvas *cv, GArray *cells, int a, int b,
                         ucr_edge_kind kind)
{
    ucr_passage p = { 0 };
    p.cells = cells;
    p.a = a;
    p.b = b;
    p.kind = kind;
    p.rubble = kind == UCR_EDGE_BLOCKED ? (int)cells->len / 2 : -1;
    p.stairs = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
    g_array_append_val(node->passages, p);
    int idx = (int)node->passages->len - 1;
    if (cv)
        for (guint c = 0; c < cells->len; c++)
            ucr_canvas_set(cv, g_array_index(cells, ucr_point, c), UCR_ATTACH_PASSAGE + idx);
    return idx;
}

void ucr_node_add_door(ucr_node *node, int area, int passage, ucr_door_kind kind)
{
    ucr_passage *p = &g_array_index(node->passages, ucr_passage, passage);
    const ucr_area *a = &g_array_index(node->areas, ucr_area, area);
    ucr_point first = g_array_index(p->cells, ucr_point, 0);
    ucr_point cell = (p->a == area && ucr_area_touches(a, first)) ? first
                     : g_array_index(p->cells, ucr_point, p->cells->len - 1);
    ucr_dir side = ucr_area_wall_of(a, cell);
    ucr_door d = { kind, area, passage, cell, side };
    g_array_append_val(node->doors, d);
    if (p->kind == UCR_EDGE_BLOCKED)
        return;
    if (kind == UCR_DOOR_SECRET)
        p->kind = UCR_EDGE_SECRET;
    else if (p->kind == UCR_EDGE_OPEN)
        p->kind = UCR_EDGE_DOOR;
}

/* Can the new squares @cells (and the landing rectangle, if @lw > 0) go on
 * the canvas?  They must lie on rock, and touch nothing but each other and
 * the area @anchor they start from — the first square only, which may also
 * sit diagonally next to the anchor's other mouths. */
static bool footprint_ok(const ucr_canvas *cv, const GArray *cells, int lx, int ly, int lw, int lh,
                         int anchor)
{
    int n = (int)cells->len;
    for (int i = 0; i < n; i++)
        if (!ucr_canvas_square_ok(cv, g_array_index(cells, ucr_point, i), i == 0 ? anchor : UCR_CANVAS_EMPTY))
            return false;
    if (lw > 0) {
        for (int y = ly - 1; y <= ly + lh; y++)
            for (int x = lx - 1; x <= lx + lw; x++) {
                ucr_point q = { x, y };
                if (!ucr_canvas_inside(cv, q) || ucr_canvas_owner(cv, q) != UCR_CANVAS_EMPTY)
                    return false;
            }
        /* The corridor may touch the landing with its last square only. */
        for (int i = 0; i < n - 1; i++) {
            ucr_point p = g_array_index(cells, ucr_point, i);
            if (p.x >= lx - 1 && p.x <= lx + lw && p.y >= ly - 1 && p.y <= ly + lh)
                return false;
        }
    }
    return true;
}

int ucr_attach_landing(ucr_node *node, ucr_canvas *cv, ucr_stair stair, ucr_prng *rng)
{
    return ucr_attach_landing_within(node, cv, stair, 6, NULL, rng);
}

int ucr_attach_landing_within(ucr_node *node, ucr_canvas *cv, ucr_stair stair, int max_len,
                              const bool *from, ucr_prng *rng)
{
    int na = (int)node->areas->len;
    if (na == 0)
        return -1;
    int start = ucr_dice_d(rng, na) - 1, dstart = ucr_dice_d(rng, 4) - 1;
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int len = 2; len <= max_len; len++)
        for (int j = 0; j < na; j++) {
            int ai = (start + j) % na;
            if (from && !from[ai])
                continue;
            const ucr_area a = g_array_index(node->areas, ucr_area, ai);
            for (int dd = 0; dd < 4; dd++) {
                ucr_dir side = (ucr_dir)((dstart + dd) % 4);
                int wl = ucr_area_wall_length(&a, side);
                for (int k0 = 0; k0 < wl; k0++) {
                    int k = (k0 + wl / 2) % wl;   /* middle of the wall first */
                    if (a.diamond && k != wl / 2)
                        continue;                 /* a diamond's doors are at its tips */
                    g_array_set_size(cells, 0);
                    ucr_point p = ucr_area_mouth(&a, side, k);
                    for (int i = 0; i < len; i++) {
                        g_array_append_val(cells, p);
                        p = ucr_point_step(p, side);
                    }
                    /* The landing: two squares on, along the corridor. */
                    ucr_point e = p;
                    ucr_point f = ucr_point_step(e, side);
                    int lx = MIN(e.x, f.x), ly = MIN(e.y, f.y);
                    int lw = abs(e.x - f.x) + 1, lh = abs(e.y - f.y) + 1;
                    if (!footprint_ok(cv, cells, lx, ly, lw, lh, ai))
                        continue;
                    ucr_area land = ucr_area_make(UCR_AREA_STAIRS, lx, ly, lw, lh);
                    land.stair = stair;
                    int li = ucr_node_add_area(node, cv, &land);
                    ucr_node_add_passage(node, cv, cells, ai, li, UCR_EDGE_OPEN);
                    return li;
                }
            }
        }
    g_array_free(cells, TRUE);
    return -1;
}

static int edge_distance(const ucr_node *node, const ucr_area *a, ucr_dir side)
{
    switch (side) {
    case UCR_NORTH: return a->y;
    case UCR_SOUTH: return node->height - (a->y + a->h);
    case UCR_WEST: return a->x;
    default: return node->width - (a->x + a->w);
    }
}

void ucr_attach_tunnel_door(ucr_node *node, const ucr_half *half, int area, int passage)
{
    if (ucr_half_has(half, UCR_STEP_SECRET))
        ucr_node_add_door(node, area, passage, UCR_DOOR_SECRET);
    else if (ucr_half_has(half, UCR_STEP_DOOR))
        ucr_node_add_door(node, area, passage, UCR_DOOR_PLAIN);
}

int ucr_attach_tunnel_passage(ucr_node *node, ucr_canvas *cv, GArray *cells, int area, const ucr_half *half)
{
    bool blocked = ucr_half_has(half, UCR_STEP_BLOCKED);
    int exit = ucr_node_add_vertex(node, UCR_VERTEX_EXIT, g_array_index(cells, ucr_point, cells->len - 1));
    int p = ucr_node_add_passage(node, cv, cells, area, exit, blocked ? UCR_EDGE_BLOCKED : UCR_EDGE_OPEN);
    ucr_attach_tunnel_door(node, half, area, p);
    return p;
}

int ucr_attach_edge(ucr_node *node, ucr_canvas *cv, ucr_dir side, const ucr_half *half, ucr_prng *rng)
{
    int na = (int)node->areas->len;
    if (na == 0)
        return -1;
    /* Areas nearest the edge first; equals in a rolled order. */
    int *order = g_new(int, na);
    int *key = g_new(int, na);
    for (int i = 0; i < na; i++) {
        order[i] = i;
        key[i] = edge_distance(node, &g_array_index(node->areas, ucr_area, i), side) * 64 +
                 ucr_dice_d(rng, 64);
    }
    for (int i = 1; i < na; i++)
        for (int j = i; j > 0 && key[order[j]] < key[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int found = -1;
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int j = 0; j < na && found < 0; j++) {
        int ai = order[j];
        const ucr_area a = g_array_index(node->areas, ucr_area, ai);
        int wl = ucr_area_wall_length(&a, side);
        for (int k0 = 0; k0 < wl && found < 0; k0++) {
            int k = (k0 + wl / 2) % wl;
            if (a.diamond && k != wl / 2)
                continue;   /* a diamond's doors are at its tips */
            g_array_set_size(cells, 0);
            for (ucr_point p = ucr_area_mouth(&a, side, k); ucr_canvas_inside(cv, p); p = ucr_point_step(p, side))
                g_array_append_val(cells, p);
            if (cells->len == 0 || !footprint_ok(cv, cells, 0, 0, 0, 0, ai))
                continue;
            found = ai;
        }
    }
    g_free(order);
    g_free(key);
    if (found < 0) {
        g_array_free(cells, TRUE);
        return -1;
    }
    ucr_attach_tunnel_passage(node, cv, cells, found, half);
    return found;
}

/* ---- seed 004's chambers on the superstructure tunnels ----------------- */

/* Reverses passage @p in place, so that it runs from its vertex b to its
 * vertex a: its stairs are then met the other way round. */
static void passage_reverse(ucr_passage *p)
{
    int n = (int)p->cells->len;
    for (int i = 0; i < n / 2; i++) {
        ucr_point t = g_array_index(p->cells, ucr_point, i);
        g_array_index(p->cells, ucr_point, i) = g_array_index(p->cells, ucr_point, n - 1 - i);
        g_array_index(p->cells, ucr_point, n - 1 - i) = t;
    }
    int t = p->a;
    p->a = p->b;
    p->b = t;
    if (p->rubble >= 0)
        p->rubble = n - 1 - p->rubble;
    for (guint s = 0; s < p->stairs->len; s++) {
        ucr_passage_stairs *st = &g_array_index(p->stairs, ucr_passage_stairs, s);
        st->index = n - 1 - st->index;
        st->stair = ucr_stair_opposite(st->stair);
    }
    for (guint s = 0; s < p->stairs->len / 2; s++) {
        guint o = p->stairs->len - 1 - s;
        ucr_passage_stairs x = g_array_index(p->stairs, ucr_passage_stairs, s);
        g_array_index(p->stairs, ucr_passage_stairs, s) = g_array_index(p->stairs, ucr_passage_stairs, o);
        g_array_index(p->stairs, ucr_passage_stairs, o) = x;
    }
    if (p->crossings) {
        guint m = p->crossings->len;
        for (guint s = 0; s < m; s++) {
            ucr_crossing *c = &g_array_index(p->crossings, ucr_crossing, s);
            int f = c->first;
            c->first = n - 1 - c->last;
            c->last = n - 1 - f;
        }
        for (guint s = 0; s < m / 2; s++) {
            ucr_crossing x = g_array_index(p->crossings, ucr_crossing, s);
            g_array_index(p->crossings, ucr_crossing, s) = g_array_index(p->crossings, ucr_crossing, m - 1 - s);
            g_array_index(p->crossings, ucr_crossing, m - 1 - s) = x;
        }
    }
}

static bool is_exit(const ucr_node *node, int v)
{
    return g_array_index(node->vertices, ucr_vertex, v).kind == UCR_VERTEX_EXIT;
}

int ucr_attach_join_passage(const ucr_node *node, ucr_dir side, int area)
{
    int found = -1;
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        int n = (int)p->cells->len;
        bool out_b = is_exit(node, p->b), out_a = is_exit(node, p->a);
        if (!out_a && !out_b)
            continue;
        ucr_point e = g_array_index(p->cells, ucr_point, out_b ? n - 1 : 0);
        bool on_side = side == UCR_NORTH ? e.y == 0
                       : side == UCR_SOUTH ? e.y == node->height - 1
                       : side == UCR_WEST ? e.x == 0 : e.x == node->width - 1;
        if (!on_side)
            continue;
        if (n > 1) {
            /* The last step goes out through that side (a corner square
             * lies on two). */
            ucr_point q = g_array_index(p->cells, ucr_point, out_b ? n - 2 : 1);
            if (e.x - q.x != UCR_DIR_DX[side] || e.y - q.y != UCR_DIR_DY[side])
                continue;
        }
        int from = out_b ? p->a : p->b;
        bool from_area = g_array_index(node->vertices, ucr_vertex, from).kind == UCR_VERTEX_AREA;
        if (from_area && (area < 0 || g_array_index(node->vertices, ucr_vertex, from).area == area))
            return (int)k;
        if (found < 0 && from_area)
            found = (int)k;
    }
    return found;
}

/* Squares that a diagonal step of some passage draws across (the model:
 * nothing else may use them), marked in @taken (width × height). */
static void diagonal_sides_mark(const ucr_node *node, bool *taken)
{
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        for (guint c = 1; c < p->cells->len; c++) {
            ucr_point a = g_array_index(p->cells, ucr_point, c - 1), b = g_array_index(p->cells, ucr_point, c);
            if (a.x == b.x || a.y == b.y)
                continue;
            taken[a.y * node->width + b.x] = true;
            taken[b.y * node->width + a.x] = true;
        }
    }
}

/* Is cell @i of passage @p inside a crossing's stretch, or beside it (the
 * squares that carry its stairs), or holding stairs or the rubble? */
static bool cell_busy(const ucr_passage *p, int i)
{
    for (guint s = 0; s < p->stairs->len; s++)
        if (g_array_index(p->stairs, ucr_passage_stairs, s).index == i)
            return true;
    for (guint s = 0; p->crossings && s < p->crossings->len; s++) {
        const ucr_crossing *c = &g_array_index(p->crossings, ucr_crossing, s);
        if (i >= c->first - 1 && i <= c->last + 1)
            return true;
    }
    return false;
}

/* Can the rectangle @r sit on passage @pk (from an area, vertex a, to the
 * map edge, vertex b)?  The passage's squares inside it must be one run
 * [*i0, *i1] that leaves at least one square either side, entered and left
 * straight through its walls; every other square of it and around it free
 * rock. */
static bool chamber_fits(const ucr_node *node, const ucr_canvas *cv, const bool *taken, int pk,
                         const ucr_area *r, int *i0, int *i1)
{
    const ucr_passage *p = &g_array_index(node->passages, ucr_passage, pk);
    int n = (int)p->cells->len, lo = -1, hi = -1;
    for (int i = 0; i < n; i++) {
        ucr_point c = g_array_index(p->cells, ucr_point, i);
        if (!ucr_area_contains(r, c))
            continue;
        if (lo < 0)
            lo = i;
        else if (i != hi + 1)
            return false;
        hi = i;
    }
    if (lo < 1 || hi > n - 2)
        return false;
    for (int i = lo - 1; i <= hi + 1; i++) {
        if (cell_busy(p, i))
            return false;
        if (i > lo - 1) {
            ucr_point a = g_array_index(p->cells, ucr_point, i - 1), b = g_array_index(p->cells, ucr_point, i);
            if (a.x != b.x && a.y != b.y)
                return false;   /* no diagonal step into, out of or across it */
        }
    }
    ucr_point before = g_array_index(p->cells, ucr_point, lo - 1);
    ucr_point after = g_array_index(p->cells, ucr_point, hi + 1);
    if (!ucr_area_touches(r, before) || !ucr_area_touches(r, after))
        return false;
    for (int y = r->y - 1; y <= r->y + r->h; y++)
        for (int x = r->x - 1; x <= r->x + r->w; x++) {
            ucr_point q = { x, y };
            if (!ucr_canvas_inside(cv, q))
                return false;
            if (taken[y * node->width + x])
                return false;
            int o = ucr_canvas_owner(cv, q);
            if (o == UCR_CANVAS_EMPTY)
                continue;
            if (o != UCR_ATTACH_PASSAGE + pk)
                return false;
            bool in = ucr_area_contains(r, q);
            if (in)
                continue;   /* the run, checked above */
            if (!ucr_point_eq(q, before) && !ucr_point_eq(q, after))
                return false;
        }
    /* A square the canvas gave to this passage may be shared with another
     * that crosses it: the run's squares hold nothing else. */
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *o = &g_array_index(node->passages, ucr_passage, k);
        if ((int)k == pk)
            continue;
        for (guint c = 0; c < o->cells->len; c++) {
            ucr_point q = g_array_index(o->cells, ucr_point, c);
            if (q.x >= r->x - 1 && q.x <= r->x + r->w && q.y >= r->y - 1 && q.y <= r->y + r->h)
                return false;
        }
    }
    for (guint d = 0; d < node->doors->len; d++) {
        const ucr_door *dr = &g_array_index(node->doors, ucr_door, d);
        if (dr->passage == pk && ucr_area_contains(r, dr->cell))
            return false;
    }
    *i0 = lo;
    *i1 = hi;
    return true;
}

/* Finds a place for a @w × @h chamber on passage @pk: nearest the map edge
 * first (seed 004: the room lies at the end that rolled it, just inside the
 * node's map), the tunnel through its middle first. */
static bool chamber_place(const ucr_node *node, const ucr_canvas *cv, const bool *taken, int pk, int w, int h,
                          ucr_area *r, int *i0, int *i1)
{
    const ucr_passage *p = &g_array_index(node->passages, ucr_passage, pk);
    int n = (int)p->cells->len;
    for (int i = n - 2; i >= 1; i--) {
        ucr_point c = g_array_index(p->cells, ucr_point, i);
        for (int oy0 = 0; oy0 < h; oy0++)
            for (int ox0 = 0; ox0 < w; ox0++) {
                int ox = (ox0 + (w - 1) / 2) % w, oy = (oy0 + (h - 1) / 2) % h;
                *r = ucr_area_make(UCR_AREA_ROOM, c.x - ox, c.y - oy, w, h);
                if (chamber_fits(node, cv, taken, pk, r, i0, i1))
                    return true;
            }
    }
    return false;
}

/* Moves the stairs and crossings of @p at cells after @from to @q (cells
 * from @from + 1 on), and cuts @p's cells to [0, @to]. */
static void passage_split(ucr_passage *p, ucr_passage *q, int to, int from)
{
    int n = (int)p->cells->len;
    for (int i = from + 1; i < n; i++)
        g_array_append_val(q->cells, g_array_index(p->cells, ucr_point, i));
    for (guint s = 0; s < p->stairs->len;) {
        ucr_passage_stairs st = g_array_index(p->stairs, ucr_passage_stairs, s);
        if (st.index > from) {
            st.index -= from + 1;
            g_array_append_val(q->stairs, st);
            g_array_remove_index(p->stairs, s);
        } else {
            s++;
        }
    }
    for (guint s = 0; p->crossings && s < p->crossings->len;) {
        ucr_crossing c = g_array_index(p->crossings, ucr_crossing, s);
        if (c.first > from) {
            c.first -= from + 1;
            c.last -= from + 1;
            if (!q->crossings)
                q->crossings = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
            g_array_append_val(q->crossings, c);
            g_array_remove_index(p->crossings, s);
        } else {
            s++;
        }
    }
    g_array_set_size(p->cells, (guint)to + 1);
}

/* The room sizes to try: as rolled, turned, then a square less each way at
 * a time, down to one square: at most 2 (w + h - 1) of them, so
 * CHAMBER_SIZES_MAX holds any size a table gives (1-12 each, table.h). */
#define CHAMBER_SIZES_MAX (4 * UCR_ROOM_SIDE_MAX)
static int chamber_sizes(int w, int h, int sizes[][2])
{
    int n = 0;
    for (int a = w, b = h; a >= 1 && b >= 1;) {
        sizes[n][0] = a;
        sizes[n][1] = b;
        n++;
        if (a != b) {
            sizes[n][0] = b;
            sizes[n][1] = a;
            n++;
        }
        if (a == 1 && b == 1)
            break;
        if (a >= b && a > 1)
            a--;
        else
            b--;
    }
    return n;
}

/* Owners of what a rerouted tunnel draws before it is in the model. */
#define CHAMBER_NEW (UCR_ATTACH_PASSAGE - 2)
#define CHAMBER_OUT (UCR_ATTACH_PASSAGE - 3)
#define CHAMBER_TAKEN (UCR_ATTACH_PASSAGE - 4)

/* The area @r, @g squares in from map side @side, with its middle square
 * beside @along (the position along that edge): the chamber's place, and
 * @out the straight passage from its wall out to the edge. */
static void chamber_by_edge(const ucr_node *node, ucr_dir side, int along, int g, int w, int h, ucr_area *r,
                            GArray *out)
{
    int W = node->width, H = node->height;
    bool ns = side == UCR_NORTH || side == UCR_SOUTH;
    int x = ns ? along - w / 2 : side == UCR_WEST ? g : W - g - w;
    int y = ns ? (side == UCR_NORTH ? g : H - g - h) : along - h / 2;
    *r = ucr_area_make(UCR_AREA_ROOM, x, y, w, h);
    g_array_set_size(out, 0);
    ucr_point m = ucr_area_mouth(r, side, ucr_area_wall_length(r, side) / 2);
    for (int i = 0; i < g; i++, m = ucr_point_step(m, side))
        g_array_append_val(out, m);
}

/* The squares a corridor from area @area could reach: flooded from each
 * free mouth of its walls over squares a corridor may take; @comp[square]
 * is the index in @mouths of the mouth it is reached from, or -1. */
static int reach_flood(const ucr_node *node, const ucr_canvas *cv, int area, int *comp, ucr_point *mouths)
{
    const ucr_area a = g_array_index(node->areas, ucr_area, area);
    int W = node->width, H = node->height, nm = 0;
    for (int i = 0; i < W * H; i++)
        comp[i] = -1;
    int *queue = g_new(int, W * H);
    for (int sa = 0; sa < 4; sa++) {
        int wl = ucr_area_wall_length(&a, (ucr_dir)sa);
        for (int kk = 0; kk < wl; kk++) {
            if (a.diamond && kk != wl / 2)
                continue;   /* a diamond's doors are at its tips */
            ucr_point m = ucr_area_mouth(&a, (ucr_dir)sa, kk);
            if (!ucr_canvas_square_ok(cv, m, area) || comp[m.y * W + m.x] >= 0)
                continue;
            int head = 0, tail = 0;
            comp[m.y * W + m.x] = nm;
            queue[tail++] = m.y * W + m.x;
            while (head < tail) {
                int c = queue[head++];
                for (int d = 0; d < 4; d++) {
                    ucr_point q = ucr_point_step((ucr_point){ c % W, c / W }, (ucr_dir)d);
                    if (!ucr_canvas_inside(cv, q) || comp[q.y * W + q.x] >= 0 ||
                        !ucr_canvas_square_ok(cv, q, UCR_CANVAS_EMPTY))
                        continue;
                    comp[q.y * W + q.x] = nm;
                    queue[tail++] = q.y * W + q.x;
                }
            }
            mouths[nm++] = m;
        }
    }
    g_free(queue);
    return nm;
}

/* Draws a chamber of one of @sizes by side @side's edge, as near @at
 * (along the edge) as there is room, with its passage @out to the edge and
 * a route @inner to it from a mouth of area @area; false if none is found in
 * a few dozen routes.  Only places that a flood from the area's mouths
 * reaches are routed to. */
static bool chamber_route_from(const ucr_node *node, ucr_canvas *cv, int area, ucr_dir side, int at,
                               int sizes[][2], int ns, ucr_area *r, GArray **inner, GArray *out)
{
    enum { MAX_ROUTES = 40 };
    int W = node->width, len = side == UCR_NORTH || side == UCR_SOUTH ? node->width : node->height;
    int *comp = g_new(int, W * node->height);
    ucr_point mouths[4 * 64];
    const ucr_area a = g_array_index(node->areas, ucr_area, area);
    if (2 * (a.w + a.h) > 4 * 64 || reach_flood(node, cv, area, comp, mouths) == 0) {
        g_free(comp);
        return false;
    }
    int routes = 0;
    bool found = false;
    for (int k = 0; k < ns && !found && routes < MAX_ROUTES; k++)
        for (int g = 1; g <= 6 && !found && routes < MAX_ROUTES; g++)
            for (int j = 0; j < 2 * len && !found && routes < MAX_ROUTES; j++) {
                int along = at + (j % 2 ? -(j + 1) / 2 : j / 2);
                int w = sizes[k][0], h = sizes[k][1];
                chamber_by_edge(node, side, along, g, w, h, r, out);
                if (!ucr_canvas_clear(cv, r->x, r->y, r->w, r->h, 1))
                    continue;
                ucr_canvas_fill(cv, r->x, r->y, r->w, r->h, CHAMBER_NEW);
                bool ok = true;
                for (guint c = 0; c < out->len && ok; c++)
                    ok = ucr_canvas_square_ok(cv, g_array_index(out, ucr_point, c), c ? UCR_CANVAS_EMPTY : CHAMBER_NEW);
                for (guint c = 0; c < out->len && ok; c++)
                    ucr_canvas_set(cv, g_array_index(out, ucr_point, c), CHAMBER_OUT);
                /* To the chamber's inner walls, from the mouth whose flood
                 * reaches the square beyond. */
                for (int sr = 0; sr < 4 && ok && !found && routes < MAX_ROUTES; sr++) {
                    if (sr == (int)side)
                        continue;
                    ucr_point to = ucr_area_mouth(r, (ucr_dir)sr, ucr_area_wall_length(r, (ucr_dir)sr) / 2);
                    ucr_point beyond = ucr_point_step(to, (ucr_dir)sr);
                    if (!ucr_canvas_square_ok(cv, to, CHAMBER_NEW) || !ucr_canvas_inside(cv, beyond))
                        continue;
                    int m = comp[beyond.y * W + beyond.x];
                    if (m < 0)
                        m = comp[to.y * W + to.x];
                    if (m < 0)
                        continue;
                    routes++;
                    *inner = ucr_canvas_route(cv, mouths[m], area, to, CHAMBER_NEW, 3);
                    found = *inner != NULL;
                }
                for (guint c = 0; c < out->len; c++)
                    if (ucr_canvas_owner(cv, g_array_index(out, ucr_point, c)) == CHAMBER_OUT)
                        ucr_canvas_set(cv, g_array_index(out, ucr_point, c), UCR_CANVAS_EMPTY);
                ucr_canvas_fill(cv, r->x, r->y, r->w, r->h, UCR_CANVAS_EMPTY);
            }
    g_free(comp);
    return found;
}

/* The tunnel of @pk is too short for a chamber (its area lies by the edge):
 * it is drawn again, to a chamber in free rock by the edge, as near where it
 * left the map as there is room, and on to the edge — from the same area,
 * else from the area nearest that place that has a way (the first has no
 * wall free towards any room).  Fills @r, @inner, @out and *@from; false if nothing
 * fits. */
static bool chamber_rerouted(const ucr_node *node, ucr_canvas *cv, int pk, ucr_dir side, int sizes[][2],
                             int ns, ucr_area *r, GArray **inner, GArray *out, int *from)
{
    const ucr_passage *p = &g_array_index(node->passages, ucr_passage, pk);
    if (p->stairs->len || (p->crossings && p->crossings->len))
        return false;
    for (guint o = 0; o < node->passages->len; o++) {
        const ucr_passage *op = &g_array_index(node->passages, ucr_passage, o);
        for (guint s = 0; op->crossings && s < op->crossings->len; s++)
            if (g_array_index(op->crossings, ucr_crossing, s).passage == pk)
                return false;
    }
    int area = g_array_index(node->vertices, ucr_vertex, p->a).area;
    ucr_point e = g_array_index(p->cells, ucr_point, p->cells->len - 1);
    for (guint c = 0; c < p->cells->len; c++)
        ucr_canvas_set(cv, g_array_index(p->cells, ucr_point, c), UCR_CANVAS_EMPTY);
    int at = side == UCR_NORTH || side == UCR_SOUTH ? e.x : e.y;
    bool found = chamber_route_from(node, cv, area, side, at, sizes, ns, r, inner, out);
    *from = area;
    if (!found) {
        /* The other areas, nearest the tunnel's old end first. */
        int na = (int)node->areas->len;
        int *order = g_new(int, na), *key = g_new(int, na);
        for (int i = 0; i < na; i++) {
            const ucr_area *b = &g_array_index(node->areas, ucr_area, i);
            order[i] = i;
            key[i] = abs(b->x + b->w / 2 - e.x) + abs(b->y + b->h / 2 - e.y);
        }
        for (int i = 1; i < na; i++)
            for (int j = i; j > 0 && key[order[j]] < key[order[j - 1]]; j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int i = 0; i < na && !found; i++) {
            if (order[i] == area)
                continue;
            found = chamber_route_from(node, cv, order[i], side, at, sizes, ns, r, inner, out);
            if (found)
                *from = order[i];
        }
        g_free(order);
        g_free(key);
    }
    if (!found)
        for (guint c = 0; c < p->cells->len; c++)
            ucr_canvas_set(cv, g_array_index(p->cells, ucr_point, c), UCR_ATTACH_PASSAGE + pk);
    return found;
}

/* A chamber on the tunnel: the biggest size that fits the rock around
 * it, else the tunnel drawn again around one (inner, out and from then
 * say how); false if neither.  Diagonal steps' squares stay clear. */
static bool chamber_fit(ucr_node *node, ucr_canvas *cv, int pk, ucr_dir side, int w, int h, ucr_area *r,
                        int *i0, int *i1, GArray **inner, GArray *out, int *from)
{
    bool *taken = g_new0(bool, (gsize)node->width * node->height);
    diagonal_sides_mark(node, taken);
    int sizes[CHAMBER_SIZES_MAX][2];
    int ns = chamber_sizes(w, h, sizes);
    int k = 0;
    for (; k < ns; k++)
        if (chamber_place(node, cv, taken, pk, sizes[k][0], sizes[k][1], r, i0, i1))
            break;
    bool placed = k < ns;
    if (!placed) {
        /* Diagonal steps' squares read as taken while the tunnel is drawn
         * again. */
        for (int y = 0; y < node->height; y++)
            for (int x = 0; x < node->width; x++)
                if (taken[y * node->width + x] && ucr_canvas_owner(cv, (ucr_point){ x, y }) == UCR_CANVAS_EMPTY)
                    ucr_canvas_set(cv, (ucr_point){ x, y }, CHAMBER_TAKEN);
        placed = chamber_rerouted(node, cv, pk, side, sizes, ns, r, inner, out, from);
        for (int y = 0; y < node->height; y++)
            for (int x = 0; x < node->width; x++)
                if (ucr_canvas_owner(cv, (ucr_point){ x, y }) == CHAMBER_TAKEN)
                    ucr_canvas_set(cv, (ucr_point){ x, y }, UCR_CANVAS_EMPTY);
    }
    g_free(taken);
    return placed;
}

/* The record: the superstructure's dice, then the room size, and what
 * the rock around it left of that size. */
static char *chamber_record(const ucr_half *half, ucr_dir side, int total, const char *size, int w, int h,
                            const ucr_area *r)
{
    char *dice = ucr_roll004_describe(half);
    GString *rec = g_string_new(NULL);
    g_string_append_printf(rec, "superstructure tunnel %s, a chamber on the way: %s; room size 1d20=%d: %s",
                           ucr_dir_name(side), dice, total, size);
    g_free(dice);
    if (r->w * r->h < w * h)
        g_string_append_printf(rec, " (the rock around the tunnel leaves %d×%d ft)", r->w * 10, r->h * 10);
    return g_string_free(rec, FALSE);
}

/* Drawn again: the old squares go, the exit moves with the tunnel;
 * the door the tunnel rolled is set again by the caller. */
static void tunnel_redrawn(ucr_node *node, ucr_passage *p, ucr_passage *q, GArray *inner, GArray *out, int pk,
                           int area, int from)
{
    g_array_free(p->cells, TRUE);
    p->cells = inner;
    q->cells = out;
    g_array_index(node->vertices, ucr_vertex, q->b).at = g_array_index(out, ucr_point, out->len - 1);
    /* ...from another area if its own had no way: the door goes with it. */
    p->a = from;
    for (guint d = 0; d < node->doors->len; d++) {
        ucr_door *dr = &g_array_index(node->doors, ucr_door, d);
        if (dr->passage == pk && dr->area == area) {
            dr->area = from;
            dr->cell = g_array_index(inner, ucr_point, 0);
            dr->side = ucr_area_wall_of(&g_array_index(node->areas, ucr_area, from), dr->cell);
        }
    }
}

/* Crossings of other passages over the part now beyond the chamber
 * (the squares of beyond) move to its passage qk. */
static void crossings_beyond(ucr_node *node, int pk, int qk, const GArray *beyond)
{
    for (guint o = 0; o < node->passages->len; o++) {
        ucr_passage *op = &g_array_index(node->passages, ucr_passage, o);
        for (guint s = 0; op->crossings && s < op->crossings->len; s++) {
            ucr_crossing *c = &g_array_index(op->crossings, ucr_crossing, s);
            if (c->passage != pk)
                continue;
            ucr_point cat = g_array_index(op->cells, ucr_point, c->first);
            for (guint x = 0; x < beyond->len; x++)
                if (ucr_point_eq(cat, g_array_index(beyond, ucr_point, x)))
                    c->passage = qk;
        }
    }
}

/* Doors: those in front of squares now beyond the chamber go with them;
 * seed 004's "door to … room" (double 2s) is the chamber's own door, so
 * the door the tunnel rolled moves from the area to the chamber's wall. */
static void chamber_doors(ucr_node *node, const ucr_half *half, int pk, int qk, int area, int ci,
                          const ucr_area *r, const GArray *beyond)
{
    bool room_door = ucr_half_has(half, UCR_STEP_ROOM_DOOR);
    const ucr_passage *p = &g_array_index(node->passages, ucr_passage, pk);
    ucr_point in_front = g_array_index(p->cells, ucr_point, p->cells->len - 1);
    for (guint d = 0; d < node->doors->len; d++) {
        ucr_door *dr = &g_array_index(node->doors, ucr_door, d);
        if (dr->passage != pk)
            continue;
        for (guint x = 0; x < beyond->len; x++)
            if (ucr_point_eq(dr->cell, g_array_index(beyond, ucr_point, x)))
                dr->passage = qk;
        if (room_door && dr->passage == pk && dr->area == area) {
            dr->area = ci;
            dr->cell = in_front;
            dr->side = ucr_area_wall_of(r, in_front);
            room_door = false;
        }
    }
    if (room_door)
        ucr_node_add_door(node, ci, pk, UCR_DOOR_PLAIN);
}

/* A collapsed passage kept no door kind: the part on this side of the
 * chamber takes its doors' kind. */
static ucr_edge_kind doors_kind(const ucr_node *node, int pk)
{
    ucr_edge_kind kind = UCR_EDGE_OPEN;
    for (guint d = 0; d < node->doors->len; d++) {
        const ucr_door *dr = &g_array_index(node->doors, ucr_door, d);
        if (dr->passage == pk)
            kind = dr->kind == UCR_DOOR_SECRET ? UCR_EDGE_SECRET : kind == UCR_EDGE_SECRET ? kind : UCR_EDGE_DOOR;
    }
    return kind;
}

int ucr_attach_chamber(ucr_node *node, ucr_canvas *canvas, int pk, ucr_dir side, const ucr_half *half,
                       const ucr_tables *tables, ucr_prng *rng)
{
    int total = 0, w = 1, h = 1;
    const ucr_table_row *row = ucr_table_roll(tables->room_size, rng, &total);
    ucr_table_parse_size(row->text, &w, &h);
    ucr_passage *p = &g_array_index(node->passages, ucr_passage, pk);
    if (is_exit(node, p->a))
        passage_reverse(p);
    int area = g_array_index(node->vertices, ucr_vertex, p->a).area, from = area;

    ucr_canvas *cv = canvas ? canvas : ucr_attach_canvas(node);
    int i0 = -1, i1 = -1;
    GArray *inner = NULL, *out = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    ucr_area r = { 0 };
    bool placed = chamber_fit(node, cv, pk, side, w, h, &r, &i0, &i1, &inner, out, &from);
    if (!placed) {
        g_array_free(out, TRUE);
        if (!canvas)
            ucr_canvas_free(cv);
        return -1;
    }

    r.rolled = chamber_record(half, side, total, row->text, w, h, &r);
    int ci = ucr_node_add_area(node, NULL, &r);

    /* The tunnel now runs area → chamber → edge: two passages. */
    p = &g_array_index(node->passages, ucr_passage, pk);
    ucr_passage q = { 0 };
    q.stairs = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
    q.a = ci;
    q.b = p->b;
    q.kind = UCR_EDGE_OPEN;
    q.rubble = -1;
    bool blocked = p->kind == UCR_EDGE_BLOCKED;
    int qk = (int)node->passages->len;
    if (inner) {
        tunnel_redrawn(node, p, &q, inner, out, pk, area, from);
        area = from;
    } else {
        g_array_free(out, TRUE);
        q.cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
        passage_split(p, &q, i0 - 1, i1);
    }
    p->b = ci;
    if (blocked) {
        /* The collapse lies beyond the chamber, in the long tunnel's
         * direction: the chamber stays reached from the node. */
        q.kind = UCR_EDGE_BLOCKED;
        q.rubble = (int)q.cells->len / 2;
        p->rubble = -1;
        p->kind = UCR_EDGE_OPEN;
    }
    g_array_append_val(node->passages, q);
    p = &g_array_index(node->passages, ucr_passage, pk);
    /* The canvas as the node now stands. */
    for (guint c = 0; c < p->cells->len; c++)
        ucr_canvas_set(cv, g_array_index(p->cells, ucr_point, c), UCR_ATTACH_PASSAGE + pk);
    ucr_canvas_fill(cv, r.x, r.y, r.w, r.h, ci);
    for (guint c = 0; c < q.cells->len; c++)
        ucr_canvas_set(cv, g_array_index(q.cells, ucr_point, c), UCR_ATTACH_PASSAGE + qk);
    if (!canvas)
        ucr_canvas_free(cv);

    crossings_beyond(node, pk, qk, q.cells);
    chamber_doors(node, half, pk, qk, area, ci, &r, q.cells);
    if (blocked)
        p->kind = doors_kind(node, pk);
    return ci;
}
