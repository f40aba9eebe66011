/* undercroft — the fonts the booklet uses, loaded from DATADIR/fonts only, so
 * that a booklet looks (and is) the same on every machine. */
#ifndef UCR_FONTS_H
#define UCR_FONTS_H

#include <pango/pango.h>

/* Family names of the shipped fonts. */
#define UCR_FONT_TEXT "DejaVu Sans"
#define UCR_FONT_HAND "Humor Sans"

/** A font map over the fonts in @fonts_dir and nothing else.  Returns NULL
 *  with @error set (UCR_ERROR_NOINPUT) if the folder has no usable fonts.
 *  Release with g_object_unref(). */
PangoFontMap *ucr_fonts_new(const char *fonts_dir, GError **error);

#endif
