#include "render/cairo_device.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <zlib.h>

#include "core/error.h"
#include "render/text.h"

typedef struct {
    ucr_device super;
    ucr_cairo_format format;
    FILE *stream;
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoFontMap *fonts;
    PangoContext *text;
    cairo_status_t status;  /* the first error; CAIRO_STATUS_SUCCESS until then */
    int pages;              /* pages begun with begin_page */
    int clips;              /* clips pushed and not popped */
    int outline[8];         /* the last outline entry of each level (0: the root) */
    bool tagged;            /* the "Document" structure element is open (see cd_begin_page) */
    GHashTable *stamp_fonts; /* ucr_stamp_set * → its cairo_font_face_t (see cd_stamp), by what
                              * the set draws: the maps of a dungeon share one font */
    GHashTable *stamp_forms; /* ucr_stamp_set * → its stamp_forms (see stamp_forms_draw): a PDF's */
    char *too_large;        /* a PNG past UCR_PNG_MAX_PIXELS: why it is refused, or NULL */
    bool boxed;             /* a TrimBox and BleedBox for every page (set_page_boxes) */
    double trim[4], bleed;  /* the trimmed page, x y w h from the top left; the bleed around it */
    char boxes[160];        /* " /TrimBox [...] /BleedBox [...]" for the page size begun last */
    int box_match;          /* how much of "/MediaBox [" the stream has just written */
    guint64 received;       /* bytes cairo has written, before the boxes went in */
    GArray *shifts;         /* box_shift: where boxes went in, to move the xref's offsets */
    int xref_match;         /* how much of "\nxref" the stream has just written */
    GString *tail;          /* from the cross-reference table on: held to the close */
} cairo_device;

/* Boxes of @len bytes went in before byte @at of cairo's file. */
typedef struct {
    guint64 at, len;
} box_shift;

static const ucr_device cairo_device_ops;
static void stamp_forms_free(void *forms);

static cairo_status_t write_bytes(FILE *f, const unsigned char *data, size_t length)
{
    return fwrite(data, 1, length, f) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* cairo 1.16 has no call for a page's TrimBox or BleedBox: they follow
 * the MediaBox of each page dictionary as it streams past ("/MediaBox [
 * 0 0 W H ]", which cairo writes once per page and nowhere else). */
/* One step of matching @key (no repeated first byte) against the stream. */
static int match_step(int matched, const char *key, unsigned char c)
{
    return c == (unsigned char)key[matched] ? matched + 1 : c == (unsigned char)key[0];
}

/* cairo 1.16 has no call for a page's TrimBox or BleedBox: they follow
 * the MediaBox of each page dictionary as it streams past ("/MediaBox [
 * 0 0 W H ]", which cairo writes once per page and nowhere else).  The
 * bytes put in move every object after them, so the cross-reference table
 * (from "\nxref" to the end) is held and its offsets moved at the close. */
static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    cairo_device *d = closure;
    if (!d->boxed)
        return write_bytes(d->stream, data, length);
    if (d->tail) {
        g_string_append_len(d->tail, (const char *)data, length);
        return CAIRO_STATUS_SUCCESS;
    }
    static const char key[] = "/MediaBox [", xref[] = "\nxref";
    const int key_len = (int)sizeof key - 1, xref_len = (int)sizeof xref - 1;
    size_t from = 0;
    for (size_t i = 0; i < length; i++) {
        d->xref_match = match_step(d->xref_match, xref, data[i]);
        if (d->xref_match == xref_len) {
            cairo_status_t st = write_bytes(d->stream, data + from, i + 1 - from);
            d->received += i + 1;
            d->tail = g_string_new_len((const char *)data + i + 1, length - i - 1);
            return st;
        }
        if (d->box_match < key_len) {
            d->box_match = match_step(d->box_match, key, data[i]);
            continue;
        }
        if (data[i] != ']')
            continue;
        d->box_match = 0;
        cairo_status_t st = write_bytes(d->stream, data + from, i + 1 - from);
        box_shift sh = { d->received + i + 1, strlen(d->boxes) };
        g_array_append_val(d->shifts, sh);
        if (st == CAIRO_STATUS_SUCCESS)
            st = write_bytes(d->stream, (const unsigned char *)d->boxes, sh.len);
        if (st != CAIRO_STATUS_SUCCESS)
            return st;
        from = i + 1;
    }
    d->received += length;
    return write_bytes(d->stream, data + from, length - from);
}

/* Where byte @at of cairo's file is in the file written. */
static guint64 shifted(const cairo_device *d, guint64 at)
{
    guint64 to = at;
    for (guint i = 0; i < d->shifts->len; i++)
        if (g_array_index(d->shifts, box_shift, i).at <= at)
            to += g_array_index(d->shifts, box_shift, i).len;
    return to;
}

/* The held cross-reference table and trailer, every offset moved past the
 * boxes: its entries ("0000012345 00000 n") keep their width. */
static cairo_status_t write_tail(cairo_device *d)
{
    GString *t = d->tail;
    for (char *p = t->str; (p = strstr(p, " 00000 n")) != NULL; p += 8) {
        if (p - t->str < 10)
            continue;
        guint64 off = g_ascii_strtoull(p - 10, NULL, 10);
        char buf[16];
        g_snprintf(buf, sizeof buf, "%010" G_GUINT64_FORMAT, shifted(d, off));
        memcpy(p - 10, buf, 10);
    }
    char *sx = strstr(t->str, "startxref\n");
    if (sx) {
        gsize at = (gsize)(sx - t->str) + 10;
        char *end;
        guint64 off = g_ascii_strtoull(t->str + at, &end, 10);
        gsize len = (gsize)(end - (t->str + at));
        char *now = g_strdup_printf("%" G_GUINT64_FORMAT, shifted(d, off));
        g_string_erase(t, (gssize)at, (gssize)len);
        g_string_insert(t, (gssize)at, now);
        g_free(now);
    }
    return write_bytes(d->stream, (const unsigned char *)t->str, t->len);
}

void ucr_cairo_device_set_page_boxes(ucr_device *dev, double x, double y, double w, double h, double bleed)
{
    cairo_device *d = (cairo_device *)dev;
    if (d->format != UCR_CAIRO_PDF)
        return;
    if (!d->shifts)
        d->shifts = g_array_new(FALSE, FALSE, sizeof(box_shift));
    d->boxed = true;
    d->trim[0] = x;
    d->trim[1] = y;
    d->trim[2] = w;
    d->trim[3] = h;
    d->bleed = bleed;
}

/* The boxes of a page @height points tall, in PDF's coordinates (y up). */
static void page_boxes_text(cairo_device *d, double height)
{
    double x0 = d->trim[0], y0 = height - d->trim[1] - d->trim[3], x1 = x0 + d->trim[2], y1 = y0 + d->trim[3];
    double b = d->bleed;
    char v[8][G_ASCII_DTOSTR_BUF_SIZE];
    double vals[8] = { x0, y0, x1, y1, x0 - b, y0 - b, x1 + b, y1 + b };
    for (int i = 0; i < 8; i++)
        g_ascii_formatd(v[i], sizeof v[i], "%.2f", vals[i]);
    g_snprintf(d->boxes, sizeof d->boxes, " /TrimBox [ %s %s %s %s ] /BleedBox [ %s %s %s %s ]", v[0], v[1], v[2],
               v[3], v[4], v[5], v[6], v[7]);
}

/* Keeps the first error; TRUE while the device can still draw. */
static gboolean healthy(cairo_device *d)
{
    if (d->status == CAIRO_STATUS_SUCCESS)
        d->status = cairo_status(d->cr);
    return d->status == CAIRO_STATUS_SUCCESS;
}

static void set_color(cairo_t *cr, ucr_color c)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

/* A PDF's coordinates to an eighth of a point (0.044 mm, below the dot of
 * a 600 dpi printer).  cairo writes every coordinate with snprintf and
 * deflates the page, and a map page carries some 7,000 short hatch
 * strokes: "172.25" instead of "172.254" makes the booklet a quarter
 * smaller and faster to write.  An eighth, not a tenth: cairo keeps
 * coordinates in 24.8 fixed point, where 0.1 is not exact ("333.199"). */
static void quantize(const double *in, double *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = round(in[i] * 8) / 8;
}

static void append_path(cairo_t *cr, const ucr_path *path, bool q)
{
    const ucr_path_el *el = ucr_path_elements(path);
    for (int i = 0; i < ucr_path_length(path); i++) {
        double qp[6];
        const double *p = el[i].pt;
        if (q) {
            quantize(el[i].pt, qp, 6);
            p = qp;
        }
        switch (el[i].op) {
        case UCR_PATH_MOVE: cairo_move_to(cr, p[0], p[1]); break;
        case UCR_PATH_LINE: cairo_line_to(cr, p[0], p[1]); break;
        case UCR_PATH_CURVE: cairo_curve_to(cr, p[0], p[1], p[2], p[3], p[4], p[5]); break;
        case UCR_PATH_CLOSE: cairo_close_path(cr); break;
        }
    }
}

static void set_path(cairo_device *d, const ucr_path *path)
{
    cairo_t *cr = d->cr;
    cairo_new_path(cr);
    /* Only where user space is the page's (the booklet draws maps so). */
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    bool q = d->format == UCR_CAIRO_PDF && m.xx == 1 && m.yy == 1 && m.xy == 0 && m.yx == 0 &&
             m.x0 == 0 && m.y0 == 0;
    append_path(cr, path, q);
}

static const cairo_line_cap_t caps[] = { CAIRO_LINE_CAP_BUTT, CAIRO_LINE_CAP_ROUND,
                                         CAIRO_LINE_CAP_SQUARE };
static const cairo_line_join_t joins[] = { CAIRO_LINE_JOIN_MITER, CAIRO_LINE_JOIN_ROUND,
                                           CAIRO_LINE_JOIN_BEVEL };

static void set_stroke(cairo_t *cr, const ucr_stroke *stroke)
{
    cairo_set_line_width(cr, stroke->width);
    cairo_set_line_cap(cr, caps[stroke->cap]);
    cairo_set_line_join(cr, joins[stroke->join]);
    cairo_set_dash(cr, stroke->dash, stroke->n_dash, 0);
}

/* NULL if an image of @w x @h pixels may be drawn, else why not: the
 * image is held whole in memory, 4 bytes a pixel (and once per job of a
 * batch), so 1200 dpi on one node (18,061 x 20,039 pixels) took 1.4 GB. */
static char *png_too_large(double w, double h, double dpi)
{
    double px = w * h;
    if (px <= UCR_PNG_MAX_PIXELS)
        return NULL;
    int fits = (int)floor(dpi * sqrt(UCR_PNG_MAX_PIXELS / px));
    return g_strdup_printf("the map would be %.0f x %.0f pixels at %g dpi (%.0f million): a PNG map is at most "
                           "%d million pixels (%d MB of memory to draw); use --dpi %d or less",
                           w, h, dpi, px / 1e6, UCR_PNG_MAX_PIXELS / 1000000, UCR_PNG_MAX_PIXELS / 1000000 * 4,
                           MAX(fits, 1));
}

ucr_device *ucr_cairo_device_new(ucr_cairo_format format, FILE *stream, double width,
                                 double height, double dpi, PangoFontMap *fonts)
{
    cairo_device *d = (cairo_device *)ucr_device_new_of_size(sizeof(cairo_device));
    d->super = cairo_device_ops;
    d->format = format;
    d->stream = stream;
    d->fonts = g_object_ref(fonts);
    d->text = ucr_text_context_new(fonts);
    d->stamp_fonts = g_hash_table_new_full(ucr_stamp_set_hash, ucr_stamp_set_equal, NULL,
                                           (GDestroyNotify)cairo_font_face_destroy);
    d->stamp_forms = g_hash_table_new_full(ucr_stamp_set_hash, ucr_stamp_set_equal, NULL, stamp_forms_free);
    switch (format) {
    case UCR_CAIRO_PDF:
        d->surface = cairo_pdf_surface_create_for_stream(write_stream, d, width, height);
        break;
    case UCR_CAIRO_SVG:
        d->surface = cairo_svg_surface_create_for_stream(write_stream, d, width, height);
        /* Points, so that the SVG has the same physical size as the PDF map. */
        cairo_svg_surface_set_document_unit(d->surface, CAIRO_SVG_UNIT_PT);
        break;
    case UCR_CAIRO_PNG: {
        double s = dpi / 72.0, px_w = ceil(width * s), px_h = ceil(height * s);
        d->too_large = png_too_large(px_w, px_h, dpi);
        /* Refused: drawn on one pixel, for nothing, and reported at close. */
        d->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, d->too_large ? 1 : (int)px_w,
                                                d->too_large ? 1 : (int)px_h);
        break;
    }
    }
    d->cr = cairo_create(d->surface);
    if (format == UCR_CAIRO_PNG) {
        /* An image starts black and transparent: paper is white. */
        cairo_set_source_rgb(d->cr, 1, 1, 1);
        cairo_paint(d->cr);
        cairo_scale(d->cr, dpi / 72.0, dpi / 72.0);
    }
    healthy(d);
    return &d->super;
}

cairo_t *ucr_cairo_device_context(ucr_device *dev)
{
    return ((cairo_device *)dev)->cr;
}

static void cd_begin_page(ucr_device *dev, double width, double height)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d))
        return;
    /* Only a PDF has more than one page, and only a PDF can change size. */
    if (d->format == UCR_CAIRO_PDF)
        cairo_pdf_surface_set_size(d->surface, width, height);
    if (d->boxed)
        page_boxes_text(d, height);
    /* cairo 1.16 writes a damaged PDF (a cross-reference entry for a
     * structure element it never writes) as soon as it has a link, unless
     * the content sits in a structure element: one around it all, opened
     * after the first page's size is set (opened before, it is lost too). */
    if (d->format == UCR_CAIRO_PDF && !d->tagged) {
        cairo_tag_begin(d->cr, "Document", NULL);
        d->tagged = true;
    }
    d->pages++;
}

static void cd_end_page(ucr_device *dev)
{
    cairo_device *d = (cairo_device *)dev;
    if (healthy(d) && d->format == UCR_CAIRO_PDF)
        cairo_show_page(d->cr);
}

static void cd_fill(ucr_device *dev, const ucr_path *path, bool even_odd, ucr_color color)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d))
        return;
    set_path(d, path);
    cairo_set_fill_rule(d->cr, even_odd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
    set_color(d->cr, color);
    cairo_fill(d->cr);
}

static void cd_stroke(ucr_device *dev, const ucr_path *path, const ucr_stroke *stroke,
                      ucr_color color)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d))
        return;
    set_path(d, path);
    set_stroke(d->cr, stroke);
    set_color(d->cr, color);
    cairo_stroke(d->cr);
    cairo_set_dash(d->cr, NULL, 0, 0);
}

/* ---- stamps: the shapes of a set as the glyphs of a user font ---------- */

static const cairo_user_data_key_t stamp_set_key;

/* Glyph g is shape g - 1 of the set, in font units (the set's own): cairo
 * records it once per size, and a PDF gets it as a glyph of a Type 3 font
 * drawn once, each copy then costing a text position; an image caches it
 * as a mask. */
static cairo_status_t stamp_glyph(cairo_scaled_font_t *font, unsigned long glyph, cairo_t *cr,
                                  cairo_text_extents_t *extents)
{
    (void)extents;   /* no advance: every copy is placed on its own */
    const ucr_stamp_set *set =
        cairo_font_face_get_user_data(cairo_scaled_font_get_font_face(font), &stamp_set_key);
    if (!set || glyph < 1 || glyph > (unsigned long)ucr_stamp_set_length(set))
        return CAIRO_STATUS_SUCCESS;
    append_path(cr, ucr_stamp_set_shape(set, (int)glyph - 1), false);
    set_stroke(cr, ucr_stamp_set_stroke(set));
    cairo_stroke(cr);
    return CAIRO_STATUS_SUCCESS;
}

static void stamp_set_unref(void *set)
{
    ucr_stamp_set_unref(set);
}

static cairo_font_face_t *stamp_font(cairo_device *d, const ucr_stamp_set *set)
{
    cairo_font_face_t *face = g_hash_table_lookup(d->stamp_fonts, set);
    if (face)
        return face;
    face = cairo_user_font_face_create();
    cairo_user_font_face_set_render_glyph_func(face, stamp_glyph);
    /* The face keeps the set alive, so that the key stays its own. */
    cairo_font_face_set_user_data(face, &stamp_set_key, ucr_stamp_set_ref(set), stamp_set_unref);
    g_hash_table_insert(d->stamp_fonts, (gpointer)set, face);
    return face;
}

/* ---- stamps in a PDF: each shape a form drawn once, placed by reference ---
 *
 * A Type 3 glyph is text: every reader (poppler, mutool, ghostscript,
 * pdf.js) extracts each copy as a character, U+FFFD for want of any other,
 * some two thousand on a map page, which a browser's search, copy and
 * screen reader then meet.  Hatching is not text: in a PDF each shape is a
 * form XObject (a cairo recording surface, which cairo writes once and
 * names), each copy a "q ... cm /xN Do Q". */
/* Copies in a group (see stamp_forms_draw). */
enum { STAMP_GROUP = 128 };

typedef struct {
    const ucr_stamp_set *set;   /* a reference, which keeps the hash key alive */
    ucr_color color;
    cairo_surface_t **shapes;   /* n: shape i's form */
    int n;
} stamp_forms;

static void stamp_forms_free(void *p)
{
    stamp_forms *f = p;
    for (int i = 0; i < f->n; i++)
        cairo_surface_destroy(f->shapes[i]);
    g_free(f->shapes);
    ucr_stamp_set_unref(f->set);
    g_free(f);
}

static stamp_forms *stamp_forms_of(cairo_device *d, const ucr_stamp_set *set, ucr_color color)
{
    stamp_forms *f = g_hash_table_lookup(d->stamp_forms, set);
    if (f && !memcmp(&f->color, &color, sizeof color))
        return f;
    f = g_new0(stamp_forms, 1);
    f->set = ucr_stamp_set_ref(set);
    f->color = color;
    f->n = ucr_stamp_set_length(set);
    f->shapes = g_new(cairo_surface_t *, MAX(f->n, 1));
    double r = ucr_stamp_set_reach(set);
    cairo_rectangle_t box = { -r, -r, 2 * r, 2 * r };
    for (int i = 0; i < f->n; i++) {
        f->shapes[i] = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &box);
        cairo_t *cr = cairo_create(f->shapes[i]);
        append_path(cr, ucr_stamp_set_shape(set, i), false);
        set_stroke(cr, ucr_stamp_set_stroke(set));
        set_color(cr, color);
        cairo_stroke(cr);
        cairo_destroy(cr);
    }
    g_hash_table_replace(d->stamp_forms, (gpointer)set, f);
    return f;
}

/* Copies @at[0..n) into a group of their own, which the page then paints
 * once under its clip.  The group's space is the shapes' own (@m undone),
 * from the first copy: a copy is then placed by a short offset ("1 0 0 1
 * 4.45 7.05 cm"; the map puts its hatching on a grid of a twentieth of a
 * square) where the page's space took six digits to each of six numbers. */
static void stamp_forms_group(cairo_device *d, const stamp_forms *f, const ucr_matrix *m, const cairo_glyph_t *at,
                              int n, double reach)
{
    cairo_matrix_t to_page = { m->a, m->b, m->c, m->d, at[0].x, at[0].y }, to_group = to_page;
    if (cairo_matrix_invert(&to_group) != CAIRO_STATUS_SUCCESS)
        return;   /* a flat matrix: nothing shows */
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    double *g = g_new(double, 2 * n);
    for (int i = 0; i < n; i++) {
        double gx = at[i].x, gy = at[i].y;
        cairo_matrix_transform_point(&to_group, &gx, &gy);
        g[2 * i] = round(gx * 100) / 100;   /* the float noise of the round trip gone */
        g[2 * i + 1] = round(gy * 100) / 100;
        x0 = MIN(x0, g[2 * i] - reach);
        y0 = MIN(y0, g[2 * i + 1] - reach);
        x1 = MAX(x1, g[2 * i] + reach);
        y1 = MAX(y1, g[2 * i + 1] + reach);
    }
    cairo_rectangle_t box = { floor(x0), floor(y0), ceil(x1) - floor(x0), ceil(y1) - floor(y0) };
    cairo_surface_t *group = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &box);
    cairo_t *cr = cairo_create(group);
    for (int i = 0; i < n; i++) {
        cairo_set_source_surface(cr, f->shapes[at[i].index], g[2 * i], g[2 * i + 1]);
        cairo_paint(cr);
    }
    cairo_destroy(cr);
    g_free(g);
    cairo_pattern_t *p = cairo_pattern_create_for_surface(group);
    cairo_pattern_set_matrix(p, &to_group);
    cairo_set_source(d->cr, p);
    cairo_paint(d->cr);
    cairo_pattern_destroy(p);
    cairo_surface_destroy(group);
}

/* The copies go in groups of STAMP_GROUP neighbours (the caller's row
 * order), each painted once on the page under its clip: painted one by
 * one, each copy took a copy of the clip (a map's rock, thousands of
 * points), and cairo adds the box of every operation of a group to one
 * region, which grows with the group: one group of a map's two thousand
 * copies, or none, made the booklet four times slower to write.  (cairo
 * 1.16 names a form in a group's resources once per use, a key repeated in
 * a dictionary: output/pdfpack.c drops the repeats.) */
static void stamp_forms_draw(cairo_device *d, const ucr_stamp_set *set, const ucr_matrix *m,
                             const cairo_glyph_t *at, int n, ucr_color color)
{
    stamp_forms *f = stamp_forms_of(d, set, color);
    double reach = ucr_stamp_set_reach(set);
    cairo_glyph_t *group = g_new(cairo_glyph_t, STAMP_GROUP);
    for (int i = 0, k = 0; i <= n; i++) {
        if ((i == n || k == STAMP_GROUP) && k > 0) {
            stamp_forms_group(d, f, m, group, k, reach);
            k = 0;
        }
        if (i < n && at[i].index < (unsigned long)f->n)
            group[k++] = at[i];
    }
    g_free(group);
}

/* Stamps row by row, left to right (see cd_stamp). */
static int glyph_row_cmp(const void *a, const void *b)
{
    const cairo_glyph_t *g = a, *h = b;
    if (g->y != h->y)
        return g->y < h->y ? -1 : 1;
    if (g->x != h->x)
        return g->x < h->x ? -1 : 1;
    return g->index < h->index ? -1 : g->index > h->index;
}

static void cd_stamp(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m,
                     const ucr_stamp *at, int n, ucr_color color)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d))
        return;
    cairo_glyph_t *glyphs = g_new(cairo_glyph_t, n);
    for (int i = 0; i < n; i++)
        glyphs[i] = (cairo_glyph_t){ (unsigned long)at[i].shape + 1, at[i].x, at[i].y };
    /* Row by row: cairo places a glyph on the row of the last one by one
     * number in its TJ array, any other by two and a Td.  The copies are
     * one colour, so their order does not show (pages at 60 dpi differ by
     * at most 2 of 255 grey levels, rounding); half the Td of a map page. */
    qsort(glyphs, (size_t)n, sizeof *glyphs, glyph_row_cmp);
    if (d->format == UCR_CAIRO_PDF) {
        for (int i = 0; i < n; i++)
            glyphs[i].index--;   /* the shape's index */
        stamp_forms_draw(d, set, m, glyphs, n, color);
        g_free(glyphs);
        return;
    }
    cairo_save(d->cr);
    cairo_set_font_face(d->cr, stamp_font(d, set));
    cairo_matrix_t fm = { m->a, m->b, m->c, m->d, 0, 0 };
    cairo_set_font_matrix(d->cr, &fm);
    set_color(d->cr, color);
    /* With no text behind the glyphs (one cluster of no bytes), so that the
     * PDF's text layer stays the page's words. */
    cairo_text_cluster_t all = { 0, n };
    cairo_show_text_glyphs(d->cr, "", 0, glyphs, n, &all, 1, 0);
    cairo_restore(d->cr);
    g_free(glyphs);
}

static void cd_clip(ucr_device *dev, const ucr_path *path, bool even_odd)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d))
        return;
    cairo_save(d->cr);
    d->clips++;
    set_path(d, path);
    cairo_set_fill_rule(d->cr, even_odd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
    cairo_clip(d->cr);
}

static void cd_pop_clip(ucr_device *dev)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d) || d->clips == 0)
        return;
    d->clips--;
    cairo_restore(d->cr);
}

/* A transform is a saved state like a clip: both unwind in one stack. */
static void cd_push_transform(ucr_device *dev, const ucr_matrix *m)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d))
        return;
    cairo_save(d->cr);
    d->clips++;
    cairo_matrix_t cm = { m->a, m->b, m->c, m->d, m->e, m->f };
    cairo_transform(d->cr, &cm);
}

static void cd_text(ucr_device *dev, const ucr_text *text, ucr_color color)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d) || text->size <= 0)
        return;
    if (text->shaped && text->baseline && text->align == 0) {
        /* Shaped by the layout: drawn as it is, scaled if the list was. */
        double k = text->size / ucr_shaped_size(text->shaped);
        set_color(d->cr, color);
        /* At scale 1 the glyphs start at the current point: no state to
         * save and restore for each of a booklet's 10,000 runs. */
        if (k != 1) {
            cairo_save(d->cr);
            cairo_translate(d->cr, text->x, text->y);
            cairo_scale(d->cr, k, k);
            cairo_move_to(d->cr, 0, 0);
        } else {
            cairo_move_to(d->cr, text->x, text->y);
        }
        PangoGlyphItem gi;
        ucr_shaped_glyphs(text->shaped, &gi);
        pango_cairo_show_glyph_item(d->cr, ucr_shaped_text(text->shaped), &gi);
        ucr_shaped_glyphs_clear(&gi);
        cairo_new_path(d->cr);
        if (k != 1)
            cairo_restore(d->cr);
        return;
    }
    pango_cairo_update_context(d->cr, d->text);
    PangoLayout *layout = ucr_text_layout_new(d->text, text, text->size);
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    double w = (double)logical.width / PANGO_SCALE, h = (double)logical.height / PANGO_SCALE;
    double top = text->baseline ? text->y - (double)pango_layout_get_baseline(layout) / PANGO_SCALE
                                : text->y - h / 2;
    set_color(d->cr, color);
    cairo_move_to(d->cr, text->x - text->align * w, top);
    pango_cairo_show_layout(d->cr, layout);
    cairo_new_path(d->cr);
    g_object_unref(layout);
}

static void cd_link(ucr_device *dev, double x, double y, double w, double h, const char *dest)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d) || d->format != UCR_CAIRO_PDF)
        return;
    char *esc = g_strescape(dest, NULL);
    char *attr = g_strdup_printf("rect=[%g %g %g %g] dest='%s'", x, y, w, h, esc);
    cairo_tag_begin(d->cr, CAIRO_TAG_LINK, attr);
    cairo_tag_end(d->cr, CAIRO_TAG_LINK);
    g_free(attr);
    g_free(esc);
}

static void cd_dest(ucr_device *dev, const char *name, double x, double y)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d) || d->format != UCR_CAIRO_PDF)
        return;
    char *esc = g_strescape(name, NULL);
    char *attr = g_strdup_printf("name='%s' x=%g y=%g", esc, x, y);
    cairo_tag_begin(d->cr, CAIRO_TAG_DEST, attr);
    cairo_tag_end(d->cr, CAIRO_TAG_DEST);
    g_free(attr);
    g_free(esc);
}

static void cd_set_info(ucr_device *dev, const char *key, const char *value)
{
    static const struct { const char *key; cairo_pdf_metadata_t meta; } keys[] = {
        { "title", CAIRO_PDF_METADATA_TITLE },       { "author", CAIRO_PDF_METADATA_AUTHOR },
        { "subject", CAIRO_PDF_METADATA_SUBJECT },   { "keywords", CAIRO_PDF_METADATA_KEYWORDS },
        { "creator", CAIRO_PDF_METADATA_CREATOR },   { "date", CAIRO_PDF_METADATA_CREATE_DATE },
    };
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d) || d->format != UCR_CAIRO_PDF)
        return;
    for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
        if (!strcmp(key, keys[i].key)) {
            cairo_pdf_surface_set_metadata(d->surface, keys[i].meta, value);
            if (keys[i].meta == CAIRO_PDF_METADATA_CREATE_DATE)
                cairo_pdf_surface_set_metadata(d->surface, CAIRO_PDF_METADATA_MOD_DATE, value);
        }
}

static void cd_outline(ucr_device *dev, int level, const char *title, const char *dest)
{
    cairo_device *d = (cairo_device *)dev;
    if (!healthy(d) || d->format != UCR_CAIRO_PDF)
        return;
    level = CLAMP(level, 1, (int)G_N_ELEMENTS(d->outline) - 1);
    char *esc = g_strescape(dest, NULL);
    char *attr = g_strdup_printf("dest='%s'", esc);
    d->outline[level] = cairo_pdf_surface_add_outline(d->surface, d->outline[level - 1], title, attr,
                                                      level == 1 ? CAIRO_PDF_OUTLINE_FLAG_OPEN : 0);
    for (gsize k = (gsize)level + 1; k < G_N_ELEMENTS(d->outline); k++)
        d->outline[k] = d->outline[level];
    g_free(attr);
    g_free(esc);
}

/* ---- PNG ------------------------------------------------------------------ */

/* One chunk: length, type, data, and the CRC of type and data. */
static bool png_chunk(FILE *f, const char *type, const unsigned char *data, size_t len)
{
    unsigned char head[8] = { (unsigned char)(len >> 24), (unsigned char)(len >> 16),
                              (unsigned char)(len >> 8), (unsigned char)len,
                              (unsigned char)type[0], (unsigned char)type[1],
                              (unsigned char)type[2], (unsigned char)type[3] };
    uLong crc = crc32(0, head + 4, 4);
    if (len)
        crc = crc32(crc, data, (uInt)len);
    unsigned char tail[4] = { (unsigned char)(crc >> 24), (unsigned char)(crc >> 16),
                              (unsigned char)(crc >> 8), (unsigned char)crc };
    return fwrite(head, 1, 8, f) == 8 && (!len || fwrite(data, 1, len, f) == len) &&
           fwrite(tail, 1, 4, f) == 4;
}

/* Eight pixels at a time (GCC/clang vector extensions: SSE2 on any
 * x86-64): a 150 dpi map is millions of pixels, and the scalar loops that
 * asked each pixel whether it was grey and took its byte were an eighth of
 * the PNG maps' time. */
typedef uint32_t px8 __attribute__((vector_size(32)));
typedef uint8_t grey8 __attribute__((vector_size(8)));

/* Whether every pixel of the row @src of @w pixels has R = G = B. */
static bool row_grey(const uint32_t *src, int w)
{
    px8 diff = { 0 };
    int x = 0;
    for (; x + 8 <= w; x += 8) {
        px8 v;
        memcpy(&v, src + x, sizeof v);
        diff |= (v >> 16) ^ v;
        diff |= (v >> 8) ^ v;
    }
    uint32_t d = 0;
    for (int k = 0; k < 8; k++)
        d |= diff[k];
    for (; x < w; x++)
        d |= ((src[x] >> 16) ^ src[x]) | ((src[x] >> 8) ^ src[x]);
    return (d & 0xffu) == 0;
}

/* The grey level (the blue byte, = red = green) of each pixel of @src. */
static void row_to_grey(const uint32_t *src, int w, unsigned char *out)
{
    int x = 0;
    for (; x + 8 <= w; x += 8) {
        px8 v;
        memcpy(&v, src + x, sizeof v);
        grey8 g = __builtin_convertvector(v & 0xffu, grey8);
        memcpy(out + x, &g, sizeof g);
    }
    for (; x < w; x++)
        out[x] = (unsigned char)src[x];
}

/* The image as an 8-bit RGB PNG, or 8-bit grey when every pixel is grey
 * (the ink styles): a third of the bytes to deflate, which was half the
 * time of a map's PNG.  Written here, not by cairo: cairo's writer lets
 * libpng try every row filter at its default compression, which took three
 * times as long as drawing the maps.  A map is line art on paper: each row
 * as it is (filter 0), deflated at level 1 with zlib's run-length strategy
 * (runs of white and of ink: a quarter faster than level 1's own search,
 * and 1.7% smaller on the default booklet's maps). */
static cairo_status_t png_write(cairo_surface_t *img, FILE *f)
{
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    const unsigned char *px = cairo_image_surface_get_data(img);
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    bool grey = true;
    for (int y = 0; grey && y < h; y++)
        grey = row_grey((const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride), w);
    int bpp = grey ? 1 : 3;
    unsigned char ihdr[13] = { (unsigned char)(w >> 24), (unsigned char)(w >> 16), (unsigned char)(w >> 8),
                               (unsigned char)w, (unsigned char)(h >> 24), (unsigned char)(h >> 16),
                               (unsigned char)(h >> 8), (unsigned char)h, 8, grey ? 0 : 2, 0, 0, 0 };
    bool ok = fwrite(sig, 1, 8, f) == 8 && png_chunk(f, "IHDR", ihdr, sizeof ihdr);
    z_stream z = { 0 };
    if (!ok || deflateInit2(&z, 1, Z_DEFLATED, MAX_WBITS, 8, Z_RLE) != Z_OK)
        return CAIRO_STATUS_WRITE_ERROR;
    enum { CHUNK = 1 << 16 };
    unsigned char *row = g_malloc((size_t)w * (size_t)bpp + 1), *out = g_malloc(CHUNK);
    z.next_out = out;
    z.avail_out = CHUNK;
    for (int y = 0; ok && y <= h; y++) {
        if (y < h) {
            /* cairo's RGB24: a native-endian 32-bit 0xXXRRGGBB per pixel. */
            const uint32_t *src = (const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride);
            row[0] = 0;
            if (grey)
                row_to_grey(src, w, row + 1);
            else
                for (int x = 0; x < w; x++) {
                    row[1 + 3 * x] = (unsigned char)(src[x] >> 16);
                    row[2 + 3 * x] = (unsigned char)(src[x] >> 8);
                    row[3 + 3 * x] = (unsigned char)src[x];
                }
            z.next_in = row;
            z.avail_in = (uInt)w * (uInt)bpp + 1;
        }
        int flush = y < h ? Z_NO_FLUSH : Z_FINISH, r;
        do {
            r = deflate(&z, flush);
            if (z.avail_out == 0 || r == Z_STREAM_END) {
                ok = ok && png_chunk(f, "IDAT", out, CHUNK - z.avail_out);
                z.next_out = out;
                z.avail_out = CHUNK;
            }
        } while (ok && (z.avail_in > 0 || (flush == Z_FINISH && r != Z_STREAM_END)));
    }
    deflateEnd(&z);
    g_free(row);
    g_free(out);
    ok = ok && png_chunk(f, "IEND", NULL, 0);
    return ok ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static gboolean cd_close(ucr_device *dev, GError **error)
{
    cairo_device *d = (cairo_device *)dev;
    while (d->clips > 0 && healthy(d)) {
        d->clips--;
        cairo_restore(d->cr);
    }
    if (d->tagged && healthy(d))
        cairo_tag_end(d->cr, "Document");
    healthy(d);
    if (d->status == CAIRO_STATUS_SUCCESS && d->format == UCR_CAIRO_PNG && !d->too_large) {
        cairo_surface_flush(d->surface);
        d->status = png_write(d->surface, d->stream);
    }
    cairo_surface_finish(d->surface);
    if (d->status == CAIRO_STATUS_SUCCESS)
        d->status = cairo_surface_status(d->surface);
    if (d->status == CAIRO_STATUS_SUCCESS && d->tail)
        d->status = write_tail(d);
    /* The stream is the caller's, but a full disk shows only on flush. */
    if (d->status == CAIRO_STATUS_SUCCESS && (fflush(d->stream) != 0 || ferror(d->stream)))
        d->status = CAIRO_STATUS_WRITE_ERROR;
    if (d->too_large) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "%s", d->too_large);
        return FALSE;
    }
    if (d->status == CAIRO_STATUS_SUCCESS)
        return TRUE;
    static const char *names[] = { "PDF", "SVG", "PNG" };
    g_set_error(error, UCR_ERROR,
                d->status == CAIRO_STATUS_WRITE_ERROR ? UCR_ERROR_CANTCREAT : UCR_ERROR_SOFTWARE,
                "cannot write the %s: %s", names[d->format], cairo_status_to_string(d->status));
    return FALSE;
}

static void cd_drop(ucr_device *dev)
{
    cairo_device *d = (cairo_device *)dev;
    cairo_destroy(d->cr);
    cairo_surface_destroy(d->surface);
    g_hash_table_destroy(d->stamp_fonts);
    g_hash_table_destroy(d->stamp_forms);
    if (d->shifts)
        g_array_free(d->shifts, TRUE);
    if (d->tail)
        g_string_free(d->tail, TRUE);
    g_object_unref(d->text);
    g_object_unref(d->fonts);
    g_free(d->too_large);
}

static const ucr_device cairo_device_ops = {
    .begin_page = cd_begin_page,
    .end_page = cd_end_page,
    .fill_path = cd_fill,
    .stroke_path = cd_stroke,
    .clip_path = cd_clip,
    .pop_clip = cd_pop_clip,
    .show_text = cd_text,
    .stamp = cd_stamp,
    .link = cd_link,
    .dest = cd_dest,
    .set_info = cd_set_info,
    .outline = cd_outline,
    .push_transform = cd_push_transform,
    .pop_transform = cd_pop_clip,
    .close = cd_close,
    .drop = cd_drop,
};
