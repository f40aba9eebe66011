/* Tests of the method registry as plug-ins (gen/node_method.h): what a
 * method declares — its tables and their kinds, its options — is what the
 * program enforces, with no method named anywhere else. */
#include <check.h>

#include "check_run.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/error.h"
#include "gen/node_method.h"
#include "pipeline/pipeline.h"
#include "tables/table.h"

static char *dir;

static void tmp_setup(void)
{
    dir = g_dir_make_tmp("ucr-methods-XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
}

static void tmp_teardown(void)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, name, NULL);
        unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    rmdir(dir);
    g_free(dir);
}

static char *defaults_dir(void)
{
    return g_build_filename(ucr_datadir(), "templates", "tables", NULL);
}

/* Every table a method declares ships with the program, and a user's table
 * of that name whose rows lack the declared kinds (or sizes) is refused at
 * load, naming the file and line: the method's declaration is the check. */
START_TEST(declared_tables_are_enforced)
{
    char *defaults = defaults_dir();
    GError *error = NULL;
    ucr_tables *shipped = ucr_pipeline_tables_load(defaults, NULL, &error);
    ck_assert_msg(shipped != NULL, "%s", error ? error->message : "?");
    int needs = 0;
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++) {
        ck_assert_msg((*m)->tables != NULL, "%s declares no tables", (*m)->name);
        for (int l = 0; (*m)->tables[l]; l++)
            for (const ucr_table_need *n = (*m)->tables[l]; n->name; n++) {
                needs++;
                const ucr_table *t = ucr_tables_lookup(shipped, n->name);
                ck_assert_msg(t != NULL, "%s: table %s does not ship", (*m)->name, n->name);
                if (!n->kinds && !n->sizes)
                    continue;
                char *file = g_strdup_printf("%s.txt", n->name);
                char *path = g_build_filename(dir, file, NULL);
                ck_assert(g_file_set_contents(path, "roll: 1d2\n1-2: [no-such-kind] 9x99\n", -1, NULL));
                ucr_tables *bad = ucr_pipeline_tables_load(defaults, dir, &error);
                ck_assert_msg(bad == NULL, "%s: a bad %s loaded", (*m)->name, n->name);
                ck_assert_int_eq(error->code, UCR_ERROR_DATA);
                char *where = g_strdup_printf("%s:2: ", path);
                ck_assert_msg(g_str_has_prefix(error->message, where), "'%s' should start with '%s'",
                              error->message, where);
                ck_assert_msg(strstr(error->message, n->kinds ? "must start with its kind" : "room size"),
                              "%s", error->message);
                g_clear_error(&error);
                unlink(path);
                g_free(where);
                g_free(path);
                g_free(file);
            }
    }
    ck_assert_int_ge(needs, 20);
    ucr_tables_free(shipped);
    g_free(defaults);
}
END_TEST

/* The command line a test would type to give option @e. */
static void entry_argv(const GOptionEntry *e, char *arg, gsize size)
{
    if (e->arg == G_OPTION_ARG_NONE)
        g_snprintf(arg, size, "--%s", e->long_name);
    else if (e->arg == G_OPTION_ARG_INT)
        g_snprintf(arg, size, "--%s=2", e->long_name);
    else
        g_snprintf(arg, size, "--%s=AB", e->long_name);
}

/* Each method's options: given to a run where no node can be of that method
 * they are refused naming the option and the method; with that method, or
 * mixed, they are taken and reach the method's own options. */
START_TEST(options_apply_to_their_method_only)
{
    int options = 0;
    for (const ucr_node_method *const *owner = ucr_node_methods(); *owner; owner++) {
        if (!(*owner)->cli)
            continue;
        GOptionEntry *mine;
        void *probe = (*owner)->cli->state_new(&mine);
        for (const GOptionEntry *e = mine; e->long_name; e++) {
            options++;
            ucr_method_cli_set *set = ucr_method_cli_set_new();
            GOptionContext *ctx = g_option_context_new(NULL);
            g_option_context_add_main_entries(ctx, ucr_method_cli_set_entries(set), NULL);
            char arg[64];
            entry_argv(e, arg, sizeof arg);
            char *args[] = { "undercroft", arg, NULL };
            char **argv = args;
            int argc = 2;
            GError *error = NULL;
            ck_assert_msg(g_option_context_parse(ctx, &argc, &argv, &error), "%s: %s", arg,
                          error ? error->message : "?");
            for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++) {
                gboolean ok = ucr_method_cli_set_check(set, *m, &error);
                ck_assert_msg(ok == (*m == *owner), "%s with --method %s", arg, (*m)->name);
                if (!ok) {
                    char *want = g_strdup_printf("--%s does nothing here: it applies to the %s method only",
                                                 e->long_name, (*owner)->name);
                    ck_assert_int_eq(error->code, UCR_ERROR_USAGE);
                    ck_assert_msg(g_str_has_prefix(error->message, want), "'%s'", error->message);
                    g_free(want);
                    g_clear_error(&error);
                }
            }
            ck_assert(ucr_method_cli_set_check(set, NULL, &error));   /* mixed: some node may be */
            ucr_method_options mo;
            ucr_method_cli_set_options(set, &mo);
            ck_assert_ptr_nonnull(ucr_method_options_get(&mo, *owner));
            g_option_context_free(ctx);
            ucr_method_cli_set_free(set);
        }
        g_free(mine);
        (*owner)->cli->state_free(probe);
    }
    ck_assert_int_ge(options, 6);   /* leximorph's four, compass's two */
}
END_TEST

/* Options reach the method they are set for, and only it. */
START_TEST(options_are_per_method)
{
    const ucr_node_method *const *all = ucr_node_methods();
    ucr_method_options mo = { 0 };
    for (int i = 0; all[i]; i++)
        ck_assert_ptr_null(ucr_method_options_get(&mo, all[i]));
    int token = 7;
    ucr_method_options_set(&mo, all[1], &token);
    for (int i = 0; all[i]; i++)
        ck_assert_ptr_eq(ucr_method_options_get(&mo, all[i]), i == 1 ? &token : NULL);
    ucr_node_method stranger = *all[0];   /* not registered */
    ck_assert_ptr_null(ucr_method_options_get(&mo, &stranger));
    ck_assert_ptr_null(ucr_method_options_get(NULL, all[1]));
}
END_TEST

/* generate → stock → analyse: generation leaves the figures to the
 * analysis, which the pipeline runs; stocking changes no figure. */
START_TEST(the_pipeline_analyses_after_generation)
{
    char *defaults = defaults_dir();
    ucr_tables *tables = ucr_pipeline_tables_load(defaults, NULL, NULL);
    ck_assert_ptr_nonnull(tables);
    ucr_gen_options opt = { "pipeline", 3, 3, tables, NULL, { 0 } };
    ucr_megadungeon *raw = ucr_megadungeon_generate(&opt, NULL);
    ucr_megadungeon *bare = ucr_pipeline_dungeon(&opt, FALSE, NULL);
    ucr_megadungeon *full = ucr_pipeline_dungeon(&opt, TRUE, NULL);
    ck_assert(raw && bare && full);
    for (guint i = 0; i < raw->nodes->len; i++) {
        const ucr_node *r = g_ptr_array_index(raw->nodes, i), *b = g_ptr_array_index(bare->nodes, i),
                       *f = g_ptr_array_index(full->nodes, i);
        ck_assert_int_eq(r->stats.areas, 0);
        ck_assert_int_eq(b->stats.areas, (int)b->areas->len);
        ck_assert_int_eq(b->stats.loops, f->stats.loops);
        ck_assert_int_eq(b->stats.room_loops, f->stats.room_loops);
        ck_assert_int_eq(b->stats.unreachable, f->stats.unreachable);
        ck_assert_ptr_null(b->name);
        ck_assert_ptr_nonnull(f->name);
    }
    ucr_megadungeon_free(raw);
    ucr_megadungeon_free(bare);
    ucr_megadungeon_free(full);
    ucr_tables_free(tables);
    g_free(defaults);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("methods");
    TCase *tc = tcase_create("registry");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, declared_tables_are_enforced);
    tcase_add_test(tc, options_apply_to_their_method_only);
    tcase_add_test(tc, options_are_per_method);
    tcase_add_test(tc, the_pipeline_analyses_after_generation);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
