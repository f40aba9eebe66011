/* The PDF packing pass (output/pdfpack.c): a small PDF written by hand and
 * one written by cairo go in; what comes out must pass qpdf --check, read
 * the same in poppler (text) and qpdf (links, destinations, the Info
 * strings), have its objects in object streams, and be the same bytes each
 * time.  Files the pass does not know come out unchanged. */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <hpdf.h>

#include "check_run.h"
#include "output/pdfpack.h"

static char *tmp;

static void tmp_setup(void)
{
    tmp = g_dir_make_tmp("ucr-pdfpack-XXXXXX", NULL);
    ck_assert_ptr_nonnull(tmp);
}

static void tmp_teardown(void)
{
    GDir *d = g_dir_open(tmp, 0, NULL);
    const char *f;
    while (d && (f = g_dir_read_name(d))) {
        char *p = g_build_filename(tmp, f, NULL);
        g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(tmp);
    g_free(tmp);
}

/* A classic PDF of the objects @objs[0..n) (numbered from 1), with its
 * xref table computed; @gen is written as the generation of object 2 and
 * @trailer_extra goes into the trailer. */
static GString *pdf_build(const char *const *objs, int n, int gen, const char *trailer_extra)
{
    GString *pdf = g_string_new("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
    long *off = g_new(long, n);
    for (int i = 0; i < n; i++) {
        off[i] = (long)pdf->len;
        g_string_append_printf(pdf, "%d 0 obj\n%s\nendobj\n", i + 1, objs[i]);
    }
    long xref = (long)pdf->len;
    g_string_append_printf(pdf, "xref\n0 %d\n0000000000 65535 f \n", n + 1);
    for (int i = 0; i < n; i++)
        g_string_append_printf(pdf, "%010ld %05d n \n", off[i], i == 1 ? gen : 0);
    g_string_append_printf(pdf, "trailer\n<< /Size %d /Root 1 0 R /Info 9 0 R %s>>\nstartxref\n%ld\n%%%%EOF\n",
                           n + 1, trailer_extra, xref);
    g_free(off);
    return pdf;
}

#define CONTENT "BT /F1 12 Tf 20 150 Td (Room A-1 endobj) Tj ET"

/* A page with text, a link with /QuadPoints to a named destination, an
 * indirect /Length, and strings and a comment that a careless scanner would
 * take for the end of an object. */
static const char *const hand_objects[] = {
    "<< /Type /Catalog /Pages 2 0 R /Names << /Dests 7 0 R >> >>",
    "<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>",
    "<< /Type /Page % a comment: endobj\n /Parent 2 0 R /MediaBox [ 0 0 200 200 ] /Contents 4 0 R"
    " /Resources << /Font << /F1 5 0 R >> >> /Annots [ 6 0 R ] >>",
    "<< /Length 8 0 R >>\nstream\n" CONTENT "\nendstream",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Annot /Subtype /Link /QuadPoints [ 20 160 80 160 80 140 20 140 ]"
    " /Rect [ 20 140 80 160 ] /Dest (key-A-1) /BS << /W 0 >> >>",
    "<< /Names [ (key-A-1) [ 3 0 R /XYZ 0 200 0 ] ] >>",
    "46",
    "<< /Title (endobj \\(stream 1 0 R) /Subject <656e646f626a> >>",
};

static GString *hand_pdf(void)
{
    return pdf_build(hand_objects, G_N_ELEMENTS(hand_objects), 0, "");
}

/* Runs the pass on @in; the output in *@out (caller frees). */
static gboolean pack(const GString *in, GString **out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    gboolean packed = ucr_pdfpack_write((const guint8 *)in->str, in->len, f);
    ck_assert_int_eq(fclose(f), 0);
    *out = g_string_new_len(buf, (gssize)len);
    free(buf);
    return packed;
}

/* TRUE if the bytes of @hay (binary: deflated streams hold NULs) contain
 * @needle. */
static gboolean contains(const GString *hay, const char *needle)
{
    gsize n = strlen(needle);
    for (gsize i = 0; i + n <= hay->len; i++)
        if (!memcmp(hay->str + i, needle, n))
            return TRUE;
    return FALSE;
}

static char *save(const char *name, const GString *data)
{
    char *path = g_build_filename(tmp, name, NULL);
    ck_assert(g_file_set_contents(path, data->str, (gssize)data->len, NULL));
    return path;
}

/* Runs @argv; its standard output (caller frees), failing the test unless
 * it exits 0 with nothing on standard error. */
static char *tool(const char *const *argv)
{
    char *out = NULL, *err = NULL;
    int status = -1;
    GError *error = NULL;
    ck_assert_msg(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                               &status, &error),
                  "%s: %s", argv[0], error ? error->message : "?");
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "%s %s failed:\n%s%s", argv[0], argv[1], out, err);
    ck_assert_msg(!*err, "%s %s said:\n%s", argv[0], argv[1], err);
    g_free(err);
    return out;
}

static void assert_qpdf_clean(const char *path)
{
    const char *argv[] = { "qpdf", "--check", path, NULL };
    char *out = tool(argv);
    ck_assert_msg(strstr(out, "No syntax or stream encoding errors"), "%s", out);
    g_free(out);
}

static char *text_of(const char *path)
{
    const char *argv[] = { "pdftotext", path, "-", NULL };
    return tool(argv);
}

static char *links_of(const char *path)
{
    char *script = g_build_filename(UCR_SOURCE_DATADIR, "tests", "pdf_links.py", NULL);
    const char *argv[] = { "python3", script, path, NULL };
    char *out = tool(argv);
    g_free(script);
    return out;
}

static char *object_of(const char *path, const char *num)
{
    char *opt = g_strdup_printf("--show-object=%s", num);
    const char *argv[] = { "qpdf", opt, path, NULL };
    char *out = tool(argv);
    g_free(opt);
    return out;
}

/* ---- the tests ------------------------------------------------------------ */

/* Packs @in and checks what every packed file must be: qpdf finds nothing
 * wrong, and poppler reads the same text (holding @text) and qpdf the same
 * links (@links exactly) as before.  Returns the packed file's path (in
 * tmp, as NAME-packed.pdf; g_free it) and, in *@out, its bytes. */
static char *packed_reads_the_same(const GString *in, const char *name, const char *text,
                                   const char *links, GString **out)
{
    ck_assert(pack(in, out));
    char *in_name = g_strdup_printf("%s.pdf", name), *out_name = g_strdup_printf("%s-packed.pdf", name);
    char *before = save(in_name, in), *after = save(out_name, *out);
    g_free(in_name);
    g_free(out_name);
    assert_qpdf_clean(before);   /* the test's own file is sound */
    assert_qpdf_clean(after);
    char *t0 = text_of(before), *t1 = text_of(after);
    ck_assert_msg(strstr(t1, text), "no \"%s\" in %s", text, t1);
    ck_assert_str_eq(t0, t1);
    char *l0 = links_of(before), *l1 = links_of(after);
    ck_assert_str_eq(l1, links);
    ck_assert_str_eq(l0, l1);
    g_free(l0);
    g_free(l1);
    g_free(t0);
    g_free(t1);
    g_free(before);
    return after;
}

START_TEST(a_hand_made_pdf_is_packed_and_reads_the_same)
{
    GString *in = hand_pdf(), *out;
    char *after = packed_reads_the_same(in, "hand", "Room A-1 endobj", "link 1 -> 1 key-A-1\n", &out);
    ck_assert(g_str_has_prefix(out->str, "%PDF-1.5\n"));

    /* The strings that look like keywords survive. */
    char *info = object_of(after, "9");
    ck_assert_msg(strstr(info, "/Title (endobj \\(stream 1 0 R)") && strstr(info, "/Subject (endobj)"),
                  "%s", info);
    /* The link keeps its area and target, without the quadrilateral. */
    char *link = object_of(after, "6");
    ck_assert_msg(!strstr(link, "QuadPoints") && strstr(link, "/Rect [ 20 140 80 160 ]")
                      && strstr(link, "/Dest (key-A-1)"),
                  "%s", link);

    /* Every object but the content stream is in an object stream, and the
     * table is gone: a cross-reference stream instead. */
    const char *argv[] = { "qpdf", "--show-xref", after, NULL };
    char *xref = tool(argv);
    for (int i = 1; i <= 9; i++) {
        char *line = g_strdup_printf("\n%d/0: %s", i, i == 4 ? "uncompressed" : "compressed; stream = 10,");
        char *with_nl = g_strdup_printf("\n%s", xref);
        ck_assert_msg(strstr(with_nl, line), "object %d:\n%s", i, xref);
        g_free(with_nl);
        g_free(line);
    }
    ck_assert(!contains(out, "\nxref\n") && !contains(out, "trailer"));
    ck_assert(contains(out, "/Type/XRef"));
    ck_assert(contains(out, "stream\n" CONTENT "\nendstream"));   /* copied as it was */

    /* The same bytes every time. */
    GString *again;
    ck_assert(pack(in, &again));
    ck_assert(g_string_equal(out, again));

    g_string_free(again, TRUE);
    g_free(xref);
    g_free(link);
    g_free(info);
    g_free(after);
    g_string_free(in, TRUE);
    g_string_free(out, TRUE);
}
END_TEST

static cairo_status_t to_gstring(void *closure, const unsigned char *data, unsigned int len)
{
    g_string_append_len(closure, (const char *)data, len);
    return CAIRO_STATUS_SUCCESS;
}

/* Two pages from cairo itself, a link on each to a destination on the
 * other, as the booklet's backend makes them (render/cairo_device.c: a
 * "Document" structure element around everything). */
static GString *cairo_pdf(gboolean document)
{
    GString *pdf = g_string_new(NULL);
    cairo_surface_t *s = cairo_pdf_surface_create_for_stream(to_gstring, pdf, 200, 200);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, "Two (rooms) endobj");
    cairo_t *cr = cairo_create(s);
    if (document)
        cairo_tag_begin(cr, "Document", NULL);
    for (int page = 0; page < 2; page++) {
        char dest[64], link[128];
        g_snprintf(dest, sizeof dest, "name='room-%d' x=10 y=20", page);
        cairo_tag_begin(cr, CAIRO_TAG_DEST, dest);
        cairo_tag_end(cr, CAIRO_TAG_DEST);
        cairo_move_to(cr, 20, 50);
        cairo_show_text(cr, page ? "Room two" : "Room one");
        g_snprintf(link, sizeof link, "rect=[20 30 60 25] dest='room-%d'", 1 - page);
        cairo_tag_begin(cr, CAIRO_TAG_LINK, link);
        cairo_tag_end(cr, CAIRO_TAG_LINK);
        cairo_show_page(cr);
    }
    if (document)
        cairo_tag_end(cr, "Document");
    cairo_destroy(cr);
    cairo_surface_finish(s);
    ck_assert_int_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(s);
    return pdf;
}

/* cairo 1.16 names a form in a page's resources once per use (a map's
 * hatching places its forms two thousand times): the packed dictionary has
 * each entry once, and qpdf, which warned at every repeat, finds nothing
 * wrong.  An entry of the same name with another value is not touched. */
START_TEST(a_repeated_resource_is_named_once)
{
    static const char *const objects[] = {
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 200 200 ] /Contents 4 0 R"
        " /Resources << /Font << /F1 5 0 R /F1 5 0 R /F2 5 0 R /F1 5 0 R >> >> >>",
        "<< /Length 6 0 R >>\nstream\n" CONTENT "\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "46",
    };
    GString *in = pdf_build(objects, G_N_ELEMENTS(objects), 0, ""), *out;
    ck_assert(pack(in, &out));
    char *path = save("repeated-packed.pdf", out);
    const char *argv[] = { "qpdf", "--check", path, NULL };
    g_free(tool(argv));   /* exits 0 with nothing on standard error: no warning */
    char *page = object_of(path, "3");
    const char *first = strstr(page, "/F1 5 0 R");
    ck_assert_msg(first && !strstr(first + 1, "/F1 5 0 R") && strstr(page, "/F2 5 0 R"), "%s", page);
    g_free(page);
    g_free(path);
    g_string_free(in, TRUE);
    g_string_free(out, TRUE);
}
END_TEST

START_TEST(a_cairo_pdf_is_packed_and_reads_the_same)
{
    GString *in = cairo_pdf(TRUE), *out;
    char *after = packed_reads_the_same(in, "cairo", "Room two", "link 1 -> 2 room-1\nlink 2 -> 1 room-0\n", &out);
    ck_assert_uint_lt(out->len, in->len);
    const char *argv[] = { "pdfinfo", after, NULL };
    char *info = tool(argv);
    ck_assert_msg(strstr(info, "Title:           Two (rooms) endobj\n"), "%s", info);
    ck_assert_msg(strstr(info, "Pages:           2\n"), "%s", info);
    g_free(info);
    g_free(after);
    g_string_free(in, TRUE);
    g_string_free(out, TRUE);
}
END_TEST

/* libharu's file (the booklet's other backend does not pack it, but the
 * pass takes it): xref entries ending in "\r\n", a PDF 1.3 header. */
static GString *haru_pdf(void)
{
    HPDF_Doc doc = HPDF_New(NULL, NULL);
    ck_assert_ptr_nonnull(doc);
    HPDF_SetCompressionMode(doc, HPDF_COMP_ALL);
    HPDF_Font font = HPDF_GetFont(doc, "Helvetica", NULL);
    HPDF_Page pages[2];
    for (int i = 0; i < 2; i++) {
        pages[i] = HPDF_AddPage(doc);
        HPDF_Page_SetSize(pages[i], HPDF_PAGE_SIZE_A5, HPDF_PAGE_PORTRAIT);
        HPDF_Page_BeginText(pages[i]);
        HPDF_Page_SetFontAndSize(pages[i], font, 12);
        HPDF_Page_TextOut(pages[i], 40, 500, i ? "Key (endobj)" : "Map of node A");
        HPDF_Page_EndText(pages[i]);
    }
    HPDF_Destination dest = HPDF_Page_CreateDestination(pages[1]);
    HPDF_Rect rect = { 40, 490, 160, 515 };
    ck_assert_ptr_nonnull(HPDF_Page_CreateLinkAnnot(pages[0], rect, dest));
    ck_assert_int_eq(HPDF_SaveToStream(doc), HPDF_OK);
    GString *pdf = g_string_new(NULL);
    for (;;) {
        HPDF_BYTE buf[4096];
        HPDF_UINT32 n = sizeof buf;
        HPDF_STATUS st = HPDF_ReadFromStream(doc, buf, &n);
        g_string_append_len(pdf, (const char *)buf, n);
        if (st == HPDF_STREAM_EOF)
            break;
        ck_assert_int_eq(st, HPDF_OK);
    }
    HPDF_Free(doc);
    return pdf;
}

START_TEST(a_libharu_pdf_is_packed_and_reads_the_same)
{
    GString *in = haru_pdf(), *out;
    ck_assert(g_str_has_prefix(in->str, "%PDF-1.3"));
    char *after = packed_reads_the_same(in, "haru", "Key (endobj)", "link 1 -> 2 -\n", &out);
    ck_assert(g_str_has_prefix(out->str, "%PDF-1.5\n"));
    g_free(after);
    g_string_free(in, TRUE);
    g_string_free(out, TRUE);
}
END_TEST

/* The booklet's route: the PDF written to an anonymous temporary file and
 * read back a piece at a time gives the same bytes as from memory, with a
 * stream whose dictionary is longer than the 4 KB read first. */
START_TEST(the_file_route_packs_the_same)
{
    const char *objs[G_N_ELEMENTS(hand_objects)];
    memcpy(objs, hand_objects, sizeof objs);
    GString *dict = g_string_new("<< /Length 8 0 R /Widths [");
    for (int i = 0; i < 2000; i++)
        g_string_append_printf(dict, " %d", i);
    g_string_append(dict, " ] >>\nstream\n" CONTENT "\nendstream");
    objs[3] = dict->str;
    GString *ins[] = { pdf_build(objs, G_N_ELEMENTS(objs), 0, ""), cairo_pdf(TRUE),
                       pdf_build(objs, G_N_ELEMENTS(objs), 0, "/Prev 9 ") };
    for (gsize k = 0; k < G_N_ELEMENTS(ins); k++) {
        GString *from_memory;
        gboolean packed_in_memory = pack(ins[k], &from_memory);
        ucr_pdfpack_spill *spill = ucr_pdfpack_begin();
        ck_assert_ptr_nonnull(spill);
        ck_assert_uint_eq(fwrite(ins[k]->str, 1, ins[k]->len, ucr_pdfpack_stream(spill)), ins[k]->len);
        ck_assert(!ucr_pdfpack_spill_failed(spill));
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        gboolean packed = FALSE;
        GError *error = NULL;
        ck_assert_msg(ucr_pdfpack_end(spill, out, &packed, &error), "%s", error ? error->message : "?");
        ck_assert_int_eq(fclose(out), 0);
        ck_assert_int_eq(packed, packed_in_memory);
        ck_assert_int_eq(packed, k < 2);
        ck_assert_uint_eq(len, from_memory->len);
        ck_assert(!memcmp(buf, from_memory->str, len));
        if (k == 0) {
            char *path = save("long-dict.pdf", from_memory);
            assert_qpdf_clean(path);
            g_free(path);
        }
        free(buf);
        g_string_free(from_memory, TRUE);
        g_string_free(ins[k], TRUE);
    }
    g_string_free(dict, TRUE);
}
END_TEST

/* Without the "Document" element cairo 1.16 reserves numbers it never
 * writes, and their xref entries point at the object written there instead
 * (qpdf: "expected 3 0 obj").  They come out as free entries: the file is
 * packed, sound, and reads the same. */
START_TEST(numbers_cairo_never_wrote_become_free)
{
    GString *in = cairo_pdf(FALSE), *out;
    ck_assert(pack(in, &out));
    char *before = save("untagged.pdf", in), *after = save("untagged-packed.pdf", out);
    assert_qpdf_clean(after);
    const char *argv[] = { "qpdf", "--show-xref", after, NULL };
    char *xref = tool(argv);
    /* qpdf lists objects in use only: 3 and 11 are the two cairo left. */
    ck_assert_msg(!strstr(xref, "\n3/0:") && !strstr(xref, "\n11/0:") && strstr(xref, "\n5/0:"), "%s", xref);
    char *t0 = text_of(before), *t1 = text_of(after);
    ck_assert_str_eq(t0, t1);
    char *l1 = links_of(after);
    ck_assert_str_eq(l1, "link 1 -> 2 room-1\nlink 2 -> 1 room-0\n");
    g_free(l1);
    g_free(t0);
    g_free(t1);
    g_free(xref);
    g_free(before);
    g_free(after);
    g_string_free(in, TRUE);
    g_string_free(out, TRUE);
}
END_TEST

/* What the pass does not take comes out byte for byte. */
static void assert_unchanged(GString *in)
{
    GString *out;
    ck_assert(!pack(in, &out));
    ck_assert(g_string_equal(in, out));
    g_string_free(out, TRUE);
    g_string_free(in, TRUE);
}

START_TEST(an_incremental_update_is_left_alone)
{
    assert_unchanged(pdf_build(hand_objects, G_N_ELEMENTS(hand_objects), 0, "/Prev 9 "));
}
END_TEST

START_TEST(an_encrypted_file_is_left_alone)
{
    assert_unchanged(pdf_build(hand_objects, G_N_ELEMENTS(hand_objects), 0, "/Encrypt 5 0 R "));
}
END_TEST

START_TEST(a_generation_above_zero_is_left_alone)
{
    assert_unchanged(pdf_build(hand_objects, G_N_ELEMENTS(hand_objects), 1, ""));
}
END_TEST

START_TEST(a_free_object_is_left_alone)
{
    GString *in = hand_pdf();
    char *e = strstr(in->str, " 00000 n \n");   /* object 1's entry */
    ck_assert_ptr_nonnull(e);
    e[7] = 'f';
    assert_unchanged(in);
}
END_TEST

START_TEST(a_wrong_offset_is_left_alone)
{
    GString *in = hand_pdf();
    char *x = strstr(in->str, "65535 f \n");
    ck_assert_ptr_nonnull(x);
    x[9 + 9] += 1;   /* object 1 one byte further on */
    assert_unchanged(in);
}
END_TEST

START_TEST(a_missing_xref_is_left_alone)
{
    GString *in = hand_pdf();
    g_string_truncate(in, in->len / 2);
    assert_unchanged(in);
    assert_unchanged(g_string_new("not a PDF at all, but long enough to look at"));
    assert_unchanged(g_string_new(""));
}
END_TEST

START_TEST(an_object_stream_already_is_left_alone)
{
    const char *objs[G_N_ELEMENTS(hand_objects)];
    memcpy(objs, hand_objects, sizeof objs);
    objs[3] = "<< /Type /ObjStm /N 0 /First 0 /Length 8 0 R >>\nstream\n" CONTENT "\nendstream";
    assert_unchanged(pdf_build(objs, G_N_ELEMENTS(objs), 0, ""));
}
END_TEST

START_TEST(an_unterminated_string_is_left_alone)
{
    const char *objs[G_N_ELEMENTS(hand_objects)];
    memcpy(objs, hand_objects, sizeof objs);
    objs[8] = "<< /Title (endobj >>";
    assert_unchanged(pdf_build(objs, G_N_ELEMENTS(objs), 0, ""));
}
END_TEST

/* Damaged files, byte by byte: the pass packs what still parses and
 * copies the rest byte for byte, and never reads outside the buffer (the
 * sanitizer run checks that). */
START_TEST(damaged_files_are_packed_or_copied)
{
    GString *good = hand_pdf();
    GRand *rng = g_rand_new_with_seed(13);
    static const char bytes[] = "()<>[]/%\\\n 0123456789endobjstreamxref\0";
    int packed = 0, runs = getenv("UCR_SAN") ? 400 : 2000;
    for (int i = 0; i < runs; i++) {
        GString *in = g_string_new_len(good->str, (gssize)good->len);
        for (int k = g_rand_int_range(rng, 1, 4); k > 0; k--) {
            gsize at = (gsize)g_rand_int_range(rng, 0, (gint32)in->len);
            in->str[at] = bytes[g_rand_int_range(rng, 0, (gint32)sizeof bytes - 1)];
        }
        if (g_rand_int_range(rng, 0, 8) == 0)
            g_string_truncate(in, (gsize)g_rand_int_range(rng, 0, (gint32)in->len));
        GString *out;
        if (pack(in, &out))
            packed++;
        else
            ck_assert(g_string_equal(in, out));
        g_string_free(out, TRUE);
        g_string_free(in, TRUE);
    }
    /* Most damage falls in places the pass never looks (the content
     * stream, names, numbers): those files are still packed. */
    ck_assert_int_gt(packed, runs / 10);
    ck_assert_int_lt(packed, runs);
    g_rand_free(rng);
    g_string_free(good, TRUE);
}
END_TEST

static Suite *pdfpack_suite(void)
{
    Suite *s = suite_create("pdfpack");
    TCase *tc = tcase_create("packed");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_hand_made_pdf_is_packed_and_reads_the_same);
    tcase_add_test(tc, a_cairo_pdf_is_packed_and_reads_the_same);
    tcase_add_test(tc, a_repeated_resource_is_named_once);
    tcase_add_test(tc, numbers_cairo_never_wrote_become_free);
    tcase_add_test(tc, a_libharu_pdf_is_packed_and_reads_the_same);
    tcase_add_test(tc, the_file_route_packs_the_same);
    suite_add_tcase(s, tc);
    tc = tcase_create("unchanged");
    tcase_add_test(tc, an_incremental_update_is_left_alone);
    tcase_add_test(tc, an_encrypted_file_is_left_alone);
    tcase_add_test(tc, a_generation_above_zero_is_left_alone);
    tcase_add_test(tc, a_free_object_is_left_alone);
    tcase_add_test(tc, a_wrong_offset_is_left_alone);
    tcase_add_test(tc, a_missing_xref_is_left_alone);
    tcase_add_test(tc, an_object_stream_already_is_left_alone);
    tcase_add_test(tc, an_unterminated_string_is_left_alone);
    tcase_add_test(tc, damaged_files_are_packed_or_copied);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(pdfpack_suite());
}
