/* undercroft — the temporary file an output is written to (core/outfile.c).
 *
 * While it is written it has no name at all where the file system allows
 * (Linux's O_TMPFILE: ext4, XFS, Btrfs, tmpfs): whatever ends the process,
 * even SIGKILL or a power cut, leaves nothing behind, and a target name of
 * 255 bytes needs no longer name beside it.  It is given a name only at
 * the end, to be renamed over the target a moment later.
 *
 * That name, and the name of a file written where O_TMPFILE is refused
 * (NFS, FUSE), is ".undercroft-PID-XXXXXX" (UCR_TEMPFILE_MARKER): no other
 * program makes such names.  The file is locked (flock) for as long as the
 * process that made it holds it open, so a name with the marker whose lock
 * is free belongs to a process that is gone: ucr_tempfile_sweep removes
 * those and nothing else — never a file of the user's, never the live
 * temporary of another undercroft writing to the same folder. */
#ifndef UCR_TEMPFILE_H
#define UCR_TEMPFILE_H

#include <sys/types.h>
#include <glib.h>

/** The start of every temporary's name. */
#define UCR_TEMPFILE_MARKER ".undercroft-"

typedef struct {
    int fd;      /* open for writing, and locked; -1 once closed */
    char *name;  /* the full path while it has one, else NULL */
    int slot;    /* the name's slot in core/signal.c, or -1 */
} ucr_tempfile;

/** Creates a temporary in @dir with permissions @mode, unnamed if the file
 *  system allows.  FALSE with *@err (an errno) if it cannot. */
gboolean ucr_tempfile_open(ucr_tempfile *t, const char *dir, mode_t mode, int *err);

/** Gives an unnamed temporary a name in @dir (a named one keeps its own).
 *  FALSE with *@err if it cannot. */
gboolean ucr_tempfile_link(ucr_tempfile *t, const char *dir, int *err);

/** Closes the descriptor written through, keeping the lock (and the
 *  name).  FALSE with *@err if close() reported a lost write (NFS, quotas). */
gboolean ucr_tempfile_close_write(ucr_tempfile *t, int *err);

/** The temporary was renamed into place: forget its name and let it go. */
void ucr_tempfile_done(ucr_tempfile *t);

/** Removes the temporary (its name, if any) and lets it go. */
void ucr_tempfile_discard(ucr_tempfile *t);

/** Keeps the file at @path (which must exist) under a second, locked
 *  temporary name in @dir, so that it can be put back by renaming that name
 *  to @path; ucr_tempfile_discard removes the second name once it is not
 *  needed.  Without hard links (FAT) the file is moved to the second name.
 *  FALSE with *@err if it can be neither linked nor moved (an immutable
 *  file: EPERM). */
gboolean ucr_tempfile_keep(ucr_tempfile *t, const char *path, const char *dir, int *err);

/** Removes the temporaries in @dir that a process now gone left behind
 *  (marker in the name, lock free) and nothing else.  Returns how many. */
int ucr_tempfile_sweep(const char *dir);

/** Behave as on a file system without O_TMPFILE (NFS, FAT): every
 *  temporary named from the start.  For the tests of that path. */
void ucr_tempfile_named_only(gboolean named_only);

/** ucr_tempfile_sweep, once per folder in this process (and the processes
 *  it forks afterwards). */
void ucr_tempfile_sweep_once(const char *dir);

#endif
