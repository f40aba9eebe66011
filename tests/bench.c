/* undercroft benchmark: how generation compares with rendering, and whether
 * memory grows with the number of dungeons made in one process.  Timing is
 * wall-clock and only printed; nothing here is a pass/fail test. */
#include <stdio.h>
#include <sys/resource.h>

#include "core/datadir.h"
#include "gen/megadungeon.h"
#include "layout/booklet.h"
#include "model/json.h"

static long rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static ucr_megadungeon *make(const ucr_tables *t, int i)
{
    char seed[32];
    g_snprintf(seed, sizeof seed, "bench-%d", i);
    ucr_gen_options o = { seed, 3, 3, t, NULL, { 0 } };
    return ucr_megadungeon_generate(&o, NULL);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    ucr_tables *t = ucr_tables_load(dir, NULL);
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
    ucr_booklet_options bo = { .datadir = ucr_datadir(), .style = style };
    t0 = g_get_monotonic_time();
    for (int i = 0; i < pdfs; i++) {
        ucr_megadungeon *md = make(t, i);
        ucr_booklet_write_pdf(md, &bo, null, NULL);
        ucr_megadungeon_free(md);
    }
    double pdf_ms = (g_get_monotonic_time() - t0) / 1000.0 / pdfs;
    fclose(null);
    printf("generate + JSON, 3x3 megadungeon : %8.2f ms  (%d dungeons)\n", gen_ms, n);
    printf("generate + PDF booklet           : %8.2f ms  (%d booklets)\n", pdf_ms, pdfs);
    printf("rendering / generation           : %8.1f x\n", pdf_ms / gen_ms);
    printf("peak RSS after %5d dungeons     : %8ld KiB\n", n / 10 + 1, rss_tenth);
    printf("peak RSS after %5d dungeons     : %8ld KiB  (should not grow with the count)\n", n, rss_all);
    printf("peak RSS after the booklets      : %8ld KiB\n", rss_kb());
    ucr_style_free(style);
    ucr_tables_free(t);
    return 0;
}
