/* undercroft — drawing one node's map. */
#ifndef UCR_MAP_H
#define UCR_MAP_H

#include <pango/pangocairo.h>
#include "model/model.h"

/** Draws @node of @md with its top-left corner at the current origin of @cr,
 *  @cell points per 10-ft square.  Text is shaped with @fonts. */
void ucr_map_draw(cairo_t *cr, PangoFontMap *fonts, const ucr_megadungeon *md,
                  const ucr_node *node, double cell);

/** Shows @text centred on (@cx, @cy), @size points, on a white patch when
 *  @halo so that lines under it never hide it. */
void ucr_map_text(cairo_t *cr, PangoFontMap *fonts, const char *family, double size,
                  gboolean bold, const char *text, double cx, double cy, gboolean halo);

/** Label for where link @l leads, e.g. "C-7", "surface", "below"; the caller
 *  frees it. */
char *ucr_map_link_target(const ucr_megadungeon *md, const ucr_link *l);

#endif
