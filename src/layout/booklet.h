/* undercroft — the booklet, page by page.
 *
 * Every page — cover, overview, maps, keys, player maps, notes — is laid
 * out once into a display list of its own (text already shaped into runs,
 * see textblock.h), with the document's info, outline, destinations and
 * links as device calls among them.  The lists are then replayed onto a
 * backend (cairo or libharu), an imposition, or the trace device of the
 * tests; nothing here knows which.  Sizes, margins, text sizes and the
 * key's columns come from a page template (page.h). */
#ifndef UCR_BOOKLET_H
#define UCR_BOOKLET_H

#include <stdbool.h>
#include <glib.h>
#include <pango/pango.h>
#include "layout/page.h"
#include "layout/style.h"
#include "model/model.h"
#include "render/display_list.h"

typedef struct {
    const ucr_style *style;          /* how the maps are inked */
    const ucr_page_template *page;   /* the paper */
    bool player_maps;                /* a section of player maps at the end */
    bool show_dice;                  /* the dice behind every area, in the key */
    const char *node_id;             /* only this node (no overview), or NULL: all */
    int zine_pages;                  /* a mini-zine of this many pages: a short cover, the
                                      * node, notes, and a back page with the map symbols;
                                      * no room table (too narrow).  0: a booklet */
} ucr_booklet_options;

/** What a page is, for tests and impositions. */
typedef enum {
    UCR_PAGE_COVER,
    UCR_PAGE_OVERVIEW,
    UCR_PAGE_MAP,
    UCR_PAGE_KEY,
    UCR_PAGE_PLAYER_MAP,
    UCR_PAGE_NOTES
} ucr_page_kind;

typedef struct ucr_booklet ucr_booklet;

/** Lays out the booklet of @md, measuring text with @fonts.  Its pages
 *  wait in a temporary file, one in memory at a time (render/display_list.h:
 *  the store); when that file cannot be made or written, in memory.
 *  Returns NULL with @error set only on an internal fault. */
ucr_booklet *ucr_booklet_new(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                             PangoFontMap *fonts, GError **error);
void ucr_booklet_free(ucr_booklet *b);

int ucr_booklet_page_count(const ucr_booklet *b);
/** Page @i (from 0): its display list (begin_page … end_page), size in
 *  points, kind, and how much of its text area is used (0–1).  The list is
 *  read back from the booklet's file: it stays valid until the next call
 *  or ucr_booklet_free(); NULL if the read failed. */
const ucr_display_list *ucr_booklet_page(const ucr_booklet *b, int i, double *width,
                                         double *height, ucr_page_kind *kind, double *filled);
/** Page @i's display list as a new list the caller frees (an imposition
 *  needs them all at once).  NULL with @error when the read fails. */
ucr_display_list *ucr_booklet_page_load(const ucr_booklet *b, int i, GError **error);
/** The smallest 10-ft square of any map page, in points. */
double ucr_booklet_min_square(const ucr_booklet *b);
/** The smallest 10-ft square of a map or player map printed in parts
 *  (never under the template's min-square), in points; G_MAXDOUBLE when
 *  every map is whole. */
double ucr_booklet_min_part_square(const ucr_booklet *b);

/** Replays every page onto @dev, in order, reading each back from the
 *  booklet's file.  FALSE with @error (UCR_ERROR_IOERR) if a read fails. */
gboolean ucr_booklet_replay(const ucr_booklet *b, ucr_device *dev, GError **error);

/** The node a tunnel's stair or ladder arrow points at on the overview:
 *  the deeper of the two it joins (a stair down goes from the shallower
 *  node to the deeper one); -1 when the tunnel is not a stair or ladder or
 *  both nodes lie on one level. */
int ucr_booklet_arrow_to(const ucr_megadungeon *md, const ucr_tunnel *t);

/** The PDF date of the booklet: $SOURCE_DATE_EPOCH when set, else a fixed
 *  day, so a seed always gives the same bytes ("YYYY-MM-DDThh:mm:ss"). */
char *ucr_booklet_date(void);

#endif
