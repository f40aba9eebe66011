/* Levels that make sense (DESIGN "Levels", issue #11), read back from the
 * model, the key and the laid-out maps over many seeds:
 *   - no node a hub of landings: the stairs from other nodes land where
 *     they keep a node under about a quarter of its areas as landings, or
 *     share a hall with other stairs, the methods' own stairs leave a node
 *     by about a quarter of its areas, and the analysis counts the hubs,
 *     with each method forced too;
 *   - no pocket without the key saying how it is reached: every part of a
 *     node that no passage joins to its tunnels or entrance is counted, and
 *     each of its areas is keyed either as reached only by the stairs that
 *     lead in or with why nothing reaches it; the stairs that land late
 *     open pockets rather than leave them shut;
 *   - map labels of stairs name their own flight: each lies nearer to its
 *     own landing than to any other (or hangs on a leader line), and no two
 *     labels overlap. */
#include <check.h>

#include "check_run.h"
#include "fixture.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "gen/kit/embed.h"
#include "gen/super/megadungeon.h"
#include "pipeline/pipeline.h"
#include "key/analysis.h"
#include "key/describe.h"
#include "layout/map.h"
#include "layout/style.h"
#include "layout/symbols.h"
#include "render/fonts.h"
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
static ucr_megadungeon *generate(const char *seed, const char *method)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, method ? ucr_node_method_lookup(method) : NULL, { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

static const ucr_area *area_at(const ucr_node *n, int i)
{
    return &g_array_index(n->areas, ucr_area, i);
}

static int find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* The parts of @n, counted afresh: areas joined by passages that are not
 * collapsed.  part[v] is the part of vertex v; returns the number of parts
 * with areas that hold no tunnel or entrance (when another part does, or
 * else all but the entry area's): the pockets. */
static int pockets_count(const ucr_node *n, int *part)
{
    int nv = (int)n->vertices->len, na = (int)n->areas->len;
    for (int v = 0; v < nv; v++)
        part[v] = v;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
        if (p->kind != UCR_EDGE_BLOCKED)
            part[find(part, p->a)] = find(part, p->b);
    }
    char *entered = g_new0(char, nv), *seen = g_new0(char, nv);
    bool any = false;
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->has_side || l->kind == UCR_LINK_ENTRANCE) {
            entered[find(part, l->area)] = 1;
            any = true;
        }
    }
    if (!any)
        entered[find(part, n->entry_area)] = 1;
    int pockets = 0;
    for (int a = 0; a < na; a++) {
        int r = find(part, a);
        if (!entered[r] && !seen[r]++)
            pockets++;
    }
    int *root = g_new(int, nv);
    for (int v = 0; v < nv; v++)
        root[v] = find(part, v);
    for (int v = 0; v < nv; v++)
        part[v] = entered[root[v]] ? -1 : root[v];
    g_free(root);
    g_free(entered);
    g_free(seen);
    return pockets;
}

START_TEST(levels_over_many_seeds)
{
    int seeds = g_getenv("UCR_SAN") ? 60 : 1000;
    long nodes = 0, hubs = 0, hubs_by_landed = 0, landed = 0, landed_in_pockets = 0, pockets = 0,
         pocket_areas = 0, unreachable = 0, areas = 0, off_level = 0, busy = 0, most_flights = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "levels-%d", s);
        ucr_megadungeon *md = generate(seed, NULL);
        int md_hubs = 0, md_pockets = 0;
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            int na = (int)n->areas->len;
            /* Landings: areas holding stairs or a ladder to elsewhere;
             * those landed late, and the node without them. */
            char *landing = g_new0(char, na), *own = g_new0(char, na);
            int landed_here = 0, *flights = g_new0(int, na);
            for (guint k = 0; k < n->links->len; k++) {
                const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                if (l->has_side)
                    continue;
                landing[l->area] = 1;
                flights[l->area]++;
                if (l->landed) {
                    landed_here++;
                    /* Stairs land one level from where they start. */
                    const ucr_node *from = g_ptr_array_index(md->nodes, l->to_node);
                    ck_assert_int_eq(abs(from->depth - n->depth), 1);
                } else {
                    own[l->area] = 1;
                }
            }
            int landings = 0, own_landings = 0;
            for (int a = 0; a < na; a++) {
                landings += landing[a];
                own_landings += own[a];
                /* A hall of more than UCR_EMBED_FLIGHTS_MAX flights: hard
                 * to tell apart on the map and in the key. */
                busy += flights[a] > UCR_EMBED_FLIGHTS_MAX;
                most_flights = MAX(most_flights, flights[a]);
            }
            g_free(flights);
            g_free(landing);
            g_free(own);
            ck_assert_int_eq(n->stats.landings, landings);
            bool hub = landings * 4 > na;
            hubs += hub;
            md_hubs += hub;
            hubs_by_landed += hub && own_landings * 4 <= na - landed_here;
            landed += landed_here;
            nodes++;
            /* Pockets: counted as the analysis counts them, and keyed. */
            int *part = g_new(int, n->vertices->len);
            int np = pockets_count(n, part);
            ck_assert_msg(n->stats.pockets == np, "seed %s node %s: %d pockets, analysis says %d", seed,
                          n->id, np, n->stats.pockets);
            pockets += np;
            md_pockets += np;
            for (int a = 0; a < na; a++) {
                const ucr_area *ar = area_at(n, a);
                areas++;
                char *key = ucr_key_area_markup(md, n, a, FALSE);
                /* Stairs inside the node change the level on the way; where
                 * it is joined to other nodes it is on the node's level, so
                 * that every stair between nodes goes one level. */
                ck_assert_int_ge(ar->level, 1);
                if (ar->link >= 0)
                    ck_assert_msg(ar->level == n->depth, "seed %s: %s-%d holds a link on level %d, node on %d",
                                  seed, n->id, ar->key, ar->level, n->depth);
                char on[48];
                g_snprintf(on, sizeof on, "On level %d</b>", ar->level);
                ck_assert_msg((ar->level != n->depth) == (strstr(key, on) != NULL), "seed %s: %s-%d on level %d: %s",
                              seed, n->id, ar->key, ar->level, key);
                off_level += ar->level != n->depth;
                if (ar->unreachable) {
                    unreachable++;
                    ck_assert_msg(strstr(key, "No route from the surface reaches it"),
                                  "seed %s: %s-%d unreachable, not said: %s", seed, n->id, ar->key, key);
                } else if (part[a] >= 0) {
                    /* In a pocket and reached: by the stairs or ladder it
                     * names, which stand in the same pocket. */
                    pocket_areas++;
                    ck_assert_msg(ar->pocket_way >= 0, "seed %s: %s-%d in a pocket without its way in", seed,
                                  n->id, ar->key);
                    ck_assert_int_eq(part[ar->pocket_way], part[a]);
                    bool stairs = false;
                    for (guint k = 0; k < n->links->len; k++) {
                        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                        stairs |= l->area == ar->pocket_way && !l->has_side;
                    }
                    ck_assert_msg(stairs, "seed %s: %s-%d's way in holds no stairs", seed, n->id, ar->key);
                    ck_assert_msg(strstr(key, "A pocket"), "seed %s: %s-%d pocket not keyed: %s", seed, n->id,
                                  ar->key, key);
                } else {
                    ck_assert_int_eq(ar->pocket_way, -1);
                    ck_assert_msg(!strstr(key, "A pocket"), "seed %s: %s-%d keyed a pocket", seed, n->id, ar->key);
                }
                g_free(key);
            }
            for (guint k = 0; k < n->links->len; k++) {
                const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                landed_in_pockets += l->landed && part[l->area] >= 0;
            }
            /* A passage with stairs between two areas says so at both ends. */
            for (guint k = 0; k < n->passages->len; k++) {
                const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
                /* Slopes keep the level: check_features reads them back. */
                guint steps = 0;
                for (guint q = 0; q < p->stairs->len; q++)
                    steps += !ucr_stair_is_slope(g_array_index(p->stairs, ucr_passage_stairs, q).stair);
                if (!steps || p->a >= na || p->b >= na || p->a == p->b)
                    continue;
                for (int end = 0; end < 2; end++) {
                    char *key = ucr_key_area_markup(md, n, end ? p->b : p->a, FALSE);
                    ck_assert_msg(strstr(key, " ft, stairs ") || strstr(key, " ft, a ladder ") ||
                                      strstr(key, " ft, ladders "),
                                  "seed %s: %s-%d does not say the stairs on its way to %d: %s", seed, n->id,
                                  area_at(n, end ? p->b : p->a)->key, area_at(n, end ? p->a : p->b)->key, key);
                    g_free(key);
                }
            }
            g_free(part);
        }
        ck_assert_int_eq(md->stats.hubs, md_hubs);
        ck_assert_int_eq(md->stats.pockets, md_pockets);
        ucr_megadungeon_free(md);
    }
    if (!g_getenv("UCR_SAN"))
        printf("levels: %d dungeons, %ld nodes: %ld hubs of landings (%ld by stairs landed there), "
               "%ld stairs landed (%ld into pockets); %ld pockets, %ld areas reached only by stairs, "
               "%ld of %ld areas unreachable, %ld off their node's level by stairs inside it; %ld halls of more "
               "than %d flights (%ld at most)\n",
               seeds, nodes, hubs, hubs_by_landed, landed, landed_in_pockets, pockets, pocket_areas,
               unreachable, areas, off_level, busy, UCR_EMBED_FLIGHTS_MAX, most_flights);
    /* Stairs from elsewhere share a hall with other stairs rather than make
     * a node a hub, grid's tunnel ends lead elsewhere by about a quarter of
     * the node's areas, compass rooms keep one stairwell: what hubs are
     * left are mostly pips nodes, seed 003's ways down from a few rooms
     * (before: 1,652 of 9,000 nodes were hubs, 304 by stairs landed there;
     * by count alone, before the nodes were drawn, 2,031; 655 while seed
     * 003's throw for the next floor outweighed sharing a hall, 478 since). */
    /* (Under the sanitizers, 60 dungeons: a looser bar for the smaller sample.) */
    ck_assert_msg(hubs * 100 < nodes * (g_getenv("UCR_SAN") ? 12 : 6), "%ld of %ld nodes are hubs of landings", hubs,
                  nodes);
    ck_assert_msg(hubs_by_landed * 200 < nodes, "%ld of %ld nodes hubs by stairs landed there", hubs_by_landed,
                  nodes);
    /* Stairs share a hall up to UCR_EMBED_FLIGHTS_MAX flights while a new
     * landing can be had (a level of one node below many pips ways down
     * had put a dozen in one room). */
    ck_assert_msg(busy == 0, "%ld halls of more than %d flights", busy, UCR_EMBED_FLIGHTS_MAX);
    /* Stairs that land late open pockets (how many depends on how many
     * pockets the methods leave: fewer since grid and clock close theirs). */
    ck_assert_msg(landed_in_pockets > 0, "none of %ld landed stairs opens a pocket (%ld pockets)", landed, pockets);
}
END_TEST

/* Hubs of landings with each method forced, counted as the analysis counts
 * them (areas holding a link without a side, more than a quarter of the
 * node's areas; the test above checks that count): pips, seed 003's ways
 * down from a few rooms, stays the seeds' control; the rest hold their
 * landings within a quarter of their areas. */
START_TEST(hubs_per_method)
{
    int seeds = g_getenv("UCR_SAN") ? 10 : 150;
    const ucr_node_method *const *all = ucr_node_methods();
    for (int m = 0; all[m]; m++) {
        long nodes = 0, hubs = 0, busy = 0;
        for (int s = 0; s < seeds; s++) {
            char seed[32];
            g_snprintf(seed, sizeof seed, "hubs-%d", s);
            ucr_megadungeon *md = generate(seed, all[m]->name);
            for (guint i = 0; i < md->nodes->len; i++) {
                const ucr_node *n = g_ptr_array_index(md->nodes, i);
                nodes++;
                hubs += n->stats.landings * 4 > (int)n->areas->len;
                int *flights = g_new0(int, n->areas->len);
                for (guint k = 0; k < n->links->len; k++) {
                    const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                    if (!l->has_side)
                        busy += ++flights[l->area] == UCR_EMBED_FLIGHTS_MAX + 1;
                }
                g_free(flights);
            }
            ucr_megadungeon_free(md);
        }
        /* pips: stairs come down where seed 003's throw for the next floor
         * finds stairs of that kind already, two flights in one hall, and
         * a landing of their own only within the node's quarter (65% of
         * nodes were hubs when the throw outweighed sharing a hall); what
         * is left are nodes whose own ways down, a fifth of the exit
         * throws, hold more than a quarter of their areas even after the
         * GM's added exits (gen/methods/pips.c). */
        int most = !strcmp(all[m]->name, "pips") ? 33 : !strcmp(all[m]->name, "compass") ? 12 : 3;
        if (g_getenv("UCR_SAN"))
            most += most / 2 + 2;   /* 90 nodes: a looser bar for the smaller sample */
        if (!g_getenv("UCR_SAN"))
            printf("hubs: %s %ld of %ld nodes; %ld halls of more than %d flights\n", all[m]->name, hubs, nodes, busy,
                   UCR_EMBED_FLIGHTS_MAX);
        ck_assert_msg(hubs * 100 <= nodes * most, "%s: %ld of %ld nodes hubs of landings", all[m]->name, hubs, nodes);
        ck_assert_msg(busy == 0, "%s: %ld halls of more than %d flights", all[m]->name, busy, UCR_EMBED_FLIGHTS_MAX);
    }
}
END_TEST

/* A text of a map's trace: its group, what it says, where. */
typedef struct {
    char group[48];
    char text[128];
    ucr_rect r;
    bool leader;           /* its group also strokes a line: a leader to what it names */
} label;

static GArray *trace_labels(const char *trace, const ucr_style *st)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(label));
    ucr_pen pen = { NULL, st, { 0, 1 }, fonts, 0 };
    char group[48] = "";
    int open = -1;   /* the label of the group being read */
    char **lines = g_strsplit(trace, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (!strncmp(l, "begin_group ", 12)) {
            g_strlcpy(group, l + 12, sizeof group);
            open = -1;
            continue;
        }
        if (!strncmp(l, "stroke_path", 11) && open >= 0) {
            g_array_index(out, label, open).leader = true;
            continue;
        }
        if (strncmp(l, "show_text \"", 11))
            continue;
        label t = { { 0 }, { 0 }, { 0, 0, 0, 0 }, false };
        g_strlcpy(t.group, group, sizeof t.group);
        const char *q = strchr(l + 11, '"');
        ck_assert_ptr_nonnull(q);
        char raw[128];
        g_strlcpy(raw, l + 11, MIN(sizeof raw, (size_t)(q - l - 11 + 1)));
        char *text = g_strcompress(raw);
        g_strlcpy(t.text, text, sizeof t.text);
        g_free(text);
        char family[64] = "";
        const char *f = strstr(q, "font \"");
        ck_assert_ptr_nonnull(f);
        const char *fe = strchr(f + 6, '"');
        g_strlcpy(family, f + 6, MIN(sizeof family, (size_t)(fe - f - 6 + 1)));
        double size, x, y;
        ck_assert_int_eq(sscanf(strstr(fe, "size "), "size %lf at %lf %lf", &size, &x, &y), 3);
        t.r = ucr_pen_text_rect(&pen, t.text, family, size, strstr(fe, " bold ") != NULL, x, y);
        g_array_append_val(out, t);
        open = (int)out->len - 1;
    }
    g_strfreev(lines);
    return out;
}

static double gap(ucr_rect a, ucr_rect b)
{
    double dx = MAX(0, MAX(a.x0 - b.x1, b.x0 - a.x1)), dy = MAX(0, MAX(a.y0 - b.y1, b.y0 - a.y1));
    return hypot(dx, dy);
}

static ucr_rect area_rect(const ucr_area *a)
{
    return (ucr_rect){ a->x, a->y, a->x + a->w, a->y + a->h };
}

/* The labels of stairs on node @n's map, laid out at @points_per_square:
 * the k-th "link:" label is the k-th link's; each stair label lies nearer
 * its own landing than any other landing, unless a leader line ties it to
 * it; no two labels overlap. */
static int check_stair_labels(const ucr_megadungeon *md, const ucr_node *n, const ucr_style *st,
                              double points_per_square, const char *what)
{
    GString *out = g_string_new(NULL);
    ucr_device *dev = ucr_trace_device_new(out);
    ucr_map_options opt = { .points_per_square = points_per_square };
    ucr_map_extent ext;
    ucr_map_draw_with(dev, md, n, st, fonts, &opt, &ext);
    ck_assert(ucr_device_close(dev, NULL));
    ucr_device_free(dev);
    GArray *labels = trace_labels(out->str, st);
    g_string_free(out, TRUE);
    int k = 0, checked = 0;
    for (guint i = 0; i < labels->len; i++) {
        const label *t = &g_array_index(labels, label, i);
        if (strncmp(t->group, "link:", 5) && strncmp(t->group, "number:", 7) && strncmp(t->group, "exit:", 5))
            continue;
        ucr_rect r = { t->r.x0 + 0.02, t->r.y0 + 0.02, t->r.x1 - 0.02, t->r.y1 - 0.02 };
        for (guint j = i + 1; j < labels->len; j++) {
            const label *o = &g_array_index(labels, label, j);
            ck_assert_msg(!(r.x0 < o->r.x1 && o->r.x0 < r.x1 && r.y0 < o->r.y1 && o->r.y0 < r.y1),
                          "%s: '%s' overlaps '%s'", what, t->text, o->text);
        }
        if (strncmp(t->group, "link:", 5))
            continue;
        ck_assert_int_lt(k, (int)n->links->len);
        const ucr_link *l = &g_array_index(n->links, ucr_link, k++);
        if (l->has_side || t->leader)
            continue;
        double mine = gap(r, area_rect(area_at(n, l->area)));
        for (guint m = 0; m < n->links->len; m++) {
            const ucr_link *o = &g_array_index(n->links, ucr_link, m);
            if (o->has_side || o->area == l->area)
                continue;
            ck_assert_msg(mine < gap(r, area_rect(area_at(n, o->area))),
                          "%s: '%s' (of %d, %.2f away) lies as near to the stairs of %d (%.2f)", what,
                          t->text, area_at(n, l->area)->key, mine, area_at(n, o->area)->key,
                          gap(r, area_rect(area_at(n, o->area))));
        }
        checked++;
    }
    ck_assert_int_eq(k, (int)n->links->len);
    g_array_free(labels, TRUE);
    return checked;
}

START_TEST(stair_labels_name_their_flight)
{
    int seeds = g_getenv("UCR_SAN") ? 4 : 40;
    static const char *methods[] = { "compass", NULL, "pips", "grid" };
    GError *error = NULL;
    ucr_style *st = ucr_style_load("ink", ucr_datadir(), &error);
    ck_assert_msg(st != NULL, "style: %s", error ? error->message : "?");
    int checked = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "labels-%d", s);
        ucr_megadungeon *md = generate(seed, methods[s % G_N_ELEMENTS(methods)]);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            char what[64];
            g_snprintf(what, sizeof what, "seed %s node %s (%s)", seed, n->id, n->method);
            /* As in the SVG/PNG maps, and as in an A4 booklet. */
            checked += check_stair_labels(md, n, st, UCR_MAP_FILE_CELL, what);
            checked += check_stair_labels(md, n, st, ucr_map_scale_to_fit(n, st, 539.0, 680.0), what);
        }
        ucr_megadungeon_free(md);
    }
    ck_assert_int_gt(checked, seeds * 9);
    ucr_style_free(st);
}
END_TEST

/* Levels in the booklet (issue #11, "a megadungeon has depth … a link never
 * skips levels without saying so"), read back over many mixed dungeons:
 *   - the nodes' levels run 1, 2, … to the deepest with none left out, and
 *     a 3 × 3 reaches level 3 at least;
 *   - every area lies on a level of the booklet, 1 to the deepest node's:
 *     stairs inside a node that would climb above level 1 (to the surface)
 *     or past the deepest level climb or descend and slope back, and the key
 *     says so where the party meets them;
 *   - every passage between two areas keys the level it leads to when that
 *     differs, and its stairs agree with the two levels or the key says it
 *     slopes back;
 *   - stairs and ladders between nodes go one level, tunnels say in their
 *     description how many levels they climb or descend. */
START_TEST(levels_stay_in_the_booklet)
{
    int seeds = g_getenv("UCR_SAN") ? 40 : 300;
    long held_at_top = 0, held_at_bottom = 0, flights = 0, deep = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "booklet-levels-%d", s);
        ucr_megadungeon *md = generate(seed, NULL);
        int deepest = 1;
        for (guint i = 0; i < md->nodes->len; i++)
            deepest = MAX(deepest, ((const ucr_node *)g_ptr_array_index(md->nodes, i))->depth);
        ck_assert_int_ge(deepest, 3);
        deep += deepest > 5;
        for (int l = 1; l <= deepest; l++) {
            bool any = false;
            for (guint i = 0; i < md->nodes->len; i++)
                any |= ((const ucr_node *)g_ptr_array_index(md->nodes, i))->depth == l;
            ck_assert_msg(any, "seed %s: no node on level %d of %d", seed, l, deepest);
        }
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint a = 0; a < n->areas->len; a++) {
                int lv = area_at(n, a)->level;
                ck_assert_msg(lv >= 1 && lv <= deepest, "seed %s: %s-%d on level %d, the booklet's are 1-%d", seed,
                              n->id, area_at(n, a)->key, lv, deepest);
            }
            for (guint k = 0; k < n->passages->len; k++) {
                const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
                int na = (int)n->areas->len;
                if (p->a >= na || p->b >= na)
                    continue;
                int descent = 0, steps = 0;
                for (guint x = 0; x < p->stairs->len; x++) {
                    ucr_stair st = g_array_index(p->stairs, ucr_passage_stairs, x).stair;
                    if (!ucr_stair_is_slope(st)) {
                        descent += ucr_stair_is_down(st) ? 1 : -1;
                        steps++;
                    }
                }
                const ucr_area *from = area_at(n, p->a), *to = area_at(n, p->b);
                if (!p->stairs->len && from->level == to->level)
                    continue;
                flights += descent != 0;
                /* As met from end a: the key of area a names b. */
                char *key = ucr_key_area_markup(md, n, p->a, FALSE);
                int slope = to->level - from->level - descent;
                /* Without stairs or ladders, a passage between levels
                 * slopes all the way. */
                char *want = !steps ? g_strdup_printf("sloping) to %d on level %d", to->key, to->level)
                             : slope ? g_strdup_printf("then sloping %s to level %d) to %d", slope > 0 ? "down" : "up",
                                                       to->level, to->key)
                                     : g_strdup_printf(") to %d on level %d", to->key, to->level);
                /* A door at the far end is named on the way: "sloping) to a
                 * secret door into 7 on level 1". */
                char *head = g_strndup(want, (gsize)(strstr(want, ") to ") + 5 - want));
                char *qh = g_regex_escape_string(head, -1), *qt = g_regex_escape_string(want + strlen(head), -1);
                char *pattern = g_strdup_printf("%s(?:[^;]* into )?%s(?![0-9])", qh, qt);
                if (slope || from->level != to->level)
                    ck_assert_msg(g_regex_match_simple(pattern, key, 0, 0),
                                  "seed %s: %s-%d to %d (levels %d, %d, stairs %+d): no '%s' in %s", seed, n->id,
                                  from->key, to->key, from->level, to->level, descent, want, key);
                g_free(pattern);
                g_free(qh);
                g_free(qt);
                g_free(head);
                held_at_top += slope > 0 && to->level == 1 && from->level + descent < 1;
                held_at_bottom += slope < 0 && to->level == deepest && from->level + descent > deepest;
                g_free(want);
                g_free(key);
            }
            for (guint k = 0; k < n->links->len; k++) {
                const ucr_link *l = &g_array_index(n->links, ucr_link, k);
                if (l->to_node < 0)
                    continue;
                const ucr_node *o = g_ptr_array_index(md->nodes, l->to_node);
                int d = o->depth - n->depth;
                if (l->kind == UCR_LINK_TUNNEL) {
                    char *says = d ? g_strdup_printf("%d level%s %s", abs(d), abs(d) > 1 ? "s" : "", d > 0 ? "down" : "up")
                                   : NULL;
                    ck_assert_msg(!says || strstr(l->via, says), "seed %s: tunnel %s-%s (%+d levels) says '%s'", seed,
                                  n->id, o->id, d, l->via);
                    g_free(says);
                } else if (l->kind != UCR_LINK_ENTRANCE) {
                    ck_assert_msg(abs(d) == 1, "seed %s: %s stairs %s-%s go %d levels", seed,
                                  ucr_link_kind_name(l->kind), n->id, o->id, d);
                }
            }
        }
        ucr_megadungeon_free(md);
    }
    printf("booklet levels: %d dungeons, %ld flights of stairs inside nodes, %ld held at level 1, %ld at the "
           "bottom level, %ld deeper than 5 levels\n",
           seeds, flights, held_at_top, held_at_bottom, deep);
    /* The rule is exercised: flights that would leave the booklet's levels. */
    ck_assert_int_gt(held_at_top, 0);
}
END_TEST

static Suite *levels_suite(void)
{
    Suite *s = suite_create("levels");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, levels_over_many_seeds);
    tcase_add_test(tc, hubs_per_method);
    tcase_add_test(tc, stair_labels_name_their_flight);
    tcase_add_test(tc, levels_stay_in_the_booklet);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(levels_suite());
}
