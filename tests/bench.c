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
#include "layout/booklet.h"
#include "layout/map.h"
#include "model/json.h"
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

#define A4_W 595.28
#define A4_H 841.89

/* A booklet's worth of pages as one display list, for timing the two PDF
 * backends on the same calls: per node, its map fitted to an A4 page (with
 * its key links) and its key entries as lines of 9 pt text, 70 to a page,
 * each entry a destination. */
static ucr_display_list *record_booklet_pages(const ucr_megadungeon *md, const ucr_style *style,
                                              PangoFontMap *fonts)
{
    ucr_display_list *list = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(list);
    ucr_device_set_info(dev, "title", "bench");
    ucr_device_set_info(dev, "date", "2017-04-07T00:00:00");
    const ucr_color ink = { 0, 0, 0, 1 };
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        char *map_dest = g_strdup_printf("map-%s", n->id);
        ucr_device_outline(dev, 1, n->id, map_dest);
        ucr_map_options mo = { .points_per_square = 18, .links = true };
        ucr_map_extent ext;
        ucr_display_list *map = ucr_map_record_with(md, n, style, fonts, &mo, &ext);
        ucr_matrix ctm = ucr_map_fit(&ext, 36, 36, A4_W - 72, A4_H - 72);
        ucr_device_begin_page(dev, A4_W, A4_H);
        ucr_device_dest(dev, map_dest, 0, 0);
        ucr_display_list_replay(map, dev, &ctm);
        ucr_device_end_page(dev);
        ucr_display_list_free(map);
        g_free(map_dest);
        int line = 70;
        for (guint a = 0; a < n->areas->len; a++) {
            char *markup = ucr_key_area_markup(md, n, (int)a), *plain = NULL;
            if (!pango_parse_markup(markup, -1, 0, NULL, &plain, NULL, NULL))
                plain = g_strdup(markup);
            char **words = g_strsplit_set(plain, " \n", -1);
            GString *l = g_string_new(NULL);
            char *dest = ucr_map_key_dest(n->id, g_array_index(n->areas, ucr_area, a).key);
            gboolean first = TRUE;
            for (char **w = words;; w++) {
                if (*w && l->len + strlen(*w) < 95) {
                    g_string_append_printf(l, "%s%s", l->len ? " " : "", *w);
                    continue;
                }
                if (line == 70) {
                    if (a > 0)
                        ucr_device_end_page(dev);
                    ucr_device_begin_page(dev, A4_W, A4_H);
                    line = 0;
                }
                double y = 60 + 11 * line++;
                if (first)
                    ucr_device_dest(dev, dest, 36, y - 9);
                first = FALSE;
                ucr_text t = { l->str, UCR_FONT_TEXT, 9, false, 36, y, 0, false, true };
                ucr_device_show_text(dev, &t, ink);
                g_string_truncate(l, 0);
                if (!*w)
                    break;
                g_string_append(l, *w);
            }
            g_free(dest);
            g_string_free(l, TRUE);
            g_strfreev(words);
            g_free(plain);
            g_free(markup);
        }
        if (n->areas->len > 0)
            ucr_device_end_page(dev);
    }
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    return list;
}

/* Replays @list @n times onto the backend; prints CPU time per copy and
 * the size of the PDF. */
static void bench_backend(const char *name, const ucr_display_list *list, PangoFontMap *fonts,
                          int n)
{
    long size = 0;
    double t0 = cpu_seconds();
    for (int i = 0; i < n; i++) {
        FILE *f = tmpfile();
        if (!f)
            return;
        ucr_device *dev = name[0] == 'c'
            ? ucr_cairo_device_new(UCR_CAIRO_PDF, f, A4_W, A4_H, 72, fonts)
            : ucr_haru_device_new(f, fonts);
        ucr_display_list_replay(list, dev, NULL);
        if (!ucr_device_close(dev, NULL))
            printf("%s: the PDF failed\n", name);
        ucr_device_free(dev);
        size = ftell(f);
        fclose(f);
    }
    double ms = (cpu_seconds() - t0) * 1000 / n;
    printf("replay booklet pages, %-6s     : %8.2f ms CPU  %8.1f KiB  (%d copies)\n", name, ms,
           size / 1024.0, n);
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
    ucr_booklet_options bo = { ucr_datadir(), style };
    t0 = g_get_monotonic_time();
    for (int i = 0; i < pdfs; i++) {
        ucr_megadungeon *md = make(t, i);
        ucr_booklet_write_pdf(md, &bo, null, NULL);
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
    ucr_megadungeon *md = make(t, 0);
    ucr_display_list *pages = record_booklet_pages(md, style, fonts);
    ucr_megadungeon_free(md);
    int copies = n / 100 > 0 ? n / 100 : 1;

    printf("generate + JSON, 3x3 megadungeon : %8.2f ms  (%d dungeons)\n", gen_ms, n);
    printf("generate + PDF booklet           : %8.2f ms  (%d booklets)\n", pdf_ms, pdfs);
    printf("rendering / generation           : %8.1f x\n", pdf_ms / gen_ms);
    printf("peak RSS after %5d dungeons     : %8ld KiB\n", n / 10 + 1, rss_tenth);
    printf("peak RSS after %5d dungeons     : %8ld KiB  (should not grow with the count)\n", n, rss_all);
    printf("peak RSS after the booklets      : %8ld KiB\n", rss_kb());
    bench_backend("cairo", pages, fonts, copies);
    bench_backend("haru", pages, fonts, copies);
    ucr_display_list_free(pages);
    g_object_unref(fonts);
    ucr_style_free(style);
    ucr_tables_free(t);
    return 0;
}
