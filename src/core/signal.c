#include "core/signal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <glib.h>

static const int caught[] = { SIGINT,  SIGTERM,   SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2,
                              SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGPIPE };

void ucr_signal_ending(sigset_t *set)
{
    for (gsize i = 0; i < G_N_ELEMENTS(caught); i++)
        sigaddset(set, caught[i]);
}

/* The registered paths.  Written with atomic stores while the caught
 * signals are blocked, read by the handler: it sees each slot either
 * empty or holding a complete string. */
static char *temps[UCR_SIGNAL_MAX_TEMPS];
static gboolean installed;

static void on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < UCR_SIGNAL_MAX_TEMPS; i++) {
        const char *p = g_atomic_pointer_get(&temps[i]);
        if (p)
            unlink(p);
    }
    /* Die of @sig itself (SA_RESETHAND restored the default action): the
     * parent sees how we ended, the shell prints 128 + @sig. */
    raise(sig);
    errno = saved;
}

static void signal_install(void)
{
    for (gsize i = 0; i < G_N_ELEMENTS(caught); i++) {
        struct sigaction old;
        if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;   /* nohup, or a background job's SIGINT */
        struct sigaction sa = { 0 };
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        for (gsize j = 0; j < G_N_ELEMENTS(caught); j++)
            sigaddset(&sa.sa_mask, caught[j]);
        sigaction(caught[i], &sa, NULL);
    }
    installed = TRUE;
}

static void block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (gsize i = 0; i < G_N_ELEMENTS(caught); i++)
        sigaddset(&set, caught[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

void ucr_signal_hold(sigset_t *old)
{
    block(old);
}

void ucr_signal_release(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

int ucr_signal_temp_add(const char *path)
{
    sigset_t old;
    block(&old);
    if (!installed)
        signal_install();
    int slot = -1;
    for (int i = 0; i < UCR_SIGNAL_MAX_TEMPS && slot < 0; i++)
        if (!g_atomic_pointer_get(&temps[i])) {
            g_atomic_pointer_set(&temps[i], g_strdup(path));
            slot = i;
        }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return slot;
}

void ucr_signal_temp_remove(int slot)
{
    if (slot < 0 || slot >= UCR_SIGNAL_MAX_TEMPS)
        return;
    sigset_t old;
    block(&old);
    char *p = g_atomic_pointer_exchange(&temps[slot], NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    g_free(p);
}
