#include "core/datadir.h"

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

const char *ucr_datadir(void)
{
    if (datadir)
        return datadir;
    const char *env = g_getenv("UNDERCROFT_DATADIR");
    if (env && *env)
        datadir = g_strdup(env);
    else if (has_templates(UCR_SOURCE_DATADIR))
        datadir = g_strdup(UCR_SOURCE_DATADIR);
    else
        datadir = g_strdup(UCR_INSTALL_DATADIR);
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
