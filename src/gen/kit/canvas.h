/* undercroft — the square grid a node is embedded on.
 *
 * A canvas records which element owns each square (an int the caller chooses;
 * UCR_CANVAS_EMPTY for rock) and routes corridors between two squares with
 * A*: shortest, with a penalty for every turn so corridors run "as straight as
 * possible" (seed 000), never through or beside anything but their own ends,
 * so that what touches on the map is exactly what the dice connected.
 */
#ifndef UCR_CANVAS_H
#define UCR_CANVAS_H

#include <limits.h>
#include <stdbool.h>
#include <glib.h>
#include "model/model.h"
#include "gen/kit/search.h"

#define UCR_CANVAS_EMPTY (-1)

/* Owner of an area being placed but not yet reached (a pre-connecting
 * method's rolled room, gen/kit/preconnect.h). */
#define UCR_CANVAS_TENTATIVE 190000

typedef struct ucr_canvas ucr_canvas;

/* The layout is here for the two accessors below, which the routers call
 * millions of times a booklet (a call into canvas.c was a tenth of a
 * pre-connecting method's generation); use the functions, not the fields. */
struct ucr_canvas {
    int w, h;
    int *owner;
    guint8 *busy;           /* per square: kept from later crossings and junctions */
    ucr_search *search;     /* the one search's work arrays (gen/kit/search.h) */
    guint32 version;        /* bumped whenever a square changes owner */
    guint32 *region_at;     /* per square: the version region[] was worked out for */
    int *region;            /* per square: ucr_canvas_region()'s answer (if region_at is now) */
    int *queue;             /* the labelling's work list */
    int nregions;
};

/** A @w × @h canvas of empty squares; free with ucr_canvas_free(). */
ucr_canvas *ucr_canvas_new(int w, int h);
void ucr_canvas_free(ucr_canvas *c);

/** The canvas's search (gen/kit/search.h), borrowed: every router on this
 *  canvas runs in it, one at a time.  Made on the first call. */
ucr_search *ucr_canvas_search(const ucr_canvas *c);

int ucr_canvas_width(const ucr_canvas *c);
int ucr_canvas_height(const ucr_canvas *c);
static inline bool ucr_canvas_inside(const ucr_canvas *c, ucr_point p)
{
    return p.x >= 0 && p.y >= 0 && p.x < c->w && p.y < c->h;
}

/** Whether square @p lies in the rectangle @x, @y (its top left square),
 *  @w wide and @h tall; an empty rectangle holds no square. */
static inline bool ucr_point_in_rect(ucr_point p, int x, int y, int w, int h)
{
    return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h;
}

/** Owner of @p; squares outside the canvas read as owned by "the edge"
 *  (a value no caller uses: INT_MIN). */
static inline int ucr_canvas_owner(const ucr_canvas *c, ucr_point p)
{
    return ucr_canvas_inside(c, p) ? c->owner[p.y * c->w + p.x] : INT_MIN;
}
void ucr_canvas_set(ucr_canvas *c, ucr_point p, int owner);
void ucr_canvas_fill(ucr_canvas *c, int x, int y, int w, int h, int owner);

/** Whether square @p is busy: a corridor runs under or over it, or a way is
 *  kept there, so no later crossing or junction may use it.  Squares outside
 *  the canvas read as busy. */
static inline bool ucr_canvas_busy(const ucr_canvas *c, ucr_point p)
{
    return !ucr_canvas_inside(c, p) || c->busy[p.y * c->w + p.x] != 0;
}
/** Marks square @p busy (@on) or not; outside the canvas nothing happens. */
void ucr_canvas_busy_set(ucr_canvas *c, ucr_point p, bool on);
/** Copies the busy marks of @src to @dst, a canvas of the same size (a
 *  node's canvas drawn anew keeps its crossings' squares). */
void ucr_canvas_busy_copy(ucr_canvas *dst, const ucr_canvas *src);

/** Whether square @p may carry a corridor: inside, empty, and touching
 *  nothing but rock, except (for a corridor's first or last square) its own
 *  area @anchor and, diagonally, that area's other mouths.  @anchor may be
 *  UCR_CANVAS_EMPTY.  The rule the invariants check. */
bool ucr_canvas_square_ok(const ucr_canvas *c, ucr_point p, int anchor);

/** ucr_canvas_square_ok() for a corridor of one square between two areas:
 *  @p may touch area @a and area @b side by side (and diagonally what sits
 *  beside either).  @b may be UCR_CANVAS_EMPTY; @a may not. */
bool ucr_canvas_square_between(const ucr_canvas *c, ucr_point p, int a, int b);

/** ucr_canvas_region(): the square may carry no corridor (or lies on the
 *  outermost ring). */
#define UCR_CANVAS_REGION_NONE (-1)
/** ucr_canvas_region(): the square's region is larger than the cap asked
 *  for (which region it is was not worked out). */
#define UCR_CANVAS_REGION_LARGE INT_MAX

/** The region of rock @p lies in: squares off the canvas's outermost ring
 *  where ucr_canvas_square_ok(square, UCR_CANVAS_EMPTY) holds, joined side by
 *  side, so that a corridor over free squares between two of them exists
 *  only if they have the same region.  A number, UCR_CANVAS_REGION_NONE, or
 *  UCR_CANVAS_REGION_LARGE where the region had more than @cap squares when
 *  first asked about since the canvas last changed (one region or several:
 *  the answer is only "large").  Worked out on demand, a region at a time,
 *  and kept until a square changes owner: the routers ask
 *  it to give up at once on a route that no search could find, instead of
 *  searching all the rock they reach.  (The canvas is logically const: the
 *  labels are a cache.) */
int ucr_canvas_region(const ucr_canvas *c, ucr_point p, int cap);

/** True if every square of the rectangle grown by @margin on each side lies
 *  inside the canvas and is empty. */
bool ucr_canvas_clear(const ucr_canvas *c, int x, int y, int w, int h, int margin);

/** Routes a corridor from square @from to square @to (both included in the
 *  result).  @from may touch area @from_owner and @to may touch @to_owner;
 *  no other square of the route may touch (even diagonally) anything already
 *  on the canvas.  @turn_cost is added per turn.  Returns a new GArray of
 *  ucr_point the caller frees, or NULL if there is no such route. */
GArray *ucr_canvas_route(const ucr_canvas *c, ucr_point from, int from_owner,
                         ucr_point to, int to_owner, int turn_cost);

/** The neighbour of @p one square towards @dir.  (Inline: every search
 *  step asks it.) */
static inline ucr_point ucr_point_step(ucr_point p, ucr_dir dir)
{
    return (ucr_point){ p.x + UCR_DIR_DX[dir], p.y + UCR_DIR_DY[dir] };
}

/** The square @n steps from @p towards @dir. */
static inline ucr_point ucr_point_walk(ucr_point p, ucr_dir dir, int n)
{
    return (ucr_point){ p.x + UCR_DIR_DX[dir] * n, p.y + UCR_DIR_DY[dir] * n };
}

#endif
