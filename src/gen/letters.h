/* undercroft — leximorph letter shapes as an editable data file (seed 002).
 *
 * Format (templates/letters.txt; '#' in the first column of a line that is
 * not part of a letter starts a comment, blank lines separate letters):
 *
 *     letter R          one character names the letter (case matters)
 *     #####             then up to UCR_GLYPH_MAX rows of up to UCR_GLYPH_MAX
 *     #...#             characters: '#' tunnel, '.' or ' ' rock
 *
 * Tunnels join where two '#' are side by side, never corner to corner.  The
 * loader checks every letter: at least two '#', all of them joined into one
 * shape, no 2x2 block of '#' (a tunnel is one square wide), no duplicate
 * letter, no stray character.  Mistakes are "file:line: what is wrong"
 * (UCR_ERROR_DATA); a missing file is UCR_ERROR_NOINPUT.
 */
#ifndef UCR_LETTERS_H
#define UCR_LETTERS_H

#include <stdbool.h>
#include <glib.h>

#define UCR_GLYPH_MAX 7

/** One letter's tunnel skeleton: cell[y][x] is true for tunnel. */
typedef struct {
    char name;
    int w, h;
    bool cell[UCR_GLYPH_MAX][UCR_GLYPH_MAX];
} ucr_glyph;

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
