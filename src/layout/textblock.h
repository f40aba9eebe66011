/* undercroft — a paragraph of markup shaped once, kept as positioned runs.
 *
 * The booklet lays text out with Pango but draws it through the device:
 * a block is shaped and broken into lines once, when it is made, and holds
 * each line's runs (text, the face Pango actually chose — fallbacks
 * included —, size, colour, x and baseline).  Its height is known before it
 * is placed, and it can be drawn whole or a range of lines at a time (a key
 * entry that flows to the next column), without shaping it again.  Runs go
 * to the device as show_text on their baselines, so every backend draws the
 * same words at the same places, and references like "C-7" become links.
 */
#ifndef UCR_TEXTBLOCK_H
#define UCR_TEXTBLOCK_H

#include <pango/pango.h>
#include "render/device.h"

typedef struct ucr_textblock ucr_textblock;

/** Which "C-7" references get links: @ref_ok says whether node id @id
 *  (the letters before the dash) and @key name a key entry; it is given
 *  @data.  NULL: none. */
typedef gboolean (*ucr_textblock_ref_ok)(const char *id, int key, gpointer data);

typedef struct {
    const char *family;     /* default face */
    double size;            /* default size, points */
    double width;           /* wrap width in points; <= 0: no wrapping */
    double align;           /* 0 left, 0.5 centred, 1 right */
    double spacing;         /* extra points between lines */
    ucr_textblock_ref_ok ref_ok;
    gpointer ref_data;
} ucr_textblock_style;

/** Shapes @markup (Pango markup) in @style.  Lines break between words;
 *  only a word wider than the width breaks inside, between characters (no
 *  hyphens), so no line is wider than the width; a "C-7" reference never
 *  breaks at its dash.  Returns NULL with @error set
 *  when the markup does not parse. */
ucr_textblock *ucr_textblock_new(PangoFontMap *fonts, const char *markup,
                                 const ucr_textblock_style *style, GError **error);
void ucr_textblock_free(ucr_textblock *tb);

int ucr_textblock_lines(const ucr_textblock *tb);
/** Height of the whole block, points. */
double ucr_textblock_height(const ucr_textblock *tb);
/** Width of its widest line, points. */
double ucr_textblock_width(const ucr_textblock *tb);
/** Bottom of line @i (from 0), measured from the block's top. */
double ucr_textblock_line_bottom(const ucr_textblock *tb, int i);
/** Top of line @i. */
double ucr_textblock_line_top(const ucr_textblock *tb, int i);

/** Draws lines @first … @last-1 with the top of line @first at (@x, @y).
 *  References become links to ucr_map_key_dest() destinations. */
void ucr_textblock_draw_lines(const ucr_textblock *tb, ucr_device *dev, double x, double y,
                              int first, int last);
/** Draws every line with the block's top-left at (@x, @y). */
void ucr_textblock_draw(const ucr_textblock *tb, ucr_device *dev, double x, double y);

/** For tests: when @on, every block's lines are broken by Pango itself,
 *  the reference the faster breaking (textblock.c) is compared against. */
void ucr_textblock_use_pango_breaking(gboolean on);

#endif
