/* libFuzzer target: a user's tables folder over the default tables
 * (ucr_pipeline_tables_load: references, loops, fan-out, the rows the
 * program needs), then rolls on every table the input replaced.  The input
 * is several files separated by a line "%%"; the first replaces door.txt,
 * the next lock.txt, and so on, so they can refer to each other. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/prng.h"
#include "pipeline/pipeline.h"
#include "tables/table.h"

static const char *const names[] = { "door", "lock", "door-trap", "contents", "monster",
                                     "treasure", "trap", "dressing", "room-size", "special" };
static char *dir;
static char *defaults;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir) {
        dir = g_dir_make_tmp("ucr-fuzz-tables-XXXXXX", NULL);
        defaults = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    }
    char *text = g_strndup((const char *)data, size);
    char **files = g_strsplit(text, "\n%%\n", (int)G_N_ELEMENTS(names));
    g_free(text);
    int n = 0;
    for (; files[n]; n++) {
        char *path = g_strdup_printf("%s/%s.txt", dir, names[n]);
        g_file_set_contents(path, files[n], -1, NULL);
        g_free(path);
    }
    GError *error = NULL;
    ucr_tables *tables = ucr_pipeline_tables_load(defaults, dir, &error);
    if (tables) {
        ucr_prng rng;
        ucr_prng_seed_raw(&rng, 42, 54);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) {
                ucr_roll roll = { 0 };
                ucr_tables_roll(tables, names[i], &rng, &roll);
                ucr_roll_clear(&roll);
            }
        ucr_tables_free(tables);
    } else {
        g_error_free(error);
    }
    for (int i = 0; i < n; i++) {
        char *path = g_strdup_printf("%s/%s.txt", dir, names[i]);
        unlink(path);
        g_free(path);
    }
    g_strfreev(files);
    return 0;
}
