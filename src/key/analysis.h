/* undercroft — non-linearity analysis of a node's graph (DESIGN §5).
 *
 * The graph's vertices are the node's areas plus the dead ends and map exits
 * of its passages; each passage is an edge.  Collapsed passages are not
 * passable and are left out; secret doors count as passable (they are there
 * to be found).
 *
 * The figures, for a node (the superstructure reads "node" for "area" and
 * "tunnel" for "passage"):
 *   - loops: the cyclomatic number E − V + C, the number of independent
 *     loops;
 *   - on_loop / loop_share: areas that lie on at least one loop (an area
 *     lies on a loop exactly when one of its passages is not a bridge), and
 *     their share of all areas;
 *   - largest_loop: the number of areas in the largest biconnected component
 *     that holds a loop.  For a single ring that is the ring's length; for
 *     loops that share passages it is the whole tangle, which is what lets
 *     players go around: every two areas in it are joined by two routes that
 *     share no area.  (Not the longest simple cycle, which is NP-hard in
 *     general; for a ring, a figure eight or two rings joined by a bridge
 *     the largest ring is what both give.)
 *   - chokepoints (articulation vertices), bridges, dead ends (vertices with
 *     one passage and no other way out: stairs, map exits);
 *   - farthest: the shortest walk from the node's entry area to the area
 *     farthest from it, in squares of passage (10 ft each; crossing a room
 *     counts nothing), over passable passages inside the node; in the
 *     superstructure, in tunnels from the entrance node;
 *   - unreachable: areas that no route from the surface reaches, through
 *     passages, tunnels and stairs, with the reason (ucr_area.unreachable):
 *     behind a collapse, or nothing leads there at all; secret_only: areas
 *     reached only through secret doors;
 *   - pockets: parts of a node (areas joined by passages that are not
 *     collapsed) that no passage joins to the node's tunnels or entrance (a
 *     node reached by stairs alone: to its entry area); each reached area of
 *     one names the area whose stairs or ladder lead in (ucr_area.pocket_way),
 *     for the key;
 *   - landings: areas holding stairs or a ladder to another node, the
 *     surface or below; the superstructure counts the hubs of landings, nodes
 *     where they are more than a quarter of the areas (DESIGN "Levels").
 */
#ifndef UCR_ANALYSIS_H
#define UCR_ANALYSIS_H

#include "model/model.h"

/** A plain undirected multigraph for the metrics. */
typedef struct {
    int nvertices;
    int nareas;      /* vertices [0, nareas) are areas; ucr_graph_new sets all */
    int entry;       /* where "farthest" starts, or -1 (ucr_graph_new: -1) */
    GArray *edges;   /* pairs of int: u, v */
    GArray *lengths; /* int per edge, for "farthest" */
    gboolean *leaves_elsewhere; /* per vertex: has a way out besides its edges (stairs, exits) */
} ucr_graph;

/** A graph of @nvertices vertices, all areas, no edges, no entry.  Free with
 *  ucr_graph_free(). */
ucr_graph *ucr_graph_new(int nvertices);
/** Adds an edge of length 1. */
void ucr_graph_add_edge(ucr_graph *g, int u, int v);
/** Adds an edge of @length (>= 0). */
void ucr_graph_add_edge_length(ucr_graph *g, int u, int v, int length);
void ucr_graph_free(ucr_graph *g);

/** Computes vertices, edges, components, loops, articulation points,
 *  bridges, dead ends, on_loop, loop_share, largest_loop and farthest of @g
 *  into @stats; the area/passage/unreachable/secret_only counts are left
 *  alone. */
void ucr_graph_analyse(const ucr_graph *g, ucr_stats *stats);

/** The passable graph of @node, passages weighted by their squares, entry
 *  at the node's entry area. */
ucr_graph *ucr_node_graph(const ucr_node *node);

/** The loops between rooms, counted as other dungeon generators are
 *  compared: the rooms (UCR_AREA_ROOM) are vertices; every connected network
 *  of corridors — passable passages joined at junctions, stair landings,
 *  dead ends and exits, or a lone passage from room to room — is one more
 *  vertex, joined by one edge to each room it touches; the result is
 *  E − V + C of that graph.  Two rooms joined by two separate corridors, or
 *  three rooms on one corridor network that reaches each twice over, loop;
 *  a corridor that leaves a room and comes back to it does not, nor does a
 *  tangle of corridors that touches only one room.  Collapsed passages are
 *  left out, secret ones count (as in ucr_node_graph).  Stores the number
 *  of rooms in *@rooms when @rooms is not NULL. */
int ucr_node_room_loops(const ucr_node *node, int *rooms);

/** Fills every node's stats and the superstructure's, including the areas
 *  (and nodes) that no route from the surface reaches, with the reason, and
 *  the pockets with their ways in. */
void ucr_megadungeon_analyse(ucr_megadungeon *md);

#endif
