/* undercroft — tests of imposition: the saddle-stitch order for every page
 * count from 1 to 40 read back from the imposed sheets, turned pages, the
 * mini-zine's panels and what the shipped imposition files say. */
#include <check.h>

#include "check_run.h"
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "core/error.h"
#include "layout/impose.h"
#include "render/display_list.h"
#include "render/trace.h"

/* A page that says "page K" and links somewhere (links must not reach a
 * printer's sheet). */
static ucr_display_list *page_saying(int k, double w, double h)
{
    ucr_display_list *list = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(list);
    ucr_device_begin_page(dev, w, h);
    char text[32];
    g_snprintf(text, sizeof text, "page %d", k);
    ucr_text t = { .utf8 = text, .family = "DejaVu Sans", .size = 9, .x = 10, .y = 20, .baseline = true };
    ucr_device_show_text(dev, &t, (ucr_color){ 0, 0, 0, 1 });
    ucr_device_link(dev, 0, 0, 10, 10, "somewhere");
    ucr_device_end_page(dev);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    return list;
}

static char *trace_of(const ucr_display_list *list)
{
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_display_list_replay(list, dev, NULL);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    return g_string_free(out, FALSE);
}

/* The page numbers a sheet shows, in the order drawn (left, right). */
static void pages_on(const char *trace, int *got, int *n)
{
    *n = 0;
    for (const char *p = trace; (p = strstr(p, "show_text \"page ")); p++)
        got[(*n)++] = atoi(p + strlen("show_text \"page "));
}

START_TEST(test_saddle_order)
{
    ucr_imposition im = { .kind = UCR_IMPOSE_SADDLE };
    for (int n = 1; n <= 40; n++) {
        ucr_impose_page *pages = g_new(ucr_impose_page, n);
        for (int i = 0; i < n; i++)
            pages[i] = (ucr_impose_page){ page_saying(i + 1, 420, 595), 420, 595 };
        double w, h;
        GPtrArray *sheets = ucr_impose(&im, pages, n, 420, 595, 0, 0, &w, &h);
        int padded = (n + 3) / 4 * 4;
        ck_assert_int_eq((int)sheets->len, padded / 2);
        /* Two 420 × 595 pages fit A4 landscape, centred on it. */
        ck_assert(fabs(w - 297 * 72 / 25.4) < 1e-6 && fabs(h - 210 * 72 / 25.4) < 1e-6);
        int seen[44] = { 0 };
        for (int side = 0; side < (int)sheets->len; side++) {
            char *tr = trace_of(g_ptr_array_index(sheets, side));
            ck_assert_msg(!strstr(tr, "link"), "a link on a printer's sheet");
            int got[4], k;
            pages_on(tr, got, &k);
            /* Sheet s = side / 2; front [N−2s | 2s+1], back [2s+2 | N−2s−1]. */
            int s = side / 2;
            int left = side % 2 == 0 ? padded - 2 * s : 2 * s + 2;
            int right = side % 2 == 0 ? 2 * s + 1 : padded - 2 * s - 1;
            int want[2], m = 0;
            if (left <= n)
                want[m++] = left;
            if (right <= n)
                want[m++] = right;
            ck_assert_msg(k == m, "%d pages, side %d: %d pages drawn, %d wanted", n, side, k, m);
            for (int i = 0; i < m; i++) {
                ck_assert_msg(got[i] == want[i], "%d pages, side %d: page %d where %d belongs", n, side,
                              got[i], want[i]);
                seen[got[i]]++;
            }
            /* The left page is at x 0.94–420.94, the right at 420.94–840.94. */
            if (m == 2)
                ck_assert_msg(strstr(tr, "push_transform 1.00 0.00 0.00 1.00 420.94 0.14"), "no right-hand slot: %s", tr);
            g_free(tr);
        }
        for (int i = 1; i <= n; i++)
            ck_assert_msg(seen[i] == 1, "%d pages: page %d shown %d times", n, i, seen[i]);
        for (int i = 0; i < n; i++)
            ucr_display_list_free((ucr_display_list *)pages[i].list);
        g_free(pages);
        g_ptr_array_set_free_func(sheets, (GDestroyNotify)ucr_display_list_free);
        g_ptr_array_free(sheets, TRUE);
    }
}
END_TEST

/* A page laid out in landscape goes back into its portrait slot turned. */
START_TEST(test_saddle_turns_landscape_pages)
{
    ucr_imposition im = { .kind = UCR_IMPOSE_SADDLE };
    ucr_impose_page pages[4];
    for (int i = 0; i < 4; i++)
        pages[i] = (ucr_impose_page){ page_saying(i + 1, i == 1 ? 595 : 420, i == 1 ? 420 : 595),
                                      i == 1 ? 595 : 420, i == 1 ? 420 : 595 };
    double w, h;
    GPtrArray *sheets = ucr_impose(&im, pages, 4, 420, 595, 0, 0, &w, &h);
    char *back = trace_of(g_ptr_array_index(sheets, 1));   /* [2 | 3] */
    ck_assert_msg(strstr(back, "push_transform 0.00 -1.00 1.00 0.00 0.94 595.14"), "page 2 not turned: %s", back);
    g_free(back);
    for (int i = 0; i < 4; i++)
        ucr_display_list_free((ucr_display_list *)pages[i].list);
    g_ptr_array_set_free_func(sheets, (GDestroyNotify)ucr_display_list_free);
    g_ptr_array_free(sheets, TRUE);
}
END_TEST

/* Issue #21: sheets a printer takes as they are.  A5 pages on A4
 * landscape and digest on US Letter landscape, exactly, the pages centred;
 * a print shop's sheet grown for the marks, its trim area the two pages;
 * creep moves sheet k's pages k allowances toward the fold. */
START_TEST(test_saddle_sheets)
{
    const double mm = 72 / 25.4;
    ucr_imposition home = { .kind = UCR_IMPOSE_SADDLE };
    double sw, sh, x, y;
    ck_assert(!ucr_impose_saddle_sheet(&home, 148 * mm, 210 * mm, &sw, &sh, &x, &y));
    ck_assert(fabs(sw - 297 * mm) < 1e-6 && fabs(sh - 210 * mm) < 1e-6);
    ck_assert(fabs(x - 0.5 * mm) < 1e-6 && fabs(y) < 1e-6);
    ck_assert(!ucr_impose_saddle_sheet(&home, 139.7 * mm, 215.9 * mm, &sw, &sh, &x, &y));
    ck_assert(fabs(sw - 792) < 1e-3 && fabs(sh - 612) < 1e-3 && fabs(x) < 1e-3 && fabs(y) < 1e-3);
    ucr_imposition shop = { .kind = UCR_IMPOSE_SADDLE, .crop_marks = true, .bleed = 3 * mm };
    ck_assert(ucr_impose_saddle_sheet(&shop, 148 * mm, 210 * mm, &sw, &sh, &x, &y));
    ck_assert(fabs(x - 13 * mm) < 1e-6 && fabs(sw - 2 * x - 296 * mm) < 1e-6 && fabs(sh - 2 * y - 210 * mm) < 1e-6);

    ucr_imposition creep = { .kind = UCR_IMPOSE_SADDLE, .creep = 0.1 * mm };
    ucr_impose_page pages[12];
    for (int i = 0; i < 12; i++)
        pages[i] = (ucr_impose_page){ page_saying(i + 1, 420, 595), 420, 595 };
    double w, h;
    GPtrArray *sheets = ucr_impose(&creep, pages, 12, 420, 595, 0, 0, &w, &h);
    for (int side = 0; side < 6; side++) {
        char *tr = trace_of(g_ptr_array_index(sheets, side));
        double shift = 0.1 * mm * (side / 2);
        char left[80], right[80];
        g_snprintf(left, sizeof left, "push_transform 1.00 0.00 0.00 1.00 %.2f 0.14", 0.9449 + shift);
        g_snprintf(right, sizeof right, "push_transform 1.00 0.00 0.00 1.00 %.2f 0.14", 420.9449 - shift);
        ck_assert_msg(strstr(tr, left) && strstr(tr, right), "side %d: no %s | %s in %s", side, left, right, tr);
        g_free(tr);
    }
    for (int i = 0; i < 12; i++)
        ucr_display_list_free((ucr_display_list *)pages[i].list);
    g_ptr_array_set_free_func(sheets, (GDestroyNotify)ucr_display_list_free);
    g_ptr_array_free(sheets, TRUE);
}
END_TEST

/* Eight panels on one sheet: top row 5 4 3 2 upside down, bottom 6 7 8 1. */
START_TEST(test_minizine_panels)
{
    ucr_imposition im = { .kind = UCR_IMPOSE_MINIZINE, .guides = true };
    ucr_impose_page pages[8];
    for (int i = 0; i < 8; i++)
        pages[i] = (ucr_impose_page){ page_saying(i + 1, 210, 297), 210, 297 };
    double w, h;
    GPtrArray *sheets = ucr_impose(&im, pages, 8, 210, 297, 840, 594, &w, &h);
    ck_assert_int_eq((int)sheets->len, 1);
    char *tr = trace_of(g_ptr_array_index(sheets, 0));
    static const struct { int page; const char *transform; } want[8] = {
        { 5, "push_transform -1.00 0.00 0.00 -1.00 210.00 297.00" }, { 6, "push_transform 1.00 0.00 0.00 1.00 0.00 297.00" },
        { 4, "push_transform -1.00 0.00 0.00 -1.00 420.00 297.00" }, { 7, "push_transform 1.00 0.00 0.00 1.00 210.00 297.00" },
        { 3, "push_transform -1.00 0.00 0.00 -1.00 630.00 297.00" }, { 8, "push_transform 1.00 0.00 0.00 1.00 420.00 297.00" },
        { 2, "push_transform -1.00 0.00 0.00 -1.00 840.00 297.00" }, { 1, "push_transform 1.00 0.00 0.00 1.00 630.00 297.00" },
    };
    const char *at = tr;
    for (int i = 0; i < 8; i++) {
        const char *t = strstr(at, want[i].transform);
        ck_assert_msg(t, "panel of page %d: no %s after offset %ld", want[i].page, want[i].transform,
                      (long)(at - tr));
        char text[32];
        g_snprintf(text, sizeof text, "show_text \"page %d\"", want[i].page);
        const char *p = strstr(t, text);
        ck_assert_msg(p && p < strstr(t, "pop_transform"), "page %d not in its panel", want[i].page);
        at = p;
    }
    ck_assert_msg(strstr(tr, "cut"), "no cut mark");
    g_free(tr);
    for (int i = 0; i < 8; i++)
        ucr_display_list_free((ucr_display_list *)pages[i].list);
    g_ptr_array_set_free_func(sheets, (GDestroyNotify)ucr_display_list_free);
    g_ptr_array_free(sheets, TRUE);
}
END_TEST

/* A mini-zine holds eight pages, its map whole: more pages, or a map in
 * parts, is refused naming what works (never --node for a 1x1 dungeon). */
START_TEST(test_minizine_fit)
{
    GError *error = NULL;
    ck_assert(ucr_imposition_panels_fit(8, false, "z-1", "A", 1, &error));
    ck_assert(!ucr_imposition_panels_fit(9, false, "z-1", "A", 1, &error));
    ck_assert_int_eq(error->code, UCR_ERROR_USAGE);
    ck_assert_msg(strstr(error->message, "needs 9 pages") && strstr(error->message, "--impose saddle") &&
                      !strstr(error->message, "--node"), "%s", error->message);
    g_clear_error(&error);
    ck_assert(!ucr_imposition_panels_fit(6, true, "z-1", "A", 1, &error));
    ck_assert_msg(strstr(error->message, "map does not fit") && strstr(error->message, "whole") &&
                      !strstr(error->message, "--node"), "%s", error->message);
    g_clear_error(&error);
    ck_assert(!ucr_imposition_panels_fit(6, true, "gk", "C", 9, &error));
    ck_assert_msg(strstr(error->message, "--node ID"), "%s", error->message);
    g_clear_error(&error);
}
END_TEST

START_TEST(test_shipped_and_bad_files)
{
    GError *error = NULL;
    ucr_imposition *im = ucr_imposition_load("saddle-print", ucr_datadir(), &error);
    ck_assert_msg(im, "%s", error ? error->message : "?");
    ck_assert(im->kind == UCR_IMPOSE_SADDLE && im->crop_marks && im->bleed > 8 && im->bleed < 9);
    ucr_imposition_free(im);
    im = ucr_imposition_load("minizine", ucr_datadir(), &error);
    ck_assert_msg(im && im->kind == UCR_IMPOSE_MINIZINE && g_file_test(im->panel, G_FILE_TEST_IS_REGULAR),
                  "minizine: %s", error ? error->message : im ? im->panel : "?");
    ucr_imposition_free(im);
    ck_assert(!ucr_imposition_load("quarto", ucr_datadir(), &error));
    ck_assert_int_eq(error->code, UCR_ERROR_USAGE);
    ck_assert_msg(strstr(error->message, "minizine, saddle, saddle-print") && !strstr(error->message, "panel"),
                  "%s", error->message);
    g_clear_error(&error);
    char *dir = g_dir_make_tmp("ucr-impose-XXXXXX", NULL);
    char *path = g_build_filename(dir, "mine.ini", NULL);
    ck_assert(g_file_set_contents(path, "[impose]\nkind = saddle\n\nbleed = nan\n", -1, NULL));
    ck_assert(!ucr_imposition_load(path, ucr_datadir(), &error));
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    ck_assert_msg(strstr(error->message, "mine.ini:4: bleed = nan"), "%s", error->message);
    g_clear_error(&error);
    ck_assert(g_file_set_contents(path, "[impose]\nkind = quire\n", -1, NULL));
    ck_assert(!ucr_imposition_load(path, ucr_datadir(), &error));
    ck_assert_msg(strstr(error->message, "mine.ini:2: kind = quire: use saddle or minizine"), "%s", error->message);
    g_clear_error(&error);
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("impose");
    TCase *tc = tcase_create("sheets");
    tcase_add_test(tc, test_saddle_order);
    tcase_add_test(tc, test_saddle_turns_landscape_pages);
    tcase_add_test(tc, test_minizine_panels);
    tcase_add_test(tc, test_minizine_fit);
    tcase_add_test(tc, test_saddle_sheets);
    tcase_add_test(tc, test_shipped_and_bad_files);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
