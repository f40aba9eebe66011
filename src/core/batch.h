/* undercroft — batch runs: many dungeons from one command.
 *
 * A batch is jobs FIRST … FIRST+COUNT-1; job n makes the files of seed
 * "SEED-n" through the same code as a single run with that seed (the
 * caller's @run callback), so each file is byte-identical to the single
 * run's.  Jobs run in worker processes, @jobs at a time (see batch.c for
 * why processes); a job whose files all exist is skipped unless @force;
 * a failed job is reported with its seed and the others go on; SIGINT,
 * SIGTERM and SIGHUP stop the batch and leave no partial or temporary file behind.
 *
 * Output patterns name the files: {seed} is the job's seed, {n} its number
 * zero-padded to the width of the batch's last number ({n:W}: to W digits,
 * the same on every machine of a split run), {node} a node's id (per-node
 * formats).  Nothing else may stand in braces: a '{' in the name is
 * written "{{" (a '}' alone is just a '}'), so that any file name can be
 * given and a mistyped field ("{sed}") is refused, not used as a name. */
#ifndef UCR_BATCH_H
#define UCR_BATCH_H

#include <stdbool.h>
#include <glib.h>

/** Pattern fields a caller allows. */
typedef enum {
    UCR_PATTERN_SEED = 1 << 0,
    UCR_PATTERN_N = 1 << 1,
    UCR_PATTERN_NODE = 1 << 2
} ucr_pattern_field;

/** Checks @pattern: every {…} is a field of @allowed, every brace closed.
 *  Returns the fields it uses, or -1 with @error set (UCR_ERROR_USAGE,
 *  naming the bad field and the accepted ones). */
int ucr_pattern_check(const char *pattern, unsigned allowed, GError **error);

/** @pattern with {seed} and {n} filled in ({n} zero-padded to @width
 *  digits, {n:W} to W); {node} stays for ucr_pattern_node().  @pattern must
 *  have passed ucr_pattern_check().  The caller frees the result. */
char *ucr_pattern_expand(const char *pattern, const char *seed, int n, int width);

/** The path of node @id's file: {node} in @path replaced by @id, or else
 *  @path itself when @only (one node asked for), or else "map.svg" →
 *  "map-B.svg".  The caller frees it. */
char *ucr_pattern_node(const char *path, const char *id, bool only);

/** The seed of job @n of a batch from @base: "BASE-n", as `stats` derives
 *  them.  The caller frees it. */
char *ucr_batch_seed(const char *base, int n);

typedef struct {
    int first, count;      /* jobs first … first+count-1 */
    int jobs;              /* worker processes at once, >= 1 */
    bool force;            /* remake files that already exist */
    bool progress;         /* redraw a progress line on stderr (a terminal) */
    const char *base_seed; /* for the messages: seeds are ucr_batch_seed(base_seed, n) */
    /** The files job @n makes (NULL-terminated; the runner frees them with
     *  g_strfreev).  A job whose files all exist as regular non-empty files
     *  is complete: every file is renamed into place only once written. */
    char **(*targets)(int n, void *data);
    /** Makes job @n's files, in a worker process.  FALSE with @error set
     *  (its code, a UCR_ERROR code, is the job's exit status) if it could
     *  not. */
    gboolean (*run)(int n, void *data, GError **error);
    void *data;
} ucr_batch;

/** Runs @batch and prints a one-line summary on stderr (each failed job's
 *  seed and message on a line of its own before it).  Returns 0 when every
 *  job's files exist; the exit status of the first job that failed when
 *  some did (73 for a file it could not write); 128 + the signal when
 *  stopped by SIGINT, SIGTERM or SIGHUP; UCR_ERROR_SOFTWARE if no worker could be started. */
int ucr_batch_run(const ucr_batch *batch);

#endif
