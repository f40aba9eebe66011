/* undercroft — the kit's one search: shortest paths over (square, heading,
 * extra) on a canvas, with rules a caller supplies.
 *
 * Every corridor router of the generator is this search with its own rules:
 * which moves a state has and what they cost (ucr_search_rules.step), what a
 * state taken from the queue is (a goal, a dead end, or a way on: .visit), a
 * heuristic or none (A* or Dijkstra), and the queue (a binary heap, or FIFO
 * buckets of equal cost: their tie-break orders differ, and each router keeps
 * the one its dungeons were made with).  A state is a number: the square, the
 * heading it was entered by, and an optional extra value (compass's lap
 * round room 9) — see ucr_search_state().
 *
 * The work arrays belong to the canvas (ucr_canvas_search) and are kept from
 * search to search: a state counts only when its stamp is this search's
 * number, so a search touches only what it reaches.  One search at a time on
 * a canvas: a rule must not start another.
 */
#ifndef UCR_SEARCH_H
#define UCR_SEARCH_H

#include <stdbool.h>
#include "model/model.h"

typedef struct ucr_search ucr_search;

/** The queue: a binary heap (core/heap.h) of cost + heuristic, or buckets of
 *  equal cost taken first in, first out (costs must not go down). */
typedef enum { UCR_SEARCH_HEAP, UCR_SEARCH_BUCKETS } ucr_search_queue;

/** What a state taken from the queue is. */
typedef enum {
    UCR_VISIT_GO,       /* try its moves */
    UCR_VISIT_GOAL,     /* the search ends here */
    UCR_VISIT_STOP,     /* a dead end: no moves from it */
    UCR_VISIT_FALLBACK, /* a goal to keep if no UCR_VISIT_GOAL comes (the first one); no moves from it */
} ucr_search_visit;

/** One move, filled in by ucr_search_rules.step. */
typedef struct {
    int to;         /* the state it reaches (ucr_search_state) */
    int cost;       /* > 0 */
    int aux[2];     /* the caller's values, kept with @to if the move is taken */
    bool goal;      /* reaching @to ends the search (found on the way, not when dequeued) */
} ucr_search_move;

/** A state taken from the queue, decoded once for the rules. */
typedef struct {
    int st;         /* the state */
    int g;          /* its cost */
    ucr_point p;    /* its square */
    ucr_dir head;   /* the heading it was entered by */
    int extra;      /* its extra value */
} ucr_search_at;

/** The rules of one search.  @data is handed to every rule. */
typedef struct {
    ucr_search_queue queue;
    int extra;              /* values of the extra state: 1 (or 0) for none */
    int cost_limit;         /* moves reaching this cost or more are not taken; 0: no limit */
    void *data;
    /** What the state @at is; NULL: always UCR_VISIT_GO. */
    ucr_search_visit (*visit)(void *data, ucr_search *s, const ucr_search_at *at);
    /** The move from the state @at towards @d into @mv; false if there is
     *  none.  Moves are tried north, east, south, west. */
    bool (*step)(void *data, ucr_search *s, const ucr_search_at *at, ucr_dir d, ucr_search_move *mv);
    /** A lower bound of the cost from the square of state @st to a goal;
     *  NULL: none (Dijkstra). */
    int (*heuristic)(void *data, int st);
} ucr_search_rules;

/** A search over a @w × @h canvas; the canvas owns it (ucr_canvas_search). */
ucr_search *ucr_search_new(int w, int h);
void ucr_search_free(ucr_search *s);

/** Starts a search with @rules (borrowed until ucr_search_run returns):
 *  every state and square memo of earlier searches is forgotten. */
void ucr_search_begin(ucr_search *s, const ucr_search_rules *rules);

/** Adds a start state: @mv->to at cost @mv->cost with @mv->aux, no
 *  predecessor (a later start overwrites an earlier one of the same state). */
void ucr_search_start(ucr_search *s, const ucr_search_move *mv);

/** Runs the search; returns the goal state (a UCR_VISIT_GOAL, a move's
 *  goal, else the first UCR_VISIT_FALLBACK), or -1. */
int ucr_search_run(ucr_search *s);

/* ---- states ----------------------------------------------------------- */

/** The state of square @p entered heading @head with extra value @extra. */
static inline int ucr_search_state(const ucr_search *s, ucr_point p, ucr_dir head, int extra);
/** The square, heading and extra value of state @st. */
static inline ucr_point ucr_search_square(const ucr_search *s, int st);
static inline ucr_dir ucr_search_heading(const ucr_search *s, int st);
static inline int ucr_search_extra(const ucr_search *s, int st);
/** The index (y × width + x) of the square of state @st. */
static inline int ucr_search_cell(const ucr_search *s, int st);

/** Predecessor of a reached state (-1 for a start), and its caller's values. */
int ucr_search_prev(const ucr_search *s, int st);
static inline int ucr_search_aux(const ucr_search *s, int st, int i);

/** Whether reaching state @st at cost @g would be better than the way to it
 *  found so far: a rule may ask before costlier checks of a move (the
 *  search drops a move that is not, either way). */
static inline bool ucr_search_improves(const ucr_search *s, int st, int g);

/** Two ints per square for a rule's answers, kept for this search only:
 *  both -1 the first time a square is asked about.  @cell: y × width + x. */
static inline int *ucr_search_memo(ucr_search *s, int cell);

/* ---- the walk back ----------------------------------------------------- */

/** The states from the start to @goal, into @states (cleared first; ints). */
void ucr_search_walk(const ucr_search *s, int goal, GArray *states);

/** The squares from the start to @goal (a new GArray of ucr_point the caller
 *  frees): every square of each move, a move being a straight run along the
 *  heading of the state it reaches (one square, or a jump across). */
GArray *ucr_search_path(const ucr_search *s, int goal);

/* ---- inline bodies ------------------------------------------------------ */

struct ucr_search_geometry {
    int w, h, extra;
    guint32 gen;            /* this search's number */
    guint32 *sq_stamp;      /* per square: the search that asked about it */
    int *memo;              /* per square: two caller's answers */
    guint32 *stamp;         /* per state: the search that reached it */
    int *dist;              /* per state: its cost */
    int *aux;               /* per state: two caller's values */
};
/* The first member of struct ucr_search (search.c), for the inline
 * accessors above: the rules ask them per state, a call each was a fifth
 * of a route's time. */
static inline const struct ucr_search_geometry *ucr_search_geom_(const ucr_search *s)
{
    return (const struct ucr_search_geometry *)(const void *)s;
}

static inline int ucr_search_state(const ucr_search *s, ucr_point p, ucr_dir head, int extra)
{
    const struct ucr_search_geometry *g = ucr_search_geom_(s);
    return ((p.y * g->w + p.x) * 4 + (int)head) * g->extra + extra;
}

static inline int ucr_search_cell(const ucr_search *s, int st)
{
    int e = ucr_search_geom_(s)->extra;
    return e == 1 ? st >> 2 : st / (4 * e);
}

static inline ucr_point ucr_search_square(const ucr_search *s, int st)
{
    int cell = ucr_search_cell(s, st), w = ucr_search_geom_(s)->w;
    return (ucr_point){ cell % w, cell / w };
}

static inline ucr_dir ucr_search_heading(const ucr_search *s, int st)
{
    int e = ucr_search_geom_(s)->extra;
    return (ucr_dir)((e == 1 ? st : st / e) & 3);
}

static inline int ucr_search_extra(const ucr_search *s, int st)
{
    int e = ucr_search_geom_(s)->extra;
    return e == 1 ? 0 : st % e;
}

static inline int ucr_search_aux(const ucr_search *s, int st, int i)
{
    return ucr_search_geom_(s)->aux[st * 2 + i];
}

static inline bool ucr_search_improves(const ucr_search *s, int st, int g)
{
    const struct ucr_search_geometry *geo = ucr_search_geom_(s);
    return geo->stamp[st] != geo->gen || g < geo->dist[st];
}

static inline int *ucr_search_memo(ucr_search *s, int cell)
{
    struct ucr_search_geometry *g = (struct ucr_search_geometry *)(void *)s;
    int *m = g->memo + cell * 2;
    if (g->sq_stamp[cell] != g->gen) {
        g->sq_stamp[cell] = g->gen;
        m[0] = m[1] = -1;
    }
    return m;
}

#endif
