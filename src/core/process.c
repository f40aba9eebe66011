#include "core/process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "core/error.h"

gboolean ucr_process_init(GError **error)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        /* open() takes the lowest free number: this one. */
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (got != fd) {
            if (got >= 0)
                close(got);
            g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE,
                        "descriptor %d is closed and /dev/null cannot be opened in its place", fd);
            return FALSE;
        }
    }
    signal(SIGXFSZ, SIG_IGN);
    return TRUE;
}
