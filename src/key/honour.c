#include "key/honour.h"

#include <string.h>

#define N_REASONS UCR_HONOUR_REASONS

/* What one method counted of one rule. */
typedef struct {
    long rolled;
    long reasons[N_REASONS];
} tally;

/* One rule a method declared, compiled, and its count. */
typedef struct {
    const ucr_honour_rule *rule;
    GRegex *rolled;
    GRegex *reasons[N_REASONS];
    tally t;
} rule_count;

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
    GHashTable *methods;       /* method name (owned) → GArray of rule_count (owned) */
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

static void rule_count_clear(rule_count *c)
{
    g_regex_unref(c->rolled);
    for (int k = 0; k < N_REASONS; k++)
        if (c->reasons[k])
            g_regex_unref(c->reasons[k]);
}

static GArray *rules_new(void)
{
    GArray *rules = g_array_new(FALSE, TRUE, sizeof(rule_count));
    g_array_set_clear_func(rules, (GDestroyNotify)rule_count_clear);
    return rules;
}

ucr_honour *ucr_honour_new(void)
{
    ucr_honour *h = g_new0(ucr_honour, 1);
    h->methods = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
    h->outcomes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
    return h;
}

void ucr_honour_free(ucr_honour *honour)
{
    if (!honour)
        return;
    g_hash_table_destroy(honour->methods);
    g_hash_table_destroy(honour->outcomes);
    g_free(honour);
}

void ucr_honour_declare(ucr_honour *honour, const char *method, const ucr_honour_rule *const *lists)
{
    GArray *rules = rules_new();
    for (const ucr_honour_rule *const *l = lists; l && *l; l++)
        for (const ucr_honour_rule *r = *l; r->rule; r++) {
            rule_count c = { r, regex_new(r->rolled), { 0 }, { 0 } };
            for (int k = 0; k < N_REASONS && r->reasons[k].pattern; k++)
                c.reasons[k] = regex_new(r->reasons[k].pattern);
            g_array_append_val(rules, c);
        }
    g_hash_table_replace(honour->methods, g_strdup(method), rules);
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

/* One record of rule @c: its rolls, and as many reasons (first first) as
 * there were rolls at most. */
static void record_count(rule_count *c, const char *record)
{
    tally *t = &c->t;
    long rolled = matches(c->rolled, record);
    if (!rolled)
        return;
    t->rolled += rolled;
    long left = rolled;
    for (int k = 0; k < N_REASONS && c->reasons[k] && left > 0; k++) {
        long n = MIN(left, matches(c->reasons[k], record));
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
    GArray *rules = g_hash_table_lookup(h->methods, method);
    if (!rules) {   /* a method that declared nothing: it has its row all the same */
        rules = rules_new();
        g_hash_table_insert(h->methods, g_strdup(method), rules);
    }
    for (guint r = 0; r < rules->len; r++)
        for (guint i = 0; i < n->rolls->len; i++)
            record_count(&g_array_index(rules, rule_count, r), g_ptr_array_index(n->rolls, i));
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
        const GArray *rules = g_hash_table_lookup(honour->methods, l->data);
        bool any = false;
        for (guint r = 0; r < rules->len; r++) {
            const rule_count *c = &g_array_index(rules, rule_count, r);
            const char *reasons[N_REASONS] = { 0 };
            for (int k = 0; k < N_REASONS; k++)
                reasons[k] = c->rule->reasons[k].reason;
            row(o, l->data, c->rule->rule, c->t.rolled, c->t.reasons, reasons, N_REASONS);
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
