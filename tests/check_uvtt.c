/* Tests of the virtual tabletop export: the map's walls and doors
 * (ucr_map_plan) over many seeds and every method, and the file's image. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "export/foundry.h"
#include "export/uvtt.h"
#include "gen/super/megadungeon.h"
#include "key/stock.h"
#include "layout/map.h"
#include "pipeline/pipeline.h"
#include "render/fonts.h"
#include "render/trace.h"

static ucr_tables *tables;

static void setup(void)
{
    tables = ucr_test_tables();
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

static ucr_megadungeon *generate(const char *seed)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

/* Does a segment of @walls cover the unit edge (x0, y0)-(x1, y1)? */
static bool covered(const GArray *walls, double x0, double y0, double x1, double y1)
{
    for (guint i = 0; i < walls->len; i++) {
        const ucr_map_segment *s = &g_array_index(walls, ucr_map_segment, i);
        double len = hypot(s->x1 - s->x0, s->y1 - s->y0);
        bool on = true;
        for (int k = 0; k < 2 && on; k++) {
            double px = k ? x1 : x0, py = k ? y1 : y0;
            double cross = (s->x1 - s->x0) * (py - s->y0) - (s->y1 - s->y0) * (px - s->x0);
            double along = ((px - s->x0) * (s->x1 - s->x0) + (py - s->y0) * (s->y1 - s->y0)) / len;
            on = fabs(cross) < 1e-9 && along > -1e-9 && along < len + 1e-9;
        }
        if (on)
            return true;
    }
    return false;
}

static void door_edge(const ucr_node *n, const ucr_door *d, double e[4])
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, d->area);
    if (d->side == UCR_NORTH || d->side == UCR_SOUTH) {
        double y = d->side == UCR_NORTH ? a->y : a->y + a->h;
        e[0] = d->cell.x, e[1] = y, e[2] = d->cell.x + 1, e[3] = y;
    } else {
        double x = d->side == UCR_WEST ? a->x : a->x + a->w;
        e[0] = x, e[1] = d->cell.y, e[2] = x, e[3] = d->cell.y + 1;
    }
}

START_TEST(walls_and_doors_over_many_seeds)
{
    int secret_seen = 0, diagonal_seen = 0;
    for (int s = 1; s <= 8; s++) {
        char seed[16];
        g_snprintf(seed, sizeof seed, "vtt-%d", s);
        ucr_megadungeon *md = generate(seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            ucr_map_options gm = { .bare = true }, pl = { .bare = true, .player = true };
            ucr_map_plan *p = ucr_map_plan_new(n, &gm), *q = ucr_map_plan_new(n, &pl);
            /* The GM's map draws every door, and leaves each door's edge open. */
            ck_assert_int_eq(p->doors->len, n->doors->len);
            for (guint k = 0; k < n->doors->len; k++) {
                double e[4];
                door_edge(n, &g_array_index(n->doors, ucr_door, k), e);
                ck_assert_msg(!covered(p->walls, e[0], e[1], e[2], e[3]), "seed %s node %s door %u under a wall",
                              seed, n->id, k);
            }
            /* The players' map draws no secret door: its edge is a wall. */
            for (guint k = 0; k < q->doors->len; k++)
                ck_assert_int_ne(g_array_index(n->doors, ucr_door, g_array_index(q->doors, int, k)).kind,
                                 UCR_DOOR_SECRET);
            for (guint k = 0; k < n->doors->len; k++) {
                const ucr_door *d = &g_array_index(n->doors, ucr_door, k);
                if (d->kind != UCR_DOOR_SECRET)
                    continue;
                double e[4];
                door_edge(n, d, e);
                ck_assert_msg(covered(q->walls, e[0], e[1], e[2], e[3]), "seed %s node %s: secret door %u open",
                              seed, n->id, k);
                secret_seen++;
            }
            /* Walls: whole-square ends, straight or 45°, inside the shown map. */
            for (guint k = 0; k < p->walls->len; k++) {
                const ucr_map_segment *w = &g_array_index(p->walls, ucr_map_segment, k);
                double dx = fabs(w->x1 - w->x0), dy = fabs(w->y1 - w->y0);
                ck_assert(dx == 0 || dy == 0 || dx == dy);
                ck_assert(dx + dy > 0);
                diagonal_seen += dx > 0 && dy > 0;
                ck_assert(w->x0 == floor(w->x0) && w->y0 == floor(w->y0) && w->x1 == floor(w->x1));
                ck_assert(MIN(w->x0, w->x1) >= p->shown.x0 && MAX(w->x0, w->x1) <= p->shown.x1);
                ck_assert(MIN(w->y0, w->y1) >= p->shown.y0 && MAX(w->y0, w->y1) <= p->shown.y1);
            }
            ucr_map_plan_free(p);
            ucr_map_plan_free(q);
        }
        ucr_megadungeon_free(md);
    }
    /* The seeds must exercise what is tested. */
    ck_assert_int_gt(secret_seen, 5);
    ck_assert_int_gt(diagonal_seen, 5);
}
END_TEST

/* A passage that runs under a room (or another passage) can be walked on
 * the table: no wall of the plan lies across any step it takes along the
 * crossing, nor on the steps into and out of it (goblin-king's
 * ran into the west wall of A-11). */
START_TEST(under_passages_can_be_walked)
{
    int crossings = 0;
    for (int s = 1; s <= 12; s++) {
        char seed[16];
        g_snprintf(seed, sizeof seed, "vtt-%d", s);
        ucr_megadungeon *md = generate(s == 12 ? "goblin-king" : seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            ucr_map_options gm = { .bare = true };
            ucr_map_plan *p = ucr_map_plan_new(n, &gm);
            for (guint k = 0; k < n->passages->len; k++) {
                const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, k);
                for (guint x = 0; ps->crossings && x < ps->crossings->len; x++) {
                    const ucr_crossing *cr = &g_array_index(ps->crossings, ucr_crossing, x);
                    int first = MAX(cr->first - 1, 0), last = MIN(cr->last + 1, (int)ps->cells->len - 1);
                    for (int c = first; c < last; c++) {
                        ucr_point a = g_array_index(ps->cells, ucr_point, c);
                        ucr_point b = g_array_index(ps->cells, ucr_point, c + 1);
                        if (abs(a.x - b.x) + abs(a.y - b.y) != 1)
                            continue;   /* a diagonal step: its walls are the 45° ones */
                        double e[4] = { MAX(a.x, b.x), MAX(a.y, b.y), a.x == b.x ? a.x + 1 : MAX(a.x, b.x),
                                        a.y == b.y ? a.y + 1 : MAX(a.y, b.y) };
                        ck_assert_msg(!covered(p->walls, e[0], e[1], e[2], e[3]),
                                      "seed %s node %s passage %u: a wall across (%d,%d)-(%d,%d)", seed, n->id, k,
                                      a.x, a.y, b.x, b.y);
                    }
                    crossings++;
                }
            }
            ucr_map_plan_free(p);
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(crossings, 10);
}
END_TEST

/* The Foundry scene, checked against what Foundry reads (a Scene's data:
 * width, height, grid.size, walls with c = four whole pixel numbers, door
 * 0 none / 1 door / 2 secret, ds 0 closed / 2 locked): every door of the
 * node is one door wall on its edge, secret ones secret and locked ones
 * locked, no plain wall over a door, and the image (PNG) is the scene's
 * size. */
START_TEST(foundry_scene_keeps_secret_doors_secret)
{
    GError *error = NULL;
    char *dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(dir, &error);
    g_free(dir);
    ck_assert_msg(fonts, "%s", error ? error->message : "?");
    ucr_style *style = ucr_style_load(UCR_STYLE_DEFAULT, ucr_datadir(), &error);
    ck_assert_msg(style, "%s", error ? error->message : "?");
    int secret_seen = 0, locked_seen = 0;
    for (int sd = 1; sd <= 3; sd++) {
        char seed[16];
        g_snprintf(seed, sizeof seed, "vtt-%d", sd);
        ucr_megadungeon *md = generate(seed);
        ucr_megadungeon_stock(md, tables, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            enum { PPG = 10 };
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            ck_assert(ucr_foundry_write(f, md, n, "map.png", PPG, &error));
            fclose(f);
            ucr_map_options gm = { .bare = true };
            ucr_map_plan *p = ucr_map_plan_new(n, &gm);
            int w, h, size;
            ck_assert_int_eq(sscanf(strstr(buf, "\"width\""), "\"width\": %d,\n  \"height\": %d", &w, &h), 2);
            ck_assert_int_eq(sscanf(strstr(buf, "\"grid\""), "\"grid\": {\"type\": 1, \"size\": %d", &size), 1);
            ck_assert_int_eq(size, PPG);
            ck_assert_int_eq(w, (int)(p->shown.x1 - p->shown.x0) * PPG);
            ck_assert_int_eq(h, (int)(p->shown.y1 - p->shown.y0) * PPG);
            int found[256] = { 0 };
            ck_assert_uint_lt(n->doors->len, 256);
            for (const char *l = strstr(buf, "{\"c\": ["); l; l = strstr(l + 1, "{\"c\": [")) {
                int c[4], door, ds;
                ck_assert_int_eq(sscanf(l, "{\"c\": [%d, %d, %d, %d], \"move\": 20, \"sight\": 20, \"light\": 20, "
                                           "\"sound\": 20, \"door\": %d, \"ds\": %d}",
                                        &c[0], &c[1], &c[2], &c[3], &door, &ds), 6);
                ck_assert(door >= 0 && door <= 2 && (ds == 0 || ds == 2));
                for (guint k = 0; k < n->doors->len; k++) {
                    const ucr_door *d = &g_array_index(n->doors, ucr_door, k);
                    double e[4];
                    door_edge(n, d, e);
                    for (int j = 0; j < 4; j++)
                        e[j] = (e[j] - (j % 2 ? p->shown.y0 : p->shown.x0)) * PPG;
                    bool same = c[0] == e[0] && c[1] == e[1] && c[2] == e[2] && c[3] == e[3];
                    /* A plain wall over a door's edge would shut it. */
                    bool over = door == 0 && (c[0] == c[2] ? c[0] == e[0] && e[0] == e[2] && MIN(c[1], c[3]) <= MIN(e[1], e[3]) &&
                                                                 MAX(c[1], c[3]) >= MAX(e[1], e[3])
                                              : c[1] == c[3] && c[1] == e[1] && e[1] == e[3] &&
                                                    MIN(c[0], c[2]) <= MIN(e[0], e[2]) && MAX(c[0], c[2]) >= MAX(e[0], e[2]));
                    ck_assert_msg(!over, "seed %s node %s: a wall over door %u", seed, n->id, k);
                    if (!same || door == 0)
                        continue;
                    found[k]++;
                    ck_assert_int_eq(door, d->kind == UCR_DOOR_SECRET ? 2 : 1);
                    ck_assert_int_eq(ds, d->kind == UCR_DOOR_LOCKED ? 2 : 0);
                    secret_seen += door == 2;
                    locked_seen += ds == 2;
                }
            }
            for (guint k = 0; k < n->doors->len; k++)
                ck_assert_msg(found[k] == 1, "seed %s node %s: door %u as %d walls", seed, n->id, k, found[k]);
            free(buf);
            /* What the players see: no number, trap or secret door. */
            ucr_map_options io = ucr_foundry_image_options();
            ucr_display_list *list = ucr_map_record_with(md, n, style, fonts, &io, NULL);
            GString *trace = g_string_new(NULL);
            ucr_device *dev = ucr_trace_device_new(trace);
            ucr_display_list_replay(list, dev, NULL);
            ucr_device_free(dev);
            ucr_display_list_free(list);
            ck_assert_msg(!strstr(trace->str, "group number:") && !strstr(trace->str, "group stock:trap") &&
                              !strstr(trace->str, "group feature:trap") && !strstr(trace->str, "door:secret"),
                          "seed %s node %s: the players' image gives away the key", seed, n->id);
            g_string_free(trace, TRUE);
            /* The image: the scene's size. */
            buf = NULL;
            f = open_memstream(&buf, &len);
            ck_assert(ucr_foundry_image_write(f, md, n, style, fonts, PPG, &error));
            fclose(f);
            ck_assert(len > 24 && memcmp(buf, "\x89PNG", 4) == 0);
            const unsigned char *u = (const unsigned char *)buf;
            ck_assert_uint_eq((unsigned)u[16] << 24 | u[17] << 16 | u[18] << 8 | u[19], (unsigned)w);
            ck_assert_uint_eq((unsigned)u[20] << 24 | u[21] << 16 | u[22] << 8 | u[23], (unsigned)h);
            free(buf);
            ucr_map_plan_free(p);
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(secret_seen, 2);
    ck_assert_int_gt(locked_seen, 2);
    ucr_style_free(style);
    g_object_unref(fonts);
}
END_TEST

START_TEST(file_image_is_map_size_times_pixels_per_grid)
{
    GError *error = NULL;
    char *dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(dir, &error);
    g_free(dir);
    ck_assert_msg(fonts, "%s", error ? error->message : "?");
    ucr_style *style = ucr_style_load(UCR_STYLE_DEFAULT, ucr_datadir(), &error);
    ck_assert_msg(style, "%s", error ? error->message : "?");
    ucr_megadungeon *md = generate("vtt-image");
    ucr_megadungeon_stock(md, tables, "vtt-image");
    for (guint i = 0; i < md->nodes->len; i += 4) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        ucr_uvtt_options opt = { 12, false };
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        ck_assert(ucr_uvtt_write(f, md, n, style, fonts, &opt, &error));
        fclose(f);
        int ox, oy, w, h, ppg;
        const char *r = strstr(buf, "\"map_origin\"");
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(sscanf(r, "\"map_origin\": {\"x\": %d, \"y\": %d},\n    \"map_size\": {\"x\": %d, \"y\": %d},\n"
                                   "    \"pixels_per_grid\": %d",
                                &ox, &oy, &w, &h, &ppg), 5);
        ck_assert_int_eq(ppg, 12);
        const char *img = strstr(buf, "\"image\": \"");
        ck_assert_ptr_nonnull(img);
        img += strlen("\"image\": \"");
        char head[33];
        memcpy(head, img, 32);   /* 24 bytes: signature and IHDR width, height */
        head[32] = '\0';
        gsize n_png;
        guchar *png = g_base64_decode(head, &n_png);
        ck_assert_int_ge(n_png, 24);
        ck_assert(memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
        unsigned pw = (unsigned)png[16] << 24 | png[17] << 16 | png[18] << 8 | png[19];
        unsigned ph = (unsigned)png[20] << 24 | png[21] << 16 | png[22] << 8 | png[23];
        ck_assert_uint_eq(pw, (unsigned)(w * 12));
        ck_assert_uint_eq(ph, (unsigned)(h * 12));
        /* Image-relative coordinates, as every importer reads them. */
        ck_assert_int_eq(ox, 0);
        ck_assert_int_eq(oy, 0);
        ck_assert(w <= n->width && h <= n->height);
        g_free(png);
        free(buf);
    }
    ucr_megadungeon_free(md);
    ucr_style_free(style);
    g_object_unref(fonts);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("uvtt");
    TCase *t = tcase_create("core");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 120);
    tcase_add_test(t, walls_and_doors_over_many_seeds);
    tcase_add_test(t, file_image_is_map_size_times_pixels_per_grid);
    tcase_add_test(t, under_passages_can_be_walked);
    tcase_add_test(t, foundry_scene_keeps_secret_doors_secret);
    suite_add_tcase(s, t);
    return ucr_check_run(s);
}
