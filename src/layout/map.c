#include "layout/map.h"

#include <math.h>
#include <string.h>

#include "render/fonts.h"
#include "layout/symbols.h"

/* Which element owns each square of the map: areas are their index, passage
 * k is PASSAGE+k, rock is -1. */
enum { PASSAGE = 10000 };

static bool crossing_at(const ucr_passage *p, int k)
{
    for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
        const ucr_crossing *c = &g_array_index(p->crossings, ucr_crossing, x);
        if (k >= c->first && k <= c->last)
            return true;
    }
    return false;
}

/* Bands of the sheet around the cropped map, in squares. */
#define CROP_MARGIN 2      /* rock shown around the outermost floor */
#define SHEET_SIDE 0.6
#define COMPASS_R 0.9
#define MIN_SHEET_W 16.0

typedef struct {
    const ucr_megadungeon *md;
    const ucr_node *n;
    const ucr_style *st;
    ucr_pen pen;
    int W, H;
    int *g;                /* owners, W × H */
    bool *hwall;           /* wall on the top edge of square (x, y): (H+1) × W */
    bool *vwall;           /* wall on the left edge of square (x, y): H × (W+1) */
    ucr_rect crop;         /* the part of the map shown, whole squares */
    signed char *cut;      /* W × H: -1, or the square is half floor: the triangle at
                            * corner 0-3 (top-left, top-right, bottom-right, bottom-left) */
    GArray *taken;         /* ucr_rect: symbols and labels, which labels avoid */
    int crowded;
    ucr_map_options opt;
    const char *link_to;   /* the key entry the label being placed opens, or NULL */
    int label_owner;       /* the area whose stair label is being placed, or -1 */
    bool label_tight;      /* a crowded map's last try: labels LABEL_GAP_TIGHT apart */
    bool *hidden;          /* player maps: areas the players cannot see from a passage */
} map_ctx;

static int owner_at(const map_ctx *m, int x, int y)
{
    if (x < 0 || y < 0 || x >= m->W || y >= m->H)
        return -1;
    return m->g[y * m->W + x];
}

/* ---- 45° walls: seed 003's diamond rooms and diagonal corridors ----------
 *
 * Both are drawn with walls along the squares' diagonals: the squares the
 * wall runs across are half floor (m->cut says which half) and the wall
 * is the triangle's long side, in the same pen strokes as the square walls. */

/* Corner @c's two sides (ucr_dir) are the triangle's short sides. */
static bool cut_leg(int c, int d)
{
    return d == c || d == (c + 3) % 4;
}

static int cut_corner(bool left, bool top)
{
    return top ? (left ? 0 : 1) : (left ? 3 : 2);
}

static void cut_set(map_ctx *m, int x, int y, int owner, int corner)
{
    if (x < 0 || y < 0 || x >= m->W || y >= m->H)
        return;
    m->g[y * m->W + x] = owner;
    m->cut[y * m->W + x] = (signed char)corner;
}

static void floor_grid_45(map_ctx *m)
{
    const ucr_node *n = m->n;
    m->cut = g_new(signed char, m->W * m->H);
    memset(m->cut, -1, (size_t)(m->W * m->H));
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (!a->diamond)
            continue;
        /* Floor within (side-1)/2 steps of the middle, half floor one step
         * further (its half towards the middle), rock beyond. */
        int r = a->w / 2, cx = a->x + r, cy = a->y + a->h / 2;
        for (int y = a->y; y < a->y + a->h; y++)
            for (int x = a->x; x < a->x + a->w; x++) {
                int k = abs(x - cx) + abs(y - cy);
                if (k > r + 1)
                    m->g[y * m->W + x] = -1;
                else if (k == r + 1)
                    cut_set(m, x, y, (int)i, cut_corner(x > cx, y > cy));
            }
    }
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (guint k = 1; k < p->cells->len; k++) {
            ucr_point a = g_array_index(p->cells, ucr_point, k - 1), b = g_array_index(p->cells, ucr_point, k);
            int dx = b.x - a.x, dy = b.y - a.y;
            if (!dx || !dy)
                continue;
            /* The two squares beside a diagonal step, each half floor: the
             * half at the corner the step passes through. */
            cut_set(m, a.x + dx, a.y, PASSAGE + (int)i, cut_corner(dx > 0, dy < 0));
            cut_set(m, a.x, a.y + dy, PASSAGE + (int)i, cut_corner(dx < 0, dy > 0));
        }
    }
}

/* For the wall between square (x, y) and its neighbour towards @d:
 * 0 as the squares say, 1 no wall here (the square's floor does not reach
 * that side: its diagonal wall is drawn instead), 2 a wall (the neighbour's
 * floor does not reach it). */
static int cut_edge(const map_ctx *m, int x, int y, int d, int nx, int ny)
{
    int c = m->cut[y * m->W + x];
    if (c >= 0 && !cut_leg(c, d))
        return 1;
    if (nx < 0 || ny < 0 || nx >= m->W || ny >= m->H)
        return 0;
    int nc = m->cut[ny * m->W + nx];
    if (nc >= 0 && !cut_leg(nc, (d + 2) % 4))
        return 2;
    return 0;
}

/* Player maps: an area is hidden when no way without a secret door leads
 * to it from where the players come in (a passage leaving the map, or an
 * area with stairs, a ladder or the entrance). */
static bool *hidden_areas(const ucr_node *n)
{
    int nv = (int)n->vertices->len;
    bool *seen = g_new0(bool, nv);
    int *queue = g_new(int, nv), head = 0, tail = 0;
    for (int v = 0; v < nv; v++) {
        const ucr_vertex *vx = &g_array_index(n->vertices, ucr_vertex, v);
        if (vx->kind == UCR_VERTEX_EXIT && !seen[v]) {
            seen[v] = true;
            queue[tail++] = v;
        }
    }
    for (guint k = 0; k < n->links->len; k++) {
        int v = g_array_index(n->links, ucr_link, k).area;
        if (v >= 0 && v < nv && !seen[v]) {
            seen[v] = true;
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        int v = queue[head++];
        for (guint i = 0; i < n->passages->len; i++) {
            const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
            if (p->kind == UCR_EDGE_SECRET || (p->a != v && p->b != v))
                continue;
            int w = p->a == v ? p->b : p->a;
            if (w >= 0 && w < nv && !seen[w]) {
                seen[w] = true;
                queue[tail++] = w;
            }
        }
    }
    bool *hidden = g_new0(bool, n->areas->len);
    for (guint i = 0; i < n->areas->len; i++)
        hidden[i] = !seen[i];
    g_free(seen);
    g_free(queue);
    return hidden;
}

/* A passage is hidden with the area it leads to through a secret door, or
 * when both its ends are hidden. */
static bool passage_hidden(const map_ctx *m, const ucr_passage *p)
{
    int na = (int)m->n->areas->len;
    bool ha = p->a < na && m->hidden[p->a], hb = p->b < na && m->hidden[p->b];
    return p->kind == UCR_EDGE_SECRET ? (ha || hb) : (ha && hb);
}

static void floor_grid(map_ctx *m)
{
    const ucr_node *n = m->n;
    m->g = g_new(int, m->W * m->H);
    for (int i = 0; i < m->W * m->H; i++)
        m->g[i] = -1;
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (m->hidden && m->hidden[i])
            continue;
        for (int y = a->y; y < a->y + a->h; y++)
            for (int x = a->x; x < a->x + a->w; x++)
                m->g[y * m->W + x] = (int)i;
    }
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        if (m->hidden && passage_hidden(m, p))
            continue;
        for (guint k = 0; k < p->cells->len; k++) {
            ucr_point c = g_array_index(p->cells, ucr_point, k);
            if (!crossing_at(p, (int)k))   /* the crossed element keeps its floor */
                m->g[c.y * m->W + c.x] = PASSAGE + (int)i;
            else if (m->taken)   /* but no label goes over the passage crossing it */
                g_array_append_val(m->taken, ((ucr_rect){ c.x, c.y, c.x + 1, c.y + 1 }));
        }
    }
    floor_grid_45(m);
}

/* Two squares of different elements are open to each other when a passage
 * ends at the other's area (or runs on from it). */
static bool joined(const ucr_node *n, int o1, int o2)
{
    if (o1 < 0 || o2 < 0)
        return false;
    if (o1 == o2)
        return true;
    if ((o1 >= PASSAGE) == (o2 >= PASSAGE))
        return false;
    int p = o1 >= PASSAGE ? o1 - PASSAGE : o2 - PASSAGE;
    int a = o1 >= PASSAGE ? o2 : o1;
    const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, p);
    if (ps->b == a && ps->a != a && ps->crossings && ps->crossings->len) {
        /* Seed 001's "Ladder Up/Down, center of room": a passage that runs
         * on under the floor of the room it leads to, to come up in its
         * middle, passes under the wall: no opening. */
        const ucr_crossing *cr = &g_array_index(ps->crossings, ucr_crossing, ps->crossings->len - 1);
        if (cr->area == a && cr->last == (int)ps->cells->len - 1)
            return false;
    }
    return ps->a == a || ps->b == a;
}

static bool is_exit_square(const ucr_node *n, int x, int y)
{
    for (guint i = n->areas->len; i < n->vertices->len; i++) {
        const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, i);
        if (v->kind == UCR_VERTEX_EXIT && v->at.x == x && v->at.y == y)
            return true;
    }
    return false;
}

/* Wall edges: every edge between floor and something it does not open to;
 * passages that leave the map stay open at its edge; a door's edge is a
 * wall, which the door symbol then sits on. */
static void find_walls(map_ctx *m)
{
    const ucr_node *n = m->n;
    int W = m->W, H = m->H;
    m->hwall = g_new0(bool, (H + 1) * W);
    m->vwall = g_new0(bool, H * (W + 1));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int o = m->g[y * W + x];
            if (o < 0)
                continue;
            for (int d = 0; d < 4; d++) {
                int nx = x + UCR_DIR_DX[d], ny = y + UCR_DIR_DY[d];
                bool outside = nx < 0 || ny < 0 || nx >= W || ny >= H;
                if (outside && o >= PASSAGE && is_exit_square(n, x, y))
                    continue;
                int cut = cut_edge(m, x, y, d, nx, ny);
                if (cut == 1 || (cut == 0 && joined(n, o, owner_at(m, nx, ny))))
                    continue;
                switch (d) {
                case 0: m->hwall[y * W + x] = true; break;
                case 1: m->vwall[y * (W + 1) + x + 1] = true; break;
                case 2: m->hwall[(y + 1) * W + x] = true; break;
                default: m->vwall[y * (W + 1) + x] = true; break;
                }
            }
        }
    for (guint i = 0; i < n->doors->len; i++) {
        const ucr_door *d = &g_array_index(n->doors, ucr_door, i);
        const ucr_area *a = &g_array_index(n->areas, ucr_area, d->area);
        switch (d->side) {
        case UCR_NORTH: m->hwall[a->y * W + d->cell.x] = true; break;
        case UCR_SOUTH: m->hwall[(a->y + a->h) * W + d->cell.x] = true; break;
        case UCR_WEST: m->vwall[d->cell.y * (W + 1) + a->x] = true; break;
        case UCR_EAST: m->vwall[d->cell.y * (W + 1) + a->x + a->w] = true; break;
        }
    }
}

static void crop_to_content(map_ctx *m)
{
    int x0 = m->W, y0 = m->H, x1 = 0, y1 = 0;
    for (int y = 0; y < m->H; y++)
        for (int x = 0; x < m->W; x++)
            if (m->g[y * m->W + x] >= 0) {
                x0 = MIN(x0, x);
                y0 = MIN(y0, y);
                x1 = MAX(x1, x + 1);
                y1 = MAX(y1, y + 1);
            }
    if (x1 <= x0) {
        x0 = y0 = 0;
        x1 = m->W;
        y1 = m->H;
    }
    m->crop = (ucr_rect){ MAX(0, x0 - CROP_MARGIN), MAX(0, y0 - CROP_MARGIN), MIN(m->W, x1 + CROP_MARGIN),
                          MIN(m->H, y1 + CROP_MARGIN) };
}

/* The floor's outline, for floor_path(): the squares' and half squares'
 * edges, each clockwise (y down), with every edge two pieces share
 * cancelled out, leaves the boundary, which is chained into closed loops.
 * Edges are vertex numbers (y * (W + 1) + x) packed two to a guint64. */
static void edge_add(GHashTable *open, int a, int b)
{
    guint64 back = (guint64)b << 32 | (guint)a;
    if (!g_hash_table_remove(open, &back)) {
        guint64 *k = g_new(guint64, 1);
        *k = (guint64)a << 32 | (guint)b;
        g_hash_table_add(open, k);
    }
}

static int edge_cmp(const void *x, const void *y)
{
    guint64 a = *(const guint64 *)x, b = *(const guint64 *)y;
    return (a > b) - (a < b);
}

/* The floor as closed outlines (a hole in it runs the other way round):
 * what a map fills, clips the grid to and cuts out of the hatching.  One
 * subpath per outline and one point per corner, where a rectangle per run
 * of squares took some 2,500 points a map, three times over. */
static ucr_path *floor_path(const map_ctx *m)
{
    int W = m->W, H = m->H, V = W + 1;
    GHashTable *open = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (m->g[y * W + x] < 0)
                continue;
            /* The corners clockwise from the top left; a half square is
             * the triangle at its cut corner c: c, c + 1, c + 3. */
            const int cv[4] = { y * V + x, y * V + x + 1, (y + 1) * V + x + 1, (y + 1) * V + x };
            int c = m->cut[y * W + x];
            if (c < 0) {
                for (int k = 0; k < 4; k++)
                    edge_add(open, cv[k], cv[(k + 1) % 4]);
            } else {
                edge_add(open, cv[c], cv[(c + 1) % 4]);
                edge_add(open, cv[(c + 1) % 4], cv[(c + 3) % 4]);
                edge_add(open, cv[(c + 3) % 4], cv[c]);
            }
        }
    /* Sorted, so that the outlines come out the same on every run (a
     * hash table's order is not part of the map) and the edges leaving a
     * vertex are found by bisection. */
    int n = (int)g_hash_table_size(open);
    guint64 *e = g_new(guint64, MAX(n, 1));
    bool *used = g_new0(bool, MAX(n, 1));
    GHashTableIter it;
    gpointer key;
    int i = 0;
    g_hash_table_iter_init(&it, open);
    while (g_hash_table_iter_next(&it, &key, NULL))
        e[i++] = *(guint64 *)key;
    g_hash_table_destroy(open);
    qsort(e, (size_t)n, sizeof *e, edge_cmp);
    ucr_path *p = ucr_path_new();
    for (int first = 0; first < n; first++) {
        if (used[first])
            continue;
        int start = (int)(e[first] >> 32), at = first;
        int px = start % V, py = start / V, dx = 0, dy = 0;
        ucr_path_move_to(p, px, py);
        for (;;) {
            used[at] = true;
            int to = (int)(e[at] & 0xffffffffu), tx = to % V, ty = to / V;
            int ndx = tx - px, ndy = ty - py;
            /* A corner only where the outline turns. */
            if ((ndx > 0) - (ndx < 0) != dx || (ndy > 0) - (ndy < 0) != dy) {
                if (dx || dy)
                    ucr_path_line_to(p, px, py);
                dx = (ndx > 0) - (ndx < 0);
                dy = (ndy > 0) - (ndy < 0);
            }
            px = tx;
            py = ty;
            if (to == start)
                break;
            /* The first unused edge leaving @to. */
            int lo = 0, hi = n;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if ((int)(e[mid] >> 32) < to)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            while (lo < n && (int)(e[lo] >> 32) == to && used[lo])
                lo++;
            if (lo >= n || (int)(e[lo] >> 32) != to)
                break;   /* cannot happen: every vertex has as many edges in as out */
            at = lo;
        }
        ucr_path_close(p);
    }
    g_free(e);
    g_free(used);
    return p;
}

static ucr_path *crop_path(const map_ctx *m)
{
    ucr_path *p = ucr_path_new();
    ucr_path_rect(p, m->crop.x0, m->crop.y0, m->crop.x1 - m->crop.x0, m->crop.y1 - m->crop.y0);
    return p;
}

/* Distance from (px, py) to the nearest floor square, looking @reach
 * squares around; reach + 1 if none. */
static double floor_distance(const map_ctx *m, double px, double py, int reach)
{
    /* Squared, and one square root at the end: the hatching asks this for
     * every cluster it might draw. */
    double best = (reach + 1) * (reach + 1);
    int cx = (int)floor(px), cy = (int)floor(py);
    for (int y = cy - reach; y <= cy + reach; y++) {
        double dy = py < y ? y - py : py > y + 1 ? py - y - 1 : 0;
        /* A row, or a square, no nearer than the best so far cannot
         * lower it: skipped, the minimum is the same. */
        if (dy * dy >= best)
            continue;
        for (int x = cx - reach; x <= cx + reach; x++) {
            double dx = px < x ? x - px : px > x + 1 ? px - x - 1 : 0;
            if (dx * dx + dy * dy >= best || owner_at(m, x, y) < 0)
                continue;
            best = dx * dx + dy * dy;
        }
    }
    return sqrt(best);
}

/* One stamp set for the maps that hatch alike (every map of a dungeon in
 * one style: the shapes come from the seed alone), kept on @fonts, which
 * outlives the booklet's pages: the pages that wait for the overview keep a
 * reference to their set, 24 KB each otherwise.  At most STAMP_SETS_MAX
 * (a batch's run of dungeons and styles), then forgotten and begun again.
 * Takes @set; returns a reference to the shared one. */
enum { STAMP_SETS_MAX = 32 };
static const char stamp_sets_key[] = "ucr-map-stamp-sets";

static ucr_stamp_set *stamp_set_shared(PangoFontMap *fonts, ucr_stamp_set *set)
{
    if (!fonts)
        return set;
    GHashTable *sets = g_object_get_data(G_OBJECT(fonts), stamp_sets_key);
    if (!sets) {
        sets = g_hash_table_new_full(ucr_stamp_set_hash, ucr_stamp_set_equal,
                                     (GDestroyNotify)ucr_stamp_set_unref, NULL);
        g_object_set_data_full(G_OBJECT(fonts), stamp_sets_key, sets, (GDestroyNotify)g_hash_table_unref);
    }
    ucr_stamp_set *known = g_hash_table_lookup(sets, set);
    if (known) {
        ucr_stamp_set_unref(set);
        return ucr_stamp_set_ref(known);
    }
    if (g_hash_table_size(sets) >= STAMP_SETS_MAX)
        g_hash_table_remove_all(sets);
    g_hash_table_add(sets, ucr_stamp_set_ref(set));
    return set;
}

/* Clipped to the rock of the shown map: strokes stop at the walls.  An
 * opaque floor, painted next, hides the strokes that reach into it, so
 * then the clip is the shown map alone (the floor's outline in it was
 * a fifth of a map's numbers, all for nothing). */
static ucr_path *rock_clip(map_ctx *m)
{
    const ucr_style *st = m->st;
    ucr_path *clip = crop_path(m), *fl = st->floor.a >= 1 ? ucr_path_new() : floor_path(m);
    const ucr_path_el *el = ucr_path_elements(fl);
    for (int i = 0; i < ucr_path_length(fl); i++) {
        if (el[i].op == UCR_PATH_MOVE)
            ucr_path_move_to(clip, el[i].pt[0], el[i].pt[1]);
        else if (el[i].op == UCR_PATH_LINE)
            ucr_path_line_to(clip, el[i].pt[0], el[i].pt[1]);
        else if (el[i].op == UCR_PATH_CLOSE)
            ucr_path_close(clip);
    }
    ucr_path_free(fl);
    return clip;
}

static void draw_rock(map_ctx *m)
{
    const ucr_style *st = m->st;
    if (st->rock_fill == UCR_ROCK_SOLID) {
        ucr_path *p = crop_path(m);
        ucr_device_begin_group(m->pen.dev, "rock:solid");
        ucr_device_fill_path(m->pen.dev, p, false, st->rock);
        ucr_device_end_group(m->pen.dev);
        ucr_path_free(p);
        return;
    }
    if (st->rock_fill != UCR_ROCK_HATCH)
        return;
    /* Hatching only in a band along the walls (Dyson's way, and it keeps
     * files small): cluster centres on a jittered lattice, thinning out
     * towards the band's outer edge so it ends ragged, not ruled.  A map
     * has a few thousand clusters, each one of HATCH_SHAPES clusters drawn
     * first (at random angles and lengths): stamps, which a PDF defines
     * once and places for a few bytes each, where every cluster's own three
     * strokes made most of the file. */
    enum { HATCH_SHAPES = 48 };
    ucr_prng_seed(&m->pen.rng, m->md->seed, "ink/hatch");
    ucr_prng_next(&m->pen.rng);
    ucr_path *shapes[HATCH_SHAPES];
    for (int i = 0; i < HATCH_SHAPES; i++) {
        shapes[i] = ucr_path_new();
        ucr_pen_hatch_cluster(&m->pen, shapes[i], 0, 0);
    }
    ucr_stroke s = { st->hatch_width, UCR_CAP_ROUND, UCR_JOIN_ROUND, 0, { 0 } };
    ucr_stamp_set *set = stamp_set_shared(m->pen.fonts, ucr_stamp_set_new(shapes, HATCH_SHAPES, &s));
    GArray *at = g_array_new(FALSE, FALSE, sizeof(ucr_stamp));
    int k = MAX(1, (int)ceil(sqrt(st->hatch_density)));
    double keep = st->hatch_density / (k * k);
    int reach = (int)ceil(st->hatch_band) + 1;
    for (int y = (int)m->crop.y0; y < (int)m->crop.y1; y++)
        for (int x = (int)m->crop.x0; x < (int)m->crop.x1; x++) {
            if ((owner_at(m, x, y) >= 0 && m->cut[y * m->W + x] < 0) ||
                floor_distance(m, x + 0.5, y + 0.5, reach) > st->hatch_band + 0.75)
                continue;
            for (int j = 0; j < k; j++)
                for (int i = 0; i < k; i++) {
                    double px = x + (i + ucr_pen_uniform(&m->pen, 0.15, 0.85)) / k;
                    double py = y + (j + ucr_pen_uniform(&m->pen, 0.15, 0.85)) / k;
                    double chance = ucr_pen_uniform(&m->pen, 0, 1);
                    double shape = ucr_pen_uniform(&m->pen, 0, HATCH_SHAPES);
                    double d = floor_distance(m, px, py, reach);
                    double fade = d < st->hatch_band * 0.7 ? 1 : (st->hatch_band - d) / (st->hatch_band * 0.3);
                    /* On a grid of a twentieth of a square: a PDF places each
                     * stamp by its offset from the last in squares, six
                     * digits each ("0.419166 -0.0143884 Td") where this
                     * takes two or three ("0.45 -0.05 Td"); a third of a
                     * point on a map of 7 mm squares. */
                    if (chance < keep * fade)
                        g_array_append_val(at, ((ucr_stamp){ MIN((int)shape, HATCH_SHAPES - 1),
                                                             round(px * 20) / 20, round(py * 20) / 20 }));
                }
        }
    ucr_path *clip = rock_clip(m);
    ucr_device_begin_group(m->pen.dev, "rock:hatch");
    ucr_device_clip_path(m->pen.dev, clip, true);
    ucr_device_stamp(m->pen.dev, set, &(ucr_matrix){ 1, 0, 0, 1, 0, 0 }, (const ucr_stamp *)(void *)at->data,
                     (int)at->len, st->hatch);
    ucr_device_pop_clip(m->pen.dev);
    ucr_device_end_group(m->pen.dev);
    ucr_path_free(clip);
    g_array_free(at, TRUE);
    ucr_stamp_set_unref(set);
}

static void draw_floor_and_grid(map_ctx *m)
{
    const ucr_style *st = m->st;
    ucr_path *fl = floor_path(m);
    ucr_device_begin_group(m->pen.dev, "floor");
    ucr_device_fill_path(m->pen.dev, fl, false, st->floor);
    ucr_device_end_group(m->pen.dev);
    if (st->grid_where != UCR_GRID_NONE) {
        ucr_path *g = ucr_path_new();
        for (int x = (int)m->crop.x0 + 1; x < (int)m->crop.x1; x++) {
            ucr_path_move_to(g, x, m->crop.y0);
            ucr_path_line_to(g, x, m->crop.y1);
        }
        for (int y = (int)m->crop.y0 + 1; y < (int)m->crop.y1; y++) {
            ucr_path_move_to(g, m->crop.x0, y);
            ucr_path_line_to(g, m->crop.x1, y);
        }
        ucr_device_begin_group(m->pen.dev, "grid");
        if (st->grid_where == UCR_GRID_FLOOR)
            ucr_device_clip_path(m->pen.dev, fl, false);
        ucr_stroke s = { st->grid_width, UCR_CAP_BUTT, UCR_JOIN_MITER, 0, { 0 } };
        ucr_device_stroke_path(m->pen.dev, g, &s, st->grid);
        if (st->grid_where == UCR_GRID_FLOOR)
            ucr_device_pop_clip(m->pen.dev);
        ucr_device_end_group(m->pen.dev);
        ucr_path_free(g);
    }
    ucr_path_free(fl);
}

/* One straight run of wall, cut into pen strokes of 3 to 6 squares: a hand
 * lifts the pen on a long wall. */
static void wall_run(map_ctx *m, ucr_path *p, double x0, double y0, double x1, double y1)
{
    double len = fabs(x1 - x0) + fabs(y1 - y0);
    double ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    double at = 0;
    while (at < len) {
        double piece = len - at <= 7 ? len - at : floor(ucr_pen_uniform(&m->pen, 3, 7));
        ucr_pen_rough_line(&m->pen, p, x0 + ux * at, y0 + uy * at, x0 + ux * (at + piece),
                           y0 + uy * (at + piece), m->st->wall_strokes, 1, 1);
        at += piece;
    }
}

/* Every wall as maximal straight runs, into @out (ucr_map_segment): the
 * horizontal ones row by row, then the vertical ones column by column, then
 * the 45° ones (the long sides of the half-floor triangles).  The pen draws
 * them in this order, its strokes from one PRNG stream, so the order is part
 * of the map. */
static void wall_segments(const map_ctx *m, GArray *out)
{
    int W = m->W, H = m->H;
    for (int y = 0; y <= H; y++)
        for (int x = 0; x < W;) {
            if (!m->hwall[y * W + x]) {
                x++;
                continue;
            }
            int x1 = x;
            while (x1 < W && m->hwall[y * W + x1])
                x1++;
            g_array_append_val(out, ((ucr_map_segment){ x, y, x1, y }));
            x = x1;
        }
    for (int x = 0; x <= W; x++)
        for (int y = 0; y < H;) {
            if (!m->vwall[y * (W + 1) + x]) {
                y++;
                continue;
            }
            int y1 = y;
            while (y1 < H && m->vwall[y1 * (W + 1) + x])
                y1++;
            g_array_append_val(out, ((ucr_map_segment){ x, y, x, y1 }));
            y = y1;
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int c = m->cut[y * W + x];
            if (c < 0)
                continue;
            /* Corners 0 and 2 cut from top-right to bottom-left (the run
             * goes on up-right), 1 and 3 from top-left to bottom-right (on
             * down-right); start where the run does not come from. */
            int sx = 1, sy = c % 2 == 0 ? -1 : 1;
            int px = x - sx, py = y - sy;
            if (px >= 0 && py >= 0 && px < W && py < H && m->cut[py * W + px] == c)
                continue;
            int len = 0;
            for (int qx = x, qy = y; qx < W && qy >= 0 && qy < H && m->cut[qy * W + qx] == c; qx += sx, qy += sy)
                len++;
            if (c % 2 == 0)   /* from (x, y+1) up-right */
                g_array_append_val(out, ((ucr_map_segment){ x, y + 1, x + len, y + 1 - len }));
            else              /* from (x, y) down-right */
                g_array_append_val(out, ((ucr_map_segment){ x, y, x + len, y + len }));
        }
}

/* A 45° run, in pen strokes of 2 to 5 squares. */
static void wall_run_45(map_ctx *m, ucr_path *p, const ucr_map_segment *s)
{
    double len = fabs(s->x1 - s->x0), at = 0;
    while (at < len) {
        double piece = len - at <= 5 ? len - at : floor(ucr_pen_uniform(&m->pen, 2, 5));
        ucr_pen_rough_line(&m->pen, p, s->x0 + (s->x1 - s->x0) * at / len, s->y0 + (s->y1 - s->y0) * at / len,
                           s->x0 + (s->x1 - s->x0) * (at + piece) / len,
                           s->y0 + (s->y1 - s->y0) * (at + piece) / len, m->st->wall_strokes, 1, 1);
        at += piece;
    }
}

static void draw_walls(map_ctx *m)
{
    ucr_prng_seed(&m->pen.rng, m->md->seed, "ink/walls");
    ucr_path *p = ucr_path_new();
    GArray *segs = g_array_new(FALSE, FALSE, sizeof(ucr_map_segment));
    wall_segments(m, segs);
    for (guint i = 0; i < segs->len; i++) {
        const ucr_map_segment *sg = &g_array_index(segs, ucr_map_segment, i);
        if (sg->x0 != sg->x1 && sg->y0 != sg->y1)
            wall_run_45(m, p, sg);
        else
            wall_run(m, p, sg->x0, sg->y0, sg->x1, sg->y1);
    }
    g_array_free(segs, TRUE);
    ucr_stroke s = { m->st->wall_width, UCR_CAP_ROUND, UCR_JOIN_ROUND, 0, { 0 } };
    ucr_device_begin_group(m->pen.dev, "walls");
    ucr_device_stroke_path(m->pen.dev, p, &s, m->st->wall);
    ucr_device_end_group(m->pen.dev);
    ucr_path_free(p);
}

static void take(map_ctx *m, ucr_rect r)
{
    g_array_append_val(m->taken, r);
}

static ucr_wall_symbol door_symbol(ucr_door_kind k)
{
    switch (k) {
    case UCR_DOOR_SECRET: return UCR_SYMBOL_SECRET_DOOR;
    case UCR_DOOR_LOCKED: return UCR_SYMBOL_LOCKED_DOOR;
    case UCR_DOOR_TRAPPED: return UCR_SYMBOL_TRAPPED_DOOR;
    default: return UCR_SYMBOL_DOOR;
    }
}

/* Is door @d drawn?  Not on a player's map when it is secret (the players
 * see a wall) or belongs to an area the players cannot see.  The virtual
 * tabletop's portals (ucr_map_plan_new) follow the same rule. */
static bool door_drawn(const map_ctx *m, const ucr_door *d)
{
    return !(m->opt.player && (d->kind == UCR_DOOR_SECRET || (m->hidden && m->hidden[d->area])));
}

static void draw_doors(map_ctx *m)
{
    const ucr_node *n = m->n;
    for (guint i = 0; i < n->doors->len; i++) {
        const ucr_door *d = &g_array_index(n->doors, ucr_door, i);
        const ucr_area *a = &g_array_index(n->areas, ucr_area, d->area);
        ucr_door_kind kind = d->kind;
        if (!door_drawn(m, d))
            continue;   /* the wall is drawn already: the players see a wall */
        if (m->opt.player && kind == UCR_DOOR_TRAPPED)
            kind = UCR_DOOR_PLAIN;
        double x, y;
        switch (d->side) {
        case UCR_NORTH: x = d->cell.x + 0.5; y = a->y; break;
        case UCR_SOUTH: x = d->cell.x + 0.5; y = a->y + a->h; break;
        case UCR_WEST: x = a->x; y = d->cell.y + 0.5; break;
        default: x = a->x + a->w; y = d->cell.y + 0.5; break;
        }
        take(m, ucr_symbol_wall(&m->pen, door_symbol(kind), x, y,
                                d->side == UCR_EAST || d->side == UCR_WEST));
    }
}

/* The square of @area a passage enters by, and the step from it into the
 * area; the area's first square and a step along its length if none. */
static ucr_point area_entry(const map_ctx *m, int area, int *dx, int *dy)
{
    const ucr_node *n = m->n;
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (int end = 0; end < 2; end++) {
            if ((end == 0 ? p->a : p->b) != area)
                continue;
            ucr_point c = g_array_index(p->cells, ucr_point, end == 0 ? 0 : p->cells->len - 1);
            ucr_point in = { CLAMP(c.x, a->x, a->x + a->w - 1), CLAMP(c.y, a->y, a->y + a->h - 1) };
            *dx = (in.x > c.x) - (in.x < c.x);
            *dy = (in.y > c.y) - (in.y < c.y);
            if (abs(*dx) + abs(*dy) == 1)
                return in;
        }
    }
    *dx = a->w >= a->h;
    *dy = !*dx;
    return (ucr_point){ a->x, a->y };
}

static bool is_ladder(ucr_stair s)
{
    return s == UCR_LADDER_DOWN || s == UCR_LADDER_UP;
}

static bool is_down(ucr_stair s)
{
    return s == UCR_STAIR_DOWN || s == UCR_LADDER_DOWN || s == UCR_SLOPE_DOWN;
}

/* Stairs or ladder in @box, entered going (@dx, @dy). */
static void stair_symbol(map_ctx *m, ucr_rect box, ucr_stair s, int dx, int dy)
{
    if (is_ladder(s))
        ucr_symbol_ladder(&m->pen, box, dx, dy, is_down(s));
    else if (ucr_stair_is_slope(s))   /* seed 003: a slope is a ramp, not steps */
        ucr_symbol_slope(&m->pen, box, is_down(s) ? dx : -dx, is_down(s) ? dy : -dy, is_down(s));
    else if (is_down(s))
        ucr_symbol_stairs(&m->pen, box, dx, dy, true);
    else
        ucr_symbol_stairs(&m->pen, box, -dx, -dy, false);
    take(m, box);
}

static void draw_floor_symbols(map_ctx *m)
{
    const ucr_node *n = m->n;
    ucr_prng_seed(&m->pen.rng, m->md->seed, "ink/symbols");
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        if (p->rubble >= 0) {
            ucr_point c = g_array_index(p->cells, ucr_point, p->rubble);
            ucr_rect box = { c.x + 0.08, c.y + 0.08, c.x + 0.92, c.y + 0.92 };
            ucr_symbol_rubble(&m->pen, box);
            take(m, box);
        }
        /* Stretches under or over another element (seed 000): dashed walls
         * across the element, from the square before to the square after. */
        for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
            int first = MAX(cr->first - 1, 0), last = MIN(cr->last + 1, (int)p->cells->len - 1);
            int npts = last - first + 1;
            double *pts = g_new(double, 2 * npts);
            for (int k = 0; k < npts; k++) {
                ucr_point c = g_array_index(p->cells, ucr_point, first + k);
                pts[2 * k] = c.x + 0.5;
                pts[2 * k + 1] = c.y + 0.5;
            }
            ucr_symbol_passage_under(&m->pen, pts, npts, 1.0);
            g_free(pts);
        }
        /* Steps inside a passage: one square, treads across the way. */
        for (guint k = 0; k < p->stairs->len; k++) {
            const ucr_passage_stairs *ps = &g_array_index(p->stairs, ucr_passage_stairs, k);
            ucr_point c = g_array_index(p->cells, ucr_point, ps->index);
            int last = (int)p->cells->len - 1;
            ucr_point a = g_array_index(p->cells, ucr_point, ps->index > 0 ? ps->index - 1 : ps->index);
            ucr_point b = g_array_index(p->cells, ucr_point, ps->index < last ? ps->index + 1 : ps->index);
            int dx = (b.x > a.x) - (b.x < a.x), dy = (b.y > a.y) - (b.y < a.y);
            if (dx && dy)
                dy = 0;
            if (!dx && !dy)
                dx = 1;
            stair_symbol(m, (ucr_rect){ c.x + 0.06, c.y + 0.06, c.x + 0.94, c.y + 0.94 }, ps->stair, dx, dy);
        }
    }
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (a->kind == UCR_AREA_ROOM && a->stair != UCR_STAIR_NONE) {
            /* Seed 003: "the room has a trap door or staircase", in the
             * middle of its floor. */
            double cx = a->x + a->w / 2.0, cy = a->y + a->h / 2.0;
            double half = a->w >= 4 && !a->trapdoor ? 0.94 : 0.47;   /* a flight two squares long where it fits */
            ucr_rect box = { cx - half, cy - 0.47, cx + half, cy + 0.47 };
            if (a->trapdoor) {
                ucr_symbol_trapdoor(&m->pen, cx, cy, 0.75);
                take(m, box);
            } else {
                stair_symbol(m, box, a->stair, 1, 0);
            }
            continue;
        }
        if (a->kind != UCR_AREA_STAIRS)
            continue;
        /* The number takes the square the passage comes in by; the flight
         * fills the rest of the area, running along its length away from
         * that square, whichever side the passage came from. */
        int dx, dy;
        ucr_point in = area_entry(m, (int)i, &dx, &dy);
        ucr_rect box = { a->x, a->y, a->x + a->w, a->y + a->h };
        if (a->w >= a->h && a->w > 1) {
            dx = in.x - a->x <= a->x + a->w - 1 - in.x ? 1 : -1;
            dy = 0;
            if (dx > 0) box.x0 = in.x + 1;
            else box.x1 = in.x;
        } else if (a->h > 1) {
            dy = in.y - a->y <= a->y + a->h - 1 - in.y ? 1 : -1;
            dx = 0;
            if (dy > 0) box.y0 = in.y + 1;
            else box.y1 = in.y;
        }
        box.x0 += 0.06;
        box.y0 += 0.06;
        box.x1 -= 0.06;
        box.y1 -= 0.06;
        if (a->trapdoor) {
            /* Seed 003's trap door: the hinged square, the ladder beneath unseen. */
            double side = MIN(box.x1 - box.x0, box.y1 - box.y0) * 0.8;
            ucr_symbol_trapdoor(&m->pen, (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2, side);
            take(m, box);
            continue;
        }
        stair_symbol(m, box, a->stair, dx, dy);
    }
}

/* ---- labels --------------------------------------------------------------- */

static bool overlaps(ucr_rect a, ucr_rect b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

#define LABEL_GAP 0.3         /* squares between a label and its neighbours */
#define LABEL_GAP_TIGHT 0.15  /* on a map with no room at LABEL_GAP: still apart, not run together */

/* Whether @r is free for a label: inside the shown map, clear of symbols,
 * other labels and walls, and over no floor but @allowed's (an area index,
 * or -1 for rock only). */
static bool label_fits(const map_ctx *m, ucr_rect r, int allowed)
{
    const ucr_rect *c = &m->crop;
    if (r.x0 < c->x0 + 0.1 || r.y0 < c->y0 + 0.1 || r.x1 > c->x1 - 0.1 || r.y1 > c->y1 - 0.1)
        return false;
    /* Apart from other labels and symbols by a gap a reader sees ("TO F-23"
     * and "BELOW" side by side read as one label). */
    double gap = m->label_tight ? LABEL_GAP_TIGHT : LABEL_GAP;
    ucr_rect g = { r.x0 - gap, r.y0 - gap, r.x1 + gap, r.y1 + gap };
    for (guint i = 0; i < m->taken->len; i++)
        if (overlaps(g, g_array_index(m->taken, ucr_rect, i)))
            return false;
    double t = m->st->wall_width / 2 + m->st->wobble * 0.5 + 0.02;
    for (int y = (int)floor(r.y0 - 1); y <= (int)floor(r.y1 + 1); y++)
        for (int x = (int)floor(r.x0 - 1); x <= (int)floor(r.x1 + 1); x++) {
            if (x < 0 || y < 0 || x >= m->W || y >= m->H)
                continue;
            int o = m->g[y * m->W + x];
            /* A half square carries a 45° wall across it. */
            if (o >= 0 && (o != allowed || m->cut[y * m->W + x] >= 0) && overlaps(r, (ucr_rect){ x, y, x + 1, y + 1 }))
                return false;
            if (m->hwall[y * m->W + x] && overlaps(r, (ucr_rect){ x - t, y - t, x + 1 + t, y + t }))
                return false;
            if (m->vwall[y * (m->W + 1) + x] && overlaps(r, (ucr_rect){ x - t, y - t, x + t, y + 1 + t }))
                return false;
        }
    return true;
}

typedef struct { double x, y; int allowed; } spot;

/* What a label belongs to: an area (inside it when @inside, else around
 * it), and maybe the mouth of a passage leaving the map. */
typedef struct {
    int area;              /* area index, or -1 */
    bool inside;           /* try the area's own squares first */
    ucr_point mouth;       /* exit square, or x < 0 */
} anchor;

static void add_spot(GArray *out, double x, double y, int allowed)
{
    spot s = { x, y, allowed };
    g_array_append_val(out, s);
}

/* Spots on the rock around the rectangle @a for text @tw × @th: beside,
 * then above and below, sliding along each side, further out each round. */
static void ring_spots(GArray *out, ucr_rect a, double tw, double th)
{
    /* Near only: a label further off, where a reader no longer sees what it
     * names ("stairs down to H-37" three squares away, across another
     * area), is placed by find_far_spot, with a leader line. */
    static const double GAP[] = { 0.2, 0.6 };
    double cx = (a.x0 + a.x1) / 2, cy = (a.y0 + a.y1) / 2;
    for (unsigned g = 0; g < G_N_ELEMENTS(GAP); g++) {
        double dx = tw / 2 + GAP[g], dy = th / 2 + GAP[g];
        add_spot(out, a.x1 + dx, cy, -1);
        add_spot(out, a.x0 - dx, cy, -1);
        add_spot(out, cx, a.y0 - dy, -1);
        add_spot(out, cx, a.y1 + dy, -1);
        for (double t = 0.5; t <= (a.y1 - a.y0) / 2 + 0.5; t += 0.5)
            for (int sgn = 1; sgn >= -1; sgn -= 2) {
                add_spot(out, a.x1 + dx, cy + sgn * t, -1);
                add_spot(out, a.x0 - dx, cy + sgn * t, -1);
            }
        for (double t = 0.5; t <= (a.x1 - a.x0) / 2 + tw / 2; t += 0.5)
            for (int sgn = 1; sgn >= -1; sgn -= 2) {
                add_spot(out, cx + sgn * t, a.y0 - dy, -1);
                add_spot(out, cx + sgn * t, a.y1 + dy, -1);
            }
    }
}

/* Spots beside the mouth of a passage leaving the map at @at, walking in. */
static void mouth_spots(const map_ctx *m, GArray *out, ucr_point at, double tw, double th)
{
    bool across_x = at.y == 0 || at.y == m->H - 1;   /* leaves by the top or bottom */
    int in = at.y == 0 || at.x == 0 ? 1 : -1;
    for (int k = 0; k < 5; k++)
        for (int s = 1; s >= -1; s -= 2) {
            if (across_x)
                add_spot(out, at.x + 0.5 + s * (0.5 + tw / 2 + 0.25), at.y + 0.5 + in * k * 0.6, -1);
            else
                add_spot(out, at.x + 0.5 + in * (tw / 2 - 0.3 + k * 0.6), at.y + 0.5 + s * (0.5 + th / 2 + 0.25), -1);
        }
}

static void anchor_spots(const map_ctx *m, const anchor *an, double tw, double th, GArray *out)
{
    /* A label of a passage leaving the map sits at its mouth, not around
     * the area it comes from ("TO B-1" once sat east of C-11 while the
     * tunnel left C-10 by the west edge). */
    if (an->mouth.x >= 0) {
        mouth_spots(m, out, an->mouth, tw, th);
        return;
    }
    if (an->area < 0)
        return;
    const ucr_area *a = &g_array_index(m->n->areas, ucr_area, an->area);
    if (an->inside) {
        /* The middle of the area, then the middle of each square. */
        add_spot(out, a->x + a->w / 2.0, a->y + a->h / 2.0, an->area);
        for (int y = a->y; y < a->y + a->h; y++)
            for (int x = a->x; x < a->x + a->w; x++)
                add_spot(out, x + 0.5, y + 0.5, an->area);
    }
    ring_spots(out, (ucr_rect){ a->x, a->y, a->x + a->w, a->y + a->h }, tw, th);
}

static double gap_between(ucr_rect a, ucr_rect b)
{
    double dx = MAX(0, MAX(a.x0 - b.x1, b.x0 - a.x1)), dy = MAX(0, MAX(a.y0 - b.y1, b.y0 - a.y1));
    return hypot(dx, dy);
}

/* Whether label @r, of the stairs or ladder of area m->label_owner, lies
 * clearly nearer to that area than to any other area with stairs or a ladder, so
 * that a reader can tell which flight it names (labels of landings side by
 * side once sat between them, "ladder up to C-9" as near to 9 as to 8). */
static bool label_nearest_own(const map_ctx *m, ucr_rect r)
{
    if (m->label_owner < 0)
        return true;
    const ucr_node *n = m->n;
    const ucr_area *own = &g_array_index(n->areas, ucr_area, m->label_owner);
    double mine = gap_between(r, (ucr_rect){ own->x, own->y, own->x + own->w, own->y + own->h });
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->has_side || l->area == m->label_owner || (m->hidden && m->hidden[l->area]))
            continue;
        const ucr_area *a = &g_array_index(n->areas, ucr_area, l->area);
        /* Clearly nearer: by a quarter of a square at least. */
        if (gap_between(r, (ucr_rect){ a->x, a->y, a->x + a->w, a->y + a->h }) < mine + 0.25)
            return false;
    }
    return true;
}

/* The first free spot for @text near @an, or -1. */
static int find_spot(const map_ctx *m, const anchor *an, const char *text, const char *family, double size,
                     bool bold, GArray *spots)
{
    double pad = size * UCR_PEN_HALO;
    ucr_rect tr = ucr_pen_text_rect((ucr_pen *)&m->pen, text, family, size, bold, 0, 0);
    g_array_set_size(spots, 0);
    anchor_spots(m, an, tr.x1 - tr.x0, tr.y1 - tr.y0, spots);
    for (guint i = 0; i < spots->len; i++) {
        const spot *sp = &g_array_index(spots, spot, i);
        ucr_rect r = { sp->x + tr.x0 - pad, sp->y + tr.y0 - pad, sp->x + tr.x1 + pad, sp->y + tr.y1 + pad };
        if (label_fits(m, r, sp->allowed) && label_nearest_own(m, r))
            return (int)i;
    }
    return -1;
}

/* The rectangle a label belongs to: the mouth square of a passage leaving
 * the map, or the area. */
static ucr_rect anchor_rect(const map_ctx *m, const anchor *an)
{
    if (an->mouth.x >= 0)
        return (ucr_rect){ an->mouth.x, an->mouth.y, an->mouth.x + 1, an->mouth.y + 1 };
    const ucr_area *a = &g_array_index(m->n->areas, ucr_area, an->area);
    return (ucr_rect){ a->x, a->y, a->x + a->w, a->y + a->h };
}

typedef struct {
    double x, y, d;
    int i;   /* the order it was made in: ties go by it */
} far_spot;

static int far_cmp(const void *a, const void *b)
{
    const far_spot *p = a, *q = b;
    if (p->d != q->d)
        return (p->d > q->d) - (p->d < q->d);
    return (p->i > q->i) - (p->i < q->i);
}

/* Where no spot beside its anchor is free: the nearest free place on the
 * rock within FAR_REACH squares, which a leader line then ties to the
 * anchor.  Returns whether one was found, in (@x, @y). */
#define FAR_REACH 9.0
#define FAR_REACH_TIGHT 18.0   /* a crowded map's last try (far_spot_tight) */
#define FAR_STEP 0.25          /* the candidates' lattice, and their rings' width */
/* The ring of a candidate @d squares from its anchor (the last holds the rest). */
static int far_ring(double d, int rings)
{
    return MIN((int)(d / FAR_STEP), rings - 1);
}

static bool far_spot_free(const map_ctx *m, const far_spot *f, ucr_rect tr, double pad)
{
    ucr_rect r = { f->x + tr.x0 - pad, f->y + tr.y0 - pad, f->x + tr.x1 + pad, f->y + tr.y1 + pad };
    /* Near its anchor (no leader line drawn) it must name its own. */
    return label_fits(m, r, -1) && (f->d >= 1.0 || label_nearest_own(m, r));
}

/* The candidates are tried nearest first (ties in the order made).  Sorting
 * all of them took a tenth of a booklet's time (some 5,000 a label, 20,000
 * on a crowded map's last try, where the first few hundred mostly do): they
 * go into rings FAR_STEP wide by a counting pass, and a ring is sorted only
 * when the search reaches it. */
static bool find_far_spot(const map_ctx *m, const anchor *an, const char *text, const char *family, double size,
                          bool bold, double *x, double *y)
{
    double pad = size * UCR_PEN_HALO;
    ucr_rect tr = ucr_pen_text_rect((ucr_pen *)&m->pen, text, family, size, bold, 0, 0);
    ucr_rect ar = anchor_rect(m, an);
    double reach = m->label_tight ? FAR_REACH_TIGHT : FAR_REACH;
    int rings = (int)(reach / FAR_STEP) + 1;
    GArray *c = g_array_new(FALSE, FALSE, sizeof(far_spot));
    int *start = g_new0(int, rings + 1);
    for (double cy = ar.y0 - reach; cy <= ar.y1 + reach; cy += FAR_STEP)
        for (double cx = ar.x0 - reach; cx <= ar.x1 + reach; cx += FAR_STEP) {
            ucr_rect r = { cx + tr.x0, cy + tr.y0, cx + tr.x1, cy + tr.y1 };
            far_spot f = { cx, cy, gap_between(r, ar), (int)c->len };
            if (f.d <= reach) {
                g_array_append_val(c, f);
                start[far_ring(f.d, rings) + 1]++;
            }
        }
    for (int k = 0; k < rings; k++)
        start[k + 1] += start[k];
    far_spot *by_ring = g_new(far_spot, MAX(c->len, 1));
    int *fill = g_memdup2(start, sizeof(int) * (rings + 1));
    for (guint i = 0; i < c->len; i++) {
        const far_spot *f = &g_array_index(c, far_spot, i);
        by_ring[fill[far_ring(f->d, rings)]++] = *f;
    }
    bool found = false;
    for (int k = 0; k < rings && !found; k++) {
        qsort(by_ring + start[k], (size_t)(start[k + 1] - start[k]), sizeof *by_ring, far_cmp);
        for (int i = start[k]; i < start[k + 1] && !found; i++)
            if (far_spot_free(m, &by_ring[i], tr, pad)) {
                *x = by_ring[i].x;
                *y = by_ring[i].y;
                found = true;
            }
    }
    g_free(fill);
    g_free(by_ring);
    g_free(start);
    g_array_free(c, TRUE);
    return found;
}

/* A thin line from label @r to what it names, @to, when they are apart;
 * whether one was drawn. */
static bool leader_line(map_ctx *m, ucr_rect r, ucr_rect to)
{
    double lx = CLAMP((to.x0 + to.x1) / 2, r.x0, r.x1), ly = CLAMP((to.y0 + to.y1) / 2, r.y0, r.y1);
    double tx = CLAMP(lx, to.x0 + 0.3, to.x1 - 0.3), ty = CLAMP(ly, to.y0 + 0.3, to.y1 - 0.3);
    if (hypot(tx - lx, ty - ly) < 0.6)
        return false;
    ucr_path *p = ucr_path_new();
    ucr_pen_rough_line(&m->pen, p, lx, ly, tx, ty, 1, 0.3, 0);
    ucr_stroke s = { m->st->symbol_width * 0.6, UCR_CAP_ROUND, UCR_JOIN_ROUND, 0, { 0 } };
    ucr_device_stroke_path(m->pen.dev, p, &s, m->st->ink);
    ucr_path_free(p);
    ucr_path *dot = ucr_path_new();
    ucr_path_circle(dot, tx, ty, 0.07);
    ucr_device_fill_path(m->pen.dev, dot, false, m->st->ink);
    ucr_path_free(dot);
    return true;
}

/* Shows @text at the first free spot near @an; failing that @brief (if
 * any) at its first free spot; failing that the nearest free place on the
 * rock a few squares away (@text, else @brief), with a leader line to the
 * anchor; failing that @text at its first spot, kept inside the frame,
 * counted as crowded.  Under group @group. */
/* Booklet maps: a number or "to C-7" label opens its key entry. */
static void link_label(map_ctx *m, ucr_rect r)
{
    if (m->opt.links && m->link_to)
        ucr_device_link(m->pen.dev, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0, m->link_to);
}

/* A crowded map's last try before a label is placed over what is there:
 * the short form, then the long, at half the usual gap from the others
 * (a dense compass node once put "ladder up to the surface" across its
 * passages and the number 35). */
static bool far_spot_tight(map_ctx *m, const anchor *an, const char **text, const char *brief, const char *family,
                           double size, bool bold, double *x, double *y)
{
    m->label_tight = true;
    bool found = false;
    if (brief && find_far_spot(m, an, brief, family, size, bold, x, y)) {
        *text = brief;
        found = true;
    } else {
        found = find_far_spot(m, an, *text, family, size, bold, x, y);
    }
    m->label_tight = false;
    return found;
}

static void place_label(map_ctx *m, const char *group, const anchor *an, const char *text, const char *brief,
                        const char *family, double size, bool bold)
{
    size = ucr_pen_text_size(&m->pen, size);
    GArray *spots = g_array_new(FALSE, FALSE, sizeof(spot));
    int pick = find_spot(m, an, text, family, size, bold, spots);
    if (pick < 0 && brief) {
        pick = find_spot(m, an, brief, family, size, bold, spots);
        if (pick >= 0)
            text = brief;
    }
    double x = 0, y = 0;
    bool far = false, crowded = false;
    if (pick >= 0) {
        x = g_array_index(spots, spot, pick).x;
        y = g_array_index(spots, spot, pick).y;
    } else if (brief && find_far_spot(m, an, brief, family, size, bold, &x, &y)) {
        far = true;   /* the short form: less on a crowded map, and the leader line says what */
        text = brief;
    } else if (find_far_spot(m, an, text, family, size, bold, &x, &y)) {
        far = true;
    } else if (far_spot_tight(m, an, &text, brief, family, size, bold, &x, &y)) {
        far = true;
    } else {
        if (g_getenv("UCR_DEBUG_LABELS"))
            g_printerr("node %s: no free place for '%s'\n", m->n->id, text);
        m->crowded++;
        crowded = true;
        find_spot(m, an, text, family, size, bold, spots);
        ucr_rect tr = ucr_pen_text_rect(&m->pen, text, family, size, bold, 0, 0);
        const ucr_rect *c = &m->crop;
        x = CLAMP(g_array_index(spots, spot, 0).x, c->x0 - tr.x0 + 0.1, c->x1 - tr.x1 - 0.1);
        y = CLAMP(g_array_index(spots, spot, 0).y, c->y0 - tr.y0 + 0.1, c->y1 - tr.y1 - 0.1);
    }
    double pad = size * UCR_PEN_HALO;
    ucr_device_begin_group(m->pen.dev, group);
    ucr_rect r = ucr_pen_text(&m->pen, text, family, size, bold, x, y, true);
    /* A spot walked in along a leaving passage may sit more than a square
     * from its mouth: tied to it like a far one. */
    bool leader = (far || gap_between(r, anchor_rect(m, an)) > 1.0) && leader_line(m, r, anchor_rect(m, an));
    if (m->opt.labels) {
        ucr_map_label rec = { r, anchor_rect(m, an), leader, crowded, g_str_has_prefix(group, "number:") };
        g_array_append_val(m->opt.labels, rec);
    }
    ucr_device_end_group(m->pen.dev);
    link_label(m, r);
    take(m, (ucr_rect){ r.x0 - pad, r.y0 - pad, r.x1 + pad, r.y1 + pad });
    g_array_free(spots, TRUE);
}

/* ---- what is in an area: traps and obstacles ----------------------------- */

static bool box_free(const map_ctx *m, ucr_rect r)
{
    for (guint i = 0; i < m->taken->len; i++) {
        const ucr_rect *t = &g_array_index(m->taken, ucr_rect, i);
        if (r.x0 < t->x1 && t->x0 < r.x1 && r.y0 < t->y1 && t->y0 < r.y1)
            return false;
    }
    return true;
}

/* Where a mark @size across goes in area @i: the middle of a free square,
 * corners of the area first (the number takes the middle).  FALSE if no
 * square is free; @box is then the area's first square. */
static bool mark_box(const map_ctx *m, int i, double size, ucr_rect *box)
{
    const ucr_area *a = &g_array_index(m->n->areas, ucr_area, i);
    int xs[4] = { a->x + a->w - 1, a->x, a->x + a->w - 1, a->x }, ys[4] = { a->y + a->h - 1, a->y + a->h - 1, a->y, a->y };
    double h = size / 2;
    for (int k = 0; k < 4; k++) {
        *box = (ucr_rect){ xs[k] + 0.5 - h, ys[k] + 0.5 - h, xs[k] + 0.5 + h, ys[k] + 0.5 + h };
        if (box_free(m, *box))
            return true;
    }
    for (int y = a->y; y < a->y + a->h; y++)
        for (int x = a->x; x < a->x + a->w; x++) {
            *box = (ucr_rect){ x + 0.5 - h, y + 0.5 - h, x + 0.5 + h, y + 0.5 + h };
            if (box_free(m, *box))
                return true;
        }
    *box = (ucr_rect){ a->x + 0.5 - h, a->y + 0.5 - h, a->x + 0.5 + h, a->y + 0.5 + h };
    return false;
}

/* What a classic map marks inside an area: the node method's feature
 * (seed 002's trapped junctions, sprung traps, debris, pools) and a trap the
 * stocking put there (a "T", as on the trapped door).  Monsters and
 * treasure are the key's business, not the map's.  Each under a group
 * "feature:KIND" or "stock:trap" that the tests count. */
static void draw_area_marks(map_ctx *m)
{
    const ucr_node *n = m->n;
    const ucr_style *st = m->st;
    ucr_prng_seed(&m->pen.rng, m->md->seed, "ink/marks");
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (m->hidden && m->hidden[i])
            continue;
        bool trap = a->feature == UCR_FEATURE_TRAP || a->feature == UCR_FEATURE_TRAP_DISABLED;
        if (a->feature != UCR_FEATURE_NONE && !(m->opt.player && trap)) {
            char group[48];
            g_snprintf(group, sizeof group, "feature:%s",
                       a->feature == UCR_FEATURE_TRAP ? "trap"
                       : a->feature == UCR_FEATURE_TRAP_DISABLED ? "trap-disabled"
                       : a->feature == UCR_FEATURE_DEBRIS ? "debris" : "pool");
            ucr_rect box;
            mark_box(m, (int)i, a->feature == UCR_FEATURE_DEBRIS ? 0.8 : 0.62, &box);
            double cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2, w = box.x1 - box.x0;
            ucr_device_begin_group(m->pen.dev, group);
            switch (a->feature) {
            case UCR_FEATURE_TRAP: ucr_symbol_pit(&m->pen, cx, cy, w); break;
            case UCR_FEATURE_TRAP_DISABLED: ucr_symbol_trap_sprung(&m->pen, cx, cy, w); break;
            case UCR_FEATURE_DEBRIS: ucr_symbol_debris(&m->pen, box); break;
            default: ucr_symbol_pool(&m->pen, cx, cy, w / 2); break;
            }
            ucr_device_end_group(m->pen.dev);
            take(m, box);
        }
        if ((a->stock & UCR_STOCK_TRAP) && !m->opt.player) {
            double size = ucr_pen_text_size(&m->pen, st->number_size);
            ucr_rect t = ucr_pen_text_rect(&m->pen, "T", st->hand_font, size, true, 0, 0), box;
            if (mark_box(m, (int)i, MAX(t.x1 - t.x0, t.y1 - t.y0), &box)) {
                ucr_device_begin_group(m->pen.dev, "stock:trap");
                ucr_rect r = ucr_pen_text(&m->pen, "T", st->hand_font, size, true, (box.x0 + box.x1) / 2,
                                          (box.y0 + box.y1) / 2, false);
                ucr_device_end_group(m->pen.dev);
                take(m, r);
            } else {
                /* A junction of one square that already holds its feature:
                 * the T goes beside it, like a label. */
                anchor an = { (int)i, false, { -1, -1 } };
                place_label(m, "stock:trap", &an, "T", NULL, st->hand_font, size, true);
            }
        }
    }
}

static void draw_numbers(map_ctx *m)
{
    const ucr_node *n = m->n;
    const ucr_style *st = m->st;
    if (m->opt.no_numbers)
        return;
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (m->hidden && m->hidden[i])
            continue;
        char num[16], group[32];
        g_snprintf(num, sizeof num, "%d", a->key);
        g_snprintf(group, sizeof group, "number:%d", a->key);
        anchor an = { (int)i, true, { -1, -1 } };
        double size = st->number_size;
        if (a->w * a->h == 1)
            size *= 0.85;   /* one square: the number must fit inside its walls */
        size = ucr_pen_text_size(&m->pen, size);
        if (a->kind == UCR_AREA_STAIRS) {
            /* Only the square the passage comes in by is free of treads. */
            int dx, dy;
            ucr_point in = area_entry(m, (int)i, &dx, &dy);
            double pad = size * 0.08;
            ucr_rect tr = ucr_pen_text_rect(&m->pen, num, st->hand_font, size, true, in.x + 0.5, in.y + 0.5);
            if (a->w * a->h > 1 &&
                label_fits(m, (ucr_rect){ tr.x0 - pad, tr.y0 - pad, tr.x1 + pad, tr.y1 + pad }, (int)i)) {
                ucr_device_begin_group(m->pen.dev, group);
                ucr_rect r = ucr_pen_text(&m->pen, num, st->hand_font, size, true, in.x + 0.5, in.y + 0.5, true);
                ucr_device_end_group(m->pen.dev);
                if (!m->opt.player) {
                    char *dest = ucr_map_key_dest(n->id, a->key);
                    m->link_to = dest;
                    link_label(m, r);
                    m->link_to = NULL;
                    g_free(dest);
                }
                take(m, (ucr_rect){ r.x0 - pad, r.y0 - pad, r.x1 + pad, r.y1 + pad });
                continue;
            }
            an.inside = false;
        }
        char *dest = m->opt.player ? NULL : ucr_map_key_dest(n->id, a->key);
        m->link_to = dest;
        place_label(m, group, &an, num, NULL, st->hand_font, size, true);
        m->link_to = NULL;
        g_free(dest);
    }
}

char *ucr_map_link_target(const ucr_megadungeon *md, const ucr_link *l)
{
    if (l->exit == UCR_EXIT_SURFACE)
        return g_strdup("surface");
    if (l->exit == UCR_EXIT_BELOW)
        return g_strdup("below");
    const ucr_node *t = g_ptr_array_index(md->nodes, l->to_node);
    return g_strdup_printf("%s-%d", t->id, g_array_index(t->areas, ucr_area, l->to_area).key);
}

char *ucr_map_link_label(const ucr_megadungeon *md, const ucr_link *l)
{
    if (l->kind == UCR_LINK_ENTRANCE)
        return g_strdup("ENTRANCE");
    const char *what;
    switch (l->kind) {
    case UCR_LINK_STAIRS_DOWN: what = "stairs down"; break;
    case UCR_LINK_STAIRS_UP: what = "stairs up"; break;
    case UCR_LINK_LADDER_DOWN: what = "ladder down"; break;
    case UCR_LINK_LADDER_UP: what = "ladder up"; break;
    default: what = NULL; break;
    }
    if (l->exit == UCR_EXIT_SURFACE)
        return g_strdup_printf("%s%sto the surface", what ? what : "", what ? " " : "");
    if (l->exit == UCR_EXIT_BELOW)
        return g_strdup_printf("%s%sto deeper levels", what ? what : "", what ? " " : "");
    char *t = ucr_map_link_target(md, l);
    char *s = g_strdup_printf("%s%sto %s", what ? what : "", what ? " " : "", t);
    g_free(t);
    return s;
}

/* The square where a passage from @area leaves the map by @side, or
 * (-1, -1). */
static ucr_point exit_square(const map_ctx *m, int area, ucr_dir side)
{
    const ucr_node *n = m->n;
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (int end = 0; end < 2; end++) {
            const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, end ? p->b : p->a);
            const ucr_vertex *o = &g_array_index(n->vertices, ucr_vertex, end ? p->a : p->b);
            if (v->kind != UCR_VERTEX_EXIT || o->area != area)
                continue;
            bool on = (side == UCR_NORTH && v->at.y == 0) || (side == UCR_SOUTH && v->at.y == m->H - 1) ||
                      (side == UCR_WEST && v->at.x == 0) || (side == UCR_EAST && v->at.x == m->W - 1);
            if (on)
                return v->at;
        }
    }
    return (ucr_point){ -1, -1 };
}

char *ucr_map_link_brief(const ucr_megadungeon *md, const ucr_link *l)
{
    if (l->kind == UCR_LINK_ENTRANCE)
        return g_strdup("IN");
    if (l->exit == UCR_EXIT_SURFACE)
        return g_strdup("to surface");
    if (l->exit == UCR_EXIT_BELOW)
        return g_strdup("below");
    char *t = ucr_map_link_target(md, l);
    char *s = g_strdup_printf("to %s", t);
    g_free(t);
    return s;
}

static void draw_exit_labels(map_ctx *m)
{
    const ucr_node *n = m->n;
    const ucr_style *st = m->st;
    double size = st->label_size;
    bool *labelled = g_new0(bool, n->vertices->len);
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (m->hidden && l->area >= 0 && l->area < (int)n->areas->len && m->hidden[l->area])
            continue;
        char *text = ucr_map_link_label(m->md, l), *brief = ucr_map_link_brief(m->md, l);
        char group[48];
        g_snprintf(group, sizeof group, "link:%s", ucr_link_kind_name(l->kind));
        /* Stairs or a ladder in an area: the label inside it first, beside
         * the flight, where there is room. */
        anchor an = { l->area, !l->has_side && l->area >= 0, { -1, -1 } };
        if (l->has_side)
            an.mouth = exit_square(m, l->area, l->side);
        for (guint v = n->areas->len; v < n->vertices->len && an.mouth.x >= 0; v++) {
            const ucr_vertex *vx = &g_array_index(n->vertices, ucr_vertex, v);
            if (vx->kind == UCR_VERTEX_EXIT && vx->at.x == an.mouth.x && vx->at.y == an.mouth.y)
                labelled[v] = true;
        }
        char *dest = NULL;
        if (!m->opt.player && l->exit != UCR_EXIT_SURFACE && l->exit != UCR_EXIT_BELOW && l->to_node >= 0) {
            const ucr_node *t = g_ptr_array_index(m->md->nodes, l->to_node);
            dest = ucr_map_key_dest(t->id, g_array_index(t->areas, ucr_area, l->to_area).key);
        }
        m->link_to = dest;
        m->label_owner = l->has_side ? -1 : l->area;
        place_label(m, group, &an, text, brief, st->hand_font, size, false);
        m->label_owner = -1;
        m->link_to = NULL;
        g_free(dest);
        g_free(text);
        g_free(brief);
    }
    /* Passages that leave the map with no link: the tunnel beyond is
     * collapsed. */
    for (guint v = n->areas->len; v < n->vertices->len; v++) {
        const ucr_vertex *vx = &g_array_index(n->vertices, ucr_vertex, v);
        if (vx->kind != UCR_VERTEX_EXIT || labelled[v])
            continue;
        anchor an = { -1, false, vx->at };
        place_label(m, "exit:collapsed", &an, "collapsed", NULL, st->hand_font, size, false);
    }
    g_free(labelled);
}

/* ---- the sheet ----------------------------------------------------------- */

static double header_height(const map_ctx *m)
{
    return m->opt.no_title ? SHEET_SIDE : m->st->title_size * 1.5;
}

/* Title: the node's name, then its level and method, in the band above
 * the map. */
static void draw_title(map_ctx *m, const ucr_map_extent *ext)
{
    const ucr_style *st = m->st;
    ucr_pen *pen = &m->pen;
    ucr_device_begin_group(pen->dev, "title");
    char *name = g_strdup_printf("Node %s", m->n->id);
    char *sub = g_strdup_printf("level %d  ·  %s method", m->n->depth, m->n->method);
    double ty = m->crop.y0 - header_height(m) / 2;
    ucr_rect r = ucr_pen_text_rect(pen, name, st->hand_font, st->title_size, true, 0, 0);
    double x = ext->x0 + SHEET_SIDE;
    ucr_pen_text(pen, name, st->hand_font, st->title_size, true, x + (r.x1 - r.x0) / 2, ty, false);
    x += r.x1 - r.x0 + st->title_size * 0.6;
    ucr_rect r2 = ucr_pen_text_rect(pen, sub, st->hand_font, st->title_size * 0.5, false, 0, 0);
    ucr_pen_text(pen, sub, st->hand_font, st->title_size * 0.5, false, x + (r2.x1 - r2.x0) / 2,
                 ty + st->title_size * 0.2, false);
    g_free(name);
    g_free(sub);
    ucr_device_end_group(pen->dev);
}

static void draw_sheet(map_ctx *m, ucr_map_extent *ext)
{
    const ucr_style *st = m->st;
    ucr_pen *pen = &m->pen;
    /* Frame of the shown map: a plain thin rule. */
    ucr_path *f = crop_path(m);
    ucr_stroke s = { st->symbol_width * 0.8, UCR_CAP_BUTT, UCR_JOIN_MITER, 0, { 0 } };
    ucr_device_begin_group(pen->dev, "frame");
    ucr_device_stroke_path(pen->dev, f, &s, st->ink);
    ucr_device_end_group(pen->dev);
    ucr_path_free(f);
    if (!m->opt.no_title)
        draw_title(m, ext);
    /* The scale bar with its words above and below, the compass with its
     * N on top: both just under the frame, however large the text. */
    double ts = ucr_pen_text_size(pen, 0.45), ns = ucr_pen_text_size(pen, COMPASS_R * 0.55);
    ucr_rect words = ucr_pen_text_rect(pen, "1 square = 10 ft", st->text_font, ts, false, 0, 0);
    double bar_x = ext->x0 + SHEET_SIDE + MAX(0.2, (words.x1 - words.x0) / 2 - 2.5);
    ucr_symbol_scale_bar(pen, bar_x, m->crop.y1 + 0.4 + ts * 1.3, 5);
    ucr_symbol_compass(pen, ext->x1 - SHEET_SIDE - 1.0, m->crop.y1 + 0.4 + ns + COMPASS_R, COMPASS_R);
}

/* The band below the map: scale bar and compass (see draw_sheet). */
static double footer_height(const ucr_pen *pen)
{
    double ts = ucr_pen_text_size(pen, 0.45), ns = ucr_pen_text_size(pen, COMPASS_R * 0.55);
    double bar = 0.4 + ts * 1.3 + 0.28 + ts * 1.4, compass = 0.4 + ns + 2 * COMPASS_R;
    return MAX(bar, compass) + 0.4;
}

/* The sheet around the cropped map: bands for the title and the scale
 * bar, never narrower than MIN_SHEET_W. */
static ucr_map_extent sheet_extent(const map_ctx *m)
{
    ucr_map_extent ext = { m->crop.x0 - SHEET_SIDE, m->crop.y0 - header_height(m), m->crop.x1 + SHEET_SIDE,
                           m->crop.y1 + footer_height(&m->pen), 0 };
    if (ext.x1 - ext.x0 < MIN_SHEET_W) {
        double grow = (MIN_SHEET_W - (ext.x1 - ext.x0)) / 2;
        ext.x0 -= grow;
        ext.x1 += grow;
    }
    return ext;
}

double ucr_map_scale_to_fit(const ucr_node *node, const ucr_style *style, double w, double h)
{
    ucr_map_options opt = { 0 };
    return ucr_map_scale_to_fit_with(node, style, &opt, w, h);
}

double ucr_map_scale_to_fit_with(const ucr_node *node, const ucr_style *style,
                                 const ucr_map_options *opt, double w, double h)
{
    double min_pt = opt->min_text_pt > 0 ? opt->min_text_pt : UCR_MAP_MIN_TEXT_PT;
    map_ctx m = { 0 };
    m.label_owner = -1;
    m.opt = *opt;
    if (opt->player && !opt->all_areas)
        m.hidden = hidden_areas(node);
    m.n = node;
    m.st = style;
    m.W = node->width;
    m.H = node->height;
    m.pen.style = style;
    floor_grid(&m);
    crop_to_content(&m);
    /* The sheet grows as the scale shrinks (its text is never below
     * UCR_MAP_MIN_TEXT_PT), so the sheet's size in points grows with the
     * scale: the largest scale that fits, by bisection. */
    double lo = 0.5, hi = 200;
    for (int i = 0; i < 50; i++) {
        double s = (lo + hi) / 2;
        m.pen.min_text = min_pt / s;
        ucr_map_extent e = sheet_extent(&m);
        if ((e.x1 - e.x0) * s <= w && (e.y1 - e.y0) * s <= h)
            lo = s;
        else
            hi = s;
    }
    g_free(m.g);
    g_free(m.cut);
    g_free(m.hidden);
    return lo;
}

void ucr_map_draw(ucr_device *dev, const ucr_megadungeon *md, const ucr_node *node,
                  const ucr_style *style, PangoFontMap *fonts, ucr_map_extent *extent)
{
    ucr_map_draw_scaled(dev, md, node, style, fonts, 0, extent);
}

void ucr_map_draw_scaled(ucr_device *dev, const ucr_megadungeon *md, const ucr_node *node,
                         const ucr_style *style, PangoFontMap *fonts, double points_per_square,
                         ucr_map_extent *extent)
{
    ucr_map_options opt = { .points_per_square = points_per_square };
    ucr_map_draw_with(dev, md, node, style, fonts, &opt, extent);
}

char *ucr_map_key_dest(const char *node_id, int key)
{
    return g_strdup_printf("key-%s-%d", node_id, key);
}

void ucr_map_draw_with(ucr_device *dev, const ucr_megadungeon *md, const ucr_node *node,
                       const ucr_style *style, PangoFontMap *fonts, const ucr_map_options *opt,
                       ucr_map_extent *extent)
{
    double points_per_square = opt->points_per_square;
    double min_pt = opt->min_text_pt > 0 ? opt->min_text_pt : UCR_MAP_MIN_TEXT_PT;
    map_ctx m = { 0 };
    m.label_owner = -1;
    m.opt = *opt;
    if (opt->player && !opt->all_areas)
        m.hidden = hidden_areas(node);
    m.md = md;
    m.n = node;
    m.st = style;
    m.W = node->width;
    m.H = node->height;
    m.pen.dev = dev;
    m.pen.style = style;
    m.pen.fonts = fonts;
    m.pen.min_text = points_per_square > 0 ? min_pt / points_per_square : 0;
    m.taken = g_array_new(FALSE, FALSE, sizeof(ucr_rect));
    floor_grid(&m);
    find_walls(&m);
    crop_to_content(&m);
    ucr_map_extent ext = sheet_extent(&m);
    if (opt->bare)
        ext = (ucr_map_extent){ m.crop.x0, m.crop.y0, m.crop.x1, m.crop.y1, 0 };
    /* One stream per layer, so that (say) a change to the hatching leaves
     * the walls as they were. */
    char *label = g_strdup_printf("ink/%s", node->id);
    ucr_prng_seed(&m.pen.rng, md->seed, label);
    ucr_path *paper = ucr_path_new();
    ucr_path_rect(paper, ext.x0, ext.y0, ext.x1 - ext.x0, ext.y1 - ext.y0);
    ucr_device_fill_path(dev, paper, false, style->paper);
    ucr_path_free(paper);
    draw_rock(&m);
    draw_floor_and_grid(&m);
    draw_walls(&m);
    ucr_prng_seed(&m.pen.rng, md->seed, label);
    draw_doors(&m);
    draw_floor_symbols(&m);
    draw_area_marks(&m);
    draw_numbers(&m);
    draw_exit_labels(&m);
    if (!opt->bare)
        draw_sheet(&m, &ext);
    ext.crowded = m.crowded;
    if (extent)
        *extent = ext;
    g_free(label);
    g_array_free(m.taken, TRUE);
    g_free(m.g);
    g_free(m.cut);
    g_free(m.hwall);
    g_free(m.vwall);
    g_free(m.hidden);
}

ucr_display_list *ucr_map_record_with(const ucr_megadungeon *md, const ucr_node *node,
                                      const ucr_style *style, PangoFontMap *fonts,
                                      const ucr_map_options *opt, ucr_map_extent *extent)
{
    ucr_display_list *list = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(list);
    ucr_map_draw_with(dev, md, node, style, fonts, opt, extent);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    return list;
}

ucr_display_list *ucr_map_record(const ucr_megadungeon *md, const ucr_node *node,
                                 const ucr_style *style, PangoFontMap *fonts,
                                 ucr_map_extent *extent)
{
    return ucr_map_record_scaled(md, node, style, fonts, 0, extent);
}

ucr_display_list *ucr_map_record_scaled(const ucr_megadungeon *md, const ucr_node *node,
                                        const ucr_style *style, PangoFontMap *fonts,
                                        double points_per_square, ucr_map_extent *extent)
{
    ucr_display_list *list = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(list);
    ucr_map_draw_scaled(dev, md, node, style, fonts, points_per_square, extent);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    return list;
}

ucr_matrix ucr_map_fit(const ucr_map_extent *e, double x, double y, double w, double h)
{
    double s = MIN(w / (e->x1 - e->x0), h / (e->y1 - e->y0));
    double left = x + (w - s * (e->x1 - e->x0)) / 2;
    return ucr_matrix_scale_translate(s, left - s * e->x0, y - s * e->y0);
}

ucr_display_list *ucr_map_record_sheet_with(const ucr_megadungeon *md, const ucr_node *node,
                                            const ucr_style *style, PangoFontMap *fonts,
                                            const ucr_map_options *opt, double *width, double *height)
{
    ucr_map_extent ext;
    ucr_map_options o = *opt;
    o.points_per_square = UCR_MAP_FILE_CELL;
    ucr_display_list *map = ucr_map_record_with(md, node, style, fonts, &o, &ext);
    double s = UCR_MAP_FILE_CELL, w = (ext.x1 - ext.x0) * s, h = (ext.y1 - ext.y0) * s;
    ucr_display_list *page = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(page);
    ucr_matrix ctm = ucr_matrix_scale_translate(s, -ext.x0 * s, -ext.y0 * s);
    ucr_device_begin_page(dev, w, h);
    ucr_display_list_replay(map, dev, &ctm);
    ucr_device_end_page(dev);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    ucr_display_list_free(map);
    *width = w;
    *height = h;
    return page;
}

ucr_display_list *ucr_map_record_sheet(const ucr_megadungeon *md, const ucr_node *node,
                                       const ucr_style *style, PangoFontMap *fonts, double *width,
                                       double *height)
{
    ucr_map_options opt = { 0 };
    return ucr_map_record_sheet_with(md, node, style, fonts, &opt, width, height);
}

/* The wall edge between squares @a and @b, side by side, left open. */
static void open_edge(map_ctx *m, ucr_point a, ucr_point b)
{
    int W = m->W;
    if (a.x < 0 || a.y < 0 || b.x < 0 || b.y < 0 || a.x >= W || b.x >= W || a.y >= m->H || b.y >= m->H)
        return;
    if (a.y == b.y && abs(a.x - b.x) == 1)
        m->vwall[a.y * (W + 1) + MAX(a.x, b.x)] = false;
    else if (a.x == b.x && abs(a.y - b.y) == 1)
        m->hwall[MAX(a.y, b.y) * W + a.x] = false;
}

/* See ucr_map_plan: the walls a passage crosses under or over an element. */
static void open_crossings(map_ctx *m)
{
    for (guint i = 0; i < m->n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(m->n->passages, ucr_passage, i);
        if (m->hidden && passage_hidden(m, p))
            continue;
        for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
            int first = MAX(cr->first - 1, 0), last = MIN(cr->last + 1, (int)p->cells->len - 1);
            for (int k = first; k < last; k++)
                open_edge(m, g_array_index(p->cells, ucr_point, k), g_array_index(p->cells, ucr_point, k + 1));
        }
    }
}

ucr_map_plan *ucr_map_plan_new(const ucr_node *node, const ucr_map_options *opt)
{
    map_ctx m = { 0 };
    m.label_owner = -1;
    m.opt = *opt;
    if (opt->player && !opt->all_areas)
        m.hidden = hidden_areas(node);
    m.n = node;
    m.W = node->width;
    m.H = node->height;
    floor_grid(&m);
    find_walls(&m);
    open_crossings(&m);
    crop_to_content(&m);
    ucr_map_plan *plan = g_new0(ucr_map_plan, 1);
    plan->shown = m.crop;
    plan->doors = g_array_new(FALSE, FALSE, sizeof(int));
    plan->walls = g_array_new(FALSE, FALSE, sizeof(ucr_map_segment));
    /* The doors drawn, their edges left open. */
    int W = m.W;
    for (guint i = 0; i < node->doors->len; i++) {
        const ucr_door *d = &g_array_index(node->doors, ucr_door, i);
        if (!door_drawn(&m, d))
            continue;
        const ucr_area *a = &g_array_index(node->areas, ucr_area, d->area);
        switch (d->side) {
        case UCR_NORTH: m.hwall[a->y * W + d->cell.x] = false; break;
        case UCR_SOUTH: m.hwall[(a->y + a->h) * W + d->cell.x] = false; break;
        case UCR_WEST: m.vwall[d->cell.y * (W + 1) + a->x] = false; break;
        case UCR_EAST: m.vwall[d->cell.y * (W + 1) + a->x + a->w] = false; break;
        }
        int index = (int)i;
        g_array_append_val(plan->doors, index);
    }
    wall_segments(&m, plan->walls);
    g_free(m.g);
    g_free(m.cut);
    g_free(m.hwall);
    g_free(m.vwall);
    g_free(m.hidden);
    return plan;
}

void ucr_map_plan_free(ucr_map_plan *plan)
{
    if (!plan)
        return;
    g_array_free(plan->walls, TRUE);
    g_array_free(plan->doors, TRUE);
    g_free(plan);
}
