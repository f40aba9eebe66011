#include "gen/methods/leximorph.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "core/error.h"
#include "gen/kit/attach.h"
#include "gen/kit/canvas.h"
#include "gen/kit/embed.h"

/* Map layout: a margin of squares around the letters (superstructure
 * tunnels, rooms off the outer tunnels) and a gap between sectors
 * (connectors) — the roomy ones, or where those keep the word from one
 * printed page, the tight ones. */
typedef struct {
    int margin, gap;
} spacing;
static const spacing ROOMY = { 5, 6 }, TIGHT = { 3, 4 }, SNUG = { 2, 3 };
/* Squares per character of the letters file: at most MAX_SCALE; at least
 * PAGE_SCALE for the map to be sized to a page (below it strokes crowd out
 * the rooms the d6 and d8 grow); MIN_SCALE for the largest letters a file
 * may draw, in a map of at most MAX_W x MAX_H. */
enum { MAX_SCALE = 5, PAGE_SCALE = 3, MIN_SCALE = 2, MAX_W = 62, MAX_H = 62 };
/* Issue #11, the reader sees the word: a map of at most PAGE_W x PAGE_H
 * squares, or TURNED_W x TURNED_H (wider than tall), prints whole on one
 * page of every shipped template — A4 and Letter at about 4 mm a square,
 * A5 and digest at their whole-square, 2.5 mm, or more (layout/booklet.c);
 * the title and scale bar take the rest of the page. */
enum { PAGE_W = 44, PAGE_H = 66, TURNED_W = 76, TURNED_H = 36 };
/* Issue #21, the standard map printed whole on one page (A4, Letter) or a
 * spread (A5, digest): the standard bound (ucr_node_size_extent) and
 * STD_SLACK more each way, as the sheet crops a leximorph map to what is
 * drawn; or wider than tall, at most STD_TURNED_W x STD_TURNED_H (a page
 * turned to landscape, an A5 spread).  The four letters at four squares a
 * character with tight spacing are 44 x 44: 3.98 mm a square on A4 at
 * worst.  A margin of 2 would print them at 4.17 mm, but the superstructure
 * tunnels need the margin's three squares of rock for their chambers (seed
 * 004's rooms on a tunnel: check_attach), and at three squares a character
 * the rooms the d6 and d8 grow fall from 22 to 15 a node. */
enum { STD_SLACK = 4, STD_TURNED_W = 57, STD_TURNED_H = 36 };
enum { ATTEMPTS = 16, TURN_COST = 4 };
/* Canvas owners while the template is drawn. */
enum { OWN_LETTER = 300000, OWN_LINK = 400000 };


/* The index of @tag in @kinds, from 1; the tables' loader has checked it is there. */
static int kind_index(const char *const *kinds, const char *tag)
{
    for (int i = 0; kinds[i]; i++)
        if (tag && strcmp(kinds[i], tag) == 0)
            return i + 1;
    return 1;
}

char ucr_leximorph_letter(const ucr_table_row *row)
{
    /* seed 002: "0 R, 1 A, 2 D, 3 T, 4 Q, 5 L, 6 X, 7 P, 8 B, 9 lowercase g" */
    return row->text[0];
}

int ucr_leximorph_rotation(const ucr_table_row *row)
{
    static const char *const kinds[] = { "upright", "clockwise", "upside-down", "counter-clockwise", NULL };
    return kind_index(kinds, row->tag);
}

ucr_lexi_junction ucr_leximorph_junction(const ucr_table_row *row)
{
    static const char *const kinds[] = { "ordinary", "trapped", "disabled", "obstacle", "door", "room", NULL };
    return (ucr_lexi_junction)kind_index(kinds, row->tag);
}

const char *ucr_leximorph_junction_name(ucr_lexi_junction j)
{
    switch (j) {
    case UCR_LEXI_ORDINARY: return "ordinary junction";
    case UCR_LEXI_TRAPPED: return "trapped junction";
    case UCR_LEXI_TRAPPED_DISABLED: return "trapped junction (disabled)";
    case UCR_LEXI_OBSTACLE: return "minor obstacle";
    case UCR_LEXI_DOOR: return "door";
    case UCR_LEXI_ROOM: return "room";
    }
    return "?";
}

ucr_lexi_side ucr_leximorph_side(const ucr_table_row *row)
{
    static const char *const kinds[] = { "blank", "secret", "branch", "diagonals", "blocked", "door",
                                         "door-pair", "stairs", NULL };
    return (ucr_lexi_side)kind_index(kinds, row->tag);
}

const char *ucr_leximorph_side_name(ucr_lexi_side s)
{
    switch (s) {
    case UCR_LEXI_BLANK: return "blank wall";
    case UCR_LEXI_SECRET_DOOR: return "blank wall with secret door";
    case UCR_LEXI_BRANCH: return "branch/side passage";
    case UCR_LEXI_DIAGONALS: return "two diagonal passages";
    case UCR_LEXI_BLOCKED: return "blocked passage";
    case UCR_LEXI_SIDE_DOOR: return "door";
    case UCR_LEXI_DOOR_PAIR: return "pair of doors, side by side";
    case UCR_LEXI_STAIRS: return "stairs";
    }
    return "?";
}

/* ---- plan --------------------------------------------------------------- */

typedef struct {
    ucr_glyph g;          /* rotated */
    char rolled[96];
    int x0, y0;           /* map square of the glyph's cell (0, 0) */
    GArray *squares;      /* ucr_point: its skeleton on the map */
    GArray *strokes;      /* int per square: its stroke (-1: a cell's own square) */
} letter;

typedef struct {
    ucr_step step;
    int area;
} exit_stairs;

struct ucr_leximorph_plan {
    ucr_node *node;
    int nletters;
    letter letters[UCR_LEXI_MAX_SECTORS];
    int cols, rows, scale, margin, gap, w, h;
    int margin_x, margin_y;   /* the margins as drawn: a pocket map's grown to its bound */
    int margin_e, gap_x;      /* the east margin and the gap between columns, when narrowed */
    guint8 *skeleton;
    GPtrArray *exits;     /* exit_stairs*, owned */
    int join_passage[4], join_area[4];
    bool too_small;       /* the letters do not fit the node size's bound */
    bool failed;          /* no attempt joined the letters into one network */
};

/* A junction or room of the template, before it becomes a model area. */
typedef struct {
    int x, y, w, h;
    ucr_area_kind kind;
    ucr_area_feature feature;
    char *rolled;
    ucr_point at;         /* its skeleton square */
    ucr_point door_cell;  /* d6 door: the tunnel square beyond it (door_set) */
    bool door_set;
    bool feature_rolled;  /* junction_roll rolled its d6 */
} proto;

typedef enum { END_AREA, END_DEAD, END_EXIT } end_kind;

typedef struct {
    GArray *sq;           /* ucr_point, from end a to end b */
    int a;                /* proto at end a */
    end_kind bk;
    int b;                /* proto at end b (END_AREA) */
    int join_side;        /* ucr_dir of the superstructure tunnel, or -1 */
} chain;

/* A 60-ft check that found something: what opens off each side. */
typedef struct {
    int proto;
    ucr_dir heading;      /* along the tunnel, a → b */
    ucr_lexi_side left, right;
    char where[64];
} side_task;

/* A side passage's room that goes on to the room next door (way_onward). */
typedef struct {
    int room, from;
    ucr_dir ahead;
    char *rolled;
    bool door;            /* a room behind a door, not a side passage's */
} onward;

typedef struct {
    ucr_leximorph_plan *plan;
    ucr_prng *rng;
    const ucr_tables *tables;
    const bool *join_sides;
    ucr_node *node;
    ucr_canvas *cv;
    int W, H, S;
    guint8 *sk;           /* template squares */
    guint8 *forced;       /* must be a junction (connector and tunnel ends) */
    guint8 *exitsq;       /* where a superstructure tunnel leaves the map */
    int *own;             /* proto owning an area square, or -1 */
    int *cid, *cpos;      /* chain and index of a chain square, or -1 */
    GArray *protos;       /* proto */
    GArray *chains;       /* chain */
    GArray *tasks;        /* side_task */
    GArray *onwards;      /* onward */
    int link_letters[2 * UCR_LEXI_MAX_SECTORS][2];
    int nlinks;
    bool loose;           /* crowded: new things may touch others corner to corner */
    int closet;           /* the largest room (in squares) a counter may hold */
    int grow_margin;      /* squares a grown room keeps from the map edge */
    guint8 *hole;         /* a letter's counter (the inside of an O), or NULL */
    guint8 *dg;           /* a template square's corner-to-corner joins (diag_bit) */
    guint8 *dside;        /* beside a diagonal step of the template: stays rock */
    int *stroke;          /* the letter stroke a template square lies on, or -1 */
    GArray *stroke_left;  /* int per stroke: its squares not (yet) under a room */
    int *line[2];         /* the letter line (row, column) a template square lies on, or -1 */
    GArray *lines;        /* line_count per line */
} ctx;

/* A straight line of a letter: a run of its squares along a row or a
 * column, two strokes long or more (the T's bar and its stem, each side of
 * an O).  Rooms grown on it leave at least half of it tunnel, so that the
 * line still reads as the letter's. */
typedef struct {
    int len, under;
} line_count;

static int idx(const ctx *c, ucr_point p)
{
    return p.y * c->W + p.x;
}

static bool inside(const ctx *c, ucr_point p)
{
    return p.x >= 0 && p.y >= 0 && p.x < c->W && p.y < c->H;
}

static bool sk_at(const ctx *c, ucr_point p)
{
    return inside(c, p) && c->sk[idx(c, p)];
}

static ucr_dir dir_between(ucr_point a, ucr_point b)
{
    if (b.x > a.x) return UCR_EAST;
    if (b.x < a.x) return UCR_WEST;
    if (b.y > a.y) return UCR_SOUTH;
    return UCR_NORTH;
}

/* The d8's pair of doors, as `undercroft stats` names the rule (ucr_outcome). */
#define UCR_LEXI_PAIR_RULE "d8 pair of doors: drawn as a pair (seed 002)"

static void roll_add(ctx *c, char *text)
{
    g_ptr_array_add(c->node->rolls, text);
}

/* ---- the template: letters, connectors, superstructure tunnels ---------- */

static void sk_set(ctx *c, ucr_point p, int owner)
{
    c->sk[idx(c, p)] = 1;
    ucr_canvas_set(c->cv, p, owner);
}

static ucr_point cell_square(const ctx *c, const letter *L, int x, int y)
{
    return (ucr_point){ L->x0 + x * c->S, L->y0 + y * c->S };
}

/* The bit of c->dg for the corner-to-corner step (@dx, @dy). */
static guint8 diag_bit(int dx, int dy)
{
    return (guint8)(1u << ((dx > 0 ? 1 : 0) | (dy > 0 ? 2 : 0)));
}

/* A new letter stroke (between two cells of the letters file): its squares
 * are counted so that rooms grown on it leave one to be seen. */
static int stroke_new(ctx *c)
{
    int zero = 0;
    g_array_append_val(c->stroke_left, zero);
    return (int)c->stroke_left->len - 1;
}

static void stroke_add(ctx *c, int st, ucr_point p)
{
    c->stroke[idx(c, p)] = st;
    g_array_index(c->stroke_left, int, st)++;
}

/* A diagonal stroke of letter @i (letters.h: a run): one square straight
 * out of each end, by the side the letters file chose, and at 45 degrees
 * between, so that a junction at either end is entered side by side as
 * the model wants.  The squares beside each 45-degree step stay rock. */
static void run_draw(ctx *c, int i, const ucr_glyph_run *r)
{
    letter *L = &c->plan->letters[i];
    ucr_point p = cell_square(c, L, r->x[0], r->y[0]), q = cell_square(c, L, r->x[1], r->y[1]);
    ucr_point a = ucr_point_step(p, (ucr_dir)r->leave[0]), b = ucr_point_step(q, (ucr_dir)r->leave[1]);
    int dx = b.x > a.x ? 1 : -1, dy = b.y > a.y ? 1 : -1;
    int st = stroke_new(c);
    for (ucr_point s = a;; s = (ucr_point){ s.x + dx, s.y + dy }) {
        sk_set(c, s, OWN_LETTER + i);
        stroke_add(c, st, s);
        g_array_append_val(L->squares, s);
        g_array_append_val(L->strokes, st);
        if (s.x == b.x)
            break;
        ucr_point t = { s.x + dx, s.y + dy };
        c->dg[idx(c, s)] |= diag_bit(dx, dy);
        c->dg[idx(c, t)] |= diag_bit(-dx, -dy);
        ucr_point side[2] = { { t.x, s.y }, { s.x, t.y } };
        for (int k = 0; k < 2; k++) {
            c->dside[idx(c, side[k])] = 1;
            ucr_canvas_set(c->cv, side[k], OWN_LETTER + i);
        }
    }
}

static void letter_draw(ctx *c, int i)
{
    letter *L = &c->plan->letters[i];
    g_array_set_size(L->squares, 0);
    g_array_set_size(L->strokes, 0);
    for (int k = 0; k < L->g.nruns; k++)
        run_draw(c, i, &L->g.runs[k]);
    for (int y = 0; y < L->g.h; y++)
        for (int x = 0; x < L->g.w; x++) {
            /* A diagonal stroke passes beside its inner cells. */
            if (!L->g.cell[y][x] || ucr_glyph_inner(&L->g, x, y))
                continue;
            ucr_point p = { L->x0 + x * c->S, L->y0 + y * c->S };
            sk_set(c, p, OWN_LETTER + i);
            g_array_append_val(L->squares, p);
            int none = -1;
            g_array_append_val(L->strokes, none);
            /* The tunnel to the next '#' east and south. */
            if (x + 1 < L->g.w && L->g.cell[y][x + 1]) {
                int st = stroke_new(c);
                for (int k = 1; k < c->S; k++) {
                    ucr_point q = { p.x + k, p.y };
                    sk_set(c, q, OWN_LETTER + i);
                    stroke_add(c, st, q);
                    g_array_append_val(L->squares, q);
                    g_array_append_val(L->strokes, st);
                }
            }
            if (y + 1 < L->g.h && L->g.cell[y + 1][x]) {
                int st = stroke_new(c);
                for (int k = 1; k < c->S; k++) {
                    ucr_point q = { p.x, p.y + k };
                    sk_set(c, q, OWN_LETTER + i);
                    stroke_add(c, st, q);
                    g_array_append_val(L->squares, q);
                    g_array_append_val(L->strokes, st);
                }
            }
        }
}

/* Numbers the straight lines of every letter (line_count) in c->line. */
static void lines_mark(ctx *c)
{
    int n = c->W * c->H;
    guint8 *mine = g_new(guint8, n);
    for (int axis = 0; axis < 2; axis++)
        for (int i = 0; i < n; i++)
            c->line[axis][i] = -1;
    for (int li = 0; li < c->plan->nletters; li++) {
        const GArray *sq = c->plan->letters[li].squares;
        memset(mine, 0, (size_t)n);
        for (guint k = 0; k < sq->len; k++)
            mine[idx(c, g_array_index(sq, ucr_point, k))] = 1;
        for (int axis = 0; axis < 2; axis++)
            for (int a = 0; a < (axis ? c->W : c->H); a++) {
                int run = 0, len = axis ? c->H : c->W;
                for (int b = 0; b <= len; b++) {
                    ucr_point p = axis ? (ucr_point){ a, b } : (ucr_point){ b, a };
                    if (b < len && mine[idx(c, p)]) {
                        run++;
                        continue;
                    }
                    if (run >= 2 * c->S + 1) {
                        line_count lc = { run, 0 };
                        g_array_append_val(c->lines, lc);
                        for (int k = 1; k <= run; k++) {
                            ucr_point q = axis ? (ucr_point){ a, b - k } : (ucr_point){ b - k, a };
                            c->line[axis][idx(c, q)] = (int)c->lines->len - 1;
                        }
                    }
                    run = 0;
                }
            }
    }
    g_free(mine);
}

/* Does the rectangle leave every letter line it lies on at least half
 * tunnel (line_count)?  With @take, counts its squares as under a room. */
static bool lines_room(ctx *c, int x, int y, int w, int h, bool take)
{
    int which[16], count[16], nw = 0;
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++)
            for (int axis = 0; axis < 2; axis++) {
                int l = c->line[axis][j * c->W + i];
                if (l < 0)
                    continue;
                int k = 0;
                while (k < nw && which[k] != l)
                    k++;
                if (k == nw) {
                    if (nw == 16)
                        return false;
                    which[nw] = l;
                    count[nw++] = 0;
                }
                count[k]++;
            }
    for (int k = 0; k < nw; k++) {
        line_count *lc = &g_array_index(c->lines, line_count, which[k]);
        if (take)
            lc->under += count[k];
        else if (2 * (lc->under + count[k]) > lc->len)
            return false;
    }
    return true;
}

/* Cells of @g that are its outermost '#' towards @d in their row or column. */
static int glyph_ends(const ucr_glyph *g, ucr_dir d, int out[][2])
{
    int n = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            if (!g->cell[y][x] || ucr_glyph_inner(g, x, y))
                continue;
            bool outer = true;
            int dx = d == UCR_EAST ? 1 : d == UCR_WEST ? -1 : 0;
            int dy = d == UCR_SOUTH ? 1 : d == UCR_NORTH ? -1 : 0;
            for (int k = 1; outer && x + k * dx >= 0 && x + k * dx < g->w && y + k * dy >= 0 &&
                            y + k * dy < g->h; k++)
                if (g->cell[y + k * dy][x + k * dx])
                    outer = false;
            if (outer) {
                out[n][0] = x;
                out[n][1] = y;
                n++;
            }
        }
    return n;
}

static void path_claim(ctx *c, GArray *path, int owner)
{
    for (guint k = 0; k < path->len; k++)
        sk_set(c, g_array_index(path, ucr_point, k), owner);
}

typedef struct { int cost; ucr_point a, b; } end_pair;

static int pair_order(const void *x, const void *y)
{
    const end_pair *p = x, *q = y;
    if (p->cost != q->cost)
        return p->cost - q->cost;
    if (p->a.y != q->a.y)
        return p->a.y - q->a.y;
    if (p->a.x != q->a.x)
        return p->a.x - q->a.x;
    if (p->b.y != q->b.y)
        return p->b.y - q->b.y;
    return p->b.x - q->b.x;
}

static int manhattan(ucr_point a, ucr_point b)
{
    return abs(a.x - b.x) + abs(a.y - b.y);
}

/* A connector's first and last squares: beside its ends, towards each other. */
static ucr_point pair_from(const end_pair *p, ucr_dir d)
{
    return ucr_point_step(p->a, d);
}

static ucr_point pair_to(const end_pair *p, ucr_dir d)
{
    return ucr_point_step(p->b, (ucr_dir)((d + 2) % 4));
}

/* The corridor between the ends @p of letters @i and @j, or NULL. */
static GArray *pair_route(const ctx *c, const end_pair *p, int i, int j, ucr_dir d)
{
    return ucr_canvas_route(c->cv, pair_from(p, d), OWN_LETTER + i, pair_to(p, d), OWN_LETTER + j, TURN_COST);
}

/* seed 002: "Make sure each letter touches the adjacent letters, so that
 * there aren't any disconnected lines": a connector from letter @i towards
 * @d to letter @j, between their nearest facing ends. */
static bool letters_connect(ctx *c, int i, int j, ucr_dir d)
{
    const letter *A = &c->plan->letters[i], *B = &c->plan->letters[j];
    int ea[UCR_GLYPH_MAX * UCR_GLYPH_MAX][2], eb[UCR_GLYPH_MAX * UCR_GLYPH_MAX][2];
    int na = glyph_ends(&A->g, d, ea), nb = glyph_ends(&B->g, (ucr_dir)((d + 2) % 4), eb);
    end_pair *pairs = g_new(end_pair, na * nb);
    int np = 0;
    for (int a = 0; a < na; a++)
        for (int b = 0; b < nb; b++) {
            ucr_point pa = cell_square(c, A, ea[a][0], ea[a][1]);
            ucr_point pb = cell_square(c, B, eb[b][0], eb[b][1]);
            bool across = d == UCR_EAST || d == UCR_WEST;
            int off = across ? abs(pa.y - pb.y) : abs(pa.x - pb.x);
            int along = across ? abs(pa.x - pb.x) : abs(pa.y - pb.y);
            pairs[np++] = (end_pair){ off * 3 + along, pa, pb };
        }
    qsort(pairs, (size_t)np, sizeof *pairs, pair_order);
    GArray *path = NULL;
    int chosen = -1;
    for (int k = 0; k < np && !path; k++) {
        path = pair_route(c, &pairs[k], i, j, d);
        chosen = path ? k : -1;
    }
    /* The nearest ends' way may be cut (by a connector drawn before, or
     * the letter's own strokes): the router then goes all round a letter,
     * one square off its strokes, and the 60-ft checks on those strokes
     * find rock one square deep, never room for what they roll (issue 11:
     * every attempt, since moving the letters a square changes nothing).
     * A corridor more than twice the straight way is such a ring: the
     * ends whose corridor is shortest join instead, as a hand drawing the
     * template would. */
    int straight = path ? manhattan(pair_from(&pairs[chosen], d), pair_to(&pairs[chosen], d)) + 1 : 0;
    if (path && (int)path->len > 2 * straight) {
        for (int k = chosen + 1; k < np; k++) {
            GArray *other = pair_route(c, &pairs[k], i, j, d);
            if (other && other->len < path->len) {
                g_array_free(path, TRUE);
                path = other;
                chosen = k;
            } else if (other) {
                g_array_free(other, TRUE);
            }
        }
    }
    bool done = path != NULL;
    if (done) {
        c->link_letters[c->nlinks][0] = i;
        c->link_letters[c->nlinks][1] = j;
        path_claim(c, path, OWN_LINK + c->nlinks);
        c->nlinks++;
        g_array_free(path, TRUE);
        c->forced[idx(c, pairs[chosen].a)] = 1;
        c->forced[idx(c, pairs[chosen].b)] = 1;
    }
    g_free(pairs);
    return done;
}

static ucr_point edge_square(const ctx *c, ucr_point p, ucr_dir d)
{
    switch (d) {
    case UCR_NORTH: return (ucr_point){ p.x, 0 };
    case UCR_SOUTH: return (ucr_point){ p.x, c->H - 1 };
    case UCR_WEST: return (ucr_point){ 0, p.y };
    default: return (ucr_point){ c->W - 1, p.y };
    }
}

static int edge_distance(const ctx *c, ucr_point p, ucr_dir d)
{
    switch (d) {
    case UCR_NORTH: return p.y;
    case UCR_SOUTH: return c->H - 1 - p.y;
    case UCR_WEST: return p.x;
    default: return c->W - 1 - p.x;
    }
}

typedef struct { int dist; ucr_point p; int letter; } edge_end;

static int edge_end_order(const void *x, const void *y)
{
    const edge_end *p = x, *q = y;
    if (p->dist != q->dist)
        return p->dist - q->dist;
    if (p->p.y != q->p.y)
        return p->p.y - q->p.y;
    return p->p.x - q->p.x;
}

/* A superstructure tunnel joins on side @d: from one of the outermost
 * letter ends on that side (1dN among them) straight out to the map edge. */
static bool join_route(ctx *c, ucr_dir d)
{
    GArray *ends = g_array_new(FALSE, FALSE, sizeof(edge_end));
    for (int i = 0; i < c->plan->nletters; i++) {
        const letter *L = &c->plan->letters[i];
        int e[UCR_GLYPH_MAX * UCR_GLYPH_MAX][2];
        int n = glyph_ends(&L->g, d, e);
        for (int k = 0; k < n; k++) {
            ucr_point p = cell_square(c, L, e[k][0], e[k][1]);
            edge_end ee = { edge_distance(c, p, d), p, i };
            g_array_append_val(ends, ee);
        }
    }
    g_array_sort(ends, edge_end_order);
    int outer = 0;
    edge_end *all = (edge_end *)ends->data;
    while (outer < (int)ends->len && all[outer].dist <= all[0].dist + c->S)
        outer++;
    int first = outer > 0 ? ucr_dice_d(c->rng, outer) - 1 : 0;
    bool done = false;
    for (int k = 0; k < (int)ends->len && !done; k++) {
        int e = k < outer ? (first + k) % outer : k;
        ucr_point from = ucr_point_step(all[e].p, d);
        ucr_point to = edge_square(c, all[e].p, d);
        if (c->forced[idx(c, all[e].p)] && ucr_canvas_owner(c->cv, from) != UCR_CANVAS_EMPTY)
            continue;
        GArray *path = ucr_canvas_route(c->cv, from, OWN_LETTER + all[e].letter, to, UCR_CANVAS_EMPTY,
                                        TURN_COST);
        if (!path)
            continue;
        path_claim(c, path, OWN_LINK + 100 + d);
        g_array_free(path, TRUE);
        c->forced[idx(c, all[e].p)] = 1;
        c->exitsq[idx(c, to)] = 1;
        done = true;
    }
    g_array_free(ends, TRUE);
    return done;
}

/* The counters of the letters (the inside of an A, B, D, O…): squares that
 * a letter's own strokes cut off from the map's edge.  Rooms there would
 * fill the letter in; kept to closets, the reader sees the word. */
static void holes_mark(ctx *c)
{
    for (int i = 0; i < c->plan->nletters; i++) {
        const GArray *sq = c->plan->letters[i].squares;
        if (!sq->len)
            continue;
        /* Within the letter's box and a ring of rock round it. */
        int x0 = INT_MAX, y0 = INT_MAX, x1 = INT_MIN, y1 = INT_MIN;
        for (guint k = 0; k < sq->len; k++) {
            ucr_point p = g_array_index(sq, ucr_point, k);
            x0 = MIN(x0, p.x - 1);
            y0 = MIN(y0, p.y - 1);
            x1 = MAX(x1, p.x + 1);
            y1 = MAX(y1, p.y + 1);
        }
        int w = x1 - x0 + 1, h = y1 - y0 + 1, n = w * h;
        guint8 *mark = g_new0(guint8, n);   /* 1 stroke, 2 outside */
        int *stack = g_new(int, n), top = 0;
        for (guint k = 0; k < sq->len; k++) {
            ucr_point p = g_array_index(sq, ucr_point, k);
            mark[(p.y - y0) * w + (p.x - x0)] = 1;
        }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if ((x == 0 || y == 0 || x == w - 1 || y == h - 1) && !mark[y * w + x]) {
                    mark[y * w + x] = 2;
                    stack[top++] = y * w + x;
                }
        while (top) {
            int j = stack[--top], x = j % w, y = j / w;
            int nb[4] = { x > 0 ? j - 1 : -1, x < w - 1 ? j + 1 : -1, y > 0 ? j - w : -1, y < h - 1 ? j + w : -1 };
            for (int d = 0; d < 4; d++)
                if (nb[d] >= 0 && !mark[nb[d]]) {
                    mark[nb[d]] = 2;
                    stack[top++] = nb[d];
                }
        }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (!mark[y * w + x] && inside(c, (ucr_point){ x0 + x, y0 + y }))
                    c->hole[(y0 + y) * c->W + x0 + x] = 1;
        g_free(mark);
        g_free(stack);
    }
}

/* Does the rectangle reach into a counter further than the squares along
 * the strokes (a room grown on a stroke), or at all (@any)? */
static bool rect_in_hole(const ctx *c, int x, int y, int w, int h, bool any)
{
    if (!c->hole)
        return false;
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) {
            ucr_point p = { i, j };
            if (!inside(c, p) || !c->hole[idx(c, p)])
                continue;
            if (any)
                return true;
            bool beside = false;
            for (int d = 0; d < 4; d++)
                beside |= sk_at(c, ucr_point_step(p, (ucr_dir)d));
            if (!beside)
                return true;
        }
    return false;
}

/* Room sizes for a way from @mouth: in a counter (closed all round by its
 * letter, so whatever leaves there stays there) only the closets at the end
 * of @sizes. */
static int sizes_from(const ctx *c, ucr_point mouth, int sizes[][2], int n)
{
    if (!c->hole || !inside(c, mouth) || !c->hole[idx(c, mouth)])
        return n;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (sizes[i][0] * sizes[i][1] <= 2) {
            sizes[k][0] = sizes[i][0];
            sizes[k][1] = sizes[i][1];
            k++;
        }
    return k;
}

/* ---- the template as junctions and tunnels ------------------------------ */

/* The template squares joined to @p: side by side, and corner to corner
 * along a diagonal stroke; returns how many (at most 8). */
static int sk_links(const ctx *c, ucr_point p, ucr_point out[8])
{
    int n = 0;
    for (int d = 0; d < 4; d++) {
        ucr_point q = ucr_point_step(p, (ucr_dir)d);
        if (sk_at(c, q))
            out[n++] = q;
    }
    guint8 dg = c->dg[idx(c, p)];
    for (int k = 0; dg && k < 4; k++)
        if (dg & (1u << k))
            out[n++] = (ucr_point){ p.x + ((k & 1) ? 1 : -1), p.y + ((k & 2) ? 1 : -1) };
    return n;
}

static int sk_degree(const ctx *c, ucr_point p)
{
    ucr_point nb[8];
    return sk_links(c, p, nb);
}

/* A bend of two side-by-side tunnels (a diagonal stroke turns without a
 * junction: it leaves its ends straight). */
static bool sk_is_corner(const ctx *c, ucr_point p)
{
    return sk_degree(c, p) == 2 && !c->dg[idx(c, p)] && !((sk_at(c, ucr_point_step(p, UCR_NORTH)) &&
                                      sk_at(c, ucr_point_step(p, UCR_SOUTH))) ||
                                     (sk_at(c, ucr_point_step(p, UCR_EAST)) &&
                                      sk_at(c, ucr_point_step(p, UCR_WEST))));
}

static const char *owner_words(ctx *c, ucr_point p, char *buf, size_t n)
{
    int o = ucr_canvas_owner(c->cv, p);
    if (o >= OWN_LETTER && o < OWN_LETTER + UCR_LEXI_MAX_SECTORS) {
        g_snprintf(buf, n, "%c", c->plan->letters[o - OWN_LETTER].g.name);
    } else if (o >= OWN_LINK && o < OWN_LINK + c->nlinks) {
        g_snprintf(buf, n, "the connector %c-%c",
                   c->plan->letters[c->link_letters[o - OWN_LINK][0]].g.name,
                   c->plan->letters[c->link_letters[o - OWN_LINK][1]].g.name);
    } else {
        g_snprintf(buf, n, "the superstructure tunnel");
    }
    return buf;
}

/* Which letters' tunnels meet at @p (for the record). */
static char *junction_words(ctx *c, ucr_point p)
{
    char a[48], b[48];
    owner_words(c, p, a, sizeof a);
    GString *s = g_string_new(NULL);
    bool corner = sk_is_corner(c, p) && !c->forced[idx(c, p)];
    g_string_append_printf(s, "%s of %s", corner ? "corner" : "junction", a);
    for (int d = 0; d < 4; d++) {
        ucr_point q = ucr_point_step(p, (ucr_dir)d);
        /* The same owner has the same words (no need to write them). */
        if (!sk_at(c, q) || ucr_canvas_owner(c->cv, q) == ucr_canvas_owner(c->cv, p))
            continue;
        owner_words(c, q, b, sizeof b);
        if (strcmp(a, b) != 0 && !strstr(s->str, b))
            g_string_append_printf(s, " and %s", b);
    }
    g_string_append_printf(s, " at (%d,%d)", p.x, p.y);
    return g_string_free(s, FALSE);
}

/* Junctions: ends of connectors and tunnels, every branching, every corner
 * (but not two side by side: a connector's jog is one bend). */
static bool template_trace(ctx *c)
{
    int n = c->W * c->H;
    guint8 *vk = g_new0(guint8, n);   /* 1 junction, 2 dead end, 3 exit */
    for (int y = 0; y < c->H; y++)
        for (int x = 0; x < c->W; x++) {
            ucr_point p = { x, y };
            if (!c->sk[idx(c, p)])
                continue;
            int deg = sk_degree(c, p);
            if (c->exitsq[idx(c, p)])
                vk[idx(c, p)] = 3;
            else if (deg >= 3 || c->forced[idx(c, p)])
                vk[idx(c, p)] = 1;
            else if (deg <= 1)
                vk[idx(c, p)] = 2;
        }
    bool any = false;
    for (int y = 0; y < c->H; y++)
        for (int x = 0; x < c->W; x++) {
            ucr_point p = { x, y };
            if (!c->sk[idx(c, p)] || vk[idx(c, p)] || !sk_is_corner(c, p))
                continue;
            bool beside = false;
            for (int d = 0; d < 4; d++) {
                ucr_point q = ucr_point_step(p, (ucr_dir)d);
                beside |= inside(c, q) && vk[idx(c, q)] == 1;
            }
            if (!beside)
                vk[idx(c, p)] = 1;
        }
    for (int i = 0; i < n; i++)
        any |= vk[i] == 1;
    for (int i = 0; i < n && !any; i++)
        if (c->sk[i] && !vk[i]) {
            vk[i] = 1;
            any = true;
        }
    /* Protos in reading order. */
    for (int i = 0; i < n; i++)
        c->own[i] = -1;
    for (int y = 0; y < c->H; y++)
        for (int x = 0; x < c->W; x++) {
            ucr_point p = { x, y };
            if (vk[idx(c, p)] != 1)
                continue;
            proto pr = { x, y, 1, 1, UCR_AREA_JUNCTION, UCR_FEATURE_NONE, NULL, p, { 0, 0 }, false, false };
            c->own[idx(c, p)] = (int)c->protos->len;
            g_array_append_val(c->protos, pr);
        }
    guint8 *used = g_new0(guint8, n);
    bool ok = true;
    for (guint pi = 0; pi < c->protos->len && ok; pi++) {
        ucr_point q = g_array_index(c->protos, proto, pi).at;
        ucr_point from[8];
        int nfrom = sk_links(c, q, from);
        for (int d = 0; d < nfrom && ok; d++) {
            ucr_point cur = from[d], prev = q;
            if (used[idx(c, cur)])
                continue;
            if (vk[idx(c, cur)] == 1) {
                ok = false;   /* two junctions side by side: no tunnel between */
                break;
            }
            chain ch = { g_array_new(FALSE, FALSE, sizeof(ucr_point)), (int)pi, END_AREA, -1, -1 };
            for (;;) {
                int v = vk[idx(c, cur)];
                if (v == 1) {
                    ch.b = c->own[idx(c, cur)];
                    break;
                }
                g_array_append_val(ch.sq, cur);
                used[idx(c, cur)] = 1;
                if (v == 2 || v == 3) {
                    ch.bk = v == 2 ? END_DEAD : END_EXIT;
                    break;
                }
                ucr_point next = cur, nb[8];
                int nn = sk_links(c, cur, nb);
                for (int e = 0; e < nn; e++)
                    if (!(nb[e].x == prev.x && nb[e].y == prev.y)) {
                        next = nb[e];
                        break;
                    }
                prev = cur;
                cur = next;
            }
            if (ch.bk == END_EXIT) {
                ucr_point e = g_array_index(ch.sq, ucr_point, ch.sq->len - 1);
                ch.join_side = e.y == 0 ? UCR_NORTH : e.y == c->H - 1 ? UCR_SOUTH
                               : e.x == 0 ? UCR_WEST : UCR_EAST;
            }
            g_array_append_val(c->chains, ch);
        }
    }
    g_free(used);
    g_free(vk);
    return ok;
}

static void chains_index(ctx *c)
{
    for (int i = 0; i < c->W * c->H; i++)
        c->cid[i] = c->cpos[i] = -1;
    for (guint k = 0; k < c->chains->len; k++) {
        const chain *ch = &g_array_index(c->chains, chain, k);
        for (guint i = 0; i < ch->sq->len; i++) {
            int j = idx(c, g_array_index(ch->sq, ucr_point, i));
            c->cid[j] = (int)k;
            c->cpos[j] = (int)i;
        }
    }
}

/* ---- rooms -------------------------------------------------------------- */

/* Room sizes to try, largest first: as rolled, turned, shrinking to 2x2,
 * then a 20×10-ft and a 10-ft closet rather than nothing. */
static int room_sizes(int w, int h, int out[][2])
{
    int n = 0;
    for (int s = 0; s < 12; s++) {
        int a = MAX(2, w - s), b = MAX(2, h - s);
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup |= (out[k][0] == a && out[k][1] == b);
        if (!dup) {
            out[n][0] = a;
            out[n][1] = b;
            n++;
        }
        dup = false;
        for (int k = 0; k < n; k++)
            dup |= (out[k][0] == b && out[k][1] == a);
        if (!dup) {
            out[n][0] = b;
            out[n][1] = a;
            n++;
        }
        if (a == 2 && b == 2)
            break;
    }
    static const int small[][2] = { { 2, 1 }, { 1, 2 }, { 1, 1 } };
    for (int k = 0; k < 3; k++) {
        out[n][0] = small[k][0];
        out[n][1] = small[k][1];
        n++;
    }
    return n;
}

static void room_roll(ctx *c, int *w, int *h, char *words, size_t n)
{
    int total = 0;
    const ucr_table_row *row = ucr_table_roll(c->tables->room_size, c->rng, &total);
    if (!ucr_table_parse_size(row->text, w, h)) {
        *w = 3;
        *h = 3;
    }
    g_snprintf(words, n, "room size %dd%d=%d: %s", c->tables->room_size->count,
               c->tables->room_size->sides, total, row->text);
}

static int offset_order(int k, int len)
{
    /* The k-th of 0..len-1 ordered from the middle outwards: mid, mid-1,
     * mid+1, mid-2, … */
    int mid = (len - 1) / 2, count = 0;
    for (int j = 0; j <= 2 * len; j++) {
        int v = mid + ((j % 2) ? -(j + 1) / 2 : j / 2);
        if (v < 0 || v >= len)
            continue;
        if (count++ == k)
            return v;
    }
    return 0;
}

/* Is @s beside a diagonal step of the template neither of whose squares
 * the rectangle swallows? */
static bool diag_side_kept(const ctx *c, ucr_point s, int x, int y, int w, int h)
{
    for (int d = 0; d < 4; d++) {
        ucr_point a = ucr_point_step(s, (ucr_dir)d), b = ucr_point_step(s, (ucr_dir)((d + 1) % 4));
        if (!inside(c, a) || !inside(c, b) || !(c->dg[idx(c, a)] & diag_bit(b.x - a.x, b.y - a.y)))
            continue;
        if (!ucr_point_in_rect(a, x, y, w, h) && !ucr_point_in_rect(b, x, y, w, h))
            return true;
    }
    return false;
}

/* Can proto @pi grow into the rectangle?  Stores how many squares of each
 * incident chain it swallows (by chain index) in @eat. */
static bool grow_fits(const ctx *c, int pi, int x, int y, int w, int h, int *eat)
{
    int m = c->grow_margin;
    if (x < m || y < m || x + w > c->W - m || y + h > c->H - m)
        return false;
    int nch = (int)c->chains->len;
    for (int k = 0; k < nch; k++)
        eat[k] = 0;
    const proto *p = &g_array_index(c->protos, proto, pi);
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) {
            ucr_point q = { i, j };
            int o = c->own[idx(c, q)];
            if (o >= 0 && o != pi)
                return false;
            if (o == pi || (q.x == p->at.x && q.y == p->at.y))
                continue;
            if (!c->sk[idx(c, q)])
                continue;
            int k = c->cid[idx(c, q)];
            if (k < 0)
                return false;
            const chain *ch = &g_array_index(c->chains, chain, k);
            bool at_a = ch->a == pi, at_b = ch->bk == END_AREA && ch->b == pi;
            if (at_a == at_b)
                return false;   /* not ours, or a loop back to us */
            int from_us = at_a ? c->cpos[idx(c, q)] : (int)ch->sq->len - 1 - c->cpos[idx(c, q)];
            eat[k] = MAX(eat[k], from_us + 1);
        }
    /* Swallowed squares must be a run from our end, leaving at least one. */
    for (int k = 0; k < nch; k++) {
        if (!eat[k])
            continue;
        const chain *ch = &g_array_index(c->chains, chain, k);
        if (eat[k] >= (int)ch->sq->len)
            return false;
        bool at_a = ch->a == pi;
        for (int s = 0; s < eat[k]; s++) {
            ucr_point q = g_array_index(ch->sq, ucr_point, at_a ? s : (int)ch->sq->len - 1 - s);
            if (q.x < x || q.x >= x + w || q.y < y || q.y >= y + h)
                return false;
        }
    }
    /* The ring around it: only the next square of our own tunnels, and only
     * beside a wall (not at a corner). */
    for (int j = y - 1; j <= y + h; j++)
        for (int i = x - 1; i <= x + w; i++) {
            if (i >= x && i < x + w && j >= y && j < y + h)
                continue;
            ucr_point q = { i, j };
            int o = c->own[idx(c, q)];
            if (o >= 0)
                return false;
            if (!c->sk[idx(c, q)])
                continue;
            bool corner = (i == x - 1 || i == x + w) && (j == y - 1 || j == y + h);
            int k = c->cid[idx(c, q)];
            if (corner || k < 0)
                return false;
            const chain *ch = &g_array_index(c->chains, chain, k);
            bool at_a = ch->a == pi, at_b = ch->bk == END_AREA && ch->b == pi;
            if (at_a == at_b)
                return false;
            int from_us = at_a ? c->cpos[idx(c, q)] : (int)ch->sq->len - 1 - c->cpos[idx(c, q)];
            if (from_us != eat[k])
                return false;
        }
    /* The word stays legible: a room grown on a letter leaves every stroke
     * it covers a square of tunnel, so that the letter's lines still show
     * between its rooms. */
    int covered[8] = { 0 }, which[8], nw = 0;
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) {
            int st = c->stroke[j * c->W + i];
            if (st < 0)
                continue;
            int k = 0;
            while (k < nw && which[k] != st)
                k++;
            if (k == nw) {
                if (nw == 8)
                    return false;
                which[nw++] = st;
            }
            if (++covered[k] >= g_array_index(c->stroke_left, int, st))
                return false;
        }
    /* Nor more than half of any straight line of a letter. */
    if (!lines_room((ctx *)c, x, y, w, h, false))
        return false;
    /* Nor across a 45-degree step that stays: the squares beside it are
     * half passage on the map. */
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++)
            if (c->dside[j * c->W + i] && diag_side_kept(c, (ucr_point){ i, j }, x, y, w, h))
                return false;
    /* A room on a stroke reaches one square into a counter at most. */
    return !rect_in_hole(c, x, y, w, h, false);
}

/* seed 002 d6 = 6: the junction is a room (room-size table), grown around
 * its square with the tunnels entering it. */
static void junction_grow(ctx *c, int pi, int rw, int rh, GString *words)
{
    int sizes[40][2];
    int ns = room_sizes(rw, rh, sizes);
    int *eat = g_new0(int, c->chains->len + 1);
    proto *p = &g_array_index(c->protos, proto, pi);
    ucr_point at = p->at;
    for (int s = 0; s < ns; s++) {
        int w = sizes[s][0], h = sizes[s][1];
        if (w == 1 && h == 1)
            break;   /* the junction square itself: nothing to grow */
        for (int oy = 0; oy < h; oy++)
            for (int ox = 0; ox < w; ox++) {
                int x = at.x - offset_order(ox, w), y = at.y - offset_order(oy, h);
                if (!grow_fits(c, pi, x, y, w, h, eat))
                    continue;
                for (guint k = 0; k < c->chains->len; k++) {
                    if (!eat[k])
                        continue;
                    chain *ch = &g_array_index(c->chains, chain, k);
                    bool at_a = ch->a == pi;
                    for (int e = 0; e < eat[k]; e++)
                        c->cid[idx(c, g_array_index(ch->sq, ucr_point, at_a ? e : (int)ch->sq->len - 1 - e))] = -1;
                    if (at_a) {
                        g_array_remove_range(ch->sq, 0, (guint)eat[k]);
                        for (guint q = 0; q < ch->sq->len; q++)
                            c->cpos[idx(c, g_array_index(ch->sq, ucr_point, q))] = (int)q;
                    } else {
                        g_array_set_size(ch->sq, ch->sq->len - (guint)eat[k]);
                    }
                }
                p = &g_array_index(c->protos, proto, pi);
                p->x = x;
                p->y = y;
                p->w = w;
                p->h = h;
                p->kind = UCR_AREA_ROOM;
                lines_room(c, x, y, w, h, true);
                for (int j = y; j < y + h; j++)
                    for (int i = x; i < x + w; i++) {
                        c->own[j * c->W + i] = pi;
                        int st = c->stroke[j * c->W + i];
                        if (st >= 0) {
                            g_array_index(c->stroke_left, int, st)--;
                            c->stroke[j * c->W + i] = -1;
                        }
                    }
                if (w * h < rw * rh && !(w == rh && h == rw))
                    g_string_append_printf(words, " (only %dx%d fits)", w, h);
                g_free(eat);
                return;
            }
    }
    if (p->w * p->h == 1)
        g_string_append(words, " (no room to grow: a 10-ft chamber)");
    else
        g_string_append_printf(words, " (no room to grow: a %d×%d-ft chamber)", p->w * 10, p->h * 10);
    p->kind = UCR_AREA_ROOM;
    g_free(eat);
}

/* The tunnel squares just outside junction @pi's rectangle (the tunnels
 * that leave it), in a fixed order: north, east, south, west wall. */
static int junction_tunnels(const ctx *c, int pi, ucr_point out[], int max)
{
    const proto *p = &g_array_index(c->protos, proto, pi);
    const ucr_area a = ucr_area_make(p->kind, p->x, p->y, p->w, p->h);
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int len = ucr_area_wall_length(&a, (ucr_dir)d);
        for (int k = 0; k < len && n < max; k++) {
            ucr_point q = ucr_area_mouth(&a, (ucr_dir)d, k);
            if (!sk_at(c, q) || c->cid[idx(c, q)] < 0)
                continue;
            /* Not a superstructure tunnel: that one's end rolled its own door. */
            if (g_array_index(c->chains, chain, c->cid[idx(c, q)]).join_side >= 0)
                continue;
            out[n++] = q;
        }
    }
    return n;
}

/* seed 002: "At every corner or junction between letters or within each
 * letter, roll to see how the two tunnels connect (d6)" — for junction
 * @pi, described as @where.  The junctions of the template, and those the
 * 60-ft checks make where a side passage or door meets the tunnel. */
static void junction_roll(ctx *c, int pi, const char *where)
{
    const ucr_table *jt = ucr_tables_need(c->tables, "leximorph-junction");
    int d6;
    const ucr_table_row *jrow = ucr_table_roll(jt, c->rng, &d6);
    ucr_lexi_junction j = ucr_leximorph_junction(jrow);
    GString *w = g_string_new(NULL);
    g_string_printf(w, "%s: d%d=%d: %s", where, jt->sides, d6, jrow->text);
    proto *p = &g_array_index(c->protos, proto, pi);
    switch (j) {
    case UCR_LEXI_TRAPPED:
        p->feature = UCR_FEATURE_TRAP;
        break;
    case UCR_LEXI_TRAPPED_DISABLED:
        p->feature = UCR_FEATURE_TRAP_DISABLED;
        break;
    case UCR_LEXI_OBSTACLE: {
        const ucr_table_row *orow = ucr_table_roll(ucr_tables_need(c->tables, "leximorph-obstacle"),
                                                   c->rng, NULL);
        bool debris = strcmp(orow->tag, "debris") == 0;
        p->feature = debris ? UCR_FEATURE_DEBRIS : UCR_FEATURE_POOL;
        g_string_append_printf(w, ", coin: %s", orow->text);
        break;
    }
    case UCR_LEXI_DOOR: {
        /* The door stands towards one of its tunnels (1dN over them). */
        ucr_point cells[16];
        int nd = junction_tunnels(c, pi, cells, 16);
        if (nd > 0) {
            int r = nd > 1 ? ucr_dice_d(c->rng, nd) : 1;
            p->door_cell = cells[r - 1];
            p->door_set = true;
            ucr_dir side = p->door_cell.y < p->y ? UCR_NORTH : p->door_cell.y >= p->y + p->h ? UCR_SOUTH
                           : p->door_cell.x < p->x ? UCR_WEST : UCR_EAST;
            g_string_append_printf(w, " on its %s side", ucr_dir_name(side));
            if (nd > 1)
                g_string_append_printf(w, " (d%d=%d)", nd, r);
        }
        break;
    }
    case UCR_LEXI_ROOM: {
        int rw, rh;
        char size[96];
        room_roll(c, &rw, &rh, size, sizeof size);
        g_string_append_printf(w, "; %s", size);
        junction_grow(c, pi, rw, rh, w);
        break;
    }
    default:
        break;
    }
    p = &g_array_index(c->protos, proto, pi);
    p->rolled = g_strdup(w->str);
    p->feature_rolled = true;
    roll_add(c, g_string_free(w, FALSE));
}

static void junctions_roll(ctx *c)
{
    guint n = c->protos->len;
    for (guint pi = 0; pi < n; pi++) {
        char *where = junction_words(c, g_array_index(c->protos, proto, pi).at);
        junction_roll(c, (int)pi, where);
        g_free(where);
    }
}

/* ---- 60-ft checks ------------------------------------------------------- */

/* May a 60-ft check stand at square @i of the tunnel: straight there, and
 * room on both sides for what it opens (not hard by the map's edge, where
 * a door would open on nothing)? */
static bool straight_at(const ctx *c, const chain *ch, int i)
{
    ucr_point a = g_array_index(ch->sq, ucr_point, i - 1), b = g_array_index(ch->sq, ucr_point, i + 1);
    ucr_point m = g_array_index(ch->sq, ucr_point, i);
    /* The tunnel either side meets the junction's three squares side by
     * side (a diagonal stroke's 45-degree step would touch it by a corner). */
    for (int e = -2; e <= 1; e += 3) {
        int j = i + e;
        if (j < 0 || j + 1 >= (int)ch->sq->len)
            continue;
        ucr_point p = g_array_index(ch->sq, ucr_point, j), q = g_array_index(ch->sq, ucr_point, j + 1);
        if (p.x != q.x && p.y != q.y)
            return false;
    }
    if (a.x == b.x)
        return m.x >= 3 && m.x <= c->W - 4;
    if (a.y == b.y)
        return m.y >= 3 && m.y <= c->H - 4;
    return false;
}

/* seed 002: "check both sides of the tunnel every 60 feet for doors or
 * branches (d8)" — 6 squares from the junction the tunnel leaves, then every
 * 6 squares from the last check that opened something. */
static void checks_roll(ctx *c)
{
    for (guint k = 0; k < c->chains->len; k++) {
        chain ch = g_array_index(c->chains, chain, k);
        if (ch.join_side >= 0)
            continue;
        int len = (int)ch.sq->len;
        for (int i = 5; i + 2 <= len - 1; i += 6) {
            int at = i;
            if (!straight_at(c, &ch, at)) {
                if (at + 3 <= len - 1 && straight_at(c, &ch, at + 1))
                    at++;
                else
                    continue;
            }
            ucr_point mid = g_array_index(ch.sq, ucr_point, at);
            ucr_point back = g_array_index(ch.sq, ucr_point, at - 1);
            ucr_point fwd = g_array_index(ch.sq, ucr_point, at + 1);
            ucr_dir heading = dir_between(back, fwd);
            const ucr_table *wt = ucr_tables_need(c->tables, "leximorph-wall");
            int l8, r8;
            const ucr_table_row *lrow = ucr_table_roll(wt, c->rng, &l8);
            const ucr_table_row *rrow = ucr_table_roll(wt, c->rng, &r8);
            ucr_lexi_side left = ucr_leximorph_side(lrow), right = ucr_leximorph_side(rrow);
            char where[48];
            owner_words(c, mid, where, sizeof where);
            char *line = g_strdup_printf("tunnel of %s heading %s, 60 ft at (%d,%d): left d%d=%d: %s; "
                                         "right d%d=%d: %s", where, ucr_dir_name(heading), mid.x, mid.y,
                                         wt->sides, l8, lrow->text, wt->sides, r8, rrow->text);
            if (left == UCR_LEXI_BLANK && right == UCR_LEXI_BLANK) {
                roll_add(c, line);
                continue;
            }
            /* The junction on the tunnel: three squares along it, so that
             * each side has room for two openings (d8 4 and 7) or one in
             * the middle, or beside it where the middle is crowded. */
            int lo = at - 1, hi = at + 1;
            ucr_point plo = g_array_index(ch.sq, ucr_point, lo), phi = g_array_index(ch.sq, ucr_point, hi);
            proto pr = { MIN(plo.x, phi.x), MIN(plo.y, phi.y), abs(plo.x - phi.x) + 1, abs(plo.y - phi.y) + 1,
                         UCR_AREA_JUNCTION, UCR_FEATURE_NONE, NULL, mid, { 0, 0 }, false, false };
            int pi = (int)c->protos->len;
            g_array_append_val(c->protos, pr);
            roll_add(c, line);
            for (int s = lo; s <= hi; s++)
                c->own[idx(c, g_array_index(ch.sq, ucr_point, s))] = pi;
            side_task t = { pi, heading, left, right, "" };
            g_snprintf(t.where, sizeof t.where, "60 ft along %s", where);
            g_array_append_val(c->tasks, t);
            /* Split: this chain ends at the junction, the rest goes on from
             * it and is checked on its own, 60 ft from the junction. */
            chain rest = { g_array_new(FALSE, FALSE, sizeof(ucr_point)), pi, ch.bk, ch.b, -1 };
            g_array_append_vals(rest.sq, &g_array_index(ch.sq, ucr_point, hi + 1), (guint)(len - hi - 1));
            g_array_set_size(ch.sq, (guint)lo);
            ch.bk = END_AREA;
            ch.b = pi;
            g_array_index(c->chains, chain, k) = ch;
            g_array_append_val(c->chains, rest);
            /* The index of the squares that changed chain (chains_index,
             * for the few squares it touches). */
            c->cid[idx(c, plo)] = c->cid[idx(c, mid)] = c->cid[idx(c, phi)] = -1;
            for (guint q = 0; q < rest.sq->len; q++) {
                int j = idx(c, g_array_index(rest.sq, ucr_point, q));
                c->cid[j] = (int)c->chains->len - 1;
                c->cpos[j] = (int)q;
            }
            /* Where the side passage or door meets the tunnel is a junction
             * within the letter: it rolls seed 002's d6 like every other
             * (a room grows on the tunnel, the tunnel running through it). */
            /* Its room keeps room beyond its walls for what the check
             * opens there. */
            c->grow_margin = 3;
            char *jwhere = g_strdup_printf("junction of the 60-ft check (left %s, right %s) along %s at (%d,%d)",
                                           lrow->text, rrow->text, where, mid.x, mid.y);
            junction_roll(c, pi, jwhere);
            c->grow_margin = 1;
            g_free(jwhere);
            break;
        }
    }
    chains_index(c);
}

/* ---- the model ---------------------------------------------------------- */

static void model_emit(ctx *c)
{
    ucr_node *node = c->node;
    for (guint i = 0; i < c->protos->len; i++) {
        proto *p = &g_array_index(c->protos, proto, i);
        ucr_area a = ucr_area_make(p->kind, p->x, p->y, p->w, p->h);
        a.rolled = p->rolled;
        a.feature = p->feature;
        a.feature_rolled = p->feature_rolled && p->kind == UCR_AREA_JUNCTION;
        p->rolled = NULL;
        ucr_node_add_area(node, NULL, &a);
    }
    for (int d = 0; d < 4; d++)
        c->plan->join_passage[d] = c->plan->join_area[d] = -1;
    for (guint k = 0; k < c->chains->len; k++) {
        chain *ch = &g_array_index(c->chains, chain, k);
        int b = ch->b;
        if (ch->bk != END_AREA)
            b = ucr_node_add_vertex(node, ch->bk == END_DEAD ? UCR_VERTEX_DEAD_END : UCR_VERTEX_EXIT,
                                    g_array_index(ch->sq, ucr_point, ch->sq->len - 1));
        int pk = ucr_node_add_passage(node, NULL, ch->sq, ch->a, b, UCR_EDGE_OPEN);
        ch->sq = NULL;   /* the node owns it */
        if (ch->join_side >= 0) {
            c->plan->join_passage[ch->join_side] = pk;
            c->plan->join_area[ch->join_side] = ch->a;
        }
    }
    /* d6 = 5: the door on the junction's wall towards the chosen tunnel. */
    for (guint i = 0; i < c->protos->len; i++) {
        const proto *p = &g_array_index(c->protos, proto, i);
        if (!p->door_set || p->kind != UCR_AREA_JUNCTION)
            continue;
        ucr_point cell = p->door_cell;
        for (guint k = 0; k < node->passages->len; k++) {
            const ucr_passage *ps = &g_array_index(node->passages, ucr_passage, k);
            ucr_point f = g_array_index(ps->cells, ucr_point, 0);
            ucr_point l = g_array_index(ps->cells, ucr_point, ps->cells->len - 1);
            if ((ps->a == (int)i && f.x == cell.x && f.y == cell.y) ||
                (ps->b == (int)i && l.x == cell.x && l.y == cell.y)) {
                ucr_node_add_door(node, (int)i, (int)k, UCR_DOOR_PLAIN);
                break;
            }
        }
    }
}

/* ---- what opens off a tunnel -------------------------------------------- */

/* May @cells go on the canvas, starting beside area @anchor? */
static bool cells_fit(const ctx *c, const GArray *cells, int anchor)
{
    int n = (int)cells->len;
    for (int i = 0; i < n; i++) {
        ucr_point p = g_array_index(cells, ucr_point, i);
        if (p.x < 1 || p.y < 1 || p.x > c->W - 2 || p.y > c->H - 2)
            return false;
        if (ucr_canvas_owner(c->cv, p) != UCR_CANVAS_EMPTY)
            return false;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                ucr_point q = { p.x + dx, p.y + dy };
                if (!dx && !dy)
                    continue;
                int o = ucr_canvas_owner(c->cv, q);
                if (o == UCR_CANVAS_EMPTY || (c->loose && dx && dy))
                    continue;
                if (i == 0 && o == anchor && (!dx || !dy))
                    continue;
                if (i == 0 && dx && dy) {
                    bool beside = false;
                    for (int d = 0; d < 4; d++)
                        beside |= ucr_canvas_owner(c->cv, ucr_point_step(q, (ucr_dir)d)) == anchor;
                    if (beside)
                        continue;
                }
                return false;
            }
    }
    return true;
}

/* Is the rectangle free, with a square of rock around it, and clear of all
 * but the last of @cells? */
static bool rect_fits(const ctx *c, int x, int y, int w, int h, const GArray *cells)
{
    if (x < 1 || y < 1 || x + w > c->W - 1 || y + h > c->H - 1)
        return false;
    if (!c->loose && !ucr_canvas_clear(c->cv, x, y, w, h, 1))
        return false;
    /* Crowded: a wall of rock on every side, corners may touch. */
    if (c->loose && (!ucr_canvas_clear(c->cv, x - 1, y, w + 2, h, 0) ||
                     !ucr_canvas_clear(c->cv, x, y - 1, w, h + 2, 0)))
        return false;
    for (guint i = 0; cells && i + 1 < cells->len; i++) {
        ucr_point p = g_array_index(cells, ucr_point, i);
        if (p.x >= x - 1 && p.x <= x + w && p.y >= y - 1 && p.y <= y + h)
            return false;
    }
    /* In a letter's counter, a closet at most. */
    return w * h <= c->closet || !rect_in_hole(c, x, y, w, h, true);
}

/* The rectangle of size w × h beyond square @e towards @d, at offset @k. */
static void rect_beyond(ucr_point e, ucr_dir d, int w, int h, int k, int *x, int *y)
{
    switch (d) {
    case UCR_NORTH: *x = e.x - offset_order(k, w); *y = e.y - h; break;
    case UCR_SOUTH: *x = e.x - offset_order(k, w); *y = e.y + 1; break;
    case UCR_WEST: *x = e.x - w; *y = e.y - offset_order(k, h); break;
    default: *x = e.x + 1; *y = e.y - offset_order(k, h); break;
    }
}

/* A side passage: @out squares straight out of @mouth towards @side, then
 * @along squares towards @turn (-1: none). */
static void shape_build(GArray *cells, ucr_point mouth, ucr_dir side, int out, int turn, int along)
{
    g_array_set_size(cells, 0);
    ucr_point p = mouth;
    g_array_append_val(cells, p);
    for (int i = 1; i < out; i++) {
        p = ucr_point_step(p, side);
        g_array_append_val(cells, p);
    }
    for (int i = 0; turn >= 0 && i < along; i++) {
        p = ucr_point_step(p, (ucr_dir)turn);
        g_array_append_val(cells, p);
    }
}

static ucr_dir last_heading(const GArray *cells, ucr_dir side)
{
    if (cells->len < 2)
        return side;
    return dir_between(g_array_index(cells, ucr_point, cells->len - 2),
                       g_array_index(cells, ucr_point, cells->len - 1));
}

typedef struct {
    int out, turn, along;
} shape;

/* Shapes for a way of @min..@max squares: straight first, then out and
 * turning left or right (or only towards @only_turn when it is >= 0). */
static int shapes_list(ucr_dir side, int min, int max, int only_turn, shape *out)
{
    int n = 0;
    if (only_turn < 0)
        for (int len = min; len <= max; len++)
            out[n++] = (shape){ len, -1, 0 };
    for (int o = 1; o <= 2; o++)
        for (int a = MAX(1, min - o); a <= MAX(1, max - o); a++)
            for (int t = 0; t < 2; t++) {
                int turn = only_turn >= 0 ? only_turn : (int)((side + (t ? 3 : 1)) % 4);
                if (only_turn >= 0 && t)
                    continue;
                out[n++] = (shape){ o, turn, a };
            }
    return n;
}

typedef enum { END_ROOM, END_LANDING, END_ONLY_DEAD } way_end;

/* Places a side way from @anchor's @mouth: a passage of one of the shapes
 * ending in a room (or a stair landing), else (@dead_ok) in a dead end.
 * Adds the door of @door_kind (or none if < 0) on the anchor's wall.
 * Returns the area it leads to, -2 for a dead end, -1 if nothing fits. */
static int way_place(ctx *c, int anchor, ucr_point mouth, ucr_dir side, int min, int max,
                     int only_turn, way_end end, int rw, int rh, ucr_stair stair, bool dead_ok,
                     int door_kind, ucr_edge_kind kind, const char *rolled, bool *squeezed)
{
    shape shapes[64];
    int nshapes = shapes_list(side, min, max, only_turn, shapes);
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    int sizes[40][2];
    int nsizes = end == END_ROOM ? sizes_from(c, mouth, sizes, room_sizes(rw, rh, sizes)) : 0;
    if (end == END_LANDING) {
        nsizes = 2;
        sizes[0][0] = 2; sizes[0][1] = 1;
        sizes[1][0] = 1; sizes[1][1] = 1;
    }
    /* Whether a shape fits does not depend on the room's size: each is
     * tried once (-1 not yet, 0 no, 1 yes), not once per size. */
    signed char fit[64];
    memset(fit, -1, sizeof fit);
    for (int s = 0; s < nsizes; s++)
        for (int k = 0; k < nshapes; k++) {
            if (!fit[k])
                continue;
            shape_build(cells, mouth, side, shapes[k].out, shapes[k].turn, shapes[k].along);
            if (fit[k] < 0)
                fit[k] = cells_fit(c, cells, anchor);
            if (!fit[k])
                continue;
            ucr_dir d = last_heading(cells, side);
            ucr_point e = g_array_index(cells, ucr_point, cells->len - 1);
            /* A landing lies along the way; a room as rolled. */
            int w = sizes[s][0], h = sizes[s][1];
            if (end == END_LANDING && (d == UCR_NORTH || d == UCR_SOUTH)) {
                w = sizes[s][1];
                h = sizes[s][0];
            }
            int across = (d == UCR_NORTH || d == UCR_SOUTH) ? w : h;
            for (int o = 0; o < across; o++) {
                int x, y;
                rect_beyond(e, d, w, h, o, &x, &y);
                if (!rect_fits(c, x, y, w, h, cells))
                    continue;
                ucr_area a = ucr_area_make(end == END_LANDING ? UCR_AREA_STAIRS : UCR_AREA_ROOM, x, y, w, h);
                a.stair = end == END_LANDING ? stair : UCR_STAIR_NONE;
                a.rolled = g_strdup(rolled);
                int ai = ucr_node_add_area(c->node, c->cv, &a);
                int pk = ucr_node_add_passage(c->node, c->cv, cells, anchor, ai, kind);
                if (door_kind >= 0)
                    ucr_node_add_door(c->node, anchor, pk, (ucr_door_kind)door_kind);
                if (squeezed)
                    *squeezed = end == END_ROOM && w * h < rw * rh;
                return ai;
            }
        }
    if (dead_ok)
        for (int k = nshapes - 1; k >= 0; k--) {
            if (!fit[k])
                continue;
            shape_build(cells, mouth, side, shapes[k].out, shapes[k].turn, shapes[k].along);
            if (fit[k] < 0 && !cells_fit(c, cells, anchor))
                continue;
            int v = ucr_node_add_vertex(c->node, UCR_VERTEX_DEAD_END,
                                        g_array_index(cells, ucr_point, cells->len - 1));
            int pk = ucr_node_add_passage(c->node, c->cv, cells, anchor, v, kind);
            if (door_kind >= 0)
                ucr_node_add_door(c->node, anchor, pk, (ucr_door_kind)door_kind);
            return -2;
        }
    g_array_free(cells, TRUE);
    return -1;
}

/* The squares beside a diagonal step from @a to @b (half floor on the map). */
static void diagonal_sides(ucr_point a, ucr_point b, ucr_point out[2])
{
    out[0] = (ucr_point){ b.x, a.y };
    out[1] = (ucr_point){ a.x, b.y };
}

/* Claims the squares beside every diagonal step of passage @pk on @cv: the
 * map draws the step at 45° across them, so nothing else may use them. */
static void diagonal_claim(ucr_canvas *cv, const ucr_node *node, int pk)
{
    const GArray *cells = g_array_index(node->passages, ucr_passage, pk).cells;
    for (guint i = 1; i < cells->len; i++) {
        ucr_point a = g_array_index(cells, ucr_point, i - 1), b = g_array_index(cells, ucr_point, i);
        if (a.x == b.x || a.y == b.y)
            continue;
        ucr_point sq[2];
        diagonal_sides(a, b, sq);
        for (int k = 0; k < 2; k++)
            ucr_canvas_set(cv, sq[k], UCR_ATTACH_PASSAGE + pk);
    }
}

/* The canvas of a drawn node: ucr_attach_canvas and the squares beside the
 * diagonal passages. */
static ucr_canvas *lexi_canvas(const ucr_node *node)
{
    ucr_canvas *cv = ucr_attach_canvas(node);
    for (guint k = 0; k < node->passages->len; k++)
        diagonal_claim(cv, node, (int)k);
    return cv;
}

/* seed 002 d8 = 4, one of the "two diagonal passages": two squares
 * straight out of @mouth towards @side, then three (else two, else one)
 * squares at 45° towards @side and @turn, then one square straight on,
 * into a room (sized from @rw × @rh down) beyond, or (@dead_ok) a dead
 * end.  The squares beside the diagonal steps must be rock with nothing
 * but the passage around them.  Returns the room, -2 for a dead end, -1 if
 * it does not fit. */
static int diagonal_place(ctx *c, int anchor, ucr_point mouth, ucr_dir side, ucr_dir turn, int rw, int rh,
                          bool dead_ok, const char *rolled)
{
    int sizes[40][2];
    int nsizes = sizes_from(c, mouth, sizes, room_sizes(rw, rh, sizes));
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    GArray *foot = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int pass = 0; pass < (dead_ok ? 2 : 1); pass++)
        for (int steps = 3; steps >= 1; steps--) {
            g_array_set_size(cells, 0);
            ucr_point p = mouth;
            g_array_append_val(cells, p);
            p = ucr_point_step(p, side);
            g_array_append_val(cells, p);
            for (int k = 0; k < steps; k++) {
                p = ucr_point_step(ucr_point_step(p, side), turn);
                g_array_append_val(cells, p);
            }
            p = ucr_point_step(p, side);
            g_array_append_val(cells, p);
            if (!cells_fit(c, cells, anchor))
                continue;
            /* The half squares: rock, touching only the passage. */
            g_array_set_size(foot, 0);
            bool ok = true;
            for (guint i = 2; i < cells->len - 1 && ok; i++) {
                ucr_point sq[2];
                diagonal_sides(g_array_index(cells, ucr_point, i - 1), g_array_index(cells, ucr_point, i), sq);
                for (int k = 0; k < 2 && ok; k++) {
                    ok = ucr_canvas_owner(c->cv, sq[k]) == UCR_CANVAS_EMPTY;
                    for (int dy = -1; dy <= 1 && ok; dy++)
                        for (int dx = -1; dx <= 1 && ok; dx++)
                            ok = ucr_canvas_owner(c->cv, (ucr_point){ sq[k].x + dx, sq[k].y + dy }) ==
                                 UCR_CANVAS_EMPTY;
                    g_array_append_val(foot, sq[k]);
                }
            }
            if (!ok)
                continue;
            ucr_point e = g_array_index(cells, ucr_point, cells->len - 1);
            g_array_append_vals(foot, cells->data, cells->len);
            int pk = -1, to = -1;
            for (int s = 0; s < nsizes && pass == 0 && to < 0; s++) {
                int w = sizes[s][0], h = sizes[s][1];
                int across = (side == UCR_NORTH || side == UCR_SOUTH) ? w : h;
                for (int o = 0; o < across && to < 0; o++) {
                    int x, y;
                    rect_beyond(e, side, w, h, o, &x, &y);
                    if (!rect_fits(c, x, y, w, h, foot))
                        continue;
                    ucr_area a = ucr_area_make(UCR_AREA_ROOM, x, y, w, h);
                    a.rolled = g_strdup(rolled);
                    to = ucr_node_add_area(c->node, c->cv, &a);
                }
            }
            if (to < 0 && pass == 0)
                continue;
            if (to < 0 && !dead_ok)
                continue;
            if (to < 0)
                to = ucr_node_add_vertex(c->node, UCR_VERTEX_DEAD_END, e);
            pk = ucr_node_add_passage(c->node, c->cv, cells, anchor, to, UCR_EDGE_OPEN);
            diagonal_claim(c->cv, c->node, pk);
            g_array_free(foot, TRUE);
            return pass == 0 ? to : -2;
        }
    g_array_free(cells, TRUE);
    g_array_free(foot, TRUE);
    return -1;
}

static bool cells_meet(const ctx *c, const GArray *cells, int anchor, int target);

/* Two doors side by side (seed 002 d8 = 7) into one room: the passages @a
 * and @b straight out of two squares two apart on @anchor's wall, a room of
 * @w x @h (at least three squares along the wall) beyond both. */
static bool door_pair_room(ctx *c, int anchor, ucr_dir side, int w, int h, GArray *a, GArray *b,
                           const char *rolled)
{
    bool along_x = side == UCR_NORTH || side == UCR_SOUTH;
    /* Two doors side by side need a wall three squares long. */
    if (along_x)
        w = MAX(w, 3);
    else
        h = MAX(h, 3);
    ucr_point e1 = g_array_index(a, ucr_point, a->len - 1);
    ucr_point e2 = g_array_index(b, ucr_point, b->len - 1);
    ucr_point lo = along_x ? (e1.x < e2.x ? e1 : e2) : (e1.y < e2.y ? e1 : e2);
    int span = along_x ? w : h;
    for (int o = 0; o < span - 2; o++) {
        int x, y;
        rect_beyond(lo, side, w, h, 0, &x, &y);
        if (along_x)
            x = lo.x - o;
        else
            y = lo.y - o;
        if (!rect_fits(c, x, y, w, h, a) || !rect_fits(c, x, y, w, h, b))
            continue;
        ucr_area r = ucr_area_make(UCR_AREA_ROOM, x, y, w, h);
        r.rolled = g_strdup(rolled);
        int ai = ucr_node_add_area(c->node, c->cv, &r);
        int p1 = ucr_node_add_passage(c->node, c->cv, a, anchor, ai, UCR_EDGE_OPEN);
        int p2 = ucr_node_add_passage(c->node, c->cv, b, anchor, ai, UCR_EDGE_OPEN);
        ucr_node_add_door(c->node, anchor, p1, UCR_DOOR_PLAIN);
        ucr_node_add_door(c->node, anchor, p2, UCR_DOOR_PLAIN);
        return true;
    }
    return false;
}

/* Two doors side by side into a room already drawn straight ahead of both
 * (as way_meet does for one door): the room behind the pair is the one
 * there. */
static bool door_pair_meet(ctx *c, int anchor, ucr_point m1, ucr_point m2, ucr_dir side, GArray *a, GArray *b)
{
    g_array_set_size(a, 0);
    g_array_set_size(b, 0);
    ucr_point p = m1, q = m2;
    for (int len = 1; len <= 3; len++, p = ucr_point_step(p, side), q = ucr_point_step(q, side)) {
        if (!inside(c, p) || !inside(c, q) || ucr_canvas_owner(c->cv, p) != UCR_CANVAS_EMPTY ||
            ucr_canvas_owner(c->cv, q) != UCR_CANVAS_EMPTY)
            return false;
        g_array_append_val(a, p);
        g_array_append_val(b, q);
        int o = ucr_canvas_owner(c->cv, ucr_point_step(p, side));
        int o2 = ucr_canvas_owner(c->cv, ucr_point_step(q, side));
        if (o == UCR_CANVAS_EMPTY && o2 == UCR_CANVAS_EMPTY)
            continue;
        if (o != o2 || o < 0 || o >= UCR_ATTACH_PASSAGE || o == anchor ||
            g_array_index(c->node->areas, ucr_area, o).kind != UCR_AREA_ROOM || !cells_meet(c, a, anchor, o) ||
            !cells_meet(c, b, anchor, o))
            return false;
        int p1 = ucr_node_add_passage(c->node, c->cv, a, anchor, o, UCR_EDGE_OPEN);
        int p2 = ucr_node_add_passage(c->node, c->cv, b, anchor, o, UCR_EDGE_OPEN);
        ucr_node_add_door(c->node, anchor, p1, UCR_DOOR_PLAIN);
        ucr_node_add_door(c->node, anchor, p2, UCR_DOOR_PLAIN);
        return true;
    }
    return false;
}

/* The pairs of mouths two squares apart along @anchor's @side wall, the
 * pair round the middle first.  Returns how many (at most @max). */
static int pair_mouths(const ctx *c, int anchor, ucr_dir side, ucr_point out[][2], int max)
{
    const ucr_area *an = &g_array_index(c->node->areas, ucr_area, anchor);
    int wl = ucr_area_wall_length(an, side), n = 0;
    for (int k = 0; k + 2 < wl && n < max; k++) {
        int mid = 1 + offset_order(k, wl - 2);
        out[n][0] = ucr_area_mouth(an, side, mid - 1);
        out[n][1] = ucr_area_mouth(an, side, mid + 1);
        n++;
    }
    return n;
}

/* Two doors side by side (seed 002 d8 = 7) into one room: a new room of the
 * size rolled (or smaller) beyond the pair, else a room already there, else
 * a new room letting corners touch; at any pair of squares along the wall,
 * the middle first. */
static bool door_pair_place(ctx *c, int anchor, ucr_dir side, int rw, int rh, const char *rolled)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    GArray *b = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    ucr_point pairs[16][2];
    int np = pair_mouths(c, anchor, side, pairs, 16);
    int sizes[40][2];
    bool done = false;
    for (int pass = 0; pass < 3 && !done; pass++) {
        c->loose = pass == 2;
        for (int k = 0; k < np && !done; k++) {
            ucr_point m1 = pairs[k][0], m2 = pairs[k][1];
            if (pass == 1) {
                done = door_pair_meet(c, anchor, m1, m2, side, a, b);
                continue;
            }
            /* In a counter, a closet two doors wide (30 x 10 ft) just
             * beyond the pair: the counter stays open, the letter reads. */
            bool in_hole = c->hole && inside(c, m1) && c->hole[idx(c, m1)];
            int nsizes = in_hole ? 1 : room_sizes(rw, rh, sizes);
            if (in_hole)
                sizes[0][0] = sizes[0][1] = 1;
            c->closet = in_hole ? 3 : 2;
            for (int len = 1; len <= (in_hole ? 1 : 4) && !done; len++) {
                shape_build(a, m1, side, len, -1, 0);
                shape_build(b, m2, side, len, -1, 0);
                if (!cells_fit(c, a, anchor) || !cells_fit(c, b, anchor))
                    break;
                for (int s = 0; s < nsizes && !done; s++)
                    done = door_pair_room(c, anchor, side, sizes[s][0], sizes[s][1], a, b, rolled);
            }
        }
    }
    c->loose = false;
    c->closet = 2;
    if (!done) {
        g_array_free(a, TRUE);
        g_array_free(b, TRUE);
    }
    return done;
}

/* A stair landing off any area's wall, from area @first on (arrivals
 * where ucr_attach_landing found no room, stairs with no room on their side), by the same side-way search as the 60-ft stairs. */
static int landing_anywhere(ucr_node *node, ucr_canvas *cv, int first, ucr_stair stair,
                            const char *rolled)
{
    ctx c = { 0 };
    c.node = node;
    c.cv = cv;
    c.W = node->width;
    c.H = node->height;
    int na = (int)node->areas->len;
    for (int j = 0; j < na; j++) {
        int ai = (first + j) % na;
        const ucr_area a = g_array_index(node->areas, ucr_area, ai);
        for (int d = 0; d < 4; d++) {
            int wl = ucr_area_wall_length(&a, (ucr_dir)d);
            for (int k = 0; k < wl; k++) {
                ucr_point m = ucr_area_mouth(&a, (ucr_dir)d, k);
                int li = way_place(&c, ai, m, (ucr_dir)d, 1, 4, -1, END_LANDING, 0, 0, stair, false, -1,
                                   UCR_EDGE_OPEN, rolled, NULL);
                if (li >= 0)
                    return li;
            }
        }
    }
    return -1;
}

/* The area (a room, if @rooms_only) whose wall square @q lies beside
 * (orthogonally), other than @not1 and @not2, or -1. */
static int area_beside(const ctx *c, ucr_point q, int not1, int not2, bool rooms_only)
{
    for (int d = 0; d < 4; d++) {
        int o = ucr_canvas_owner(c->cv, ucr_point_step(q, (ucr_dir)d));
        if (o >= 0 && o < UCR_ATTACH_PASSAGE && o != not1 && o != not2 &&
            (!rooms_only || g_array_index(c->node->areas, ucr_area, o).kind == UCR_AREA_ROOM))
            return o;
    }
    return -1;
}

/* Where a windowed route may go and end. */
typedef struct {
    int x0, y0, x1, y1;   /* the window, inclusive */
    int skip;             /* an area it may not end at, or -1 */
    bool rooms_only;      /* end at a room only */
    int ahead;            /* ucr_dir: end no further back than the first mouth, or -1 */
} route_window;

/* The rules of route_near: Dijkstra inside the window, a turn costing 2
 * more except out of a mouth, ending on the first square beside an area it
 * may end at. */
typedef struct {
    const ctx *c;
    int from, x0, y0, x1, y1;
    const route_window *win;
    ucr_point m0;           /* the first mouth: "ahead" is measured from it */
} near_route;

/* What square @q is to the route, asked once per square: 0 rock it may not
 * use, 1 free, 2 beside an area it may end at (memo[1]). */
static int near_kind(near_route *r, ucr_search *s, ucr_point q, int **memo)
{
    int *m = ucr_search_memo(s, q.y * r->c->W + q.x);
    *memo = m;
    if (m[0] >= 0)
        return m[0];
    const route_window *win = r->win;
    int a = area_beside(r->c, q, r->from, win->skip, win->rooms_only);
    ucr_point m0 = r->m0;
    bool behind = (win->ahead == UCR_NORTH && q.y > m0.y) || (win->ahead == UCR_SOUTH && q.y < m0.y) ||
                  (win->ahead == UCR_WEST && q.x > m0.x) || (win->ahead == UCR_EAST && q.x < m0.x);
    if (a >= 0)
        m[0] = !behind && ucr_canvas_square_ok(r->c->cv, q, a) ? 2 : 0;
    else
        m[0] = ucr_canvas_square_ok(r->c->cv, q, UCR_CANVAS_EMPTY) ? 1 : 0;
    m[1] = a;
    return m[0];
}

static bool near_step(void *data, ucr_search *s, const ucr_search_at *at, ucr_dir d, ucr_search_move *mv)
{
    near_route *r = data;
    ucr_point q = ucr_point_step(at->p, d);
    if (q.x < r->x0 || q.y < r->y0 || q.x > r->x1 || q.y > r->y1)
        return false;
    int *memo, kind = near_kind(r, s, q, &memo);
    if (kind == 0)
        return false;
    mv->to = ucr_search_state(s, q, d, 0);
    mv->cost = 1 + (d != at->head && ucr_search_prev(s, at->st) >= 0 ? 2 : 0);
    mv->goal = kind == 2;
    return true;
}

/* The shortest corridor (turns cost extra) from one of the @nm squares
 * @mouths on area @from's walls to the wall of another area, within the
 * window @win only: cheap (the map-wide router explores every square before
 * it gives up), and a corridor that would wander further is no "room next
 * door".  Returns the squares (the caller owns them) and the area in @to,
 * or NULL. */
static GArray *route_near(const ctx *c, int from, const ucr_point *mouths, int nm, const route_window *win,
                          int *to)
{
    near_route r = { c, from, MAX(1, win->x0), MAX(1, win->y0), MIN(c->W - 2, win->x1), MIN(c->H - 2, win->y1),
                     win, mouths[0] };
    ucr_search_rules rules = { .queue = UCR_SEARCH_HEAP, .data = &r, .step = near_step };
    ucr_search *s = ucr_canvas_search(c->cv);
    ucr_search_begin(s, &rules);
    for (int m = 0; m < nm; m++) {
        ucr_point p = mouths[m];
        if (p.x < r.x0 || p.y < r.y0 || p.x > r.x1 || p.y > r.y1 || !ucr_canvas_square_ok(c->cv, p, from))
            continue;
        /* Mouths in order of preference: a later one costs a little. */
        for (int d = 0; d < 4; d++)
            ucr_search_start(s, &(ucr_search_move){ .to = ucr_search_state(s, p, (ucr_dir)d, 0), .cost = 1 + m });
    }
    int goal = ucr_search_run(s);
    *to = -1;
    if (goal < 0)
        return NULL;
    ucr_point q = ucr_search_square(s, goal);
    *to = ucr_search_memo(s, q.y * c->W + q.x)[1];
    return ucr_search_path(s, goal);
}

/* Where nothing new fits, the door or branch leads to the nearest area
 * already drawn (a GM would do the same: the side passage joins the room or
 * junction next door), routed on the grid.  Returns that area or -1. */
static int way_connect(ctx *c, int anchor, ucr_point mouth, ucr_dir side, int door_kind,
                       ucr_edge_kind kind)
{
    GArray *one = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    g_array_append_val(one, mouth);
    bool mouth_ok = cells_fit(c, one, anchor);
    g_array_free(one, TRUE);
    if (!mouth_ok)
        return -1;
    /* Within 120 ft, away from the tunnel, not back along it; crowded,
     * within 180 ft, any way. */
    int r = c->loose ? 18 : 12;
    route_window win = { mouth.x - r, mouth.y - r, mouth.x + r, mouth.y + r, -1, false, c->loose ? -1 : (int)side };
    int to;
    GArray *path = route_near(c, anchor, &mouth, 1, &win, &to);
    if (!path)
        return -1;
    int pk = ucr_node_add_passage(c->node, c->cv, path, anchor, to, kind);
    if (door_kind >= 0)
        ucr_node_add_door(c->node, anchor, pk, (ucr_door_kind)door_kind);
    return to;
}

/* A one-square way from @mouth straight into an area @mouth already touches
 * (the room next door).  Returns that area or -1. */
static int way_adjacent(ctx *c, int anchor, ucr_point mouth, int door_kind, ucr_edge_kind kind)
{
    if (mouth.x < 1 || mouth.y < 1 || mouth.x > c->W - 2 || mouth.y > c->H - 2 ||
        ucr_canvas_owner(c->cv, mouth) != UCR_CANVAS_EMPTY)
        return -1;
    int other = -1;
    for (int d = 0; d < 4; d++) {
        int o = ucr_canvas_owner(c->cv, ucr_point_step(mouth, (ucr_dir)d));
        if (o == UCR_CANVAS_EMPTY || o == anchor)
            continue;
        if (o < 0 || o >= UCR_ATTACH_PASSAGE || (other >= 0 && o != other))
            return -1;
        other = o;
    }
    if (other < 0)
        return -1;
    for (int dy = -1; dy <= 1 && !c->loose; dy += 2)
        for (int dx = -1; dx <= 1; dx += 2) {
            ucr_point q = { mouth.x + dx, mouth.y + dy };
            int o = ucr_canvas_owner(c->cv, q);
            if (o == UCR_CANVAS_EMPTY || o == anchor || o == other)
                continue;
            bool beside = false;
            for (int d = 0; d < 4; d++) {
                int n = ucr_canvas_owner(c->cv, ucr_point_step(q, (ucr_dir)d));
                beside |= n == anchor || n == other;
            }
            if (!beside)
                return -1;
        }
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    g_array_append_val(cells, mouth);
    int pk = ucr_node_add_passage(c->node, c->cv, cells, anchor, other, kind);
    if (door_kind >= 0)
        ucr_node_add_door(c->node, anchor, pk, (ucr_door_kind)door_kind);
    return other;
}

/* May @cells lead from area @anchor to area @target: on rock, touching
 * nothing but the anchor at the first square and the target at the last? */
static bool cells_meet(const ctx *c, const GArray *cells, int anchor, int target)
{
    int n = (int)cells->len;
    for (int i = 0; i < n; i++) {
        ucr_point p = g_array_index(cells, ucr_point, i);
        if (p.x < 1 || p.y < 1 || p.x > c->W - 2 || p.y > c->H - 2 ||
            ucr_canvas_owner(c->cv, p) != UCR_CANVAS_EMPTY)
            return false;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy)
                    continue;
                int o = ucr_canvas_owner(c->cv, (ucr_point){ p.x + dx, p.y + dy });
                if (o == UCR_CANVAS_EMPTY || (i == 0 && o == anchor) || (i == n - 1 && o == target))
                    continue;
                return false;
            }
    }
    return true;
}

/* seed 002's door, secret door or side passage on a tunnel wall that faces
 * a room already drawn a few squares away opens into that room, as a GM
 * mapping on paper would draw it: the room behind the door is the one
 * there.  Such a room, reached from two tunnels (or from a tunnel and the
 * room on it), puts the rooms on a loop.  Straight out of @mouth, at most
 * @max squares.  Returns the room or -1. */
static int way_meet(ctx *c, int anchor, ucr_point mouth, ucr_dir side, int max, int door_kind,
                    ucr_edge_kind kind)
{
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    ucr_point p = mouth;
    for (int len = 1; len <= max; len++, p = ucr_point_step(p, side)) {
        if (!inside(c, p) || ucr_canvas_owner(c->cv, p) != UCR_CANVAS_EMPTY)
            break;
        g_array_append_val(cells, p);
        int o = ucr_canvas_owner(c->cv, ucr_point_step(p, side));
        if (o == UCR_CANVAS_EMPTY)
            continue;
        if (o < 0 || o >= UCR_ATTACH_PASSAGE || o == anchor ||
            g_array_index(c->node->areas, ucr_area, o).kind != UCR_AREA_ROOM || !cells_meet(c, cells, anchor, o))
            break;
        int pk = ucr_node_add_passage(c->node, c->cv, cells, anchor, o, kind);
        if (door_kind >= 0)
            ucr_node_add_door(c->node, anchor, pk, (ucr_door_kind)door_kind);
        return o;
    }
    g_array_free(cells, TRUE);
    return -1;
}

/* Where nothing new fits: the next area over, through the tunnel wall or
 * by a short routed passage. */
static int way_elsewhere(ctx *c, int anchor, ucr_point mouth, ucr_dir side, int door_kind,
                         ucr_edge_kind kind)
{
    int to = way_adjacent(c, anchor, mouth, door_kind, kind);
    if (to < 0)
        to = way_connect(c, anchor, mouth, side, door_kind, kind);
    return to;
}

/* seed 002 d8 3 and 4 are passages, not doors: "generate rooms and
 * additional corridors that connect to that structure" (the pre-loading
 * post).  A side passage that found its room goes on through it, from its
 * far wall or a side wall (from the middle out), to the nearest room of the
 * structure within 60 ft (not back to the junction it left).  Returns that
 * room, or -1 where none is in reach (the room stays the passage's end). */
static int way_onward(ctx *c, int room, int from, ucr_dir ahead)
{
    const ucr_area a = g_array_index(c->node->areas, ucr_area, room);
    ucr_dir dirs[3] = { ahead, (ucr_dir)((ahead + 1) % 4), (ucr_dir)((ahead + 3) % 4) };
    ucr_point mouths[3 * 64];
    int nm = 0;
    for (int i = 0; i < 3; i++) {
        ucr_dir d = dirs[i];
        int wl = ucr_area_wall_length(&a, d);
        for (int k = 0; k < wl && k < 64; k++)
            mouths[nm++] = ucr_area_mouth(&a, d, offset_order(k, wl));
    }
    int to;
    /* Not behind the room: the passage goes on, it does not turn back. */
    route_window win = { a.x - (ahead == UCR_EAST ? 0 : 6), a.y - (ahead == UCR_SOUTH ? 0 : 6),
                         a.x + a.w - 1 + (ahead == UCR_WEST ? 0 : 6), a.y + a.h - 1 + (ahead == UCR_NORTH ? 0 : 6),
                         from, true, -1 };
    /* No room in the window: no search. */
    bool any = false;
    for (guint i = 0; i < c->node->areas->len && !any; i++) {
        const ucr_area *b = &g_array_index(c->node->areas, ucr_area, i);
        any = (int)i != room && (int)i != from && b->kind == UCR_AREA_ROOM && b->x <= win.x1 + 1 &&
              b->x + b->w - 1 >= win.x0 - 1 && b->y <= win.y1 + 1 && b->y + b->h - 1 >= win.y0 - 1;
    }
    if (!any)
        return -1;
    GArray *path = route_near(c, room, mouths, nm, &win, &to);
    if (!path)
        return -1;
    ucr_node_add_passage(c->node, c->cv, path, room, to, UCR_EDGE_OPEN);
    return to;
}

/* The new room @room a side passage from @from reached, heading @ahead,
 * goes on (way_onward) once every 60-ft check has what it rolled: the
 * passages on find their way through what is left. */
static void onward_note(ctx *c, int room, int from, ucr_dir ahead, const char *rolled)
{
    if (room < 0)
        return;
    onward o = { room, from, ahead, g_strdup(rolled), false };
    g_array_append_val(c->onwards, o);
}

/* The new room @room behind a door (d8 2, 6 or 7) has its own way on, as
 * the rooms of seed 002's side passages do: the pre-loading post's "rooms
 * and additional corridors that connect to that structure", the room behind
 * the door rolled on the tables it borrows (the size, and what's behind). */
static void onward_door_note(ctx *c, int room, int from, ucr_dir ahead, const char *rolled)
{
    onward_note(c, room, from, ahead, rolled);
    if (room >= 0)
        g_array_index(c->onwards, onward, c->onwards->len - 1).door = true;
}

static void onwards_place(ctx *c)
{
    for (guint i = 0; i < c->onwards->len; i++) {
        onward *o = &g_array_index(c->onwards, onward, i);
        int to = way_onward(c, o->room, o->from, o->ahead);
        if (to >= 0) {
            const ucr_area *r = &g_array_index(c->node->areas, ucr_area, o->room);
            const ucr_area *t = &g_array_index(c->node->areas, ucr_area, to);
            roll_add(c, g_strdup_printf(o->door ? "%s: beyond the door, the room at (%d,%d) has a way on to the "
                                                  "room at (%d,%d)"
                                                : "%s: the passage goes on through the room at (%d,%d) to the "
                                                  "room at (%d,%d)",
                                        o->rolled, r->x, r->y, t->x, t->y));
        }
        g_free(o->rolled);
        o->rolled = NULL;
    }
}

/* Two ways off one side (d8 4 and 7): where the tunnel wall has room for
 * only one, that one stands and the record says so; none is unplaced. */
static int way_pair_result(ctx *c, int g1, int g2, const char *rolled)
{
    if (g1 == -1 && g2 == -1)
        return -1;
    if (g1 == -1 || g2 == -1)
        roll_add(c, g_strdup_printf("%s: room for only one of the two", rolled));
    return 0;
}

/* way_place, and where nothing fits, again letting corners touch. */
static int way_place_any(ctx *c, int anchor, ucr_point mouth, ucr_dir side, int min, int max,
                         int only_turn, way_end end, int rw, int rh, ucr_stair stair, bool dead_ok,
                         int door_kind, ucr_edge_kind kind, const char *rolled, bool *squeezed)
{
    int r = way_place(c, anchor, mouth, side, min, max, only_turn, end, rw, rh, stair, dead_ok,
                      door_kind, kind, rolled, squeezed);
    if (r == -1) {
        c->loose = true;
        r = way_place(c, anchor, mouth, side, min, max, only_turn, end, rw, rh, stair, dead_ok,
                      door_kind, kind, rolled, squeezed);
        c->loose = false;
    }
    return r;
}

static int elsewhere_any(ctx *c, int anchor, ucr_point mouth, ucr_dir side, int door_kind,
                         ucr_edge_kind kind)
{
    int r = way_elsewhere(c, anchor, mouth, side, door_kind, kind);
    if (r == -1) {
        c->loose = true;
        r = way_elsewhere(c, anchor, mouth, side, door_kind, kind);
        c->loose = false;
    }
    return r;
}

/* Where a side way leaves the tunnel: its anchor area, the three mouths
 * (middle first), the way out, the room rolled and the roll's text, which
 * the kinds below may lengthen. */
typedef struct {
    int anchor;
    ucr_point mouths[3];
    ucr_dir side, fwd, back;
    int rw, rh;
    char *rolled;
} side_at;

/* The junction is three squares along the tunnel (or a room grown on
 * it): a single way tries the middle of its wall first, then either
 * side of the middle, back along the tunnel and forward. */
static void side_mouths(ctx *c, const side_task *t, side_at *s)
{
    const ucr_area *an = &g_array_index(c->node->areas, ucr_area, s->anchor);
    bool across = s->side == UCR_NORTH || s->side == UCR_SOUTH;
    int wall = across ? an->w : an->h;
    int mid = (wall - 1) / 2, lo = MAX(0, mid - 1), hi = MIN(wall - 1, mid + 1);
    bool rev = t->heading == UCR_WEST || t->heading == UCR_NORTH;
    int along[3] = { mid, rev ? hi : lo, rev ? lo : hi };
    for (int m = 0; m < 3; m++) {
        int x = across ? an->x + along[m] : s->side == UCR_WEST ? an->x - 1 : an->x + an->w;
        int y = across ? (s->side == UCR_NORTH ? an->y - 1 : an->y + an->h) : an->y + along[m];
        s->mouths[m] = (ucr_point){ x, y };
    }
}

/* A side door or secret door: met, else to a new room, else elsewhere. */
static int side_door(ctx *c, side_at *s, int door)
{
    int got = -1;
    for (int m = 0; m < 3 && got == -1; m++)
        got = way_meet(c, s->anchor, s->mouths[m], s->side, 3, door, UCR_EDGE_OPEN);
    bool met = got != -1;
    for (int m = 0; m < 3 && got == -1; m++)
        got = way_place_any(c, s->anchor, s->mouths[m], s->side, 1, 3, -1, END_ROOM, s->rw, s->rh,
                            UCR_STAIR_NONE, false, door, UCR_EDGE_OPEN, s->rolled, NULL);
    if (!met && got >= 0)   /* a new room behind the door: it has a way on */
        onward_door_note(c, got, s->anchor, s->side, s->rolled);
    for (int m = 0; m < 3 && got == -1; m++)
        got = elsewhere_any(c, s->anchor, s->mouths[m], s->side, door, UCR_EDGE_OPEN);
    return got;
}

/* A side passage of 1d4+1 squares, straight, then turning, to a room. */
static int side_branch(ctx *c, side_at *s)
{
    int len = ucr_dice_d(c->rng, 4) + 1;   /* 2-5 squares, as a GM would sketch it */
    char *r2 = g_strdup_printf("%s (side passage 1d4+1=%d squares)", s->rolled, len);
    g_free(s->rolled);
    s->rolled = r2;
    int got = -1;
    for (int m = 0; m < 3 && got == -1; m++)
        got = way_meet(c, s->anchor, s->mouths[m], s->side, len, -1, UCR_EDGE_OPEN);
    bool met = got != -1;
    for (int m = 0; m < 3 && got == -1; m++)
        got = way_place_any(c, s->anchor, s->mouths[m], s->side, len, 5, -1, END_ROOM, s->rw, s->rh,
                            UCR_STAIR_NONE, false, -1, UCR_EDGE_OPEN, s->rolled, NULL);
    for (int m = 0; m < 3 && got == -1; m++)
        got = way_place_any(c, s->anchor, s->mouths[m], s->side, 1, len, -1, END_ROOM, s->rw, s->rh,
                            UCR_STAIR_NONE, true, -1, UCR_EDGE_OPEN, s->rolled, NULL);
    if (!met && got >= 0)   /* a new room: the passage goes on through it */
        onward_note(c, got, s->anchor, s->side, s->rolled);
    for (int m = 0; m < 3 && got == -1; m++)
        got = elsewhere_any(c, s->anchor, s->mouths[m], s->side, -1, UCR_EDGE_OPEN);
    return got;
}

/* At 45°, backwards and forwards along the tunnel, each to a room;
 * where a diagonal does not fit, out and turning (as the other
 * side passages are drawn). */
static int side_diagonals(ctx *c, side_at *s, const side_task *t, const char *which, ucr_lexi_side r)
{
    int anchor = s->anchor;
    ucr_dir side = s->side;
    int g1 = diagonal_place(c, anchor, s->mouths[1], side, s->back, s->rw, s->rh, false, s->rolled);
    if (g1 >= 0)
        onward_note(c, g1, anchor, side, s->rolled);
    if (g1 == -1)
        g1 = way_place_any(c, anchor, s->mouths[1], side, 2, 4, s->back, END_ROOM, s->rw, s->rh,
                           UCR_STAIR_NONE, true, -1, UCR_EDGE_OPEN, s->rolled, NULL);
    int w2 = 2, h2 = 2;
    char size2[96];
    room_roll(c, &w2, &h2, size2, sizeof size2);
    char *rolled2 = g_strdup_printf("%s, %s side: %s; %s", t->where, which,
                                    ucr_leximorph_side_name(r), size2);
    int g2 = diagonal_place(c, anchor, s->mouths[2], side, s->fwd, w2, h2, false, rolled2);
    if (g2 >= 0)
        onward_note(c, g2, anchor, side, rolled2);
    if (g2 == -1)
        g2 = way_place_any(c, anchor, s->mouths[2], side, 2, 4, s->fwd, END_ROOM, w2, h2, UCR_STAIR_NONE,
                           true, -1, UCR_EDGE_OPEN, rolled2, NULL);
    g_free(rolled2);
    if (g1 == -1)
        g1 = elsewhere_any(c, anchor, s->mouths[1], side, -1, UCR_EDGE_OPEN);
    if (g2 == -1)
        g2 = elsewhere_any(c, anchor, s->mouths[2], side, -1, UCR_EDGE_OPEN);
    /* A crowded end: that passage leaves from the middle instead. */
    if (g1 == -1)
        g1 = way_place_any(c, anchor, s->mouths[0], side, 1, 4, s->back, END_ROOM, s->rw, s->rh,
                           UCR_STAIR_NONE, true, -1, UCR_EDGE_OPEN, s->rolled, NULL);
    if (g2 == -1)
        g2 = way_place_any(c, anchor, s->mouths[0], side, 1, 4, s->fwd, END_ROOM, w2, h2, UCR_STAIR_NONE,
                           true, -1, UCR_EDGE_OPEN, s->rolled, NULL);
    if (g1 == -1 || g2 == -1) {
        int g0 = elsewhere_any(c, anchor, s->mouths[0], side, -1, UCR_EDGE_OPEN);
        if (g1 == -1)
            g1 = g0;
        else
            g2 = g0;
    }
    return way_pair_result(c, g1, g2, s->rolled);
}

/* A blocked passage: a short dead end, else blocked elsewhere. */
static int side_blocked(ctx *c, side_at *s)
{
    int got = -1;
    for (int m = 0; m < 3 && got == -1; m++)
        got = way_place_any(c, s->anchor, s->mouths[m], s->side, 1, 3, -1, END_ONLY_DEAD, 0, 0,
                            UCR_STAIR_NONE, true, -1, UCR_EDGE_BLOCKED, s->rolled, NULL);
    for (int m = 0; m < 3 && got == -1; m++)
        got = elsewhere_any(c, s->anchor, s->mouths[m], s->side, -1, UCR_EDGE_BLOCKED);
    return got;
}

/* Two doors into one room; where no room is wide enough for both, each
 * door to a room of its own (and a crowded end from the middle). */
static int side_door_pair(ctx *c, side_at *s)
{
    int anchor = s->anchor;
    ucr_dir side = s->side;
    if (door_pair_place(c, anchor, side, s->rw, s->rh, s->rolled)) {
        ucr_node_outcome(c->node, UCR_LEXI_PAIR_RULE, NULL);
        return 0;
    }
    char *r2 = g_strdup_printf("%s (each door to its own room)", s->rolled);
    int g1 = way_place_any(c, anchor, s->mouths[1], side, 1, 3, -1, END_ROOM, s->rw, s->rh, UCR_STAIR_NONE,
                           false, UCR_DOOR_PLAIN, UCR_EDGE_OPEN, r2, NULL);
    int g2 = way_place_any(c, anchor, s->mouths[2], side, 1, 3, -1, END_ROOM, s->rw, s->rh, UCR_STAIR_NONE,
                           false, UCR_DOOR_PLAIN, UCR_EDGE_OPEN, r2, NULL);
    g_free(r2);
    if (g1 == -1)
        g1 = elsewhere_any(c, anchor, s->mouths[1], side, UCR_DOOR_PLAIN, UCR_EDGE_OPEN);
    if (g2 == -1)
        g2 = elsewhere_any(c, anchor, s->mouths[2], side, UCR_DOOR_PLAIN, UCR_EDGE_OPEN);
    if (g1 == -1 || g2 == -1) {
        /* A crowded end: that door opens from the middle instead. */
        int g0 = way_place_any(c, anchor, s->mouths[0], side, 1, 3, -1, END_ROOM, s->rw, s->rh,
                               UCR_STAIR_NONE, false, UCR_DOOR_PLAIN, UCR_EDGE_OPEN, s->rolled, NULL);
        if (g0 == -1)
            g0 = elsewhere_any(c, anchor, s->mouths[0], side, UCR_DOOR_PLAIN, UCR_EDGE_OPEN);
        if (g1 == -1)
            g1 = g0;
        else
            g2 = g0;
    }
    ucr_node_outcome(c->node, UCR_LEXI_PAIR_RULE,
                     g1 == -1 && g2 == -1 ? "no room for either: none"
                     : g1 == -1 || g2 == -1 ? "room for only one: one door"
                                            : "each door to its own room");
    return way_pair_result(c, g1, g2, s->rolled);
}

/* Stairs that leave the node: down on 1-4, up on 5-6 (d6). */
static int side_stairs(ctx *c, side_at *s)
{
    const ucr_table *stt = ucr_tables_need(c->tables, "leximorph-stairs");
    int d6;
    const ucr_table_row *srow = ucr_table_roll(stt, c->rng, &d6);
    ucr_stair st = strcmp(srow->tag, "up") == 0 ? UCR_STAIR_UP : UCR_STAIR_DOWN;
    char *r2 = g_strdup_printf("%s (d%d=%d: %s)", s->rolled, stt->sides, d6, srow->text);
    g_free(s->rolled);
    s->rolled = r2;
    int ai = -1;
    for (int m = 0; m < 3 && ai < 0; m++)
        ai = way_place_any(c, s->anchor, s->mouths[m], s->side, 1, 3, -1, END_LANDING, 0, 0, st, false, -1,
                           UCR_EDGE_OPEN, s->rolled, NULL);
    if (ai < 0) {
        /* No room on this side: the landing goes off the nearest wall
         * that has room, so the stairs are not lost. */
        ai = landing_anywhere(c->node, c->cv, s->anchor, st, s->rolled);
        if (ai >= 0)
            roll_add(c, g_strdup_printf("%s: no room on this side; the landing is off area at (%d,%d)",
                                        s->rolled, g_array_index(c->node->areas, ucr_area, ai).x,
                                        g_array_index(c->node->areas, ucr_area, ai).y));
    }
    if (ai >= 0) {
        exit_stairs *ex = g_new0(exit_stairs, 1);
        ex->step = (ucr_step){ UCR_STEP_STAIRS, st, -1, false, NULL };
        ex->area = ai;
        g_ptr_array_add(c->plan->exits, ex);
    }
    return ai;
}

/* One side of a tunnel square: rolls its room, then places the kind rolled. */
static void side_place(ctx *c, const side_task *t, ucr_lexi_side r, ucr_dir side, const char *which)
{
    side_at s = { .anchor = t->proto, .side = side, .fwd = t->heading,
                  .back = (ucr_dir)((t->heading + 2) % 4) };
    side_mouths(c, t, &s);
    char size[96] = "";
    if (r == UCR_LEXI_SECRET_DOOR || r == UCR_LEXI_BRANCH || r == UCR_LEXI_DIAGONALS ||
        r == UCR_LEXI_SIDE_DOOR || r == UCR_LEXI_DOOR_PAIR)
        room_roll(c, &s.rw, &s.rh, size, sizeof size);
    s.rolled = g_strdup_printf("%s, %s side: %s%s%s", t->where, which, ucr_leximorph_side_name(r),
                               size[0] ? "; " : "", size);
    int got = 0;
    switch (r) {
    case UCR_LEXI_BLANK:
        break;
    case UCR_LEXI_SECRET_DOOR:
    case UCR_LEXI_SIDE_DOOR:
        got = side_door(c, &s, r == UCR_LEXI_SECRET_DOOR ? UCR_DOOR_SECRET : UCR_DOOR_PLAIN);
        break;
    case UCR_LEXI_BRANCH:
        got = side_branch(c, &s);
        break;
    case UCR_LEXI_DIAGONALS:
        got = side_diagonals(c, &s, t, which, r);
        break;
    case UCR_LEXI_BLOCKED:
        got = side_blocked(c, &s);
        break;
    case UCR_LEXI_DOOR_PAIR:
        got = side_door_pair(c, &s);
        break;
    case UCR_LEXI_STAIRS:
        got = side_stairs(c, &s);
        break;
    }
    if (got == -1) {
        c->node->unplaced++;
        roll_add(c, g_strdup_printf("%s: no room on the map", s.rolled));
    }
    g_free(s.rolled);
}

/* Every side's way: the pairs of doors first, as they need the widest
 * stretch of rock (a room three squares along the wall, beyond both doors),
 * then the rest in the order they were rolled. */
static void sides_place(ctx *c)
{
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < c->tasks->len; i++) {
            const side_task *t = &g_array_index(c->tasks, side_task, i);
            ucr_dir left = (ucr_dir)((t->heading + 3) % 4), right = (ucr_dir)((t->heading + 1) % 4);
            if ((t->left == UCR_LEXI_DOOR_PAIR) == (pass == 0))
                side_place(c, t, t->left, left, "left");
            if ((t->right == UCR_LEXI_DOOR_PAIR) == (pass == 0))
                side_place(c, t, t->right, right, "right");
        }
}

/* Fewer rooms than this is no sublevel (issue #22): the GM adds doors. */
enum { MIN_ROOMS = 4 };

static int rooms_count(const ucr_node *node)
{
    int n = 0;
    for (guint a = 0; a < node->areas->len; a++)
        n += g_array_index(node->areas, ucr_area, a).kind == UCR_AREA_ROOM;
    return n;
}

typedef struct {
    int area;
    ucr_dir side;
    ucr_point mouth;
} gm_door;

/* A node whose dice drew fewer than MIN_ROOMS rooms (letters of diagonal
 * strokes, which the 60-ft checks pass by, and few d6 rooms): the GM adds a
 * door to a new room (seed 003: "if you decide you need more exits, you can
 * go back and place them manually"), on a wall of a junction or room with
 * open rock beyond, rolled among them (1dN), the next that fits where that
 * one has no room; its room rolled on the room-size table. */
static void rooms_top_up(ctx *c)
{
    while (rooms_count(c->node) < MIN_ROOMS) {
        GArray *open = g_array_new(FALSE, FALSE, sizeof(gm_door));
        for (guint a = 0; a < c->node->areas->len; a++) {
            const ucr_area *ar = &g_array_index(c->node->areas, ucr_area, a);
            if (ar->kind != UCR_AREA_JUNCTION && ar->kind != UCR_AREA_ROOM)
                continue;
            for (int d = 0; d < 4; d++)
                for (int k = 0; k < ucr_area_wall_length(ar, (ucr_dir)d); k++) {
                    gm_door g = { (int)a, (ucr_dir)d, ucr_area_mouth(ar, (ucr_dir)d, k) };
                    if (inside(c, g.mouth) && ucr_canvas_owner(c->cv, g.mouth) == UCR_CANVAS_EMPTY)
                        g_array_append_val(open, g);
                }
        }
        int have = rooms_count(c->node), got = -1;
        int pick = open->len ? ucr_dice_d(c->rng, (int)open->len) : 0;
        int rw = 3, rh = 3;
        char size[96];
        room_roll(c, &rw, &rh, size, sizeof size);
        for (guint j = 0; j < open->len && got < 0; j++) {
            gm_door g = g_array_index(open, gm_door, ((guint)pick - 1 + j) % open->len);
            char *rolled = g_strdup_printf("the GM adds a door: the map closed with %d room%s (1d%u=%d of the "
                                           "walls with open rock beyond); %s",
                                           have, have == 1 ? "" : "s", open->len, pick, size);
            got = way_place_any(c, g.area, g.mouth, g.side, 1, 3, -1, END_ROOM, rw, rh, UCR_STAIR_NONE, false,
                                UCR_DOOR_PLAIN, UCR_EDGE_OPEN, rolled, NULL);
            if (got >= 0)
                roll_add(c, g_strdup(rolled));
            g_free(rolled);
        }
        g_array_free(open, TRUE);
        if (got < 0)
            return;   /* no wall of the node has room for one */
    }
}

/* ---- roll --------------------------------------------------------------- */

static void ctx_reset(ctx *c)
{
    for (guint i = 0; c->protos && i < c->protos->len; i++)
        g_free(g_array_index(c->protos, proto, i).rolled);
    for (guint k = 0; c->chains && k < c->chains->len; k++) {
        chain *ch = &g_array_index(c->chains, chain, k);
        if (ch->sq)
            g_array_free(ch->sq, TRUE);
    }
    if (c->protos)
        g_array_free(c->protos, TRUE);
    if (c->chains)
        g_array_free(c->chains, TRUE);
    if (c->tasks)
        g_array_free(c->tasks, TRUE);
    for (guint i = 0; c->onwards && i < c->onwards->len; i++)
        g_free(g_array_index(c->onwards, onward, i).rolled);
    if (c->onwards)
        g_array_free(c->onwards, TRUE);
    c->onwards = NULL;
    c->protos = c->chains = c->tasks = NULL;
    ucr_canvas_free(c->cv);
    c->cv = NULL;
    g_free(c->sk);
    g_free(c->dg);
    g_free(c->dside);
    c->dg = c->dside = NULL;
    g_free(c->stroke);
    c->stroke = NULL;
    if (c->stroke_left)
        g_array_free(c->stroke_left, TRUE);
    c->stroke_left = NULL;
    g_free(c->line[0]);
    g_free(c->line[1]);
    c->line[0] = c->line[1] = NULL;
    if (c->lines)
        g_array_free(c->lines, TRUE);
    c->lines = NULL;
    g_free(c->forced);
    g_free(c->exitsq);
    g_free(c->own);
    g_free(c->hole);
    c->hole = NULL;
    g_free(c->cid);
    g_free(c->cpos);
    c->sk = c->forced = c->exitsq = NULL;
    c->own = c->cid = c->cpos = NULL;
    c->nlinks = 0;
}

static void node_clear(ucr_node *node, guint keep_rolls)
{
    for (guint i = 0; i < node->areas->len; i++)
        g_free(g_array_index(node->areas, ucr_area, i).rolled);
    for (guint i = 0; i < node->passages->len; i++) {
        g_array_free(g_array_index(node->passages, ucr_passage, i).cells, TRUE);
        g_array_free(g_array_index(node->passages, ucr_passage, i).stairs, TRUE);
    }
    g_array_set_size(node->areas, 0);
    g_array_set_size(node->passages, 0);
    g_array_set_size(node->doors, 0);
    g_array_set_size(node->vertices, 0);
    g_ptr_array_set_size(node->rolls, keep_rolls);
    node->unplaced = 0;
}

/* One try at the drawing; false if the template could not be routed. */
static bool draw_try(ctx *c)
{
    ucr_leximorph_plan *plan = c->plan;
    int n = c->W * c->H;
    c->cv = ucr_canvas_new(c->W, c->H);
    c->sk = g_new0(guint8, n);
    c->dg = g_new0(guint8, n);
    c->dside = g_new0(guint8, n);
    c->stroke = g_new(int, n);
    for (int i = 0; i < n; i++)
        c->stroke[i] = -1;
    c->stroke_left = g_array_new(FALSE, FALSE, sizeof(int));
    c->forced = g_new0(guint8, n);
    c->exitsq = g_new0(guint8, n);
    c->own = g_new(int, n);
    c->cid = g_new(int, n);
    c->cpos = g_new(int, n);
    c->protos = g_array_new(FALSE, TRUE, sizeof(proto));
    c->chains = g_array_new(FALSE, TRUE, sizeof(chain));
    c->tasks = g_array_new(FALSE, TRUE, sizeof(side_task));
    c->grow_margin = 1;
    c->onwards = g_array_new(FALSE, TRUE, sizeof(onward));
    /* Each letter centred in its sector, moved up to a square either way
     * (a hand-drawn template is never quite regular). */
    int ew = 0, eh = 0;
    for (int i = 0; i < plan->nletters; i++) {
        ew = MAX(ew, (plan->letters[i].g.w - 1) * c->S + 1);
        eh = MAX(eh, (plan->letters[i].g.h - 1) * c->S + 1);
    }
    for (int i = 0; i < plan->nletters; i++) {
        letter *L = &plan->letters[i];
        int col = i % plan->cols, row = i / plan->cols;
        int lw = (L->g.w - 1) * c->S + 1, lh = (L->g.h - 1) * c->S + 1;
        int jx = ucr_dice_d(c->rng, 3) - 2, jy = ucr_dice_d(c->rng, 3) - 2;
        /* ...but never into a tight margin: the superstructure tunnels
         * need its three squares of rock for their chambers (seed 004's
         * double 2s and 4s). */
        if (plan->margin_x < ROOMY.margin || plan->margin_e < ROOMY.margin || plan->margin_y < ROOMY.margin) {
            bool tw = plan->margin_x < ROOMY.margin, te = plan->margin_e < ROOMY.margin;
            bool ty = plan->margin_y < ROOMY.margin;
            jx = tw && col == 0 ? MAX(jx, 0) : jx;
            jx = te && col == plan->cols - 1 ? MIN(jx, 0) : jx;
            jy = ty && row == 0 ? MAX(jy, 0) : jy;
            /* ...nor into a narrowed gap (size_narrow): its connectors. */
            jx = plan->gap_x < plan->gap && col > 0 ? MAX(jx, 0) : jx;
            jx = plan->gap_x < plan->gap && col < plan->cols - 1 ? MIN(jx, 0) : jx;
            jy = ty && row == plan->rows - 1 ? MIN(jy, 0) : jy;
        }
        L->x0 = plan->margin_x + col * (ew + plan->gap_x) + (ew - lw) / 2 + jx;
        L->y0 = plan->margin_y + row * (eh + plan->gap) + (eh - lh) / 2 + jy;
        letter_draw(c, i);
    }
    c->line[0] = g_new(int, n);
    c->line[1] = g_new(int, n);
    c->lines = g_array_new(FALSE, FALSE, sizeof(line_count));
    lines_mark(c);
    c->hole = g_new0(guint8, n);
    holes_mark(c);
    for (int i = 0; i < plan->nletters; i++) {
        int col = i % plan->cols;
        if (col + 1 < plan->cols && i + 1 < plan->nletters && !letters_connect(c, i, i + 1, UCR_EAST))
            return false;
        if (i + plan->cols < plan->nletters && !letters_connect(c, i, i + plan->cols, UCR_SOUTH))
            return false;
    }
    for (int d = 0; d < 4; d++)
        if (c->join_sides[d] && !join_route(c, (ucr_dir)d))
            return false;
    g_free(plan->skeleton);
    plan->skeleton = g_memdup2(c->sk, (gsize)n);
    if (!template_trace(c))
        return false;
    chains_index(c);
    junctions_roll(c);
    checks_roll(c);
    model_emit(c);
    /* The canvas of what is drawn: areas and passages as ucr_attach owns them. */
    ucr_canvas_free(c->cv);
    c->cv = lexi_canvas(c->node);
    sides_place(c);
    onwards_place(c);
    rooms_top_up(c);
    return true;
}

static const ucr_letters *letters_default(ucr_letters **owned)
{
    char *path = g_build_filename(ucr_datadir(), "templates", "letters.txt", NULL);
    GError *error = NULL;
    *owned = ucr_letters_load(path, &error);
    g_free(path);
    if (!*owned)
        g_error("leximorph: %s", error->message);   /* main() checks this file first */
    return *owned;
}

static void size_set(ucr_leximorph_plan *plan, int gw, int gh, int S, spacing sp)
{
    plan->scale = S;
    plan->margin = plan->margin_x = plan->margin_y = plan->margin_e = sp.margin;
    plan->gap = plan->gap_x = sp.gap;
    plan->w = 2 * sp.margin + plan->cols * ((gw - 1) * S + 1) + (plan->cols - 1) * sp.gap;
    plan->h = 2 * sp.margin + plan->rows * ((gh - 1) * S + 1) + (plan->rows - 1) * sp.gap;
}

/* The map's size for letters of at most @gw x @gh characters: the largest
 * scale, roomy before tight, whose map prints whole on one page (the word
 * read at a glance, seed 002); when none does (seven letters or more), the
 * largest whose roomy map is at most MAX_W x MAX_H, in parts on a small
 * page. */
static void size_choose_standard(ucr_leximorph_plan *plan, int gw, int gh)
{
    for (int S = MAX_SCALE; S >= PAGE_SCALE; S--)
        for (int k = 0; k < 2; k++) {
            size_set(plan, gw, gh, S, k ? TIGHT : ROOMY);
            if ((plan->w <= PAGE_W && plan->h <= PAGE_H) || (plan->w <= TURNED_W && plan->h <= TURNED_H))
                return;
        }
    for (int S = MAX_SCALE; S >= MIN_SCALE; S--) {
        size_set(plan, gw, gh, S, ROOMY);
        if (plan->w <= MAX_W && plan->h <= MAX_H)
            return;
    }
}

/* The largest scale, roomiest spacing first, whose map is at most @w x @h;
 * false when none is. */
static bool size_fit(ucr_leximorph_plan *plan, int gw, int gh, int max_scale, int w, int h)
{
    static const spacing *const ORDER[] = { &ROOMY, &TIGHT, &SNUG };
    for (int S = max_scale; S >= MIN_SCALE; S--)
        for (int k = 0; k < 3; k++) {
            size_set(plan, gw, gh, S, *ORDER[k]);
            if (plan->w <= w && plan->h <= h)
                return true;
        }
    return false;
}

/* Whether the map of @plan prints as a standard map (STD_SLACK). */
static bool size_printable(const ucr_leximorph_plan *plan)
{
    int w, h;
    ucr_node_size_extent(UCR_NODE_STANDARD, plan->w, plan->h, &w, &h);
    return (plan->w <= w + STD_SLACK && plan->h <= h + STD_SLACK) ||
           (plan->w > plan->h && plan->w <= STD_TURNED_W && plan->h <= STD_TURNED_H);
}

/* The standard map: the largest scale from size_choose_standard()'s down to
 * PAGE_SCALE, roomy then tight, whose map prints (size_printable);
 * else as size_choose_standard() (seven letters or more, in parts on a
 * small page). */
static void size_choose_trimmed(ucr_leximorph_plan *plan, int gw, int gh)
{
    static const spacing *const ORDER[] = { &ROOMY, &TIGHT };
    size_choose_standard(plan, gw, gh);
    for (int S = plan->scale; S >= PAGE_SCALE; S--)
        for (int k = 0; k < 2; k++) {
            size_set(plan, gw, gh, S, *ORDER[k]);
            if (size_printable(plan))
                return;
        }
    size_choose_standard(plan, gw, gh);
}

/* Issue #21, the standard map at 4 mm a square on A4: a page's width is
 * what binds (180 mm between its margins for the map and 1.2 squares of
 * sheet: 43 squares print at 4.07 mm, 44 at 3.98), so a map wider than
 * UCR_STANDARD_W + NARROW_SLACK loses columns of rock where no tunnel needs
 * them: a side without a superstructure join keeps SNUG's margin (the
 * chambers of seed 004's rooms on a tunnel need the three squares of a join
 * side: check_attach); joins east and west both, the gap between the
 * columns shrinks to SNUG's.  Four letters of five characters at four
 * squares: 42 wide with no join east or west (4.17 mm), 43 with one or both
 * (4.07 mm); the height (44) is within UCR_STANDARD_H. */
enum { NARROW_SLACK = 3 };
static void size_narrow(ucr_leximorph_plan *plan, int gw, const bool join_sides[4])
{
    int ew = (gw - 1) * plan->scale + 1, most = UCR_STANDARD_W + NARROW_SLACK;
    if (plan->w <= most || plan->w > UCR_STANDARD_W + STD_SLACK || plan->h > UCR_STANDARD_H + STD_SLACK)
        return;   /* narrow enough, or turned to landscape or in parts */
    if (!join_sides || !join_sides[UCR_WEST])
        plan->margin_x = MIN(plan->margin_x, SNUG.margin);
    if (!join_sides || !join_sides[UCR_EAST])
        plan->margin_e = MIN(plan->margin_e, SNUG.margin);
    int w = plan->margin_x + plan->margin_e + plan->cols * ew;
    if (w + (plan->cols - 1) * plan->gap_x > most)
        plan->gap_x = MIN(plan->gap_x, SNUG.gap);
    plan->w = w + (plan->cols - 1) * plan->gap_x;
}

/* The map's size at node size @size: standard as size_choose_trimmed(),
 * narrowed (size_narrow);
 * large, the largest scale (up to half again the untrimmed standard's) whose
 * map is within half again that map each way; pocket, the largest within
 * UCR_POCKET_W x UCR_POCKET_H.  False when the letters cannot be drawn that
 * small (the plan keeps the smallest map). */
static bool size_choose(ucr_leximorph_plan *plan, int gw, int gh, ucr_node_size size, const bool join_sides[4])
{
    size_choose_standard(plan, gw, gh);
    if (size == UCR_NODE_STANDARD) {
        size_choose_trimmed(plan, gw, gh);
        size_narrow(plan, gw, join_sides);
        return true;
    }
    int w, h;
    ucr_node_size_extent(size, plan->w, plan->h, &w, &h);
    if (size == UCR_NODE_LARGE)
        return size_fit(plan, gw, gh, plan->scale * 3 / 2, w, h);
    if (size_fit(plan, gw, gh, MAX_SCALE, UCR_POCKET_W, UCR_POCKET_H)) {
        /* The rest of the pocket is margin, for the rooms the d6 and d8
         * grow off the outer tunnels. */
        plan->margin_x += (UCR_POCKET_W - plan->w) / 2;
        plan->margin_e = plan->margin_x;
        plan->margin_y += (UCR_POCKET_H - plan->h) / 2;
        plan->w += 2 * ((UCR_POCKET_W - plan->w) / 2);
        plan->h += 2 * ((UCR_POCKET_H - plan->h) / 2);
        return true;
    }
    size_set(plan, gw, gh, MIN_SCALE, SNUG);
    return false;
}

ucr_leximorph_plan *ucr_leximorph_plan_roll(ucr_prng *rng, const bool join_sides[4],
                                            const ucr_tables *tables,
                                            const ucr_leximorph_options *options)
{
    ucr_leximorph_plan *plan = g_new0(ucr_leximorph_plan, 1);
    plan->exits = g_ptr_array_new_with_free_func(g_free);
    plan->node = ucr_node_new("?", 0, 0);
    plan->node->method = "leximorph";
    ucr_letters *owned = NULL;
    const ucr_letters *letters = options && options->letters ? options->letters : letters_default(&owned);
    const char *word = options && options->word && options->word[0] ? options->word : NULL;
    ucr_node_size size = options ? options->size : UCR_NODE_STANDARD;
    int ns = word ? (int)strlen(word) : options && options->sectors > 0 ? options->sectors
                                                                        : 4;
    ns = CLAMP(ns, 1, UCR_LEXI_MAX_SECTORS);
    plan->nletters = ns;
    plan->cols = 1;
    while (plan->cols * plan->cols < ns)
        plan->cols++;
    plan->rows = (ns + plan->cols - 1) / plan->cols;
    for (int i = 0; i < ns; i++) {
        letter *L = &plan->letters[i];
        L->squares = g_array_new(FALSE, FALSE, sizeof(ucr_point));
        L->strokes = g_array_new(FALSE, FALSE, sizeof(int));
        const ucr_glyph *g = word ? ucr_letters_find_any_case(letters, word[i]) : NULL;
        char sector[48];
        g_snprintf(sector, sizeof sector, "sector %d (row %d, column %d)", i + 1, i / plan->cols + 1,
                   i % plan->cols + 1);
        if (g) {
            /* A chosen word is drawn upright, to be read. */
            L->g = *g;
            g_snprintf(L->rolled, sizeof L->rolled, "--word: %c", g->name);
        } else {
            /* seed 002: "Roll a d10 once for each sector … Optionally, roll
             * a d4 for rotation of each letter". */
            const ucr_table *lt = ucr_tables_need(tables, "leximorph-letter");
            int total;
            char name = ucr_leximorph_letter(ucr_table_roll(lt, rng, &total));
            int face = lt->sides == 10 && lt->count == 1 ? total % 10 : total;   /* the seed's 0 */
            const ucr_table *rt = ucr_tables_need(tables, "leximorph-rotation");
            int d4 = 1;
            const ucr_table_row *rrow = options && options->rotate ? ucr_table_roll(rt, rng, &d4) : NULL;
            g = ucr_letters_find(letters, name);
            if (!g)   /* main() checks the file has the table's letters */
                g = &g_array_index(letters->glyphs, ucr_glyph, 0);
            L->g = ucr_glyph_rotate(g, rrow ? ucr_leximorph_rotation(rrow) : 1);
            if (rrow)
                g_snprintf(L->rolled, sizeof L->rolled, "d%d=%d: %c; d%d=%d: %s", lt->sides, face, name,
                           rt->sides, d4, rrow->text);
            else
                g_snprintf(L->rolled, sizeof L->rolled, "d%d=%d: %c", lt->sides, face, name);
        }
        g_ptr_array_add(plan->node->rolls, g_strdup_printf("%s: %s", sector, L->rolled));
    }
    int gw = 1, gh = 1;
    for (int i = 0; i < ns; i++) {
        gw = MAX(gw, plan->letters[i].g.w);
        gh = MAX(gh, plan->letters[i].g.h);
    }
    plan->too_small = !size_choose(plan, gw, gh, size, join_sides);
    plan->node->width = plan->w;
    plan->node->height = plan->h;
    guint keep = plan->node->rolls->len;
    ctx c = { 0 };
    c.plan = plan;
    c.rng = rng;
    c.tables = tables;
    c.join_sides = join_sides;
    c.node = plan->node;
    c.W = plan->w;
    c.H = plan->h;
    c.S = plan->scale;
    c.closet = 2;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        bool ok = draw_try(&c);
        bool last = attempt == ATTEMPTS - 1;
        /* Something found no room: draw it again, letters moved a little
         * (seed 002 wants every roll on the map). */
        if (ok && (plan->node->unplaced == 0 || last)) {
            ctx_reset(&c);
            break;
        }
        ctx_reset(&c);
        node_clear(plan->node, keep);
        g_ptr_array_set_size(plan->exits, 0);
        if (last) {
            plan->failed = true;
            plan->node->unplaced++;
            g_ptr_array_add(plan->node->rolls, g_strdup("the letters could not be joined into one "
                                                        "network on this map"));
        }
    }
    ucr_letters_free(owned);
    return plan;
}

void ucr_leximorph_plan_free(void *vplan)
{
    ucr_leximorph_plan *plan = vplan;
    if (!plan)
        return;
    ucr_node_free(plan->node);
    for (int i = 0; i < plan->nletters; i++) {
        if (plan->letters[i].squares)
            g_array_free(plan->letters[i].squares, TRUE);
        if (plan->letters[i].strokes)
            g_array_free(plan->letters[i].strokes, TRUE);
    }
    g_ptr_array_free(plan->exits, TRUE);
    g_free(plan->skeleton);
    g_free(plan);
}

void ucr_leximorph_plan_exits(void *vplan, GPtrArray *out)
{
    ucr_leximorph_plan *plan = vplan;
    for (guint i = 0; i < plan->exits->len; i++)
        g_ptr_array_add(out, &((exit_stairs *)g_ptr_array_index(plan->exits, i))->step);
}

/* An arrival where ucr_attach_landing found no room: off any area's wall
 * (gen/kit/embed.h's last resort). */
static int arrival_anywhere(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arrival, void *data)
{
    (void)data;
    return landing_anywhere(node, cv, 0, arrival->stair, NULL);
}

ucr_node *ucr_leximorph_embed(void *vplan, const char *id, int col, int row, const ucr_node_request *req,
                              ucr_prng *rng, GError **error)
{
    ucr_leximorph_plan *plan = vplan;
    if (plan->too_small) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "node %s: %d leximorph letters (--word or --sectors) need %d x %d squares at the least, "
                    "more than a pocket node's %d x %d: give fewer, or --node-size standard",
                    id, plan->nletters, plan->w, plan->h, UCR_POCKET_W, UCR_POCKET_H);
        return NULL;
    }
    if (plan->failed) {
        /* Its joins were never drawn: no node to hand over. */
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE,
                    "node %s: its %d letters could not be joined into one network in %d attempts "
                    "(please report the seed)", id, plan->nletters, ATTEMPTS);
        return NULL;
    }
    ucr_node *node = ucr_embed_take(&plan->node, id, col, row, "leximorph", error);
    if (!node)
        return NULL;
    for (guint i = 0; i < plan->exits->len; i++) {
        const exit_stairs *ex = g_ptr_array_index(plan->exits, i);
        if (ex->step.link >= 0)
            req->link_area[ex->step.link] = ex->area;
    }
    ucr_embed_joins_drawn(node, req, plan->join_passage, plan->join_area);
    /* The squares beside the diagonal steps are taken too. */
    ucr_canvas *cv = lexi_canvas(node);
    ucr_embed_arrivals_on(node, cv, req, rng, NULL, arrival_anywhere, NULL);
    ucr_canvas_free(cv);
    return node;
}

int ucr_leximorph_plan_letter_count(const ucr_leximorph_plan *plan)
{
    return plan->nletters;
}

int ucr_leximorph_plan_scale(const ucr_leximorph_plan *plan)
{
    return plan->scale;
}

char ucr_leximorph_plan_letter(const ucr_leximorph_plan *plan, int i)
{
    return plan->letters[i].g.name;
}

const GArray *ucr_leximorph_plan_letter_squares(const ucr_leximorph_plan *plan, int i)
{
    return plan->letters[i].squares;
}

const GArray *ucr_leximorph_plan_letter_strokes(const ucr_leximorph_plan *plan, int i)
{
    return plan->letters[i].strokes;
}

const guint8 *ucr_leximorph_plan_skeleton(const ucr_leximorph_plan *plan, int *width, int *height)
{
    *width = plan->w;
    *height = plan->h;
    return plan->skeleton;
}

/* ---- the method --------------------------------------------------------- */

static void *lexi_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                       const ucr_method_options *options)
{
    const ucr_leximorph_options *own = ucr_method_options_get(options, &ucr_leximorph_method);
    ucr_leximorph_options o = own ? *own : (ucr_leximorph_options){ 0 };
    o.size = options ? options->node_size : UCR_NODE_STANDARD;
    return ucr_leximorph_plan_roll(rng, join_sides, tables, &o);
}

/* seed 002's tables (templates/tables/leximorph-*.txt) and the kinds of row
 * this file acts on. */
static const char *lexi_letter_text(const char *tag, const char *text)
{
    (void)tag;
    return g_ascii_isalpha(text[0]) && text[1] == '\0' ? NULL
                                                       : "a [letter] row is one letter of templates/letters.txt";
}

static const char *const LEXI_LETTER_KINDS[] = { "letter", NULL };
static const char *const LEXI_ROTATION_KINDS[] = { "upright", "clockwise", "upside-down", "counter-clockwise",
                                                   NULL };
static const char *const LEXI_JUNCTION_KINDS[] = { "ordinary", "trapped", "disabled", "obstacle", "door", "room",
                                                   NULL };
static const char *const LEXI_OBSTACLE_KINDS[] = { "debris", "pool", NULL };
static const char *const LEXI_WALL_KINDS[] = { "blank", "secret", "branch", "diagonals", "blocked", "door",
                                               "door-pair", "stairs", NULL };
static const char *const LEXI_STAIRS_KINDS[] = { "down", "up", NULL };
static const ucr_table_need LEXI_NEEDS[] = {
    { "leximorph-letter", LEXI_LETTER_KINDS, lexi_letter_text, FALSE },
    { "leximorph-rotation", LEXI_ROTATION_KINDS, NULL, FALSE },
    { "leximorph-junction", LEXI_JUNCTION_KINDS, NULL, FALSE },
    { "leximorph-obstacle", LEXI_OBSTACLE_KINDS, NULL, FALSE },
    { "leximorph-wall", LEXI_WALL_KINDS, NULL, FALSE },
    { "leximorph-stairs", LEXI_STAIRS_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};
static const ucr_table_need *const LEXI_TABLES[] = { LEXI_NEEDS, NULL };

/* The command line: --word, --sectors, --rotate, --letters. */
typedef struct {
    char *word, *letters_path;       /* as GOption sets them */
    int sectors;
    gboolean rotate;
    ucr_letters *letters;            /* loaded by lexi_cli_ready */
    ucr_leximorph_options options;
} lexi_cli;

static void *lexi_cli_new(GOptionEntry **entries)
{
    lexi_cli *c = g_new0(lexi_cli, 1);
    const GOptionEntry list[] = {
        { "word", 0, 0, G_OPTION_ARG_STRING, &c->word,
          "leximorph: draw these letters, one per sector, instead of rolling them (e.g. BLOOD)",
          "WORD" },
        { "sectors", 0, 0, G_OPTION_ARG_INT, &c->sectors,
          "leximorph: sectors (letters) per node, 1-9 (default 4, or the length of --word)", "N" },
        { "rotate", 0, 0, G_OPTION_ARG_NONE, &c->rotate,
          "leximorph: turn each rolled letter by seed 002's optional d4", NULL },
        { "letters", 0, 0, G_OPTION_ARG_FILENAME, &c->letters_path,
          "leximorph: letter shapes from FILE (default templates/letters.txt)", "FILE" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    *entries = g_memdup2(list, sizeof list);
    return c;
}

/* The values, then the letter shapes (every node may be leximorph). */
static gboolean lexi_cli_ready(void *state, GError **error)
{
    lexi_cli *c = state;
    const char *word = c->word;
    int sectors = c->sectors;
    if (sectors && (sectors < 1 || sectors > UCR_LEXI_MAX_SECTORS)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --sectors %d: use 1 to %d", sectors,
                    UCR_LEXI_MAX_SECTORS);
        return FALSE;
    }
    if (word && (g_utf8_strlen(word, -1) < 1 || g_utf8_strlen(word, -1) > UCR_LEXI_MAX_SECTORS)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --word '%s': use 1 to %d letters (one per sector)",
                    word, UCR_LEXI_MAX_SECTORS);
        return FALSE;
    }
    if (word && sectors && sectors != (int)g_utf8_strlen(word, -1)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "--sectors %d does not match --word '%s' (%d letters, one per sector)", sectors, word,
                    (int)g_utf8_strlen(word, -1));
        return FALSE;
    }
    char *path = c->letters_path ? g_strdup(c->letters_path)
                                 : g_build_filename(ucr_datadir(), "templates", "letters.txt", NULL);
    c->letters = ucr_letters_load(path, error);
    g_free(path);
    if (!c->letters)
        return FALSE;
    for (const char *w = word; w && *w; w = g_utf8_next_char(w))
        if ((*w & 0x80) || !ucr_letters_find_any_case(c->letters, *w)) {
            char *names = ucr_letters_names(c->letters);
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "--word '%s': no letter '%.*s' in %s; available: %s",
                        word, (int)(g_utf8_next_char(w) - w), w, c->letters->path, names);
            g_free(names);
            return FALSE;
        }
    return TRUE;
}

/* Every letter the d10 letter table can roll must have a shape. */
static gboolean lexi_cli_tables_check(void *state, const ucr_tables *tables, GError **error)
{
    lexi_cli *c = state;
    const ucr_table *letter_table = ucr_tables_need(tables, "leximorph-letter");
    for (guint r = 0; c->letters && !c->word && r < letter_table->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(letter_table->rows, ucr_table_row, r);
        if (!ucr_letters_find(c->letters, ucr_leximorph_letter(row))) {
            char *names = ucr_letters_names(c->letters);
            g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                        "%s:%d: no letter '%c' in %s (it has %s): draw it there, or change the table, "
                        "or give --word", letter_table->path, row->line, ucr_leximorph_letter(row),
                        c->letters->path, names);
            g_free(names);
            return FALSE;
        }
    }
    return TRUE;
}

static const void *lexi_cli_get(void *state)
{
    lexi_cli *c = state;
    c->options.word = c->word;
    c->options.sectors = c->sectors;
    c->options.rotate = c->rotate;
    c->options.letters = c->letters;
    return &c->options;
}

static void lexi_cli_free(void *state)
{
    lexi_cli *c = state;
    g_free(c->word);
    g_free(c->letters_path);
    ucr_letters_free(c->letters);
    g_free(c);
}

static const ucr_cli_range LEXI_RANGES[] = {
    { "sectors", 1, UCR_LEXI_MAX_SECTORS },
    { NULL, 0, 0 },
};

static const ucr_method_cli LEXI_CLI = {
    .ranges = LEXI_RANGES,
    .state_new = lexi_cli_new,
    .ready = lexi_cli_ready,
    .tables_check = lexi_cli_tables_check,
    .get = lexi_cli_get,
    .state_free = lexi_cli_free,
};

const ucr_node_method ucr_leximorph_method = {
    .name = "leximorph",
    .seeds = "002, 001",
    .summary = "pre-loading: a letter (d10: R A D T Q L X P B g, d4 turn) per sector, d6 junctions, d8 every 60 ft",
    .roll = lexi_roll,
    .exits = ucr_leximorph_plan_exits,
    .embed = ucr_leximorph_embed,
    .free = ucr_leximorph_plan_free,
    .tables = LEXI_TABLES,
    .sized = true,
    .cli = &LEXI_CLI,
};
