/* undercroft — appending numbers to a GString without printf.  The records
 * of every roll ("d6=4", "card 3 of 12") are built a few thousand times a
 * dungeon, and g_string_append_printf() formats into a fresh buffer each
 * time (malloc, vfprintf, copy, free): a fifth of the stocking's time. */
#ifndef UCR_TEXT_H
#define UCR_TEXT_H

#include <glib.h>

/** Appends @v in decimal to @s, as printf's "%d" would. */
static inline void ucr_text_append_int(GString *s, int v)
{
    char buf[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do
        buf[n++] = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        g_string_append_c(s, '-');
    while (n > 0)
        g_string_append_c(s, buf[--n]);
}

#endif
