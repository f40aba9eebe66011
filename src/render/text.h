/* undercroft — text shaping shared by the layout (which measures and breaks
 * lines) and the backends (which draw), so all agree on every width.  The
 * header speaks Pango only: how the context is set up for the cairo font
 * map stays in text.c. */
#ifndef UCR_RENDER_TEXT_H
#define UCR_RENDER_TEXT_H

#include <pango/pango.h>
#include "render/device.h"

/** A Pango context over @fonts with metric hinting off, so widths scale
 *  linearly with size and are the same on every surface.  The caller
 *  unrefs it. */
PangoContext *ucr_text_context_new(PangoFontMap *fonts);

/** A layout of @text (its utf8, family, size, weight) in @ctx; the caller
 *  unrefs it. */
PangoLayout *ucr_text_layout_new(PangoContext *ctx, const ucr_text *text, double size);

/** The logical width and height of @text at its size, in its units. */
void ucr_text_measure(PangoFontMap *fonts, const ucr_text *text, double *width, double *height);

#endif
