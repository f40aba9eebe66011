#include "gen/kit/search.h"

#include <limits.h>
#include <string.h>

#include "core/heap.h"

/* One cost's states, in order of arrival (kept between searches). */
struct bucket {
    int *v;
    int n, cap;
};

struct ucr_search {
    struct ucr_search_geometry geo;  /* first: the inline accessors read it */
    int nstates;            /* states the arrays hold */
    guint32 gen;            /* this search's number */
    guint32 *stamp;         /* per state: the search that reached it */
    int *dist, *prev;       /* per state */
    int *aux;               /* per state: two caller's values */
    int *hval;              /* per state: the heuristic, as it was queued */
    guint32 *sq_stamp;      /* per square: the search that asked about it */
    int *memo;              /* per square: two caller's answers */
    GArray *heap;           /* UCR_SEARCH_HEAP: ucr_heap_item */
    struct bucket *buckets; /* UCR_SEARCH_BUCKETS: per cost, the states in order of arrival */
    int nb, cur, at;        /* buckets made; the bucket and place being taken */
    const ucr_search_rules *r;
};

ucr_search *ucr_search_new(int w, int h)
{
    ucr_search *s = g_new0(ucr_search, 1);
    s->geo.w = w;
    s->geo.h = h;
    s->geo.extra = 1;
    s->heap = g_array_new(FALSE, FALSE, sizeof(ucr_heap_item));
    s->sq_stamp = g_new0(guint32, (gsize)w * (gsize)h);
    s->memo = g_new(int, (gsize)w * (gsize)h * 2);
    return s;
}

void ucr_search_free(ucr_search *s)
{
    if (!s)
        return;
    g_free(s->stamp);
    g_free(s->dist);
    g_free(s->prev);
    g_free(s->aux);
    g_free(s->hval);
    g_free(s->sq_stamp);
    g_free(s->memo);
    g_array_free(s->heap, TRUE);
    for (int i = 0; i < s->nb; i++)
        g_free(s->buckets[i].v);
    g_free(s->buckets);
    g_free(s);
}

/* Room for @extra values of the extra state: the arrays grow, never shrink
 * (the new stamps are 0, older than any search). */
static void search_size(ucr_search *s, int extra)
{
    s->geo.extra = extra;
    int n = s->geo.w * s->geo.h * 4 * extra;
    if (n <= s->nstates)
        return;
    s->stamp = g_renew(guint32, s->stamp, n);
    memset(s->stamp + s->nstates, 0, (size_t)(n - s->nstates) * sizeof *s->stamp);
    s->dist = g_renew(int, s->dist, n);
    s->prev = g_renew(int, s->prev, n);
    s->aux = g_renew(int, s->aux, (gsize)n * 2);
    s->hval = g_renew(int, s->hval, n);
    s->nstates = n;
}

void ucr_search_begin(ucr_search *s, const ucr_search_rules *rules)
{
    s->r = rules;
    search_size(s, rules->extra > 1 ? rules->extra : 1);
    if (++s->gen == 0) {
        memset(s->stamp, 0, (size_t)s->nstates * sizeof *s->stamp);
        memset(s->sq_stamp, 0, (size_t)s->geo.w * (size_t)s->geo.h * sizeof *s->sq_stamp);
        s->gen = 1;
    }
    g_array_set_size(s->heap, 0);
    for (int i = 0; i < s->nb; i++)
        s->buckets[i].n = 0;
    s->cur = s->at = 0;
}

static int dist_of(const ucr_search *s, int st)
{
    return s->stamp[st] == s->gen ? s->dist[st] : INT_MAX;
}

int ucr_search_prev(const ucr_search *s, int st) { return s->prev[st]; }
int ucr_search_aux(const ucr_search *s, int st, int i) { return s->aux[st * 2 + i]; }

int *ucr_search_memo(ucr_search *s, int cell)
{
    int *m = s->memo + cell * 2;
    if (s->sq_stamp[cell] != s->gen) {
        s->sq_stamp[cell] = s->gen;
        m[0] = m[1] = -1;
    }
    return m;
}

/* ---- the queue ---------------------------------------------------------- */

static void queue_push(ucr_search *s, int prio, int st)
{
    if (s->r->queue == UCR_SEARCH_HEAP) {
        ucr_heap_push(s->heap, prio, st);
        return;
    }
    if (prio < s->cur)
        prio = s->cur;   /* costs do not go down; never behind the bucket being taken */
    if (prio >= s->nb) {
        int nn = prio + 64;
        s->buckets = g_renew(struct bucket, s->buckets, nn);
        memset(s->buckets + s->nb, 0, (size_t)(nn - s->nb) * sizeof *s->buckets);
        s->nb = nn;
    }
    struct bucket *b = &s->buckets[prio];
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->v = g_renew(int, b->v, b->cap);
    }
    b->v[b->n++] = st;
}

static bool queue_pop(ucr_search *s, int *st, int *prio)
{
    if (s->r->queue == UCR_SEARCH_HEAP) {
        if (!s->heap->len)
            return false;
        ucr_heap_item it = ucr_heap_pop(s->heap);
        *st = it.state;
        *prio = it.prio;
        return true;
    }
    while (s->cur < s->nb) {
        const struct bucket *b = &s->buckets[s->cur];
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

/* ---- the search --------------------------------------------------------- */

/* Queues state @st at cost @g, with its heuristic. */
static void queue_state(ucr_search *s, int st, int g)
{
    int h = s->r->heuristic ? s->r->heuristic(s->r->data, st) : 0;
    s->hval[st] = h;
    queue_push(s, g + h, st);
}

/* Records that @mv is the best way to its state yet, from @from at @cost. */
static void reach(ucr_search *s, const ucr_search_move *mv, int from, int cost)
{
    int st = mv->to;
    s->stamp[st] = s->gen;
    s->dist[st] = cost;
    s->prev[st] = from;
    s->aux[st * 2] = mv->aux[0];
    s->aux[st * 2 + 1] = mv->aux[1];
}

void ucr_search_start(ucr_search *s, const ucr_search_move *mv)
{
    reach(s, mv, -1, mv->cost);
    queue_state(s, mv->to, mv->cost);
}

/* Tries the four moves of @at; returns a goal state a move reached, or -1. */
static int expand(ucr_search *s, const ucr_search_at *at)
{
    const ucr_search_rules *r = s->r;
    for (int d = 0; d < 4; d++) {
        ucr_search_move mv = { 0 };
        if (!r->step(r->data, s, at, (ucr_dir)d, &mv))
            continue;
        int nc = at->g + mv.cost;
        if ((r->cost_limit > 0 && nc >= r->cost_limit) || nc >= dist_of(s, mv.to))
            continue;
        reach(s, &mv, at->st, nc);
        if (mv.goal)
            return mv.to;
        queue_state(s, mv.to, nc);
    }
    return -1;
}

int ucr_search_run(ucr_search *s)
{
    const ucr_search_rules *r = s->r;
    int st, prio, fallback = -1;
    while (queue_pop(s, &st, &prio)) {
        int g = s->dist[st];
        if (prio - (r->heuristic ? s->hval[st] : 0) > g)
            continue;   /* a stale entry: the state was reached cheaper since */
        int e = s->geo.extra, cell = st / (4 * e);
        ucr_search_at at = { st, g, { cell % s->geo.w, cell / s->geo.w }, (ucr_dir)(st / e % 4), st % e };
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
        int goal = expand(s, &at);
        if (goal >= 0)
            return goal;
    }
    return fallback;
}

/* ---- the walk back ------------------------------------------------------ */

void ucr_search_walk(const ucr_search *s, int goal, GArray *states)
{
    g_array_set_size(states, 0);
    for (int st = goal; st >= 0; st = s->prev[st])
        g_array_append_val(states, st);
    for (guint i = 0, j = states->len ? states->len - 1 : 0; i < j; i++, j--) {
        int t = g_array_index(states, int, i);
        g_array_index(states, int, i) = g_array_index(states, int, j);
        g_array_index(states, int, j) = t;
    }
}

GArray *ucr_search_path(const ucr_search *s, int goal)
{
    GArray *states = g_array_new(FALSE, FALSE, sizeof(int));
    ucr_search_walk(s, goal, states);
    GArray *path = g_array_sized_new(FALSE, FALSE, sizeof(ucr_point), states->len);
    for (guint i = 0; i < states->len; i++) {
        int st = g_array_index(states, int, i);
        ucr_point p = ucr_search_square(s, st);
        if (i == 0) {
            g_array_append_val(path, p);
            continue;
        }
        ucr_dir d = ucr_search_heading(s, st);
        ucr_point c = g_array_index(path, ucr_point, path->len - 1);
        while (c.x != p.x || c.y != p.y) {
            c.x += UCR_DIR_DX[d];
            c.y += UCR_DIR_DY[d];
            g_array_append_val(path, c);
        }
    }
    g_array_free(states, TRUE);
    return path;
}
