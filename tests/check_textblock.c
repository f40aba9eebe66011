/* Text blocks (layout/textblock.c): the lines broken on text shaped once
 * must be the lines Pango breaks, for text the booklet seldom or never
 * has — words wider than the line, runs of spaces, empty paragraphs,
 * references at the ends of lines, several faces, CJK, every alignment and
 * widths from a sliver to a page — compared as drawn (a trace with every
 * run, link and line box) and as measured (height, width, line edges). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_run.h"
#include "fixture.h"
#include "layout/textblock.h"
#include "render/trace.h"

static PangoFontMap *fonts;

static void setup(void)
{
    fonts = ucr_test_fonts();
}

static void teardown(void)
{
    g_object_unref(fonts);
}

static gboolean every_ref(const char *id, int key, gpointer data)
{
    (void)id;
    (void)data;
    return key != 13;   /* one that is not a link, to be sure it stays text */
}

/* Everything a block says of itself, drawn and measured. */
static char *describe(const char *markup, const ucr_textblock_style *st)
{
    GError *error = NULL;
    ucr_textblock *tb = ucr_textblock_new(fonts, markup, st, &error);
    ck_assert_msg(tb != NULL, "%s: %s", markup, error ? error->message : "?");
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "lines %d height %.3f width %.3f\n", ucr_textblock_lines(tb),
                           ucr_textblock_height(tb), ucr_textblock_width(tb));
    for (int i = 0; i < ucr_textblock_lines(tb); i++)
        g_string_append_printf(out, "line %d %.3f .. %.3f\n", i, ucr_textblock_line_top(tb, i),
                               ucr_textblock_line_bottom(tb, i));
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_device_begin_page(dev, 600, 800);
    ucr_textblock_draw(tb, dev, 10, 20);
    ucr_device_end_page(dev);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    ucr_textblock_free(tb);
    return g_string_free(out, FALSE);
}

static const char *const TEXTS[] = {
    "A short line.",
    "The quick brown fox jumps over the lazy dog, again and again, until the dog gets up and "
    "leaves the fox to jump over nothing at all.",
    "Antidisestablishmentarianism-like-words-without-spaces-that-cannot-fit anywhere at all",
    "Spaces    between     words   and  at the end   ",
    "  Leading spaces, then words.",
    "First paragraph, long enough to wrap once or twice at the narrow widths.\n\nThird, after "
    "an empty one.\nFourth.\n",
    "\nStarts empty.",
    "Exits: N C-7 (door); E AB-12 (secret door); W C-13; S D-1, the stairs down to D-1 again",
    "<b>Room 7.</b> A <i>dusty</i> hall; <b>3 goblins</b> (HP 4, 5, 7) guard <span "
    "foreground=\"#808080\">a locked chest</span> of 120 gp.",
    "Zauberküche: Ölfässer, Äxte und Überraschungen — “quoted” – dashes… and façades.",
    "地下城の入口は北にあり、階段は二つの部屋をつなぐ。地下城の入口は北にあり、階段は二つの部屋をつなぐ。",
    "Tabs\tin\ttext and a very long line that goes on and on.",
    "x",
};

START_TEST(lines_as_pango_breaks_them)
{
    static const double widths[] = { 1, 24, 61.5, 100, 157.3, 250, 520 };
    static const double aligns[] = { 0, 0.5, 1 };
    int compared = 0;
    for (size_t t = 0; t < G_N_ELEMENTS(TEXTS); t++)
        for (size_t w = 0; w < G_N_ELEMENTS(widths); w++)
            for (size_t a = 0; a < G_N_ELEMENTS(aligns); a++) {
                ucr_textblock_style st = { .family = t % 2 ? "Humor Sans" : "DejaVu Sans",
                                           .size = 6 + (double)(t % 4) * 2.5,
                                           .width = widths[w],
                                           .align = aligns[a],
                                           .spacing = (double)(w % 3) * 0.7,
                                           .ref_ok = every_ref };
                char *mine = describe(TEXTS[t], &st);
                ucr_textblock_use_pango_breaking(TRUE);
                char *ref = describe(TEXTS[t], &st);
                ucr_textblock_use_pango_breaking(FALSE);
                ck_assert_msg(strcmp(mine, ref) == 0, "text %zu, width %g, align %g:\nhere:\n%s\nPango:\n%s",
                              t, widths[w], aligns[a], mine, ref);
                g_free(mine);
                g_free(ref);
                compared++;
            }
    ck_assert_int_eq(compared, (int)(G_N_ELEMENTS(TEXTS) * 7 * 3));
}
END_TEST

/* The references on a line become links over exactly their words, and a
 * reference is never broken at its dash, whatever the width. */
START_TEST(references_link_whole)
{
    ucr_textblock_style st = { .family = "DejaVu Sans", .size = 8, .ref_ok = every_ref };
    for (double w = 20; w < 200; w += 7) {
        st.width = w;
        char *d = describe(TEXTS[7], &st);
        ck_assert_msg(strstr(d, "\"C-\"") == NULL && strstr(d, "\"AB-\"") == NULL, "%s", d);
        int links = 0;
        for (const char *p = d; (p = strstr(p, "link ")); p++)
            links++;
        ck_assert_msg(links == 4, "width %g: %d links\n%s", w, links, d);   /* not C-13 */
        g_free(d);
    }
}
END_TEST

/* A word wider than the width breaks between its characters: no line is
 * wider than the width (a 400-letter word from a table stayed on one line,
 * across the column and off the page), and no letter is lost. */
START_TEST(a_long_word_breaks_inside)
{
    char *word = g_strnfill(400, 'w');
    char *text = g_strdup_printf("A room with %s in it, and <b>more</b> words.", word);
    for (double w = 30; w < 400; w += 61) {
        ucr_textblock_style st = { .family = "DejaVu Sans", .size = 9, .width = w, .ref_ok = every_ref };
        GError *error = NULL;
        ucr_textblock *tb = ucr_textblock_new(fonts, text, &st, &error);
        ck_assert_ptr_nonnull(tb);
        ck_assert_msg(ucr_textblock_width(tb) <= w + 0.01, "width %g: a line of %g", w, ucr_textblock_width(tb));
        ck_assert_int_gt(ucr_textblock_lines(tb), 400 * 5 / (int)w);
        ucr_textblock_free(tb);
        char *d = describe(text, &st);
        int letters = 0;
        for (const char *p = d; (p = strstr(p, "show_text \"")); p++)
            for (const char *q = p + 11; *q && *q != '"'; q++)
                letters += *q == 'w';
        ck_assert_int_eq(letters, 400 + 2);   /* "with", "words" */
        g_free(d);
    }
    g_free(text);
    g_free(word);
}
END_TEST

static Suite *textblock_suite(void)
{
    Suite *s = suite_create("textblock");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, lines_as_pango_breaks_them);
    tcase_add_test(tc, references_link_whole);
    tcase_add_test(tc, a_long_word_breaks_inside);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(textblock_suite());
}
