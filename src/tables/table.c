#include "tables/table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/datafile.h"
#include "core/error.h"
#include "core/printable.h"
#include "core/text.h"

/* Bounded work for any table set (doc/limits.md).  Loops of references
 * are refused when the tables are loaded; so are chains deeper than
 * MAX_DEPTH and rows that fan out ("{a} {a} {a}", each {a} rolling
 * "{b} {b} {b}", …) into more than MAX_ROLLS rolls or MAX_TEXT bytes of
 * text for one roll.  MAX_TABLES bounds a folder. */
#define MAX_DEPTH 16
#define MAX_ROLLS 1000
#define MAX_TEXT 4096
#define MAX_TABLES 1000
#define MAX_NAME 200

void ucr_table_free(ucr_table *table)
{
    if (!table)
        return;
    for (guint i = 0; i < table->rows->len; i++) {
        g_free(g_array_index(table->rows, ucr_table_row, i).text);
        g_free(g_array_index(table->rows, ucr_table_row, i).tag);
        g_strfreev(g_array_index(table->rows, ucr_table_row, i).fields);
    }
    g_array_free(table->rows, TRUE);
    g_free(table->by_total);
    if (table->pairs)
        g_hash_table_destroy(table->pairs);
    g_strfreev(table->columns);
    g_free(table->check);
    g_free(table->path);
    g_free(table->name);
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

/* "NdM" or "dM", then optionally "+K" or "-K" when @modifier is non-NULL;
 * the whole of @s.  1-10 dice of 2-1000 sides. */
static gboolean parse_dice_expr(const char *s, int *count, int *sides, int *modifier)
{
    const char *p = s;
    *count = 1;
    if (modifier)
        *modifier = 0;
    if (g_ascii_isdigit(*p) && !parse_int(p, &p, count))
        return FALSE;
    if (*p != 'd' && *p != 'D')
        return FALSE;
    p++;
    if (!g_ascii_isdigit(*p) || !parse_int(p, &p, sides))
        return FALSE;
    if (modifier && (*p == '+' || *p == '-')) {
        int sign = *p == '-' ? -1 : 1;
        p++;
        if (!g_ascii_isdigit(*p) || !parse_int(p, &p, modifier))
            return FALSE;
        *modifier *= sign;
    }
    while (g_ascii_isspace(*p))
        p++;
    return *p == '\0' && *count >= 1 && *count <= 10 && *sides >= 2 && *sides <= 1000;
}

gboolean ucr_dice_expr_parse(const char *s, ucr_dice_expr *e)
{
    memset(e, 0, sizeof *e);
    e->mul = e->div = 1;
    while (g_ascii_isspace(*s))
        s++;
    const char *p = s;
    int n = 1;
    if (!g_ascii_isdigit(*p) && *p != 'd' && *p != 'D')
        return FALSE;
    if (g_ascii_isdigit(*p) && !parse_int(p, &p, &n))
        return FALSE;
    if (*p == 'd' || *p == 'D') {
        e->count = p == s ? 1 : n;
        p++;
        if (!g_ascii_isdigit(*p) || !parse_int(p, &p, &e->sides))
            return FALSE;
        if (e->count < 1 || e->count > 10 || e->sides < 2 || e->sides > 1000)
            return FALSE;
        if (*p == '+' || *p == '-') {
            int sign = *p == '-' ? -1 : 1;
            if (!g_ascii_isdigit(p[1]) || !parse_int(p + 1, &p, &e->add))
                return FALSE;
            e->add *= sign;
        }
    } else {
        e->add = n;
    }
    if (*p == '*' || *p == '/') {
        char op = *p;
        int k;
        if (!g_ascii_isdigit(p[1]) || !parse_int(p + 1, &p, &k) || k < 1 || k > 10000)
            return FALSE;
        if (op == '*')
            e->mul = k;
        else
            e->div = k;
    }
    while (g_ascii_isspace(*p))
        p++;
    return *p == '\0' && e->add >= -1000 && e->add <= 100000;
}

gint64 ucr_dice_expr_max(const ucr_dice_expr *e)
{
    return ((gint64)e->count * e->sides + e->add) * e->mul / e->div;
}

int ucr_dice_expr_roll(const ucr_dice_expr *e, ucr_prng *rng)
{
    int v = (e->count ? ucr_dice_roll(rng, e->count, e->sides) : 0) + e->add;
    return v * e->mul / e->div;
}

gboolean ucr_hit_dice_parse(const char *s, int *dice, int *add)
{
    const char *p = s;
    *add = 0;
    if (strcmp(s, "1/2") == 0) {
        *dice = 0;
        return TRUE;
    }
    if (!g_ascii_isdigit(*p) || !parse_int(p, &p, dice) || *dice < 1 || *dice > 50)
        return FALSE;
    if (*p == '+' || *p == '-') {
        int sign = *p == '-' ? -1 : 1;
        if (!g_ascii_isdigit(p[1]) || !parse_int(p + 1, &p, add) || *add > 50)
            return FALSE;
        *add *= sign;
    }
    return *p == '\0';
}

int ucr_table_column(const ucr_table *t, const char *name)
{
    for (int i = 0; t->columns && t->columns[i]; i++)
        if (strcmp(t->columns[i], name) == 0)
            return i;
    return -1;
}

const char *ucr_table_field(const ucr_table *t, const ucr_table_row *row, const char *name)
{
    int i = ucr_table_column(t, name);
    return i >= 0 && row->fields ? row->fields[i] : "";
}

static gboolean is_name_char(char c)
{
    return g_ascii_islower(c) || g_ascii_isdigit(c) || c == '-' || c == '_';
}

/* Lower-case letters, digits, '-' and '_', starting with a letter (so that a
 * name never reads as dice). */
static gboolean is_table_name(const char *s, gsize len)
{
    if (len == 0 || !g_ascii_islower(s[0]))
        return FALSE;
    for (gsize i = 0; i < len; i++)
        if (!is_name_char(s[i]))
            return FALSE;
    return TRUE;
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

/* Checks the {…} of a result: balanced, and each a table name or dice.
 * Returns NULL if fine, else what is wrong (the caller frees it). */
static char *refs_check(const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '}')
            return g_strdup("a '}' without its '{'");
        if (*p != '{')
            continue;
        const char *close = strchr(p + 1, '}');
        const char *reopen = strchr(p + 1, '{');
        if (!close || (reopen && reopen < close))
            return g_strdup_printf("'{' without its '}' in '%s'", text);
        char *inner = g_strndup(p + 1, (gsize)(close - p - 1));
        int c, s, m;
        gboolean ok = parse_dice_expr(inner, &c, &s, &m) || is_table_name(inner, strlen(inner));
        char *msg = ok ? NULL
                       : g_strdup_printf("'{%s}' is neither a table name (a lower-case letter, then "
                                         "letters, digits, '-') nor dice like {2d6} or {1d4+1}", inner);
        g_free(inner);
        if (msg)
            return msg;
        p = close;
    }
    return NULL;
}

/* "columns: a | b | c" or "check: 1 in 6, every 2 turns", after "roll:". */
static gboolean header_read(ucr_table *t, const char *head, const char *value, GError **error, int lineno)
{
    if (strcmp(head, "check") == 0 && *value && !t->check) {
        t->check = g_strdup(value);
        return TRUE;
    }
    if (strcmp(head, "draw") == 0 && !t->deck && t->rows->len == 0) {
        /* A deck: one card per face of one die, dealt without
         * replacement within a dungeon (ucr_table_decks). */
        if (strcmp(value, "deck") != 0) {
            table_fail(t, error, lineno, "'draw:' takes 'deck' (rows dealt without replacement), got '%s'", value);
            return FALSE;
        }
        if (t->by_level || t->count != 1) {
            table_fail(t, error, lineno, "'draw: deck' needs a table of one die ('roll: 1dN'), not %s",
                       t->by_level ? "'roll: level'" : "several dice");
            return FALSE;
        }
        t->deck = TRUE;
        return TRUE;
    }
    if (strcmp(head, "columns") == 0 && !t->columns && t->rows->len == 0) {
        char **cols = g_strsplit(value, "|", -1);
        guint n = g_strv_length(cols);
        for (guint i = 0; i < n; i++) {
            g_strstrip(cols[i]);
            char *low = g_ascii_strdown(cols[i], -1);
            g_free(cols[i]);
            cols[i] = low;
            gboolean dup = FALSE;
            for (guint k = 0; k < i; k++)
                dup = dup || strcmp(cols[k], low) == 0;
            if (!is_table_name(low, strlen(low)) || dup) {
                char *msg = g_strdup_printf(dup ? "column '%s' is named twice"
                                                : "column name '%s' must be a lower-case word (letters, digits, '-')",
                                            low);
                g_strfreev(cols);
                table_fail(t, error, lineno, "%s", msg);
                g_free(msg);
                return FALSE;
            }
        }
        if (n < 2) {
            g_strfreev(cols);
            table_fail(t, error, lineno, "'columns:' names at least two columns, separated by '|'");
            return FALSE;
        }
        t->columns = cols;
        t->columns_line = lineno;
        return TRUE;
    }
    table_fail(t, error, lineno,
               "expected a roll range like '3-4', got '%s' (the only headers, once each after 'roll:' "
               "and before the rows, are 'columns: a | b | …', 'check: …' and 'draw: deck')", head);
    return FALSE;
}

/* Tables with columns that the stocking reads (key/stock.h): a monster
 * table has a column "hd", a treasure table a column "gp". */
static const char *const MONSTER_COLUMNS[] = { "name", "plural", "no", "ac", "hd", "att", "mv", "ml", NULL };
static const char *const TREASURE_COLUMNS[] = { "no", "item", "items", "gp", NULL };

/* What is wrong with the numbers of @row of a monster or treasure table, or
 * NULL: dice that parse, and counts and values within doc/limits.md's
 * (a monster's hit points are each rolled and printed, a treasure's worth
 * summed).  Sets @bad to the column.  The caller frees the result. */
static char *numbers_check(const ucr_table *t, const ucr_table_row *row, gboolean monster, const char **bad)
{
    ucr_dice_expr no, gp;
    int d, a;
    const char *no_text = ucr_table_field(t, row, "no"), *gp_text = ucr_table_field(t, row, "gp");
    *bad = "no";
    if (!ucr_dice_expr_parse(no_text, &no))
        return g_strdup_printf(" must be a number or dice like 3, 2d4, 1d6+1 or 3d6*10, got '%s'", no_text);
    gint64 most = ucr_dice_expr_max(&no);
    if (monster && most > UCR_MONSTER_NO_MAX)
        return g_strdup_printf(": '%s' may give %" G_GINT64_FORMAT " monsters: at most %d appear in one place "
                               "(doc/limits.md)", no_text, most, UCR_MONSTER_NO_MAX);
    *bad = "hd";
    if (monster && !ucr_hit_dice_parse(ucr_table_field(t, row, "hd"), &d, &a))
        return g_strdup_printf(" must be hit dice like 1, 2+1, 1-1 or 1/2, got '%s'", ucr_table_field(t, row, "hd"));
    if (monster)
        return NULL;
    *bad = "gp";
    if (!ucr_dice_expr_parse(gp_text, &gp))
        return g_strdup_printf(" must be gold pieces each, a number or dice like 50, 1d6*10 or 1/10, got '%s'",
                               gp_text);
    /* The worth is no × (dice + add) × mul / div (key/stock.c). */
    gint64 each_least = ((gint64)gp.count + gp.add) * gp.mul, each_most = ((gint64)gp.count * gp.sides + gp.add) * gp.mul;
    gint64 worth = MAX(most, 1) * each_most / gp.div;
    if (each_least < 0)
        return g_strdup_printf(": '%s' may be worth %" G_GINT64_FORMAT " gp: a treasure is worth 0 gp or more",
                               gp_text, each_least / gp.div);
    *bad = worth > UCR_TREASURE_GP_MAX ? "gp" : "no";
    if (worth > UCR_TREASURE_GP_MAX || most > UCR_TREASURE_GP_MAX)
        return g_strdup_printf(": '%s' of '%s' gp each may be worth %" G_GINT64_FORMAT " gp: one treasure is "
                               "worth at most %d gp (doc/limits.md)", no_text, gp_text,
                               MAX(worth, most), UCR_TREASURE_GP_MAX);
    return NULL;
}

static gboolean columns_check(ucr_table *t, GError **error)
{
    if (!t->columns)
        return TRUE;
    gboolean monster = ucr_table_column(t, "hd") >= 0, treasure = ucr_table_column(t, "gp") >= 0;
    const char *const *need = monster ? MONSTER_COLUMNS : treasure ? TREASURE_COLUMNS : NULL;
    for (int i = 0; need && need[i]; i++)
        if (ucr_table_column(t, need[i]) < 0) {
            char *list = g_strjoinv(" | ", (char **)need);
            table_fail(t, error, t->columns_line, "a %s table needs the columns %s; '%s' is missing",
                       monster ? "monster (it has 'hd')" : "treasure (it has 'gp')", list, need[i]);
            g_free(list);
            return FALSE;
        }
    for (guint r = 0; need && r < t->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        const char *bad = NULL;
        char *why = numbers_check(t, row, monster, &bad);
        for (int k = 0; monster && !why && row->fields[k]; k++)
            if (strchr(row->fields[k], ';') && strcmp(t->columns[k], "doing") != 0 &&
                strcmp(t->columns[k], "theme") != 0) {   /* the stat line's separator */
                bad = t->columns[k];
                why = g_strdup_printf(" must be free of ';' (the stat line separates its entries with it; use ','), "
                                      "got '%s'", row->fields[k]);
            }
        if (why) {
            table_fail(t, error, row->line, "column '%s'%s", bad, why);
            g_free(why);
            return FALSE;
        }
    }
    return TRUE;
}

/* A pair of faces A <= B of a two-dice table, as one key. */
static int pair_key_of(int a, int b)
{
    return a * 1001 + b;
}

static char *name_from_path(const char *path)
{
    char *base = g_path_get_basename(path);
    if (g_str_has_suffix(base, ".txt"))
        base[strlen(base) - 4] = '\0';
    return base;
}

ucr_table *ucr_table_load(const char *path, GError **error)
{
    char *contents = NULL;
    gsize length = 0;
    if (!ucr_datafile_read(path, "table", &contents, &length, error))
        return NULL;
    ucr_table *t = ucr_table_parse(path, contents, length, error);
    g_free(contents);
    return t;
}

/* The line of the first bad byte of @text (a NUL, or one that is not
 * UTF-8) and what is wrong with it, or 0 if the bytes are a text. */
static int bytes_check(const char *text, gsize length, char **what)
{
    const char *bad = memchr(text, '\0', length);
    if (!bad && g_utf8_validate(text, (gssize)length, &bad))
        return 0;
    int lineno = 1;
    for (const char *c = text; c < bad; c++)
        lineno += *c == '\n';
    /* core/datafile.c refuses NULs too; the fuzzer does not read files */
    *what = *bad ? g_strdup_printf("byte 0x%02x is not UTF-8 (save the file as UTF-8 text)", (unsigned char)*bad)
                 : g_strdup("a NUL byte: a table is a text file");
    return lineno;
}

/* "roll: NdM" or "roll: level", the first line of a table. */
static gboolean roll_read(ucr_table *t, const char *head, const char *value, int lineno, GError **error)
{
    if (strcmp(head, "roll") == 0 && strcmp(value, "level") == 0) {
        t->by_level = TRUE;
        t->count = 1;
        t->sides = UCR_TABLE_LEVELS;
        return TRUE;
    }
    if (strcmp(head, "roll") == 0 && parse_dice_expr(value, &t->count, &t->sides, NULL))
        return TRUE;
    table_fail(t, error, lineno,
               "the first line must be 'roll: NdM' with 1-10 dice of 2-1000 sides (e.g. 'roll: 1d20') or "
               "'roll: level', got '%s: %s'", head, value);
    return FALSE;
}

/* The roll range of a row, "3", "3-4" or a pair of faces "2+2", into @row.
 * A pair is refused if @pairs (pair → line) has it already. */
static gboolean range_read(ucr_table *t, const char *head, int lineno, GHashTable *pairs, ucr_table_row *row,
                           GError **error)
{
    const char *p = head;
    gboolean range_ok = parse_int(p, &p, &row->lo);
    row->hi = row->lo;
    if (range_ok && *p == '+') {
        int a = row->lo, b;
        if (!parse_int(p + 1, &p, &b) || *p != '\0') {
            table_fail(t, error, lineno, "expected a pair of faces like '2+2', got '%s'", head);
            return FALSE;
        }
        if (t->count != 2 || a < 1 || b < 1 || a > t->sides || b > t->sides) {
            table_fail(t, error, lineno,
                       t->count != 2 ? "a pair of faces ('%s') needs a table of two dice, not %dd%d"
                                     : "'%s' is not a pair of faces of %dd%d",
                       head, t->count, t->sides);
            return FALSE;
        }
        row->pair[0] = MIN(a, b);
        row->pair[1] = MAX(a, b);
        row->lo = row->hi = a + b;
        /* A hash of the pairs seen, not a scan of the rows: thousands of
         * rows stay linear. */
        gpointer pair_key = GINT_TO_POINTER(pair_key_of(row->pair[0], row->pair[1]));
        int seen = GPOINTER_TO_INT(g_hash_table_lookup(pairs, pair_key));
        if (seen) {
            table_fail(t, error, lineno, "the pair %d+%d is covered twice (also on line %d)", row->pair[0],
                       row->pair[1], seen);
            return FALSE;
        }
        g_hash_table_insert(pairs, pair_key, GINT_TO_POINTER(lineno));
        return TRUE;
    }
    if (range_ok && *p == '-')
        range_ok = parse_int(p + 1, &p, &row->hi);
    if (!range_ok || *p != '\0' || row->hi < row->lo) {
        table_fail(t, error, lineno, "expected a roll range like '3-4', got '%s'", head);
        return FALSE;
    }
    return TRUE;
}

/* The result of a row, after its range: "[kind]", then plain values
 * separated by '|' (a table with columns) or a text with {references}. */
static gboolean result_read(ucr_table *t, const char *head, char *value, int lineno, ucr_table_row *row,
                            GError **error)
{
    if (!*value) {
        table_fail(t, error, lineno, "range %s has no result", head);
        return FALSE;
    }
    if (*value == '[') {
        char *close = strchr(value, ']');
        if (!close || !is_table_name(value + 1, (gsize)(close - value - 1))) {
            table_fail(t, error, lineno, "a result may start with a kind in brackets like '[monster]', got '%s'",
                       value);
            return FALSE;
        }
        row->tag = g_strndup(value + 1, (gsize)(close - value - 1));
        value = g_strstrip(close + 1);
    }
    char *bad = NULL;
    if (t->columns && strchr(value, '{')) {
        bad = g_strdup_printf("a table with columns holds plain values, not {references}: '%s'", value);
    } else if (t->columns) {
        row->fields = g_strsplit(value, "|", -1);
        guint want = g_strv_length(t->columns), got = g_strv_length(row->fields);
        for (guint k = 0; k < got; k++)
            g_strstrip(row->fields[k]);
        if (got != want) {
            char *cols = g_strjoinv(" | ", t->columns);
            bad = g_strdup_printf("expected %u values separated by '|' (%s), got %u", want, cols, got);
            g_free(cols);
        }
    } else {
        bad = refs_check(value);
    }
    if (bad) {
        g_free(row->tag);
        g_strfreev(row->fields);
        table_fail(t, error, lineno, "%s", bad);
        g_free(bad);
        return FALSE;
    }
    row->text = g_strdup(t->columns ? row->fields[0] : value);
    row->line = lineno;
    return TRUE;
}

/* One line of a table (comments and blanks skipped).  FALSE with @error
 * set (and @t freed) if it is wrong. */
static gboolean line_read(ucr_table *t, char *text, int lineno, GHashTable *pairs, GError **error)
{
    char *colon = strchr(text, ':');
    if (!colon) {
        table_fail(t, error, lineno, "expected 'roll: NdM' or 'LOW-HIGH: result', got '%s'", text);
        return FALSE;
    }
    *colon = '\0';
    char *head = g_strstrip(text);
    char *value = g_strstrip(colon + 1);
    if (t->sides == 0)
        return roll_read(t, head, value, lineno, error);
    if (g_ascii_isalpha(*head))
        return header_read(t, head, value, error, lineno);
    ucr_table_row row = { 0 };
    if (!range_read(t, head, lineno, pairs, &row, error) || !result_read(t, head, value, lineno, &row, error))
        return FALSE;
    g_array_append_val(t->rows, row);
    return TRUE;
}

/* Every total from count to count*sides covered exactly once by a range;
 * the cover is the table's index (total → row), so the work is rows +
 * totals, and a roll is one look-up.  FALSE with @error set (and @t freed)
 * at a gap or an overlap. */
static gboolean coverage_check(ucr_table *t, int last_line, GError **error)
{
    int lo = t->count, hi = t->count * t->sides;
    for (guint r = 0; r < t->rows->len; r++) {
        ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        if (row->lo < lo || row->hi > hi) {
            table_fail(t, error, row->line, "range %d-%d lies outside %dd%d (%d-%d)", row->lo, row->hi, t->count,
                       t->sides, lo, hi);
            return FALSE;
        }
    }
    guint *cover = g_new0(guint, hi - lo + 1);   /* row index + 1; 0: not covered */
    for (guint r = 0; r < t->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        if (row->pair[0]) {   /* pairs refine a range; the ranges must still cover */
            if (!t->pairs)
                t->pairs = g_hash_table_new(g_direct_hash, g_direct_equal);
            g_hash_table_insert(t->pairs, GINT_TO_POINTER(pair_key_of(row->pair[0], row->pair[1])),
                                GUINT_TO_POINTER(r + 1));
            continue;
        }
        for (int v = row->lo; v <= row->hi; v++) {
            if (cover[v - lo]) {
                int other = g_array_index(t->rows, ucr_table_row, cover[v - lo] - 1).line;
                g_free(cover);
                table_fail(t, error, row->line, "roll %d is covered twice (also on line %d)", v, other);
                return FALSE;
            }
            cover[v - lo] = r + 1;
        }
    }
    for (int v = lo; v <= hi; v++)
        if (!cover[v - lo]) {
            g_free(cover);
            if (t->by_level)
                table_fail(t, error, last_line, "no row covers level %d (a level table covers 1-%d)", v, hi);
            else
                table_fail(t, error, last_line, "no row covers a roll of %d (%dd%d gives %d-%d)", v, t->count,
                           t->sides, lo, hi);
            return FALSE;
        }
    t->by_total = cover;
    return TRUE;
}

ucr_table *ucr_table_parse(const char *path, const char *text, gsize length, GError **error)
{
    ucr_table *t = g_new0(ucr_table, 1);
    t->path = g_strdup(path);
    t->name = name_from_path(path);
    t->rows = g_array_new(FALSE, TRUE, sizeof(ucr_table_row));
    char *bad = NULL;
    int bad_line = bytes_check(text, length, &bad);
    if (bad_line) {
        table_fail(t, error, bad_line, "%s", bad);
        g_free(bad);
        return NULL;
    }
    /* An editor's byte order mark is no part of the first line. */
    if (length >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        text += 3, length -= 3;
    char *contents = g_strndup(text, length);
    char why[UCR_PRINTABLE_WHY_MAX];
    int why_line;   /* a noncharacter or a control: core/printable.h */
    if (!ucr_printable_check(contents, -1, &why_line, NULL, why)) {
        g_free(contents);
        return table_fail(t, error, why_line, "%s", why);
    }
    g_auto(GStrv) lines = g_strsplit(contents, "\n", -1); /* freed on every return */
    g_free(contents);
    g_autoptr(GHashTable) pairs = g_hash_table_new(g_direct_hash, g_direct_equal);
    int last_line = 0;
    for (int i = 0; lines[i]; i++) {
        int lineno = i + 1;
        /* A row is a phrase: a longer line is not a table (and laying
         * out a key entry of megabytes would take minutes). */
        gsize len = strlen(lines[i]);
        if (len > UCR_TABLE_MAX_LINE)
            return table_fail(t, error, lineno, "the line is %lu bytes long: the limit is %d (doc/limits.md)",
                              (unsigned long)len, UCR_TABLE_MAX_LINE);
        char *hash = strchr(lines[i], '#');
        if (hash)
            *hash = '\0';
        char *line = g_strstrip(lines[i]);
        if (!*line)
            continue;
        last_line = lineno;
        if (!line_read(t, line, lineno, pairs, error))
            return NULL;
    }
    if (t->sides == 0)
        return table_fail(t, error, last_line ? last_line : 1, "empty table: expected 'roll: NdM' and rows");
    if (!columns_check(t, error) || !coverage_check(t, last_line, error))
        return NULL;
    return t;
}

const ucr_table_row *ucr_table_pick(const ucr_table *table, int total, const int *faces)
{
    if (faces && table->pairs && table->count == 2) {
        gpointer r = g_hash_table_lookup(table->pairs,
                                         GINT_TO_POINTER(pair_key_of(MIN(faces[0], faces[1]), MAX(faces[0], faces[1]))));
        if (r)
            return &g_array_index(table->rows, ucr_table_row, GPOINTER_TO_UINT(r) - 1);
    }
    int lo = table->count, hi = table->count * table->sides;
    if (total < lo || total > hi)
        return NULL;
    return &g_array_index(table->rows, ucr_table_row, table->by_total[total - lo] - 1);
}

const ucr_table_row *ucr_table_roll_dice(const ucr_table *table, ucr_prng *rng, ucr_table_dice *dice)
{
    dice->n = table->count;
    dice->total = 0;
    for (int i = 0; i < table->count; i++) {
        dice->faces[i] = ucr_dice_d(rng, table->sides);
        dice->total += dice->faces[i];
    }
    const ucr_table_row *row = ucr_table_pick(table, dice->total, dice->faces);
    return row ? row : &g_array_index(table->rows, ucr_table_row, 0); /* unreachable: validated */
}

const ucr_table_row *ucr_table_roll(const ucr_table *table, ucr_prng *rng, int *total)
{
    ucr_table_dice dice;
    const ucr_table_row *row = ucr_table_roll_dice(table, rng, &dice);
    if (total)
        *total = dice.total;
    return row;
}

char *ucr_table_dice_text(const ucr_table *table, const ucr_table_dice *dice)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "%dd%d=%d", table->count, table->sides, dice->total);
    if (dice->n > 1) {
        g_string_append(s, " (");
        for (int i = 0; i < dice->n; i++)
            g_string_append_printf(s, "%s%d", i ? "+" : "", dice->faces[i]);
        g_string_append_c(s, ')');
    }
    return g_string_free(s, FALSE);
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
    return *p == '\0' && *w >= 1 && *w <= UCR_ROOM_SIDE_MAX && *h >= 1 && *h <= UCR_ROOM_SIDE_MAX;
}

/* --- a folder of tables ------------------------------------------------------ */

/* The one table this module reads itself (ucr_tables.room_size).  Every other
 * table the program reads is declared by the stage or node method that reads
 * it (its ucr_table_need list) and handed to ucr_tables_load_with(). */
static const ucr_table_need TABLES_OWN[] = {
    { "room-size", NULL, NULL, TRUE },
    { NULL, NULL, NULL, FALSE },
};

static gboolean kind_known(const char *const *kinds, const char *tag)
{
    for (int i = 0; tag && kinds[i]; i++)
        if (strcmp(kinds[i], tag) == 0)
            return TRUE;
    return FALSE;
}

static char *kinds_list(const char *const *kinds)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; kinds[i]; i++)
        g_string_append_printf(s, "%s[%s]", i == 0 ? "" : kinds[i + 1] ? ", " : " or ", kinds[i]);
    return g_string_free(s, FALSE);
}

static int compare_strings(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Loads every *.txt of @dir into @by_name, replacing tables of the same name;
 * in file-name order, so that the first error reported is always the same. */
static gboolean dir_load(GHashTable *by_name, const char *dir, GError **error)
{
    GError *io = NULL;
    GDir *d = g_dir_open(dir, 0, &io);
    if (!d) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "cannot open the tables folder '%s': %s", dir,
                    io->message);
        g_error_free(io);
        return FALSE;
    }
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(d)))
        if (g_str_has_suffix(name, ".txt") && name[0] != '.')
            g_ptr_array_add(names, g_strdup(name));
    g_dir_close(d);
    if (names->len > MAX_TABLES) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                    "the tables folder '%s' holds %u tables: the limit is %d (doc/limits.md)", dir,
                    names->len, MAX_TABLES);
        g_ptr_array_free(names, TRUE);
        return FALSE;
    }
    g_ptr_array_sort(names, compare_strings);
    gboolean ok = TRUE;
    for (guint i = 0; i < names->len && ok; i++) {
        char *path = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
        ucr_table *t = ucr_table_load(path, error);
        g_free(path);
        if (!t) {
            ok = FALSE;
            break;
        }
        if (!is_table_name(t->name, strlen(t->name))) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                        "%s:1: a table's file name must be lower-case letters, digits and '-' "
                        "(it is how other tables refer to it)", t->path);
            ucr_table_free(t);
            ok = FALSE;
            break;
        }
        g_hash_table_replace(by_name, t->name, t);
    }
    g_ptr_array_free(names, TRUE);
    return ok;
}

/* The most one roll on a table can cost: rolls made, bytes of text, depth of
 * the chain.  Sums saturate far above the limits, so they cannot overflow. */
typedef struct {
    gint64 rolls, text;
    int depth;
} roll_cost;

typedef struct {
    GHashTable *by_name;
    GHashTable *state;     /* name → 1 visiting, 2 done */
    GHashTable *cost;      /* name → roll_cost*, once done */
    GPtrArray *path;       /* names on the current chain */
    const char *dirs;
} ref_walk;

static gint64 cost_add(gint64 a, gint64 b)
{
    return MIN(a + b, (gint64)1 << 40);
}

static gboolean refs_walk(ref_walk *w, const ucr_table *t, GError **error);

/* The most one roll on a table with columns costs as the stocking places
 * it (key/stock.c): a monster's phrase, and its stat line with every hit
 * point rolled and printed; a treasure's phrase, its count and worth.  A
 * table with columns that is neither gives its first column. */
static roll_cost columns_cost(const ucr_table *t)
{
    gboolean monster = ucr_table_column(t, "hd") >= 0, treasure = ucr_table_column(t, "gp") >= 0;
    roll_cost most = { 1, 0, 1 };
    for (guint r = 0; r < t->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        roll_cost c = { 1, (gint64)strlen(row->text), 1 };
        if (monster || treasure) {
            ucr_dice_expr no;
            ucr_dice_expr_parse(ucr_table_field(t, row, "no"), &no);   /* checked: columns_check() */
            gint64 count = MAX(1, ucr_dice_expr_max(&no)), fields = 0;
            for (int k = 0; row->fields[k]; k++)
                fields += (gint64)strlen(row->fields[k]) + 8;   /* "; Label value" */
            /* the phrase (12: a count), the fields twice (sentence and stat
             * line), and for a monster each hit point ("450, ") rolled */
            c.text = 24 + 2 * fields + (monster ? 5 * count : 12);
            c.rolls = 2 + (monster ? count : 1);
        }
        most.rolls = MAX(most.rolls, c.rolls);
        most.text = MAX(most.text, c.text);
    }
    return most;
}

/* FALSE with @error set if @here is past a limit of one roll. */
static gboolean cost_check(const ucr_table *t, const ucr_table_row *row, const char *inner, const roll_cost *here,
                           GError **error)
{
    const char *over = here->depth > MAX_DEPTH  ? "levels of nesting"
                       : here->rolls > MAX_ROLLS ? "nested rolls"
                       : here->text > MAX_TEXT   ? "bytes of text"
                                                 : NULL;
    if (!over)
        return TRUE;
    gint64 got = here->depth > MAX_DEPTH ? here->depth : here->rolls > MAX_ROLLS ? here->rolls : here->text;
    int limit = here->depth > MAX_DEPTH ? MAX_DEPTH : here->rolls > MAX_ROLLS ? MAX_ROLLS : MAX_TEXT;
    g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                "%s:%d: '{%s}': one roll on '%s' may take %s%" G_GINT64_FORMAT " %s; the limit is %d (doc/limits.md)",
                t->path, row->line, inner, t->name, got >= ((gint64)1 << 40) ? "over " : "", got, over, limit);
    return FALSE;
}

/* The loop of references that {@next} of @t's @row closes, as an error. */
static void loop_fail(const ref_walk *w, const ucr_table *t, const ucr_table_row *row, const ucr_table *next,
                      GError **error)
{
    GString *loop = g_string_new(NULL);
    gboolean on = FALSE;
    for (guint k = 0; k < w->path->len; k++) {
        const char *n = g_ptr_array_index(w->path, k);
        on = on || strcmp(n, next->name) == 0;
        if (on)
            g_string_append_printf(loop, "%s → ", n);
    }
    g_string_append(loop, next->name);
    g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                "%s:%d: '{%s}' makes a loop of references (%s): a roll would never end", t->path, row->line,
                next->name, loop->str);
    g_string_free(loop, TRUE);
}

/* Adds to @here what the reference {@inner} of @t's @row costs (walking the
 * table it names first); FALSE with @error set on a reference to a missing
 * table, a loop, or a roll past a limit. */
static gboolean ref_cost(ref_walk *w, const ucr_table *t, const ucr_table_row *row, const char *inner,
                         roll_cost *here, GError **error)
{
    int c, s, m;
    if (parse_dice_expr(inner, &c, &s, &m)) {
        here->rolls = cost_add(here->rolls, 1);
        here->text = cost_add(here->text, 12);   /* the number rolled, at most 11 bytes */
        return TRUE;
    }
    const ucr_table *next = g_hash_table_lookup(w->by_name, inner);
    if (!next) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                    "%s:%d: '{%s}' refers to a table '%s' that does not exist (no %s.txt in %s)", t->path,
                    row->line, inner, inner, inner, w->dirs);
        return FALSE;
    }
    int st = GPOINTER_TO_INT(g_hash_table_lookup(w->state, next->name));
    if (st == 1) {
        loop_fail(w, t, row, next, error);
        return FALSE;
    }
    if (st == 0 && !refs_walk(w, next, error))
        return FALSE;
    const roll_cost *sub = g_hash_table_lookup(w->cost, next->name);
    here->rolls = cost_add(here->rolls, sub->rolls);
    here->text = cost_add(here->text, sub->text);
    here->depth = MAX(here->depth, sub->depth + 1);
    return cost_check(t, row, inner, here, error);
}

/* Depth-first over references, noting what one roll on each table costs at
 * most; on a reference to a missing table or to one still on the chain, or
 * past a limit, sets @error at the referring row. */
static gboolean refs_walk(ref_walk *w, const ucr_table *t, GError **error)
{
    g_hash_table_insert(w->state, t->name, GINT_TO_POINTER(1));
    g_ptr_array_add(w->path, t->name);
    roll_cost *mine = g_new0(roll_cost, 1);
    *mine = t->columns ? columns_cost(t) : (roll_cost){ 1, 0, 1 };
    for (guint r = 0; r < t->rows->len && !t->columns; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        roll_cost here = { 1, (gint64)strlen(row->text), 1 };
        for (const char *p = strchr(row->text, '{'); p; p = strchr(p + 1, '{')) {
            const char *close = strchr(p, '}');
            char *inner = g_strndup(p + 1, (gsize)(close - p - 1));
            gboolean ok = ref_cost(w, t, row, inner, &here, error);
            g_free(inner);
            if (!ok) {
                g_free(mine);   /* found by tests/fuzz/fuzz_tables */
                return FALSE;
            }
        }
        mine->rolls = MAX(mine->rolls, here.rolls);
        mine->text = MAX(mine->text, here.text);
        mine->depth = MAX(mine->depth, here.depth);
    }
    g_hash_table_insert(w->cost, t->name, mine);
    g_ptr_array_remove_index(w->path, w->path->len - 1);
    g_hash_table_insert(w->state, t->name, GINT_TO_POINTER(2));
    return TRUE;
}

/* The needs, in order: this module's own, then every list of @lists. */
static GPtrArray *needs_collect(const ucr_table_need *const *lists)
{
    GPtrArray *needs = g_ptr_array_new();
    for (const ucr_table_need *n = TABLES_OWN; n->name; n++)
        g_ptr_array_add(needs, (gpointer)n);
    for (int l = 0; lists && lists[l]; l++)
        for (const ucr_table_need *n = lists[l]; n->name; n++)
            g_ptr_array_add(needs, (gpointer)n);
    return needs;
}

/* A name heads pages, the overview and the outline: the tables that give
 * the dungeon's and the nodes' names (key/stock.c) give short ones.  @cost
 * holds what one roll on each table may cost (refs_walk()). */
static gboolean names_check(const ucr_tables *tables, GHashTable *cost, GError **error)
{
    static const char *const NAMES[] = { "dungeon-name", "node-name", NULL };
    for (int i = 0; NAMES[i]; i++) {
        const ucr_table *t = g_hash_table_lookup(tables->by_name, NAMES[i]);
        const roll_cost *c = g_hash_table_lookup(cost, NAMES[i]);
        if (t && c && c->text > MAX_NAME) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                        "%s:%d: one roll on '%s' may take %" G_GINT64_FORMAT " bytes of text: a name is at most "
                        "%d (doc/limits.md)", t->path, g_array_index(t->rows, ucr_table_row, 0).line, t->name,
                        c->text, MAX_NAME);
            return FALSE;
        }
    }
    return TRUE;
}

/* The wandering-monster table of each level (key/stock.c) is printed whole
 * in every node's key: its rows, as stat lines, are bounded like one roll's
 * text.  FALSE with @error set if one is longer. */
static gboolean wandering_check(const ucr_tables *tables, GError **error)
{
    for (int level = 1; level <= UCR_TABLE_LEVELS; level++) {
        const ucr_table *t = ucr_tables_resolve(tables, "wandering", level);
        if (!t || t->by_level)
            continue;
        gint64 bytes = 0;
        for (guint r = 0; r < t->rows->len; r++) {
            const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
            bytes += 8 + (gint64)strlen(row->text);
            for (int k = 0; row->fields && row->fields[k]; k++)
                bytes += 8 + (gint64)strlen(row->fields[k]);
        }
        if (bytes > MAX_TEXT) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                        "%s:%d: the wandering monsters of level %d, printed whole in every key, may take %"
                        G_GINT64_FORMAT " bytes of text; the limit is %d (doc/limits.md)",
                        t->path, g_array_index(t->rows, ucr_table_row, 0).line, level, bytes, MAX_TEXT);
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean tables_check(ucr_tables *tables, const GPtrArray *needs, const char *dirs, GError **error)
{
    /* What is wrong inside a file first (file:line), then what is missing. */
    for (guint i = 0; i < needs->len; i++) {
        const ucr_table_need *need = g_ptr_array_index(needs, i);
        const ucr_table *t = g_hash_table_lookup(tables->by_name, need->name);
        for (guint r = 0; t && need->kinds && r < t->rows->len; r++) {
            const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
            if (!kind_known(need->kinds, row->tag)) {
                char *list = kinds_list(need->kinds);
                g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                            "%s:%d: every row of the %s table must start with its kind: %s%s%s",
                            t->path, row->line, t->name, list, row->tag ? ", not " : "",
                            row->tag ? row->tag : "");
                g_free(list);
                return FALSE;
            }
            const char *want = need->text_check ? need->text_check(row->tag, row->text) : NULL;
            if (want) {
                g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s:%d: '%s': %s", t->path, row->line,
                            row->text, want);
                return FALSE;
            }
        }
    }
    /* Room sizes, "WxH", in every table that holds them. */
    for (guint i = 0; i < needs->len; i++) {
        const ucr_table_need *need = g_ptr_array_index(needs, i);
        const ucr_table *sizes = need->sizes ? g_hash_table_lookup(tables->by_name, need->name) : NULL;
        for (guint r = 0; sizes && r < sizes->rows->len; r++) {
            ucr_table_row *row = &g_array_index(sizes->rows, ucr_table_row, r);
            int w, h;
            if (!ucr_table_parse_size(row->text, &w, &h)) {
                g_set_error(error, UCR_ERROR, UCR_ERROR_DATA,
                            "%s:%d: room size '%s' must be WIDTHxHEIGHT in 10-ft squares, 1-12 each (e.g. 3x2)",
                            sizes->path, row->line, row->text);
                return FALSE;
            }
        }
    }
    /* References, in name order so the error is the same run after run. */
    GList *names = g_list_sort(g_hash_table_get_keys(tables->by_name), (GCompareFunc)strcmp);
    ref_walk w = { tables->by_name, g_hash_table_new(g_str_hash, g_str_equal),
                   g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free), g_ptr_array_new(), dirs };
    gboolean ok = TRUE;
    for (GList *l = names; l && ok; l = l->next)
        if (!g_hash_table_lookup(w.state, l->data))
            ok = refs_walk(&w, g_hash_table_lookup(tables->by_name, l->data), error);
    ok = ok && names_check(tables, w.cost, error);
    g_list_free(names);
    g_hash_table_destroy(w.state);
    g_hash_table_destroy(w.cost);
    g_ptr_array_free(w.path, TRUE);
    for (guint i = 0; ok && i < needs->len; i++) {
        const ucr_table_need *need = g_ptr_array_index(needs, i);
        if (!g_hash_table_lookup(tables->by_name, need->name)) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "missing table '%s.txt' (looked in %s)",
                        need->name, dirs);
            ok = FALSE;
        }
    }
    tables->room_size = g_hash_table_lookup(tables->by_name, "room-size");
    return ok && wandering_check(tables, error);
}

ucr_tables *ucr_tables_load_with(const char *defaults, const char *user, const ucr_table_need *const *needs,
                                 GError **error)
{
    ucr_tables *tables = g_new0(ucr_tables, 1);
    tables->by_name = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
                                            (GDestroyNotify)ucr_table_free);
    char *dirs = user ? g_strdup_printf("'%s' or '%s'", user, defaults) : g_strdup_printf("'%s'", defaults);
    gboolean ok = dir_load(tables->by_name, defaults, error) &&
                  (!user || dir_load(tables->by_name, user, error));
    if (ok) {
        GPtrArray *all = needs_collect(needs);
        ok = tables_check(tables, all, dirs, error);
        g_ptr_array_free(all, TRUE);
    }
    g_free(dirs);
    if (!ok) {
        ucr_tables_free(tables);
        return NULL;
    }
    return tables;
}

void ucr_tables_free(ucr_tables *tables)
{
    if (!tables)
        return;
    if (tables->by_name)
        g_hash_table_destroy(tables->by_name);
    g_free(tables);
}

const ucr_table *ucr_tables_lookup(const ucr_tables *tables, const char *name)
{
    return g_hash_table_lookup(tables->by_name, name);
}

const ucr_table *ucr_tables_need(const ucr_tables *tables, const char *name)
{
    const ucr_table *t = tables ? g_hash_table_lookup(tables->by_name, name) : NULL;
    if (!t)   /* a programming error: a need makes the load fail first */
        g_error("table '%s' is not loaded (is it in the ucr_table_need list of what reads it?)", name);
    return t;
}

/* --- decks ---------------------------------------------------------------------- */

/* One shuffled deck: cards 0..n-1, dealt from @next on. */
typedef struct {
    int n, next;
    int *cards;
} deck;

struct ucr_table_decks {
    ucr_prng rng;          /* the shuffles */
    GHashTable *by_name;   /* char* → deck* */
    GHashTable *combos;    /* "row|face|…|face" of rows dealt from two or more decks */
};

static void deck_free(gpointer p)
{
    deck *d = p;
    g_free(d->cards);
    g_free(d);
}

ucr_table_decks *ucr_table_decks_new(const char *seed, const char *label)
{
    ucr_table_decks *d = g_new0(ucr_table_decks, 1);
    ucr_prng_seed(&d->rng, seed, label);
    d->by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, deck_free);
    d->combos = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return d;
}

void ucr_table_decks_free(ucr_table_decks *decks)
{
    if (!decks)
        return;
    g_hash_table_destroy(decks->by_name);
    g_hash_table_destroy(decks->combos);
    g_free(decks);
}

/* Fisher-Yates over the whole deck; a card dealt last in the old order is
 * not dealt first again, so that no card comes twice in a row. */
static void deck_shuffle(ucr_prng *rng, deck *d)
{
    int last = d->next > 0 ? d->cards[d->n - 1] : -1;
    for (int i = d->n - 1; i > 0; i--) {
        int j = (int)ucr_prng_below(rng, (uint32_t)i + 1), tmp = d->cards[i];
        d->cards[i] = d->cards[j];
        d->cards[j] = tmp;
    }
    if (d->n > 1 && d->cards[0] == last) {
        int j = 1 + (int)ucr_prng_below(rng, (uint32_t)d->n - 1), tmp = d->cards[0];
        d->cards[0] = d->cards[j];
        d->cards[j] = tmp;
    }
    d->next = 0;
}

/* The deck called @name of @n cards, with a card left to deal. */
static deck *deck_ready(ucr_table_decks *decks, const char *name, int n)
{
    deck *d = g_hash_table_lookup(decks->by_name, name);
    if (d && d->n != n) {   /* the same name for another count: a fresh deck */
        g_hash_table_remove(decks->by_name, name);
        d = NULL;
    }
    if (!d) {
        d = g_new0(deck, 1);
        d->n = n;
        d->cards = g_new(int, n);
        for (int i = 0; i < n; i++)
            d->cards[i] = i;
        g_hash_table_insert(decks->by_name, g_strdup(name), d);
        deck_shuffle(&decks->rng, d);
    } else if (d->next >= d->n) {
        deck_shuffle(&decks->rng, d);
    }
    return d;
}

int ucr_table_decks_deal(ucr_table_decks *decks, const char *name, int n)
{
    g_return_val_if_fail(n > 0, 0);
    deck *d = deck_ready(decks, name, n);
    return d->cards[d->next++];
}

int ucr_table_decks_deal_new(ucr_table_decks *decks, const char *name, int n, const char *combo)
{
    g_return_val_if_fail(n > 0, 0);
    deck *d = deck_ready(decks, name, n);
    /* The first card left in this round that makes a new combination comes
     * next.  When every card left makes one already said, a card dealt
     * earlier in the round that makes a new one comes again (a half said
     * twice in a round reads better than a whole phrase said twice), the
     * round's cards left as they were; when none does, the top card. */
    GString *key = g_string_new(combo);
    g_string_append_c(key, '|');
    gsize stem = key->len;
    for (int pass = 0; pass < 2; pass++) {
        int from = pass ? 0 : d->next, to = pass ? d->next : d->n;
        for (int i = from; i < to; i++) {
            g_string_truncate(key, stem);
            ucr_text_append_int(key, d->cards[i]);
            if (g_hash_table_contains(decks->combos, key->str))
                continue;
            g_hash_table_add(decks->combos, g_string_free(key, FALSE));
            if (pass)
                return d->cards[i];
            int tmp = d->cards[d->next];
            d->cards[d->next] = d->cards[i];
            d->cards[i] = tmp;
            return d->cards[d->next++];
        }
    }
    g_string_free(key, TRUE);
    return d->cards[d->next++];
}

const ucr_table_row *ucr_table_draw(const ucr_table *table, ucr_table_decks *decks, ucr_prng *rng, int *total)
{
    if (!table->deck || !decks)
        return ucr_table_roll(table, rng, total);
    int face = 1 + ucr_table_decks_deal(decks, table->name, table->sides);
    if (total)
        *total = face;
    return ucr_table_pick(table, face, NULL);
}

/* --- rolling, nested ----------------------------------------------------------- */

typedef struct {
    const ucr_tables *tables;
    ucr_prng *rng;
    ucr_table_decks *decks;
    int level;
    ucr_roll_hook hook;
    void *data;
    GString *text, *rolled;
    ucr_roll *out;
} roll_ctx;

/* The row of a level table for @level (deeper than the table: its last). */
static const ucr_table_row *level_row(const ucr_table *t, int level)
{
    const ucr_table_row *row = ucr_table_pick(t, CLAMP(level, 1, UCR_TABLE_LEVELS), NULL);
    return row ? row : &g_array_index(t->rows, ucr_table_row, 0);   /* unreachable: validated */
}

/* The name between a reference's braces, @len bytes at @from: copied into
 * @buf when it fits (names are short; a copy on the heap for every
 * reference rolled was a tenth of the stocking's time), else into *@heap,
 * which the caller frees (NULL otherwise). */
#define REF_BUF 64
static const char *ref_inner(const char *from, gsize len, char buf[REF_BUF], char **heap)
{
    *heap = NULL;
    if (len < REF_BUF) {
        memcpy(buf, from, len);
        buf[len] = '\0';
        return buf;
    }
    return *heap = g_strndup(from, len);
}

/* If @row is exactly one reference "{name}" to a table, that table. */
static const ucr_table *row_only_ref(const ucr_tables *tables, const ucr_table_row *row)
{
    gsize n = strlen(row->text);
    if (n < 3 || row->text[0] != '{' || row->text[n - 1] != '}' || strchr(row->text + 1, '{'))
        return NULL;
    char buf[REF_BUF], *heap;
    const ucr_table *t = g_hash_table_lookup(tables->by_name, ref_inner(row->text + 1, n - 2, buf, &heap));
    g_free(heap);
    return t;
}

const ucr_table *ucr_tables_resolve(const ucr_tables *tables, const char *name, int level)
{
    const ucr_table *t = g_hash_table_lookup(tables->by_name, name);
    for (int hops = 0; t && t->by_level && hops < MAX_DEPTH; hops++) {
        const ucr_table *next = row_only_ref(tables, level_row(t, level));
        if (!next)
            break;
        t = next;
    }
    return t;
}

/* Whether @t is dealt whole from a deck of its own (not through a hook or
 * a level). */
static gboolean dealt_plain(const roll_ctx *c, const ucr_table *t)
{
    return c->decks && t && t->deck && !t->by_level && !t->columns;
}

/* How many references of @text go to tables dealt plain from decks. */
static int deck_refs(const roll_ctx *c, const char *text)
{
    int n = 0;
    for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{')) {
        const char *close = strchr(p, '}');
        if (!close)
            break;
        char buf[REF_BUF], *heap;
        const char *inner = ref_inner(p + 1, (gsize)(close - p - 1), buf, &heap);
        n += dealt_plain(c, g_hash_table_lookup(c->tables->by_name, inner));
        g_free(heap);
    }
    return n;
}

/* The face of @next, a reference of a row of @decks_left deck references
 * still to deal: the last one of two or more makes a combination of the
 * row (@combo: its name and the faces dealt so far) not dealt yet. */
static int deal_ref(roll_ctx *c, const ucr_table *next, GString *combo, int *decks_left)
{
    if (!combo || !dealt_plain(c, next))
        return 0;
    int face;
    if (--*decks_left == 0)
        face = 1 + ucr_table_decks_deal_new(c->decks, next->name, next->sides, combo->str);
    else
        face = 1 + ucr_table_decks_deal(c->decks, next->name, next->sides);
    g_string_append_c(combo, '|');
    ucr_text_append_int(combo, face);
    return face;
}

/* Starts @t's record in @c: "; " after an earlier one, then its name. */
static void rolled_name(roll_ctx *c, const ucr_table *t)
{
    if (c->rolled->len)
        g_string_append(c->rolled, "; ");
    g_string_append(c->rolled, t->name);
}

void ucr_roll_record(GString *rolled, const char *sep, const ucr_table *t, int total)
{
    if (rolled->len)
        g_string_append(rolled, sep);
    g_string_append(rolled, t->name);
    g_string_append_c(rolled, ' ');
    ucr_text_append_int(rolled, t->count);
    g_string_append_c(rolled, 'd');
    ucr_text_append_int(rolled, t->sides);
    g_string_append_c(rolled, '=');
    ucr_text_append_int(rolled, total);
}

/* Rolls @t (dealt @face, when not 0, from its deck already) into @c. */
static void roll_into(roll_ctx *c, const ucr_table *t, int depth, int face)
{
    const ucr_table_row *row;
    if (t->by_level) {
        row = level_row(t, c->level);
        rolled_name(c, t);
        g_string_append(c->rolled, " level ");
        ucr_text_append_int(c->rolled, c->level);
    } else {
        if (t->columns && c->hook) {
            char *own = c->hook(t, c->rng, c->rolled, c->data);
            if (own) {
                g_ptr_array_add(c->out->visited, t->name);
                g_string_append(c->text, own);
                g_free(own);
                return;
            }
        }
        int total = face;
        row = face ? ucr_table_pick(t, face, NULL) : ucr_table_draw(t, c->decks, c->rng, &total);
        if (t->deck && c->decks) {   /* "name card 3 of 12" */
            rolled_name(c, t);
            g_string_append(c->rolled, " card ");
            ucr_text_append_int(c->rolled, total);
            g_string_append(c->rolled, " of ");
            ucr_text_append_int(c->rolled, t->sides);
        } else {
            ucr_roll_record(c->rolled, "; ", t, total);
        }
    }
    g_ptr_array_add(c->out->visited, t->name);
    if (depth == 0)
        c->out->tag = row->tag;
    int decks_left = t->columns ? 0 : deck_refs(c, row->text);
    GString *combo = decks_left >= 2 ? g_string_new(NULL) : NULL;
    if (combo) {
        g_string_append(combo, t->name);
        g_string_append_c(combo, '#');
        ucr_text_append_int(combo, (int)(row - &g_array_index(t->rows, ucr_table_row, 0)));
    }
    for (const char *p = row->text; *p; p++) {
        /* The words up to the next reference, in one piece (a column
         * table's row is words only). */
        const char *open = t->columns ? NULL : strchr(p, '{');
        if (!open) {
            g_string_append(c->text, p);
            break;
        }
        g_string_append_len(c->text, p, open - p);
        p = open;
        const char *close = strchr(p, '}');
        char buf[REF_BUF], *heap;
        const char *inner = ref_inner(p + 1, (gsize)(close - p - 1), buf, &heap);
        int dc, ds, dm;
        if (parse_dice_expr(inner, &dc, &ds, &dm)) {
            int v = ucr_dice_roll(c->rng, dc, ds) + dm;
            ucr_text_append_int(c->text, v);
            g_string_append(c->rolled, "; ");
            g_string_append(c->rolled, inner);
            g_string_append_c(c->rolled, '=');
            ucr_text_append_int(c->rolled, v);
        } else {
            const ucr_table *next = g_hash_table_lookup(c->tables->by_name, inner);
            if (next && depth < MAX_DEPTH) {
                /* The reference's own text, kept beside the whole so that
                 * the stocking can tell who is here from what they guard.
                 * A level table's part is named as referred to ("monster"),
                 * the table it chose for the level gives a part of its own. */
                gsize start = c->text->len;
                guint slot = c->out->parts->len;
                ucr_roll_part part = { .table = next->name, .depth = depth + 1 };
                g_array_append_val(c->out->parts, part);
                roll_into(c, next, depth + 1, deal_ref(c, next, combo, &decks_left));
                ucr_roll_part *mine = &g_array_index(c->out->parts, ucr_roll_part, slot);
                mine->text = g_strstrip(g_strndup(c->text->str + start, c->text->len - start));
            }
        }
        g_free(heap);
        p = close;
    }
    if (combo)
        g_string_free(combo, TRUE);
}

void ucr_text_capitalise(char *s)
{
    gboolean start = TRUE;
    for (char *p = s; *p; p++) {
        /* Within a sentence only its end matters: skip to it (a key's
         * text is long, and this ran a byte at a time). */
        if (!start && !(p = strpbrk(p, ".!?")))
            break;
        if (start && g_ascii_isalpha(*p)) {
            *p = g_ascii_toupper(*p);
            start = FALSE;
        } else if (*p == '.' || *p == '!' || *p == '?') {
            start = p[1] == ' ' || p[1] == '\0';
        } else if (!g_ascii_isspace(*p) && *p != '"' && *p != '(') {
            start = FALSE;
        }
    }
}

void ucr_tables_roll_at(const ucr_tables *tables, const char *name, int level, ucr_prng *rng,
                        ucr_roll_hook hook, void *data, ucr_roll *out)
{
    ucr_tables_deal_at(tables, name, level, rng, NULL, hook, data, out);
}

void ucr_tables_deal_at(const ucr_tables *tables, const char *name, int level, ucr_prng *rng,
                        ucr_table_decks *decks, ucr_roll_hook hook, void *data, ucr_roll *out)
{
    memset(out, 0, sizeof *out);
    out->visited = g_ptr_array_new();
    out->parts = g_array_new(FALSE, TRUE, sizeof(ucr_roll_part));
    roll_ctx c = { tables, rng, decks, MAX(level, 1), hook, data, g_string_new(NULL), g_string_new(NULL), out };
    const ucr_table *t = g_hash_table_lookup(tables->by_name, name);
    if (t)
        roll_into(&c, t, 0, 0);
    out->rolled = g_string_free(c.rolled, FALSE);
    /* g_strstrip moves the text to the buffer's start: the buffer is it. */
    g_strstrip(c.text->str);
    out->text = g_string_free(c.text, FALSE);
}

void ucr_tables_roll(const ucr_tables *tables, const char *name, ucr_prng *rng, ucr_roll *out)
{
    ucr_tables_roll_at(tables, name, 1, rng, NULL, NULL, out);
}

void ucr_roll_clear(ucr_roll *roll)
{
    g_free(roll->text);
    g_free(roll->rolled);
    if (roll->visited)
        g_ptr_array_free(roll->visited, TRUE);
    if (roll->parts) {
        for (guint i = 0; i < roll->parts->len; i++)
            g_free(g_array_index(roll->parts, ucr_roll_part, i).text);
        g_array_free(roll->parts, TRUE);
    }
    memset(roll, 0, sizeof *roll);
}

const char *ucr_roll_part_text(const ucr_roll *roll, const char *name)
{
    for (guint i = 0; roll->parts && i < roll->parts->len; i++) {
        const ucr_roll_part *p = &g_array_index(roll->parts, ucr_roll_part, i);
        if (strcmp(p->table, name) == 0)
            return p->text;
    }
    return NULL;
}

gboolean ucr_roll_visited(const ucr_roll *roll, const char *name)
{
    for (guint i = 0; roll->visited && i < roll->visited->len; i++)
        if (strcmp(g_ptr_array_index(roll->visited, i), name) == 0)
            return TRUE;
    return FALSE;
}
