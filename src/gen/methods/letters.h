/* undercroft — leximorph letter shapes as an editable data file (seed 002).
 *
 * Format (templates/letters.txt; '#' in the first column of a line that is
 * not part of a letter starts a comment, blank lines separate letters):
 *
 *     letter R          one character names the letter (case matters)
 *     #####             then up to UCR_GLYPH_MAX rows of up to UCR_GLYPH_MAX
 *     #...#             characters: '#' tunnel, '.' or ' ' rock; '\', '/'
 *     .\./.             and 'x' tunnel too, joined corner to corner along
 *                       their stroke ('x': both)
 *
 * Tunnels join where two tunnel characters are side by side, and corner to
 * corner where one of them is a '\' (north-west to south-east), '/'
 * (north-east to south-west) or 'x' pointing at the other: a diagonal
 * stroke, drawn at 45 degrees.  The loader checks every letter: at least
 * two tunnel characters, all of them joined into one shape, no 2x2 block
 * (a tunnel is one square wide), the two squares beside a diagonal join
 * rock, every diagonal stroke able to leave its ends by a side no other
 * stroke of that end uses, no duplicate letter, no stray character.  Mistakes are "file:line: what is wrong"
 * (UCR_ERROR_DATA); a missing file is UCR_ERROR_NOINPUT.
 */
#ifndef UCR_LETTERS_H
#define UCR_LETTERS_H

#include <stdbool.h>
#include <glib.h>

#define UCR_GLYPH_MAX 7

#define UCR_GLYPH_RUNS 16

/** A diagonal stroke of a letter: from cell (x[0], y[0]) to (x[1], y[1]),
 *  corner to corner all the way.  On the map it leaves each end through a
 *  side (leave[e], a ucr_dir): one square straight out of that end, then at
 *  45 degrees, so that a junction there is entered side by side. */
typedef struct {
    int x[2], y[2];
    int leave[2];
} ucr_glyph_run;

/** One letter's tunnel skeleton: cell[y][x] is true for tunnel; diag[y][x]
 *  bit 1 '\\', bit 2 '/' (the characters that join corner to corner). */
typedef struct {
    char name;
    int w, h;
    bool cell[UCR_GLYPH_MAX][UCR_GLYPH_MAX];
    unsigned char diag[UCR_GLYPH_MAX][UCR_GLYPH_MAX];
    int nruns;
    ucr_glyph_run runs[UCR_GLYPH_RUNS];
} ucr_glyph;

/** Are cells (@x, @y) and (@x + @dx, @y + 1) of @g (@dx = ±1) joined corner
 *  to corner? */
bool ucr_glyph_diagonal(const ucr_glyph *g, int x, int y, int dx);

/** Is cell (@x, @y) of @g inside a diagonal stroke (not one of its ends)?
 *  Such a cell is passed beside, not drawn on the map. */
bool ucr_glyph_inner(const ucr_glyph *g, int x, int y);

typedef struct ucr_letters {
    char *path;
    GArray *glyphs;        /* ucr_glyph, in file order */
} ucr_letters;

/** Loads and validates the letters file at @path.  Returns NULL with @error
 *  set on failure; free the result with ucr_letters_free(). */
ucr_letters *ucr_letters_load(const char *path, GError **error);

/** Parses letters from @text as if read from @path (for tests). */
ucr_letters *ucr_letters_parse(const char *path, const char *text, GError **error);

void ucr_letters_free(ucr_letters *letters);

/** The glyph called @name, or NULL (borrowed from @letters). */
const ucr_glyph *ucr_letters_find(const ucr_letters *letters, char name);

/** The glyph for @name, trying the other case if the exact one is missing
 *  ("blood" finds B, L, O, D), or NULL. */
const ucr_glyph *ucr_letters_find_any_case(const ucr_letters *letters, char name);

/** All letter names, space-separated ("R A D …"); the caller frees it. */
char *ucr_letters_names(const ucr_letters *letters);

/** @g turned by seed 002's d4 rotation: 1 normal, 2 a quarter turn clockwise,
 *  3 upside down, 4 a quarter turn counter-clockwise. */
ucr_glyph ucr_glyph_rotate(const ucr_glyph *g, int d4);

#endif
