#include "gen/kit/roll004.h"

#include <string.h>
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

static bool is(const ucr_table_row *row, const char *kind)
{
    return row->tag && strcmp(row->tag, kind) == 0;
}

bool ucr_roll004_apply(const ucr_tables *tables, ucr_half *half, const ucr_table_dice *dice,
                       int stairs_die)
{
    const ucr_table *dir = ucr_tables_need(tables, "rdg-direction");
    const ucr_table *st = ucr_tables_need(tables, "rdg-stairs");
    const ucr_table_row *row = ucr_table_pick(dir, dice->total, dice->faces);
    bool stairs = is(row, "stairs-down") || is(row, "stairs-up");
    const ucr_table_row *srow = stairs ? ucr_table_pick(st, stairs_die, NULL) : NULL;
    if (half->nrolls <= UCR_HALF_MAX_REROLLS) {
        ucr_half_roll *r = &half->rolls[half->nrolls++];
        r->table = dir;
        r->dice = *dice;
        r->text = row->text;
        r->stairs_table = st;
        r->stairs = (ucr_table_dice){ stairs_die, 1, { stairs_die } };
        r->stairs_text = srow ? srow->text : NULL;
    }
    /* The kinds are checked when the tables load (tables/table.h). */
    if (is(row, "blocked")) {
        half_push(half, UCR_STEP_BLOCKED, UCR_STAIR_NONE);
        half->through = true;
        return false;
    }
    if (is(row, "door") || is(row, "room-door")) {
        half_push(half, is(row, "door") ? UCR_STEP_DOOR : UCR_STEP_ROOM_DOOR, UCR_STAIR_NONE);
        half->through = true;
        return false;
    }
    if (is(row, "secret")) {
        /* "secret door on double 3s, roll again" */
        half_push(half, UCR_STEP_SECRET, UCR_STAIR_NONE);
        return true;
    }
    if (is(row, "open") || is(row, "room")) {
        if (is(row, "room"))
            half_push(half, UCR_STEP_ROOM_OPEN, UCR_STAIR_NONE);
        half->through = true;
        return false;
    }
    if (stairs) {
        /* "stairs down (ladder on 5+ on 1d6) roll again; change direction
         * to 'up' on double 5s or 6s" */
        bool up = is(row, "stairs-up");
        bool ladder = srow && is(srow, "ladder");
        ucr_stair s = ladder ? (up ? UCR_LADDER_UP : UCR_LADDER_DOWN)
                             : (up ? UCR_STAIR_UP : UCR_STAIR_DOWN);
        half_push(half, UCR_STEP_STAIRS, s);
        return true;
    }
    half->through = false;   /* [wall] */
    return false;
}

void ucr_roll004_half(const ucr_tables *tables, ucr_prng *rng, ucr_half *half)
{
    const ucr_table *dir = ucr_tables_need(tables, "rdg-direction");
    const ucr_table *st = ucr_tables_need(tables, "rdg-stairs");
    half->n = 0;
    half->nrolls = 0;
    half->through = false;
    for (int i = 0; i <= UCR_HALF_MAX_REROLLS; i++) {
        ucr_table_dice dice;
        const ucr_table_row *row = ucr_table_roll_dice(dir, rng, &dice);
        /* The stairs-or-ladder die is rolled only when the table asks for it. */
        int sd = is(row, "stairs-down") || is(row, "stairs-up") ? ucr_dice_d(rng, st->sides) : 0;
        if (!ucr_roll004_apply(tables, half, &dice, sd))
            return;
    }
    half->through = false;   /* too many rerolls: read as a wall */
}

/* Appends @v in decimal (the dice's text is built for every roll of every
 * node: printf was a tenth of the grid's time). */
static void int_append(GString *s, int v)
{
    char buf[16];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do {
        buf[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u && n < (int)sizeof buf);
    if (v < 0)
        g_string_append_c(s, '-');
    while (n)
        g_string_append_c(s, buf[--n]);
}

/* As ucr_table_dice_text(): "2d6=9 (4+5)", "1d6=4". */
static void dice_append(GString *s, const ucr_table *t, const ucr_table_dice *d)
{
    int_append(s, t->count);
    g_string_append_c(s, 'd');
    int_append(s, t->sides);
    g_string_append_c(s, '=');
    int_append(s, d->total);
    if (d->n > 1) {
        g_string_append(s, " (");
        for (int i = 0; i < d->n; i++) {
            if (i)
                g_string_append_c(s, '+');
            int_append(s, d->faces[i]);
        }
        g_string_append_c(s, ')');
    }
}

char *ucr_roll004_describe(const ucr_half *half)
{
    GString *s = g_string_sized_new(64);
    for (int i = 0; i < half->nrolls; i++) {
        const ucr_half_roll *r = &half->rolls[i];
        if (i)
            g_string_append(s, "; then ");
        dice_append(s, r->table, &r->dice);
        g_string_append(s, ": ");
        g_string_append(s, r->text);
        if (r->stairs_text) {
            g_string_append(s, "; ");
            dice_append(s, r->stairs_table, &r->stairs);
            g_string_append(s, ": ");
            g_string_append(s, r->stairs_text);
        }
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

/* The two tables of the direction roll, for the superstructure and the grid
 * method alike: the kinds this file reads. */
static const char *const RDG_DIRECTION_KINDS[] = { "blocked", "door", "room-door", "wall", "secret",
                                                   "open", "room", "stairs-down", "stairs-up", NULL };
static const char *const RDG_STAIRS_KINDS[] = { "stairs", "ladder", NULL };
const ucr_table_need ucr_roll004_tables[] = {
    { "rdg-direction", RDG_DIRECTION_KINDS, NULL, FALSE },
    { "rdg-stairs", RDG_STAIRS_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};
