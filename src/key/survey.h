/* undercroft — the analysis over many dungeons: mean and spread of the
 * non-linearity figures per node method (DESIGN §5, `undercroft stats`).
 *
 * Nodes are grouped by their method's name (ucr_node.method), so a new node
 * method shows up as a row of its own without changes here; the
 * superstructures make one more row.
 */
#ifndef UCR_SURVEY_H
#define UCR_SURVEY_H

#include "model/honour_rule.h"
#include "model/model.h"

typedef struct ucr_survey ucr_survey;

/** An empty survey; free with ucr_survey_free(). */
ucr_survey *ucr_survey_new(void);
void ucr_survey_free(ucr_survey *survey);

/** The rules @method declares for what was drawn as rolled
 *  (ucr_honour_declare()); before its first dungeon. */
void ucr_survey_declare(ucr_survey *survey, const char *method, const ucr_honour_rule *const *rules);

/** Adds the analysed nodes and the superstructure of @md (its stats must
 *  have been computed: ucr_megadungeon_analyse()). */
void ucr_survey_add(ucr_survey *survey, const ucr_megadungeon *md);

/** The table, as Markdown: one row per method (alphabetical), then the
 *  superstructure; each figure as "mean ± standard deviation" over the
 *  nodes; then what was drawn as rolled (key/honour.h).  The caller frees
 *  it. */
char *ucr_survey_table(const ucr_survey *survey);

#endif
