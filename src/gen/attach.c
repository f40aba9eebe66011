#include "gen/attach.h"

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
    for (int i = 0; i < n; i++) {
        ucr_point p = g_array_index(cells, ucr_point, i);
        if (!ucr_canvas_inside(cv, p) || ucr_canvas_owner(cv, p) != UCR_CANVAS_EMPTY)
            return false;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                ucr_point q = { p.x + dx, p.y + dy };
                if ((!dx && !dy) || !ucr_canvas_inside(cv, q))
                    continue;
                int o = ucr_canvas_owner(cv, q);
                if (o == UCR_CANVAS_EMPTY)
                    continue;
                if (i == 0 && o == anchor)
                    continue;
                if (i == 0 && dx && dy) {
                    bool beside_anchor = false;
                    for (int d = 0; d < 4; d++)
                        beside_anchor |= ucr_canvas_owner(cv, ucr_point_step(q, (ucr_dir)d)) == anchor;
                    if (beside_anchor)
                        continue;
                }
                return false;
            }
    }
    if (lw > 0) {
        for (int y = ly - 1; y <= ly + lh; y++)
            for (int x = lx - 1; x <= lx + lw; x++) {
                ucr_point q = { x, y };
                bool inside = x >= lx && x < lx + lw && y >= ly && y < ly + lh;
                if (!ucr_canvas_inside(cv, q))
                    return false;
                if (ucr_canvas_owner(cv, q) == UCR_CANVAS_EMPTY)
                    continue;
                (void)inside;
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
                    ucr_area land = { 0 };
                    land.kind = UCR_AREA_STAIRS;
                    land.x = lx;
                    land.y = ly;
                    land.w = lw;
                    land.h = lh;
                    land.stair = stair;
                    land.link = -1;
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
