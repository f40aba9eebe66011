/* The records of the dice against the rules that made them (seed 004's
 * rerolls; seed 000's d10 read 0-9): the model is checked against the
 * table, not one output against another. */
#include <check.h>
#include <string.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "core/prng.h"
#include "gen/super/megadungeon.h"
#include "pipeline/pipeline.h"
#include "gen/kit/roll004.h"

static ucr_tables *tables;

static void setup(void)
{
    tables = ucr_test_tables();
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

/* seed 000: "roll a d10 for corridor length: on a 0, there is no corridor
 * and the door leads directly into the new room; on a 1-6, multiply the
 * result by 10 for the length of the corridor; on a 7+, draw 60 feet of
 * corridor and then test for turns".  Every record of a numbered node says
 * the face (0-9) and what the table's row for it says, no more and no less:
 * check_corridors then holds the drawn corridor to the record. */
START_TEST(numbered_corridor_records_follow_the_d10)
{
    const ucr_table *lt = ucr_tables_need(tables, "numbered-corridor");
    GRegex *re = g_regex_new("corridor d10=(\\d+): (?:(\\d+) ft(, then)?|(the door opens straight into it))", 0, 0,
                             NULL);
    int seeds = g_getenv("UCR_SAN") ? 20 : 80, seen[10] = { 0 };
    for (int i = 1; i <= seeds; i++) {
        char *seed = g_strdup_printf("d10-%d", i);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 2, 1, tables, ucr_node_method_lookup("numbered"), { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md, "seed %s: %s", seed, error ? error->message : "?");
        for (guint k = 0; k < md->nodes->len; k++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, k);
            for (guint r = 0; r < n->rolls->len; r++) {
                const char *rec = g_ptr_array_index(n->rolls, r);
                GMatchInfo *mi;
                if (!strstr(rec, "corridor d10=")) {
                    continue;
                }
                ck_assert_msg(g_regex_match(re, rec, 0, &mi), "seed %s node %s: '%s'", seed, n->id, rec);
                char *face = g_match_info_fetch(mi, 1), *ft = g_match_info_fetch(mi, 2),
                     *then = g_match_info_fetch(mi, 3), *none = g_match_info_fetch(mi, 4);
                g_match_info_free(mi);
                int f = atoi(face);
                ck_assert_msg(f >= 0 && f <= 9, "seed %s node %s: a d10 read as %d: '%s'", seed, n->id, f, rec);
                seen[f]++;
                const ucr_table_row *row = ucr_table_pick(lt, f ? f : 10, NULL);
                ck_assert_ptr_nonnull(row);
                if (!strcmp(row->tag, "none")) {
                    ck_assert_msg(*none, "seed %s node %s: d10=%d is no corridor: '%s'", seed, n->id, f, rec);
                } else {
                    ck_assert_msg(*ft && atoi(ft) == atoi(row->text), "seed %s node %s: d10=%d is %s ft: '%s'", seed,
                                  n->id, f, row->text, rec);
                    /* 7+: the turn test, then 30 ft more; 1-6: the length alone. */
                    ck_assert_msg(!strcmp(row->tag, "long") == (*then != '\0'), "seed %s node %s: '%s'", seed, n->id,
                                  rec);
                }
                g_free(face);
                g_free(ft);
                g_free(then);
                g_free(none);
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    /* Every face came up: the check saw every row. */
    for (int f = 0; f < 10; f++)
        ck_assert_msg(seen[f] > 0, "no corridor roll of %d in %d seeds", f, seeds);
    g_regex_unref(re);
}
END_TEST

static Suite *rolls_suite(void)
{
    Suite *s = suite_create("rolls");
    TCase *tc = tcase_create("seed 004");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reroll_chains_run_their_full_length);
    suite_add_tcase(s, tc);
    tc = tcase_create("seed 000");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, numbered_corridor_records_follow_the_d10);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(rolls_suite());
}
