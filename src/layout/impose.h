/* undercroft — imposition: a booklet's pages placed on printer's sheets.
 *
 * An imposition (templates/impose/NAME.ini, or a file) takes the recorded
 * pages and places each on a sheet with a transform — the same display
 * lists, so text stays text on both backends.  Sheets are for printing:
 * the pages' links, destinations and outline are left out.
 *
 *   saddle    pages 2-up on sheets twice as wide, padded to a multiple of
 *             4, in saddle-stitch order: sheet k (from 0) has on its front
 *             [N−2k | 2k+1] and on its back [2k+2 | N−2k−1]; a page turned
 *             to landscape is turned back into its slot.  On A4 or
 *             Letter landscape at home; for a print shop crop marks,
 *             bleed and trim boxes, and a creep allowance per sheet.
 *   minizine  eight panels of one sheet, 4 × 2, the top row upside down:
 *             top 5 4 3 2, bottom 6 7 8 1; the cut-and-fold guides faint.
 */
#ifndef UCR_IMPOSE_H
#define UCR_IMPOSE_H

#include <stdbool.h>
#include <glib.h>
#include "render/display_list.h"
#include "layout/page.h"

typedef enum { UCR_IMPOSE_SADDLE, UCR_IMPOSE_MINIZINE } ucr_impose_kind;

typedef struct {
    char *name;
    ucr_impose_kind kind;
    bool crop_marks;      /* saddle */
    double bleed;         /* saddle, points */
    double creep;         /* saddle: points per sheet the inner sheets' pages move to the fold */
    char *panel;          /* minizine: the panel's page template */
    bool guides;          /* minizine: the cut-and-fold pattern */
} ucr_imposition;

/** The number of panels of a mini-zine. */
#define UCR_MINIZINE_PANELS 8

/** Loads imposition @name_or_path (DATADIR/templates/impose/NAME.ini, or a
 *  file).  NULL with @error: UCR_ERROR_USAGE for an unknown name (listing
 *  the shipped ones), UCR_ERROR_NOINPUT for a missing file, UCR_ERROR_DATA
 *  ("FILE:LINE: …") for a bad one. */
ucr_imposition *ucr_imposition_load(const char *name_or_path, const char *datadir, GError **error);
void ucr_imposition_free(ucr_imposition *im);

/** One page to impose: its recorded list and size (points). */
typedef struct {
    const ucr_display_list *list;
    double width, height;
} ucr_impose_page;

/** Places @n pages (portrait pages of @page_w × @page_h, or those turned
 *  to landscape) on sheets; returns the sheets as display lists (free each
 *  with ucr_display_list_free, and the array) and their size.  The
 *  minizine takes exactly UCR_MINIZINE_PANELS pages, on a sheet of
 *  @sheet_w × @sheet_h; the saddle's sheet follows from the page. */
GPtrArray *ucr_impose(const ucr_imposition *im, const ucr_impose_page *pages, int n, double page_w,
                      double page_h, double sheet_w, double sheet_h, double *out_w, double *out_h);

/** The sheet of a saddle imposition of @page_w × @page_h pages: its size
 *  (*@sheet_w × *@sheet_h points) and where the two pages' trimmed area
 *  starts on it (*@x, *@y; 2 × @page_w by @page_h).  At home (no crop
 *  marks, no bleed) the smallest of A4 and US Letter landscape that holds
 *  the pages, with them centred: A5 pages on A4, digest on Letter; else a
 *  sheet the pages with room around for the marks.  TRUE when the sheet
 *  is a print shop's (crop marks or bleed): its PDF gives the trim and
 *  bleed boxes. */
bool ucr_impose_saddle_sheet(const ucr_imposition *im, double page_w, double page_h, double *sheet_w,
                             double *sheet_h, double *x, double *y);

/** The order of saddle-stitched pages on their sheets: for @n pages (padded
 *  to a multiple of 4), the page number (from 1; > @n: blank) in each
 *  slot, sheet by sheet, front then back, left then right.  Fills
 *  @slots (4 per sheet) and returns the padded count. */
int ucr_impose_saddle_order(int n, int *slots);

/* ---- the paper rules of an imposition ------------------------------------ */

/** The page template a booklet imposed by @im (NULL: none) takes when no
 *  --paper is given: a saddle booklet is folded, A5 pages on an A4 sheet;
 *  anything else UCR_PAGE_DEFAULT.  Static. */
const char *ucr_imposition_paper(const ucr_imposition *im);

/** Checks a mini-zine's rules before anything is generated: it holds one
 *  node (@node_given, or a dungeon of @nodes == 1) on one sheet of @paper,
 *  which must not be a folded size.  TRUE for any other imposition (and for
 *  @im NULL); else FALSE with @error set (UCR_ERROR_USAGE, saying what to
 *  give instead). */
gboolean ucr_imposition_check(const ucr_imposition *im, const ucr_page_template *paper, gboolean node_given,
                              int nodes, GError **error);

/** A mini-zine's panel template: @im's panel file (DATADIR @datadir), sized
 *  to an eighth of the sheet @paper turned to landscape.  NULL with @error
 *  set as ucr_page_template_load() does.  Free with ucr_page_template_free(). */
ucr_page_template *ucr_imposition_panel(const ucr_imposition *im, const ucr_page_template *paper,
                                        const char *datadir, GError **error);

/** Whether the @pages pages of node @node_id (of the dungeon of @seed, which
 *  has @nodes nodes) fit the panels of a mini-zine, its map whole (not
 *  @map_in_parts); FALSE with @error set (UCR_ERROR_USAGE, naming what
 *  works instead: another node, or a folded booklet) when they are more or
 *  the map went in parts. */
gboolean ucr_imposition_panels_fit(int pages, bool map_in_parts, const char *seed, const char *node_id, int nodes,
                                   GError **error);

/** The sheet that pages of @paper are imposed on: @paper turned to
 *  landscape (points). */
void ucr_imposition_sheet(const ucr_page_template *paper, double *width, double *height);

#endif
