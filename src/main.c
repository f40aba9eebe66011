/* undercroft — command line: options in, the pipeline wired, a file out.
 *
 * This file only reads the options: pipeline/run.c checks them into a plan
 * and runs the stages (pipeline/pipeline.h) and the writer of the output
 * format (output/writer.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "core/cli.h"
#include "core/error.h"
#include "core/process.h"
#include "export/uvtt.h"
#include "output/writer.h"
#include "pipeline/run.h"

static const char *SUMMARY =
    "Generates a random non-linear (\"Jaquayed\") megadungeon and writes it as a\n"
    "print-ready PDF booklet (a map and a key for every sublevel), or in another\n"
    "of the formats of --format (a JSON model, a map per sublevel).\n"
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
    "  undercroft --seed 42 -o map.svg              (map-A.svg, map-B.svg, ...)\n"
    "  undercroft --seed 42 --node C --dpi 300 --style classic -o c.png\n"
    "  undercroft --seed con --count 100 -o 'zines/{seed}.pdf'   (a batch: seeds con-1 …\n"
    "                                  con-100, both cores; rerun to resume; see doc/batch.md)\n"
    "  undercroft --seed 42 -o 'vtt/{node}.uvtt'    (Universal VTT for a virtual tabletop)\n"
    "\n"
    "Map styles (--style): classic (blue), ink (black and white, hatched; the\n"
    "default) and lowink (thin lines, no hatching), or the path of a .ini file.\n"
    "\n"
    "Exit status: 0 done; 64 bad option or value; 65 bad table file;\n"
    "66 missing data file; 70 internal error; 73 cannot create the output;\n"
    "74 writing the output failed (a full disk); a batch: that of its first\n"
    "failed dungeon, or 130/143 when stopped.  -o - writes to standard output.";

/* The help texts that list the formats, made from the writer table. */
typedef struct {
    char *output, *format, *player, *node;
} format_help;

static void format_help_make(format_help *h)
{
    char *files = ucr_writer_list_files();
    char *names = ucr_writer_list(UCR_WRITER_LIST_NAMES, 0, FALSE, "", ", ", " or ");
    char *maps = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, 0, TRUE, ".", "/", "/");
    h->output = g_strdup_printf("Write to FILE; the format follows its extension (%s: one per node, "
                                "FILE-A.svg, FILE-B.svg, ... or {node} in FILE)", files);
    h->format = g_strdup_printf("Output format, overriding the extension: %s", names);
    h->player = g_strdup_printf("Player maps: no secret doors (plain walls), traps or hidden areas (the booklet "
                                "gains a section of them; %s maps are the players')", maps);
    h->node = g_strdup_printf("With %s: write only the map of node ID, to FILE itself", maps);
    g_free(files);
    g_free(names);
    g_free(maps);
}

static void format_help_clear(format_help *h)
{
    g_free(h->output);
    g_free(h->format);
    g_free(h->player);
    g_free(h->node);
}

/* Every option's value, as given. */
typedef struct {
    char *seed, *output, *size, *format, *method, *tables;
    char *style, *node, *dpi, *paper, *backend, *impose, *node_size;
    gboolean player, show_dice, version, force;
    int count, first, jobs, grid_pixels;
} options;

static void options_clear(options *o)
{
    char **text[] = { &o->seed, &o->output, &o->size, &o->format, &o->method, &o->tables,
                      &o->style, &o->node, &o->dpi, &o->paper, &o->backend, &o->impose, &o->node_size };
    for (gsize i = 0; i < G_N_ELEMENTS(text); i++)
        g_clear_pointer(text[i], g_free);
}

/* The option table, the node methods' own options after --method.  The
 * caller frees the result with g_array_free(…, TRUE). */
static GArray *options_entries(options *o, const format_help *help, const ucr_method_cli_set *method_cli)
{
    const GOptionEntry entries[] = {
        { "seed", 's', 0, G_OPTION_ARG_STRING, &o->seed,
          "Seed: any text or number (default \"undercroft\")", "SEED" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
          help->output, "FILE" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &o->size,
          "Superstructure: COLS north-south by ROWS east-west tunnels, 1-10 each (default 3x3)",
          "COLSxROWS" },
        { "node-size", 0, 0, G_OPTION_ARG_STRING, &o->node_size,
          "How large each node is drawn: pocket (a mini-zine's), standard (default) or large; "
          "a 1x1 --impose minizine draws pocket unless told", "SIZE" },
        { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method,
          "Node method for every node (default: mixed, each node's rolled); 'help' lists them",
          "NAME" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &o->format, help->format, "FORMAT" },
        { "style", 0, 0, G_OPTION_ARG_FILENAME, &o->style,
          "Map style: classic, ink (default) or lowink, or the path of a .ini style file", "STYLE" },
        { "paper", 0, 0, G_OPTION_ARG_FILENAME, &o->paper,
          "Booklet page template: a4 (default), letter, a5 or digest (folded booklets, pages "
          "in fours), or the path of a .ini template", "NAME" },
        { "impose", 0, 0, G_OPTION_ARG_FILENAME, &o->impose,
          "Booklet pages on printer's sheets: saddle (2-up for folding and stapling, e.g. "
          "--paper a5 on A4), saddle-print (with crop marks and bleed), minizine (one node on "
          "one --paper a4 or letter sheet), or the path of a .ini imposition", "NAME" },
        { "backend", 0, 0, G_OPTION_ARG_STRING, &o->backend,
          "PDF library for the booklet: cairo (default) or haru (libharu)", "NAME" },
        { "player", 0, 0, G_OPTION_ARG_NONE, &o->player, help->player, NULL },
        { "show-dice", 0, 0, G_OPTION_ARG_NONE, &o->show_dice,
          "Booklet: print the dice behind every area in the key", NULL },
        { "node", 0, 0, G_OPTION_ARG_STRING, &o->node, help->node, "ID" },
        { "dpi", 0, 0, G_OPTION_ARG_STRING, &o->dpi,
          "Pixels per inch of PNG maps, 36-1200 (default 150)", "N" },
        { "grid-pixels", 0, 0, G_OPTION_ARG_INT, &o->grid_pixels,
          "Pixels per square of .uvtt/.dd2vtt maps, 10-300 (default 100)", "N" },
        { "tables", 't', 0, G_OPTION_ARG_FILENAME, &o->tables,
          "Dice tables: DIR's *.txt files replace the default tables of the same name "
          "(see doc/tables.md)", "DIR" },
        { "count", 'n', 0, G_OPTION_ARG_INT, &o->count,
          "Batch: write N dungeons, seeds SEED-1 … SEED-N, to -o PATTERN ({seed}, {n}, {node}; "
          "see doc/batch.md); stats: how many to analyse (default 100)", "N" },
        { "first", 0, 0, G_OPTION_ARG_INT, &o->first,
          "Batch: start at seed SEED-K (default 1), to split a run by seed range", "K" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs,
          "Batch: dungeons made at once, 1-64 (default 2)", "J" },
        { "force", 0, 0, G_OPTION_ARG_NONE, &o->force,
          "Batch: remake files that already exist (by default they are skipped)", NULL },
        { "version", 'V', 0, G_OPTION_ARG_NONE, &o->version, "Print the version and exit", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL }
    };
    GArray *all = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
    for (const GOptionEntry *e = entries; e->long_name; e++) {
        g_array_append_val(all, *e);
        if (!strcmp(e->long_name, "method"))
            for (const GOptionEntry *m = ucr_method_cli_set_entries(method_cli); m->long_name; m++)
                g_array_append_val(all, *m);
    }
    return all;
}

static void print_methods(void)
{
    printf("Node methods (--method NAME; by default each node's method is rolled):\n");
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++)
        printf("  %-10s seed %-8s %s\n", (*m)->name, (*m)->seeds, (*m)->summary);
}

/* Options → the run: parsed here, checked and run by pipeline/run.c. */
static int options_run(options *o, int argc, char **argv, ucr_method_cli_set *method_cli)
{
    if (o->version) {
        printf("undercroft %s\n", UCR_VERSION);
        return 0;
    }
    if (o->method && !strcmp(o->method, "help")) {
        print_methods();
        return 0;
    }
    gboolean stats = argc > 1 && strcmp(argv[1], "stats") == 0;
    ucr_run_args a = { o->seed, o->output, o->size, o->format, o->method, o->tables,
                       o->style, o->node, o->dpi, o->paper, o->backend, o->impose, o->node_size,
                       o->player, o->show_dice, o->force,
                       o->count, o->first, o->jobs, o->grid_pixels,
                       stats, argc > (stats ? 2 : 1) ? argv[stats ? 2 : 1] : NULL };
    GError *error = NULL;
    ucr_run *run = ucr_run_new(&a, method_cli, &error);
    if (!run)
        return ucr_error_report(error);
    int status = ucr_run_go(run);
    ucr_run_free(run);
    return status;
}

/* Every integer option's range (the methods add their own): a value
 * outside is refused, never taken for "not given" (--count 0) or for a
 * sentinel (--jobs=INT_MIN). */
static const ucr_cli_range RANGES[] = {
    { "count", 1, 1000000 },
    { "first", 1, 1000000000 },
    { "jobs", 1, 64 },
    { "grid-pixels", UCR_UVTT_PPG_MIN, UCR_UVTT_PPG_MAX },
    { NULL, 0, 0 },
};

int main(int argc, char **argv)
{
    GError *early = NULL;
    if (!ucr_process_init(&early))
        return ucr_error_report(early);
    options o = { .first = INT_MIN, .jobs = INT_MIN };   /* INT_MIN: not given */
    format_help help;
    format_help_make(&help);
    ucr_method_cli_set *method_cli = ucr_method_cli_set_new();
    GArray *all = options_entries(&o, &help, method_cli);
    const GOptionEntry *entries = (const GOptionEntry *)(const void *)all->data;
    GOptionContext *ctx = g_option_context_new("--seed SEED -o FILE  |  stats --count N");
    g_option_context_set_summary(ctx, SUMMARY);
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *error = NULL;
    int status;
    if (!ucr_cli_parse_ranged(ctx, entries, ucr_method_cli_set_ranges(method_cli, RANGES), &argc, &argv, &error)) {
        fprintf(stderr, "undercroft: %s (see 'undercroft --help')\n", error->message);
        g_clear_error(&error);
        status = UCR_ERROR_USAGE;
    } else {
        status = options_run(&o, argc, argv, method_cli);
    }
    g_option_context_free(ctx);
    g_array_free(all, TRUE);
    ucr_method_cli_set_free(method_cli);
    format_help_clear(&help);
    options_clear(&o);
    return status;
}
