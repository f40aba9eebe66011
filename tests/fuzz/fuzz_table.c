/* libFuzzer target: one dice-table file (src/tables/table.c, ucr_table_parse),
 * then, if it parses, a few rolls on it. */
#include <stddef.h>
#include <stdint.h>

#include "core/prng.h"
#include "tables/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GError *error = NULL;
    ucr_table *t = ucr_table_parse("fuzz.txt", (const char *)data, size, &error);
    if (!t) {
        g_error_free(error);
        return 0;
    }
    ucr_prng rng;
    ucr_prng_seed_raw(&rng, 42, 54);
    for (int i = 0; i < 8; i++) {
        ucr_table_dice dice;
        const ucr_table_row *row = ucr_table_roll_dice(t, &rng, &dice);
        if (row) {
            char *text = ucr_table_dice_text(t, &dice);
            g_free(text);
        }
    }
    ucr_table_free(t);
    return 0;
}
