/* undercroft — signals while files are being written.
 *
 * A zine maker presses Ctrl-C in the middle of a booklet: no temporary file
 * of src/core/outfile.c may stay behind.  Most of the time a temporary has
 * no name at all (core/tempfile.h) and nothing can be left; a temporary
 * with a name is registered here while it has one, and the handler of every
 * signal that ends a process by default and can be caught (UCR_SIGNAL_ENDING:
 * INT, TERM, HUP, QUIT, USR1, USR2, ALRM, VTALRM, PROF, XCPU, PIPE) unlinks
 * each (unlink is async-signal-safe) and then dies of the same signal, so the
 * shell sees 128 + the signal and a batch stops there.  A signal the parent
 * set to be ignored (nohup) stays ignored.  SIGKILL cannot be caught: what
 * it leaves has a name a later run can prove stale (core/tempfile.h). */
#ifndef UCR_SIGNAL_H
#define UCR_SIGNAL_H

#include <signal.h>

/** The most temporaries that can exist at once (a 10×10 map set is 100). */
#define UCR_SIGNAL_MAX_TEMPS 1024

/** Adds to @set every signal that ends a run and after which temporaries
 *  are removed (the list above). */
void ucr_signal_ending(sigset_t *set);

/** Registers @path, a temporary file to unlink if a signal ends the
 *  process; installs the handlers the first time.  Returns the slot to give
 *  to ucr_signal_temp_remove, or -1 if UCR_SIGNAL_MAX_TEMPS are in use. */
int ucr_signal_temp_add(const char *path);

/** Forgets the temporary in @slot (renamed into place or unlinked).  -1 is
 *  allowed and does nothing. */
void ucr_signal_temp_remove(int slot);

/** Blocks the ending signals (the old mask in *@old) around a step that
 *  must not be cut in two: a name made and registered, a set of files
 *  renamed into place.  ucr_signal_release restores @old. */
void ucr_signal_hold(sigset_t *old);
void ucr_signal_release(const sigset_t *old);

#endif
