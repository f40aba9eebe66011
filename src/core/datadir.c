#include "core/datadir.h"

#include <glib.h>

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
