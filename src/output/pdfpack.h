/* undercroft — a finished PDF made smaller: its objects packed into
 * compressed object streams (PDF 1.5).
 *
 * cairo 1.16 and libharu write every dictionary (link annotations, the
 * structure elements cairo makes for each link, named destinations, pages,
 * fonts) as plain text, and end with a classic xref table: for the default
 * booklet that is half the file.  This pass rewrites such a file: stream
 * objects are copied as they are, every other object is packed, two hundred
 * at a time, into deflated /Type /ObjStm streams, and a deflated
 * cross-reference stream (/Type /XRef) replaces the table and the trailer.
 * Object numbers do not change, so every reference, link and destination
 * stays as it was.  One thing is dropped: a link annotation's /QuadPoints
 * when it is a single quadrilateral, the link's /Rect by another name
 * (cairo writes one per link: 25 KB of the default booklet).
 *
 * It takes only what it knows: one classic xref table with every object in
 * use and of generation 0 (an entry pointing at another object's offset, as
 * cairo 1.16 leaves a few, becomes a free entry), no incremental update, no
 * encryption, no object streams already.  Anything else is written out
 * unchanged.  The output depends only on the input bytes. */
#ifndef UCR_OUTPUT_PDFPACK_H
#define UCR_OUTPUT_PDFPACK_H

#include <stdio.h>
#include <glib.h>

/** Writes the complete PDF @pdf (@len bytes, borrowed) to @out, packed as
 *  above, or unchanged when it is not a file this pass knows.  Returns TRUE
 *  if it was packed.  Write errors are @out's: the caller checks ferror(). */
gboolean ucr_pdfpack_write(const guint8 *pdf, gsize len, FILE *out);

/** Where a PDF waits to be packed: an anonymous file in g_get_tmp_dir()
 *  (O_TMPFILE: it has no name, so nothing is ever left behind), read back a
 *  piece at a time, so the PDF is never in memory whole. */
typedef struct ucr_pdfpack_spill ucr_pdfpack_spill;

/** A new spill; NULL if none can be made (no such folder, not Linux):
 *  write the PDF unpacked instead. */
ucr_pdfpack_spill *ucr_pdfpack_begin(void);

/** The stream to write the PDF to; owned by @spill.  Its writes never
 *  fail (cairo asserts on a short write): ucr_pdfpack_spill_failed says
 *  whether one did. */
FILE *ucr_pdfpack_stream(ucr_pdfpack_spill *spill);

/** Flushes @spill's stream; TRUE if a write to the file failed (the
 *  temporary folder is full): the PDF in it is incomplete. */
gboolean ucr_pdfpack_spill_failed(ucr_pdfpack_spill *spill);

/** Packs the PDF written to @spill into @out, as ucr_pdfpack_write does,
 *  and frees @spill.  *@packed (if not NULL) says whether it was packed.
 *  FALSE with @error (UCR_ERROR_IOERR, naming the folder and why) if the
 *  file could not be written or read back; what went to @out is then
 *  incomplete.  Write errors are @out's, as above. */
gboolean ucr_pdfpack_end(ucr_pdfpack_spill *spill, FILE *out, gboolean *packed, GError **error);

/** Frees @spill and its file, unpacked.  NULL is allowed. */
void ucr_pdfpack_abort(ucr_pdfpack_spill *spill);

#endif
