/* undercroft — the registry of node methods, and what the command line gives
 * them.  A method is declared whole in its own file (gen/node_method.h): its
 * roll and embed, its tables, its options; this file only lists them. */
#include <string.h>

#include "core/error.h"
#include "gen/node_method.h"

/* The registry: a new method is one more line here, in the order --method
 * help lists them.  A mixed dungeon rolls each node's method on the table
 * templates/tables/node-method.txt, which names the methods and weighs
 * them: a method added here is in nobody's dungeon until the table names it
 * (a mixed dungeon is the same dungeon, seed for seed). */
extern const ucr_node_method ucr_grid_method, ucr_leximorph_method, ucr_method_numbered, ucr_method_pips,
    ucr_method_clock, ucr_method_tictactoe, ucr_compass_method;
static const ucr_node_method *const methods[] = {
    &ucr_grid_method,
    &ucr_leximorph_method,
    &ucr_method_numbered,
    &ucr_method_pips,
    &ucr_method_clock,
    &ucr_method_tictactoe,
    &ucr_compass_method,
    NULL,
};

G_STATIC_ASSERT(G_N_ELEMENTS(methods) <= UCR_NODE_METHODS_MAX + 1 && UCR_NODE_METHODS_MAX <= 32);

const ucr_node_method *const *ucr_node_methods(void)
{
    return methods;
}

const ucr_node_method *ucr_node_method_lookup(const char *name)
{
    for (int i = 0; methods[i]; i++)
        if (strcmp(methods[i]->name, name) == 0)
            return methods[i];
    return NULL;
}

char *ucr_node_method_names(void)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; methods[i]; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", methods[i]->name);
    return g_string_free(s, FALSE);
}

const ucr_table_need *ucr_node_method_roll_tables(void)
{
    /* The [kind]s are the registry's names: filled once, from the list. */
    static const char *names[G_N_ELEMENTS(methods)];
    static ucr_table_need needs[2];
    static gsize once;
    if (g_once_init_enter(&once)) {
        for (int i = 0; methods[i]; i++)
            names[i] = methods[i]->name;
        needs[0] = (ucr_table_need){ UCR_NODE_METHOD_TABLE, names, NULL, FALSE };
        g_once_init_leave(&once, 1);
    }
    return needs;
}

static int method_index(const ucr_node_method *m)
{
    for (int i = 0; methods[i]; i++)
        if (methods[i] == m)
            return i;
    return -1;
}

const void *ucr_method_options_get(const ucr_method_options *mo, const ucr_node_method *m)
{
    int i = method_index(m);
    return mo && i >= 0 && (mo->given >> i & 1u) ? mo->of[i] : NULL;
}

void ucr_method_options_set(ucr_method_options *mo, const ucr_node_method *m, const void *options)
{
    int i = method_index(m);
    g_return_if_fail(i >= 0);
    mo->of[i] = options;
    mo->given |= 1u << i;
}

/* ---- the command line --------------------------------------------------- */

struct ucr_method_cli_set {
    void *state[UCR_NODE_METHODS_MAX];          /* per method with options, else NULL */
    GOptionEntry *entries[UCR_NODE_METHODS_MAX]; /* its list, as state_new made it */
    GArray *all;                                 /* GOptionEntry: every list, then the end */
    GArray *ranges;                              /* ucr_cli_range, for ucr_method_cli_set_ranges */
};

ucr_method_cli_set *ucr_method_cli_set_new(void)
{
    ucr_method_cli_set *set = g_new0(ucr_method_cli_set, 1);
    set->all = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
    for (int i = 0; methods[i]; i++) {
        if (!methods[i]->cli)
            continue;
        set->state[i] = methods[i]->cli->state_new(&set->entries[i]);
        for (const GOptionEntry *e = set->entries[i]; e->long_name; e++)
            g_array_append_val(set->all, *e);
    }
    return set;
}

void ucr_method_cli_set_free(ucr_method_cli_set *set)
{
    if (!set)
        return;
    for (int i = 0; methods[i]; i++)
        if (set->state[i]) {
            methods[i]->cli->state_free(set->state[i]);
            g_free(set->entries[i]);
        }
    g_array_free(set->all, TRUE);
    if (set->ranges)
        g_array_free(set->ranges, TRUE);
    g_free(set);
}

const ucr_cli_range *ucr_method_cli_set_ranges(ucr_method_cli_set *set, const ucr_cli_range *base)
{
    if (set->ranges)
        g_array_free(set->ranges, TRUE);
    set->ranges = g_array_new(TRUE, TRUE, sizeof(ucr_cli_range));   /* ends in a NULL name */
    for (const ucr_cli_range *r = base; r && r->name; r++)
        g_array_append_val(set->ranges, *r);
    for (int i = 0; methods[i]; i++)
        for (const ucr_cli_range *r = methods[i]->cli ? methods[i]->cli->ranges : NULL; r && r->name; r++)
            g_array_append_val(set->ranges, *r);
    return (const ucr_cli_range *)(const void *)set->ranges->data;
}

const GOptionEntry *ucr_method_cli_set_entries(const ucr_method_cli_set *set)
{
    return (const GOptionEntry *)(const void *)set->all->data;
}

/* Whether the user gave option @e: its value is not the zero it starts at. */
static gboolean entry_given(const GOptionEntry *e)
{
    switch (e->arg) {
    case G_OPTION_ARG_NONE:
    case G_OPTION_ARG_INT:
        return *(const int *)e->arg_data != 0;   /* gboolean is an int */
    case G_OPTION_ARG_DOUBLE:
        return *(const double *)e->arg_data != 0;
    case G_OPTION_ARG_INT64:
        return *(const gint64 *)e->arg_data != 0;
    default:                                     /* strings, file names, arrays */
        return *(void *const *)e->arg_data != NULL;
    }
}

gboolean ucr_method_cli_set_check(const ucr_method_cli_set *set, const ucr_node_method *method,
                                  GError **error)
{
    /* Options that would do nothing are refused, never ignored.  In a mixed
     * dungeon (no --method) a method's options apply to the nodes of it. */
    for (int i = 0; methods[i]; i++) {
        if (!set->state[i] || !method || methods[i] == method)
            continue;
        for (const GOptionEntry *e = set->entries[i]; e->long_name; e++)
            if (entry_given(e)) {
                g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                            "--%s does nothing here: it applies to the %s method only (drop it, or the "
                            "--method)", e->long_name, methods[i]->name);
                return FALSE;
            }
    }
    return TRUE;
}

gboolean ucr_method_cli_set_ready(ucr_method_cli_set *set, const ucr_node_method *method, GError **error)
{
    for (int i = 0; methods[i]; i++)
        if (set->state[i] && (!method || methods[i] == method) && methods[i]->cli->ready &&
            !methods[i]->cli->ready(set->state[i], error))
            return FALSE;
    return TRUE;
}

gboolean ucr_method_cli_set_tables_check(ucr_method_cli_set *set, const ucr_node_method *method,
                                         const ucr_tables *tables, GError **error)
{
    for (int i = 0; methods[i]; i++)
        if (set->state[i] && (!method || methods[i] == method) && methods[i]->cli->tables_check &&
            !methods[i]->cli->tables_check(set->state[i], tables, error))
            return FALSE;
    return TRUE;
}

void ucr_method_cli_set_options(ucr_method_cli_set *set, ucr_method_options *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; methods[i]; i++)
        if (set->state[i])
            ucr_method_options_set(out, methods[i], methods[i]->cli->get(set->state[i]));
}

void ucr_node_size_extent(ucr_node_size size, int std_w, int std_h, int *w, int *h)
{
    switch (size) {
    case UCR_NODE_POCKET:
        *w = MIN(std_w, UCR_POCKET_W);
        *h = MIN(std_h, UCR_POCKET_H);
        return;
    case UCR_NODE_LARGE:
        *w = std_w * 3 / 2;
        *h = std_h * 3 / 2;
        return;
    default:
        *w = MIN(std_w, UCR_STANDARD_W);
        *h = MIN(std_h, UCR_STANDARD_H);
        return;
    }
}

static const char *const size_names[] = { "standard", "pocket", "large" };

const char *ucr_node_size_name(ucr_node_size size)
{
    return size_names[size];
}

bool ucr_node_size_parse(const char *text, ucr_node_size *out)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(text, size_names[i])) {
            *out = (ucr_node_size)i;
            return true;
        }
    return false;
}
