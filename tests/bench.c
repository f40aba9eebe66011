/* undercroft benchmark (make bench): one table of what the program costs.
 *
 *   build/tests/bench [--repeat N] [--seeds N] [--sizes 2,3,4,6,8,10]
 *                     [--size-repeat N] [--batch N] [--batch-repeat N]
 *                     [--bin build/undercroft] [--smoke]
 *
 * Every figure is the minimum and the median over repeats, of CPU time
 * (user + sys: what the work costs, and what a busy machine changes least)
 * and of wall time.  Generation per method and the booklet's layout and
 * replay run in this process (getrusage of ourselves); the whole runs of the
 * program — the default booklet per backend, PNG maps, batches, --size —
 * run as children, timed and measured by wait4(): CPU of the child and of
 * the workers it waited for, and peak RSS (the largest of them).
 *
 * Nothing here passes or fails on time: a busy machine makes any threshold
 * a coin toss.  It fails only when a run fails or a batch's files differ
 * between --jobs 1 and --jobs 2.  --smoke (make unit) runs every row once on
 * the smallest inputs, to see that the benchmark still works. */
#define _GNU_SOURCE   /* wait4 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/datadir.h"
#include "gen/super/megadungeon.h"
#include "pipeline/pipeline.h"
#include "key/stock.h"
#include "layout/booklet.h"
#include "output/pdf.h"
#include "output/pdfpack.h"
#include "render/cairo_device.h"
#include "render/display_list.h"
#include "render/fonts.h"
#include "render/haru_device.h"

/* --- measuring -------------------------------------------------------------- */

typedef struct {
    double cpu_ms, wall_ms;   /* one run */
    long rss_kib;             /* children: the peak of the largest process */
} sample;

static double tv_ms(struct timeval tv)
{
    return tv.tv_sec * 1000.0 + tv.tv_usec / 1000.0;
}

static double self_cpu_ms(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
}

static double wall_ms(void)
{
    return g_get_monotonic_time() / 1000.0;
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Minimum and median of @n values (sorted in place). */
static void min_median(double *v, int n, double *min, double *median)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    *min = v[0];
    *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct {
    double cpu_min, cpu_med, wall_min, wall_med;
    long rss_kib;   /* the largest over the repeats */
} summary;

/* Min and median of @n samples, each divided by @per (nodes, pages...). */
static summary summarise(const sample *s, int n, double per)
{
    summary r = { 0 };
    double *cpu = g_new(double, n), *wall = g_new(double, n);
    for (int i = 0; i < n; i++) {
        cpu[i] = s[i].cpu_ms / per;
        wall[i] = s[i].wall_ms / per;
        r.rss_kib = MAX(r.rss_kib, s[i].rss_kib);
    }
    min_median(cpu, n, &r.cpu_min, &r.cpu_med);
    min_median(wall, n, &r.wall_min, &r.wall_med);
    g_free(cpu);
    g_free(wall);
    return r;
}

/* --- the table ----------------------------------------------------------------- */

static void table_head(const char *title)
{
    printf("\n%-50s %9s %9s %9s %9s  unit\n", title, "CPU min", "median", "wall min", "median");
}

static void table_row(const char *what, const summary *s, const char *unit, const char *notes)
{
    printf("%-50s %9.2f %9.2f %9.2f %9.2f  ", what, s->cpu_min, s->cpu_med, s->wall_min, s->wall_med);
    if (notes && *notes)
        printf("%-8s %s\n", unit, notes);
    else
        printf("%s\n", unit);
    fflush(stdout);
}

/* --- children ------------------------------------------------------------------ */

static const char *bin_path;   /* the undercroft program */

/* Runs the program with @args (NULL-terminated, without argv[0]) in folder
 * @dir; its standard output and error go to @dir/.log.  FALSE (and the
 * log printed) if it fails. */
static gboolean run_child(const char *dir, const char *const *args, sample *out)
{
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)bin_path);
    for (int i = 0; args[i]; i++)
        g_ptr_array_add(argv, (gpointer)args[i]);
    g_ptr_array_add(argv, NULL);
    char *log = g_build_filename(dir, ".log", NULL);
    fflush(stdout);
    double w0 = wall_ms();
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || chdir(dir) != 0)
            _exit(127);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        execv(bin_path, (char *const *)argv->pdata);
        _exit(127);
    }
    int status = 0;
    struct rusage ru = { 0 };
    gboolean ok = pid > 0;
    while (ok && wait4(pid, &status, 0, &ru) < 0)
        ok = errno == EINTR;
    out->wall_ms = wall_ms() - w0;
    /* wait4 gives the child's usage with that of every child it waited for
     * (a batch's workers); ru_maxrss is the largest of them, in KiB. */
    out->cpu_ms = tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
    out->rss_kib = ru.ru_maxrss;
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
        char *cmd = g_strjoinv(" ", (char **)argv->pdata);
        char *text = NULL;
        g_file_get_contents(log, &text, NULL, NULL);
        fprintf(stderr, "bench: '%s' in %s failed (status %d):\n%s\n", cmd, dir, status, text ? text : "");
        g_free(text);
        g_free(cmd);
    }
    g_free(log);
    g_ptr_array_free(argv, TRUE);
    return ok;
}

/* A fresh empty folder under @tmp named @name (emptied if it was there). */
static char *fresh_dir(const char *tmp, const char *name)
{
    char *d = g_build_filename(tmp, name, NULL);
    GDir *dir = g_dir_open(d, 0, NULL);
    if (dir) {
        const char *f;
        while ((f = g_dir_read_name(dir))) {
            char *p = g_build_filename(d, f, NULL);
            g_unlink(p);
            g_free(p);
        }
        g_dir_close(dir);
    }
    g_mkdir_with_parents(d, 0755);
    return d;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Total size of the files of folder @d whose names end in @suffix, and how many. */
static long folder_size(const char *d, const char *suffix, int *count)
{
    long total = 0;
    *count = 0;
    GDir *dir = g_dir_open(d, 0, NULL);
    const char *f;
    while (dir && (f = g_dir_read_name(dir)))
        if (g_str_has_suffix(f, suffix)) {
            char *p = g_build_filename(d, f, NULL);
            total += file_size(p);
            (*count)++;
            g_free(p);
        }
    if (dir)
        g_dir_close(dir);
    return total;
}

/* Do folders @a and @b hold the same .pdf files, byte for byte? */
static gboolean same_files(const char *a, const char *b)
{
    gboolean same = TRUE;
    int n = 0;
    GDir *dir = g_dir_open(a, 0, NULL);
    const char *f;
    while (same && dir && (f = g_dir_read_name(dir))) {
        if (!g_str_has_suffix(f, ".pdf"))
            continue;
        char *pa = g_build_filename(a, f, NULL), *pb = g_build_filename(b, f, NULL);
        char *ta = NULL, *tb = NULL;
        gsize la = 0, lb = 0;
        same = g_file_get_contents(pa, &ta, &la, NULL) && g_file_get_contents(pb, &tb, &lb, NULL) && la == lb &&
               memcmp(ta, tb, la) == 0;
        n++;
        g_free(ta);
        g_free(tb);
        g_free(pa);
        g_free(pb);
    }
    if (dir)
        g_dir_close(dir);
    return same && n > 0;
}

/* --- the rows ------------------------------------------------------------------ */

typedef struct {
    int repeat, seeds, size_repeat, batch, batch_repeat;
    gboolean smoke;
    const char *whole;   /* --size of the booklet rows: 3x3, 1x1 for --smoke */
    char *sizes;
    const ucr_tables *tables;
    PangoFontMap *fonts;
    ucr_style *style;
    const char *tmp;
} bench;

/* Every method forced on every node of @b->seeds 3 x 3 dungeons (and the
 * default mix), generation only: ms per node. */
static void rows_generation(const bench *b)
{
    table_head("generation, 3 x 3, in this process");
    const ucr_node_method *const *methods = ucr_node_methods();
    for (int m = -1; m == -1 || methods[m]; m++) {
        const ucr_node_method *method = m < 0 ? NULL : methods[m];
        sample *s = g_new0(sample, b->repeat);
        int nodes = 0;
        for (int r = 0; r < b->repeat; r++) {
            double c0 = self_cpu_ms(), w0 = wall_ms();
            nodes = 0;
            for (int i = 0; i < b->seeds; i++) {
                char seed[32];
                g_snprintf(seed, sizeof seed, "bench-%d", i + 1);
                ucr_gen_options o = { seed, 3, 3, b->tables, method, { 0 } };
                ucr_megadungeon *md = ucr_pipeline_dungeon(&o, FALSE, NULL);
                if (!md) {
                    fprintf(stderr, "bench: seed %s, method %s: no dungeon\n", seed, method ? method->name : "mixed");
                    exit(1);
                }
                nodes += (int)md->nodes->len;
                ucr_megadungeon_free(md);
            }
            s[r].cpu_ms = self_cpu_ms() - c0;
            s[r].wall_ms = wall_ms() - w0;
        }
        summary sum = summarise(s, b->repeat, nodes);
        char *what = g_strdup_printf("  %-10s (%d dungeons, %d nodes)", method ? method->name : "mixed", b->seeds,
                                     nodes);
        table_row(what, &sum, "ms/node", method ? NULL : "each node's method rolled (the default)");
        g_free(what);
        g_free(s);
    }
}

/* The default booklet (seed goblin-king, 3 x 3) laid out once per paper,
 * then replayed onto each backend: where a booklet's time goes. */
static void rows_layout(const bench *b)
{
    table_head(b->smoke ? "booklet goblin-king 1 x 1, in this process" : "booklet goblin-king 3 x 3, in this process");
    int side = b->smoke ? 1 : 3;
    ucr_gen_options go = { "goblin-king", side, side, b->tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&go, FALSE, NULL);
    if (!md)
        exit(1);
    ucr_megadungeon_stock(md, b->tables, "goblin-king");
    static const char *const papers[] = { "a4", "a5" };
    for (gsize k = 0; k < (b->smoke ? 1 : G_N_ELEMENTS(papers)); k++) {
        ucr_page_template *pt = ucr_page_template_load(papers[k], ucr_datadir(), NULL);
        if (!pt)
            exit(1);
        ucr_booklet_options po = { .style = b->style, .page = pt };
        sample *s = g_new0(sample, b->repeat);
        ucr_booklet *pages = NULL;
        for (int r = 0; r < b->repeat; r++) {
            ucr_booklet_free(pages);
            double c0 = self_cpu_ms(), w0 = wall_ms();
            pages = ucr_booklet_new(md, &po, b->fonts, NULL);
            s[r].cpu_ms = self_cpu_ms() - c0;
            s[r].wall_ms = wall_ms() - w0;
            if (!pages)
                exit(1);
        }
        summary sum = summarise(s, b->repeat, 1);
        char *what = g_strdup_printf("  %s: layout, %d pages", papers[k], ucr_booklet_page_count(pages));
        table_row(what, &sum, "ms", NULL);
        g_free(what);
        double w, h;
        ucr_booklet_page(pages, 0, &w, &h, NULL, NULL);
        for (int backend = 0; backend < 2; backend++) {
            long size = 0;
            for (int r = 0; r < b->repeat; r++) {
                FILE *f = tmpfile();
                if (!f)
                    exit(1);
                double c0 = self_cpu_ms(), w0 = wall_ms();
                /* cairo's file packed as output/pdf.c packs it */
                ucr_pdfpack_spill *spill = backend == 0 ? ucr_pdfpack_begin() : NULL;
                if (backend == 0 && !spill) {
                    fprintf(stderr, "bench: no temporary file in %s\n", g_get_tmp_dir());
                    exit(1);
                }
                ucr_device *dev = backend == 0 ? ucr_cairo_device_new(UCR_CAIRO_PDF, ucr_pdfpack_stream(spill), w, h,
                                                                      72, b->fonts)
                                               : ucr_haru_device_new(f, b->fonts);
                gboolean read = ucr_booklet_replay(pages, dev, NULL);
                if (!ucr_device_close(dev, NULL) || !read
                    || (backend == 0 && !ucr_pdfpack_end(spill, f, NULL, NULL))) {
                    fprintf(stderr, "bench: the %s PDF failed\n", backend ? "haru" : "cairo");
                    exit(1);
                }
                ucr_device_free(dev);
                s[r].cpu_ms = self_cpu_ms() - c0;
                s[r].wall_ms = wall_ms() - w0;
                size = ftell(f);
                fclose(f);
            }
            sum = summarise(s, b->repeat, 1);
            char *notes = g_strdup_printf("%.0f KB", size / 1000.0);
            what = g_strdup_printf("  %s: replayed onto %s", papers[k], backend ? "haru" : "cairo, packed");
            table_row(what, &sum, "ms", notes);
            g_free(what);
            g_free(notes);
        }
        ucr_booklet_free(pages);
        ucr_page_template_free(pt);
        g_free(s);
    }
    ucr_megadungeon_free(md);
}

/* The pages of the PDF at @path, as pdfinfo counts them (cairo's page
 * objects sit in compressed object streams: output/pdfpack.c); 0 if it
 * cannot tell. */
static int pdf_pages(const char *path)
{
    const char *argv[] = { "pdfinfo", path, NULL };
    char *out = NULL;
    int status = 0, n = 0;
    if (g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &out, NULL, &status, NULL)) {
        const char *p = strstr(out, "\nPages:");
        if (p)
            n = atoi(p + 7);
    }
    g_free(out);
    return n;
}

/* Runs @args @n times in a fresh folder @name; exits if a run fails. */
static void run_repeated(const bench *b, const char *name, const char *const *args, int n, sample *s)
{
    for (int r = 0; r < n; r++) {
        char *d = fresh_dir(b->tmp, name);
        gboolean ok = run_child(d, args, &s[r]);
        g_free(d);
        if (!ok)
            exit(1);
    }
}

/* Whole runs of the program: the default booklet per backend, its PNG maps. */
static void rows_program(const bench *b)
{
    char *title = g_strdup_printf("undercroft --seed goblin-king --size %s, whole runs", b->whole);
    table_head(title);
    g_free(title);
    sample *s = g_new0(sample, b->repeat);
    double pdf_cpu = 0;
    static const char *const backends[] = { "cairo", "haru" };
    for (int k = 0; k < 2; k++) {
        const char *args[] = { "--seed", "goblin-king", "--size", b->whole, "--backend", backends[k],
                               "-o", "g.pdf", NULL };
        run_repeated(b, backends[k], args, b->repeat, s);
        char *dir = g_build_filename(b->tmp, backends[k], "g.pdf", NULL);
        long size = file_size(dir);
        int pages = MAX(pdf_pages(dir), 1);
        g_free(dir);
        summary sum = summarise(s, b->repeat, 1);
        if (k == 0)
            pdf_cpu = sum.cpu_med;
        char *notes = g_strdup_printf("%d pages, %.0f KB, %.1f KB/page, peak RSS %.1f MiB", pages, size / 1000.0,
                                      size / 1000.0 / pages, sum.rss_kib / 1024.0);
        char *what = g_strdup_printf("  booklet, A4, --backend %s", backends[k]);
        table_row(what, &sum, "ms", notes);
        g_free(what);
        g_free(notes);
    }
    const char *png[] = { "--seed", "goblin-king", "--size", b->whole, "-f", "png", "-o", "map.png", NULL };
    run_repeated(b, "png", png, b->repeat, s);
    char *dir = g_build_filename(b->tmp, "png", NULL);
    int maps;
    long size = folder_size(dir, ".png", &maps);
    g_free(dir);
    summary sum = summarise(s, b->repeat, 1);
    char *notes = g_strdup_printf("%d maps, %.0f KB; CPU %.2f x the cairo booklet's (median)", maps, size / 1000.0,
                                  sum.cpu_med / pdf_cpu);
    table_row("  PNG maps (-f png, 150 dpi)", &sum, "ms", notes);
    g_free(notes);
    g_free(s);
}

/* Mini-zines (issue #21): one pocket node on one sheet, and a batch of
 * them (100; 2 with --smoke), each a file.  The batch is the z-1 …
 * z-100, every one of which fits (make zine-rate: 99.9% of 1,000 mixed
 * seeds do; bench-57 is one that does not, and a batch with a refused seed
 * exits 65, which would stop the bench). */
static void rows_zines(const bench *b)
{
    table_head("mini-zine: --seed bench --size 1x1 --impose minizine");
    sample *s = g_new0(sample, MAX(b->repeat, b->batch_repeat));
    const char *one[] = { "--seed", "bench", "--size", "1x1", "--impose", "minizine", "-o", "z.pdf", NULL };
    run_repeated(b, "zine", one, b->repeat, s);
    summary sum = summarise(s, b->repeat, 1);
    char *path = g_build_filename(b->tmp, "zine", "z.pdf", NULL);
    char *notes = g_strdup_printf("one sheet, %.0f KB, peak RSS %.1f MiB", file_size(path) / 1000.0,
                                  sum.rss_kib / 1024.0);
    table_row("  one mini-zine", &sum, "ms", notes);
    g_free(notes);
    g_free(path);
    int n = b->smoke ? 2 : 100;
    char count[16];
    g_snprintf(count, sizeof count, "%d", n);
    const char *batch[] = { "--seed", "z", "--size", "1x1", "--impose", "minizine", "--count", count,
                            "-o", "{n}.pdf", NULL };
    run_repeated(b, "zines", batch, b->batch_repeat, s);
    sum = summarise(s, b->batch_repeat, n);
    char *dir = g_build_filename(b->tmp, "zines", NULL);
    int files;
    long size = folder_size(dir, ".pdf", &files);
    g_free(dir);
    notes = g_strdup_printf("%d files, %.0f KB in all, peak RSS %.1f MiB", files, size / 1000.0, sum.rss_kib / 1024.0);
    char *what = g_strdup_printf("  --seed z --count %d, per zine", n);
    table_row(what, &sum, "ms", notes);
    g_free(what);
    g_free(notes);
    g_free(s);
}

/* A batch of @b->batch booklets with --jobs 1 and 2. */
static void rows_batch(const bench *b)
{
    if (b->batch <= 0)
        return;
    table_head(b->smoke ? "batch: --seed bench --size 1x1 --count N -o {n}.pdf"
                        : "batch: --seed bench --count N -o {n}.pdf");
    char count[16];
    g_snprintf(count, sizeof count, "%d", b->batch);
    sample *s = g_new0(sample, b->batch_repeat);
    double wall[3] = { 0 };
    for (int jobs = 1; jobs <= 2; jobs++) {
        const char *args[] = { "--seed", "bench", "--size", b->whole, "--count", count,
                               "--jobs", jobs == 1 ? "1" : "2", "-o", "{n}.pdf", NULL };
        run_repeated(b, jobs == 1 ? "jobs1" : "jobs2", args, b->batch_repeat, s);
        summary sum = summarise(s, b->batch_repeat, b->batch);
        wall[jobs] = sum.wall_med;
        GString *notes = g_string_new(NULL);
        /* CPU over wall: the cores the batch got.  Below the jobs asked
         * for, the machine was busy and the speed-up says little. */
        g_string_printf(notes, "cores used %.2f, peak RSS %.1f MiB", sum.cpu_med / sum.wall_med, sum.rss_kib / 1024.0);
        if (jobs == 2) {
            char *a = g_build_filename(b->tmp, "jobs1", NULL), *c = g_build_filename(b->tmp, "jobs2", NULL);
            gboolean same = same_files(a, c);
            g_string_append_printf(notes, "; %.2f x faster (wall); files as --jobs 1's: %s", wall[1] / wall[2],
                                   same ? "yes" : "NO");
            g_free(a);
            g_free(c);
            if (!same) {
                fprintf(stderr, "bench: --jobs 2 wrote other files than --jobs 1\n");
                exit(1);
            }
        }
        char *what = g_strdup_printf("  %d booklets, --jobs %d", b->batch, jobs);
        table_row(what, &sum, "ms/file", notes->str);
        g_free(what);
        g_string_free(notes, TRUE);
    }
    g_free(s);
}

/* --size NxN booklets: time and peak memory per node, to see them stay flat. */
static void rows_sizes(const bench *b)
{
    table_head("booklet --seed bench --size NxN (A4, cairo)");
    gchar **sizes = g_strsplit(b->sizes, ",", -1);
    double first_ms = 0;
    long prev_rss = 0;
    int prev_nodes = 0;
    sample *s = g_new0(sample, b->size_repeat);
    for (int i = 0; sizes[i]; i++) {
        int side = atoi(sizes[i]);
        if (side < 1 || side > UCR_MAX_SIDE) {
            fprintf(stderr, "bench: --sizes: '%s' is not a side of 1-%d\n", sizes[i], UCR_MAX_SIDE);
            exit(64);
        }
        int nodes = side * side;
        char size[16];
        g_snprintf(size, sizeof size, "%dx%d", side, side);
        const char *args[] = { "--seed", "bench", "--size", size, "-o", "d.pdf", NULL };
        run_repeated(b, "size", args, b->size_repeat, s);
        summary sum = summarise(s, b->size_repeat, nodes);
        if (!first_ms)
            first_ms = sum.cpu_med;
        GString *notes = g_string_new(NULL);
        g_string_printf(notes, "x%.2f of %s; peak RSS %.1f MiB, %.0f KiB/node", sum.cpu_med / first_ms,
                        sizes[0], sum.rss_kib / 1024.0, (double)sum.rss_kib / nodes);
        /* What each node added since the smaller size: flat when memory
         * grows linearly (the fonts and libraries are in the first). */
        if (prev_nodes)
            g_string_append_printf(notes, ", +%.0f KiB/added node", (double)(sum.rss_kib - prev_rss) / (nodes - prev_nodes));
        char *what = g_strdup_printf("  --size %s (%d nodes)", size, nodes);
        table_row(what, &sum, "ms/node", notes->str);
        g_free(what);
        g_string_free(notes, TRUE);
        prev_rss = sum.rss_kib;
        prev_nodes = nodes;
    }
    g_free(s);
    g_strfreev(sizes);
}

static void remove_tree(const char *path)
{
    GDir *dir = g_dir_open(path, 0, NULL);
    const char *f;
    while (dir && (f = g_dir_read_name(dir))) {
        char *p = g_build_filename(path, f, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
            remove_tree(p);
        else
            g_unlink(p);
        g_free(p);
    }
    if (dir)
        g_dir_close(dir);
    g_rmdir(path);
}

static char *bench_tmp;

static void bench_cleanup(void)
{
    if (bench_tmp)
        remove_tree(bench_tmp);
    g_free(bench_tmp);
    bench_tmp = NULL;
}

int main(int argc, char **argv)
{
    bench b = { .repeat = 5, .seeds = 3, .size_repeat = 3, .batch = 20, .batch_repeat = 3 };
    char *sizes = NULL, *bin = NULL;
    gboolean smoke = FALSE;
    gboolean gen_only = FALSE;
    GOptionEntry entries[] = {
        { "repeat", 0, 0, G_OPTION_ARG_INT, &b.repeat, "Repeats of every row (default 5)", "N" },
        { "seeds", 0, 0, G_OPTION_ARG_INT, &b.seeds, "Generation: 3x3 dungeons per method and repeat (default 3)", "N" },
        { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes, "--size sides to run (default 2,3,4,6,8,10)", "LIST" },
        { "size-repeat", 0, 0, G_OPTION_ARG_INT, &b.size_repeat, "Repeats of each --size (default 3)", "N" },
        { "batch", 0, 0, G_OPTION_ARG_INT, &b.batch, "Booklets in each batch (default 20; 0: no batch)", "N" },
        { "batch-repeat", 0, 0, G_OPTION_ARG_INT, &b.batch_repeat, "Repeats of each batch (default 3)", "N" },
        { "bin", 0, 0, G_OPTION_ARG_FILENAME, &bin, "The undercroft program (default: ../undercroft beside this)", "PATH" },
        { "smoke", 0, 0, G_OPTION_ARG_NONE, &smoke, "Every row once, on the smallest inputs (does it run?)", NULL },
        { "generation-only", 0, 0, G_OPTION_ARG_NONE, &gen_only,
          "Only the generation rows (a minute: to compare two builds' generation)", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    GOptionContext *ctx = g_option_context_new("- what undercroft costs, in one table");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc > 1) {
        fprintf(stderr, "bench: %s\n", err ? err->message : "no arguments besides the options");
        return 64;
    }
    g_option_context_free(ctx);
    b.smoke = smoke;
    b.whole = smoke ? "1x1" : "3x3";
    if (smoke) {
        b.repeat = b.seeds = b.size_repeat = b.batch_repeat = 1;
        b.batch = 2;
        g_free(sizes);
        sizes = g_strdup("1");
    }
    if (b.repeat < 1 || b.seeds < 1 || b.size_repeat < 1 || b.batch_repeat < 1) {
        fprintf(stderr, "bench: repeats and seeds are 1 or more\n");
        return 64;
    }
    b.sizes = sizes ? sizes : g_strdup("2,3,4,6,8,10");
    if (!bin) {
        char *here = g_path_get_dirname(argv[0]);
        bin = g_build_filename(here, "..", "undercroft", NULL);
        g_free(here);
    }
    /* Absolute: the children run in folders of their own. */
    char *abs = g_canonicalize_filename(bin, NULL);
    g_free(bin);
    bin = abs;
    bin_path = bin;
    if (!g_file_test(bin_path, G_FILE_TEST_IS_EXECUTABLE)) {
        fprintf(stderr, "bench: no program at '%s' (make first, or give --bin)\n", bin_path);
        return 66;
    }
    char *tmp = g_dir_make_tmp("ucr-bench-XXXXXX", NULL);
    if (!tmp)
        return 73;
    b.tmp = tmp;
    bench_tmp = tmp;
    atexit(bench_cleanup);   /* a failed run exits: its folder goes too */

    double load[3] = { 0 };
    if (getloadavg(load, 3) < 0)
        load[0] = -1;
    printf("undercroft bench: CPU = user + sys; min and median over %d repeats (generation: %d dungeons each;\n"
           "--size: %d, batch: %d); %ld cores, load average %.2f at the start%s\n",
           b.repeat, b.seeds, b.size_repeat, b.batch_repeat, sysconf(_SC_NPROCESSORS_ONLN), load[0],
           smoke ? "; --smoke: the figures mean nothing" : "");
    double t0 = wall_ms();
    /* The children first, while this process is small: a child's peak RSS
     * counts the image it was forked from (Linux keeps the larger of the
     * forked copy and the program it then runs). */
    if (!gen_only) {
        rows_program(&b);
        rows_batch(&b);
        rows_zines(&b);
        rows_sizes(&b);
    }
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    ucr_tables *tables = ucr_pipeline_tables_load(dir, NULL, NULL);
    g_free(dir);
    char *fonts_dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    b.fonts = ucr_fonts_new(fonts_dir, NULL);
    g_free(fonts_dir);
    b.style = ucr_style_load(UCR_STYLE_DEFAULT, ucr_datadir(), NULL);
    if (!tables || !b.fonts || !b.style)
        return 66;
    b.tables = tables;
    rows_generation(&b);
    if (!gen_only)
        rows_layout(&b);
    if (getloadavg(load, 3) < 0)
        load[0] = -1;
    printf("\n%.0f s in all; load average %.2f at the end\n", (wall_ms() - t0) / 1000, load[0]);

    g_free(b.sizes);
    g_free(bin);
    g_object_unref(b.fonts);
    ucr_style_free(b.style);
    ucr_tables_free(tables);
    return 0;
}
