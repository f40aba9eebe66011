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

#endif
