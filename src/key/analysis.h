/* undercroft — non-linearity analysis of a node's graph (DESIGN §5).
 *
 * The graph's vertices are the node's areas plus the dead ends and map exits
 * of its passages; each passage is an edge.  Collapsed passages are not
 * passable and are left out; secret doors count as passable (they are there
 * to be found).
 */
#ifndef UCR_ANALYSIS_H
#define UCR_ANALYSIS_H

#include "model/model.h"

/** A plain undirected multigraph for the metrics. */
typedef struct {
    int nvertices;
    GArray *edges;   /* pairs of int: u, v */
    gboolean *leaves_elsewhere; /* per vertex: has a way out besides its edges (stairs, exits) */
} ucr_graph;

ucr_graph *ucr_graph_new(int nvertices);
void ucr_graph_add_edge(ucr_graph *g, int u, int v);
void ucr_graph_free(ucr_graph *g);

/** Computes vertices, edges, components, loops (E − V + C), articulation
 *  points, bridges and dead ends (degree-1 vertices without another way out)
 *  of @g into @stats; the area/passage/unreachable counts are left alone. */
void ucr_graph_analyse(const ucr_graph *g, ucr_stats *stats);

/** The passable graph of @node. */
ucr_graph *ucr_node_graph(const ucr_node *node);

/** Fills every node's stats and the superstructure's, including areas that no
 *  route from the surface reaches (through passages, tunnels and stairs). */
void ucr_megadungeon_analyse(ucr_megadungeon *md);

#endif
