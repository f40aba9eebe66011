/* undercroft — a Foundry VTT scene: one node for the virtual table, with
 * secret doors that are secret.
 *
 * Universal VTT has no secret door: a portal is a door every player sees
 * (Foundry's Universal Battlemap Importer makes each one a plain door,
 * "door: 1"; Owlbear's importers a door too).  Foundry's own scene data
 * has them: a wall's "door" is 0 none, 1 a door, 2 a secret door (the
 * players see a wall, the game master a door he may open), and its "ds"
 * 0 closed, 1 open, 2 locked.  So the game master's file for Foundry is
 * the JSON of a Scene document, which Foundry reads with a scene's
 * "Import Data": the walls of the game master's map (every area, the
 * passages under rooms open, see ucr_map_plan), every door a door wall,
 * the secret ones secret and the locked ones locked; its background is the
 * players' image (ucr_foundry_image_options): no numbers, no trap, no
 * secret door drawn, the areas behind secret doors drawn (the table's line
 * of sight hides them until a door is found).
 *
 * The fields are Foundry's data model since version 10 (grid as
 * {type, size, distance, units}, background.src, a wall's move, sight,
 * light and sound); coordinates are pixels of the image with padding 0, so
 * that the scene and the image are the same rectangle.  Owlbear's UVTT
 * importer reads Foundry's older layout (a number for grid), not this one:
 * Owlbear users take the .uvtt file. */
#ifndef UCR_FOUNDRY_H
#define UCR_FOUNDRY_H

#include <stdio.h>
#include <pango/pango.h>

#include "layout/map.h"
#include "model/model.h"

/** What the scene's image is: see above. */
ucr_map_options ucr_foundry_image_options(void);

/** Writes node @node of @md as a Foundry scene to @out, its image named
 *  @image (a path in the user's Foundry data, the PNG of
 *  ucr_foundry_image_write beside it) at @ppg pixels per square (a whole
 *  number, UCR_UVTT_PPG_MIN … MAX).  FALSE with @error
 *  (UCR_ERROR_CANTCREAT) if the write failed. */
gboolean ucr_foundry_write(FILE *out, const ucr_megadungeon *md, const ucr_node *node, const char *image, int ppg,
                           GError **error);

/** Writes the scene's image of @node (a PNG, @ppg pixels per square, drawn
 *  in @style with @fonts) to @out.  FALSE with @error as ucr_uvtt_write
 *  fails (UCR_ERROR_USAGE for an image over UCR_UVTT_MAX_SIDE pixels). */
gboolean ucr_foundry_image_write(FILE *out, const ucr_megadungeon *md, const ucr_node *node,
                                 const ucr_style *style, PangoFontMap *fonts, int ppg, GError **error);

#endif
