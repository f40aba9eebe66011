/* undercroft — the rendering device: what every backend implements.
 *
 * The model is MuPDF's fz_device: a device is a struct of function pointers,
 * embedded first in each concrete device (cairo, trace, the display-list
 * recorder, later libharu).  Callers never touch the slots: they go through
 * the ucr_device_* wrappers below, which skip empty slots, so a device only
 * fills in what it cares about.  Drawing calls are void: a device that fails
 * keeps its first error and ignores later calls (cairo's rule), and
 * ucr_device_close() reports it once at the end.
 *
 * Coordinates are the device's own (points for the cairo backend), y down.
 * Paths, strokes and text are plain data owned by the caller; a device copies
 * what it wants to keep. */
#ifndef UCR_DEVICE_H
#define UCR_DEVICE_H

#include <stdbool.h>
#include <glib.h>

/** An RGB colour with alpha, components 0..1. */
typedef struct { double r, g, b, a; } ucr_color;

typedef enum { UCR_PATH_MOVE, UCR_PATH_LINE, UCR_PATH_CURVE, UCR_PATH_CLOSE } ucr_path_op;

/** One path element: MOVE and LINE use pt[0..1], CURVE pt[0..5] (two
 *  control points, then the end point), CLOSE none. */
typedef struct {
    ucr_path_op op;
    double pt[6];
} ucr_path_el;

/** A path: an owned, growable list of elements. */
typedef struct ucr_path ucr_path;

/** A uniform-scale affine transform: x' = a·x + c·y + e, y' = b·x + d·y + f. */
typedef struct { double a, b, c, d, e, f; } ucr_matrix;

typedef enum { UCR_CAP_BUTT, UCR_CAP_ROUND, UCR_CAP_SQUARE } ucr_line_cap;
typedef enum { UCR_JOIN_MITER, UCR_JOIN_ROUND, UCR_JOIN_BEVEL } ucr_line_join;

/** How a path is stroked.  n_dash == 0: solid. */
typedef struct {
    double width;
    ucr_line_cap cap;
    ucr_line_join join;
    int n_dash;
    double dash[4];
} ucr_stroke;

/** A run of text on one line.  (x, y) is the anchor: @align 0 puts the left
 *  edge of the text there, 0.5 its centre, 1 its right edge; y is the
 *  vertical centre of the line, or its baseline when @baseline (the runs of
 *  a paragraph that the layout broke into lines sit on their baselines, so
 *  that a bold word and a fallback glyph stay on the line).  @family names a
 *  font the backend knows ("Humor Sans"); @size is the em size.  A backend
 *  finds the glyphs a face lacks in the other fonts it was given, as Pango
 *  does. */
typedef struct ucr_shaped ucr_shaped;   /* render/text.h */

typedef struct {
    const char *utf8;
    const char *family;
    double size;
    bool bold;
    double x, y;
    double align;
    bool italic;
    bool baseline;
    /* Optional: @utf8 as the layout shaped it (a paragraph's run), for a
     * backend that draws with Pango to draw without shaping it again; it
     * must say the same as the fields above.  NULL: shape it. */
    const ucr_shaped *shaped;
} ucr_text;

/** Stamps: a few small shapes, each a path around its own origin, all
 *  stroked with one stroke, and drawn many times (the hatch clusters of a
 *  map: a few thousand copies of some dozens of shapes).  A backend may
 *  define each shape once and place copies of it (the cairo PDF device
 *  makes them the glyphs of a Type 3 font: a copy costs a text position
 *  instead of its strokes); one without the slot strokes every copy.
 *  Reference counted and never changed once made. */
typedef struct ucr_stamp_set ucr_stamp_set;

/** One copy: shape @shape of the set with its origin at (@x, @y). */
typedef struct {
    int shape;
    double x, y;
} ucr_stamp;

typedef struct ucr_device ucr_device;

/** The slots.  Any may be NULL.  close may fail (it flushes: the cairo
 *  backend writes its file there); drop releases what the device holds and
 *  never fails. */
struct ucr_device {
    void (*begin_page)(ucr_device *dev, double width, double height);
    void (*end_page)(ucr_device *dev);
    void (*fill_path)(ucr_device *dev, const ucr_path *path, bool even_odd, ucr_color color);
    void (*stroke_path)(ucr_device *dev, const ucr_path *path, const ucr_stroke *stroke,
                        ucr_color color);
    void (*clip_path)(ucr_device *dev, const ucr_path *path, bool even_odd);
    void (*pop_clip)(ucr_device *dev);
    void (*show_text)(ucr_device *dev, const ucr_text *text, ucr_color color);
    void (*stamp)(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m,
                  const ucr_stamp *at, int n, ucr_color color);
    void (*link)(ucr_device *dev, double x, double y, double w, double h, const char *dest);
    void (*dest)(ucr_device *dev, const char *name, double x, double y);
    void (*begin_group)(ucr_device *dev, const char *name);
    void (*end_group)(ucr_device *dev);
    void (*set_info)(ucr_device *dev, const char *key, const char *value);
    void (*outline)(ucr_device *dev, int level, const char *title, const char *dest);
    void (*push_transform)(ucr_device *dev, const ucr_matrix *m);
    void (*pop_transform)(ucr_device *dev);
    gboolean (*close)(ucr_device *dev, GError **error);
    void (*drop)(ucr_device *dev);
    bool closed;
};

/** Allocates a zeroed concrete device of @size bytes (its struct starts with
 *  a ucr_device).  Aborts on out-of-memory; free with ucr_device_free(). */
ucr_device *ucr_device_new_of_size(size_t size);

/** Starts a page of @width × @height. */
void ucr_device_begin_page(ucr_device *dev, double width, double height);
void ucr_device_end_page(ucr_device *dev);
/** Fills @path, with the even-odd rule if @even_odd, else non-zero. */
void ucr_device_fill_path(ucr_device *dev, const ucr_path *path, bool even_odd, ucr_color color);
void ucr_device_stroke_path(ucr_device *dev, const ucr_path *path, const ucr_stroke *stroke,
                            ucr_color color);
/** Intersects the clip with @path until the matching ucr_device_pop_clip(). */
void ucr_device_clip_path(ucr_device *dev, const ucr_path *path, bool even_odd);
void ucr_device_pop_clip(ucr_device *dev);
void ucr_device_show_text(ucr_device *dev, const ucr_text *text, ucr_color color);
/** Strokes @n copies of shapes of @set, @at[i] with shape @at[i].shape at
 *  (@at[i].x, @at[i].y): a shape's points go through the linear part of
 *  @m (a, b, c, d; its e and f are ignored) and are then moved to the
 *  copy's point, and the stroke's width and dashes scale by the matrix's
 *  expansion.  A device without the slot gets one ucr_device_stroke_path()
 *  of every copy, in the order given. */
void ucr_device_stamp(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m,
                      const ucr_stamp *at, int n, ucr_color color);
/** A link over the rectangle to the named destination @dest. */
void ucr_device_link(ucr_device *dev, double x, double y, double w, double h, const char *dest);
/** Names the point (@x, @y) of the current page as destination @name. */
void ucr_device_dest(ucr_device *dev, const char *name, double x, double y);
/** Groups the calls until ucr_device_end_group() under @name ("door:secret"):
 *  the trace shows it, tests count it, image backends ignore it. */
void ucr_device_begin_group(ucr_device *dev, const char *name);
void ucr_device_end_group(ucr_device *dev);
/** Document information: @key is one of "title", "author", "subject",
 *  "keywords", "creator" or "date" (ISO 8601, "2017-04-07T00:00:00");
 *  a backend ignores keys it cannot store. */
void ucr_device_set_info(ucr_device *dev, const char *key, const char *value);
/** A bookmark in the document outline, @level 1 at the top and each deeper
 *  level nested in the last entry above it, opening destination @dest (made
 *  by ucr_device_dest(), before or after). */
void ucr_device_outline(ucr_device *dev, int level, const char *title, const char *dest);
/** Until the matching pop, everything drawn is mapped through @m first
 *  (text turns with it): how an imposition places a page turned on its
 *  sheet.  Pushes nest with clips, last in first out.  Links and
 *  destinations inside a turned page are a backend's best effort. */
void ucr_device_push_transform(ucr_device *dev, const ucr_matrix *m);
void ucr_device_pop_transform(ucr_device *dev);
/** Flushes the device and reports its first error.  Returns FALSE with
 *  @error set if anything failed since it was made.  Call once, before
 *  ucr_device_free(); later drawing calls are ignored. */
gboolean ucr_device_close(ucr_device *dev, GError **error);
/** Releases @dev without flushing (an unclosed file device writes nothing
 *  more).  Never fails; NULL is allowed. */
void ucr_device_free(ucr_device *dev);

/* ---- paths ---------------------------------------------------------- */

/** A new empty path; free with ucr_path_free(). */
ucr_path *ucr_path_new(void);
void ucr_path_free(ucr_path *path);
void ucr_path_move_to(ucr_path *path, double x, double y);
void ucr_path_line_to(ucr_path *path, double x, double y);
void ucr_path_curve_to(ucr_path *path, double x1, double y1, double x2, double y2, double x3,
                       double y3);
void ucr_path_close(ucr_path *path);
/** Appends a closed rectangle. */
void ucr_path_rect(ucr_path *path, double x, double y, double w, double h);
/** Appends a closed circle (four cubic arcs). */
void ucr_path_circle(ucr_path *path, double cx, double cy, double r);
/** Number of elements, and the elements themselves (borrowed). */
int ucr_path_length(const ucr_path *path);
const ucr_path_el *ucr_path_elements(const ucr_path *path);
/** A transformed copy; the caller frees it. */
ucr_path *ucr_path_transform(const ucr_path *path, const ucr_matrix *m);
/** Appends @n elements at once (a path read back from a file: one copy,
 *  not an append per element). */
void ucr_path_append_elements(ucr_path *path, const ucr_path_el *els, int n);

/* ---- stamp sets ------------------------------------------------------ */

/** A set of the @n paths of @shapes (the set takes them, and frees the
 *  array's paths, not the array), stroked with @stroke.  Drop with
 *  ucr_stamp_set_unref(). */
ucr_stamp_set *ucr_stamp_set_new(ucr_path **shapes, int n, const ucr_stroke *stroke);
ucr_stamp_set *ucr_stamp_set_ref(const ucr_stamp_set *set);
/** NULL is allowed. */
void ucr_stamp_set_unref(const ucr_stamp_set *set);
/** A hash and an equality of sets by what they draw (shapes and stroke),
 *  for GHashTable: two maps of one dungeon hatch with equal sets. */
guint ucr_stamp_set_hash(gconstpointer set);
gboolean ucr_stamp_set_equal(gconstpointer a, gconstpointer b);
/** Number of shapes, shape @i (borrowed), and the stroke (borrowed). */
int ucr_stamp_set_length(const ucr_stamp_set *set);
const ucr_path *ucr_stamp_set_shape(const ucr_stamp_set *set, int i);
const ucr_stroke *ucr_stamp_set_stroke(const ucr_stamp_set *set);
/** How far the ink of any shape reaches from its origin: the farthest
 *  point of a path (control points included) plus half the stroke. */
double ucr_stamp_set_reach(const ucr_stamp_set *set);
/** The copies of ucr_device_stamp() as one path: what a device without
 *  the slot strokes.  The caller frees it. */
ucr_path *ucr_stamp_set_path(const ucr_stamp_set *set, const ucr_matrix *m, const ucr_stamp *at,
                             int n);

/* ---- matrices --------------------------------------------------------- */

/** Scale by @s, then translate by (@tx, @ty). */
ucr_matrix ucr_matrix_scale_translate(double s, double tx, double ty);
void ucr_matrix_apply(const ucr_matrix *m, double *x, double *y);
/** How much the matrix scales lengths (line widths, text sizes). */
double ucr_matrix_expansion(const ucr_matrix *m);
/** @a after @b: the matrix that maps p to a(b(p)). */
ucr_matrix ucr_matrix_multiply(const ucr_matrix *a, const ucr_matrix *b);
/** The inverse of @m (the identity if @m is singular). */
ucr_matrix ucr_matrix_invert(const ucr_matrix *m);

/** Parses "#rrggbb" or "#rrggbbaa".  Returns FALSE if malformed. */
gboolean ucr_color_parse(const char *text, ucr_color *color);

#endif
