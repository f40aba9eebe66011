#include "gen/super/megadungeon.h"

#include <stddef.h>
#include <string.h>

#include "core/error.h"
#include "gen/kit/attach.h"
#include "gen/kit/embed.h"
#include "gen/kit/roll004.h"

#ifndef UCR_VERSION
#define UCR_VERSION "0.0.0"
#endif

/* A link end, before the nodes are drawn: which node, which area (filled by
 * the node method), and the other end. */
typedef struct {
    int node;
    ucr_link_kind kind;
    ucr_exit exit;
    int peer;
    int side;          /* ucr_dir, or -1 for stairs */
    char *via;
    bool landed;       /* placed by landings_spread */
} slot;

/* A stair that is to land in some node of @level, which one to be chosen
 * once the nodes are drawn (landings_spread). */
typedef struct {
    int slot;          /* its landing's slot; the slot's node is -1 until then */
    int level;
    ucr_stair stair;   /* as seen in the node it lands in */

    int node;          /* the node it must land in (an arrival that gives the node its
                        * level, arrivals_defer), or -1: any node of @level */
    const ucr_arrival_hint *hint;   /* what was thrown for it where it was rolled, or NULL */
} late_landing;

typedef struct {
    ucr_megadungeon *md;
    const ucr_gen_options *opt;
    int n;
    ucr_half *shalves;          /* superstructure halves [node*4+dir] */
    ucr_prng *node_rng;
    const ucr_node_method **methods;
    void **plans;
    int *depth;                 /* 0: not reached yet */
    GArray *slots;              /* slot */
    GArray **arrivals;          /* per node: ucr_arrival */
    ucr_join_request (*joins)[4];
    GPtrArray **exits;          /* per node: ucr_step* */
    GArray *late;               /* late_landing */
    int *late_load;             /* per node: late landings it is meant for so far */
} builder;

static int slot_add(builder *b, int node, ucr_link_kind kind, ucr_exit exit, int side,
                    const char *via)
{
    slot s = { node, kind, exit, -1, side, g_strdup(via), false };
    g_array_append_val(b->slots, s);
    return (int)b->slots->len - 1;
}

static slot *slot_at(builder *b, int i)
{
    return &g_array_index(b->slots, slot, i);
}

static int neighbour(const builder *b, int node, ucr_dir d)
{
    int cols = b->md->columns, rows = b->md->rows;
    int c = node % cols, r = node / cols;
    switch (d) {
    case UCR_NORTH: return r > 0 ? node - cols : -1;
    case UCR_SOUTH: return r < rows - 1 ? node + cols : -1;
    case UCR_WEST: return c > 0 ? node - 1 : -1;
    case UCR_EAST: return c < cols - 1 ? node + 1 : -1;
    }
    return -1;
}

static int half_descent(const ucr_half *h)
{
    int d = 0;
    for (int i = 0; i < h->n; i++) {
        if (h->steps[i].kind != UCR_STEP_STAIRS)
            continue;
        ucr_stair s = h->steps[i].stair;
        d += (s == UCR_STAIR_DOWN || s == UCR_LADDER_DOWN) ? 1 : -1;
    }
    return d;
}

static const ucr_step *first_stairs(const ucr_half *h)
{
    for (int i = 0; i < h->n; i++)
        if (h->steps[i].kind == UCR_STEP_STAIRS)
            return &h->steps[i];
    return NULL;
}

static ucr_tunnel tunnel_combine(int from, int to, const ucr_half *a, const ucr_half *b)
{
    ucr_tunnel t = { 0 };
    t.from = from;
    t.to = to;
    t.descent = t.rolled_descent = half_descent(a) - half_descent(b);
    t.chamber = ucr_half_has(a, UCR_STEP_ROOM_DOOR) || ucr_half_has(a, UCR_STEP_ROOM_OPEN) ||
                ucr_half_has(b, UCR_STEP_ROOM_DOOR) || ucr_half_has(b, UCR_STEP_ROOM_OPEN);
    t.rolled_from = ucr_roll004_describe(a);
    t.rolled_to = ucr_roll004_describe(b);
    const ucr_step *st = first_stairs(a) ? first_stairs(a) : first_stairs(b);
    if (!a->through && !b->through)
        t.kind = UCR_TUNNEL_WALL;
    else if (ucr_half_has(a, UCR_STEP_BLOCKED) || ucr_half_has(b, UCR_STEP_BLOCKED))
        t.kind = UCR_TUNNEL_BLOCKED;
    else if (ucr_half_has(a, UCR_STEP_SECRET) || ucr_half_has(b, UCR_STEP_SECRET))
        t.kind = UCR_TUNNEL_SECRET;
    else if (st)
        t.kind = (st->stair == UCR_LADDER_DOWN || st->stair == UCR_LADDER_UP) ? UCR_TUNNEL_LADDER
                                                                              : UCR_TUNNEL_STAIRS;
    else if (ucr_half_has(a, UCR_STEP_DOOR) || ucr_half_has(b, UCR_STEP_DOOR) ||
             ucr_half_has(a, UCR_STEP_ROOM_DOOR) || ucr_half_has(b, UCR_STEP_ROOM_DOOR))
        t.kind = UCR_TUNNEL_DOOR;
    else
        t.kind = UCR_TUNNEL_OPEN;
    return t;
}

/* What a traveller meets going along tunnel @t from @node ("stairs down"). */
static char *tunnel_via(const ucr_tunnel *t, int node)
{
    int descent = node == t->from ? t->descent : -t->descent;
    const char *kind = t->kind == UCR_TUNNEL_SECRET ? "secret door"
                       : t->kind == UCR_TUNNEL_DOOR ? "door"
                       : t->kind == UCR_TUNNEL_LADDER ? "ladder"
                       : t->kind == UCR_TUNNEL_STAIRS ? "stairs" : "open tunnel";
    GString *s = g_string_new(kind);
    bool climbs = t->kind == UCR_TUNNEL_STAIRS || t->kind == UCR_TUNNEL_LADDER;
    if (descent && !climbs)
        g_string_append(s, ", sloping");
    if (descent > 0)
        g_string_append_printf(s, ", %d level%s down", descent, descent > 1 ? "s" : "");
    else if (descent < 0)
        g_string_append_printf(s, ", %d level%s up", -descent, descent < -1 ? "s" : "");
    else if (climbs)
        g_string_append(s, " down and up again to the same level");
    /* Seed 004 rolled the stairs the other way (or level): around a loop of
     * tunnels the rolls cannot all be kept (levels_search), so both ends
     * say which way the dice went. */
    int rolled = node == t->from ? t->rolled_descent : -t->rolled_descent;
    if (rolled && descent * rolled <= 0)
        g_string_append_printf(s, ", though rolled going %s: the levels around cannot all agree",
                               rolled > 0 ? "down" : "up");
    if (t->chamber)
        g_string_append(s, ", past a chamber");
    return g_string_free(s, FALSE);
}

/* The half a node shows for a join: the doors, collapses and chambers of
 * its own end of the tunnel (stairs lie out in the long tunnel).  Seed 004's
 * "room" on a superstructure tunnel (a door to a room on double 2s, a room on
 * double 4s) is a chamber the tunnel passes through: it lies at the end that
 * rolled it, just inside that node's map, where the node draws and keys it
 * as a room on the joining tunnel (grid as it draws the tunnel; for the
 * other methods chambers_add puts it on the tunnel they drew).  Its dice are
 * the superstructure's, kept for the key. */
static ucr_half join_half(const ucr_half *end, bool blocked)
{
    ucr_half h = { 0 };
    h.through = true;
    for (int i = 0; i < end->n && h.n < UCR_HALF_MAX_STEPS; i++) {
        ucr_step_kind k = end->steps[i].kind;
        if (k == UCR_STEP_DOOR || k == UCR_STEP_SECRET || k == UCR_STEP_BLOCKED)
            h.steps[h.n++] = (ucr_step){ k, UCR_STAIR_NONE, -1, false, NULL };
        else if (k == UCR_STEP_ROOM_DOOR || k == UCR_STEP_ROOM_OPEN) {
            /* The door first (what other methods read), then the chamber
             * behind it, which takes that door as its own. */
            if (k == UCR_STEP_ROOM_DOOR && h.n < UCR_HALF_MAX_STEPS - 1)
                h.steps[h.n++] = (ucr_step){ UCR_STEP_DOOR, UCR_STAIR_NONE, -1, false, NULL };
            h.steps[h.n++] = (ucr_step){ k, UCR_STAIR_NONE, -1, false, NULL };
        }
    }
    memcpy(h.rolls, end->rolls, sizeof h.rolls);
    h.nrolls = end->nrolls;
    if (blocked && !ucr_half_has(&h, UCR_STEP_BLOCKED) && h.n < UCR_HALF_MAX_STEPS)
        h.steps[h.n++] = (ucr_step){ UCR_STEP_BLOCKED, UCR_STAIR_NONE, -1, false, NULL };
    return h;
}

static ucr_link_kind stair_link_kind(ucr_stair s)
{
    switch (s) {
    case UCR_STAIR_UP: return UCR_LINK_STAIRS_UP;
    case UCR_LADDER_DOWN: return UCR_LINK_LADDER_DOWN;
    case UCR_LADDER_UP: return UCR_LINK_LADDER_UP;
    default: return UCR_LINK_STAIRS_DOWN;
    }
}

static void superstructure_roll(builder *b, ucr_prng *rng)
{
    ucr_megadungeon *md = b->md;
    b->shalves = g_new0(ucr_half, b->n * 4);
    md->halves = g_new0(ucr_super_half, b->n * 4);
    for (int i = 0; i < b->n * 4; i++) {
        ucr_roll004_half(b->opt->tables, rng, &b->shalves[i]);
        md->halves[i].rolled = ucr_roll004_describe(&b->shalves[i]);
        md->halves[i].through = b->shalves[i].through;
    }
    md->tunnels = g_array_new(FALSE, TRUE, sizeof(ucr_tunnel));
    for (int i = 0; i < b->n; i++)
        for (int d = UCR_EAST; d <= UCR_SOUTH; d++) {
            int j = neighbour(b, i, (ucr_dir)d);
            if (j < 0)
                continue;
            ucr_tunnel t = tunnel_combine(i, j, &b->shalves[i * 4 + d],
                                          &b->shalves[j * 4 + (d + 2) % 4]);
            if (t.kind == UCR_TUNNEL_WALL) {
                g_free(t.rolled_from);
                g_free(t.rolled_to);
                continue;
            }
            g_array_append_val(md->tunnels, t);
        }
}

/* Stair tunnels that climb from node @m as rolled (seed 004: "up on double
 * 5s or 6s"): from the entrance, on level 1, they could climb nowhere. */
static int climbs_from(const builder *b, int m)
{
    int climbs = 0;
    for (guint t = 0; t < b->md->tunnels->len; t++) {
        const ucr_tunnel *tu = &g_array_index(b->md->tunnels, ucr_tunnel, t);
        if (tu->kind != UCR_TUNNEL_BLOCKED)
            climbs += (tu->from == m && tu->rolled_descent < 0) || (tu->to == m && tu->rolled_descent > 0);
    }
    return climbs;
}

/* The way in from the surface: a tunnel into a hill at an open end of the
 * superstructure's outer tunnels, else stairs down into any node; a die
 * picks among the nodes from which the fewest stair tunnels were rolled
 * climbing, since the entrance lies on level 1, nearest the surface. */
static void entrance_choose(builder *b, ucr_prng *rng)
{
    ucr_megadungeon *md = b->md;
    GArray *ways = g_array_new(FALSE, FALSE, sizeof(int));
    bool tunnel = false;
    for (int i = 0; i < b->n; i++)
        for (int d = 0; d < 4; d++)
            tunnel |= neighbour(b, i, (ucr_dir)d) < 0 && b->shalves[i * 4 + d].through;
    for (int fewest = 0; !ways->len; fewest++)
        for (int i = 0; i < b->n; i++) {
            if (climbs_from(b, i) != fewest)
                continue;
            for (int d = 0; d < 4; d++) {
                int w = i * 4 + d;
                if (!tunnel && d == 0)
                    g_array_append_val(ways, w);
                else if (tunnel && neighbour(b, i, (ucr_dir)d) < 0 && b->shalves[w].through)
                    g_array_append_val(ways, w);
            }
        }
    int w = g_array_index(ways, int, ucr_dice_d(rng, (int)ways->len) - 1);
    md->entrance_node = w / 4;
    md->entrance_stairs = !tunnel;
    md->entrance_side = tunnel ? (ucr_dir)(w % 4) : (ucr_dir)-1;
    g_array_free(ways, TRUE);
}

/* Levels along the superstructure tunnels from @start (whose depth is set),
 * fewest tunnels first, to every node of its tunnel network not yet given a
 * level: each tunnel adds the levels its rolled stairs go down (seed 004:
 * "9-12 stairs down … up on double 5s or 6s"), one at most, never above
 * level 1.  The first guess that levels_search improves.  @net receives the
 * nodes reached (@start first), @dist their tunnels from @start (-1: not
 * reached); returns how many. */
static int depth_spread(builder *b, int start, int *net, int *dist)
{
    ucr_megadungeon *md = b->md;
    int head = 0, tail = 0;
    for (int i = 0; i < b->n; i++)
        dist[i] = -1;
    dist[start] = 0;
    net[tail++] = start;
    while (head < tail) {
        int v = net[head++];
        for (guint t = 0; t < md->tunnels->len; t++) {
            const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
            if (tu->kind == UCR_TUNNEL_BLOCKED || (tu->from != v && tu->to != v))
                continue;
            int w = tu->from == v ? tu->to : tu->from;
            if (b->depth[w] || dist[w] >= 0)
                continue;
            int step = CLAMP(tu->from == v ? tu->rolled_descent : -tu->rolled_descent, -1, 1);
            b->depth[w] = MAX(1, b->depth[v] + step);
            dist[w] = dist[v] + 1;
            net[tail++] = w;
        }
    }
    return tail;
}

/* How well levels fit the rolls (levels_score): each figure larger is
 * better, compared in order, the first that differs decides. */
enum { FIT_GAPS, FIT_DEPTH, FIT_HONOURED, FIT_SKIPS, FIT_LONE, FIT_ASTRAY, FIT_SLOPES, FIT_COUNT };
typedef struct {
    int v[FIT_COUNT];
} level_fit;

static bool fit_better(const level_fit *a, const level_fit *b)
{
    for (int i = 0; i < FIT_COUNT; i++)
        if (a->v[i] != b->v[i])
            return a->v[i] > b->v[i];
    return false;
}

/* The figures fit_tunnel counts for a tunnel of @rolled_descent whose ends
 * lie at levels @from and @to (0: no level yet). */
static inline void fit_levels(level_fit *f, int from, int to, int rolled_descent)
{
    if (!from || !to)
        return;
    int d = to - from;
    f->v[FIT_HONOURED] += rolled_descent && d * rolled_descent > 0;
    f->v[FIT_SKIPS] -= ABS(d) > 1;
    f->v[FIT_SLOPES] -= d != 0 && !rolled_descent;
}

/* Counts open tunnel @tu into @f (its three figures), if both its nodes
 * have levels. */
static void fit_tunnel(level_fit *f, const builder *b, const ucr_tunnel *tu)
{
    fit_levels(f, b->depth[tu->from], b->depth[tu->to], tu->rolled_descent);
}

/* How well the levels fit the rolls, in order: no level left out between 1
 * and the deepest (stairs inside nodes land one level on, exit_resolve);
 * the depth @target reached (DESIGN "Levels": a 3 × 3 runs at least three
 * levels deep); the stair tunnels that go the way seed 004 rolled them; no
 * tunnel that skips a level; no level of one node beside one of three or
 * more (that node became a hub of landings, its halls full of flights); the
 * nodes near their @ideal level (their distance from where the network is
 * entered: 0, no wish); the fewest tunnels that slope. */
static level_fit levels_score(const builder *b, int target, const int *ideal)
{
    const ucr_megadungeon *md = b->md;
    level_fit f = { { 0 } };
    int deepest = 0;
    for (int m = 0; m < b->n; m++)
        deepest = MAX(deepest, b->depth[m]);
    /* Levels never outnumber the nodes (10 × 10 at most, plus one tried). */
    int stack[128], *count = deepest + 2 <= 128 ? stack : g_new(int, deepest + 2);
    memset(count, 0, sizeof *count * (gsize)(deepest + 2));
    for (int m = 0; m < b->n; m++) {
        count[b->depth[m]]++;
        f.v[FIT_ASTRAY] -= ideal[m] ? ABS(b->depth[m] - ideal[m]) : 0;
    }
    for (int l = 1; l <= deepest; l++) {
        f.v[FIT_GAPS] -= count[l] == 0;
        f.v[FIT_LONE] -= count[l] == 1 && ((l > 1 && count[l - 1] >= 3) || count[l + 1] >= 3);
    }
    if (count != stack)
        g_free(count);
    for (guint t = 0; t < md->tunnels->len; t++) {
        const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
        if (tu->kind != UCR_TUNNEL_BLOCKED)
            fit_tunnel(&f, b, tu);
    }
    f.v[FIT_DEPTH] = -MAX(0, target - deepest);
    return f;
}

/* What levels_score counts of everything but nodes @m and @w (-1: none),
 * which levels_move tries at every level: worked out once a move, so that
 * a try counts only the levels and the tunnels that touch @m or @w (the
 * whole count, once per try, was a tenth of a small dungeon's making).
 * Kept on the stack while the dungeon is small enough (a move is tried a
 * few hundred times a dungeon: its allocations were a fifth of its cost). */
enum { REST_LEVELS = 128, REST_TOUCHING = 32 };
typedef struct {
    int from, to, rolled_descent;
} rest_tunnel;
typedef struct {
    int *count;          /* nodes a level but @m and @w, [0, deepest of all + 3) */
    int deepest;         /* the deepest of the others */
    int astray;          /* FIT_ASTRAY of the others */
    level_fit tunnels;   /* the tunnels' figures of the open tunnels that touch neither */
    rest_tunnel *touching;   /* the open tunnels that touch @m or @w */
    int n_touching;
    int count_stack[REST_LEVELS];
    rest_tunnel touching_stack[REST_TOUCHING];
} level_rest;

static void level_rest_init(level_rest *r, const builder *b, int m, int w, int deepest_all, const int *ideal)
{
    memset(r, 0, offsetof(level_rest, count_stack));
    r->count = deepest_all + 3 <= REST_LEVELS ? r->count_stack : g_new(int, deepest_all + 3);
    memset(r->count, 0, sizeof *r->count * (gsize)(deepest_all + 3));
    for (int i = 0; i < b->n; i++) {
        if (i == m || i == w)
            continue;
        r->deepest = MAX(r->deepest, b->depth[i]);
        r->count[b->depth[i]]++;
        r->astray -= ideal[i] ? ABS(b->depth[i] - ideal[i]) : 0;
    }
    const GArray *tunnels = b->md->tunnels;
    int cap = REST_TOUCHING;
    r->touching = r->touching_stack;
    for (guint t = 0; t < tunnels->len; t++) {
        const ucr_tunnel *tu = &g_array_index(tunnels, ucr_tunnel, t);
        if (tu->kind == UCR_TUNNEL_BLOCKED)
            continue;
        if (tu->from == m || tu->to == m || tu->from == w || tu->to == w) {
            if (r->n_touching == cap) {
                cap *= 2;
                r->touching = r->touching == r->touching_stack
                                  ? g_memdup2(r->touching_stack, sizeof r->touching_stack)
                                  : r->touching;
                r->touching = g_renew(rest_tunnel, r->touching, cap);
            }
            r->touching[r->n_touching++] = (rest_tunnel) { tu->from, tu->to, tu->rolled_descent };
            continue;
        }
        fit_tunnel(&r->tunnels, b, tu);
    }
}

static void level_rest_clear(level_rest *r)
{
    if (r->count != r->count_stack)
        g_free(r->count);
    if (r->touching != r->touching_stack)
        g_free(r->touching);
}

/* levels_score of the levels as they are, @m and @w (-1: none) where
 * levels_move put them, from @r: the same figures, counted faster. */
static level_fit level_rest_score(const level_rest *r, const builder *b, int m, int w, int target, const int *ideal)
{
    level_fit f = { { 0 } };
    int dm = b->depth[m], dw = w >= 0 ? b->depth[w] : 0;
    int deepest = MAX(r->deepest, MAX(dm, dw));
    r->count[dm]++;
    if (w >= 0)
        r->count[dw]++;
    for (int l = 1; l <= deepest; l++) {
        f.v[FIT_GAPS] -= r->count[l] == 0;
        f.v[FIT_LONE] -= r->count[l] == 1 && ((l > 1 && r->count[l - 1] >= 3) || r->count[l + 1] >= 3);
    }
    r->count[dm]--;
    if (w >= 0)
        r->count[dw]--;
    f.v[FIT_ASTRAY] = r->astray - (ideal[m] ? ABS(dm - ideal[m]) : 0) - (w >= 0 && ideal[w] ? ABS(dw - ideal[w]) : 0);
    f.v[FIT_HONOURED] = r->tunnels.v[FIT_HONOURED];
    f.v[FIT_SKIPS] = r->tunnels.v[FIT_SKIPS];
    f.v[FIT_SLOPES] = r->tunnels.v[FIT_SLOPES];
    for (int k = 0; k < r->n_touching; k++) {
        const rest_tunnel *tu = &r->touching[k];
        fit_levels(&f, b->depth[tu->from], b->depth[tu->to], tu->rolled_descent);
    }
    f.v[FIT_DEPTH] = -MAX(0, target - deepest);
    return f;
}

/* Moves node @m, and @w too unless it is -1, to the levels that score best
 * (levels_score) if that beats @best; true if it moved them. */
static bool levels_move(builder *b, int m, int w, int target, const int *ideal, level_fit *best)
{
    if (w == m)
        w = -1;   /* a tunnel from a node to itself: the node alone */
    int deepest = 0, was_m = b->depth[m], was_w = w >= 0 ? b->depth[w] : 0;
    int pick_m = was_m, pick_w = was_w;
    for (int i = 0; i < b->n; i++)
        deepest = MAX(deepest, b->depth[i]);
    level_rest rest;
    level_rest_init(&rest, b, m, w, deepest, ideal);
    for (int lm = 1; lm <= deepest + 1; lm++)
        for (int lw = w >= 0 ? 1 : 0; lw <= (w >= 0 ? deepest + 1 : 0); lw++) {
            b->depth[m] = lm;
            if (w >= 0)
                b->depth[w] = lw;
            level_fit s = level_rest_score(&rest, b, m, w, target, ideal);
            if (fit_better(&s, best)) {
                *best = s;
                pick_m = lm;
                pick_w = lw;
            }
        }
    b->depth[m] = pick_m;
    if (w >= 0)
        b->depth[w] = pick_w;
    level_rest_clear(&rest);
    return pick_m != was_m || pick_w != was_w;
}

/* Improves the levels of the @len nodes of @net (all but the first, whose
 * level is given), a node or the two ends of a tunnel at a time, each move
 * to the levels that score best (levels_score), until no move helps: the
 * levels of a tunnel network are a constraint problem (every stair tunnel
 * wants its far end one level on, the way it was rolled), and around a
 * loop of tunnels the rolls may disagree, so the search keeps what most of
 * them ask.  Moving both ends of a tunnel gets past a tunnel whose stairs
 * a single move would trade for another's. */
static void levels_descend(builder *b, const int *net, int len, const bool *in, int target, const int *ideal,
                           level_fit *best)
{
    const ucr_megadungeon *md = b->md;
    for (int rounds = 0; rounds < 4 * b->n; rounds++) {
        bool moved = false;
        for (int k = 1; k < len; k++)
            moved |= levels_move(b, net[k], -1, target, ideal, best);
        for (guint t = 0; t < md->tunnels->len; t++) {
            const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
            if (tu->kind != UCR_TUNNEL_BLOCKED && in[tu->from] && in[tu->to])
                moved |= levels_move(b, tu->from, tu->to, target, ideal, best);
        }
        if (!moved)
            break;
    }
}

/* The nodes of @in that @m reaches along open tunnels without passing a
 * node shallower than @m (for @step 1; deeper for -1): the part of the
 * network that hangs below (above) @m, shifted by @step. */
static void levels_shift(builder *b, int m, int step, const bool *in, int *queue)
{
    const ucr_megadungeon *md = b->md;
    int from = b->depth[m], head = 0, tail = 0;
    bool *seen = g_new0(bool, b->n);
    seen[m] = true;
    queue[tail++] = m;
    while (head < tail) {
        int v = queue[head++];
        for (guint t = 0; t < md->tunnels->len; t++) {
            const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
            int w = tu->from == v ? tu->to : tu->to == v ? tu->from : -1;
            if (w < 0 || tu->kind == UCR_TUNNEL_BLOCKED || !in[w] || seen[w] ||
                (b->depth[w] - from) * step < 0)
                continue;
            seen[w] = true;
            queue[tail++] = w;
        }
    }
    for (int k = 0; k < tail; k++)
        b->depth[queue[k]] = MAX(1, b->depth[queue[k]] + step);
    g_free(seen);
}

/* Improves the levels of the @len nodes of @net (all but the first, whose
 * level is given), a node or the two ends of a tunnel at a time, each move
 * to the levels that score best (levels_score), until no move helps: the
 * levels of a tunnel network are a constraint problem (every stair tunnel
 * wants its far end one level on, the way it was rolled), and around a
 * loop of tunnels the rolls may disagree, so the search keeps what most of
 * them ask.  In a network of a dozen nodes or fewer it then shifts the
 * part below (or above) each node by a level and searches again from
 * there, keeping what scores better: that gets past a level that single
 * moves would trade one kept roll for another to leave. */
static void levels_search(builder *b, const int *net, int len, int target, const int *ideal)
{
    bool *in = g_new0(bool, b->n);
    int *keep = g_new(int, b->n), *queue = g_new(int, b->n);
    for (int k = 1; k < len; k++)
        in[net[k]] = true;
    level_fit best = levels_score(b, target, ideal);
    levels_descend(b, net, len, in, target, ideal, &best);
    for (int k = 1; k < len && len <= 12; k++)
        for (int step = 1; step >= -1; step -= 2) {
            memcpy(keep, b->depth, sizeof *keep * (gsize)b->n);
            levels_shift(b, net[k], step, in, queue);
            level_fit tried = levels_score(b, target, ideal);
            levels_descend(b, net, len, in, target, ideal, &tried);
            if (fit_better(&tried, &best))
                best = tried;
            else
                memcpy(b->depth, keep, sizeof *keep * (gsize)b->n);
        }
    g_free(queue);
    g_free(keep);
    g_free(in);
}

/* Gives node @start level @depth and levels to the rest of its tunnel
 * network not yet reached, the way its stair tunnels were rolled where the
 * rolls agree (levels_search).  Seed 004's stairs alone left many
 * megadungeons one or two levels deep: the network reaches three levels
 * when it has nodes enough that far apart, by sloping tunnels that rolled
 * no stairs where it can. */
static void depth_network(builder *b, int start, int depth)
{
    int *dist = g_new(int, b->n), *net = g_new(int, b->n), *ideal = g_new0(int, b->n);
    b->depth[start] = depth;
    int len = depth_spread(b, start, net, dist);
    int far = 0, levels = MIN(3, b->n);
    for (int i = 0; i < b->n; i++)
        far = MAX(far, dist[i]);
    for (int k = 0; k < len && far; k++)
        ideal[net[k]] = depth + MIN(dist[net[k]], ((levels - 1) * dist[net[k]] + far - 1) / far);
    levels_search(b, net, len, MIN(levels, depth + far), ideal);
    g_free(ideal);
    g_free(dist);
    g_free(net);
}

static void depth_from_tunnels(builder *b)
{
    depth_network(b, b->md->entrance_node, 1);
}

/* Once every level is known: a tunnel's descent is the levels between its
 * ends, and its description says so (a tunnel with no stairs rolled that
 * still joins two levels slopes). */
static void tunnels_level(builder *b)
{
    ucr_megadungeon *md = b->md;
    for (guint t = 0; t < md->tunnels->len; t++) {
        ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
        tu->descent = b->depth[tu->to] - b->depth[tu->from];
        ucr_dir d = tu->to / md->columns == tu->from / md->columns ? UCR_EAST : UCR_SOUTH;
        ucr_dir back = (ucr_dir)((d + 2) % 4);
        int sa = b->joins[tu->from][d].link, sb = b->joins[tu->to][back].link;
        if (sa < 0 || sb < 0)
            continue;
        g_free(slot_at(b, sa)->via);
        g_free(slot_at(b, sb)->via);
        slot_at(b, sa)->via = tunnel_via(tu, tu->from);
        slot_at(b, sb)->via = tunnel_via(tu, tu->to);
    }
}

static void joins_build(builder *b)
{
    ucr_megadungeon *md = b->md;
    b->joins = g_malloc0_n((gsize)b->n, sizeof *b->joins);
    for (guint t = 0; t < md->tunnels->len; t++) {
        ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, t);
        /* Same row: an east-west tunnel (with one column, from + 1 is the
         * node below, so compare rows, not indices). */
        ucr_dir d = tu->to / md->columns == tu->from / md->columns ? UCR_EAST : UCR_SOUTH;
        ucr_dir back = (ucr_dir)((d + 2) % 4);
        bool blocked = tu->kind == UCR_TUNNEL_BLOCKED;
        ucr_join_request *ja = &b->joins[tu->from][d], *jb = &b->joins[tu->to][back];
        ja->used = jb->used = true;
        ja->half = join_half(&b->shalves[tu->from * 4 + d], blocked);
        jb->half = join_half(&b->shalves[tu->to * 4 + back], blocked);
        ja->link = jb->link = -1;
        if (blocked)
            continue;
        char *va = tunnel_via(tu, tu->from), *vb = tunnel_via(tu, tu->to);
        int sa = slot_add(b, tu->from, UCR_LINK_TUNNEL, UCR_EXIT_NONE, d, va);
        int sb = slot_add(b, tu->to, UCR_LINK_TUNNEL, UCR_EXIT_NONE, back, vb);
        g_free(va);
        g_free(vb);
        slot_at(b, sa)->peer = sb;
        slot_at(b, sb)->peer = sa;
        ja->link = sa;
        jb->link = sb;
    }
    if (!md->entrance_stairs) {
        int e = md->entrance_node;
        ucr_dir d = md->entrance_side;
        ucr_join_request *j = &b->joins[e][d];
        j->used = true;
        j->half = join_half(&b->shalves[e * 4 + d], false);
        j->link = slot_add(b, e, UCR_LINK_ENTRANCE, UCR_EXIT_SURFACE, d, "tunnel into a hill");
    }
}


/* Has a method drawn the chamber of side @side's tunnel itself (grid lays
 * its stations on the tunnel as it draws it)? */
static bool chamber_drawn(const ucr_node *node, ucr_dir side)
{
    char *want = g_strdup_printf("superstructure tunnel %s, a chamber on the way: ", ucr_dir_name(side));
    bool found = false;
    for (guint a = 0; a < node->areas->len && !found; a++) {
        const char *r = g_array_index(node->areas, ucr_area, a).rolled;
        found = r && g_str_has_prefix(r, want);
    }
    g_free(want);
    return found;
}

/* Seed 004, Step 2 -> 3: a superstructure "room" (double 2s behind a door,
 * double 4s) is a real chamber on its tunnel, in whatever method's node the
 * end that rolled it lies (join_half): one the method did not draw goes on
 * the tunnel it drew to the edge (ucr_attach_chamber), and the tunnel's link
 * leaves from the chamber, the last area before the edge. */
static void chambers_add(const builder *b, ucr_node *node, const ucr_node_request *req, ucr_prng *rng)
{
    for (int d = 0; d < 4; d++) {
        const ucr_join_request *j = &req->joins[d];
        if (!j->used || !(ucr_half_has(&j->half, UCR_STEP_ROOM_DOOR) || ucr_half_has(&j->half, UCR_STEP_ROOM_OPEN)))
            continue;
        if (chamber_drawn(node, (ucr_dir)d))
            continue;
        int area = j->link >= 0 ? req->link_area[j->link] : -1;
        int pk = ucr_attach_join_passage(node, (ucr_dir)d, area);
        int ci = pk >= 0 ? ucr_attach_chamber(node, NULL, pk, (ucr_dir)d, &j->half, b->opt->tables, rng) : -1;
        if (ci < 0) {
            /* Rare (a few pips nodes in ten thousand, whose tunnel leaves
             * an area by the edge with no rock free along it): the chamber
             * lies in the tunnel beyond the map, as its link says ("past a
             * chamber"), and the record says why. */
            g_ptr_array_add(node->rolls,
                            g_strdup_printf("superstructure tunnel %s: its chamber (seed 004, %s) finds no rock by the map "
                                            "edge and lies in the tunnel beyond the map",
                                            ucr_dir_name((ucr_dir)d),
                                            ucr_half_has(&j->half, UCR_STEP_ROOM_DOOR) ? "double 2s" : "double 4s"));
            continue;
        }
        if (j->link >= 0)
            req->link_area[j->link] = ci;
    }
}

static void arrival_add(builder *b, int node, ucr_stair stair, int link, const ucr_arrival_hint *hint)
{
    ucr_arrival a = { stair, link, hint };
    g_array_append_val(b->arrivals[node], a);
}

static int stair_slot(builder *b, int node, ucr_stair stair)
{
    return slot_add(b, node, stair_link_kind(stair), UCR_EXIT_NONE, -1, NULL);
}

/* Landings a node is to carry: its own stairs and ladders out, and those
 * that arrive in it. */
static int landing_load(const builder *b, int m)
{
    return (int)b->exits[m]->len + (int)b->arrivals[m]->len + b->late_load[m];
}

/* Gives unreached node @m level @depth and spreads it along its tunnels. */
static void depth_set(builder *b, int m, int depth)
{
    if (b->depth[m])
        return;
    depth_network(b, m, depth);
}

/* Resolves one stair that leaves @node: pair it with a free stair of the
 * opposite way one level on, else land it in the node of that level with the
 * fewest landings, else lead it out of the booklet: up to the surface from
 * level 1, down to the levels below from the deepest level.  A stair never
 * skips a level: stairs down lead one level down, stairs up one level up
 * (the levels have no gaps, levels_score); the least loaded node spreads the
 * landings (DESIGN "Levels": no node a hub of landings). */
static void exit_resolve(builder *b, int node, ucr_step *step, ucr_prng *rng)
{
    bool down = ucr_stair_is_down(step->stair);
    int want = b->depth[node] + (down ? 1 : -1);
    int here = stair_slot(b, node, step->stair);
    step->link = here;
    /* While the megadungeon is less than three levels deep, nodes not yet
     * reached are kept for stairs that deepen it. */
    int deepest = 0;
    for (int m = 0; m < b->n; m++)
        deepest = MAX(deepest, b->depth[m]);
    bool take_new = deepest >= MIN(3, b->n) || want > deepest;
    /* 1: a free stair of the same kind (stairs meet stairs, ladders meet
     * ladders) going the other way, in a node at the wanted level or in a
     * node not yet reached. */
    for (int m = 0; m < b->n && want >= 1; m++) {
        if (m == node || (b->depth[m] && b->depth[m] != want) || (!b->depth[m] && !take_new))
            continue;
        GPtrArray *ex = b->exits[m];
        for (guint k = 0; k < ex->len; k++) {
            ucr_step *other = g_ptr_array_index(ex, k);
            if (other->link >= 0 || ucr_stair_is_down(other->stair) == down ||
                ucr_stair_is_ladder(other->stair) != ucr_stair_is_ladder(step->stair))
                continue;
            int there = stair_slot(b, m, other->stair);
            other->link = there;
            slot_at(b, here)->peer = there;
            slot_at(b, there)->peer = here;
            depth_set(b, m, want);
            return;
        }
    }
    /* 2: a new landing in the least loaded node at the wanted level (or not
     * reached yet). */
    int best = -1, best_load = 0, ties = 0;
    for (int m = 0; m < b->n && want >= 1; m++) {
        if (m == node || (b->depth[m] && b->depth[m] != want) || (!b->depth[m] && !take_new))
            continue;
        int load = landing_load(b, m);
        if (best < 0 || load < best_load) {
            best = m;
            best_load = load;
            ties = 1;
        } else if (load == best_load) {
            /* Reservoir choice among equals keeps it fair and seeded. */
            ties++;
            if (ucr_dice_d(rng, ties) == 1)
                best = m;
        }
    }
    if (best < 0 && !down && want >= 1) {
        /* No node one level up (levels reached only from below): the
         * nearest shallower one, whose level the key names. */
        for (int m = 0; m < b->n; m++)
            if (m != node && b->depth[m] && b->depth[m] < want + 1 &&
                (best < 0 || b->depth[m] > b->depth[best] ||
                 (b->depth[m] == b->depth[best] && landing_load(b, m) < landing_load(b, best))))
                best = m;
    }
    if (best >= 0) {
        ucr_stair other = ucr_stair_opposite(step->stair);
        int there = stair_slot(b, best, other);
        slot_at(b, here)->peer = there;
        slot_at(b, there)->peer = here;
        if (!b->depth[best]) {
            /* The stair that gives a node its level lands there. */
            arrival_add(b, best, other, there, step->hint);   /* what was thrown for it */
            depth_set(b, best, want);
            return;
        }
        /* Any node of that level will do: which one waits until their
         * sizes are known (landings_spread); @best counts it meanwhile, so
         * that the choices made before stay spread. */
        late_landing late = { there, b->depth[best], other, -1, step->hint };
        g_array_append_val(b->late, late);
        b->late_load[best]++;
        slot_at(b, there)->node = -1;
        return;
    }
    slot_at(b, here)->exit = down ? UCR_EXIT_BELOW : UCR_EXIT_SURFACE;
}

static void links_resolve(builder *b, ucr_prng *rng)
{
    bool *done = g_new0(bool, b->n);
    for (;;) {
        int pick = -1;
        for (int m = 0; m < b->n; m++)
            if (!done[m] && b->depth[m] && (pick < 0 || b->depth[m] < b->depth[pick]))
                pick = m;
        if (pick < 0) {
            /* Nothing reaches what is left: the first such node gets stairs
             * down from a node already reached (not a second way in from
             * the surface, which no rule asked for): from the deepest level
             * while the megadungeon is less than three levels deep, so that
             * it gets its depth, else from the least loaded node. */
            for (int m = 0; m < b->n && pick < 0; m++)
                if (!b->depth[m])
                    pick = m;
            if (pick < 0)
                break;
            int deepest = 0, levels = MIN(3, b->n), parent = -1;
            for (int m = 0; m < b->n; m++)
                deepest = MAX(deepest, b->depth[m]);
            for (int m = 0; m < b->n; m++)
                if (b->depth[m] && (deepest >= levels || b->depth[m] == deepest) &&
                    (parent < 0 || landing_load(b, m) < landing_load(b, parent)))
                    parent = m;
            int down = stair_slot(b, parent, UCR_STAIR_DOWN), up = stair_slot(b, pick, UCR_STAIR_UP);
            slot_at(b, down)->peer = up;
            slot_at(b, up)->peer = down;
            arrival_add(b, parent, UCR_STAIR_DOWN, down, NULL);
            arrival_add(b, pick, UCR_STAIR_UP, up, NULL);
            depth_set(b, pick, b->depth[parent] + 1);
        }
        done[pick] = true;
        GPtrArray *ex = b->exits[pick];
        for (guint k = 0; k < ex->len; k++) {
            ucr_step *st = g_ptr_array_index(ex, k);
            if (st->link < 0)
                exit_resolve(b, pick, st, rng);
        }
    }
    g_free(done);
}

/* The area of @node to hold a stair when no landing fits beside it: the
 * room (else any area) holding the fewest links, the first such. */
static int room_for_stairs(const ucr_node *node)
{
    int na = (int)node->areas->len, best = -1, best_score = 0;
    int *links = g_new0(int, na);
    for (guint k = 0; k < node->links->len; k++)
        links[g_array_index(node->links, ucr_link, k).area]++;
    for (int a = 0; a < na; a++) {
        bool room = g_array_index(node->areas, ucr_area, a).kind == UCR_AREA_ROOM;
        int score = links[a] * 2 + !room;
        if (best < 0 || score < best_score) {
            best = a;
            best_score = score;
        }
    }
    g_free(links);
    return best;
}

/* Per area of drawn node @m: true when it lies in a pocket, a part of the
 * node that no passage joins to a way in — a tunnel, the entrance, or stairs
 * already wired to another node or the surface.  Collapsed passages are no
 * way (a collapse is a rule's cut); secret doors are (they are there to be
 * found).  The caller frees the result. */
static bool *pockets_find(builder *b, int m, const int *link_area)
{
    const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    int nv = (int)node->vertices->len, na = (int)node->areas->len;
    int *part = ucr_node_parts(node);
    bool *anchored = g_new0(bool, nv + 1);
    for (guint i = 0; i < b->slots->len; i++) {
        const slot *s = slot_at(b, (int)i);
        if (s->node != m || link_area[i] < 0)
            continue;
        bool wired = s->exit == UCR_EXIT_SURFACE ||
                     (s->exit == UCR_EXIT_NONE && s->peer >= 0 && slot_at(b, s->peer)->node >= 0);
        anchored[part[link_area[i]]] |= wired;
    }
    bool *pocket = g_new0(bool, na + 1);
    for (int a = 0; a < na; a++)
        pocket[a] = !anchored[part[a]];
    g_free(anchored);
    g_free(part);
    return pocket;
}

/* The nodes of @level, fewest landings for their size first (after one more
 * landing and its area), equals in a rolled order; returns how many. */
static int level_order(builder *b, int level, const int *landings, int *order, ucr_prng *rng)
{
    int n = 0;
    long *l = g_new(long, b->n), *a = g_new(long, b->n), *tie = g_new(long, b->n);
    for (int m = 0; m < b->n; m++) {
        if (b->depth[m] != level)
            continue;
        const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
        l[m] = landings[m] + 1;
        a[m] = (long)node->areas->len + 1;
        tie[m] = ucr_dice_d(rng, 1000);
        int j = n++;
        /* Insertion: the lists are a few nodes long. */
        for (; j > 0; j--) {
            int o = order[j - 1];
            long cmp = l[m] * a[o] - l[o] * a[m];
            if (cmp > 0 || (cmp == 0 && tie[m] >= tie[o]))
                break;
            order[j] = o;
        }
        order[j] = m;
    }
    g_free(l);
    g_free(a);
    g_free(tie);
    return n;
}

/* Tries to land @late in node @m, off an area i with @from[i] (@from NULL:
 * any area); on success wires the slot and returns TRUE. */
static bool landing_try(builder *b, int m, const late_landing *late, const bool *from, bool hinted_only,
                        int *link_area, int *landings, ucr_prng *rng)
{
    ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    ucr_canvas *cv = ucr_attach_canvas(node);
    ucr_arrival arrival = { late->stair, late->slot, late->hint };
    int li = late->hint ? ucr_embed_hinted_within(node, cv, &arrival, from, rng) : -1;
    if (li < 0 && !hinted_only) {
        li = ucr_attach_landing_within(node, cv, late->stair, 12, from, rng);
        if (li >= 0)
            ucr_embed_hint_unmet(node, li, &arrival, from ? "nothing of that kind had room in the part of the "
                                                            "node where these stairs are to land"
                                                          : "nothing of that kind had room");
    }
    ucr_canvas_free(cv);
    if (li < 0)
        return false;
    link_area[late->slot] = li;
    slot_at(b, late->slot)->node = m;
    slot_at(b, late->slot)->landed = true;
    landings[m]++;
    return true;
}

/* Union-find root of @x. */
static int root_of(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* The areas of node @m that hold stairs or a ladder to elsewhere so far
 * (links without a side, as key/analysis.c counts landings); when @count is
 * not NULL, it receives per area how many such links it holds. */
static int landings_held(builder *b, int m, const int *link_area, int *count)
{
    const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    int na = (int)node->areas->len, n = 0;
    int *held = count ? count : g_new0(int, na + 1);
    for (guint i = 0; i < b->slots->len; i++) {
        const slot *s = slot_at(b, (int)i);
        int a = link_area[i];
        if (s->node != m || s->side >= 0 || a < 0)
            continue;
        n += !held[a]++;
    }
    if (!count)
        g_free(held);
    return n;
}

/* Whether node @m keeps its landings within a quarter of its areas with one
 * more landing of its own (DESIGN "Levels": no node a hub of landings). */
static bool landing_fits(builder *b, int m, const int *link_area)
{
    const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    return (landings_held(b, m, link_area, NULL) + 1) * 4 <= (int)node->areas->len + 1;
}

/* Per area of drawn node @m: true when a passage (not collapsed) joins it to
 * one of the node's tunnels or its entrance, or when the node has none of
 * those.  A hall of stairs lies there, where the party comes in (stairs into
 * an island of stairs reach nothing).  The caller frees the result. */
static bool *parts_entered(builder *b, int m, const int *link_area)
{
    const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    int nv = (int)node->vertices->len, na = (int)node->areas->len;
    int *part = ucr_node_parts(node);
    bool *in = g_new0(bool, nv + 1), any = false;
    for (guint i = 0; i < b->slots->len; i++) {
        const slot *s = slot_at(b, (int)i);
        if (s->node != m || link_area[i] < 0 || (s->side < 0 && s->kind != UCR_LINK_ENTRANCE))
            continue;
        in[part[link_area[i]]] = any = true;
    }
    bool *out = g_new0(bool, na + 1);
    for (int a = 0; a < na; a++)
        out[a] = !any || in[part[a]];
    g_free(in);
    g_free(part);
    return out;
}

/* Lands @late in an area of node @m that already holds stairs or a ladder to
 * elsewhere, fewer than @cap: with @hinted_only, where its throw finds such
 * stairs (ucr_embed_hinted_shared), else the one holding fewest (the first
 * such; the key says that the throw, if any, was not honoured): a
 * stairwell, flights going both ways from one hall, rather than one more
 * landing.  With @way_in, only an area outside the node's pockets (the stair
 * comes from a pocket: it is that pocket's way in, and must lead somewhere
 * reached).  FALSE when the node holds no such area. */
static bool landing_share(builder *b, int m, const late_landing *late, bool way_in, bool hinted_only, int cap,
                          int *link_area, int *landings)
{
    ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    int na = (int)node->areas->len, best = -1;
    int *held = g_new0(int, na + 1);
    landings_held(b, m, link_area, held);
    bool *pocket = way_in ? pockets_find(b, m, link_area) : NULL;
    bool *main = parts_entered(b, m, link_area);
    for (int a = 0; a < na; a++)
        main[a] &= !(pocket && pocket[a]);
    ucr_arrival arrival = { late->stair, late->slot, late->hint };
    if (hinted_only)
        best = ucr_embed_hinted_shared(node, &arrival, held, cap, main);
    else
        for (int a = 0; a < na; a++)
            if (held[a] && held[a] < cap && main[a] && (best < 0 || held[a] < held[best]))
                best = a;
    if (best >= 0 && !hinted_only)
        ucr_embed_hint_unmet(node, best, &arrival,
                             "nothing of that kind holds stairs where the party comes in, and a landing of their "
                             "own would put stairs on more than a quarter of the node's areas, so they share "
                             "this hall with other stairs");
    g_free(main);
    g_free(pocket);
    g_free(held);
    if (best < 0)
        return false;
    link_area[late->slot] = best;
    slot_at(b, late->slot)->node = m;
    slot_at(b, late->slot)->landed = true;
    landings[m]++;
    return true;
}

/* How a rule of landings_spread lands a stair in a node. */
typedef enum {
    LAND_IN_POCKET,   /* a new landing inside a pocket of the node */
    LAND_SHARED,      /* in an area that already holds stairs (landing_share) */
    LAND_NEW,         /* a new landing of its own (landing_try) */
    LAND_IN_ROOM,     /* in a room of the first node, whatever it holds (room_for_stairs) */
} landing_how;

/* One rule of landings_spread: tried on every node of the order in turn. */
typedef struct {
    landing_how how;
    bool thrown;          /* the rule is seed 003's throw for the next floor: a stair
                           * without one skips it, and only where the throw says will do */
    bool within_quarter;  /* only a node that keeps its landings within a quarter
                           * of its areas with one more (landing_fits) */
    int cap;              /* LAND_SHARED: the flights a hall may hold, fewer than this */
} landing_rule;

/* The rules of landings_spread, read in order until one lands the stair. */
static const landing_rule LANDING_RULES[] = {
    { LAND_IN_POCKET, false, false, 0 },                     /* 1. a pocket opened */
    { LAND_SHARED, true, false, UCR_EMBED_FLIGHTS_MAX },     /* 2. the throw finds stairs */
    { LAND_NEW, true, true, 0 },                             /* 3. a landing where the throw says */
    { LAND_NEW, false, true, 0 },                            /* 4. a landing off a short passage */
    { LAND_SHARED, false, false, UCR_EMBED_FLIGHTS_MAX },    /* 5. a hall shared */
    { LAND_NEW, false, false, 0 },                           /* 6. a new landing after all */
    { LAND_SHARED, false, false, G_MAXINT },                 /* 7. the hall holding fewest */
    { LAND_IN_ROOM, false, false, 0 },                       /* 8. a room of the first node */
};

/* Rule 8: the stairs stand in a room of node @m, the throw (if any) unmet. */
static void landing_in_room(builder *b, int m, const late_landing *late, int *link_area, int *landings)
{
    ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    link_area[late->slot] = room_for_stairs(node);
    ucr_arrival arrival = { late->stair, late->slot, late->hint };
    ucr_embed_hint_unmet(node, link_area[late->slot], &arrival, "no node of the level had room for a landing");
    slot_at(b, late->slot)->node = m;
    slot_at(b, late->slot)->landed = true;
    landings[m]++;
}

/* Rule 1 in node @m: a new landing in one of its pockets, if it has any. */
static bool landing_in_pocket(builder *b, int m, const late_landing *late, int *link_area, int *landings,
                              ucr_prng *rng)
{
    const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    bool *pocket = pockets_find(b, m, link_area);
    bool any = false;
    for (guint a = 0; a < node->areas->len; a++)
        any |= pocket[a];
    bool done = any && landing_try(b, m, late, pocket, false, link_area, landings, rng);
    g_free(pocket);
    return done;
}

/* Rules 3, 4 and 6 in node @m: a new landing; from a pocket (@src_pocket),
 * off a part with a way in if there is room there, else anywhere. */
static bool landing_new(builder *b, int m, const late_landing *late, bool src_pocket, bool thrown,
                        int *link_area, int *landings, ucr_prng *rng)
{
    bool *way_in = NULL;
    if (src_pocket) {
        way_in = pockets_find(b, m, link_area);
        for (guint a = 0; a < ((ucr_node *)g_ptr_array_index(b->md->nodes, m))->areas->len; a++)
            way_in[a] = !way_in[a];
    }
    bool done = landing_try(b, m, late, way_in, thrown, link_area, landings, rng) ||
                (way_in && landing_try(b, m, late, NULL, thrown, link_area, landings, rng));
    g_free(way_in);
    return done;
}

/* Rule @r for @late in the nodes of @order (@n of them), in turn; TRUE once
 * one of them holds it. */
static bool landing_rule_apply(builder *b, const landing_rule *r, const late_landing *late, bool src_pocket,
                               const int *order, int n, int *link_area, int *landings, ucr_prng *rng)
{
    if ((r->thrown && !late->hint) || (r->how == LAND_IN_POCKET && src_pocket))
        return false;
    if (r->how == LAND_IN_ROOM) {
        landing_in_room(b, order[0], late, link_area, landings);
        return true;
    }
    for (int j = 0; j < n; j++) {
        int m = order[j];
        bool done = false;
        if (r->how == LAND_IN_POCKET)
            done = landing_in_pocket(b, m, late, link_area, landings, rng);
        else if (r->how == LAND_SHARED)
            done = landing_share(b, m, late, src_pocket, r->thrown, r->cap, link_area, landings);
        else if (!r->within_quarter || landing_fits(b, m, link_area))
            done = landing_new(b, m, late, src_pocket, r->thrown, link_area, landings, rng);
        if (done)
            return true;
    }
    return false;
}

/* Lands the stairs that could go to any node of their level, now that the
 * nodes are drawn and their sizes known, and the arrivals that wait for their
 * node to be drawn (arrivals_defer).  No node is to become a hub of landings
 * (DESIGN "Levels": about a quarter of a node's areas at most; landing them
 * by count alone, before the nodes were drawn, put a second and third landing
 * in nodes of seven areas while nodes of ninety had none).  In turn, among
 * the nodes of the level the fewest landings for their size first (or the
 * one node the stair must reach), the rows of LANDING_RULES:
 *   1. so that generation leaves no pocket that no rule asked for, a stair
 *      from a part of its node that has a way in lands in a pocket (the
 *      pocket's way in is then these stairs, and the key says so; a pocket
 *      opened is worth a landing more);
 *   2. stairs with seed 003's throw for the next floor come down where it
 *      finds stairs already (a dead end's, a corridor's end on its side, a
 *      room's middle: ucr_embed_hinted_shared), flights both ways from one
 *      hall, the throw still true — before a landing of their own, which
 *      made pips' nodes, many ways down in few areas, hubs of landings;
 *   3. while one more landing keeps the node within its quarter, a new
 *      landing where the throw says (ucr_embed_hinted_within), else
 *   4. a stair area off the wall of an area joined by a short passage
 *      (ucr_attach_landing_within) — off a part with a way in when the stair
 *      comes from a pocket.
 * Else 5. the stair comes down (or up) in an area that already holds stairs
 * to elsewhere, flights both ways from one hall (landing_share), up to
 * UCR_EMBED_FLIGHTS_MAX; with every hall that full, 6. a new landing after
 * all (a new hall; a level of one node below many ways down put a dozen
 * flights in one hall), else 7. the hall holding fewest, and when no node of
 * the level has any, 8. the stairs stand in a room of the one that carries
 * the fewest, as seed 004's stairs stand in a tunnel.  Wherever a throw could
 * not be honoured the area's record says so (ucr_embed_hint_unmet).  Returns
 * FALSE, with @error set, if the level has no node. */
static gboolean landings_spread(builder *b, int *link_area, ucr_prng *rng, GError **error)
{
    ucr_megadungeon *md = b->md;
    int *landings = g_new0(int, b->n), *order = g_new(int, b->n);
    for (guint i = 0; i < b->slots->len; i++) {
        const slot *s = slot_at(b, (int)i);
        if (s->node >= 0 && s->side < 0)
            landings[s->node]++;
    }
    gboolean ok = TRUE;
    for (guint k = 0; k < b->late->len && ok; k++) {
        const late_landing *late = &g_array_index(b->late, late_landing, k);
        int src = slot_at(b, late->slot)->peer;
        bool *src_pockets = pockets_find(b, slot_at(b, src)->node, link_area);
        bool src_pocket = src_pockets[link_area[src]];
        g_free(src_pockets);
        int n = 1;
        if (late->node >= 0)
            order[0] = late->node;
        else
            n = level_order(b, late->level, landings, order, rng);
        if (n == 0) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE,
                        "node %s: no node of level %d for the landing of its %s (please report the seed)",
                        ((ucr_node *)g_ptr_array_index(md->nodes, slot_at(b, src)->node))->id,
                        late->level, ucr_link_kind_name(slot_at(b, src)->kind));
            ok = FALSE;
            break;
        }
        for (gsize r = 0; r < G_N_ELEMENTS(LANDING_RULES); r++)
            if (landing_rule_apply(b, &LANDING_RULES[r], late, src_pocket, order, n, link_area, landings, rng))
                break;
    }
    g_free(landings);
    g_free(order);
    return ok;
}

/* Union-find over every vertex of every drawn node (node m's from
 * @offset[m]) and the surface (the last), joined by passages, collapsed ones
 * too (a collapse is a rule's cut, which the key says how to dig through),
 * and by the links whose two ends are placed.  The caller frees it. */
static int *reach_find(builder *b, const int *link_area, int **offset_out)
{
    int *offset = g_new0(int, b->n + 1);
    for (int m = 0; m < b->n; m++)
        offset[m + 1] = offset[m] + (int)((ucr_node *)g_ptr_array_index(b->md->nodes, m))->vertices->len;
    int surface = offset[b->n], *parent = g_new(int, surface + 1);
    for (int v = 0; v <= surface; v++)
        parent[v] = v;
    for (int m = 0; m < b->n; m++) {
        const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
        for (guint k = 0; k < node->passages->len; k++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            if (p->kind != UCR_EDGE_BLOCKED)
                parent[root_of(parent, offset[m] + p->a)] = root_of(parent, offset[m] + p->b);
        }
    }
    for (guint i = 0; i < b->slots->len; i++) {
        const slot *s = slot_at(b, (int)i);
        if (s->node < 0 || link_area[i] < 0)
            continue;
        int here = offset[s->node] + link_area[i], there = -1;
        if (s->exit == UCR_EXIT_SURFACE)
            there = surface;
        else if (s->exit == UCR_EXIT_NONE && s->peer >= 0 && slot_at(b, s->peer)->node >= 0 &&
                 link_area[s->peer] >= 0)
            there = offset[slot_at(b, s->peer)->node] + link_area[s->peer];
        if (there >= 0)
            parent[root_of(parent, here)] = root_of(parent, there);
    }
    *offset_out = offset;
    return parent;
}

/* Lands a stair of kind @stair in node @m: in an area i with @from[i] that
 * holds stairs already when one more landing would make the node a hub,
 * else off such an area (a landing of its own when there is room, else in
 * the area itself, a room first); returns the area, or -1 when no area has
 * @from. */
static int landing_place(builder *b, int m, ucr_stair stair, const bool *from, const int *link_area,
                         ucr_prng *rng)
{
    ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    int li = -1;
    if (!landing_fits(b, m, link_area)) {
        /* A hall that holds stairs already, as landing_share. */
        int na = (int)node->areas->len;
        int *held = g_new0(int, na + 1);
        landings_held(b, m, link_area, held);
        for (int a = 0; a < na; a++)
            if (from[a] && held[a] && (li < 0 || held[a] < held[li]))
                li = a;
        g_free(held);
        if (li >= 0)
            return li;
    }
    ucr_canvas *cv = ucr_attach_canvas(node);
    li = ucr_attach_landing_within(node, cv, stair, 12, from, rng);
    ucr_canvas_free(cv);
    for (int pass = 0; pass < 2 && li < 0; pass++)
        for (guint a = 0; a < node->areas->len && li < 0; a++)
            if (from[a] && (pass || g_array_index(node->areas, ucr_area, a).kind == UCR_AREA_ROOM))
                li = (int)a;
    return li;
}

/* Gives the first part of node @m that @parent does not join to @surface
 * its stairs (reach_repair); FALSE when no node of a level beside has an
 * area reached to lead them from. */
static bool reach_repair_node(builder *b, int m, int *parent, const int *offset, int surface, int *link_area,
                              ucr_prng *rng)
{
    const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
    bool *cut = g_new0(bool, node->areas->len + 1);
    int part = -1;
    for (guint a = 0; a < node->areas->len; a++) {
        int r = root_of(parent, offset[m] + (int)a);
        if (r != surface && part < 0)
            part = r;
        cut[a] = r == part;
    }
    /* The source: the node of the level above (else below) with the fewest
     * landings for its reached areas. */
    int src = -1, best = 0;
    for (int dir = -1; dir <= 1 && src < 0; dir += 2)
        for (int s = 0; s < b->n; s++) {
            if (b->depth[s] != b->depth[m] + dir)
                continue;
            const ucr_node *sn = g_ptr_array_index(b->md->nodes, s);
            int ok = 0;
            for (guint a = 0; a < sn->areas->len; a++)
                ok += root_of(parent, offset[s] + (int)a) == surface;
            int load = ok ? landings_held(b, s, link_area, NULL) * 1000 / ok : 0;
            if (ok && (src < 0 || load < best)) {
                src = s;
                best = load;
            }
        }
    bool done = false;
    if (src >= 0) {
        const ucr_node *sn = g_ptr_array_index(b->md->nodes, src);
        bool *reached = g_new0(bool, sn->areas->len + 1);
        for (guint a = 0; a < sn->areas->len; a++)
            reached[a] = root_of(parent, offset[src] + (int)a) == surface;
        ucr_stair arrive = b->depth[src] > b->depth[m] ? UCR_STAIR_DOWN : UCR_STAIR_UP;
        int li = landing_place(b, m, arrive, cut, link_area, rng);
        int si = landing_place(b, src, ucr_stair_opposite(arrive), reached, link_area, rng);
        int here = stair_slot(b, m, arrive), there = stair_slot(b, src, ucr_stair_opposite(arrive));
        slot_at(b, here)->peer = there;
        slot_at(b, there)->peer = here;
        slot_at(b, here)->landed = slot_at(b, there)->landed = true;
        link_area[here] = li;
        link_area[there] = si;
        g_free(reached);
        done = true;
    } else if (b->depth[m] == 1) {
        int here = stair_slot(b, m, UCR_STAIR_UP);
        slot_at(b, here)->exit = UCR_EXIT_SURFACE;
        link_area[here] = landing_place(b, m, UCR_STAIR_UP, cut, link_area, rng);
        done = true;
    }
    g_free(cut);
    return done;
}

/* Fewer stairs to elsewhere (ucr_grid_plan_exits) and stairs that share a
 * hall (landing_share) leave fewer ways by which a part of a node that no
 * passage joins to the rest is reached.  Such a part, that the party would
 * reach from the surface only by digging (through rubble or rock), by magic
 * or from the levels below the booklet, gets
 * stairs down from a node of the level above whose landing the party reaches
 * (up from the level below when the level above has none; up to the surface
 * from level 1), as links_resolve gives a node that nothing reaches its
 * stairs: no area unreachable (DESIGN "Levels"), the shallowest first. */
static void reach_repair(builder *b, int *link_area, ucr_prng *rng)
{
    for (int tries = 0; tries < 4 * b->n; tries++) {
        int *offset, *parent = reach_find(b, link_area, &offset);
        int surface = root_of(parent, offset[b->n]);
        bool done = false;
        for (int level = 1; !done; level++) {
            bool any = false;
            for (int m = 0; m < b->n && !done; m++) {
                if (b->depth[m] < level)
                    continue;
                any = true;
                if (b->depth[m] != level)
                    continue;
                const ucr_node *node = g_ptr_array_index(b->md->nodes, m);
                bool cut = false;
                for (guint a = 0; a < node->areas->len && !cut; a++)
                    cut = root_of(parent, offset[m] + (int)a) != surface;
                done = cut && reach_repair_node(b, m, parent, offset, surface, link_area, rng);
            }
            if (!any)
                break;
        }
        g_free(parent);
        g_free(offset);
        if (!done)
            return;
    }
}

/* The arrivals of node @m that its method is given to draw: the first (a
 * method may build its start on it: seed 003's stairs down) and the
 * entrance; the others wait until the node is drawn and its size known, and
 * land as the late landings do (landings_spread), sharing a hall with other
 * stairs rather than making the node a hub of landings.  Returns an array
 * the caller frees. */
static GArray *arrivals_defer(builder *b, int m)
{
    GArray *given = g_array_new(FALSE, FALSE, sizeof(ucr_arrival));
    GArray *all = b->arrivals[m];
    for (guint k = 0; k < all->len; k++) {
        const ucr_arrival *arr = &g_array_index(all, ucr_arrival, k);
        if (given->len == 0 || slot_at(b, arr->link)->kind == UCR_LINK_ENTRANCE) {
            g_array_append_val(given, *arr);
            continue;
        }
        late_landing late = { arr->link, b->depth[m], arr->stair, m, arr->hint };
        g_array_append_val(b->late, late);
        slot_at(b, arr->link)->node = -1;
    }
    return given;
}

static void links_materialise(builder *b, const int *link_area)
{
    ucr_megadungeon *md = b->md;
    for (guint i = 0; i < b->slots->len; i++) {
        slot *s = slot_at(b, (int)i);
        ucr_node *node = g_ptr_array_index(md->nodes, s->node);
        ucr_link l = { 0 };
        l.area = link_area[i];
        l.kind = s->kind;
        l.exit = s->exit;
        l.has_side = s->side >= 0;
        l.side = s->side >= 0 ? (ucr_dir)s->side : UCR_NORTH;
        l.to_node = s->peer >= 0 ? slot_at(b, s->peer)->node : -1;
        l.to_area = s->peer >= 0 ? link_area[s->peer] : -1;
        l.via = g_strdup(s->via);
        l.landed = s->landed;
        g_array_append_val(node->links, l);
        ucr_area *a = &g_array_index(node->areas, ucr_area, l.area);
        if (a->link < 0)
            a->link = (int)node->links->len - 1;
    }
}

/* The area the analysis and the key start from: the entrance, else the end of
 * the link that comes from the shallowest neighbour. */
static void entries_choose(builder *b)
{
    ucr_megadungeon *md = b->md;
    for (int i = 0; i < b->n; i++) {
        ucr_node *node = g_ptr_array_index(md->nodes, i);
        int best = -1, best_depth = 0;
        for (guint k = 0; k < node->links->len; k++) {
            const ucr_link *l = &g_array_index(node->links, ucr_link, k);
            int d = l->exit == UCR_EXIT_SURFACE ? 0
                    : l->to_node >= 0 ? ((ucr_node *)g_ptr_array_index(md->nodes, l->to_node))->depth
                                      : 1000;
            if (l->kind == UCR_LINK_ENTRANCE)
                d = -1;
            if (best < 0 || d < best_depth) {
                best = l->area;
                best_depth = d;
            }
        }
        node->entry_area = best >= 0 ? best : 0;
        if (i == md->entrance_node) {
            for (guint k = 0; k < node->links->len; k++) {
                const ucr_link *l = &g_array_index(node->links, ucr_link, k);
                if (l->kind == UCR_LINK_ENTRANCE) {
                    md->entrance_area = l->area;
                    break;
                }
            }
        }
    }
}

static int area_order(gconstpointer a, gconstpointer b, gpointer data)
{
    const ucr_area *areas = data;
    const ucr_area *x = &areas[*(const int *)a], *y = &areas[*(const int *)b];
    if (x->y != y->y)
        return x->y - y->y;
    return x->x - y->x;
}

/* Keys in reading order, top to bottom, left to right, as GMs number maps.
 * A method that numbers its areas as it draws them (seed 000: rooms are
 * numbered as drawn, and the dice count in those numbers) keeps its keys 1..m;
 * areas it left at 0 (landings added afterwards) follow in reading order. */
static void keys_number(ucr_node *node)
{
    int n = (int)node->areas->len, m = 0, k = 0;
    int *order = g_new(int, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        int key = g_array_index(node->areas, ucr_area, i).key;
        if (key > m)
            m = key;
        if (key <= 0)
            order[k++] = i;
    }
    g_qsort_with_data(order, k, sizeof(int), area_order, node->areas->data);
    for (int j = 0; j < k; j++)
        g_array_index(node->areas, ucr_area, order[j]).key = m + j + 1;
    g_free(order);
}

/* Mixed methods: each node's method rolled on the table node-method (the
 * methods and their weights, templates/tables/node-method.txt), from a
 * stream of its own, so that the choice does not shift any other roll.
 * The default table is 1d7 over the registry's seven methods in their
 * order: one die, as the roll was before it was a table. */
static const ucr_node_method *method_roll(const ucr_tables *tables, const char *seed, const char *id)
{
    char *label = g_strdup_printf("method/%s", id);
    ucr_prng rng;
    ucr_prng_seed(&rng, seed, label);
    g_free(label);
    const ucr_table_row *row = ucr_table_roll(ucr_tables_need(tables, UCR_NODE_METHOD_TABLE), &rng, NULL);
    return ucr_node_method_lookup(row->tag);   /* a registered name: checked when the tables load */
}

static void builder_free(builder *b)
{
    for (int i = 0; i < b->n; i++) {
        if (b->plans && b->plans[i])
            b->methods[i]->free(b->plans[i]);
        if (b->arrivals)
            g_array_free(b->arrivals[i], TRUE);
        if (b->exits)
            g_ptr_array_free(b->exits[i], TRUE);
    }
    g_free(b->plans);
    g_free(b->methods);
    g_free(b->arrivals);
    g_free(b->exits);
    g_free(b->joins);
    g_free(b->late_load);
    if (b->late)
        g_array_free(b->late, TRUE);
    g_free(b->node_rng);
    g_free(b->depth);
    g_free(b->shalves);
    if (b->slots) {
        for (guint i = 0; i < b->slots->len; i++)
            g_free(slot_at(b, (int)i)->via);
        g_array_free(b->slots, TRUE);
    }
}

/* Each node's method (given, or rolled on the mix) rolls its plan from a
 * stream of its own, so a node's dungeon does not shift when another node
 * or the superstructure changes; the plan lists the node's exits. */
static void nodes_roll(builder *b)
{
    const ucr_gen_options *opt = b->opt;
    b->node_rng = g_new(ucr_prng, b->n);
    b->methods = g_new0(const ucr_node_method *, b->n);
    b->plans = g_new0(void *, b->n);
    b->arrivals = g_new0(GArray *, b->n);
    b->exits = g_new0(GPtrArray *, b->n);
    b->late_load = g_new0(int, b->n);
    for (int i = 0; i < b->n; i++) {
        char *id = ucr_node_id_for_index(i);
        char *label = g_strdup_printf("node/%s", id);
        ucr_prng_seed(&b->node_rng[i], opt->seed, label);
        b->methods[i] = opt->method ? opt->method : method_roll(opt->tables, opt->seed, id);
        g_free(label);
        g_free(id);
        bool sides[4];
        for (int d = 0; d < 4; d++)
            sides[d] = b->joins[i][d].used;
        b->plans[i] = b->methods[i]->roll(&b->node_rng[i], sides, opt->tables, &opt->method_options);
        b->arrivals[i] = g_array_new(FALSE, FALSE, sizeof(ucr_arrival));
        b->exits[i] = g_ptr_array_new();
        b->methods[i]->exits(b->plans[i], b->exits[i]);
    }
}

/* Every node drawn by its method, with its joins and arrivals, its
 * chambers added; FALSE with @error set when a method could not. */
static gboolean nodes_embed(builder *b, int *link_area, GError **error)
{
    ucr_megadungeon *md = b->md;
    for (int i = 0; i < b->n; i++) {
        char *id = ucr_node_id_for_index(i);
        ucr_node_request req = { 0 };
        memcpy(req.joins, b->joins[i], sizeof req.joins);
        GArray *given = arrivals_defer(b, i);
        req.arrivals = (const ucr_arrival *)given->data;
        req.n_arrivals = (int)given->len;
        req.link_area = link_area;
        req.tables = b->opt->tables;
        req.size = b->opt->method_options.node_size;
        ucr_node *node = b->methods[i]->embed(b->plans[i], id, i % md->columns, i / md->columns, &req,
                                              &b->node_rng[i], error);
        g_array_free(given, TRUE);
        g_free(id);
        if (!node)
            return FALSE;
        chambers_add(b, node, &req, &b->node_rng[i]);
        node->depth = b->depth[i];
        g_ptr_array_add(md->nodes, node);
    }
    return TRUE;
}

/* Whether every link found its area; FALSE with @error set if not. */
static gboolean links_placed(builder *b, const int *link_area, GError **error)
{
    for (guint i = 0; i < b->slots->len; i++)
        if (link_area[i] < 0) {
            slot *s = slot_at(b, (int)i);
            g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE,
                        "node %s: a %s found no place on the map (please report the seed)",
                        ((ucr_node *)g_ptr_array_index(b->md->nodes, s->node))->id,
                        ucr_link_kind_name(s->kind));
            return FALSE;
        }
    return TRUE;
}

ucr_megadungeon *ucr_megadungeon_generate(const ucr_gen_options *opt, GError **error)
{
    builder b = { 0 };
    ucr_megadungeon *md = g_new0(ucr_megadungeon, 1);
    md->seed = g_strdup(opt->seed);
    md->node_size = opt->method_options.node_size;
    md->version = g_strdup(UCR_VERSION);
    md->columns = opt->columns;
    md->rows = opt->rows;
    md->nodes = g_ptr_array_new_with_free_func((GDestroyNotify)ucr_node_free);
    b.md = md;
    b.opt = opt;
    b.n = opt->columns * opt->rows;
    b.slots = g_array_new(FALSE, TRUE, sizeof(slot));
    b.late = g_array_new(FALSE, FALSE, sizeof(late_landing));

    ucr_prng rng;
    ucr_prng_seed(&rng, opt->seed, "superstructure");
    superstructure_roll(&b, &rng);
    entrance_choose(&b, &rng);
    b.depth = g_new0(int, b.n);
    depth_from_tunnels(&b);
    joins_build(&b);
    nodes_roll(&b);
    if (md->entrance_stairs) {
        int s = slot_add(&b, md->entrance_node, UCR_LINK_ENTRANCE, UCR_EXIT_SURFACE, -1,
                         "stairs down from the surface");
        arrival_add(&b, md->entrance_node, UCR_STAIR_UP, s, NULL);
    }
    ucr_prng link_rng;
    ucr_prng_seed(&link_rng, opt->seed, "links");
    links_resolve(&b, &link_rng);
    tunnels_level(&b);

    /* Room for the two slots each reach_repair step may add. */
    guint link_cap = b.slots->len + 1 + 8 * (guint)b.n;
    int *link_area = g_new(int, link_cap);
    for (guint i = 0; i < link_cap; i++)
        link_area[i] = -1;
    gboolean ok = nodes_embed(&b, link_area, error) && landings_spread(&b, link_area, &link_rng, error);
    if (ok) {
        reach_repair(&b, link_area, &link_rng);
        ok = links_placed(&b, link_area, error);
    }
    if (ok) {
        links_materialise(&b, link_area);
        entries_choose(&b);
        for (int i = 0; i < b.n; i++)
            keys_number(g_ptr_array_index(md->nodes, i));
    }
    g_free(link_area);
    builder_free(&b);
    if (!ok) {
        ucr_megadungeon_free(md);
        return NULL;
    }
    return md;
}
