#include "core/datafile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "something else";
}

/* @path opened for reading, once it is known to be a regular file within
 * the limit; -1 with @error set. */
static int datafile_open(const char *path, const char *what, GError **error)
{
    /* O_NONBLOCK: opening a FIFO with no writer must not wait; we look at
     * what it is before reading a byte. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "cannot read %s '%s': %s", what, path,
                    g_strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "cannot read %s '%s': %s", what, path,
                    g_strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT,
                    "cannot read %s '%s': it is %s, not a regular file", what, path,
                    file_kind(st.st_mode));
    } else if (st.st_size > UCR_DATAFILE_MAX) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                    "%s '%s' is %lld bytes: data files are at most %d bytes", what, path,
                    (long long)st.st_size, UCR_DATAFILE_MAX);
    } else {
        return fd;
    }
    close(fd);
    return -1;
}

/* What @fd holds, up to the limit; NULL with @error set.  Read up to one
 * byte past the limit: a file that grows while we read is refused as well. */
static GString *datafile_slurp(int fd, const char *path, const char *what, GError **error)
{
    GString *buf = g_string_new(NULL);
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "cannot read %s '%s': %s", what, path,
                        g_strerror(errno));
            break;
        }
        if (n == 0)
            return buf;
        g_string_append_len(buf, chunk, n);
        if (buf->len > UCR_DATAFILE_MAX) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                        "%s '%s' is larger than %d bytes, the limit for data files", what, path,
                        UCR_DATAFILE_MAX);
            break;
        }
    }
    g_string_free(buf, TRUE);
    return NULL;
}

gboolean ucr_datafile_read(const char *path, const char *what, char **contents, gsize *length,
                           GError **error)
{
    *contents = NULL;
    int fd = datafile_open(path, what, error);
    if (fd < 0)
        return FALSE;
    GString *buf = datafile_slurp(fd, path, what, error);
    close(fd);
    if (!buf)
        return FALSE;
    /* The parsers read text: a NUL would silently end the file early. */
    const char *nul = memchr(buf->str, '\0', buf->len);
    if (nul) {
        int line = 1;
        for (const char *p = buf->str; p < nul; p++)
            line += *p == '\n';
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s:%d: a NUL byte: a %s is a text file",
                    path, line, what);
        g_string_free(buf, TRUE);
        return FALSE;
    }
    /* A byte order mark (some editors write one) is no part of the text:
     * left there, it would be an invisible first character in a key or a
     * message. */
    if (buf->len >= 3 && memcmp(buf->str, "\xef\xbb\xbf", 3) == 0)
        g_string_erase(buf, 0, 3);
    if (length)
        *length = buf->len;
    *contents = g_string_free(buf, FALSE);
    return TRUE;
}

static int compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *ucr_datafile_ini_names(const char *dir, const char *skip)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        if (!g_str_has_suffix(n, ".ini"))
            continue;
        char *name = g_strndup(n, strlen(n) - 4);
        if (skip && g_str_has_suffix(name, skip))
            g_free(name);
        else
            g_ptr_array_add(names, name);
    }
    if (d)
        g_dir_close(d);
    g_ptr_array_sort(names, compare_names);
    g_ptr_array_add(names, NULL);
    char *list = names->len > 1 ? g_strjoinv(", ", (char **)names->pdata) : NULL;
    g_ptr_array_free(names, TRUE);
    return list;
}
