/* undercroft — command line: options in, the pipeline wired, a file out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "core/datadir.h"
#include "core/error.h"
#include "core/outfile.h"
#include "gen/letters.h"
#include "gen/megadungeon.h"
#include "gen/method_leximorph.h"
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

int main(int argc, char **argv)
{
    char *seed = NULL, *output = NULL, *size = NULL, *format_name = NULL, *method_name = NULL;
    char *word = NULL, *letters_path = NULL;
    int sectors = 0;
    gboolean version = FALSE, rotate = FALSE;
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
        { "word", 0, 0, G_OPTION_ARG_STRING, &word,
          "leximorph: draw these letters, one per sector, instead of rolling them (e.g. BLOOD)",
          "WORD" },
        { "sectors", 0, 0, G_OPTION_ARG_INT, &sectors,
          "leximorph: sectors (letters) per node, 1-9 (default 4, or the length of --word)", "N" },
        { "rotate", 0, 0, G_OPTION_ARG_NONE, &rotate,
          "leximorph: turn each rolled letter by seed 002's optional d4", NULL },
        { "letters", 0, 0, G_OPTION_ARG_FILENAME, &letters_path,
          "leximorph: letter shapes from FILE (default templates/letters.txt)", "FILE" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
          "Output format, overriding the extension: pdf or json", "FORMAT" },
        { "version", 'V', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL }
    };
    GOptionContext *ctx = g_option_context_new("--seed SEED -o FILE");
    g_option_context_set_summary(ctx, SUMMARY);
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *error = NULL;
    int status = 0;
    ucr_tables *tables = NULL;
    ucr_letters *letters = NULL;
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
    if (sectors && (sectors < 1 || sectors > UCR_LEXI_MAX_SECTORS)) {
        status = usage_error("bad --sectors %d: use 1 to %d", sectors, UCR_LEXI_MAX_SECTORS);
        goto done;
    }
    if (word && (strlen(word) < 1 || strlen(word) > UCR_LEXI_MAX_SECTORS)) {
        status = usage_error("bad --word '%s': use 1 to %d letters (one per sector)", word,
                             UCR_LEXI_MAX_SECTORS);
        goto done;
    }
    if (word && sectors && sectors != (int)strlen(word)) {
        status = usage_error("--sectors %d does not match --word '%s' (%d letters, one per sector)",
                             sectors, word, (int)strlen(word));
        goto done;
    }
    /* The letter shapes, whenever a node may be leximorph. */
    if (!method || method == &ucr_leximorph_method || word || letters_path) {
        char *path = letters_path ? g_strdup(letters_path)
                                  : g_build_filename(ucr_datadir(), "templates", "letters.txt", NULL);
        letters = ucr_letters_load(path, &error);
        g_free(path);
        if (!letters) {
            status = fail(error);
            goto done;
        }
        for (const char *w = word; w && *w; w++)
            if (!ucr_letters_find_any_case(letters, *w)) {
                char *names = ucr_letters_names(letters);
                status = usage_error("--word '%s': no letter '%c' in %s; available: %s", word, *w,
                                     letters->path, names);
                g_free(names);
                goto done;
            }
        if (!word)
            for (int f = 0; f <= 9; f++)
                if (!ucr_letters_find(letters, ucr_leximorph_d10_letter(f))) {
                    g_set_error(&error, UCR_ERROR, UCR_ERROR_DATA,
                                "%s: no letter '%c' (seed 002's d10 table needs R A D T Q L X P B g; "
                                "or give --word)", letters->path, ucr_leximorph_d10_letter(f));
                    status = fail(error);
                    goto done;
                }
    }
    char *table_dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    tables = ucr_tables_load(table_dir, &error);
    g_free(table_dir);
    if (!tables) {
        status = fail(error);
        goto done;
    }
    ucr_gen_options gen = { seed ? seed : "undercroft", cols, rows, tables, method, { 0 } };
    gen.method_options.word = word;
    gen.method_options.sectors = sectors;
    gen.method_options.rotate = rotate;
    gen.method_options.letters = letters;
    md = ucr_megadungeon_generate(&gen, &error);
    if (!md || !write_output(md, output, format, &error)) {
        status = fail(error);
        goto done;
    }
done:
    ucr_megadungeon_free(md);
    ucr_tables_free(tables);
    ucr_letters_free(letters);
    g_option_context_free(ctx);
    g_free(word);
    g_free(letters_path);
    g_free(seed);
    g_free(output);
    g_free(size);
    g_free(format_name);
    g_free(method_name);
    return status;
}
