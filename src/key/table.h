/* undercroft — dice tables as editable data files.
 *
 * Format (one table per file, '#' starts a comment):
 *
 *     roll: 1d20
 *     1-4:  2x2
 *     5:    3x2
 *     ...
 *
 * The first line names the dice (NdM); every other line is a range of that
 * roll and the result text.  Ranges must cover every possible roll exactly
 * once.  Mistakes are reported as "file:line: what is wrong" (UCR_ERROR_DATA).
 */
#ifndef UCR_TABLE_H
#define UCR_TABLE_H

#include <glib.h>
#include "core/dice.h"

typedef struct {
    int lo, hi;
    char *text;
    int line;
} ucr_table_row;

typedef struct {
    char *path;
    int count, sides;      /* the dice: count d sides */
    GArray *rows;          /* ucr_table_row */
} ucr_table;

/** Loads and validates the table at @path.  Returns NULL with @error set
 *  (UCR_ERROR_NOINPUT if missing, UCR_ERROR_DATA if malformed). */
ucr_table *ucr_table_load(const char *path, GError **error);
void ucr_table_free(ucr_table *table);

/** Rolls on @table; stores the dice total in @total (if non-NULL) and
 *  returns the row (owned by the table). */
const ucr_table_row *ucr_table_roll(const ucr_table *table, ucr_prng *rng, int *total);

/** The tables the generator uses, loaded from one folder. */
typedef struct {
    ucr_table *room_size;  /* rows "WxH" in 10-ft squares */
} ucr_tables;

/** Loads every table from @dir (normally DATADIR/templates/tables). */
ucr_tables *ucr_tables_load(const char *dir, GError **error);
void ucr_tables_free(ucr_tables *tables);

/** Parses a room size row "WxH" (1..12 each).  Returns FALSE if malformed. */
gboolean ucr_table_parse_size(const char *text, int *w, int *h);

#endif
