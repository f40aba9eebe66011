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
#include "gen/roll004.h"
#include "tables/table.h"
#include "model/model.h"

/** A superstructure tunnel (or the megadungeon entrance) meeting a map side. */
typedef struct {
    bool used;
    ucr_half half;   /* this end of the tunnel as rolled: door, secret door, collapse */
    int link;        /* link handle, or -1 when the tunnel is collapsed */
} ucr_join_request;

/** A stair or ladder that arrives from another node (or from the surface). */
typedef struct {
    ucr_stair stair; /* as seen in this node: "stairs up" arrives from below */
    int link;
} ucr_arrival;

typedef struct {
    ucr_join_request joins[4];   /* indexed by ucr_dir */
    const ucr_arrival *arrivals;
    int n_arrivals;
    int *link_area;              /* link handle → area index; embed fills it */
    const ucr_tables *tables;
} ucr_node_request;

/** Options of the node methods that have any, from the command line.
 *  Each method reads its own fields; zero means "the method's default". */
struct ucr_letters;

typedef struct {
    const char *word;       /* leximorph: letters to use instead of rolling */
    int sectors;            /* leximorph: number of sectors (default 4) */
    bool drop_dice;         /* compass: the drop-dice reading of the doors */
    bool variety;           /* compass: red or blue path by a coin at every choice */
    bool rotate;            /* leximorph: roll seed 002's optional d4 rotation */
    const struct ucr_letters *letters; /* leximorph: letter shapes (gen/letters.h);
                                        * NULL: templates/letters.txt */
} ucr_method_options;

/** A node method: one seed technique (DESIGN §1).  Every function must draw
 *  all its randomness from the stream it is given.
 *
 *  roll:  rolls the node's structure; @join_sides says which map sides a
 *         superstructure tunnel (or the entrance) will join.  A method whose
 *         rolls depend on what is already drawn may draw the whole node here
 *         and add joins and arrivals in embed (gen/attach.h).  Returns an
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
} ucr_node_method;

/** The registered methods, NULL-terminated, in a fixed order. */
const ucr_node_method *const *ucr_node_methods(void);

/** The method called @name, or NULL. */
const ucr_node_method *ucr_node_method_lookup(const char *name);

/** The names of all methods, comma-separated ("grid, leximorph"); the caller
 *  frees it. */
char *ucr_node_method_names(void);

#endif
