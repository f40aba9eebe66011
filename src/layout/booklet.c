#include "layout/booklet.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "core/error.h"
#include "layout/fonts.h"
#include "layout/map.h"

/* A4 in points, and the margins of the printable block. */
#define PAGE_W 595.276
#define PAGE_H 841.890
#define MARGIN 42.0
#define BODY_W (PAGE_W - 2 * MARGIN)

typedef struct {
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoFontMap *fonts;
    const ucr_megadungeon *md;
    int page;               /* pages begun so far */
    double y;               /* where the next block of text goes */
} booklet;

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    FILE *f = closure;
    return fwrite(data, 1, length, f) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

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
    char *s = g_markup_printf_escaped("A megadungeon of %d sublevels\nseed <b>%s</b>", md->nodes->len,
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
    const ucr_stats *st = &md->stats;
    char *m = g_markup_printf_escaped(
        "<b>Reading the overview.</b> Boxes are the sublevels (nodes), lines the long tunnels "
        "between them: a door, a secret door (S), stairs or a ladder (↓ levels down going "
        "right or downwards, ↑ up), a chamber on the way, or a dashed line where the tunnel "
        "has collapsed. Stairs and ladders inside the nodes link the levels as well; each "
        "node's key says where.\n\n"
        "<b>Superstructure:</b> %d nodes, %d open tunnels, %d loop%s, %d chokepoint%s, %d dead end%s.",
        st->areas, st->edges, st->loops, st->loops == 1 ? "" : "s", st->chokepoints,
        st->chokepoints == 1 ? "" : "s", st->dead_ends, st->dead_ends == 1 ? "" : "s");
    show_markup(b, UCR_FONT_TEXT, 9.5, MARGIN, b->y, BODY_W, m);
    g_free(m);
    page_footer(b);
}

static void map_page(booklet *b, const ucr_node *n)
{
    const ucr_megadungeon *md = b->md;
    page_begin(b);
    char *title = g_markup_printf_escaped("<b>Node %s</b>  <span size='smaller'>level %d · %s method</span>",
                                          n->id, n->depth, n->method);
    b->y += show_markup(b, UCR_FONT_HAND, 22, MARGIN, b->y, BODY_W, title);
    g_free(title);
    char *dest = g_strdup_printf("Node %s (level %d)", n->id, n->depth);
    char *page = g_strdup_printf("page=%d", b->page);
    cairo_pdf_surface_add_outline(b->surface, CAIRO_PDF_OUTLINE_ROOT, dest, page, 0);
    g_free(dest);
    g_free(page);
    b->y += 8;
    double avail_h = PAGE_H - MARGIN - b->y - 70;
    double cell = MIN(BODY_W / n->width, avail_h / n->height);
    double mx = MARGIN + (BODY_W - cell * n->width) / 2;
    cairo_save(b->cr);
    cairo_translate(b->cr, mx, b->y);
    ucr_map_draw(b->cr, b->fonts, md, n, cell);
    cairo_restore(b->cr);
    b->y += cell * n->height + 8;
    /* Scale bar: five squares, 50 ft. */
    cairo_t *cr = b->cr;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < 5; i++) {
        cairo_rectangle(cr, mx + i * cell, b->y, cell, 4);
        if (i % 2 == 0)
            cairo_fill_preserve(cr);
        cairo_stroke(cr);
    }
    show_markup(b, UCR_FONT_TEXT, 8, mx + 5 * cell + 6, b->y - 3, 200, "50 ft (1 square = 10 ft)  ·  north is up");
    const ucr_stats *st = &n->stats;
    char *box = g_markup_printf_escaped(
        "<b>%d</b> areas · <b>%d</b> passages · <b>%d</b> loop%s · <b>%d</b> chokepoint%s · "
        "<b>%d</b> dead end%s%s",
        st->areas, st->passages, st->loops, st->loops == 1 ? "" : "s", st->chokepoints,
        st->chokepoints == 1 ? "" : "s", st->dead_ends, st->dead_ends == 1 ? "" : "s",
        st->unreachable ? " · some areas are reached only through secret doors or not at all" : "");
    show_markup(b, UCR_FONT_TEXT, 8.5, MARGIN, b->y + 14, BODY_W, box);
    g_free(box);
    page_footer(b);
}

static const char *area_title(const ucr_area *a)
{
    switch (a->kind) {
    case UCR_AREA_ROOM: return "Room";
    case UCR_AREA_JUNCTION: return "Intersection";
    default:
        switch (a->stair) {
        case UCR_STAIR_UP: return "Stairs up";
        case UCR_LADDER_DOWN: return "Ladder down";
        case UCR_LADDER_UP: return "Ladder up";
        default: return "Stairs down";
        }
    }
}

/* Where passage @p leads when left by its end @from_vertex. */
static char *passage_destination(const ucr_megadungeon *md, const ucr_node *n, const ucr_passage *p,
                                 int from_vertex)
{
    int other = p->a == from_vertex ? p->b : p->a;
    const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, other);
    int feet = (int)p->cells->len * 10;
    const char *prefix = p->kind == UCR_EDGE_BLOCKED ? "a collapsed passage" : "a passage";
    if (v->kind == UCR_VERTEX_AREA) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, v->area);
        return g_strdup_printf("%s (%d ft) to %d", prefix, feet, a->key);
    }
    if (v->kind == UCR_VERTEX_DEAD_END)
        return g_strdup_printf("%s that ends in rock after %d ft", prefix, feet);
    const ucr_vertex *here = &g_array_index(n->vertices, ucr_vertex, from_vertex);
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area != here->area || !l->has_side)
            continue;
        char *t = ucr_map_link_target(md, l);
        char *s = l->kind == UCR_LINK_ENTRANCE
                      ? g_strdup_printf("the way out: %s (%s)", l->via, ucr_dir_name(l->side))
                      : g_strdup_printf("the long tunnel to node %s (%s; %s)", t, ucr_dir_name(l->side),
                                        l->via);
        g_free(t);
        return s;
    }
    return g_strdup_printf("%s that leaves the map and is collapsed beyond", prefix);
}

static const char *link_phrase(ucr_link_kind k)
{
    switch (k) {
    case UCR_LINK_STAIRS_DOWN: return "Stairs down";
    case UCR_LINK_STAIRS_UP: return "Stairs up";
    case UCR_LINK_LADDER_DOWN: return "A ladder down";
    case UCR_LINK_LADDER_UP: return "A ladder up";
    default: return "The way";
    }
}

char *ucr_booklet_area_markup(const ucr_megadungeon *md, const ucr_node *n, int area)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    GString *s = g_string_new(NULL);
    char *t = g_markup_printf_escaped("<b>%d. %s</b>", a->key, area_title(a));
    g_string_append(s, t);
    g_free(t);
    if (a->kind == UCR_AREA_ROOM)
        g_string_append_printf(s, " (%d × %d ft)", a->w * 10, a->h * 10);
    g_string_append(s, ". ");
    if (a->kind == UCR_AREA_STAIRS && a->link < 0) {
        /* Steps inside the node: the tunnel changes level and goes on. */
        g_string_append(s, "The tunnel changes level here and goes on. ");
    }
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area != area || l->has_side)
            continue;
        if (l->kind == UCR_LINK_ENTRANCE) {
            char *e = g_markup_printf_escaped("<b>Entrance:</b> %s. ", l->via);
            g_string_append(s, e);
            g_free(e);
        } else if (l->exit == UCR_EXIT_SURFACE) {
            g_string_append_printf(s, "%s to the surface. ", link_phrase(l->kind));
        } else if (l->exit == UCR_EXIT_BELOW) {
            g_string_append_printf(s, "%s to the levels below (not in this booklet). ", link_phrase(l->kind));
        } else {
            char *target = ucr_map_link_target(md, l);
            const ucr_node *tn = g_ptr_array_index(md->nodes, l->to_node);
            g_string_append_printf(s, "%s to <b>%s</b> (level %d). ", link_phrase(l->kind), target, tn->depth);
            g_free(target);
        }
    }
    /* Exits, by the wall they leave from. */
    GString *ex = g_string_new(NULL);
    int count = 0;
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (int end = 0; end < 2; end++) {
            int vtx = end == 0 ? p->a : p->b;
            if (vtx != area || (end == 1 && p->a == p->b))
                continue;
            ucr_point c = g_array_index(p->cells, ucr_point, end == 0 ? 0 : p->cells->len - 1);
            ucr_dir side = c.y < a->y ? UCR_NORTH : c.y >= a->y + a->h ? UCR_SOUTH
                           : c.x < a->x ? UCR_WEST : UCR_EAST;
            const char *door = NULL;
            for (guint d = 0; d < n->doors->len; d++) {
                const ucr_door *dr = &g_array_index(n->doors, ucr_door, d);
                if (dr->area == area && (guint)dr->passage == i)
                    door = dr->kind == UCR_DOOR_SECRET ? "a secret door" : "a door";
            }
            char *dest = passage_destination(md, n, p, vtx);
            char *e = g_markup_printf_escaped("%s%s: %s%s%s", count ? "; " : "", ucr_dir_name(side),
                                              door ? door : "", door ? " to " : "", dest);
            g_string_append(ex, e);
            g_free(e);
            g_free(dest);
            count++;
        }
    }
    if (count)
        g_string_append_printf(s, "Exits — %s.", ex->str);
    else if (a->link < 0)
        g_string_append(s, "No exits: reached only by the stairs above, or not at all.");
    g_string_free(ex, TRUE);
    if (a->rolled && a->kind != UCR_AREA_JUNCTION) {
        char *r = g_markup_printf_escaped("\n<span size='smaller' foreground='#555555'>Rolled: %s</span>",
                                          a->rolled);
        g_string_append(s, r);
        g_free(r);
    }
    return g_string_free(s, FALSE);
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
    /* Areas in key order. */
    int na = (int)n->areas->len;
    int *by_key = g_new(int, na + 1);
    for (int i = 0; i < na; i++)
        by_key[g_array_index(n->areas, ucr_area, i).key - 1] = i;
    for (int k = 0; k < na; k++) {
        char *m = ucr_booklet_area_markup(b->md, n, by_key[k]);
        double h = measure_markup(b, UCR_FONT_TEXT, 8.5, BODY_W, m);
        if (b->y + h > PAGE_H - MARGIN) {
            page_footer(b);
            page_begin(b);
            key_header(b, n, TRUE);
        }
        b->y += show_markup(b, UCR_FONT_TEXT, 8.5, MARGIN, b->y, BODY_W, m) + 5;
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
    b.surface = cairo_pdf_surface_create_for_stream(write_stream, stream, PAGE_W, PAGE_H);
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
    b.cr = cairo_create(b.surface);
    cover(&b);
    overview(&b);
    for (guint i = 0; i < md->nodes->len; i++) {
        map_page(&b, node_at(md, (int)i));
        key_pages(&b, node_at(md, (int)i));
    }
    cairo_show_page(b.cr);
    cairo_status_t st = cairo_status(b.cr);
    cairo_destroy(b.cr);
    cairo_surface_finish(b.surface);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(b.surface);
    cairo_surface_destroy(b.surface);
    g_object_unref(fonts);
    if (st != CAIRO_STATUS_SUCCESS) {
        g_set_error(error, UCR_ERROR, st == CAIRO_STATUS_WRITE_ERROR ? UCR_ERROR_CANTCREAT : UCR_ERROR_SOFTWARE,
                    "cannot write the PDF: %s", cairo_status_to_string(st));
        return FALSE;
    }
    return TRUE;
}
