/* undercroft — the generation fuzzer: random *valid* data driven through
 * the whole pipeline.
 *
 * The parser fuzzers (tests/fuzz/) feed malformed text to each parser; this
 * one makes table sets, page templates and styles that a user could write —
 * the shipped ones with values changed within their documented limits
 * (dice, ranges, kinds, room sizes, counts, long words; template and style
 * numbers) — and runs each through generation, stocking, the analysis, the
 * layout and both PDF backends.  The property (README, "Limits"): a table
 * set that loads always makes a dungeon, a template or style that loads
 * always makes a booklet; anything else is refused when it is loaded, with
 * a message, never an internal error.
 *
 *   usage: fuzz_pipeline [--seconds S] [--runs N] [--seed TEXT] [--keep DIR]
 *   (FUZZ_VERBOSE=1 prints every case)
 *
 * Deterministic for a seed and a number of runs (--seconds stops early).  On
 * a broken property it prints the case, keeps its files in --keep DIR (a
 * folder made for it by default) and exits 1.  Built with the sanitizers by
 * the Makefile (make check runs it briefly, make fuzz longer). */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "core/dice.h"
#include "core/error.h"
#include "core/prng.h"
#include "gen/node_method.h"
#include "layout/page.h"
#include "layout/style.h"
#include "output/pdf.h"
#include "pipeline/pipeline.h"

typedef struct {
    ucr_prng rng;
    GString *log;              /* what this case changed, for the report */
} fuzz;

static int d(fuzz *f, int n)
{
    return ucr_dice_d(&f->rng, n);
}

static const char *pick(fuzz *f, const char *const *list, int n)
{
    return list[d(f, n) - 1];
}

/* A word of @n letters and no space: a column must break it. */
static char *long_word(fuzz *f, int n)
{
    char *w = g_malloc((gsize)n + 1);
    for (int i = 0; i < n; i++)
        w[i] = (char)('a' + d(f, 26) - 1);
    w[n] = '\0';
    return w;
}

/* The results of @text's rows (kind and text, without their ranges; not
 * pair rows), its header lines into @head and its roll into @roll. */
static GPtrArray *rows_of(const char *text, GString *head, char **roll)
{
    GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
    char **lines = g_strsplit(text, "\n", -1);
    *roll = NULL;
    for (int i = 0; lines[i]; i++) {
        char *l = g_strstrip(lines[i]);
        char *colon = strchr(l, ':');
        if (!*l || *l == '#' || !colon)
            continue;
        if (g_str_has_prefix(l, "roll:")) {
            *roll = g_strdup(g_strstrip(l + 5));
        } else if (g_ascii_isalpha(*l)) {
            g_string_append_printf(head, "%s\n", l);
        } else if (!strchr(l, '+') || strchr(l, '+') > colon) {
            g_ptr_array_add(rows, g_strdup(g_strstrip(colon + 1)));
        }
    }
    g_strfreev(lines);
    return rows;
}

/* New dice for a table, and its results dealt over the totals in runs (a
 * result may cover several totals, some results drop out when there are
 * fewer totals than results): always a table that covers every roll. */
static char *table_redice(fuzz *f, const char *text)
{
    GString *head = g_string_new(NULL);
    char *roll;
    GPtrArray *rows = rows_of(text, head, &roll);
    if (!roll || strcmp(roll, "level") == 0 || rows->len == 0) {
        g_free(roll);
        g_string_free(head, TRUE);
        g_ptr_array_free(rows, TRUE);
        return NULL;
    }
    static const int SIDES[] = { 2, 3, 4, 6, 8, 10, 12, 20, 100, 1000 };
    int count = d(f, 3), sides = SIDES[d(f, G_N_ELEMENTS(SIDES)) - 1];
    if (d(f, 8) == 1)
        count = d(f, 10);
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "roll: %dd%d\n%s", count, sides, head->str);
    int lo = count, hi = count * sides, n = (int)rows->len;
    for (int v = lo, r = 0; v <= hi; r++) {
        /* the last result takes what is left */
        int wobble = d(f, 3) - 2;   /* once: MAX() reads its arguments twice */
        int span = r + 1 >= n ? hi - v + 1 : MAX(1, (hi - lo + 1) / n + wobble);
        span = MIN(span, hi - v + 1);
        g_string_append_printf(out, "%d-%d: %s\n", v, v + span - 1, (char *)g_ptr_array_index(rows, r % n));
        v += span;
    }
    g_string_free(head, TRUE);
    g_ptr_array_free(rows, TRUE);
    g_free(roll);
    return g_string_free(out, FALSE);
}

/* Every "[kind]" of @text replaced by one of the kinds the file uses (so
 * a method's table keeps only kinds it knows, some perhaps never). */
static char *table_rekind(fuzz *f, const char *text)
{
    GPtrArray *kinds = g_ptr_array_new_with_free_func(g_free);
    for (const char *p = strstr(text, ": ["); p; p = strstr(p + 1, ": [")) {
        const char *e = strchr(p + 3, ']');
        if (e)
            g_ptr_array_add(kinds, g_strndup(p + 3, (gsize)(e - p - 3)));
    }
    if (kinds->len < 2) {
        g_ptr_array_free(kinds, TRUE);
        return NULL;
    }
    /* a few kinds only: some never come up */
    int keep = d(f, (int)kinds->len);
    GString *out = g_string_new(NULL);
    for (const char *p = text; *p;) {
        const char *k = strstr(p, ": [");
        const char *e = k ? strchr(k + 3, ']') : NULL;
        if (!e) {
            g_string_append(out, p);
            break;
        }
        g_string_append_len(out, p, k + 3 - p);
        g_string_append(out, (char *)g_ptr_array_index(kinds, d(f, keep) - 1));
        p = e;
    }
    g_ptr_array_free(kinds, TRUE);
    return g_string_free(out, FALSE);
}

/* Room sizes, 1-12 each way. */
static char *table_sizes(fuzz *f, const char *text)
{
    (void)text;
    int n = d(f, 6);
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "roll: 1d%d\n", n + 1);
    for (int i = 1; i <= n + 1; i++) {
        int big = d(f, 3) == 1;
        g_string_append_printf(out, "%d: %dx%d\n", i, big ? 12 - d(f, 2) + 1 : d(f, 12), big ? 12 - d(f, 2) + 1 : d(f, 12));
    }
    return g_string_free(out, FALSE);
}

/* Counts and worths of a monster or treasure table: within the limits,
 * and now and then just past them (refused when loaded). */
static char *table_numbers(fuzz *f, const char *text)
{
    static const char *const NO[] = { "1", "2", "1d6", "2d4+1", "3d6*10", "10d20", "200", "1d100+100", "201",
                                      "100000*10000" };
    static const char *const GP[] = { "1", "1/10", "1d6*100", "2d6*100", "1000000", "10d1000*100", "1/100",
                                      "1000001" };
    if (!strstr(text, "columns:"))
        return NULL;
    gboolean treasure = strstr(text, "| gp") != NULL;
    GString *out = g_string_new(NULL);
    char **lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        char **cells = g_strsplit(lines[i], "|", -1);
        int n = (int)g_strv_length(cells);
        if (n >= 4 && g_ascii_isdigit(lines[i][0])) {
            /* a row: "R: no | item | items | gp …" or "R: name | plural | no | …" */
            int at = treasure ? 0 : 2;
            char *colon = strchr(cells[0], ':');
            const char *no = d(f, 12) == 1 ? NO[G_N_ELEMENTS(NO) - 1 - (d(f, 2) - 1) * 1]
                                           : pick(f, NO, G_N_ELEMENTS(NO) - 2);
            if (at == 0 && colon) {
                colon[1] = '\0';
                char *c = g_strconcat(cells[0], " ", no, " ", NULL);
                g_free(cells[0]);
                cells[0] = c;
            } else if (at < n) {
                g_free(cells[at]);
                cells[at] = g_strdup_printf(" %s ", no);
            }
            if (treasure && n > 3) {
                g_free(cells[3]);
                cells[3] = g_strdup_printf(" %s ", d(f, 12) == 1 ? GP[G_N_ELEMENTS(GP) - 1]
                                                                  : pick(f, GP, G_N_ELEMENTS(GP) - 1));
            }
            char *joined = g_strjoinv("|", cells);
            g_string_append_printf(out, "%s\n", joined);
            g_free(joined);
        } else {
            g_string_append_printf(out, "%s\n", lines[i]);
        }
        g_strfreev(cells);
    }
    g_strfreev(lines);
    return g_string_free(out, FALSE);
}

/* A plain table's texts given a long word, or made long. */
static char *table_words(fuzz *f, const char *text)
{
    if (strstr(text, "columns:") || !strstr(text, "roll:"))
        return NULL;
    GString *out = g_string_new(NULL);
    char **lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        gboolean is_row = g_ascii_isdigit(lines[i][0]) && strchr(lines[i], ':');
        g_string_append(out, lines[i]);
        if (is_row && d(f, 3) == 1) {
            char *w = long_word(f, 10 + d(f, 390));
            g_string_append_printf(out, " %s", w);
            g_free(w);
        }
        g_string_append_c(out, '\n');
    }
    g_strfreev(lines);
    return g_string_free(out, FALSE);
}

static int names_compare(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Writes a mutated copy of some shipped tables into @dir. */
static void tables_make(fuzz *f, const char *shipped, const char *dir)
{
    GDir *gd = g_dir_open(shipped, 0, NULL);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while (gd && (name = g_dir_read_name(gd)))
        if (g_str_has_suffix(name, ".txt"))
            g_ptr_array_add(names, g_strdup(name));
    if (gd)
        g_dir_close(gd);
    g_ptr_array_sort(names, names_compare);   /* the same order on every file system */
    int changes = d(f, 6);
    for (int c = 0; c < changes && names->len; c++) {
        const char *file = g_ptr_array_index(names, d(f, (int)names->len) - 1);
        char *path = g_build_filename(shipped, file, NULL), *text = NULL;
        char *mine = g_build_filename(dir, file, NULL);
        if (!g_file_get_contents(mine, &text, NULL, NULL))
            g_file_get_contents(path, &text, NULL, NULL);
        char *out = NULL;
        const char *how = NULL;
        switch (d(f, 5)) {
        case 1: out = table_redice(f, text), how = "dice"; break;
        case 2: out = table_rekind(f, text), how = "kinds"; break;
        case 3: out = table_numbers(f, text), how = "numbers"; break;
        case 4: out = table_words(f, text), how = "long words"; break;
        default:
            if (strstr(file, "room") && !strstr(file, "shape") && !strstr(file, "walls") &&
                !strstr(file, "floor") && !strstr(file, "air"))
                out = table_sizes(f, text), how = "sizes";
            break;
        }
        if (out) {
            g_file_set_contents(mine, out, -1, NULL);
            g_string_append_printf(f->log, " %s(%s)", file, how);
        }
        g_free(out);
        g_free(text);
        g_free(path);
        g_free(mine);
    }
    g_ptr_array_free(names, TRUE);
}

/* A shipped page template or style with some numbers scaled: what the
 * parser refuses is refused, what it takes must lay out. */
static char *ini_make(fuzz *f, const char *path, const char *dir, const char *name)
{
    char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return NULL;
    GString *out = g_string_new(NULL);
    char **lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        char *eq = strchr(lines[i], '=');
        char *end = NULL;
        double v = eq ? g_ascii_strtod(eq + 1, &end) : 0;
        if (eq && end && end != eq + 1 && lines[i][0] != '#' && d(f, 8) == 1) {
            static const double SCALE[] = { 0.5, 0.8, 0.9, 1.1, 1.25, 2, 3 };
            double s = SCALE[d(f, G_N_ELEMENTS(SCALE)) - 1];
            char num[G_ASCII_DTOSTR_BUF_SIZE];
            g_ascii_formatd(num, sizeof num, "%.3g", v * s);
            *eq = '\0';
            g_string_append_printf(out, "%s= %s\n", lines[i], num);
            g_string_append_printf(f->log, " %s:%s*%g", name, g_strstrip(lines[i]), s);
        } else {
            g_string_append_printf(out, "%s\n", lines[i]);
        }
    }
    g_strfreev(lines);
    g_free(text);
    char *mine = g_build_filename(dir, name, NULL);
    g_file_set_contents(mine, out->str, -1, NULL);
    g_string_free(out, TRUE);
    return mine;
}

/* Writes the booklet of @md through @backend to nowhere; FALSE with @error
 * set if it fails. */
static gboolean booklet_write(const ucr_megadungeon *md, const ucr_booklet_options *opt, ucr_pdf_backend backend,
                              GError **error)
{
    FILE *sink = fopen("/dev/null", "wb");
    if (!sink) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "cannot open /dev/null");
        return FALSE;
    }
    gboolean ok = ucr_pdf_write_booklet(md, opt, backend, NULL, sink, error);
    fclose(sink);
    return ok;
}

/* One case: FALSE if the property broke (@why says how). */
static gboolean fuzz_case(fuzz *f, const char *dir, int run, char **why)
{
    const char *data = ucr_datadir();
    char *shipped = g_build_filename(data, "templates", "tables", NULL);
    char *tdir = g_build_filename(dir, "tables", NULL);
    g_mkdir_with_parents(tdir, 0755);
    tables_make(f, shipped, tdir);
    GError *error = NULL;
    gboolean ok = TRUE;
    ucr_tables *tables = ucr_pipeline_tables_load(shipped, tdir, &error);
    if (!tables) {
        /* refused at load: the property holds if it says why, as data */
        if (error->code != UCR_ERROR_DATA && error->code != UCR_ERROR_NOINPUT) {
            *why = g_strdup_printf("tables refused with code %d: %s", error->code, error->message);
            ok = FALSE;
        }
        g_string_append_printf(f->log, " → refused: %s", error->message);
        g_clear_error(&error);
        goto done;
    }
    const ucr_node_method *const *methods = ucr_node_methods();
    int nm = 0;
    while (methods[nm])
        nm++;
    char *seed = g_strdup_printf("fuzz-%d", run);
    ucr_gen_options opt = { .seed = seed, .columns = d(f, 3), .rows = d(f, 2), .tables = tables,
                            .method = d(f, 3) == 1 ? NULL : methods[d(f, nm) - 1] };
    g_string_append_printf(f->log, " seed %s %dx%d %s", seed, opt.columns, opt.rows,
                           opt.method ? opt.method->name : "mixed");
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, TRUE, &error);
    if (!md) {
        *why = g_strdup_printf("tables that loaded made no dungeon: %s", error->message);
        ok = FALSE;
        g_clear_error(&error);
        g_free(seed);
        ucr_tables_free(tables);
        goto done;
    }
    /* the booklet, on a template and style that may be changed too */
    static const char *const PAPERS[] = { "a4", "a5", "letter", "digest" };
    static const char *const STYLES[] = { "ink", "classic", "lowink" };
    const char *paper = pick(f, PAPERS, 4), *style_name = pick(f, STYLES, 3);
    char *ppath = g_strdup_printf("%s/templates/pages/%s.ini", data, paper);
    char *spath = g_strdup_printf("%s/templates/styles/%s.ini", data, style_name);
    char *pmine = d(f, 2) == 1 ? ini_make(f, ppath, dir, "page.ini") : g_strdup(ppath);
    char *smine = d(f, 3) == 1 ? ini_make(f, spath, dir, "style.ini") : g_strdup(spath);
    ucr_page_template *page = ucr_page_template_load(pmine, data, &error);
    ucr_style *style = page ? ucr_style_load_file(smine, &error) : NULL;
    if (!page || !style) {
        if (error->code != UCR_ERROR_DATA) {
            *why = g_strdup_printf("template or style refused with code %d: %s", error->code, error->message);
            ok = FALSE;
        }
        g_string_append_printf(f->log, " → template/style refused: %s", error->message);
        g_clear_error(&error);
    } else {
        ucr_booklet_options bo = { .style = style, .page = page, .player_maps = d(f, 4) == 1,
                                   .show_dice = d(f, 4) == 1 };
        ucr_pdf_backend backend = d(f, 2) == 1 ? UCR_BACKEND_CAIRO : UCR_BACKEND_HARU;
        g_string_append_printf(f->log, " %s %s %s", paper, style_name, backend == UCR_BACKEND_CAIRO ? "cairo" : "haru");
        if (!booklet_write(md, &bo, backend, &error)) {
            /* a template past what a page holds is refused, as data */
            if (error->code != UCR_ERROR_DATA) {
                *why = g_strdup_printf("the booklet failed (code %d): %s", error->code, error->message);
                ok = FALSE;
            }
            g_clear_error(&error);
        }
    }
    if (page)
        ucr_page_template_free(page);
    if (style)
        ucr_style_free(style);
    g_free(ppath);
    g_free(spath);
    g_free(pmine);
    g_free(smine);
    ucr_megadungeon_free(md);
    g_free(seed);
    ucr_tables_free(tables);
done:
    g_free(shipped);
    g_free(tdir);
    return ok;
}

static void tree_remove(const char *dir)
{
    GDir *gd = g_dir_open(dir, 0, NULL);
    const char *name;
    while (gd && (name = g_dir_read_name(gd))) {
        char *p = g_build_filename(dir, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR))
            tree_remove(p);
        else
            g_unlink(p);
        g_free(p);
    }
    if (gd)
        g_dir_close(gd);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    double seconds = 5;
    int runs = 1000000;
    const char *seed = "undercroft-fuzz", *keep = NULL;
    gboolean verbose = g_getenv("FUZZ_VERBOSE") != NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seconds"))
            seconds = g_ascii_strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            seed = argv[i + 1];
        else if (!strcmp(argv[i], "--keep"))
            keep = argv[i + 1];
        else {
            fprintf(stderr, "usage: %s [--seconds S] [--runs N] [--seed TEXT] [--keep DIR]\n", argv[0]);
            return 64;
        }
    }
    GError *error = NULL;
    if (!ucr_datadir_check(&error)) {
        fprintf(stderr, "fuzz_pipeline: %s\n", error->message);
        return 66;
    }
    gint64 start = g_get_monotonic_time();
    int done = 0, refused = 0;
    for (int run = 0; run < runs && (g_get_monotonic_time() - start) / 1e6 < seconds; run++) {
        fuzz f = { .log = g_string_new(NULL) };
        char *label = g_strdup_printf("case %d", run);
        ucr_prng_seed(&f.rng, seed, label);
        g_free(label);
        char *dir = g_dir_make_tmp("ucr-fuzz-XXXXXX", NULL);
        char *why = NULL;
        gboolean ok = fuzz_case(&f, dir, run, &why);
        refused += strstr(f.log->str, "refused") != NULL;
        if (!ok) {
            fprintf(stderr, "fuzz_pipeline: case %d (--seed %s):%s\nfuzz_pipeline: BROKEN: %s\n", run, seed,
                    f.log->str, why);
            if (keep) {
                char *cmd = g_strdup_printf("rm -rf '%s' && cp -r '%s' '%s'", keep, dir, keep);
                if (system(cmd) != 0)
                    fprintf(stderr, "fuzz_pipeline: could not keep the case in %s\n", keep);
                g_free(cmd);
            }
            fprintf(stderr, "fuzz_pipeline: the case's files: %s\n", keep ? keep : dir);
            return 1;
        }
        if (verbose)
            printf("case %d:%s\n", run, f.log->str);
        tree_remove(dir);
        g_free(dir);
        g_string_free(f.log, TRUE);
        done++;
    }
    printf("fuzz_pipeline: %d cases in %.1f s (%d refused at load), the property held\n", done,
           (g_get_monotonic_time() - start) / 1e6, refused);
    return 0;
}
