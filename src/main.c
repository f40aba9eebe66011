/* undercroft — command line: options in, the pipeline wired, a file out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "core/datadir.h"
#include "core/error.h"
#include "core/outfile.h"
#include "gen/megadungeon.h"
#include "key/stock.h"
#include "key/survey.h"
#include "key/table.h"
#include "layout/booklet.h"
#include "model/json.h"

typedef enum { FORMAT_NONE, FORMAT_PDF, FORMAT_JSON } out_format;

static const char *SUMMARY =
    "Generates a random non-linear (\"Jaquayed\") megadungeon and writes it as a\n"
    "print-ready PDF booklet (a map and a key for every sublevel) or as a JSON model.\n"
    "\n"
    "The superstructure is a grid of tunnels whose every intersection is a whole\n"
    "sublevel (node); every direction of every intersection is rolled on the 2d6\n"
    "table of RDG 2.0.  The same seed and options always give the same file.\n"
    "\n"
    "Examples:\n"
    "  undercroft --seed goblin-king -o goblin-king.pdf\n"
    "  undercroft --seed 42 --size 4x2 -o dungeon.json\n"
    "  undercroft --tables my-tables -s 7 -o d.pdf   (your tables over the defaults)\n"
    "  undercroft stats --count 1000   (loops, chokepoints, dead ends per node method\n"
    "                                  over dungeons of seeds SEED-1 … SEED-N; no file)\n"
    "\n"
    "Exit status: 0 done; 64 bad option or value; 65 bad table file;\n"
    "66 missing data file; 70 internal error; 73 cannot create the output.";

static void print_methods(void)
{
    printf("Node methods (--method NAME; by default each node's method is rolled):\n");
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++)
        printf("  %-10s seed %-8s %s\n", (*m)->name, (*m)->seeds, (*m)->summary);
}

static gboolean parse_size(const char *text, int *cols, int *rows)
{
    if (!text || !g_ascii_isdigit(text[0]))
        return FALSE;
    char *end;
    long c = strtol(text, &end, 10);
    if (*end != 'x' && *end != 'X')
        return FALSE;
    const char *second = end + 1;
    if (!g_ascii_isdigit(*second))
        return FALSE;
    long r = strtol(second, &end, 10);
    if (*end != '\0' || c < 1 || r < 1 || c > UCR_MAX_SIDE || r > UCR_MAX_SIDE)
        return FALSE;
    *cols = (int)c;
    *rows = (int)r;
    return TRUE;
}

static out_format format_from_name(const char *name)
{
    if (!g_ascii_strcasecmp(name, "pdf"))
        return FORMAT_PDF;
    if (!g_ascii_strcasecmp(name, "json"))
        return FORMAT_JSON;
    return FORMAT_NONE;
}

static out_format format_from_path(const char *path)
{
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base : path, '.');
    return dot ? format_from_name(dot + 1) : FORMAT_NONE;
}

static int fail(GError *error)
{
    int code = error->domain == UCR_ERROR ? error->code : UCR_ERROR_SOFTWARE;
    fprintf(stderr, "undercroft: %s\n", error->message);
    g_error_free(error);
    return code;
}

static int usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "undercroft: %s\n", msg);
    g_free(msg);
    return UCR_ERROR_USAGE;
}

static gboolean write_output(const ucr_megadungeon *md, const char *path, out_format format,
                             GError **error)
{
    ucr_outfile *out = ucr_outfile_open(path, error);
    if (!out)
        return FALSE;
    gboolean ok;
    if (format == FORMAT_JSON) {
        char *json = ucr_json_write(md);
        ok = fputs(json, ucr_outfile_stream(out)) >= 0;
        g_free(json);
        if (!ok)
            g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write '%s'", path);
    } else {
        ucr_booklet_options bo = { 0 };
        bo.datadir = ucr_datadir();
        ok = ucr_booklet_write_pdf(md, &bo, ucr_outfile_stream(out), error);
    }
    if (!ok) {
        ucr_outfile_abort(out);
        return FALSE;
    }
    return ucr_outfile_commit(out, error);
}

/* `undercroft stats`: generate @count megadungeons (seeds BASE-1 … BASE-N)
 * and print the analysis per node method.  Stocking is skipped: it changes
 * no geometry, so no figure. */
/* N seeds per method, each with the method forced on every node, so that
 * every method is measured on the same number of nodes (or only @only). */
static int run_stats(const char *base, int count, int cols, int rows, const ucr_tables *tables,
                     const ucr_node_method *only)
{
    ucr_survey *survey = ucr_survey_new();
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++) {
        if (only && *m != only)
            continue;
        for (int i = 1; i <= count; i++) {
            char *seed = g_strdup_printf("%s-%d", base, i);
            ucr_gen_options gen = { seed, cols, rows, tables, *m, { 0 } };
            GError *error = NULL;
            ucr_megadungeon *md = ucr_megadungeon_generate(&gen, &error);
            g_free(seed);
            if (!md) {
                ucr_survey_free(survey);
                return fail(error);
            }
            ucr_survey_add(survey, md);
            ucr_megadungeon_free(md);
        }
    }
    char *table = ucr_survey_table(survey);
    printf("Seeds %s-1 … %s-%d for each method (forced on every node), %dx%d nodes each.  Each figure: mean ± standard deviation over the nodes.\n"
           "loops: E - V + C; with a loop: nodes with at least one; loop share: areas on a loop / areas;\n"
           "largest loop: areas in the largest biconnected component holding a loop; farthest: passage\n"
           "walked from the node's entry to its farthest area.\n\n%s",
           base, base, count, cols, rows, table);
    g_free(table);
    ucr_survey_free(survey);
    return 0;
}

int main(int argc, char **argv)
{
    char *seed = NULL, *output = NULL, *size = NULL, *format_name = NULL, *method_name = NULL;
    char *tables_dir = NULL;
    gboolean version = FALSE;
    int count = 0;
    GOptionEntry entries[] = {
        { "seed", 's', 0, G_OPTION_ARG_STRING, &seed,
          "Seed: any text or number (default \"undercroft\")", "SEED" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "Write to FILE; the format follows its extension (.pdf booklet, .json model)", "FILE" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size,
          "Superstructure: COLS north-south by ROWS east-west tunnels, 1-10 each (default 3x3)",
          "COLSxROWS" },
        { "method", 'm', 0, G_OPTION_ARG_STRING, &method_name,
          "Node method for every node (default: mixed, each node's rolled); 'help' lists them",
          "NAME" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
          "Output format, overriding the extension: pdf or json", "FORMAT" },
        { "tables", 't', 0, G_OPTION_ARG_FILENAME, &tables_dir,
          "Dice tables: DIR's *.txt files replace the default tables of the same name "
          "(see README, Tables)", "DIR" },
        { "count", 'n', 0, G_OPTION_ARG_INT, &count,
          "stats: how many megadungeons to generate and analyse (default 100)", "N" },
        { "version", 'V', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL }
    };
    GOptionContext *ctx = g_option_context_new("--seed SEED -o FILE  |  stats --count N");
    g_option_context_set_summary(ctx, SUMMARY);
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *error = NULL;
    int status = 0;
    ucr_tables *tables = NULL;
    ucr_megadungeon *md = NULL;

    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        status = usage_error("%s (see 'undercroft --help')", error->message);
        g_clear_error(&error);
        goto done;
    }
    if (version) {
        printf("undercroft %s\n", UCR_VERSION);
        goto done;
    }
    const ucr_node_method *method = NULL;
    if (method_name && !strcmp(method_name, "help")) {
        print_methods();
        goto done;
    }
    if (method_name && !(method = ucr_node_method_lookup(method_name))) {
        char *names = ucr_node_method_names();
        status = usage_error("unknown --method '%s': use one of %s (or 'help')", method_name, names);
        g_free(names);
        goto done;
    }
    gboolean stats = argc > 1 && strcmp(argv[1], "stats") == 0;
    if (argc > (stats ? 2 : 1)) {
        status = usage_error("unexpected argument '%s' (options only; see 'undercroft --help')",
                             argv[stats ? 2 : 1]);
        goto done;
    }
    if (stats && (output || format_name)) {
        status = usage_error("'stats' prints a table and writes no file: drop -o/--format");
        goto done;
    }
    if (!stats && count) {
        status = usage_error("--count is for 'undercroft stats --count N'");
        goto done;
    }
    if (stats && (count < 0 || count > 1000000)) {
        status = usage_error("bad --count %d: expected 1 to 1000000", count);
        goto done;
    }
    if (!stats && !output) {
        status = usage_error("no output file: give -o FILE.pdf or -o FILE.json");
        goto done;
    }
    int cols = 3, rows = 3;
    if (size && !parse_size(size, &cols, &rows)) {
        status = usage_error("bad --size '%s': expected COLSxROWS with each from 1 to %d, e.g. 3x3 or 4x2",
                             size, UCR_MAX_SIDE);
        goto done;
    }
    out_format format = FORMAT_NONE;
    if (stats) {
        /* nothing to write */
    } else if (format_name) {
        format = format_from_name(format_name);
        if (format == FORMAT_NONE) {
            status = usage_error("unknown --format '%s': use pdf or json", format_name);
            goto done;
        }
    } else {
        format = format_from_path(output);
        if (format == FORMAT_NONE) {
            status = usage_error("cannot tell the format of '%s': use a .pdf or .json file name, "
                                 "or --format pdf|json", output);
            goto done;
        }
    }
    char *table_dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    /* Tables first: a bad one stops us before anything is written. */
    tables = ucr_tables_load_overlay(table_dir, tables_dir, &error);
    g_free(table_dir);
    if (!tables) {
        status = fail(error);
        goto done;
    }
    if (stats) {
        status = run_stats(seed ? seed : "stats", count ? count : 100, cols, rows, tables, method);
        goto done;
    }
    ucr_gen_options gen = { seed ? seed : "undercroft", cols, rows, tables, method, { 0 } };
    md = ucr_megadungeon_generate(&gen, &error);
    if (md)
        ucr_megadungeon_stock(md, tables, gen.seed);
    if (!md || !write_output(md, output, format, &error)) {
        status = fail(error);
        goto done;
    }
done:
    ucr_megadungeon_free(md);
    ucr_tables_free(tables);
    g_option_context_free(ctx);
    g_free(seed);
    g_free(output);
    g_free(size);
    g_free(format_name);
    g_free(method_name);
    g_free(tables_dir);
    return status;
}
