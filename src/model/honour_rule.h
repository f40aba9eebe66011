/* undercroft — a rule of the seeds that the map can override, as the code
 * that draws it declares it for the drawn-as-rolled report (key/honour.c,
 * `undercroft stats`, issue #22).
 *
 * A method (or a kit module every method using it shares) lists its rules
 * beside the code that writes their roll records, so the report names no
 * method: the registry hands each method's lists to the report.
 */
#ifndef UCR_HONOUR_RULE_H
#define UCR_HONOUR_RULE_H

#define UCR_HONOUR_REASONS 4

/** One reason a roll was not drawn as rolled: a pattern (GRegex) of the
 *  roll record that says so, and the reason's name in the report. */
typedef struct {
    const char *pattern;
    const char *reason;
} ucr_honour_reason;

/** One rule.  @rolled matches once per roll of the rule in a record (a
 *  record may hold several throws); each match of a reason's pattern in
 *  such a record is one roll not drawn as rolled, the first reason that
 *  matches taking it.  A list of rules ends with one whose @rule is NULL. */
typedef struct {
    const char *rule;      /* what the dice said, as the report names it */
    const char *rolled;
    ucr_honour_reason reasons[UCR_HONOUR_REASONS];
} ucr_honour_rule;

/* Parts of patterns the rules share. */
#define UCR_HONOUR_ROOM_CHECK_MISS "(?:nothing fits there|no room)"
/* The crossings a corridor's record lists before it says it was cut short. */
#define UCR_HONOUR_CROSSED "(?:; crosses [^;]*)*"

#endif
