#define _GNU_SOURCE   /* fopencookie */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/signal.h"

struct ucr_outfile {
    char *path;       /* as the user gave it, for messages */
    char *temp_path;  /* NULL when writing to standard output */
    char *target;     /* what the temporary is renamed to (a link resolved) */
    int fd;           /* the temporary's, or -1 */
    GByteArray *held; /* standard output: everything, written at commit */
    FILE *stream;
    int write_errno;  /* why the first write failed, 0 if none did */
    int slot;         /* the temporary's slot in core/signal.c */
};

gboolean ucr_outfile_is_stdout(const char *path)
{
    return path && !strcmp(path, "-");
}

/* The stream's writes, through fopencookie.  The first failure keeps its
 * errno, so the message can say why ("No space left on device") whichever
 * layer wrote.  After it, writes are discarded but reported as done: the
 * writers' own error paths are never taken (cairo's PDF surface asserts on
 * a short write: "_cairo_array_index_const: Assertion"), and commit or
 * abort_error reports the failure instead. */
static ssize_t outfile_write(void *cookie, const char *buf, size_t size)
{
    ucr_outfile *out = cookie;
    if (out->write_errno)
        return (ssize_t)size;
    if (out->held) {
        g_byte_array_append(out->held, (const guint8 *)buf, (guint)size);
        return (ssize_t)size;
    }
    for (size_t done = 0; done < size;) {
        ssize_t n = write(out->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            out->write_errno = n < 0 ? errno : EIO;
            break;
        }
        done += (size_t)n;
    }
    return (ssize_t)size;
}

static int outfile_close_stream(void *cookie)
{
    (void)cookie;   /* the fd is closed by commit/abort, which check it */
    return 0;
}

static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "folder";
    if (S_ISCHR(mode))
        return "character device";
    if (S_ISBLK(mode))
        return "block device";
    if (S_ISFIFO(mode))
        return "FIFO";
    if (S_ISSOCK(mode))
        return "socket";
    return "special file";
}

static void outfile_free(ucr_outfile *out)
{
    ucr_signal_temp_remove(out->slot);
    if (out->held)
        g_byte_array_free(out->held, TRUE);
    g_free(out->path);
    g_free(out->temp_path);
    g_free(out->target);
    g_free(out);
}

/* What the temporary will replace: @path, or what its link points to,
 * link after link (a link to a file not yet there makes that file, as a
 * shell's > does).  Sets *@mode to the permissions to keep (or -1: a new
 * file).  NULL and @error if it must not be replaced. */
static char *outfile_target(const char *given, const char *path, int depth, int *mode,
                            GError **error)
{
    struct stat st;
    *mode = -1;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return g_strdup(path);
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot create '%s': %s", given,
                    g_strerror(errno));
        return NULL;
    }
    if (S_ISLNK(st.st_mode)) {
        char *link = depth < 40 ? g_file_read_link(path, NULL) : NULL;
        if (!link) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT,
                        "cannot create '%s': %s", given, g_strerror(depth < 40 ? errno : ELOOP));
            return NULL;
        }
        char *next = link;
        if (!g_path_is_absolute(link)) {
            char *dir = g_path_get_dirname(path);
            next = g_build_filename(dir, link, NULL);
            g_free(dir);
            g_free(link);
        }
        char *target = outfile_target(given, next, depth + 1, mode, error);
        g_free(next);
        return target;
    }
    if (!S_ISREG(st.st_mode)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT,
                    "will not replace '%s': it is a %s, not a regular file (give a file name, "
                    "or -o - for standard output)",
                    given, file_kind(st.st_mode));
        return NULL;
    }
    *mode = (int)(st.st_mode & 07777);
    return g_strdup(path);
}

static ucr_outfile *outfile_new(const char *path)
{
    ucr_outfile *out = g_new0(ucr_outfile, 1);
    out->path = g_strdup(path);
    out->fd = -1;
    out->slot = -1;
    return out;
}

static gboolean outfile_stream_open(ucr_outfile *out, GError **error)
{
    cookie_io_functions_t io = { NULL, outfile_write, NULL, outfile_close_stream };
    out->stream = fopencookie(out, "wb", io);
    if (!out->stream) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot create '%s': %s", out->path,
                    g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

ucr_outfile *ucr_outfile_open(const char *path, GError **error)
{
    if (ucr_outfile_is_stdout(path)) {
        ucr_outfile *out = outfile_new("standard output");
        out->held = g_byte_array_new();
        if (!outfile_stream_open(out, error)) {
            ucr_outfile_abort(out);
            return NULL;
        }
        return out;
    }
    int mode;
    char *target = outfile_target(path, path, 0, &mode, error);
    if (!target)
        return NULL;
    char *dir = g_path_get_dirname(target);
    char *base = g_path_get_basename(target);
    char *templ = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
    g_free(dir);
    g_free(base);

    int fd = g_mkstemp(templ);
    if (fd < 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT,
                    "cannot create '%s': %s (the folder must exist and be writable)",
                    path, g_strerror(errno));
        g_free(templ);
        g_free(target);
        return NULL;
    }
    ucr_outfile *out = outfile_new(path);
    out->target = target;
    out->temp_path = templ;
    out->fd = fd;
    out->slot = ucr_signal_temp_add(templ);
    /* mkstemp makes the file 0600: a file we replace keeps its
     * permissions, a new one is as readable as anything the user creates. */
    if (mode < 0) {
        mode_t mask = umask(0);
        umask(mask);
        mode = (int)(0666 & ~mask);
    }
    if (fchmod(fd, (mode_t)mode) != 0 || !outfile_stream_open(out, error)) {
        if (!error || !*error)
            g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot create '%s': %s", path,
                        g_strerror(errno));
        ucr_outfile_abort(out);
        return NULL;
    }
    return out;
}

FILE *ucr_outfile_stream(ucr_outfile *out)
{
    return out->stream;
}

static void set_write_error(ucr_outfile *out, GError **error)
{
    const char *why = g_strerror(out->write_errno ? out->write_errno : EIO);
    if (out->held)
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot write to standard output: %s", why);
    else
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot write '%s': %s", out->path, why);
}

/* Closes the stream; FALSE (and write_errno set) if anything was lost. */
static gboolean outfile_close(ucr_outfile *out)
{
    gboolean ok = TRUE;
    if (out->stream) {
        ok = fflush(out->stream) == 0 && !ferror(out->stream);
        if (!ok && !out->write_errno)
            out->write_errno = errno ? errno : EIO;
        fclose(out->stream);
        out->stream = NULL;
    }
    if (out->fd >= 0) {
        /* close() is where NFS and some quotas report a full disk. */
        if (close(out->fd) != 0 && ok) {
            out->write_errno = errno;
            ok = FALSE;
        }
        out->fd = -1;
    }
    return ok && !out->write_errno;
}

static gboolean write_all(int fd, const guint8 *data, gsize len, int *err)
{
    for (gsize done = 0; done < len;) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *err = n < 0 ? errno : EIO;
            return FALSE;
        }
        done += (gsize)n;
    }
    return TRUE;
}

gboolean ucr_outfile_commit(ucr_outfile *out, GError **error)
{
    if (!outfile_close(out)) {
        set_write_error(out, error);
        ucr_outfile_abort(out);
        return FALSE;
    }
    if (out->held) {
        if (!write_all(STDOUT_FILENO, out->held->data, out->held->len, &out->write_errno)) {
            set_write_error(out, error);
            ucr_outfile_abort(out);
            return FALSE;
        }
        outfile_free(out);
        return TRUE;
    }
    if (rename(out->temp_path, out->target) != 0) {
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
    outfile_close(out);
    if (out->temp_path)
        unlink(out->temp_path);
    outfile_free(out);
}

void ucr_outfile_abort_error(ucr_outfile *out, GError **error)
{
    if (!out)
        return;
    outfile_close(out);
    if (out->write_errno && error) {
        g_clear_error(error);
        set_write_error(out, error);
    }
    ucr_outfile_abort(out);
}
