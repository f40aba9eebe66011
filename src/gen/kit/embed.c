/* undercroft — the two ways a node method embeds its node (gen/kit/embed.h). */
#include "gen/kit/embed.h"

#include "core/error.h"
#include "gen/kit/attach.h"

#include <stdlib.h>

static ucr_node *retry(const char *id, int col, int row, const char *method, int width, int height, int attempts,
                       const ucr_tables *tables, const ucr_node_request *req, ucr_prng *rng, ucr_embed_draw draw,
                       void *data, bool joined, GError **error)
{
    ucr_node *node = ucr_node_new(id, col, row);
    node->method = method;
    node->width = width;
    node->height = height;
    for (int attempt = 0; attempt < attempts; attempt++) {
        ucr_pc *pc = ucr_pc_new(node, rng, tables);
        bool ok = draw(pc, data) && node->unplaced == 0 && ucr_pc_attach(pc, req) &&
                  (!joined || ucr_embed_joined(node));
        ucr_pc_free(pc);
        if (ok)
            return node;
        ucr_pc_node_reset(node);
    }
    g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "node %s: no layout in %d attempts (please report the seed)",
                id, attempts);
    ucr_node_free(node);
    return NULL;
}

ucr_node *ucr_embed_retry(const char *id, int col, int row, const char *method, int width, int height,
                          int attempts, const ucr_tables *tables, const ucr_node_request *req,
                          ucr_prng *rng, ucr_embed_draw draw, void *data, GError **error)
{
    return retry(id, col, row, method, width, height, attempts, tables, req, rng, draw, data, false, error);
}

ucr_node *ucr_embed_retry_joined(const char *id, int col, int row, const char *method, int width, int height,
                                 int attempts, const ucr_tables *tables, const ucr_node_request *req,
                                 ucr_prng *rng, ucr_embed_draw draw, void *data, GError **error)
{
    return retry(id, col, row, method, width, height, attempts, tables, req, rng, draw, data, true, error);
}

static int root_find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

bool ucr_embed_joined(const ucr_node *node)
{
    int nv = (int)node->vertices->len, na = (int)node->areas->len;
    int *parent = g_new(int, nv + 1);
    for (int i = 0; i < nv; i++)
        parent[i] = i;
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        parent[root_find(parent, p->a)] = root_find(parent, p->b);
    }
    bool ok = true;
    for (int a = 1; a < na && ok; a++)
        ok = root_find(parent, a) == root_find(parent, 0);
    g_free(parent);
    return ok;
}

ucr_node *ucr_embed_take(ucr_node **slot, const char *id, int col, int row, const char *method,
                         GError **error)
{
    ucr_node *node = *slot;
    if (!node) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "node %s: %s plan embedded twice", id, method);
        return NULL;
    }
    *slot = NULL;
    g_free(node->id);
    node->id = g_strdup(id);
    node->col = col;
    node->row = row;
    return node;
}

void ucr_embed_joins_drawn(ucr_node *node, const ucr_node_request *req, const int join_passage[4],
                           const int join_area[4])
{
    for (int d = 0; d < 4; d++) {
        const ucr_join_request *j = &req->joins[d];
        if (!j->used)
            continue;
        int pk = join_passage[d], ai = join_area[d];
        if (pk < 0) {
            node->unplaced++;
            continue;
        }
        ucr_passage *p = &g_array_index(node->passages, ucr_passage, pk);
        if (ucr_half_has(&j->half, UCR_STEP_BLOCKED)) {
            p->kind = UCR_EDGE_BLOCKED;
            p->rubble = (int)p->cells->len / 2;
        }
        ucr_attach_tunnel_door(node, &j->half, ai, pk);
        if (j->link >= 0)
            req->link_area[j->link] = ai;
    }
}

void ucr_embed_arrivals(ucr_node *node, const ucr_node_request *req, ucr_prng *rng, ucr_embed_landing first,
                        ucr_embed_landing fallback, void *data)
{
    ucr_canvas *cv = ucr_attach_canvas(node);
    ucr_embed_arrivals_on(node, cv, req, rng, first, fallback, data);
    ucr_canvas_free(cv);
}

void ucr_embed_arrivals_on(ucr_node *node, ucr_canvas *cv, const ucr_node_request *req, ucr_prng *rng,
                           ucr_embed_landing first, ucr_embed_landing fallback, void *data)
{
    for (int k = 0; k < req->n_arrivals; k++) {
        const ucr_arrival *arr = &req->arrivals[k];
        int li = first ? first(node, cv, arr, data) : -1;
        bool plain = false;
        if (li < 0 && arr->hint)
            li = ucr_embed_hinted(node, cv, arr, rng);
        if (li < 0) {
            /* Not where the throw said: the key says so. */
            li = ucr_attach_landing(node, cv, arr->stair, rng);
            plain = true;
        }
        if (li < 0 && fallback)
            li = fallback(node, cv, arr, data);
        if (li < 0) {
            node->unplaced++;
            continue;
        }
        if (plain)
            ucr_embed_hint_unmet(node, li, arr, "nothing of that kind had room");
        req->link_area[arr->link] = li;
    }
}

/* How far the point @x2, @y2 (in half squares: 2x+1 is the middle of
 * column x) lies from map side @side of @node (-1: from the map's middle). */
static int side_distance(const ucr_node *node, int x2, int y2, int side)
{
    switch (side) {
    case UCR_NORTH: return y2;
    case UCR_SOUTH: return 2 * node->height - y2;
    case UCR_WEST: return x2;
    case UCR_EAST: return 2 * node->width - x2;
    default: return abs(x2 - node->width) + abs(y2 - node->height);
    }
}

static int area_side_distance(const ucr_node *node, const ucr_area *a, int side)
{
    return side_distance(node, 2 * a->x + a->w, 2 * a->y + a->h, side);
}

/* ucr_embed_landing_dead_end(), on a dead end whose passage leaves an area
 * i with @from[i] (@from NULL: any). */
static int landing_dead_end(ucr_node *node, ucr_canvas *cv, ucr_stair stair, int side, const bool *from)
{
    int best = -1, best_dist = 0;
    ucr_area best_land = { 0 };
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        ucr_point e;
        int dx, dy;
        if (from && (p->a >= (int)node->areas->len || !from[p->a]))
            continue;
        if (!ucr_passage_dead_end(node, p, &e, &dx, &dy))
            continue;
        ucr_point l1 = { e.x + dx, e.y + dy }, l2 = { e.x + 2 * dx, e.y + 2 * dy };
        int x = MIN(l1.x, l2.x), y = MIN(l1.y, l2.y), w = abs(dx) + 1, h = abs(dy) + 1;
        bool ok = x >= 1 && y >= 1 && x + w < node->width && y + h < node->height;
        for (int yy = y - 1; ok && yy <= y + h; yy++)
            for (int xx = x - 1; ok && xx <= x + w; xx++) {
                ucr_point q = { xx, yy };
                ok = ucr_canvas_owner(cv, q) == UCR_CANVAS_EMPTY || ucr_point_eq(q, e);
            }
        if (!ok)
            continue;
        ucr_area land = ucr_area_make(UCR_AREA_STAIRS, x, y, w, h);
        land.stair = stair;
        int dist = side == UCR_EMBED_ANYWHERE ? 0 : area_side_distance(node, &land, side);
        if (best < 0 || dist < best_dist) {
            best = (int)k;
            best_dist = dist;
            best_land = land;
        }
        if (side == UCR_EMBED_ANYWHERE)
            break;
    }
    if (best < 0)
        return -1;
    int dead = g_array_index(node->passages, ucr_passage, best).b;
    int li = ucr_node_add_area(node, cv, &best_land);
    dead++;   /* the new area's vertex came before it */
    g_array_index(node->passages, ucr_passage, best).b = li;
    ucr_node_remove_vertex(node, dead);
    return li;
}

int ucr_embed_landing_dead_end(ucr_node *node, ucr_canvas *cv, ucr_stair stair, int side)
{
    return landing_dead_end(node, cv, stair, side, NULL);
}

const char *ucr_hint_what_name(ucr_hint_what what)
{
    switch (what) {
    case UCR_HINT_DEAD_END: return "at the end of a dead end";
    case UCR_HINT_CORRIDOR: return "at the end of a corridor";
    case UCR_HINT_ROOM: return "in the middle of a room";
    case UCR_HINT_LONG_ROOM: return "in the middle of an elongated room";
    }
    return "?";
}

/* A free room for stairs arriving in the middle of it (seed 003: "the room
 * has a trap door or staircase"), nearest map side @side; for a 6, an
 * elongated one first.  -1: none. */
static int hinted_room(const ucr_node *node, int side, bool elongated, const bool *from)
{
    int best = -1, best_score = 0;
    for (guint i = 0; i < node->areas->len; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        if ((from && !from[i]) || a->kind != UCR_AREA_ROOM || a->stair != UCR_STAIR_NONE || a->link >= 0)
            continue;
        int score = area_side_distance(node, a, side);
        if (elongated && (a->w == a->h || a->diamond))
            score += 4 * (node->width + node->height);   /* after every elongated room */
        if (best < 0 || score < best_score) {
            best = (int)i;
            best_score = score;
        }
    }
    return best;
}

/* A landing at the end of a new corridor of 2 to @max_len squares off an
 * area on side @side of the map (its middle nearer that side than the
 * opposite one; -1: in the middle half of the map), of those with @from[i]
 * (@from NULL: any).  -1: none has room. */
static int corridor_landing(ucr_node *node, ucr_canvas *cv, ucr_stair stair, int side, int max_len,
                            const bool *from, ucr_prng *rng)
{
    int na = (int)node->areas->len, li = -1;
    bool *near_side = g_new0(bool, na + 1), any = false;
    for (int i = 0; i < na; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        int d = area_side_distance(node, a, side);
        near_side[i] = (!from || from[i]) && (side < 0 ? d <= (node->width + node->height) / 2
                                                       : d < area_side_distance(node, a, (side + 2) % 4));
        any |= near_side[i];
    }
    if (any)
        li = ucr_attach_landing_within(node, cv, stair, max_len, near_side, rng);
    g_free(near_side);
    return li;
}

/* "the stairs from below come up here" (@also: "here too"), and the
 * hint's side, "towards the north" or "near the middle of the map": how
 * the key tells of @arrival, its throw honoured or not. */
static char *arrival_here(const ucr_arrival *arrival, bool also)
{
    bool ladder = ucr_stair_is_ladder(arrival->stair), down = ucr_stair_is_down(arrival->stair);
    return g_strdup_printf("the %s from %s come%s %s here%s", ladder ? "ladder" : "stairs", down ? "below" : "above",
                           ladder ? "s" : "", down ? "up" : "down", also ? " too" : "");
}

static char *hint_where(const ucr_arrival_hint *h)
{
    return h->side < 0 ? g_strdup("near the middle of the map")
                       : g_strdup_printf("towards the %s", ucr_dir_name((ucr_dir)h->side));
}

/* Appends to area @li's record that @arrival's stairs come here, @place
 * (@aside after it), as their hint's throw said; @also: other stairs are
 * there already. */
static void hint_record(ucr_node *node, int li, const ucr_arrival *arrival, const char *place, const char *aside,
                        bool also)
{
    const ucr_arrival_hint *h = arrival->hint;
    char *here = arrival_here(arrival, also), *where = hint_where(h);
    char *text = g_strdup_printf("%s, %s%s %s, as the die thrown for the next floor said (%s)", here, place, aside,
                                 where, h->rolled ? h->rolled : "");
    ucr_area_record_append(&g_array_index(node->areas, ucr_area, li), text);
    g_free(text);
    g_free(where);
    g_free(here);
}

int ucr_embed_hinted(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arrival, ucr_prng *rng)
{
    return ucr_embed_hinted_within(node, cv, arrival, NULL, rng);
}

int ucr_embed_hinted_within(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arrival, const bool *from,
                            ucr_prng *rng)
{
    const ucr_arrival_hint *h = arrival->hint;
    if (!h)
        return -1;
    int li = -1;
    bool near = true;
    const char *place = ucr_hint_what_name(h->what);
    switch (h->what) {
    case UCR_HINT_DEAD_END:
        li = landing_dead_end(node, cv, arrival->stair, h->side, from);
        if (li < 0) {
            /* No dead end with rock beyond: the stairs end a "20 foot
             * corridor" of their own. */
            li = corridor_landing(node, cv, arrival->stair, h->side, 2, from, rng);
            place = "at the end of a 20-ft corridor";
        }
        break;
    case UCR_HINT_CORRIDOR:
        li = corridor_landing(node, cv, arrival->stair, h->side, 6, from, rng);
        break;
    case UCR_HINT_ROOM:
    case UCR_HINT_LONG_ROOM:
        li = hinted_room(node, h->side, h->what == UCR_HINT_LONG_ROOM, from);
        if (li >= 0) {
            ucr_area *a = &g_array_index(node->areas, ucr_area, li);
            a->stair = arrival->stair;
            near = h->what == UCR_HINT_ROOM || (a->w != a->h && !a->diamond);
        }
        break;
    }
    if (li < 0)
        return -1;
    hint_record(node, li, arrival, near ? place : "in the middle of a room", near ? "" : " (no elongated room free)",
                false);
    return li;
}

/* The one passage that ends at area @ai of @node, coming to it (its end b)
 * from an area; NULL when another passage touches @ai too, or none comes. */
static const ucr_passage *only_passage_to(const ucr_node *node, int ai)
{
    const ucr_passage *only = NULL;
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if (p->a != ai && p->b != ai)
            continue;
        if (only || p->b != ai || p->a >= (int)node->areas->len)
            return NULL;
        only = p;
    }
    return only;
}

/* Whether area @a of @node lies on map side @side's half (the middle half
 * of the map for -1), as corridor_landing reads "off an area on that side". */
static bool on_side(const ucr_node *node, const ucr_area *a, int side)
{
    int d = area_side_distance(node, a, side);
    return side < 0 ? d <= (node->width + node->height) / 2 : d < area_side_distance(node, a, (side + 2) % 4);
}

int ucr_embed_hinted_shared(ucr_node *node, const ucr_arrival *arrival, const int *held, int cap,
                            const bool *from)
{
    const ucr_arrival_hint *h = arrival->hint;
    if (!h)
        return -1;
    int best = -1, best_score = 0;
    bool best_near = true;
    for (guint i = 0; i < node->areas->len; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        if (!held[i] || held[i] >= cap || (from && !from[i]))
            continue;
        int score = area_side_distance(node, a, h->side);
        bool near = true;
        const ucr_passage *p = a->kind == UCR_AREA_STAIRS ? only_passage_to(node, (int)i) : NULL;
        switch (h->what) {
        case UCR_HINT_DEAD_END:
            /* Stairs at the end of a passage that leads nowhere else. */
            if (!p)
                continue;
            break;
        case UCR_HINT_CORRIDOR:
            /* Stairs at the end of a corridor off an area on that side (as
             * a new one would be, corridor_landing); a longer one than the
             * 60 ft a new one runs at most (seed 003's own stairs end 20 ft
             * past a 60-ft corridor) ends in its last 60 ft all the same. */
            if (!p || p->cells->len < 2 || !on_side(node, &g_array_index(node->areas, ucr_area, p->a), h->side))
                continue;
            break;
        case UCR_HINT_ROOM:
        case UCR_HINT_LONG_ROOM:
            if (a->kind != UCR_AREA_ROOM)
                continue;
            near = h->what == UCR_HINT_ROOM || (a->w != a->h && !a->diamond);
            if (!near)
                score += 4 * (node->width + node->height);   /* after every elongated room */
            break;
        }
        if (best < 0 || score < best_score) {
            best = (int)i;
            best_score = score;
            best_near = near;
        }
    }
    if (best < 0)
        return -1;
    hint_record(node, best, arrival, best_near ? ucr_hint_what_name(h->what) : "in the middle of a room",
                best_near ? "" : " (no elongated room holds stairs)", true);
    return best;
}

void ucr_embed_hint_unmet(ucr_node *node, int li, const ucr_arrival *arrival, const char *why)
{
    const ucr_arrival_hint *h = arrival->hint;
    if (!h)
        return;
    char *here = arrival_here(arrival, false), *where = hint_where(h);
    char *text = g_strdup_printf("%s, though the die thrown for the next floor said %s %s (%s): %s", here,
                                 ucr_hint_what_name(h->what), where, h->rolled ? h->rolled : "", why);
    ucr_area_record_append(&g_array_index(node->areas, ucr_area, li), text);
    g_free(text);
    g_free(where);
    g_free(here);
}
