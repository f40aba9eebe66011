#include "render/haru_device.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <fontconfig/fontconfig.h>
#include <hpdf.h>
#include <pango/pangofc-font.h>

#include "core/error.h"
#include "core/outfile.h"
#include "render/haru_unicode.h"
#include "render/text.h"

/* A destination: a point of a page, y down as the device was given it.
 * Links and outline entries may name a destination made later (the
 * overview links to maps drawn after it), so both are kept and made into
 * libharu objects at close, when every destination is known. */
typedef struct {
    int page;                  /* index into pages */
    double x, y;
    HPDF_Destination made;     /* made on first use */
} haru_dest;

typedef struct {
    int page;
    double x, y, w, h;
    char *dest;
} haru_link;

typedef struct {
    int level;
    char *title;
    char *dest;
} haru_outline;

typedef struct {
    ucr_device super;
    HPDF_Doc doc;
    FILE *stream;              /* where the PDF goes at close (borrowed or out's) */
    ucr_outfile *out;          /* owned, when made for a path */
    PangoFontMap *fonts;
    PangoContext *text;
    char *failure;             /* the first error, as the message close reports */
    gboolean write_failed;     /* the failure was writing the file (73, not 70) */
    const char *doing;         /* what is being done, for the error handler's message */
    GPtrArray *pages;          /* HPDF_Page of every page begun */
    HPDF_Page page;            /* the open page, NULL between pages */
    double k;                  /* path units per point on the open page (see enter_units) */
    gboolean in_units;         /* inside the q ... Q that draws in those units */
    int units_alpha;           /* the alpha at that q, which its Q brings back */
    int alpha;                 /* the page's current alpha, 0..255 */
    GArray *clip_alpha;        /* the alpha at each unpopped clip's GSave */
    GHashTable *font_files;    /* "file#index" → HPDF_Font */
    GHashTable *gstates;       /* alpha 0..255 → HPDF_ExtGState */
    GHashTable *dests;         /* name → haru_dest */
    GArray *links;             /* haru_link */
    GArray *outlines;          /* haru_outline */
    HPDF_Encoder latin;        /* for the info and outline strings */
    gboolean boxed;            /* a TrimBox and BleedBox on every page (set_page_boxes) */
    double trim[4], bleed;     /* the trimmed page, x y w h from the top left; the bleed */
} haru_device;

static const ucr_device haru_device_ops;

/* libharu calls this on every error, then returns an error status from the
 * call that failed: we keep the first and stop drawing (no longjmp). */
static void on_hpdf_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user_data)
{
    haru_device *d = user_data;
    if (d->failure)
        return;
    d->write_failed = error_no == HPDF_FILE_IO_ERROR || error_no == HPDF_FILE_OPEN_ERROR;
    d->failure = g_strdup_printf("libharu error 0x%04X (detail %u) while %s",
                                 (unsigned)error_no, (unsigned)detail_no,
                                 d->doing ? d->doing : "writing the PDF");
}

static void fail(haru_device *d, gboolean write_failed, char *message)
{
    if (d->failure) {
        g_free(message);
        return;
    }
    d->failure = message;
    d->write_failed = write_failed;
}

static gboolean healthy(const haru_device *d)
{
    return d->failure == NULL;
}

/* Healthy and inside a page: what every drawing call needs. */
static gboolean drawing(const haru_device *d)
{
    return healthy(d) && d->page != NULL;
}

static void dest_free(gpointer p)
{
    g_free(p);
}

static void link_clear(gpointer p)
{
    g_free(((haru_link *)p)->dest);
}

static void outline_clear(gpointer p)
{
    haru_outline *o = p;
    g_free(o->title);
    g_free(o->dest);
}

ucr_device *ucr_haru_device_new(FILE *stream, PangoFontMap *fonts)
{
    haru_device *d = (haru_device *)ucr_device_new_of_size(sizeof(haru_device));
    d->super = haru_device_ops;
    d->stream = stream;
    d->fonts = g_object_ref(fonts);
    d->text = ucr_text_context_new(fonts);
    d->pages = g_ptr_array_new();
    d->clip_alpha = g_array_new(FALSE, FALSE, sizeof(int));
    d->font_files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    d->gstates = g_hash_table_new(NULL, NULL);
    d->dests = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, dest_free);
    d->links = g_array_new(FALSE, FALSE, sizeof(haru_link));
    g_array_set_clear_func(d->links, link_clear);
    d->outlines = g_array_new(FALSE, FALSE, sizeof(haru_outline));
    g_array_set_clear_func(d->outlines, outline_clear);
    d->doing = "starting the document";
    d->doc = HPDF_New(on_hpdf_error, d);
    if (!d->doc) {
        fail(d, FALSE, g_strdup("libharu could not start a document (out of memory)"));
        return &d->super;
    }
    HPDF_SetCompressionMode(d->doc, HPDF_COMP_ALL);
    /* Any UTF-8 text, drawn with the TrueType files Pango picks. */
    HPDF_UseUTFEncodings(d->doc);
    /* Info and outline strings go through this encoder, which libharu
     * writes as UTF-16 (see latin_text()); without one it writes the bytes
     * as they are, which readers take for PDFDocEncoding. */
    d->latin = HPDF_GetEncoder(d->doc, "WinAnsiEncoding");
    HPDF_SetCurrentEncoder(d->doc, "WinAnsiEncoding");
    return &d->super;
}

ucr_device *ucr_haru_device_new_for_path(const char *path, PangoFontMap *fonts, GError **error)
{
    ucr_outfile *out = ucr_outfile_open(path, error);
    if (!out)
        return NULL;
    haru_device *d = (haru_device *)ucr_haru_device_new(ucr_outfile_stream(out), fonts);
    d->out = out;
    return &d->super;
}

/* ---- graphics state --------------------------------------------------- */

/* Fill and stroke alpha together, one ExtGState per value, shared by every
 * page that uses it. */
static void set_alpha(haru_device *d, int alpha)
{
    if (alpha == d->alpha)
        return;
    HPDF_ExtGState gs = g_hash_table_lookup(d->gstates, GINT_TO_POINTER(alpha + 1));
    if (!gs) {
        d->doing = "making a transparency state";
        gs = HPDF_CreateExtGState(d->doc);
        if (!gs)
            return;
        HPDF_ExtGState_SetAlphaFill(gs, (HPDF_REAL)(alpha / 255.0));
        HPDF_ExtGState_SetAlphaStroke(gs, (HPDF_REAL)(alpha / 255.0));
        g_hash_table_insert(d->gstates, GINT_TO_POINTER(alpha + 1), gs);
    }
    d->doing = "setting transparency";
    HPDF_Page_SetExtGState(d->page, gs);
    d->alpha = alpha;
}

static int alpha_of(ucr_color c)
{
    return (int)lround(CLAMP(c.a, 0.0, 1.0) * 255);
}

static HPDF_REAL unit(double v)
{
    return (HPDF_REAL)CLAMP(v, 0.0, 1.0);
}

/* libharu remembers the colour across GSave/GRestore, so we only write it
 * when it changes (the maps draw thousands of strokes in one ink). */
static void set_fill(haru_device *d, ucr_color c)
{
    HPDF_RGBColor now = HPDF_Page_GetRGBFill(d->page);
    HPDF_RGBColor want = { unit(c.r), unit(c.g), unit(c.b) };
    if (HPDF_Page_GetFillingColorSpace(d->page) != HPDF_CS_DEVICE_RGB || now.r != want.r
        || now.g != want.g || now.b != want.b)
        HPDF_Page_SetRGBFill(d->page, want.r, want.g, want.b);
    set_alpha(d, alpha_of(c));
}

static void set_stroke_color(haru_device *d, ucr_color c)
{
    HPDF_RGBColor now = HPDF_Page_GetRGBStroke(d->page);
    HPDF_RGBColor want = { unit(c.r), unit(c.g), unit(c.b) };
    if (HPDF_Page_GetStrokingColorSpace(d->page) != HPDF_CS_DEVICE_RGB || now.r != want.r
        || now.g != want.g || now.b != want.b)
        HPDF_Page_SetRGBStroke(d->page, want.r, want.g, want.b);
    set_alpha(d, alpha_of(c));
}

/* ---- paths ------------------------------------------------------------ */

/* How device coordinates become content-stream ones (the page's y is
 * already flipped, see hd_begin_page): moved by (ox, oy) points, scaled by
 * k and, when @whole, rounded to whole units (see enter_units and
 * stroke_scaled). */
typedef struct {
    double ox, oy, k;
    gboolean whole;
} frame;

static HPDF_REAL fx(const frame *f, double x)
{
    double v = (x - f->ox) * f->k;
    return (HPDF_REAL)(f->whole ? round(v) : v);
}

static HPDF_REAL fy(const frame *f, double y)
{
    double v = (y - f->oy) * f->k;
    return (HPDF_REAL)(f->whole ? round(v) : v);
}

/* Writes @path; FALSE if it has nothing to paint (libharu refuses to paint
 * an empty path).  A path that starts with a line or curve starts at its
 * first point, as in cairo. */
static int put_whole_path(haru_device *d, const ucr_path *path, const frame *f);

static gboolean put_path(haru_device *d, const ucr_path *path, const frame *f)
{
    if (f->whole) {
        int r = put_whole_path(d, path, f);
        if (r >= 0)
            return r;
    }
    HPDF_Page page = d->page;
    const ucr_path_el *el = ucr_path_elements(path);
    gboolean open = FALSE;
    for (int i = 0; i < ucr_path_length(path); i++) {
        const double *p = el[i].pt;
        switch (el[i].op) {
        case UCR_PATH_MOVE:
            HPDF_Page_MoveTo(page, fx(f, p[0]), fy(f, p[1]));
            open = TRUE;
            break;
        case UCR_PATH_LINE:
            if (open)
                HPDF_Page_LineTo(page, fx(f, p[0]), fy(f, p[1]));
            else
                HPDF_Page_MoveTo(page, fx(f, p[0]), fy(f, p[1]));
            open = TRUE;
            break;
        case UCR_PATH_CURVE:
            if (!open)
                HPDF_Page_MoveTo(page, fx(f, p[0]), fy(f, p[1]));
            HPDF_Page_CurveTo(page, fx(f, p[0]), fy(f, p[1]), fx(f, p[2]), fy(f, p[3]),
                              fx(f, p[4]), fy(f, p[5]));
            open = TRUE;
            break;
        case UCR_PATH_CLOSE:
            if (open)
                HPDF_Page_ClosePath(page);
            break;
        }
    }
    return open;
}

/* A whole number as libharu's HPDF_FToA writes it, clamped as libharu
 * clamps, into @out; returns the end. */
static char *put_whole(char *out, double v)
{
    v = CLAMP(v, HPDF_LIMIT_MIN_REAL, HPDF_LIMIT_MAX_REAL);
    long n = (long)v;
    char digits[24];
    int len = 0;
    if (n < 0)
        *out++ = '-';
    unsigned long u = n < 0 ? (unsigned long)-n : (unsigned long)n;
    do {
        digits[len++] = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    while (len > 0)
        *out++ = digits[--len];
    return out;
}

/* put_path() for a frame of whole units (a map's strokes, the stamps'
 * thousands of copies): the same bytes libharu's MoveTo, LineTo, CurveTo
 * and ClosePath write ("4762 1310 m"), written in one go to the page's
 * content stream.  libharu clears a 512-byte buffer and formats each
 * number as a float for every operator, which was a tenth of this
 * backend's time.  The page's path state is then set as those calls leave
 * it, so that libharu paints the path.  Returns -1 (nothing written) when
 * the page is not where a path may start; put_path() then lets libharu
 * report it. */
static int put_whole_path(haru_device *d, const ucr_path *path, const frame *f)
{
    HPDF_PageAttr attr = (HPDF_PageAttr)d->page->attr;
    if (attr->gmode != HPDF_GMODE_PAGE_DESCRIPTION && attr->gmode != HPDF_GMODE_PATH_OBJECT)
        return -1;
    const ucr_path_el *el = ucr_path_elements(path);
    int n = ucr_path_length(path);
    /* At most six numbers of 12 characters and an operator per element. */
    char *buf = g_malloc((size_t)n * 80 + 1), *w = buf;
    gboolean open = FALSE;
    HPDF_Point start = attr->str_pos, cur = attr->cur_pos;
    for (int i = 0; i < n; i++) {
        const double *pt = el[i].pt;
        HPDF_REAL c[6] = { 0 };
        int used = el[i].op == UCR_PATH_CURVE ? 6 : el[i].op == UCR_PATH_CLOSE ? 0 : 2;
        for (int j = 0; j < used; j++)
            c[j] = j % 2 == 0 ? fx(f, pt[j]) : fy(f, pt[j]);
        switch (el[i].op) {
        case UCR_PATH_MOVE:
        case UCR_PATH_LINE:
        case UCR_PATH_CURVE: {
            gboolean move = el[i].op == UCR_PATH_MOVE || !open;
            if (move || el[i].op == UCR_PATH_LINE) {
                w = put_whole(w, c[0]);
                *w++ = ' ';
                w = put_whole(w, c[1]);
                memcpy(w, move ? " m\n" : " l\n", 3);
                w += 3;
                cur = (HPDF_Point){ c[0], c[1] };
                if (move)
                    start = cur;
            }
            if (el[i].op == UCR_PATH_CURVE) {
                for (int j = 0; j < 6; j++) {
                    w = put_whole(w, c[j]);
                    *w++ = ' ';
                }
                memcpy(w, "c\n", 2);
                w += 2;
                cur = (HPDF_Point){ c[4], c[5] };
            }
            open = TRUE;
            break;
        }
        case UCR_PATH_CLOSE:
            if (open) {
                memcpy(w, "h\n", 2);
                w += 2;
                cur = start;
            }
            break;
        }
    }
    if (w > buf) {
        HPDF_STATUS st = HPDF_Stream_Write(attr->stream, (const HPDF_BYTE *)buf, (HPDF_UINT)(w - buf));
        if (st != HPDF_OK)
            on_hpdf_error(st, 0, d);
        attr->gmode = HPDF_GMODE_PATH_OBJECT;
        attr->str_pos = start;
        attr->cur_pos = cur;
    }
    g_free(buf);
    return open;
}

/* The frame of paths drawn after enter_units(). */
static frame units_frame(const haru_device *d)
{
    return (frame){ 0, 0, d->k, d->k > 1 };
}

/* In points, for clips (which must outlive the units' q ... Q). */
static frame point_frame(void)
{
    return (frame){ 0, 0, 1, FALSE };
}

/* libharu keeps coordinates in floats and prints five decimals, so
 * 297.64 pt comes out as "297.64001": a map's content stream is nearly
 * twice the size it needs.  Paths are therefore drawn in units of 1/k pt,
 * k a power of two (16 on A4), every coordinate a whole number ("4762"):
 * the stream shrinks by 40%, and a point moves by at most 1/(2k) pt
 * (0.011 mm, below a 1200 dpi printer's dot).  The scale lives in its own
 * q ... Q, left before text and clips: Poppler renders glyphs a shade
 * darker under a scaled-and-unscaled matrix than under the page's own, and
 * a clip must not end with the block. */
static void enter_units(haru_device *d)
{
    if (d->in_units || d->k == 1)
        return;
    HPDF_Page_GSave(d->page);
    HPDF_Page_Concat(d->page, (HPDF_REAL)(1 / d->k), 0, 0, (HPDF_REAL)(1 / d->k), 0, 0);
    d->in_units = TRUE;
    d->units_alpha = d->alpha;
}

static void leave_units(haru_device *d)
{
    if (!d->in_units)
        return;
    HPDF_Page_GRestore(d->page);
    d->in_units = FALSE;
    d->alpha = d->units_alpha;
}

/* ---- slots ------------------------------------------------------------- */

static void restore_clips(haru_device *d)
{
    while (d->clip_alpha->len > 0 && healthy(d)) {
        d->alpha = g_array_index(d->clip_alpha, int, d->clip_alpha->len - 1);
        g_array_set_size(d->clip_alpha, d->clip_alpha->len - 1);
        d->doing = "ending a clip";
        HPDF_Page_GRestore(d->page);
    }
    g_array_set_size(d->clip_alpha, 0);
}

static void hd_end_page(ucr_device *dev)
{
    haru_device *d = (haru_device *)dev;
    if (!drawing(d))
        return;
    /* A page's content stream must balance its q and Q. */
    leave_units(d);
    restore_clips(d);
    d->page = NULL;
}

void ucr_haru_device_set_page_boxes(ucr_device *dev, double x, double y, double w, double h, double bleed)
{
    haru_device *d = (haru_device *)dev;
    d->boxed = TRUE;
    d->trim[0] = x;
    d->trim[1] = y;
    d->trim[2] = w;
    d->trim[3] = h;
    d->bleed = bleed;
}

/* libharu has no call for them: the page is a dictionary, and they are
 * two of its entries, in PDF's coordinates (y up). */
static void page_boxes(haru_device *d, HPDF_Page page, double height)
{
    double x0 = d->trim[0], y0 = height - d->trim[1] - d->trim[3], b = d->bleed;
    HPDF_Box trim = { (HPDF_REAL)x0, (HPDF_REAL)y0, (HPDF_REAL)(x0 + d->trim[2]), (HPDF_REAL)(y0 + d->trim[3]) };
    HPDF_Box bleed = { trim.left - (HPDF_REAL)b, trim.bottom - (HPDF_REAL)b, trim.right + (HPDF_REAL)b,
                       trim.top + (HPDF_REAL)b };
    d->doing = "setting the trim and bleed boxes";
    HPDF_Dict_Add(page, "TrimBox", HPDF_Box_Array_New(page->mmgr, trim));
    HPDF_Dict_Add(page, "BleedBox", HPDF_Box_Array_New(page->mmgr, bleed));
}

static void hd_begin_page(ucr_device *dev, double width, double height)
{
    haru_device *d = (haru_device *)dev;
    if (!healthy(d))
        return;
    if (d->page)
        hd_end_page(dev);
    d->doing = "adding a page";
    HPDF_Page page = HPDF_AddPage(d->doc);
    if (!page)
        return;
    d->doing = "setting the page size";
    HPDF_Page_SetWidth(page, (HPDF_REAL)width);
    HPDF_Page_SetHeight(page, (HPDF_REAL)height);
    if (d->boxed)
        page_boxes(d, page, height);
    g_ptr_array_add(d->pages, page);
    d->page = page;
    d->alpha = 255;
    d->in_units = FALSE;
    /* Our y runs down, PDF's up: the page's matrix flips it, as cairo's
     * does, with the very number of the MediaBox (libharu keeps both as
     * the same float), so that a point lands where cairo puts it to the
     * last bit; flipping each coordinate instead moves a baseline that
     * sits on a pixel edge to the next row when rendered. */
    d->doing = "flipping the page";
    HPDF_Page_Concat(page, 1, 0, 0, -1, 0, (HPDF_REAL)height);
    /* Paths in whole eighths of a point, as the cairo backend rounds them
     * (cairo_device.c, quantize), with room to draw twice the page within
     * libharu's limit of 32767. */
    d->k = 1;
    while (d->k < 8 && 2 * MAX(width, height) * (2 * d->k) <= HPDF_LIMIT_MAX_REAL)
        d->k *= 2;
}

static void hd_fill(ucr_device *dev, const ucr_path *path, bool even_odd, ucr_color color)
{
    haru_device *d = (haru_device *)dev;
    if (!drawing(d) || alpha_of(color) == 0)
        return;
    d->doing = "filling a path";
    set_fill(d, color);
    enter_units(d);
    frame f = units_frame(d);
    if (!put_path(d, path, &f))
        return;
    if (even_odd)
        HPDF_Page_Eofill(d->page);
    else
        HPDF_Page_Fill(d->page);
}

static void set_line_style(HPDF_Page page, double width, const ucr_stroke *stroke)
{
    static const HPDF_LineCap caps[] = { HPDF_BUTT_END, HPDF_ROUND_END,
                                         HPDF_PROJECTING_SCUARE_END };
    static const HPDF_LineJoin joins[] = { HPDF_MITER_JOIN, HPDF_ROUND_JOIN, HPDF_BEVEL_JOIN };
    if (HPDF_Page_GetLineWidth(page) != (HPDF_REAL)width)
        HPDF_Page_SetLineWidth(page, (HPDF_REAL)width);
    if (HPDF_Page_GetLineCap(page) != caps[stroke->cap])
        HPDF_Page_SetLineCap(page, caps[stroke->cap]);
    if (HPDF_Page_GetLineJoin(page) != joins[stroke->join])
        HPDF_Page_SetLineJoin(page, joins[stroke->join]);
}

/* libharu 2.3 takes dash lengths as whole numbers from 1 to 100 (and line
 * widths up to 100), in user space.  A dashed stroke (or a too-wide one) is
 * therefore drawn in a user space of 1/k pt around the path's corner,
 * where its dashes are whole numbers to within 1%: the PDF then says
 * "[60 36] 0 d" under "0.04 0 0 0.04 x y cm" (1/200 pt in the page's
 * 1/8 pt) where cairo says "[0.15 0.09] 0 d".  k comes from a list whose
 * ratios to the page's units libharu writes exactly (it prints five
 * decimals), and keeps coordinates under its limit of 32767. */
static void stroke_scaled(haru_device *d, const ucr_path *path, const ucr_stroke *stroke)
{
    static const double ks[] = { 1000, 500, 400, 250, 200, 125, 100, 80, 50, 40, 25, 20,
                                 10,   8,   5,   4,   2,   1,   0.5, 0.25, 0.2, 0.1 };
    const ucr_path_el *el = ucr_path_elements(path);
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = 0; i < ucr_path_length(path); i++) {
        int npt = el[i].op == UCR_PATH_CURVE ? 3 : el[i].op == UCR_PATH_CLOSE ? 0 : 1;
        for (int k = 0; k < npt; k++) {
            double x = el[i].pt[2 * k], y = el[i].pt[2 * k + 1];
            x0 = MIN(x0, x), x1 = MAX(x1, x), y0 = MIN(y0, y), y1 = MAX(y1, y);
        }
    }
    if (x0 > x1)
        return;
    double longest = 0;
    for (int i = 0; i < stroke->n_dash; i++)
        longest = MAX(longest, stroke->dash[i]);
    double kmax = HPDF_MAX_LINEWIDTH / stroke->width;
    if (longest > 0)
        kmax = MIN(kmax, HPDF_MAX_DASH_PATTERN / longest);
    kmax = MIN(kmax, 32000 / MAX(MAX(x1 - x0, y1 - y0), 1.0));
    double k = ks[G_N_ELEMENTS(ks) - 1];
    for (gsize i = 0; i < G_N_ELEMENTS(ks); i++)
        if (ks[i] <= kmax) {
            k = ks[i];
            break;
        }
    HPDF_UINT16 dash[G_N_ELEMENTS(stroke->dash)];
    int n = CLAMP(stroke->n_dash, 0, (int)G_N_ELEMENTS(dash));
    for (int i = 0; i < n; i++)
        dash[i] = (HPDF_UINT16)CLAMP(lround(stroke->dash[i] * k), 1, HPDF_MAX_DASH_PATTERN);
    /* The corner on the page's grid, so that the move is whole units. */
    x0 = floor(x0 * d->k) / d->k;
    y0 = floor(y0 * d->k) / d->k;
    HPDF_Page_GSave(d->page);
    HPDF_Page_Concat(d->page, (HPDF_REAL)(d->k / k), 0, 0, (HPDF_REAL)(d->k / k),
                     (HPDF_REAL)(x0 * d->k), (HPDF_REAL)(y0 * d->k));
    set_line_style(d->page, MIN(stroke->width * k, HPDF_MAX_LINEWIDTH), stroke);
    /* An odd count repeats (PDF and cairo agree); libharu wants it even. */
    if (n % 2 == 1 && n < (int)G_N_ELEMENTS(dash)) {
        for (int i = 0; i < n && n + i < (int)G_N_ELEMENTS(dash); i++)
            dash[n + i] = dash[i];
        n = MIN(2 * n, (int)G_N_ELEMENTS(dash));
    }
    if (n % 2 == 1)
        n--;
    HPDF_Page_SetDash(d->page, n > 0 ? dash : NULL, (HPDF_UINT)n, 0);
    frame f = { x0, y0, k, k >= 4 };
    if (put_path(d, path, &f))
        HPDF_Page_Stroke(d->page);
    HPDF_Page_GRestore(d->page);
}

static void hd_stroke(ucr_device *dev, const ucr_path *path, const ucr_stroke *stroke,
                      ucr_color color)
{
    haru_device *d = (haru_device *)dev;
    /* cairo draws nothing for a zero width; PDF would draw a hairline. */
    if (!drawing(d) || alpha_of(color) == 0 || !(stroke->width > 0))
        return;
    d->doing = "stroking a path";
    set_stroke_color(d, color);
    enter_units(d);
    if (stroke->n_dash > 0 || stroke->width * d->k > HPDF_MAX_LINEWIDTH) {
        stroke_scaled(d, path, stroke);
        return;
    }
    set_line_style(d->page, stroke->width * d->k, stroke);
    if (HPDF_Page_GetDash(d->page).num_ptn != 0)
        HPDF_Page_SetDash(d->page, NULL, 0, 0);
    frame f = units_frame(d);
    if (put_path(d, path, &f))
        HPDF_Page_Stroke(d->page);
}

static void hd_clip(ucr_device *dev, const ucr_path *path, bool even_odd)
{
    haru_device *d = (haru_device *)dev;
    if (!drawing(d))
        return;
    d->doing = "clipping";
    leave_units(d);
    HPDF_Page_GSave(d->page);
    g_array_append_val(d->clip_alpha, d->alpha);
    frame f = point_frame();
    /* An empty clip path clips everything away, as in cairo. */
    if (!put_path(d, path, &f))
        HPDF_Page_Rectangle(d->page, 0, 0, 0, 0);
    if (even_odd)
        HPDF_Page_Eoclip(d->page);
    else
        HPDF_Page_Clip(d->page);
    HPDF_Page_EndPath(d->page);
}

static void hd_pop_clip(ucr_device *dev)
{
    haru_device *d = (haru_device *)dev;
    if (!drawing(d) || d->clip_alpha->len == 0)
        return;
    d->doing = "ending a clip";
    leave_units(d);
    /* GRestore brings back the alpha that was current at the GSave. */
    d->alpha = g_array_index(d->clip_alpha, int, d->clip_alpha->len - 1);
    g_array_set_size(d->clip_alpha, d->clip_alpha->len - 1);
    HPDF_Page_GRestore(d->page);
}

/* A transform is a GSave like a clip's, on the same stack; the page's
 * matrix already flips y (hd_begin_page), so it is concatenated as it is. */
static void hd_push_transform(ucr_device *dev, const ucr_matrix *m)
{
    haru_device *d = (haru_device *)dev;
    if (!drawing(d))
        return;
    d->doing = "transforming";
    HPDF_Page_GSave(d->page);
    g_array_append_val(d->clip_alpha, d->alpha);
    HPDF_Page_Concat(d->page, (HPDF_REAL)m->a, (HPDF_REAL)m->b, (HPDF_REAL)m->c, (HPDF_REAL)m->d,
                     (HPDF_REAL)m->e, (HPDF_REAL)m->f);
}

/* ---- text -------------------------------------------------------------- */

/* The libharu font for the face Pango chose, loaded from its file once per
 * document and embedded (libharu writes the subset of glyphs used).  @skew
 * and @embolden get what fontconfig asks to synthesise for it, as cairo
 * would. */
static HPDF_Font font_for(haru_device *d, PangoFont *pf, double *skew, gboolean *embolden)
{
    *skew = 0;
    *embolden = FALSE;
    if (!PANGO_IS_FC_FONT(pf)) {
        fail(d, FALSE, g_strdup("the fonts are not fontconfig fonts: libharu needs their files"));
        return NULL;
    }
    FcPattern *pat = pango_fc_font_get_pattern(PANGO_FC_FONT(pf));
    FcChar8 *file = NULL;
    int index = 0;
    if (FcPatternGetString(pat, FC_FILE, 0, &file) != FcResultMatch) {
        fail(d, FALSE, g_strdup("a font without a file: libharu cannot embed it"));
        return NULL;
    }
    FcPatternGetInteger(pat, FC_INDEX, 0, &index);
    FcMatrix *m;
    if (FcPatternGetMatrix(pat, FC_MATRIX, 0, &m) == FcResultMatch)
        *skew = m->xy;
    FcBool bold;
    if (FcPatternGetBool(pat, FC_EMBOLDEN, 0, &bold) == FcResultMatch)
        *embolden = bold;

    char *key = g_strdup_printf("%s#%d", (const char *)file, index);
    HPDF_Font font = g_hash_table_lookup(d->font_files, key);
    if (font) {
        g_free(key);
        return font;
    }
    d->doing = "loading a TrueType font";
    const char *name = index == 0
        ? HPDF_LoadTTFontFromFile(d->doc, (const char *)file, HPDF_TRUE)
        : HPDF_LoadTTFontFromFile2(d->doc, (const char *)file, (HPDF_UINT)index, HPDF_TRUE);
    if (name) {
        d->doing = "choosing a font";
        font = HPDF_GetFont(d->doc, name, "UTF-8");
    }
    if (!font) {
        /* Say which file: the usual cause is a font that is not TrueType. */
        char *why = d->failure ? d->failure : g_strdup("libharu refused it");
        d->failure = NULL;
        fail(d, FALSE, g_strdup_printf("cannot embed the font '%s' (libharu reads TrueType "
                                       "only): %s", (const char *)file, why));
        g_free(why);
        g_free(key);
        return NULL;
    }
    /* libharu's own /ToUnicode for this encoding is wrong (see
     * haru_unicode.c); without the fix text still shows, but copying it
     * out of the PDF depends on the reader's guesswork. */
    ucr_haru_font_fix_unicode(font);
    g_hash_table_insert(d->font_files, key, font);
    return font;
}

/* Shows the bytes [@from, @to) of @s with its first glyph at (@x, @baseline)
 * and a character spacing (in points) between @lo and @hi: the one already
 * set if it will do, else none if that will, else the middle. */
static void show_segment(haru_device *d, const char *s, int from, int to, double x,
                         double baseline, double scale, double skew, double lo, double hi)
{
    if (to <= from)
        return;
    double now = HPDF_Page_GetCharSpace(d->page) * scale;
    double tc = now >= lo && now <= hi ? now : lo <= 0 && hi >= 0 ? 0 : (lo + hi) / 2;
    if (tc != now)
        HPDF_Page_SetCharSpace(d->page, (HPDF_REAL)CLAMP(tc / scale, HPDF_MIN_CHARSPACE,
                                                         HPDF_MAX_CHARSPACE));
    char *seg = g_strndup(s + from, (gsize)(to - from));
    /* y down: the text matrix flips the glyphs back upright. */
    HPDF_Page_SetTextMatrix(d->page, (HPDF_REAL)scale, 0, (HPDF_REAL)(skew * scale),
                            (HPDF_REAL)-scale, (HPDF_REAL)x, (HPDF_REAL)baseline);
    HPDF_Page_ShowText(d->page, seg);
    g_free(seg);
}

/* One run of one font, its origin at (@x, @baseline).  libharu advances by
 * each character's width, Pango by the shaped glyph's (kerning included),
 * so the run is shown in segments: one as long as libharu's advances agree
 * with Pango's, a new one placed where Pango puts the next cluster when
 * they part (after "A" of "AV", say).  Every glyph then stands where
 * cairo draws it, and most runs are still one Tj.  @k scales Pango's
 * widths: glyphs shaped at another size than @size (a scaled list). */
static void show_run(haru_device *d, const char *utf8, PangoLayoutRun *run, double x,
                     double baseline, double size, double k, ucr_color color)
{
    PangoItem *item = run->item;
    PangoGlyphString *gs = run->glyphs;
    if (item->length <= 0 || gs->num_glyphs <= 0)
        return;
    double skew;
    gboolean embolden;
    HPDF_Font font = font_for(d, item->analysis.font, &skew, &embolden);
    if (!font)
        return;
    const char *s = utf8 + item->offset;
    d->doing = "showing text";
    /* libharu sizes stop at 600 pt: anything larger is scaled by the text
     * matrix. */
    double scale = size > HPDF_MAX_FONTSIZE ? size / HPDF_MAX_FONTSIZE : 1;
    HPDF_Page_SetFontAndSize(d->page, font, (HPDF_REAL)(size / scale));
    HPDF_TextRenderingMode mode = embolden ? HPDF_FILL_THEN_STROKE : HPDF_FILL;
    if (HPDF_Page_GetTextRenderingMode(d->page) != mode)
        HPDF_Page_SetTextRenderingMode(d->page, mode);
    if (embolden) {
        /* cairo's synthetic bold grows the outline by 1/24 em. */
        HPDF_Page_SetRGBStroke(d->page, unit(color.r), unit(color.g), unit(color.b));
        HPDF_Page_SetLineWidth(d->page, (HPDF_REAL)(size / scale / 24));
    }
    if (item->analysis.level % 2 == 1) {
        /* Right-to-left: clusters run backwards; libharu cannot reorder,
         * so the run is shown whole, in logical order. */
        show_segment(d, s, 0, item->length, x, baseline, scale, skew, -INFINITY, INFINITY);
        return;
    }
    /* Within a segment every cluster must start within eps of where Pango
     * puts it.  libharu advances by its widths (whole thousandths of an
     * em, truncated, so it falls steadily behind Pango) plus the segment's
     * character spacing (PDF's Tc, after every character): each segment
     * gets a Tc that keeps all its clusters on Pango's positions, and ends
     * where no Tc can (at a kerned pair).  [lo, hi] is the Tc that can. */
    double eps = MAX(0.005, size * 0.001);
    int seg = 0;                      /* the segment's first byte */
    double seg_x = x, x_pango = x;    /* where Pango puts it, and the cluster */
    double advance = 0;               /* libharu's advance from seg_x, Tc aside */
    long chars = 0;                   /* characters from the segment's start */
    double lo = -INFINITY, hi = INFINITY;
    for (int i = 0; i < gs->num_glyphs;) {
        int from = gs->log_clusters[i];
        double adv = 0;
        int j = i;
        for (; j < gs->num_glyphs && gs->log_clusters[j] == from; j++)
            adv += (double)gs->glyphs[j].geometry.width / PANGO_SCALE * k;
        int to = j < gs->num_glyphs ? gs->log_clusters[j] : item->length;
        if (chars > 0) {
            double off = x_pango - seg_x - advance;
            double nlo = MAX(lo, (off - eps) / chars), nhi = MIN(hi, (off + eps) / chars);
            if (nlo > nhi) {
                show_segment(d, s, seg, from, seg_x, baseline, scale, skew, lo, hi);
                seg = from;
                seg_x = x_pango;
                advance = 0;
                chars = 0;
                nlo = -INFINITY;
                nhi = INFINITY;
            }
            lo = nlo;
            hi = nhi;
        }
        HPDF_TextWidth tw = HPDF_Font_TextWidth(font, (const HPDF_BYTE *)s + from,
                                                (HPDF_UINT)(to - from));
        advance += tw.width * size / 1000.0;
        chars += g_utf8_strlen(s + from, to - from);
        x_pango += adv;
        i = j;
    }
    show_segment(d, s, seg, item->length, seg_x, baseline, scale, skew, lo, hi);
}

static void hd_text(ucr_device *dev, const ucr_text *text, ucr_color color)
{
    haru_device *d = (haru_device *)dev;
    if (!drawing(d) || !(text->size > 0) || alpha_of(color) == 0 || !text->utf8
        || !*text->utf8)
        return;
    if (text->shaped && text->baseline && text->align == 0) {
        /* Shaped by the layout, as cairo_device.c draws it: the same glyphs
         * from the baseline's origin, kept to cairo's 24.8 fixed point (see
         * below).  Laying each run out again was most of this backend's
         * text time. */
        PangoGlyphItem gi;
        ucr_shaped_glyphs(text->shaped, &gi);
        d->doing = "showing text";
        leave_units(d);
        set_fill(d, color);
        HPDF_Page_BeginText(d->page);
        show_run(d, ucr_shaped_text(text->shaped), &gi, round(text->x * 256) / 256,
                 round(text->y * 256) / 256, text->size, text->size / ucr_shaped_size(text->shaped),
                 color);
        if (healthy(d))
            HPDF_Page_EndText(d->page);
        ucr_shaped_glyphs_clear(&gi);
        return;
    }
    /* The layout cairo_device.c makes, placed as it places it. */
    PangoLayout *layout = ucr_text_layout_new(d->text, text, text->size);
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    double w = (double)logical.width / PANGO_SCALE, h = (double)logical.height / PANGO_SCALE;
    double top = text->baseline ? text->y - (double)pango_layout_get_baseline(layout) / PANGO_SCALE
                                : text->y - h / 2;
    double left = text->x - text->align * w;
    /* cairo keeps its current point, where pango_cairo_show_layout()
     * starts, in 24.8 fixed point: round as it does, so that a baseline
     * lands on the very same number (59.999023, not 60) and a glyph on a
     * pixel edge renders in the same row. */
    left = round(left * 256) / 256;
    top = round(top * 256) / 256;
    const char *utf8 = pango_layout_get_text(layout);

    d->doing = "showing text";
    leave_units(d);
    set_fill(d, color);
    HPDF_Page_BeginText(d->page);
    PangoLayoutIter *it = pango_layout_get_iter(layout);
    do {
        PangoLayoutRun *run = pango_layout_iter_get_run_readonly(it);
        if (!run)
            continue;   /* the end of a line */
        PangoRectangle r;
        pango_layout_iter_get_run_extents(it, NULL, &r);
        double base = (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
        show_run(d, utf8, run, left + (double)r.x / PANGO_SCALE, top + base, text->size, 1, color);
    } while (healthy(d) && pango_layout_iter_next_run(it));
    pango_layout_iter_free(it);
    if (healthy(d))
        HPDF_Page_EndText(d->page);
    g_object_unref(layout);
}

/* ---- navigation and metadata ------------------------------------------- */

static void hd_link(ucr_device *dev, double x, double y, double w, double h, const char *dest)
{
    haru_device *d = (haru_device *)dev;
    if (!drawing(d) || !dest)
        return;
    haru_link l = { (int)d->pages->len - 1, x, y, w, h, g_strdup(dest) };
    g_array_append_val(d->links, l);
}

static void hd_dest(ucr_device *dev, const char *name, double x, double y)
{
    haru_device *d = (haru_device *)dev;
    /* The first definition of a name wins, as a reader resolves it. */
    if (!drawing(d) || !name || g_hash_table_contains(d->dests, name))
        return;
    haru_dest *dst = g_new0(haru_dest, 1);
    dst->page = (int)d->pages->len - 1;
    dst->x = x;
    dst->y = y;
    g_hash_table_insert(d->dests, g_strdup(name), dst);
}

/* Info and outline strings: libharu writes a string given with an encoder
 * as UTF-16 (what PDF wants for text outside ASCII), converting it from
 * that encoder's bytes, so we hand it Windows-1252.  A character outside
 * that set becomes '?'; the booklet's titles are Latin text. */
static char *latin_text(const char *utf8)
{
    char *s = g_convert_with_fallback(utf8, -1, "WINDOWS-1252", "UTF-8", "?", NULL, NULL, NULL);
    return s ? s : g_strdup("?");
}

/* "2017-04-07T00:00:00": the date the caller gave, never the clock's, so the
 * same booklet is the same bytes. */
static gboolean parse_date(const char *text, HPDF_Date *date)
{
    int y, mo, dd, h = 0, mi = 0, s = 0;
    int n = sscanf(text, "%d-%d-%dT%d:%d:%d", &y, &mo, &dd, &h, &mi, &s);
    if (n != 3 && n != 6)
        return FALSE;
    if (y < 1 || y > 9999 || mo < 1 || mo > 12 || dd < 1 || dd > 31 || h < 0 || h > 23
        || mi < 0 || mi > 59 || s < 0 || s > 59)
        return FALSE;
    *date = (HPDF_Date){ y, mo, dd, h, mi, s, 'Z', 0, 0 };
    return TRUE;
}

static void hd_set_info(ucr_device *dev, const char *key, const char *value)
{
    static const struct { const char *key; HPDF_InfoType type; } keys[] = {
        { "title", HPDF_INFO_TITLE },       { "author", HPDF_INFO_AUTHOR },
        { "subject", HPDF_INFO_SUBJECT },   { "keywords", HPDF_INFO_KEYWORDS },
        { "creator", HPDF_INFO_CREATOR },
    };
    haru_device *d = (haru_device *)dev;
    if (!healthy(d) || !key || !value)
        return;
    d->doing = "setting the document information";
    if (!strcmp(key, "date")) {
        HPDF_Date date;
        if (parse_date(value, &date)) {
            HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_CREATION_DATE, date);
            HPDF_SetInfoDateAttr(d->doc, HPDF_INFO_MOD_DATE, date);
        }
        return;
    }
    for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
        if (!strcmp(key, keys[i].key)) {
            char *s = latin_text(value);
            HPDF_SetInfoAttr(d->doc, keys[i].type, s);
            g_free(s);
        }
}

static void hd_outline(ucr_device *dev, int level, const char *title, const char *dest)
{
    haru_device *d = (haru_device *)dev;
    if (!healthy(d) || !title)
        return;
    haru_outline o = { level, g_strdup(title), g_strdup(dest) };
    g_array_append_val(d->outlines, o);
}

static HPDF_Destination destination(haru_device *d, const char *name)
{
    haru_dest *dst = name ? g_hash_table_lookup(d->dests, name) : NULL;
    if (!dst)
        return NULL;
    if (!dst->made) {
        HPDF_Page page = g_ptr_array_index(d->pages, dst->page);
        HPDF_REAL top = HPDF_Page_GetHeight(page) - (HPDF_REAL)dst->y;
        /* XYZ would force a zoom (libharu wants 8% to 3200%, not "keep");
         * FitH keeps the reader's width and scrolls the point to the top. */
        dst->made = HPDF_Page_CreateDestination(page);
        if (dst->made)
            HPDF_Destination_SetFitH(dst->made, MAX(top, 0));
    }
    return dst->made;
}

/* Links and outline entries, now that every destination is known.  A link
 * to a name never defined is left out: a dead link is worse than none. */
static void make_navigation(haru_device *d)
{
    d->doing = "making the links";
    for (guint i = 0; i < d->links->len && healthy(d); i++) {
        const haru_link *l = &g_array_index(d->links, haru_link, i);
        HPDF_Destination dst = destination(d, l->dest);
        if (!dst)
            continue;
        HPDF_Page page = g_ptr_array_index(d->pages, l->page);
        HPDF_REAL ph = HPDF_Page_GetHeight(page);
        HPDF_Rect rect = { (HPDF_REAL)l->x, ph - (HPDF_REAL)(l->y + l->h),
                           (HPDF_REAL)(l->x + l->w), ph - (HPDF_REAL)l->y };
        HPDF_Annotation a = HPDF_Page_CreateLinkAnnot(page, rect, dst);
        if (a)   /* no frame around it, as cairo draws none */
            HPDF_LinkAnnot_SetBorderStyle(a, 0, 0, 0);
    }
    d->doing = "making the outline";
    HPDF_Outline parent[8] = { NULL };  /* the last entry of each level (0: the root) */
    for (guint i = 0; i < d->outlines->len && healthy(d); i++) {
        const haru_outline *o = &g_array_index(d->outlines, haru_outline, i);
        int level = CLAMP(o->level, 1, (int)G_N_ELEMENTS(parent) - 1);
        char *title = latin_text(o->title);
        HPDF_Outline e = HPDF_CreateOutline(d->doc, parent[level - 1], title, d->latin);
        g_free(title);
        if (!e)
            break;
        HPDF_Outline_SetOpened(e, level == 1 ? HPDF_TRUE : HPDF_FALSE);
        HPDF_Destination dst = destination(d, o->dest);
        if (dst)
            HPDF_Outline_SetDestination(e, dst);
        for (gsize k = (gsize)level; k < G_N_ELEMENTS(parent); k++)
            parent[k] = e;
    }
}

/* Writes the document libharu holds in memory to the stream. */
static void write_document(haru_device *d)
{
    d->doing = "writing the PDF";
    if (HPDF_SaveToStream(d->doc) != HPDF_OK || !healthy(d))
        return;
    HPDF_UINT32 size = HPDF_GetStreamSize(d->doc);
    HPDF_BYTE *buf = g_malloc(size ? size : 1);
    HPDF_UINT32 got = size;
    HPDF_STATUS st = HPDF_ReadFromStream(d->doc, buf, &got);
    if ((st != HPDF_OK && st != HPDF_STREAM_EOF) || got != size) {
        fail(d, FALSE, g_strdup("libharu could not hand over the PDF it made"));
    } else if (fwrite(buf, 1, got, d->stream) != got || fflush(d->stream) != 0
               || ferror(d->stream)) {
        fail(d, TRUE, g_strdup_printf("cannot write the PDF: %s", g_strerror(errno ? errno : EIO)));
    }
    g_free(buf);
}

static gboolean hd_close(ucr_device *dev, GError **error)
{
    haru_device *d = (haru_device *)dev;
    if (d->page)
        hd_end_page(dev);
    if (healthy(d) && d->pages->len == 0)
        fail(d, FALSE, g_strdup("the PDF has no pages"));
    if (healthy(d))
        make_navigation(d);
    if (healthy(d))
        write_document(d);
    if (d->out) {
        ucr_outfile *out = d->out;
        d->out = NULL;
        d->stream = NULL;
        if (d->failure) {
            ucr_outfile_abort(out);
        } else {
            GError *e = NULL;
            if (!ucr_outfile_commit(out, &e)) {
                fail(d, TRUE, g_strdup(e->message));
                g_error_free(e);
            }
        }
    }
    if (!d->failure)
        return TRUE;
    g_set_error(error, UCR_ERROR, d->write_failed ? UCR_ERROR_CANTCREAT : UCR_ERROR_SOFTWARE,
                "cannot make the PDF with libharu: %s", d->failure);
    return FALSE;
}

static void hd_drop(ucr_device *dev)
{
    haru_device *d = (haru_device *)dev;
    ucr_outfile_abort(d->out);   /* unclosed: no file */
    if (d->doc)
        HPDF_Free(d->doc);
    g_object_unref(d->text);
    g_object_unref(d->fonts);
    g_ptr_array_free(d->pages, TRUE);
    g_array_free(d->clip_alpha, TRUE);
    g_hash_table_destroy(d->font_files);
    g_hash_table_destroy(d->gstates);
    g_hash_table_destroy(d->dests);
    g_array_free(d->links, TRUE);
    g_array_free(d->outlines, TRUE);
    g_free(d->failure);
}

static const ucr_device haru_device_ops = {
    .begin_page = hd_begin_page,
    .end_page = hd_end_page,
    .fill_path = hd_fill,
    .stroke_path = hd_stroke,
    .clip_path = hd_clip,
    .pop_clip = hd_pop_clip,
    .show_text = hd_text,
    .link = hd_link,
    .dest = hd_dest,
    .set_info = hd_set_info,
    .outline = hd_outline,
    .push_transform = hd_push_transform,
    .pop_transform = hd_pop_clip,
    .close = hd_close,
    .drop = hd_drop,
};
