/* undercroft — the two ways a node method embeds its node (gen/node_method.h).
 *
 *  - Pre-connecting methods that draw in embed (numbered, clock, tictactoe):
 *    where a corridor goes depends on what is on the map, joins and arriving
 *    stairs included, so the whole node is drawn in embed, and drawn again
 *    on a fresh map when something found no place: ucr_embed_retry().
 *  - Methods that draw in roll (leximorph, pips, compass: the stairs that
 *    leave the node depend on the drawing): embed hands the drawn node over
 *    (ucr_embed_take()), finishes the superstructure tunnels it drew to the
 *    map edges (ucr_embed_joins_drawn()) and adds a landing for every
 *    arriving stair (ucr_embed_arrivals()).
 */
#ifndef UCR_EMBED_H
#define UCR_EMBED_H

#include "gen/node_method.h"
#include "gen/kit/preconnect.h"

/** One attempt at a node on @pc's fresh map: draws everything the method
 *  rolls (not the joins and arrivals, which the retry adds); false if the
 *  attempt must be given up. */
typedef bool (*ucr_embed_draw)(ucr_pc *pc, void *data);

/** A node @id at @col, @row of @method, @width × @height squares, drawn by
 *  @draw with @data on a pre-connecting map (ucr_pc_new() on @rng and
 *  @tables) and attached to @req's joins and arrivals; on a fresh map again,
 *  up to @attempts times, while something finds no place.  NULL with @error
 *  set (UCR_ERROR_SOFTWARE) when no attempt succeeds. */
ucr_node *ucr_embed_retry(const char *id, int col, int row, const char *method, int width, int height,
                          int attempts, const ucr_tables *tables, const ucr_node_request *req,
                          ucr_prng *rng, ucr_embed_draw draw, void *data, GError **error);

/** As ucr_embed_retry(), and an attempt is also given up while some area
 *  is joined to the others by no passage once the joins and arrivals are
 *  added (ucr_embed_joined()): the last resort of a tunnel can leave a
 *  pocket no rule asked for. */
ucr_node *ucr_embed_retry_joined(const char *id, int col, int row, const char *method, int width, int height,
                                 int attempts, const ucr_tables *tables, const ucr_node_request *req,
                                 ucr_prng *rng, ucr_embed_draw draw, void *data, GError **error);

/** Every area of @node joined to every other by some passage (a collapsed
 *  one too). */
bool ucr_embed_joined(const ucr_node *node);

/** Hands over the node a method drew in roll, *@slot, as node @id at @col,
 *  @row, emptying *@slot.  NULL with @error set if it was handed over
 *  already (@method names the plan in the message). */
ucr_node *ucr_embed_take(ucr_node **slot, const char *id, int col, int row, const char *method,
                         GError **error);

/** The superstructure tunnels a method drew in roll, passage
 *  @join_passage[d] from area @join_area[d] to side d (-1: none found, the
 *  node counts it unplaced): each used join of @req gets its end's door,
 *  secret door or collapse (seed 004, rolled by the megadungeon) and its
 *  link's area. */
void ucr_embed_joins_drawn(ucr_node *node, const ucr_node_request *req, const int join_passage[4],
                           const int join_area[4]);

/** Where an arriving stair lands: an area of @node (drawn on @cv), or -1. */
typedef int (*ucr_embed_landing)(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arrival, void *data);

/** A landing for every arrival of @req, in order: @first's (may be NULL)
 *  if it has one, else where the arrival's hint says (ucr_embed_hinted()),
 *  else a new landing beside an area (ucr_attach_landing()), else
 *  @fallback's (may be NULL); with none, the node counts it unplaced. */
void ucr_embed_arrivals(ucr_node *node, const ucr_node_request *req, ucr_prng *rng, ucr_embed_landing first,
                        ucr_embed_landing fallback, void *data);

/** As ucr_embed_arrivals(), on @cv (borrowed): the method's own canvas of
 *  what is drawn, for a method whose drawing owns more squares than its
 *  areas and passages (leximorph's diagonal steps claim the squares beside
 *  them). */
void ucr_embed_arrivals_on(ucr_node *node, ucr_canvas *cv, const ucr_node_request *req, ucr_prng *rng,
                           ucr_embed_landing first, ucr_embed_landing fallback, void *data);

/** For ucr_embed_landing_dead_end(): the first dead end that has room. */
#define UCR_EMBED_ANYWHERE (-2)

/** Stairs @stair at the end of a dead end of @node (drawn on @cv): a landing
 *  (a UCR_AREA_STAIRS area) two squares on, where the dead end's passage now
 *  ends — the dead end nearest map side @side (a ucr_dir; -1: the map's
 *  middle; UCR_EMBED_ANYWHERE: the first, in passage order) of those with
 *  rock for it.  Returns the landing, or -1 if no dead end has room. */
int ucr_embed_landing_dead_end(ucr_node *node, ucr_canvas *cv, ucr_stair stair, int side);

/** Where @arrival's hint (seed 003's throw "for what's on the next floor",
 *  made at its other end) says the party finds itself, towards the hint's
 *  side of the map: at the end of a dead end (a 1; where none has rock
 *  beyond, of a new 20-ft corridor), at the end of a corridor off an area on
 *  that side (a 2 or 3: a new landing, ucr_attach_landing_within(), from
 *  @rng), or in the middle of the free
 *  room nearest that side (a 4 or 5; a 6: an elongated room if one is free),
 *  whose stair it becomes.  The area's record says so.  -1 when the arrival
 *  has no hint or nothing of that kind has room. */
int ucr_embed_hinted(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arrival, ucr_prng *rng);

/** As ucr_embed_hinted(), off (or, for a room, in) an area i with @from[i]
 *  (@from NULL: any): for stairs the megadungeon lands once the nodes are
 *  drawn. */
int ucr_embed_hinted_within(ucr_node *node, ucr_canvas *cv, const ucr_arrival *arrival, const bool *from,
                            ucr_prng *rng);

/** Where @arrival's hint finds an area of @node that holds stairs to
 *  elsewhere already (@held[i] flights, fewer than @cap), of those with
 *  @from[i] (@from NULL: any), for stairs that are to share a hall rather
 *  than make the node a hub of landings (DESIGN "Levels"): for a dead end,
 *  stairs that end a passage leading nowhere else; for a corridor, stairs at
 *  the end of one (2 squares or more) off an area on the hint's side; for a
 *  room, a room with stairs (a 6: an elongated one while one holds stairs);
 *  the one nearest the hint's side.  The area's record says so, as
 *  ucr_embed_hinted() does.  -1 when the arrival has no hint or no such area
 *  holds stairs. */
int ucr_embed_hinted_shared(ucr_node *node, const ucr_arrival *arrival, const int *held, int cap,
                            const bool *from);

/** Appends to area @li's record that @arrival's stairs come there although
 *  their hint's throw said otherwise, and @why (nothing of that kind had
 *  room, or the node had stairs enough): the key tells the GM that the throw
 *  was not honoured.  Nothing when the arrival has no hint. */
void ucr_embed_hint_unmet(ucr_node *node, int li, const ucr_arrival *arrival, const char *why);

/** Flights of stairs an area holds at most while another area could take
 *  them (more are hard to tell apart on the map and in the key). */
#define UCR_EMBED_FLIGHTS_MAX 4

/** Where a hint of @what puts the party: "at the end of a corridor", "in
 *  the middle of a room". */
const char *ucr_hint_what_name(ucr_hint_what what);

#endif
