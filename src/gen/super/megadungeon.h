/* undercroft — the megadungeon: a dungeon of dungeons (seed 004, Step 1).
 *
 * The superstructure is a grid of hypothetical tunnels, COLUMNS × ROWS
 * intersections; each intersection is a node (a sublevel).  Every direction
 * of every intersection is rolled on the seed 004 table, like the node's own
 * tunnels but longer.
 *
 * How the two ends of one superstructure tunnel combine (the same rule as
 * inside a node, gen/methods/grid.h): the tunnel is cut only where both ends
 * roll a wall; what either end rolled lies on it.  Its kind is the most
 * telling thing on it: a collapse at either end makes it blocked; else a
 * secret door, stairs or ladder, a door, in that order; else open.  Going
 * from one end to the other, each end's stairs down count one level down and
 * stairs up one level up, read from that end: so stairs down at the far end
 * are stairs up for whoever walks towards it.
 *
 * Outward directions at the edge of the superstructure lead out of the
 * megadungeon.  Those that go through are ways in from the surface; one,
 * picked with a die, is the entrance (seed 003: "a tunnel leading into a
 * hill").  If none goes through, the entrance is a stair down from the
 * surface into a node picked with a die (seed 003: "stairs down").
 *
 * Depth: the entrance node is level 1; walking the superstructure tunnels
 * from it (fewest tunnels first), each level change adds up, never above 1.
 * Stairs that leave a node go one level down (or up): they meet a stair of
 * the opposite direction in a node of that level if one is free, else arrive
 * at a new landing; a node no tunnel reaches takes the level it is reached
 * at (and its method draws that landing).  Other landings wait until every
 * node is drawn: each goes into a pocket of a node of its level (a part no
 * passage joins to the node's ways in), else into the node of its level
 * that carries the fewest landings for its size, so that no node becomes a
 * hub of landings (DESIGN "Levels").  Stairs down from the
 * deepest level lead below this booklet; stairs up from level 1 lead to the
 * surface.  A node that nothing reaches gets its own stairs from the surface.
 */
#ifndef UCR_MEGADUNGEON_H
#define UCR_MEGADUNGEON_H

#include "gen/node_method.h"
#include "tables/table.h"
#include "model/model.h"

#define UCR_MAX_SIDE 10

typedef struct {
    const char *seed;
    int columns, rows;         /* 1..UCR_MAX_SIDE each */
    const ucr_tables *tables;
    const ucr_node_method *method; /* every node's method, or NULL: each node's
                                    * method is rolled (1dN over the registered
                                    * methods, a stream of its own per node) */
    ucr_method_options method_options;
} ucr_gen_options;

/** Generates the whole megadungeon for @opt: its geometry, links and keys,
 *  nothing more (stocking and the analysis are later stages: a run goes
 *  through ucr_pipeline_dungeon(), pipeline/pipeline.h).  Returns NULL with
 *  @error set on an internal failure.  Free the result with
 *  ucr_megadungeon_free(). */
ucr_megadungeon *ucr_megadungeon_generate(const ucr_gen_options *opt, GError **error);

#endif
