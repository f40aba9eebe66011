#include "render/text.h"

#include <pango/pangocairo.h>

PangoContext *ucr_text_context_new(PangoFontMap *fonts)
{
    PangoContext *ctx = pango_font_map_create_context(fonts);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(ctx, fo);
    cairo_font_options_destroy(fo);
    pango_context_set_round_glyph_positions(ctx, FALSE);
    return ctx;
}

PangoLayout *ucr_text_layout_new(PangoContext *ctx, const ucr_text *text, double size)
{
    PangoLayout *layout = pango_layout_new(ctx);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, text->family);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    if (text->bold)
        pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    if (text->italic)
        pango_font_description_set_style(fd, PANGO_STYLE_ITALIC);
    pango_layout_set_font_description(layout, fd);
    pango_font_description_free(fd);
    pango_layout_set_text(layout, text->utf8, -1);
    return layout;
}

void ucr_text_measure(PangoFontMap *fonts, const ucr_text *text, double *width, double *height)
{
    /* Shaped at 100 units and scaled: map text is a fraction of a square,
     * far below the sizes fonts are designed to be measured at. */
    enum { REF = 100 };
    PangoContext *ctx = ucr_text_context_new(fonts);
    PangoLayout *layout = ucr_text_layout_new(ctx, text, REF);
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    *width = (double)logical.width / PANGO_SCALE * text->size / REF;
    *height = (double)logical.height / PANGO_SCALE * text->size / REF;
    g_object_unref(layout);
    g_object_unref(ctx);
}

struct ucr_shaped {
    gint refs;
    char *text;
    PangoGlyphItem *glyphs;
    double size;
};

ucr_shaped *ucr_shaped_new(const char *text, const PangoGlyphItem *glyphs, double size)
{
    ucr_shaped *sh = g_new0(ucr_shaped, 1);
    sh->refs = 1;
    sh->glyphs = pango_glyph_item_copy((PangoGlyphItem *)glyphs);
    PangoItem *item = sh->glyphs->item;
    sh->text = g_strndup(text + item->offset, (gsize)item->length);
    item->offset = 0;
    sh->size = size;
    return sh;
}

ucr_shaped *ucr_shaped_ref(const ucr_shaped *shaped)
{
    ucr_shaped *sh = (ucr_shaped *)shaped;
    g_atomic_int_inc(&sh->refs);
    return sh;
}

void ucr_shaped_unref(const ucr_shaped *shaped)
{
    ucr_shaped *sh = (ucr_shaped *)shaped;
    if (!sh || !g_atomic_int_dec_and_test(&sh->refs))
        return;
    pango_glyph_item_free(sh->glyphs);
    g_free(sh->text);
    g_free(sh);
}

const char *ucr_shaped_text(const ucr_shaped *shaped)
{
    return shaped->text;
}

const PangoGlyphItem *ucr_shaped_glyphs(const ucr_shaped *shaped)
{
    return shaped->glyphs;
}

double ucr_shaped_size(const ucr_shaped *shaped)
{
    return shaped->size;
}
