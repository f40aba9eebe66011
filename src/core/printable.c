#include "core/printable.h"

#include <string.h>

static gboolean is_noncharacter(gunichar c)
{
    return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;
}

static gboolean is_control(gunichar c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7F && c <= 0x9F);
}

gboolean ucr_printable_check(const char *text, gssize len, int *line, int *column, char *why)
{
    const char *end = len < 0 ? text + strlen(text) : text + len;
    int ln = 1, col = 0;
    for (const char *p = text; p < end; p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        col++;
        if (c == '\n') {
            ln++;
            col = 0;
            continue;
        }
        const char *kind = is_noncharacter(c) ? "a noncharacter, not text"
                         : is_control(c)      ? "a control character, not printable"
                                              : NULL;
        if (!kind)
            continue;
        if (line)
            *line = ln;
        if (column)
            *column = col;
        g_snprintf(why, UCR_PRINTABLE_WHY_MAX, "U+%04X is %s", c, kind);
        return FALSE;
    }
    return TRUE;
}
