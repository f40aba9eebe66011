/* undercroft — the RDG 2.0 direction table (seed 004).
 *
 *   2d6   This direction leads to a…
 *   2     blocked or collapsed tunnel
 *   3-4   door to tunnel (or room if double 2s rolled)
 *   5-7   wall (secret door on double 3s, roll again)
 *   8     tunnel continues (or room on double 4s)
 *   9-12  stairs down (ladder on 5+ on 1d6), roll again;
 *         change direction to "up" on double 5s or 6s
 *
 * One roll describes one *half* of a tunnel: what lies along it going out
 * from its intersection.  "Roll again" results add a step and roll for what
 * comes after it, so a half reads as an ordered list of steps and an end:
 *
 *   2       → [blocked]              through
 *   3-4     → [door]                 through     (2+2: [room behind a door])
 *   5-7     → []                     wall        (3+3: [secret door] + reroll)
 *   8       → []                     through     (4+4: [room, open arch])
 *   9-12    → [stairs or ladder] + reroll
 *
 * Rerolls chain at most UCR_HALF_MAX_REROLLS times; a further "roll again"
 * is read as a wall, so a half always ends (the seed sets no limit, and an
 * endless staircase would not fit on a map).
 *
 * The table is data: templates/tables/rdg-direction.txt (2d6, with rows for
 * doubles) and rdg-stairs.txt (the 1d6 for stairs or ladder).  The program
 * reads each row's [kind]; a GM may change the odds and the wording.
 */
#ifndef UCR_ROLL004_H
#define UCR_ROLL004_H

#include <stdbool.h>
#include "core/dice.h"
#include "tables/table.h"
#include "model/model.h"

#define UCR_HALF_MAX_STEPS 8
#define UCR_HALF_MAX_REROLLS 4

typedef enum {
    UCR_STEP_DOOR,        /* a door where the tunnel leaves the last stop */
    UCR_STEP_SECRET,      /* a secret door there */
    UCR_STEP_ROOM_DOOR,   /* a room, entered by a door (double 2s) */
    UCR_STEP_ROOM_OPEN,   /* a room the tunnel opens into (double 4s) */
    UCR_STEP_STAIRS,      /* a stair or ladder landing */
    UCR_STEP_BLOCKED      /* the tunnel is collapsed beyond the last stop */
} ucr_step_kind;

typedef struct {
    ucr_step_kind kind;
    ucr_stair stair;      /* for UCR_STEP_STAIRS */
    int link;             /* megadungeon link handle for terminal stairs, or -1 */
    bool arrival;         /* the far end of stairs rolled elsewhere, not a roll here */
    /* What its far end finds, thrown where it was rolled (seed 003's "roll
     * again for what's on the next floor"; gen/node_method.h), owned by the
     * plan; NULL: nothing thrown. */
    const struct ucr_arrival_hint *hint;
} ucr_step;

/** One roll on the direction table, kept for the key. */
typedef struct {
    const ucr_table *table;    /* rdg-direction (owned by the tables) */
    ucr_table_dice dice;
    const char *text;          /* the row read */
    const ucr_table *stairs_table;
    ucr_table_dice stairs;     /* the stairs-or-ladder roll, if stairs_text */
    const char *stairs_text;   /* NULL if not rolled */
} ucr_half_roll;

typedef struct {
    ucr_step steps[UCR_HALF_MAX_STEPS];
    int n;
    bool through;         /* true: continues to the far end; false: wall */
    ucr_half_roll rolls[UCR_HALF_MAX_REROLLS + 1];
    int nrolls;
} ucr_half;

/** Rolls one half on the seed 004 table of @tables, rerolls included. */
void ucr_roll004_half(const ucr_tables *tables, ucr_prng *rng, ucr_half *half);

/** Reads one roll of the direction table, @dice (and @stairs_die, read only
 *  when the row is stairs), into @half as its next roll; returns true if the
 *  table says "roll again".  Exposed for tests that pin every row. */
bool ucr_roll004_apply(const ucr_tables *tables, ucr_half *half, const ucr_table_dice *dice,
                       int stairs_die);

/** A description of the rolls, e.g. "2d6=10 (5+5): stairs up, roll again;
 *  1d6=6: a ladder; then 2d6=8 (3+5): tunnel continues".  The caller frees it.
 *  The texts belong to the tables: describe while they are loaded. */
char *ucr_roll004_describe(const ucr_half *half);

/** True if the half contains a step of @kind. */
bool ucr_half_has(const ucr_half *half, ucr_step_kind kind);

/** The tables the direction roll reads (rdg-direction, rdg-stairs), with
 *  their kinds, for the tables' load (tables/table.h). */
extern const ucr_table_need ucr_roll004_tables[];

#endif
