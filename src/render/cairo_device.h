/* undercroft — the cairo backend: PDF, SVG and PNG. */
#ifndef UCR_CAIRO_DEVICE_H
#define UCR_CAIRO_DEVICE_H

#include <stdio.h>
#include <cairo.h>
#include <pango/pangocairo.h>
#include "render/device.h"

typedef enum { UCR_CAIRO_PDF, UCR_CAIRO_SVG, UCR_CAIRO_PNG } ucr_cairo_format;

/** The most pixels a PNG may have: it is drawn whole in memory, 4 bytes a
 *  pixel (400 MB), once for each job of a batch running at the same time. */
#define UCR_PNG_MAX_PIXELS 100000000

/** A device drawing into a new @format file written to @stream (borrowed;
 *  the caller closes it after ucr_device_close()).  Pages are @width ×
 *  @height points; a PNG has @dpi pixels per inch (ignored otherwise) and
 *  holds one page.  Text uses the fonts of @fonts (a reference is kept).
 *  PDF and SVG stream as they are drawn; PNG is encoded at close.  The
 *  device keeps its first error (an unwritable stream, a cairo failure) and
 *  ignores later calls; close reports it as UCR_ERROR_CANTCREAT (write
 *  failures) or UCR_ERROR_SOFTWARE.  A PNG of more than UCR_PNG_MAX_PIXELS
 *  is not drawn: close refuses it, UCR_ERROR_USAGE, naming the --dpi that
 *  fits.  Never returns NULL. */
ucr_device *ucr_cairo_device_new(ucr_cairo_format format, FILE *stream, double width,
                                 double height, double dpi, PangoFontMap *fonts);

/** Gives every page of the PDF device @dev from the next begin_page on a
 *  TrimBox of @w × @h points at (@x, @y) from the page's top left, and a
 *  BleedBox @bleed points larger on every side (a print shop's sheet:
 *  trimmed to the one, printed to the other).  Nothing for SVG or PNG. */
void ucr_cairo_device_set_page_boxes(ucr_device *dev, double x, double y, double w, double h, double bleed);

/** The cairo context of a device made by ucr_cairo_device_new() (borrowed),
 *  for page furniture that is drawn with cairo and Pango directly.  Its
 *  target is the PDF surface for cairo_pdf_surface_* calls.  A page
 *  started with cairo_show_page() on it is a page of the device. */
cairo_t *ucr_cairo_device_context(ucr_device *dev);

#endif
