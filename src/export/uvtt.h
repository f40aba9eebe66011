/* undercroft — Universal VTT export: one node for a virtual tabletop.
 *
 * Universal VTT (format 0.3, the JSON that Dungeondraft writes as .dd2vtt
 * and that Foundry's Universal Battlemap Importer, Arkenforge and Owlbear
 * Rodeo's importers read): the node's map as a PNG image, its walls as
 * line-of-sight polylines and its doors as portals, all in grid units
 * (squares) from the image's top-left corner, and map_origin 0, 0 (the
 * importers disagree on what a non-zero origin means: see uvtt.c).  The
 * image's corner lies at ucr_map_plan's shown.x0, y0 of the model's own
 * squares. */
#ifndef UCR_UVTT_H
#define UCR_UVTT_H

#include <stdbool.h>
#include <stdio.h>
#include <pango/pango.h>

#include "layout/map.h"
#include "layout/style.h"
#include "model/model.h"

/** Image pixels per square: whole numbers only, as the format asks. */
enum { UCR_UVTT_PPG_DEFAULT = 100, UCR_UVTT_PPG_MIN = 10, UCR_UVTT_PPG_MAX = 300 };

/** The largest image side, in pixels (a common GPU texture limit). */
enum { UCR_UVTT_MAX_SIDE = 8192 };

typedef struct {
    int pixels_per_grid;   /* image pixels per square, UCR_UVTT_PPG_MIN … MAX */
    bool player;           /* the players' file: secret doors are plain walls (see uvtt.c) */
} ucr_uvtt_options;

/** Writes node @node of @md as Universal VTT JSON to @out, its map drawn in
 *  @style with @fonts.  FALSE with @error set (UCR_ERROR_USAGE when the
 *  image would be more than UCR_UVTT_MAX_SIDE pixels across, naming the
 *  largest --grid-pixels that fits; UCR_ERROR_CANTCREAT for a write that
 *  failed, UCR_ERROR_SOFTWARE for a drawing that did) if it could not; @out may then hold part of the file (write it through
 *  core/outfile.h). */
gboolean ucr_uvtt_write(FILE *out, const ucr_megadungeon *md, const ucr_node *node, const ucr_style *style,
                        PangoFontMap *fonts, const ucr_uvtt_options *opt, GError **error);

/** TRUE if @node's image of part @shown at @ppg pixels per square is no
 *  more than UCR_UVTT_MAX_SIDE pixels a side; else FALSE with @error
 *  (UCR_ERROR_USAGE) naming the largest --grid-pixels that fits. */
gboolean ucr_vtt_fits(const ucr_node *node, ucr_rect shown, int ppg, GError **error);

/** Node @node's map drawn with @mo (its bare flag set: the map alone), the
 *  part @shown (whole squares of the model) at @ppg pixels per square, as
 *  the bytes of a PNG file (*@len of them; the caller frees them with
 *  free()).  NULL with @error (UCR_ERROR_SOFTWARE) if it could not be drawn.
 *  The image of a .uvtt file and of a Foundry scene (export/foundry.h). */
char *ucr_vtt_map_png(const ucr_megadungeon *md, const ucr_node *node, const ucr_style *style, PangoFontMap *fonts,
                      const ucr_map_options *mo, ucr_rect shown, int ppg, size_t *len, GError **error);

#endif
