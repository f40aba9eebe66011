#define _GNU_SOURCE   /* O_TMPFILE */
#include "core/tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/signal.h"

/* A fresh name in @dir: the marker, our pid (workers of one batch share
 * GLib's random state after fork) and six random letters. */
static char *temp_name(const char *dir)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    char tail[7];
    for (int i = 0; i < 6; i++)
        tail[i] = letters[g_random_int_range(0, (gint32)sizeof letters - 1)];
    tail[6] = '\0';
    return g_strdup_printf("%s/" UCR_TEMPFILE_MARKER "%ld-%s", dir, (long)getpid(), tail);
}

/* TRUE if @path names the file open as @fd (nobody removed or replaced it
 * between its creation and our lock). */
static gboolean names_fd(const char *path, int fd)
{
    struct stat a, b;
    return lstat(path, &a) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Makes a name in @dir for @t with @make (which creates @path, or fails
 * with EEXIST to be tried again), registered for the signal handlers in
 * the same breath: a signal finds either no name or one it may remove. */
static gboolean temp_name_make(ucr_tempfile *t, const char *dir, const char *src,
                               int (*make)(ucr_tempfile *, const char *, const char *), int *err)
{
    for (int tries = 0; tries < 100; tries++) {
        char *path = temp_name(dir);
        sigset_t old;
        ucr_signal_hold(&old);
        int r = make(t, src, path);
        int e = r == 0 ? 0 : errno;
        if (r == 0) {
            t->name = path;
            t->slot = ucr_signal_temp_add(path);
        }
        ucr_signal_release(&old);
        if (r == 0)
            return TRUE;
        g_free(path);
        if (e != EEXIST) {
            *err = e;
            return FALSE;
        }
    }
    *err = EEXIST;
    return FALSE;
}

static int make_named(ucr_tempfile *t, const char *src, const char *path)
{
    (void)src;
    t->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    return t->fd < 0 ? -1 : 0;
}

static int make_link(ucr_tempfile *t, const char *src, const char *path)
{
    (void)src;
    char proc[64];
    g_snprintf(proc, sizeof proc, "/proc/self/fd/%d", t->fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

static int make_hard_link(ucr_tempfile *t, const char *src, const char *path)
{
    (void)t;
    if (link(src, path) == 0)
        return 0;
    /* A file system without hard links (FAT): the file itself moves to the
     * second name for the moment until the new one takes its place. */
    if (errno == EPERM || errno == EOPNOTSUPP || errno == EMLINK || errno == ENOSYS)
        return rename(src, path);
    return -1;
}

static void temp_forget_name(ucr_tempfile *t)
{
    ucr_signal_temp_remove(t->slot);
    t->slot = -1;
    g_free(t->name);
    t->name = NULL;
}

/* A named temporary: created, locked, and still ours once locked (a sweep
 * by another undercroft may have taken it in the moment between). */
static gboolean temp_open_named(ucr_tempfile *t, const char *dir, int *err)
{
    for (int tries = 0; tries < 10; tries++) {
        if (!temp_name_make(t, dir, NULL, make_named, err))
            return FALSE;
        if (flock(t->fd, LOCK_EX) == 0 && names_fd(t->name, t->fd))
            return TRUE;
        close(t->fd);
        t->fd = -1;
        temp_forget_name(t);
    }
    *err = EAGAIN;
    return FALSE;
}

static gboolean named_only;

void ucr_tempfile_named_only(gboolean on)
{
    named_only = on;
}

gboolean ucr_tempfile_open(ucr_tempfile *t, const char *dir, mode_t mode, int *err)
{
    *t = (ucr_tempfile){ -1, NULL, -1 };
    /* linkat() names an O_TMPFILE file through /proc/self/fd: without
     * /proc (a bare chroot) the file could never be named. */
    static int proc_ok = -1;
    if (proc_ok < 0)
        proc_ok = access("/proc/self/fd", X_OK) == 0;
    if (named_only) {
        if (!temp_open_named(t, dir, err))
            return FALSE;
    } else if ((t->fd = proc_ok ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600) : -1) < 0) {
        /* Refused by the file system (or the kernel): a named file.
         * Anything else (no folder, no permission, no descriptor) is the
         * answer for a named file too. */
        if (proc_ok && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
            *err = errno;
            return FALSE;
        }
        if (!temp_open_named(t, dir, err))
            return FALSE;
    } else if (flock(t->fd, LOCK_EX) != 0) {
        *err = errno;
        ucr_tempfile_discard(t);
        return FALSE;
    }
    if (fchmod(t->fd, mode) != 0) {
        *err = errno;
        ucr_tempfile_discard(t);
        return FALSE;
    }
    return TRUE;
}

gboolean ucr_tempfile_link(ucr_tempfile *t, const char *dir, int *err)
{
    return t->name || temp_name_make(t, dir, NULL, make_link, err);
}

gboolean ucr_tempfile_close_write(ucr_tempfile *t, int *err)
{
    /* The lock lives as long as any descriptor of the open file: a
     * duplicate keeps it while close() tells us about lost writes. */
    int keep = fcntl(t->fd, F_DUPFD_CLOEXEC, 0);
    if (keep < 0) {
        *err = errno;
        return FALSE;
    }
    int r = close(t->fd);
    t->fd = keep;
    if (r != 0) {
        *err = errno;
        return FALSE;
    }
    return TRUE;
}

void ucr_tempfile_done(ucr_tempfile *t)
{
    temp_forget_name(t);
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
}

void ucr_tempfile_discard(ucr_tempfile *t)
{
    if (t->name)
        unlink(t->name);
    ucr_tempfile_done(t);
}

gboolean ucr_tempfile_keep(ucr_tempfile *t, const char *path, const char *dir, int *err)
{
    *t = (ucr_tempfile){ -1, NULL, -1 };
    /* Locked before it has the second name, so no sweep can take it. */
    int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
    t->fd = open(path, O_RDONLY | flags);
    if (t->fd < 0 && errno == EACCES)
        t->fd = open(path, O_WRONLY | flags);   /* a write-only file: opening changes nothing */
    if (t->fd < 0 || flock(t->fd, LOCK_EX) != 0) {
        *err = errno;
        ucr_tempfile_done(t);
        return FALSE;
    }
    if (!temp_name_make(t, dir, path, make_hard_link, err)) {
        ucr_tempfile_done(t);
        return FALSE;
    }
    return TRUE;
}

int ucr_tempfile_sweep(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return 0;
    int removed = 0;
    for (const char *name; (name = g_dir_read_name(d));) {
        if (!g_str_has_prefix(name, UCR_TEMPFILE_MARKER))
            continue;
        char *path = g_build_filename(dir, name, NULL);
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        struct stat st;
        /* Only a regular file whose maker is gone (the lock is free) and
         * that the name still holds once we have the lock. */
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
            names_fd(path, fd) && unlink(path) == 0)
            removed++;
        if (fd >= 0)
            close(fd);
        g_free(path);
    }
    g_dir_close(d);
    return removed;
}

void ucr_tempfile_sweep_once(const char *dir)
{
    static GHashTable *swept;
    if (!swept)
        swept = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    if (g_hash_table_contains(swept, dir))
        return;
    g_hash_table_add(swept, g_strdup(dir));
    ucr_tempfile_sweep(dir);
}
