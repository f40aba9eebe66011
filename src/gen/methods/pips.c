#include "gen/methods/pips.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "gen/kit/attach.h"
#include "gen/kit/embed.h"

enum {
    MAP_W = 44, MAP_H = 40, ATTEMPTS = 8, FOUR_TRIES = 3,
    RUN = 6,          /* "60 feet of corridor" */
    STUB = 2,         /* "20 foot corridor dead ends" */
    TUNNEL = 6,       /* the tunnel into the hill, from the map edge */
    MAX_AREAS = 24,
    MIN_ROOMS = 5,
    MAX_ADDED = 12,   /* exits a GM adds at most */
    FEWEST_ROOMS = 4, /* no sublevel has fewer (issue #22: no empty sublevels) */
    MAX_ADDED_FEWEST = 30,   /* exits a GM adds at most for those */
    MAX_ADDED_FOR_STAIRS = 6,   /* and to spread the ways down: each adds a
                                 * few areas and a loop now and then (pips
                                 * is the seeds' control for loops) */
    CENTRE = 4,       /* the landing "in the center" */
    JOIN_MARGIN = 3,  /* squares kept by a side a superstructure tunnel joins */
    EDGE_ROCK = 5,    /* a way down from its door keeps this far from a joined map edge ahead */
    GM_ROCK = 4,      /* an exit the GM places on a corridor's side has this
                       * much rock ahead at least */
    GM_THROWS = 6,    /* the GM throws again, up to this often, for an added
                       * exit that fits no room ("place them manually") */
    SIDESTEP = 5      /* squares a way edges aside at most, to cross or pass */
};

/* Canvas owners: areas are their index, finished passage k is
 * UCR_ATTACH_PASSAGE + k, a corridor being drawn WIP + its id. */
#define WIP 300000

/* Eight headings, clockwise from north; even ones are the ucr_dir * 2. */
static const int HX[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int HY[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
static const char *const HNAME[8] = { "north", "north-east", "east", "south-east",
                                      "south", "south-west", "west", "north-west" };

static bool diagonal(int h)
{
    return h & 1;
}

/* One throw of the die: what, where it landed, how it lies. */
typedef struct {
    const char *what;   /* pips-what [kind] */
    int landing;        /* ucr_dir, or CENTRE */
    int lie;            /* 0 square, -1 / +1 turned 45° left / right */
} pips_throw;

/* A corridor being drawn: its squares, and the squares beside its diagonal
 * steps (half floor on the map, kept free of everything else). */
typedef struct {
    int id;
    GArray *cells;      /* ucr_point */
    GArray *sides;      /* ucr_point, two per diagonal step */
    int from;           /* the area it leaves, or -1: it comes in from the map edge */
    bool door;          /* a door where it leaves that area */
    GArray *stairs;     /* ucr_passage_stairs */
    GArray *crossings;  /* ucr_crossing */
} wip;

typedef enum { END_EXIT, END_RUN } end_kind;

/* Something still to throw for: a room's exits, or a corridor's end. */
typedef struct {
    end_kind kind;
    int area;           /* END_EXIT: the room (or start) */
    int entered;        /* END_EXIT: the side it was entered by, or -1 */
    wip *w;             /* END_RUN: the corridor */
    int heading;        /* END_RUN */
    int throws;
    int pre_n;          /* END_EXIT: throws made as the room was drawn (pre_throw) */
    pips_throw pre[2];
    char *pre_rec[2];   /* their records, owned */
} open_end;

typedef struct {
    ucr_step step;
    int area;
    ucr_arrival_hint hint;   /* the throw for the next floor; step.hint points here */
} exit_stairs;

static void exit_stairs_free(gpointer p)
{
    exit_stairs *ex = p;
    g_free(ex->hint.rolled);
    g_free(ex);
}

typedef struct {
    ucr_node *node;        /* owned until embed */
    GPtrArray *exits;      /* exit_stairs*, owned */
    int join_passage[4], join_area[4];
    int start_landing;     /* the start stairs' area, or -1 */
    int start_what;        /* what the start's throw found at the foot of its stairs
                            * (ucr_hint_what), or -1 */
} plan;

typedef struct {
    ucr_prng *rng;
    const ucr_tables *tables;
    ucr_node *node;
    plan *plan;
    ucr_canvas *cv;
    GQueue ends;           /* open_end* */
    int next_id;
    int rooms;
    bool full;
    bool room_first;   /* no room yet: read the throw as the table's first room face */
    bool want_four;    /* the first tries: a sublevel under 4 rooms is drawn again */
    int wish[2];       /* the walls a room to be drawn has its exits thrown to */
    int n_wish;        /* (area_beyond prefers a place with room before them) */
    bool wish_all;     /* area_place: only a place with room before all of them */
    bool wish_on_map;  /* area_place: only a place with all of them off the map's edge */
    int pair_wall;     /* mouth: the wall both exits of a room were thrown to, or -1 */
    int margin[4];     /* squares by each map side kept for the tunnels (in_map) */
    bool joined[4];    /* the map sides a superstructure tunnel joins */
    /* The tables table_roll met, by their names' (literal) addresses: a
     * look-up by name for every die was a tenth of a node's making. */
    const char *table_name[4];
    const ucr_table *table_of[4];
} builder;

static void note(builder *b, char *text)
{
    g_ptr_array_add(b->node->rolls, text);
}

static const ucr_area *area_at(const builder *b, int i)
{
    return &g_array_index(b->node->areas, ucr_area, i);
}

/* Appends " (@text)" to @s. */
static void append_paren(GString *s, const char *text)
{
    g_string_append(s, " (");
    g_string_append(s, text);
    g_string_append_c(s, ')');
}

/* Rolls on table @name, appending "name NdM=N" to @rec; returns the row. */
/* Table @name, through the builder's few remembered by the name's address
 * (the callers pass literals; a name at another address is looked up). */
static const ucr_table *table_named(builder *b, const char *name)
{
    int k = 0;
    for (; k < (int)G_N_ELEMENTS(b->table_name) && b->table_name[k]; k++)
        if (b->table_name[k] == name)
            return b->table_of[k];
    const ucr_table *t = ucr_tables_lookup(b->tables, name);
    if (k < (int)G_N_ELEMENTS(b->table_name)) {
        b->table_name[k] = name;
        b->table_of[k] = t;
    }
    return t;
}

static const ucr_table_row *table_roll(builder *b, const char *name, GString *rec)
{
    const ucr_table *t = table_named(b, name);
    int total;
    const ucr_table_row *row = ucr_table_roll(t, b->rng, &total);
    ucr_roll_record(rec, ", ", t, total);
    return row;
}

static ucr_hint_what hint_what_of(const char *what);

/* The first row of pips-what that makes a room (there is one: checked when
 * the tables load, pips_tables_check()). */
static const ucr_table_row *room_row(const ucr_tables *tables)
{
    const ucr_table *t = ucr_tables_need(tables, "pips-what");
    for (guint r = 0; r < t->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        ucr_hint_what h = hint_what_of(row->tag);
        if (h == UCR_HINT_ROOM || h == UCR_HINT_LONG_ROOM)
            return row;
    }
    return &g_array_index(t->rows, ucr_table_row, 0);
}

static pips_throw throw_die(builder *b, GString *rec)
{
    pips_throw t = { 0 };
    const ucr_table_row *w = table_roll(b, "pips-what", rec);
    if (b->room_first && b->rooms == 0 && hint_what_of(w->tag) != UCR_HINT_CORRIDOR &&
        hint_what_of(w->tag) != UCR_HINT_DEAD_END)
        b->room_first = false;   /* a room is on its way */
    if (b->room_first && b->rooms == 0) {
        /* Where the pips would never make a room (a table that gives
         * rooms rarely), the GM reads the throw as one. */
        w = room_row(b->tables);
        g_string_append(rec, " read as a room: no room yet");
        b->room_first = false;
    }
    t.what = w->tag;
    append_paren(rec, w->text);
    const ucr_table_row *l = table_roll(b, "pips-landing", rec);
    static const char *const land[5] = { "north", "east", "south", "west", "centre" };
    t.landing = CENTRE;
    for (int i = 0; i < 5; i++)
        if (strcmp(l->tag, land[i]) == 0)
            t.landing = i;
    g_string_append(rec, " (landed ");
    g_string_append(rec, land[t.landing]);
    g_string_append_c(rec, ')');
    const ucr_table_row *lie = table_roll(b, "pips-lie", rec);
    t.lie = strcmp(lie->tag, "turned-left") == 0 ? -1 : strcmp(lie->tag, "turned-right") == 0 ? 1 : 0;
    append_paren(rec, lie->text);
    return t;
}

static bool is(const pips_throw *t, const char *what)
{
    return strcmp(t->what, what) == 0;
}

static bool twice(const pips_throw *t)
{
    return g_str_has_suffix(t->what, "-twice");
}

/* What a throw's pips say lies there, in the words of a hint to the next
 * floor (gen/node_method.h). */
static ucr_hint_what hint_what_of(const char *what)
{
    if (strcmp(what, "dead-end") == 0)
        return UCR_HINT_DEAD_END;
    if (strcmp(what, "long-room") == 0)
        return UCR_HINT_LONG_ROOM;
    if (strcmp(what, "room") == 0 || strcmp(what, "room-twice") == 0)
        return UCR_HINT_ROOM;
    return UCR_HINT_CORRIDOR;
}

static ucr_hint_what hint_what(const pips_throw *t)
{
    return hint_what_of(t->what);
}

static bool corridor(const pips_throw *t)
{
    return g_str_has_prefix(t->what, "corridor");
}

/* ---- squares ------------------------------------------------------------ */

static bool in_map(const builder *b, ucr_point p)
{
    /* The outermost squares are for the tunnels that leave the map; by a
     * side a superstructure tunnel joins, three (its chamber's rock). */
    return p.x >= b->margin[UCR_WEST] && p.y >= b->margin[UCR_NORTH] && p.x < b->cv->w - b->margin[UCR_EAST] &&
           p.y < b->cv->h - b->margin[UCR_SOUTH];
}

static int owner(const builder *b, ucr_point p)
{
    return ucr_canvas_owner(b->cv, p);
}

static bool point_eq(ucr_point a, ucr_point b)
{
    return a.x == b.x && a.y == b.y;
}

static ucr_point last_cell(const wip *w)
{
    return g_array_index(w->cells, ucr_point, w->cells->len - 1);
}

/* Free rock for a new square of @w: empty, and nothing but @w itself or
 * area @allow (its anchor, near its start) on the eight squares around. */
static bool square_clear(const builder *b, const wip *w, ucr_point p, int allow)
{
    if (!in_map(b, p) || owner(b, p) != UCR_CANVAS_EMPTY)
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int o = owner(b, (ucr_point){ p.x + dx, p.y + dy });
            if (o != UCR_CANVAS_EMPTY && o != WIP + w->id && !(allow >= 0 && o == allow))
                return false;
        }
    return true;
}

static void claim(builder *b, const wip *w, ucr_point p)
{
    ucr_canvas_set(b->cv, p, WIP + w->id);
}

static wip *wip_new(builder *b, int from, bool door)
{
    wip *w = g_new0(wip, 1);
    w->id = b->next_id++;
    w->cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    w->sides = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    w->stairs = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
    w->crossings = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
    w->from = from;
    w->door = door;
    return w;
}

static void wip_free(wip *w)
{
    if (!w)
        return;
    if (w->cells)
        g_array_free(w->cells, TRUE);
    g_array_free(w->sides, TRUE);
    g_array_free(w->stairs, TRUE);
    g_array_free(w->crossings, TRUE);
    g_free(w);
}

/* One square on towards heading @h; on a diagonal step the two squares
 * beside it must be free too (the corridor is drawn at 45° across them). */
static bool step(builder *b, wip *w, int h)
{
    ucr_point l = last_cell(w);
    ucr_point c = { l.x + HX[h], l.y + HY[h] };
    int allow = w->cells->len <= 2 ? w->from : -1;
    if (!square_clear(b, w, c, allow))
        return false;
    /* Only the mouth touches the area the way leaves (near it, a square
     * may stand corner to corner with its wall, not along it). */
    for (int d = 0; allow >= 0 && d < 4; d++)
        if (owner(b, ucr_point_step(c, (ucr_dir)d)) == allow)
            return false;
    ucr_point s[2] = { { l.x + HX[h], l.y }, { l.x, l.y + HY[h] } };
    if (diagonal(h))
        for (int i = 0; i < 2; i++)
            if (!square_clear(b, w, s[i], allow))
                return false;
    g_array_append_val(w->cells, c);
    claim(b, w, c);
    if (diagonal(h))
        for (int i = 0; i < 2; i++) {
            g_array_append_val(w->sides, s[i]);
            claim(b, w, s[i]);
        }
    return true;
}

/* A square step of @w towards @h onto rock with only rock or @w itself on
 * its four sides (corner to corner, anything may stand, as by the steps
 * of a crossing: steps_clear), for a diagonal way turned square on its
 * way to a crossing (go_past undoes it if none follows).  Returns false,
 * changing nothing, if it cannot. */
static bool step_to_steps(builder *b, wip *w, int h)
{
    ucr_point c = { last_cell(w).x + HX[h], last_cell(w).y + HY[h] };
    if (diagonal(h) || !in_map(b, c) || owner(b, c) != UCR_CANVAS_EMPTY)
        return false;
    for (int d = 0; d < 4; d++) {
        int o = owner(b, ucr_point_step(c, (ucr_dir)d));
        if (o != UCR_CANVAS_EMPTY && o != WIP + w->id)
            return false;
    }
    g_array_append_val(w->cells, c);
    claim(b, w, c);
    return true;
}

/* Whether cell @i of passage @ps is a square of its own stairs, or of one
 * of its crossings (the stretch and the steps either side).  A way may
 * pass under or over the square beside a flight: the two flights stand on
 * squares of their own (the margin of a square once kept there was 6% of
 * the ways cut short, issue #22). */
static bool steps_near(const ucr_passage *ps, int i)
{
    for (guint s = 0; s < ps->stairs->len; s++)
        if (g_array_index(ps->stairs, ucr_passage_stairs, s).index == i)
            return true;
    for (guint x = 0; ps->crossings && x < ps->crossings->len; x++) {
        const ucr_crossing *cr = &g_array_index(ps->crossings, ucr_crossing, x);
        if (i >= cr->first - 1 && i <= cr->last + 1)
            return true;
    }
    return false;
}

/* How many squares @p lies in from map side @side. */
static int edge_distance(const builder *b, ucr_point p, ucr_dir side)
{
    return side == UCR_NORTH ? p.y : side == UCR_SOUTH ? b->cv->h - 1 - p.y
           : side == UCR_WEST ? p.x : b->cv->w - 1 - p.x;
}

/* Whether the start's tunnel @k (from map side @side) keeps a place for
 * a chamber with a way also under or over it at @p.  The tunnel is the
 * superstructure's (seed 004), and a chamber it rolls is drawn on it
 * later (ucr_attach_chamber): a square of it, with the squares either
 * side, clear of the crossings (and of the steps beside them), neither by
 * the edge nor by the start.  Two crossings of its six squares left none,
 * and the chamber then lay beyond the map. */
static bool tunnel_keeps_chamber(const builder *b, int k, ucr_dir side, ucr_point p)
{
    const ucr_passage *ps = &g_array_index(b->node->passages, ucr_passage, k);
    bool crossed[TUNNEL] = { false };
    for (guint i = 0; i < ps->cells->len; i++) {
        ucr_point q = g_array_index(ps->cells, ucr_point, i);
        int at = edge_distance(b, q, side);
        if (at >= 0 && at < TUNNEL && (point_eq(q, p) || ucr_canvas_busy(b->cv, q)))
            crossed[at] = true;
    }
    for (int j = 1; j < TUNNEL - 1; j++) {
        bool clear = true;
        for (int c = 0; c < TUNNEL && clear; c++)
            clear = !crossed[c] || abs(j - c) >= 3;
        if (clear)
            return true;
    }
    return false;
}

/* Whether square @p of finished passage @k (a cell, or a square beside a
 * diagonal step) is one of three in a row across heading @h where the
 * passage runs diagonally: the square beside one diagonal step, the cell,
 * the square beside the next, in one straight diagonal run, away from its
 * stairs and crossings.  A square way crosses such a run at 45°, under
 * (over) all three (seed 003's diagonal corridors: a corridor that turned
 * 45° is met by every way across it this way). */
static bool oblique_across(const builder *b, const ucr_passage *ps, int k, ucr_point p, int h)
{
    int len = (int)ps->cells->len;
    for (int i = 1; i + 1 < len; i++) {
        ucr_point c = g_array_index(ps->cells, ucr_point, i);
        ucr_point c1 = { c.x - HX[h], c.y - HY[h] }, c2 = { c.x + HX[h], c.y + HY[h] };
        if (!point_eq(c, p) && !point_eq(c1, p) && !point_eq(c2, p))
            continue;
        ucr_point a = g_array_index(ps->cells, ucr_point, i - 1), z = g_array_index(ps->cells, ucr_point, i + 1);
        int dx = c.x - a.x, dy = c.y - a.y;
        if (!dx || !dy || z.x - c.x != dx || z.y - c.y != dy)
            continue;
        ucr_point o1 = { c.x - 2 * HX[h], c.y - 2 * HY[h] }, o2 = { c.x + 2 * HX[h], c.y + 2 * HY[h] };
        int own = UCR_ATTACH_PASSAGE + k;
        return owner(b, c1) == own && owner(b, c2) == own && owner(b, o1) != own && owner(b, o2) != own &&
               !steps_near(ps, i - 1) && !steps_near(ps, i) && !steps_near(ps, i + 1);
    }
    return false;
}

/* How square @p of finished passage @k lies across heading @h, for a
 * corridor to pass under or over it there: 1 part of a straight run
 * across, 2 the last square of a dead end whose way comes from across, 3
 * its square before a door (the area in @area), 4 a square of a diagonal
 * run, crossed at 45° (oblique_across), 0 none of these. */
static int straight_across(const builder *b, int k, ucr_point p, int h, int *area)
{
    for (int d = 0; d < 4; d++)
        if (b->plan->join_passage[d] == k && !tunnel_keeps_chamber(b, k, (ucr_dir)d, p))
            return 0;
    const ucr_passage *ps = &g_array_index(b->node->passages, ucr_passage, k);
    if (!diagonal(h) && oblique_across(b, ps, k, p, h))
        return 4;
    int len = (int)ps->cells->len;
    for (int i = 0; i < len; i++) {
        ucr_point c = g_array_index(ps->cells, ucr_point, i);
        if (!point_eq(c, p))
            continue;
        bool tip = i == 0 || i == len - 1;
        int kind = 1;
        if (tip) {
            const ucr_vertex *v = &g_array_index(b->node->vertices, ucr_vertex, i == 0 ? ps->a : ps->b);
            if (len < 2 || (v->kind != UCR_VERTEX_DEAD_END && v->kind != UCR_VERTEX_AREA))
                return 0;
            kind = v->kind == UCR_VERTEX_DEAD_END ? 2 : 3;
            *area = v->area;
        }
        ucr_point a = g_array_index(ps->cells, ucr_point, i > 0 ? i - 1 : i + 1);
        ucr_point z = g_array_index(ps->cells, ucr_point, i + 1 < len ? i + 1 : i - 1);
        bool across = HX[h] ? (a.x == c.x && z.x == c.x) : (a.y == c.y && z.y == c.y);
        return across && !steps_near(ps, i) ? kind : 0;
    }
    return 0;
}

/* What a crossing passes under or over, in order: up to CROSS_MAX elements
 * side by side, each for some squares. */
enum { CROSS_MAX = 4, CROSS_LONG = 14 };
typedef struct {
    int x[CROSS_MAX];      /* canvas owners */
    int len[CROSS_MAX];
    bool gap[CROSS_MAX];   /* a square of rock before it, the way still under (over) */
    bool oblique[CROSS_MAX];   /* a corridor's diagonal run, crossed at 45° */
    int k;
    int level;             /* ucr_cross_kind the way must take (another way crosses
                            * a room there at the other), or -1 */
} cross_run;

/* The row of pips-cross for a crossing under (@under) or over, a slope
 * or stairs (@slope), or NULL if the table has none. */
static const ucr_table_row *cross_row(const builder *b, bool under, bool slope)
{
    const ucr_table *t = ucr_tables_lookup(b->tables, "pips-cross");
    const char *tag = under ? (slope ? "slope-under" : "under") : (slope ? "slope-over" : "over");
    for (guint i = 0; i < t->rows->len; i++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, i);
        if (row->tag && strcmp(row->tag, tag) == 0)
            return row;
    }
    return NULL;
}

/* How the way that already crosses a room at its square @p passes it:
 * ucr_cross_kind, or -1 if no way found (finished, or waiting to be drawn
 * on) crosses an area there. */
static int room_crossed_at(const builder *b, ucr_point p)
{
    for (guint k = 0; k < b->node->passages->len; k++) {
        const ucr_passage *ps = &g_array_index(b->node->passages, ucr_passage, k);
        for (guint x = 0; ps->crossings && x < ps->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(ps->crossings, ucr_crossing, x);
            for (int c = cr->first; cr->area >= 0 && c <= cr->last; c++)
                if (point_eq(g_array_index(ps->cells, ucr_point, c), p))
                    return (int)cr->kind;
        }
    }
    for (GList *l = b->ends.head; l; l = l->next) {
        const open_end *e = l->data;
        for (guint x = 0; e->kind == END_RUN && x < e->w->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(e->w->crossings, ucr_crossing, x);
            for (int c = cr->first; cr->area >= 0 && c <= cr->last; c++)
                if (point_eq(g_array_index(e->w->cells, ucr_point, c), p))
                    return (int)cr->kind;
        }
    }
    return -1;
}

/* Whether the way may pass room square @p, which another way already
 * crosses: at the other level only (under a room another way crosses over,
 * a bridge, or over one crossed under), the table has a row for it, and
 * no other square of this crossing asks the other (@r's level, set). */
static bool level_free(const builder *b, ucr_point p, cross_run *r)
{
    int other = room_crossed_at(b, p);
    if (other < 0)
        return false;
    int want = other == UCR_CROSS_UNDER ? UCR_CROSS_OVER : UCR_CROSS_UNDER;
    if ((r->level >= 0 && r->level != want) ||
        (!cross_row(b, want == UCR_CROSS_UNDER, false) && !cross_row(b, want == UCR_CROSS_UNDER, true)))
        return false;
    r->level = want;
    return true;
}

/* Whether the way may run under or over element @x at its square @p,
 * going towards @h: straight across it, with a corridor on both sides of
 * the way (a room: on one side at least, rock or the room on the other,
 * never beside a door into it), or across a corridor's diagonal run at
 * 45° (@r's element being added marked oblique), and no other way under or
 * over it there (in a room: none at the level @r's crossing takes). */
static bool crossable_at(const builder *b, int x, ucr_point p, int h, cross_run *r)
{
    bool area = x >= 0 && x < UCR_ATTACH_PASSAGE;
    bool passage = x >= UCR_ATTACH_PASSAGE && x < WIP;
    if (!area && !passage)
        return false;
    /* (A diamond is crossed across its squares, corners and all: the way
     * runs under the rock of a corner as under the floor.) */
    if (area && area_at(b, x)->kind == UCR_AREA_STAIRS)
        return false;
    int end = -1;
    int lie = passage ? straight_across(b, x - UCR_ATTACH_PASSAGE, p, h, &end) : 0;
    if (passage && !lie)
        return false;
    /* Not where another way already runs under or over it (its squares
     * are busy): two crossings would meet there, but in a room at two
     * levels (level_free). */
    if (ucr_canvas_busy(b->cv, p) && !(area && level_free(b, p, r)))
        return false;
    if (lie == 4) {   /* (the corridor runs at 45° to the way: on one side only) */
        r->oblique[r->k] = true;
        return true;
    }
    ucr_point l1 = { p.x + HY[h], p.y + HX[h] }, l2 = { p.x - HY[h], p.y - HX[h] };
    int o1 = owner(b, l1), o2 = owner(b, l2);
    if (passage) {   /* (the tip of a dead end: rock beyond it; before a door: the area) */
        int beyond = lie == 2 ? UCR_CANVAS_EMPTY : end;
        return lie == 1 ? o1 == x && o2 == x : (o1 == x && o2 == beyond) || (o2 == x && o1 == beyond);
    }
    /* (Along a room's wall, a corridor beside it is no matter: the way
     * runs under or over the room, not beside that corridor.) */
    return o1 == x || o2 == x;
}

/* Whether the square @q of the steps (before or after the crossing) has
 * rock beside it but for what the crossing passes (the square towards
 * heading @h), the way itself (@own) and, on either side, element @near of
 * @r if it is crossed at 45° (the squares of its diagonal run come corner
 * first to the steps); corner to corner, anything may stand. */
static bool steps_clear(const builder *b, ucr_point q, int own, const cross_run *r, int h, int near)
{
    int beside = near >= 0 && r->oblique[near] ? r->x[near] : INT_MIN;
    if (!in_map(b, q) || owner(b, q) != UCR_CANVAS_EMPTY)
        return false;
    for (int d = 0; d < 4; d++) {
        int o = owner(b, ucr_point_step(q, (ucr_dir)d));
        bool ok = o == UCR_CANVAS_EMPTY || o == own;
        /* What it crosses, on its line only (not the same corridor where
         * it doubles back beside the steps: split later, another). */
        for (int i = 0; i < r->k && !ok && d == h / 2; i++)
            ok = o == r->x[i];
        if (!ok && o != beside)
            return false;
    }
    return true;
}

/* Whether @p is rock with rock either side (across heading @h), and @q
 * beyond it an element (not a way being drawn). */
static bool rock_between(const builder *b, ucr_point p, ucr_point q, int h)
{
    ucr_point l1 = { p.x + HY[h], p.y + HX[h] }, l2 = { p.x - HY[h], p.y - HX[h] };
    int o = owner(b, q);
    return in_map(b, p) && in_map(b, q) && owner(b, p) == UCR_CANVAS_EMPTY && owner(b, l1) == UCR_CANVAS_EMPTY &&
           owner(b, l2) == UCR_CANVAS_EMPTY && o >= 0 && o < WIP;
}

/* The geometry of a crossing from square @l (the way's last, its squares
 * owned by @own) towards @h: the elements ahead (in @r), each straight
 * across, one after the other where they stand side by side, with rock for
 * the steps either side.  Returns the squares crossed, or 0 if it cannot
 * be crossed there (@x INT_MIN: the map's edge beyond it; else the first
 * element).  @at: the steps stand on @l itself (a door's square). */
static int cross_fit(const builder *b, ucr_point l, int own, int h, bool at, int *x_out, cross_run *r)
{
    *x_out = -1;
    r->k = 0;
    r->level = -1;
    if (diagonal(h))
        return 0;
    ucr_point before = at ? l : (ucr_point){ l.x + HX[h], l.y + HY[h] };
    ucr_point p = { before.x + HX[h], before.y + HY[h] };
    int n = 0;
    bool gap = false;
    for (;;) {
        while (owner(b, p) != UCR_CANVAS_EMPTY) {
            int x = owner(b, p);
            if (r->k == CROSS_MAX || !in_map(b, p))
                return 0;
            r->x[r->k] = x;
            r->len[r->k] = 0;
            r->gap[r->k] = gap;
            r->oblique[r->k] = false;
            gap = false;
            while (owner(b, p) == x) {
                if (n == CROSS_LONG || !crossable_at(b, x, p, h, r))
                    return 0;
                p.x += HX[h];
                p.y += HY[h];
                n++;
                r->len[r->k]++;
            }
            r->k++;
        }
        if (!r->k)
            return 0;
        if (!in_map(b, before) || !in_map(b, p)) {
            *x_out = INT_MIN;   /* beyond it, the map's edge */
            return 0;
        }
        if (steps_clear(b, p, own, r, (h + 4) % 8, r->k - 1))
            break;
        /* No room for the steps up (down) there, but another element just
         * beyond a square of rock: the way stays under (over) it too. */
        ucr_point q = { p.x + HX[h], p.y + HY[h] };
        if (!rock_between(b, p, q, h) || n + 1 >= CROSS_LONG)
            return 0;
        p = q;
        n++;
        gap = true;
    }
    if (!at && !steps_clear(b, before, own, r, h, 0))
        return 0;
    *x_out = r->x[0];
    return n;
}

/* seed 003: "If a passage double backs and crosses an already-mapped
 * portion, insert stairs or a slope": from the end of @w, the steps on a
 * square of rock, the elements crossed (they keep their squares), the steps
 * back beyond them (cross_fit).  Returns false, changing nothing, if it
 * cannot be crossed there. */
static bool cross_at(builder *b, wip *w, int h, bool at, GString *rec)
{
    int x;
    cross_run r;
    int n = cross_fit(b, last_cell(w), WIP + w->id, h, at, &x, &r);
    if (!n)
        return false;
    ucr_point l = last_cell(w);
    ucr_point before = at ? l : (ucr_point){ l.x + HX[h], l.y + HY[h] };
    ucr_point p = { before.x + HX[h], before.y + HY[h] };
    GString *what = g_string_new(NULL);
    const ucr_table_row *row = table_roll(b, "pips-cross", what);
    bool under = strcmp(row->tag, "under") == 0 || strcmp(row->tag, "slope-under") == 0;
    /* "insert stairs or a slope": a slope is a ramp of its own kind. */
    bool slope = g_str_has_prefix(row->tag, "slope-");
    if (r.level >= 0 && under != (r.level == UCR_CROSS_UNDER)) {
        /* Another way crosses a room on this line at the level rolled: the
         * GM takes the other (cross_fit found a row for it). */
        under = !under;
        const ucr_table_row *alt = cross_row(b, under, slope);
        slope = alt ? slope : !slope;
        row = alt ? alt : cross_row(b, under, slope);
        g_string_append_printf(what, "; another way runs %s the room there", under ? "over" : "under");
    }
    g_string_append(rec, "; meets ");
    for (int i = 0; i < r.k; i++) {
        if (i)
            g_string_append(rec, i + 1 < r.k ? ", " : " and ");
        g_string_append(rec, r.x[i] < UCR_ATTACH_PASSAGE ? "a room" : "a corridor");
    }
    g_string_append_printf(rec, ": %s (%s)", row->text, what->str);
    g_string_free(what, TRUE);
    int ib = (int)w->cells->len - at;
    if (!at) {
        g_array_append_val(w->cells, before);
        claim(b, w, before);
    }
    int first = ib + 1;
    for (int i = 0; i < r.k; i++) {
        if (r.gap[i]) {
            g_array_append_val(w->cells, p);   /* rock, the way still under (over) */
            claim(b, w, p);
            p.x += HX[h];
            p.y += HY[h];
            first++;
        }
        bool area = r.x[i] < UCR_ATTACH_PASSAGE;
        ucr_crossing cr = { first, first + r.len[i] - 1, under ? UCR_CROSS_UNDER : UCR_CROSS_OVER, area ? r.x[i] : -1,
                            area ? -1 : r.x[i] - UCR_ATTACH_PASSAGE };
        g_array_append_val(w->crossings, cr);
        for (int j = 0; j < r.len[i]; j++) {
            g_array_append_val(w->cells, p);   /* the crossed element keeps the square */
            ucr_canvas_busy_set(b->cv, p, true);   /* no door beside it (mouth_clear) */
            p.x += HX[h];
            p.y += HY[h];
        }
        first += r.len[i];
    }
    g_array_append_val(w->cells, p);
    claim(b, w, p);
    ucr_stair down = slope ? UCR_SLOPE_DOWN : UCR_STAIR_DOWN, up = slope ? UCR_SLOPE_UP : UCR_STAIR_UP;
    ucr_passage_stairs s1 = { ib, under ? down : up };
    ucr_passage_stairs s2 = { ib + n + 1, under ? up : down };
    g_array_append_val(w->stairs, s1);
    g_array_append_val(w->stairs, s2);
    return true;
}

static bool cross(builder *b, wip *w, int h, GString *rec)
{
    return cross_at(b, w, h, false, rec);
}

/* Takes back the last square of @w, which step() drew (and the squares
 * beside it, if that step was diagonal). */
static void unstep(builder *b, wip *w)
{
    ucr_point c = last_cell(w);
    ucr_point p = g_array_index(w->cells, ucr_point, w->cells->len - 2);
    g_array_set_size(w->cells, w->cells->len - 1);
    ucr_canvas_set(b->cv, c, UCR_CANVAS_EMPTY);
    if (p.x != c.x && p.y != c.y) {
        for (int i = 0; i < 2; i++)
            ucr_canvas_set(b->cv, g_array_index(w->sides, ucr_point, w->sides->len - 1 - i), UCR_CANVAS_EMPTY);
        g_array_set_size(w->sides, w->sides->len - 2);
    }
}

/* Whether the square ahead of @w towards @h (or one beside a diagonal
 * step there) is off the map: the way is at its edge. */
static bool at_edge(const builder *b, const wip *w, int h)
{
    ucr_point l = last_cell(w);
    ucr_point c = { l.x + HX[h], l.y + HY[h] };
    return !in_map(b, c) || (diagonal(h) && (!in_map(b, (ucr_point){ c.x, l.y }) || !in_map(b, (ucr_point){ l.x, c.y })));
}

/* One square aside of @w, or up to SIDESTEP, to @side, and then on
 * towards @h (a step, or a crossing): the way edges past what stands
 * beside its line, or along it to where it crosses straight (a corridor's
 * bend, a room's corner: five squares, not three, spare 6% of the ways cut
 * short, issue #22).  Returns false, changing nothing, if it cannot. */
static bool sidestep(builder *b, wip *w, int side, int h, GString *rec)
{
    int aside = 0;
    while (aside < SIDESTEP && step(b, w, side)) {
        aside++;
        GString *x = g_string_new(NULL);
        bool on = step(b, w, h) || cross(b, w, h, x);
        if (on)
            g_string_append_printf(rec, "; sidesteps %s%s", HNAME[side], x->str);
        g_string_free(x, TRUE);
        if (on)
            return true;
    }
    while (aside-- > 0)
        unstep(b, w);
    return false;
}

/* seed 003: the way goes on past what it meets.  Square on, it crosses
 * the element ahead, else sidesteps up to SIDESTEP squares (either side) to pass
 * beside it or to cross it square; a diagonal way turns square, either
 * way, to cross, else sidesteps square and goes on diagonally, else turns
 * square round it.  May turn @h. */
static bool go_past(builder *b, wip *w, int *h, GString *rec)
{
    if (!diagonal(*h)) {
        if (cross(b, w, *h, rec))
            return true;
        for (int k = 0; k < 2; k++)
            if (sidestep(b, w, (*h + (k ? 6 : 2)) % 8, *h, rec))
                return true;
        return false;
    }
    for (int k = 0; k < 2; k++) {
        int hs = (*h + (k ? 7 : 1)) % 8;
        GString *x = g_string_new(NULL);
        bool crossed = cross(b, w, hs, x);
        if (crossed) {
            g_string_append_printf(rec, "; turns %s to cross%s", HNAME[hs], x->str);
            *h = hs;
        }
        g_string_free(x, TRUE);
        if (crossed)
            return true;
    }
    for (int k = 0; k < 2; k++)
        if (sidestep(b, w, (*h + (k ? 7 : 1)) % 8, *h, rec))
            return true;
    for (int k = 0; k < 2; k++) {
        /* Square, a square or two on, and across. */
        int hs = (*h + (k ? 7 : 1)) % 8, on = 0;
        GString *x = g_string_new(NULL);
        bool crossed = false;
        while (!crossed && on < 2 && (step(b, w, hs) || step_to_steps(b, w, hs))) {
            on++;
            crossed = cross(b, w, hs, x);
        }
        if (crossed) {
            g_string_append_printf(rec, "; turns %s to cross%s", HNAME[hs], x->str);
            *h = hs;
        }
        g_string_free(x, TRUE);
        if (crossed)
            return true;
        while (on-- > 0)
            unstep(b, w);
    }
    for (int k = 0; k < 2; k++) {
        int hs = (*h + (k ? 7 : 1)) % 8;
        if (step(b, w, hs)) {
            g_string_append_printf(rec, "; turns %s round it", HNAME[hs]);
            *h = hs;
            return true;
        }
    }
    return false;
}

/* Whether the way ahead of @w towards @h runs into the map (a square of
 * another element on its line, one or two squares on), rather than past
 * its side. */
static bool meets(const builder *b, const wip *w, int h)
{
    ucr_point l = last_cell(w);
    for (int i = 1; i <= 2; i++) {
        int o = owner(b, (ucr_point){ l.x + i * HX[h], l.y + i * HY[h] });
        if (o != UCR_CANVAS_EMPTY && o != WIP + w->id)
            return true;
    }
    return false;
}

/* Whether the way ahead of @w towards @h (or, diagonal, either square way)
 * meets what it could cross but for the map's edge beyond it. */
static bool edge_beyond(const builder *b, const wip *w, int h)
{
    for (int k = 0; k < (diagonal(h) ? 2 : 1); k++) {
        int hs = diagonal(h) ? (h + (k ? 7 : 1)) % 8 : h, x;
        cross_run r;
        if (!cross_fit(b, last_cell(w), WIP + w->id, hs, false, &x, &r) && x == INT_MIN)
            return true;
    }
    return false;
}

/* Up to @n squares towards @h, going past what it meets where it can (may
 * turn @h); returns the squares drawn.  The record says why a way stops
 * short: "at the map's edge", "blocked" where it runs into the map and
 * cannot cross it (and whether the map's edge beyond what it meets is
 * why), "beside the map" where it would run along it. */
static int run(builder *b, wip *w, int *h, int n, GString *rec)
{
    int done = 0;
    while (done < n) {
        if (step(b, w, *h)) {
            done++;
            continue;
        }
        if (at_edge(b, w, *h))
            break;
        int before = (int)w->cells->len;
        if (!go_past(b, w, h, rec))
            break;
        done += (int)w->cells->len - before;
    }
    if (done < n) {
        g_string_append(rec, at_edge(b, w, *h)       ? "; at the map's edge after "
                             : !meets(b, w, *h)      ? "; beside the map after "
                             : edge_beyond(b, w, *h) ? "; blocked, the map's edge beyond what it meets, after "
                                                     : "; blocked after ");
        ucr_text_append_int(rec, done * 10);
        g_string_append(rec, " ft");
    }
    return done;
}

/* From heading @from to @to, one square per 45° (a square corner needs no
 * square of its own between two square headings).  A way straight back
 * doubles back: two squares aside first, to the @lie side (left if 0). */
static bool turn(builder *b, wip *w, int from, int to, int lie, GString *rec)
{
    int d = ((to - from) % 8 + 8) % 8;
    if (d == 0)
        return true;
    if (d == 4) {
        int side = (from + (lie > 0 ? 2 : 6)) % 8;
        g_string_append_printf(rec, "; doubles back (jogs %s)", HNAME[side]);
        if (!diagonal(from)) {
            return step(b, w, side) && step(b, w, side);
        }
        return turn(b, w, from, side, 0, rec) && step(b, w, side) && turn(b, w, side, to, 0, rec);
    }
    if (!diagonal(from) && !diagonal(to) && (d == 2 || d == 6))
        return true;
    int dir = d < 4 ? 1 : 7;
    for (int h = (from + dir) % 8; h != to; h = (h + dir) % 8)
        if (!step(b, w, h))
            return false;
    return true;
}

/* ---- finishing passages -------------------------------------------------- */

/* Adds @w (consumed) to the node, from its start to vertex @to; a door at
 * each end that is a room. */
static int finish(builder *b, wip *w, int to, bool door_at_end)
{
    ucr_node *node = b->node;
    int a = w->from;
    if (a < 0)
        a = ucr_node_add_vertex(node, UCR_VERTEX_EXIT, g_array_index(w->cells, ucr_point, 0));
    int k = ucr_node_add_passage(node, NULL, w->cells, a, to, UCR_EDGE_OPEN);
    ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
    g_array_append_vals(p->stairs, w->stairs->data, w->stairs->len);
    if (w->crossings->len) {
        p->crossings = w->crossings;
        w->crossings = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
    }
    for (guint i = 0; i < w->cells->len; i++) {
        ucr_point c = g_array_index(w->cells, ucr_point, i);
        if (owner(b, c) == WIP + w->id)
            ucr_canvas_set(b->cv, c, UCR_ATTACH_PASSAGE + k);
    }
    for (guint i = 0; i < w->sides->len; i++)
        ucr_canvas_set(b->cv, g_array_index(w->sides, ucr_point, i), UCR_ATTACH_PASSAGE + k);
    w->cells = NULL;
    if (w->door && w->from >= 0)
        ucr_node_add_door(node, w->from, k, UCR_DOOR_PLAIN);
    if (door_at_end)
        ucr_node_add_door(node, to, k, UCR_DOOR_PLAIN);
    wip_free(w);
    return k;
}

static void finish_dead_end(builder *b, wip *w)
{
    int v = ucr_node_add_vertex(b->node, UCR_VERTEX_DEAD_END, last_cell(w));
    finish(b, w, v, false);
}

/* ---- areas --------------------------------------------------------------- */

static int area_add(builder *b, ucr_area_kind kind, int x, int y, int w, int h, bool diamond, char *rolled)
{
    ucr_area a = ucr_area_make(kind, x, y, w, h);
    a.rolled = rolled;
    a.diamond = diamond;
    a.key = (int)b->node->areas->len + 1;
    int i = ucr_node_add_area(b->node, b->cv, &a);
    if (kind == UCR_AREA_ROOM)
        b->rooms++;
    if ((int)b->node->areas->len >= MAX_AREAS)
        b->full = true;
    return i;
}

/* The rectangle free, with a ring of rock around it that only the end of
 * @w (its last square, and the squares beside its last step) may hold. */
static bool rect_fits(const builder *b, const wip *w, int x, int y, int rw, int rh)
{
    if (x < 1 || y < 1 || x + rw > b->cv->w - 1 || y + rh > b->cv->h - 1)
        return false;
    ucr_point e = last_cell(w);
    for (int yy = y - 1; yy <= y + rh; yy++)
        for (int xx = x - 1; xx <= x + rw; xx++) {
            ucr_point q = { xx, yy };
            int o = owner(b, q);
            if (o == UCR_CANVAS_EMPTY)
                continue;
            bool inside = xx >= x && xx < x + rw && yy >= y && yy < y + rh;
            if (inside || o != WIP + w->id)
                return false;
            bool ok = point_eq(q, e);
            for (guint s = w->sides->len >= 2 ? w->sides->len - 2 : 0; s < w->sides->len; s++)
                ok |= point_eq(q, g_array_index(w->sides, ucr_point, s));
            if (!ok)
                return false;
        }
    return true;
}

/* Whether wall @side of area @r, not yet drawn at the end of way @w, has
 * @need squares before it (a square apart: both exits of a room thrown to
 * that wall want two doors) for a door with rock beyond for the way out
 * (as mouth() and way_on() find once it is drawn; a diamond: its tip, so
 * never two: both exits leave by its one door, pair_junction). */
static bool wall_open(const builder *b, const wip *w, const ucr_area *r, ucr_dir side, int need)
{
    int wl = side == UCR_NORTH || side == UCR_SOUTH ? r->w : r->h;
    int found = 0, last = -2;
    for (int k = r->diamond ? wl / 2 : 0; k < (r->diamond ? wl / 2 + 1 : wl); k++) {
        ucr_point m = side == UCR_NORTH ? (ucr_point){ r->x + k, r->y - 1 }
                    : side == UCR_SOUTH ? (ucr_point){ r->x + k, r->y + r->h }
                    : side == UCR_WEST  ? (ucr_point){ r->x - 1, r->y + k }
                                        : (ucr_point){ r->x + r->w, r->y + k };
        ucr_point c = ucr_point_step(m, side);
        if (!in_map(b, m) || !in_map(b, c))
            continue;
        bool ok = true;
        for (int dy = -1; dy <= 1 && ok; dy++)
            for (int dx = -1; dx <= 1 && ok; dx++) {
                ucr_point q = { m.x + dx, m.y + dy }, q2 = { c.x + dx, c.y + dy };
                int o = owner(b, q);
                ok = o == UCR_CANVAS_EMPTY || ucr_area_contains(r, q) || (dx && dy && o == WIP + w->id);
                ok = ok && (point_eq(q2, m) || owner(b, q2) == UCR_CANVAS_EMPTY);
            }
        if (ok && k - last >= 2) {
            last = k;
            if (++found >= need)
                return true;
        }
    }
    return false;
}

/* Whether, with b->wish_on_map, every wall in b->wish of the rectangle
 * has a square before it on the map (for a door). */
static bool wishes_on_map(const builder *b, int x, int y, int rw, int rh)
{
    for (int k = 0; b->wish_on_map && k < b->n_wish; k++) {
        ucr_dir s = (ucr_dir)b->wish[k];
        ucr_point q = s == UCR_NORTH ? (ucr_point){ x + rw / 2, y - 1 } : s == UCR_SOUTH ? (ucr_point){ x + rw / 2, y + rh }
                    : s == UCR_WEST ? (ucr_point){ x - 1, y + rh / 2 } : (ucr_point){ x + rw, y + rh / 2 };
        if (!in_map(b, q))
            return false;
    }
    return true;
}

/* A place for an area: how many of the walls in b->wish have a way out
 * there (-1: no place), and where. */
typedef struct {
    int score, x, y;
} area_spot;

/* Where a room (or landing) of @rw × @rh fits beyond the end of @w
 * towards @d, as near the middle of its wall as it fits (a diamond, odd
 * side, by its tip), unless a place further along leaves more of the walls
 * in b->wish a way out: in @off, off the map's edge (a square of rock
 * before every wall); in @any, against it or not.  With b->wish_all, only
 * a place where all of them have. */
static void area_spots(const builder *b, const wip *w, ucr_dir d, int rw, int rh, bool diamond, area_spot *off,
                       area_spot *any)
{
    ucr_point e = last_cell(w);
    int across = d == UCR_NORTH || d == UCR_SOUTH ? rw : rh;
    int tries = diamond ? 1 : 2 * across - 1;
    *off = *any = (area_spot){ -1, 0, 0 };
    for (int i = 0; i < tries && off->score < b->n_wish; i++) {
        int lat = (i % 2) ? (i + 1) / 2 : -(i / 2);
        int x, y;
        switch (d) {
        case UCR_NORTH: x = e.x - (rw - 1) / 2 + lat; y = e.y - rh; break;
        case UCR_SOUTH: x = e.x - (rw - 1) / 2 + lat; y = e.y + 1; break;
        case UCR_WEST: x = e.x - rw; y = e.y - (rh - 1) / 2 + lat; break;
        default: x = e.x + 1; y = e.y - (rh - 1) / 2 + lat; break;
        }
        int o = d == UCR_NORTH || d == UCR_SOUTH ? e.x - x : e.y - y;
        if (o < 0 || o >= across || !rect_fits(b, w, x, y, rw, rh) || !wishes_on_map(b, x, y, rw, rh))
            continue;
        int score = 0;
        for (int k = 0; k < b->n_wish; k++)
            score += wall_open(b, w, &(ucr_area){ .x = x, .y = y, .w = rw, .h = rh, .diamond = diamond },
                               (ucr_dir)b->wish[k], k && b->wish[k] == b->wish[k - 1] && !diamond ? 2 : 1);
        if (score > any->score)
            *any = (area_spot){ score, x, y };
        if (score > off->score && in_map(b, (ucr_point){ x - 1, y - 1 }) && in_map(b, (ucr_point){ x + rw, y + rh }))
            *off = (area_spot){ score, x, y };
    }
    for (int k = 0; k < 2 && b->wish_all; k++) {
        area_spot *sp = k ? any : off;
        if (sp->score < b->n_wish)
            sp->score = -1;
    }
}

/* Where a room (or landing) of @rw × @rh fits beyond the end of @w
 * towards @d (*@bx, *@by), against the map's edge or not (area_spots):
 * how many of the walls in b->wish have a way out there, or -1 if it fits
 * nowhere.  Area_beyond: draws it there, finishes @w at it and returns
 * the area, or -1 (nothing changed).  Takes @rolled either way. */
static int area_place(const builder *b, const wip *w, ucr_dir d, int rw, int rh, bool diamond, int *bx, int *by)
{
    area_spot off, any;
    area_spots(b, w, d, rw, rh, diamond, &off, &any);
    *bx = any.x;
    *by = any.y;
    return any.score;
}

/* Draws what area_place() found, at @x, @y; finishes @w at it. */
static int area_at_place(builder *b, wip *w, ucr_area_kind kind, int x, int y, int rw, int rh, bool diamond,
                         char *rolled)
{
    int ai = area_add(b, kind, x, y, rw, rh, diamond, rolled);
    finish(b, w, ai, kind == UCR_AREA_ROOM);
    return ai;
}

static int area_beyond(builder *b, wip *w, ucr_dir d, ucr_area_kind kind, int rw, int rh, bool diamond,
                       char *rolled)
{
    int x, y;
    if (area_place(b, w, d, rw, rh, diamond, &x, &y) < 0) {
        g_free(rolled);
        return -1;
    }
    return area_at_place(b, w, kind, x, y, rw, rh, diamond, rolled);
}

/* A room size "WxH" from table @name; a malformed row reads as 3x3. */
static void size_roll(builder *b, const char *name, int *w, int *h, GString *rec)
{
    const ucr_table_row *row = table_roll(b, name, rec);
    if (!ucr_table_parse_size(row->text, w, h)) {
        *w = 3;
        *h = 3;
    }
    append_paren(rec, row->text);
}

static ucr_dir dir_back(ucr_dir d)
{
    return (ucr_dir)((d + 2) % 4);
}

static void queue_end(builder *b, open_end e)
{
    g_queue_push_tail(&b->ends, g_memdup2(&e, sizeof e));
}

/* The room a 4, 5 or 6 asks for, beyond the end of @w towards @d: smaller
 * if it does not fit as rolled.  Returns its area or -1 (@w untouched). */
static int room_for(builder *b, wip *w, ucr_dir d, const pips_throw *t, GString *rec)
{
    int rw, rh;
    bool diamond = false;
    GString *size = g_string_new(NULL);
    if (is(t, "long-room")) {
        /* "a row of three dots indicates the long side": the rows of a 6
         * run along the way in on a square die, across it on a turned one. */
        size_roll(b, "pips-long-room", &rw, &rh, size);
        int lo = MIN(rw, rh), hi = MAX(rw, rh);
        bool along = t->lie == 0;
        bool ns = d == UCR_NORTH || d == UCR_SOUTH;
        rw = along == ns ? lo : hi;
        rh = along == ns ? hi : lo;
        g_string_append(size, along ? ", long side along the way in" : ", long side across the way in");
    } else {
        size_roll(b, "pips-room", &rw, &rh, size);
        rh = rw;
        /* "if the square symbol on the die is turned 45 degrees compared to
         * the edges of the dice map, make a diamond instead of a square" */
        if (t->lie != 0) {
            diamond = true;
            rw = rh = MAX(7, rw | 1);
            g_string_append(size, ", a diamond ");
            ucr_text_append_int(size, rw);
            g_string_append(size, " squares across");
        }
    }
    /* As rolled where it fits, else a square smaller each way at a time;
     * smaller also where that leaves more of the walls its exits were
     * thrown to a way out (the GM draws it to fit them).  Off the map's
     * edge, a square of rock before every wall, where it fits so: a wall
     * against the edge has no door for an exit thrown to it (issue #22:
     * 3% of the exits); against it only where nothing else fits. */
    area_spot best[2] = { { -1, 0, 0 }, { -1, 0, 0 } };   /* off the edge, any */
    int bs[2] = { 0, 0 };
    for (int shrink = 0, bw = 0, bh = 0; shrink <= 10 && best[0].score < b->n_wish; shrink++) {
        int sw = MAX(rw - (diamond ? 2 * shrink : shrink), diamond ? 3 : 2);
        int sh = MAX(rh - (diamond ? 2 * shrink : shrink), diamond ? 3 : 2);
        if (shrink && sw == bw && sh == bh)
            break;
        area_spot sp[2];
        area_spots(b, w, d, sw, sh, diamond, &sp[0], &sp[1]);
        for (int k = 0; k < 2; k++)
            if (sp[k].score > best[k].score) {
                best[k] = sp[k];
                bs[k] = shrink;
            }
        bw = sw;
        bh = sh;
    }
    int ai = -1, c = best[0].score >= 0 ? 0 : 1;
    if (best[c].score >= 0) {
        int sw = MAX(rw - (diamond ? 2 * bs[c] : bs[c]), diamond ? 3 : 2);
        int sh = MAX(rh - (diamond ? 2 * bs[c] : bs[c]), diamond ? 3 : 2);
        area_spot as_rolled[2];
        if (bs[c])
            area_spots(b, w, d, rw, rh, diamond, &as_rolled[0], &as_rolled[1]);
        const char *why = !bs[c] ? "" : best[c].score > 0 && as_rolled[c].score >= 0 ? " (smaller, for its exits)"
                                                                                      : " (smaller, to fit)";
        char *rolled = g_strconcat(is(t, "long-room") ? "elongated" : diamond ? "diamond" : "square", " room: ",
                                   size->str, why, NULL);
        ai = area_at_place(b, w, UCR_AREA_ROOM, best[c].x, best[c].y, sw, sh, diamond, rolled);
        g_string_append(rec, why);
    }
    g_string_free(size, TRUE);
    return ai;
}

/* Stairs down or a trapdoor, a landing beyond the end of @w towards @d. */
static int down_beyond(builder *b, wip *w, ucr_dir d, GString *rec)
{
    GString *r = g_string_new(NULL);
    const ucr_table_row *row = table_roll(b, "pips-down", r);
    ucr_stair st = strcmp(row->tag, "trapdoor") == 0 ? UCR_LADDER_DOWN : UCR_STAIR_DOWN;
    g_string_append_printf(rec, "; %s (%s)", row->text, r->str);
    /* What is on the next floor is that node's own first throw. */
    g_string_append_printf(r, ": %s", row->text);
    bool ns = d == UCR_NORTH || d == UCR_SOUTH;
    char *rolled = g_string_free(r, FALSE);
    int ai = area_beyond(b, w, d, UCR_AREA_STAIRS, ns ? 1 : 2, ns ? 2 : 1, false, rolled);
    if (ai < 0)
        return -1;
    ucr_area *a = &g_array_index(b->node->areas, ucr_area, ai);
    a->stair = st;
    a->trapdoor = st == UCR_LADDER_DOWN;   /* a trap door is a trap door: its ladder is beneath it */
    exit_stairs *ex = g_new0(exit_stairs, 1);
    ex->step = (ucr_step){ UCR_STEP_STAIRS, st, -1, false, NULL };
    ex->area = ai;
    g_ptr_array_add(b->plan->exits, ex);
    return ai;
}

/* ---- the rules ----------------------------------------------------------- */

static bool room_back(builder *b, int ai, ucr_dir side);
static bool mouth(builder *b, int ai, ucr_dir side, ucr_point *out, bool *cross_here);
static void append_set_aside(GString *s, const char *rec);

/* The room @t asks for beyond @w towards @d, else up to 30 ft further
 * on; -1 if none fits (@w then longer). */
static int room_further(builder *b, wip *w, ucr_dir d, const pips_throw *t, GString *rec)
{
    int ai = room_for(b, w, d, t, rec);
    for (int extra = 0; ai < 0 && extra < 3; extra++) {
        if (!step(b, w, 2 * d))
            break;
        ai = room_for(b, w, d, t, rec);
    }
    return ai;
}

/* A room's exit throws, made as it is drawn (kept in @e for when its
 * exits are drawn): the GM draws the room where the walls they landed by
 * have room for a way out (area_beyond reads b->wish). */
static void pre_throw(builder *b, open_end *e)
{
    b->n_wish = 0;
    for (int i = 0; i < e->throws && i < 2; i++) {
        GString *r = g_string_new(NULL);
        e->pre[i] = throw_die(b, r);
        e->pre_rec[i] = g_string_free(r, FALSE);
        if (e->pre[i].landing != CENTRE)
            b->wish[b->n_wish++] = e->pre[i].landing;
    }
    e->pre_n = MIN(e->throws, 2);
}

/* The room of @e is drawn: where an exit throw landed by the wall of its
 * door and the way in is the one square from the room before and that
 * wall has no room for another door, the GM's eraser draws the room 20 ft
 * further on now, while the rock beyond is free, so that the exit can
 * leave by that door (branch_out); said in @rec. */
static void pre_throw_drawn(builder *b, open_end *e, GString *rec)
{
    bool back = false;
    b->n_wish = 0;
    for (int i = 0; i < e->pre_n; i++)
        back |= e->pre[i].landing == e->entered;
    ucr_point m;
    if (back && !b->full && !mouth(b, e->area, (ucr_dir)e->entered, &m, NULL) &&
        room_back(b, e->area, (ucr_dir)e->entered))
        g_string_append(rec, "; the room drawn 20 ft further on, to make room for its exit by this door");
}

/* The room @t asks for at the end of @w, towards @d, drawn where every
 * wall its exits were thrown to (b->wish) has room for a way out: ahead,
 * else to either side of the way's end (the GM draws the room to fit its
 * exits; said in @rec, @e entered from that side).  -1 if no such place
 * (@w unchanged). */
static int room_for_exits(builder *b, wip *w, ucr_dir d, const pips_throw *t, open_end *e, GString *rec)
{
    int ai = -1;
    b->wish_all = true;
    for (int k = 0; ai < 0 && k < 3; k++) {
        ucr_dir side = k ? (ucr_dir)((d + (k == 2 ? 3 : 1)) % 4) : d;
        ai = room_for(b, w, side, t, rec);
        if (ai >= 0 && k) {
            g_string_append_printf(rec, " (drawn to the %s, where its exits find room)", ucr_dir_name(side));
            e->entered = (int)dir_back(side);
        }
    }
    b->wish_all = false;
    return ai;
}

/* Whether the last square of @w is its own plain square (no steps or
 * crossing on it or the square before) that unstep() can take back. */
static bool plain_end(const builder *b, const wip *w)
{
    int last = (int)w->cells->len - 1;
    if (owner(b, last_cell(w)) != WIP + w->id)
        return false;
    for (guint s = 0; s < w->stairs->len; s++)
        if (g_array_index(w->stairs, ucr_passage_stairs, s).index >= last - 1)
            return false;
    for (guint x = 0; x < w->crossings->len; x++)
        if (g_array_index(w->crossings, ucr_crossing, x).last >= last - 1)
            return false;
    return true;
}

/* Steps @w up to @most squares towards @dir, trying at each the room @t
 * asks for beyond it (room_for_exits, which consumes @w if it draws the
 * room): the room's area, the squares stepped in *@n; -1 with @w as it was. */
static int room_after_steps(builder *b, wip *w, ucr_dir dir, int most, ucr_dir d, const pips_throw *t, open_end *e,
                            GString *rec, int *n)
{
    int ai = -1;
    *n = 0;
    while (ai < 0 && *n < most && step(b, w, 2 * (int)dir)) {
        ++*n;
        ai = room_for_exits(b, w, d, t, e, rec);
    }
    for (int k = 0; ai < 0 && k < *n; k++)
        unstep(b, w);
    return ai;
}

/* A way that ran to the map's edge (its last square beside it), with no
 * place there for its room where every wall its exits were thrown to has
 * a way out: the GM stops the way a square or two short of the edge (the
 * paper ended it there already) and draws the room there, where they do
 * (room_for_exits; said in @rec).  -1 if none (@w as it was). */
static int room_short_of_edge(builder *b, wip *w, ucr_dir d, const pips_throw *t, open_end *e, GString *rec)
{
    bool by_edge = false;
    for (int h = 0; h < 8; h += 2)
        by_edge |= at_edge(b, w, h);
    ucr_point kept[4];
    int n = 0, ai = -1;
    while (by_edge && ai < 0 && n < 4 && w->cells->len > 3 && plain_end(b, w)) {
        ucr_point l = last_cell(w), p = g_array_index(w->cells, ucr_point, w->cells->len - 2);
        if (l.x != p.x && l.y != p.y)
            break;   /* (a diagonal step: its side squares too) */
        kept[n++] = l;
        unstep(b, w);
        ai = room_for_exits(b, w, d, t, e, rec);
    }
    if (ai >= 0) {
        g_string_append_printf(rec, " (the way stopped %d ft short of the map's edge, where its exits find room)",
                               10 * n);
        return ai;
    }
    while (n > 0) {
        ucr_point c = kept[--n];
        g_array_append_val(w->cells, c);
        claim(b, w, c);
    }
    return -1;
}

/* A way that ends by the map's edge beside it (up to four squares from
 * it, heading along it), a wall of its room thrown to that edge: the GM
 * turns the way a square or two from the edge before the room (its turn
 * to face the room, as at any room), so that the room's walls its exits
 * were thrown to have a way out (room_for_exits; said in @rec).  -1 if
 * none (@w as it was). */
static int room_off_edge(builder *b, wip *w, ucr_dir d, const pips_throw *t, open_end *e, GString *rec)
{
    for (int k = 0; k < 2; k++) {
        ucr_dir edge = (ucr_dir)((d + (k ? 3 : 1)) % 4);
        bool wished = false;
        for (int i = 0; i < b->n_wish; i++)
            wished |= b->wish[i] == (int)edge;
        if (!wished || edge_distance(b, last_cell(w), edge) > 4)
            continue;
        ucr_dir in = dir_back(edge);
        int n, ai = room_after_steps(b, w, in, 3, d, t, e, rec, &n);
        if (ai >= 0) {
            g_string_append_printf(rec, " (the way turns %s %d ft from the map's edge, where its exits find room)",
                                   ucr_dir_name(in), 10 * n);
            return ai;
        }
    }
    return -1;
}

/* A room a door beyond another (@w shorter than three squares) with no
 * place there where the walls its exits were thrown to have a way out
 * (the room before hems it in on that side): the GM draws the way in 10
 * or 20 ft longer, else 10 ft on and then 10 or 20 ft to either side (a
 * room squeezed in before the door has no room beside it for a second
 * door on the wall it was entered by, the room before a square beyond
 * it), and the room there where they do (room_for_exits; said in @rec).
 * The way between two rooms is no rolled corridor: no length is broken.
 * -1 if none (@w as it was). */
static int room_way_longer(builder *b, wip *w, ucr_dir d, const pips_throw *t, open_end *e, GString *rec)
{
    if (w->cells->len >= 3)
        return -1;
    int n, ai = room_after_steps(b, w, d, 2, d, t, e, rec, &n);
    if (ai >= 0) {
        g_string_append_printf(rec, " (the way in %d ft longer, where its exits find room)", 10 * n);
        return ai;
    }
    /* Turned to one side, the room can stand only beyond the way's end
     * that way (ahead, its wall would touch the square before the turn). */
    int on = 0;
    while (ai < 0 && on < 2 && step(b, w, 2 * (int)d)) {
        on++;
        for (int k = 0; ai < 0 && k < 2; k++) {
            ucr_dir side = (ucr_dir)((d + (k ? 3 : 1)) % 4);
            b->wish_all = true;
            for (n = 0; ai < 0 && n < 2 && step(b, w, 2 * (int)side); n++)
                ai = room_for(b, w, side, t, rec);
            b->wish_all = false;
            if (ai >= 0) {
                g_string_append_printf(rec, " (the way in %d ft on, then %d ft %s, where its exits find room)",
                                       10 * on, 10 * n, ucr_dir_name(side));
                e->entered = (int)dir_back(side);
            }
            for (int u = 0; ai < 0 && u < n; u++)
                unstep(b, w);
        }
    }
    for (; ai < 0 && on > 0; on--)
        unstep(b, w);
    return ai;
}

/* The room @t asks for at the end of @w, towards @d, where no place ahead
 * or aside gives the walls its exits were thrown to (b->wish) a way out:
 * the way turned from the map's edge beside it, stopped short of the edge
 * it ran to, or a way in of a square drawn longer, where they have one. */
static int room_way_for_exits(builder *b, wip *w, ucr_dir d, const pips_throw *t, open_end *e, GString *rec)
{
    int ai = room_off_edge(b, w, d, t, e, rec);
    if (ai < 0)
        ai = room_short_of_edge(b, w, d, t, e, rec);
    if (ai < 0)
        ai = room_way_longer(b, w, d, t, e, rec);
    return ai;
}

/* What lies at the end of @w (square heading @h, where the next piece
 * leaves towards @d): the throw @t's piece.  Consumes @w. */
static void piece(builder *b, wip *w, int h, const pips_throw *t, GString *rec)
{
    if (b->full) {
        g_string_append(rec, " → the map is full: ends here");
        finish_dead_end(b, w);
        return;
    }
    if (is(t, "dead-end")) {
        /* seed 003: "1 = 20 foot corridor dead ends" … "For a 1, roll
         * another die and insert stairs or a trap door if another 1 is
         * rolled." */
        run(b, w, &h, STUB, rec);
        int again = ucr_dice_d(b->rng, 6);
        g_string_append(rec, " → 20 ft, dead end; again d6=");
        ucr_text_append_int(rec, again);
        ucr_dir d = (ucr_dir)((diagonal(h) ? h - 1 : h) / 2);
        if (again == 1) {
            if (diagonal(h) && !turn(b, w, h, 2 * d, 0, rec)) {
                finish_dead_end(b, w);
                return;
            }
            if (down_beyond(b, w, d, rec) >= 0)
                return;
            g_string_append(rec, " (no room for it: a plain dead end)");
        }
        finish_dead_end(b, w);
        return;
    }
    if (corridor(t)) {
        int rolled = h;
        int done = run(b, w, &h, RUN, rec);
        g_string_append(rec, " → 60 ft of corridor ");
        g_string_append(rec, HNAME[rolled]);
        if (done == 0) {
            g_string_append(rec, " (no way on: a dead end)");
            finish_dead_end(b, w);
            return;
        }
        /* "For a 3, roll the die twice when you reach the end of the
         * corridor." */
        open_end e = { .kind = END_RUN, .area = -1, .entered = -1, .w = w, .heading = h, .throws = twice(t) ? 2 : 1 };
        queue_end(b, e);
        return;
    }
    /* A room: the corridor turns to face it square, one square on. */
    ucr_dir d = t->landing == CENTRE ? (ucr_dir)((diagonal(h) ? h - 1 : h) / 2) : (ucr_dir)t->landing;
    if (!turn(b, w, h, 2 * d, t->lie, rec)) {
        g_string_append(rec, " → no way to it: a dead end");
        finish_dead_end(b, w);
        return;
    }
    /* "For a 5, roll the die twice to determine exits." */
    open_end e = { .kind = END_EXIT, .area = -1, .entered = (int)dir_back(d), .throws = twice(t) ? 2 : 1 };
    pre_throw(b, &e);
    /* An exit thrown for the wall of its door, the way in shorter than
     * three squares (a room a door beyond another): the GM draws the way
     * 20 ft longer first, so that the exit can part from it just outside
     * the door (branch_out), where that fits. */
    bool back = false;
    for (int i = 0; i < e.pre_n; i++)
        back |= e.pre[i].landing == e.entered;
    int ai = -1;
    guint len0 = w->cells->len;
    if (back && len0 < 3 && step(b, w, 2 * d) && step(b, w, 2 * d)) {
        ai = room_further(b, w, d, t, rec);
        if (ai < 0)
            ai = room_for_exits(b, w, d, t, &e, rec);
        if (ai >= 0)
            g_string_append(rec, " (the way in 20 ft longer, for its exit by the same door)");
    }
    while (ai < 0 && w->cells->len > len0)
        unstep(b, w);
    if (ai < 0 && b->n_wish)
        ai = room_for_exits(b, w, d, t, &e, rec);
    if (ai < 0 && b->n_wish)
        ai = room_way_for_exits(b, w, d, t, &e, rec);
    if (ai < 0)
        ai = room_further(b, w, d, t, rec);
    /* No room ahead, the map's edge there: the GM draws it to one side of
     * the way's end, where it finds room (for its exits first). */
    bool edge_ahead = ai < 0 && at_edge(b, w, 2 * (int)d);
    for (int k = 0; ai < 0 && edge_ahead && k < 4; k++) {
        while (w->cells->len > len0)
            unstep(b, w);
        ucr_dir side = (ucr_dir)((d + (k % 2 ? 3 : 1)) % 4);
        b->wish_all = k < 2;
        b->wish_on_map = k >= 2;
        ai = room_further(b, w, side, t, rec);
        b->wish_all = b->wish_on_map = false;
        if (ai >= 0) {
            g_string_append_printf(rec, " (no room ahead: drawn to the %s)", ucr_dir_name(side));
            e.entered = (int)dir_back(side);
        }
    }
    if (ai < 0) {
        b->n_wish = 0;
        g_string_append(rec, " → no room for it: a dead end (its exits were thrown: ");
        for (int i = 0; i < e.pre_n; i++) {
            append_set_aside(rec, e.pre_rec[i]);
            g_string_append(rec, i + 1 < e.pre_n ? "; " : ")");
            g_free(e.pre_rec[i]);
        }
        finish_dead_end(b, w);
        return;
    }
    g_string_append(rec, " → room ");
    ucr_text_append_int(rec, area_at(b, ai)->key);
    e.area = ai;
    pre_throw_drawn(b, &e, rec);
    queue_end(b, e);
}

/* Is square @p beside area @ai (a mouth of it)? */
static bool beside(const builder *b, ucr_point p, int ai)
{
    for (int d = 0; d < 4; d++)
        if (owner(b, ucr_point_step(p, (ucr_dir)d)) == ai)
            return true;
    return false;
}

/* A mouth of @ai may stand corner to corner with the area's other mouths,
 * as doors side by side on a wall do; else rock all around. */
static bool mouth_clear(const builder *b, ucr_point m, int ai)
{
    if (!in_map(b, m) || owner(b, m) != UCR_CANVAS_EMPTY)
        return false;
    /* Not beside a way that runs under or over the area along its wall. */
    for (int d = 0; d < 4; d++) {
        ucr_point q = ucr_point_step(m, (ucr_dir)d);
        if (owner(b, q) == ai && ucr_canvas_busy(b->cv, q))
            return false;
    }
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ucr_point q = { m.x + dx, m.y + dy };
            int o = owner(b, q);
            if (o == UCR_CANVAS_EMPTY || o == ai)
                continue;
            if (dx && dy && o >= UCR_ATTACH_PASSAGE && beside(b, q, ai))
                continue;
            return false;
        }
    return true;
}

/* Whether a way out of mouth @m towards @side finds rock to go on in: the
 * square beyond the mouth free, and nothing but the mouth around it. */
static bool way_on(const builder *b, ucr_point m, ucr_dir side)
{
    ucr_point c = ucr_point_step(m, side);
    if (!in_map(b, c))
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ucr_point q = { c.x + dx, c.y + dy };
            if (!point_eq(q, m) && owner(b, q) != UCR_CANVAS_EMPTY)
                return false;
        }
    return true;
}

/* Whether square @m, before wall @side of area @ai, may be a door whose
 * way goes straight down (or up) under what stands just beyond it: rock
 * on either side of it along the wall, and what is beyond crossable
 * (cross_fit with the steps on @m). */
static bool mouth_crossing(const builder *b, ucr_point m, int ai, ucr_dir side)
{
    /* (Not towards a map's edge a superstructure tunnel joins, within
     * EDGE_ROCK of it: the rock there is the tunnel's, for its chamber,
     * gen/kit/attach.h.  Along that edge, or towards one no tunnel joins,
     * the way goes down from its door as anywhere: check_attach keeps.) */
    if (!in_map(b, m) || owner(b, m) != UCR_CANVAS_EMPTY || (b->joined[side] && edge_distance(b, m, side) < EDGE_ROCK))
        return false;
    for (int d = 0; d < 4; d++) {
        ucr_point q = ucr_point_step(m, (ucr_dir)d);
        int o = owner(b, q);
        if (o == ai && ucr_canvas_busy(b->cv, q))
            return false;
        if ((d == (int)(side + 1) % 4 || d == (int)(side + 3) % 4) && o != UCR_CANVAS_EMPTY)
            return false;
    }
    int x;
    cross_run r;
    return cross_fit(b, m, INT_MIN, 2 * (int)side, true, &x, &r) > 0;
}

/* The free square in front of wall @side of area @ai nearest its middle
 * (a diamond: its tip only; the first of two exits thrown to that wall,
 * b->pair_wall: nearest its end, to leave the second room on the wall),
 * one with rock beyond it for the way first,
 * then one from which the way can cross what stands before the wall: a way
 * does not leave a wall straight into what it cannot pass when the wall
 * has room further along. */
static bool mouth(builder *b, int ai, ucr_dir side, ucr_point *out, bool *cross_here)
{
    const ucr_area a = *area_at(b, ai);
    int wl = side == UCR_NORTH || side == UCR_SOUTH ? a.w : a.h;
    int tries = a.diamond ? 1 : wl;
    bool pair = (int)side == b->pair_wall && !a.diamond;
    for (int pass = 0; pass < 4; pass++)
        for (int i = 0; i < tries; i++) {
            int k = pair ? i : (wl - 1) / 2 + ((i % 2) ? (i + 1) / 2 : -(i / 2));
            if (k < 0 || k >= wl)
                continue;
            ucr_point m;
            switch (side) {
            case UCR_NORTH: m = (ucr_point){ a.x + k, a.y - 1 }; break;
            case UCR_SOUTH: m = (ucr_point){ a.x + k, a.y + a.h }; break;
            case UCR_WEST: m = (ucr_point){ a.x - 1, a.y + k }; break;
            default: m = (ucr_point){ a.x + a.w, a.y + k }; break;
            }
            int x;
            cross_run r;
            if (pass == 3 ? mouth_crossing(b, m, ai, side)
                          : mouth_clear(b, m, ai) &&
                                (pass == 2 || (pass == 0 ? way_on(b, m, side)
                                                         : cross_fit(b, m, INT_MIN, 2 * (int)side, false, &x, &r) > 0))) {
                *out = m;
                if (cross_here)
                    *cross_here = pass == 3;
                return true;
            }
        }
    return false;
}

/* A new corridor out of area @ai by wall @side; NULL if no free square.
 * Where the square before the wall is free but what stands beyond it
 * leaves the way no rock, the way goes down (or up) from its door, under
 * (over) it (said in @rec). */
static wip *leave(builder *b, int ai, ucr_dir side, bool door, GString *rec)
{
    ucr_point m;
    bool down;
    if (!mouth(b, ai, side, &m, &down))
        return NULL;
    wip *w = wip_new(b, ai, door);
    g_array_append_val(w->cells, m);
    claim(b, w, m);
    if (down) {
        GString *x = g_string_new(NULL);
        cross_at(b, w, 2 * (int)side, true, x);
        g_string_append(rec, "; from its door");
        g_string_append(rec, x->str);
        g_string_free(x, TRUE);
    }
    return w;
}

static bool split_ok(const ucr_passage *p, int j);
static bool split_ok_at(const ucr_passage *p, int j, bool bend);
static int split_at(builder *b, int k, int j, char *rolled);
static bool crossed_near(const ucr_node *node, int k, int j);
static bool touches_only(const builder *b, ucr_point q, ucr_point a, ucr_point z);

/* Whether square @m, beside square @jq (a junction to be), could be the
 * junction's mouth (mouth_clear before the junction is): rock around it,
 * but for @jq and, corner to corner, squares of @way beside @jq (the way
 * that ends there, or the halves of the way it will part). */
static bool mouth_free_at(const builder *b, ucr_point jq, ucr_point m, int way)
{
    if (!in_map(b, m) || owner(b, m) != UCR_CANVAS_EMPTY)
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ucr_point q = { m.x + dx, m.y + dy };
            int o = owner(b, q);
            if (o == UCR_CANVAS_EMPTY || point_eq(q, jq))
                continue;
            if (dx && dy && o == way && abs(q.x - jq.x) + abs(q.y - jq.y) == 1)
                continue;
            return false;
        }
    return true;
}

/* Whether passage @k ends at area @ai on its wall @side; its end's index. */
static bool ends_on_wall(const builder *b, const ucr_passage *p, int ai, ucr_dir side, int *end)
{
    int len = (int)p->cells->len;
    *end = p->a == ai ? 0 : p->b == ai ? len - 1 : -1;
    if (*end < 0 || (p->a == ai && p->b == ai) || len < 3)
        return false;
    ucr_point m = g_array_index(p->cells, ucr_point, *end);
    return owner(b, ucr_point_step(m, dir_back(side))) == ai;
}

/* The exit on the wall the die landed by, where that wall has no room for
 * another mouth (the way in holds it, or an exit before): the way out
 * leaves by the door already there and parts from that way just outside
 * it, at a junction a square or two out (on a straight or a square turn
 * of it), square to the wall.  Returns the new
 * way, its side of the junction in @out (nothing changed if NULL); what
 * its first squares met in @rec. */
static wip *branch_out(builder *b, int ai, ucr_dir side, ucr_dir *out, int *junction, GString *rec)
{
    ucr_node *node = b->node;
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        bool join = false;
        for (int d = 0; d < 4; d++)
            join |= b->plan->join_passage[d] == (int)k;
        int end;
        if (join || p->kind == UCR_EDGE_SECRET || !ends_on_wall(b, p, ai, side, &end))
            continue;
        for (int out_by = 1; out_by <= 4; out_by++) {
            int j = end ? end - out_by : out_by;
            if (!split_ok_at(p, j, true) || crossed_near(node, (int)k, j))
                continue;
            ucr_point jq = g_array_index(p->cells, ucr_point, j);
            for (int t = 0; t < 2; t++) {
                ucr_dir s = (ucr_dir)((side + (t ? 3 : 1)) % 4);
                if (!mouth_free_at(b, jq, ucr_point_step(jq, s), UCR_ATTACH_PASSAGE + (int)k))
                    continue;
                int jn = split_at(b, (int)k, j, g_strdup("where the way out parts from the way by the same door"));
                *junction = jn;
                *out = s;
                return leave(b, jn, s, false, rec);
            }
        }
    }
    return NULL;
}

/* The exit on the wall the die landed by, where that wall has no room for
 * another mouth and a short way (up to four squares) leaves it by a door
 * to a junction: the way out leaves by that door and parts from the way
 * at that junction, by one of its free sides (not back towards the room).
 * As branch_out (@out, @junction, @rec); NULL if none. */
static wip *branch_at_junction(builder *b, int ai, ucr_dir side, ucr_dir *out, int *junction, GString *rec)
{
    for (guint k = 0; k < b->node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
        int len = (int)p->cells->len;
        if ((p->a != ai && p->b != ai) || p->a == p->b || len > 4 || p->kind == UCR_EDGE_SECRET)
            continue;
        int jn = p->a == ai ? p->b : p->a;
        ucr_point m = g_array_index(p->cells, ucr_point, p->a == ai ? 0 : len - 1);
        if (jn < 0 || jn >= (int)b->node->areas->len || area_at(b, jn)->kind != UCR_AREA_JUNCTION ||
            owner(b, ucr_point_step(m, dir_back(side))) != ai)
            continue;
        for (int t = 0; t < 3; t++) {
            ucr_dir s = (ucr_dir)((side + (t == 0 ? 1 : t == 1 ? 3 : 0)) % 4);
            wip *w = leave(b, jn, s, false, rec);
            if (w) {
                *junction = jn;
                *out = s;
                return w;
            }
        }
    }
    return NULL;
}

/* The one passage of room @ai, a single square before its wall @side (a
 * room a door beyond another), or -1. */
static int only_door_square(const builder *b, int ai, ucr_dir side)
{
    int found = -1;
    for (guint k = 0; k < b->node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
        if (p->a != ai && p->b != ai)
            continue;
        if (found >= 0 || p->cells->len != 1 || p->a == p->b)
            return -1;
        ucr_point c = g_array_index(p->cells, ucr_point, 0);
        if (owner(b, ucr_point_step(c, dir_back(side))) != ai)
            return -1;
        found = (int)k;
    }
    return found;
}

/* Whether every square of the rectangle and the ring around it is rock,
 * or passage @k's. */
static bool rect_free_but(const builder *b, int x, int y, int rw, int rh, int k)
{
    for (int yy = y - 1; yy <= y + rh; yy++)
        for (int xx = x - 1; xx <= x + rw; xx++) {
            ucr_point q = { xx, yy };
            bool inside = xx >= x && xx < x + rw && yy >= y && yy < y + rh;
            int o = owner(b, q);
            if ((inside && !in_map(b, q)) || (o != UCR_CANVAS_EMPTY && (inside || o != UCR_ATTACH_PASSAGE + k)))
                return false;
        }
    return true;
}

/* The GM's eraser: room @ai, a door beyond the room before it, gets an exit
 * thrown for the wall that door holds, where there is no room for another.
 * Drawn 20 ft further on (its one passage 30 ft long), the way out can part
 * from the way in just outside the door (branch_out).  Only a room with no
 * other way yet, and where it fits.  Returns whether it moved. */
static bool room_back(builder *b, int ai, ucr_dir side)
{
    int k = only_door_square(b, ai, side);
    if (k < 0)
        return false;
    ucr_area *a = &g_array_index(b->node->areas, ucr_area, ai);
    if (a->kind != UCR_AREA_ROOM || a->stair != UCR_STAIR_NONE)
        return false;
    for (int y = a->y - 1; y <= a->y + a->h; y++)
        for (int x = a->x - 1; x <= a->x + a->w; x++) {
            ucr_point q = { x, y };
            int o = owner(b, q);
            if (ucr_canvas_busy(b->cv, q) ||
                (o != ai && o != UCR_CANVAS_EMPTY && o != UCR_ATTACH_PASSAGE + k))
                return false;   /* a way runs under or over it, or leaves it already */
        }
    ucr_dir away = dir_back(side);
    int dx = 2 * ((away == UCR_EAST) - (away == UCR_WEST)), dy = 2 * ((away == UCR_SOUTH) - (away == UCR_NORTH));
    ucr_canvas_fill(b->cv, a->x, a->y, a->w, a->h, UCR_CANVAS_EMPTY);
    if (!rect_free_but(b, a->x + dx, a->y + dy, a->w, a->h, k)) {
        ucr_canvas_fill(b->cv, a->x, a->y, a->w, a->h, ai);
        return false;
    }
    a->x += dx;
    a->y += dy;
    ucr_canvas_fill(b->cv, a->x, a->y, a->w, a->h, ai);
    ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    ucr_point c = g_array_index(p->cells, ucr_point, 0);
    for (int i = 0; i < 2; i++) {
        c = ucr_point_step(c, away);
        if (p->b == ai)
            g_array_append_val(p->cells, c);
        else
            g_array_prepend_val(p->cells, c);
        ucr_canvas_set(b->cv, c, UCR_ATTACH_PASSAGE + k);
    }
    for (guint d = 0; d < b->node->doors->len; d++) {
        ucr_door *door = &g_array_index(b->node->doors, ucr_door, d);
        if (door->area == ai && door->passage == k)
            door->cell = c;
    }
    for (guint s = 0; p->b != ai && s < p->stairs->len; s++)
        g_array_index(p->stairs, ucr_passage_stairs, s).index += 2;
    return true;
}

/* The GM's eraser on the room beyond wall @side of area @ai, a door beyond
 * it (their one-square passage on that wall, the room's only way yet): an
 * exit of @ai thrown for that wall finds it held, and the room beyond is
 * drawn 20 ft further on (room_back), so that the exit can part from that
 * passage outside the door (branch_out).  Returns the room moved, or -1. */
static int room_beyond_back(builder *b, int ai, ucr_dir side)
{
    for (guint k = 0; k < b->node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
        if ((p->a != ai && p->b != ai) || p->a == p->b || p->cells->len != 1)
            continue;
        ucr_point c = g_array_index(p->cells, ucr_point, 0);
        if (owner(b, ucr_point_step(c, dir_back(side))) != ai)
            continue;
        int other = p->a == ai ? p->b : p->a;
        if (other >= (int)b->node->areas->len)
            return -1;   /* (a dead end, not a room) */
        return room_back(b, other, dir_back(side)) ? other : -1;
    }
    return -1;
}

/* Whether wall @side of area @ai stands against the map's edge (no square
 * before it on the map for a door). */
static bool wall_off_map(const builder *b, int ai, ucr_dir side)
{
    const ucr_area *a = area_at(b, ai);
    ucr_point probe = { a->x + a->w / 2, a->y + a->h / 2 };
    probe = side == UCR_NORTH ? (ucr_point){ probe.x, a->y - 1 }
          : side == UCR_SOUTH ? (ucr_point){ probe.x, a->y + a->h }
          : side == UCR_WEST  ? (ucr_point){ a->x - 1, probe.y }
                              : (ucr_point){ a->x + a->w, probe.y };
    return !in_map(b, probe);
}

/* The way out of area @ai by its wall @want (a door there if @door): a
 * free square of the wall, else by a door already there, the way parting
 * from that door's way outside it (the room, or the room a door beyond,
 * drawn 20 ft further on first where that way is the one square between
 * them), or at the junction it leads to a short way on (@side: the side
 * of the junction @jn it leaves by).  NULL if none; what it met in @lr. */
static wip *way_out_by(builder *b, int ai, ucr_dir want, bool door, ucr_dir *side, int *jn, GString *lr)
{
    wip *w = leave(b, ai, want, door, lr);
    int moved;
    if (!w && !b->full && room_back(b, ai, want))
        g_string_append(lr, "; the room drawn 20 ft further on, to make room for it");
    else if (!w && !b->full && (moved = room_beyond_back(b, ai, want)) >= 0)
        g_string_append_printf(lr, "; room %d beyond drawn 20 ft further on, to make room for it",
                               area_at(b, moved)->key);
    if (!w && !b->full)
        w = branch_out(b, ai, want, side, jn, lr);
    if (!w && !b->full)
        w = branch_at_junction(b, ai, want, side, jn, lr);
    return w;
}

/* Both exits of area @ai thrown to its wall @side, where that wall has room
 * for one door only (a diamond's tip, a short wall): the first exit's way
 * @w leaves by the door and, just outside it (or a square further on),
 * parts at a junction, so that the second leaves by the same door and
 * parts from it there, square to it (branch_at_junction).  Returns the
 * way the first goes on by, straight out of the junction (said in @rec);
 * @w as it was where the junction or its ways find no room. */
static wip *pair_junction(builder *b, int ai, wip *w, ucr_dir side, GString *rec)
{
    ucr_point m;
    if (b->full || mouth(b, ai, side, &m, NULL))
        return w;
    int n_wish = b->n_wish, jn = -1, on = 0;
    b->n_wish = 0;
    for (;;) {
        ucr_point jq = ucr_point_step(last_cell(w), side);
        int way = WIP + w->id;
        if ((mouth_free_at(b, jq, ucr_point_step(jq, (ucr_dir)((side + 1) % 4)), way) ||
             mouth_free_at(b, jq, ucr_point_step(jq, (ucr_dir)((side + 3) % 4)), way)) &&
            mouth_free_at(b, jq, ucr_point_step(jq, side), way))
            jn = area_beyond(b, w, side, UCR_AREA_JUNCTION, 1, 1, false, g_strdup("where the ways by one door part"));
        if (jn >= 0 || on || !step(b, w, 2 * (int)side))
            break;
        on++;
    }
    b->n_wish = n_wish;
    if (jn < 0) {
        if (on)
            unstep(b, w);
        return w;
    }
    g_string_append_printf(rec, "; both exits by one door, parting %d ft out at junction %d", 10 * (on + 1),
                           area_at(b, jn)->key);
    wip *out = leave(b, jn, side, false, rec);
    for (int t = 1; !out && t < 4; t += 2)
        out = leave(b, jn, (ucr_dir)((side + t) % 4), false, rec);
    return out;   /* (NULL only if the squares mouth_free_at found free are not) */
}

/* Exit throw in the centre of area @ai: "If it lands in the center, the
 * room has a trap door or staircase; roll again for what's on the next
 * floor." */
static void exit_down(builder *b, int ai, GString *rec)
{
    g_string_append(rec, " → in the centre: a way down");
    ucr_area *am = &g_array_index(b->node->areas, ucr_area, ai);
    if (am->stair != UCR_STAIR_NONE) {
        g_string_append(rec, " (the room has one already)");
        return;
    }
    /* In the middle of the room itself: the room holds the stair (or
     * trap door) and is the node's exit down. */
    GString *r = g_string_new(NULL);
    const ucr_table_row *row = table_roll(b, "pips-down", r);
    am->stair = strcmp(row->tag, "trapdoor") == 0 ? UCR_LADDER_DOWN : UCR_STAIR_DOWN;
    am->trapdoor = am->stair == UCR_LADDER_DOWN;
    g_string_append_printf(rec, "; %s in the middle of the room (%s)", row->text, r->str);
    g_string_free(r, TRUE);
    exit_stairs *ex = g_new0(exit_stairs, 1);
    ex->step = (ucr_step){ UCR_STEP_STAIRS, am->stair, -1, false, NULL };
    ex->area = ai;
    g_ptr_array_add(b->plan->exits, ex);
    /* What is on the next floor is thrown, as the seed says: the next
     * floor is another node, and the throw travels with the stairs as
     * their hint, to say where they come down there (a dead end, a
     * corridor, a room; towards the side the die landed, or the
     * middle: ucr_embed_hinted()). */
    GString *next = g_string_new(NULL);
    pips_throw nt = throw_die(b, next);
    g_string_append_printf(rec, "; the next floor: %s", next->str);
    ex->hint.what = hint_what(&nt);
    ex->hint.side = nt.landing == CENTRE ? -1 : nt.landing;
    ex->hint.rolled = g_string_free(next, FALSE);
    ex->step.hint = &ex->hint;
}

/* One exit of area @ai, thrown with @t: "roll one die on the dice map; the
 * edge it lands closest to indicates which compass direction the exit
 * should be placed … The result of the die indicates what the exit leads
 * to: a corridor or room." */
static void exit_throw(builder *b, int ai, int entered, const pips_throw *t, GString *rec, bool start)
{
    const ucr_area *a = area_at(b, ai);
    bool door = a->kind == UCR_AREA_ROOM;
    if (t->landing == CENTRE && !start) {
        exit_down(b, ai, rec);
        return;
    }
    ucr_dir want = t->landing == CENTRE ? (ucr_dir)((entered + 2) % 4) : (ucr_dir)t->landing;
    if (start && (int)want == entered)
        want = dir_back(want);   /* the tunnel goes on into the hill */
    ucr_dir side = want;
    GString *lr = g_string_new(NULL);   /* what the way met at its door, said after the wall */
    int jn = -1;
    wip *w = way_out_by(b, ai, want, door, &side, &jn, lr);
    for (int k = 1; k < 4 && !w; k++) {
        side = (ucr_dir)((want + k) % 4);
        w = leave(b, ai, side, door, lr);
    }
    if (!w) {
        g_string_append(rec, " → every wall is taken: walled up");
        g_string_free(lr, TRUE);
        return;
    }
    if (side == want && jn < 0 && b->pair_wall == (int)want && !(w = pair_junction(b, ai, w, want, lr))) {
        g_string_append_printf(rec, " → wall %s%s → no way on from there: it ends", ucr_dir_name(want), lr->str);
        g_string_free(lr, TRUE);
        return;
    }
    a = area_at(b, ai);
    if (jn >= 0)
        g_string_append_printf(rec, " → %s %s, by its door: the way out parts from the way there at junction %d, "
                               "%s", a->diamond ? "corner" : "wall", ucr_dir_name(want), area_at(b, jn)->key,
                               ucr_dir_name(side));
    else if (side != want)
        g_string_append_printf(rec, wall_off_map(b, ai, want) ? " (that wall faces the map's edge: the %s wall)"
                                                              : " (that wall is taken: the %s wall)",
                               ucr_dir_name(side));
    else {
        g_string_append(rec, a->diamond ? " → corner " : " → wall ");
        g_string_append(rec, ucr_dir_name(side));
    }
    g_string_append(rec, lr->str);
    g_string_free(lr, TRUE);
    pips_throw ts = *t;
    ts.landing = (int)side;   /* a room that way stands square to this wall */
    t = &ts;
    int h = 2 * (int)side;
    /* "use the orientation of the dots to determine the orientation of the
     * tunnel": a turned die, a diagonal corridor. */
    if (corridor(t) && t->lie)
        h = (h + (t->lie > 0 ? 1 : 7)) % 8;
    piece(b, w, h, t, rec);
}

/* Seed 003's "a doorway on either side" (coin tails), as `undercroft
 * stats` names the rule: as rolled when the junction has every doorway
 * rolled for it (ucr_outcome), else @lost. */
#define PIPS_DOORWAY_RULE "coin tails: a doorway on either side (seed 003)"
static void doorways_outcome(builder *b, int rolled, int drawn, const char *lost)
{
    if (rolled)
        ucr_node_outcome(b->node, PIPS_DOORWAY_RULE, drawn >= rolled ? NULL : lost);
}

/* What the throws at a corridor's end gave: n ways, each its throw, its
 * heading (0-7), whether a doorway and whether the coin's left or right
 * arm (0, 1; -1 a way thrown); and the doorways the coin rolled. */
typedef struct {
    pips_throw ways[6];
    int heading[6];
    bool doorway[6];
    int arm[6];
    int n, doors_rolled;
} end_ways;

/* A die in the centre: a coin says T or doorways, then each arm is
 * thrown; an arm the same way as one already found is that one. */
static void centre_arms(builder *b, int h, end_ways *ew, GString *rec)
{
    bool doors = !ucr_dice_coin(b->rng);
    g_string_append(rec, doors ? " → coin tails: a doorway on either side" : " → coin heads: the passage Ts");
    for (int arm = 0; arm < 2; arm++) {
        GString *ra = g_string_new(NULL);
        pips_throw at = throw_die(b, ra);
        g_string_append_printf(rec, "; %s arm: %s", arm ? "right" : "left", ra->str);
        g_string_free(ra, TRUE);
        int ah = (h + (arm ? 2 : 6)) % 8;
        int dup = -1;
        for (int j = 0; j < ew->n; j++)
            if (ew->heading[j] == ah)
                dup = j;
        if (dup >= 0) {
            /* The way the other throw found leaves by this doorway. */
            g_string_append(rec, doors && !ew->doorway[dup] ? " (the same way again: one way, by the doorway)"
                                                            : " (the same way again: one way)");
            ew->doors_rolled += doors && !ew->doorway[dup];
            ew->doorway[dup] |= doors;
            if (doors && ew->arm[dup] < 0)
                ew->arm[dup] = arm;   /* it leaves by that side of the passage */
            continue;
        }
        ew->doors_rolled += doors;
        if (!diagonal(ah))
            at.landing = ah / 2;
        at.lie = 0;
        ew->ways[ew->n] = at;
        ew->doorway[ew->n] = doors;
        ew->arm[ew->n] = arm;
        ew->heading[ew->n++] = ah;
    }
}

/* The throws, one or two for a 3, and the ways they give (the same way
 * twice is one way). */
static void ways_throw(builder *b, const open_end *e, end_ways *ew, GString *rec)
{
    int h = e->heading;
    for (int i = 0; i < e->throws; i++) {
        if (i)
            g_string_append(rec, "; again: ");
        GString *r = g_string_new(NULL);
        pips_throw t = throw_die(b, r);
        g_string_append(rec, r->str);
        g_string_free(r, TRUE);
        if (t.landing == CENTRE) {
            /* "If the die lands in the center, the passage Ts, or has a
             * doorway on either side": a coin says which (heads the T),
             * and each arm, or what lies behind each doorway, is thrown
             * for what lies that way. */
            centre_arms(b, h, ew, rec);
            continue;
        }
        int th = 2 * t.landing;
        if (corridor(&t) && t.lie)
            th = (th + (t.lie > 0 ? 1 : 7)) % 8;
        /* The same way twice is one way: the first throw's. */
        bool dup = false;
        for (int j = 0; j < ew->n; j++)
            dup |= ew->heading[j] == th;
        if (dup) {
            g_string_append(rec, "; the same way again: one way");
            continue;
        }
        ew->ways[ew->n] = t;
        ew->arm[ew->n] = -1;
        ew->heading[ew->n++] = th;
    }
}

/* The two sides a way of heading @hh may leave a junction by: its own,
 * or (diagonal) the first free of the two beside it. */
static void arm_sides(int hh, ucr_dir *s1, ucr_dir *s2)
{
    *s1 = (ucr_dir)((diagonal(hh) ? hh - 1 : hh) / 2 % 4);
    *s2 = (ucr_dir)((diagonal(hh) ? hh + 1 : hh) / 2 % 4);
}

/* The sides way @i of @ew may leave a junction entered towards @d by, in
 * order (arm_sides): an arm of the coin's by the side of the passage first
 * (the left arm its left, the right its right). */
static void way_sides(const end_ways *ew, int i, ucr_dir d, ucr_dir s[2])
{
    arm_sides(ew->heading[i], &s[0], &s[1]);
    ucr_dir by = (ucr_dir)((d + (ew->arm[i] ? 1 : 3)) % 4);
    if (ew->arm[i] >= 0 && s[1] == by) {
        s[1] = s[0];
        s[0] = by;
    }
}

/* The passage of the node at square @q that doorway_into() may join: not
 * a tunnel's, not secret, not one that ends at junction @j, parted where
 * it runs straight across the doorway's line (split_ok, nothing crossing
 * near); its index, the square's in @at, or -1. */
static int doorway_passage(const builder *b, int j, ucr_point m, ucr_point q, int *at)
{
    int k = owner(b, q) - UCR_ATTACH_PASSAGE;
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    bool join = p->a == j || p->b == j || p->kind == UCR_EDGE_SECRET;
    for (int d = 0; d < 4; d++)
        join |= b->plan->join_passage[d] == k;
    *at = -1;
    for (guint i = 0; i < p->cells->len && *at < 0; i++)
        if (point_eq(g_array_index(p->cells, ucr_point, i), q))
            *at = (int)i;
    ucr_point beyond = { 2 * q.x - m.x, 2 * q.y - m.y };
    if (join || *at < 0 || owner(b, beyond) != UCR_CANVAS_EMPTY || !split_ok(p, *at) || crossed_near(b->node, k, *at))
        return -1;
    return k;
}

/* What a doorway of junction @j (at @jq, or to be there: @j -1) by @side
 * may open into, a square on (doorway_into): the room's area or the
 * corridor's owner, -1 none; the corridor's passage and square in @k, @at
 * (@k -1 a room). */
static int doorway_target(const builder *b, int j, ucr_point jq, ucr_dir side, bool parting, int *k, int *at)
{
    ucr_point m = ucr_point_step(jq, side), q = ucr_point_step(m, side);
    *k = -1;
    if (!in_map(b, m) || owner(b, m) != UCR_CANVAS_EMPTY || ucr_canvas_busy(b->cv, m) ||
        ucr_canvas_busy(b->cv, q) || !touches_only(b, m, jq, q))
        return -1;
    int o = owner(b, q);
    if (o >= 0 && o < UCR_ATTACH_PASSAGE)   /* (a T's junction has no doors) */
        return area_at(b, o)->kind == UCR_AREA_ROOM && !area_at(b, o)->diamond ? o : -1;
    if (!parting || o < UCR_ATTACH_PASSAGE || o >= WIP || (*k = doorway_passage(b, j, m, q, at)) < 0)
        return -1;
    return o;
}

/* seed 003: "If a passage or room is adjacent to an already-mapped area,
 * feel free to add a secret door": a doorway of junction @j by @side with
 * no room for a way of its own (what stands a square beyond its mouth
 * leaves it no rock) leads a square on to a secret door into that room or
 * corridor instead (the corridor parts there, at a new junction); what
 * was thrown for it is not drawn.  (A secret door: loops in pips come by
 * those alone.)  @parting false: a way out of the junction runs under or
 * over something, and no corridor may part.  Returns whether it did (said
 * in @rec). */
static bool doorway_into(builder *b, int j, ucr_dir side, bool parting, GString *rec)
{
    ucr_point jq = { area_at(b, j)->x, area_at(b, j)->y };
    ucr_point m = ucr_point_step(jq, side);
    int k, at, o = doorway_target(b, j, jq, side, parting, &k, &at);
    if (o < 0)
        return false;
    wip *w = wip_new(b, j, true);
    g_array_append_val(w->cells, m);
    claim(b, w, m);
    int to = o;
    if (k >= 0)
        to = split_at(b, k, at, g_strdup("where a secret door opens into the corridor"));
    ucr_node_add_door(b->node, to, finish(b, w, to, false), UCR_DOOR_SECRET);
    g_string_append_printf(rec, " (no room for its way: 10 ft on, a secret door into the %s beside it, %s %d)",
                           k >= 0 ? "corridor" : "room", k >= 0 ? "junction" : "room", area_at(b, to)->key);
    return true;
}

/* Doorway @i of @ew, with no mouth at junction @j entered from @in, opens
 * into what is mapped beside it by either of its sides (doorway_into). */
static bool doorway_into_either(builder *b, int j, ucr_dir in, const end_ways *ew, int i, bool parting, GString *rec)
{
    ucr_dir s[2];
    way_sides(ew, i, dir_back(in), s);
    for (int k = 0; k < 2; k++)
        if (s[k] != in && (k == 0 || s[1] != s[0]) && doorway_into(b, j, s[k], parting, rec))
            return true;
    return false;
}

/* Each way leaves junction j, not back the way in; returns the doorways
 * drawn.  Every way takes its mouth before any is drawn on (a way drawn
 * first must not take the square of the doorway across from it). */
static int ways_leave(builder *b, int j, ucr_dir in, end_ways *ew, GString *rec)
{
    wip *nw[6] = { NULL };
    ucr_dir side[6];
    GString *lr[6];
    for (int i = 0; i < ew->n; i++) {
        ucr_dir s[2];
        way_sides(ew, i, dir_back(in), s);
        ucr_dir s1 = s[0], s2 = s[1];
        side[i] = s1;
        lr[i] = g_string_new(NULL);
        if (s1 != in)
            nw[i] = leave(b, j, s1, ew->doorway[i], lr[i]);
        if (!nw[i] && s2 != in && s2 != s1) {
            side[i] = s2;
            nw[i] = leave(b, j, s2, ew->doorway[i], lr[i]);
        }
    }
    bool parting = true;   /* (no new way's crossing to rename, wips_cross_split) */
    for (int i = 0; i < ew->n; i++)
        parting &= !nw[i] || !nw[i]->crossings->len;
    int doors_drawn = 0;
    for (int i = 0; i < ew->n; i++) {
        int hh = ew->heading[i];
        g_string_append_printf(rec, "; %s %s%s", ew->doorway[i] ? "doorway" : "way", HNAME[hh], lr[i]->str);
        g_string_free(lr[i], TRUE);
        if (!nw[i] && ew->doorway[i] && doorway_into_either(b, j, in, ew, i, parting, rec)) {
            doors_drawn++;
            continue;
        }
        if (!nw[i]) {
            g_string_append(rec, " (doubles back into the way in, or taken: none)");
            continue;
        }
        if (!corridor(&ew->ways[i]) && !is(&ew->ways[i], "dead-end"))
            ew->ways[i].landing = (int)side[i];   /* a room that way, square to the junction */
        doors_drawn += ew->doorway[i];
        piece(b, nw[i], diagonal(hh) ? hh : 2 * (int)side[i], &ew->ways[i], rec);
    }
    return doors_drawn;
}

/* How well a junction one square beyond the end of @w towards @d would do:
 * -1 no room for it, else ten for each doorway and one for each other way
 * that finds a mouth. */
static int junction_score(const builder *b, const wip *w, ucr_dir d, const end_ways *ew)
{
    ucr_point jq = ucr_point_step(last_cell(w), d);
    if (!in_map(b, jq) || !rect_fits(b, w, jq.x, jq.y, 1, 1))
        return -1;
    bool used[4] = { false };
    used[dir_back(d)] = true;
    int score = 0;
    for (int i = 0; i < ew->n; i++) {
        ucr_dir s[2];
        way_sides(ew, i, d, s);
        int k = 0;
        while (k < 2 && (used[s[k]] || !(mouth_free_at(b, jq, ucr_point_step(jq, s[k]), WIP + w->id) ||
                                         mouth_crossing(b, ucr_point_step(jq, s[k]), INT_MIN, s[k]))))
            k++;
        if (k < 2) {
            used[s[k]] = true;
            score += ew->doorway[i] ? 10 : 1;
            continue;
        }
        /* A doorway with no mouth: one into what is mapped a square on
         * (doorway_into), nearly as good. */
        int kk, at;
        for (k = 0; ew->doorway[i] && k < 2; k++)
            if (!used[s[k]] && doorway_target(b, -1, jq, s[k], true, &kk, &at) >= 0) {
                used[s[k]] = true;
                score += 9;
                break;
            }
    }
    return score;
}

/* The squares of a way being drawn, as they were (wip_mark_of), to put
 * back what unstep() took (wip_back_to): squares taken back and stepped
 * again would meet the checks step() makes for new ones. */
typedef struct {
    GArray *cells, *sides;
} wip_mark;

static wip_mark wip_mark_of(const wip *w)
{
    return (wip_mark){ g_array_copy(w->cells), g_array_copy(w->sides) };
}

static void wip_mark_clear(wip_mark *m)
{
    g_array_free(m->cells, TRUE);
    g_array_free(m->sides, TRUE);
}

/* @w as it was at @m: its squares since taken back or stepped put back or
 * taken back (a square it crosses keeps its owner). */
static void wip_back_to(builder *b, wip *w, const wip_mark *m)
{
    GArray *now[2] = { w->cells, w->sides }, *was[2] = { m->cells, m->sides };
    guint same[2];
    for (int a = 0; a < 2; a++) {
        same[a] = 0;   /* (the squares both have, from the way's start) */
        while (same[a] < now[a]->len && same[a] < was[a]->len &&
               point_eq(g_array_index(now[a], ucr_point, same[a]), g_array_index(was[a], ucr_point, same[a])))
            same[a]++;
        for (guint i = same[a]; i < now[a]->len; i++)
            if (owner(b, g_array_index(now[a], ucr_point, i)) == WIP + w->id)
                ucr_canvas_set(b->cv, g_array_index(now[a], ucr_point, i), UCR_CANVAS_EMPTY);
        g_array_set_size(now[a], same[a]);
        if (was[a]->len > same[a])   /* (an empty copy has no data to point into) */
            g_array_append_vals(now[a], &g_array_index(was[a], ucr_point, same[a]), was[a]->len - same[a]);
    }
    for (int a = 0; a < 2; a++)
        for (guint i = same[a]; i < now[a]->len; i++)
            if (owner(b, g_array_index(now[a], ucr_point, i)) == UCR_CANVAS_EMPTY)
                claim(b, w, g_array_index(now[a], ucr_point, i));
}

/* Whether the last squares of @w (its last three) hold no steps and no
 * crossing: a square step there may be taken back. */
static bool last_steps_plain(const wip *w)
{
    int len = (int)w->cells->len;
    for (guint s = 0; s < w->stairs->len; s++)
        if (g_array_index(w->stairs, ucr_passage_stairs, s).index >= len - 3)
            return false;
    for (guint x = 0; x < w->crossings->len; x++)
        if (g_array_index(w->crossings, ucr_crossing, x).last + 1 >= len - 3)
            return false;
    return true;
}

/* Whether the last square of @w may be taken back for the junction to
 * stand a square nearer: a plain square step towards @d, clear of the
 * steps and crossings, and the way keeps @keep + 1 squares. */
static bool can_retract_to(const wip *w, ucr_dir d, int keep)
{
    int len = (int)w->cells->len;
    if (len < keep + 2)
        return false;
    ucr_point c = last_cell(w), p = g_array_index(w->cells, ucr_point, len - 2);
    if (!point_eq(ucr_point_step(p, d), c))
        return false;
    return last_steps_plain(w);
}

/* The score of a junction where every way finds a mouth (junction_score). */
static int junction_full(const end_ways *ew)
{
    int full = 0;
    for (int i = 0; i < ew->n; i++)
        full += ew->doorway[i] ? 10 : 1;
    return full;
}

/* The score of a junction where every doorway finds a mouth. */
static int junction_doors(const end_ways *ew)
{
    int doors = 0;
    for (int i = 0; i < ew->n; i++)
        doors += ew->doorway[i] ? 10 : 0;
    return doors;
}

/* "make room for the junction": where the ways part, or a doorway on
 * either side, finds no room at the end of @w, the junction stands up to
 * five squares nearer (the way keeping three; where its doorways find no
 * room, down to the square before its door for the first two) or three
 * further along the way, where the most of its ways (doorways first) find
 * room.
 * Returns the squares moved (+ further), the score in @score. */
static int junction_shift(builder *b, wip *w, ucr_dir d, const end_ways *ew, int *score)
{
    int best = 0, best_score = junction_score(b, w, d, ew), full = junction_full(ew);
    int back = 0;
    wip_mark mark = { NULL, NULL };
    int doors = junction_doors(ew);
    while (best_score < full && back < 5 && can_retract_to(w, d, best_score < doors && back < 2 ? 0 : 2)) {
        if (!back)
            mark = wip_mark_of(w);
        unstep(b, w);
        back++;
        int sc = junction_score(b, w, d, ew);
        if (sc > best_score) {
            best_score = sc;
            best = -back;
        }
    }
    if (back) {
        wip_back_to(b, w, &mark);
        wip_mark_clear(&mark);
    }
    int on = 0;
    while (best_score < full && on < 3 && step(b, w, 2 * (int)d)) {
        on++;
        int sc = junction_score(b, w, d, ew);
        if (sc > best_score) {
            best_score = sc;
            best = on;
        }
    }
    for (; on > best && on > 0; on--)
        unstep(b, w);
    for (int k = 0; k > best; k--)
        unstep(b, w);
    *score = best_score;
    return best;
}

/* Whether ways @i and @j of @ew go the same way; if one is an arm and the
 * other a way thrown, the way thrown leaves by the arm's doorway (as
 * centre_arms() has it): one way, the arm dropped. */
static bool arms_meet(end_ways *ew, int i, int j, bool *merged)
{
    *merged = false;
    if (ew->heading[i] != ew->heading[j])
        return false;
    int a = ew->arm[i] >= 0 ? i : j, o = a == i ? j : i;
    if (ew->arm[o] >= 0 || ew->doorway[o])
        return true;
    ew->doorway[o] = ew->doorway[a];
    ew->arm[o] = ew->arm[a];
    for (int k = a; k + 1 < ew->n; k++) {
        ew->ways[k] = ew->ways[k + 1];
        ew->heading[k] = ew->heading[k + 1];
        ew->doorway[k] = ew->doorway[k + 1];
        ew->arm[k] = ew->arm[k + 1];
    }
    ew->n--;
    *merged = true;
    return true;
}

/* The coin's arms of @ew, for a junction entered towards @d: the left arm
 * by the passage's left, the right by its right (a way thrown that leaves
 * by an arm's doorway turns with it).  False if two arms, or doorways,
 * then go one way. */
static bool arms_towards(end_ways *ew, ucr_dir d)
{
    for (int i = 0; i < ew->n; i++)
        if (ew->arm[i] >= 0) {
            ew->heading[i] = 2 * ((d + (ew->arm[i] ? 1 : 3)) % 4);
            ew->ways[i].landing = ew->heading[i] / 2;
        }
    for (int i = 1; i < ew->n; i++)
        for (int j = 0; j < i; j++) {
            bool merged;
            if (!arms_meet(ew, i, j, &merged))
                continue;
            if (!merged)
                return false;
            i = 0;   /* one way fewer: look again */
            break;
        }
    return true;
}

/* The heading of the last step of @w (from its last square but one). */
static int last_heading(const wip *w)
{
    ucr_point c = last_cell(w), p = g_array_index(w->cells, ucr_point, w->cells->len - 2);
    for (int h = 0; h < 8; h++)
        if (c.x - p.x == HX[h] && c.y - p.y == HY[h])
            return h;
    return 0;   /* (not reached: a way steps to a square beside its last) */
}

/* Whether the last step of @w may be taken back for the junction to
 * stand nearer: plain (no steps or crossing near it), the way keeping
 * three squares. */
static bool can_back(const wip *w)
{
    return w->cells->len >= 4 && last_steps_plain(w);
}

/* The ways a junction may stand beyond the end of @w (heading @h): a
 * square way on (a diagonal way: either square way beside it), or, where
 * the coin rolled doorways, the passage turned to either side at its end.
 * @straight false (squares taken back along the way's last run, where the
 * junction shifts already stood): only turned. */
static int junction_ways(int h, bool straight, bool doors, ucr_dir cand[3])
{
    int n = 0;
    if (diagonal(h)) {
        cand[n++] = (ucr_dir)((h - 1) / 2);
        cand[n++] = (ucr_dir)((h + 1) / 2 % 4);
        return n;
    }
    if (straight)
        cand[n++] = (ucr_dir)(h / 2);
    if (doors) {
        cand[n++] = (ucr_dir)((h / 2 + 3) % 4);
        cand[n++] = (ucr_dir)((h / 2 + 1) % 4);
    }
    return n;
}

/* Whether a junction entered towards @d, at the end of a way rolled
 * heading @h, has the coin's arms as rolled: @d the way on, or (@h
 * diagonal) a square way beside it; else they turn with it. */
static bool arms_as_rolled(int h, ucr_dir d)
{
    if (!diagonal(h))
        return (int)d == h / 2;
    return (int)d == (h - 1) / 2 || (int)d == (h + 1) / 2 % 4;
}

/* A place for a junction: its score (junction_score), the way it is
 * entered, the ways with the coin's arms turned to it, and the steps the
 * way jogs on first (junction_jog). */
enum { JOG_MAX = 4 };
typedef struct {
    int score;
    ucr_dir d;
    end_ways ew;
    ucr_dir jog[JOG_MAX];   /* the square steps the way takes first (junction_jog) */
    int n_jog;
} junction_pick;

/* The best place of the junction at the end of @w, now heading @hk, as
 * the ways rolled at heading @h (@ew) find room there (junction_shift);
 * @straight as junction_ways has it.  Improves @best (score, way, arms)
 * and returns true when it does; @w unchanged. */
static bool junction_try(builder *b, wip *w, int h, int hk, bool straight, const end_ways *ew, junction_pick *best)
{
    int full = junction_full(ew);
    bool better = false;
    wip_mark mark = wip_mark_of(w);
    ucr_dir cand[3];
    int n = junction_ways(hk, straight, ew->doors_rolled > 0, cand);
    for (int c = 0; c < n && best->score < full; c++) {
        end_ways t = *ew;
        if (!arms_as_rolled(h, cand[c]) && !arms_towards(&t, cand[c]))
            continue;
        int sc;
        junction_shift(b, w, cand[c], &t, &sc);
        wip_back_to(b, w, &mark);
        if (sc > best->score) {
            *best = (junction_pick){ .score = sc, .d = cand[c], .ew = t };
            better = true;
        }
    }
    wip_mark_clear(&mark);
    return better;
}

/* Whether a square step of @w towards @s keeps clear of the way itself:
 * the new square beside none of its squares but its last. */
static bool jog_clear(const builder *b, const wip *w, ucr_dir s)
{
    ucr_point c = ucr_point_step(last_cell(w), s);
    int own = 0;
    for (int d = 0; d < 4; d++)
        own += owner(b, ucr_point_step(c, (ucr_dir)d)) == WIP + w->id;
    return own == 1;
}

/* "make room for the junction", where no place along the way gives its
 * doorways room: the way jogs on a square or up to JOG_MAX from its end
 * (heading @hd), square, never back on itself and turning twice at most,
 * the junction then beyond its last step or to either side of it; every
 * such place tried, the best (as junction_score has it, the arms turned
 * with the junction; of two as good, the fewer steps) kept in @best with
 * its steps.  @path holds the steps so far (@depth); @w as it
 * was on return. */
static void junction_jog(builder *b, wip *w, int h0, int hd, const end_ways *ew, int depth, ucr_dir *path,
                         junction_pick *best)
{
    int full = junction_full(ew), turns = 0;
    for (int k = 1; k < depth; k++)
        turns += path[k] != path[k - 1];
    for (int s = 0; s < 4 && best->score < full; s++) {
        if (HX[2 * s] * HX[hd] + HY[2 * s] * HY[hd] < 0 || (depth && s != (int)path[depth - 1] && turns == 2) ||
            !jog_clear(b, w, (ucr_dir)s) || !step(b, w, 2 * s))
            continue;
        path[depth] = (ucr_dir)s;
        ucr_dir cand[3] = { (ucr_dir)s, (ucr_dir)((s + 1) % 4), (ucr_dir)((s + 3) % 4) };
        for (int c = 0; c < 3; c++) {
            end_ways t = *ew;
            if (!arms_as_rolled(h0, cand[c]) && !arms_towards(&t, cand[c]))
                continue;
            int sc = junction_score(b, w, cand[c], &t);
            if (sc > best->score || (sc == best->score && best->n_jog > depth + 1)) {   /* (the fewest steps) */
                *best = (junction_pick){ .score = sc, .d = cand[c], .ew = t, .n_jog = depth + 1 };
                memcpy(best->jog, path, sizeof(ucr_dir) * (size_t)(depth + 1));
            }
        }
        if (depth + 1 < JOG_MAX)
            junction_jog(b, w, h0, 2 * s, ew, depth + 1, path, best);
        unstep(b, w);
    }
}

/* Where the junction at the end of @w (heading @h) stands: beyond its end
 * the way it goes (a diagonal way: the square way of the two beside it
 * that gives the most of its ways room), or, where a doorway finds no room
 * there, around a corner to either side, the passage's last squares turned
 * from what stands by its end (the map's edge, mostly), the coin's arms
 * then either side of them; failing room for all its ways, the same up to
 * JUNCTION_BACK squares back along the way, past its bends (a way that
 * turned along the map's edge has its doorways before the turn).  Each
 * place as junction_shift finds it; the first with the most room.
 * Returns the way, @ew's arms turned with it, the squares to take back in
 * @back and the way's heading there in @h; @w unchanged. */
enum { JUNCTION_BACK = 6 };
static ucr_dir junction_way(builder *b, wip *w, int *h, end_ways *ew, int *back, ucr_dir jog[JOG_MAX], int *n_jog)
{
    int h0 = *h;
    junction_pick best = { .score = -2, .d = (ucr_dir)((diagonal(h0) ? h0 - 1 : h0) / 2), .ew = *ew };
    *back = 0;
    *n_jog = 0;
    if (!ew->doors_rolled)
        return best.d;   /* the passage Ts: its ways part where it ends */
    int full = junction_full(ew), hk = h0;
    bool bent = false;
    wip_mark end = wip_mark_of(w);
    for (int k = 0;; k++) {
        if (junction_try(b, w, h0, hk, k == 0 || bent, ew, &best)) {
            *back = k;
            *h = hk;
        }
        if (best.score >= full || k == JUNCTION_BACK || !can_back(w))
            break;
        unstep(b, w);
        hk = last_heading(w);
        bent |= hk != h0;
    }
    wip_back_to(b, w, &end);
    wip_mark_clear(&end);
    if (best.score < junction_doors(ew)) {
        ucr_dir path[JOG_MAX];
        int was = best.score;
        junction_jog(b, w, h0, h0, ew, 0, path, &best);
        if (best.score > was) {
            *back = 0;
            *h = h0;
            *n_jog = best.n_jog;
            memcpy(jog, best.jog, sizeof best.jog);
        }
    }
    *ew = best.ew;
    return best.d;
}

/* Two ways or more meet at a junction square, one on (a dead end where
 * there is no room for it). */
static void ways_part(builder *b, wip *w, int h, end_ways *ew, GString *rec)
{
    int back, h0 = h, n_jog;
    ucr_dir jog[JOG_MAX];
    ucr_dir d = junction_way(b, w, &h, ew, &back, jog, &n_jog);
    for (int k = 0; k < back; k++)
        unstep(b, w);
    if (n_jog)
        g_string_append(rec, " (the passage jogs");
    for (int k = 0; k < n_jog && step(b, w, 2 * (int)jog[k]); k++) {
        g_string_append_printf(rec, "%s %s", k ? "," : "", ucr_dir_name(jog[k]));
        h = 2 * (int)jog[k];
    }
    if (n_jog)
        g_string_append(rec, " at its end, where its doorways find room)");
    if (back)
        g_string_append_printf(rec, " (the junction %d ft back along the way%s, where its ways find room)", 10 * back,
                               h != h0 ? ", before its last bend" : "");
    if (!turn(b, w, h, 2 * d, 0, rec)) {
        doorways_outcome(b, ew->doors_rolled, 0, "no room for the junction: a dead end");
        g_string_append(rec, " → no room for the crossing: a dead end");
        finish_dead_end(b, w);
        return;
    }
    if (!diagonal(h) && (int)d != h / 2)
        g_string_append_printf(rec, " (the passage turns %s at its end, where its doorways find room)",
                               ucr_dir_name(d));
    int sc, moved = junction_shift(b, w, d, ew, &sc);
    if (moved)
        g_string_append_printf(rec, " (the junction %d ft %s, where its ways find room)", 10 * abs(moved),
                               moved > 0 ? "further on" : "back");
    bool any_door = false;
    for (int i = 0; i < ew->n; i++)
        any_door |= ew->doorway[i];
    const char *jrec = any_door ? "the passage ends with a doorway on either side" : "where the ways part";
    int j = area_beyond(b, w, d, UCR_AREA_JUNCTION, 1, 1, false, g_strdup(jrec));
    /* Nothing beyond the end (the map's edge, or what stands there): the
     * junction stands on the way's last squares, the way a square or two
     * shorter, down to the one before its door. */
    for (int bk = 1; j < 0 && bk <= 2 && can_retract_to(w, d, 0); bk++) {
        unstep(b, w);
        j = area_beyond(b, w, d, UCR_AREA_JUNCTION, 1, 1, false, g_strdup(jrec));
        if (j >= 0)
            g_string_append_printf(rec, " (the junction %d ft back, where it finds room)", 10 * bk);
    }
    if (j < 0) {
        doorways_outcome(b, ew->doors_rolled, 0, "no room for the junction: a dead end");
        g_string_append(rec, " → no room for the crossing: a dead end");
        finish_dead_end(b, w);
        return;
    }
    g_string_append_printf(rec, " → %d ways part at junction %d", ew->n, area_at(b, j)->key);
    int doors_drawn = ways_leave(b, j, dir_back(d), ew, rec);
    doorways_outcome(b, ew->doors_rolled, doors_drawn,
                     doors_drawn ? "one doorway: no room the other side" : "no doorway: no room either side");
    if (any_door && !doors_drawn) {
        /* Neither doorway found room: the ways that did part are all. */
        ucr_area *ja = &g_array_index(b->node->areas, ucr_area, j);
        g_free(ja->rolled);
        ja->rolled = g_strdup("where the ways part");
    }
}

/* The end of corridor @e->w: one throw, or two for a 3. */
static void end_throws(builder *b, open_end *e)
{
    wip *w = e->w;
    int h = e->heading;
    end_ways ew = { .n = 0 };
    GString *rec = g_string_new(NULL);
    g_string_append(rec, "corridor end at (");
    ucr_text_append_int(rec, last_cell(w).x);
    g_string_append_c(rec, ',');
    ucr_text_append_int(rec, last_cell(w).y);
    g_string_append(rec, "): ");
    ways_throw(b, e, &ew, rec);
    if (ew.n == 1) {
        doorways_outcome(b, ew.doors_rolled, 0, "one way on: no junction");
        /* One way on: the same corridor goes on, turning as it must. */
        if (!turn(b, w, h, ew.heading[0], ew.ways[0].lie, rec)) {
            g_string_append(rec, " → no way that way: a dead end");
            finish_dead_end(b, w);
        } else {
            piece(b, w, ew.heading[0], &ew.ways[0], rec);
        }
    } else {
        ways_part(b, w, h, &ew, rec);
    }
    note(b, g_string_free(rec, FALSE));
}

/* The exits of area @e->area: its throws, the first already made (@first,
 * recorded in @first_rec) when the GM threw it before choosing the area. */
static void exits_throws_with(builder *b, open_end *e, bool start, const pips_throw *first, const char *first_rec)
{
    GString *rec = g_string_new(NULL);
    const ucr_area *a = area_at(b, e->area);
    g_string_append(rec, start ? "start " : a->kind == UCR_AREA_ROOM ? "room " : "area ");
    ucr_text_append_int(rec, a->key);
    g_string_append(rec, ": ");
    for (int i = 0; i < e->throws; i++) {
        if (i)
            g_string_append(rec, "; second exit: ");
        GString *r = g_string_new(NULL);
        pips_throw t;
        if (i == 0 && first) {
            t = *first;
            g_string_append(r, first_rec);
        } else if (i < e->pre_n) {
            t = e->pre[i];   /* thrown as the room was drawn */
            g_string_append(r, e->pre_rec[i]);
        } else
            t = throw_die(b, r);
        g_string_append(rec, r->str);
        g_string_free(r, TRUE);
        if (b->full) {
            g_string_append(rec, " → the map is full: not drawn");
            break;
        }
        if (start && e->area == b->plan->start_landing && b->plan->start_what < 0)
            b->plan->start_what = (int)hint_what(&t);   /* what lies at the foot of its stairs (not
                                                         * an exit added later) */
        /* Both exits thrown to one wall: the first leaves by its end. */
        b->pair_wall = i == 0 && !start && e->pre_n == 2 && e->pre[1].landing == t.landing && t.landing != CENTRE
                           ? t.landing : -1;
        exit_throw(b, e->area, e->entered, &t, rec, start);
        b->pair_wall = -1;
    }
    ucr_area_record_append(&g_array_index(b->node->areas, ucr_area, e->area), rec->str);
    note(b, g_string_free(rec, FALSE));
}

static void exits_throws(builder *b, open_end *e, bool start)
{
    exits_throws_with(b, e, start, NULL, NULL);
}

static void process(builder *b, int start)
{
    open_end *e;
    while ((e = g_queue_pop_head(&b->ends))) {
        if (e->kind == END_EXIT)
            exits_throws(b, e, e->area == start);
        else if (b->full) {
            note(b, g_strdup("the map is full: a corridor ends unexplored"));
            finish_dead_end(b, e->w);
        } else
            end_throws(b, e);
        for (int i = 0; i < e->pre_n; i++)
            g_free(e->pre_rec[i]);
        g_free(e);
    }
}

/* ---- secret doors -------------------------------------------------------- */

/* Whether square @q touches nothing but @a and @b (rock elsewhere). */
static bool touches_only(const builder *b, ucr_point q, ucr_point a, ucr_point z)
{
    for (int d = 0; d < 4; d++) {
        ucr_point n = ucr_point_step(q, (ucr_dir)d);
        if (owner(b, n) != UCR_CANVAS_EMPTY && !point_eq(n, a) && !point_eq(n, z))
            return false;
    }
    return true;
}

/* A dead end of passage @k at @e, one square (@n1) short of a corridor
 * running across its line at @n2, rolls for a secret door into it: the
 * corridor parts there at a junction, the door on the junction. */
static void secret_door_to_corridor(builder *b, int k, ucr_point e, ucr_point n1, ucr_point n2)
{
    ucr_node *node = b->node;
    int k2 = owner(b, n2) - UCR_ATTACH_PASSAGE;
    const ucr_passage *q = &g_array_index(node->passages, ucr_passage, k2);
    int j = -1;
    for (guint i = 0; i < q->cells->len && j < 0; i++)
        if (point_eq(g_array_index(q->cells, ucr_point, i), n2))
            j = (int)i;
    bool join = k2 == k;
    for (int d = 0; d < 4; d++)
        join |= b->plan->join_passage[d] == k2;
    ucr_point beyond = { 2 * n2.x - n1.x, 2 * n2.y - n1.y };
    if (join || j < 0 || !in_map(b, n1) || owner(b, n1) != UCR_CANVAS_EMPTY || owner(b, beyond) != UCR_CANVAS_EMPTY ||
        q->kind == UCR_EDGE_SECRET || !split_ok(q, j) || crossed_near(node, k2, j) || !touches_only(b, n1, e, n2))
        return;
    GString *rec = g_string_new(NULL);
    const ucr_table_row *row = table_roll(b, "pips-secret", rec);
    note(b, g_strdup_printf("dead end at (%d,%d), a square from a corridor: %s (%s)", e.x, e.y, row->text, rec->str));
    g_string_free(rec, TRUE);
    if (strcmp(row->tag, "secret") != 0)
        return;
    int jn = split_at(b, k2, j, g_strdup_printf("a secret door from the dead end at (%d,%d)", e.x, e.y));
    ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
    int dead = p->b;
    g_array_append_val(p->cells, n1);
    ucr_canvas_set(b->cv, n1, UCR_ATTACH_PASSAGE + k);
    p->b = jn;
    ucr_node_remove_vertex(node, dead);
    ucr_node_add_door(node, jn, k, UCR_DOOR_SECRET);
}

/* seed 003: "If a passage or room is adjacent to an already-mapped area,
 * feel free to add a secret door if desired": a dead end one square short
 * of a room's wall (or of a corridor), square on, rolls for a secret door
 * into it. */
static void secret_doors(builder *b)
{
    ucr_node *node = b->node;
    for (guint k = 0; k < node->passages->len; k++) {
        ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        ucr_point e;
        int dx, dy;
        if (!ucr_passage_dead_end(node, p, &e, &dx, &dy) || ucr_canvas_busy(b->cv, e))
            continue;   /* (not where a way runs under or over its end) */
        ucr_point n1 = { e.x + dx, e.y + dy }, n2 = { e.x + 2 * dx, e.y + 2 * dy };
        int ai = owner(b, n2);
        if (ai >= UCR_ATTACH_PASSAGE && ai < WIP) {
            secret_door_to_corridor(b, (int)k, e, n1, n2);
            continue;
        }
        if (!in_map(b, n1) || owner(b, n1) != UCR_CANVAS_EMPTY || ai < 0 || ai >= UCR_ATTACH_PASSAGE ||
            area_at(b, ai)->kind != UCR_AREA_ROOM)
            continue;
        const ucr_area *a = area_at(b, ai);
        if (a->diamond) {
            int cx = a->x + a->w / 2, cy = a->y + a->h / 2;
            if (!(n1.x == cx || n1.y == cy))
                continue;
        }
        bool clear = true;
        for (int d = 0; d < 4; d++) {
            ucr_point q = ucr_point_step(n1, (ucr_dir)d);
            int o = owner(b, q);
            clear &= o == UCR_CANVAS_EMPTY || point_eq(q, e) || point_eq(q, n2);
        }
        if (!clear)
            continue;
        GString *rec = g_string_new(NULL);
        const ucr_table_row *row = table_roll(b, "pips-secret", rec);
        char *s = g_strdup_printf("dead end at (%d,%d), a square from room %d: %s (%s)", e.x, e.y, a->key,
                                  row->text, rec->str);
        g_string_free(rec, TRUE);
        note(b, s);
        if (strcmp(row->tag, "secret") != 0)
            continue;
        int dead = p->b;
        g_array_append_val(p->cells, n1);
        ucr_canvas_set(b->cv, n1, UCR_ATTACH_PASSAGE + (int)k);
        p->b = ai;
        ucr_node_remove_vertex(node, dead);
        ucr_node_add_door(node, ai, (int)k, UCR_DOOR_SECRET);
    }
}

/* Is @p just outside a wall of @a, where a door may stand (a diamond: its
 * tips only)? */
static bool on_wall(const ucr_area *a, ucr_point p)
{
    if (a->diamond) {
        int cx = a->x + a->w / 2, cy = a->y + a->h / 2;
        return (p.x == cx && (p.y == a->y - 1 || p.y == a->y + a->h)) ||
               (p.y == cy && (p.x == a->x - 1 || p.x == a->x + a->w));
    }
    bool inx = p.x >= a->x && p.x < a->x + a->w, iny = p.y >= a->y && p.y < a->y + a->h;
    return (inx && (p.y == a->y - 1 || p.y == a->y + a->h)) || (iny && (p.x == a->x - 1 || p.x == a->x + a->w));
}

/* Whether cell @j of passage @p may become a junction: a straight square
 * (its neighbours in line, no diagonal step), away from the ends, from steps
 * and from crossings. */
static bool split_ok(const ucr_passage *p, int j)
{
    return split_ok_at(p, j, false);
}

/* As split_ok, and with @bend at a square turn of the way as well (a
 * junction there leaves by its other sides). */
static bool split_ok_at(const ucr_passage *p, int j, bool bend)
{
    int len = (int)p->cells->len;
    if (j < 1 || j > len - 2 || p->kind == UCR_EDGE_BLOCKED)
        return false;
    ucr_point a = g_array_index(p->cells, ucr_point, j - 1), c = g_array_index(p->cells, ucr_point, j),
              z = g_array_index(p->cells, ucr_point, j + 1);
    bool square = abs(a.x - c.x) + abs(a.y - c.y) == 1 && abs(z.x - c.x) + abs(z.y - c.y) == 1;
    if (!((a.x == c.x && z.x == c.x) || (a.y == c.y && z.y == c.y)) && !(bend && square))
        return false;
    for (guint s = 0; s < p->stairs->len; s++)
        if (abs(g_array_index(p->stairs, ucr_passage_stairs, s).index - j) <= 1)
            return false;
    for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
        const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
        if (j >= cr->first - 1 && j <= cr->last + 1)
            return false;
    }
    /* Where the corridor doubles back, its two halves would touch. */
    for (int h = 0; h < j; h++)
        for (int t = j + 1; t < len; t++) {
            ucr_point ph = g_array_index(p->cells, ucr_point, h), pt = g_array_index(p->cells, ucr_point, t);
            if (abs(ph.x - pt.x) + abs(ph.y - pt.y) <= 1)
                return false;
        }
    return true;
}

/* The corridors still being drawn (their ends in the queue) that cross
 * passage @k where its second half @tail (passage @k2) now runs name @k2
 * (ucr_node_split_passage renames the finished passages' crossings). */
static void wips_cross_split(builder *b, int k, int k2, const GArray *tail)
{
    for (GList *l = b->ends.head; l; l = l->next) {
        const open_end *e = l->data;
        if (e->kind != END_RUN)
            continue;
        for (guint i = 0; i < e->w->crossings->len; i++) {
            ucr_crossing *cr = &g_array_index(e->w->crossings, ucr_crossing, i);
            ucr_point q = g_array_index(e->w->cells, ucr_point, (cr->first + cr->last) / 2);   /* (a cell) */
            for (guint t = 0; cr->passage == k && t < tail->len; t++)
                if (point_eq(q, g_array_index(tail, ucr_point, t)))
                    cr->passage = k2;
        }
    }
}

/* Splits passage @k at cell @j (split_ok) into two, a junction area on that
 * square between them.  Returns the junction. */
static int split_at(builder *b, int k, int j, char *rolled)
{
    ucr_node *node = b->node;
    ucr_point c = g_array_index(g_array_index(node->passages, ucr_passage, k).cells, ucr_point, j);
    int jn = area_add(b, UCR_AREA_JUNCTION, c.x, c.y, 1, 1, false, rolled);
    int k2 = ucr_node_split_passage(node, k, j, jn);
    /* The squares of the second half, and those beside its diagonal steps,
     * are its own now. */
    const GArray *tail = g_array_index(node->passages, ucr_passage, k2).cells;
    wips_cross_split(b, k, k2, tail);
    for (guint i = 0; i < tail->len; i++) {
        ucr_point q = g_array_index(tail, ucr_point, i);
        if (owner(b, q) == UCR_ATTACH_PASSAGE + k)
            ucr_canvas_set(b->cv, q, UCR_ATTACH_PASSAGE + k2);
        if (i == 0)
            continue;
        ucr_point pr = g_array_index(tail, ucr_point, i - 1);
        ucr_point side[2] = { { q.x, pr.y }, { pr.x, q.y } };
        for (int s2 = 0; s2 < 2 && pr.x != q.x && pr.y != q.y; s2++)
            if (owner(b, side[s2]) == UCR_ATTACH_PASSAGE + k)
                ucr_canvas_set(b->cv, side[s2], UCR_ATTACH_PASSAGE + k2);
    }
    return jn;
}

/* Whether another passage runs under or over passage @k within two
 * squares of its cell @j (where @k may not be split: the squares beside
 * that crossing would touch the other half). */
static bool crossed_near(const ucr_node *node, int k, int j)
{
    const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
    for (guint o = 0; o < node->passages->len; o++) {
        const ucr_passage *op = &g_array_index(node->passages, ucr_passage, o);
        for (guint x = 0; op->crossings && x < op->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(op->crossings, ucr_crossing, x);
            if (cr->passage != k)
                continue;
            for (int c = cr->first; c <= cr->last; c++) {
                ucr_point q = g_array_index(op->cells, ucr_point, c);
                for (int i = MAX(0, j - 2); i <= j + 2 && i < (int)p->cells->len; i++)
                    if (point_eq(q, g_array_index(p->cells, ucr_point, i)))
                        return true;
            }
        }
    }
    return false;
}

/* seed 003: "If a passage or room is adjacent to an already-mapped area,
 * feel free to add a secret door if desired": a corridor that runs
 * alongside a room it does not lead to for 30 ft, one square of rock
 * between them, rolls (pips-secret; once per room) for a secret door
 * through that rock, from a new junction on the corridor. */
static void secret_doors_alongside(builder *b)
{
    ucr_node *node = b->node;
    GHashTable *rolled = g_hash_table_new(g_direct_hash, g_direct_equal);
    guint np = node->passages->len;
    for (guint k = 0; k < np; k++) {
        bool join = false;   /* the tunnel into the hill: embed puts its door on it */
        for (int d = 0; d < 4; d++)
            join |= b->plan->join_passage[d] == (int)k;
        for (int j = 1; !join; j++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            if (j > (int)p->cells->len - 2)
                break;
            if (!split_ok(p, j) || crossed_near(node, (int)k, j))   /* not split beside a crossing */
                continue;
            ucr_point c = g_array_index(p->cells, ucr_point, j), nx = g_array_index(p->cells, ucr_point, j + 1);
            int ax = nx.x - c.x, ay = nx.y - c.y;
            for (int s = -1; s <= 1; s += 2) {
                int px = ay * s, py = -ax * s;   /* square to the way, either side */
                ucr_point n1 = { c.x + px, c.y + py }, n2 = { c.x + 2 * px, c.y + 2 * py };
                int ai = owner(b, n2);
                /* The junction touches only its two halves and the door's
                 * square (not the corridor itself where it doubles back). */
                ucr_point o1 = { c.x - px, c.y - py };
                if (owner(b, o1) != UCR_CANVAS_EMPTY)
                    continue;
                if (!in_map(b, n1) || owner(b, n1) != UCR_CANVAS_EMPTY || ai < 0 || ai >= UCR_ATTACH_PASSAGE ||
                    area_at(b, ai)->kind != UCR_AREA_ROOM ||
                    !on_wall(area_at(b, ai), n1))
                    continue;
                /* Not a room the corridor leads to; one roll per room (the
                 * GM's "if desired", and the method stays loop-poor). */
                const ucr_vertex *va = &g_array_index(node->vertices, ucr_vertex, p->a);
                const ucr_vertex *vb = &g_array_index(node->vertices, ucr_vertex, p->b);
                if ((va->kind == UCR_VERTEX_AREA && va->area == ai) || (vb->kind == UCR_VERTEX_AREA && vb->area == ai))
                    continue;
                /* Alongside: the room is as near for the squares before
                 * and after too (30 ft of corridor along its wall). */
                ucr_point pv = g_array_index(p->cells, ucr_point, j - 1);
                if (owner(b, (ucr_point){ pv.x + 2 * px, pv.y + 2 * py }) != ai ||
                    owner(b, (ucr_point){ nx.x + 2 * px, nx.y + 2 * py }) != ai)
                    continue;
                gpointer pair = GINT_TO_POINTER(ai + 1);
                if (g_hash_table_contains(rolled, pair))
                    continue;
                /* The square between touches nothing but the corridor
                 * square and the room. */
                bool clear = true;
                for (int d = 0; d < 4; d++) {
                    ucr_point q = ucr_point_step(n1, (ucr_dir)d);
                    clear &= owner(b, q) == UCR_CANVAS_EMPTY || point_eq(q, c) || point_eq(q, n2);
                }
                if (!clear)
                    continue;
                g_hash_table_add(rolled, pair);
                GString *rec = g_string_new(NULL);
                const ucr_table_row *row = table_roll(b, "pips-secret", rec);
                const ucr_area *a = area_at(b, ai);
                note(b, g_strdup_printf("corridor at (%d,%d) alongside room %d, a square apart: %s (%s)", c.x, c.y,
                                        a->key, row->text, rec->str));
                g_string_free(rec, TRUE);
                if (strcmp(row->tag, "secret") != 0)
                    continue;
                int jn = split_at(b, (int)k, j,
                                  g_strdup_printf("a secret door into room %d, beside the corridor", a->key));
                GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
                g_array_append_val(cells, n1);
                int sk = ucr_node_add_passage(node, b->cv, cells, jn, ai, UCR_EDGE_OPEN);
                ucr_canvas_set(b->cv, n1, UCR_ATTACH_PASSAGE + sk);
                ucr_node_add_door(node, ai, sk, UCR_DOOR_SECRET);
                break;
            }
        }
    }
    g_hash_table_destroy(rolled);
}

/* The index of square @q in passage @k, or -1. */
static int cell_index(const ucr_node *node, int k, ucr_point q)
{
    const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
    for (guint i = 0; i < p->cells->len; i++)
        if (point_eq(g_array_index(p->cells, ucr_point, i), q))
            return (int)i;
    return -1;
}

/* Whether passage @k may part at its square @q for a secret door: a
 * straight square away from steps and crossings, not a tunnel of the
 * superstructure nor a secret way; its index in @j. */
static bool parts_at(const builder *b, int k, ucr_point q, int *j)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    bool join = p->kind == UCR_EDGE_SECRET;
    for (int d = 0; d < 4; d++)
        join |= b->plan->join_passage[d] == k;
    *j = cell_index(b->node, k, q);
    return !join && *j >= 0 && split_ok(p, *j) && !crossed_near(b->node, k, *j);
}

/* seed 003: "If a passage … is adjacent to an already-mapped area, feel
 * free to add a secret door": two corridors side by side for 30 ft, a
 * square of rock between, roll (pips-secret, once a corridor) for a secret
 * door through it, each parting at a junction there. */
static void secret_doors_corridors(builder *b)
{
    ucr_node *node = b->node;
    guint np = node->passages->len;
    for (guint k = 0; k < np; k++) {
        bool done = false;
        for (int j = 1; !done && j < (int)g_array_index(node->passages, ucr_passage, k).cells->len - 1; j++) {
            const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
            ucr_point c = g_array_index(p->cells, ucr_point, j), nx = g_array_index(p->cells, ucr_point, j + 1),
                      pv = g_array_index(p->cells, ucr_point, j - 1);
            int jj;
            if (!parts_at(b, (int)k, c, &jj))
                continue;
            int ax = nx.x - c.x, ay = nx.y - c.y;
            for (int s = -1; s <= 1 && !done; s += 2) {
                int px = ay * s, py = -ax * s;
                ucr_point n1 = { c.x + px, c.y + py }, n2 = { c.x + 2 * px, c.y + 2 * py };
                ucr_point o1 = { c.x - px, c.y - py }, beyond = { c.x + 3 * px, c.y + 3 * py };
                int o = owner(b, n2), j2;
                int k2 = o >= UCR_ATTACH_PASSAGE && o < WIP ? o - UCR_ATTACH_PASSAGE : -1;
                if (k2 < 0 || k2 == (int)k || !in_map(b, n1) ||
                    owner(b, n1) != UCR_CANVAS_EMPTY || owner(b, o1) != UCR_CANVAS_EMPTY ||
                    owner(b, beyond) != UCR_CANVAS_EMPTY ||
                    owner(b, (ucr_point){ pv.x + 2 * px, pv.y + 2 * py }) != o ||
                    owner(b, (ucr_point){ nx.x + 2 * px, nx.y + 2 * py }) != o || !touches_only(b, n1, c, n2) ||
                    !parts_at(b, k2, n2, &j2))
                    continue;
                done = true;   /* one roll a corridor */
                GString *rec = g_string_new(NULL);
                const ucr_table_row *row = table_roll(b, "pips-secret", rec);
                note(b, g_strdup_printf("corridor at (%d,%d) alongside another, a square apart: %s (%s)", c.x, c.y,
                                        row->text, rec->str));
                g_string_free(rec, TRUE);
                if (strcmp(row->tag, "secret") != 0)
                    continue;
                int ja = split_at(b, (int)k, jj, g_strdup("a secret door into the corridor beside"));
                j2 = cell_index(node, k2, n2);
                int jb = split_at(b, k2, j2, g_strdup("a secret door into the corridor beside"));
                GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
                g_array_append_val(cells, n1);
                int sk = ucr_node_add_passage(node, b->cv, cells, ja, jb, UCR_EDGE_OPEN);
                ucr_canvas_set(b->cv, n1, UCR_ATTACH_PASSAGE + sk);
                ucr_node_add_door(node, ja, sk, UCR_DOOR_SECRET);
            }
        }
    }
}

/* Whether a passage of @node already joins areas @x and @y. */
static bool joined_directly(const ucr_node *node, int x, int y)
{
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if ((p->a == x && p->b == y) || (p->a == y && p->b == x))
            return true;
    }
    return false;
}

/* The square between room @ai's wall @side and another room a square
 * beyond it, nearest the wall's middle, where a one-square passage may
 * join them (rock beside it, neither wall under a crossing there); the
 * other room in @other.  False if there is none. */
static bool room_gap(const builder *b, int ai, ucr_dir side, ucr_point *gap, int *other)
{
    const ucr_area a = *area_at(b, ai);
    int wl = side == UCR_NORTH || side == UCR_SOUTH ? a.w : a.h;
    for (int i = 0; i < wl; i++) {
        int k = (wl - 1) / 2 + ((i % 2) ? (i + 1) / 2 : -(i / 2));
        if (k < 0 || k >= wl)
            continue;
        ucr_point in = side == UCR_NORTH   ? (ucr_point){ a.x + k, a.y }
                       : side == UCR_SOUTH ? (ucr_point){ a.x + k, a.y + a.h - 1 }
                       : side == UCR_WEST  ? (ucr_point){ a.x, a.y + k }
                                           : (ucr_point){ a.x + a.w - 1, a.y + k };
        ucr_point n1 = ucr_point_step(in, side), n2 = ucr_point_step(n1, side);
        int o = owner(b, n2);
        if (!in_map(b, n1) || owner(b, n1) != UCR_CANVAS_EMPTY || o < 0 || o >= UCR_ATTACH_PASSAGE || o == ai ||
            area_at(b, o)->kind != UCR_AREA_ROOM || area_at(b, o)->diamond)
            continue;
        bool clear = true;
        for (int d = 0; d < 4; d++) {
            ucr_point q = ucr_point_step(n1, (ucr_dir)d);
            clear &= point_eq(q, in) || point_eq(q, n2) || owner(b, q) == UCR_CANVAS_EMPTY;
        }
        if (clear) {
            *gap = n1;
            *other = o;
            return true;
        }
    }
    return false;
}

/* seed 003: "If a passage or room is adjacent to an already-mapped area,
 * feel free to add a secret door if desired": two rooms a square of rock
 * apart, not joined already, roll (pips-secret, once a pair) for a secret
 * door each side of that square. */
static void secret_doors_rooms(builder *b)
{
    ucr_node *node = b->node;
    guint na = node->areas->len;
    for (guint i = 0; i < na; i++) {
        if (area_at(b, (int)i)->kind != UCR_AREA_ROOM || area_at(b, (int)i)->diamond)
            continue;
        for (int d = 0; d < 4; d++) {
            ucr_point n1;
            int o;
            /* Each pair once: from the earlier room of the two. */
            if (!room_gap(b, (int)i, (ucr_dir)d, &n1, &o) || o < (int)i || joined_directly(node, (int)i, o))
                continue;
            GString *rec = g_string_new(NULL);
            const ucr_table_row *row = table_roll(b, "pips-secret", rec);
            note(b, g_strdup_printf("room %d and room %d, a square apart: %s (%s)", area_at(b, (int)i)->key,
                                    area_at(b, o)->key, strcmp(row->tag, "secret") == 0
                                        ? "a secret door between them" : "no door", rec->str));
            g_string_free(rec, TRUE);
            if (strcmp(row->tag, "secret") != 0)
                continue;
            GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
            g_array_append_val(cells, n1);
            int k = ucr_node_add_passage(node, b->cv, cells, (int)i, o, UCR_EDGE_OPEN);
            ucr_canvas_set(b->cv, n1, UCR_ATTACH_PASSAGE + k);
            ucr_node_add_door(node, (int)i, k, UCR_DOOR_SECRET);
            ucr_node_add_door(node, o, k, UCR_DOOR_SECRET);
        }
    }
}

/* ---- the node ------------------------------------------------------------ */

/* The start: a tunnel into the hill from map side @side, or (side < 0)
 * stairs down from above near the map's middle.  Returns its area. */
static int start_draw(builder *b, int side)
{
    if (side < 0) {
        int x = b->cv->w / 2 - 1 + ucr_dice_d(b->rng, 5) - 3, y = b->cv->h / 2 - 1 + ucr_dice_d(b->rng, 5) - 3;
        int ai = area_add(b, UCR_AREA_STAIRS, x, y, 1, 2, false, g_strdup("the start: stairs down from above"));
        g_array_index(b->node->areas, ucr_area, ai).stair = UCR_STAIR_UP;
        b->plan->start_landing = ai;
        note(b, g_strdup("start: stairs down"));
        return ai;
    }
    ucr_dir d = (ucr_dir)side, in = dir_back(d);
    int mw = b->cv->w, mh = b->cv->h;
    int along = (d == UCR_NORTH || d == UCR_SOUTH ? mw : mh) / 2 + ucr_dice_d(b->rng, 9) - 5;
    ucr_point edge = d == UCR_NORTH ? (ucr_point){ along, 0 }
                     : d == UCR_SOUTH ? (ucr_point){ along, mh - 1 }
                     : d == UCR_WEST ? (ucr_point){ 0, along } : (ucr_point){ mw - 1, along };
    wip *w = wip_new(b, -1, false);
    ucr_point p = edge;
    for (int i = 0; i < TUNNEL; i++) {
        g_array_append_val(w->cells, p);
        claim(b, w, p);
        p = ucr_point_step(p, in);
    }
    int ai = area_beyond(b, w, in, UCR_AREA_JUNCTION, 1, 1, false,
                         g_strdup("the start: the end of a tunnel leading into the hill"));
    b->plan->join_passage[side] = (int)b->node->passages->len - 1;
    b->plan->join_area[side] = ai;
    note(b, g_strdup_printf("start: a tunnel into the hill from the %s", ucr_dir_name(d)));
    return ai;
}

/* A superstructure tunnel out by map side @side, from the area nearest it
 * (ucr_attach_edge), three squares long at least where one can be: seed
 * 004's chamber, when its tunnel rolls one, is drawn on the tunnel later
 * (ucr_attach_chamber), and a tunnel from an area by the edge leaves it no
 * rock where the ways run along the edge (it then lay beyond the map).
 * Returns the area, or -1. */
static int edge_tunnel(builder *b, ucr_canvas *cv, ucr_dir side)
{
    ucr_half none = { 0 };
    GArray *shut = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (guint i = 0; i < b->node->areas->len; i++) {
        const ucr_area *a = &g_array_index(b->node->areas, ucr_area, i);
        int wl = ucr_area_wall_length(a, side);
        for (int k = 0; k < wl; k++) {
            ucr_point m = ucr_area_mouth(a, side, k);
            int from_edge = side == UCR_NORTH ? m.y : side == UCR_SOUTH ? cv->h - 1 - m.y
                          : side == UCR_WEST ? m.x : cv->w - 1 - m.x;
            if (from_edge < 2 && ucr_canvas_inside(cv, m) && ucr_canvas_owner(cv, m) == UCR_CANVAS_EMPTY) {
                ucr_canvas_set(cv, m, UCR_CANVAS_TENTATIVE);   /* shut for the first try */
                g_array_append_val(shut, m);
            }
        }
    }
    int ai = ucr_attach_edge(b->node, cv, side, &none, b->rng);
    for (guint i = 0; i < shut->len; i++)
        if (ucr_canvas_owner(cv, g_array_index(shut, ucr_point, i)) == UCR_CANVAS_TENTATIVE)
            ucr_canvas_set(cv, g_array_index(shut, ucr_point, i), UCR_CANVAS_EMPTY);
    g_array_free(shut, TRUE);
    if (ai < 0)
        ai = ucr_attach_edge(b->node, cv, side, &none, b->rng);
    return ai;
}

/* Areas that carry stairs of the node's own: its ways down, and the start's
 * stairs from above. */
static int stairs_held(const builder *b)
{
    return (int)b->plan->exits->len + (b->plan->start_landing >= 0);
}

/* Whether room @ai has a wall with a free square for one more exit. */
static bool room_open(builder *b, int ai)
{
    ucr_point m;
    if (area_at(b, ai)->kind != UCR_AREA_ROOM)
        return false;
    for (int d = 0; d < 4; d++)
        if (mouth(b, ai, (ucr_dir)d, &m, NULL))
            return true;
    return false;
}

/* Whether an exit thrown @t fits area @ai: a free square on the wall the
 * die landed by, or (in the centre) a room with its way down already (the
 * GM adds exits to spread the ways down, not to add more). */
static bool throw_fits(builder *b, int ai, const pips_throw *t)
{
    ucr_point m;
    if (t->landing == CENTRE)
        return area_at(b, ai)->kind == UCR_AREA_ROOM && area_at(b, ai)->stair != UCR_STAIR_NONE;
    return mouth(b, ai, (ucr_dir)t->landing, &m, NULL);
}

/* A throw the GM set aside, for the note: without its tables' names, so
 * that it reads as no piece's throw (key/honour.c and the tests count a
 * "pips-what" throw as a piece rolled). */
static void append_set_aside(GString *s, const char *rec)
{
    gchar **parts = g_strsplit(rec, "pips-", -1);
    gchar *joined = g_strjoinv("", parts);
    g_string_append(s, joined);
    g_free(joined);
    g_strfreev(parts);
}

/* Squares of rock straight ahead of mouth @m towards @side (up to @most),
 * rock on either side of each too: how far a way out of @m runs before it
 * meets anything. */
static int rock_ahead(const builder *b, ucr_point m, ucr_dir side, int most)
{
    ucr_dir l = (ucr_dir)((side + 1) % 4), r = (ucr_dir)((side + 3) % 4);
    int n = 0;
    for (ucr_point q = ucr_point_step(m, side); n < most; q = ucr_point_step(q, side), n++)
        if (!in_map(b, q) || owner(b, q) != UCR_CANVAS_EMPTY || owner(b, ucr_point_step(q, l)) != UCR_CANVAS_EMPTY ||
            owner(b, ucr_point_step(q, r)) != UCR_CANVAS_EMPTY)
            break;
    return n;
}

/* Whether passage @k may have an exit placed on its side: no tunnel of the
 * superstructure's, no secret way. */
static bool side_passage(const builder *b, int k)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    for (int d = 0; d < 4; d++)
        if (b->plan->join_passage[d] == k)
            return false;
    return p->kind != UCR_EDGE_SECRET;
}

/* The side of a corridor where the GM places an exit facing @side, when no
 * room takes it (seed 003: "you can go back and place them manually"; as
 * clock.c's GM, failing walls with open rock beyond, the sides of
 * corridors): a straight square of a corridor running across @side whose
 * way out finds the most open rock ahead (GM_ROCK squares at least),
 * earliest first.  Its passage in @k, its square in @j; false if none. */
static bool corridor_side(const builder *b, ucr_dir side, int *k, int *j, int *rock)
{
    int best = GM_ROCK - 1;
    for (int pk = 0; pk < (int)b->node->passages->len; pk++) {
        const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, pk);
        if (!side_passage(b, pk))
            continue;
        for (int pj = 1; pj + 1 < (int)p->cells->len; pj++) {
            ucr_point jq = g_array_index(p->cells, ucr_point, pj), nx = g_array_index(p->cells, ucr_point, pj + 1);
            bool across = side == UCR_NORTH || side == UCR_SOUTH ? nx.y == jq.y : nx.x == jq.x;
            if (!across || !split_ok(p, pj) || crossed_near(b->node, pk, pj))
                continue;
            ucr_point m = ucr_point_step(jq, side);
            if (!mouth_free_at(b, jq, m, UCR_ATTACH_PASSAGE + pk) || !way_on(b, m, side))
                continue;
            int ahead = rock_ahead(b, m, side, 2 * GM_ROCK);
            if (ahead > best) {
                best = ahead;
                *k = pk;
                *j = pj;
            }
        }
    }
    *rock = best;
    return best >= GM_ROCK;
}

/* A junction whose wall @side has a free square with more open rock ahead
 * than @best (then raised to it): the first such, or -1.  (A corridor's
 * side, but where the ways already part.) */
static int junction_side(builder *b, ucr_dir side, int *best)
{
    int pick = -1;
    for (int ai = 0; ai < (int)b->node->areas->len; ai++) {
        const ucr_area *a = area_at(b, ai);
        if (a->kind != UCR_AREA_JUNCTION)
            continue;
        ucr_point m = ucr_point_step((ucr_point){ a->x, a->y }, side);
        if (!mouth_clear(b, m, ai) || !way_on(b, m, side))
            continue;
        int ahead = rock_ahead(b, m, side, 2 * GM_ROCK);
        if (ahead > *best) {
            *best = ahead;
            pick = ai;
        }
    }
    return pick;
}

/* Whether square @n1 is rock with rock around it, but @e (the square
 * before it) and, corner to corner, squares of @way (the half floor beside
 * a diagonal last step; -1: none). */
static bool rock_around_but(const builder *b, ucr_point n1, ucr_point e, int way)
{
    if (!in_map(b, n1) || owner(b, n1) != UCR_CANVAS_EMPTY)
        return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ucr_point q = { n1.x + dx, n1.y + dy };
            int o = owner(b, q);
            if ((dx || dy) && !point_eq(q, e) && o != UCR_CANVAS_EMPTY && !(dx && dy && o == way))
                return false;
        }
    return true;
}

/* The square a dead end of passage @k extends into, @i-th of those it may
 * (0; 1 too after a diagonal step: on either side of its heading), or
 * false; its end in @e, whether it was reached by a diagonal step in @diag. */
static bool dead_end_beyond(const builder *b, int k, int i, ucr_point *e, ucr_point *n1, bool *diag)
{
    const ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);
    int dx, dy;
    if (!side_passage(b, k) || g_array_index(b->node->vertices, ucr_vertex, p->b).kind != UCR_VERTEX_DEAD_END ||
        p->cells->len < 2)
        return false;
    ucr_passage_dead_end(b->node, p, e, &dx, &dy);
    *diag = dx && dy;
    if (i > *diag || ucr_canvas_busy(b->cv, *e))
        return false;   /* (not where a way runs under or over its end) */
    if (!*diag)
        *n1 = (ucr_point){ e->x + dx, e->y + dy };
    else
        *n1 = i ? (ucr_point){ e->x, e->y + dy } : (ucr_point){ e->x + dx, e->y };
    return true;
}

/* A dead end the GM extends a square into the rock, to a junction whose
 * wall @side has a free square with more open rock ahead than @best (then
 * raised to it), where no room, junction or straight corridor's side takes
 * the exit (seed 003: "you can go back and place them manually": the dead
 * end goes on; after a diagonal step, square on to one side of it).  Not
 * where a way runs under or over its end; rock all around the square
 * beyond.  Its passage (the square in @at), or -1. */
static int dead_end_side(const builder *b, ucr_dir side, int *best, ucr_point *at)
{
    int pick = -1;
    for (int k = 0; k < (int)b->node->passages->len; k++)
        for (int i = 0; i < 2; i++) {
            ucr_point e, n1;
            bool diag;
            if (!dead_end_beyond(b, k, i, &e, &n1, &diag))
                break;
            ucr_point m = ucr_point_step(n1, side);
            int way = UCR_ATTACH_PASSAGE + k;
            if (!rock_around_but(b, n1, e, diag ? way : -1) || !mouth_free_at(b, n1, m, way) || !way_on(b, m, side))
                continue;
            int ahead = rock_ahead(b, m, side, 2 * GM_ROCK);
            if (ahead > *best) {
                *best = ahead;
                pick = k;
                *at = n1;
            }
        }
    return pick;
}

/* Extends the dead end of passage @k a square into the rock, to a new
 * junction on square @at (dead_end_side).  Returns the junction. */
static int extend_dead_end(builder *b, int k, ucr_point at)
{
    int jn = area_add(b, UCR_AREA_JUNCTION, at.x, at.y, 1, 1, false,
                      g_strdup("where the GM extends a dead end into the rock"));
    ucr_passage *p = &g_array_index(b->node->passages, ucr_passage, k);   /* (the vertices moved) */
    int dead = p->b;
    p->b = jn;
    ucr_node_remove_vertex(b->node, dead);
    return jn;
}

/* A throw that fits nowhere places no exit: the GM throws again (said in
 * @again; not an exit's throw), @r emptied for the next. */
static void set_aside(GString *again, GString *r, const char *why)
{
    g_string_append(again, again->len ? "; " : "; thrown first: ");
    append_set_aside(again, r->str);
    g_string_append(again, why);
    g_string_truncate(r, 0);
}

/* The GM's throws for an exit on one of @cands (@n areas, in the GM's
 * order): the first area where a throw fits (throw_fits), thrown up to
 * GM_THROWS times; -1 if none.  The last throw in @t, recorded in @r.  A GM
 * who wants @more_rooms keeps no throw in the centre: it gives a way down
 * (or none, the room has one), no room. */
static int gm_throw_rooms(builder *b, const int *cands, int n, bool more_rooms, pips_throw *t, GString *r,
                          GString *again)
{
    int pick = -1;
    for (int throws = 0; pick < 0 && throws < GM_THROWS; throws++) {
        if (throws)
            set_aside(again, r, ": fits no room");
        *t = throw_die(b, r);
        for (int i = 0; i < n && pick < 0 && !(more_rooms && t->landing == CENTRE); i++)
            if (throw_fits(b, cands[i], t))
                pick = cands[i];
    }
    return pick;
}

/* Where no room takes the exit: a junction's wall or the side of a
 * corridor facing the wall the die landed by, whichever has the most open
 * rock ahead (junction_side, corridor_side); failing both, where the node
 * has fewer than FEWEST_ROOMS rooms, a dead end extended into the rock
 * (dead_end_side); the last throw @t first, then thrown again up to
 * GM_THROWS times.  Returns the junction (@where: what the GM placed it on,
 * NULL for a junction already there), or -1. */
static int gm_throw_sides(builder *b, pips_throw *t, GString *r, GString *again, const char **where)
{
    *where = NULL;
    for (int throws = 0; throws < GM_THROWS; throws++) {
        if (throws) {
            set_aside(again, r, ": fits no room, no junction, no corridor's side");
            *t = throw_die(b, r);
        }
        if (t->landing == CENTRE)
            continue;
        int k, j, rock;
        bool on_side = corridor_side(b, (ucr_dir)t->landing, &k, &j, &rock);
        int jn = junction_side(b, (ucr_dir)t->landing, &rock);
        if (jn >= 0)
            return jn;
        if (on_side) {
            *where = "a corridor's side";
            return split_at(b, k, j, g_strdup("where the GM adds a way out of the corridor's side"));
        }
        ucr_point at;
        int dk = b->rooms < FEWEST_ROOMS ? dead_end_side(b, (ucr_dir)t->landing, &rock, &at) : -1;
        if (dk >= 0) {
            *where = "a dead end extended into the rock";
            return extend_dead_end(b, dk, at);
        }
    }
    return -1;
}

/* An exit the GM adds (seed 003: "If you decide you need more exits, you
 * can go back and place them manually"): the die is thrown first, and the
 * GM places the exit on the first of @cands (@n areas, in the GM's order)
 * where the throw fits (gm_throw_rooms); with @sides (the GM wants more
 * rooms), failing any, on a junction's wall or a corridor's side with open
 * rock beyond (gm_throw_sides); failing that, the first area, on another
 * wall, or, the last throw in the centre, nowhere.  Returns the area, or
 * -1. */
static int gm_exit(builder *b, int start, const int *cands, int n, const char *why, bool sides)
{
    GString *r = g_string_new(NULL), *again = g_string_new(NULL);
    pips_throw t;
    int pick = gm_throw_rooms(b, cands, n, sides, &t, r, again);
    const char *where = NULL;
    if (pick < 0 && sides)
        pick = gm_throw_sides(b, &t, r, again, &where);
    if (pick < 0 && sides && t.landing == CENTRE) {
        /* A way down is no room: the GM places nothing. */
        note(b, g_strdup_printf("the GM throws for one more exit (seed 003: \"If you decide you need more exits, "
                                "you can go back and place them manually\")%s; then %s: in the centre, a way down, "
                                "no room: none placed", again->str, r->str));
        g_string_free(again, TRUE);
        g_string_free(r, TRUE);
        return -1;
    }
    if (pick < 0)
        pick = cands[0];   /* it fits nowhere: the first, on another wall */
    if (again->len)
        g_string_append(again, ", thrown again");
    note(b, g_strdup_printf("the GM adds an exit to %s%s%d%s (seed 003: \"If you decide you need more exits, you "
                            "can go back and place them manually\"; the die thrown first, the exit placed where "
                            "it fits%s)", where ? where : "area", where ? ", junction " : " ", area_at(b, pick)->key, why,
                            again->str));
    g_string_free(again, TRUE);
    open_end e = { .kind = END_EXIT, .area = pick, .entered = -1, .throws = 1 };
    exits_throws_with(b, &e, pick == start, &t, r->str);
    g_string_free(r, TRUE);
    process(b, start);
    return pick;
}

/* Whether the GM adds one more exit, @added so far: while the node has
 * fewer than MIN_ROOMS rooms, MAX_ADDED at most; fewer than FEWEST_ROOMS,
 * up to MAX_ADDED_FEWEST (issue #22: no sublevel of one to three rooms). */
static bool wants_more(const builder *b, int added)
{
    if (b->full)
        return false;
    return (b->rooms < MIN_ROOMS && added < MAX_ADDED) || (b->rooms < FEWEST_ROOMS && added < MAX_ADDED_FEWEST);
}

/* Rooms a GM would add exits to, earliest first, until there are enough;
 * failing any, junctions and corridors' sides (gm_exit). */
static void more_exits(builder *b, int start)
{
    for (int added = 0, i = 0; wants_more(b, added); added++) {
        int na = (int)b->node->areas->len, n = 0;
        int *cands = g_new(int, na);
        for (int k = 0; k < na; k++) {
            int c = (i + k) % na;
            if (area_at(b, c)->kind == UCR_AREA_ROOM || c == start)
                cands[n++] = c;
        }
        if (n)
            i = gm_exit(b, start, cands, n, "", true) + 1;
        g_free(cands);
        if (!n)
            break;
    }
}

/* Seed 003's ways down, a fifth of the exit throws, crowd a node of ten
 * areas: often more than a quarter of them hold stairs before any stairs
 * from above land, and the node is a hub of landings (DESIGN "Levels":
 * about a quarter of its areas at most).  The GM goes back and adds exits
 * ("If you decide you need more exits, you can go back and place them
 * manually") while the stairs hold more than a quarter of the areas: to a
 * room with a free wall, one that holds stairs first (a staircase is a
 * crossroads; an exit thrown in the centre there finds that the room has
 * one already), else any, earliest first. */
static void more_exits_for_stairs(builder *b, int start)
{
    for (int added = 0; stairs_held(b) * 4 > (int)b->node->areas->len && !b->full && added < MAX_ADDED_FOR_STAIRS;
         added++) {
        int na = (int)b->node->areas->len, n = 0;
        int *cands = g_new(int, na);
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < na; i++)
                if ((pass ? area_at(b, i)->stair == UCR_STAIR_NONE : area_at(b, i)->stair != UCR_STAIR_NONE) &&
                    room_open(b, i))
                    cands[n++] = i;
        if (n) {
            char *why = g_strdup_printf(": %d of the %d areas hold stairs", stairs_held(b), na);
            gm_exit(b, start, cands, n, why, false);
            g_free(why);
        }
        g_free(cands);
        if (!n)
            return;
    }
}

static void node_clear(ucr_node *node)
{
    ucr_node *fresh = ucr_node_new(node->id, node->col, node->row);
    fresh->width = node->width;
    fresh->height = node->height;
    fresh->method = node->method;
    ucr_node tmp = *node;
    *node = *fresh;
    *fresh = tmp;
    ucr_node_free(fresh);
}

static bool draw(builder *b, const bool join_sides[4])
{
    plan *p = b->plan;
    for (int d = 0; d < 4; d++)
        p->join_passage[d] = p->join_area[d] = -1;
    p->start_landing = p->start_what = -1;
    int first = ucr_dice_d(b->rng, 4) - 1, side = -1;
    for (int k = 0; k < 4 && side < 0; k++)
        if (join_sides[(first + k) % 4])
            side = (first + k) % 4;
    /* By the other joined sides, rock for their tunnels' chambers: drawn
     * after the node from the area nearest the edge (edge_tunnel), a tunnel
     * from an area by the edge, the ways run along it, found none.  (The
     * start's tunnel keeps its own, tunnel_keeps_chamber.) */
    for (int d = 0; d < 4; d++) {
        b->margin[d] = join_sides[d] && d != side ? JOIN_MARGIN : 1;
        b->joined[d] = join_sides[d];
    }
    int start = start_draw(b, side);
    if (start < 0)
        return false;
    open_end e = { .kind = END_EXIT, .area = start, .entered = side, .throws = 1 };
    queue_end(b, e);
    process(b, start);
    more_exits(b, start);
    if (b->rooms == 0 || (b->want_four && b->rooms < 4))
        return false;   /* not one room, or under 4 where the GM's exits found
                         * no rock at all: the GM starts this sublevel again */
    more_exits_for_stairs(b, start);
    secret_doors(b);
    secret_doors_alongside(b);
    secret_doors_rooms(b);
    secret_doors_corridors(b);
    /* The other joined sides: a tunnel from the nearest area to the edge. */
    ucr_canvas *cv = ucr_attach_canvas(b->node);
    bool ok = true;
    for (int d = 0; d < 4; d++) {
        if (!join_sides[d] || d == side)
            continue;
        int ai = edge_tunnel(b, cv, (ucr_dir)d);
        if (ai < 0) {
            ok = false;
            break;
        }
        p->join_passage[d] = (int)b->node->passages->len - 1;
        p->join_area[d] = ai;
    }
    ucr_canvas_free(cv);
    return ok;
}

static void *pips_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                       const ucr_method_options *options)
{
    int mw, mh;
    ucr_node_size_extent(options ? options->node_size : UCR_NODE_STANDARD, MAP_W, MAP_H, &mw, &mh);
    plan *p = g_new0(plan, 1);
    p->exits = g_ptr_array_new_with_free_func(exit_stairs_free);
    p->node = ucr_node_new("?", 0, 0);
    p->node->method = "pips";
    p->node->width = mw;
    p->node->height = mh;
    /* After ATTEMPTS with no room (a pips-what that rarely gives one),
     * as many more that read a throw as a room until one is drawn.  The
     * first FOUR_TRIES also draw again a sublevel the GM's added exits
     * could not bring to 4 rooms (seed 003: "go back and place them
     * manually" needs rock to place them in; one pocket node in 9,000 had
     * its rock all beside a diagonal corridor). */
    int closed_at = 0;   /* rooms of the last try drawn again for want of 4 */
    for (int attempt = 0; attempt < 2 * ATTEMPTS; attempt++) {
        builder b = { 0 };
        b.room_first = attempt >= ATTEMPTS;
        b.pair_wall = -1;
        b.want_four = attempt < FOUR_TRIES;
        b.rng = rng;
        b.tables = tables;
        b.node = p->node;
        b.plan = p;
        b.cv = ucr_canvas_new(mw, mh);
        g_queue_init(&b.ends);
        bool ok = draw(&b, join_sides);
        ucr_canvas_free(b.cv);
        if (ok) {
            if (closed_at > 0)
                note(&b, g_strdup_printf("the sublevel drawn before closed at %d room%s, with no rock left for "
                                         "the GM's exits, so the GM drew it again (seed 003)",
                                         closed_at, closed_at == 1 ? "" : "s"));
            break;
        }
        if (b.want_four && b.rooms > 0 && b.rooms < 4)
            closed_at = b.rooms;
        if (attempt == 2 * ATTEMPTS - 1) {
            p->node->unplaced++;
            note(&b, g_strdup("no sublevel with a room and every joined map side reached"));
            break;
        }
        node_clear(p->node);
        g_ptr_array_set_size(p->exits, 0);
    }
    return p;
}

static void pips_exits(void *vp, GPtrArray *out)
{
    plan *p = vp;
    for (guint i = 0; i < p->exits->len; i++)
        g_ptr_array_add(out, &((exit_stairs *)g_ptr_array_index(p->exits, i))->step);
}

static bool arrives_up(ucr_stair s)
{
    return s == UCR_STAIR_UP || s == UCR_LADDER_UP;
}

/* What embed's landing choices share. */
typedef struct {
    const plan *plan;
    bool start_used;
    bool none_agrees;   /* no stairs from above agree with the start (start_agrees) */
    int *held;          /* per area: flights of stairs it holds (the areas
                         * drawn in roll, and 0 for landings added since) */
    int n_held;         /* areas that hold some */
    int areas;          /* areas drawn in roll */
} embed_state;

/* Whether stairs @arr may come down at the start: stairs with no throw for
 * the next floor, or whose throw found what the start's own throw found at
 * the foot of its stairs. */
static bool start_agrees(const plan *p, const ucr_arrival *arr)
{
    return arrives_up(arr->stair) && (!arr->hint || (int)arr->hint->what == p->start_what);
}

/* "stairs down": the first stairs that arrive from above land at the start
 * (ucr_embed_arrivals' first choice) if they agree with it (start_agrees);
 * the others come down where their throw says (ucr_embed_hinted()) or get
 * landings of their own.  When none agrees, the first from above comes down
 * at the start all the same: the node was drawn from that start, and its
 * own throw is the seed's "roll one die to determine what is at the end of
 * the tunnel or staircase". */
static int landing_at_start(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arr, void *data)
{
    (void)cv;
    embed_state *es = data;
    const plan *p = es->plan;
    bool agrees = start_agrees(p, arr);
    if (p->start_landing < 0 || es->start_used || !arrives_up(arr->stair) || (!agrees && !es->none_agrees)) {
        /* Where one more landing would make the node a hub of landings
         * (its ways down hold a quarter of its areas; DESIGN "Levels"),
         * stairs whose throw finds one of them come down there: two
         * flights in one hall, the throw still true. */
        if ((es->n_held + 1) * 4 <= es->areas + 1)
            return -1;
        int li = ucr_embed_hinted_shared(node, arr, es->held, UCR_EMBED_FLIGHTS_MAX, NULL);
        if (li >= 0)
            es->held[li]++;
        return li;
    }
    ucr_area *a = &g_array_index(node->areas, ucr_area, p->start_landing);
    a->stair = arr->stair;
    if (arr->hint) {
        char *old = a->rolled;
        a->rolled = g_strdup_printf(agrees ? "%s; the die thrown above for the next floor found the same: %s (%s)"
                                           : "%s; the die thrown above for the next floor said %s (%s), but the "
                                             "stairs from above come down at the start all the same",
                                    old, ucr_hint_what_name(arr->hint->what), arr->hint->rolled);
        g_free(old);
    }
    es->start_used = true;
    return p->start_landing;
}

/* Where no landing fits beside an area (ucr_embed_arrivals' fallback): the
 * end of a dead end, else, with no rock left for a landing, the middle of a
 * room, as seed 003's own stairs do. */
static int landing_fallback(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arr, void *data)
{
    (void)data;
    int li = ucr_embed_landing_dead_end(node, cv, arr->stair, UCR_EMBED_ANYWHERE);
    for (guint r = 0; li < 0 && r < node->areas->len; r++) {
        ucr_area *a = &g_array_index(node->areas, ucr_area, r);
        if (a->kind == UCR_AREA_ROOM && a->stair == UCR_STAIR_NONE && a->link < 0) {
            a->stair = arr->stair;
            li = (int)r;
        }
    }
    return li;
}

static ucr_node *pips_embed(void *vp, const char *id, int col, int row, const ucr_node_request *req,
                            ucr_prng *rng, GError **error)
{
    plan *p = vp;
    ucr_node *node = ucr_embed_take(&p->node, id, col, row, "pips", error);
    if (!node)
        return NULL;
    for (guint i = 0; i < p->exits->len; i++) {
        const exit_stairs *ex = g_ptr_array_index(p->exits, i);
        if (ex->step.link >= 0)
            req->link_area[ex->step.link] = ex->area;
    }
    ucr_embed_joins_drawn(node, req, p->join_passage, p->join_area);
    embed_state es = { p, false, true, NULL, 0, (int)node->areas->len };
    for (int k = 0; k < req->n_arrivals; k++)
        es.none_agrees &= !start_agrees(p, &req->arrivals[k]);
    /* Room for the landings the arrivals add, one area each at most. */
    es.held = g_new0(int, es.areas + req->n_arrivals + 1);
    for (guint i = 0; i < p->exits->len; i++) {
        const exit_stairs *ex = g_ptr_array_index(p->exits, i);
        es.n_held += !es.held[ex->area]++;
    }
    if (p->start_landing >= 0)
        es.n_held++;   /* the start's stairs, where the first stairs from above come down */
    ucr_embed_arrivals(node, req, rng, landing_at_start, landing_fallback, &es);
    g_free(es.held);
    if (p->start_landing >= 0 && !es.start_used) {
        /* No stairs come down here: the start is the foot of a stair that
         * leads nowhere any more. */
        ucr_area *a = &g_array_index(node->areas, ucr_area, p->start_landing);
        a->kind = UCR_AREA_JUNCTION;
        a->stair = UCR_STAIR_NONE;
        g_free(a->rolled);
        a->rolled = g_strdup("the start: the foot of a collapsed stair");
    }
    /* Areas added by the attachments are numbered after the rest. */
    return node;
}

static void pips_free(void *vp)
{
    plan *p = vp;
    if (!p)
        return;
    ucr_node_free(p->node);
    g_ptr_array_free(p->exits, TRUE);
    g_free(p);
}

/* seed 003 (templates/tables/pips-*.txt): one throw of the die read three
 * ways, and the rolls its rules add; the kinds this file acts on. */
static const char *const PIPS_WHAT_KINDS[] = { "dead-end", "corridor", "corridor-twice", "room",
                                               "room-twice", "long-room", NULL };
static const char *const PIPS_LANDING_KINDS[] = { "north", "east", "south", "west", "centre", NULL };
static const char *const PIPS_LIE_KINDS[] = { "square", "turned-left", "turned-right", NULL };
static const char *const PIPS_DOWN_KINDS[] = { "stairs", "trapdoor", NULL };
static const char *const PIPS_CROSS_KINDS[] = { "under", "over", "slope-under", "slope-over", NULL };
static const char *const PIPS_SECRET_KINDS[] = { "secret", "none", NULL };
static const ucr_table_need PIPS_NEEDS[] = {
    { "pips-what", PIPS_WHAT_KINDS, NULL, FALSE },
    { "pips-landing", PIPS_LANDING_KINDS, NULL, FALSE },
    { "pips-lie", PIPS_LIE_KINDS, NULL, FALSE },
    { "pips-down", PIPS_DOWN_KINDS, NULL, FALSE },
    { "pips-cross", PIPS_CROSS_KINDS, NULL, FALSE },
    { "pips-secret", PIPS_SECRET_KINDS, NULL, FALSE },
    { "pips-room", NULL, NULL, TRUE },
    { "pips-long-room", NULL, NULL, TRUE },
    { NULL, NULL, NULL, FALSE },
};
static const ucr_table_need *const PIPS_TABLES[] = { PIPS_NEEDS, NULL };

/* Seed 003's rooms come from the pips (4-5 a room, 6 an elongated room):
 * a pips-what with no room face makes corridors only, and a node needs
 * rooms for its tunnels and stairs to arrive in. */
static gboolean pips_tables_check(const ucr_tables *tables, GError **error)
{
    const ucr_table *t = ucr_tables_need(tables, "pips-what");
    ucr_hint_what h = hint_what_of(room_row(tables)->tag);
    if (h == UCR_HINT_ROOM || h == UCR_HINT_LONG_ROOM)
        return TRUE;
    g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                "%s:%d: no row of pips-what makes a room ([room], [room-twice] or [long-room]): the pips "
                "method draws its rooms from these faces, and a node needs rooms",
                t->path, g_array_index(t->rows, ucr_table_row, 0).line);
    return FALSE;
}

/* The rules of this method the map can override, for the drawn-as-rolled
 * report (key/honour.c); tests/honour_recount.py reads the same records. */
static const ucr_honour_rule PIPS_RULES[] = {
    { "a way meets the map: it crosses as stairs or a slope (seed 003)",
      "blocked(?:, the map's edge beyond what it meets,)? after [0-9]+ ft|pips-cross 1d[0-9]+=[0-9]+",
      { { "blocked, the map's edge beyond what it meets, after [0-9]+ ft", "the map's edge beyond it" },
        { "blocked after [0-9]+ ft", "blocked: cut short" } } },
    { "a way runs as long as rolled: 60 ft, or 20 ft to a dead end (seed 003)",
      "→ (?:60 ft of corridor|20 ft, dead end)",
      { { "at the map's edge after [0-9]+ ft → ", "the map's edge" },
        { "blocked, the map's edge beyond what it meets, after [0-9]+ ft → ", "runs into the map, its edge beyond" },
        { "blocked after [0-9]+ ft → ", "runs into the map: cut short" },
        { "beside the map after [0-9]+ ft → ", "beside the map: no way past" } } },
    { "the way out by the wall the die landed by (seed 003)",
      "\\(landed (?:north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) (?:\\(that wall (?:is taken|faces)|→ (?:wall|corner) |→ every wall)",
      { { "\\(landed (?:north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) \\(that wall is taken",
          "that wall taken: another" },
        { "\\(landed (?:north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) \\(that wall faces the map's edge",
          "that wall on the map's edge: another" },
        { "\\(landed (?:north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) → every wall is taken",
          "every wall taken: walled up" } } },
    { "4-6: a room drawn (seed 003)",
      "pips-what 1d6=[456] \\(",
      { { "→ no room for it: a dead end", "no room: a dead end" } } },
    { NULL, NULL, { { NULL, NULL } } },
};
static const ucr_honour_rule *const PIPS_HONOUR[] = { PIPS_RULES, NULL };

const ucr_node_method ucr_method_pips = {
    .honour = PIPS_HONOUR,
    .name = "pips",
    .seeds = "003",
    .summary = "Simple Random Dungeon: one d6 per piece, pips as mnemonics (1 dead end, 2-3 corridor, 4-5 room, "
               "6 long room), dice-map direction, a turned die makes diamonds and diagonal corridors",
    .roll = pips_roll,
    .exits = pips_exits,
    .embed = pips_embed,
    .free = pips_free,
    .tables = PIPS_TABLES,
    .tables_check = pips_tables_check,
    .sized = true,
};
