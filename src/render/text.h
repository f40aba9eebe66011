/* undercroft — text shaping shared by the layout (which measures and breaks
 * lines) and the backends (which draw), so all agree on every width.  The
 * header speaks Pango only: how the context is set up for the cairo font
 * map stays in text.c. */
#ifndef UCR_RENDER_TEXT_H
#define UCR_RENDER_TEXT_H

#include <pango/pango.h>
#include "render/device.h"

/** The language every text is shaped and its fonts chosen in, whatever
 *  the locale (LANG, LC_ALL, LC_CTYPE, FC_LANG, PANGO_LANGUAGE). */
#define UCR_TEXT_LANGUAGE "en"

/** A Pango context over @fonts with metric hinting off, so widths scale
 *  linearly with size and are the same on every surface, and the language
 *  UCR_TEXT_LANGUAGE, so no locale changes a font.  The caller unrefs it. */
PangoContext *ucr_text_context_new(PangoFontMap *fonts);

/** A layout of @text (its utf8, family, size, weight) in @ctx; the caller
 *  unrefs it. */
PangoLayout *ucr_text_layout_new(PangoContext *ctx, const ucr_text *text, double size);

/** Adds to @attrs (over the whole text) what keeps every letter its own
 *  glyph: no "fi", "fl" or other ligature.  A ligature is one glyph for two
 *  letters, which pdf.js (a browser's PDF viewer) extracts as a word of its
 *  own ("re fl ections"), so that a search for "reflections" fails.
 *  ucr_text_layout_new() sets it; a caller that replaces the layout's
 *  attributes adds it to its own. */
void ucr_text_plain_letters(PangoAttrList *attrs);

/** One run of a laid-out paragraph as Pango shaped it: its glyphs, font
 *  and text.  The layout makes it once; a display list keeps a reference;
 *  the cairo backend draws it (ucr_text.shaped) with no shaping, which
 *  was the larger part of a booklet's text time.  Reference counted,
 *  never changed once made. */
ucr_shaped *ucr_shaped_new(const char *text, const PangoGlyphItem *glyphs, double size);
ucr_shaped *ucr_shaped_ref(const ucr_shaped *shaped);
/** NULL is allowed. */
void ucr_shaped_unref(const ucr_shaped *shaped);
/** The text, and the em size it was shaped at. */
const char *ucr_shaped_text(const ucr_shaped *shaped);
double ucr_shaped_size(const ucr_shaped *shaped);
/** Fills @out with the glyphs as Pango shaped them (an item at offset 0
 *  of the text); free what it holds with ucr_shaped_glyphs_clear(). */
void ucr_shaped_glyphs(const ucr_shaped *shaped, PangoGlyphItem *out);
void ucr_shaped_glyphs_clear(PangoGlyphItem *glyphs);

/** Appends @shaped to @out as plain bytes, for a display list kept on
 *  disk until it is written (render/display_list.c).  The font goes as a
 *  pointer: returns it (borrowed), for the caller to keep a reference
 *  until every copy is unpacked. */
PangoFont *ucr_shaped_pack(const ucr_shaped *shaped, GByteArray *out);
/** The run packed at *@at, as new (a reference to its font taken); moves
 *  *@at past it. */
ucr_shaped *ucr_shaped_unpack(const guint8 **at);

/** The logical width and height of @text at its size, in its units. */
void ucr_text_measure(PangoFontMap *fonts, const ucr_text *text, double *width, double *height);

#endif
