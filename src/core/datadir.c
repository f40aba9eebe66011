#include "core/datadir.h"

#include <string.h>

#include <glib.h>

#include "core/error.h"

#ifndef UCR_INSTALL_DATADIR
#define UCR_INSTALL_DATADIR "/usr/local/share/undercroft"
#endif
#ifndef UCR_SOURCE_DATADIR
#define UCR_SOURCE_DATADIR "."
#endif

static char *datadir;

static gboolean has_templates(const char *dir)
{
    char *probe = g_build_filename(dir, "templates", NULL);
    gboolean ok = g_file_test(probe, G_FILE_TEST_IS_DIR);
    g_free(probe);
    return ok;
}

/* The running executable's folder, links resolved; NULL if unknown. */
static char *exe_dir(void)
{
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (!exe)
        return NULL;
    char *dir = g_path_get_dirname(exe);
    g_free(exe);
    return dir;
}

const char *ucr_datadir(void)
{
    if (datadir)
        return datadir;
    const char *env = g_getenv("UNDERCROFT_DATADIR");
    if (env && *env)
        return datadir = g_strdup(env);
    char *dir = exe_dir();
    /* A build in the source tree (build/undercroft, the tests) uses the
     * tree's data, never an older installed copy. */
    char *source = g_canonicalize_filename(UCR_SOURCE_DATADIR, NULL);
    char *inside = g_strconcat(source, G_DIR_SEPARATOR_S, NULL);
    if (dir && (g_str_has_prefix(dir, inside) || !strcmp(dir, source)) && has_templates(source)) {
        datadir = source;
        source = NULL;
    }
    g_free(inside);
    g_free(source);
    /* An installed one: PREFIX/bin/undercroft next to PREFIX/share/undercroft,
     * wherever PREFIX (or DESTDIR) put it; then the configured place. */
    if (!datadir && dir) {
        char *share = g_build_filename(dir, "..", "share", "undercroft", NULL);
        if (has_templates(share))
            datadir = g_canonicalize_filename(share, NULL);
        g_free(share);
    }
    if (!datadir)
        datadir = g_strdup(UCR_INSTALL_DATADIR);
    g_free(dir);
    return datadir;
}

gboolean ucr_datadir_check(GError **error)
{
    const char *dir = ucr_datadir();
    const char *env = g_getenv("UNDERCROFT_DATADIR");
    const char *from = env && *env ? "UNDERCROFT_DATADIR" : "the install";
    static const char *const needed[] = { "templates/tables", "templates/styles", "fonts" };
    for (gsize i = 0; i < G_N_ELEMENTS(needed); i++) {
        char *probe = g_build_filename(dir, needed[i], NULL);
        gboolean ok = g_file_test(probe, G_FILE_TEST_IS_DIR);
        g_free(probe);
        if (!ok) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT,
                        "no data folder: '%s' (from %s) has no %s/; set UNDERCROFT_DATADIR to "
                        "the folder holding templates/ and fonts/, or reinstall (make install)",
                        dir, from, needed[i]);
            return FALSE;
        }
    }
    return TRUE;
}
