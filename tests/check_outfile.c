/* What a written file looks like from outside (core/outfile.c): the
 * permissions of a new file follow the umask as a shell's '>' does, a file
 * replaced keeps its own, and the temporary never leaves its mode 0600 on
 * the result. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "check_run.h"
#include "core/outfile.h"

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

static Suite *outfile_suite(void)
{
    Suite *s = suite_create("outfile");
    TCase *tc = tcase_create("permissions");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_add_test(tc, a_new_file_follows_the_umask);
    tcase_add_test(tc, a_replaced_file_keeps_its_permissions);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(outfile_suite());
}
