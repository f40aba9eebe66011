/* The libharu backend against the cairo one: the same display list (a real
 * dungeon's map sheet with its key links, a page of text in every font and
 * alignment, links, outline and document info) replayed onto both devices,
 * then the two PDFs compared with the tools a reader would use: qpdf,
 * pdffonts, pdftotext, pdfinfo, and pdftoppm for the pixels.
 *
 * UCR_HARU_KEEP=DIR keeps both PDFs (cairo.pdf, haru.pdf) and their 60 dpi
 * grey renderings in DIR, to look at them. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/datadir.h"
#include "core/error.h"
#include "core/outfile.h"
#include "gen/super/megadungeon.h"
#include "key/stock.h"
#include "layout/map.h"
#include "layout/style.h"
#include "pipeline/pipeline.h"
#include "render/cairo_device.h"
#include "render/display_list.h"
#include "render/fonts.h"
#include "render/haru_device.h"

#define SEED "goblin-king"

static ucr_tables *tables;
static PangoFontMap *fonts;
static char *dir;          /* where the PDFs go */
static gboolean keep;      /* UCR_HARU_KEEP: leave them there */

static void setup(void)
{
    tables = ucr_test_tables();
    fonts = ucr_test_fonts();
    GError *error = NULL;
    const char *k = g_getenv("UCR_HARU_KEEP");
    keep = k && *k;
    if (keep) {
        g_mkdir_with_parents(k, 0755);
        dir = g_strdup(k);
    } else {
        dir = g_dir_make_tmp("ucr-haru-XXXXXX", &error);
        ck_assert_msg(dir != NULL, "temp dir: %s", error ? error->message : "?");
    }
}

static void teardown(void)
{
    if (!keep) {
        GDir *gd = g_dir_open(dir, 0, NULL);
        const char *name;
        while (gd && (name = g_dir_read_name(gd))) {
            char *p = g_build_filename(dir, name, NULL);
            g_unlink(p);
            g_free(p);
        }
        if (gd)
            g_dir_close(gd);
        g_rmdir(dir);
    }
    g_free(dir);
    ucr_tables_free(tables);
    g_object_unref(fonts);
}

static char *path_in(const char *name)
{
    return g_build_filename(dir, name, NULL);
}

/* ---- the document ------------------------------------------------------- */

#define A4_W 595.28
#define A4_H 841.89

static const ucr_color black = { 0, 0, 0, 1 };

static void text(ucr_device *dev, const char *utf8, const char *family, double size, bool bold,
                 bool italic, double x, double y, double align, bool baseline)
{
    ucr_text t = { utf8, family, size, bold, x, y, align, italic, baseline, NULL };
    ucr_device_show_text(dev, &t, black);
}

/* Page 1: info, outline, text of every kind, links forward to the map and
 * the key.  Page 2: the map sheet of node A, its area numbers linking to
 * the key.  Page 3 (US Letter, so sizes differ): the key, one destination
 * per area, and a link back.  Returns the list; the caller frees it. */
static ucr_display_list *record_document(void)
{
    ucr_gen_options opt = { SEED, 3, 3, tables, NULL, { 0 } };
    GError *error = NULL;
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "%s", error ? error->message : "?");
    ucr_style *style = ucr_style_load(UCR_STYLE_DEFAULT, ucr_datadir(), &error);
    ck_assert_msg(style != NULL, "%s", error ? error->message : "?");
    const ucr_node *node = g_ptr_array_index(md->nodes, 0);

    ucr_display_list *list = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(list);
    ucr_device_set_info(dev, "title", "The Goblin King's Undercroft");
    ucr_device_set_info(dev, "author", "undercroft");
    ucr_device_set_info(dev, "subject", "seed goblin-king, 3 levels, café crème");
    ucr_device_set_info(dev, "keywords", "megadungeon, Jaquays");
    ucr_device_set_info(dev, "creator", "undercroft 0.1.0");
    ucr_device_set_info(dev, "date", "2017-04-07T00:00:00");
    ucr_device_outline(dev, 1, "Cover", "cover");
    ucr_device_outline(dev, 1, "Node A", "map");
    ucr_device_outline(dev, 2, "Map of A", "map");
    ucr_device_outline(dev, 2, "Key of A — café", "key");
    ucr_device_outline(dev, 1, "Nowhere", "no-such-dest");

    ucr_device_begin_page(dev, A4_W, A4_H);
    ucr_device_dest(dev, "cover", 0, 0);
    text(dev, "THE GOBLIN KING", UCR_FONT_HAND, 36, true, false, A4_W / 2, 120, 0.5, false);
    text(dev, "left aligned body text, baseline", UCR_FONT_TEXT, 10, false, false, 72, 200, 0, true);
    text(dev, "Bold right aligned", UCR_FONT_TEXT, 12, true, false, A4_W - 72, 230, 1, true);
    text(dev, "Italic centred", UCR_FONT_TEXT, 12, false, true, A4_W / 2, 260, 0.5, false);
    text(dev, "Über café — naïve → ≥ ½", UCR_FONT_TEXT, 11, false, false, 72, 290, 0, true);
    text(dev, "Humor Sans with a fallback arrow →", UCR_FONT_HAND, 14, false, false, 72, 320, 0,
         true);
    text(dev, "Kerning: AVA To Wa Yo", UCR_FONT_TEXT, 20, false, false, A4_W - 72, 360, 1, true);
    ucr_color half = { 0.8, 0.1, 0.1, 0.5 };
    ucr_path *p = ucr_path_new();
    ucr_path_rect(p, 72, 400, 200, 100);
    ucr_path_rect(p, 112, 420, 120, 60);
    ucr_device_fill_path(dev, p, true, half);
    ucr_path_free(p);
    p = ucr_path_new();
    ucr_path_circle(p, 400, 450, 50);
    ucr_stroke dashed = { 1.5, UCR_CAP_ROUND, UCR_JOIN_ROUND, 2, { 0, 4.5 } };
    ucr_device_stroke_path(dev, p, &dashed, black);
    ucr_device_clip_path(dev, p, false);
    ucr_path *band = ucr_path_new();
    ucr_path_rect(band, 300, 440, 200, 20);
    ucr_device_fill_path(dev, band, false, (ucr_color){ 0.2, 0.2, 0.6, 1 });
    ucr_path_free(band);
    ucr_device_pop_clip(dev);
    ucr_path_free(p);
    text(dev, "See the map", UCR_FONT_TEXT, 12, false, false, 72, 560, 0, true);
    ucr_device_link(dev, 72, 548, 80, 16, "map");
    text(dev, "and its key", UCR_FONT_TEXT, 12, false, false, 72, 590, 0, true);
    ucr_device_link(dev, 72, 578, 80, 16, "key");
    ucr_device_end_page(dev);

    /* The map, as the booklet lays one out: fitted into the page. */
    ucr_map_options mo = { .points_per_square = 18, .links = true };
    ucr_map_extent ext;
    ucr_display_list *map = ucr_map_record_with(md, node, style, fonts, &mo, &ext);
    ucr_matrix ctm = ucr_map_fit(&ext, 36, 36, A4_W - 72, A4_H - 72);
    ucr_device_begin_page(dev, A4_W, A4_H);
    ucr_device_dest(dev, "map", 0, 0);
    ucr_display_list_replay(map, dev, &ctm);
    ucr_device_end_page(dev);
    ucr_display_list_free(map);

    ucr_device_begin_page(dev, 612, 792);
    ucr_device_dest(dev, "key", 0, 0);
    text(dev, "Key", UCR_FONT_TEXT, 16, true, false, 72, 72, 0, true);
    for (guint i = 0; i < node->areas->len; i++) {
        const ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        double y = 100 + 14 * i;
        char *dest = ucr_map_key_dest(node->id, a->key);
        char *line = g_strdup_printf("%s-%d. Area number %d", node->id, a->key, a->key);
        ucr_device_dest(dev, dest, 72, y - 10);
        text(dev, line, UCR_FONT_TEXT, 10, false, false, 72, y, 0, true);
        g_free(line);
        g_free(dest);
    }
    text(dev, "back to the cover", UCR_FONT_TEXT, 10, false, true, 540, 740, 1, true);
    ucr_device_link(dev, 440, 728, 100, 16, "cover");
    ucr_device_end_page(dev);

    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    ucr_style_free(style);
    ucr_megadungeon_free(md);
    return list;
}

static int count_areas(void)
{
    ucr_gen_options opt = { SEED, 3, 3, tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, NULL);
    const ucr_node *node = g_ptr_array_index(md->nodes, 0);
    int n = (int)node->areas->len;
    ucr_megadungeon_free(md);
    return n;
}

/* ---- rendering ---------------------------------------------------------- */

static void write_haru(const ucr_display_list *list, const char *path)
{
    GError *error = NULL;
    ucr_device *dev = ucr_haru_device_new_for_path(path, fonts, &error);
    ck_assert_msg(dev != NULL, "%s", error ? error->message : "?");
    ucr_display_list_replay(list, dev, NULL);
    gboolean ok = ucr_device_close(dev, &error);
    ck_assert_msg(ok, "haru: %s", error ? error->message : "?");
    ucr_device_free(dev);
}

static void write_cairo(const ucr_display_list *list, const char *path)
{
    GError *error = NULL;
    ucr_outfile *out = ucr_outfile_open(path, &error);
    ck_assert_msg(out != NULL, "%s", error ? error->message : "?");
    ucr_device *dev = ucr_cairo_device_new(UCR_CAIRO_PDF, ucr_outfile_stream(out), A4_W, A4_H, 72,
                                           fonts);
    ucr_display_list_replay(list, dev, NULL);
    ck_assert(ucr_device_close(dev, &error));
    ucr_device_free(dev);
    ck_assert(ucr_outfile_commit(out, &error));
}

/* Both PDFs of the document, made once per test process. */
static char *haru_pdf, *cairo_pdf;

static void render_both(void)
{
    if (haru_pdf && g_file_test(haru_pdf, G_FILE_TEST_EXISTS))
        return;
    g_free(haru_pdf);
    g_free(cairo_pdf);
    ucr_display_list *list = record_document();
    haru_pdf = path_in("haru.pdf");
    cairo_pdf = path_in("cairo.pdf");
    write_haru(list, haru_pdf);
    write_cairo(list, cairo_pdf);
    ucr_display_list_free(list);
}

/* Runs @argv; returns its exit status, its output in @out (caller frees). */
static int run(const char *const *argv, char **out, char **err)
{
    int status = -1;
    GError *error = NULL;
    gboolean ok = g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out,
                               err, &status, &error);
    ck_assert_msg(ok, "%s: %s", argv[0], error ? error->message : "?");
    return g_spawn_check_wait_status(status, NULL) ? 0 : (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static char *tool(const char *const *argv)
{
    char *out = NULL, *err = NULL;
    int st = run(argv, &out, &err);
    ck_assert_msg(st == 0, "%s failed (%d): %s", argv[0], st, err);
    g_free(err);
    return out;
}

static char *squeeze(const char *s)
{
    GString *g = g_string_new(NULL);
    for (; *s; s++)
        if (!g_ascii_isspace(*s))
            g_string_append_c(g, *s);
    return g_string_free(g, FALSE);
}

/* ---- the tests ---------------------------------------------------------- */

START_TEST(test_qpdf_check)
{
    render_both();
    const char *argv[] = { "qpdf", "--check", haru_pdf, NULL };
    char *out = NULL, *err = NULL;
    int st = run(argv, &out, &err);
    ck_assert_msg(st == 0, "qpdf --check: %d\n%s%s", st, out, err);
    ck_assert_msg(strstr(out, "No syntax or stream encoding errors"), "%s", out);
    ck_assert_str_eq(err, "");
    g_free(out);
    g_free(err);
}
END_TEST

/* The font's name without its subset tag and style suffix:
 * "HPDFAB+DejaVuSans,Book" and "UIXUNA+DejaVuSans" are both "DejaVuSans". */
static char *font_base(const char *name)
{
    const char *plus = strchr(name, '+');
    const char *b = plus ? plus + 1 : name;
    return g_strndup(b, strcspn(b, ","));
}

/* Every font embedded, in both, and the same faces in both (cairo may
 * split one face into a WinAnsi and a CID subset: compared as sets). */
START_TEST(test_fonts_embedded)
{
    render_both();
    const char *files[] = { haru_pdf, cairo_pdf };
    GHashTable *faces[2];
    for (int f = 0; f < 2; f++) {
        faces[f] = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        const char *argv[] = { "pdffonts", files[f], NULL };
        char *out = tool(argv);
        char **lines = g_strsplit(out, "\n", -1);
        gboolean body = FALSE;
        for (char **l = lines; *l; l++) {
            if (g_str_has_prefix(*l, "-----")) {
                body = TRUE;
                continue;
            }
            if (!body || !**l)
                continue;
            /* name type... encoding emb sub uni object ID: emb is the 6th
             * field from the end. */
            char **f2 = g_strsplit_set(*l, " ", -1);
            GPtrArray *w = g_ptr_array_new();
            for (char **x = f2; *x; x++)
                if (**x)
                    g_ptr_array_add(w, *x);
            ck_assert_uint_ge(w->len, 7);
            ck_assert_msg(!strcmp(g_ptr_array_index(w, w->len - 5), "yes"),
                          "%s: font not embedded: %s", files[f], *l);
            /* The cairo PDF's hatching is drawn with Type 3 glyphs (see
             * cd_stamp): a font without a name, and no text. */
            if (strcmp(g_ptr_array_index(w, 0), "[none]") || strcmp(g_ptr_array_index(w, 1), "Type"))
                g_hash_table_add(faces[f], font_base(g_ptr_array_index(w, 0)));
            g_ptr_array_free(w, TRUE);
            g_strfreev(f2);
        }
        g_strfreev(lines);
        g_free(out);
    }
    const char *want[] = { "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "HumorSans" };
    for (gsize i = 0; i < G_N_ELEMENTS(want); i++)
        for (int f = 0; f < 2; f++)
            ck_assert_msg(g_hash_table_contains(faces[f], want[i]), "%s lacks %s", files[f],
                          want[i]);
    ck_assert_uint_eq(g_hash_table_size(faces[0]), G_N_ELEMENTS(want));
    ck_assert_uint_eq(g_hash_table_size(faces[1]), G_N_ELEMENTS(want));
    g_hash_table_destroy(faces[0]);
    g_hash_table_destroy(faces[1]);
}
END_TEST

START_TEST(test_same_text)
{
    render_both();
    const char *a1[] = { "pdftotext", haru_pdf, "-", NULL };
    const char *a2[] = { "pdftotext", cairo_pdf, "-", NULL };
    char *t1 = NULL, *err = NULL;
    ck_assert_int_eq(run(a1, &t1, &err), 0);
    /* Poppler reads haru's /ToUnicode maps without complaint (libharu's
     * own are broken: see render/haru_unicode.c). */
    ck_assert_msg(!*err, "pdftotext: %s", err);
    g_free(err);
    char *t2 = tool(a2);
    char *s1 = squeeze(t1), *s2 = squeeze(t2);
    ck_assert_msg(!strcmp(s1, s2), "haru:\n%s\ncairo:\n%s", t1, t2);
    ck_assert_msg(strstr(t1, "Über café — naïve → ≥ ½"), "%s", t1);
    ck_assert_msg(strstr(t1, "Kerning: AVA To Wa Yo"), "%s", t1);
    g_free(s1);
    g_free(s2);
    g_free(t1);
    g_free(t2);
}
END_TEST

/* The words of page @page of @pdf with their boxes, as pdftotext -bbox
 * gives them: "word xmin ymin xmax ymax" per line. */
static GPtrArray *word_boxes(const char *pdf, int page)
{
    char pg[16];
    g_snprintf(pg, sizeof pg, "%d", page);
    const char *argv[] = { "pdftotext", "-bbox", "-f", pg, "-l", pg, pdf, "-", NULL };
    char *out = tool(argv);
    GRegex *re = g_regex_new("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" "
                             "yMax=\"([0-9.]+)\">([^<]*)</word>", 0, 0, NULL);
    GMatchInfo *m;
    GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
    g_regex_match(re, out, 0, &m);
    while (g_match_info_matches(m)) {
        char *f[5];
        for (int i = 0; i < 5; i++)
            f[i] = g_match_info_fetch(m, i + 1);
        g_ptr_array_add(words, g_strdup_printf("%s %s %s %s %s", f[4], f[0], f[1], f[2], f[3]));
        for (int i = 0; i < 5; i++)
            g_free(f[i]);
        g_match_info_next(m, NULL);
    }
    g_match_info_free(m);
    g_regex_unref(re);
    g_free(out);
    return words;
}

/* Every word of the text page, the map and the key where cairo puts it,
 * within a fifth of a point and 1% of the line's height (haru follows
 * Pango's layout to 0.1% of an em; cairo itself strays from it by up to
 * about 0.1 pt along a line of 9 pt text, 0.2 pt at 36 pt). */
START_TEST(test_same_places)
{
    render_both();
    for (int page = 1; page <= 3; page++) {
        GPtrArray *h = word_boxes(haru_pdf, page), *c = word_boxes(cairo_pdf, page);
        ck_assert_uint_gt(h->len, 5);
        ck_assert_uint_eq(h->len, c->len);
        for (guint i = 0; i < h->len; i++) {
            char wh[256], wc[256];
            double a[4], b[4];
            ck_assert(sscanf(g_ptr_array_index(h, i), "%255s %lf %lf %lf %lf", wh, &a[0], &a[1], &a[2],
                             &a[3]) == 5);
            ck_assert(sscanf(g_ptr_array_index(c, i), "%255s %lf %lf %lf %lf", wc, &b[0], &b[1], &b[2],
                             &b[3]) == 5);
            ck_assert_str_eq(wh, wc);
            double tolerance = 0.2 + 0.01 * (b[3] - b[1]);   /* cairo's drift grows with size */
            for (int k = 0; k < 4; k++)
                ck_assert_msg(fabs(a[k] - b[k]) < tolerance, "page %d, '%s': haru %s, cairo %s", page,
                              wh, (char *)g_ptr_array_index(h, i), (char *)g_ptr_array_index(c, i));
        }
        g_ptr_array_free(h, TRUE);
        g_ptr_array_free(c, TRUE);
    }
}
END_TEST

START_TEST(test_pages_and_info)
{
    render_both();
    char *info[2];
    const char *files[] = { haru_pdf, cairo_pdf };
    for (int f = 0; f < 2; f++) {
        const char *argv[] = { "pdfinfo", "-f", "1", "-l", "9", files[f], NULL };
        info[f] = tool(argv);
    }
    ck_assert_msg(strstr(info[0], "Pages:           3"), "%s", info[0]);
    ck_assert_msg(strstr(info[0], "Page    1 size:  595.28 x 841.89 pts (A4)"), "%s", info[0]);
    ck_assert_msg(strstr(info[0], "Page    3 size:  612 x 792 pts (letter)"), "%s", info[0]);
    /* The lines both must agree on. */
    const char *keys[] = { "Pages:", "Page    1 size:", "Page    2 size:", "Page    3 size:",
                           "Title:", "Subject:", "Keywords:", "Author:", "Creator:" };
    for (gsize k = 0; k < G_N_ELEMENTS(keys); k++) {
        char *l[2];
        for (int f = 0; f < 2; f++) {
            const char *at = strstr(info[f], keys[k]);
            ck_assert_msg(at != NULL, "%s: no %s in\n%s", files[f], keys[k], info[f]);
            l[f] = g_strndup(at, strcspn(at, "\n"));
        }
        ck_assert_str_eq(l[0], l[1]);
        g_free(l[0]);
        g_free(l[1]);
    }
    ck_assert_msg(strstr(info[0], "Subject:         seed goblin-king, 3 levels, café crème"), "%s",
                  info[0]);
    ck_assert_msg(strstr(info[0], "CreationDate:    Fri Apr  7 00:00:00 2017"), "%s", info[0]);
    g_free(info[0]);
    g_free(info[1]);
}
END_TEST

/* Same list, same bytes; and no date or /ID from the clock. */
START_TEST(test_deterministic)
{
    render_both();
    ucr_display_list *list = record_document();
    char *again = path_in("haru-again.pdf");
    write_haru(list, again);
    ucr_display_list_free(list);
    char *a = NULL, *b = NULL;
    gsize na = 0, nb = 0;
    ck_assert(g_file_get_contents(haru_pdf, &a, &na, NULL));
    ck_assert(g_file_get_contents(again, &b, &nb, NULL));
    ck_assert_uint_eq(na, nb);
    ck_assert(memcmp(a, b, na) == 0);
    const char *argv[] = { "qpdf", "--show-object=trailer", haru_pdf, NULL };
    char *trailer = tool(argv);
    ck_assert_msg(!strstr(trailer, "/ID"), "%s", trailer);
    g_free(trailer);
    g_free(a);
    g_free(b);
    g_unlink(again);
    g_free(again);
}
END_TEST

/* The links and outline, read back by python3 from qpdf's JSON: every
 * link lands on the page its destination was made on. */
static const char *NAV_PY =
    "import json,sys\n"
    "j=json.load(sys.stdin)\n"
    "objs=j['qpdf'][1]\n"
    "def o(r): return objs['obj:'+r]['value'] if isinstance(r,str) and r.endswith(' R') else r\n"
    "pages=[p['object'] for p in j['pages']]\n"
    "names={}\n"
    "def tree(n):\n"
    "  n=o(n)\n"
    "  a=o(n.get('/Names',[]))\n"
    "  for k in range(0,len(a),2): names[a[k]]=a[k+1]\n"
    "  for kid in o(n.get('/Kids',[])): tree(kid)\n"
    "cat=o(objs['trailer']['value']['/Root'])\n"
    "if '/Names' in cat and '/Dests' in o(cat['/Names']): tree(o(cat['/Names'])['/Dests'])\n"
    "def page_of(d):\n"
    "  d=o(d)\n"
    "  if isinstance(d,str):\n"
    "    if d not in names: return None\n"
    "    d=o(names[d])\n"
    "  if isinstance(d,dict): d=o(d['/D'])\n"
    "  return pages.index(d[0])+1\n"
    "for i,p in enumerate(pages):\n"
    "  for a in o(o(p).get('/Annots',[])):\n"
    "    d=o(a)\n"
    "    if d.get('/Subtype')!='/Link': continue\n"
    "    print('link', i+1, page_of(d['/Dest'] if '/Dest' in d else d['/A']['/D']))\n"
    "def walk(l,depth):\n"
    "  for e in l:\n"
    "    print('outline', depth, e['title'], e['destpageposfrom1'])\n"
    "    walk(e['kids'],depth+1)\n"
    "walk(j['outlines'],1)\n";

static char *navigation(const char *pdf)
{
    const char *argv[] = { "sh", "-c", "qpdf --json=2 \"$1\" | python3 -c \"$2\"", "sh", pdf,
                           NAV_PY, NULL };
    return tool(argv);
}

START_TEST(test_links_and_outline)
{
    render_both();
    char *nav = navigation(haru_pdf);
    char *want_head = g_strdup_printf("link 1 2\nlink 1 3\n");
    ck_assert_msg(g_str_has_prefix(nav, want_head), "%s", nav);
    /* Every area number on the map links to its key line on page 3. */
    int map_links = 0;
    char **lines = g_strsplit(nav, "\n", -1);
    for (char **l = lines; *l; l++) {
        if (!strcmp(*l, "link 2 3"))
            map_links++;
        ck_assert_msg(!g_str_has_prefix(*l, "link 2 ") || !strcmp(*l, "link 2 3"), "%s", *l);
    }
    g_strfreev(lines);
    ck_assert_int_ge(map_links, count_areas() / 2);
    ck_assert_msg(strstr(nav, "link 3 1\n"), "%s", nav);
    ck_assert_msg(strstr(nav, "outline 1 Cover 1\noutline 1 Node A 2\noutline 2 Map of A 2\n"
                              "outline 2 Key of A — café 3\noutline 1 Nowhere None\n"),
                  "%s", nav);
    /* cairo's links go to the same pages; it also keeps links to names no
     * page defines (dead: "to F-9" of another node's key), which haru
     * leaves out, and drops outline entries without a destination. */
    char *cnav = navigation(cairo_pdf);
    GString *h = g_string_new(NULL), *c = g_string_new(NULL);
    char **hl = g_strsplit(nav, "\n", -1), **cl = g_strsplit(cnav, "\n", -1);
    for (char **l = hl; *l; l++)
        if (g_str_has_prefix(*l, "link "))
            g_string_append_printf(h, "%s\n", *l);
    for (char **l = cl; *l; l++)
        if (g_str_has_prefix(*l, "link ") && !g_str_has_suffix(*l, " None"))
            g_string_append_printf(c, "%s\n", *l);
    ck_assert_msg(!strcmp(h->str, c->str), "haru:\n%s\ncairo:\n%s", h->str, c->str);
    g_strfreev(hl);
    g_strfreev(cl);
    g_string_free(h, TRUE);
    g_string_free(c, TRUE);
    g_free(cnav);
    g_free(want_head);
    g_free(nav);
}
END_TEST

/* ---- pixels ---------------------------------------------------------------- */

/* A binary PGM (P5, maxval 255) as pdftoppm -gray writes it. */
typedef struct {
    int w, h;
    guchar *px;
} gray_image;

static gray_image read_pgm(const char *path)
{
    gray_image im = { 0, 0, NULL };
    char *data = NULL;
    gsize n = 0;
    ck_assert_msg(g_file_get_contents(path, &data, &n, NULL), "%s", path);
    int maxval = 0, off = 0;
    ck_assert(sscanf(data, "P5 %d %d %d%n", &im.w, &im.h, &maxval, &off) == 3);
    ck_assert_int_eq(maxval, 255);
    off++;   /* the one whitespace after maxval */
    ck_assert_uint_ge(n, (gsize)off + (gsize)im.w * (gsize)im.h);
    im.px = g_memdup2(data + off, (gsize)im.w * (gsize)im.h);
    g_free(data);
    return im;
}

/* Page @page of @pdf at 60 dpi in grey. */
static gray_image render_page(const char *pdf, const char *name, int page)
{
    char *root = path_in(name);
    char pg[16];
    g_snprintf(pg, sizeof pg, "%d", page);
    const char *argv[] = { "pdftoppm", "-r", "60", "-gray", "-f", pg, "-l", pg, "-singlefile",
                           pdf, root, NULL };
    g_free(tool(argv));
    char *pgm = g_strconcat(root, ".pgm", NULL);
    gray_image im = read_pgm(pgm);
    if (keep) {   /* a PNG to look at */
        const char *png[] = { "pdftoppm", "-r", "60", "-gray", "-png", "-f", pg, "-l", pg,
                              "-singlefile", pdf, root, NULL };
        g_free(tool(png));
    } else {
        g_unlink(pgm);
    }
    g_free(pgm);
    g_free(root);
    return im;
}

/* How far grey level @v lies outside the range of @im's 3 x 3 pixels
 * around (@x, @y): 0 when the other page has that shade within a pixel. */
static int outside_around(const gray_image *im, int x, int y, int v)
{
    int lo = 255, hi = 0;
    for (int j = MAX(0, y - 1); j <= MIN(im->h - 1, y + 1); j++)
        for (int i = MAX(0, x - 1); i <= MIN(im->w - 1, x + 1); i++) {
            int p = im->px[(long)j * im->w + i];
            lo = MIN(lo, p);
            hi = MAX(hi, p);
        }
    return v < lo ? lo - v : v > hi ? v - hi : 0;
}

/* Pages @first..@last of @a and @b look the same: the same size, ink in
 * the same places (mean difference under one grey level of 255, and under
 * 0.2% of the pixels off by more than a third of the range), where a pixel
 * differs by how far it lies outside the shades of the other page's pixels
 * around it, both ways.  A pixel of slack, because the same shapes do not
 * land on the same pixels: haru's paths sit on a 1/16 pt grid, which can
 * move an edge that Poppler snaps to the next pixel row, and the cairo PDF
 * draws the hatching as Type 3 glyphs, which Poppler places on whole
 * pixels; a label moved by a couple of points or lost hatching does not
 * pass.  Measured: the worst page (hatched) is at 0.51 and 0.03%. */
static void assert_same_pixels(const char *a_pdf, const char *b_pdf, const char *tag, int first,
                               int last)
{
    for (int page = first; page <= last; page++) {
        char n1[64], n2[64];
        g_snprintf(n1, sizeof n1, "%s-haru-%d", tag, page);
        g_snprintf(n2, sizeof n2, "%s-cairo-%d", tag, page);
        gray_image a = render_page(a_pdf, n1, page), b = render_page(b_pdf, n2, page);
        /* libharu keeps page sizes in floats: 471.6 pt becomes 471.60001,
         * which pdftoppm rounds up to one more pixel. */
        ck_assert_int_le(abs(a.w - b.w), 1);
        ck_assert_int_le(abs(a.h - b.h), 1);
        int w = MIN(a.w, b.w), h = MIN(a.h, b.h);
        long total = 0, far = 0, ink = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int pa = a.px[(long)y * a.w + x], pb = b.px[(long)y * b.w + x];
                int d = MAX(outside_around(&b, x, y, pa), outside_around(&a, x, y, pb));
                total += d;
                far += d > 85;
                ink += pb < 128;
            }
        double n = (double)w * h;
        ck_assert_msg(ink > n / 200, "%s page %d of the cairo PDF is nearly blank", tag, page);
        /* Glyph edges anti-alias a shade differently (cairo drifts from
         * Pango's positions by up to 0.1 pt, libharu does not); what must
         * not differ is ink against paper (the next check). */
        ck_assert_msg(total / n < 1.0, "%s page %d: mean difference %.2f", tag, page, total / n);
        ck_assert_msg(far / n < 0.002, "%s page %d: %.2f%% of pixels differ", tag, page,
                      100 * far / n);
        g_free(a.px);
        g_free(b.px);
    }
}

START_TEST(test_same_pixels)
{
    render_both();
    assert_same_pixels(haru_pdf, cairo_pdf, "doc", 1, 3);
}
END_TEST

/* Every node's map sheet (the SVG/PNG page) in every shipped style: the
 * same strokes, hatching, symbols and labels from both backends. */
START_TEST(test_every_style)
{
    static const char *styles[] = { "ink", "classic", "lowink" };
    const char *style_name = styles[_i];
    ucr_gen_options opt = { "haru-styles", 3, 3, tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, NULL);
    ck_assert_ptr_nonnull(md);
    ucr_style *style = ucr_style_load(style_name, ucr_datadir(), NULL);
    ck_assert_ptr_nonnull(style);
    ucr_display_list *all = ucr_display_list_new();
    ucr_device *rec = ucr_list_device_new(all);
    for (guint i = 0; i < md->nodes->len; i++) {
        double w, h;
        ucr_display_list *sheet = ucr_map_record_sheet(md, g_ptr_array_index(md->nodes, i), style,
                                                       fonts, &w, &h);
        ucr_display_list_replay(sheet, rec, NULL);
        ucr_display_list_free(sheet);
    }
    ck_assert(ucr_device_close(rec, NULL));
    ucr_device_free(rec);
    char *hp = g_strdup_printf("%s/%s-haru.pdf", dir, style_name);
    char *cp = g_strdup_printf("%s/%s-cairo.pdf", dir, style_name);
    write_haru(all, hp);
    write_cairo(all, cp);
    ucr_display_list_free(all);
    const char *check[] = { "qpdf", "--check", hp, NULL };
    g_free(tool(check));
    const char *a1[] = { "pdftotext", hp, "-", NULL };
    const char *a2[] = { "pdftotext", cp, "-", NULL };
    char *t1 = tool(a1), *t2 = tool(a2), *s1 = squeeze(t1), *s2 = squeeze(t2);
    ck_assert_msg(!strcmp(s1, s2), "%s: haru:\n%s\ncairo:\n%s", style_name, t1, t2);
    assert_same_pixels(hp, cp, style_name, 1, (int)md->nodes->len);
    g_free(s1);
    g_free(s2);
    g_free(t1);
    g_free(t2);
    g_free(hp);
    g_free(cp);
    ucr_style_free(style);
    ucr_megadungeon_free(md);
}
END_TEST

/* ---- failures ------------------------------------------------------------ */

static int files_in(const char *d)
{
    int n = 0;
    GDir *gd = g_dir_open(d, 0, NULL);
    ck_assert_ptr_nonnull(gd);
    while (g_dir_read_name(gd))
        n++;
    g_dir_close(gd);
    return n;
}

START_TEST(test_cannot_create)
{
    GError *error = NULL;
    char *path = g_build_filename(dir, "no-such-folder", "x.pdf", NULL);
    ucr_device *dev = ucr_haru_device_new_for_path(path, fonts, &error);
    ck_assert_ptr_null(dev);
    ck_assert_int_eq(error->code, UCR_ERROR_CANTCREAT);
    ck_assert_msg(strstr(error->message, path), "%s", error->message);
    g_error_free(error);
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
    g_free(path);
}
END_TEST

/* A stream that cannot take the bytes: 73, as the cairo device says. */
START_TEST(test_write_error)
{
    FILE *f = fopen("/dev/full", "wb");
    if (!f)
        return;
    ucr_device *dev = ucr_haru_device_new(f, fonts);
    ucr_device_begin_page(dev, 100, 100);
    text(dev, "x", UCR_FONT_TEXT, 10, false, false, 10, 10, 0, false);
    ucr_device_end_page(dev);
    GError *error = NULL;
    ck_assert(!ucr_device_close(dev, &error));
    ck_assert_int_eq(error->code, UCR_ERROR_CANTCREAT);
    g_error_free(error);
    ucr_device_free(dev);
    fclose(f);
}
END_TEST

/* A libharu error mid-document (a page 1 pt wide is below its 3 pt) is
 * kept, later calls are ignored, close says what failed (70), and no file
 * is left, temporary or not. */
START_TEST(test_libharu_error_leaves_no_file)
{
    char *sub = path_in("fail");
    g_mkdir(sub, 0755);
    char *path = g_build_filename(sub, "bad.pdf", NULL);
    GError *error = NULL;
    ucr_device *dev = ucr_haru_device_new_for_path(path, fonts, &error);
    ck_assert_ptr_nonnull(dev);
    ucr_device_begin_page(dev, 1, 100);
    text(dev, "never drawn", UCR_FONT_TEXT, 10, false, false, 10, 10, 0, false);
    ucr_device_end_page(dev);
    ucr_device_begin_page(dev, 100, 100);
    ucr_device_end_page(dev);
    ck_assert(!ucr_device_close(dev, &error));
    ck_assert_int_eq(error->code, UCR_ERROR_SOFTWARE);
    ck_assert_msg(strstr(error->message, "libharu error 0x") &&
                  strstr(error->message, "setting the page size"), "%s", error->message);
    g_error_free(error);
    ucr_device_free(dev);
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
    ck_assert_int_eq(files_in(sub), 0);

    /* Freed without a close: no file either. */
    dev = ucr_haru_device_new_for_path(path, fonts, &error);
    ucr_device_begin_page(dev, 100, 100);
    ucr_device_end_page(dev);
    ucr_device_free(dev);
    ck_assert_int_eq(files_in(sub), 0);
    g_rmdir(sub);
    g_free(path);
    g_free(sub);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("haru");
    TCase *tc = tcase_create("haru");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_qpdf_check);
    tcase_add_test(tc, test_fonts_embedded);
    tcase_add_test(tc, test_same_text);
    tcase_add_test(tc, test_same_places);
    tcase_add_test(tc, test_pages_and_info);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_links_and_outline);
    tcase_add_test(tc, test_same_pixels);
    tcase_add_loop_test(tc, test_every_style, 0, 3);
    tcase_add_test(tc, test_cannot_create);
    tcase_add_test(tc, test_write_error);
    tcase_add_test(tc, test_libharu_error_leaves_no_file);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
