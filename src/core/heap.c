#include "core/heap.h"

void ucr_heap_grow(ucr_heap *heap)
{
    heap->cap = heap->cap ? heap->cap * 2 : 256;
    heap->v = g_renew(ucr_heap_item, heap->v, heap->cap);
}

void ucr_heap_clear(ucr_heap *heap)
{
    g_free(heap->v);
    *heap = (ucr_heap){ 0 };
}
