/* libFuzzer target: a page template (src/layout/page.c,
 * ucr_page_template_parse). */
#include <stddef.h>
#include <stdint.h>

#include "layout/page.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GError *error = NULL;
    ucr_page_template *t = ucr_page_template_parse("fuzz.ini", (const char *)data, size, &error);
    if (t)
        ucr_page_template_free(t);
    else
        g_error_free(error);
    return 0;
}
