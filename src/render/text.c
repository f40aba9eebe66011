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
