#define _GNU_SOURCE   /* fopencookie */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/signal.h"
#include "core/tempfile.h"

struct ucr_outfile {
    char *path;        /* as the user gave it, for messages */
    char *target;      /* what the temporary is renamed to (a link resolved) */
    char *dir;         /* the target's folder, where the temporary is */
    ucr_tempfile temp; /* fd -1 when writing to standard output */
    GByteArray *held;  /* standard output: everything, written at commit */
    FILE *stream;
    int write_errno;   /* why the first write failed, 0 if none did */
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
        ssize_t n = write(out->temp.fd, buf + done, size - done);
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
    if (out->held)
        g_byte_array_free(out->held, TRUE);
    g_free(out->path);
    g_free(out->target);
    g_free(out->dir);
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
    out->temp = (ucr_tempfile){ -1, NULL, -1 };
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

/* Why the temporary could not be made, with what the user can do about
 * it: the folder is one reason, the limit on open files another. */
static void outfile_create_error(const char *path, int err, GError **error)
{
    const char *hint = "";
    if (err == ENOENT || err == ENOTDIR || err == EACCES || err == EPERM || err == EROFS)
        hint = " (the folder must exist and be writable)";
    else if (err == EMFILE || err == ENFILE)
        hint = " (a set of maps holds one file open per map until all are complete: raise the "
               "limit with ulimit -n, or write one node at a time with --node)";
    g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot create '%s': %s%s", path, g_strerror(err),
                hint);
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
    ucr_outfile *out = outfile_new(path);
    out->target = target;
    out->dir = g_path_get_dirname(target);
    /* What an undercroft killed here left (SIGKILL, a power cut), proven
     * its and stale by the lock (core/tempfile.h); nothing else. */
    ucr_tempfile_sweep_once(out->dir);
    /* A file we replace keeps its permissions; a new one is as readable as
     * anything the user creates (the temporary is made 0600). */
    if (mode < 0) {
        mode_t mask = umask(0);
        umask(mask);
        mode = (int)(0666 & ~mask);
    }
    int err = 0;
    if (!ucr_tempfile_open(&out->temp, out->dir, (mode_t)mode, &err)) {
        outfile_create_error(path, err, error);
        ucr_outfile_abort(out);
        return NULL;
    }
    if (!outfile_stream_open(out, error)) {
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
    else if (out->write_errno == EFBIG)
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR,
                    "cannot write '%s': %s (it grew past the limit on a file's size, ulimit -f)",
                    out->path, why);
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
    /* close() is where NFS and some quotas report a full disk. */
    int err = 0;
    if (out->temp.fd >= 0 && !out->held && !ucr_tempfile_close_write(&out->temp, &err) && ok) {
        out->write_errno = err;
        ok = FALSE;
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

/* The last look before the rename: the path must still lead to the target
 * it led to at the start, and hold nothing but a regular file or nothing.
 * A FIFO, a device or a link made there while we wrote is refused. */
static gboolean outfile_recheck(const ucr_outfile *out, GError **error)
{
    int mode;
    char *now = outfile_target(out->path, out->path, 0, &mode, error);
    if (!now)
        return FALSE;
    gboolean same = strcmp(now, out->target) == 0;
    if (!same)
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT,
                    "will not replace '%s': it became a link to '%s' while it was written", out->path, now);
    g_free(now);
    return same;
}

static gboolean commit_stdout(ucr_outfile *out, GError **error)
{
    if (!write_all(STDOUT_FILENO, out->held->data, out->held->len, &out->write_errno)) {
        set_write_error(out, error);
        ucr_outfile_abort(out);
        return FALSE;
    }
    outfile_free(out);
    return TRUE;
}

/* Puts @n files in place, each over its target, or none: every old file is
 * kept under a second name (@kept) until all are in, and put back if one
 * cannot be (an immutable file, a folder made there meanwhile). */
static gboolean rename_all(ucr_outfile **outs, guint n, ucr_tempfile *kept, GError **error)
{
    guint done = 0;
    int err = 0;
    for (; done < n; done++) {
        ucr_outfile *o = outs[done];
        struct stat st;
        if (!ucr_tempfile_link(&o->temp, o->dir, &err))
            break;
        if (n > 1 && lstat(o->target, &st) == 0 && !ucr_tempfile_keep(&kept[done], o->target, o->dir, &err))
            break;
        if (!outfile_recheck(o, error) || rename(o->temp.name, o->target) != 0) {
            err = errno;
            if (kept[done].name)
                rename(kept[done].name, o->target);
            break;
        }
    }
    if (done == n)
        return TRUE;
    if (error && !*error)
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot %s '%s': %s",
                    kept[done].name || err == EPERM ? "replace" : "create", outs[done]->path,
                    g_strerror(err));
    while (done-- > 0) {
        if (kept[done].name)
            rename(kept[done].name, outs[done]->target);
        else
            unlink(outs[done]->target);
    }
    return FALSE;
}

gboolean ucr_outfile_commit_all(ucr_outfile **outs, guint n, GError **error)
{
    gboolean ok = TRUE;
    for (guint i = 0; i < n && ok; i++)
        if (!outfile_close(outs[i])) {
            set_write_error(outs[i], error);
            ok = FALSE;
        }
    for (guint i = 0; i < n && ok; i++)
        ok = outs[i]->held || outfile_recheck(outs[i], error);
    if (!ok) {
        for (guint i = 0; i < n; i++)
            ucr_outfile_abort(outs[i]);
        return FALSE;
    }
    GPtrArray *files = g_ptr_array_new();
    for (guint i = 0; i < n; i++)
        if (!outs[i]->held)
            g_ptr_array_add(files, outs[i]);
    ucr_tempfile *kept = g_new(ucr_tempfile, files->len + 1);
    for (guint i = 0; i < files->len; i++)
        kept[i] = (ucr_tempfile){ -1, NULL, -1 };
    sigset_t old;
    ucr_signal_hold(&old);   /* all in place, or all as they were */
    ok = rename_all((ucr_outfile **)files->pdata, files->len, kept, error);
    for (guint i = 0; i < files->len; i++) {
        ucr_tempfile_discard(&kept[i]);
        ucr_outfile *o = g_ptr_array_index(files, i);
        if (ok)
            ucr_tempfile_done(&o->temp);
    }
    ucr_signal_release(&old);
    g_free(kept);
    g_ptr_array_free(files, TRUE);
    for (guint i = 0; i < n; i++) {
        if (!ok)
            ucr_outfile_abort(outs[i]);
        else if (outs[i]->held)
            ok = commit_stdout(outs[i], error);
        else
            outfile_free(outs[i]);
    }
    return ok;
}

gboolean ucr_outfile_commit(ucr_outfile *out, GError **error)
{
    return ucr_outfile_commit_all(&out, 1, error);
}

void ucr_outfile_abort(ucr_outfile *out)
{
    if (!out)
        return;
    outfile_close(out);
    ucr_tempfile_discard(&out->temp);
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
