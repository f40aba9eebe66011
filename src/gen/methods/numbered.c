#include "gen/methods/numbered.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gen/kit/embed.h"
#include "gen/kit/preconnect.h"
#include "model/honour_rule.h"

/* MAP_W x MAP_H: the standard map; the node drawn at the requested size
 * (ucr_node_size_extent) reads its own from the canvas. */
enum { MAP_W = 48, MAP_H = 44, ATTEMPTS = 8, MAX_DISTANT = 6, CONE_ROUTES = 6 };

/* Fewer rooms than this is no sublevel (issue 22): the GM adds exits. */
enum { MIN_ROOMS = 4 };

bool ucr_numbered_destination(const ucr_table *table, int current, int total, int *dest)
{
    const ucr_table_row *row = ucr_table_pick(table, total, NULL);
    *dest = 0;
    if (strcmp(row->tag, "distant") == 0)
        return false;             /* 0: to distant room, same direction */
    if (current <= 5) {
        /* "For the first five rooms of a map, use the results as the raw
         * room number." */
        *dest = ucr_pc_face(table, total);
    } else {
        /* "subtract 5 from the current room number, then add the result":
         * the file's offsets, −4…−1, 0 (back), +1…+4. */
        *dest = current + atoi(row->text);
    }
    if (*dest < 1)
        *dest = 1;                /* only a GM's own table can go below room 1 */
    return true;
}

typedef struct {
    const ucr_tables *tables;
    int loop_every;       /* squares between the checks of a 5's corridor (seed 000) */
} plan;

typedef struct {
    int room;        /* number of the room the exit leaves */
    int exit;        /* 1.. within the room */
    ucr_dir side;
    int hint;
    int total;       /* its d10, rolled when the exit was pencilled in */
    bool done;       /* drawn already (a loop back, drawn with its room) */
} exit_req;

typedef struct {
    ucr_pc *pc;
    const ucr_tables *tables;
    GArray *rooms;        /* int: room number n is area rooms[n-1] */
    GPtrArray *notes;     /* GString* per room number: what was rolled, for the key */
    GArray *postponed;    /* exit_req */
    GArray *exits;        /* int: the exits room number n has, at n-1 */
    GPtrArray *pencilled; /* GArray of exit_req: room number n's exits, at n-1 */
    int budget;
    int loop_every;       /* plan's loop_every */
} drawer;

/* How join_its_corridor() and join_its_network() may join: @across, a way
 * that may cross what lies between (seed 000's crossing table), else one
 * that crosses nothing, no longer than @cap squares (0: their own bounds),
 * sought because of @why (for the record). */
typedef struct {
    bool across;
    int cap;
    const char *why;
} join_rule;

static const join_rule JOIN_ACROSS = { true, 0, NULL };

/* The longest join @rule allows where its own bound is @bound squares. */
static int join_bound(const join_rule *rule, int bound)
{
    return rule->cap && bound > rule->cap ? rule->cap : bound;
}

static int room_area(const drawer *dr, int number)
{
    return g_array_index(dr->rooms, int, number - 1);
}

static int drawn(const drawer *dr)
{
    return (int)dr->rooms->len;
}

static const ucr_area *area_at(const drawer *dr, int idx)
{
    return &g_array_index(dr->pc->node->areas, ucr_area, idx);
}

/* A new room with the next number; its notes start with @rolled. */
static ucr_pc_pending room_pending(const drawer *dr, int x, int y, int w, int h, const char *rolled)
{
    ucr_pc_pending p = { UCR_AREA_ROOM, x, y, w, h, true, g_strdup(rolled) };
    (void)dr;
    return p;
}

static void room_register(drawer *dr, int area, const char *rolled)
{
    int none = 0;
    g_array_append_val(dr->rooms, area);
    g_array_append_val(dr->exits, none);
    g_ptr_array_add(dr->notes, g_string_new(rolled));
}

/* Candidate sizes: as rolled, turned, then smaller down to 2 × 2. */
static int sizes(int w, int h, int out[][2])
{
    int n = 0;
    for (int s = 0; s < 6; s++) {
        int a = MAX(w - s, 2), b = MAX(h - s, 2);
        if (n && out[n - 1][0] == a && out[n - 1][1] == b)
            break;
        out[n][0] = a; out[n][1] = b; n++;
        if (a != b) {
            out[n][0] = b; out[n][1] = a; n++;
        }
        if (a == 2 && b == 2)
            break;
    }
    return n;
}

/* The rectangle of a w × h room whose near wall faces square @e from
 * direction @d, shifted @lat squares sideways. */
static void room_beyond(ucr_point e, ucr_dir d, int w, int h, int lat, int *x, int *y)
{
    switch (d) {
    case UCR_NORTH: *x = e.x - (w - 1) / 2 + lat; *y = e.y - h; break;
    case UCR_SOUTH: *x = e.x - (w - 1) / 2 + lat; *y = e.y + 1; break;
    case UCR_WEST: *x = e.x - w; *y = e.y - (h - 1) / 2 + lat; break;
    default: *x = e.x + 1; *y = e.y - (h - 1) / 2 + lat; break;
    }
}

static bool path_ok(const ucr_pc *pc, const GArray *cells, int from_area)
{
    for (guint i = 0; i < cells->len; i++) {
        ucr_point c = g_array_index(cells, ucr_point, i);
        /* The map's outermost squares are for the tunnels that leave it. */
        if (c.x <= 0 || c.y <= 0 || c.x >= pc->cv->w - 1 || c.y >= pc->cv->h - 1)
            return false;
        if (!ucr_canvas_square_ok(pc->cv, c, i == 0 ? from_area : UCR_CANVAS_EMPTY))
            return false;
    }
    return true;
}

/* Room rectangle free with @margin squares round it, and touched by the
 * corridor's last square only. */
static bool room_fits(const ucr_pc *pc, const GArray *cells, int x, int y, int w, int h, ucr_point e,
                      ucr_dir d, int margin)
{
    if (!ucr_canvas_clear(pc->cv, x, y, w, h, margin))
        return false;
    ucr_point in = { e.x + UCR_DIR_DX[d], e.y + UCR_DIR_DY[d] };
    if (!(in.x >= x && in.x < x + w && in.y >= y && in.y < y + h))
        return false;
    for (guint i = 0; i + 1 < cells->len; i++) {
        ucr_point c = g_array_index(cells, ucr_point, i);
        if (c.x >= x - 1 && c.x <= x + w && c.y >= y - 1 && c.y <= y + h)
            return false;
    }
    return true;
}

/* A corridor's legs: @n stretches, leg i running @len[i] squares after
 * turning @turn[i] (-1 left, 1 right, 0 on) from the heading before it. */
typedef struct {
    int n;
    int len[4], turn[4];
} legs;

/* The squares from the mouth along @lg (the mouth is the first leg's first
 * square); @heading gets the last leg's direction. */
static GArray *legs_cells(ucr_point m, ucr_dir d, const legs *lg, ucr_dir *heading)
{
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    ucr_point p = m;
    g_array_append_val(cells, p);
    ucr_dir h = d;
    for (int i = 0; i < lg->n; i++) {
        if (lg->turn[i])
            h = (ucr_dir)((h + (lg->turn[i] < 0 ? 3 : 1)) % 4);
        for (int k = i == 0 ? 1 : 0; k < lg->len[i]; k++) {
            p = ucr_point_step(p, h);
            g_array_append_val(cells, p);
        }
    }
    *heading = h;
    return cells;
}

/* The corridor seed 000 rolls for a new room: @straight squares from the
 * mouth, then @after more after turning @turn (0: none). */
static legs corridor_legs(int straight, int turn, int after)
{
    legs lg = { 1, { straight }, { 0 } };
    if (turn) {
        lg.len[1] = after;
        lg.turn[1] = turn;
        lg.n = 2;
    }
    return lg;
}

static int new_room_legs(drawer *dr, int from_area, ucr_point m, ucr_dir d, const legs *lg, int w, int h,
                         const char *rolled);

/* Tries to put room (w × h) at the end of the rolled corridor; on success
 * draws both and returns the new room's area. */
static int new_room_shaped(drawer *dr, int from_area, ucr_point m, ucr_dir d, int straight, int turn,
                           int after, int w, int h, const char *rolled)
{
    legs lg = corridor_legs(straight, turn, after);
    return new_room_legs(dr, from_area, m, d, &lg, w, h, rolled);
}

/* new_room_shaped() for a corridor of any legs. */
static int new_room_legs(drawer *dr, int from_area, ucr_point m, ucr_dir d, const legs *lg, int w, int h,
                         const char *rolled)
{
    ucr_pc *pc = dr->pc;
    ucr_dir heading;
    GArray *cells = legs_cells(m, d, lg, &heading);
    if (!path_ok(pc, cells, from_area)) {
        g_array_free(cells, TRUE);
        return -1;
    }
    ucr_point e = g_array_index(cells, ucr_point, cells->len - 1);
    int sz[16][2];
    int ns = sizes(w, h, sz);
    /* Each size with two squares of rock round it if it can (a wall with a
     * corridor just beyond it can take no door), else one. */
    for (int k = 0; k < ns; k++)
        for (int i = 0; i < 4 * sz[k][heading == UCR_NORTH || heading == UCR_SOUTH ? 0 : 1]; i++) {
            int span = 2 * sz[k][heading == UCR_NORTH || heading == UCR_SOUTH ? 0 : 1], li = i % span;
            int lat = (li % 2) ? (li + 1) / 2 : -(li / 2);
            int x, y;
            room_beyond(e, heading, sz[k][0], sz[k][1], lat, &x, &y);
            if (!room_fits(pc, cells, x, y, sz[k][0], sz[k][1], e, heading, i < span ? 2 : 1))
                continue;
            ucr_pc_path path = { cells, g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump)) };
            ucr_pc_target t = { UCR_CANVAS_TENTATIVE, x, y, sz[k][0], sz[k][1], false, { 0, 0 } };
            ucr_pc_pending pend = room_pending(dr, x, y, sz[k][0], sz[k][1], rolled);
            ucr_pc_end end = ucr_pc_connect(pc, &path, from_area, UCR_DOOR_PLAIN, &t, &pend, NULL);
            return end.area;
        }
    g_array_free(cells, TRUE);
    return -1;
}

/* A new room anywhere in the door's general direction, with a routed
 * corridor (which may cross things: the crossing table is rolled). */
static ucr_pc_end new_room_cone(drawer *dr, int from_area, ucr_point m, ucr_dir d, int w, int h,
                                const char *rolled, GString *rec, bool *found)
{
    ucr_pc *pc = dr->pc;
    int sz[16][2];
    int ns = sizes(w, h, sz), routes = 0;
    ucr_pc_end none = { -1, -1, -1, false };
    *found = false;
    for (int dist = 2; dist <= 14 && routes < CONE_ROUTES; dist++)
        for (int i = 0; i <= 16 && routes < CONE_ROUTES; i++) {
            int lat = (i % 2) ? (i + 1) / 2 : -(i / 2);
            ucr_point e = { m.x + UCR_DIR_DX[d] * dist, m.y + UCR_DIR_DY[d] * dist };
            for (int k = 0; k < ns && routes < CONE_ROUTES; k++) {
                int x, y;
                room_beyond(e, d, sz[k][0], sz[k][1], lat, &x, &y);
                if (!ucr_canvas_clear(pc->cv, x, y, sz[k][0], sz[k][1], 1))
                    continue;
                ucr_canvas_fill(pc->cv, x, y, sz[k][0], sz[k][1], UCR_CANVAS_TENTATIVE);
                ucr_pc_target t = { UCR_CANVAS_TENTATIVE, x, y, sz[k][0], sz[k][1], false, { 0, 0 } };
                ucr_pc_path path;
                routes++;
                if (!ucr_pc_route(pc, m, from_area, &t, true, &path)) {
                    ucr_canvas_fill(pc->cv, x, y, sz[k][0], sz[k][1], UCR_CANVAS_EMPTY);
                    continue;
                }
                ucr_pc_pending pend = room_pending(dr, x, y, sz[k][0], sz[k][1], rolled);
                *found = true;
                return ucr_pc_connect(pc, &path, from_area, UCR_DOOR_PLAIN, &t, &pend, rec);
            }
        }
    return none;
}

/* The nearest room wholly beyond the door, within 45° of its direction. */
static int distant_room(const drawer *dr, int own, ucr_point m, ucr_dir d)
{
    int best = -1, best_along = 0;
    for (int n = 1; n <= drawn(dr); n++) {
        if (n == own)
            continue;
        const ucr_area *a = area_at(dr, room_area(dr, n));
        int along, lat;
        int lo, hi;
        switch (d) {
        case UCR_NORTH: along = m.y - (a->y + a->h - 1); lo = a->x; hi = a->x + a->w - 1; lat = m.x; break;
        case UCR_SOUTH: along = a->y - m.y; lo = a->x; hi = a->x + a->w - 1; lat = m.x; break;
        case UCR_WEST: along = m.x - (a->x + a->w - 1); lo = a->y; hi = a->y + a->h - 1; lat = m.y; break;
        default: along = a->x - m.x; lo = a->y; hi = a->y + a->h - 1; lat = m.y; break;
        }
        int gap = lat < lo ? lo - lat : lat > hi ? lat - hi : 0;
        if (along <= 0 || gap > along)
            continue;
        if (best < 0 || along < best_along) {
            best = n;
            best_along = along;
        }
    }
    return best;
}

/* How far out the room's own corridor may be joined (160 ft), and how much
 * longer than the straight distance the way there may be. */
enum { JOIN_FAR = 16, JOIN_DETOUR = 24 };

/* Routes a join that may not cross tries (join_without_crossing(): the way
 * that crosses is there already, so a few near the door only; over 1,000
 * seeds 3 reach 87.4% of the rooms drawn for 9% more instructions, 6 87.6%
 * for 13%, all of them 88.0% for 20%). */
enum { UNCROSSED_TRIES = 3 };

/* When no corridor reaches room @to_area's walls (they are full, or walled
 * in), join one of the corridors that leads to it, at a new junction: the
 * squares nearest its door first, up to JOIN_FAR out.  That reaches the
 * room: the corridor joined runs unbranched (a passage ends at every
 * junction) to the room's door or doorway, and seed 000 draws a corridor
 * "to connect to the door in Room 1".  With @rule not across, a way that
 * crosses nothing only: the way to its walls crosses something (seed 000
 * crosses where a corridor "has to"). */
static ucr_pc_end join_its_corridor(drawer *dr, int from_area, ucr_point m, int to_area, const join_rule *rule,
                                    GString *rec, bool *ok)
{
    bool across = rule->across;
    ucr_pc *pc = dr->pc;
    ucr_node *node = pc->node;
    ucr_pc_end none = { -1, -1, -1, false };
    *ok = false;
    int tries = across ? INT_MAX : UNCROSSED_TRIES;
    for (int j = 1; j <= JOIN_FAR && tries > 0; j++)
        for (guint k = 0; k < node->passages->len && tries > 0; k++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            if ((p->a != to_area && p->b != to_area) || p->a == from_area || p->b == from_area ||
                p->kind == UCR_EDGE_BLOCKED || j + 1 >= (int)p->cells->len)
                continue;
            int jj = p->a == to_area ? j : (int)p->cells->len - 1 - j;
            if (!ucr_pc_split_ok(pc, (int)k, jj))
                continue;
            ucr_point s = g_array_index(p->cells, ucr_point, jj);
            ucr_pc_target t = { UCR_ATTACH_PASSAGE + (int)k, s.x, s.y, 1, 1, false, { 0, 0 } };
            ucr_pc_path path;
            /* A fallback: no winding way round the map (which a search that
             * finds none would walk whole). */
            pc->max_cells = join_bound(rule, abs(s.x - m.x) + abs(s.y - m.y) + JOIN_DETOUR);
            tries--;
            bool routed = ucr_pc_route(pc, m, from_area, &t, across, &path);
            pc->max_cells = 0;
            if (!routed)
                continue;
            int jn = ucr_pc_split(pc, (int)k, jj, false, g_strdup("where a corridor joins another"));
            if (jn < 0) {
                ucr_pc_path_clear(&path);
                continue;
            }
            const ucr_area *a = &g_array_index(node->areas, ucr_area, jn);
            ucr_pc_target tj = { jn, a->x, a->y, 1, 1, false, { 0, 0 } };
            g_string_append_printf(rec, " (%s: reaches its door by the corridor there, joined %d ft out)",
                                   across ? "no way to its walls" : rule->why, (j + 1) * 10);
            *ok = true;
            return ucr_pc_connect(pc, &path, from_area, UCR_DOOR_PLAIN, &tj, NULL, rec);
        }
    return none;
}

static int wall_mouths(const ucr_pc *pc, int area, ucr_dir side, int hint, ucr_point *out, int max);
static ucr_pc_end join_its_network(drawer *dr, int from_area, ucr_point m, int to_area, const join_rule *rule,
                                   GString *rec, bool *ok);

/* Doors tried on each wall by route_other_doors(). */
enum { OTHER_DOORS = 4 };

/* The last resort of route_to_area(): the room's other doors (up to
 * OTHER_DOORS a wall, not those in @tried), each routed to room @to_area,
 * else joined to its corridors or its network.  A door squeezed between
 * two rooms, or boxed in by corridors, is often the only one tried. */
static ucr_pc_end route_other_doors(drawer *dr, int from_area, const ucr_point *tried, int ntried, ucr_dir side,
                                    int to_area, GString *rec, bool *ok)
{
    ucr_pc *pc = dr->pc;
    const ucr_area *a = area_at(dr, to_area), *f = area_at(dr, from_area);
    *ok = false;
    for (int k = 0; k < 4; k++) {
        ucr_dir d = (ucr_dir)((side + k) % 4);
        int wl = d == UCR_NORTH || d == UCR_SOUTH ? f->w : f->h;
        ucr_point ms[OTHER_DOORS];
        int n = wall_mouths(pc, from_area, d, (wl - 1) / 2, ms, OTHER_DOORS);
        for (int i = 0; i < n; i++) {
            bool seen = false;
            for (int j = 0; j < ntried; j++)
                seen |= ucr_point_eq(ms[i], tried[j]);
            if (seen)
                continue;
            ucr_pc_target t = { to_area, a->x, a->y, a->w, a->h, false, ms[i] };
            ucr_pc_path path;
            GString *how = g_string_new(NULL);
            ucr_pc_end end = { -1, -1, -1, false };
            if ((*ok = ucr_pc_route(pc, ms[i], from_area, &t, true, &path)))
                end = ucr_pc_connect(pc, &path, from_area, UCR_DOOR_PLAIN, &t, NULL, how);
            else
                end = join_its_corridor(dr, from_area, ms[i], to_area, &JOIN_ACROSS, how, ok);
            if (!*ok)
                end = join_its_network(dr, from_area, ms[i], to_area, &JOIN_ACROSS, how, ok);
            if (*ok)
                g_string_append_printf(rec, " (from another door, on the %s wall: no way from the doors tried first)%s",
                                       ucr_dir_name(d), how->str);
            g_string_free(how, TRUE);
            if (*ok)
                return end;
        }
    }
    return (ucr_pc_end){ -1, -1, -1, false };
}

/* Seed 000 rolls the crossing table where a corridor "has to cross other
 * corridors or rooms to reach its destination": where the way from mouth
 * @m to room @to_area's walls crosses something, the room's own corridors,
 * else its network, joined by a way that crosses nothing come first (and
 * where that way is long, a join no longer than @rule's cap).
 * Returns the corridor drawn (passage -1: none). */
static ucr_pc_end join_without_crossing(drawer *dr, int from_area, ucr_point m, int to_area, const join_rule *rule,
                                        GString *rec)
{
    GString *join = g_string_new(NULL);
    bool ok;
    ucr_pc_end end = join_its_corridor(dr, from_area, m, to_area, rule, join, &ok);
    if (!ok)
        end = join_its_network(dr, from_area, m, to_area, rule, join, &ok);
    if (ok)
        g_string_append(rec, join->str);
    g_string_free(join, TRUE);
    return ok ? end : (ucr_pc_end){ -1, -1, -1, false };
}

/* A way to a room's walls longer than JOIN_SHORTER + JOIN_SHORTER_FROM
 * squares (100 ft) gives way to a join of its corridors or its network
 * (one that crosses nothing) at least JOIN_SHORTER squares (60 ft)
 * shorter: the rock it leaves is what later rooms and corridors need
 * (issue 22, over 300 seeds: corridors to a room drawn reached it 90.7% of
 * the time without, 91.1% with; a 5's loop 90.3% and 91.6%.  Joins 20 ft
 * shorter: 91.5% and 92.1%, but room loops 0.75 a room → 0.67, against
 * 0.72 so). */
enum { JOIN_SHORTER = 6, JOIN_SHORTER_FROM = 4 };

/* The corridor from mouth @m (on wall @side) to room @to_area; a join of
 * its corridors that is shorter, or that crosses nothing where the way
 * to its walls crosses, comes first (join_without_crossing()); when there
 * is no way from that door, from a door on another wall (said in @rec),
 * and failing that it joins one of the corridors that reach the room. */
static ucr_pc_end route_to_area(drawer *dr, int from_area, ucr_point m, ucr_dir side, int to_area, GString *rec,
                                bool *ok)
{
    ucr_pc *pc = dr->pc;
    const ucr_area *a = area_at(dr, to_area), *f = area_at(dr, from_area);
    ucr_pc_target t = { to_area, a->x, a->y, a->w, a->h, false, m };
    ucr_pc_path path;
    *ok = ucr_pc_route(pc, m, from_area, &t, true, &path);
    if (*ok && (path.jumps->len || (int)path.cells->len > JOIN_SHORTER + JOIN_SHORTER_FROM)) {
        join_rule rule = { false, path.jumps->len ? 0 : (int)path.cells->len - JOIN_SHORTER,
                           path.jumps->len ? "its way there crosses" : "a shorter way than to its walls" };
        ucr_pc_end end = join_without_crossing(dr, from_area, m, to_area, &rule, rec);
        if (end.passage >= 0) {
            ucr_pc_path_clear(&path);
            return end;
        }
    }
    ucr_point ms[4] = { m };
    ucr_dir sides[4] = { side };
    int nm = 1;
    for (int k = 1; k < 4; k++) {
        ucr_dir d = (ucr_dir)((side + k) % 4);
        int wl = d == UCR_NORTH || d == UCR_SOUTH ? f->w : f->h;
        if (wall_mouths(pc, from_area, d, (wl - 1) / 2, &ms[nm], 1) == 1)
            sides[nm++] = d;
    }
    for (int i = 1; i < nm && !*ok; i++)
        if ((*ok = ucr_pc_route(pc, ms[i], from_area, &t, true, &path)))
            g_string_append_printf(rec, " (from the %s wall: no way from the %s)", ucr_dir_name(sides[i]),
                                   ucr_dir_name(side));
    /* The room's walls are taken, or out of reach from every door: its
     * corridor, from the rolled door, else from another wall's; nor its
     * own corridors: a corridor that leads on to it through junctions
     * only. */
    static ucr_pc_end (*const joins[])(drawer *, int, ucr_point, int, const join_rule *, GString *, bool *) = {
        join_its_corridor, join_its_network
    };
    for (guint j = 0; j < G_N_ELEMENTS(joins); j++)
        for (int i = 0; i < nm && !*ok; i++) {
            GString *join = g_string_new(NULL);
            ucr_pc_end end = joins[j](dr, from_area, ms[i], to_area, &JOIN_ACROSS, join, ok);
            if (*ok) {
                if (i)
                    g_string_append_printf(rec, " (from the %s wall: no way from the %s)", ucr_dir_name(sides[i]),
                                           ucr_dir_name(side));
                g_string_append(rec, join->str);
                g_string_free(join, TRUE);
                return end;
            }
            g_string_free(join, TRUE);
        }
    if (!*ok)
        return route_other_doors(dr, from_area, ms, nm, side, to_area, rec, ok);
    return ucr_pc_connect(pc, &path, from_area, UCR_DOOR_PLAIN, &t, NULL, rec);
}

/* Up to 60 ft straight into unmapped rock, then a dead end. */
static void dead_end_straight(drawer *dr, int from_area, ucr_point m, ucr_dir d)
{
    ucr_pc *pc = dr->pc;
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    g_array_append_val(cells, m);
    ucr_point p = m;
    for (int i = 1; i < 6; i++) {
        ucr_point q = { p.x + UCR_DIR_DX[d], p.y + UCR_DIR_DY[d] };
        ucr_point q2 = { q.x + UCR_DIR_DX[d], q.y + UCR_DIR_DY[d] };
        /* Stop a square short of anything, so the end is in rock. */
        if (q2.x <= 0 || q2.y <= 0 || q2.x >= pc->cv->w - 1 || q2.y >= pc->cv->h - 1 || !ucr_canvas_square_ok(pc->cv, q, UCR_CANVAS_EMPTY) || !ucr_canvas_square_ok(pc->cv, q2, UCR_CANVAS_EMPTY))
            break;
        g_array_append_val(cells, q);
        p = q;
    }
    ucr_pc_path path = { cells, g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump)) };
    ucr_pc_target t = { UCR_CANVAS_EMPTY, p.x, p.y, 1, 1, false, { 0, 0 } };
    ucr_pc_connect(pc, &path, from_area, UCR_DOOR_PLAIN, &t, NULL, NULL);
}

static void note(drawer *dr, int room, const char *text)
{
    GString *s = g_ptr_array_index(dr->notes, room - 1);
    g_string_append_printf(s, "; %s", text);
}

/* The corridor seed 000 rolls for a new room ("roll a d10 for corridor
 * length: on a 0, there is no corridor and the door leads directly into
 * the new room; on a 1-6, multiply the result by 10 for the length of the
 * corridor; on a 7+, draw 60 feet of corridor and then test for turns"),
 * recorded in @rec: its squares straight on, its turn (-1 left, 1 right)
 * and the squares after it.  Returns the row's kind. */
static const char *corridor_roll(drawer *dr, GString *rec, int *straight, int *turn, int *after)
{
    const ucr_table *lt = ucr_tables_need(dr->tables, "numbered-corridor");
    int total;
    const ucr_table_row *lrow = ucr_table_roll(lt, dr->pc->rng, &total);
    int len = ucr_pc_face(lt, total);
    *turn = *after = 0;
    if (strcmp(lrow->tag, "none") == 0) {
        *straight = 1;
        g_string_append_printf(rec, "; corridor d%d=%d: %s", lt->sides, len, lrow->text);
    } else if (strcmp(lrow->tag, "length") == 0) {
        *straight = atoi(lrow->text) / 10;
        g_string_append_printf(rec, "; corridor d%d=%d: %d ft", lt->sides, len, *straight * 10);
    } else {
        /* [long]: that far, then the turn test, then 30 ft more. */
        *straight = atoi(lrow->text) / 10;
        const ucr_table *tt = ucr_tables_need(dr->tables, "numbered-turn");
        int t;
        const ucr_table_row *trow = ucr_table_roll(tt, dr->pc->rng, &t);
        *turn = strcmp(trow->tag, "left") == 0 ? -1 : strcmp(trow->tag, "right") == 0 ? 1 : 0;
        *after = 3;
        if (!*turn)
            *straight += 3;
        g_string_append_printf(rec, "; corridor d%d=%d: %d ft, then d%d=%d: %s, 30 ft more", lt->sides, len,
                               atoi(lrow->text), tt->sides, t, trow->text);
    }
    return lrow->tag;
}

/* seed 000 allows "one or two turns" on the way: a 1-6 length of @straight
 * squares kept whole with two bends (a Z, so that the room still lies the
 * way the door faces), longest first leg first. */
static int new_room_zigzag(drawer *dr, int from_area, ucr_point m, ucr_dir d, int straight, int w, int h,
                           const char *rolled, GString *rec)
{
    for (int s1 = straight - 2; s1 >= 2; s1--)
        for (int s2 = 1; s1 + s2 < straight; s2++)
            for (int tr = -1; tr <= 1; tr += 2) {
                legs lg = { 3, { s1, s2, straight - s1 - s2 }, { 0, tr, -tr } };
                int area = new_room_legs(dr, from_area, m, d, &lg, w, h, rolled);
                if (area >= 0) {
                    g_string_append_printf(rec, " (bent to fit: %d ft, then %s %d ft, then %s)", s1 * 10,
                                           tr < 0 ? "left" : "right", s2 * 10, tr < 0 ? "right" : "left");
                    return area;
                }
            }
    return -1;
}

/* A 7+ roll's "60 feet of corridor" (@first squares) with a bend in it
 * (seed 000 draws "60 feet of corridor", not 60 ft straight: the turn test
 * comes after), then the turn test's @turn and 30 ft more, or as much after
 * it as fits. */
static int new_room_long_bent(drawer *dr, int from_area, ucr_point m, ucr_dir d, int first, int turn, int w,
                              int h, const char *rolled, GString *rec)
{
    static const int afters[] = { 3, 2, 4, 1, 5, 6 };
    for (int i = 0; i < (int)G_N_ELEMENTS(afters); i++)
        for (int s1 = first - 1; s1 >= 2; s1--)
            for (int tr = -1; tr <= 1; tr += 2) {
                legs lg = { 3, { s1, first - s1, afters[i] }, { 0, tr, turn } };
                int area = new_room_legs(dr, from_area, m, d, &lg, w, h, rolled);
                if (area < 0)
                    continue;
                g_string_append_printf(rec, " (bent to fit: %d ft, then %s %d ft, before the turn test)", s1 * 10,
                                       tr < 0 ? "left" : "right", (first - s1) * 10);
                if (afters[i] != 3)
                    g_string_append_printf(rec, " (%d ft after the turn test, to fit)", afters[i] * 10);
                return area;
            }
    return -1;
}

/* The corridor rolled for a new room (row @kind of the length table,
 * corridor_roll()), reshaped to fit from mouth @m with its length kept:
 * a 7+ roll with as much after its turn test as fits, or a bend in its
 * 60 ft; a 1-6 length with one bend or two.  Says how in @rec; returns the
 * room's area or -1. */
static int new_room_refit(drawer *dr, int from_area, ucr_point m, ucr_dir d, const char *kind, int straight,
                          int turn, int after, int w, int h, const char *rolled, GString *rec)
{
    bool length = strcmp(kind, "length") == 0, long_roll = strcmp(kind, "long") == 0;
    int area = -1;
    (void)after;
    /* 7+ rolls 60 ft and then the turn test; the 30 ft after it are this
     * program's: as long after the turn as fits. */
    static const int afters[] = { 2, 4, 1, 5, 6 };
    for (int i = 0; area < 0 && long_roll && i < (int)G_N_ELEMENTS(afters); i++) {
        int s1 = turn ? straight : straight - 3 + afters[i], a1 = turn ? afters[i] : 0;
        if ((area = new_room_shaped(dr, from_area, m, d, s1, turn, a1, w, h, rolled)) >= 0)
            g_string_append_printf(rec, " (%d ft after the turn test, to fit)", afters[i] * 10);
    }
    /* 1-6 rolls a length, not a shape: as long as rolled, with a bend. */
    for (int s1 = straight - 1; area < 0 && length && s1 >= 2; s1--)
        for (int tr = -1; tr <= 1 && area < 0; tr += 2)
            if ((area = new_room_shaped(dr, from_area, m, d, s1, tr, straight - s1, w, h, rolled)) >= 0)
                g_string_append_printf(rec, " (bent to fit: %d ft, then %s)", s1 * 10, tr < 0 ? "left" : "right");
    if (area < 0 && length)
        area = new_room_zigzag(dr, from_area, m, d, straight, w, h, rolled, rec);
    if (area < 0 && long_roll)
        area = new_room_long_bent(dr, from_area, m, d, turn ? straight : straight - 3, turn, w, h, rolled, rec);
    return area;
}

/* Makes the new room the dice asked for; returns its area, -2 if its
 * corridor was cut short, or -1 if it found no space. */
static int new_room(drawer *dr, int from_area, ucr_point m, ucr_dir d, GString *rec)
{
    ucr_pc *pc = dr->pc;
    int number = drawn(dr) + 1;
    int straight, turn, after;
    const char *kind = corridor_roll(dr, rec, &straight, &turn, &after);
    GString *size = g_string_new(NULL);
    int w, h;
    ucr_pc_room_size(dr->tables, pc->rng, &w, &h, size);
    char *rolled = g_strdup_printf("%s", size->str);
    int area = new_room_shaped(dr, from_area, m, d, straight, turn, after, w, h, rolled);
    /* As rolled from another door along the same wall. */
    const ucr_area *fa = area_at(dr, from_area);
    ucr_point ms[4];
    int nm = area < 0 ? wall_mouths(pc, from_area, d, d == UCR_NORTH || d == UCR_SOUTH ? m.x - fa->x : m.y - fa->y,
                                    ms, 4)
                      : 0;
    for (int i = 0; i < nm && area < 0; i++)
        if (!ucr_point_eq(ms[i], m))
            area = new_room_shaped(dr, from_area, ms[i], d, straight, turn, after, w, h, rolled);
    /* Reshaped to fit, keeping the length rolled: from the rolled door,
     * then from the others along the same wall. */
    for (int i = -1; i < nm && area < 0; i++)
        if (i < 0 || !ucr_point_eq(ms[i], m))
            area = new_room_refit(dr, from_area, i < 0 ? m : ms[i], d, kind, straight, turn, after, w, h, rolled,
                                  rec);
    /* No space for the corridor as rolled: stretch it (and say so: the
     * record is what tests check the corridor's length against). */
    for (int extra = 1; area < 0 && extra <= 6; extra++) {
        area = new_room_shaped(dr, from_area, m, d, straight + extra, 0, 0, w, h, rolled);
        if (area >= 0)
            g_string_append_printf(rec, " (no room for it: %d ft straight)", (straight + extra) * 10);
    }
    if (area < 0)
        g_string_append(rec, " (no room for it: routed)");
    if (area >= 0) {
        if (area_at(dr, area)->w * area_at(dr, area)->h < w * h)
            g_string_append(rec, " (smaller, to fit)");
    } else {
        bool found;
        ucr_pc_end end = new_room_cone(dr, from_area, m, d, w, h, rolled, rec, &found);
        if (found && !end.reached) {
            g_string_append_printf(rec, " (cut short: room %d is never reached)", number);
            g_free(rolled);
            g_string_free(size, TRUE);
            return -2;
        }
        area = found ? end.area : -1;
    }
    if (area >= 0)
        room_register(dr, area, size->str);
    g_free(rolled);
    g_string_free(size, TRUE);
    return area;
}

/* seed 000, 5: "Either there are two doors in the room and the corridor
 * connects them, or the corridor splits into a Y or T and forms a loop that
 * way."  Both readings are planned whole before anything is drawn, from the
 * exit's own door first, then other doors along its wall, then the room's
 * other walls: a 5 that finds a loop anywhere round its room draws it. */

/* A T planned from a door: the stem from the mouth to the junction and the
 * ring that leaves it by one arm and comes back by the other. */
typedef struct {
    ucr_pc_path stem, ring;
    ucr_point j;
} t_plan;

/* The stem's squares, @dist straight from mouth @m, each free to carry a
 * corridor; NULL if one is not. */
static GArray *t_stem(const ucr_pc *pc, int from, ucr_point m, ucr_dir side, int dist)
{
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int i = 0; i < dist; i++) {
        ucr_point c = ucr_point_walk(m, side, i);
        if (c.x <= 0 || c.y <= 0 || c.x >= pc->cv->w - 1 || c.y >= pc->cv->h - 1 ||
            !ucr_canvas_square_ok(pc->cv, c, i == 0 ? from : UCR_CANVAS_EMPTY)) {
            g_array_free(cells, TRUE);
            return NULL;
        }
        g_array_append_val(cells, c);
    }
    return cells;
}

/* Plans a T whose junction is @dist squares out from mouth @m: a straight
 * stem and a ring of at most @ring_max squares (across what is in its way
 * if @crossings).  The stem and junction stand on the canvas as
 * UCR_CANVAS_TENTATIVE meanwhile (never crossed); on success the junction's
 * square is left so for t_draw(). */
static bool t_plan_try(ucr_pc *pc, int from, ucr_point m, ucr_dir side, int dist, int ring_max, bool crossings,
                       t_plan *out)
{
    ucr_point j = ucr_point_walk(m, side, dist);
    if (j.x <= 1 || j.y <= 1 || j.x >= pc->cv->w - 2 || j.y >= pc->cv->h - 2 ||
        !ucr_canvas_clear(pc->cv, j.x, j.y, 1, 1, 1))
        return false;
    GArray *stem = t_stem(pc, from, m, side, dist);
    if (!stem)
        return false;
    for (guint i = 0; i < stem->len; i++)
        ucr_canvas_set(pc->cv, g_array_index(stem, ucr_point, i), UCR_CANVAS_TENTATIVE);
    ucr_canvas_set(pc->cv, j, UCR_CANVAS_TENTATIVE);
    /* The ring: out by the left of the T, back by its right. */
    ucr_dir left = (ucr_dir)((side + 3) % 4), right = (ucr_dir)((side + 1) % 4);
    ucr_pc_target t = { UCR_CANVAS_TENTATIVE, j.x, j.y, 1, 1, false, { 0, 0 } };
    unsigned walls = pc->target_walls;
    pc->target_walls = 1u << right;
    pc->max_cells = ring_max;
    bool ok = ucr_pc_route(pc, ucr_point_step(j, left), UCR_CANVAS_TENTATIVE, &t, crossings, &out->ring);
    pc->target_walls = walls;
    pc->max_cells = 0;
    for (guint i = 0; i < stem->len; i++)
        ucr_canvas_set(pc->cv, g_array_index(stem, ucr_point, i), UCR_CANVAS_EMPTY);
    if (!ok) {
        ucr_canvas_set(pc->cv, j, UCR_CANVAS_EMPTY);
        g_array_free(stem, TRUE);
        return false;
    }
    out->stem = (ucr_pc_path){ stem, g_array_new(FALSE, FALSE, sizeof(ucr_pc_jump)) };
    out->j = j;
    return true;
}

/* A T from mouth @m, its junction 2, 3, 4 or (tight by the door) 1 square
 * out, the smallest ring first. */
static bool t_plan_at(ucr_pc *pc, int from, ucr_point m, ucr_dir side, bool crossings, t_plan *out)
{
    static const int dists[] = { 2, 3, 4, 1 };
    const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, from);
    int rings[2] = { 24, 2 * (a->w + a->h) + 44 };
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 4; i++)
            if (t_plan_try(pc, from, m, side, dists[i], rings[r], crossings, out))
                return true;
    return false;
}

/* Draws a planned T: the stem to a new junction, the ring round to it.
 * Returns how the ring ended. */
static ucr_pc_end t_draw(drawer *dr, int from, t_plan *tp, GString *rec)
{
    ucr_pc *pc = dr->pc;
    ucr_point j = tp->j;
    ucr_pc_target tj = { UCR_CANVAS_TENTATIVE, j.x, j.y, 1, 1, false, { 0, 0 } };
    ucr_pc_pending pend = { UCR_AREA_JUNCTION, j.x, j.y, 1, 1, pc->number_junctions,
                            g_strdup("where the corridor splits into a T and loops (seed 000: 5)") };
    ucr_pc_end end = ucr_pc_connect(pc, &tp->stem, from, UCR_DOOR_PLAIN, &tj, &pend, rec);
    ucr_pc_check_every(pc, end.passage, dr->loop_every);
    ucr_pc_target t = { end.area, j.x, j.y, 1, 1, false, { 0, 0 } };
    return ucr_pc_connect(pc, &tp->ring, end.area, -1, &t, NULL, rec);
}

/* Two doors in room @from joined by one corridor from mouth @m (on wall
 * @side), no longer than a walk round the room (a loop round the map would
 * wall every other room in); across what is in the way only if @crossings.
 * The corridor's first square stands on the canvas while the rest is
 * routed from the square beyond it, so that the rest keeps clear of it and
 * the second door is never beside the first. */
static bool doors_plan_at(ucr_pc *pc, int from, ucr_point m, ucr_dir side, bool crossings, ucr_pc_path *out)
{
    const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, from);
    ucr_pc_target t = { from, a->x, a->y, a->w, a->h, false, { 0, 0 } };
    ucr_canvas_set(pc->cv, m, UCR_CANVAS_TENTATIVE);
    pc->max_cells = 2 * (a->w + a->h) + 29;
    bool ok = ucr_pc_route(pc, ucr_point_step(m, side), UCR_CANVAS_TENTATIVE, &t, crossings, out);
    pc->max_cells = 0;
    ucr_canvas_set(pc->cv, m, UCR_CANVAS_EMPTY);
    if (!ok)
        return false;
    g_array_prepend_val(out->cells, m);
    for (guint i = 0; i < out->jumps->len; i++) {
        g_array_index(out->jumps, ucr_pc_jump, i).first++;
        g_array_index(out->jumps, ucr_pc_jump, i).last++;
    }
    return true;
}

/* Up to @max doors on wall @side of @area a corridor can leave by, from
 * position @hint outwards, none beside another. */
static int wall_mouths(const ucr_pc *pc, int area, ucr_dir side, int hint, ucr_point *out, int max)
{
    const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, area);
    int wl = side == UCR_NORTH || side == UCR_SOUTH ? a->w : a->h, n = 0;
    for (int i = 0; i < 2 * wl && n < max; i++) {
        int k = hint + ((i % 2) ? (i + 1) / 2 : -(i / 2));
        ucr_point m;
        if (k < 0 || k >= wl || !ucr_pc_mouth(pc, area, side, k, &m) ||
            !ucr_point_eq(m, ucr_pc_wall_square(a, side, k)))
            continue;
        bool beside = false;
        for (int e = 0; e < n; e++)
            beside |= abs(out[e].x - m.x) + abs(out[e].y - m.y) < 2;
        if (!beside)
            out[n++] = m;
    }
    return n;
}

/* The ways a 5 closes its loop. */
typedef enum {
    LOOP_T,        /* the corridor splits into a T whose arms meet */
    LOOP_DOORS,    /* two doors, one corridor between them */
    LOOP_JOIN      /* two doors, the new one's corridor joining the old one's */
} loop_form;

/* The loop a 5 found: its form, where it leaves, and what to draw. */
typedef struct {
    loop_form form;
    ucr_point m;
    ucr_dir side;
    t_plan tp;
    ucr_pc_path path;     /* LOOP_DOORS, LOOP_JOIN */
    int passage, cell;    /* LOOP_JOIN: the room's own corridor, and where it is joined */
} loop_found;

/* Whether vertex @v is a room's (a corridor network ends there). */
static bool vertex_room(const ucr_node *node, int v)
{
    return v < (int)node->areas->len && g_array_index(node->areas, ucr_area, v).kind == UCR_AREA_ROOM;
}

/* Marks in @in (one per passage) the corridors of room @room's network:
 * those that leave it, and those joined to them at junctions and other
 * ends that are not rooms; never passage @skip (-1: none). */
static void room_network(const ucr_node *node, int room, int skip, char *in)
{
    bool grew = true;
    while (grew) {
        grew = false;
        for (guint k = 0; k < node->passages->len; k++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            if (in[k] || p->kind == UCR_EDGE_BLOCKED || (int)k == skip)
                continue;
            bool joined = p->a == room || p->b == room;
            for (guint q = 0; q < node->passages->len && !joined; q++) {
                const ucr_passage *o = &g_array_index(node->passages, ucr_passage, q);
                if (!in[q])
                    continue;
                joined = (!vertex_room(node, p->a) && (p->a == o->a || p->a == o->b)) ||
                         (!vertex_room(node, p->b) && (p->b == o->a || p->b == o->b));
            }
            if (joined)
                in[k] = grew = true;
        }
    }
}

/* Whether corridor @end, cut short by a secret door into a corridor it
 * crossed (seed 000's 5: "secret door connects to area"), came out in room
 * @room's network: the corridor it joined leads on to @room through
 * junctions only, so the corridor still reaches @room (for a 5 back to
 * @room: closes a loop). */
static bool secret_door_reaches(const ucr_node *node, const ucr_pc_end *end, int room)
{
    if (end->reached || end->area < 0 || vertex_room(node, end->area))
        return false;
    char *in = g_new0(char, node->passages->len + 1);
    room_network(node, room, end->passage, in);
    bool found = false;
    for (guint k = 0; k < node->passages->len && !found; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        found = in[k] && (p->a == end->area || p->b == end->area);
    }
    g_free(in);
    return found;
}

typedef struct {
    int distance, passage, cell;
} join_square;

static int join_square_cmp(gconstpointer pa, gconstpointer pb)
{
    const join_square *a = pa, *b = pb;
    if (a->distance != b->distance)
        return a->distance < b->distance ? -1 : 1;
    return a->passage != b->passage ? a->passage - b->passage : a->cell - b->cell;
}

/* Routes tried by join_its_network(), the squares nearest the door first. */
enum { NETWORK_TRIES = 12 };

/* When neither room @to_area's walls nor its own corridors can be reached
 * from mouth @m (join_its_corridor()): a corridor of its network, one that
 * leads on to it through junctions only, joined at a new junction.  That
 * reaches the room as a secret door into such a corridor does
 * (secret_door_reaches()): no other room lies between.  @rule as for
 * join_its_corridor(). */
static ucr_pc_end join_its_network(drawer *dr, int from_area, ucr_point m, int to_area, const join_rule *rule,
                                   GString *rec, bool *ok)
{
    bool across = rule->across;
    ucr_pc *pc = dr->pc;
    ucr_node *node = pc->node;
    char *in = g_new0(char, node->passages->len + 1);
    room_network(node, to_area, -1, in);
    GArray *squares = g_array_new(FALSE, FALSE, sizeof(join_square));
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        /* Its own corridors were join_its_corridor()'s, but for one that
         * leaves this room too: the two rooms are joined already, by a
         * corridor this door's may meet. */
        bool to = p->a == to_area || p->b == to_area, from = p->a == from_area || p->b == from_area;
        if (!in[k] || (to && !from))
            continue;
        for (int j = 1; j + 1 < (int)p->cells->len; j++) {
            ucr_point c = g_array_index(p->cells, ucr_point, j);
            if (ucr_pc_split_ok(pc, (int)k, j)) {
                join_square js = { abs(c.x - m.x) + abs(c.y - m.y), (int)k, j };
                g_array_append_val(squares, js);
            }
        }
    }
    g_free(in);
    g_array_sort(squares, join_square_cmp);
    ucr_pc_end end = { -1, -1, -1, false };
    *ok = false;
    guint most = across ? NETWORK_TRIES : (guint)UNCROSSED_TRIES;
    for (guint i = 0; i < squares->len && i < most && !*ok; i++) {
        const join_square *js = &g_array_index(squares, join_square, i);
        ucr_point s = g_array_index(g_array_index(node->passages, ucr_passage, js->passage).cells, ucr_point, js->cell);
        ucr_pc_target t = { UCR_ATTACH_PASSAGE + js->passage, s.x, s.y, 1, 1, false, { 0, 0 } };
        ucr_pc_path path;
        pc->max_cells = join_bound(rule, js->distance + JOIN_DETOUR);
        bool routed = ucr_pc_route(pc, m, from_area, &t, across, &path);
        pc->max_cells = 0;
        if (!routed)
            continue;
        int jn = ucr_pc_split(pc, js->passage, js->cell, false, g_strdup("where a corridor joins another"));
        if (jn < 0) {
            ucr_pc_path_clear(&path);
            continue;
        }
        const ucr_area *a = &g_array_index(node->areas, ucr_area, jn);
        ucr_pc_target tj = { jn, a->x, a->y, 1, 1, false, { 0, 0 } };
        g_string_append_printf(rec, " (%s: joins a corridor that leads to it through junctions only)",
                               across ? "no way to its walls or its own corridors" : rule->why);
        *ok = true;
        end = ucr_pc_connect(pc, &path, from_area, UCR_DOOR_PLAIN, &tj, NULL, rec);
    }
    g_array_free(squares, TRUE);
    return end;
}

/* Two doors whose corridors meet: from mouth @m to a square of a corridor
 * of room @from's network (one that leads back to it without passing
 * another room), the nearest squares first, never at either end (10 ft from a door at
 * least: a junction at the end square would touch the door's room; 20 ft
 * before issue 22's fifth round left a room boxed in by its own corridors
 * without a loop more often). */
static bool join_plan_at(ucr_pc *pc, int from, ucr_point m, bool crossings, loop_found *out)
{
    const ucr_node *node = pc->node;
    const ucr_area *a = &g_array_index(node->areas, ucr_area, from);
    char *in = g_new0(char, node->passages->len + 1);
    room_network(node, from, -1, in);
    GArray *cand = g_array_new(FALSE, FALSE, sizeof(join_square));
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        int len = (int)p->cells->len;
        for (int c = 1; in[k] && c < len - 1; c++) {
            ucr_point sq = g_array_index(p->cells, ucr_point, c);
            join_square js = { abs(sq.x - m.x) + abs(sq.y - m.y), (int)k, c };
            if (js.distance <= 2 * (a->w + a->h) + 10 && ucr_pc_split_ok(pc, (int)k, c))
                g_array_append_val(cand, js);
        }
    }
    g_free(in);
    g_array_sort(cand, join_square_cmp);
    bool ok = false;
    for (guint i = 0; i < cand->len && i < 8 && !ok; i++) {
        const join_square *js = &g_array_index(cand, join_square, i);
        ucr_point sq = g_array_index(g_array_index(node->passages, ucr_passage, js->passage).cells, ucr_point,
                                     js->cell);
        ucr_pc_target t = { UCR_ATTACH_PASSAGE + js->passage, sq.x, sq.y, 1, 1, false, { 0, 0 } };
        pc->max_cells = 2 * (a->w + a->h) + 30;
        ok = ucr_pc_route(pc, m, from, &t, crossings, &out->path);
        pc->max_cells = 0;
        out->passage = js->passage;
        out->cell = js->cell;
    }
    g_array_free(cand, TRUE);
    return ok;
}

static bool form_plan_at(ucr_pc *pc, int from, ucr_point m, ucr_dir d, bool crossings, loop_found *out)
{
    switch (out->form) {
    case LOOP_T: return t_plan_at(pc, from, m, d, crossings, &out->tp);
    case LOOP_DOORS: return doors_plan_at(pc, from, m, d, crossings, &out->path);
    default: return join_plan_at(pc, from, m, crossings, out);
    }
}

/* The forms @forms (@n of them, in order) at each door of each wall, the
 * exit's own door first; across what is in the way only if @crossings. */
static bool loop_plan(ucr_pc *pc, int from, ucr_point m0, ucr_dir side0, const loop_form *forms, int n_forms,
                      bool crossings, loop_found *out)
{
    const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, from);
    for (int w = 0; w < 4; w++) {
        ucr_dir d = (ucr_dir)((side0 + w) % 4);
        ucr_point ms[3], more[3];
        int n = 0, wl = d == UCR_NORTH || d == UCR_SOUTH ? a->w : a->h;
        if (w == 0)
            ms[n++] = m0;
        int nm = wall_mouths(pc, from, d, wl / 2, more, 3);
        for (int i = 0; i < nm && n < 3; i++)
            if (!ucr_point_eq(more[i], m0))
                ms[n++] = more[i];
        for (int i = 0; i < n; i++)
            for (int f = 0; f < n_forms; f++) {
                *out = (loop_found){ .form = forms[f], .m = ms[i], .side = d };
                if (form_plan_at(pc, from, ms[i], d, crossings, out))
                    return true;
            }
    }
    return false;
}

/* What the record says of the loop found for a 5 from wall @side. */
static void loop_record(const loop_found *lf, bool t_first, int number, ucr_dir side, GString *rec)
{
    if (lf->form == LOOP_T && t_first)
        g_string_append(rec, " → coin: the corridor splits into a T whose arms meet again: a loop");
    else if (lf->form == LOOP_T)
        g_string_append_printf(rec, " → room %d → no way round for two doors: the corridor splits into a T "
                                    "whose arms meet again: a loop", number);
    else if (t_first)
        g_string_append_printf(rec, " → coin: no room for a T → room %d: two doors", number);
    else
        g_string_append_printf(rec, " → room %d", number);
    if (lf->form == LOOP_JOIN)
        g_string_append(rec, " (joins its own corridor: a loop)");
    if (lf->side != side)
        g_string_append_printf(rec, " (from the %s wall: no loop fits from the %s)", ucr_dir_name(lf->side),
                               ucr_dir_name(side));
}

/* Draws the loop found for room @from; returns how its last corridor ended. */
static ucr_pc_end loop_draw(drawer *dr, int from, loop_found *lf, GString *rec)
{
    ucr_pc *pc = dr->pc;
    if (lf->form == LOOP_T)
        return t_draw(dr, from, &lf->tp, rec);
    ucr_pc_target t = { from, 0, 0, 0, 0, false, lf->m };
    if (lf->form == LOOP_JOIN) {
        int jn = ucr_pc_split(pc, lf->passage, lf->cell, pc->number_junctions,
                              g_strdup("where a room's two corridors meet (seed 000: 5)"));
        /* split_ok was asked before the route: it cannot fail now. */
        const ucr_area *j = &g_array_index(pc->node->areas, ucr_area, jn);
        t = (ucr_pc_target){ jn, j->x, j->y, 1, 1, false, { 0, 0 } };
    }
    return ucr_pc_connect(pc, &lf->path, from, UCR_DOOR_PLAIN, &t, NULL, rec);
}

/* The 5: a loop back to room @from (mouth @m on wall @side), recorded in
 * @rec after "→ ".  The coin picks the reading tried first; then two doors
 * whose corridors meet; a loop that must cross something is the last resort
 * (the crossing table may cut it short). */
static void loop_back(drawer *dr, int from, int number, ucr_point m, ucr_dir side, GString *rec)
{
    ucr_pc *pc = dr->pc;
    bool t_first = ucr_dice_coin(pc->rng);
    loop_form coin[2] = { t_first ? LOOP_T : LOOP_DOORS, t_first ? LOOP_DOORS : LOOP_T }, join = LOOP_JOIN;
    loop_found lf;
    for (int pass = 0; pass < 4; pass++) {
        bool crossings = pass >= 2;
        if (!(pass % 2 ? loop_plan(pc, from, m, side, &join, 1, crossings, &lf)
                       : loop_plan(pc, from, m, side, coin, 2, crossings, &lf)))
            continue;
        loop_record(&lf, t_first, number, side, rec);
        ucr_pc_end end = loop_draw(dr, from, &lf, rec);
        /* "Again, check every 60 feet, or possibly even every 30 feet,
         * for doors or branches off the main corridor." */
        ucr_pc_check_every(pc, end.passage, dr->loop_every);
        if (secret_door_reaches(pc->node, &end, from))
            g_string_append_printf(rec, " (the secret door opens on a corridor of room %d's own: a loop)", number);
        else if (!end.reached)
            g_string_append_printf(rec, " (cut short: it never reaches room %d)", number);
        return;
    }
    g_string_append_printf(rec, " → room %d (no way there: a dead end)", number);
#ifdef NUMBERED_DEBUG
    {
        const ucr_area *a = &g_array_index(pc->node->areas, ucr_area, from);
        fprintf(stderr, "%s room %d at %d,%d %dx%d m %d,%d\n", pc->node->id, number, a->x, a->y, a->w, a->h, m.x, m.y);
        for (int y = MAX(0, a->y - 8); y < MIN(pc->cv->h, a->y + a->h + 8); y++) {
            for (int x = MAX(0, a->x - 10); x < MIN(pc->cv->w, a->x + a->w + 10); x++) {
                int o = ucr_canvas_owner(pc->cv, (ucr_point){ x, y });
                fputc(x == m.x && y == m.y ? '@' : o == UCR_CANVAS_EMPTY ? '.' : o == from ? 'R' : o >= UCR_ATTACH_PASSAGE ? '#' : 'a', stderr);
            }
            fputc('\n', stderr);
        }
    }
#endif
    ucr_pc_stub(pc, from, m, UCR_DOOR_PLAIN);
}

static void resolve_one(drawer *dr, const exit_req *ex, bool may_postpone)
{
    ucr_pc *pc = dr->pc;
    int from = room_area(dr, ex->room);
    GString *rec = g_string_new(NULL);
    g_string_append_printf(rec, "room %d exit %d (%s wall): ", ex->room, ex->exit, ucr_dir_name(ex->side));
    ucr_point m;
    ucr_dir side = ex->side;
    bool have = ucr_pc_mouth(pc, from, side, ex->hint, &m);
    for (int k = 1; k < 4 && !have; k++) {
        side = (ucr_dir)((ex->side + k) % 4);
        have = ucr_pc_mouth(pc, from, side, 0, &m);
    }
    if (!have) {
        /* Corridors already run along every wall: the door is walled up
         * (see the header). */
        g_string_append(rec, "no free wall left: walled up");
        g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
        return;
    }
    if (side != ex->side)
        g_string_append_printf(rec, "(that wall is full: %s wall) ", ucr_dir_name(side));
    /* seed 000's d10, rolled again from a distant room on a 0. */
    const ucr_table *dt = ucr_tables_need(dr->tables, "numbered-destination");
    int current = ex->room, dest = 0;
    for (int hop = 0; hop <= MAX_DISTANT; hop++) {
        int total = ex->total;
        if (hop > 0 || total <= 0)
            ucr_table_roll(dt, pc->rng, &total);
        int face = ucr_pc_face(dt, total);
        if (!ucr_numbered_destination(dt, current, total, &dest)) {
            int far = hop < MAX_DISTANT ? distant_room(dr, ex->room, m, side) : -1;
            if (far > 0 && far != current) {
                g_string_append_printf(rec, "d%d=%d: distant room, same direction: the first room that way "
                                            "is room %d, so from room %d: ", dt->sides, face, far, far);
                current = far;
                continue;
            }
            g_string_append_printf(rec, "d%d=%d: distant room, same direction: ", dt->sides, face);
            if (may_postpone) {
                /* seed 000: "postpone mapping the corridor until you've
                 * mapped that area". */
                g_string_append(rec, "nothing mapped that way yet, postponed");
                g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
                g_array_append_val(dr->postponed, *ex);
                return;
            }
            g_string_append(rec, "still unmapped: the corridor runs into it and ends → dead end");
            dead_end_straight(dr, from, m, side);
            note(dr, ex->room, rec->str);
            g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
            return;
        }
        if (current <= 5)
            g_string_append_printf(rec, "d%d=%d: raw number = room %d", dt->sides, face, dest);
        else if (dest == current)
            g_string_append_printf(rec, "d%d=%d: back to the current room = room %d", dt->sides, face, dest);
        else
            g_string_append_printf(rec, "d%d=%d: current room %+d = room %d", dt->sides, face, dest - current,
                                   dest);
        break;
    }
    ucr_pc_end end = { -1, -1, -1, true };
    bool routed = true;
    int target = dest;
    if (dest > drawn(dr) && drawn(dr) < dr->budget) {
        /* seed 000: "If the result is more than 5, the corridor leads to a
         * new room … The general direction of the room is the general
         * direction the initial door or doorway is facing." */
        int number = drawn(dr) + 1;
        g_string_append_printf(rec, " → new room %d", number);
        int area = new_room(dr, from, m, side, rec);
        if (area >= 0 || area == -2) {
            note(dr, ex->room, rec->str);
            g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
            return;
        }
        g_string_append(rec, " (no space for it that way");
        target = (dest - 1) % drawn(dr) + 1;
        g_string_append_printf(rec, ": counting on from room 1, room %d instead)", target);
    } else if (dest > drawn(dr)) {
        target = (dest - 1) % drawn(dr) + 1;
        g_string_append_printf(rec, " → past the last room, counting on from room 1: room %d", target);
    } else if (target != ex->room) {
        g_string_append_printf(rec, " → room %d", target);
    }
    if (target == ex->room) {
        /* Back to the current room (a 5, or a count that came round to it). */
        loop_back(dr, from, target, m, side, rec);
        note(dr, ex->room, rec->str);
        g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
        return;
    }
    end = route_to_area(dr, from, m, side, room_area(dr, target), rec, &routed);
    if (!routed) {
        g_string_append(rec, " (no way there: a dead end)");
        ucr_pc_stub(pc, from, m, UCR_DOOR_PLAIN);
    } else if (secret_door_reaches(pc->node, &end, room_area(dr, target))) {
        g_string_append_printf(rec, " (the secret door opens on a corridor that leads to room %d)", target);
    } else if (!end.reached) {
        g_string_append_printf(rec, " (cut short: it never reaches room %d)", target);
    }
    note(dr, ex->room, rec->str);
    g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
}

static void exits_pencil(drawer *dr, int room);

/* Pencils in the exits of the rooms drawn since the last call. */
static void pencil_new(drawer *dr)
{
    while ((int)dr->pencilled->len < drawn(dr))
        exits_pencil(dr, (int)dr->pencilled->len + 1);
}

/* An exit drawn, then the exits of any room it opened pencilled in. */
static void resolve(drawer *dr, const exit_req *ex, bool may_postpone)
{
    resolve_one(dr, ex, may_postpone);
    pencil_new(dr);
}

/* A room's exits, pencilled in as soon as it is drawn: their number (1d3
 * besides the door it was entered by; the first room, entered by none,
 * 1d3+1), walls, places and d10s.  A d10 that leads back to the room (5,
 * or its own number among the first five) is drawn at once, while the room
 * still has rock round it; then those to a room drawn before it (-1 to -4,
 * or a lower number among the first five), while the way there is still
 * open (issue 22: 87.4% of them reached their room when they waited for
 * the room's turn, by when the rooms drawn since had boxed one of the two
 * in; 90.7% so, over 500 seeds).  Those to a new room wait for the room's
 * turn, so that rooms are numbered as their turns come. */
static void exits_pencil(drawer *dr, int room)
{
    ucr_pc *pc = dr->pc;
    const ucr_area *a = area_at(dr, room_area(dr, room));
    const ucr_table *dt = ucr_tables_need(dr->tables, "numbered-destination");
    int n = ucr_dice_d(pc->rng, 3) + (room == 1);
    g_array_index(dr->exits, int, room - 1) = n;
    const char *dice = room == 1 ? "1d3+1" : "1d3";
    g_ptr_array_add(pc->node->rolls, g_strdup_printf("room %d: %s=%d exits", room, dice, n));
    GString *notes = g_ptr_array_index(dr->notes, room - 1);
    g_string_append_printf(notes, "; exits %s=%d", dice, n);
    GArray *reqs = g_array_new(FALSE, TRUE, sizeof(exit_req));
    g_ptr_array_add(dr->pencilled, reqs);
    for (int e = 0; e < n; e++) {
        exit_req r = { room, e + 1, (ucr_dir)(ucr_dice_d(pc->rng, 4) - 1), 0, 0, false };
        int wl = r.side == UCR_NORTH || r.side == UCR_SOUTH ? a->w : a->h;
        r.hint = ucr_dice_d(pc->rng, wl) - 1;
        ucr_table_roll(dt, pc->rng, &r.total);
        g_array_append_val(reqs, r);
    }
    for (int pass = 0; pass < 2; pass++)
        for (int e = 0; e < n; e++) {
            exit_req *r = &g_array_index(reqs, exit_req, e);
            int dest;
            if (ucr_numbered_destination(dt, room, r->total, &dest) && (pass ? dest < room : dest == room)) {
                r->done = true;
                exit_req copy = *r;
                resolve(dr, &copy, true);
                reqs = g_ptr_array_index(dr->pencilled, room - 1);
            }
        }
}

/* A room's turn: its exits not drawn yet, in order. */
static void exits_roll(drawer *dr, int room)
{
    GArray *reqs = g_ptr_array_index(dr->pencilled, room - 1);
    for (guint e = 0; e < reqs->len; e++) {
        exit_req copy = g_array_index(reqs, exit_req, e);
        if (!copy.done)
            resolve(dr, &copy, true);
    }
}

/* A room of @w × @h beside square @c of a corridor, @gap squares off on
 * side @d, and the corridor from the door in its near wall back to @c;
 * false if it does not fit.  The room is left UCR_CANVAS_TENTATIVE. */
static bool room_off_corridor(ucr_pc *pc, int k, ucr_point c, ucr_dir d, int gap, int w, int h, int *x, int *y,
                              ucr_pc_path *path)
{
    ucr_point e = ucr_point_walk(c, d, gap);
    room_beyond(e, d, w, h, 0, x, y);
    if (*x < 2 || *y < 2 || *x + w > pc->cv->w - 2 || *y + h > pc->cv->h - 2 ||
        !ucr_canvas_clear(pc->cv, *x, *y, w, h, 1))
        return false;
    ucr_canvas_fill(pc->cv, *x, *y, w, h, UCR_CANVAS_TENTATIVE);
    ucr_point m = ucr_point_walk(c, d, gap);
    ucr_pc_target t = { UCR_ATTACH_PASSAGE + k, c.x, c.y, 1, 1, false, { 0, 0 } };
    pc->max_cells = gap + 8;
    bool ok = ucr_canvas_square_ok(pc->cv, m, UCR_CANVAS_TENTATIVE) &&
              ucr_pc_route(pc, m, UCR_CANVAS_TENTATIVE, &t, false, path);
    pc->max_cells = 0;
    if (!ok)
        ucr_canvas_fill(pc->cv, *x, *y, w, h, UCR_CANVAS_EMPTY);
    return ok;
}

/* The GM's exit when no room's wall has space for one: a door off a
 * corridor to a new room beside it, every 30 ft along the corridors. */
static bool corridor_gm_exit(drawer *dr)
{
    ucr_pc *pc = dr->pc;
    GString *size = g_string_new(NULL);
    int w, h, routes = 0;
    ucr_pc_room_size(dr->tables, pc->rng, &w, &h, size);
    for (guint k = 0; k < pc->node->passages->len && routes < 40; k++) {
        const ucr_passage *p = &g_array_index(pc->node->passages, ucr_passage, k);
        for (int i = 2; i + 2 < (int)p->cells->len && routes < 40; i += 3) {
            if (p->kind == UCR_EDGE_BLOCKED || !ucr_pc_split_ok(pc, (int)k, i))
                continue;
            ucr_point c = g_array_index(p->cells, ucr_point, i), b = g_array_index(p->cells, ucr_point, i - 1);
            ucr_dir along = c.x != b.x ? UCR_EAST : UCR_SOUTH;
            for (int s = 1; s < 4; s += 2) {
                ucr_dir d = (ucr_dir)((along + s) % 4);
                int x, y;
                ucr_pc_path path;
                routes++;
                if (!room_off_corridor(pc, (int)k, c, d, 3, w, h, &x, &y, &path))
                    continue;
                int n = drawn(dr);
                int area = ucr_pc_area_add(pc, UCR_AREA_ROOM, x, y, w, h, true, NULL);
                int jn = ucr_pc_split(pc, (int)k, i, pc->number_junctions,
                                      g_strdup("where the GM adds a door off the corridor (seed 003)"));
                const ucr_area *ja = area_at(dr, jn);
                ucr_pc_target t = { jn, ja->x, ja->y, 1, 1, false, { 0, 0 } };
                GString *rec = g_string_new(NULL);
                g_string_append_printf(rec, "corridor at (%d,%d): the map closed at %d room%s and no room's wall "
                                            "has space, so the GM adds a door off it (seed 003) → new room %d; %s",
                                       c.x, c.y, n, n == 1 ? "" : "s", n + 1, size->str);
                ucr_pc_connect(pc, &path, area, UCR_DOOR_PLAIN, &t, NULL, rec);
                room_register(dr, area, size->str);
                g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
                g_string_free(size, TRUE);
                pencil_new(dr);
                return true;
            }
        }
    }
    g_string_free(size, TRUE);
    return false;
}

/* Seed 003: "start out assuming each room has one entrance and one exit.
 * If you decide you need more exits, you can go back and place them
 * manually" — its answer when the dice close a map early.  The GM's exit
 * leaves a room rolled among those drawn, by a rolled wall (the others in
 * turn if nothing fits), and leads to a new room as seed 000 draws one (its
 * corridor's d10 rolled).  Returns false if no room has space for one. */
static bool gm_exit(drawer *dr)
{
    ucr_pc *pc = dr->pc;
    int n = drawn(dr), first = ucr_dice_d(pc->rng, n), wall = ucr_dice_d(pc->rng, 4) - 1;
    for (int i = 0; i < n; i++) {
        int room = (first - 1 + i) % n + 1, from = room_area(dr, room);
        for (int k = 0; k < 4; k++) {
            ucr_dir side = (ucr_dir)((wall + k) % 4);
            const ucr_area *a = area_at(dr, from);
            int wl = side == UCR_NORTH || side == UCR_SOUTH ? a->w : a->h;
            ucr_point m;
            if (!ucr_pc_mouth(pc, from, side, (wl - 1) / 2, &m))
                continue;
            int exit = ++g_array_index(dr->exits, int, room - 1);
            GString *rec = g_string_new(NULL);
            g_string_append_printf(rec, "room %d exit %d (%s wall): the map closed at %d room%s, so the GM adds "
                                        "an exit (seed 003) → new room %d", room, exit, ucr_dir_name(side), n,
                                   n == 1 ? "" : "s", n + 1);
            int area = new_room(dr, from, m, side, rec);
            if (area >= 0 || area == -2) {
                note(dr, room, rec->str);
                g_ptr_array_add(pc->node->rolls, g_string_free(rec, FALSE));
                pencil_new(dr);
                return true;
            }
            /* Nothing fits that way: nothing drawn, the next wall. */
            g_array_index(dr->exits, int, room - 1)--;
            g_string_free(rec, TRUE);
        }
    }
    return corridor_gm_exit(dr);
}

static void draw(drawer *dr)
{
    ucr_pc *pc = dr->pc;
    dr->budget = 8 + ucr_dice_d(pc->rng, 6);
    g_ptr_array_add(pc->node->rolls, g_strdup_printf("room budget 8+1d6=%d", dr->budget));
    GString *size = g_string_new(NULL);
    int w, h;
    ucr_pc_room_size(dr->tables, pc->rng, &w, &h, size);
    int x = pc->cv->w / 2 - w / 2 + ucr_dice_d(pc->rng, 7) - 4;
    int y = pc->cv->h / 2 - h / 2 + ucr_dice_d(pc->rng, 7) - 4;
    int first = ucr_pc_area_add(pc, UCR_AREA_ROOM, x, y, w, h, true, NULL);
    g_ptr_array_add(pc->node->rolls, g_strdup_printf("room 1: %s", size->str));
    room_register(dr, first, size->str);
    g_string_free(size, TRUE);
    pencil_new(dr);
    /* Rooms in number order, each exit in turn; the postponed ones last.
     * Where the dice close the map early, the GM adds an exit (seed 003)
     * and the rooms it leads to roll theirs in turn. */
    int room = 1;
    do {
        for (; room <= drawn(dr); room++)
            exits_roll(dr, room);
    } while (drawn(dr) < MIN_ROOMS && drawn(dr) < dr->budget && gm_exit(dr));
    for (guint i = 0; i < dr->postponed->len; i++)
        resolve(dr, &g_array_index(dr->postponed, exit_req, i), false);
    for (int n = 1; n <= drawn(dr); n++) {
        ucr_area *a = &g_array_index(pc->node->areas, ucr_area, room_area(dr, n));
        g_free(a->rolled);
        a->rolled = g_strdup(((GString *)g_ptr_array_index(dr->notes, n - 1))->str);
    }
}

static void *numbered_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                           const ucr_method_options *options)
{
    (void)rng;
    (void)join_sides;
    const ucr_numbered_options *o = ucr_method_options_get(options, &ucr_method_numbered);
    plan *p = g_new0(plan, 1);
    p->tables = tables;
    p->loop_every = (o && o->loop_checks ? o->loop_checks : 60) / 10;
    return p;
}

static void numbered_exits(void *p, GPtrArray *out)
{
    (void)p;
    (void)out;   /* no stairs of its own leave the node */
}

static void notes_free(gpointer s)
{
    g_string_free(s, TRUE);
}

/* One attempt at the node on @pc's fresh map (gen/kit/embed.h). */
static bool numbered_attempt(ucr_pc *pc, void *vp)
{
    plan *p = vp;
    drawer dr = { 0 };
    dr.pc = pc;
    /* A room behind two corridors a square apart is crossed to in one
     * stretch (seed 000's crossing table rolled for each). */
    pc->stretch = UCR_PC_STRETCH_MAX;
    dr.tables = p->tables;
    dr.loop_every = p->loop_every;
    dr.rooms = g_array_new(FALSE, FALSE, sizeof(int));
    dr.notes = g_ptr_array_new_with_free_func(notes_free);
    dr.postponed = g_array_new(FALSE, FALSE, sizeof(exit_req));
    dr.exits = g_array_new(FALSE, FALSE, sizeof(int));
    dr.pencilled = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    draw(&dr);
    /* Seed 000: "test the corridor every 60 feet or so for side passages
     * or doors".  A door with no room beside opens on a new room: the
     * checks come after every exit's d10, so its number (the next) is
     * counted in by none. */
    ucr_pc_corridor_checks(dr.pc, 6, true);
    g_array_free(dr.rooms, TRUE);
    g_ptr_array_free(dr.notes, TRUE);
    g_array_free(dr.postponed, TRUE);
    g_array_free(dr.exits, TRUE);
    g_ptr_array_free(dr.pencilled, TRUE);
    return true;
}

static ucr_node *numbered_embed(void *vp, const char *id, int col, int row, const ucr_node_request *req,
                                ucr_prng *rng, GError **error)
{
    plan *p = vp;
    int w, h;
    ucr_node_size_extent(req->size, MAP_W, MAP_H, &w, &h);
    return ucr_embed_retry(id, col, row, "numbered", w, h, ATTEMPTS, p->tables, req, rng,
                           numbered_attempt, p, error);
}

static void numbered_free(void *p)
{
    g_free(p);
}

/* seed 000's tables (templates/tables/numbered-*.txt) and the kinds of row
 * this file acts on; a row whose text is a number is checked for it. */
static const char *numbered_number_text(const char *text, int lo, int hi, int step)
{
    char *end;
    long v = strtol(text, &end, 10);
    while (g_ascii_isspace(*end))
        end++;
    return *text && *end == '\0' && v >= lo && v <= hi && v % step == 0 ? NULL : "";
}

static const char *numbered_destination_text(const char *tag, const char *text)
{
    return strcmp(tag, "relative") != 0 || !numbered_number_text(text, -9, 9, 1)
               ? NULL
               : "a [relative] row is a number from -9 to +9 added to the current room's";
}

static const char *numbered_corridor_text(const char *tag, const char *text)
{
    return strcmp(tag, "none") == 0 || !numbered_number_text(text, 10, 120, 10)
               ? NULL
               : "a [length] or [long] row is the corridor's length in feet: 10, 20, … 120";
}

static const char *const NUMBERED_DESTINATION_KINDS[] = { "relative", "distant", NULL };
static const char *const NUMBERED_CORRIDOR_KINDS[] = { "none", "length", "long", NULL };
static const char *const NUMBERED_TURN_KINDS[] = { "left", "right", "straight", NULL };
static const ucr_table_need NUMBERED_NEEDS[] = {
    { "numbered-destination", NUMBERED_DESTINATION_KINDS, numbered_destination_text, FALSE },
    { "numbered-corridor", NUMBERED_CORRIDOR_KINDS, numbered_corridor_text, FALSE },
    { "numbered-turn", NUMBERED_TURN_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};
static const ucr_table_need *const NUMBERED_TABLES[] = { NUMBERED_NEEDS, ucr_pc_tables, NULL };

/* The command line: --loop-checks, read by numbered_roll. */
typedef struct {
    int loop_checks;             /* as GOption sets it */
    ucr_numbered_options options;
} numbered_cli;

static void *numbered_cli_new(GOptionEntry **entries)
{
    numbered_cli *c = g_new0(numbered_cli, 1);
    const GOptionEntry list[] = {
        { "loop-checks", 0, 0, G_OPTION_ARG_INT, &c->loop_checks,
          "numbered method: check a corridor back to its own room (a d10 of 5) every FEET for doors and "
          "side passages: 60 (the default) or 30 (seed 000's \"possibly even every 30 feet\")",
          "FEET" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    *entries = g_memdup2(list, sizeof list);
    return c;
}

static gboolean numbered_cli_ready(void *state, GError **error)
{
    numbered_cli *c = state;
    if (c->loop_checks && c->loop_checks != 30 && c->loop_checks != 60) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --loop-checks %d: use 30 or 60 (feet)", c->loop_checks);
        return FALSE;
    }
    return TRUE;
}

static const void *numbered_cli_get(void *state)
{
    numbered_cli *c = state;
    c->options.loop_checks = c->loop_checks;
    return &c->options;
}

static const ucr_cli_range NUMBERED_RANGES[] = {
    { "loop-checks", 30, 60 },
    { NULL, 0, 0 },
};

static const ucr_method_cli NUMBERED_CLI = {
    .ranges = NUMBERED_RANGES,
    .state_new = numbered_cli_new,
    .ready = numbered_cli_ready,
    .get = numbered_cli_get,
    .state_free = g_free,
};

/* The rules of this method the map can override, for the drawn-as-rolled
 * report (key/honour.c); tests/honour_recount.py reads the same records. */
static const ucr_honour_rule NUMBERED_RULES[] = {
    { "5: back to the current room, a loop (seed 000)",
      "back to the current room = room [0-9]+ → ",
      { { "back to the current room = room [0-9]+ → room [0-9]+ \\(no way there: a dead end\\)",
          "no loop fits: a dead end" },
        { "back to the current room = room [0-9]+ → [^;]*" UCR_HONOUR_CROSSED "\\(cut short", "cut short" } } },
    { "a room's number: the corridor reaches that room (seed 000)",
      "= room [0-9]+ → room [0-9]+",
      { { "= room [0-9]+ → room [0-9]+ \\(no way there: a dead end\\)", "no way there: a dead end" },
        { "= room [0-9]+ → room [0-9]+[^;]*" UCR_HONOUR_CROSSED "\\(cut short", "cut short" } } },
    { "a new room: its corridor as long as rolled (d10, seed 000)",
      "→ new room [0-9]+; corridor d10=",
      /* A room with no space that way at all has no corridor: the next
       * rule's failure, counted apart (doc/methods.md's reading). */
      { { "→ new room [0-9]+; corridor d10=[^;(]*\\(no room for it: routed\\) \\(no space for it that way",
          "no space that way at all: no room made" },
        { "→ new room [0-9]+; corridor d10=[^;(]*\\(no room for it", "no room for that length: routed" } } },
    { "a new room: made where the exit faces (seed 000)",
      "→ new room [0-9]+",
      { { "\\(no space for it that way", "no space that way: counted on to an old room" } } },
    { NULL, NULL, { { NULL, NULL } } },
};
static const ucr_honour_rule *const NUMBERED_HONOUR[] = { NUMBERED_RULES, UCR_PC_HONOUR_EXITS, UCR_PC_HONOUR_CHECKS, NULL };

const ucr_node_method ucr_method_numbered = {
    .honour = NUMBERED_HONOUR,
    .name = "numbered",
    .seeds = "000",
    .summary = "pre-connecting SubMethod I: d10 relative room number (-4..+4, 5 back, 0 distant room), "
               "d10 corridor length, d10 crossings under/over",
    .roll = numbered_roll,
    .exits = numbered_exits,
    .embed = numbered_embed,
    .free = numbered_free,
    .tables = NUMBERED_TABLES,
    .cli = &NUMBERED_CLI,
    .sized = true,
};
