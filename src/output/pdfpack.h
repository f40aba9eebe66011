/* undercroft — a finished PDF made smaller: its objects packed into
 * compressed object streams (PDF 1.5).
 *
 * cairo 1.16 and libharu write every dictionary (link annotations, the
 * structure elements cairo makes for each link, named destinations, pages,
 * fonts) as plain text, and end with a classic xref table: for the default
 * booklet that is half the file.  This pass rewrites such a file: stream
 * objects are copied as they are, every other object is packed, a hundred
 * or so at a time, into deflated /Type /ObjStm streams, and a deflated
 * cross-reference stream (/Type /XRef) replaces the table and the trailer.
 * Object numbers do not change, so every reference, link and destination
 * stays as it was.
 *
 * It takes only what it knows: one classic xref table with every object in
 * use and of generation 0, no incremental update, no encryption, no
 * object streams already.  Anything else is written out unchanged.  The
 * output depends only on the input bytes. */
#ifndef UCR_OUTPUT_PDFPACK_H
#define UCR_OUTPUT_PDFPACK_H

#include <stdio.h>
#include <glib.h>

/** Writes the complete PDF @pdf (@len bytes, borrowed) to @out, packed as
 *  above, or unchanged when it is not a file this pass knows.  Returns TRUE
 *  if it was packed.  Write errors are @out's: the caller checks ferror(). */
gboolean ucr_pdfpack_write(const guint8 *pdf, gsize len, FILE *out);

#endif
