/* undercroft — the insides of the kit's search (search.h), and its loop as
 * an inline function.
 *
 * ucr_search_run() calls a router's rules through pointers, a call per move
 * and per state.  A router on the hot path (preconnect's, compass's) calls
 * ucr_search_run_inline() with its rules instead: the compiler sees which
 * functions they are and calls (or inlines) them directly.  Same states,
 * same order, same result: it is the same loop.  Included by the kit and by
 * a method whose router is on the hot path (compass).
 */
#ifndef UCR_SEARCH_INLINE_H
#define UCR_SEARCH_INLINE_H

#include <limits.h>

#include "core/heap.h"
#include "gen/kit/search.h"

/* One cost's states, in order of arrival (kept between searches). */
struct ucr_search_bucket {
    int *v;
    int n, cap;
};

struct ucr_search {
    struct ucr_search_geometry geo;  /* first: the inline accessors read it (and the stamps, costs, aux, memo) */
    int nstates;            /* states the arrays hold */
    int *prev;              /* per state */
    int *hval;              /* per state: the heuristic, as it was queued */
    ucr_heap heap;          /* UCR_SEARCH_HEAP */
    struct ucr_search_bucket *buckets; /* UCR_SEARCH_BUCKETS: per cost, the states in order of arrival */
    int nb, cur, at;        /* buckets made; the bucket and place being taken */
    const ucr_search_rules *r;
};

/* Makes bucket @prio and room in it for one more state (search.c). */
void ucr_search_bucket_grow_(ucr_search *s, int prio);

static inline void ucr_search_push_(ucr_search *s, const ucr_search_rules *r, int prio, int st)
{
    if (r->queue == UCR_SEARCH_HEAP) {
        ucr_heap_push(&s->heap, prio, st);
        return;
    }
    if (prio < s->cur)
        prio = s->cur;   /* costs do not go down; never behind the bucket being taken */
    if (prio >= s->nb || s->buckets[prio].n == s->buckets[prio].cap)
        ucr_search_bucket_grow_(s, prio);
    struct ucr_search_bucket *b = &s->buckets[prio];
    b->v[b->n++] = st;
}

static inline bool ucr_search_pop_(ucr_search *s, const ucr_search_rules *r, int *st, int *prio)
{
    if (r->queue == UCR_SEARCH_HEAP) {
        if (!s->heap.n)
            return false;
        ucr_heap_item it = ucr_heap_pop(&s->heap);
        *st = it.state;
        *prio = it.prio;
        return true;
    }
    while (s->cur < s->nb) {
        const struct ucr_search_bucket *b = &s->buckets[s->cur];
        if (s->at < b->n) {
            *st = b->v[s->at++];
            *prio = s->cur;
            return true;
        }
        s->cur++;
        s->at = 0;
    }
    return false;
}

/* Queues state @st at cost @g, with its heuristic. */
static inline void ucr_search_queue_(ucr_search *s, const ucr_search_rules *r, int st, int g)
{
    int h = r->heuristic ? r->heuristic(r->data, st) : 0;
    s->hval[st] = h;
    ucr_search_push_(s, r, g + h, st);
}

/* Records that @mv is the best way to its state yet, from @from at @cost. */
static inline void ucr_search_reach_(ucr_search *s, const ucr_search_move *mv, int from, int cost)
{
    int st = mv->to;
    s->geo.stamp[st] = s->geo.gen;
    s->geo.dist[st] = cost;
    s->prev[st] = from;
    s->geo.aux[st * 2] = mv->aux[0];
    s->geo.aux[st * 2 + 1] = mv->aux[1];
}

/* Tries the four moves of @at; returns a goal state a move reached, or -1. */
static inline int ucr_search_expand_(ucr_search *s, const ucr_search_rules *r, const ucr_search_at *at)
{
    for (int d = 0; d < 4; d++) {
        ucr_search_move mv = { 0 };
        if (!r->step(r->data, s, at, (ucr_dir)d, &mv))
            continue;
        int nc = at->g + mv.cost;
        if (r->cost_limit > 0 && nc >= r->cost_limit)
            continue;
        if (!ucr_search_improves(s, mv.to, nc))
            continue;
        ucr_search_reach_(s, &mv, at->st, nc);
        if (mv.goal)
            return mv.to;
        ucr_search_queue_(s, r, mv.to, nc);
    }
    return -1;
}

/** ucr_search_run_inline() stopped by its budget: the states still queued,
 *  to go on from. */
#define UCR_SEARCH_PAUSED (-2)

/** ucr_search_run() with @r, the rules given to ucr_search_begin(), known
 *  to the compiler.  With @budget (not NULL), at most *@budget states are
 *  taken from the queue (counted down): if it runs out first, returns
 *  UCR_SEARCH_PAUSED, and a later call goes on exactly where this one
 *  stopped (for rules whose visit never answers UCR_VISIT_FALLBACK). */
static inline __attribute__((always_inline)) int ucr_search_run_for(ucr_search *s, const ucr_search_rules *r,
                                                                     int *budget)
{
    int st, prio, fallback = -1;
    for (;;) {
        if (budget && (*budget)-- <= 0)
            return UCR_SEARCH_PAUSED;
        if (!ucr_search_pop_(s, r, &st, &prio))
            break;
        int g = s->geo.dist[st];
        if (prio - (r->heuristic ? s->hval[st] : 0) > g)
            continue;   /* a stale entry: the state was reached cheaper since */
        int cell = ucr_search_cell(s, st);
        ucr_search_at at = { st, g, { cell % s->geo.w, cell / s->geo.w }, ucr_search_heading(s, st),
                             ucr_search_extra(s, st) };
        switch (r->visit ? r->visit(r->data, s, &at) : UCR_VISIT_GO) {
        case UCR_VISIT_GOAL:
            return st;
        case UCR_VISIT_FALLBACK:
            if (fallback < 0)
                fallback = st;
            continue;
        case UCR_VISIT_STOP:
            continue;
        case UCR_VISIT_GO:
            break;
        }
        int goal = ucr_search_expand_(s, r, &at);
        if (goal >= 0)
            return goal;
    }
    return fallback;
}

static inline __attribute__((always_inline)) int ucr_search_run_inline(ucr_search *s, const ucr_search_rules *r)
{
    return ucr_search_run_for(s, r, NULL);
}

#endif
