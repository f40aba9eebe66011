/* undercroft — command line: options in, the pipeline wired, a file out. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "core/cli.h"
#include "core/batch.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/outfile.h"
#include "core/process.h"
#include "gen/super/megadungeon.h"
#include "gen/methods/leximorph.h"
#include "key/survey.h"
#include "pipeline/pipeline.h"
#include "tables/table.h"
#include "layout/booklet.h"
#include "layout/page.h"
#include "layout/impose.h"
#include "render/fonts.h"
#include "layout/map.h"
#include "layout/style.h"
#include "render/cairo_device.h"
#include "model/json.h"
#include "output/pdf.h"
#include "export/foundry.h"
#include "export/uvtt.h"

typedef enum { FORMAT_NONE, FORMAT_PDF, FORMAT_JSON, FORMAT_SVG, FORMAT_PNG, FORMAT_UVTT, FORMAT_FOUNDRY } out_format;

enum { DPI_DEFAULT = 150, DPI_MIN = 36, DPI_MAX = 1200 };

/* How the files are drawn: everything past the dungeon itself. */
typedef struct {
    const ucr_style *style;
    const ucr_page_template *page;
    ucr_pdf_backend backend;
    gboolean player;      /* player maps: a section of the booklet, or the .svg/.png maps */
    gboolean show_dice;
    int dpi;
    const ucr_imposition *impose; /* the booklet's pages on sheets, or NULL */
    const char *node_id;          /* a mini-zine's node */
} render_options;

static const char *SUMMARY =
    "Generates a random non-linear (\"Jaquayed\") megadungeon and writes it as a\n"
    "print-ready PDF booklet (a map and a key for every sublevel), as a JSON model,\n"
    "or as one SVG or PNG map per sublevel.\n"
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
    "                                  con-100, both cores; rerun to resume; see README)\n"
    "  undercroft --seed 42 -o 'vtt/{node}.uvtt'    (Universal VTT for a virtual tabletop)\n"
    "  undercroft --seed 42 -o 'vtt/{node}.foundry.json'   (Foundry VTT scenes, secret doors\n"
    "                                  secret, and their images {node}.png)\n"
    "\n"
    "Map styles (--style): classic (blue), ink (black and white, hatched; the\n"
    "default) and lowink (thin lines, no hatching), or the path of a .ini file.\n"
    "\n"
    "Exit status: 0 done; 64 bad option or value; 65 bad table file;\n"
    "66 missing data file; 70 internal error; 73 cannot create the output;\n"
    "74 writing the output failed (a full disk); a batch: that of its first\n"
    "failed dungeon, or 130/143 when stopped.  -o - writes to standard output.";

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
    if (!g_ascii_strcasecmp(name, "svg"))
        return FORMAT_SVG;
    if (!g_ascii_strcasecmp(name, "png"))
        return FORMAT_PNG;
    if (!g_ascii_strcasecmp(name, "uvtt") || !g_ascii_strcasecmp(name, "dd2vtt"))
        return FORMAT_UVTT;   /* the same Universal VTT JSON under both names */
    if (!g_ascii_strcasecmp(name, "foundry"))
        return FORMAT_FOUNDRY;
    return FORMAT_NONE;
}

static out_format format_from_path(const char *path)
{
    if (g_str_has_suffix(path, ".foundry.json"))
        return FORMAT_FOUNDRY;
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

/* Node @n's Foundry scene to @f, and its image beside it (FILE.png for
 * FILE.foundry.json or FILE.json), opened in @outs. */
static gboolean write_foundry(const ucr_megadungeon *md, const ucr_node *n, const char *path, const char *node_id,
                              const render_options *ro, const ucr_uvtt_options *vtt, PangoFontMap *fonts, FILE *f,
                              GPtrArray *outs, GError **error)
{
    char *p = ucr_pattern_node(path, n->id, node_id != NULL);
    char *stem = g_str_has_suffix(p, ".json") ? g_strndup(p, strlen(p) - 5) : g_strdup(p);
    if (g_str_has_suffix(stem, ".foundry"))
        stem[strlen(stem) - 8] = '\0';
    char *image = g_strconcat(stem, ".png", NULL), *base = g_path_get_basename(image);
    gboolean ok = ucr_foundry_write(f, md, n, base, vtt->pixels_per_grid, error);
    ucr_outfile *img = ok ? ucr_outfile_open(image, error) : NULL;
    if (img) {
        g_ptr_array_add(outs, img);
        ok = ucr_foundry_image_write(ucr_outfile_stream(img), md, n, ro->style, fonts, vtt->pixels_per_grid, error);
    }
    ok = ok && img;
    for (int k = 0; ok && k < 2; k++) {
        FILE *s = k ? ucr_outfile_stream(img) : f;
        if (fflush(s) != 0 || ferror(s)) {
            g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write the scene of node %s: %s", n->id,
                        g_strerror(errno));
            ok = FALSE;
        }
    }
    g_free(p);
    g_free(stem);
    g_free(image);
    g_free(base);
    return ok;
}

/* One map file per node (or only @node_id, written to @path itself): all
 * are written to temporary files first and renamed into place only when
 * every one is complete, so a failure leaves none of them. */
static gboolean write_maps(const ucr_megadungeon *md, const char *path, out_format format,
                           const char *node_id, const render_options *ro,
                           const ucr_uvtt_options *vtt, GError **error)
{
    char *fonts_dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(fonts_dir, error);
    g_free(fonts_dir);
    if (!fonts)
        return FALSE;
    GPtrArray *outs = g_ptr_array_new();
    gboolean ok = TRUE;
    for (guint i = 0; i < md->nodes->len && ok; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        if (node_id && strcmp(n->id, node_id))
            continue;
        char *p = ucr_pattern_node(path, n->id, node_id != NULL);
        ucr_outfile *out = ucr_outfile_open(p, error);
        g_free(p);
        if (!out) {
            ok = FALSE;
            break;
        }
        g_ptr_array_add(outs, out);
        FILE *f = ucr_outfile_stream(out);
        if (format == FORMAT_FOUNDRY) {
            ok = write_foundry(md, n, path, node_id, ro, vtt, fonts, f, outs, error);
            continue;
        }
        if (format == FORMAT_UVTT) {
            ok = ucr_uvtt_write(f, md, n, ro->style, fonts, vtt, error);
            if (ok && (fflush(f) != 0 || ferror(f))) {
                g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write the file of node %s: %s",
                            n->id, g_strerror(errno));
                ok = FALSE;
            }
            continue;
        }
        double w, h;
        ucr_map_options mopt = { .player = ro->player };
        ucr_display_list *sheet = ucr_map_record_sheet_with(md, n, ro->style, fonts, &mopt, &w, &h);
        ucr_device *dev = ucr_cairo_device_new(format == FORMAT_SVG ? UCR_CAIRO_SVG : UCR_CAIRO_PNG,
                                               f, w, h, ro->dpi, fonts);
        ucr_display_list_replay(sheet, dev, NULL);
        ok = ucr_device_close(dev, error);
        ucr_device_free(dev);
        ucr_display_list_free(sheet);
        if (!ok) {   /* the writer's error, or why the write failed */
            ucr_outfile_abort_error(out, error);
            g_ptr_array_remove_index(outs, outs->len - 1);
        }
    }
    if (ok)
        ok = ucr_outfile_commit_all((ucr_outfile **)outs->pdata, outs->len, error);
    else
        g_ptr_array_foreach(outs, (GFunc)(void (*)(void))ucr_outfile_abort, NULL);
    g_ptr_array_free(outs, TRUE);
    g_object_unref(fonts);
    return ok;
}

static gboolean write_output(const ucr_megadungeon *md, const char *path, out_format format,
                             const render_options *ro, GError **error)
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
            g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot write '%s'", path);
    } else {
        ucr_booklet_options bo = { .style = ro->style, .page = ro->page, .player_maps = ro->player,
                                   .show_dice = ro->show_dice };
        bo.node_id = ro->node_id;
        ok = ucr_pdf_write_booklet(md, &bo, ro->backend, ro->impose, ucr_outfile_stream(out), error);
    }
    if (!ok) {
        ucr_outfile_abort_error(out, error);
        return FALSE;
    }
    return ucr_outfile_commit(out, error);
}

/* Everything a run needs once the options are checked.  A single run and
 * every job of a batch go through run_one() with it, so that the file of
 * batch seed S-7 is the file of a single run with --seed S-7. */
typedef struct {
    int cols, rows;
    const ucr_tables *tables;
    const ucr_node_method *method;
    ucr_method_options mo;
    render_options ro;
    out_format format;
    const char *node_id;   /* per-node formats: only this node, or NULL */
    ucr_uvtt_options vtt;
    const char *output;    /* the -o name, fields ({seed}, {n}, {node}) and all */
    const char *base_seed; /* batch: seeds BASE-n */
    int n_width;           /* batch: digits of {n} */
} run_plan;

static gboolean per_node(out_format format)
{
    return format == FORMAT_SVG || format == FORMAT_PNG || format == FORMAT_UVTT || format == FORMAT_FOUNDRY;
}

/* Options → files: generates the dungeon of @seed, stocks it and writes
 * @output (its {seed} and {n} filled in; {node} per node). */
static gboolean run_one(const run_plan *plan, const char *seed, const char *output, GError **error)
{
    ucr_gen_options gen = { seed, plan->cols, plan->rows, plan->tables, plan->method, plan->mo };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&gen, TRUE, error);
    if (!md)
        return FALSE;
    gboolean ok = per_node(plan->format)
                      ? write_maps(md, output, plan->format, plan->node_id, &plan->ro, &plan->vtt, error)
                      : write_output(md, output, plan->format, &plan->ro, error);
    ucr_megadungeon_free(md);
    return ok;
}

/* Batch job @n: the output name with its seed and number filled in. */
static char *job_output(const run_plan *plan, int n)
{
    char *seed = ucr_batch_seed(plan->base_seed, n);
    char *out = ucr_pattern_expand(plan->output, seed, n, plan->n_width);
    g_free(seed);
    return out;
}

static char **job_targets(int n, void *data)
{
    const run_plan *plan = data;
    char *out = job_output(plan, n);
    GPtrArray *t = g_ptr_array_new();
    if (!per_node(plan->format)) {
        g_ptr_array_add(t, out);
        out = NULL;
    } else if (plan->node_id) {
        g_ptr_array_add(t, ucr_pattern_node(out, plan->node_id, true));
    } else {
        /* Node ids depend on the superstructure's size alone (row-major). */
        for (int i = 0; i < plan->cols * plan->rows; i++) {
            char *id = ucr_node_id_for_index(i);
            g_ptr_array_add(t, ucr_pattern_node(out, id, false));
            g_free(id);
        }
    }
    g_free(out);
    g_ptr_array_add(t, NULL);
    return (char **)g_ptr_array_free(t, FALSE);
}

static gboolean job_run(int n, void *data, GError **error)
{
    const run_plan *plan = data;
    char *seed = ucr_batch_seed(plan->base_seed, n);
    char *out = job_output(plan, n);
    gboolean ok = run_one(plan, seed, out, error);
    g_free(seed);
    g_free(out);
    return ok;
}

/* `undercroft stats`: generate @count megadungeons (seeds BASE-1 … BASE-N)
 * per node method, the method forced on every node so that each is measured
 * on as many nodes (or only @only), and print the analysis per method.
 * Stocking is skipped: it changes no geometry, so no figure. */
static int run_stats(const char *base, int count, int cols, int rows, const ucr_tables *tables,
                     const ucr_node_method *only, const ucr_method_options *mo)
{
    ucr_survey *survey = ucr_survey_new();
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++) {
        if (only && *m != only)
            continue;
        for (int i = 1; i <= count; i++) {
            char *seed = g_strdup_printf("%s-%d", base, i);
            ucr_gen_options gen = { seed, cols, rows, tables, *m, *mo };
            GError *error = NULL;
            ucr_megadungeon *md = ucr_pipeline_dungeon(&gen, FALSE, &error);
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
           "loops: E - V + C; with a loop: nodes with at least one; room loops: E - V + C counted as other\n"
           "generators are compared (rooms the vertices, each corridor network one vertex joined to the rooms\n"
           "it touches); per room: all room loops / all rooms; no room loop: nodes without one;\n"
           "loop share: areas on a loop / areas;\n"
           "largest loop: areas in the largest biconnected component holding a loop; farthest: passage\n"
           "walked from the node's entry to its farthest area.\n\n%s",
           base, base, count, cols, rows, table);
    g_free(table);
    ucr_survey_free(survey);
    return 0;
}

static gboolean parse_dpi(const char *text, int *dpi)
{
    if (!text || !g_ascii_isdigit(text[0]))
        return FALSE;
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || v < DPI_MIN || v > DPI_MAX)
        return FALSE;
    *dpi = (int)v;
    return TRUE;
}

int main(int argc, char **argv)
{
    GError *early = NULL;
    if (!ucr_process_init(&early))
        return fail(early);
    char *seed = NULL, *output = NULL, *size = NULL, *format_name = NULL, *method_name = NULL;
    char *tables_dir = NULL;
    char *style_name = NULL, *node_id = NULL, *dpi_text = NULL;
    char *paper_name = NULL, *backend_name = NULL, *impose_name = NULL, *node_size_name = NULL;
    gboolean player = FALSE, show_dice = FALSE;
    gboolean version = FALSE;
    int count = 0, first = INT_MIN, jobs = INT_MIN;   /* INT_MIN: not given */
    gboolean force = FALSE;
    int grid_px = 0;
    GOptionEntry entries[] = {
        { "seed", 's', 0, G_OPTION_ARG_STRING, &seed,
          "Seed: any text or number (default \"undercroft\")", "SEED" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "Write to FILE; the format follows its extension (.pdf booklet, .json model, "
          ".svg or .png maps, .uvtt or .dd2vtt virtual tabletop maps: one per node, FILE-A.svg, "
          "FILE-B.svg, ... or {node} in FILE)", "FILE" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size,
          "Superstructure: COLS north-south by ROWS east-west tunnels, 1-10 each (default 3x3)",
          "COLSxROWS" },
        { "node-size", 0, 0, G_OPTION_ARG_STRING, &node_size_name,
          "How large each node is drawn: pocket (at most 40 x 32 squares, a mini-zine's two "
          "panels), standard (default; a --impose minizine of a 1x1 dungeon: pocket) or large "
          "(half as wide and tall again)", "SIZE" },
        { "method", 'm', 0, G_OPTION_ARG_STRING, &method_name,
          "Node method for every node (default: mixed, each node's rolled); 'help' lists them",
          "NAME" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
          "Output format, overriding the extension: pdf, json, svg, png, uvtt or foundry", "FORMAT" },
        { "style", 0, 0, G_OPTION_ARG_FILENAME, &style_name,
          "Map style: classic, ink (default) or lowink, or the path of a .ini style file", "STYLE" },
        { "paper", 0, 0, G_OPTION_ARG_FILENAME, &paper_name,
          "Booklet page template: a4 (default), letter, a5 or digest (folded booklets, pages "
          "in fours), or the path of a .ini template", "NAME" },
        { "impose", 0, 0, G_OPTION_ARG_FILENAME, &impose_name,
          "Booklet pages on printer's sheets: saddle (2-up for folding and stapling, e.g. "
          "--paper a5 on A4), saddle-print (with crop marks and bleed), minizine (one node on "
          "one --paper a4 or letter sheet), or the path of a .ini imposition", "NAME" },
        { "backend", 0, 0, G_OPTION_ARG_STRING, &backend_name,
          "PDF library for the booklet: cairo (default) or haru (libharu)", "NAME" },
        { "player", 0, 0, G_OPTION_ARG_NONE, &player,
          "Player maps: no secret doors (plain walls), traps or hidden areas (the booklet gains a "
          "section of them; .svg/.png/.uvtt maps are the players')", NULL },
        { "show-dice", 0, 0, G_OPTION_ARG_NONE, &show_dice,
          "Booklet: print the dice behind every area in the key", NULL },
        { "node", 0, 0, G_OPTION_ARG_STRING, &node_id,
          "With .svg/.png/.uvtt: write only the map of node ID, to FILE itself", "ID" },
        { "dpi", 0, 0, G_OPTION_ARG_STRING, &dpi_text,
          "Pixels per inch of PNG maps, 36-1200 (default 150)", "N" },
        { "grid-pixels", 0, 0, G_OPTION_ARG_INT, &grid_px,
          "Pixels per square of .uvtt/.dd2vtt maps, 10-300 (default 100)", "N" },
                  { "tables", 't', 0, G_OPTION_ARG_FILENAME, &tables_dir,
          "Dice tables: DIR's *.txt files replace the default tables of the same name "
          "(see README, Tables)", "DIR" },
        { "count", 'n', 0, G_OPTION_ARG_INT, &count,
          "Batch: write N dungeons, seeds SEED-1 … SEED-N, to -o PATTERN ({seed}, {n}, {node}; "
          "see README, Batch); stats: how many to analyse (default 100)", "N" },
        { "first", 0, 0, G_OPTION_ARG_INT, &first,
          "Batch: start at seed SEED-K (default 1), to split a run by seed range", "K" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
          "Batch: dungeons made at once, 1-64 (default 2)", "J" },
        { "force", 0, 0, G_OPTION_ARG_NONE, &force,
          "Batch: remake files that already exist (by default they are skipped)", NULL },
        { "version", 'V', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL }
    };
    /* The node methods' own options (gen/node_method.h) follow --method. */
    ucr_method_cli_set *method_cli = ucr_method_cli_set_new();
    GArray *all = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
    for (const GOptionEntry *e = entries; e->long_name; e++) {
        g_array_append_val(all, *e);
        if (!strcmp(e->long_name, "method"))
            for (const GOptionEntry *m = ucr_method_cli_set_entries(method_cli); m->long_name; m++)
                g_array_append_val(all, *m);
    }
    const GOptionEntry *options = (const GOptionEntry *)(const void *)all->data;
    GOptionContext *ctx = g_option_context_new("--seed SEED -o FILE  |  stats --count N");
    g_option_context_set_summary(ctx, SUMMARY);
    g_option_context_add_main_entries(ctx, options, NULL);
    GError *error = NULL;
    int status = 0;
    ucr_tables *tables = NULL;
    ucr_style *style = NULL;
    ucr_page_template *page = NULL;
    ucr_imposition *impose = NULL;

    /* Every integer option's range: a value outside is refused, never
     * taken for "not given" (--count 0) or for a sentinel (--jobs=INT_MIN). */
    const ucr_cli_range ranges[] = {
        { "count", 1, 1000000 },
        { "first", 1, 1000000000 },
        { "jobs", 1, 64 },
        { "grid-pixels", UCR_UVTT_PPG_MIN, UCR_UVTT_PPG_MAX },
        { "sectors", 1, UCR_LEXI_MAX_SECTORS },
        { NULL, 0, 0 },
    };
    if (!ucr_cli_parse_ranged(ctx, options, ranges, &argc, &argv, &error)) {
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
    if (count < 0 || count > 1000000) {
        status = usage_error("bad --count %d: expected 1 to 1000000", count);
        goto done;
    }
    gboolean batch = !stats && count > 0;
    if (!batch && (first != INT_MIN || jobs != INT_MIN || force)) {
        status = usage_error("--first, --jobs and --force are for batch runs: --count N -o PATTERN");
        goto done;
    }
    if (batch && first == INT_MIN)
        first = 1;
    if (batch && (first < 1 || first > 1000000000)) {
        status = usage_error("bad --first %d: expected 1 to 1000000000", first);
        goto done;
    }
    if (batch && jobs == INT_MIN)
        jobs = 2;   /* both cores of the machine this was made for; --jobs says otherwise */
    if (batch && (jobs < 1 || jobs > 64)) {
        status = usage_error("bad --jobs %d: expected 1 to 64", jobs);
        goto done;
    }
    if (!stats && !output) {
        status = usage_error("no output file: give -o FILE.pdf, FILE.json, FILE.svg or FILE.png");
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
            status = usage_error("unknown --format '%s': use pdf, json, svg, png, uvtt or foundry", format_name);
            goto done;
        }
    } else {
        format = format_from_path(output);
        if (format == FORMAT_NONE) {
            status = usage_error("cannot tell the format of '%s': use a .pdf, .json, .svg, .png or .uvtt "
                                 "file name (or .foundry.json), or --format pdf|json|svg|png|uvtt|foundry", output);
            goto done;
        }
    }
    gboolean maps = per_node(format);
    if (maps && !node_id && ucr_outfile_is_stdout(output)) {
        status = usage_error("-o - writes one file: give --node ID for one node's map");
        goto done;
    }
    gboolean zine = impose_name && format == FORMAT_PDF;  /* checked below: a minizine */
    if (node_id && !maps && !zine) {
        status = usage_error("--node '%s' applies to .svg, .png and .uvtt maps only; the %s has every node",
                             node_id, format == FORMAT_PDF ? "PDF booklet" : "JSON model");
        goto done;
    }
    /* Node ids follow from the size alone (row-major A, B, …): checked
     * before anything is generated, once for a whole batch. */
    if (node_id) {
        gboolean found = FALSE;
        for (int i = 0; i < cols * rows && !found; i++) {
            char *id = ucr_node_id_for_index(i);
            found = strcmp(id, node_id) == 0;
            g_free(id);
        }
        if (!found) {
            char *last = ucr_node_id_for_index(cols * rows - 1);
            status = usage_error("no node '%s' in this megadungeon: its nodes are A to %s", node_id, last);
            g_free(last);
            goto done;
        }
    }
    if (output) {
        unsigned fields = UCR_PATTERN_SEED | (batch ? UCR_PATTERN_N : 0) | (maps ? UCR_PATTERN_NODE : 0);
        int used = ucr_pattern_check(output, fields, &error);
        if (used < 0) {
            status = fail(error);
            goto done;
        }
        if (batch && !(used & (UCR_PATTERN_SEED | UCR_PATTERN_N))) {
            status = usage_error("with --count, the output name needs {seed} or {n} so that each dungeon "
                                 "has its own file, e.g. -o 'zines/{seed}.pdf'");
            goto done;
        }
    }
    gboolean vtt_format = format == FORMAT_UVTT || format == FORMAT_FOUNDRY;
    if (grid_px && (grid_px < UCR_UVTT_PPG_MIN || grid_px > UCR_UVTT_PPG_MAX || !vtt_format)) {
        status = !vtt_format
                     ? usage_error("--grid-pixels applies to .uvtt, .dd2vtt and .foundry.json files only")
                     : usage_error("bad --grid-pixels %d: expected a whole number from %d to %d, e.g. 100",
                                   grid_px, UCR_UVTT_PPG_MIN, UCR_UVTT_PPG_MAX);
        goto done;
    }
    ucr_uvtt_options vtt = { grid_px ? grid_px : UCR_UVTT_PPG_DEFAULT, player };
    int dpi = DPI_DEFAULT;
    if (dpi_text && !parse_dpi(dpi_text, &dpi)) {
        status = usage_error("bad --dpi '%s': expected a whole number from %d to %d, e.g. 150 or 300",
                             dpi_text, DPI_MIN, DPI_MAX);
        goto done;
    }
    /* Options that would do nothing here are refused, never ignored.  In a
     * mixed dungeon (no --method) the method options apply to the nodes of
     * their method. */
    if (!ucr_method_cli_set_check(method_cli, method, &error)) {
        status = fail(error);
        goto done;
    }
    const struct { gboolean given; const char *name; gboolean applies; const char *where; } context[] = {
        { dpi_text != NULL, "--dpi", format == FORMAT_PNG, "PNG maps" },
        { style_name != NULL, "--style", !stats && format != FORMAT_JSON, "the PDF booklet and SVG/PNG maps" },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(context); i++)
        if (context[i].given && !context[i].applies) {
            status = usage_error("%s does nothing here: it applies to %s only (drop it)", context[i].name,
                                 context[i].where);
            goto done;
        }
    if (!ucr_datadir_check(&error)) {
        status = fail(error);
        goto done;
    }
    render_options ro = { .dpi = dpi, .player = player, .show_dice = show_dice };
    if (backend_name && !ucr_pdf_backend_parse(backend_name, &ro.backend)) {
        status = usage_error("unknown --backend '%s': use cairo or haru", backend_name);
        goto done;
    }
    if (!stats && format != FORMAT_PDF && (paper_name || backend_name || show_dice || impose_name)) {
        status = usage_error("%s applies to the PDF booklet only, not to a .%s file",
                             paper_name ? "--paper" : backend_name ? "--backend" : show_dice ? "--show-dice" : "--impose",
                             format == FORMAT_JSON ? "json" : format == FORMAT_SVG ? "svg" : format == FORMAT_PNG ? "png" : format == FORMAT_FOUNDRY ? "foundry.json" : "uvtt");
        goto done;
    }
    if (!stats && format == FORMAT_FOUNDRY && player) {
        status = usage_error("--player does not apply to a Foundry scene: its image is the players' already, "
                             "its doors the game master's (secret doors secret)");
        goto done;
    }
    if (!stats && format == FORMAT_JSON && player) {
        status = usage_error("--player applies to the PDF booklet and .svg/.png/.uvtt maps; the "
                             "JSON model holds everything");
        goto done;
    }
    if (impose_name) {
        impose = ucr_imposition_load(impose_name, ucr_datadir(), &error);
        if (!impose) {
            status = fail(error);
            goto done;
        }
        ro.impose = impose;
    }
    /* A saddle booklet is folded: A5 pages on A4 unless told otherwise. */
    page = ucr_page_template_load(paper_name ? paper_name
                                  : impose && impose->kind == UCR_IMPOSE_SADDLE ? "a5"
                                  : UCR_PAGE_DEFAULT, ucr_datadir(), &error);
    if (!page) {
        status = fail(error);
        goto done;
    }
    ro.page = page;
    if (impose && impose->kind == UCR_IMPOSE_MINIZINE) {
        if (!node_id && cols * rows > 1) {
            status = usage_error("a mini-zine holds one node: give --node ID (A, B, …), or "
                                 "--size 1x1");
            goto done;
        }
        if (page->folded) {
            status = usage_error("a mini-zine is one --paper a4 or letter sheet, not %s pages",
                                 page->name);
            goto done;
        }
        ro.node_id = node_id;
    } else if (impose && node_id) {
        status = usage_error("--node '%s' applies to a mini-zine and to .svg, .png and .uvtt "
                             "maps; a saddle booklet has every node", node_id);
        goto done;
    }
    /* The style is checked before anything is generated or written. */
    style = ucr_style_load(style_name ? style_name : UCR_STYLE_DEFAULT, ucr_datadir(), &error);
    if (!style) {
        status = fail(error);
        goto done;
    }
    ro.style = style;
    /* The methods' options, checked and what they name loaded, for the
     * methods that a node may have. */
    if (!ucr_method_cli_set_ready(method_cli, method, &error)) {
        status = fail(error);
        goto done;
    }
    char *table_dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    /* Tables first: a bad one stops us before anything is written. */
    tables = ucr_pipeline_tables_load(table_dir, tables_dir, &error);
    g_free(table_dir);
    if (!tables) {
        status = fail(error);
        goto done;
    }
    if (!ucr_method_cli_set_tables_check(method_cli, method, tables, &error)) {
        status = fail(error);
        goto done;
    }
    ucr_method_options mo;
    ucr_method_cli_set_options(method_cli, &mo);
    /* A mini-zine of a 1x1 dungeon draws a pocket node unless told (of a
     * method that draws at every size). */
    gboolean sized = method && method->sized;
    mo.node_size = sized && impose && impose->kind == UCR_IMPOSE_MINIZINE && cols * rows == 1
                       ? UCR_NODE_POCKET : UCR_NODE_STANDARD;
    if (node_size_name && !ucr_node_size_parse(node_size_name, &mo.node_size)) {
        status = usage_error("bad --node-size '%s': pocket, standard or large", node_size_name);
        goto done;
    }
    if (mo.node_size != UCR_NODE_STANDARD && !sized) {
        status = usage_error("--node-size %s: only --method clock, numbered, pips or tictactoe draw "
                             "at every size yet; %s draws standard nodes only",
                             ucr_node_size_name(mo.node_size), method ? method->name : "the mix");
        goto done;
    }
    if (stats) {
        status = run_stats(seed ? seed : "stats", count ? count : 100, cols, rows, tables, method, &mo);
        goto done;
    }
    run_plan plan = { cols, rows, tables, method, mo, ro, format, node_id, vtt, output,
                      seed ? seed : "undercroft", 0 };
    if (batch) {
        char digits[16];
        plan.n_width = g_snprintf(digits, sizeof digits, "%d", first + count - 1);
        ucr_batch b = { first, count, jobs, force, isatty(STDERR_FILENO) != 0, plan.base_seed,
                        job_targets, job_run, &plan };
        status = ucr_batch_run(&b);
        goto done;
    }
    char *out = ucr_pattern_expand(output, plan.base_seed, 0, 0);
    if (!run_one(&plan, plan.base_seed, out, &error))
        status = fail(error);
    g_free(out);
done:
    ucr_tables_free(tables);
    ucr_method_cli_set_free(method_cli);
    ucr_style_free(style);
    ucr_page_template_free(page);
    ucr_imposition_free(impose);
    g_free(impose_name);
    g_free(node_size_name);
    g_free(paper_name);
    g_free(backend_name);
    g_free(style_name);
    g_free(node_id);
    g_free(dpi_text);
    g_option_context_free(ctx);
    g_array_free(all, TRUE);
    g_free(seed);
    g_free(output);
    g_free(size);
    g_free(format_name);
    g_free(method_name);
    g_free(tables_dir);
    return status;
}
