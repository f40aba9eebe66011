/* Tests of batch runs: output patterns, seeds, and the runner (workers,
 * skipping complete jobs, naming a failed one). */
#include <check.h>

#include "check_run.h"
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/batch.h"
#include "core/error.h"
#include "core/outfile.h"

START_TEST(pattern_fields_expand)
{
    char *s = ucr_pattern_expand("zines/{n}-{seed}.pdf", "goblin-7", 7, 3);
    ck_assert_str_eq(s, "zines/007-goblin-7.pdf");
    g_free(s);
    s = ucr_pattern_expand("{n:5}/{seed}{seed}-{node}.svg", "x", 42, 2);
    ck_assert_str_eq(s, "00042/xx-{node}.svg");
    g_free(s);
    s = ucr_pattern_expand("plain.json", "x", 1, 1);
    ck_assert_str_eq(s, "plain.json");
    g_free(s);
    s = ucr_batch_seed("goblin", 12);
    ck_assert_str_eq(s, "goblin-12");
    g_free(s);
}
END_TEST

START_TEST(pattern_node_paths)
{
    char *s = ucr_pattern_node("d/{node}/map-{node}.png", "AB", false);
    ck_assert_str_eq(s, "d/AB/map-AB.png");
    g_free(s);
    s = ucr_pattern_node("d.x/map.svg", "B", false);
    ck_assert_str_eq(s, "d.x/map-B.svg");
    g_free(s);
    s = ucr_pattern_node("d.x/map", "B", false);
    ck_assert_str_eq(s, "d.x/map-B");
    g_free(s);
    s = ucr_pattern_node("d/.hidden", "C", false);
    ck_assert_str_eq(s, "d/.hidden-C");
    g_free(s);
    s = ucr_pattern_node("map.svg", "B", true);
    ck_assert_str_eq(s, "map.svg");
    g_free(s);
}
END_TEST

START_TEST(pattern_check_names_the_bad_field)
{
    GError *error = NULL;
    unsigned all = UCR_PATTERN_SEED | UCR_PATTERN_N | UCR_PATTERN_NODE;
    ck_assert_int_eq(ucr_pattern_check("{seed}-{n:4}-{node}.svg", all, NULL),
                     UCR_PATTERN_SEED | UCR_PATTERN_N | UCR_PATTERN_NODE);
    ck_assert_int_eq(ucr_pattern_check("a.pdf", all, NULL), 0);
    ck_assert_int_eq(ucr_pattern_check("{n}.pdf", UCR_PATTERN_SEED, &error), -1);
    ck_assert_int_eq(error->code, UCR_ERROR_USAGE);
    ck_assert_msg(strstr(error->message, "'{n}' is not a field here; use {seed}"), "%s", error->message);
    g_clear_error(&error);
    ck_assert_int_eq(ucr_pattern_check("{date}.pdf", all, &error), -1);
    ck_assert_msg(strstr(error->message, "'{date}'"), "%s", error->message);
    g_clear_error(&error);
    ck_assert_int_eq(ucr_pattern_check("{n:0}.pdf", all, &error), -1);
    g_clear_error(&error);
    ck_assert_int_eq(ucr_pattern_check("{seed.pdf", all, &error), -1);
    ck_assert_msg(strstr(error->message, "'{seed.pdf'"), "%s", error->message);
    ck_assert_msg(strstr(error->message, "or {{ for a '{' in the name"), "%s", error->message);
    g_clear_error(&error);
    /* Any file name can be given: a '}' alone is itself, "{{" is a '{'. */
    ck_assert_int_eq(ucr_pattern_check("notes}.json", all, NULL), 0);
    ck_assert_int_eq(ucr_pattern_check("{{draft}}-{n}.pdf", all, NULL), UCR_PATTERN_N);
    char *s = ucr_pattern_expand("{{draft}}-{n}}.pdf", "x", 3, 2);
    ck_assert_str_eq(s, "{draft}}-03}.pdf");
    g_free(s);
}
END_TEST

/* A batch whose job n writes "job n" to DIR/n.txt, except the jobs
 * fail_job names, which fail as an unwritable file would. */
typedef struct {
    char *dir;
    int fail_job;
} fake;

static char **fake_targets(int n, void *data)
{
    const fake *f = data;
    char **t = g_new0(char *, 2);
    t[0] = g_strdup_printf("%s/%d.txt", f->dir, n);
    return t;
}

static gboolean fake_run(int n, void *data, GError **error)
{
    const fake *f = data;
    if (n == f->fail_job || f->fail_job < 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write job %d", n);
        return FALSE;
    }
    char *path = g_strdup_printf("%s/%d.txt", f->dir, n);
    ucr_outfile *out = ucr_outfile_open(path, error);
    g_free(path);
    if (!out)
        return FALSE;
    fprintf(ucr_outfile_stream(out), "job %d\n", n);
    return ucr_outfile_commit(out, error);
}

static bool has(const char *dir, int n)
{
    char *path = g_strdup_printf("%s/%d.txt", dir, n), *text = NULL;
    bool ok = g_file_get_contents(path, &text, NULL, NULL);
    char *want = g_strdup_printf("job %d\n", n);
    ok = ok && strcmp(text, want) == 0;
    g_free(want);
    g_free(text);
    g_free(path);
    return ok;
}

START_TEST(runner_goes_on_after_a_failure_and_skips_what_is_made)
{
    char *dir = g_dir_make_tmp("ucr-batch-XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
    fake f = { dir, 3 };
    ucr_batch b = { 2, 4, 2, false, false, "t", fake_targets, fake_run, &f };
    /* Jobs 2 … 5: job 3 fails, the others are made. */
    ck_assert_int_eq(ucr_batch_run(&b), UCR_ERROR_CANTCREAT);
    ck_assert(!has(dir, 1) && has(dir, 2) && !has(dir, 3) && has(dir, 4) && has(dir, 5));
    /* A rerun skips the made jobs: were they run, they would now fail. */
    f.fail_job = -1;
    ck_assert_int_eq(ucr_batch_run(&b), UCR_ERROR_CANTCREAT);
    b.first = 4;
    b.count = 2;
    ck_assert_int_eq(ucr_batch_run(&b), 0);
    /* --force runs them again. */
    b.force = true;
    b.jobs = 1;
    ck_assert_int_eq(ucr_batch_run(&b), UCR_ERROR_CANTCREAT);
    for (int n = 2; n <= 5; n++)
        if (n != 3) {
            char *p = g_strdup_printf("%s/%d.txt", dir, n);
            unlink(p);
            g_free(p);
        }
    /* Nothing else was left in the folder: no temporary file. */
    ck_assert_int_eq(rmdir(dir), 0);
    g_free(dir);
}
END_TEST

/* A failed job takes nothing with it but its own temporaries: a user's
 * file that only looks like one (".3.txt." and six characters, as rsync
 * names its own) stays. */
START_TEST(runner_removes_nothing_it_did_not_make)
{
    char *dir = g_dir_make_tmp("ucr-batch-XXXXXX", NULL);
    char *notes = g_strdup_printf("%s/.3.txt.old-v1", dir);
    ck_assert(g_file_set_contents(notes, "notes\n", -1, NULL));
    fake f = { dir, 3 };
    ucr_batch b = { 3, 1, 1, false, false, "t", fake_targets, fake_run, &f };
    ck_assert_int_eq(ucr_batch_run(&b), UCR_ERROR_CANTCREAT);
    ck_assert_msg(g_file_test(notes, G_FILE_TEST_IS_REGULAR), "the user's %s was removed", notes);
    ck_assert_int_eq(unlink(notes), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    g_free(notes);
    g_free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("batch");
    TCase *p = tcase_create("patterns");
    tcase_add_test(p, pattern_fields_expand);
    tcase_add_test(p, pattern_node_paths);
    tcase_add_test(p, pattern_check_names_the_bad_field);
    suite_add_tcase(s, p);
    TCase *r = tcase_create("runner");
    tcase_add_test(r, runner_goes_on_after_a_failure_and_skips_what_is_made);
    tcase_add_test(r, runner_removes_nothing_it_did_not_make);
    suite_add_tcase(s, r);
    return ucr_check_run(s);
}
