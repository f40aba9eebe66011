/* undercroft — one run of the command line (pipeline/run.h). */
#include "pipeline/run.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/batch.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/outfile.h"
#include "export/uvtt.h"
#include "key/survey.h"
#include "output/writer.h"
#include "pipeline/pipeline.h"

enum { DPI_DEFAULT = 150, DPI_MIN = 36, DPI_MAX = 1200 };

/* Everything a run needs once the options are checked.  A single run and
 * every job of a batch go through run_one() with it, so that the file of
 * batch seed S-7 is the file of a single run with --seed S-7. */
struct ucr_run {
    const ucr_run_args *args;
    ucr_method_cli_set *method_cli;
    int cols, rows;
    gboolean batch;
    int first, jobs;
    ucr_tables *tables;
    const ucr_node_method *method;
    ucr_method_options mo;
    const ucr_writer *writer;   /* NULL: stats */
    ucr_write_options wo;
    ucr_style *style;
    ucr_page_template *page;
    ucr_imposition *impose;
    const char *base_seed;      /* batch: seeds BASE-n */
    int n_width;                /* batch: digits of {n} */
};

static gboolean usage(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* Sets a usage error (exit 64) and returns FALSE. */
static gboolean usage(GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, UCR_ERROR, UCR_ERROR_USAGE, msg);
    g_free(msg);
    return FALSE;
}

/* "COLSxROWS", each 1 to UCR_MAX_SIDE. */
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

/* The method, the arguments, and the numbers of a batch. */
static gboolean plan_batch(ucr_run *r, GError **error)
{
    const ucr_run_args *a = r->args;
    if (a->method && !(r->method = ucr_node_method_lookup(a->method))) {
        char *names = ucr_node_method_names();
        usage(error, "unknown --method '%s': use one of %s (or 'help')", a->method, names);
        g_free(names);
        return FALSE;
    }
    if (a->extra)
        return usage(error, "unexpected argument '%s' (options only; see 'undercroft --help')", a->extra);
    if (a->stats && (a->output || a->format))
        return usage(error, "'stats' prints a table and writes no file: drop -o/--format");
    if (a->count < 0 || a->count > 1000000)
        return usage(error, "bad --count %d: expected 1 to 1000000", a->count);
    r->batch = !a->stats && a->count > 0;
    if (!r->batch && (a->first != INT_MIN || a->jobs != INT_MIN || a->force))
        return usage(error, "--first, --jobs and --force are for batch runs: --count N -o PATTERN");
    r->first = a->first == INT_MIN ? 1 : a->first;
    if (r->batch && (r->first < 1 || r->first > 1000000000))
        return usage(error, "bad --first %d: expected 1 to 1000000000", r->first);
    r->jobs = a->jobs == INT_MIN ? 2 : a->jobs;   /* both cores of the machine this was made for */
    if (r->batch && (r->jobs < 1 || r->jobs > 64))
        return usage(error, "bad --jobs %d: expected 1 to 64", r->jobs);
    return TRUE;
}

/* The output: its writer, and the nodes it is of. */
static gboolean plan_output(ucr_run *r, GError **error)
{
    const ucr_run_args *a = r->args;
    if (!a->stats && !a->output) {
        char *files = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, 0, FALSE, "FILE.", ", ", " or ");
        usage(error, "no output file: give -o %s", files);
        g_free(files);
        return FALSE;
    }
    r->cols = r->rows = 3;
    if (a->size && !parse_size(a->size, &r->cols, &r->rows))
        return usage(error, "bad --size '%s': expected COLSxROWS with each from 1 to %d, e.g. 3x3 or 4x2",
                     a->size, UCR_MAX_SIDE);
    if (a->stats)
        return TRUE;   /* nothing to write */
    r->writer = a->format ? ucr_writer_lookup(a->format) : ucr_writer_for_path(a->output);
    if (!r->writer) {
        char *names = ucr_writer_list(UCR_WRITER_LIST_NAMES, 0, FALSE, "", ", ", " or ");
        char *exts = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, 0, FALSE, ".", ", ", " or ");
        char *bars = ucr_writer_list(UCR_WRITER_LIST_NAMES, 0, FALSE, "", "|", "|");
        if (a->format)
            usage(error, "unknown --format '%s': use %s", a->format, names);
        else
            usage(error, "cannot tell the format of '%s': use a %s file name, or --format %s", a->output, exts,
                  bars);
        g_free(names);
        g_free(exts);
        g_free(bars);
        return FALSE;
    }
    if (r->writer->per_node && !a->node && ucr_outfile_is_stdout(a->output))
        return usage(error, "-o - writes one file: give --node ID for one node's map");
    return TRUE;
}

/* --node: for per-node files or a mini-zine, a node of this size. */
static gboolean plan_node(ucr_run *r, GError **error)
{
    const ucr_run_args *a = r->args;
    if (!a->node)
        return TRUE;
    gboolean maps = r->writer && r->writer->per_node;
    gboolean zine = a->impose && r->writer && (r->writer->takes & UCR_WRITER_BOOKLET);  /* checked later */
    if (!maps && !zine) {
        char *exts = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, 0, TRUE, ".", ", ", " and ");
        usage(error, "--node '%s' applies to %s maps only; the %s has every node", a->node, exts,
              r->writer ? r->writer->noun : "JSON model");
        g_free(exts);
        return FALSE;
    }
    /* Node ids follow from the size alone (row-major A, B, …): checked
     * before anything is generated, once for a whole batch. */
    for (int i = 0; i < r->cols * r->rows; i++) {
        char *id = ucr_node_id_for_index(i);
        gboolean found = strcmp(id, a->node) == 0;
        g_free(id);
        if (found)
            return TRUE;
    }
    char *last = ucr_node_id_for_index(r->cols * r->rows - 1);
    usage(error, "no node '%s' in this megadungeon: its nodes are A to %s", a->node, last);
    g_free(last);
    return FALSE;
}

/* The output name's fields, --grid-pixels, --dpi, and options that would
 * do nothing here. */
static gboolean plan_values(ucr_run *r, GError **error)
{
    const ucr_run_args *a = r->args;
    unsigned takes = r->writer ? r->writer->takes : 0;
    if (a->output) {
        unsigned fields = UCR_PATTERN_SEED | (r->batch ? UCR_PATTERN_N : 0) |
                          (r->writer && r->writer->per_node ? UCR_PATTERN_NODE : 0);
        int used = ucr_pattern_check(a->output, fields, error);
        if (used < 0)
            return FALSE;
        if (r->batch && !(used & (UCR_PATTERN_SEED | UCR_PATTERN_N)))
            return usage(error, "with --count, the output name needs {seed} or {n} so that each dungeon "
                                "has its own file, e.g. -o 'zines/{seed}.pdf'");
    }
    if (a->grid_pixels && !(takes & UCR_WRITER_GRID)) {
        char *grid = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, UCR_WRITER_GRID, FALSE, ".", ", ", " and ");
        gboolean ok = usage(error, "--grid-pixels applies to %s files only", grid);
        g_free(grid);
        return ok;
    }
    if (a->grid_pixels && (a->grid_pixels < UCR_UVTT_PPG_MIN || a->grid_pixels > UCR_UVTT_PPG_MAX))
        return usage(error, "bad --grid-pixels %d: expected a whole number from %d to %d, e.g. 100",
                     a->grid_pixels, UCR_UVTT_PPG_MIN, UCR_UVTT_PPG_MAX);
    r->wo.grid_pixels = a->grid_pixels ? a->grid_pixels : UCR_UVTT_PPG_DEFAULT;
    r->wo.dpi = DPI_DEFAULT;
    if (a->dpi && !parse_dpi(a->dpi, &r->wo.dpi))
        return usage(error, "bad --dpi '%s': expected a whole number from %d to %d, e.g. 150 or 300", a->dpi,
                     DPI_MIN, DPI_MAX);
    /* In a mixed dungeon (no --method) the method options apply to the
     * nodes of their method. */
    if (!ucr_method_cli_set_check(r->method_cli, r->method, error))
        return FALSE;
    if (a->dpi && !(takes & UCR_WRITER_DPI))
        return usage(error, "--dpi does nothing here: it applies to PNG maps only (drop it)");
    if (a->style && !(takes & UCR_WRITER_STYLE)) {
        char *maps = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, UCR_WRITER_STYLE, TRUE, ".", "/", "/");
        usage(error, "--style does nothing here: it applies to the PDF booklet and %s maps only (drop it)", maps);
        g_free(maps);
        return FALSE;
    }
    return TRUE;
}

/* The booklet's options: the backend, the imposition and the paper. */
static gboolean plan_booklet(ucr_run *r, GError **error)
{
    const ucr_run_args *a = r->args;
    unsigned takes = r->writer ? r->writer->takes : 0;
    if (a->backend && !ucr_pdf_backend_parse(a->backend, &r->wo.backend))
        return usage(error, "unknown --backend '%s': use cairo or haru", a->backend);
    if (r->writer && !(takes & UCR_WRITER_BOOKLET) && (a->paper || a->backend || a->show_dice || a->impose))
        return usage(error, "%s applies to the PDF booklet only, not to a .%s file",
                     a->paper ? "--paper" : a->backend ? "--backend" : a->show_dice ? "--show-dice" : "--impose",
                     r->writer->name);
    if (r->writer && !(takes & UCR_WRITER_PLAYER) && a->player) {
        char *maps = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, UCR_WRITER_PLAYER, TRUE, ".", "/", "/");
        usage(error, "--player applies to the PDF booklet and %s maps; the %s holds everything", maps,
              r->writer->noun);
        g_free(maps);
        return FALSE;
    }
    if (a->impose && !(r->impose = ucr_imposition_load(a->impose, ucr_datadir(), error)))
        return FALSE;
    r->page = ucr_page_template_load(a->paper ? a->paper : ucr_imposition_paper(r->impose), ucr_datadir(), error);
    if (!r->page || !ucr_imposition_check(r->impose, r->page, a->node != NULL, r->cols * r->rows, error))
        return FALSE;
    if (r->impose && r->impose->kind != UCR_IMPOSE_MINIZINE && a->node) {
        char *exts = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, 0, TRUE, ".", ", ", " and ");
        usage(error, "--node '%s' applies to a mini-zine and to %s maps; a saddle booklet has every node", a->node,
              exts);
        g_free(exts);
        return FALSE;
    }
    return TRUE;
}

/* Whether the nodes of a run of @method (NULL: the mix, any registered
 * method rolled) draw at every size. */
static gboolean method_sized(const ucr_node_method *method)
{
    if (method)
        return method->sized;
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++)
        if (!(*m)->sized)
            return FALSE;
    return TRUE;
}

/* The nodes' size: --node-size, else pocket for a mini-zine of a 1x1
 * dungeon whose method (or, for the mix, every method) draws at every
 * size, else standard. */
static gboolean plan_node_size(ucr_run *r, GError **error)
{
    const ucr_run_args *a = r->args;
    gboolean sized = method_sized(r->method);
    r->mo.node_size = sized && r->impose && r->impose->kind == UCR_IMPOSE_MINIZINE && r->cols * r->rows == 1
                          ? UCR_NODE_POCKET : UCR_NODE_STANDARD;
    if (a->node_size && !ucr_node_size_parse(a->node_size, &r->mo.node_size)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --node-size '%s': pocket, standard or large",
                    a->node_size);
        return FALSE;
    }
    return TRUE;
}

/* The data files: the style, the methods' own, the tables. */
static gboolean plan_load(ucr_run *r, GError **error)
{
    const ucr_run_args *a = r->args;
    /* The style is checked before anything is generated or written. */
    r->style = ucr_style_load(a->style ? a->style : UCR_STYLE_DEFAULT, ucr_datadir(), error);
    if (!r->style)
        return FALSE;
    /* The methods' options, checked and what they name loaded, for the
     * methods that a node may have. */
    if (!ucr_method_cli_set_ready(r->method_cli, r->method, error))
        return FALSE;
    char *table_dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    /* Tables first: a bad one stops us before anything is written. */
    r->tables = ucr_pipeline_tables_load(table_dir, a->tables, error);
    g_free(table_dir);
    if (!r->tables || !ucr_method_cli_set_tables_check(r->method_cli, r->method, r->tables, error))
        return FALSE;
    ucr_method_cli_set_options(r->method_cli, &r->mo);
    return plan_node_size(r, error);
}

ucr_run *ucr_run_new(const ucr_run_args *args, ucr_method_cli_set *methods, GError **error)
{
    ucr_run *r = g_new0(ucr_run, 1);
    r->args = args;
    r->method_cli = methods;
    r->base_seed = args->seed ? args->seed : args->stats ? "stats" : "undercroft";
    gboolean ok = plan_batch(r, error) && plan_output(r, error) && plan_node(r, error) &&
                  plan_values(r, error) && ucr_datadir_check(error) && plan_booklet(r, error) &&
                  plan_load(r, error);
    if (!ok) {
        ucr_run_free(r);
        return NULL;
    }
    r->wo.style = r->style;
    r->wo.page = r->page;
    r->wo.impose = r->impose;
    r->wo.player = args->player;
    r->wo.show_dice = args->show_dice;
    r->wo.node_id = args->node;
    return r;
}

void ucr_run_free(ucr_run *r)
{
    if (!r)
        return;
    ucr_tables_free(r->tables);
    ucr_style_free(r->style);
    ucr_page_template_free(r->page);
    ucr_imposition_free(r->impose);
    g_free(r);
}

/* Options → file: generates the dungeon of @seed, stocks it and writes
 * @output (its {seed} and {n} filled in; {node} per node). */
static gboolean run_one(const ucr_run *r, const char *seed, const char *output, GError **error)
{
    ucr_gen_options gen = { seed, r->cols, r->rows, r->tables, r->method, r->mo };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&gen, TRUE, error);
    if (!md)
        return FALSE;
    gboolean ok = ucr_writer_write(r->writer, md, output, &r->wo, error);
    ucr_megadungeon_free(md);
    return ok;
}

/* Batch job @n: the output name with its seed and number filled in. */
static char *job_output(const ucr_run *r, int n)
{
    char *seed = ucr_batch_seed(r->base_seed, n);
    char *out = ucr_pattern_expand(r->args->output, seed, n, r->n_width);
    g_free(seed);
    return out;
}

static char **job_targets(int n, void *data)
{
    const ucr_run *r = data;
    char *out = job_output(r, n);
    char **targets = ucr_writer_targets(r->writer, out, r->wo.node_id, r->cols * r->rows);
    g_free(out);
    return targets;
}

static gboolean job_run(int n, void *data, GError **error)
{
    const ucr_run *r = data;
    char *seed = ucr_batch_seed(r->base_seed, n);
    char *out = job_output(r, n);
    gboolean ok = run_one(r, seed, out, error);
    g_free(seed);
    g_free(out);
    return ok;
}

/* `undercroft stats`: generate @count megadungeons (seeds BASE-1 … BASE-N)
 * per node method, the method forced on every node so that each is measured
 * on as many nodes (or only the --method), and print the analysis per
 * method.  Stocking is skipped: it changes no geometry, so no figure. */
static int run_stats(const ucr_run *r, int count)
{
    ucr_survey *survey = ucr_survey_new();
    for (const ucr_node_method *const *m = ucr_node_methods(); *m; m++) {
        if (r->method && *m != r->method)
            continue;
        ucr_survey_declare(survey, (*m)->name, (*m)->honour);
        for (int i = 1; i <= count; i++) {
            char *seed = g_strdup_printf("%s-%d", r->base_seed, i);
            ucr_gen_options gen = { seed, r->cols, r->rows, r->tables, *m, r->mo };
            GError *error = NULL;
            ucr_megadungeon *md = ucr_pipeline_dungeon(&gen, FALSE, &error);
            g_free(seed);
            if (!md) {
                ucr_survey_free(survey);
                return ucr_error_report(error);
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
           "under 4 rooms: nodes (sublevels) with fewer than 4 rooms;\n"
           "loop share: areas on a loop / areas;\n"
           "largest loop: areas in the largest biconnected component holding a loop; farthest: passage\n"
           "walked from the node's entry to its farthest area.\n\n%s",
           r->base_seed, r->base_seed, count, r->cols, r->rows, table);
    g_free(table);
    ucr_survey_free(survey);
    return 0;
}

int ucr_run_go(ucr_run *r)
{
    const ucr_run_args *a = r->args;
    if (a->stats)
        return run_stats(r, a->count ? a->count : 100);
    if (r->batch) {
        char digits[16];
        r->n_width = g_snprintf(digits, sizeof digits, "%d", r->first + a->count - 1);
        ucr_batch b = { r->first, a->count, r->jobs, a->force, isatty(STDERR_FILENO) != 0, r->base_seed,
                        job_targets, job_run, r };
        return ucr_batch_run(&b);
    }
    GError *error = NULL;
    char *out = ucr_pattern_expand(a->output, r->base_seed, 0, 0);
    int status = run_one(r, r->base_seed, out, &error) ? 0 : ucr_error_report(error);
    g_free(out);
    return status;
}
