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

/* The page template of a mini-zine's panels: its file, sized to an eighth of
 * the sheet @paper turned to landscape. */
static ucr_page_template *panel_template(const ucr_imposition *im, const ucr_page_template *paper,
                                         GError **error)
{
    ucr_page_template *t = ucr_page_template_load(im->panel, ucr_datadir(), error);
    if (!t)
        return NULL;
    double long_side = MAX(paper->width, paper->height), short_side = MIN(paper->width, paper->height);
    t->width = long_side / 4;
    t->height = short_side / 2;
    return t;
}

/* A print shop's saddle sheets say where to trim and how far the bleed
 * reaches (the PDF's TrimBox and BleedBox). */
static void print_boxes(ucr_device *dev, ucr_pdf_backend backend, const ucr_imposition *impose,
                        const ucr_page_template *page)
{
    double sw, sh, x, y;
    if (!impose || impose->kind != UCR_IMPOSE_SADDLE ||
        !ucr_impose_saddle_sheet(impose, page->width, page->height, &sw, &sh, &x, &y))
        return;
    if (backend == UCR_BACKEND_CAIRO)
        ucr_cairo_device_set_page_boxes(dev, x, y, 2 * page->width, page->height, impose->bleed);
    else
        ucr_haru_device_set_page_boxes(dev, x, y, 2 * page->width, page->height, impose->bleed);
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
    ucr_booklet_options bo = *opt;
    ucr_page_template *panel = NULL;
    gboolean ok = TRUE;
    if (impose && impose->kind == UCR_IMPOSE_MINIZINE) {
        panel = panel_template(impose, opt->page, error);
        ok = panel != NULL;
        bo.page = panel;
        bo.zine_pages = UCR_MINIZINE_PANELS;
        bo.player_maps = false;
    }
    ucr_booklet *b = ok ? ucr_booklet_new(md, &bo, fonts, error) : NULL;
    ok = b != NULL;
    int n = ok ? ucr_booklet_page_count(b) : 0;
    if (ok && bo.zine_pages && n > bo.zine_pages) {
        const ucr_node *node = g_ptr_array_index(md->nodes, opt->node_id ? ucr_megadungeon_find_node(md, opt->node_id) : 0);
        /* Name what works: a node of this dungeon is no choice when it
         * has one. */
        if (md->nodes->len == 1)
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                        "seed %s: node %s needs %d pages, and a mini-zine has %d panels (cover, map and "
                        "key, back); fold it as an A5 booklet instead (--paper a5 --impose saddle), "
                        "or try another --seed",
                        md->seed, node->id, n, UCR_MINIZINE_PANELS);
        else
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                        "node %s needs %d pages: a mini-zine has %d panels (cover, map and key, back); "
                        "choose a smaller node with --node ID, or fold a booklet instead (--paper a5 "
                        "--impose saddle)",
                        node->id, n, UCR_MINIZINE_PANELS);
        ok = FALSE;
    }
    GPtrArray *sheets = NULL;
    double w = bo.page->width, h = bo.page->height;
    if (ok && impose) {
        /* A sheet holds pages from both ends of the booklet: all of them
         * are read back for the imposition. */
        ucr_impose_page *pages = g_new0(ucr_impose_page, n);
        for (int i = 0; i < n && ok; i++) {
            ucr_booklet_page(b, i, &pages[i].width, &pages[i].height, NULL, NULL);
            pages[i].list = ucr_booklet_page_load(b, i, error);
            ok = pages[i].list != NULL;
        }
        if (ok) {
            double sheet_w = MAX(opt->page->width, opt->page->height), sheet_h = MIN(opt->page->width, opt->page->height);
            sheets = ucr_impose(impose, pages, n, bo.page->width, bo.page->height, sheet_w, sheet_h, &w, &h);
        }
        for (int i = 0; i < n; i++)
            ucr_display_list_free((ucr_display_list *)pages[i].list);
        g_free(pages);
    }
    if (ok) {
        /* cairo's file is packed on its way to @stream (output/pdfpack.c:
         * its dictionaries in object streams, 40% smaller), so it goes to a
         * temporary file first (without one, or without room in it: to
         * memory, and packed from there).
         * libharu's stays as it is: a plain PDF without object streams,
         * which PDF/X-1a and X-3 preflights want, is what one picks that
         * backend for (README, "Backends"). */
        ucr_pdfpack_spill *spill = backend == UCR_BACKEND_CAIRO ? ucr_pdfpack_begin() : NULL;
        char *mem_pdf = NULL;   /* no spill: cairo's file packed from memory (see pack_from_memory) */
        size_t mem_len = 0;
        FILE *mem = NULL;
        for (;;) {
            if (!spill && backend == UCR_BACKEND_CAIRO)
                mem = open_memstream(&mem_pdf, &mem_len);
            FILE *to = spill ? ucr_pdfpack_stream(spill) : mem ? mem : stream;
            ucr_device *dev = backend == UCR_BACKEND_CAIRO
                                  ? ucr_cairo_device_new(UCR_CAIRO_PDF, to, w, h, 72, fonts)
                                  : ucr_haru_device_new(to, fonts);
            print_boxes(dev, backend, impose, bo.page);
            gboolean drawn = TRUE;
            if (sheets)
                for (guint i = 0; i < sheets->len; i++)
                    ucr_display_list_replay(g_ptr_array_index(sheets, i), dev, NULL);
            else
                drawn = ucr_booklet_replay(b, dev, error);
            ok = ucr_device_close(dev, drawn ? error : NULL) && drawn;
            ucr_device_free(dev);
            if (!spill || !ucr_pdfpack_spill_failed(spill))
                break;
            /* The temporary folder is full (or the file size limited):
             * the pages again, to memory, then packed to @stream, which
             * may have room — and if not, says so in its own name. */
            ucr_pdfpack_abort(spill);
            spill = NULL;
            g_clear_error(error);
        }
        if (mem) {
            /* Without a temporary folder (or room in it) the file is packed
             * from memory all the same: unpacked, a cairo 1.16 booklet names
             * each hatching form of a map in its resources once per use, a
             * key repeated in a dictionary (pdfpack drops the repeats). */
            if (fclose(mem) != 0 && ok) {
                g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot hold the PDF in memory: %s", g_strerror(errno));
                ok = FALSE;
            }
            if (ok) {
                ucr_pdfpack_write((const guint8 *)mem_pdf, mem_len, stream);
                if (fflush(stream) != 0 || ferror(stream)) {
                    g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot write the PDF: %s",
                                g_strerror(errno ? errno : EIO));
                    ok = FALSE;
                }
            }
            free(mem_pdf);
        }
        if (spill && ok) {
            ok = ucr_pdfpack_end(spill, stream, NULL, error);
            if (ok && (fflush(stream) != 0 || ferror(stream))) {
                g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot write the PDF: %s",
                            g_strerror(errno ? errno : EIO));
                ok = FALSE;
            }
        } else {
            ucr_pdfpack_abort(spill);
        }
    }
    if (sheets) {
        g_ptr_array_set_free_func(sheets, (GDestroyNotify)ucr_display_list_free);
        g_ptr_array_free(sheets, TRUE);
    }
    ucr_booklet_free(b);
    ucr_page_template_free(panel);
    g_object_unref(fonts);
    return ok;
}
