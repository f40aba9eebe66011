/* Tests that bite on geometry: the corridors seed 000 rolls are drawn as
 * long as rolled (a corridor 10 ft longer than its roll survived every
 * other test), over many seeds. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "gen/super/megadungeon.h"
#include "invariants.h"
#include "pipeline/pipeline.h"
#include "tables/table.h"

static ucr_tables *tables;

static void setup(void)
{
    tables = ucr_test_tables();
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

START_TEST(numbered_corridors_are_as_long_as_rolled)
{
    int checked = 0, seeds = getenv("UCR_SAN") ? 40 : 150;
    GString *mismatches = g_string_new(NULL);
    for (int i = 1; i <= seeds; i++) {
        char *seed = g_strdup_printf("corridor-%d", i);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 2, 1, tables, ucr_node_method_lookup("numbered"), { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md, "seed %s: %s", seed, error ? error->message : "?");
        for (guint k = 0; k < md->nodes->len; k++)
            ucr_test_corridor_lengths(g_ptr_array_index(md->nodes, k), seed, &checked, mismatches);
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    /* Enough corridors seen for the check to mean something (about 9 a
     * seed), and all but a few as long as rolled (31 of 1,370 today: a
     * rolled corridor cut by a junction, the rooms joined again later). */
    ck_assert_msg(checked >= seeds * 6, "only %d corridors checked over %d seeds", checked, seeds);
    int wrong = 0;
    for (const char *c = mismatches->str; *c; c++)
        wrong += *c == '\n';
    ck_assert_msg(wrong * 20 <= checked, "%d of %d corridors are not as long as rolled:\n%.2000s", wrong,
                  checked, mismatches->str);
    g_string_free(mismatches, TRUE);
}
END_TEST

static Suite *corridors_suite(void)
{
    Suite *s = suite_create("corridors");
    TCase *tc = tcase_create("lengths");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, numbered_corridors_are_as_long_as_rolled);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(corridors_suite());
}
