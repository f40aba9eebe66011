#include "key/table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void ucr_table_free(ucr_table *table)
{
    if (!table)
        return;
    for (guint i = 0; i < table->rows->len; i++)
        g_free(g_array_index(table->rows, ucr_table_row, i).text);
    g_array_free(table->rows, TRUE);
    g_free(table->path);
    g_free(table);
}

static gboolean parse_int(const char *s, const char **end, int *out)
{
    char *e;
    errno = 0;
    long v = strtol(s, &e, 10);
    if (e == s || errno || v < -100000 || v > 100000)
        return FALSE;
    *out = (int)v;
    *end = e;
    return TRUE;
}

static gboolean parse_dice(const char *s, int *count, int *sides)
{
    const char *p = s;
    *count = 1;
    if (g_ascii_isdigit(*p) && !parse_int(p, &p, count))
        return FALSE;
    if (*p != 'd' && *p != 'D')
        return FALSE;
    p++;
    if (!parse_int(p, &p, sides))
        return FALSE;
    while (g_ascii_isspace(*p))
        p++;
    return *p == '\0' && *count >= 1 && *count <= 10 && *sides >= 2 && *sides <= 1000;
}

static ucr_table *table_fail(ucr_table *t, GError **error, int line, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

static ucr_table *table_fail(ucr_table *t, GError **error, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s:%d: %s", t->path, line, msg);
    g_free(msg);
    ucr_table_free(t);
    return NULL;
}

ucr_table *ucr_table_load(const char *path, GError **error)
{
    char *contents = NULL;
    GError *io = NULL;
    if (!g_file_get_contents(path, &contents, NULL, &io)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "cannot read table '%s': %s", path,
                    io->message);
        g_error_free(io);
        return NULL;
    }
    ucr_table *t = g_new0(ucr_table, 1);
    t->path = g_strdup(path);
    t->rows = g_array_new(FALSE, TRUE, sizeof(ucr_table_row));
    char **lines = g_strsplit(contents, "\n", -1);
    g_free(contents);
    int last_line = 0;
    for (int i = 0; lines[i]; i++) {
        int lineno = i + 1;
        char *hash = strchr(lines[i], '#');
        if (hash)
            *hash = '\0';
        char *line = g_strstrip(lines[i]);
        if (!*line)
            continue;
        last_line = lineno;
        char *colon = strchr(line, ':');
        if (!colon) {
            g_strfreev(lines);
            return table_fail(t, error, lineno,
                              "expected 'roll: NdM' or 'LOW-HIGH: result', got '%s'", line);
        }
        *colon = '\0';
        char *head = g_strstrip(line);
        char *value = g_strstrip(colon + 1);
        if (t->sides == 0) {
            if (strcmp(head, "roll") != 0 || !parse_dice(value, &t->count, &t->sides)) {
                g_strfreev(lines);
                return table_fail(t, error, lineno,
                                  "the first line must be 'roll: NdM' (e.g. 'roll: 1d20'), got '%s: %s'",
                                  head, value);
            }
            continue;
        }
        ucr_table_row row = { 0 };
        const char *p = head;
        if (!parse_int(p, &p, &row.lo)) {
            g_strfreev(lines);
            return table_fail(t, error, lineno, "expected a roll range like '3-4', got '%s'", head);
        }
        row.hi = row.lo;
        if (*p == '-' && !parse_int(p + 1, &p, &row.hi)) {
            g_strfreev(lines);
            return table_fail(t, error, lineno, "expected a roll range like '3-4', got '%s'", head);
        }
        if (*p != '\0' || row.hi < row.lo) {
            g_strfreev(lines);
            return table_fail(t, error, lineno, "expected a roll range like '3-4', got '%s'", head);
        }
        if (!*value) {
            g_strfreev(lines);
            return table_fail(t, error, lineno, "range %s has no result", head);
        }
        row.text = g_strdup(value);
        row.line = lineno;
        g_array_append_val(t->rows, row);
    }
    g_strfreev(lines);
    if (t->sides == 0)
        return table_fail(t, error, last_line ? last_line : 1, "empty table: expected 'roll: NdM' and rows");
    /* Every total from count to count*sides exactly once. */
    int lo = t->count, hi = t->count * t->sides;
    for (int v = lo; v <= hi; v++) {
        int hits = 0, line = 0;
        for (guint r = 0; r < t->rows->len; r++) {
            ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
            if (v >= row->lo && v <= row->hi) {
                if (hits)
                    return table_fail(t, error, row->line,
                                      "roll %d is covered twice (also on line %d)", v, line);
                hits++;
                line = row->line;
            }
        }
        if (!hits)
            return table_fail(t, error, last_line, "no row covers a roll of %d (%dd%d gives %d-%d)",
                              v, t->count, t->sides, lo, hi);
    }
    for (guint r = 0; r < t->rows->len; r++) {
        ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        if (row->lo < lo || row->hi > hi)
            return table_fail(t, error, row->line, "range %d-%d lies outside %dd%d (%d-%d)",
                              row->lo, row->hi, t->count, t->sides, lo, hi);
    }
    return t;
}

const ucr_table_row *ucr_table_roll(const ucr_table *table, ucr_prng *rng, int *total)
{
    int v = ucr_dice_roll(rng, table->count, table->sides);
    if (total)
        *total = v;
    for (guint r = 0; r < table->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(table->rows, ucr_table_row, r);
        if (v >= row->lo && v <= row->hi)
            return row;
    }
    return &g_array_index(table->rows, ucr_table_row, 0); /* unreachable: validated */
}

gboolean ucr_table_parse_size(const char *text, int *w, int *h)
{
    const char *p = text;
    if (!parse_int(p, &p, w) || (*p != 'x' && *p != 'X'))
        return FALSE;
    if (!parse_int(p + 1, &p, h))
        return FALSE;
    while (g_ascii_isspace(*p))
        p++;
    return *p == '\0' && *w >= 1 && *w <= 12 && *h >= 1 && *h <= 12;
}

ucr_tables *ucr_tables_load(const char *dir, GError **error)
{
    ucr_tables *tables = g_new0(ucr_tables, 1);
    char *path = g_build_filename(dir, "room-size.txt", NULL);
    tables->room_size = ucr_table_load(path, error);
    g_free(path);
    if (!tables->room_size) {
        ucr_tables_free(tables);
        return NULL;
    }
    for (guint r = 0; r < tables->room_size->rows->len; r++) {
        ucr_table_row *row = &g_array_index(tables->room_size->rows, ucr_table_row, r);
        int w, h;
        if (!ucr_table_parse_size(row->text, &w, &h)) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                        "%s:%d: room size '%s' must be WIDTHxHEIGHT in 10-ft squares, 1-12 each (e.g. 3x2)",
                        tables->room_size->path, row->line, row->text);
            ucr_tables_free(tables);
            return NULL;
        }
    }
    return tables;
}

void ucr_tables_free(ucr_tables *tables)
{
    if (!tables)
        return;
    ucr_table_free(tables->room_size);
    g_free(tables);
}
