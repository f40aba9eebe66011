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
 */
#ifndef UCR_ROLL004_H
#define UCR_ROLL004_H

#include <stdbool.h>
#include "core/dice.h"
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
} ucr_step;

typedef struct {
    ucr_step steps[UCR_HALF_MAX_STEPS];
    int n;
    bool through;         /* true: continues to the far end; false: wall */
    ucr_2d6 rolls[UCR_HALF_MAX_REROLLS + 1];
    int ladder_rolls[UCR_HALF_MAX_REROLLS + 1]; /* 1d6 for stairs/ladder, 0 if none */
    int nrolls;
} ucr_half;

/** Rolls one half on the seed 004 table, rerolls included. */
void ucr_roll004_half(ucr_prng *rng, ucr_half *half);

/** Reads a single 2d6 result (and the 1d6 stairs/ladder die, used only for
 *  9-12) into @half as a first roll; returns true if the table says "roll
 *  again".  Exposed for tests that pin every row of the table. */
bool ucr_roll004_apply(ucr_half *half, ucr_2d6 roll, int ladder_d6);

/** A description of the rolls, e.g. "2d6=10 (5+5): ladder up; then 2d6=8 (3+5):
 *  tunnel continues".  The caller frees it. */
char *ucr_roll004_describe(const ucr_half *half);

/** True if the half contains a step of @kind. */
bool ucr_half_has(const ucr_half *half, ucr_step_kind kind);

#endif
