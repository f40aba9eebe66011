#include "layout/booklet.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "core/error.h"
#include "key/describe.h"
#include "render/fonts.h"
#include "layout/map.h"
#include "render/cairo_device.h"

/* A4 in points, and the margins of the printable block. */
#define PAGE_W 595.276
#define PAGE_H 841.890
#define MARGIN 42.0
#define BODY_W (PAGE_W - 2 * MARGIN)
#define MAP_MARGIN 28.0      /* side margins of a map page (10 mm) */

typedef struct {
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoFontMap *fonts;
    const ucr_megadungeon *md;
    const ucr_style *style;
    ucr_device *dev;        /* the cairo PDF backend; cr is its context */
    int page;               /* pages begun so far */
    double y;               /* where the next block of text goes */
    gboolean show_dice;     /* the key prints the dice */
} booklet;

static PangoLayout *layout_new(booklet *b, const char *family, double size, double width)
{
    PangoContext *ctx = pango_font_map_create_context(b->fonts);
    pango_cairo_update_context(b->cr, ctx);
    PangoLayout *layout = pango_layout_new(ctx);
    g_object_unref(ctx);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, family);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    pango_layout_set_font_description(layout, fd);
    pango_font_description_free(fd);
    if (width > 0) {
        pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    }
    return layout;
}

/* Shows markup at (x, y) and returns its height. */
static double show_markup(booklet *b, const char *family, double size, double x, double y,
                          double width, const char *markup)
{
    PangoLayout *layout = layout_new(b, family, size, width);
    pango_layout_set_markup(layout, markup, -1);
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    cairo_set_source_rgb(b->cr, 0, 0, 0);
    cairo_move_to(b->cr, x, y);
    pango_cairo_show_layout(b->cr, layout);
    g_object_unref(layout);
    return h;
}

static double measure_markup(booklet *b, const char *family, double size, double width,
                             const char *markup)
{
    PangoLayout *layout = layout_new(b, family, size, width);
    pango_layout_set_markup(layout, markup, -1);
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    g_object_unref(layout);
    return h;
}

static void page_begin(booklet *b)
{
    if (b->page > 0)
        cairo_show_page(b->cr);
    b->page++;
    b->y = MARGIN;
}

static void page_footer(booklet *b)
{
    char *s = g_markup_printf_escaped("<span foreground='#555555'>undercroft · seed %s · page %d</span>",
                                      b->md->seed, b->page);
    show_markup(b, UCR_FONT_TEXT, 7.5, MARGIN, PAGE_H - MARGIN + 14, BODY_W, s);
    g_free(s);
}

/* Text centred on (cx, cy), on a white patch when halo. */
static void ucr_map_text(cairo_t *cr, PangoFontMap *fonts, const char *family, double size,
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

static const ucr_node *node_at(const ucr_megadungeon *md, int i)
{
    return g_ptr_array_index(md->nodes, i);
}

static int key_of(const ucr_node *n, int area)
{
    return g_array_index(n->areas, ucr_area, area).key;
}

static void cover(booklet *b)
{
    const ucr_megadungeon *md = b->md;
    page_begin(b);
    b->y += 120;
    b->y += show_markup(b, UCR_FONT_HAND, 54, MARGIN, b->y, BODY_W, "<b>UNDERCROFT</b>");
    char *s = g_markup_printf_escaped("A megadungeon of %u %s\nseed <b>%s</b>", md->nodes->len,
                                      md->nodes->len == 1 ? "sublevel" : "sublevels",
                                      md->seed);
    b->y += 10 + show_markup(b, UCR_FONT_HAND, 20, MARGIN, b->y + 10, BODY_W, s);
    g_free(s);
    int deepest = 1;
    for (guint i = 0; i < md->nodes->len; i++)
        if (node_at(md, (int)i)->depth > deepest)
            deepest = node_at(md, (int)i)->depth;
    const ucr_node *en = node_at(md, md->entrance_node);
    char *entrance = md->entrance_stairs
                         ? g_strdup_printf("stairs down from the surface into %s-%d", en->id,
                                           key_of(en, md->entrance_area))
                         : g_strdup_printf("a tunnel into the hillside, from the %s, reaching %s-%d",
                                           ucr_dir_name(md->entrance_side), en->id,
                                           key_of(en, md->entrance_area));
    s = g_markup_printf_escaped(
        "<b>How to use this booklet.</b> The dungeon is a grid of %d × %d sublevels (nodes "
        "A–%s) joined by long tunnels, and by stairs and ladders between levels 1 to %d. "
        "The way in is %s. The overview on the next page shows the tunnels between the "
        "nodes. Each node then has a map page and a key: areas are numbered on the map "
        "and described in the key, with every exit and where it leads. <b>C-7</b> means "
        "area 7 of node C. One square is 10 feet.\n\n"
        "Loops are the point: most areas can be reached by more than one route, so players "
        "can go around danger, and the key's figures say how many loops each node has.\n\n"
        "<span foreground='#555555'>Generated by undercroft %s from seed “%s”. The same seed "
        "always gives the same dungeon.</span>",
        md->columns, md->rows, node_at(md, (int)md->nodes->len - 1)->id, deepest, entrance,
        md->version, md->seed);
    g_free(entrance);
    b->y += 40;
    show_markup(b, UCR_FONT_TEXT, 10.5, MARGIN, b->y, BODY_W, s);
    g_free(s);
    page_footer(b);
}

static const char *tunnel_symbol(ucr_tunnel_kind k)
{
    switch (k) {
    case UCR_TUNNEL_DOOR: return "door";
    case UCR_TUNNEL_SECRET: return "S";
    case UCR_TUNNEL_STAIRS: return "stairs";
    case UCR_TUNNEL_LADDER: return "ladder";
    case UCR_TUNNEL_BLOCKED: return "collapsed";
    default: return "";
    }
}

/* One row per node of the analysis figures, under the overview map; it
 * flows onto further pages when the superstructure is large. */
static void overview_table(booklet *b)
{
    static const char *heads[] = { "node", "method", "level", "areas", "loops", "on a loop",
                                   "largest loop", "chokepoints", "dead ends", "farthest", "unreachable" };
    static const double col[] = { 0, 34, 94, 130, 166, 202, 256, 316, 376, 428, 480 };
    const ucr_megadungeon *md = b->md;
    double row_h = 11.5;
    for (guint i = 0; i <= md->nodes->len; i++) {
        if (b->y + row_h > PAGE_H - MARGIN || i == 0) {
            if (i > 0) {
                page_footer(b);
                page_begin(b);
            }
            for (gsize c = 0; c < G_N_ELEMENTS(heads); c++) {
                char *h = g_markup_printf_escaped("<b>%s</b>", heads[c]);
                show_markup(b, UCR_FONT_TEXT, 7.5, MARGIN + col[c], b->y, 0, h);
                g_free(h);
            }
            b->y += row_h;
            if (i == 0)
                continue;
        }
        const ucr_node *n = node_at(md, (int)i - 1);
        const ucr_stats *st = &n->stats;
        char *cells[11];
        cells[0] = g_markup_printf_escaped("<b>%s</b>", n->id);
        cells[1] = g_markup_escape_text(n->method, -1);
        cells[2] = g_strdup_printf("%d", n->depth);
        cells[3] = g_strdup_printf("%d", st->areas);
        cells[4] = g_strdup_printf("%d", st->loops);
        cells[5] = g_strdup_printf("%d (%d%%)", st->on_loop, (int)(st->loop_share * 100 + 0.5));
        cells[6] = g_strdup_printf("%d", st->largest_loop);
        cells[7] = g_strdup_printf("%d", st->chokepoints);
        cells[8] = g_strdup_printf("%d", st->dead_ends);
        cells[9] = g_strdup_printf("%d ft", st->farthest * 10);
        cells[10] = g_strdup_printf("%d", st->unreachable);
        for (int c = 0; c < 11; c++) {
            show_markup(b, UCR_FONT_TEXT, 7.5, MARGIN + col[c], b->y, 0, cells[c]);
            g_free(cells[c]);
        }
        b->y += row_h;
    }
}

static void overview(booklet *b)
{
    const ucr_megadungeon *md = b->md;
    cairo_t *cr = b->cr;
    page_begin(b);
    b->y += show_markup(b, UCR_FONT_HAND, 24, MARGIN, b->y, BODY_W, "<b>The superstructure</b>");
    b->y += 10;
    /* Node boxes on a grid, tunnels between them. */
    double gw = BODY_W, gh = 420;
    double sx = gw / md->columns, sy = gh / md->rows;
    double s = MIN(sx, sy);
    double box = s * 0.40;
    double ox = MARGIN + (gw - s * md->columns) / 2, oy = b->y;
    for (guint t = 0; t < md->tunnels->len; t++) {
        const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
        double x1 = ox + (tu->from % md->columns + 0.5) * s, y1 = oy + (tu->from / md->columns + 0.5) * s;
        double x2 = ox + (tu->to % md->columns + 0.5) * s, y2 = oy + (tu->to / md->columns + 0.5) * s;
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_set_line_width(cr, tu->kind == UCR_TUNNEL_BLOCKED ? 1.0 : 2.5);
        if (tu->kind == UCR_TUNNEL_BLOCKED) {
            double dash[] = { 4, 3 };
            cairo_set_dash(cr, dash, 2, 0);
        }
        cairo_move_to(cr, x1, y1);
        cairo_line_to(cr, x2, y2);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        GString *label = g_string_new(tunnel_symbol(tu->kind));
        if (tu->descent)
            g_string_append_printf(label, "%s%s%d", label->len ? " " : "",
                                   tu->descent > 0 ? "↓" : "↑", abs(tu->descent));
        if (tu->chamber)
            g_string_append_printf(label, "%schamber", label->len ? ", " : "");
        if (label->len)
            ucr_map_text(cr, b->fonts, UCR_FONT_TEXT, 8, FALSE, label->str, (x1 + x2) / 2, (y1 + y2) / 2, TRUE);
        g_string_free(label, TRUE);
    }
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = node_at(md, (int)i);
        double cx = ox + (n->col + 0.5) * s, cy = oy + (n->row + 0.5) * s;
        cairo_rectangle(cr, cx - box / 2, cy - box / 2, box, box);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
        char *m = g_markup_printf_escaped("<b>%s</b>\nlevel %d\n%s", n->id, n->depth, n->method);
        PangoLayout *l = layout_new(b, UCR_FONT_HAND, MIN(16, box / 4.5), box);
        pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
        pango_layout_set_markup(l, m, -1);
        int w, h;
        pango_layout_get_pixel_size(l, &w, &h);
        cairo_move_to(cr, cx - box / 2, cy - h / 2.0);
        pango_cairo_show_layout(cr, l);
        g_object_unref(l);
        g_free(m);
        if ((int)i == md->entrance_node)
            ucr_map_text(cr, b->fonts, UCR_FONT_TEXT, 8, FALSE, "▼ ENTRANCE", cx, cy - box / 2 - 7, FALSE);
    }
    b->y = oy + s * md->rows + 12;
    char *summary = ucr_key_super_stats_markup(md);
    char *m = g_markup_printf_escaped(
        "<b>Reading the overview.</b> Boxes are the sublevels (nodes), lines the long tunnels "
        "between them: a door, a secret door (S), stairs or a ladder (↓ levels down going "
        "right or downwards, ↑ up), a chamber on the way, or a dashed line where the tunnel "
        "has collapsed. Stairs and ladders inside the nodes link the levels as well; each "
        "node's key says where.\n\n");
    char *joined = g_strconcat(m, summary, NULL);
    g_free(m);
    g_free(summary);
    m = joined;
    b->y += show_markup(b, UCR_FONT_TEXT, 9.5, MARGIN, b->y, BODY_W, m) + 10;
    g_free(m);
    overview_table(b);
    page_footer(b);
}

static void map_page(booklet *b, const ucr_node *n)
{
    const ucr_megadungeon *md = b->md;
    page_begin(b);
    char *dest = g_strdup_printf("Node %s (level %d)", n->id, n->depth);
    char *page = g_strdup_printf("page=%d", b->page);
    cairo_pdf_surface_add_outline(b->surface, CAIRO_PDF_OUTLINE_ROOT, dest, page, 0);
    g_free(dest);
    g_free(page);
    /* The map sheet (title, map, scale bar, compass) is laid out as a
     * display list and replayed onto the PDF backend, as large as fits
     * between the side margins (narrower than the text's: the map needs
     * the width) and above the figures, its text laid out for that scale
     * so that none is smaller than UCR_MAP_MIN_TEXT_PT. */
    char *box = ucr_key_node_stats_markup(n);
    double box_h = measure_markup(b, UCR_FONT_TEXT, 8.5, BODY_W, box);
    double map_w = PAGE_W - 2 * MAP_MARGIN, avail_h = PAGE_H - MARGIN - b->y - box_h - 8;
    double scale = ucr_map_scale_to_fit(n, b->style, map_w, avail_h);
    ucr_map_extent ext;
    ucr_display_list *list = ucr_map_record_scaled(md, n, b->style, b->fonts, scale, &ext);
    ucr_matrix ctm = ucr_map_fit(&ext, MAP_MARGIN, b->y, map_w, avail_h);
    ucr_display_list_replay(list, b->dev, &ctm);
    ucr_display_list_free(list);
    b->y += (ext.y1 - ext.y0) * ucr_matrix_expansion(&ctm) + 8;
    show_markup(b, UCR_FONT_TEXT, 8.5, MARGIN, b->y, BODY_W, box);
    g_free(box);
    page_footer(b);
}

static void key_header(booklet *b, const ucr_node *n, gboolean continued)
{
    char *m = g_markup_printf_escaped("<b>Node %s — key%s</b>", n->id, continued ? " (continued)" : "");
    b->y += show_markup(b, UCR_FONT_HAND, 18, MARGIN, b->y, BODY_W, m) + 6;
    g_free(m);
}

static void key_pages(booklet *b, const ucr_node *n)
{
    page_begin(b);
    key_header(b, n, FALSE);
    char *intro = ucr_key_node_intro_markup(b->md, n);
    b->y += show_markup(b, UCR_FONT_TEXT, 8.5, MARGIN, b->y, BODY_W, intro) + 8;
    g_free(intro);
    /* Areas in key order. */
    int na = (int)n->areas->len;
    int *by_key = g_new(int, na + 1);
    for (int i = 0; i < na; i++)
        by_key[g_array_index(n->areas, ucr_area, i).key - 1] = i;
    for (int k = 0; k < na; k++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, by_key[k]);
        char *m = ucr_key_area_markup(b->md, n, by_key[k], b->show_dice);
        /* Rooms get two ruled lines for the GM's own notes. */
        int rules = a->kind == UCR_AREA_ROOM ? 2 : 0;
        double rule_gap = 13;
        double h = measure_markup(b, UCR_FONT_TEXT, 8.5, BODY_W, m) + rules * rule_gap;
        if (b->y + h > PAGE_H - MARGIN) {
            page_footer(b);
            page_begin(b);
            key_header(b, n, TRUE);
        }
        b->y += show_markup(b, UCR_FONT_TEXT, 8.5, MARGIN, b->y, BODY_W, m);
        cairo_set_source_rgb(b->cr, 0.72, 0.72, 0.72);
        cairo_set_line_width(b->cr, 0.5);
        for (int r = 0; r < rules; r++) {
            b->y += rule_gap;
            cairo_move_to(b->cr, MARGIN + 12, b->y);
            cairo_line_to(b->cr, MARGIN + BODY_W, b->y);
            cairo_stroke(b->cr);
        }
        b->y += 6;
        g_free(m);
    }
    g_free(by_key);
    page_footer(b);
}

/* PDF dates in the form cairo wants: "YYYY-MM-DDThh:mm:ss". */
static char *pdf_date(void)
{
    gint64 when = 1491523200;   /* 2017-04-07, the day seed 001 was posted */
    const char *env = g_getenv("SOURCE_DATE_EPOCH");
    if (env && *env) {
        char *end;
        errno = 0;
        long long v = strtoll(env, &end, 10);
        if (!errno && *end == '\0' && v >= 0)
            when = v;
    }
    GDateTime *dt = g_date_time_new_from_unix_utc(when);
    if (!dt)
        dt = g_date_time_new_from_unix_utc(1491523200);
    char *s = g_date_time_format(dt, "%Y-%m-%dT%H:%M:%S");
    g_date_time_unref(dt);
    return s;
}

gboolean ucr_booklet_write_pdf(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                               FILE *stream, GError **error)
{
    char *fonts_dir = g_build_filename(opt->datadir, "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(fonts_dir, error);
    g_free(fonts_dir);
    if (!fonts)
        return FALSE;
    booklet b = { 0 };
    b.md = md;
    b.fonts = fonts;
    b.style = opt->style;
    b.show_dice = opt->show_dice;
    b.dev = ucr_cairo_device_new(UCR_CAIRO_PDF, stream, PAGE_W, PAGE_H, 72, fonts);
    b.cr = ucr_cairo_device_context(b.dev);
    b.surface = cairo_get_target(b.cr);
    char *date = pdf_date();
    char *title = g_strdup_printf("undercroft megadungeon — seed %s", md->seed);
    char *creator = g_strdup_printf("undercroft %s", md->version);
    cairo_pdf_surface_set_metadata(b.surface, CAIRO_PDF_METADATA_TITLE, title);
    cairo_pdf_surface_set_metadata(b.surface, CAIRO_PDF_METADATA_CREATOR, creator);
    cairo_pdf_surface_set_metadata(b.surface, CAIRO_PDF_METADATA_SUBJECT,
                                   "A random non-linear megadungeon: maps and keys");
    cairo_pdf_surface_set_metadata(b.surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
    cairo_pdf_surface_set_metadata(b.surface, CAIRO_PDF_METADATA_MOD_DATE, date);
    g_free(date);
    g_free(title);
    g_free(creator);
    cover(&b);
    overview(&b);
    for (guint i = 0; i < md->nodes->len; i++) {
        map_page(&b, node_at(md, (int)i));
        key_pages(&b, node_at(md, (int)i));
    }
    cairo_show_page(b.cr);
    gboolean ok = ucr_device_close(b.dev, error);
    ucr_device_free(b.dev);
    g_object_unref(fonts);
    if (!ok)
        return FALSE;
    return TRUE;
}
