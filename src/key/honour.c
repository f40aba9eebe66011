#include "key/honour.h"

#include <string.h>

/* One reason a roll of a rule was not drawn as rolled: a pattern of the
 * roll record that says so, and the reason's name in the report. */
typedef struct {
    const char *pattern;
    const char *reason;
} honour_reason;

/* One rule of the seeds that the map can override.  @rolled matches once
 * per roll of the rule in a record (a record may hold several throws); each
 * match of a reason's pattern in such a record is one roll not drawn as
 * rolled, the first reason that matches taking it. */
typedef struct {
    const char *methods;   /* the node methods whose records hold it, space-separated */
    const char *rule;      /* what the dice said, as the report names it */
    const char *rolled;
    honour_reason reasons[4];
} honour_rule;

#define ROOM_CHECK_MISS "(?:nothing fits there|no room)"
/* The crossings a corridor's record lists before it says it was cut short. */
#define CROSSED "(?:; crosses [^;]*)*"

/* The rules, by method; tests/honour_recount.py reads the same records. */
static const honour_rule RULES[] = {
    { "numbered", "5: back to the current room, a loop (seed 000)",
      "back to the current room = room [0-9]+ → ",
      { { "back to the current room = room [0-9]+ → room [0-9]+ \\(no way there: a dead end\\)",
          "no loop fits: a dead end" },
        { "back to the current room = room [0-9]+ → [^;]*" CROSSED "\\(cut short", "cut short" } } },
    { "numbered", "a room's number: the corridor reaches that room (seed 000)",
      "= room [0-9]+ → room [0-9]+",
      { { "= room [0-9]+ → room [0-9]+ \\(no way there: a dead end\\)", "no way there: a dead end" },
        { "= room [0-9]+ → room [0-9]+[^;]*" CROSSED "\\(cut short", "cut short" },
        { "= room [0-9]+ → room [0-9]+ \\((?:its walls are out of reach|joins its own corridor)",
          "joins the room's corridor" } } },
    { "numbered", "a new room: its corridor as long as rolled (d10, seed 000)",
      "→ new room [0-9]+; corridor d10=",
      { { "→ new room [0-9]+; corridor d10=[^;(]*\\(no room for it", "no room for that length: routed" } } },
    { "numbered", "a new room: made where the exit faces (seed 000)",
      "→ new room [0-9]+",
      { { "\\(no space for it that way", "no space that way: counted on to an old room" } } },
    { "numbered clock tictactoe", "an exit or a way: drawn (seed 000, 001)",
      "(?:way [0-9]+ \\(position [0-9]+\\)|exit [0-9]+ \\([a-z]+ wall\\)):",
      { { "walled up", "no free wall: walled up" },
        { "→ already joined", "already joined: no corridor of its own" },
        { "\\(no room for it: the GM adds none\\)", "the GM's added exit found no room" } } },
    { "numbered clock tictactoe compass", "corridor check: a door (seed 000)",
      "corridor check [^:]*: 1d10=[0-9]+: a door",
      { { ": a door on the [a-z]+ wall: " ROOM_CHECK_MISS "; [a-z]+ wall: " ROOM_CHECK_MISS "$",
          "nothing fits on either side" },
        { ": a door: nothing fits there$", "nothing fits" } } },
    { "numbered clock tictactoe compass", "corridor check: a side passage (seed 000)",
      "corridor check [^:]*: 1d10=[0-9]+: a side passage",
      { { ": a side passage on the [a-z]+ wall: " ROOM_CHECK_MISS "; [a-z]+ wall: " ROOM_CHECK_MISS "$",
          "nothing fits on either side" },
        { ": a side passage: nothing fits there$", "nothing fits" } } },
    { "clock tictactoe", "something already there: connect to it (seed 001)",
      " is there",
      { { " is there[^;→]*\\((?:no way there: a dead end|no space or no way for it)\\)", "no way there: a dead end" },
        { " is there[^;→]*\\(cut short", "cut short" },
        { " is there \\(its walls are out of reach\\)", "joins the room's corridor" } } },
    { "clock tictactoe", "nothing mapped, d10 a room: drawn (seed 001)",
      "nothing mapped there: 1d10=[0-9]+: a room",
      { { ": a room; room size [^;→]*\\(no space or no way for it\\)", "no space or no way: a dead end" },
        { ": a room; room size [^;→]*\\(no way there: a dead end\\)", "no way there: a dead end" },
        { ": a room; room size [^;→]*\\(cut short", "cut short" } } },
    { "clock tictactoe", "nothing mapped, d10 a junction: drawn (seed 001)",
      "nothing mapped there: 1d10=[0-9]+: a junction",
      { { ": a junction \\(the node's junctions are all drawn\\)", "junctions all drawn: a dead end" },
        { ": a junction[^;→]*\\(no way there", "no way there: a dead end" } } },
    { "compass", "d10 direction: the corridor reaches that room (seed 001 variant)",
      "compass-direction 1d10=[0-9]+: [a-z-]+, to ",
      { { "\\(no way there: the corridor joins", "joins a corridor on its way" } } },
    { "compass", "--drop-dice: the door on the wall the die lands by (seed 001 variant)",
      "drop die [0-9]+ lands by the [a-z]+ wall",
      { { "lands by the [a-z]+ wall \\([^)]*\\), the door in the [a-z]+ wall, which faces where it leads",
          "moved to the wall facing where it leads" },
        { "wall is full: the door is in the", "that wall is full" } } },
    { "pips", "a way meets the map: it crosses as stairs or a slope (seed 003)",
      "blocked(?:, the map's edge beyond what it meets,)? after [0-9]+ ft|pips-cross 1d[0-9]+=[0-9]+",
      { { "blocked, the map's edge beyond what it meets, after [0-9]+ ft", "the map's edge beyond it" },
        { "blocked after [0-9]+ ft", "blocked: cut short" } } },
    { "pips", "a way runs as long as rolled: 60 ft, or 20 ft to a dead end (seed 003)",
      "→ (?:60 ft of corridor|20 ft, dead end)",
      { { "at the map's edge after [0-9]+ ft → ", "the map's edge" },
        { "blocked, the map's edge beyond what it meets, after [0-9]+ ft → ", "runs into the map, its edge beyond" },
        { "blocked after [0-9]+ ft → ", "runs into the map: cut short" },
        { "beside the map after [0-9]+ ft → ", "beside the map: no way past" } } },
    { "pips", "the way out by the wall the die landed by (seed 003)",
      "\\(landed (?:north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) (?:\\(that wall is taken|→ (?:wall|corner) |→ every wall)",
      { { "\\(landed (?:north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) \\(that wall is taken",
          "that wall taken: another" },
        { "\\(landed (?:north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) → every wall is taken",
          "every wall taken: walled up" } } },
    { "pips", "4-6: a room drawn (seed 003)",
      "pips-what 1d6=[456] \\(",
      { { "→ no room for it: a dead end", "no room: a dead end" } } },
};
#define N_RULES G_N_ELEMENTS(RULES)
#define N_REASONS 4

/* What one method counted of one rule. */
typedef struct {
    long rolled;
    long reasons[N_REASONS];
} tally;

/* A rule whose outcome the method kept itself (ucr_outcome). */
typedef struct {
    const char *rule;          /* static, from the method */
    long rolled;
    GArray *reasons;           /* reason_count */
} outcome_row;

typedef struct {
    const char *reason;        /* static, from the method */
    long n;
} reason_count;

struct ucr_honour {
    GRegex *rolled[N_RULES];
    GRegex *reasons[N_RULES][N_REASONS];
    GHashTable *methods;       /* method name (owned) → tally[N_RULES] (owned) */
    GHashTable *outcomes;      /* method name (owned) → GPtrArray of outcome_row* (owned) */
    tally stairs;              /* the superstructure: reasons 0 the other way, 1 level */
    long dungeons;
};

static GRegex *regex_new(const char *pattern)
{
    GError *error = NULL;
    GRegex *re = g_regex_new(pattern, G_REGEX_OPTIMIZE, 0, &error);
    if (!re)
        g_error("honour: pattern '%s': %s", pattern, error->message);
    return re;
}

ucr_honour *ucr_honour_new(void)
{
    ucr_honour *h = g_new0(ucr_honour, 1);
    for (guint r = 0; r < N_RULES; r++) {
        h->rolled[r] = regex_new(RULES[r].rolled);
        for (int k = 0; k < N_REASONS && RULES[r].reasons[k].pattern; k++)
            h->reasons[r][k] = regex_new(RULES[r].reasons[k].pattern);
    }
    h->methods = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    h->outcomes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
    return h;
}

void ucr_honour_free(ucr_honour *honour)
{
    if (!honour)
        return;
    for (guint r = 0; r < N_RULES; r++) {
        g_regex_unref(honour->rolled[r]);
        for (int k = 0; k < N_REASONS; k++)
            if (honour->reasons[r][k])
                g_regex_unref(honour->reasons[r][k]);
    }
    g_hash_table_destroy(honour->methods);
    g_hash_table_destroy(honour->outcomes);
    g_free(honour);
}

static bool rule_applies(const honour_rule *rule, const char *method)
{
    gsize len = strlen(method);
    for (const char *p = rule->methods; (p = strstr(p, method)); p += len)
        if ((p == rule->methods || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    return false;
}

static long matches(const GRegex *re, const char *text)
{
    GMatchInfo *mi;
    long n = 0;
    for (g_regex_match(re, text, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL))
        n++;
    g_match_info_free(mi);
    return n;
}

/* One record of rule @r: its rolls, and as many reasons (first first) as
 * there were rolls at most. */
static void record_count(const ucr_honour *h, guint r, const char *record, tally *t)
{
    long rolled = matches(h->rolled[r], record);
    if (!rolled)
        return;
    t->rolled += rolled;
    long left = rolled;
    for (int k = 0; k < N_REASONS && h->reasons[r][k] && left > 0; k++) {
        long n = MIN(left, matches(h->reasons[r][k], record));
        t->reasons[k] += n;
        left -= n;
    }
}

static void outcome_row_free(outcome_row *r)
{
    g_array_free(r->reasons, TRUE);
    g_free(r);
}

/* The outcomes @n kept itself, tallied by rule (in the order first met)
 * and reason. */
static void outcomes_add(ucr_honour *h, const char *method, const ucr_node *n)
{
    GPtrArray *rows = g_hash_table_lookup(h->outcomes, method);
    for (guint i = 0; n->outcomes && i < n->outcomes->len; i++) {
        const ucr_outcome *o = &g_array_index(n->outcomes, ucr_outcome, i);
        if (!rows) {
            rows = g_ptr_array_new_with_free_func((GDestroyNotify)outcome_row_free);
            g_hash_table_insert(h->outcomes, g_strdup(method), rows);
        }
        outcome_row *row = NULL;
        for (guint k = 0; k < rows->len && !row; k++)
            if (strcmp(((outcome_row *)g_ptr_array_index(rows, k))->rule, o->rule) == 0)
                row = g_ptr_array_index(rows, k);
        if (!row) {
            row = g_new0(outcome_row, 1);
            row->rule = o->rule;
            row->reasons = g_array_new(FALSE, FALSE, sizeof(reason_count));
            g_ptr_array_add(rows, row);
        }
        row->rolled++;
        if (!o->reason)
            continue;
        reason_count *rc = NULL;
        for (guint k = 0; k < row->reasons->len && !rc; k++)
            if (strcmp(g_array_index(row->reasons, reason_count, k).reason, o->reason) == 0)
                rc = &g_array_index(row->reasons, reason_count, k);
        if (!rc) {
            reason_count fresh = { o->reason, 0 };
            g_array_append_val(row->reasons, fresh);
            rc = &g_array_index(row->reasons, reason_count, row->reasons->len - 1);
        }
        rc->n++;
    }
}

static void node_add(ucr_honour *h, const ucr_node *n)
{
    const char *method = n->method ? n->method : "?";
    tally *t = g_hash_table_lookup(h->methods, method);
    if (!t) {
        t = g_new0(tally, N_RULES);
        g_hash_table_insert(h->methods, g_strdup(method), t);
    }
    for (guint r = 0; r < N_RULES; r++) {
        if (!rule_applies(&RULES[r], method))
            continue;
        for (guint i = 0; i < n->rolls->len; i++)
            record_count(h, r, g_ptr_array_index(n->rolls, i), &t[r]);
    }
    outcomes_add(h, method, n);
}

/* Seed 004: stairs (9-12) go down, up on double 5s or 6s; a tunnel keeps
 * what its two halves rolled (rolled_descent), the levels decide the rest. */
static void stairs_add(ucr_honour *h, const ucr_megadungeon *md)
{
    for (guint i = 0; i < md->tunnels->len; i++) {
        const ucr_tunnel *t = &g_array_index(md->tunnels, ucr_tunnel, i);
        if (t->kind == UCR_TUNNEL_BLOCKED || !t->rolled_descent)
            continue;
        h->stairs.rolled++;
        if (t->descent * t->rolled_descent < 0)
            h->stairs.reasons[0]++;
        else if (!t->descent)
            h->stairs.reasons[1]++;
    }
}

void ucr_honour_add(ucr_honour *honour, const ucr_megadungeon *md)
{
    honour->dungeons++;
    for (guint i = 0; i < md->nodes->len; i++)
        node_add(honour, g_ptr_array_index(md->nodes, i));
    stairs_add(honour, md);
}

static int reason_order(gconstpointer a, gconstpointer b, gpointer data)
{
    const long *n = data;
    int x = *(const int *)a, y = *(const int *)b;
    return n[y] != n[x] ? (n[y] > n[x] ? 1 : -1) : x - y;
}

/* One row: @n reasons named @names (NULL names end early), most first. */
static void row(GString *o, const char *method, const char *rule, long rolled, const long *counts,
                const char *const *names, int n)
{
    long rest = 0;
    for (int k = 0; k < n; k++)
        rest += counts[k];
    long as_rolled = rolled - rest;
    g_string_append_printf(o, "| %s | %s | %ld | %ld | ", method, rule, rolled, as_rolled);
    if (rolled)
        g_string_append_printf(o, "%.0f%%", 100.0 * as_rolled / rolled);
    else
        g_string_append(o, "–");
    g_string_append(o, " | ");
    int *order = g_new(int, n);
    for (int k = 0; k < n; k++)
        order[k] = k;
    g_qsort_with_data(order, n, sizeof *order, reason_order, (gpointer)counts);
    bool any = false;
    for (int i = 0; i < n; i++) {
        int k = order[i];
        if (!names[k] || !counts[k])
            continue;
        g_string_append_printf(o, "%s%s %ld", any ? "; " : "", names[k], counts[k]);
        any = true;
    }
    g_free(order);
    g_string_append(o, any ? " |\n" : "– |\n");
}

static void outcome_rows(GString *o, const char *method, const GPtrArray *rows)
{
    for (guint i = 0; rows && i < rows->len; i++) {
        const outcome_row *r = g_ptr_array_index(rows, i);
        int n = (int)r->reasons->len;
        long *counts = g_new(long, n + 1);
        const char **names = g_new(const char *, n + 1);
        for (int k = 0; k < n; k++) {
            counts[k] = g_array_index(r->reasons, reason_count, k).n;
            names[k] = g_array_index(r->reasons, reason_count, k).reason;
        }
        row(o, method, r->rule, r->rolled, counts, names, n);
        g_free(counts);
        g_free(names);
    }
}

char *ucr_honour_table(const ucr_honour *honour)
{
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "What was drawn as rolled, over %ld megadungeons: every rule the map can override,\n"
                              "how often it was rolled, how often drawn as rolled, and why not the rest.\n\n",
                           honour->dungeons);
    g_string_append(o, "| method | rule | rolled | as rolled | share | the rest |\n"
                       "| --- | --- | ---: | ---: | ---: | --- |\n");
    GList *names = g_list_sort(g_hash_table_get_keys(honour->methods), (GCompareFunc)strcmp);
    for (GList *l = names; l; l = l->next) {
        const tally *t = g_hash_table_lookup(honour->methods, l->data);
        bool any = false;
        for (guint r = 0; r < N_RULES; r++) {
            if (!rule_applies(&RULES[r], l->data))
                continue;
            const char *reasons[N_REASONS] = { 0 };
            for (int k = 0; k < N_REASONS; k++)
                reasons[k] = RULES[r].reasons[k].reason;
            row(o, l->data, RULES[r].rule, t[r].rolled, t[r].reasons, reasons, N_REASONS);
            any = true;
        }
        const GPtrArray *rows = g_hash_table_lookup(honour->outcomes, l->data);
        outcome_rows(o, l->data, rows);
        any |= rows != NULL;
        if (!any)
            g_string_append_printf(o, "| %s | no roll the map overrides | – | – | – | – |\n", (char *)l->data);
    }
    g_list_free(names);
    if (honour->dungeons) {
        static const char *const stairs[N_REASONS] = { "the other way", "level: down and up again" };
        row(o, "*superstructure*", "stairs down, up on double 5s or 6s (seed 004)", honour->stairs.rolled,
            honour->stairs.reasons, stairs, N_REASONS);
    }
    return g_string_free(o, FALSE);
}
