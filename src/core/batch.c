/* undercroft — batch runs (see batch.h).
 *
 * Why processes, one per job, and not threads: cairo surfaces and contexts
 * may not be shared between threads and Pango's font maps are not thread
 * safe (each thread would need its own PangoFontMap, and fontconfig's
 * configuration is process-wide state that older versions do not lock), and
 * our single run keeps a little global state of its own.  A forked worker
 * runs exactly the code of a single run, alone in its process, so its file
 * is byte-identical by construction; a job that crashes or leaks takes
 * nothing else down; memory is given back whole when the worker exits, so
 * the parent stays flat however many jobs there are.  The parent never
 * touches cairo, Pango or fontconfig before forking (it only parses options
 * and loads tables and styles), so there is no half-initialised library
 * state to inherit.  A fork costs about a millisecond; a dungeon takes tens.
 *
 * Signals: the parent blocks SIGCHLD and every signal that ends a run
 * (core/signal.h: INT, TERM, HUP, QUIT, USR1, ALRM, XCPU …) and takes them
 * with sigtimedwait(), so there is no handler and no race between "a job
 * ended" and "stop".  On one of them it starts no more jobs, sends SIGTERM
 * to the running workers (a terminal's Ctrl-C reached them already) and
 * waits for them.  A worker removes its own temporaries (core/outfile.c,
 * core/signal.c); the parent removes only what it can prove is a dead
 * undercroft's (core/tempfile.h: the marker and a free lock), never a file
 * by the look of its name alone: ".2.json.old-v1" is the user's, and the
 * temporaries of another batch on the same pattern are that batch's. */
#include "core/batch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/signal.h"
#include "core/tempfile.h"

/* ---- patterns -------------------------------------------------------------- */

/* The field at @p (just after '{'): its kind, its length up to and with the
 * '}', and the width of an {n:W}; 0 if it is none of ours. */
static unsigned field_at(const char *p, size_t *len, int *width)
{
    *width = 0;
    if (g_str_has_prefix(p, "seed}")) {
        *len = 5;
        return UCR_PATTERN_SEED;
    }
    if (g_str_has_prefix(p, "node}")) {
        *len = 5;
        return UCR_PATTERN_NODE;
    }
    if (g_str_has_prefix(p, "n}")) {
        *len = 2;
        return UCR_PATTERN_N;
    }
    if (p[0] == 'n' && p[1] == ':' && p[2] >= '1' && p[2] <= '9' && p[3] == '}') {
        *len = 4;
        *width = p[2] - '0';
        return UCR_PATTERN_N;
    }
    return 0;
}

static char *allowed_names(unsigned allowed)
{
    GString *s = g_string_new(NULL);
    if (allowed & UCR_PATTERN_SEED)
        g_string_append(s, "{seed}");
    if (allowed & UCR_PATTERN_N)
        g_string_append_printf(s, "%s{n} or {n:W}", s->len ? ", " : "");
    if (allowed & UCR_PATTERN_NODE)
        g_string_append_printf(s, "%s{node}", s->len ? ", " : "");
    if (!s->len)
        g_string_append(s, "no field");
    return g_string_free(s, FALSE);
}

int ucr_pattern_check(const char *pattern, unsigned allowed, GError **error)
{
    unsigned used = 0;
    for (const char *p = pattern; *p; p++) {
        /* A '}' alone is part of the name ("notes}.json"), "{{" is a '{'. */
        if (*p != '{')
            continue;
        if (p[1] == '{') {
            p++;
            continue;
        }
        size_t len;
        int width;
        unsigned f = field_at(p + 1, &len, &width);
        if (!f || !(f & allowed)) {
            const char *end = strchr(p, '}');
            char *names = allowed_names(allowed);
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                        "bad output name '%s': '%.*s' is not a field here; use %s (or {{ for a '{' "
                        "in the name)",
                        pattern, end ? (int)(end - p + 1) : (int)strlen(p), p, names);
            g_free(names);
            return -1;
        }
        used |= f;
        p += len;
    }
    return (int)used;
}

char *ucr_pattern_expand(const char *pattern, const char *seed, int n, int width)
{
    GString *s = g_string_new(NULL);
    for (const char *p = pattern; *p; p++) {
        size_t len;
        int w;
        unsigned f = *p == '{' ? field_at(p + 1, &len, &w) : 0;
        if (f == UCR_PATTERN_SEED)
            g_string_append(s, seed);
        else if (f == UCR_PATTERN_N)
            g_string_append_printf(s, "%0*d", w ? w : width, n);
        else if (f == UCR_PATTERN_NODE)
            g_string_append(s, "{node}");
        else {
            g_string_append_c(s, *p);
            if (p[0] == '{' && p[1] == '{')
                p++;   /* "{{": one '{' */
            continue;
        }
        p += len;
    }
    return g_string_free(s, FALSE);
}

char *ucr_pattern_node(const char *path, const char *id, bool only)
{
    if (strstr(path, "{node}")) {
        GString *s = g_string_new(path);
        g_string_replace(s, "{node}", id, 0);
        return g_string_free(s, FALSE);
    }
    if (only)
        return g_strdup(path);
    /* "map.svg" → "map-B.svg"; a name without an extension gets "-B". */
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base : path, '.');
    if (!dot || dot == (base ? base + 1 : path))
        return g_strdup_printf("%s-%s", path, id);
    return g_strdup_printf("%.*s-%s%s", (int)(dot - path), path, id, dot);
}

char *ucr_batch_seed(const char *base, int n)
{
    return g_strdup_printf("%s-%d", base, n);
}

/* ---- the runner ------------------------------------------------------------ */

enum { MESSAGE_MAX = 2000 };

typedef struct {
    pid_t pid;             /* 0: a free slot */
    int n;
    int msg_fd;            /* read end of the worker's message pipe */
} worker;

typedef struct {
    const ucr_batch *b;
    int made, skipped, failed, first_status;
    gint64 started;        /* monotonic µs */
    bool line_shown;
} tally;

static bool file_complete(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

static bool job_complete(const ucr_batch *b, int n)
{
    char **t = b->targets(n, b->data);
    bool all = t && t[0];
    for (char **p = t; all && *p; p++)
        all = file_complete(*p);
    g_strfreev(t);
    return all;
}

/* Removes what a dead undercroft left in the folders of job @n's targets
 * (a worker killed in the moment its file had a name): @once, only the
 * first time a folder is seen in this batch. */
static void job_sweep(const ucr_batch *b, int n, bool once)
{
    char **t = b->targets(n, b->data);
    for (char **p = t; p && *p; p++) {
        char *dir = g_path_get_dirname(*p);
        if (once)
            ucr_tempfile_sweep_once(dir);
        else
            ucr_tempfile_sweep(dir);
        g_free(dir);
    }
    g_strfreev(t);
}

static void progress_clear(tally *t)
{
    if (t->line_shown)
        fputs("\r\033[K", stderr);
    t->line_shown = false;
}

static void progress_draw(tally *t)
{
    if (!t->b->progress)
        return;
    int done = t->made + t->skipped + t->failed, total = t->b->count;
    double secs = (double)(g_get_monotonic_time() - t->started) / 1e6;
    double rate = secs > 0 ? t->made / secs : 0;
    GString *s = g_string_new(NULL);
    g_string_printf(s, "\r%d/%d done", done, total);
    if (rate > 0) {
        int left = (int)((total - done) / rate + 0.5);
        g_string_append_printf(s, " · %.1f/s · ", rate);
        if (left >= 3600)
            g_string_append_printf(s, "%d:%02d:%02d left", left / 3600, left / 60 % 60, left % 60);
        else
            g_string_append_printf(s, "%d:%02d left", left / 60, left % 60);
    }
    if (t->failed)
        g_string_append_printf(s, " · %d failed", t->failed);
    g_string_append(s, "\033[K");
    fputs(s->str, stderr);
    fflush(stderr);
    g_string_free(s, TRUE);
    t->line_shown = true;
}

/* In the worker: restore what a single run expects, run job @n, and leave
 * with its status; the message goes to the parent through @fd. */
static void worker_main(const ucr_batch *b, int n, int fd, const sigset_t *mask,
                        const struct sigaction *chld)
{
    /* SIGINT and SIGTERM keep the actions we were started with (default:
     * the worker dies, and the parent removes its temporary files; ignored
     * under nohup or in a background job: ignored here too). */
    sigaction(SIGCHLD, chld, NULL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    GError *error = NULL;
    int status = 0;
    if (!b->run(n, b->data, &error)) {
        status = error && error->domain == UCR_ERROR ? error->code : UCR_ERROR_SOFTWARE;
        const char *msg = error ? error->message : "failed without a message";
        size_t len = MIN(strlen(msg), (size_t)MESSAGE_MAX);
        /* Far below the pipe's capacity: the write never blocks, and the
         * parent reads it once we have exited. */
        if (write(fd, msg, len) < 0)
            status = status ? status : UCR_ERROR_SOFTWARE;
        g_clear_error(&error);
    }
    close(fd);
    fflush(NULL);
    exit(status);
}

static void on_sigchld(int sig)
{
    (void)sig;   /* only here so that SIGCHLD is delivered to sigtimedwait() */
}

/* A worker ended with wait status @st: count it, and name the seed of a
 * failure with its message. */
static void worker_ended(tally *t, worker *w, int st, int stop)
{
    const ucr_batch *b = t->b;
    char msg[MESSAGE_MAX + 1];
    ssize_t got = read(w->msg_fd, msg, MESSAGE_MAX);
    msg[got > 0 ? got : 0] = '\0';
    close(w->msg_fd);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        t->made++;
    } else if (stop && WIFSIGNALED(st)) {
        job_sweep(b, w->n, false);   /* stopped, not failed: its files are made next time */
    } else {
        if (WIFSIGNALED(st))
            job_sweep(b, w->n, false);
        t->failed++;
        int status = WIFEXITED(st) ? WEXITSTATUS(st) : UCR_ERROR_SOFTWARE;
        if (!t->first_status)
            t->first_status = status;
        char *seed = ucr_batch_seed(b->base_seed, w->n);
        progress_clear(t);
        if (WIFEXITED(st))
            fprintf(stderr, "undercroft: seed %s failed: %s\n", seed, msg[0] ? msg : "no message");
        else
            fprintf(stderr, "undercroft: seed %s failed: the worker died of signal %d (%s)\n", seed,
                    WTERMSIG(st), strsignal(WTERMSIG(st)));
        g_free(seed);
    }
    w->pid = 0;
}

/* The runner's state: the batch, its tally, its workers and its signals. */
typedef struct {
    const ucr_batch *b;
    tally t;
    worker *ws;            /* b->jobs slots */
    int running, next, last;
    int stop;              /* the signal that stopped the batch, or 0 */
    bool broken;           /* a worker could not be started */
    sigset_t blocked, old; /* what we wait for; the mask we were given */
    struct sigaction old_chld;
} runner;

/* Blocks SIGCHLD and the ending signals, to be taken by sigtimedwait(). */
static void runner_signals_take(runner *r)
{
    sigemptyset(&r->blocked);
    ucr_signal_ending(&r->blocked);   /* SIGHUP: the terminal closed: stop as for SIGTERM */
    sigaddset(&r->blocked, SIGCHLD);
    struct sigaction sa = { 0 };
    sa.sa_handler = on_sigchld;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, &r->old_chld);
    sigprocmask(SIG_BLOCK, &r->blocked, &r->old);
}

static void runner_signals_give_back(runner *r)
{
    sigprocmask(SIG_SETMASK, &r->old, NULL);
    sigaction(SIGCHLD, &r->old_chld, NULL);
}

static void runner_cannot_start(runner *r)
{
    progress_clear(&r->t);
    fprintf(stderr, "undercroft: cannot start a worker: %s\n", g_strerror(errno));
    r->broken = true;
}

/* Forks the worker of job @n; FALSE (and the batch broken) if it could not. */
static bool runner_start(runner *r, int n)
{
    const ucr_batch *b = r->b;
    int fds[2];
    if (pipe(fds) != 0) {
        runner_cannot_start(r);
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        worker_main(b, n, fds[1], &r->old, &r->old_chld);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        runner_cannot_start(r);
        return false;
    }
    worker *w = r->ws;
    while (w->pid)
        w++;
    *w = (worker){ pid, n, fds[0] };
    r->running++;
    return true;
}

/* Starts jobs until @jobs run or none is left; complete jobs are skipped. */
static void runner_fill(runner *r)
{
    const ucr_batch *b = r->b;
    while (!r->stop && !r->broken && r->running < b->jobs && r->next <= r->last) {
        int n = r->next++;
        if (!b->force && job_complete(b, n)) {
            r->t.skipped++;
            continue;
        }
        job_sweep(b, n, true);   /* the workers inherit the folders swept */
        if (!runner_start(r, n))
            break;
    }
}

/* Waits for a worker to end or a signal to stop us, and reaps the ended. */
static void runner_wait(runner *r)
{
    /* With a progress line, wake each second to keep its rate fresh. */
    struct timespec second = { 1, 0 };
    int sig = r->b->progress ? sigtimedwait(&r->blocked, NULL, &second) : sigwaitinfo(&r->blocked, NULL);
    if (sig > 0 && sig != SIGCHLD && !r->stop) {
        r->stop = sig;
        for (int i = 0; i < r->b->jobs; i++)
            if (r->ws[i].pid)
                kill(r->ws[i].pid, SIGTERM);
    }
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
        for (int i = 0; i < r->b->jobs; i++)
            if (r->ws[i].pid == pid) {
                worker_ended(&r->t, &r->ws[i], st, r->stop);
                r->running--;
            }
}

static const char *stop_word(int sig)
{
    return sig == SIGINT ? "interrupted" : sig == SIGHUP ? "hung up" : sig == SIGTERM ? "terminated"
         : sig ? "stopped by a signal" : "stopped";
}

/* The one-line summary on stderr. */
static void runner_summary(runner *r)
{
    const ucr_batch *b = r->b;
    tally *t = &r->t;
    double secs = (double)(g_get_monotonic_time() - t->started) / 1e6;
    char *from = ucr_batch_seed(b->base_seed, b->first), *to = ucr_batch_seed(b->base_seed, r->last);
    int left = b->count - t->made - t->skipped - t->failed;
    fprintf(stderr, "undercroft: seeds %s … %s: %d made, %d already there, %d failed", from, to, t->made,
            t->skipped, t->failed);
    if (left)
        fprintf(stderr, ", %d not made (%s)", left, stop_word(r->stop));
    fprintf(stderr, " in %.1f s\n", secs);
    g_free(from);
    g_free(to);
}

int ucr_batch_run(const ucr_batch *b)
{
    runner r = { .b = b, .t = { b, 0, 0, 0, 0, g_get_monotonic_time(), false } };
    r.ws = g_new0(worker, b->jobs);
    r.next = b->first;
    r.last = b->first + b->count - 1;
    runner_signals_take(&r);
    progress_draw(&r.t);
    for (;;) {
        runner_fill(&r);
        if (!r.running)
            break;
        runner_wait(&r);
        progress_draw(&r.t);
    }
    g_free(r.ws);
    progress_clear(&r.t);
    runner_summary(&r);
    runner_signals_give_back(&r);
    if (r.stop)
        return 128 + r.stop;
    if (r.broken && !r.t.first_status)
        return UCR_ERROR_SOFTWARE;
    return r.t.first_status;
}
