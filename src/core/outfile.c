#include "core/outfile.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

struct ucr_outfile {
    char *path;
    char *temp_path;
    FILE *stream;
};

ucr_outfile *ucr_outfile_open(const char *path, GError **error)
{
    char *dir = g_path_get_dirname(path);
    char *base = g_path_get_basename(path);
    char *templ = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
    g_free(dir);
    g_free(base);

    int fd = g_mkstemp(templ);
    if (fd < 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT,
                    "cannot create '%s': %s (the folder must exist and be writable)",
                    path, g_strerror(errno));
        g_free(templ);
        return NULL;
    }
    /* mkstemp makes the file 0600; output files should be as readable as
     * anything else the user creates. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);

    ucr_outfile *out = g_new0(ucr_outfile, 1);
    out->path = g_strdup(path);
    out->temp_path = templ;
    out->stream = fdopen(fd, "wb");
    if (!out->stream) {
        close(fd);
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot create '%s': %s",
                    path, g_strerror(errno));
        ucr_outfile_abort(out);
        return NULL;
    }
    return out;
}

FILE *ucr_outfile_stream(ucr_outfile *out)
{
    return out->stream;
}

static void outfile_free(ucr_outfile *out)
{
    g_free(out->path);
    g_free(out->temp_path);
    g_free(out);
}

gboolean ucr_outfile_commit(ucr_outfile *out, GError **error)
{
    int failed = ferror(out->stream);
    if (fclose(out->stream) != 0 || failed) {
        out->stream = NULL;
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write '%s': %s",
                    out->path, g_strerror(errno ? errno : EIO));
        ucr_outfile_abort(out);
        return FALSE;
    }
    out->stream = NULL;
    if (rename(out->temp_path, out->path) != 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot create '%s': %s",
                    out->path, g_strerror(errno));
        ucr_outfile_abort(out);
        return FALSE;
    }
    outfile_free(out);
    return TRUE;
}

void ucr_outfile_abort(ucr_outfile *out)
{
    if (!out)
        return;
    if (out->stream)
        fclose(out->stream);
    unlink(out->temp_path);
    outfile_free(out);
}
