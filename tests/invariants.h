/* Invariants every generated node and megadungeon must keep, whatever its
 * method (DESIGN §1 "The map"): shared by the Check suites.  Each function
 * fails the running test with a message naming the seed and node. */
#ifndef UCR_TEST_INVARIANTS_H
#define UCR_TEST_INVARIANTS_H

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>

#include "model/model.h"

#define AREA(n, i) (&g_array_index((n)->areas, ucr_area, (i)))
#define PASSAGE(n, i) (&g_array_index((n)->passages, ucr_passage, (i)))

static inline bool ucr_test_crossing_at(const ucr_passage *p, int c)
{
    for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
        const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
        if (c >= cr->first && c <= cr->last)
            return true;
    }
    return false;
}

/* Is @q a square beside a diagonal step of passage @p (drawn across half
 * of it: a way crossing a diagonal run at 45° passes under or over it)? */
static inline bool ucr_test_beside_diagonal(const ucr_passage *p, ucr_point q)
{
    for (guint c = 1; c < p->cells->len; c++) {
        ucr_point a = g_array_index(p->cells, ucr_point, c - 1), b = g_array_index(p->cells, ucr_point, c);
        if (a.x != b.x && a.y != b.y && ((q.x == b.x && q.y == a.y) || (q.x == a.x && q.y == b.y)))
            return true;
    }
    return false;
}

/* The index of the area numbered @key on the map, or -1. */
static inline int ucr_test_area_by_key(const ucr_node *n, int key)
{
    for (guint i = 0; i < n->areas->len; i++)
        if (AREA(n, i)->key == key)
            return (int)i;
    return -1;
}

/* Is there a way from area @a to area @b along passages, through junctions
 * only (a corridor joined later at a junction still leads where it led)?
 * With @a == @b, a passage from the area back to itself. */
static inline bool ucr_test_corridor_joins(const ucr_node *n, int a, int b)
{
    int nv = (int)n->vertices->len;
    bool *seen = g_new0(bool, nv);
    int *stack = g_new(int, nv + 1), top = 0;
    stack[top++] = a;
    seen[a] = true;
    bool found = false;
    while (top && !found) {
        int v = stack[--top];
        for (guint k = 0; k < n->passages->len && !found; k++) {
            const ucr_passage *p = PASSAGE(n, k);
            if (p->a != v && p->b != v)
                continue;
            int w = p->a == v ? p->b : p->a;
            if (w == b) {
                found = true;
                break;
            }
            if (w < (int)n->areas->len && AREA(n, w)->kind == UCR_AREA_JUNCTION && !seen[w]) {
                seen[w] = true;
                stack[top++] = w;
            }
        }
    }
    g_free(seen);
    g_free(stack);
    return found;
}

/* Whether passage @p ends under (or over) the floor of the area it leads
 * to, in its middle: seed 001's "Ladder Up/Down, center of room" (compass).
 * Its last crossing then runs to its last cell, and crosses area b. */
static inline bool ucr_test_ends_in_room(const ucr_node *n, const ucr_passage *p)
{
    if (!p->crossings || !p->crossings->len)
        return false;
    const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, p->crossings->len - 1);
    const ucr_vertex *vb = &g_array_index(n->vertices, ucr_vertex, p->b);
    return cr->last + 1 == (int)p->cells->len && cr->area >= 0 && vb->kind == UCR_VERTEX_AREA &&
           vb->area == cr->area;
}

/* Which element owns each square: area i is i, passage k is 100000 + k.
 * Squares of a passage's crossing stretch stay the crossed element's. */
static inline int *ucr_test_owners(const ucr_node *n, const char *seed)
{
    int *g = g_new(int, n->width * n->height);
    for (int i = 0; i < n->width * n->height; i++)
        g[i] = -1;
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        ck_assert_msg(a->x >= 0 && a->y >= 0 && a->x + a->w <= n->width && a->y + a->h <= n->height,
                      "seed %s node %s: area %d off the map", seed, n->id, a->key);
        for (int y = a->y; y < a->y + a->h; y++)
            for (int x = a->x; x < a->x + a->w; x++) {
                ck_assert_msg(g[y * n->width + x] < 0, "seed %s node %s: areas %d and %d overlap",
                              seed, n->id, a->key, AREA(n, g[y * n->width + x])->key);
                g[y * n->width + x] = (int)i;
            }
    }
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        ck_assert_int_gt(p->cells->len, 0);
        for (guint c = 0; c < p->cells->len; c++) {
            ucr_point pt = g_array_index(p->cells, ucr_point, c);
            ck_assert_msg(pt.x >= 0 && pt.y >= 0 && pt.x < n->width && pt.y < n->height,
                          "seed %s node %s: passage %u off the map", seed, n->id, k);
            if (c > 0) {
                ucr_point q = g_array_index(p->cells, ucr_point, c - 1);
                /* Side by side, or corner to corner (seed 003's diagonal
                 * corridors). */
                ck_assert_msg(abs(q.x - pt.x) <= 1 && abs(q.y - pt.y) <= 1 && (q.x != pt.x || q.y != pt.y),
                              "seed %s node %s: passage %u jumps", seed, n->id, k);
            }
            /* A stretch under or over another element: the square stays
             * that element's (checked below, once every owner is known). */
            if (ucr_test_crossing_at(p, (int)c))
                continue;
            int o = g[pt.y * n->width + pt.x];
            ck_assert_msg(o < 0, "seed %s node %s: passage %u runs through %s at (%d,%d)", seed, n->id, k,
                          o < 100000 ? "an area" : "another passage", pt.x, pt.y);
            g[pt.y * n->width + pt.x] = 100000 + (int)k;
        }
    }
    /* A diagonal step is drawn across half of each square beside it: those
     * squares hold nothing else. */
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (guint c = 1; c < p->cells->len; c++) {
            ucr_point a = g_array_index(p->cells, ucr_point, c - 1), b = g_array_index(p->cells, ucr_point, c);
            if (a.x == b.x || a.y == b.y)
                continue;
            ucr_point side[2] = { { b.x, a.y }, { a.x, b.y } };
            for (int s = 0; s < 2; s++) {
                int o = g[side[s].y * n->width + side[s].x];
                ck_assert_msg(o < 0 || o == 100000 + (int)k,
                              "seed %s node %s: passage %u's diagonal step at (%d,%d) runs across %s", seed, n->id,
                              k, a.x, a.y, o < 100000 ? "an area" : "another passage");
            }
        }
    }
    /* A square may be shared only where the passage that runs under or over
     * records the crossing, and the element it names owns the square. */
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
            ck_assert_msg(cr->first >= 1 && cr->last >= cr->first &&
                              (cr->last + 1 < (int)p->cells->len ||
                               (x + 1 == p->crossings->len && ucr_test_ends_in_room(n, p))),
                          "seed %s node %s: passage %u crosses at its end", seed, n->id, k);
            ck_assert_msg((cr->area >= 0) != (cr->passage >= 0), "seed %s node %s: crossing of what?", seed,
                          n->id);
            ck_assert(cr->passage != (int)k);
            int want = cr->area >= 0 ? cr->area : 100000 + cr->passage;
            for (int c = cr->first; c <= cr->last; c++) {
                ucr_point pt = g_array_index(p->cells, ucr_point, c);
                ck_assert_msg(g[pt.y * n->width + pt.x] == want ||
                                  (g[pt.y * n->width + pt.x] < 0 && cr->passage >= 0 &&
                                   ucr_test_beside_diagonal(PASSAGE(n, cr->passage), pt)),
                              "seed %s node %s: passage %u crosses (%d,%d), which the crossed element does not hold",
                              seed, n->id, k, pt.x, pt.y);
            }
        }
    }
    return g;
}

/* The crossing of passage @p whose stretch holds cell @c, or NULL.  With
 * @margin 1, the squares just before and after the stretch count too. */
static inline const ucr_crossing *ucr_test_crossing_near(const ucr_passage *p, int c, int margin)
{
    for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
        const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
        if (c >= cr->first - margin && c <= cr->last + margin)
            return cr;
    }
    return NULL;
}

static inline int ucr_test_owner_at(const ucr_node *n, const int *g, ucr_point p)
{
    if (p.x < 0 || p.y < 0 || p.x >= n->width || p.y >= n->height)
        return -1;
    return g[p.y * n->width + p.x];
}

static inline bool ucr_test_touches_area(const ucr_area *a, ucr_point p)
{
    if (a->diamond) {
        /* A diamond (seed 003) is entered at its four tips only. */
        int cx = a->x + a->w / 2, cy = a->y + a->h / 2;
        return (p.x == cx && (p.y == a->y - 1 || p.y == a->y + a->h)) ||
               (p.y == cy && (p.x == a->x - 1 || p.x == a->x + a->w));
    }
    bool inx = p.x >= a->x && p.x < a->x + a->w, iny = p.y >= a->y && p.y < a->y + a->h;
    return (inx && (p.y == a->y - 1 || p.y == a->y + a->h)) ||
           (iny && (p.x == a->x - 1 || p.x == a->x + a->w));
}

/* The graph is the geometry: every passage end touches its vertex, and
 * nothing else touches anything it is not joined to. */
static inline void ucr_test_check_node_geometry(const ucr_megadungeon *md, const ucr_node *n, const char *seed)
{
    int *g = ucr_test_owners(n, seed);
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (int end = 0; end < 2; end++) {
            int v = end ? p->b : p->a;
            ck_assert_int_lt(v, n->vertices->len);
            const ucr_vertex *vx = &g_array_index(n->vertices, ucr_vertex, v);
            ucr_point c = g_array_index(p->cells, ucr_point, end ? p->cells->len - 1 : 0);
            if (vx->kind == UCR_VERTEX_AREA && end == 1 && ucr_test_ends_in_room(n, p)) {
                /* Up (or down) in the middle of the room it leads to. */
                const ucr_area *ea = AREA(n, vx->area);
                ck_assert_msg(c.x == ea->x + ea->w / 2 && c.y == ea->y + ea->h / 2,
                              "seed %s node %s: passage %u comes up off the middle of area %d", seed, n->id, k,
                              ea->key);
            } else if (vx->kind == UCR_VERTEX_AREA)
                ck_assert_msg(ucr_test_touches_area(AREA(n, vx->area), c),
                              "seed %s node %s: passage %u does not reach area %d", seed, n->id, k,
                              AREA(n, vx->area)->key);
            else
                ck_assert_msg(vx->at.x == c.x && vx->at.y == c.y, "seed %s node %s: passage %u end moved",
                              seed, n->id, k);
            if (vx->kind == UCR_VERTEX_EXIT)
                ck_assert(c.x == 0 || c.y == 0 || c.x == n->width - 1 || c.y == n->height - 1);
        }
        /* Each square touches only its own passage, or at the ends the
         * areas of its vertices. */
        for (guint ci = 0; ci < p->cells->len; ci++) {
            ucr_point c = g_array_index(p->cells, ucr_point, ci);
            for (int d = 0; d < 4; d++) {
                ucr_point q = { c.x + (d == 1) - (d == 3), c.y + (d == 2) - (d == 0) };
                int o = ucr_test_owner_at(n, g, q);
                if (o < 0 || o == 100000 + (int)k)
                    continue;
                bool ok = false;
                /* Under or over: the stretch and the squares either side of
                 * it meet the crossed element without joining it. */
                /* A square under or over an element touches nothing on
                 * this level. */
                ok = ucr_test_crossing_near(p, (int)ci, 0) != NULL;
                for (guint x = 0; p->crossings && x < p->crossings->len && !ok; x++) {
                    /* (Seed 003: one flight of stairs may pass under two
                     * elements side by side, a crossing each.) */
                    const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
                    ok = (int)ci >= cr->first - 1 && (int)ci <= cr->last + 1 &&
                         o == (cr->area >= 0 ? cr->area : 100000 + cr->passage);
                }
                /* …and the crossed corridor meets them the same way. */
                if (!ok && o >= 100000) {
                    const ucr_passage *op = PASSAGE(n, o - 100000);
                    for (guint x = 0; op->crossings && x < op->crossings->len && !ok; x++) {
                        const ucr_crossing *oc = &g_array_index(op->crossings, ucr_crossing, x);
                        if (oc->passage != (int)k)
                            continue;
                        for (int oi = oc->first - 1; oi <= oc->last + 1 && !ok; oi++) {
                            ucr_point oq = g_array_index(op->cells, ucr_point, oi);
                            ok = oq.x == q.x && oq.y == q.y;
                        }
                    }
                }
                if (!ok && o < 100000) {
                    const ucr_vertex *va = &g_array_index(n->vertices, ucr_vertex, p->a);
                    const ucr_vertex *vb = &g_array_index(n->vertices, ucr_vertex, p->b);
                    ok = (ci == 0 && va->kind == UCR_VERTEX_AREA && va->area == o) ||
                         (ci == p->cells->len - 1 && vb->kind == UCR_VERTEX_AREA && vb->area == o);
                }
                ck_assert_msg(ok, "seed %s node %s: passage %u touches %s at (%d,%d)", seed, n->id, k,
                              o < 100000 ? "an area it does not lead to" : "another passage", c.x, c.y);
            }
        }
        for (guint s = 0; s < p->stairs->len; s++)
            ck_assert_int_lt(g_array_index(p->stairs, ucr_passage_stairs, s).index, p->cells->len);
        if (p->kind == UCR_EDGE_BLOCKED)
            ck_assert_msg(p->rubble >= 0, "seed %s node %s: collapsed passage without rubble", seed, n->id);
        else
            ck_assert_msg(p->rubble < 0, "seed %s node %s: rubble in an open passage", seed, n->id);
    }
    /* Doors sit on an area's wall, in front of their passage's end. */
    for (guint i = 0; i < n->doors->len; i++) {
        const ucr_door *d = &g_array_index(n->doors, ucr_door, i);
        const ucr_area *a = AREA(n, d->area);
        const ucr_passage *p = PASSAGE(n, d->passage);
        ucr_point first = g_array_index(p->cells, ucr_point, 0);
        ucr_point last = g_array_index(p->cells, ucr_point, p->cells->len - 1);
        bool at_end = (first.x == d->cell.x && first.y == d->cell.y && p->a == d->area) ||
                      (last.x == d->cell.x && last.y == d->cell.y && p->b == d->area);
        ck_assert_msg(at_end, "seed %s node %s: door not at its passage's end", seed, n->id);
        ck_assert_msg(ucr_test_touches_area(a, d->cell), "seed %s node %s: door not on a wall of area %d", seed,
                      n->id, a->key);
        ucr_point in = d->cell;
        switch (d->side) {
        case UCR_NORTH: in.y++; break;
        case UCR_SOUTH: in.y--; break;
        case UCR_WEST: in.x++; break;
        default: in.x--; break;
        }
        ck_assert_msg(ucr_test_owner_at(n, g, in) == d->area, "seed %s node %s: door on the wrong wall", seed, n->id);
        ck_assert(p->kind != UCR_EDGE_OPEN);
    }
    g_free(g);
    (void)md;
}

static inline bool ucr_test_kinds_pair(ucr_link_kind a, ucr_link_kind b)
{
    return (a == UCR_LINK_STAIRS_DOWN && b == UCR_LINK_STAIRS_UP) ||
           (a == UCR_LINK_STAIRS_UP && b == UCR_LINK_STAIRS_DOWN) ||
           (a == UCR_LINK_LADDER_DOWN && b == UCR_LINK_LADDER_UP) ||
           (a == UCR_LINK_LADDER_UP && b == UCR_LINK_LADDER_DOWN) ||
           (a == UCR_LINK_TUNNEL && b == UCR_LINK_TUNNEL);
}

static inline void ucr_test_check_links(const ucr_megadungeon *md, const ucr_node *n, const char *seed)
{
    for (guint i = 0; i < n->links->len; i++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, i);
        ck_assert_int_ge(l->area, 0);
        ck_assert_int_lt(l->area, n->areas->len);
        if (l->exit != UCR_EXIT_NONE) {
            ck_assert_int_eq(l->to_node, -1);
            continue;
        }
        ck_assert_int_ge(l->to_node, 0);
        const ucr_node *t = g_ptr_array_index(md->nodes, l->to_node);
        ck_assert_msg(t != n, "seed %s node %s: link to itself", seed, n->id);
        ck_assert_int_lt(l->to_area, t->areas->len);
        bool back = false;
        for (guint k = 0; k < t->links->len; k++) {
            const ucr_link *m = &g_array_index(t->links, ucr_link, k);
            if (m->exit == UCR_EXIT_NONE && m->area == l->to_area && m->to_area == l->area &&
                g_ptr_array_index(md->nodes, m->to_node) == n && ucr_test_kinds_pair(l->kind, m->kind))
                back = true;
        }
        ck_assert_msg(back, "seed %s: link %s-%d → %s-%d (%s) has no counterpart", seed, n->id,
                      AREA(n, l->area)->key, t->id, AREA(t, l->to_area)->key, ucr_link_kind_name(l->kind));
    }
}

static inline void ucr_test_check_megadungeon(const ucr_megadungeon *md, const char *seed)
{
    ck_assert_int_eq(md->nodes->len, md->columns * md->rows);
    const ucr_node *en = g_ptr_array_index(md->nodes, md->entrance_node);
    bool entrance = false;
    for (guint i = 0; i < en->links->len; i++) {
        const ucr_link *l = &g_array_index(en->links, ucr_link, i);
        entrance |= l->kind == UCR_LINK_ENTRANCE && l->area == md->entrance_area;
    }
    ck_assert_msg(entrance, "seed %s: no entrance", seed);
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        ck_assert_int_ge(n->depth, 1);
        ck_assert_msg(n->unplaced == 0, "seed %s node %s: %d rolled features found no room", seed, n->id,
                      n->unplaced);
        /* Keys 1..n, each once. */
        int na = (int)n->areas->len;
        bool *seen = g_new0(bool, na + 1);
        for (int a = 0; a < na; a++) {
            int key = AREA(n, a)->key;
            ck_assert_int_ge(key, 1);
            ck_assert_int_le(key, na);
            ck_assert(!seen[key]);
            seen[key] = true;
        }
        g_free(seen);
        ucr_test_check_node_geometry(md, n, seed);
        ucr_test_check_links(md, n, seed);
        ck_assert_int_eq(n->stats.loops, n->stats.edges - n->stats.vertices + n->stats.components);
    }
    /* Superstructure: a tunnel exists exactly where one of its ends goes
     * through (the documented reading of the two ends). */
    for (int i = 0; i < md->columns * md->rows; i++)
        for (int d = UCR_EAST; d <= UCR_SOUTH; d++) {
            int c = i % md->columns, r = i / md->columns;
            int j = d == UCR_EAST ? (c + 1 < md->columns ? i + 1 : -1) : (r + 1 < md->rows ? i + md->columns : -1);
            if (j < 0)
                continue;
            bool open = md->halves[i * 4 + d].through || md->halves[j * 4 + (d + 2) % 4].through;
            bool listed = false;
            for (guint t = 0; t < md->tunnels->len; t++) {
                const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
                listed |= tu->from == i && tu->to == j;
            }
            ck_assert_msg(open == listed, "seed %s: tunnel %d-%d listed %d, open %d", seed, i, j, listed, open);
        }
}


/* Seed 000's corridors are as long as the dice said: for every record
 * "room R exit E …→ new room N; corridor d10=F: X ft[, then d6=T: …, 30 ft
 * more]" a passage from area R to area N has X (+30) ft of squares, and
 * "the door opens straight into it" is one square (the doorway).  A record
 * that says the corridor had no room ("(no room for it: …)") is checked
 * against the length it gives instead, or skipped when it was routed.
 * Adds to *@checked the corridors seen and to @mismatches (one line each)
 * those of another length: a few are expected, where a later corridor from
 * another exit joins the same two rooms and the rolled one was cut by a
 * junction; a corridor drawn longer or shorter than rolled makes them all. */
static inline void ucr_test_corridor_lengths(const ucr_node *n, const char *seed, int *checked,
                                             GString *mismatches)
{
    GRegex *re = g_regex_new("^room (\\d+) exit \\d+ .*→ new room (\\d+); corridor d\\d+=\\d+: "
                             "(?:(\\d+) ft(, then d\\d+=\\d+: [^,]*, 30 ft more)?|(the door opens straight into it))"
                             "(?: \\(smaller, to fit\\))?(?: \\(no room for it: (?:(\\d+) ft straight|(routed))\\))?",
                             0, 0, NULL);
    for (guint r = 0; n->rolls && r < n->rolls->len; r++) {
        GMatchInfo *mi;
        if (!g_regex_match(re, g_ptr_array_index(n->rolls, r), 0, &mi)) {
            g_match_info_free(mi);
            continue;
        }
        char *g[8];
        for (int i = 0; i < 8; i++)
            g[i] = g_match_info_fetch(mi, i);
        g_match_info_free(mi);
        int from = ucr_test_area_by_key(n, atoi(g[1])), to = ucr_test_area_by_key(n, atoi(g[2]));
        int want = *g[5] ? 1 : atoi(g[3]) / 10 + (*g[4] ? 3 : 0);
        if (*g[6])
            want = atoi(g[6]) / 10;
        bool routed = *g[7] != '\0';
        int best = -1;
        for (guint k = 0; !routed && from >= 0 && to >= 0 && k < n->passages->len; k++) {
            const ucr_passage *p = PASSAGE(n, k);
            if ((p->a == from && p->b == to) || (p->a == to && p->b == from))
                if (best != want)
                    best = (int)p->cells->len;
        }
        if (best >= 0) {
            (*checked)++;
            if (best != want)
                g_string_append_printf(mismatches, "seed %s node %s: '%s': %d squares, not %d\n", seed,
                                       n->id, g[0], best, want);
        }
        for (int i = 0; i < 8; i++)
            g_free(g[i]);
    }
    g_regex_unref(re);
}

#endif
