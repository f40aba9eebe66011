/* undercroft benchmark: how generation compares with rendering, and whether
 * memory grows with the number of dungeons made in one process.  Timing is
 * wall-clock and only printed (the two PDF backends: CPU time and file
 * size); nothing here is a pass/fail test. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "core/datadir.h"
#include "gen/megadungeon.h"
#include "key/describe.h"
#include "key/stock.h"
#include "layout/booklet.h"
#include "layout/map.h"
#include "output/pdf.h"
#include "model/json.h"
#include "pipeline/pipeline.h"
#include "render/cairo_device.h"
#include "render/display_list.h"
#include "render/fonts.h"
#include "render/haru_device.h"

static long rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
           + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Replays @list @n times onto the backend; prints CPU time per copy and
 * the size of the PDF. */
static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Replays booklet @b onto backend @name @runs times; prints the CPU time
 * (user + sys) of the fastest and the median run, and the PDF's size. */
static void bench_backend(const char *name, const char *paper, const ucr_booklet *b,
                          PangoFontMap *fonts, int runs)
{
    long size = 0;
    double *ms = g_new(double, runs);
    double w, h;
    ucr_booklet_page(b, 0, &w, &h, NULL, NULL);
    for (int i = 0; i < runs; i++) {
        FILE *f = tmpfile();
        if (!f)
            return;
        double t0 = cpu_seconds();
        ucr_device *dev = name[0] == 'c' ? ucr_cairo_device_new(UCR_CAIRO_PDF, f, w, h, 72, fonts)
                                         : ucr_haru_device_new(f, fonts);
        ucr_booklet_replay(b, dev);
        if (!ucr_device_close(dev, NULL))
            printf("%s: the PDF failed\n", name);
        ucr_device_free(dev);
        ms[i] = (cpu_seconds() - t0) * 1000;
        size = ftell(f);
        fclose(f);
    }
    qsort(ms, (size_t)runs, sizeof *ms, compare_doubles);
    printf("%-6s booklet replayed, %-6s : %8.2f ms CPU min, %8.2f median  %8.1f KiB  (%d runs)\n",
           paper, name, ms[0], ms[runs / 2], size / 1024.0, runs);
    g_free(ms);
}

static ucr_megadungeon *make(const ucr_tables *t, int i)
{
    char seed[32];
    g_snprintf(seed, sizeof seed, "bench-%d", i);
    ucr_gen_options o = { seed, 3, 3, t, NULL, { 0 } };
    return ucr_pipeline_dungeon(&o, FALSE, NULL);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    ucr_tables *t = ucr_pipeline_tables_load(dir, NULL, NULL);
    g_free(dir);
    if (!t)
        return 1;
    gint64 t0 = g_get_monotonic_time();
    long rss_tenth = 0;
    for (int i = 0; i < n; i++) {
        ucr_megadungeon *md = make(t, i);
        char *json = ucr_json_write(md);
        g_free(json);
        ucr_megadungeon_free(md);
        if (i == n / 10)
            rss_tenth = rss_kb();
    }
    double gen_ms = (g_get_monotonic_time() - t0) / 1000.0 / n;
    long rss_all = rss_kb();
    int pdfs = n / 50 > 0 ? n / 50 : 1;
    FILE *null = fopen("/dev/null", "wb");
    /* The style the program uses by default: templates/styles/ink.ini. */
    ucr_style *style = ucr_style_load(UCR_STYLE_DEFAULT, ucr_datadir(), NULL);
    if (!style)
        return 1;
    ucr_page_template *page = ucr_page_template_load(UCR_PAGE_DEFAULT, ucr_datadir(), NULL);
    if (!page)
        return 1;
    ucr_booklet_options bo = { .style = style, .page = page };
    t0 = g_get_monotonic_time();
    for (int i = 0; i < pdfs; i++) {
        ucr_megadungeon *md = make(t, i);
        char seed[32];
        g_snprintf(seed, sizeof seed, "bench-%d", i);
        ucr_megadungeon_stock(md, t, seed);
        ucr_pdf_write_booklet(md, &bo, UCR_BACKEND_CAIRO, NULL, null, NULL);
        ucr_megadungeon_free(md);
    }
    double pdf_ms = (g_get_monotonic_time() - t0) / 1000.0 / pdfs;
    fclose(null);
    /* The two PDF backends on the same pages. */
    char *fonts_dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(fonts_dir, NULL);
    g_free(fonts_dir);
    if (!fonts)
        return 1;
    printf("generate + JSON, 3x3 megadungeon : %8.2f ms  (%d dungeons)\n", gen_ms, n);
    printf("generate + PDF booklet           : %8.2f ms  (%d booklets)\n", pdf_ms, pdfs);
    printf("rendering / generation           : %8.1f x\n", pdf_ms / gen_ms);
    printf("peak RSS after %5d dungeons     : %8ld KiB\n", n / 10 + 1, rss_tenth);
    printf("peak RSS after %5d dungeons     : %8ld KiB  (should not grow with the count)\n", n, rss_all);
    printf("peak RSS after the booklets      : %8ld KiB\n", rss_kb());
    /* The README's booklet (seed goblin-king, 3 x 3) on two papers: laid
     * out once, then replayed onto each backend. */
    ucr_gen_options go = { "goblin-king", 3, 3, t, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&go, FALSE, NULL);
    if (!md)
        return 1;
    ucr_megadungeon_stock(md, t, "goblin-king");
    int runs = n >= 100 ? 7 : 1;
    static const char *const papers[] = { "a4", "a5" };
    for (gsize k = 0; k < G_N_ELEMENTS(papers); k++) {
        ucr_page_template *pt = ucr_page_template_load(papers[k], ucr_datadir(), NULL);
        if (!pt)
            return 1;
        ucr_booklet_options po = { .style = style, .page = pt };
        double l0 = cpu_seconds();
        ucr_booklet *pages = ucr_booklet_new(md, &po, fonts, NULL);
        if (!pages)
            return 1;
        printf("%-6s booklet laid out, %3d pages : %8.2f ms CPU\n", papers[k],
               ucr_booklet_page_count(pages), (cpu_seconds() - l0) * 1000);
        bench_backend("cairo", papers[k], pages, fonts, runs);
        bench_backend("haru", papers[k], pages, fonts, runs);
        ucr_booklet_free(pages);
        ucr_page_template_free(pt);
    }
    ucr_megadungeon_free(md);
    g_object_unref(fonts);
    ucr_style_free(style);
    ucr_page_template_free(page);
    ucr_tables_free(t);
    return 0;
}
