/* Tests that bite: hostile data files (nan, inf, FIFOs, folders) refused
 * with file:line, JSON strings escaped, table errors on the right line,
 * output that goes through a temporary file, signals that clean up. */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"
#include "core/outfile.h"
#include "core/signal.h"
#include "pipeline/pipeline.h"
#include "tables/table.h"
#include "layout/page.h"
#include "layout/style.h"
#include "model/json.h"

static char *dir;

static void tmp_setup(void)
{
    dir = g_dir_make_tmp("ucr-hostile-XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
}

static void tmp_teardown(void)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, name, NULL);
        if (rmdir(p) != 0)
            unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    rmdir(dir);
    g_free(dir);
}

static int compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names in dir, sorted, space-separated ("" if empty); freed by the caller. */
static char *dir_listing(void)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d)))
        g_ptr_array_add(names, g_strdup(name));
    g_dir_close(d);
    g_ptr_array_sort(names, compare_names);
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < names->len; i++)
        g_string_append_printf(s, "%s%s", i ? " " : "", (char *)g_ptr_array_index(names, i));
    g_ptr_array_free(names, TRUE);
    return g_string_free(s, FALSE);
}

static char *write_file(const char *name, const char *text)
{
    char *path = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* --- page templates: every number finite and in range ------------------------- */

static void expect_template_error(const char *text, int line, const char *words)
{
    GError *error = NULL;
    ucr_page_template *t = ucr_page_template_parse("p.ini", text, strlen(text), &error);
    ck_assert_msg(!t, "'%s' should be refused", text);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    char *where = g_strdup_printf("p.ini:%d: ", line);
    ck_assert_msg(g_str_has_prefix(error->message, where), "'%s' should start '%s'", error->message,
                  where);
    ck_assert_msg(strstr(error->message, words), "'%s' should say '%s'", error->message, words);
    g_free(where);
    g_error_free(error);
}

START_TEST(page_template_numbers_are_finite)
{
    const char *bad[] = { "nan", "NaN", "inf", "-inf", "infinity", "1e308", "-1", "1e400", "12abc", "" };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *text = g_strdup_printf("[page]\nname = t\n\nwidth = %s\nheight = 297\n", bad[i]);
        expect_template_error(text, 4, "page.width");
        g_free(text);
        text = g_strdup_printf("[page]\nname = t\n[text]\nbody = 9\nsmall = %s\n[key]\ncolumns = 2\n", bad[i]);
        expect_template_error(text, 5, "text.small");
        g_free(text);
    }
    /* The shipped values parse; the floor holds. */
    GError *error = NULL;
    const char *ok = "[page]\nname = t\nwidth = 148\nheight = 210\n";
    ucr_page_template *t = ucr_page_template_parse("p.ini", ok, strlen(ok), &error);
    ck_assert_ptr_nonnull(t);
    ck_assert_double_eq_tol(t->width, 148 * 72 / 25.4, 1e-6);
    ucr_page_template_free(t);
    expect_template_error("[page]\nname = t\n[text]\nbody = 6\n", 4, "text.body");
}
END_TEST

START_TEST(data_files_that_are_not_regular_are_refused_at_once)
{
    char *fifo = g_build_filename(dir, "fifo.ini", NULL);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    GError *error = NULL;
    /* These would block forever if they opened the FIFO for reading. */
    ck_assert_ptr_null(ucr_page_template_load(fifo, ".", &error));
    ck_assert_int_eq(error->code, UCR_ERROR_NOINPUT);
    ck_assert_ptr_nonnull(strstr(error->message, "FIFO"));
    g_clear_error(&error);
    ck_assert_ptr_null(ucr_style_load_file(fifo, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "FIFO"));
    g_clear_error(&error);
    ck_assert_ptr_null(ucr_table_load(fifo, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "FIFO"));
    g_clear_error(&error);
    ck_assert_ptr_null(ucr_page_template_load(dir, ".", &error));
    ck_assert_ptr_nonnull(strstr(error->message, "folder"));
    g_clear_error(&error);
    g_free(fifo);
}
END_TEST

/* --- JSON strings -------------------------------------------------------------- */

static void expect_json(const char *in, const char *out)
{
    GString *s = g_string_new(NULL);
    ucr_json_string(s, in);
    ck_assert_str_eq(s->str, out);
    g_string_free(s, TRUE);
}

START_TEST(json_strings_are_escaped)
{
    expect_json("plain", "\"plain\"");
    expect_json("say \"hi\"", "\"say \\\"hi\\\"\"");
    expect_json("C:\\dungeon\\", "\"C:\\\\dungeon\\\\\"");
    expect_json("\\\"", "\"\\\\\\\"\"");
    expect_json("a\nb\rc\td", "\"a\\nb\\rc\\td\"");
    expect_json("\x01\x1f\x08\x0c", "\"\\u0001\\u001f\\u0008\\u000c\"");
    expect_json("Zauberküche 地下城", "\"Zauberküche 地下城\"");
    expect_json("\x7f", "\"\x7f\"");   /* DEL may stand as it is (RFC 8259) */
    expect_json(NULL, "\"\"");
}
END_TEST

/* --- a table error names the line of the bad row, not the first or last ---------- */

START_TEST(table_errors_name_the_bad_row_in_the_middle)
{
    static const struct { const char *text; int line; const char *words; } cases[] = {
        { "roll: 1d6\n1: a\n# note\n2-x: b\n3-4: c\n5-6: d\n", 4, "'2-x'" },
        { "roll: 1d6\n1-2: a\n\n3-4 b\n5-6: c\n", 4, "expected" },
        { "roll: 1d6\n1-2: a\n2-3: b\n4-6: c\n", 3, "covered twice" },
        { "roll: 1d6\n1-2: a\n3-4: b\n5-6: c\n\xff\n# end\n", 5, "0xff is not UTF-8" },
        { "roll: 1d6\n1-2: a\n3-4: {nonesuch}\n5-6: c\n", 3, "nonesuch" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *path = write_file("t.txt", cases[i].text);
        GError *error = NULL;
        ucr_tables *set = NULL;
        ucr_table *t = ucr_table_load(path, &error);
        if (t) {   /* references are checked with the set */
            ucr_table_free(t);
            set = ucr_pipeline_tables_load(dir, NULL, &error);
        }
        ck_assert_msg(!t || !set, "case %d should be refused", (int)i);
        char *where = g_strdup_printf("%s:%d: ", path, cases[i].line);
        ck_assert_msg(strstr(error->message, where), "case %d: '%s' should name '%s'", (int)i,
                      error->message, where);
        ck_assert_msg(strstr(error->message, cases[i].words), "case %d: '%s' should say '%s'", (int)i,
                      error->message, cases[i].words);
        g_free(where);
        g_error_free(error);
        unlink(path);
        g_free(path);
    }
}
END_TEST

START_TEST(a_table_line_longer_than_the_limit_is_refused)
{
    GString *text = g_string_new("roll: 1d2\n1: short\n2: ");
    for (int i = 0; i < UCR_TABLE_MAX_LINE; i++)
        g_string_append_c(text, 'x');
    g_string_append(text, "\n");
    char *path = write_file("long.txt", text->str);
    GError *error = NULL;
    ck_assert_ptr_null(ucr_table_load(path, &error));
    ck_assert_ptr_nonnull(strstr(error->message, ":3: the line is 1003 bytes long: the limit is 1000"));
    g_error_free(error);
    g_string_free(text, TRUE);
    g_free(path);
}
END_TEST

/* --- output goes through a temporary file -------------------------------------- */

START_TEST(output_is_written_beside_and_renamed)
{
    char *path = write_file("out.txt", "old\n");
    GError *error = NULL;
    ucr_outfile *out = ucr_outfile_open(path, &error);
    ck_assert_ptr_nonnull(out);
    fputs("new content\n", ucr_outfile_stream(out));
    fflush(ucr_outfile_stream(out));
    /* While writing: the old file is untouched, and the temporary beside it
     * has no name (O_TMPFILE: nothing a SIGKILL could leave). */
    char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    ck_assert_str_eq(text, "old\n");
    g_free(text);
    char *names = dir_listing();
    ck_assert_msg(!strcmp(names, "out.txt"), "while writing, the folder holds '%s'", names);
    g_free(names);
    ucr_outfile_abort(out);
    names = dir_listing();
    ck_assert_str_eq(names, "out.txt");
    g_free(names);
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    ck_assert_str_eq(text, "old\n");
    g_free(text);
    /* Committed: the new content, and nothing else. */
    out = ucr_outfile_open(path, &error);
    fputs("new content\n", ucr_outfile_stream(out));
    ck_assert(ucr_outfile_commit(out, &error));
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    ck_assert_str_eq(text, "new content\n");
    g_free(text);
    names = dir_listing();
    ck_assert_str_eq(names, "out.txt");
    g_free(names);
    g_free(path);
}
END_TEST

START_TEST(output_refuses_what_is_not_a_regular_file)
{
    GError *error = NULL;
    ck_assert_ptr_null(ucr_outfile_open("/dev/null", &error));
    ck_assert_int_eq(error->code, UCR_ERROR_CANTCREAT);
    ck_assert_ptr_nonnull(strstr(error->message, "character device"));
    g_clear_error(&error);
    ck_assert_ptr_null(ucr_outfile_open(dir, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "folder"));
    g_clear_error(&error);
    struct stat st;
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

START_TEST(a_failed_write_says_why_and_leaves_the_old_file)
{
    char *path = write_file("full.txt", "old\n");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* Writes past 4 KiB fail with EFBIG: a disk that fills up. */
        signal(SIGXFSZ, SIG_IGN);
        GError *error = NULL;
        ucr_outfile *out = ucr_outfile_open(path, &error);
        struct rlimit lim = { 4096, 4096 };
        int rc = setrlimit(RLIMIT_FSIZE, &lim);
        for (int i = 0; i < 10000; i++)
            fputs("0123456789abcdef", ucr_outfile_stream(out));
        gboolean ok = ucr_outfile_commit(out, &error);
        _exit(rc != 0 ? 3 : ok ? 1
              : error->code == UCR_ERROR_IOERR && strstr(error->message, "File too large") ? 0 : 2);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status), "the writer died");
    ck_assert_msg(WEXITSTATUS(status) != 3, "setrlimit failed");
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    ck_assert_str_eq(text, "old\n");
    g_free(text);
    char *names = dir_listing();
    ck_assert_str_eq(names, "full.txt");
    g_free(names);
    g_free(path);
}
END_TEST

/* --- signals -------------------------------------------------------------------- */

START_TEST(a_signal_unlinks_the_temporaries)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (gsize i = 0; i < G_N_ELEMENTS(sigs); i++) {
        char *path = g_build_filename(dir, "sig.pdf", NULL);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            ucr_outfile *out = ucr_outfile_open(path, NULL);
            fputs("half a booklet", ucr_outfile_stream(out));
            fflush(ucr_outfile_stream(out));
            raise(sigs[i]);
            _exit(0);   /* not reached: the handler dies of the signal */
        }
        int status;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i],
                      "the writer should die of signal %d", sigs[i]);
        char *names = dir_listing();
        ck_assert_str_eq(names, "");
        g_free(names);
        g_free(path);
    }
}
END_TEST

static Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("files");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_add_test(tc, page_template_numbers_are_finite);
    tcase_add_test(tc, data_files_that_are_not_regular_are_refused_at_once);
    tcase_add_test(tc, json_strings_are_escaped);
    tcase_add_test(tc, table_errors_name_the_bad_row_in_the_middle);
    tcase_add_test(tc, a_table_line_longer_than_the_limit_is_refused);
    tcase_add_test(tc, output_is_written_beside_and_renamed);
    tcase_add_test(tc, output_refuses_what_is_not_a_regular_file);
    tcase_add_test(tc, a_failed_write_says_why_and_leaves_the_old_file);
    tcase_add_test(tc, a_signal_unlinks_the_temporaries);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(hostile_suite());
}
