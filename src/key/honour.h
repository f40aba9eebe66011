/* undercroft — what was drawn as rolled (issue #22, `undercroft stats`):
 * for every rule of the seeds that the map can override (a destination not
 * reached, a length changed, a wall moved, a door merged, a crossing cut
 * short, stairs that go the other way), how often the dice rolled it, how
 * often the map drew it as rolled, and why not the rest.
 *
 * The node methods' rules are read from each node's roll record (ucr_node
 * rolls: every roll, in order, with what became of it); the
 * superstructure's stairs from its tunnels (ucr_tunnel rolled_descent
 * against the levels chosen).  The rules are a table in honour.c; a rule
 * whose records no longer read as the table expects shows as never rolled,
 * which tests/honour_recount.py catches.
 */
#ifndef UCR_HONOUR_H
#define UCR_HONOUR_H

#include "model/model.h"

typedef struct ucr_honour ucr_honour;

/** An empty tally; free with ucr_honour_free().  Aborts if a rule's
 *  pattern does not compile (a programming error). */
ucr_honour *ucr_honour_new(void);
void ucr_honour_free(ucr_honour *honour);

/** Counts the rules rolled in @md's nodes and superstructure. */
void ucr_honour_add(ucr_honour *honour, const ucr_megadungeon *md);

/** The report as Markdown: per method (alphabetical, then the
 *  superstructure) one row per rule: rolled, drawn as rolled (count and
 *  share), and the reasons for the rest, most frequent first.  The caller
 *  frees it. */
char *ucr_honour_table(const ucr_honour *honour);

#endif
