/* undercroft — tests of the booklet's pages: every template's sizes and
 * page counts, legibility at the printed size (text and map squares), no
 * near-empty pages, links that land, the outline, overview arrows that
 * agree with the levels, and golden traces of one page of each kind.
 *
 * Golden traces live in tests/golden/booklet-a5-KIND.trace.  After a
 * deliberate change of the layout, regenerate them and read the diff:
 *     make build/tests/check_booklet && UCR_GOLDEN_UPDATE=1 build/tests/check_booklet
 */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include "golden.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/datadir.h"
#include "core/error.h"
#include "gen/super/megadungeon.h"
#include "gen/methods/leximorph.h"
#include "key/stock.h"
#include "layout/booklet.h"
#include "layout/page.h"
#include "layout/textblock.h"
#include "pipeline/pipeline.h"
#include "render/display_list.h"
#include "render/fonts.h"
#include "render/trace.h"

static ucr_tables *tables;
static PangoFontMap *fonts;
static ucr_style *style;

static void setup(void)
{
    tables = ucr_test_tables();
    fonts = ucr_test_fonts();
    GError *error = NULL;
    style = ucr_style_load(UCR_STYLE_DEFAULT, ucr_datadir(), &error);
    ck_assert_msg(style != NULL, "style: %s", error ? error->message : "?");
}

static void teardown(void)
{
    ucr_tables_free(tables);
    ucr_style_free(style);
    g_object_unref(fonts);
}

static ucr_megadungeon *dungeon(const char *seed, int cols, int rows)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, cols, rows, tables, NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    ucr_megadungeon_stock(md, tables, seed);
    return md;
}

static ucr_page_template *paper(const char *name)
{
    GError *error = NULL;
    ucr_page_template *t = ucr_page_template_load(name, ucr_datadir(), &error);
    ck_assert_msg(t != NULL, "template %s: %s", name, error ? error->message : "?");
    return t;
}

static ucr_booklet *booklet(const ucr_megadungeon *md, const ucr_page_template *t, bool player)
{
    ucr_booklet_options opt = { .style = style, .page = t, .player_maps = player };
    GError *error = NULL;
    ucr_booklet *b = ucr_booklet_new(md, &opt, fonts, &error);
    ck_assert_msg(b != NULL, "booklet: %s", error ? error->message : "?");
    return b;
}

static char *page_trace(const ucr_booklet *b, int i)
{
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_display_list_replay(ucr_booklet_page(b, i, NULL, NULL, NULL, NULL), dev, NULL);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    return g_string_free(out, FALSE);
}

/* The size of every show_text line of @trace, smallest first out. */
static double smallest_text(const char *trace, char *what, gsize what_len)
{
    double least = 1e9;
    char **lines = g_strsplit(trace, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        if (strncmp(lines[i], "show_text ", 10))
            continue;
        const char *font = strstr(lines[i], "\" font \"");
        const char *size = font ? strstr(font, " size ") : NULL;
        ck_assert_msg(size, "unreadable trace line: %s", lines[i]);
        double v = g_ascii_strtod(size + 6, NULL);
        if (v < least) {
            least = v;
            g_strlcpy(what, lines[i], what_len);
        }
    }
    g_strfreev(lines);
    return least;
}

static const char *const PAPERS[] = { "a4", "letter", "a5", "digest" };
static const struct {
    const char *seed;
    int cols, rows;
} DUNGEONS[] = { { "goblin-king", 3, 3 }, { "7", 3, 3 }, { "tiny", 1, 1 }, { "wide", 4, 2 } };

/* Every template with several dungeons: the page sizes, the page count
 * (fours when folded), legible text and squares, no near-empty page but
 * the deliberate notes pages. */
START_TEST(test_templates)
{
    ucr_page_template *t = paper(PAPERS[_i]);
    for (gsize d = 0; d < G_N_ELEMENTS(DUNGEONS); d++) {
        ucr_megadungeon *md = dungeon(DUNGEONS[d].seed, DUNGEONS[d].cols, DUNGEONS[d].rows);
        for (int player = 0; player < 2; player++) {
            ucr_booklet *b = booklet(md, t, player);
            int n = ucr_booklet_page_count(b);
            ck_assert_int_ge(n, 2 + (int)md->nodes->len);
            if (t->folded)
                ck_assert_msg(n % 4 == 0, "%s, seed %s: %d pages, not a multiple of 4", t->name,
                              DUNGEONS[d].seed, n);
            /* Whole at whole-square or more; in parts only at min-square
             * or more. */
            ck_assert_msg(ucr_booklet_min_square(b) >= t->whole_square - 1e-6,
                          "%s, seed %s: a map at %.2f pt per square, under %.2f", t->name,
                          DUNGEONS[d].seed, ucr_booklet_min_square(b), t->whole_square);
            ck_assert_msg(ucr_booklet_min_part_square(b) >= t->min_square - 1e-6,
                          "%s, seed %s: a map in parts at %.2f pt per square, under %.2f", t->name,
                          DUNGEONS[d].seed, ucr_booklet_min_part_square(b), t->min_square);
            int maps = 0, keys = 0;
            for (int i = 0; i < n; i++) {
                double w, h, filled;
                ucr_page_kind kind;
                ucr_booklet_page(b, i, &w, &h, &kind, &filled);
                bool portrait = fabs(w - t->width) < 1e-6 && fabs(h - t->height) < 1e-6;
                bool landscape = fabs(w - t->height) < 1e-6 && fabs(h - t->width) < 1e-6;
                ck_assert_msg(portrait || (landscape && kind != UCR_PAGE_KEY),
                              "%s page %d is %.1f × %.1f", t->name, i + 1, w, h);
                maps += kind == UCR_PAGE_MAP;
                keys += kind == UCR_PAGE_KEY;
                if (kind != UCR_PAGE_NOTES)
                    ck_assert_msg(filled >= 0.25, "%s, seed %s%s: page %d (kind %d) only %.0f%% filled",
                                  t->name, DUNGEONS[d].seed, player ? " with player maps" : "", i + 1,
                                  kind, filled * 100);
                char *trace = page_trace(b, i), what[300] = "";
                double least = smallest_text(trace, what, sizeof what);
                ck_assert_msg(least >= UCR_PAGE_MIN_TEXT_PT - 1e-6, "%s page %d: text at %.2f pt: %s",
                              t->name, i + 1, least, what);
                g_free(trace);
            }
            ck_assert_int_ge(maps, (int)md->nodes->len);
            ucr_booklet_free(b);
        }
        ucr_megadungeon_free(md);
    }
    ucr_page_template_free(t);
}
END_TEST

/* In a folded booklet a node's map is on a left (even) page, so that its
 * key faces it — or the map and the whole key share one page. */
START_TEST(test_folded_facing)
{
    ucr_page_template *t = paper("a5");
    ucr_megadungeon *md = dungeon("goblin-king", 3, 3);
    ucr_booklet *b = booklet(md, t, false);
    for (int i = 0; i < ucr_booklet_page_count(b); i++) {
        ucr_page_kind kind, prev = UCR_PAGE_COVER;
        ucr_booklet_page(b, i, NULL, NULL, &kind, NULL);
        if (i > 0)
            ucr_booklet_page(b, i - 1, NULL, NULL, &prev, NULL);
        if (kind != UCR_PAGE_MAP || prev == UCR_PAGE_MAP)
            continue;
        char *trace = page_trace(b, i);
        /* The first page of a map: even, unless its key starts and ends here. */
        bool whole_key = strstr(trace, "outline 2 \"Key\"") != NULL;
        if (whole_key && i + 1 < ucr_booklet_page_count(b)) {
            ucr_page_kind next;
            ucr_booklet_page(b, i + 1, NULL, NULL, &next, NULL);
            whole_key = next != UCR_PAGE_KEY;
        }
        ck_assert_msg((i + 1) % 2 == 0 || whole_key, "a map starts on right-hand page %d", i + 1);
        g_free(trace);
    }
    ucr_booklet_free(b);
    ucr_megadungeon_free(md);
    ucr_page_template_free(t);
}
END_TEST

/* The key's lines are broken on text shaped once (textblock.c), the way
 * Pango breaks them: every page of whole booklets, on every paper, with
 * player maps, traces the same as when Pango breaks every block itself. */
START_TEST(test_lines_broken_as_pango)
{
    static const char *const seeds[] = { "goblin-king", "lines-1", "lines-2", "Zauberküche" };
    int pages = 0;
    size_t n_seeds = g_getenv("UCR_SAN") ? 2 : G_N_ELEMENTS(seeds);
    for (size_t p = 0; p < G_N_ELEMENTS(PAPERS); p++) {
        ucr_page_template *t = paper(PAPERS[p]);
        for (size_t k = 0; k < n_seeds; k++) {
            ucr_megadungeon *md = dungeon(seeds[k], 2, 2);
            ucr_booklet *mine = booklet(md, t, k % 2 == 0);
            ucr_textblock_use_pango_breaking(TRUE);
            ucr_booklet *ref = booklet(md, t, k % 2 == 0);
            ucr_textblock_use_pango_breaking(FALSE);
            ck_assert_int_eq(ucr_booklet_page_count(mine), ucr_booklet_page_count(ref));
            for (int i = 0; i < ucr_booklet_page_count(ref); i++, pages++) {
                char *a = page_trace(mine, i), *b = page_trace(ref, i);
                if (strcmp(a, b) != 0) {
                    /* Name the first line that differs. */
                    char **la = g_strsplit(a, "\n", -1), **lb = g_strsplit(b, "\n", -1);
                    int j = 0;
                    while (la[j] && lb[j] && strcmp(la[j], lb[j]) == 0)
                        j++;
                    ck_abort_msg("%s, seed %s, page %d, trace line %d:\n  here:  %s\n  Pango: %s",
                                 PAPERS[p], seeds[k], i + 1, j + 1, la[j] ? la[j] : "(end)",
                                 lb[j] ? lb[j] : "(end)");
                }
                g_free(a);
                g_free(b);
            }
            ucr_booklet_free(mine);
            ucr_booklet_free(ref);
            ucr_megadungeon_free(md);
        }
        ucr_page_template_free(t);
    }
    ck_assert_int_gt(pages, g_getenv("UCR_SAN") ? 50 : 100);
}
END_TEST

/* A key's heading never stands alone at the foot of a page: the page
 * that has "Key to node X — Name" has the intro under it, which opens with
 * the name in bold.  On every paper, for nodes whose maps print whole and
 * leave part of their page. */
START_TEST(test_key_heading_with_its_intro)
{
    static const char *const seeds[] = { "goblin-king", "golden-1", "lines-2" };
    int headings = 0;
    for (size_t p = 0; p < G_N_ELEMENTS(PAPERS); p++) {
        ucr_page_template *t = paper(PAPERS[p]);
        for (size_t k = 0; k < G_N_ELEMENTS(seeds); k++) {
            ucr_megadungeon *md = dungeon(seeds[k], 3, 3);
            ucr_booklet *b = booklet(md, t, false);
            for (int i = 0; i < ucr_booklet_page_count(b); i++) {
                char *trace = page_trace(b, i);
                char **lines = g_strsplit(trace, "\n", -1);
                for (int j = 0; lines[j]; j++) {
                    if (!g_str_has_prefix(lines[j], "show_text \"Key to node ") || !strstr(lines[j], "Humor Sans"))
                        continue;
                    /* The name is the heading's last run, " Name" after the
                     * dash (which falls back to another face). */
                    int m = j + 1;
                    while (m <= j + 3 && lines[m] &&
                           !(g_str_has_prefix(lines[m], "show_text \" ") && strstr(lines[m], "Humor Sans")))
                        m++;
                    if (m > j + 3 || !lines[m])
                        continue;   /* "(continued)", or a node without a name */
                    const char *q = lines[m] + strlen("show_text \" ");
                    char *name = g_strndup(q, (gsize)(strstr(q, "\" font") - q));
                    char *intro = g_strdup_printf("show_text \"%s\" font \"DejaVu Sans\" bold", name);
                    ck_assert_msg(strstr(trace, intro), "%s, seed %s, page %d: the heading of %s's key has no intro under it",
                                  PAPERS[p], seeds[k], i + 1, name);
                    headings++;
                    g_free(intro);
                    g_free(name);
                }
                g_strfreev(lines);
                g_free(trace);
            }
            ucr_booklet_free(b);
            ucr_megadungeon_free(md);
        }
        ucr_page_template_free(t);
    }
    ck_assert_int_eq(headings, 4 * 3 * 9);
}
END_TEST

/* Every link lands on a destination the booklet defines; every map number
 * and room-table row links to its key entry; the outline has the cover,
 * the overview, each node with its map and key, and the player maps. */
START_TEST(test_links_and_outline)
{
    ucr_page_template *t = paper("a4");
    ucr_megadungeon *md = dungeon("goblin-king", 3, 3);
    ucr_booklet *b = booklet(md, t, true);
    GString *all = g_string_new(NULL);
    for (int i = 0; i < ucr_booklet_page_count(b); i++) {
        char *trace = page_trace(b, i);
        g_string_append(all, trace);
        g_free(trace);
    }
    GHashTable *dests = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    char **lines = g_strsplit(all->str, "\n", -1);
    for (int i = 0; lines[i]; i++)
        if (g_str_has_prefix(lines[i], "dest \"")) {
            const char *s = lines[i] + 6;
            g_hash_table_add(dests, g_strndup(s, strcspn(s, "\"")));
        }
    int links = 0, key_links = 0;
    for (int i = 0; lines[i]; i++) {
        const char *to = g_str_has_prefix(lines[i], "link") ? strstr(lines[i], " to \"") : NULL;
        const char *out = g_str_has_prefix(lines[i], "outline") ? strstr(lines[i], " to \"") : NULL;
        const char *d = to ? to : out;
        if (!d)
            continue;
        char *name = g_strndup(d + 5, strcspn(d + 5, "\""));
        ck_assert_msg(g_hash_table_contains(dests, name), "%s goes nowhere", lines[i]);
        links += to != NULL;
        key_links += to && g_str_has_prefix(name, "key-");
        g_free(name);
    }
    g_strfreev(lines);
    /* Each area: its number on the map and its row in the table. */
    int areas = 0;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        areas += (int)n->areas->len;
        char *d = g_strdup_printf("dest \"key-%s-%d\"", n->id, (int)n->areas->len);
        ck_assert_msg(strstr(all->str, d), "no %s", d);
        g_free(d);
    }
    /* Every area's number on the map links to its key entry, and a room's
     * row in the table too (a junction's row links only when it has an
     * entry of its own; "2 links an area" on the whole failed once clock
     * nodes drew more junctions, issue 22). */
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        for (guint a = 0; a < n->areas->len; a++) {
            const ucr_area *ar = &g_array_index(n->areas, ucr_area, a);
            char *to = g_strdup_printf(" to \"key-%s-%d\"", n->id, ar->key);
            int k = 0;
            for (const char *at = strstr(all->str, to); at; at = strstr(at + 1, to))
                k++;
            ck_assert_msg(k >= (ar->kind == UCR_AREA_ROOM ? 2 : 1), "%s %d: %d links to its key entry", n->id,
                          ar->key, k);
            g_free(to);
        }
    }
    ck_assert_int_ge(key_links, areas);
    ck_assert_int_ge(links, key_links + (int)md->nodes->len);
    const char *outline[] = { "outline 1 \"Cover\"", "outline 1 \"Overview\"", "outline 1 \"Node A",
                              "outline 2 \"Map\"", "outline 2 \"Key\"", "outline 1 \"Player maps\"",
                              "outline 2 \"Node I\"" };
    const char *at = all->str;
    for (gsize k = 0; k < G_N_ELEMENTS(outline); k++) {
        const char *f = strstr(at, outline[k]);
        ck_assert_msg(f, "outline entry %s missing or out of order", outline[k]);
        at = f;
    }
    ck_assert_msg(strstr(all->str, "set_info title \""), "no document title");
    g_hash_table_destroy(dests);
    g_string_free(all, TRUE);
    ucr_booklet_free(b);
    ucr_megadungeon_free(md);
    ucr_page_template_free(t);
}
END_TEST

/* Over 100 dungeons: a stair or ladder arrow on the overview points from
 * the shallower node to the deeper one. */
START_TEST(test_overview_arrows)
{
    int arrows = 0;
    for (int s = 1; s <= 100; s++) {
        char *seed = g_strdup_printf("arrows-%d", s);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 3, 3, tables, NULL, { 0 } };
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert(md);
        for (guint i = 0; i < md->tunnels->len; i++) {
            const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, i);
            int to = ucr_booklet_arrow_to(md, tu);
            const ucr_node *a = g_ptr_array_index(md->nodes, tu->from), *b = g_ptr_array_index(md->nodes, tu->to);
            if (tu->kind != UCR_TUNNEL_STAIRS && tu->kind != UCR_TUNNEL_LADDER) {
                ck_assert_int_eq(to, -1);
                continue;
            }
            if (a->depth == b->depth) {
                ck_assert_int_eq(to, -1);
                continue;
            }
            arrows++;
            const ucr_node *deep = g_ptr_array_index(md->nodes, to);
            const ucr_node *other = to == tu->to ? a : b;
            ck_assert_msg(deep->depth > other->depth, "seed %s: arrow to %s (level %d) from %s (level %d)",
                          seed, deep->id, deep->depth, other->id, other->depth);
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    ck_assert_int_gt(arrows, 20);
}
END_TEST

static const char *const KINDS[] = { "cover", "overview", "map", "key", "player-map", "notes" };

/* One page of each kind, as a readable trace: a layout change shows up as
 * a diff of these files. */
START_TEST(test_golden_pages)
{
    ucr_page_template *t = paper("a5");
    ucr_megadungeon *md = dungeon("golden-1", 2, 2);
    ucr_booklet *b = booklet(md, t, true);
    for (gsize k = 0; k < G_N_ELEMENTS(KINDS); k++) {
        int page = -1;
        for (int i = 0; i < ucr_booklet_page_count(b) && page < 0; i++) {
            ucr_page_kind kind;
            ucr_booklet_page(b, i, NULL, NULL, &kind, NULL);
            if ((int)kind == (int)k)
                page = i;
        }
        ck_assert_msg(page >= 0, "no %s page", KINDS[k]);
        char *trace = page_trace(b, page);
        char *path = g_strdup_printf("%s/tests/golden/booklet-a5-%s.trace", ucr_datadir(), KINDS[k]);
        ucr_test_golden(path, trace, "tests/check_booklet.c");
        g_free(path);
        g_free(trace);
    }
    ucr_booklet_free(b);
    ucr_megadungeon_free(md);
    ucr_page_template_free(t);
}
END_TEST

/* A symbol's kind as the legend shows it: "stairs:up" and "stairs:down"
 * are one symbol turned; NULL for what is no symbol (a layer, a number, a
 * label, the frame).  A label to deeper levels counts as "exit:below". */
static const char *symbol_kind(const char *group, char *buf, gsize len)
{
    static const char *const symbols[] = { "door:", "stairs:", "ladder:", "slope:", "trapdoor", "pit", "trap:sprung",
                                           "rubble", "obstacle:", "passage:", "room:", "stock:trap",
                                           "exit:collapsed", "exit:below" };
    for (gsize i = 0; i < G_N_ELEMENTS(symbols); i++)
        if (g_str_has_prefix(group, symbols[i])) {
            g_strlcpy(buf, group, len);
            for (const char *turn = ":up"; turn; turn = strcmp(turn, ":up") ? NULL : ":down")
                if (g_str_has_suffix(buf, turn) && (g_str_has_prefix(buf, "stairs") || g_str_has_prefix(buf, "ladder") ||
                                                    g_str_has_prefix(buf, "slope")))
                    buf[strlen(buf) - strlen(turn)] = '\0';
            return buf;
        }
    return NULL;
}

/* The symbol kinds drawn in @trace, added to @kinds. */
static void symbol_kinds(const char *trace, GHashTable *kinds)
{
    char **lines = g_strsplit(trace, "\n", -1);
    for (char **l = lines; *l; l++) {
        char buf[64];
        const char *k = NULL;
        if (g_str_has_prefix(*l, "begin_group "))
            k = symbol_kind(*l + strlen("begin_group "), buf, sizeof buf);
        else if (g_str_has_prefix(*l, "show_text ") && (strstr(*l, "\"below\"") || strstr(*l, "deeper levels\"")))
            k = "exit:below";
        if (k)
            g_hash_table_add(kinds, g_strdup(k));
    }
    g_strfreev(lines);
}

/* Every symbol a map draws is in the legend on the cover: the symbols of
 * the maps of eight dungeons against the legend's (it lacked the
 * passage dashed under a room, the pool, the trap's "T" and "below"). */
START_TEST(test_legend_has_every_map_symbol)
{
    ucr_page_template *t = paper("a4");
    GHashTable *on_maps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GHashTable *in_legend = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (int sd = 1; sd <= 8; sd++) {
        char seed[24];
        g_snprintf(seed, sizeof seed, sd == 1 ? "goblin-king" : "legend-%d", sd);
        ucr_megadungeon *md = dungeon(seed, 3, 3);
        ucr_booklet *b = booklet(md, t, false);
        for (int i = 0; i < ucr_booklet_page_count(b); i++) {
            ucr_page_kind kind;
            ucr_booklet_page(b, i, NULL, NULL, &kind, NULL);
            if (kind != UCR_PAGE_MAP && kind != UCR_PAGE_COVER)
                continue;
            char *trace = page_trace(b, i);
            symbol_kinds(trace, kind == UCR_PAGE_MAP ? on_maps : in_legend);
            g_free(trace);
        }
        ucr_booklet_free(b);
        ucr_megadungeon_free(md);
    }
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, on_maps);
    while (g_hash_table_iter_next(&it, &k, NULL))
        ck_assert_msg(g_hash_table_contains(in_legend, k), "the maps draw %s, the legend does not show it", (char *)k);
    /* The dungeons must draw what the legend once lacked. */
    const char *must[] = { "passage:under", "obstacle:pool", "stock:trap", "exit:below", "stairs", "door:secret" };
    for (gsize i = 0; i < G_N_ELEMENTS(must); i++)
        ck_assert_msg(g_hash_table_contains(on_maps, must[i]), "no map drew %s", must[i]);
    g_hash_table_destroy(on_maps);
    g_hash_table_destroy(in_legend);
    ucr_page_template_free(t);
}
END_TEST

static ucr_megadungeon *leximorph_dungeon(const char *seed, const char *word)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, ucr_node_method_lookup("leximorph"), { 0 } };
    ucr_leximorph_options lo = { .word = word };
    ucr_method_options_set(&opt.method_options, &ucr_leximorph_method, &lo);
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    ucr_megadungeon_stock(md, tables, seed);
    return md;
}

/* How many pages are maps, and how many of them print a part of a map. */
static int map_pages_count(const ucr_booklet *b, int *parts)
{
    int maps = 0;
    *parts = 0;
    for (int i = 0; i < ucr_booklet_page_count(b); i++) {
        ucr_page_kind kind;
        ucr_booklet_page(b, i, NULL, NULL, &kind, NULL);
        if (kind != UCR_PAGE_MAP)
            continue;
        char *trace = page_trace(b, i);
        /* A map's title is on its first page alone: a spread's right half
         * and a map's further parts go without it. */
        maps += strstr(trace, "begin_group title\n") != NULL;
        *parts += strstr(trace, "the parts overlap by") != NULL;
        g_free(trace);
    }
    return maps;
}

/* Issue #21: a standard node's map is never in parts on any shipped
 * paper, and every map is at the floor or more: whole on one page at 4 mm a
 * square on A4 and Letter, whole at 3.5 mm on A5 and digest, on one page or
 * across a spread of facing pages.  Standard nodes are trimmed to print so
 * (UCR_STANDARD_W x UCR_STANDARD_H, gen/node_method.h; doc/booklet.md,
 * "Sizes"): 3x3 dungeons of the mix, 2x2 of every method. */
#define FOLDED_FLOOR_MM 3.5
/* leximorph's four letters too: at most 43 squares wide, the margin narrowed
 * where no superstructure join needs it (gen/methods/leximorph.c,
 * size_narrow): 4.07 mm on A4 at worst. */
#define FLAT_FLOOR_MM 4.0

/* A dungeon of @seed: 3x3 of the mix (@method NULL), else 2x2, every node
 * by @method. */
static ucr_megadungeon *method_dungeon(const char *seed, const char *method)
{
    if (!method)
        return dungeon(seed, 3, 3);
    GError *error = NULL;
    ucr_gen_options opt = { seed, 2, 2, tables, ucr_node_method_lookup(method), { 0 } };
    ck_assert_ptr_nonnull(opt.method);
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    ucr_megadungeon_stock(md, tables, seed);
    return md;
}

START_TEST(test_maps_whole_at_floor)
{
    ucr_page_template *t = paper(PAPERS[_i]);
    static const struct {
        const char *seed, *method;
    } CASES[] = { { "goblin-king", NULL }, { "7", NULL },        { "floor", "grid" },
                  { "floor", "compass" },  { "floor", "clock" }, { "floor", "tictactoe" },
                  { "floor", "numbered" }, { "floor", "leximorph" }, { "floor", "pips" } };
    for (gsize d = 0; d < G_N_ELEMENTS(CASES); d++) {
        const char *what = CASES[d].method ? CASES[d].method : CASES[d].seed;
        ucr_megadungeon *md = method_dungeon(CASES[d].seed, CASES[d].method);
        double floor_pt = (t->folded ? FOLDED_FLOOR_MM : FLAT_FLOOR_MM) *
                          72 / 25.4;
        ucr_booklet *b = booklet(md, t, false);
        ck_assert_msg(ucr_booklet_min_part_square(b) == G_MAXDOUBLE, "%s, %s: a map in parts", t->name, what);
        ck_assert_msg(ucr_booklet_min_square(b) >= floor_pt - 1e-6, "%s, %s: a map at %.2f mm a square", t->name,
                      what, ucr_booklet_min_square(b) * 25.4 / 72);
        /* The last page is a back cover, never the tail of a key. */
        ucr_page_kind last;
        ucr_booklet_page(b, ucr_booklet_page_count(b) - 1, NULL, NULL, &last, NULL);
        ck_assert(!t->folded || last == UCR_PAGE_NOTES || last == UCR_PAGE_COVER);
        ucr_booklet_free(b);
        ucr_megadungeon_free(md);
    }
    ucr_page_template_free(t);
}
END_TEST

/* Issue #11: the reader sees a leximorph's word (seed 002) — its map on
 * one page of every template, whole: the rolled four letters and a
 * five-letter word on A4, Letter, A5 and digest; a nine-letter word on A4
 * and Letter, and in parts of at least min-square on the small pages. */
START_TEST(test_leximorph_whole)
{
    static const struct {
        const char *seed, *word;
        bool small_whole;   /* whole on A5 and digest too */
    } CASES[] = { { "goblin-king", NULL, true }, { "lexi-page", NULL, true }, { "blood", "BLOOD", true },
                  { "ab", "AB", true }, { "labyrinth", "LABYRINTH", false } };
    for (gsize c = 0; c < G_N_ELEMENTS(CASES); c++) {
        ucr_megadungeon *md = leximorph_dungeon(CASES[c].seed, CASES[c].word);
        for (gsize p = 0; p < G_N_ELEMENTS(PAPERS); p++) {
            ucr_page_template *t = paper(PAPERS[p]);
            ucr_booklet *b = booklet(md, t, false);
            int parts, maps = map_pages_count(b, &parts);
            if (!t->folded || CASES[c].small_whole) {
                ck_assert_msg(maps == (int)md->nodes->len && parts == 0,
                              "%s, %s: %d map pages (%d in parts) for %u nodes", t->name,
                              CASES[c].word ? CASES[c].word : CASES[c].seed, maps, parts, md->nodes->len);
                ck_assert(ucr_booklet_min_part_square(b) == G_MAXDOUBLE);
            } else {
                ck_assert_int_gt(parts, (int)md->nodes->len);
                ck_assert(ucr_booklet_min_part_square(b) >= t->min_square - 1e-6);
            }
            ck_assert(ucr_booklet_min_square(b) >= t->whole_square - 1e-6);
            ucr_booklet_free(b);
            ucr_page_template_free(t);
        }
        ucr_megadungeon_free(md);
    }
}
END_TEST

/* whole-square: at most min-square; left out, the A4 value (2.5 mm) or
 * min-square when that is smaller. */
START_TEST(test_whole_square_key)
{
    const double mm = 72 / 25.4;
    GError *error = NULL;
    const char *plain = "[page]\nname = t\n";
    ucr_page_template *t = ucr_page_template_parse("p.ini", plain, strlen(plain), &error);
    ck_assert_ptr_nonnull(t);
    ck_assert_double_eq_tol(t->whole_square, 2.5 * mm, 1e-9);
    ucr_page_template_free(t);
    const char *small = "[page]\nname = t\n[map]\nmin-square = 2.2\n";
    t = ucr_page_template_parse("p.ini", small, strlen(small), &error);
    ck_assert_ptr_nonnull(t);
    ck_assert_double_eq_tol(t->whole_square, 2.2 * mm, 1e-9);
    ucr_page_template_free(t);
    const char *above = "[page]\nname = t\n[map]\nmin-square = 3\nwhole-square = 3.5\n";
    t = ucr_page_template_parse("p.ini", above, strlen(above), &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    ck_assert_msg(g_str_has_prefix(error->message, "p.ini:5: map.whole-square: 3.5 mm is above min-square (3 mm)"),
                  "%s", error->message);
    g_clear_error(&error);
    /* Every shipped page template shrinks a map to 2.5 mm on one page, or
     * on a folded one to 3 mm across a spread, before parts. */
    for (gsize p = 0; p < G_N_ELEMENTS(PAPERS); p++) {
        t = paper(PAPERS[p]);
        ck_assert_double_eq_tol(t->whole_square, (t->folded ? 3 : 2.5) * mm, 1e-9);
        ck_assert_double_eq_tol(t->min_square, 4 * mm, 1e-9);
        ucr_page_template_free(t);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("booklet");
    TCase *tc = tcase_create("pages");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_templates, 0, G_N_ELEMENTS(PAPERS));
    tcase_add_test(tc, test_folded_facing);
    tcase_add_test(tc, test_links_and_outline);
    tcase_add_test(tc, test_lines_broken_as_pango);
    tcase_add_test(tc, test_key_heading_with_its_intro);
    tcase_add_test(tc, test_overview_arrows);
    tcase_add_test(tc, test_golden_pages);
    tcase_add_test(tc, test_legend_has_every_map_symbol);
    tcase_add_test(tc, test_leximorph_whole);
    tcase_add_test(tc, test_whole_square_key);
    tcase_add_loop_test(tc, test_maps_whole_at_floor, 0, G_N_ELEMENTS(PAPERS));
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
