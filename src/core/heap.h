/* undercroft — a binary min-heap of (priority, state) pairs, for the A*
 * corridor routers. */
#ifndef UCR_HEAP_H
#define UCR_HEAP_H

#include <glib.h>

typedef struct {
    int prio;
    int state;
} ucr_heap_item;

/** Pushes (@prio, @state) on @heap, a GArray of ucr_heap_item. */
void ucr_heap_push(GArray *heap, int prio, int state);

/** Pops the item of least priority; @heap must not be empty. */
ucr_heap_item ucr_heap_pop(GArray *heap);

#endif
