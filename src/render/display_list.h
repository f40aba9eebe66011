/* undercroft — display lists: device calls recorded once, replayed onto any
 * device (MuPDF's fz_display_list).
 *
 * The map is laid out once into a list — every wobble and hatch stroke
 * already computed from the seed — and the same list is then replayed onto
 * the PDF page, an SVG or PNG file, or the trace device of the tests, so
 * every backend draws exactly the same strokes. */
#ifndef UCR_DISPLAY_LIST_H
#define UCR_DISPLAY_LIST_H

#include "render/device.h"

typedef struct ucr_display_list ucr_display_list;

/** A new empty list; free with ucr_display_list_free(). */
ucr_display_list *ucr_display_list_new(void);
/** Frees @list and everything recorded in it.  NULL is allowed. */
void ucr_display_list_free(ucr_display_list *list);

/** A device that appends every call made on it to @list (borrowed: the list
 *  must outlive the device).  Its close never fails. */
ucr_device *ucr_list_device_new(ucr_display_list *list);

/** Number of recorded calls. */
int ucr_display_list_length(const ucr_display_list *list);

/** Replays every recorded call onto @dev, mapped through @ctm (NULL: as
 *  recorded).  Coordinates go through the matrix; line widths, dashes and
 *  text sizes scale by its expansion.  Never fails itself: @dev keeps any
 *  error for its close. */
void ucr_display_list_replay(const ucr_display_list *list, ucr_device *dev, const ucr_matrix *ctm);

enum {
    UCR_REPLAY_CONTENT = 1 << 0,       /* without its begin_page and end_page */
    UCR_REPLAY_NO_NAVIGATION = 1 << 1  /* without links, destinations and outline */
};

/** ucr_display_list_replay() with @flags (UCR_REPLAY_…): an imposition
 *  places a page's content on its sheet, without the page's navigation. */
void ucr_display_list_replay_with(const ucr_display_list *list, ucr_device *dev, const ucr_matrix *ctm,
                                  unsigned flags);

/* ---- a store on disk ----------------------------------------------------
 *
 * A booklet's pages wait for its overview, which is laid out last but
 * printed second (the page every map is on is known only then): kept in
 * memory, a 10 x 10 booklet's lists came to 100 MB.  The store keeps them
 * in a temporary file instead, which has no name (O_TMPFILE, or unlinked
 * at once), so nothing is left behind by a crash or a signal, and memory
 * stays flat however long the booklet. */

typedef struct ucr_list_store ucr_list_store;

/** A new empty store in $TMPDIR (else /tmp).  NULL with @error
 *  (UCR_ERROR_CANTCREAT) when no temporary file can be made there. */
ucr_list_store *ucr_list_store_new(GError **error);
/** NULL is allowed. */
void ucr_list_store_free(ucr_list_store *store);
/** Writes @list to @store and sets *@key to find it again; the caller may
 *  free @list.  FALSE with @error (UCR_ERROR_IOERR) when the write fails. */
gboolean ucr_list_store_put(ucr_list_store *store, const ucr_display_list *list, guint64 *key,
                            GError **error);
/** A new list with the calls of the one put under @key, as they were
 *  recorded.  NULL with @error (UCR_ERROR_IOERR) when the read fails. */
ucr_display_list *ucr_list_store_get(ucr_list_store *store, guint64 key, GError **error);
/** Bytes written to @store so far. */
guint64 ucr_list_store_size(const ucr_list_store *store);

#endif
