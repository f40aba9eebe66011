#include "gen/kit/search_inline.h"

#include <limits.h>
#include <string.h>


ucr_search *ucr_search_new(int w, int h)
{
    ucr_search *s = g_new0(ucr_search, 1);
    s->geo.w = w;
    s->geo.h = h;
    s->geo.extra = 1;
    s->geo.sq_stamp = g_new0(guint32, (gsize)w * (gsize)h);
    s->geo.memo = g_new(int, (gsize)w * (gsize)h * 2);
    return s;
}

void ucr_search_free(ucr_search *s)
{
    if (!s)
        return;
    g_free(s->geo.stamp);
    g_free(s->geo.dist);
    g_free(s->prev);
    g_free(s->geo.aux);
    g_free(s->hval);
    g_free(s->geo.sq_stamp);
    g_free(s->geo.memo);
    ucr_heap_clear(&s->heap);
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
    s->geo.stamp = g_renew(guint32, s->geo.stamp, n);
    memset(s->geo.stamp + s->nstates, 0, (size_t)(n - s->nstates) * sizeof *s->geo.stamp);
    s->geo.dist = g_renew(int, s->geo.dist, n);
    s->prev = g_renew(int, s->prev, n);
    s->geo.aux = g_renew(int, s->geo.aux, (gsize)n * 2);
    s->hval = g_renew(int, s->hval, n);
    s->nstates = n;
}

void ucr_search_begin(ucr_search *s, const ucr_search_rules *rules)
{
    s->r = rules;
    search_size(s, rules->extra > 1 ? rules->extra : 1);
    if (++s->geo.gen == 0) {
        memset(s->geo.stamp, 0, (size_t)s->nstates * sizeof *s->geo.stamp);
        memset(s->geo.sq_stamp, 0, (size_t)s->geo.w * (size_t)s->geo.h * sizeof *s->geo.sq_stamp);
        s->geo.gen = 1;
    }
    s->heap.n = 0;
    for (int i = 0; i < s->nb; i++)
        s->buckets[i].n = 0;
    s->cur = s->at = 0;
}

int ucr_search_prev(const ucr_search *s, int st) { return s->prev[st]; }


/* The queue and the loop are in search_inline.h. */

void ucr_search_start(ucr_search *s, const ucr_search_move *mv)
{
    ucr_search_reach_(s, mv, -1, mv->cost);
    ucr_search_queue_(s, s->r, mv->to, mv->cost);
}

int ucr_search_run(ucr_search *s)
{
    return ucr_search_run_inline(s, s->r);
}

void ucr_search_bucket_grow_(ucr_search *s, int prio)
{
    if (prio >= s->nb) {
        int nn = prio + 64;
        s->buckets = g_renew(struct ucr_search_bucket, s->buckets, nn);
        memset(s->buckets + s->nb, 0, (size_t)(nn - s->nb) * sizeof *s->buckets);
        s->nb = nn;
    }
    struct ucr_search_bucket *b = &s->buckets[prio];
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->v = g_renew(int, b->v, b->cap);
    }
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
