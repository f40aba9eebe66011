/* undercroft — the trace device: one line of text per device call (MuPDF's
 * trace device).  Golden tests compare these lines instead of PDF bytes:
 * they say what was drawn where, and a diff says what changed. */
#ifndef UCR_TRACE_H
#define UCR_TRACE_H

#include "render/device.h"

/** A device that appends one line per call to @out (borrowed: it must
 *  outlive the device).  Numbers are printed with two decimals, so the
 *  trace is the same on every machine.  Its close never fails. */
ucr_device *ucr_trace_device_new(GString *out);

#endif
