/* undercroft — SIGINT, SIGTERM and SIGHUP while files are being written.
 *
 * A zine maker presses Ctrl-C in the middle of a booklet: the temporary
 * files of src/core/outfile.c must not stay behind.  The output module
 * registers each temporary here while it exists; the handler unlinks every
 * one (unlink is async-signal-safe) and then dies of the same signal, so the
 * shell sees 130 (INT), 143 (TERM) or 129 (HUP) and a batch stops there.
 * A signal the parent set to be ignored (nohup) stays ignored. */
#ifndef UCR_SIGNAL_H
#define UCR_SIGNAL_H

/** The most temporaries that can exist at once (a 10×10 map set is 100). */
#define UCR_SIGNAL_MAX_TEMPS 1024

/** Registers @path, a temporary file to unlink if a signal ends the
 *  process; installs the handlers the first time.  Returns the slot to give
 *  to ucr_signal_temp_remove, or -1 if UCR_SIGNAL_MAX_TEMPS are in use. */
int ucr_signal_temp_add(const char *path);

/** Forgets the temporary in @slot (renamed into place or unlinked).  -1 is
 *  allowed and does nothing. */
void ucr_signal_temp_remove(int slot);

#endif
