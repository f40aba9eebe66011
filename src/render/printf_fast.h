#ifndef UCR_RENDER_PRINTF_FAST_H
#define UCR_RENDER_PRINTF_FAST_H

#include <stdbool.h>

/* Writes @x as printf("%.*f", @prec, x) would in the C locale, rounding
 * to nearest (ties to even), into @out (at least 64 bytes), and returns
 * the length; -1 when it cannot do it exactly (NaN, infinity, |x| >= 2^63,
 * @prec outside 0..19), for glibc to do instead.  The same code formats
 * cairo's numbers (see printf_fast.c). */
int ucr_format_fixed(char *out, double x, int prec);

#endif
