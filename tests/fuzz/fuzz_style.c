/* libFuzzer target: a map style file (src/layout/style.c, ucr_style_parse). */
#include <stddef.h>
#include <stdint.h>

#include "layout/style.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GError *error = NULL;
    ucr_style *st = ucr_style_parse("fuzz.ini", (const char *)data, size, &error);
    if (st)
        ucr_style_free(st);
    else
        g_error_free(error);
    return 0;
}
