/* undercroft — adding to a node that is already drawn.
 *
 * Node methods that draw as they roll (the pre-connecting methods: where a
 * corridor goes depends on what is already on the map) use these to add, once
 * the megadungeon has wired the levels, the superstructure tunnels that join
 * the node at its map edges and the landings of stairs that arrive from other
 * nodes.  Everything added keeps the node's invariants: nothing overlaps,
 * nothing touches what it is not joined to, vertex i is area i.
 */
#ifndef UCR_ATTACH_H
#define UCR_ATTACH_H

#include "gen/kit/canvas.h"
#include "gen/kit/roll004.h"
#include "model/model.h"

/* Canvas owner of passage k (areas own their squares as their index). */
#define UCR_ATTACH_PASSAGE 200000

/** The canvas of @node as drawn; the caller frees it. */
ucr_canvas *ucr_attach_canvas(const ucr_node *node);

/** Appends @area to @node, and its vertex: vertex i stays area i, so later
 *  vertices move up one and passage ends follow.  Fills its squares on @cv
 *  (if not NULL).  Returns the new area's index. */
int ucr_node_add_area(ucr_node *node, ucr_canvas *cv, const ucr_area *area);

/** Appends a vertex of @kind (dead end or exit) at @at; returns its id. */
int ucr_node_add_vertex(ucr_node *node, ucr_vertex_kind kind, ucr_point at);

/** Appends a passage over @cells (taken over by the node) from vertex @a to
 *  vertex @b, claims its squares on @cv (if not NULL); returns its index. */
int ucr_node_add_passage(ucr_node *node, ucr_canvas *cv, GArray *cells, int a, int b,
                         ucr_edge_kind kind);

/** Puts a door of @kind on @area's wall, in front of whichever end of
 *  @passage touches it, and makes the passage's kind say so. */
void ucr_node_add_door(ucr_node *node, int area, int passage, ucr_door_kind kind);

/** Adds a stair landing (a UCR_AREA_STAIRS area showing @stair) joined by a
 *  new straight passage of 2 to 6 squares to an existing area, in free rock.
 *  The areas are tried from one picked with @rng.  Returns the landing's
 *  index, or -1 if no area has room beside it. */
int ucr_attach_landing(ucr_node *node, ucr_canvas *cv, ucr_stair stair, ucr_prng *rng);

/** As ucr_attach_landing(), with a passage of 2 to @max_len squares (the
 *  shortest that fits), off an area i with @from[i] true (@from NULL: any). */
int ucr_attach_landing_within(ucr_node *node, ucr_canvas *cv, ucr_stair stair, int max_len,
                              const bool *from, ucr_prng *rng);

/** The door that a superstructure tunnel's end rolled (seed 004's @half: a
 *  secret door, or a door) on area @area's wall where @passage leaves it;
 *  nothing for an open end. */
void ucr_attach_tunnel_door(ucr_node *node, const ucr_half *half, int area, int passage);

/** Adds a superstructure tunnel's end: the passage @cells (taken) from
 *  @area out to the map edge, ending in an exit vertex at its last square,
 *  collapsed if @half holds a collapse, with @half's door.  Returns the
 *  passage's index. */
int ucr_attach_tunnel_passage(ucr_node *node, ucr_canvas *cv, GArray *cells, int area, const ucr_half *half);

/** Joins map side @side: a new passage from the area nearest that edge (ties
 *  and wall positions picked with @rng) out to the edge, ending in an exit
 *  vertex, with the door, secret door or collapse that @half's steps hold.
 *  Returns the area it starts from, or -1 if no area can reach the edge. */
int ucr_attach_edge(ucr_node *node, ucr_canvas *cv, ucr_dir side, const ucr_half *half,
                    ucr_prng *rng);

/** The passage of the superstructure tunnel that leaves the map by @side:
 *  one from an area to an exit vertex on that edge, from area @area if one
 *  is (@area -1: any).  Returns its index, or -1. */
int ucr_attach_join_passage(const ucr_node *node, ucr_dir side, int area);

/** Seed 004, Step 2 → 3: a superstructure "room" (double 2s: a door to a
 *  room; double 4s: the tunnel continues into a room) is a chamber on the
 *  tunnel, at the end that rolled it.  Puts a room (its size rolled on
 *  @tables' room-size table with @rng, smaller if the rock around the tunnel
 *  leaves less) on passage @pk, the tunnel from an area out by map side
 *  @side, as near the edge as it fits: the passage becomes two, area →
 *  chamber → edge; a collapse lies beyond the chamber; on double 2s the
 *  tunnel's door moves to the chamber's wall.  A tunnel too short for a
 *  chamber is drawn again from its area to a chamber by the edge.  @cv (the
 *  node's canvas, NULL: one of its own) is kept up to date.  The chamber's
 *  record holds @half's dice.  Returns its area index, or -1 if no square of the tunnel
 *  has room for even a 10-ft chamber (a tunnel of fewer than three
 *  squares). */
int ucr_attach_chamber(ucr_node *node, ucr_canvas *cv, int pk, ucr_dir side, const ucr_half *half,
                       const ucr_tables *tables, ucr_prng *rng);

#endif
