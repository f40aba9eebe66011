/* undercroft — the PDF booklet: cover, superstructure overview, and for
 * every node its map page and its key. */
#ifndef UCR_BOOKLET_H
#define UCR_BOOKLET_H

#include <stdio.h>
#include <glib.h>
#include "layout/style.h"
#include "model/model.h"

typedef struct {
    const char *datadir;   /* holds fonts/ */
    const ucr_style *style; /* how the maps are inked */
    gboolean show_dice;    /* the key prints the dice under every entry */
} ucr_booklet_options;

/** Writes the booklet of @md as PDF to @stream.  The document date is
 *  $SOURCE_DATE_EPOCH if set, else a fixed date, so the same dungeon always
 *  gives the same bytes.  Returns FALSE with @error set on failure. */
gboolean ucr_booklet_write_pdf(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                               FILE *stream, GError **error);

#endif
