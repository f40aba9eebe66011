/* undercroft — page templates: the paper a booklet is laid out for, as data.
 *
 * A template is a GLib key file (templates/pages/NAME.ini) that users copy
 * and edit: page size and margins in millimetres, text sizes in points at
 * the printed size, the key's columns, what a wide map does, and whether
 * the booklet is folded (pages padded to a multiple of 4, each map on a
 * left page facing its key).  Keys a file leaves out keep the A4 values.
 * Unknown groups or keys and bad values are refused with "FILE:LINE: what
 * is wrong" (UCR_ERROR_DATA) before anything is written; so is any text
 * under the legibility floor (7 pt, body text 8.5 pt). */
#ifndef UCR_PAGE_H
#define UCR_PAGE_H

#include <stdbool.h>
#include <glib.h>

/** What a map wider than tall does when that gives it a larger scale. */
typedef enum {
    UCR_WIDE_LANDSCAPE,   /* its page turns to landscape */
    UCR_WIDE_SPREAD,      /* it runs over two facing pages */
    UCR_WIDE_PORTRAIT     /* the page stays upright */
} ucr_wide_map;

/** A page template; lengths in points (1/72 in). */
typedef struct {
    char *name;            /* "A5" */
    char *description;
    double width, height;
    double margin_top, margin_bottom, margin_inner, margin_outer;
    bool folded;
    double title_pt, heading_pt, body_pt, small_pt;
    int key_columns;       /* 1 or 2 */
    double map_text_pt;    /* the smallest text on a map */
    double min_square;     /* the smallest 10-ft square of a map in parts */
    double whole_square;   /* the smallest a map is shrunk to so that it stays
                            * on one page, at most min_square (a map that needs
                            * less goes in parts at min_square) */
    ucr_wide_map wide;
} ucr_page_template;

/** The smallest text at the printed size, and the smallest body text. */
/** What a template's page must hold (doc/limits.md): a key column this
 *  many body-size ems wide, a map part this many squares each way at
 *  min-square. */
#define UCR_PAGE_MIN_COLUMN_EM 16
#define UCR_PAGE_MIN_MAP_SQUARES 20

#define UCR_PAGE_MIN_TEXT_PT 7.0
#define UCR_PAGE_MIN_BODY_PT 8.5

/** Loads template @name_or_path: a name ("a5") is looked up as
 *  DATADIR/templates/pages/NAME.ini, anything with a '/' or ending in
 *  ".ini" is a file.  Returns NULL with @error set: UCR_ERROR_USAGE for an
 *  unknown name (the message lists the shipped templates), UCR_ERROR_NOINPUT
 *  for a missing file, UCR_ERROR_DATA for a malformed one.  Free with
 *  ucr_page_template_free(). */
ucr_page_template *ucr_page_template_load(const char *name_or_path, const char *datadir,
                                          GError **error);

/** Loads and validates the template held in @text (@path names it in
 *  messages); for files and the fuzzer alike. */
ucr_page_template *ucr_page_template_parse(const char *path, const char *text, gsize length,
                                           GError **error);

void ucr_page_template_free(ucr_page_template *t);

/** The line (from 1) of @key in [@group] of the key file @text (its last,
 *  whose value GKeyFile keeps, when it is set twice), or of the group
 *  itself when @key is NULL; 1 when not found.  For "FILE:LINE"
 *  messages about GLib key files, which do not keep lines. */
int ucr_keyfile_line(const char *text, gsize length, const char *group, const char *key);

/** The default template's name. */
#define UCR_PAGE_DEFAULT "a4"

#endif
