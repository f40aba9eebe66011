/* undercroft — one node's map, laid out as a display list.
 *
 * The map is drawn in map squares (1 square = 10 ft), in the model's own
 * coordinates: square (x, y) of the node is [x, x+1) × [y, y+1).  The
 * sheet adds a title band above (node name, level, method) and a band
 * below (scale bar, compass rose); it is cropped to the part of the map
 * that holds anything.  Every wobble and hatch stroke comes from a PRNG
 * stream seeded with the megadungeon seed and "ink/NODE": the same dungeon
 * and style always give the same list. */
#ifndef UCR_MAP_H
#define UCR_MAP_H

#include <pango/pango.h>
#include "layout/style.h"
#include "layout/symbols.h"
#include "model/model.h"
#include "render/display_list.h"

/** Where the sheet lies, in squares, and how crowded it was. */
typedef struct {
    double x0, y0, x1, y1;  /* the whole sheet, bands included */
    int crowded;            /* labels that found no free place (placed anyway) */
} ucr_map_extent;

/** Draws node @node of @md onto @dev in squares, in style @style, measuring
 *  text with @fonts; fills @extent (if non-NULL).  Never fails: the device
 *  keeps any error. */
void ucr_map_draw(ucr_device *dev, const ucr_megadungeon *md, const ucr_node *node,
                  const ucr_style *style, PangoFontMap *fonts, ucr_map_extent *extent);

/** The smallest text on a printed map, in points: 8.5 pt on an A4 page is
 *  6 pt when the booklet is printed at A5. */
#define UCR_MAP_MIN_TEXT_PT 8.5

/** ucr_map_draw() for a map that will be shown at @points_per_square: no
 *  text (numbers, labels, title, scale bar) smaller than
 *  UCR_MAP_MIN_TEXT_PT there, and labels placed for that size.  0: the
 *  style's sizes as they are. */
void ucr_map_draw_scaled(ucr_device *dev, const ucr_megadungeon *md, const ucr_node *node,
                         const ucr_style *style, PangoFontMap *fonts, double points_per_square,
                         ucr_map_extent *extent);

/** How a map is drawn, beyond its style. */
typedef struct {
    double points_per_square; /* the scale it will be shown at (text sized for it); 0: the style's sizes */
    double min_text_pt;       /* its smallest text at that scale; 0: UCR_MAP_MIN_TEXT_PT */
    bool player;              /* a player's map: no secret doors (a wall), no traps, no key numbers
                               * or exits of areas the players cannot see from a passage */
    bool links;               /* area numbers and "to C-7" labels link to destination
                               * ucr_map_key_dest() of their key entry */
    bool bare;                /* the map alone, for a virtual tabletop: no frame, title, scale
                               * bar or compass, and the extent is the shown part of the map
                               * (ucr_map_plan's shown) */
    bool all_areas;           /* with player: the areas only a secret door leads to are drawn
                               * too (a virtual tabletop's scene, whose line of sight hides them
                               * until the door is found); the secret doors stay walls */
    bool no_title;            /* no title band over the map (a mini-zine's panels name the node
                               * in their footers, and the band's 2.7 squares are what a
                               * pocket map's spread lacks at 3 mm); the scale bar and
                               * compass stay */
    bool no_numbers;          /* no area numbers (an image the players see on a virtual
                               * tabletop: the numbers are the key's, the game master's) */
    GArray *labels;           /* if not NULL: a ucr_map_label appended for every label and
                               * number placed (the caller owns the array) */
} ucr_map_options;

/** A label as placed, in squares: for tests of where labels go. */
typedef struct {
    ucr_rect box;             /* the text's box */
    ucr_rect anchor;          /* what it names: its area, or the square a passage leaves by */
    bool leader;              /* a leader line ties it to @anchor */
    bool crowded;             /* no free place was found: placed anyway */
    bool number;              /* an area's number (inside its area) */
} ucr_map_label;

/** ucr_map_draw() with @opt. */
void ucr_map_draw_with(ucr_device *dev, const ucr_megadungeon *md, const ucr_node *node,
                       const ucr_style *style, PangoFontMap *fonts, const ucr_map_options *opt,
                       ucr_map_extent *extent);

/** ucr_map_draw_with() recorded into a new display list; the caller frees it. */
ucr_display_list *ucr_map_record_with(const ucr_megadungeon *md, const ucr_node *node,
                                      const ucr_style *style, PangoFontMap *fonts,
                                      const ucr_map_options *opt, ucr_map_extent *extent);

/** The largest points per square at which the sheet drawn with @opt (its
 *  points_per_square ignored) fits in @w × @h points. */
double ucr_map_scale_to_fit_with(const ucr_node *node, const ucr_style *style,
                                 const ucr_map_options *opt, double w, double h);

/** The destination name of key entry @key of node @node_id ("key-C-7"),
 *  which the booklet defines and map labels link to; the caller frees it. */
char *ucr_map_key_dest(const char *node_id, int key);

/** The largest scale (points per square) at which the sheet of @node, laid
 *  out for that scale by ucr_map_draw_scaled(), fits in @w × @h points. */
double ucr_map_scale_to_fit(const ucr_node *node, const ucr_style *style, double w, double h);

/** ucr_map_draw() recorded into a new display list; the caller frees it. */
ucr_display_list *ucr_map_record(const ucr_megadungeon *md, const ucr_node *node,
                                 const ucr_style *style, PangoFontMap *fonts,
                                 ucr_map_extent *extent);

/** ucr_map_draw_scaled() recorded into a new display list. */
ucr_display_list *ucr_map_record_scaled(const ucr_megadungeon *md, const ucr_node *node,
                                        const ucr_style *style, PangoFontMap *fonts,
                                        double points_per_square, ucr_map_extent *extent);

/** The transform that fits @extent into the box (@x, @y, @w, @h), centred
 *  horizontally and at the top, as large as fits. */
ucr_matrix ucr_map_fit(const ucr_map_extent *extent, double x, double y, double w, double h);

/** Points per square of the SVG and PNG maps (a quarter inch). */
#define UCR_MAP_FILE_CELL 18.0

/** The map sheet of @node alone as one page of @width × @height points
 *  (UCR_MAP_FILE_CELL points per square), for the SVG and PNG files and
 *  the virtual tabletop; the caller frees the list. */
ucr_display_list *ucr_map_record_sheet(const ucr_megadungeon *md, const ucr_node *node,
                                       const ucr_style *style, PangoFontMap *fonts, double *width,
                                       double *height);

/** ucr_map_record_sheet() drawn with @opt (a player's map; its
 *  points_per_square is UCR_MAP_FILE_CELL whatever @opt says). */
ucr_display_list *ucr_map_record_sheet_with(const ucr_megadungeon *md, const ucr_node *node,
                                            const ucr_style *style, PangoFontMap *fonts,
                                            const ucr_map_options *opt, double *width, double *height);

/** A straight piece of wall, in squares. */
typedef struct { double x0, y0, x1, y1; } ucr_map_segment;

/** The geometry of a node's map as drawn with the same options: for the
 *  virtual tabletop's walls and doors. */
typedef struct {
    ucr_rect shown;        /* the part of the map drawn, whole squares of the model */
    GArray *walls;         /* ucr_map_segment: every drawn wall as maximal straight runs
                            * (horizontal, vertical, or 45° for diamond rooms and diagonal
                            * corridors), with the edge of each door in @doors left open */
    GArray *doors;         /* int: the doors drawn (indices into the node's doors); a player's
                            * map draws no secret door and no door of an area it hides */
} ucr_map_plan;

/* A passage that runs under (or over) a room or another passage crosses
 * that element's walls: the drawn map keeps them (the passage is dashed
 * beneath), but on a virtual tabletop, which has one floor, a wall there
 * would close the passage.  The plan leaves open every wall edge between
 * two squares the passage runs through one after the other along a
 * crossing, and the edges from it into the squares just before and after. */

/** The walls and doors of @node's map drawn with @opt (its player flag is
 *  what counts).  The caller frees it with ucr_map_plan_free(). */
ucr_map_plan *ucr_map_plan_new(const ucr_node *node, const ucr_map_options *opt);

void ucr_map_plan_free(ucr_map_plan *plan);

/** Label for where link @l leads, e.g. "C-7", "surface", "below"; the caller
 *  frees it. */
char *ucr_map_link_target(const ucr_megadungeon *md, const ucr_link *l);

/** What the map writes beside link @l: "stairs down to C-7", "to B-4",
 *  "ENTRANCE"; the caller frees it. */
char *ucr_map_link_label(const ucr_megadungeon *md, const ucr_link *l);

/** The short form of that label, used where the long one finds no room:
 *  "to C-7", "below", "to surface"; the caller frees it. */
char *ucr_map_link_brief(const ucr_megadungeon *md, const ucr_link *l);

#endif
