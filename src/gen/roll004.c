#include "gen/roll004.h"

#include <glib.h>

static void half_push(ucr_half *half, ucr_step_kind kind, ucr_stair stair)
{
    if (half->n >= UCR_HALF_MAX_STEPS)
        return;
    half->steps[half->n].kind = kind;
    half->steps[half->n].stair = stair;
    half->steps[half->n].link = -1;
    half->steps[half->n].arrival = false;
    half->n++;
}

bool ucr_roll004_apply(ucr_half *half, ucr_2d6 r, int ladder_d6)
{
    if (half->nrolls <= UCR_HALF_MAX_REROLLS) {
        half->rolls[half->nrolls] = r;
        half->ladder_rolls[half->nrolls] = (r.sum >= 9) ? ladder_d6 : 0;
        half->nrolls++;
    }
    switch (r.sum) {
    case 2:
        half_push(half, UCR_STEP_BLOCKED, UCR_STAIR_NONE);
        half->through = true;
        return false;
    case 3:
    case 4:
        /* seed 004: "door to tunnel (or room if double 2s rolled)" */
        half_push(half, r.doubles ? UCR_STEP_ROOM_DOOR : UCR_STEP_DOOR, UCR_STAIR_NONE);
        half->through = true;
        return false;
    case 5:
    case 6:
    case 7:
        /* seed 004: "wall (secret door on double 3s, roll again)" */
        if (r.doubles) {
            half_push(half, UCR_STEP_SECRET, UCR_STAIR_NONE);
            return true;
        }
        half->through = false;
        return false;
    case 8:
        /* seed 004: "tunnel continues (or room on double 4s)" */
        if (r.doubles)
            half_push(half, UCR_STEP_ROOM_OPEN, UCR_STAIR_NONE);
        half->through = true;
        return false;
    default: {
        /* seed 004: "stairs down (ladder on 5+ on 1d6) roll again; change
         * direction to 'up' on double 5s or 6s" */
        bool up = r.doubles && (r.a == 5 || r.a == 6);
        bool ladder = ladder_d6 >= 5;
        ucr_stair s = ladder ? (up ? UCR_LADDER_UP : UCR_LADDER_DOWN)
                             : (up ? UCR_STAIR_UP : UCR_STAIR_DOWN);
        half_push(half, UCR_STEP_STAIRS, s);
        return true;
    }
    }
}

void ucr_roll004_half(ucr_prng *rng, ucr_half *half)
{
    half->n = 0;
    half->nrolls = 0;
    half->through = false;
    for (int i = 0; i <= UCR_HALF_MAX_REROLLS; i++) {
        ucr_2d6 r = ucr_dice_2d6(rng);
        /* The 1d6 is rolled only when the table asks for it. */
        int d6 = r.sum >= 9 ? ucr_dice_d(rng, 6) : 0;
        if (!ucr_roll004_apply(half, r, d6))
            return;
    }
    half->through = false;   /* too many rerolls: read as a wall */
}

static const char *row_text(ucr_2d6 r, int d6)
{
    switch (r.sum) {
    case 2: return "blocked or collapsed tunnel";
    case 3: case 4: return r.doubles ? "door to a room" : "door to tunnel";
    case 5: case 6: case 7: return r.doubles ? "secret door, roll again" : "wall";
    case 8: return r.doubles ? "room" : "tunnel continues";
    default: {
        bool up = r.doubles && (r.a == 5 || r.a == 6);
        if (d6 >= 5)
            return up ? "ladder up, roll again" : "ladder down, roll again";
        return up ? "stairs up, roll again" : "stairs down, roll again";
    }
    }
}

char *ucr_roll004_describe(const ucr_half *half)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; i < half->nrolls; i++) {
        ucr_2d6 r = half->rolls[i];
        if (i)
            g_string_append(s, "; then ");
        g_string_append_printf(s, "2d6=%d (%d+%d)", r.sum, r.a, r.b);
        if (half->ladder_rolls[i])
            g_string_append_printf(s, ", 1d6=%d", half->ladder_rolls[i]);
        g_string_append_printf(s, ": %s", row_text(r, half->ladder_rolls[i]));
    }
    return g_string_free(s, FALSE);
}

bool ucr_half_has(const ucr_half *half, ucr_step_kind kind)
{
    for (int i = 0; i < half->n; i++)
        if (half->steps[i].kind == kind)
            return true;
    return false;
}
