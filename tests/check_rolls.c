/* The records of the dice against the rules that made them (seed 004's
 * rerolls; seed 000's d10 read 0-9): the model is checked against the
 * table, not one output against another. */
#include <check.h>
#include <string.h>

#include "check_run.h"
#include "core/datadir.h"
#include "core/prng.h"
#include "gen/roll004.h"

static ucr_tables *tables;

static void setup(void)
{
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    GError *error = NULL;
    tables = ucr_tables_load(dir, &error);
    ck_assert_msg(tables, "%s", error ? error->message : "?");
    g_free(dir);
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

/* Does this recorded roll say "roll again" (seed 004: a secret door on
 * double 3s, stairs or a ladder on 9-12)? */
static gboolean rolls_again(const ucr_half_roll *r)
{
    const ucr_table_row *row = ucr_table_pick(r->table, r->dice.total, r->dice.faces);
    ck_assert_ptr_nonnull(row);
    ck_assert_str_eq(row->text, r->text);
    return row->tag && (!strcmp(row->tag, "secret") || !strcmp(row->tag, "stairs-down") ||
                        !strcmp(row->tag, "stairs-up"));
}

/* seed 004: "roll again" chains until a result that ends the half; only a
 * chain that reaches the limit (UCR_HALF_MAX_REROLLS rerolls) is cut, and
 * is then read as a wall.  Each secret door and each stair of the chain is
 * a step of the half, in order. */
START_TEST(reroll_chains_run_their_full_length)
{
    ucr_prng rng;
    ucr_prng_seed(&rng, "chains", "test");
    int n = 36000, longest = 0, at_limit = 0;
    for (int i = 0; i < n; i++) {
        ucr_half h;
        ucr_roll004_half(tables, &rng, &h);
        ck_assert_int_ge(h.nrolls, 1);
        for (int k = 0; k + 1 < h.nrolls; k++)
            ck_assert_msg(rolls_again(&h.rolls[k]), "half %d: roll %d ends the half, yet roll %d follows", i,
                          k + 1, k + 2);
        gboolean last_again = rolls_again(&h.rolls[h.nrolls - 1]);
        if (last_again) {
            ck_assert_msg(h.nrolls == UCR_HALF_MAX_REROLLS + 1,
                          "half %d: roll %d of %d says roll again, and the chain stops", i, h.nrolls,
                          UCR_HALF_MAX_REROLLS + 1);
            ck_assert_msg(!h.through, "half %d: a chain cut at the limit is a wall", i);
            at_limit++;
        }
        longest = MAX(longest, h.nrolls);
        /* The steps: one per secret door or stair rolled, in the order rolled. */
        int step = 0;
        for (int k = 0; k < h.nrolls; k++) {
            const ucr_table_row *row = ucr_table_pick(h.rolls[k].table, h.rolls[k].dice.total,
                                                      h.rolls[k].dice.faces);
            if (!strcmp(row->tag, "secret")) {
                ck_assert_int_lt(step, h.n);
                ck_assert_int_eq(h.steps[step++].kind, UCR_STEP_SECRET);
            } else if (!strcmp(row->tag, "stairs-down") || !strcmp(row->tag, "stairs-up")) {
                ck_assert_int_lt(step, h.n);
                const ucr_step *s = &h.steps[step++];
                ck_assert_int_eq(s->kind, UCR_STEP_STAIRS);
                /* "change direction to 'up' on double 5s or 6s"; "ladder on 5+ on 1d6" */
                gboolean up = !strcmp(row->tag, "stairs-up");
                gboolean ladder = h.rolls[k].stairs.total >= 5;
                ck_assert_int_eq(s->stair, ladder ? (up ? UCR_LADDER_UP : UCR_LADDER_DOWN)
                                                  : (up ? UCR_STAIR_UP : UCR_STAIR_DOWN));
            }
        }
    }
    /* Chains of the full length do happen: about (11/36)^4 of the halves. */
    ck_assert_int_eq(longest, UCR_HALF_MAX_REROLLS + 1);
    ck_assert_msg(at_limit > n / 400 && at_limit < n / 60, "%d of %d halves reached the limit", at_limit, n);
}
END_TEST

static Suite *rolls_suite(void)
{
    Suite *s = suite_create("rolls");
    TCase *tc = tcase_create("seed 004");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reroll_chains_run_their_full_length);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(rolls_suite());
}
