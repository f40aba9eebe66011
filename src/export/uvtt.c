/* undercroft — Universal VTT export (see uvtt.h).
 *
 * Walls and doors are the map's own (layout/map.h's ucr_map_plan): the same
 * runs of wall the pen draws, 45° runs for seed 003's diamond rooms and
 * diagonal corridors, each door's edge left open and covered by a portal.
 * So what blocks sight on the table is what the picture shows.
 *
 * Secret doors.  The game master's file makes every door a portal, secret
 * doors too: the format has no "secret" flag, and a portal is the only way
 * for tokens to pass once the door is found (Foundry's importer makes each
 * portal a door, which the GM may then mark secret: players see a wall).
 * The players' file (--player) makes them plain walls: no portal, no symbol
 * on the image, and the areas only a secret door leads to are not drawn at
 * all (the player map's rule), so nothing in the file gives them away.
 *
 * Lights: none (the model places no light sources; the GM lights the scene).
 * The environment is baked lighting with a white ambient light, as a drawn
 * map is seen. */
#include "export/uvtt.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "layout/map.h"
#include "render/cairo_device.h"

/* A number in grid units: whole or half squares, never locale-dependent. */
static void put_num(GString *s, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append(s, g_ascii_formatd(buf, sizeof buf, "%.6g", v == 0 ? 0 : v));
}

static void put_point(GString *s, double x, double y)
{
    g_string_append(s, "{\"x\": ");
    put_num(s, x);
    g_string_append(s, ", \"y\": ");
    put_num(s, y);
    g_string_append_c(s, '}');
}

/* The walls as polylines: runs that meet end to start are joined (greedily,
 * in the map's order, so the file is the same every time). */
static void put_walls(GString *s, const GArray *walls, double ox, double oy)
{
    guint n = walls->len;
    bool *used = g_new0(bool, n ? n : 1);
    bool first_line = true;
    g_string_append(s, "  \"line_of_sight\": [");
    for (guint i = 0; i < n; i++) {
        if (used[i])
            continue;
        used[i] = true;
        const ucr_map_segment *w = &g_array_index(walls, ucr_map_segment, i);
        g_string_append(s, first_line ? "\n    [" : ",\n    [");
        first_line = false;
        put_point(s, w->x0 - ox, w->y0 - oy);
        g_string_append(s, ", ");
        put_point(s, w->x1 - ox, w->y1 - oy);
        double ex = w->x1, ey = w->y1;
        for (bool grown = true; grown;) {
            grown = false;
            for (guint k = 0; k < n; k++) {
                const ucr_map_segment *v = &g_array_index(walls, ucr_map_segment, k);
                if (used[k])
                    continue;
                double nx, ny;
                if (v->x0 == ex && v->y0 == ey) {
                    nx = v->x1;
                    ny = v->y1;
                } else if (v->x1 == ex && v->y1 == ey) {
                    nx = v->x0;
                    ny = v->y0;
                } else {
                    continue;
                }
                used[k] = true;
                g_string_append(s, ", ");
                put_point(s, nx - ox, ny - oy);
                ex = nx;
                ey = ny;
                grown = true;
                break;
            }
        }
        g_string_append_c(s, ']');
    }
    g_string_append(s, first_line ? "],\n" : "\n  ],\n");
    g_free(used);
}

/* Door @d's edge: the wall edge between its area and the passage square in
 * front of it. */
static void door_edge(const ucr_node *node, const ucr_door *d, double *x0, double *y0, double *x1, double *y1)
{
    const ucr_area *a = &g_array_index(node->areas, ucr_area, d->area);
    switch (d->side) {
    case UCR_NORTH:
    case UCR_SOUTH:
        *x0 = d->cell.x;
        *x1 = d->cell.x + 1;
        *y0 = *y1 = d->side == UCR_NORTH ? a->y : a->y + a->h;
        break;
    default:
        *y0 = d->cell.y;
        *y1 = d->cell.y + 1;
        *x0 = *x1 = d->side == UCR_WEST ? a->x : a->x + a->w;
        break;
    }
}

static void put_portals(GString *s, const ucr_node *node, const GArray *doors, double ox, double oy)
{
    g_string_append(s, "  \"portals\": [");
    for (guint i = 0; i < doors->len; i++) {
        const ucr_door *d = &g_array_index(node->doors, ucr_door, g_array_index(doors, int, i));
        double x0, y0, x1, y1;
        door_edge(node, d, &x0, &y0, &x1, &y1);
        g_string_append(s, i ? ",\n    {\"position\": " : "\n    {\"position\": ");
        put_point(s, (x0 + x1) / 2 - ox, (y0 + y1) / 2 - oy);
        g_string_append(s, ", \"bounds\": [");
        put_point(s, x0 - ox, y0 - oy);
        g_string_append(s, ", ");
        put_point(s, x1 - ox, y1 - oy);
        /* Rotation in radians, as Dungeondraft writes it: 0 along x. */
        g_string_append_printf(s, "], \"rotation\": %s, \"closed\": true, \"freestanding\": false}",
                               x0 == x1 ? "1.570796" : "0");
    }
    g_string_append(s, doors->len ? "\n  ],\n" : "],\n");
}

char *ucr_vtt_map_png(const ucr_megadungeon *md, const ucr_node *node, const ucr_style *style, PangoFontMap *fonts,
                     const ucr_map_options *mo, ucr_rect shown, int ppg, size_t *len, GError **error)
{
    char *buf = NULL;
    FILE *mem = open_memstream(&buf, len);
    if (!mem) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "cannot draw the map of node %s: %s", node->id,
                    g_strerror(errno));
        return NULL;
    }
    ucr_display_list *list = ucr_map_record_with(md, node, style, fonts, mo, NULL);
    /* 72 dpi: a point is a pixel, so the page is exactly the image. */
    double w = (shown.x1 - shown.x0) * ppg, h = (shown.y1 - shown.y0) * ppg;
    ucr_device *dev = ucr_cairo_device_new(UCR_CAIRO_PNG, mem, w, h, 72, fonts);
    ucr_matrix ctm = ucr_matrix_scale_translate(ppg, -shown.x0 * ppg, -shown.y0 * ppg);
    ucr_device_begin_page(dev, w, h);
    ucr_display_list_replay(list, dev, &ctm);
    ucr_device_end_page(dev);
    gboolean ok = ucr_device_close(dev, error);
    ucr_device_free(dev);
    ucr_display_list_free(list);
    if (fclose(mem) != 0 && ok) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "cannot draw the map of node %s: %s", node->id,
                    g_strerror(errno));
        ok = FALSE;
    }
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

gboolean ucr_vtt_fits(const ucr_node *node, ucr_rect shown, int ppg, GError **error)
{
    int side = (int)MAX(shown.x1 - shown.x0, shown.y1 - shown.y0);
    if ((double)side * ppg <= UCR_UVTT_MAX_SIDE)
        return TRUE;
    /* Tabletops load images as GPU textures, 8192 pixels a side on many
     * machines; and a larger one takes gigabytes to draw. */
    g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                "node %s is %d squares across: at --grid-pixels %d its image would be %d pixels, more than "
                "the %d a virtual tabletop loads; use --grid-pixels %d or less",
                node->id, side, ppg, side * ppg, UCR_UVTT_MAX_SIDE, UCR_UVTT_MAX_SIDE / side);
    return FALSE;
}

gboolean ucr_uvtt_write(FILE *out, const ucr_megadungeon *md, const ucr_node *node, const ucr_style *style,
                        PangoFontMap *fonts, const ucr_uvtt_options *opt, GError **error)
{
    ucr_map_options mo = { .player = opt->player, .bare = true };
    ucr_map_plan *plan = ucr_map_plan_new(node, &mo);
    ucr_rect shown = plan->shown;
    int ppg = opt->pixels_per_grid;
    if (!ucr_vtt_fits(node, shown, ppg, error)) {
        ucr_map_plan_free(plan);
        return FALSE;
    }
    size_t png_len = 0;
    char *png = ucr_vtt_map_png(md, node, style, fonts, &mo, shown, ppg, &png_len, error);
    if (!png) {
        ucr_map_plan_free(plan);
        return FALSE;
    }
    GString *s = g_string_new("{\n  \"format\": 0.3,\n  \"resolution\": {\n    \"map_origin\": ");
    /* 0, 0: every coordinate below is from the image's top-left corner.
     * Foundry's Universal Battlemap Importer subtracts the origin from the
     * walls but not from the doors, and Owlbear's importers ignore it: only
     * 0, 0 puts the walls and the doors where the image has them in all. */
    put_point(s, 0, 0);
    g_string_append(s, ",\n    \"map_size\": ");
    put_point(s, shown.x1 - shown.x0, shown.y1 - shown.y0);
    g_string_append_printf(s, ",\n    \"pixels_per_grid\": %d\n  },\n", ppg);
    /* Ours, which importers pass over: where the image's corner lies in
     * the model's (the JSON's) squares. */
    g_string_append(s, "  \"undercroft\": {\"model_origin\": ");
    put_point(s, shown.x0, shown.y0);
    g_string_append(s, "},\n");
    put_walls(s, plan->walls, shown.x0, shown.y0);
    g_string_append(s, "  \"objects_line_of_sight\": [],\n");
    put_portals(s, node, plan->doors, shown.x0, shown.y0);
    g_string_append(s, "  \"environment\": {\"baked_lighting\": true, \"ambient_light\": \"ffffffff\"},\n"
                       "  \"lights\": [],\n  \"image\": \"");
    ucr_map_plan_free(plan);
    gboolean ok = fputs(s->str, out) >= 0;
    g_string_free(s, TRUE);
    char *b64 = g_base64_encode((const guchar *)png, png_len);
    free(png);
    ok = ok && fputs(b64, out) >= 0 && fputs("\"\n}\n", out) >= 0;
    g_free(b64);
    if (!ok)
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write the file of node %s: %s", node->id,
                    g_strerror(errno));
    return ok;
}
