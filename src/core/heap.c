#include "core/heap.h"

void ucr_heap_push(GArray *heap, int prio, int state)
{
    ucr_heap_item it = { prio, state };
    g_array_append_val(heap, it);
    guint i = heap->len - 1;
    ucr_heap_item *h = (ucr_heap_item *)heap->data;
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

ucr_heap_item ucr_heap_pop(GArray *heap)
{
    ucr_heap_item *h = (ucr_heap_item *)heap->data;
    ucr_heap_item top = h[0];
    h[0] = h[heap->len - 1];
    g_array_set_size(heap, heap->len - 1);
    guint n = heap->len, i = 0;
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
