/* undercroft — the libharu backend: the same display lists as the cairo
 * PDF, written by libharu (libhpdf 2.3).
 *
 * Text is shaped by Pango exactly as the cairo backend shapes it (same
 * font map, same runs, same fallback fonts, same widths and baselines), and
 * each run is then drawn with libharu from the TrueType file Pango chose,
 * embedded as a subset with UTF-8 encoding, in segments with a character
 * spacing that keep every glyph within 0.1% of an em of where Pango placed
 * it (libharu's widths are truncated thousandths, and it cannot kern).
 * cairo's own PDF strays further from Pango's layout (up to about 0.1 pt
 * along a line of 9 pt text), so at screen resolutions the two differ by
 * a shade of anti-aliasing, never by a visible shift. */
#ifndef UCR_HARU_DEVICE_H
#define UCR_HARU_DEVICE_H

#include <stdio.h>
#include <pango/pango.h>
#include "render/device.h"

/** A PDF device whose file is written to @stream (borrowed; the caller
 *  closes it after ucr_device_close()) when the device is closed: libharu
 *  builds the whole document in memory, so nothing reaches @stream before.
 *  Text uses the fonts of @fonts (a reference is kept; they must be
 *  TrueType, which libharu can embed).  Pages take their size from each
 *  begin_page.  The device keeps its first error (a libharu error, a font
 *  libharu cannot load) and ignores later calls; close then writes nothing
 *  and reports it as UCR_ERROR_SOFTWARE, or UCR_ERROR_CANTCREAT when the
 *  stream cannot be written.  Never returns NULL. */
ucr_device *ucr_haru_device_new(FILE *stream, PangoFontMap *fonts);

/** Gives every page begun from now on a TrimBox of @w × @h points at (@x,
 *  @y) from the page's top left, and a BleedBox @bleed points larger on
 *  every side (see ucr_cairo_device_set_page_boxes()). */
void ucr_haru_device_set_page_boxes(ucr_device *dev, double x, double y, double w, double h, double bleed);

/** ucr_haru_device_new() writing to the file @path, which appears complete
 *  at a successful close and never otherwise: the PDF goes to a temporary
 *  file beside @path (core/outfile.h), renamed over @path once written.
 *  Freeing the device unclosed, or a failed close, leaves no file.  Returns
 *  NULL with @error set (UCR_ERROR_CANTCREAT) if @path cannot be created. */
ucr_device *ucr_haru_device_new_for_path(const char *path, PangoFontMap *fonts, GError **error);

#endif
