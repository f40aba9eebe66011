/* The render layer and the maps: device wrappers, display-list record and
 * replay, the trace device, styles, golden traces of whole maps, and the
 * promise that every door, stair, link and collapse of the model is on its
 * map with its number clear of everything else.
 *
 * Golden traces live in tests/golden/SEED-STYLE.trace.  After a deliberate
 * change to the look of the maps, regenerate them with
 *
 *     make build/tests/check_render && UCR_GOLDEN_UPDATE=1 build/tests/check_render
 *
 * and read the diff before committing it. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include "golden.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/error.h"
#include "gen/super/megadungeon.h"
#include "key/stock.h"
#include "pipeline/pipeline.h"
#include "render/fonts.h"
#include "layout/map.h"
#include "layout/style.h"
#include "layout/symbols.h"
#include "layout/textblock.h"
#include "render/cairo_device.h"
#include "render/display_list.h"
#include "render/trace.h"

static ucr_tables *tables;
static PangoFontMap *fonts;

static void setup(void)
{
    tables = ucr_test_tables();
    fonts = ucr_test_fonts();
}

static void teardown(void)
{
    ucr_tables_free(tables);
    g_object_unref(fonts);
}

/* @method NULL: mixed, as the program's default. */
static ucr_megadungeon *generate_with(const char *seed, const char *method)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, method ? ucr_node_method_lookup(method) : NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

static ucr_megadungeon *generate(const char *seed)
{
    return generate_with(seed, NULL);
}

static ucr_style *style_named(const char *name)
{
    GError *error = NULL;
    ucr_style *st = ucr_style_load(name, ucr_datadir(), &error);
    ck_assert_msg(st != NULL, "style %s: %s", name, error ? error->message : "?");
    return st;
}

/* The trace of node @node's map. */
static char *map_trace(const ucr_megadungeon *md, const ucr_node *node, const ucr_style *st,
                       ucr_map_extent *ext)
{
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_map_draw(dev, md, node, st, fonts, ext);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    return g_string_free(out, FALSE);
}

/* The booklet's frame for a map on an A4 page, less a stats box of a few
 * lines: what ucr_map_scale_to_fit() gets there. */
#define A4_MAP_W 539.0
#define A4_MAP_H 680.0

/* The trace of node @node's map laid out at the scale of the A4 booklet;
 * @pt gets that scale. */
static char *map_trace_booklet(const ucr_megadungeon *md, const ucr_node *node, const ucr_style *st,
                               ucr_map_extent *ext, double *pt)
{
    double scale = ucr_map_scale_to_fit(node, st, A4_MAP_W, A4_MAP_H);
    if (pt)
        *pt = scale;
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_map_draw_scaled(dev, md, node, st, fonts, scale, ext);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    return g_string_free(out, FALSE);
}

/* Does the segment (@x0, @y0)-(@x1, @y1) pass through @r?  Sampled every
 * twentieth of a square: walls are whole squares long. */
static bool segment_crosses(double x0, double y0, double x1, double y1, ucr_rect r)
{
    int n = (int)ceil(hypot(x1 - x0, y1 - y0) * 20);
    for (int i = 0; i <= n; i++) {
        double t = n ? (double)i / n : 0, x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t;
        if (x > r.x0 && x < r.x1 && y > r.y0 && y < r.y1)
            return true;
    }
    return false;
}

static double rect_gap(ucr_rect a, ucr_rect b)
{
    double dx = MAX(0, MAX(a.x0 - b.x1, b.x0 - a.x1)), dy = MAX(0, MAX(a.y0 - b.y1, b.y0 - a.y1));
    return hypot(dx, dy);
}

/* Labels at the booklet's A4 scale, on the ink style, over sixteen
 * dungeons: each clear of every other label (a gap between: "BELOW",
 * "STAIRS DOWN TO DEEPER LEVELS" and "TO F-23" ran together on goblin-king's
 * node I) and of every wall, beside what it names or tied to it by a leader
 * line ("TO B-1" sat by C-11 while its tunnel left C-10 at the far edge),
 * on its paper halo (the hatching stops short of the letters). */
START_TEST(test_labels_clear)
{
    ucr_style *st = style_named("ink");
    int labels = 0, crowded = 0, led = 0;
    for (int sd = 0; sd < 16; sd++) {
        char seed[24];
        g_snprintf(seed, sizeof seed, sd ? "labels-%d" : "goblin-king", sd);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            GArray *placed = g_array_new(FALSE, FALSE, sizeof(ucr_map_label));
            ucr_map_options opt = { .points_per_square = ucr_map_scale_to_fit(n, st, A4_MAP_W, A4_MAP_H),
                                    .labels = placed };
            GString *out = g_string_new(NULL);
            ucr_device *dev = ucr_trace_device_new(out);
            ucr_map_draw_with(dev, md, n, st, fonts, &opt, NULL);
            ucr_device_free(dev);
            ucr_map_options plain = { 0 };
            ucr_map_plan *plan = ucr_map_plan_new(n, &plain);
            for (guint k = 0; k < placed->len; k++) {
                const ucr_map_label *l = &g_array_index(placed, ucr_map_label, k);
                labels++;
                crowded += l->crowded;
                led += l->leader;
                if (l->crowded)
                    continue;
                for (guint j = 0; j < placed->len; j++) {
                    const ucr_map_label *o = &g_array_index(placed, ucr_map_label, j);
                    ck_assert_msg(j == k || o->crowded || rect_gap(l->box, o->box) > 0.1,
                                  "seed %s node %s: labels %u and %u touch", seed, n->id, k, j);
                }
                for (guint w = 0; w < plan->walls->len && !l->number; w++) {
                    const ucr_map_segment *sg = &g_array_index(plan->walls, ucr_map_segment, w);
                    ck_assert_msg(!segment_crosses(sg->x0, sg->y0, sg->x1, sg->y1, l->box),
                                  "seed %s node %s: label %u (%.1f,%.1f) on a wall", seed, n->id, k, l->box.x0,
                                  l->box.y0);
                }
                ck_assert_msg(l->leader || rect_gap(l->box, l->anchor) <= 1.0,
                              "seed %s node %s: label %u %.1f squares from what it names, no leader line", seed,
                              n->id, k, rect_gap(l->box, l->anchor));
            }
            /* Each label's text is drawn on its halo: a paper fill before it. */
            ck_assert_ptr_nonnull(strstr(out->str, "fill_path"));
            ucr_map_plan_free(plan);
            g_array_free(placed, TRUE);
            g_string_free(out, TRUE);
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_msg(crowded * 100 <= labels, "%d of %d labels found no free place", crowded, labels);
    ck_assert_int_gt(led, 0);
    ucr_style_free(st);
}
END_TEST

/* A few calls of every kind, for the device tests. */
static void draw_sample(ucr_device *dev)
{
    ucr_path *p = ucr_path_new();
    ucr_path_move_to(p, 1, 2);
    ucr_path_line_to(p, 3, 4);
    ucr_path_curve_to(p, 5, 6, 7, 8, 9, 10);
    ucr_path_close(p);
    ucr_stroke s = { 0.5, UCR_CAP_ROUND, UCR_JOIN_BEVEL, 2, { 1, 0.5 } };
    ucr_color black = { 0, 0, 0, 1 }, half = { 1, 0, 0, 0.5 };
    ucr_device_begin_page(dev, 100, 50);
    ucr_device_begin_group(dev, "door:plain");
    ucr_device_fill_path(dev, p, true, half);
    ucr_device_stroke_path(dev, p, &s, black);
    ucr_device_end_group(dev);
    ucr_device_clip_path(dev, p, false);
    ucr_text t = { "12", "Humor Sans", 2, true, 10, 20, 0.5, false, false, NULL };
    ucr_device_show_text(dev, &t, black);
    ucr_device_pop_clip(dev);
    ucr_device_link(dev, 1, 2, 3, 4, "node-C");
    ucr_device_dest(dev, "node-C", 5, 6);
    ucr_device_end_page(dev);
    ucr_path_free(p);
}

START_TEST(test_trace_lines)
{
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    draw_sample(dev);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    const char *want =
        "begin_page 100.00 50.00\n"
        "begin_group door:plain\n"
        "fill_path evenodd #ff000080 M 1.00 2.00 L 3.00 4.00 C 5.00 6.00 7.00 8.00 9.00 10.00 Z\n"
        "stroke_path width 0.50 cap round join bevel dash 1.00 0.50 #000000 M 1.00 2.00 L 3.00 4.00 "
        "C 5.00 6.00 7.00 8.00 9.00 10.00 Z\n"
        "end_group\n"
        "clip_path nonzero M 1.00 2.00 L 3.00 4.00 C 5.00 6.00 7.00 8.00 9.00 10.00 Z\n"
        "show_text \"12\" font \"Humor Sans\" bold size 2.00 at 10.00 20.00 align 0.50 #000000\n"
        "pop_clip\n"
        "link 1.00 2.00 3.00 4.00 to \"node-C\"\n"
        "dest \"node-C\" 5.00 6.00\n"
        "end_page\n";
    ck_assert_str_eq(out->str, want);
    g_string_free(out, TRUE);
}
END_TEST

START_TEST(test_list_replay)
{
    /* Replaying a list gives exactly the calls made on it ... */
    GString *direct = g_string_new(NULL), *replayed = g_string_new(NULL), *scaled = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(direct);
    draw_sample(dev);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    ucr_display_list *list = ucr_display_list_new();
    dev = ucr_list_device_new(list);
    draw_sample(dev);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    ck_assert_int_eq(ucr_display_list_length(list), 11);
    dev = ucr_trace_device_new(replayed);
    ucr_display_list_replay(list, dev, NULL);
    ucr_device_free(dev);
    ck_assert_str_eq(replayed->str, direct->str);
    /* ... and through a matrix, moved and scaled, widths and text too. */
    dev = ucr_trace_device_new(scaled);
    ucr_matrix m = ucr_matrix_scale_translate(2, 10, 100);
    ucr_display_list_replay(list, dev, &m);
    ucr_device_free(dev);
    ck_assert_ptr_nonnull(strstr(scaled->str, "begin_page 200.00 100.00\n"));
    ck_assert_ptr_nonnull(strstr(scaled->str, "stroke_path width 1.00 cap round join bevel dash 2.00 1.00 #000000 "
                                              "M 12.00 104.00 L 16.00 108.00"));
    ck_assert_ptr_nonnull(strstr(scaled->str, "size 4.00 at 30.00 140.00"));
    ck_assert_ptr_nonnull(strstr(scaled->str, "link 12.00 104.00 6.00 8.00"));
    ucr_display_list_free(list);
    g_string_free(direct, TRUE);
    g_string_free(replayed, TRUE);
    g_string_free(scaled, TRUE);
}
END_TEST

/* Two shapes (a bar and a tick) stamped three times, scaled by 2 and
 * turned a quarter: the trace shows the shapes as drawn and the copies;
 * a list replays them through its matrix; a device without the slot gets
 * one stroke of every copy; the cairo PDF makes them Type 3 glyphs. */
static ucr_stamp_set *sample_stamps(void)
{
    ucr_path *shapes[2] = { ucr_path_new(), ucr_path_new() };
    ucr_path_move_to(shapes[0], -1, 0);
    ucr_path_line_to(shapes[0], 1, 0);
    ucr_path_move_to(shapes[1], 0, 0);
    ucr_path_line_to(shapes[1], 0, 1);
    ucr_stroke s = { 0.25, UCR_CAP_ROUND, UCR_JOIN_ROUND, 0, { 0 } };
    return ucr_stamp_set_new(shapes, 2, &s);
}

static const ucr_stamp sample_at[] = { { 0, 10, 20 }, { 1, 30, 40 }, { 0, 50, 60 } };

START_TEST(test_stamps)
{
    ucr_stamp_set *set = sample_stamps();
    ck_assert_int_eq(ucr_stamp_set_length(set), 2);
    ck_assert_double_eq_tol(ucr_stamp_set_reach(set), 1.125, 1e-9);
    ucr_matrix turn = { 0, 2, -2, 0, 99, 99 };   /* e, f are not used */
    ucr_color black = { 0, 0, 0, 1 };
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_device_stamp(dev, set, &turn, sample_at, 3, black);
    ucr_device_free(dev);
    ck_assert_str_eq(out->str, "stamp width 0.50 cap round join round #000000 shapes 2 "
                               "| M 0.00 -2.00 L 0.00 2.00 | M 0.00 0.00 L -2.00 0.00 "
                               "at 0 10.00 20.00 1 30.00 40.00 0 50.00 60.00\n");
    /* Through a list, moved by (1, 2) and scaled by 3. */
    ucr_display_list *list = ucr_display_list_new();
    dev = ucr_list_device_new(list);
    ucr_device_stamp(dev, set, &turn, sample_at, 3, black);
    ucr_device_free(dev);
    ucr_stamp_set_unref(set);   /* the list keeps its own reference */
    g_string_truncate(out, 0);
    dev = ucr_trace_device_new(out);
    ucr_matrix m = ucr_matrix_scale_translate(3, 1, 2);
    ucr_display_list_replay(list, dev, &m);
    ucr_device_free(dev);
    ck_assert_str_eq(out->str, "stamp width 1.50 cap round join round #000000 shapes 2 "
                               "| M 0.00 -6.00 L 0.00 6.00 | M 0.00 0.00 L -6.00 0.00 "
                               "at 0 31.00 62.00 1 91.00 122.00 0 151.00 182.00\n");
    ucr_display_list_free(list);
    /* A device that only strokes: every copy in one path. */
    set = sample_stamps();
    g_string_truncate(out, 0);
    dev = ucr_trace_device_new(out);
    dev->stamp = NULL;
    ucr_device_stamp(dev, set, &turn, sample_at, 3, black);
    ucr_device_free(dev);
    ck_assert_str_eq(out->str, "stroke_path width 0.50 cap round join round #000000 "
                               "M 10.00 18.00 L 10.00 22.00 M 30.00 40.00 L 28.00 40.00 "
                               "M 50.00 58.00 L 50.00 62.00\n");
    /* Sets are alike by what they draw: a second set of the same shapes
     * (another map of the dungeon) is equal, a thicker one is not. */
    ucr_stamp_set *same = sample_stamps();
    ucr_path *thick_shapes[2] = { ucr_path_transform(ucr_stamp_set_shape(set, 0), &(ucr_matrix){ 1, 0, 0, 1, 0, 0 }),
                                  ucr_path_transform(ucr_stamp_set_shape(set, 1), &(ucr_matrix){ 1, 0, 0, 1, 0, 0 }) };
    ucr_stroke thick_stroke = *ucr_stamp_set_stroke(set);
    thick_stroke.width = 0.5;
    ucr_stamp_set *thick = ucr_stamp_set_new(thick_shapes, 2, &thick_stroke);
    ck_assert(ucr_stamp_set_equal(set, same));
    ck_assert_uint_eq(ucr_stamp_set_hash(set), ucr_stamp_set_hash(same));
    ck_assert(!ucr_stamp_set_equal(set, thick));
    /* The cairo PDF: each shape a form drawn once, the copies placed by
     * reference; no font (a Type 3 glyph is text, which readers extracted
     * as U+FFFD); one form a shape for both pages, whose sets are equal,
     * and one form a page holding its copies. */
    char *pdf = g_build_filename(g_get_tmp_dir(), "ucr-stamps.pdf", NULL);
    FILE *f = fopen(pdf, "wb");
    ck_assert_ptr_nonnull(f);
    dev = ucr_cairo_device_new(UCR_CAIRO_PDF, f, 100, 100, 72, fonts);
    ucr_device_begin_page(dev, 100, 100);
    ucr_device_stamp(dev, set, &turn, sample_at, 3, black);
    ucr_device_end_page(dev);
    ucr_device_begin_page(dev, 100, 100);
    ucr_device_stamp(dev, same, &turn, sample_at, 3, black);
    ucr_device_end_page(dev);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    fclose(f);
    ucr_stamp_set_unref(set);
    ucr_stamp_set_unref(same);
    ucr_stamp_set_unref(thick);
    char *cmd = g_strdup_printf("pdffonts %s", pdf), *fonts_out = NULL;
    ck_assert(g_spawn_command_line_sync(cmd, &fonts_out, NULL, NULL, NULL));
    ck_assert_msg(strstr(fonts_out, "Type 3") == NULL, "stamps as a font:\n%s", fonts_out);
    g_free(cmd);
    g_free(fonts_out);
    gchar *bytes = NULL;
    gsize len = 0;
    ck_assert(g_file_get_contents(pdf, &bytes, &len, NULL));
    int forms = 0;
    for (gsize i = 0; i + 5 <= len; i++)   /* the file has NUL bytes: no strstr */
        forms += memcmp(bytes + i, "/Form", 5) == 0;
    ck_assert_int_eq(forms, 2 + 2);
    g_free(bytes);
    cmd = g_strdup_printf("pdftotext %s -", pdf);
    char *text = NULL;
    ck_assert(g_spawn_command_line_sync(cmd, &text, NULL, NULL, NULL));
    ck_assert_str_eq(g_strstrip(text), "");
    g_free(cmd);
    g_free(text);
    unlink(pdf);
    g_free(pdf);
    g_string_free(out, TRUE);
}
END_TEST

START_TEST(test_empty_device)
{
    /* A device with no slots: every wrapper skips, close succeeds, and
     * nothing is drawn after close. */
    ucr_device *dev = ucr_device_new_of_size(sizeof(ucr_device));
    draw_sample(dev);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    ucr_device_free(NULL);
    GString *out = g_string_new(NULL);
    dev = ucr_trace_device_new(out);
    ucr_device_close(dev, NULL);
    draw_sample(dev);
    ck_assert_str_eq(out->str, "");
    ucr_device_free(dev);
    g_string_free(out, TRUE);
}
END_TEST

START_TEST(test_cairo_device_errors)
{
    /* A stream that cannot be written: the device keeps the error and
     * close reports it as "cannot create" (73). */
    FILE *f = fopen("/dev/full", "wb");
    if (!f)
        return;
    ucr_device *dev = ucr_cairo_device_new(UCR_CAIRO_PNG, f, 20, 20, 72, fonts);
    draw_sample(dev);
    GError *error = NULL;
    ck_assert(!ucr_device_close(dev, &error));
    ck_assert_int_eq(error->code, UCR_ERROR_CANTCREAT);
    g_error_free(error);
    ucr_device_free(dev);
    fclose(f);
}
END_TEST

/* Draws grey bands and, with @colour, one pixel whose red and blue are
 * equal and green is not: 1, in the last column (past the eight-pixel
 * steps of the grey test); 2, inside them. */
static void png_sample(cairo_t *cr, int w, int h, int colour)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (int i = 0; i < 5; i++) {
        cairo_set_source_rgb(cr, i / 5.0, i / 5.0, i / 5.0);
        cairo_rectangle(cr, i * 3.3, 2, 2.7, h - 4);
        cairo_fill(cr);
    }
    if (colour) {
        cairo_set_source_rgb(cr, 0.2, 0.6, 0.2);
        cairo_rectangle(cr, colour == 1 ? w - 1 : 10, h - 1, 1, 1);
        cairo_fill(cr);
    }
}

/* PNG maps: 8-bit grey when every pixel is grey, RGB when one is not, and
 * the pixels read back are the pixels drawn. */
START_TEST(test_png_grey_and_colour)
{
    for (int colour = 0; colour < 3; colour++) {
        enum { W = 21, H = 9 };
        char *path = NULL;
        int fd = g_file_open_tmp("ucr-png-XXXXXX.png", &path, NULL);
        ck_assert_int_ge(fd, 0);
        close(fd);
        FILE *f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        ucr_device *dev = ucr_cairo_device_new(UCR_CAIRO_PNG, f, W, H, 72, fonts);
        ucr_device_begin_page(dev, W, H);
        png_sample(ucr_cairo_device_context(dev), W, H, colour);
        ucr_device_end_page(dev);
        ck_assert(ucr_device_close(dev, NULL));
        ucr_device_free(dev);
        fclose(f);
        char *bytes;
        gsize len;
        ck_assert(g_file_get_contents(path, &bytes, &len, NULL));
        ck_assert_uint_gt(len, 26);
        ck_assert_int_eq(bytes[25], colour ? 2 : 0);   /* IHDR colour type */
        g_free(bytes);
        cairo_surface_t *got = cairo_image_surface_create_from_png(path);
        ck_assert_int_eq(cairo_surface_status(got), CAIRO_STATUS_SUCCESS);
        cairo_surface_t *want = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
        cairo_t *cr = cairo_create(want);
        png_sample(cr, W, H, colour);
        cairo_destroy(cr);
        cairo_surface_flush(want);
        ck_assert_int_eq(cairo_image_surface_get_width(got), W);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint32_t a = ((uint32_t *)(void *)(cairo_image_surface_get_data(got) +
                                                   y * cairo_image_surface_get_stride(got)))[x];
                uint32_t b = ((uint32_t *)(void *)(cairo_image_surface_get_data(want) +
                                                   y * cairo_image_surface_get_stride(want)))[x];
                ck_assert_msg((a & 0xffffffu) == (b & 0xffffffu), "pixel %d,%d: %06x, drawn %06x", x, y,
                              a & 0xffffffu, b & 0xffffffu);
            }
        cairo_surface_destroy(got);
        cairo_surface_destroy(want);
        unlink(path);
        g_free(path);
    }
}
END_TEST

/* Writes @text to a temporary style file and loads it; returns the error
 * message (or NULL if it loaded). */
static char *style_error(const char *text, int *code)
{
    char *path = NULL;
    int fd = g_file_open_tmp("ucr-style-XXXXXX.ini", &path, NULL);
    ck_assert_int_ge(fd, 0);
    ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    GError *error = NULL;
    ucr_style *st = ucr_style_load(path, ucr_datadir(), &error);
    unlink(path);
    char *msg = NULL;
    if (!st) {
        ck_assert_ptr_nonnull(strstr(error->message, path));
        msg = g_strdup(error->message + strlen(path));
        *code = error->code;
        g_error_free(error);
    }
    ucr_style_free(st);
    g_free(path);
    return msg;
}

START_TEST(test_style_validation)
{
    int code = 0;
    char *msg = style_error("[walls]\nwidth=fat\n", &code);
    ck_assert_str_eq(msg, ": key 'walls.width': 'fat' is not a number from 0.01 to 0.4");
    ck_assert_int_eq(code, UCR_ERROR_DATA);
    g_free(msg);
    msg = style_error("[rock]\nfill=stripes\n", &code);
    ck_assert_str_eq(msg, ": key 'rock.fill': 'stripes' is not one of solid, hatch or none");
    g_free(msg);
    msg = style_error("[paper]\ncolour=blue\n", &code);
    ck_assert_ptr_nonnull(strstr(msg, "key 'paper.colour': 'blue' is not a colour"));
    g_free(msg);
    msg = style_error("[walls]\nwobbel=0.1\n", &code);
    ck_assert_ptr_nonnull(strstr(msg, "key 'walls.wobbel': unknown key; [walls] has colour, width"));
    g_free(msg);
    msg = style_error("[text]\nhand-font=Comic Sans\n", &code);
    ck_assert_ptr_nonnull(strstr(msg, "'Comic Sans' is not a shipped font"));
    g_free(msg);
    msg = style_error("[hatching]\n", &code);
    ck_assert_ptr_nonnull(strstr(msg, "unknown group [hatching]"));
    g_free(msg);
    msg = style_error("not a key file\n", &code);
    ck_assert_int_eq(code, UCR_ERROR_DATA);
    g_free(msg);
    msg = style_error("# only a comment: everything default\n", &code);
    ck_assert_ptr_null(msg);
    /* Unknown names list what there is. */
    GError *error = NULL;
    ck_assert_ptr_null(ucr_style_load("neon", ucr_datadir(), &error));
    ck_assert_int_eq(error->code, UCR_ERROR_USAGE);
    ck_assert_str_eq(error->message,
                     "unknown --style 'neon': use classic, ink, lowink, or the path of a .ini style file");
    g_clear_error(&error);
    ck_assert_ptr_null(ucr_style_load("/no/such/style.ini", ucr_datadir(), &error));
    ck_assert_int_eq(error->code, UCR_ERROR_NOINPUT);
    g_clear_error(&error);
    /* The shipped styles load, and differ where they should. */
    ucr_style *classic = style_named("classic"), *ink = style_named("ink"), *lowink = style_named("lowink");
    ck_assert_int_eq(classic->rock_fill, UCR_ROCK_SOLID);
    ck_assert_int_eq(ink->rock_fill, UCR_ROCK_HATCH);
    ck_assert_int_eq(lowink->rock_fill, UCR_ROCK_NONE);
    ck_assert_int_eq(lowink->wall_strokes, 1);
    ck_assert_str_eq(ink->name, UCR_STYLE_DEFAULT);
    ucr_style_free(classic);
    ucr_style_free(ink);
    ucr_style_free(lowink);
}
END_TEST

static const char *GOLDEN[][2] = { { "golden-1", "ink" }, { "golden-2", "classic" }, { "golden-3", "lowink" } };

START_TEST(test_golden_traces)
{
    const char *seed = GOLDEN[_i][0], *style = GOLDEN[_i][1];
    ucr_megadungeon *md = generate_with(seed, "grid");   /* golden traces must not move when a method is added */
    ucr_style *st = style_named(style);
    char *trace = map_trace_booklet(md, g_ptr_array_index(md->nodes, 0), st, NULL, NULL);
    char *path = g_strdup_printf("%s/tests/golden/%s-%s.trace", ucr_datadir(), seed, style);
    ucr_test_golden(path, trace, "tests/check_render.c");
    g_free(path);
    g_free(trace);
    ucr_style_free(st);
    ucr_megadungeon_free(md);
}
END_TEST

static int count_lines(const char *trace, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = trace; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, prefix, len))
            n++;
    return n;
}

/* A text of the trace: what it says and the rectangle it covers. */
typedef struct {
    char group[48];        /* the innermost group it is drawn in */
    char text[128];
    double size;
    ucr_rect r;
} trace_text;

/* Every show_text of @trace, measured with the map's own fonts. */
static GArray *trace_texts(const char *trace, const ucr_style *st)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(trace_text));
    ucr_pen pen = { NULL, st, { 0, 1 }, fonts, 0 };
    char group[48] = "";
    char **lines = g_strsplit(trace, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (!strncmp(l, "begin_group ", 12)) {
            g_strlcpy(group, l + 12, sizeof group);
            continue;
        }
        if (strncmp(l, "show_text \"", 11))
            continue;
        trace_text t = { { 0 }, { 0 }, 0, { 0, 0, 0, 0 } };
        g_strlcpy(t.group, group, sizeof t.group);
        const char *q = strchr(l + 11, '"');
        ck_assert_ptr_nonnull(q);
        char raw[128];
        g_strlcpy(raw, l + 11, MIN(sizeof raw, (size_t)(q - l - 11 + 1)));
        char *text = g_strcompress(raw);   /* the trace writes non-ASCII bytes as \ooo */
        g_strlcpy(t.text, text, sizeof t.text);
        g_free(text);
        char family[64] = "";
        const char *f = strstr(q, "font \"");
        ck_assert_ptr_nonnull(f);
        const char *fe = strchr(f + 6, '"');
        g_strlcpy(family, f + 6, MIN(sizeof family, (size_t)(fe - f - 6 + 1)));
        bool bold = strstr(fe, " bold ") != NULL;
        double x, y;
        ck_assert_int_eq(sscanf(strstr(fe, "size "), "size %lf at %lf %lf", &t.size, &x, &y), 3);
        t.r = ucr_pen_text_rect(&pen, t.text, family, t.size, bold, x, y);
        g_array_append_val(out, t);
    }
    g_strfreev(lines);
    return out;
}

static bool rects_overlap(ucr_rect a, ucr_rect b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* Whether @r overlaps the diamond room @a (the octagon of model/json.c's
 * outline: the diamond in its square with a one-square flat at each tip);
 * the rock in the corners of its square is free for labels.  Separating
 * axes: x, y and the two diagonals. */
static bool rect_on_diamond(ucr_rect r, const ucr_area *a)
{
    double rad = a->w / 2;
    double u0 = a->x + a->y + rad, u1 = a->x + a->w + a->y + rad + 1;
    double v0 = a->x - a->y - rad - 1, v1 = a->x - a->y + rad + 1;
    return r.x0 + r.y0 < u1 && r.x1 + r.y1 > u0 && r.x0 - r.y1 < v1 && r.x1 - r.y0 > v0;
}

static bool is_label(const trace_text *t)
{
    return !strncmp(t->group, "number:", 7) || !strncmp(t->group, "link:", 5) || !strncmp(t->group, "exit:", 5);
}

/* Measures, from the trace alone, that the labels of node @n's map are
 * clear: no two texts overlap; a number lies inside its own area or on the
 * rock, a label of stairs or a ladder inside an area with them or on the
 * rock, other labels on the rock, none across a passage or over a door;
 * all inside the frame; none smaller than @min_size squares. */
static void check_labels(const ucr_node *n, const char *trace, const ucr_style *st, const ucr_map_extent *ext,
                         double min_size, const char *what)
{
    GArray *texts = trace_texts(trace, st);
    for (guint i = 0; i < texts->len; i++) {
        const trace_text *t = &g_array_index(texts, trace_text, i);
        ck_assert_msg(t->size >= min_size - 0.006,   /* the trace rounds to 0.01 */ "%s: '%s' at size %.2f < %.2f", what, t->text, t->size, min_size);
        if (!is_label(t))
            continue;
        /* A hair inside the measured ink: touching is not overlapping. */
        ucr_rect r = { t->r.x0 + 0.02, t->r.y0 + 0.02, t->r.x1 - 0.02, t->r.y1 - 0.02 };
        ck_assert_msg(r.x0 >= ext->x0 && r.x1 <= ext->x1 && r.y0 >= ext->y0 && r.y1 <= ext->y1,
                      "%s: '%s' off the sheet", what, t->text);
        for (guint k = 0; k < texts->len; k++) {
            const trace_text *o = &g_array_index(texts, trace_text, k);
            if (k != i && rects_overlap(r, o->r))
                ck_abort_msg("%s: '%s' (%s) overlaps '%s' (%s)", what, t->text, t->group, o->text, o->group);
        }
        int own = -1;
        if (!strncmp(t->group, "number:", 7)) {
            int key = atoi(t->group + 7);
            for (guint a = 0; a < n->areas->len; a++)
                if (g_array_index(n->areas, ucr_area, a).key == key)
                    own = (int)a;
        }
        for (guint a = 0; a < n->areas->len; a++) {
            const ucr_area *ar = &g_array_index(n->areas, ucr_area, a);
            ucr_rect box = { ar->x, ar->y, ar->x + ar->w, ar->y + ar->h };
            if (!rects_overlap(r, box) || (ar->diamond && !rect_on_diamond(r, ar)))
                continue;
            /* Stairs or a ladder in an area are labelled inside it where
             * there is room (test_labels_clear: beside its own). */
            bool landing = false;
            for (guint k = 0; k < n->links->len && !strncmp(t->group, "link:", 5); k++) {
                const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                landing = landing || (l->area == (int)a && !l->has_side);
            }
            ck_assert_msg(((int)a == own || landing) && r.x0 >= box.x0 && r.x1 <= box.x1 && r.y0 >= box.y0 &&
                              r.y1 <= box.y1,
                          "%s: '%s' (%s) crosses area %d", what, t->text, t->group, ar->key);
        }
        for (guint p = 0; p < n->passages->len; p++) {
            const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, p);
            for (guint c = 0; c < ps->cells->len; c++) {
                ucr_point pt = g_array_index(ps->cells, ucr_point, c);
                ck_assert_msg(!rects_overlap(r, (ucr_rect){ pt.x, pt.y, pt.x + 1, pt.y + 1 }),
                              "%s: '%s' (%s) lies on a passage at %d,%d", what, t->text, t->group, pt.x, pt.y);
            }
        }
        for (guint d = 0; d < n->doors->len; d++) {
            const ucr_door *door = &g_array_index(n->doors, ucr_door, d);
            ucr_point c = door->cell;
            ck_assert_msg(!rects_overlap(r, (ucr_rect){ c.x + 0.2, c.y + 0.2, c.x + 0.8, c.y + 0.8 }),
                          "%s: '%s' over a door", what, t->text);
        }
    }
    g_array_free(texts, TRUE);
}

START_TEST(test_every_feature_on_the_map)
{
    /* Over many stocked dungeons of every method: one door symbol per door
     * of the right kind (plain, secret, locked, trapped), one flight per
     * stair, one label per link, rubble per collapse, one mark per area
     * feature and per trap the stocking placed, one number per area — and
     * no label that had to be squeezed in over something, at the scale of
     * the SVG/PNG maps and at that of the A4 booklet (text >= 8.5 pt, 6 pt
     * at A5), measured from the trace. */
    int seeds = g_getenv("UCR_SAN") ? 3 : 12;
    static const char *methods[] = { NULL, "grid", "leximorph", "numbered" };
    static const char *styles[] = { "ink", "classic", "lowink" };
    int marks = 0, locked_seen = 0, trapped_seen = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "features-%d", s);
        const char *method = methods[s % G_N_ELEMENTS(methods)];
        ucr_style *st = style_named(styles[s % G_N_ELEMENTS(styles)]);
        ucr_megadungeon *md = generate_with(seed, method);
        ucr_megadungeon_stock(md, tables, seed);
        for (guint k = 0; k < md->nodes->len; k++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, k);
            int doors[4] = { 0 }, stairs = 0, rubble = 0, exits = 0, feat[5] = { 0 }, traps = 0;
            for (guint i = 0; i < n->doors->len; i++)
                doors[g_array_index(n->doors, ucr_door, i).kind]++;
            for (guint i = 0; i < n->areas->len; i++) {
                const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
                stairs += a->kind == UCR_AREA_STAIRS || a->stair != UCR_STAIR_NONE;   /* seed 003: in a room too */
                feat[a->feature]++;
                traps += (a->stock & UCR_STOCK_TRAP) != 0;
            }
            for (guint i = 0; i < n->passages->len; i++) {
                const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
                stairs += (int)p->stairs->len;
                rubble += p->rubble >= 0;
            }
            for (guint i = n->areas->len; i < n->vertices->len; i++)
                exits += g_array_index(n->vertices, ucr_vertex, i).kind == UCR_VERTEX_EXIT;
            marks += feat[1] + feat[2] + feat[3] + feat[4] + traps;
            locked_seen += doors[UCR_DOOR_LOCKED];
            trapped_seen += doors[UCR_DOOR_TRAPPED];
            for (int scaled = 0; scaled < 2; scaled++) {
                ucr_map_extent ext;
                double pt = 0;
                char *trace = scaled ? map_trace_booklet(md, n, st, &ext, &pt) : map_trace(md, n, st, &ext);
                char what[96];
                g_snprintf(what, sizeof what, "seed %s node %s (%s, %s%s)", seed, n->id, n->method, st->name,
                           scaled ? ", A4" : "");
                ck_assert_int_eq(count_lines(trace, "begin_group door:plain\n"), doors[UCR_DOOR_PLAIN]);
                ck_assert_int_eq(count_lines(trace, "begin_group door:secret\n"), doors[UCR_DOOR_SECRET]);
                ck_assert_int_eq(count_lines(trace, "begin_group door:locked\n"), doors[UCR_DOOR_LOCKED]);
                ck_assert_int_eq(count_lines(trace, "begin_group door:trapped\n"), doors[UCR_DOOR_TRAPPED]);
                ck_assert_int_eq(count_lines(trace, "begin_group stairs:") + count_lines(trace, "begin_group ladder:") +
                                     count_lines(trace, "begin_group slope:") +
                                     count_lines(trace, "begin_group trapdoor\n"),
                                 stairs);
                ck_assert_int_eq(count_lines(trace, "begin_group rubble\n"), rubble);
                ck_assert_int_eq(count_lines(trace, "begin_group feature:trap\n"), feat[UCR_FEATURE_TRAP]);
                ck_assert_int_eq(count_lines(trace, "begin_group feature:trap-disabled\n"),
                                 feat[UCR_FEATURE_TRAP_DISABLED]);
                ck_assert_int_eq(count_lines(trace, "begin_group feature:debris\n"), feat[UCR_FEATURE_DEBRIS]);
                ck_assert_int_eq(count_lines(trace, "begin_group feature:pool\n"), feat[UCR_FEATURE_POOL]);
                ck_assert_int_eq(count_lines(trace, "begin_group stock:trap\n"), traps);
                ck_assert_int_eq(count_lines(trace, "begin_group number:"), (int)n->areas->len);
                ck_assert_int_eq(count_lines(trace, "begin_group link:"), (int)n->links->len);
                ck_assert_int_le(count_lines(trace, "begin_group exit:collapsed"), exits);
                /* Every link's words are on the map, in full or in brief. */
                for (guint i = 0; i < n->links->len; i++) {
                    const ucr_link *l = &g_array_index(n->links, ucr_link, i);
                    char *label = ucr_map_link_label(md, l), *brief = ucr_map_link_brief(md, l);
                    char *q = g_strdup_printf("show_text \"%s\"", label);
                    char *qb = g_strdup_printf("show_text \"%s\"", brief);
                    ck_assert_msg(strstr(trace, q) || strstr(trace, qb), "%s: no label '%s'", what, label);
                    g_free(q);
                    g_free(qb);
                    g_free(label);
                    g_free(brief);
                }
                ck_assert_msg(ext.crowded == 0, "%s: %d labels found no free place", what, ext.crowded);
                check_labels(n, trace, st, &ext, scaled ? UCR_MAP_MIN_TEXT_PT / pt : 0, what);
                g_free(trace);
            }
        }
        ucr_megadungeon_free(md);
        ucr_style_free(st);
    }
    /* The stocking did put locked and trapped doors and traps on these. */
    ck_assert_int_gt(marks, 0);
    ck_assert_int_gt(locked_seen, 0);
    ck_assert_int_gt(trapped_seen, 0);
}
END_TEST

START_TEST(test_same_seed_same_strokes)
{
    ucr_megadungeon *md = generate("goblin-king"), *other = generate("goblin-queen");
    ucr_style *st = style_named("ink");
    char *a = map_trace(md, g_ptr_array_index(md->nodes, 2), st, NULL);
    char *b = map_trace(md, g_ptr_array_index(md->nodes, 2), st, NULL);
    char *c = map_trace(other, g_ptr_array_index(other->nodes, 2), st, NULL);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c);
    g_free(a);
    g_free(b);
    g_free(c);
    ucr_style_free(st);
    ucr_megadungeon_free(md);
    ucr_megadungeon_free(other);
}
END_TEST

START_TEST(test_symbol_set)
{
    /* The whole classic vocabulary, each under its own group. */
    GString *out = g_string_new(NULL);
    ucr_style *st = style_named("ink");
    ucr_pen pen = { ucr_trace_device_new(out), st, { 0, 1 }, fonts, 0 };
    ucr_prng_seed(&pen.rng, "symbols", "ink");
    for (int k = UCR_SYMBOL_DOOR; k <= UCR_SYMBOL_ARCHWAY; k++)
        ucr_symbol_wall(&pen, k, 1 + k, 1, k % 2);
    ucr_rect box = { 0, 3, 1, 5 };
    ucr_symbol_stairs(&pen, box, 0, 1, true);
    ucr_symbol_stairs(&pen, box, 0, -1, false);
    ucr_symbol_ladder(&pen, box, 0, 1, true);
    ucr_symbol_trapdoor(&pen, 3, 3, 0.7);
    ucr_symbol_pit(&pen, 4, 3, 0.7);
    ucr_symbol_trap_sprung(&pen, 4, 5, 0.7);
    ucr_symbol_rubble(&pen, (ucr_rect){ 5, 3, 6, 4 });
    ucr_symbol_debris(&pen, (ucr_rect){ 6, 3, 7, 4 });
    ucr_symbol_pool(&pen, 8, 3.5, 0.4);
    double under[] = { 0, 7, 4, 7, 4, 9 };
    ucr_symbol_passage_under(&pen, under, 3, 1);
    ucr_symbol_diagonal_corridor(&pen, 5, 6, 8, 9, 1);
    ucr_symbol_diamond_room(&pen, 11, 7, 2);
    ucr_symbol_compass(&pen, 14, 3, 1);
    ucr_symbol_scale_bar(&pen, 1, 11, 5);
    static const char *groups[] = { "door:plain", "door:double", "door:secret", "door:locked", "door:trapped",
                                    "door:portcullis", "door:archway", "stairs:down", "stairs:up", "ladder:down",
                                    "trapdoor", "pit", "trap:sprung", "rubble", "obstacle:debris", "obstacle:pool",
                                    "passage:under", "passage:diagonal", "room:diamond", "compass", "scale-bar" };
    for (unsigned i = 0; i < G_N_ELEMENTS(groups); i++) {
        char *line = g_strdup_printf("begin_group %s\n", groups[i]);
        ck_assert_msg(count_lines(out->str, line) == 1, "symbol %s", groups[i]);
        g_free(line);
    }
    ck_assert_int_eq(count_lines(out->str, "begin_group"), count_lines(out->str, "end_group"));
    ck_assert_ptr_nonnull(strstr(out->str, "dash 0.25 0.15"));   /* under: dashed */
    ck_assert_ptr_nonnull(strstr(out->str, "show_text \"S\""));
    /* Write the sheet for a look by eye when asked. */
    const char *png = g_getenv("UCR_SYMBOLS_PNG");
    if (png) {
        ucr_display_list *list = ucr_display_list_new();
        ucr_device *rec = ucr_list_device_new(list);
        ucr_pen p2 = { rec, st, { 0, 1 }, fonts, 0 };
        ucr_prng_seed(&p2.rng, "symbols", "ink");
        for (int k = UCR_SYMBOL_DOOR; k <= UCR_SYMBOL_ARCHWAY; k++) {
            ucr_path *w = ucr_path_new();
            ucr_pen_rough_line(&p2, w, 0.6 + 1.5 * k, 1, 1.9 + 1.5 * k, 1, 2, 1, 1);
            ucr_stroke s = { st->wall_width, UCR_CAP_ROUND, UCR_JOIN_ROUND, 0, { 0 } };
            ucr_device_stroke_path(rec, w, &s, st->wall);
            ucr_path_free(w);
            ucr_symbol_wall(&p2, k, 1.25 + 1.5 * k, 1, false);
        }
        ucr_symbol_stairs(&p2, box, 0, 1, true);
        ucr_symbol_ladder(&p2, (ucr_rect){ 1.2, 3, 2.2, 5 }, 0, 1, true);
        ucr_symbol_trapdoor(&p2, 3, 3.5, 0.7);
        ucr_symbol_pit(&p2, 4, 3.5, 0.7);
        ucr_symbol_trap_sprung(&p2, 4, 5, 0.7);
        ucr_symbol_rubble(&p2, (ucr_rect){ 5, 3, 6, 4 });
        ucr_symbol_debris(&p2, (ucr_rect){ 6, 3, 7, 4 });
        ucr_symbol_pool(&p2, 8, 3.5, 0.4);
        ucr_symbol_passage_under(&p2, under, 3, 1);
        ucr_symbol_diagonal_corridor(&p2, 5, 6, 8, 9, 1);
        ucr_symbol_diamond_room(&p2, 11, 7, 2);
        ucr_symbol_compass(&p2, 14, 3, 1);
        ucr_symbol_scale_bar(&p2, 1, 11, 5);
        ucr_device_free(rec);
        FILE *f = fopen(png, "wb");
        ck_assert_ptr_nonnull(f);
        ucr_device *dev = ucr_cairo_device_new(UCR_CAIRO_PNG, f, 17 * 30, 13 * 30, 144, fonts);
        ucr_matrix m = ucr_matrix_scale_translate(30, 15, 15);
        ucr_display_list_replay(list, dev, &m);
        ck_assert(ucr_device_close(dev, NULL));
        ucr_device_free(dev);
        fclose(f);
        ucr_display_list_free(list);
    }
    ucr_device_free(pen.dev);
    ucr_style_free(st);
    g_string_free(out, TRUE);
}
END_TEST

/* Every kind of call, for the store: the sample, a paragraph shaped by
 * the layout (its runs carry their glyphs), stamps, a turned page's
 * transform, an outline and document information. */
static void draw_everything(ucr_device *dev, const ucr_textblock *tb, const ucr_stamp_set *set)
{
    draw_sample(dev);
    ucr_device_begin_page(dev, 200, 300);
    ucr_device_set_info(dev, "title", "Störe “test”");
    ucr_device_outline(dev, 1, "Node C — the pit", "node-C");
    ucr_matrix turn = { 0, 1, -1, 0, 200, 0 };
    ucr_device_push_transform(dev, &turn);
    ucr_textblock_draw(tb, dev, 10, 20);
    ucr_device_pop_transform(dev);
    ucr_matrix lin = { 2, 0, 0, 2, 0, 0 };
    ucr_device_stamp(dev, set, &lin, sample_at, 3, (ucr_color){ 0.1, 0.2, 0.3, 1 });
    ucr_path *curve = ucr_path_new();
    ucr_path_circle(curve, 50, 60, 7.123456789);
    ucr_device_fill_path(dev, curve, false, (ucr_color){ 0.25, 0.5, 0.75, 1 });
    ucr_path_free(curve);
    ucr_device_end_page(dev);
}

static char *trace_of(const ucr_display_list *list)
{
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_display_list_replay(list, dev, NULL);
    ucr_device_free(dev);
    return g_string_free(out, FALSE);
}

/* The trace prints two decimals: this device prints every coordinate
 * exactly (%a), so that a bit lost on the way through the store shows. */
typedef struct {
    ucr_device super;
    GString *out;
} exact_device;

static void exact_path(ucr_device *dev, const ucr_path *p)
{
    GString *out = ((exact_device *)dev)->out;
    const ucr_path_el *el = ucr_path_elements(p);
    for (int i = 0; i < ucr_path_length(p); i++) {
        g_string_append_printf(out, " %d", el[i].op);
        for (int k = 0; k < 6; k++)
            g_string_append_printf(out, " %a", el[i].pt[k]);
    }
    g_string_append_c(out, '\n');
}

static void exact_fill(ucr_device *dev, const ucr_path *p, bool eo, ucr_color c)
{
    g_string_append_printf(((exact_device *)dev)->out, "fill %d %a %a %a %a", eo, c.r, c.g, c.b, c.a);
    exact_path(dev, p);
}

static void exact_stroke(ucr_device *dev, const ucr_path *p, const ucr_stroke *st, ucr_color c)
{
    g_string_append_printf(((exact_device *)dev)->out, "stroke %a %d %d %d %a %a %a %a %a %a", st->width, st->cap,
                           st->join, st->n_dash, st->dash[0], st->dash[1], c.r, c.g, c.b, c.a);
    exact_path(dev, p);
}

static void exact_clip(ucr_device *dev, const ucr_path *p, bool eo)
{
    g_string_append_printf(((exact_device *)dev)->out, "clip %d", eo);
    exact_path(dev, p);
}

static void exact_text(ucr_device *dev, const ucr_text *t, ucr_color c)
{
    g_string_append_printf(((exact_device *)dev)->out, "text %s %s %a %d %a %a %a %d %d %a %a %a %a %s\n", t->utf8,
                           t->family, t->size, t->bold, t->x, t->y, t->align, t->italic, t->baseline, c.r, c.g,
                           c.b, c.a, t->shaped ? "shaped" : "-");
}

static void exact_stamp(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m, const ucr_stamp *at, int n,
                        ucr_color c)
{
    GString *out = ((exact_device *)dev)->out;
    g_string_append_printf(out, "stamp %p %a %a %a %a %a", (const void *)set, m->a, m->b, m->c, m->d, c.r);
    for (int i = 0; i < n; i++)
        g_string_append_printf(out, " %d %a %a", at[i].shape, at[i].x, at[i].y);
    g_string_append_c(out, '\n');
}

static char *exact_of(const ucr_display_list *list)
{
    GString *out = g_string_new(NULL);
    exact_device *d = (exact_device *)ucr_device_new_of_size(sizeof *d);
    d->out = out;
    d->super.fill_path = exact_fill;
    d->super.stroke_path = exact_stroke;
    d->super.clip_path = exact_clip;
    d->super.show_text = exact_text;
    d->super.stamp = exact_stamp;
    ucr_display_list_replay(list, &d->super, NULL);
    ucr_device_free(&d->super);
    return g_string_free(out, FALSE);
}

/* The PDF bytes of @list through cairo: the shaped runs' glyphs show here
 * (the trace prints their text only). */
static GBytes *pdf_of(const ucr_display_list *list)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ucr_device *dev = ucr_cairo_device_new(UCR_CAIRO_PDF, f, 100, 50, 72, fonts);
    ucr_display_list_replay(list, dev, NULL);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    long n = ftell(f);
    char *buf = g_malloc((gsize)n);
    rewind(f);
    ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
    fclose(f);
    return g_bytes_new_take(buf, (gsize)n);
}

/* A list put in the store and read back replays the same calls, to the
 * trace and to the PDF byte for byte (the booklet's pages wait there for
 * the overview); lists come back by their keys in any order. */
START_TEST(test_list_store)
{
    g_setenv("SOURCE_DATE_EPOCH", "0", TRUE);
    ucr_textblock_style st = { "Humor Sans", 9, 80, 0, 0, NULL, NULL };
    ucr_textblock *tb = ucr_textblock_new(fonts, "<b>Goblin</b> <i>king’s</i> hall, "
                                          "with a café and 12 ogres", &st, NULL);
    ck_assert_ptr_nonnull(tb);
    ucr_stamp_set *set = sample_stamps();
    ucr_display_list *a = ucr_display_list_new(), *b = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(a);
    draw_everything(dev, tb, set);
    ucr_device_free(dev);
    dev = ucr_list_device_new(b);
    draw_sample(dev);
    ucr_device_free(dev);
    ucr_textblock_free(tb);

    GError *error = NULL;
    ucr_list_store *store = ucr_list_store_new(&error);
    ck_assert_msg(store != NULL, "store: %s", error ? error->message : "?");
    guint64 ka, kb;
    ck_assert(ucr_list_store_put(store, a, &ka, NULL));
    ck_assert(ucr_list_store_put(store, b, &kb, NULL));
    ck_assert_uint_ne(ka, kb);
    ck_assert_uint_gt(ucr_list_store_size(store), 0);
    char *ta = trace_of(a), *tb_ = trace_of(b), *xa = exact_of(a);
    GBytes *pa = pdf_of(a);
    ucr_display_list_free(a);
    ucr_display_list_free(b);
    ucr_stamp_set_unref(set);   /* the store keeps the set alive */

    ucr_display_list *b2 = ucr_list_store_get(store, kb, NULL), *a2 = ucr_list_store_get(store, ka, NULL);
    ck_assert_ptr_nonnull(a2);
    ck_assert_ptr_nonnull(b2);
    ck_assert_int_eq(ucr_display_list_length(b2), 11);
    char *ta2 = trace_of(a2), *tb2 = trace_of(b2);
    ck_assert_msg(strcmp(ta2, ta) == 0, "page a read back traces otherwise");
    ck_assert_msg(strcmp(tb2, tb_) == 0, "page b read back traces otherwise");
    char *xa2 = exact_of(a2);
    ck_assert_msg(strcmp(xa2, xa) == 0, "page a read back has other coordinates (not exact)");
    ck_assert_ptr_nonnull(strstr(xa2, "shaped"));
    g_free(xa);
    g_free(xa2);
    ck_assert_ptr_nonnull(strstr(ta2, "Goblin"));
    ck_assert_ptr_nonnull(strstr(ta2, "stamp width 0.50"));
    GBytes *pa2 = pdf_of(a2);
    ck_assert(g_bytes_equal(pa, pa2));
    /* Read twice: a page is read back as often as it is asked for. */
    ucr_display_list *a3 = ucr_list_store_get(store, ka, NULL);
    char *ta3 = trace_of(a3);
    ck_assert_msg(strcmp(ta3, ta) == 0, "page a read a second time traces otherwise");
    ucr_display_list_free(a2);
    ucr_display_list_free(a3);
    ucr_display_list_free(b2);
    ucr_list_store_free(store);
    g_bytes_unref(pa);
    g_bytes_unref(pa2);
    g_free(ta);
    g_free(tb_);
    g_free(ta2);
    g_free(tb2);
    g_free(ta3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("render");
    TCase *core = tcase_create("devices");
    tcase_add_test(core, test_trace_lines);
    tcase_add_test(core, test_list_replay);
    tcase_add_test(core, test_empty_device);
    suite_add_tcase(s, core);
    TCase *maps = tcase_create("maps");
    tcase_add_checked_fixture(maps, setup, teardown);
    tcase_set_timeout(maps, 600);
    tcase_add_test(maps, test_cairo_device_errors);
    tcase_add_test(maps, test_png_grey_and_colour);
    tcase_add_test(maps, test_stamps);
    tcase_add_test(maps, test_list_store);
    tcase_add_test(maps, test_style_validation);
    tcase_add_loop_test(maps, test_golden_traces, 0, G_N_ELEMENTS(GOLDEN));
    tcase_add_test(maps, test_every_feature_on_the_map);
    tcase_add_test(maps, test_same_seed_same_strokes);
    tcase_add_test(maps, test_symbol_set);
    tcase_add_test(maps, test_labels_clear);
    suite_add_tcase(s, maps);
    return ucr_check_run(s);
}
