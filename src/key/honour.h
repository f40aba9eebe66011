/* undercroft — what was drawn as rolled (issue #22, `undercroft stats`):
 * for every rule of the seeds that the map can override (a destination not
 * reached, a length changed, a wall moved, a door merged, a crossing cut
 * short, stairs that go the other way), how often the dice rolled it, how
 * often the map drew it as rolled, and why not the rest.
 *
 * The node methods' rules are read from each node's roll record (ucr_node
 * rolls: every roll, in order, with what became of it); the
 * superstructure's stairs from its tunnels (ucr_tunnel rolled_descent
 * against the levels chosen).  Each method declares its rules beside the
 * code that writes their records (its .honour, model/honour_rule.h); a rule
 * whose records no longer read as the table expects shows as never rolled,
 * which tests/honour_recount.py catches.
 */
#ifndef UCR_HONOUR_H
#define UCR_HONOUR_H

#include "model/honour_rule.h"
#include "model/model.h"

typedef struct ucr_honour ucr_honour;

/** An empty tally; free with ucr_honour_free().  Aborts if a rule's
 *  pattern does not compile (a programming error). */
ucr_honour *ucr_honour_new(void);
void ucr_honour_free(ucr_honour *honour);

/** Counts @method's nodes by @lists, the rules it declares (its .honour in
 *  gen/node_method.h: lists ended by NULL); a method not declared has its
 *  row, with no rules.  Aborts if a pattern does not compile. */
void ucr_honour_declare(ucr_honour *honour, const char *method, const ucr_honour_rule *const *lists);

/** Counts the rules rolled in @md's nodes and superstructure. */
void ucr_honour_add(ucr_honour *honour, const ucr_megadungeon *md);

/** The report as Markdown: per method (alphabetical, then the
 *  superstructure) one row per rule: rolled, drawn as rolled (count and
 *  share), and the reasons for the rest, most frequent first.  The caller
 *  frees it. */
char *ucr_honour_table(const ucr_honour *honour);

#endif
