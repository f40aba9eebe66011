/* undercroft — golden traces: a trace compared line by line with its file
 * under tests/golden/, rewritten instead when UCR_GOLDEN_UPDATE is set (after
 * a deliberate change; then read the diff: that run fails on purpose,
 * tests/check_run.h). */
#ifndef UCR_TEST_GOLDEN_H
#define UCR_TEST_GOLDEN_H

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

/** Compares @trace with the file @path; @how names the test file whose top
 *  says how to regenerate it. */
static inline void ucr_test_golden(const char *path, const char *trace, const char *how)
{
    if (g_getenv("UCR_GOLDEN_UPDATE")) {
        ck_assert_msg(g_file_set_contents(path, trace, -1, NULL), "cannot write %s", path);
        fprintf(stderr, "wrote %s\n", path);
    }
    char *want = NULL;
    ck_assert_msg(g_file_get_contents(path, &want, NULL, NULL), "%s is missing: see the top of %s", path,
                  how);
    char **a = g_strsplit(trace, "\n", -1), **b = g_strsplit(want, "\n", -1);
    for (int i = 0; a[i] || b[i]; i++)
        ck_assert_msg(a[i] && b[i] && !strcmp(a[i], b[i]), "%s line %d differs:\n got: %.200s\nwant: %.200s",
                      path, i + 1, a[i] ? a[i] : "(end)", b[i] ? b[i] : "(end)");
    g_strfreev(a);
    g_strfreev(b);
    g_free(want);
}

#endif
