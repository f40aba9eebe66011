/* undercroft — a binary min-heap of (priority, state) pairs, for the kit's
 * search.  Inline: the search pushes and pops once per state, and a call
 * (with GArray's append behind it) was a tenth of a route's time. */
#ifndef UCR_HEAP_H
#define UCR_HEAP_H

#include <glib.h>

typedef struct {
    int prio;
    int state;
} ucr_heap_item;

/** A heap; zero-initialised is empty.  ucr_heap_clear() frees its items. */
typedef struct {
    ucr_heap_item *v;
    guint n, cap;
} ucr_heap;

/** Makes room for one more item (the slow path of ucr_heap_push). */
void ucr_heap_grow(ucr_heap *heap);

/** Frees the items of @heap and empties it. */
void ucr_heap_clear(ucr_heap *heap);

/** Pushes (@prio, @state) on @heap. */
static inline void ucr_heap_push(ucr_heap *heap, int prio, int state)
{
    if (heap->n == heap->cap)
        ucr_heap_grow(heap);
    ucr_heap_item *h = heap->v;
    guint i = heap->n++;
    h[i] = (ucr_heap_item){ prio, state };
    while (i > 0) {
        guint parent = (i - 1) / 2;
        if (h[parent].prio <= h[i].prio)
            break;
        ucr_heap_item t = h[parent];
        h[parent] = h[i];
        h[i] = t;
        i = parent;
    }
}

/** Pops the item of least priority; @heap must not be empty. */
static inline ucr_heap_item ucr_heap_pop(ucr_heap *heap)
{
    ucr_heap_item *h = heap->v;
    ucr_heap_item top = h[0];
    h[0] = h[--heap->n];
    guint n = heap->n, i = 0;
    for (;;) {
        guint l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l].prio < h[m].prio)
            m = l;
        if (r < n && h[r].prio < h[m].prio)
            m = r;
        if (m == i)
            break;
        ucr_heap_item t = h[m];
        h[m] = h[i];
        h[i] = t;
        i = m;
    }
    return top;
}

#endif
