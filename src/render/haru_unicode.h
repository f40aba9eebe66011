/* undercroft — the libharu backend's repair of libharu's text maps.
 * Private to render/haru_device.c: it reaches into libharu's objects, whose
 * headers cannot sit beside hpdf.h in one file. */
#ifndef UCR_HARU_UNICODE_H
#define UCR_HARU_UNICODE_H

#include <stdbool.h>

/** Replaces the /ToUnicode map of @font (an HPDF_Font that libharu made
 *  with the "UTF-8" encoding) with one that says what its codes mean.
 *  Returns false if the font has no such map or it cannot be rewritten
 *  (the font then stays as libharu made it). */
bool ucr_haru_font_fix_unicode(void *font);

#endif
