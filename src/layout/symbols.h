/* undercroft — the hand-inked look: wobbly lines, hatching, and the classic
 * map symbols, recorded onto a device in map squares (1 square = 10 ft).
 *
 * All randomness comes from the pen's PRNG stream, which the map seeds from
 * the megadungeon seed and the node id: drawing the same node twice gives
 * the same strokes.  Each symbol is wrapped in a device group named after it
 * ("door:secret", "stairs:down", "rubble"), which the trace shows and the
 * tests count. */
#ifndef UCR_SYMBOLS_H
#define UCR_SYMBOLS_H

#include <pango/pango.h>
#include "core/prng.h"
#include "layout/style.h"
#include "render/device.h"

/** What draws: the device, the style, the stream of wobble, the fonts for
 *  measuring text.  All borrowed except the PRNG state. */
typedef struct {
    ucr_device *dev;
    const ucr_style *style;
    ucr_prng rng;
    PangoFontMap *fonts;
    double min_text;       /* no text smaller than this (squares); 0: the style's sizes */
} ucr_pen;

/** An axis-aligned rectangle, in squares. */
typedef struct { double x0, y0, x1, y1; } ucr_rect;

/** Uniform in [@lo, @hi) from the pen's stream. */
double ucr_pen_uniform(ucr_pen *pen, double lo, double hi);

/** Appends to @path a hand-drawn line from (@x0, @y0) to (@x1, @y1): the
 *  rough.js idea — @passes jittered cubics with a little bowing, less
 *  jitter on short lines, ends overshooting by up to the style's overshoot
 *  times @overshoot.  @wobble scales the style's wobble. */
void ucr_pen_rough_line(ucr_pen *pen, ucr_path *path, double x0, double y0, double x1, double y1,
                        int passes, double wobble, double overshoot);

/** Appends one hatch cluster (three short parallel strokes at a random
 *  angle) centred on (@cx, @cy). */
void ucr_pen_hatch_cluster(ucr_pen *pen, ucr_path *path, double cx, double cy);

/** The size text of @size is shown at: never below the pen's min_text. */
double ucr_pen_text_size(const ucr_pen *pen, double size);

/** Shows @utf8 centred on (@cx, @cy) at @size in @family (raised to the
 *  pen's min_text), on a patch of paper when @halo.  Returns the rectangle
 *  it covers. */
/** The paper a halo (ucr_pen_text) keeps around text, in units of its size:
 *  hatching ends that far from a label's letters, not against them. */
#define UCR_PEN_HALO 0.25

ucr_rect ucr_pen_text(ucr_pen *pen, const char *utf8, const char *family, double size, bool bold,
                      double cx, double cy, bool halo);

/** The rectangle text would cover, centred on (@cx, @cy). */
ucr_rect ucr_pen_text_rect(ucr_pen *pen, const char *utf8, const char *family, double size, bool bold,
                           double cx, double cy);

/** Symbols that sit on a wall: centred on the wall point (@x, @y); the wall
 *  runs vertically when @vertical. */
typedef enum {
    UCR_SYMBOL_DOOR,
    UCR_SYMBOL_DOUBLE_DOOR,
    UCR_SYMBOL_SECRET_DOOR,
    UCR_SYMBOL_LOCKED_DOOR,
    UCR_SYMBOL_TRAPPED_DOOR,
    UCR_SYMBOL_PORTCULLIS,
    UCR_SYMBOL_ARCHWAY
} ucr_wall_symbol;

/** The group name of a wall symbol ("door:plain", "door:secret", …). */
const char *ucr_wall_symbol_name(ucr_wall_symbol sym);

/** Draws @sym on the wall at (@x, @y) and returns the rectangle it covers. */
ucr_rect ucr_symbol_wall(ucr_pen *pen, ucr_wall_symbol sym, double x, double y, bool vertical);

/** Stairs filling @box; @dx, @dy (a unit step along x or y) points
 *  downhill, where the treads narrow. @down names the group "stairs:down"
 *  or "stairs:up". */
void ucr_symbol_stairs(ucr_pen *pen, ucr_rect box, int dx, int dy, bool down);

/** A slope (seed 003: "insert stairs or a slope") filling @box: a ramp, its
 *  two sides converging downhill towards (@dx, @dy) and an arrow down the
 *  middle, no treads (what tells it from stairs).  @down names the group
 *  "slope:down" or "slope:up". */
void ucr_symbol_slope(ucr_pen *pen, ucr_rect box, int dx, int dy, bool down);

/** A ladder filling @box, rails along (@dx, @dy). */
void ucr_symbol_ladder(ucr_pen *pen, ucr_rect box, int dx, int dy, bool down);

/** A trapdoor in the floor: a hinged square, @size across. */
void ucr_symbol_trapdoor(ucr_pen *pen, double cx, double cy, double size);

/** A pit or trap: a square with its diagonals. */
void ucr_symbol_pit(ucr_pen *pen, double cx, double cy, double size);

/** A trap already sprung or disabled: the pit's square and diagonals,
 *  dashed. */
void ucr_symbol_trap_sprung(ucr_pen *pen, double cx, double cy, double size);

/** Rubble blocking the passage square @box (a collapse). */
void ucr_symbol_rubble(ucr_pen *pen, ucr_rect box);

/** Minor obstacles: scattered debris, or a pool. */
void ucr_symbol_debris(ucr_pen *pen, ucr_rect box);
void ucr_symbol_pool(ucr_pen *pen, double cx, double cy, double r);

/** A passage @width squares wide along the polyline @pts (@n points, x/y
 *  pairs) drawn with dashed walls: it runs under (or over) what is there. */
void ucr_symbol_passage_under(ucr_pen *pen, const double *pts, int n, double width);

/** A diagonal (45°) corridor @width wide from (@x0, @y0) to (@x1, @y1):
 *  its two walls, in ink. */
void ucr_symbol_diagonal_corridor(ucr_pen *pen, double x0, double y0, double x1, double y1,
                                  double width);

/** A diamond room (a square turned 45°) centred on (@cx, @cy), @r from
 *  centre to corner: floor, grid-free, walls in ink. */
void ucr_symbol_diamond_room(ucr_pen *pen, double cx, double cy, double r);

/** A compass rose of radius @r, north up. */
void ucr_symbol_compass(ucr_pen *pen, double cx, double cy, double r);

/** A scale bar of @squares squares from (@x, @y), labelled in feet. */
void ucr_symbol_scale_bar(ucr_pen *pen, double x, double y, int squares);

#endif
