/* undercroft — what the megadungeon asks of a node method.
 *
 * A node is made in two steps so that the megadungeon can wire stairs between
 * nodes before any node is drawn:
 *   1. roll: the method rolls its node's structure and lists the stairs and
 *      ladders that leave the node (its "exits");
 *   2. embed: with the joins (superstructure tunnels, entrance) and arrivals
 *      (stairs from other nodes) known, the method draws the node on the grid
 *      and says which area holds each link.
 */
#ifndef UCR_NODE_METHOD_H
#define UCR_NODE_METHOD_H

#include <stdbool.h>
#include "gen/kit/roll004.h"
#include "core/cli.h"
#include "tables/table.h"
#include "model/honour_rule.h"
#include "model/model.h"

/** A superstructure tunnel (or the megadungeon entrance) meeting a map side. */
typedef struct {
    bool used;
    ucr_half half;   /* this end of the tunnel as rolled: door, secret door, collapse */
    int link;        /* link handle, or -1 when the tunnel is collapsed */
} ucr_join_request;

/** What the party finds where a stair arrives, as a die thrown at the stair's
 *  other end said (seed 003: "the room has a trap door or staircase; roll
 *  again for what's on the next floor"): the node it leads to lands it there
 *  if it can (ucr_embed_arrivals()). */
typedef enum {
    UCR_HINT_DEAD_END,     /* a 1: at the end of a dead end */
    UCR_HINT_CORRIDOR,     /* a 2 or 3: at the end of a corridor */
    UCR_HINT_ROOM,         /* a 4 or 5: in a room */
    UCR_HINT_LONG_ROOM     /* a 6: in an elongated room */
} ucr_hint_what;

typedef struct ucr_arrival_hint {
    ucr_hint_what what;
    int side;              /* ucr_dir: towards that side of the map; -1: the middle */
    char *rolled;          /* the throw, for the record */
} ucr_arrival_hint;

/** A stair or ladder that arrives from another node (or from the surface). */
typedef struct {
    ucr_stair stair; /* as seen in this node: "stairs up" arrives from below */
    int link;
    const ucr_arrival_hint *hint;   /* the step's (ucr_step), or NULL */
} ucr_arrival;

/** How large a node is drawn (--node-size): a bound on its drawn extent in
 *  squares, the same for every paper, style and backend.  Standard (0, the
 *  default) is each method's own map within UCR_STANDARD_W x
 *  UCR_STANDARD_H; pocket fits a mini-zine's two facing
 *  panels at 3 mm a square; large is half as wide and tall again. */
typedef enum {
    UCR_NODE_STANDARD = 0,
    UCR_NODE_POCKET,
    UCR_NODE_LARGE
} ucr_node_size;

/** The pocket bound, wide x tall in squares: two facing 74 x 105 mm panels
 *  of a mini-zine (templates/impose/minizine-panel.ini) at 3 mm a square,
 *  less their margins. */
#define UCR_POCKET_W 36
#define UCR_POCKET_H 26

/** The standard bound, wide x tall in squares: a map whole at 4 mm a square
 *  on one portrait A4 or Letter page (40 across) and at 3.5 mm across an A5
 *  or digest spread (45 tall), its frame, title band and scale bar added
 *  (doc/booklet.md, "Sizes"). */
#define UCR_STANDARD_W 40
#define UCR_STANDARD_H 45

/** The map of a method whose native map is @std_w x @std_h squares, at
 *  @size: written to @w and @h.  Standard is the native map within
 *  UCR_STANDARD_W x UCR_STANDARD_H, pocket within UCR_POCKET_W x
 *  UCR_POCKET_H; large is half again the native map each way. */
void ucr_node_size_extent(ucr_node_size size, int std_w, int std_h, int *w, int *h);
/** "pocket", "standard" or "large". */
const char *ucr_node_size_name(ucr_node_size size);
/** Reads @text as a size name into @out; false when it is none. */
bool ucr_node_size_parse(const char *text, ucr_node_size *out);

typedef struct {
    ucr_join_request joins[4];   /* indexed by ucr_dir */
    const ucr_arrival *arrivals;
    int n_arrivals;
    int *link_area;              /* link handle → area index; embed fills it */
    const ucr_tables *tables;
    ucr_node_size size;          /* the bound on the drawn extent */
} ucr_node_request;

/** The registered methods, at most this many (ucr_method_options). */
#define UCR_NODE_METHODS_MAX 16

/** What the command line gave the node methods: for each registered method
 *  that has options, an object of its own type (declared in its header, e.g.
 *  ucr_compass_options), by registry order; NULL means the method's
 *  defaults.  { 0 } is every method's defaults.  Read and set with
 *  ucr_method_options_get() and ucr_method_options_set(). */
typedef struct {
    unsigned given;                       /* bit i: of[i] was set (first, so that
                                           * "{ 0 }" initialises it plainly) */
    const void *of[UCR_NODE_METHODS_MAX];
    ucr_node_size node_size;              /* every node's (--node-size) */
} ucr_method_options;

/** A method's command-line options, declared by the method itself so that
 *  main.c names none: the registry puts every method's GOptionEntry list in
 *  --help, refuses a method's options when no node can be of that method,
 *  and has the method check its values and load what they name. */
typedef struct {
    /* A new option state, nothing given, and its GOptionEntry list
     * (NULL-terminated, g_free()d by the caller) whose arg_data point into
     * it.  An option counts as given when its value is not zero/NULL. */
    void *(*state_new)(GOptionEntry **entries);
    /* Checks the values given, and loads what they name, once some node of
     * the run may be of this method; NULL: nothing to check.  FALSE with
     * @error set (UCR_ERROR_USAGE for a bad value, as "bad --name '…': …"). */
    gboolean (*ready)(void *state, GError **error);
    /* Checks the loaded tables against what was given; NULL: nothing to check. */
    gboolean (*tables_check)(void *state, const ucr_tables *tables, GError **error);
    /* The options roll reads (the method's own type), owned by @state. */
    const void *(*get)(void *state);
    void (*state_free)(void *state);
    /* The whole-number range of each of its integer options (a list ended
     * by a NULL name), or NULL: checked as the command line is parsed. */
    const ucr_cli_range *ranges;
} ucr_method_cli;

/** A node method: one seed technique (DESIGN §1).  Every function must draw
 *  all its randomness from the stream it is given.
 *
 *  roll:  rolls the node's structure; @join_sides says which map sides a
 *         superstructure tunnel (or the entrance) will join; the method reads
 *         its own options with ucr_method_options_get().  A method whose
 *         rolls depend on what is already drawn may draw the whole node here
 *         and add joins and arrivals in embed (gen/kit/embed.h).  Returns an
 *         owned plan, freed with free().
 *  exits: appends to @out (ucr_step*, owned by the plan) every stair or ladder
 *         that leaves the node; the megadungeon writes a link handle into each
 *         step's ->link before embed.
 *  embed: draws the node: every exit step with a link, every join and every
 *         arrival must end up on an area, written to req->link_area[handle];
 *         joins end in a passage that reaches the map edge on their side.
 *         Returns the node, or NULL with @error set. */
typedef struct {
    const char *name;       /* as given to --method */
    const char *seeds;      /* the seed texts it follows, e.g. "004" */
    const char *summary;    /* one line for --method help */
    void *(*roll)(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                  const ucr_method_options *options);
    void (*exits)(void *plan, GPtrArray *out);
    ucr_node *(*embed)(void *plan, const char *id, int col, int row, const ucr_node_request *req,
                       ucr_prng *rng, GError **error);
    void (*free)(void *plan);
    /* The tables it reads and the [kind]s their rows carry: a NULL-terminated
     * array of lists, each ended by a need with a NULL name (checked when the
     * tables load, tables/table.h); NULL: none of its own. */
    const ucr_table_need *const *tables;
    const ucr_method_cli *cli;      /* its command-line options, or NULL */
    /* What the method needs of its loaded tables beyond each row's kind
     * (pips: some face of pips-what makes a room), so that a table set
     * it cannot draw with is refused when it loads, not by a failed node;
     * NULL: nothing more.  FALSE with @error set (UCR_ERROR_DATA,
     * "file:line: …"). */
    gboolean (*tables_check)(const ucr_tables *tables, GError **error);
    bool sized;     /* draws at any ucr_node_size (else standard only) */
    /* Its rules the map can override, for `undercroft stats`'s drawn-as-
     * rolled report: lists (its own, the kit's it uses) ended by NULL, each
     * ended by a rule whose .rule is NULL; NULL: none. */
    const ucr_honour_rule *const *honour;
} ucr_node_method;

/** The registered methods, NULL-terminated, in a fixed order. */
const ucr_node_method *const *ucr_node_methods(void);

/** The method called @name, or NULL. */
const ucr_node_method *ucr_node_method_lookup(const char *name);

/** The names of all methods, comma-separated ("grid, leximorph"); the caller
 *  frees it. */
char *ucr_node_method_names(void);

/** The table a mixed dungeon rolls each node's method on. */
#define UCR_NODE_METHOD_TABLE "node-method"

/** The need of the mixed dungeon's method roll (tables/table.h): the table
 *  UCR_NODE_METHOD_TABLE, every row's [kind] the name of a registered method,
 *  so that a row naming no method is refused with its file:line when the
 *  tables load.  One need and the end; static. */
const ucr_table_need *ucr_node_method_roll_tables(void);

/** The options of method @m in @mo (its own type), or NULL: its defaults. */
const void *ucr_method_options_get(const ucr_method_options *mo, const ucr_node_method *m);
/** Gives method @m (registered) the options @options (its own type, borrowed). */
void ucr_method_options_set(ucr_method_options *mo, const ucr_node_method *m, const void *options);

/** Every registered method's command-line options, in one place for main.c. */
typedef struct ucr_method_cli_set ucr_method_cli_set;

ucr_method_cli_set *ucr_method_cli_set_new(void);
void ucr_method_cli_set_free(ucr_method_cli_set *set);
/** Every method's GOptionEntry list, in registry order, NULL-terminated;
 *  owned by @set. */
const GOptionEntry *ucr_method_cli_set_entries(const ucr_method_cli_set *set);
/** Refuses (UCR_ERROR_USAGE) an option given to a method that no node can
 *  have: one other than @method, when --method names one (NULL: mixed). */
gboolean ucr_method_cli_set_check(const ucr_method_cli_set *set, const ucr_node_method *method,
                                  GError **error);
/** Each method that a node may have (@method, or all when NULL) checks its
 *  values and loads what they name (its ready hook). */
gboolean ucr_method_cli_set_ready(ucr_method_cli_set *set, const ucr_node_method *method, GError **error);
/** As ucr_method_cli_set_ready(), against the loaded @tables. */
gboolean ucr_method_cli_set_tables_check(ucr_method_cli_set *set, const ucr_node_method *method,
                                         const ucr_tables *tables, GError **error);
/** @base's ranges (a list ended by a NULL name) and every method's integer
 *  options' ranges, in one such list (owned by @set). */
const ucr_cli_range *ucr_method_cli_set_ranges(ucr_method_cli_set *set, const ucr_cli_range *base);
/** Fills @out with every method's options, as given (owned by @set). */
void ucr_method_cli_set_options(ucr_method_cli_set *set, ucr_method_options *out);

#endif
