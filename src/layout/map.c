#include "layout/map.h"

#include <math.h>

#include "layout/fonts.h"

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

static int *floor_grid(const ucr_node *n)
{
    int *g = g_new(int, n->width * n->height);
    for (int i = 0; i < n->width * n->height; i++)
        g[i] = -1;
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        for (int y = a->y; y < a->y + a->h; y++)
            for (int x = a->x; x < a->x + a->w; x++)
                g[y * n->width + x] = (int)i;
    }
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (guint k = 0; k < p->cells->len; k++) {
            ucr_point c = g_array_index(p->cells, ucr_point, k);
            if (!crossing_at(p, (int)k))
                g[c.y * n->width + c.x] = PASSAGE + (int)i;
        }
    }
    return g;
}

/* Stretches under or over another element (seed 000) keep that element's
 * floor; their walls are drawn dashed on top. */
static void draw_crossings(cairo_t *cr, const ucr_node *n, double cell)
{
    static const double dash[] = { 0.18, 0.14 };
    double d[2] = { dash[0] * cell, dash[1] * cell };
    cairo_save(cr);
    cairo_set_dash(cr, d, 2, 0);
    cairo_set_line_width(cr, cell * 0.07);
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
            const ucr_crossing *c = &g_array_index(p->crossings, ucr_crossing, x);
            ucr_point a = g_array_index(p->cells, ucr_point, c->first - 1);
            ucr_point b = g_array_index(p->cells, ucr_point, c->last + 1);
            if (a.y == b.y) {
                double x0 = (MIN(a.x, b.x) + 1) * cell, x1 = MAX(a.x, b.x) * cell;
                cairo_move_to(cr, x0, a.y * cell);
                cairo_line_to(cr, x1, a.y * cell);
                cairo_move_to(cr, x0, (a.y + 1) * cell);
                cairo_line_to(cr, x1, (a.y + 1) * cell);
            } else {
                double y0 = (MIN(a.y, b.y) + 1) * cell, y1 = MAX(a.y, b.y) * cell;
                cairo_move_to(cr, a.x * cell, y0);
                cairo_line_to(cr, a.x * cell, y1);
                cairo_move_to(cr, (a.x + 1) * cell, y0);
                cairo_line_to(cr, (a.x + 1) * cell, y1);
            }
        }
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

static int owner_at(const ucr_node *n, const int *g, int x, int y)
{
    if (x < 0 || y < 0 || x >= n->width || y >= n->height)
        return -1;
    return g[y * n->width + x];
}

/* Two squares of different elements are open to each other when a passage
 * ends at the other's area (or runs on from it). */
static gboolean joined(const ucr_node *n, int o1, int o2)
{
    if (o1 < 0 || o2 < 0)
        return FALSE;
    if (o1 == o2)
        return TRUE;
    if (o1 >= PASSAGE && o2 >= PASSAGE)
        return FALSE;
    if (o1 < PASSAGE && o2 < PASSAGE)
        return FALSE;
    int p = o1 >= PASSAGE ? o1 - PASSAGE : o2 - PASSAGE;
    int a = o1 >= PASSAGE ? o2 : o1;
    const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, p);
    return ps->a == a || ps->b == a;
}

void ucr_map_text(cairo_t *cr, PangoFontMap *fonts, const char *family, double size,
                  gboolean bold, const char *text, double cx, double cy, gboolean halo)
{
    PangoContext *ctx = pango_font_map_create_context(fonts);
    pango_cairo_update_context(cr, ctx);
    PangoLayout *layout = pango_layout_new(ctx);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, family);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    if (bold)
        pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    pango_layout_set_font_description(layout, fd);
    pango_layout_set_text(layout, text, -1);
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    if (halo) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_rectangle(cr, cx - w / 2.0 - 1, cy - h / 2.0, w + 2, h);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, cx - w / 2.0, cy - h / 2.0);
    pango_cairo_show_layout(cr, layout);
    pango_font_description_free(fd);
    g_object_unref(layout);
    g_object_unref(ctx);
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

static void draw_door(cairo_t *cr, PangoFontMap *fonts, const ucr_node *n, const ucr_door *d,
                      double cell)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, d->area);
    double x, y;
    gboolean vertical_wall = d->side == UCR_EAST || d->side == UCR_WEST;
    switch (d->side) {
    case UCR_NORTH: x = d->cell.x + 0.5; y = a->y; break;
    case UCR_SOUTH: x = d->cell.x + 0.5; y = a->y + a->h; break;
    case UCR_WEST: x = a->x; y = d->cell.y + 0.5; break;
    default: x = a->x + a->w; y = d->cell.y + 0.5; break;
    }
    x *= cell;
    y *= cell;
    if (d->kind == UCR_DOOR_SECRET) {
        /* The classic secret door: the wall stays, an S sits on it. */
        ucr_map_text(cr, fonts, UCR_FONT_TEXT, cell * 0.75, TRUE, "S", x, y, TRUE);
        return;
    }
    double lw = cell * 0.55, th = cell * 0.28;
    double w = vertical_wall ? th : lw, h = vertical_wall ? lw : th;
    cairo_rectangle(cr, x - w / 2, y - h / 2, w, h);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, cell * 0.08);
    cairo_stroke(cr);
}

/* Stairs in @a: treads follow the direction of travel, @across when it
 * runs along x. */
static void draw_stairs_oriented(cairo_t *cr, const ucr_area *a, double cell, gboolean across)
{
    double x0 = a->x * cell, y0 = a->y * cell, w = a->w * cell, h = a->h * cell;
    gboolean ladder = a->stair == UCR_LADDER_DOWN || a->stair == UCR_LADDER_UP;
    gboolean down = a->stair == UCR_STAIR_DOWN || a->stair == UCR_LADDER_DOWN;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, cell * 0.06);
    if (ladder) {
        double cx = x0 + w / 2, cy = y0 + h / 2, r = cell * 0.22;
        double len = (across ? w : h) * 0.8;
        for (int s = -1; s <= 1; s += 2) {
            if (across) {
                cairo_move_to(cr, cx - len / 2, cy + s * r);
                cairo_line_to(cr, cx + len / 2, cy + s * r);
            } else {
                cairo_move_to(cr, cx + s * r, cy - len / 2);
                cairo_line_to(cr, cx + s * r, cy + len / 2);
            }
        }
        int rungs = (int)(len / (cell * 0.3));
        for (int i = 0; i <= rungs; i++) {
            double t = -len / 2 + i * len / (rungs ? rungs : 1);
            if (across) {
                cairo_move_to(cr, cx + t, cy - r);
                cairo_line_to(cr, cx + t, cy + r);
            } else {
                cairo_move_to(cr, cx - r, cy + t);
                cairo_line_to(cr, cx + r, cy + t);
            }
        }
        cairo_stroke(cr);
    } else {
        int treads = (int)((across ? w : h) / (cell * 0.25));
        for (int i = 1; i < treads; i++) {
            /* Treads get shorter going down, the usual way of drawing it. */
            double f = down ? 1.0 - 0.5 * i / treads : 0.5 + 0.5 * i / treads;
            if (across) {
                double x = x0 + i * w / treads, inset = (h - h * f) / 2 + cell * 0.08;
                cairo_move_to(cr, x, y0 + inset);
                cairo_line_to(cr, x, y0 + h - inset);
            } else {
                double y = y0 + i * h / treads, inset = (w - w * f) / 2 + cell * 0.08;
                cairo_move_to(cr, x0 + inset, y);
                cairo_line_to(cr, x0 + w - inset, y);
            }
        }
        cairo_stroke(cr);
    }
}

static void draw_stairs(cairo_t *cr, const ucr_area *a, double cell)
{
    draw_stairs_oriented(cr, a, cell, a->w >= a->h);   /* treads across the longer side */
}

static void draw_rubble(cairo_t *cr, ucr_point c, double cell)
{
    /* A scatter of small stones across the passage: fixed pattern, so the
     * drawing is the same every run. */
    static const double stones[][2] = { { .2, .25 }, { .55, .2 }, { .8, .4 }, { .35, .55 },
                                        { .65, .7 }, { .2, .8 }, { .5, .45 }, { .85, .8 } };
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (unsigned i = 0; i < G_N_ELEMENTS(stones); i++) {
        cairo_arc(cr, (c.x + stones[i][0]) * cell, (c.y + stones[i][1]) * cell, cell * 0.09, 0,
                  2 * G_PI);
        cairo_fill(cr);
    }
}

void ucr_map_draw(cairo_t *cr, PangoFontMap *fonts, const ucr_megadungeon *md,
                  const ucr_node *n, double cell)
{
    int *g = floor_grid(n);
    double W = n->width * cell, H = n->height * cell;
    cairo_save(cr);
    /* Rock: light grey, so the white floor reads at a glance in print. */
    cairo_rectangle(cr, 0, 0, W, H);
    cairo_set_source_rgb(cr, 0.82, 0.82, 0.82);
    cairo_fill(cr);
    for (int y = 0; y < n->height; y++)
        for (int x = 0; x < n->width; x++)
            if (g[y * n->width + x] >= 0)
                cairo_rectangle(cr, x * cell, y * cell, cell, cell);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill(cr);
    /* Graph paper: one line per 10-ft square. */
    cairo_set_source_rgb(cr, 0.55, 0.7, 0.9);
    cairo_set_line_width(cr, cell * 0.03);
    for (int x = 0; x <= n->width; x++) {
        cairo_move_to(cr, x * cell, 0);
        cairo_line_to(cr, x * cell, H);
    }
    for (int y = 0; y <= n->height; y++) {
        cairo_move_to(cr, 0, y * cell);
        cairo_line_to(cr, W, y * cell);
    }
    cairo_stroke(cr);
    /* Walls: every edge between floor and something it does not open to. */
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, cell * 0.12);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE);
    for (int y = 0; y < n->height; y++)
        for (int x = 0; x < n->width; x++) {
            int o = g[y * n->width + x];
            if (o < 0)
                continue;
            int right = owner_at(n, g, x + 1, y), below = owner_at(n, g, x, y + 1);
            int left = owner_at(n, g, x - 1, y), above = owner_at(n, g, x, y - 1);
            if (!joined(n, o, above) && !(above >= 0 && o > above)) {
                cairo_move_to(cr, x * cell, y * cell);
                cairo_line_to(cr, (x + 1) * cell, y * cell);
            }
            if (!joined(n, o, below) && !(below >= 0 && o > below)) {
                cairo_move_to(cr, x * cell, (y + 1) * cell);
                cairo_line_to(cr, (x + 1) * cell, (y + 1) * cell);
            }
            if (!joined(n, o, left) && !(left >= 0 && o > left)) {
                cairo_move_to(cr, x * cell, y * cell);
                cairo_line_to(cr, x * cell, (y + 1) * cell);
            }
            if (!joined(n, o, right) && !(right >= 0 && o > right)) {
                cairo_move_to(cr, (x + 1) * cell, y * cell);
                cairo_line_to(cr, (x + 1) * cell, (y + 1) * cell);
            }
        }
    cairo_stroke(cr);
    /* Passages leaving the map stay open at the edge. */
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        if (p->rubble >= 0)
            draw_rubble(cr, g_array_index(p->cells, ucr_point, p->rubble), cell);
    }
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (a->kind == UCR_AREA_STAIRS)
            draw_stairs(cr, a, cell);
    }
    /* Steps inside passages: drawn like a one-square landing, treads across
     * the way the passage runs. */
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (guint k = 0; k < p->stairs->len; k++) {
            const ucr_passage_stairs *ps = &g_array_index(p->stairs, ucr_passage_stairs, k);
            ucr_point c = g_array_index(p->cells, ucr_point, ps->index);
            ucr_point nb = g_array_index(p->cells, ucr_point,
                                         ps->index + 1 < (int)p->cells->len ? ps->index + 1
                                                                            : MAX(ps->index - 1, 0));
            gboolean along_x = nb.y == c.y;
            ucr_area a = { 0 };
            a.x = c.x;
            a.y = c.y;
            a.w = 1;
            a.h = 1;
            a.stair = ps->stair;
            draw_stairs_oriented(cr, &a, cell, along_x);
        }
    }
    draw_crossings(cr, n, cell);
    for (guint i = 0; i < n->doors->len; i++)
        draw_door(cr, fonts, n, &g_array_index(n->doors, ucr_door, i), cell);
    /* Area numbers, on a white patch so walls and treads never hide them. */
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        char num[16];
        g_snprintf(num, sizeof num, "%d", a->key);
        if (a->kind == UCR_AREA_JUNCTION) {
            /* A junction is one square full of door symbols: its number goes
             * on the rock just off its upper-left corner, which no passage
             * may touch. */
            ucr_map_text(cr, fonts, UCR_FONT_HAND, cell * 0.7, TRUE, num, (a->x - 0.45) * cell,
                    (a->y - 0.45) * cell, TRUE);
            continue;
        }
        double size = a->w * a->h <= 2 ? cell * 0.7 : cell * 0.9;
        ucr_map_text(cr, fonts, UCR_FONT_HAND, size, TRUE, num, (a->x + a->w / 2.0) * cell,
                (a->y + a->h / 2.0) * cell, TRUE);
    }
    /* Where the ways off this map lead. */
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, p->b);
        if (v->kind != UCR_VERTEX_EXIT)
            continue;
        const ucr_vertex *va = &g_array_index(n->vertices, ucr_vertex, p->a);
        char *label = NULL;
        for (guint k = 0; k < n->links->len; k++) {
            const ucr_link *l = &g_array_index(n->links, ucr_link, k);
            if (l->area == va->area && l->has_side) {
                gboolean same_side = (l->side == UCR_NORTH && v->at.y == 0) ||
                                     (l->side == UCR_SOUTH && v->at.y == n->height - 1) ||
                                     (l->side == UCR_WEST && v->at.x == 0) ||
                                     (l->side == UCR_EAST && v->at.x == n->width - 1);
                if (!same_side)
                    continue;
                char *t = ucr_map_link_target(md, l);
                label = l->kind == UCR_LINK_ENTRANCE ? g_strdup("ENTRANCE") : g_strdup_printf("to %s", t);
                g_free(t);
            }
        }
        if (!label)
            label = g_strdup("collapsed");
        double lx = (v->at.x + 0.5) * cell, ly = (v->at.y + 0.5) * cell;
        /* Pull the label in from the edge, beside the passage mouth. */
        if (v->at.x == 0) lx += cell * 2.2;
        else if (v->at.x == n->width - 1) lx -= cell * 2.2;
        if (v->at.y == 0) ly += cell * 1.0;
        else if (v->at.y == n->height - 1) ly -= cell * 1.0;
        if (v->at.y == 0 || v->at.y == n->height - 1)
            lx += cell * 2.2;
        else
            ly -= cell * 1.0;
        ucr_map_text(cr, fonts, UCR_FONT_TEXT, cell * 0.62, TRUE, label, lx, ly, TRUE);
        g_free(label);
    }
    /* Map frame. */
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, 0, 0, W, H);
    cairo_stroke(cr);
    cairo_restore(cr);
    g_free(g);
}
