/* What a written file looks like from outside (core/outfile.c): the
 * permissions of a new file follow the umask as a shell's '>' does, a file
 * replaced keeps its own, and the temporary never leaves its mode 0600 on
 * the result. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "core/outfile.h"
#include "core/tempfile.h"

static char *tmp;

static void tmp_setup(void)
{
    tmp = g_dir_make_tmp("ucr-outfile-XXXXXX", NULL);
    ck_assert_ptr_nonnull(tmp);
}

static void tmp_teardown(void)
{
    GDir *d = g_dir_open(tmp, 0, NULL);
    const char *f;
    while (d && (f = g_dir_read_name(d))) {
        char *p = g_build_filename(tmp, f, NULL);
        g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(tmp);
    g_free(tmp);
}

/* Writes @text to @name in the test folder through ucr_outfile under
 * umask @mask; returns the file's permission bits. */
static unsigned write_with_umask(const char *name, const char *text, mode_t mask)
{
    char *path = g_build_filename(tmp, name, NULL);
    mode_t old = umask(mask);
    GError *error = NULL;
    ucr_outfile *out = ucr_outfile_open(path, &error);
    ck_assert_msg(out, "%s", error ? error->message : "?");
    fputs(text, ucr_outfile_stream(out));
    ck_assert_msg(ucr_outfile_commit(out, &error), "%s", error ? error->message : "?");
    umask(old);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    char *got = NULL;
    ck_assert(g_file_get_contents(path, &got, NULL, NULL));
    ck_assert_str_eq(got, text);
    g_free(got);
    g_free(path);
    return st.st_mode & 07777;
}

START_TEST(a_new_file_follows_the_umask)
{
    ck_assert_uint_eq(write_with_umask("a.pdf", "one\n", 022), 0644);
    ck_assert_uint_eq(write_with_umask("b.pdf", "two\n", 002), 0664);
    ck_assert_uint_eq(write_with_umask("c.pdf", "three\n", 077), 0600);
    ck_assert_uint_eq(write_with_umask("d.pdf", "four\n", 0), 0666);
}
END_TEST

START_TEST(a_replaced_file_keeps_its_permissions)
{
    char *path = g_build_filename(tmp, "kept.json", NULL);
    ck_assert(g_file_set_contents(path, "old\n", -1, NULL));
    ck_assert_int_eq(chmod(path, 0640), 0);
    ck_assert_uint_eq(write_with_umask("kept.json", "new\n", 022), 0640);
    ck_assert_int_eq(chmod(path, 0604), 0);
    ck_assert_uint_eq(write_with_umask("kept.json", "newer\n", 077), 0604);
    g_free(path);
}
END_TEST

static char *in_tmp(const char *name)
{
    return g_build_filename(tmp, name, NULL);
}

static int count_marked(void)
{
    GDir *d = g_dir_open(tmp, 0, NULL);
    int n = 0;
    for (const char *f; (f = g_dir_read_name(d));)
        n += g_str_has_prefix(f, UCR_TEMPFILE_MARKER);
    g_dir_close(d);
    return n;
}

static ucr_outfile *open_ok(const char *name)
{
    char *path = in_tmp(name);
    GError *error = NULL;
    ucr_outfile *out = ucr_outfile_open(path, &error);
    ck_assert_msg(out, "%s", error ? error->message : "?");
    g_free(path);
    return out;
}

static void assert_content(const char *name, const char *want)
{
    char *path = in_tmp(name), *got = NULL;
    ck_assert_msg(g_file_get_contents(path, &got, NULL, NULL), "%s is missing", name);
    ck_assert_str_eq(got, want);
    g_free(got);
    g_free(path);
}

/* While it is written a temporary has no name (O_TMPFILE): nothing in the
 * folder, so nothing a SIGKILL could leave. */
START_TEST(a_temporary_has_no_name_while_written)
{
    ucr_outfile *out = open_ok("a.pdf");
    fputs("new\n", ucr_outfile_stream(out));
    GDir *d = g_dir_open(tmp, 0, NULL);
    ck_assert_ptr_null(g_dir_read_name(d));
    g_dir_close(d);
    ck_assert(ucr_outfile_commit(out, NULL));
    assert_content("a.pdf", "new\n");
}
END_TEST

/* Where temporaries must have names (NFS, FAT): a sweep removes the one a
 * killed undercroft left, never a live one of another writer, never a
 * file of the user's that only looks like a temporary. */
START_TEST(a_sweep_removes_only_a_dead_writers_temporaries)
{
    ucr_tempfile_named_only(TRUE);
    char *user = in_tmp(".b.pdf.old-v1");
    ck_assert(g_file_set_contents(user, "notes\n", -1, NULL));
    ucr_outfile *live = open_ok("a.pdf");
    fputs("live\n", ucr_outfile_stream(live));
    fflush(ucr_outfile_stream(live));
    pid_t pid = fork();
    if (pid == 0) {
        ucr_outfile *dead = ucr_outfile_open(g_build_filename(tmp, "b.pdf", NULL), NULL);
        fputs("half", ucr_outfile_stream(dead));
        fflush(ucr_outfile_stream(dead));
        raise(SIGKILL);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFSIGNALED(st));
    ck_assert_int_eq(count_marked(), 2);   /* the live one and the dead one */
    ck_assert_int_eq(ucr_tempfile_sweep(tmp), 1);
    ck_assert_int_eq(count_marked(), 1);
    ck_assert_int_eq(ucr_tempfile_sweep(tmp), 0);
    ck_assert(g_file_test(user, G_FILE_TEST_IS_REGULAR));
    ck_assert(ucr_outfile_commit(live, NULL));
    assert_content("a.pdf", "live\n");
    ck_assert_int_eq(count_marked(), 0);
    ucr_tempfile_named_only(FALSE);
    g_free(user);
}
END_TEST

/* A FIFO made at one path of a set while the set is written: refused, and
 * no file of the set is replaced (the FIFO neither). */
START_TEST(a_set_is_all_or_nothing)
{
    const char *names[] = { "m-A.svg", "m-B.svg", "m-C.svg" };
    ucr_outfile *outs[3];
    for (int i = 0; i < 3; i++) {
        char *p = in_tmp(names[i]);
        ck_assert(g_file_set_contents(p, "old\n", -1, NULL));
        g_free(p);
        outs[i] = open_ok(names[i]);
        fputs("new\n", ucr_outfile_stream(outs[i]));
    }
    char *c = in_tmp("m-C.svg");
    ck_assert_int_eq(unlink(c), 0);
    ck_assert_int_eq(mkfifo(c, 0600), 0);
    GError *error = NULL;
    ck_assert(!ucr_outfile_commit_all(outs, 3, &error));
    ck_assert_int_eq(error->code, 73);
    ck_assert_msg(strstr(error->message, "will not replace") && strstr(error->message, "it is a FIFO"), "%s",
                  error->message);
    g_clear_error(&error);
    assert_content("m-A.svg", "old\n");
    assert_content("m-B.svg", "old\n");
    struct stat st;
    ck_assert(lstat(c, &st) == 0 && S_ISFIFO(st.st_mode));
    ck_assert_int_eq(count_marked(), 0);
    g_free(c);
}
END_TEST

/* A link made at the path while the file is written is not followed. */
START_TEST(a_link_made_meanwhile_is_refused)
{
    ucr_outfile *out = open_ok("d.json");
    fputs("new\n", ucr_outfile_stream(out));
    char *d = in_tmp("d.json"), *other = in_tmp("other.json");
    ck_assert(g_file_set_contents(other, "theirs\n", -1, NULL));
    ck_assert_int_eq(symlink("other.json", d), 0);
    GError *error = NULL;
    ck_assert(!ucr_outfile_commit(out, &error));
    ck_assert_msg(strstr(error->message, "it became a link to"), "%s", error->message);
    g_clear_error(&error);
    assert_content("other.json", "theirs\n");
    g_free(d);
    g_free(other);
}
END_TEST

static Suite *outfile_suite(void)
{
    Suite *s = suite_create("outfile");
    TCase *tc = tcase_create("permissions");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_add_test(tc, a_new_file_follows_the_umask);
    tcase_add_test(tc, a_replaced_file_keeps_its_permissions);
    suite_add_tcase(s, tc);
    TCase *t = tcase_create("temporaries");
    tcase_add_checked_fixture(t, tmp_setup, tmp_teardown);
    tcase_add_test(t, a_temporary_has_no_name_while_written);
    tcase_add_test(t, a_sweep_removes_only_a_dead_writers_temporaries);
    tcase_add_test(t, a_set_is_all_or_nothing);
    tcase_add_test(t, a_link_made_meanwhile_is_refused);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return ucr_check_run(outfile_suite());
}
