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
    "\n"
    "Exit status: 0 done; 64 bad option or value; 65 bad table file;\n"
    "66 missing data file; 70 internal error; 73 cannot create the output.";

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

int main(int argc, char **argv)
{
    char *seed = NULL, *output = NULL, *size = NULL, *format_name = NULL, *tables_dir = NULL;
    gboolean version = FALSE;
    GOptionEntry entries[] = {
        { "seed", 's', 0, G_OPTION_ARG_STRING, &seed,
          "Seed: any text or number (default \"undercroft\")", "SEED" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "Write to FILE; the format follows its extension (.pdf booklet, .json model)", "FILE" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size,
          "Superstructure: COLS north-south by ROWS east-west tunnels, 1-10 each (default 3x3)",
          "COLSxROWS" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
          "Output format, overriding the extension: pdf or json", "FORMAT" },
        { "tables", 't', 0, G_OPTION_ARG_FILENAME, &tables_dir,
          "Dice tables: DIR's *.txt files replace the default tables of the same name "
          "(see README, Tables)", "DIR" },
        { "version", 'V', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL }
    };
    GOptionContext *ctx = g_option_context_new("--seed SEED -o FILE");
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
    if (argc > 1) {
        status = usage_error("unexpected argument '%s' (options only; see 'undercroft --help')", argv[1]);
        goto done;
    }
    if (!output) {
        status = usage_error("no output file: give -o FILE.pdf or -o FILE.json");
        goto done;
    }
    int cols = 3, rows = 3;
    if (size && !parse_size(size, &cols, &rows)) {
        status = usage_error("bad --size '%s': expected COLSxROWS with each from 1 to %d, e.g. 3x3 or 4x2",
                             size, UCR_MAX_SIDE);
        goto done;
    }
    out_format format;
    if (format_name) {
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
    ucr_gen_options gen = { seed ? seed : "undercroft", cols, rows, tables };
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
    g_free(tables_dir);
    return status;
}
