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
#include "key/table.h"
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

#endif
