/* libFuzzer target: a letter-shapes file (src/gen/methods/letters.c,
 * ucr_letters_parse), then every letter turned four ways. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gen/methods/letters.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Files reach the parser through core/datafile.c, which refuses NULs. */
    if (memchr(data, '\0', size))
        return 0;
    char *text = g_strndup((const char *)data, size);
    GError *error = NULL;
    ucr_letters *l = ucr_letters_parse("fuzz.txt", text, &error);
    g_free(text);
    if (!l) {
        g_error_free(error);
        return 0;
    }
    char *names = ucr_letters_names(l);
    for (const char *c = names; *c; c++)
        if (*c != ' ') {
            const ucr_glyph *g = ucr_letters_find_any_case(l, *c);
            for (int d4 = 1; g && d4 <= 4; d4++) {
                ucr_glyph r = ucr_glyph_rotate(g, d4);
                (void)r;
            }
        }
    g_free(names);
    ucr_letters_free(l);
    return 0;
}
