#include "output/pdf.h"

#include <string.h>

#include "core/datadir.h"
#include "core/error.h"
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

gboolean ucr_pdf_write_booklet(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                               ucr_pdf_backend backend, FILE *stream, GError **error)
{
    char *fonts_dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(fonts_dir, error);
    g_free(fonts_dir);
    if (!fonts)
        return FALSE;
    ucr_booklet *b = ucr_booklet_new(md, opt, fonts, error);
    gboolean ok = b != NULL;
    if (ok) {
        ucr_device *dev = NULL;
        if (backend == UCR_BACKEND_CAIRO) {
            dev = ucr_cairo_device_new(UCR_CAIRO_PDF, stream, opt->page->width, opt->page->height,
                                       72, fonts);
        } else {
            dev = ucr_haru_device_new(stream, fonts);
        }
        if (dev) {
            ucr_booklet_replay(b, dev);
            ok = ucr_device_close(dev, error);
            ucr_device_free(dev);
        }
    }
    ucr_booklet_free(b);
    g_object_unref(fonts);
    return ok;
}
