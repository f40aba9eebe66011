#include "output/pdf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "core/error.h"
#include "output/pdfpack.h"
#include "render/cairo_device.h"
#include "render/fonts.h"
#include "render/haru_device.h"

gboolean ucr_pdf_backend_parse(const char *name, ucr_pdf_backend *backend)
{
    if (!strcmp(name, "cairo"))
        *backend = UCR_BACKEND_CAIRO;
    else if (!strcmp(name, "haru"))
        *backend = UCR_BACKEND_HARU;
    else
        return FALSE;
    return TRUE;
}

/* The booklet of @md laid out on @bo's pages: a mini-zine's on its panels
 * (@panel receives their template, the caller frees it), every page
 * counted.  NULL with @error set. */
static ucr_booklet *booklet_lay_out(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                                    const ucr_imposition *impose, PangoFontMap *fonts,
                                    ucr_booklet_options *bo, ucr_page_template **panel, GError **error)
{
    *bo = *opt;
    if (impose && impose->kind == UCR_IMPOSE_MINIZINE) {
        *panel = ucr_imposition_panel(impose, opt->page, ucr_datadir(), error);
        if (!*panel)
            return NULL;
        bo->page = *panel;
        bo->zine_pages = UCR_MINIZINE_PANELS;
        bo->player_maps = false;
    }
    ucr_booklet *b = ucr_booklet_new(md, bo, fonts, error);
    if (b && bo->zine_pages) {
        const ucr_node *node = g_ptr_array_index(md->nodes, opt->node_id ? ucr_megadungeon_find_node(md, opt->node_id) : 0);
        int pages = ucr_booklet_page_count(b);
        bool parts = ucr_booklet_min_part_square(b) < G_MAXDOUBLE;
        if (!ucr_imposition_panels_fit(pages, parts, md->seed, node->id, (int)md->nodes->len, error)) {
            ucr_booklet_free(b);
            return NULL;
        }
    }
    return b;
}

/* The pages of @b placed on the sheets of @impose (paper @paper): the
 * sheets, and their size in @w × @h; NULL with @error set. */
static GPtrArray *booklet_impose(ucr_booklet *b, const ucr_booklet_options *bo, const ucr_imposition *impose,
                                 const ucr_page_template *paper, double *w, double *h, GError **error)
{
    /* A sheet holds pages from both ends of the booklet: all of them
     * are read back for the imposition. */
    int n = ucr_booklet_page_count(b);
    GPtrArray *sheets = NULL;
    gboolean ok = TRUE;
    ucr_impose_page *pages = g_new0(ucr_impose_page, n);
    for (int i = 0; i < n && ok; i++) {
        ucr_booklet_page(b, i, &pages[i].width, &pages[i].height, NULL, NULL);
        pages[i].list = ucr_booklet_page_load(b, i, error);
        ok = pages[i].list != NULL;
    }
    if (ok) {
        double sheet_w, sheet_h;
        ucr_imposition_sheet(paper, &sheet_w, &sheet_h);
        sheets = ucr_impose(impose, pages, n, bo->page->width, bo->page->height, sheet_w, sheet_h, w, h);
    }
    for (int i = 0; i < n; i++)
        ucr_display_list_free((ucr_display_list *)pages[i].list);
    g_free(pages);
    return sheets;
}

/* What the pages are drawn with: the booklet or its imposed sheets. */
typedef struct {
    ucr_booklet *booklet;
    GPtrArray *sheets;                /* imposed: the sheets, replayed instead of the pages */
    ucr_pdf_backend backend;
    const ucr_imposition *impose;
    const ucr_page_template *page;    /* the booklet's page (a mini-zine's panel) */
    double width, height;             /* of a page or sheet, points */
    PangoFontMap *fonts;
} pdf_pages;

/* A print shop's saddle sheets say where to trim and how far the bleed
 * reaches (the PDF's TrimBox and BleedBox). */
static void print_boxes(ucr_device *dev, const pdf_pages *p)
{
    double sw, sh, x, y;
    if (!p->impose || p->impose->kind != UCR_IMPOSE_SADDLE ||
        !ucr_impose_saddle_sheet(p->impose, p->page->width, p->page->height, &sw, &sh, &x, &y))
        return;
    if (p->backend == UCR_BACKEND_CAIRO)
        ucr_cairo_device_set_page_boxes(dev, x, y, 2 * p->page->width, p->page->height, p->impose->bleed);
    else
        ucr_haru_device_set_page_boxes(dev, x, y, 2 * p->page->width, p->page->height, p->impose->bleed);
}

/* The pages (or sheets) drawn onto a new device of the backend writing to @to. */
static gboolean pages_draw(const pdf_pages *p, FILE *to, GError **error)
{
    ucr_device *dev = p->backend == UCR_BACKEND_CAIRO
                          ? ucr_cairo_device_new(UCR_CAIRO_PDF, to, p->width, p->height, 72, p->fonts)
                          : ucr_haru_device_new(to, p->fonts);
    print_boxes(dev, p);
    gboolean drawn = TRUE;
    if (p->sheets)
        for (guint i = 0; i < p->sheets->len; i++)
            ucr_display_list_replay(g_ptr_array_index(p->sheets, i), dev, NULL);
    else
        drawn = ucr_booklet_replay(p->booklet, dev, error);
    gboolean ok = ucr_device_close(dev, drawn ? error : NULL) && drawn;
    ucr_device_free(dev);
    return ok;
}

/* @stream flushed; FALSE with @error set when the write failed. */
static gboolean stream_flushed(FILE *stream, GError **error)
{
    if (fflush(stream) != 0 || ferror(stream)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot write the PDF: %s", g_strerror(errno ? errno : EIO));
        return FALSE;
    }
    return TRUE;
}

/* cairo's pages drawn to memory and packed from there to @stream: without
 * a temporary folder (or room in it) the file is packed all the same, for
 * unpacked a cairo 1.16 booklet names each hatching form of a map in its
 * resources once per use, a key repeated in a dictionary (pdfpack drops
 * the repeats). */
static gboolean pages_write_from_memory(const pdf_pages *p, FILE *stream, GError **error)
{
    char *mem_pdf = NULL;
    size_t mem_len = 0;
    FILE *mem = open_memstream(&mem_pdf, &mem_len);
    if (!mem) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot hold the PDF in memory: %s", g_strerror(errno));
        return FALSE;
    }
    gboolean ok = pages_draw(p, mem, error);
    if (fclose(mem) != 0 && ok) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot hold the PDF in memory: %s", g_strerror(errno));
        ok = FALSE;
    }
    if (ok) {
        ucr_pdfpack_write((const guint8 *)mem_pdf, mem_len, stream);
        ok = stream_flushed(stream, error);
    }
    free(mem_pdf);
    return ok;
}

/* The pages drawn to @stream.  cairo's file is packed on its way there
 * (output/pdfpack.c: its dictionaries in object streams, 40% smaller), so
 * it goes to a temporary file first (without one, or without room in it:
 * to memory, and packed from there).  libharu's stays as it is: a plain PDF
 * without object streams, which PDF/X-1a and X-3 preflights want, is what
 * one picks that backend for (doc/booklet.md, "Backends"). */
static gboolean pages_write(const pdf_pages *p, FILE *stream, GError **error)
{
    if (p->backend != UCR_BACKEND_CAIRO)
        return pages_draw(p, stream, error) && stream_flushed(stream, error);
    ucr_pdfpack_spill *spill = ucr_pdfpack_begin();
    if (!spill)
        return pages_write_from_memory(p, stream, error);
    gboolean ok = pages_draw(p, ucr_pdfpack_stream(spill), error);
    if (ucr_pdfpack_spill_failed(spill)) {
        /* The temporary folder is full (or the file size limited): the
         * pages again, to memory, then packed to @stream, which may have
         * room — and if not, says so in its own name. */
        ucr_pdfpack_abort(spill);
        g_clear_error(error);
        return pages_write_from_memory(p, stream, error);
    }
    if (!ok) {
        ucr_pdfpack_abort(spill);
        return FALSE;
    }
    return ucr_pdfpack_end(spill, stream, NULL, error) && stream_flushed(stream, error);
}

gboolean ucr_pdf_write_booklet(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                               ucr_pdf_backend backend, const ucr_imposition *impose, FILE *stream,
                               GError **error)
{
    char *fonts_dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(fonts_dir, error);
    g_free(fonts_dir);
    if (!fonts)
        return FALSE;
    ucr_booklet_options bo;
    ucr_page_template *panel = NULL;
    pdf_pages p = { NULL, NULL, backend, impose, NULL, 0, 0, fonts };
    p.booklet = booklet_lay_out(md, opt, impose, fonts, &bo, &panel, error);
    p.page = bo.page;
    p.width = bo.page->width;
    p.height = bo.page->height;
    gboolean ok = p.booklet != NULL;
    if (ok && impose) {
        p.sheets = booklet_impose(p.booklet, &bo, impose, opt->page, &p.width, &p.height, error);
        ok = p.sheets != NULL;
    }
    if (ok)
        ok = pages_write(&p, stream, error);
    if (p.sheets) {
        g_ptr_array_set_free_func(p.sheets, (GDestroyNotify)ucr_display_list_free);
        g_ptr_array_free(p.sheets, TRUE);
    }
    ucr_booklet_free(p.booklet);
    ucr_page_template_free(panel);
    g_object_unref(fonts);
    return ok;
}
