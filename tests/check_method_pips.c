/* Tests of the "pips" node method (seed 003, "Simple Random Dungeon"): the
 * tables it reads, the shared invariants over many seeds, and its own
 * (diamonds entered at their tips, loops only by accident). */
#include <check.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "core/error.h"
#include "gen/super/megadungeon.h"
#include "gen/kit/attach.h"
#include "gen/kit/embed.h"
#include "gen/methods/pips.h"
#include "model/json.h"
#include "invariants.h"
#include "pipeline/pipeline.h"

enum { SEEDS = 1000 };

static ucr_tables *tables;

static char *tables_dir(void)
{
    return g_build_filename(ucr_datadir(), "templates", "tables", NULL);
}

static void setup(void)
{
    tables = ucr_test_tables();
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

static ucr_megadungeon *generate(const char *seed, int cols, int rows)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, cols, rows, tables, ucr_node_method_lookup("pips"), { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

static const char *row_tag(const char *table, int roll)
{
    const ucr_table *t = ucr_tables_lookup(tables, table);
    ck_assert_ptr_nonnull(t);
    for (guint r = 0; r < t->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        if (roll >= row->lo && roll <= row->hi)
            return row->tag;
    }
    return NULL;
}

/* seed 003: "1 = 20 foot corridor dead ends; 2-3 = 60 feet of corridor;
 * 4-5 = room; 6 = elongated room", the central dot of 1, 3, 5 special. */
START_TEST(pips_table_is_the_mnemonic)
{
    static const char *const want[7] = { NULL, "dead-end", "corridor", "corridor-twice", "room", "room-twice",
                                         "long-room" };
    ck_assert_int_eq(ucr_tables_lookup(tables, "pips-what")->sides, 6);
    for (int pips = 1; pips <= 6; pips++)
        ck_assert_str_eq(row_tag("pips-what", pips), want[pips]);
    /* The dice map: four edges and the centre, each reachable. */
    static const char *const where[5] = { "north", "east", "south", "west", "centre" };
    const ucr_table *land = ucr_tables_lookup(tables, "pips-landing");
    for (int w = 0; w < 5; w++) {
        bool found = false;
        for (int r = 1; r <= land->sides * land->count; r++)
            found |= row_tag("pips-landing", r) && strcmp(row_tag("pips-landing", r), where[w]) == 0;
        ck_assert_msg(found, "the dice map never lands %s", where[w]);
    }
    ck_assert_str_eq(row_tag("pips-lie", 1), "square");
}
END_TEST

/* Issue #5: a user's table missing a [kind] the method reads is refused at
 * load, naming the file and line. */
START_TEST(broken_overlay_is_refused)
{
    char *user = g_dir_make_tmp("ucr-pips-XXXXXX", NULL);
    char *path = g_build_filename(user, "pips-what.txt", NULL);
    ck_assert(g_file_set_contents(path, "roll: 1d6\n1-3: a corridor\n4-6: [room] a room\n", -1, NULL));
    char *dir = tables_dir();
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(dir, user, &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    ck_assert_msg(strstr(error->message, "pips-what.txt:2:") != NULL, "%s", error->message);
    g_error_free(error);
    g_unlink(path);
    g_rmdir(user);
    g_free(path);
    g_free(user);
    g_free(dir);
}
END_TEST

typedef struct {
    long nodes, rooms, diamonds, diagonal_steps, crossings, secret, loops, stairs_out, areas, fives, threes;
    long tees, doorways, room_stairs, room_trapdoors, slopes, steps, alongside, trapdoors;
} tally;

static int find(int *parent, int v)
{
    while (parent[v] != v)
        v = parent[v] = parent[parent[v]];
    return v;
}

/* Loops only by accident: without its secret doors a pips node is a tree
 * (a forest), whatever the dice said. */
static void check_no_loops_but_secret(const ucr_node *n, const char *seed, tally *t)
{
    int nv = (int)n->vertices->len;
    int *parent = g_new(int, nv);
    for (int v = 0; v < nv; v++)
        parent[v] = v;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        if (p->kind == UCR_EDGE_SECRET) {
            t->secret++;
            continue;
        }
        int a = find(parent, p->a), b = find(parent, p->b);
        ck_assert_msg(a != b, "seed %s node %s: a loop not made by a secret door (passage %u)", seed, n->id, k);
        parent[a] = b;
    }
    g_free(parent);
}

/* The specials of the central dot, read back from the record: "For a 5,
 * roll the die twice to determine exits"; "For a 3, roll the die twice
 * when you reach the end of the corridor". */
static void check_specials(const ucr_node *n, const char *seed, tally *t)
{
    static GRegex *five, *three;
    if (!five) {
        five = g_regex_new("pips-what 1d6=5 \\(a room with two exits\\)[^;]*→ room ([0-9]+)", 0, 0, NULL);
        three = g_regex_new("pips-what 1d6=3 \\([^)]*\\)[^;]*→ 60 ft of corridor [a-z-]+(;|$)", 0, 0, NULL);
    }
    int threes = 0, agains = 0, unexplored = 0;
    for (guint r = 0; r < n->rolls->len; r++) {
        const char *line = g_ptr_array_index(n->rolls, r);
        GMatchInfo *mi;
        g_regex_match(five, line, 0, &mi);
        while (g_match_info_matches(mi)) {
            char *key = g_match_info_fetch(mi, 1);
            int a = ucr_test_area_by_key(n, atoi(key));
            ck_assert_int_ge(a, 0);
            ck_assert_msg(strstr(AREA(n, a)->rolled, "second exit") || strstr(AREA(n, a)->rolled, "map is full"),
                          "seed %s node %s: room %s rolled a 5 but not two exits: %s", seed, n->id, key,
                          AREA(n, a)->rolled);
            t->fives++;
            g_free(key);
            g_match_info_next(mi, NULL);
        }
        g_match_info_free(mi);
        g_regex_match(three, line, 0, &mi);
        while (g_match_info_matches(mi)) {
            threes++;
            g_match_info_next(mi, NULL);
        }
        g_match_info_free(mi);
        if (g_str_has_prefix(line, "corridor end") && strstr(line, "; again: "))
            agains++;
        if (strstr(line, "corridor ends unexplored"))
            unexplored++;
    }
    ck_assert_msg(agains >= threes - unexplored, "seed %s node %s: %d threes, %d thrown twice",
                  seed, n->id, threes, agains);
    t->threes += threes;
}

static bool door_at(const ucr_node *n, int area, int passage, ucr_door_kind *kind)
{
    for (guint i = 0; i < n->doors->len; i++) {
        const ucr_door *d = &g_array_index(n->doors, ucr_door, i);
        if (d->area == area && d->passage == passage) {
            if (kind)
                *kind = d->kind;
            return true;
        }
    }
    return false;
}

/* Seed 003's rules read back from the model and the record (issue 11):
 * "If the die lands in the center, the passage Ts, or has a doorway on
 * either side"; "If it lands in the center, the room has a trap door or
 * staircase; roll again for what's on the next floor"; "insert stairs or a
 * slope"; "If a passage or room is adjacent to an already-mapped area, feel
 * free to add a secret door". */
static void check_rules(const ucr_node *n, const char *seed, tally *t)
{
    for (guint r = 0; r < n->rolls->len; r++) {
        const char *line = g_ptr_array_index(n->rolls, r);
        for (const char *c = line; (c = strstr(c, "→ coin heads: the passage Ts")); c++)
            t->tees++;
        for (const char *c = line; (c = strstr(c, "→ coin tails: a doorway on either side")); c++)
            t->doorways++;
    }
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        const char *rolled = a->rolled ? a->rolled : "";
        /* A T has no doors where its ways part; the doorways are doors of
         * the junction where the passage ends, on the ways that leave it. */
        if (a->kind == UCR_AREA_JUNCTION &&
            (!strcmp(rolled, "where the ways part") || !strcmp(rolled, "the passage ends with a doorway on either side"))) {
            bool doorways = rolled[4] == 'p';
            int doors = 0;
            for (guint k = 0; k < n->passages->len; k++) {
                const ucr_passage *p = PASSAGE(n, k);
                /* Not embed's tunnels to the map's edge (or to the chamber
                 * on one, seed 004's) and landings. */
                const ucr_vertex *far = &g_array_index(n->vertices, ucr_vertex, p->a == (int)i ? p->b : p->a);
                const ucr_area *fa = far->kind == UCR_VERTEX_AREA ? AREA(n, far->area) : NULL;
                if (!doorways && (far->kind == UCR_VERTEX_EXIT || (fa && fa->kind == UCR_AREA_STAIRS) ||
                                  (fa && fa->rolled && g_str_has_prefix(fa->rolled, "superstructure tunnel "))))
                    continue;
                if (door_at(n, (int)i, (int)k, NULL)) {
                    doors++;
                }
            }
            if (doorways)
                ck_assert_msg(doors >= 1, "seed %s node %s: junction %d has no doorway", seed, n->id, a->key);
            else
                ck_assert_msg(doors == 0, "seed %s node %s: T junction %d has %d doors", seed, n->id, a->key, doors);
        }
        /* The room's own trap door or stairs, in its middle: the node's way
         * down, and the next floor's throw made. */
        bool centre = strstr(rolled, "→ in the centre: a way down") != NULL;
        if (a->kind == UCR_AREA_ROOM && centre)
            ck_assert_msg(a->stair == UCR_STAIR_DOWN || a->stair == UCR_LADDER_DOWN,
                          "seed %s node %s: room %d landed in the centre but has no way down", seed, n->id, a->key);
        if (a->kind == UCR_AREA_ROOM && (a->stair == UCR_STAIR_DOWN || a->stair == UCR_LADDER_DOWN)) {
            ck_assert_msg(centre && strstr(rolled, "in the middle of the room (pips-down 1d6=") &&
                              strstr(rolled, "; the next floor: pips-what 1d6="),
                          "seed %s node %s: room %d: %s", seed, n->id, a->key, rolled);
            ck_assert_int_eq(a->trapdoor, a->stair == UCR_LADDER_DOWN);
            ck_assert_int_eq(a->trapdoor, strstr(rolled, "a trapdoor with a ladder down in the middle") != NULL);
            ck_assert_msg(a->link >= 0, "seed %s node %s: room %d's way down leads nowhere", seed, n->id, a->key);
            bool linked = false;   /* the room may hold a tunnel's link as well */
            for (guint l = 0; l < n->links->len; l++) {
                const ucr_link *lk = &g_array_index(n->links, ucr_link, l);
                linked |= lk->area == (int)i &&
                          lk->kind == (a->trapdoor ? UCR_LINK_LADDER_DOWN : UCR_LINK_STAIRS_DOWN);
            }
            ck_assert_msg(linked, "seed %s node %s: room %d's way down is no link", seed, n->id, a->key);
            t->room_stairs++;
            t->room_trapdoors += a->trapdoor;
        }
        if (a->trapdoor) {
            ck_assert_int_eq(a->stair, UCR_LADDER_DOWN);
            t->trapdoors++;
        }
        /* The secret door from a corridor alongside a room: a junction on
         * the corridor, its halves in line, and one square of secret
         * passage into the room. */
        if (a->kind == UCR_AREA_JUNCTION && g_str_has_prefix(rolled, "a secret door into room ")) {
            int room = ucr_test_area_by_key(n, atoi(rolled + strlen("a secret door into room ")));
            ck_assert_int_ge(room, 0);
            /* (Embed may join the junction too: a landing, a tunnel.) */
            int halves = 0, secret = 0;
            ucr_point ends[8];
            for (guint k = 0; k < n->passages->len; k++) {
                const ucr_passage *p = PASSAGE(n, k);
                if (p->a != (int)i && p->b != (int)i)
                    continue;
                if (p->kind == UCR_EDGE_SECRET && p->cells->len == 1 && p->b == room) {
                    ucr_door_kind dk;
                    ck_assert(door_at(n, room, (int)k, &dk) && dk == UCR_DOOR_SECRET);
                    secret++;
                    continue;
                }
                if (halves < 8)
                    ends[halves++] = g_array_index(p->cells, ucr_point, p->a == (int)i ? 0 : p->cells->len - 1);
            }
            bool in_line = false;
            for (int e = 0; e < halves; e++)
                for (int f = e + 1; f < halves; f++)
                    in_line |= ends[e].x + ends[f].x == 2 * a->x && ends[e].y + ends[f].y == 2 * a->y;
            ck_assert_msg(secret == 1 && in_line, "seed %s node %s: junction %d: %d secret, not on a straight corridor",
                          seed, n->id, a->key, secret);
            t->alongside++;
        }
    }
    /* "insert stairs or a slope": either side of a crossing the same kind,
     * down then up under it, up then down over it.  One flight may pass
     * under (over) elements side by side, or a square of rock apart: a run
     * of crossings of one kind, the steps either side of the run. */
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
            int last = cr->last;
            while (x + 1 < p->crossings->len &&
                   g_array_index(p->crossings, ucr_crossing, x + 1).first <= last + 2) {
                x++;
                const ucr_crossing *nx = &g_array_index(p->crossings, ucr_crossing, x);
                ck_assert_msg(nx->kind == cr->kind, "seed %s node %s: one flight both under and over", seed, n->id);
                for (int c = last + 1; c < nx->first; c++)
                    for (guint s = 0; s < p->stairs->len; s++)
                        ck_assert_int_ne(g_array_index(p->stairs, ucr_passage_stairs, s).index, c);
                last = nx->last;
            }
            ucr_stair before = UCR_STAIR_NONE, after = UCR_STAIR_NONE;
            for (guint s = 0; s < p->stairs->len; s++) {
                const ucr_passage_stairs *ps = &g_array_index(p->stairs, ucr_passage_stairs, s);
                if (ps->index == cr->first - 1)
                    before = ps->stair;
                if (ps->index == last + 1)
                    after = ps->stair;
            }
            bool under = cr->kind == UCR_CROSS_UNDER;
            if (ucr_stair_is_slope(before)) {
                ck_assert_int_eq(before, under ? UCR_SLOPE_DOWN : UCR_SLOPE_UP);
                ck_assert_int_eq(after, under ? UCR_SLOPE_UP : UCR_SLOPE_DOWN);
                t->slopes++;
            } else {
                ck_assert_int_eq(before, under ? UCR_STAIR_DOWN : UCR_STAIR_UP);
                ck_assert_int_eq(after, under ? UCR_STAIR_UP : UCR_STAIR_DOWN);
                t->steps++;
            }
        }
        /* Slopes are only ever a crossing's. */
        for (guint s = 0; s < p->stairs->len; s++) {
            const ucr_passage_stairs *ps = &g_array_index(p->stairs, ucr_passage_stairs, s);
            bool at_crossing = false;
            for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
                const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
                at_crossing |= ps->index == cr->first - 1 || ps->index == cr->last + 1;
            }
            ck_assert(at_crossing || !ucr_stair_is_slope(ps->stair));
        }
    }
}

static void check_node(const ucr_node *n, const char *seed, tally *t)
{
    check_specials(n, seed, t);
    check_rules(n, seed, t);
    ck_assert_str_eq(n->method, "pips");
    t->nodes++;
    t->loops += n->stats.loops;
    t->areas += n->areas->len;
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        if (a->kind == UCR_AREA_ROOM)
            t->rooms++;
        if (a->diamond) {
            t->diamonds++;
            ck_assert_msg(a->kind == UCR_AREA_ROOM && a->w == a->h && a->w % 2 == 1 && a->w >= 3,
                          "seed %s node %s: diamond %d is %dx%d", seed, n->id, a->key, a->w, a->h);
        }
        /* Every room holds its pips, but a superstructure chamber (seed
         * 004's dice, gen/kit/attach.h). */
        if (a->kind == UCR_AREA_ROOM && !(a->rolled && g_str_has_prefix(a->rolled, "superstructure tunnel ")))
            ck_assert_msg(a->rolled && strstr(a->rolled, "room: pips-"),
                          "seed %s node %s: room %d without its dice", seed, n->id, a->key);
        if ((a->kind == UCR_AREA_STAIRS || a->kind == UCR_AREA_ROOM) &&
            (a->stair == UCR_STAIR_DOWN || a->stair == UCR_LADDER_DOWN))
            t->stairs_out++;
    }
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (guint c = 1; c < p->cells->len; c++) {
            ucr_point a = g_array_index(p->cells, ucr_point, c - 1), b = g_array_index(p->cells, ucr_point, c);
            t->diagonal_steps += a.x != b.x && a.y != b.y;
        }
        if (p->crossings)   /* (their steps: checked run by run above) */
            t->crossings += p->crossings->len;
    }
    /* Doors on a diamond's wall sit at its tips (the invariants' touches). */
    for (guint i = 0; i < n->doors->len; i++) {
        const ucr_door *d = &g_array_index(n->doors, ucr_door, i);
        const ucr_area *a = AREA(n, d->area);
        if (a->diamond)
            ck_assert(d->cell.x == a->x + a->w / 2 || d->cell.y == a->y + a->h / 2);
    }
    check_no_loops_but_secret(n, seed, t);
}

START_TEST(invariants_over_many_seeds)
{
    int seeds = g_getenv("UCR_SAN") ? SEEDS / 8 : SEEDS;
    if (g_getenv("UCR_SEEDS"))
        seeds = atoi(g_getenv("UCR_SEEDS"));
    tally t = { 0 };
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "pips-%d", s);
        ucr_megadungeon *md = generate(seed, 3, 3);
        ucr_test_check_megadungeon(md, seed);
        for (guint i = 0; i < md->nodes->len; i++)
            check_node(g_ptr_array_index(md->nodes, i), seed, &t);
        ucr_megadungeon_free(md);
    }
    printf("pips over %d seeds, %ld nodes: %.1f areas, %.1f rooms, %.2f diamonds, %.1f diagonal steps, "
           "%.2f crossings, %.2f secret doors, %.2f loops, %.2f ways down per node\n",
           seeds, t.nodes, (double)t.areas / t.nodes, (double)t.rooms / t.nodes, (double)t.diamonds / t.nodes,
           (double)t.diagonal_steps / t.nodes, (double)t.crossings / t.nodes, (double)t.secret / t.nodes,
           (double)t.loops / t.nodes, (double)t.stairs_out / t.nodes);
    printf("pips rules: %ld Ts, %ld doorways either side; %ld rooms with stairs or a trap door in the middle "
           "(%ld trap doors); %ld trap doors in all; crossings by %ld stairs, %ld slopes; %ld secret doors from "
           "a corridor alongside a room\n",
           t.tees, t.doorways, t.room_stairs, t.room_trapdoors, t.trapdoors, t.steps, t.slopes, t.alongside);
    /* Every rule shows up over many seeds. */
    ck_assert_int_gt(t.diamonds, t.nodes / 4);
    ck_assert_int_gt(t.diagonal_steps, t.nodes);
    ck_assert_int_gt(t.crossings, 0);
    ck_assert_int_gt(t.fives, t.nodes / 4);
    ck_assert_int_gt(t.threes, t.nodes / 4);
    ck_assert_int_gt(t.secret, 0);
    ck_assert_int_gt(t.stairs_out, t.nodes / 4);
    ck_assert_int_ge(t.rooms, t.nodes * 3);
    ck_assert_int_gt(t.tees, t.nodes / 10);
    ck_assert_int_gt(t.doorways, t.nodes / 10);
    ck_assert_int_gt(t.room_stairs, t.nodes / 4);
    ck_assert(t.room_trapdoors > 0 && t.room_trapdoors < t.room_stairs);
    ck_assert(t.slopes > 0 && t.steps > t.slopes);   /* pips-cross: 1 row in 3 a slope */
    ck_assert_int_gt(t.alongside, t.nodes / 20);
    /* Loops by the secret doors only (check_no_loops_but_secret): some
     * (seed 003's "feel free to add a secret door"), fewer than two a node. */
    ck_assert_msg(t.loops > t.nodes / 2 && t.loops < 2 * t.nodes, "%ld loops in %ld nodes", t.loops, t.nodes);
}
END_TEST

/* Nodes with fewer than 4 rooms over the suite's seeds (pips-0 …) at
 * @size; all nodes in @nodes, the areas the GM placed an exit on by a
 * junction's wall or a corridor's side in @sides. */
static int few_room_nodes(ucr_node_size size, int seeds, long *nodes, long *sides)
{
    int few = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "pips-%d", s);
        GError *error = NULL;
        ucr_gen_options opt = { seed, 3, 3, tables, ucr_node_method_lookup("pips"), { 0 } };
        opt.method_options.node_size = size;
        ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
        ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            int rooms = 0;
            for (guint a = 0; a < n->areas->len; a++)
                rooms += AREA(n, a)->kind == UCR_AREA_ROOM;
            for (guint r = 0; r < n->rolls->len; r++)
                *sides += strstr(g_ptr_array_index(n->rolls, r), "the GM adds an exit to a corridor's side") != NULL;
            (*nodes)++;
            if (rooms < 4) {
                few++;
                fprintf(stderr, "seed %s node %s (%s): %d rooms\n", seed, n->id,
                        size == UCR_NODE_POCKET ? "pocket" : "standard", rooms);
            }
        }
        ucr_megadungeon_free(md);
    }
    return few;
}

/* Issue #22: no sublevel of fewer than 4 rooms.  Where the dice leave the
 * rooms and the start no wall for another exit, seed 003's GM ("If you
 * decide you need more exits, you can go back and place them manually")
 * places it on a junction's wall or a corridor's side with open rock
 * beyond, failing those on a dead end extended into the rock, the die
 * thrown first deciding which way (before: 0.5% of the standard nodes,
 * 1.1% of the pocket ones under 4 rooms; fails on that code). */
START_TEST(no_node_under_four_rooms)
{
    int seeds = g_getenv("UCR_SAN") ? SEEDS / 8 : SEEDS;
    static const ucr_node_size sizes[2] = { UCR_NODE_STANDARD, UCR_NODE_POCKET };
    for (int k = 0; k < 2; k++) {
        long nodes = 0, sides = 0;
        int few = few_room_nodes(sizes[k], seeds, &nodes, &sides);
        printf("pips (%s) over %d seeds: %d of %ld nodes under 4 rooms; %ld exits on a corridor's side\n",
               k ? "pocket" : "standard", seeds, few, nodes, sides);
        /* None at either size.  A pocket map may leave the GM no straight
         * corridor, junction or dead end with rock beyond (its open rock
         * all beside diagonal corridors, or taken by the way in): the GM
         * then draws the sublevel again (3 of 9,000 over these seeds
         * before pips7, 6 after it, 1 before pips8's dead ends, 0 since;
         * stats-1 … stats-1000: 1 before the GM drew it again, stats-830's
         * node B, see below). */
        ck_assert_msg(few == 0, "%s: %d of %ld nodes with fewer than 4 rooms", k ? "pocket" : "standard", few, nodes);
        ck_assert_int_gt(sides, 0);
    }
}
END_TEST

/* Issue #22: stats-673's node B had 2 rooms at the standard size: every
 * room wall taken, the corridors with rock beside them diagonal, the GM's
 * thirty added exits all walled up.  Seed 003's GM goes back and places
 * the exit manually: a dead end extended a square into the rock, the way
 * out of the junction there; recorded in the node's rolls as the GM's
 * other exits are (fails on the code before: node B, 2 rooms).  Since
 * pips9 (rooms drawn aside at the map's edge) stats-673 no longer needs
 * the extension; stats-4 does. */
/* The GM's dead ends extended into the rock in seed @seed's dungeon,
 * each checked (its junction the GM's, the exit's throw recorded), every
 * node of 4 rooms or more. */
static int extended_dead_ends(const char *seed)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, 3, 3, tables, ucr_node_method_lookup("pips"), { 0 } };
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "%s", error ? error->message : "?");
    int extended = 0;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        int rooms = 0;
        for (guint a = 0; a < n->areas->len; a++)
            rooms += AREA(n, a)->kind == UCR_AREA_ROOM;
        ck_assert_msg(rooms >= 4, "%s node %s: %d rooms", seed, n->id, rooms);
        for (guint r = 0; r < n->rolls->len; r++) {
            const char *roll = g_ptr_array_index(n->rolls, r);
            const char *at = strstr(roll, "the GM adds an exit to a dead end extended into the rock, junction ");
            if (!at)
                continue;
            extended++;
            /* The junction is the GM's, and the exit's throw is recorded. */
            int key = atoi(at + strlen("the GM adds an exit to a dead end extended into the rock, junction "));
            ck_assert_int_gt(key, 0);
            ck_assert_int_le(key, (int)n->areas->len);
            const ucr_area *jn = AREA(n, key - 1);
            ck_assert_int_eq(jn->kind, UCR_AREA_JUNCTION);
            ck_assert(g_str_has_prefix(jn->rolled, "where the GM extends a dead end into the rock"));
            ck_assert(r + 1 < n->rolls->len);
            char *throw_of = g_strdup_printf("area %d: pips-what", key);
            ck_assert_msg(strstr(g_ptr_array_index(n->rolls, r + 1), throw_of) != NULL, "%s",
                          (const char *)g_ptr_array_index(n->rolls, r + 1));
            g_free(throw_of);
        }
    }
    ucr_megadungeon_free(md);
    return extended;
}

START_TEST(dead_end_extended_where_no_wall_is_free)
{
    int extended = extended_dead_ends("stats-673") + extended_dead_ends("stats-4");
    ck_assert_int_gt(extended, 0);
}
END_TEST

/* Issue #22: a room whose walls its exits were thrown to have no way out
 * where the way ends (beside the map's edge, run into it, or a door beyond
 * the room before) is drawn where they have one: the way turned from the
 * edge, stopped short of it, or the way in longer.  Its rolls say so, and
 * its exits then leave by the walls the die landed by (fails on the code
 * before pips11: no such room).  Returns the rooms of seed @seed's
 * dungeon drawn so, as @what says, whose exits all kept their walls. */
static int rooms_moved_for_exits(const char *seed, const char *what)
{
    ucr_megadungeon *md = generate(seed, 3, 3);
    int kept = 0;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        for (guint r = 0; r < n->rolls->len; r++) {
            const char *line = g_ptr_array_index(n->rolls, r);
            const char *at = strstr(line, what);
            const char *to = at ? strstr(at, "→ room ") : NULL;
            if (!to)
                continue;
            char *head = g_strdup_printf("room %d: ", atoi(to + strlen("→ room ")));
            for (guint x = 0; x < n->rolls->len; x++) {
                const char *exits = g_ptr_array_index(n->rolls, x);
                kept += g_str_has_prefix(exits, head) && !strstr(exits, "(that wall ");
            }
            g_free(head);
        }
    }
    ucr_megadungeon_free(md);
    return kept;
}

START_TEST(room_drawn_where_its_exits_find_room)
{
    /* Over a few seeds, not one: each change to the maps moves which
     * seed holds one. */
    static const char *what[] = {
        "ft longer, where its exits find room", "short of the map's edge, where its exits find room",
        "from the map's edge, where its exits find room",
        /* a room a door beyond another, the way in jogging 10 or 20 ft on
         * and then to one side (fails on the code before pips12) */
        "ft on, then ",
    };
    for (guint k = 0; k < G_N_ELEMENTS(what); k++) {
        int kept = 0;
        for (int s = 1; s <= 6; s++) {
            char seed[16];
            g_snprintf(seed, sizeof seed, "stats-%d", s);
            kept += rooms_moved_for_exits(seed, what[k]);
        }
        ck_assert_msg(kept > 0, "no room drawn so over stats-1 … 6: %s", what[k]);
    }
}
END_TEST

/* Issue #22, seed 003's exit by the wall the die landed by: both exits of
 * a room thrown to a wall with room for one door only (a diamond's tip, a
 * short wall) leave by that door, parting at a junction just outside it;
 * the second keeps its wall.  Returns the rooms of seed @seed's dungeon
 * so drawn, and in *@diamonds those that are diamonds (fails on the code
 * before pips12: the second exit went to another wall). */
static int rooms_pair_by_one_door(const char *seed, int *diamonds)
{
    ucr_megadungeon *md = generate(seed, 3, 3);
    int kept = 0;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        for (guint r = 0; r < n->rolls->len; r++) {
            const char *line = g_ptr_array_index(n->rolls, r);
            const char *pair = strstr(line, "; both exits by one door, parting ");
            const char *second = pair ? strstr(pair, "; second exit: ") : NULL;
            if (!second || !g_str_has_prefix(line, "room "))
                continue;
            ck_assert_msg(!strstr(second, "(that wall "), "seed %s node %s: %s", seed, n->id, line);
            ck_assert_msg(strstr(second, "by its door: the way out parts from the way there at junction "),
                          "seed %s node %s: %s", seed, n->id, line);
            int key = atoi(line + strlen("room "));
            for (guint k = 0; k < n->areas->len; k++)
                *diamonds += AREA(n, k)->key == key && AREA(n, k)->diamond;
            kept++;
        }
    }
    ucr_megadungeon_free(md);
    return kept;
}

START_TEST(two_exits_by_one_door)
{
    int diamonds = 0, kept = 0;
    for (int s = 1; s <= 4; s++) {
        char seed[16];
        g_snprintf(seed, sizeof seed, "stats-%d", s);
        kept += rooms_pair_by_one_door(seed, &diamonds);
    }
    ck_assert_int_ge(kept, 3);
    ck_assert_int_ge(diamonds, 1);
}
END_TEST

/* Issue #22: stats-830's pocket node B closed at 1 room, its open rock all
 * beside a diagonal corridor, no dead end with rock beyond: no exit the
 * GM could add.  The GM draws that sublevel again, and its rolls say why
 * (fails on the code before: node B, 1 room). */
START_TEST(sublevel_drawn_again_where_no_exit_fits)
{
    GError *error = NULL;
    ucr_gen_options opt = { "stats-830", 3, 3, tables, ucr_node_method_lookup("pips"), { 0 } };
    opt.method_options.node_size = UCR_NODE_POCKET;
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "%s", error ? error->message : "?");
    int again = 0;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        int rooms = 0;
        for (guint a = 0; a < n->areas->len; a++)
            rooms += AREA(n, a)->kind == UCR_AREA_ROOM;
        ck_assert_msg(rooms >= 4, "stats-830 node %s: %d rooms", n->id, rooms);
        for (guint r = 0; r < n->rolls->len; r++)
            if (strstr(g_ptr_array_index(n->rolls, r), "the sublevel drawn before closed at 1 room, with no rock "
                                                       "left for the GM's exits, so the GM drew it again")) {
                ck_assert_str_eq(n->id, "B");
                again++;
            }
    }
    ck_assert_int_eq(again, 1);
    ucr_megadungeon_free(md);
}
END_TEST

/* How far area @a's middle lies from side @side of @n's map, in half
 * squares (-1: from the map's middle), as gen/kit/embed.c measures it. */
static int side_distance(const ucr_node *n, const ucr_area *a, int side)
{
    int x2 = 2 * a->x + a->w, y2 = 2 * a->y + a->h;
    switch (side) {
    case UCR_NORTH: return y2;
    case UCR_SOUTH: return 2 * n->height - y2;
    case UCR_WEST: return x2;
    case UCR_EAST: return 2 * n->width - x2;
    default: return abs(x2 - n->width) + abs(y2 - n->height);
    }
}

/* The passage that ends at area @ai (its vertex b), or NULL. */
static const ucr_passage *passage_into(const ucr_node *n, int ai)
{
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, k);
        if (p->b == ai)
            return p;
    }
    return NULL;
}

typedef struct {
    long thrown, out, reached, hinted, at_start, start_anyway, rooms, long_rooms, corridors, dead_ends;
    long shared;      /* of the hinted: beside stairs there already */
    long missed[4];   /* by what was thrown: dead end, corridor, room, elongated room */
} next_tally;

/* seed 003: "If it lands in the center, the room has a trap door or
 * staircase; roll again for what's on the next floor."  The throw recorded
 * for the next floor says where the stairs come down in the node below: read
 * from the record of the room above, checked on the model below. */
static void check_next_floor(const ucr_megadungeon *md, const ucr_node *n, int ai, const char *seed, next_tally *t)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, ai);
    const char *at = a->rolled ? strstr(a->rolled, "the next floor: ") : NULL;
    if (!at)
        return;
    at += strlen("the next floor: ");
    const char *lie = strstr(at, "pips-lie 1d6=");
    ck_assert_ptr_nonnull(lie);
    char *thrown = g_strndup(at, (gsize)(strchr(lie, ')') + 1 - at));
    int what_roll = 0, landing_roll = 0;
    ck_assert_int_eq(sscanf(thrown, "pips-what 1d6=%d", &what_roll), 1);
    ck_assert_int_eq(sscanf(strstr(thrown, "pips-landing"), "pips-landing 1d10=%d", &landing_roll), 1);
    const char *what = row_tag("pips-what", what_roll), *landing = row_tag("pips-landing", landing_roll);
    int side = -1;
    for (int d = 0; d < 4; d++)
        if (strcmp(landing, ucr_dir_name((ucr_dir)d)) == 0)
            side = d;
    t->thrown++;
    const ucr_link *l = NULL;
    for (guint k = 0; k < n->links->len && !l; k++) {
        const ucr_link *c = &g_array_index(n->links, ucr_link, k);
        /* The room's own way down, not stairs from elsewhere that landed
         * or came up in it (a hall that holds several flights). */
        if (c->area == ai && !c->has_side && !c->landed &&
            (c->kind == UCR_LINK_STAIRS_DOWN || c->kind == UCR_LINK_LADDER_DOWN))
            l = c;
    }
    ck_assert_msg(l != NULL, "seed %s node %s: room %d's stairs lead nowhere", seed, n->id, a->key);
    if (l->exit != UCR_EXIT_NONE) {
        t->out++;
        g_free(thrown);
        return;
    }
    t->reached++;
    const ucr_node *below = g_ptr_array_index(md->nodes, l->to_node);
    const ucr_area *to = &g_array_index(below->areas, ucr_area, l->to_area);
    char *said = g_strdup_printf("as the die thrown for the next floor said (%s)", thrown);
    char *same = g_strdup_printf("the die thrown above for the next floor found the same: ");
    if (to->stair != ucr_stair_opposite(a->stair)) {
        /* A hall that held other stairs already (the megadungeon shares one
         * rather than make the node a hub of landings): its first flight is
         * the area's, this one a link of it. */
        int flights = 0;
        for (guint k = 0; k < below->links->len; k++) {
            const ucr_link *c = &g_array_index(below->links, ucr_link, k);
            flights += c->area == l->to_area && !c->has_side;
        }
        ck_assert_msg(flights >= 2, "seed %s node %s: area %d holds %d stairs, not the opposite of %d's", seed,
                      below->id, to->key, to->stair, a->key);
    }
    const char *what_name = strcmp(what, "dead-end") == 0 ? "at the end of a dead end"
                            : g_str_has_prefix(what, "corridor") ? "at the end of a corridor"
                            : strcmp(what, "long-room") == 0 ? "in the middle of an elongated room"
                                                             : "in the middle of a room";
    char *anyway = g_strdup_printf("the die thrown above for the next floor said %s (%s), but the stairs from above "
                                   "come down at the start all the same", what_name, thrown);
    /* Other stairs may share the start (their records name their throws
     * too): this throw's own words. */
    char *same_this = g_strdup_printf("%s%s (%s)", same, what_name, thrown);
    if (to->rolled && strstr(to->rolled, anyway)) {
        /* No stairs from above agreed with the start below, which was drawn
         * from its own throw: the first came down there all the same (no
         * start is left the foot of a stair that leads nowhere). */
        t->start_anyway++;
        ck_assert_msg(g_str_has_prefix(to->rolled, "the start: stairs down from above"), "seed %s node %s: %s",
                      seed, below->id, to->rolled);
    } else if (to->rolled && strstr(to->rolled, same_this)) {
        /* The start below: its own throw found the same at the foot of its
         * stairs. */
        t->at_start++;
        ck_assert_msg(g_str_has_prefix(to->rolled, "the start: stairs down from above"), "seed %s node %s: %s",
                      seed, below->id, to->rolled);
        int start_roll = 0;
        const char *st = strstr(to->rolled, "pips-what 1d6=");
        ck_assert_int_eq(sscanf(st, "pips-what 1d6=%d", &start_roll), 1);
        const char *start_what = row_tag("pips-what", start_roll);
        bool room = g_str_has_prefix(what, "room"), start_room = g_str_has_prefix(start_what, "room");
        bool corr = g_str_has_prefix(what, "corridor"), start_corr = g_str_has_prefix(start_what, "corridor");
        ck_assert_msg(room == start_room && corr == start_corr &&
                      (room || corr || strcmp(what, start_what) == 0),
                      "seed %s node %s: the throw said %s, the start found %s", seed, below->id, what, start_what);
    } else if (to->rolled && strstr(to->rolled, said)) {
        t->hinted++;
        /* Stairs whose throw found stairs of that kind there already come
         * down beside them ("here too"): a hall of two flights or more. */
        const char *clause = strstr(to->rolled, said);
        while (clause > to->rolled && strncmp(clause, "; ", 2) != 0)
            clause--;
        char *mine = g_strndup(clause, (gsize)(strstr(to->rolled, said) - clause));
        bool shared = strstr(mine, " here too, ") != NULL;
        g_free(mine);
        int flights = 0;
        for (guint k = 0; k < below->links->len; k++) {
            const ucr_link *c = &g_array_index(below->links, ucr_link, k);
            flights += c->area == l->to_area && !c->has_side;
        }
        if (shared) {
            t->shared++;
            ck_assert_msg(flights >= 2, "seed %s node %s: area %d shared by %d flights", seed, below->id, to->key,
                          flights);
        }
        char *words = g_strdup_printf("%s %s", side < 0 ? "near the middle" : "towards the",
                                      side < 0 ? "of the map" : ucr_dir_name((ucr_dir)side));
        ck_assert_msg(strstr(to->rolled, words), "seed %s node %s: %s", seed, below->id, to->rolled);
        g_free(words);
        if (strcmp(what, "dead-end") == 0) {
            /* "20 foot corridor dead ends": the dead end leads to them now. */
            t->dead_ends++;
            ck_assert_int_eq(to->kind, UCR_AREA_STAIRS);
            ck_assert_ptr_nonnull(passage_into(below, l->to_area));
        } else if (g_str_has_prefix(what, "corridor")) {
            /* At the end of a corridor off an area on that side. */
            t->corridors++;
            ck_assert_int_eq(to->kind, UCR_AREA_STAIRS);
            const ucr_passage *p = passage_into(below, l->to_area);
            ck_assert_ptr_nonnull(p);
            /* A new one runs 60 ft at most; stairs there already may end a
             * longer one (seed 003's own, 20 ft past a 60-ft corridor). */
            ck_assert(p->cells->len >= 2 && (p->cells->len <= 6 || shared));
            const ucr_area *from = &g_array_index(below->areas, ucr_area, p->a);
            if (side >= 0)
                ck_assert_msg(side_distance(below, from, side) < side_distance(below, from, (side + 2) % 4),
                              "seed %s node %s: the corridor to %d leaves from the wrong side", seed, below->id,
                              to->key);
        } else {
            /* In the middle of a room: the free room nearest that side (a 6:
             * an elongated one while one is free).  Rooms free now were free
             * then; stairs landed once the nodes were drawn may have been
             * kept to a part of the node, so only those landed while it was
             * drawn are checked for nearness. */
            bool elongated = strcmp(what, "long-room") == 0;
            t->rooms += !elongated;
            t->long_rooms += elongated;
            ck_assert_int_eq(to->kind, UCR_AREA_ROOM);
            bool to_long = to->w != to->h && !to->diamond;
            const ucr_link *tl = NULL;
            for (guint k = 0; k < below->links->len && !tl; k++) {
                const ucr_link *c = &g_array_index(below->links, ucr_link, k);
                if (c->area == l->to_area && c->to_node >= 0 && c->to_area == ai)
                    tl = c;
            }
            ck_assert_ptr_nonnull(tl);
            for (guint r = 0; r < below->areas->len; r++) {
                const ucr_area *o = &g_array_index(below->areas, ucr_area, r);
                /* Not a superstructure chamber: drawn on its tunnel after
                 * the node and its first arrival (gen/kit/attach.h). */
                if (o->kind != UCR_AREA_ROOM || (int)r == l->to_area ||
                    (o->rolled && g_str_has_prefix(o->rolled, "superstructure tunnel ")))
                    continue;
                bool o_long = o->w != o->h && !o->diamond;
                if (shared) {
                    /* Shared while the node was drawn: among the rooms
                     * that held their own ways down then, the nearest. */
                    bool own = false;
                    int held_here = 0;
                    for (guint k = 0; k < below->links->len; k++) {
                        const ucr_link *c = &g_array_index(below->links, ucr_link, k);
                        own |= c->area == (int)r && !c->has_side && !c->landed &&
                               (c->kind == UCR_LINK_STAIRS_DOWN || c->kind == UCR_LINK_LADDER_DOWN);
                        held_here += c->area == (int)r && !c->has_side;
                    }
                    /* A room holding as many flights as one may (the
                     * others' stairs came down there) takes no more. */
                    own &= held_here < UCR_EMBED_FLIGHTS_MAX;
                    if (own && !tl->landed && (!elongated || o_long == to_long))
                        ck_assert_msg(side_distance(below, o, side) >= side_distance(below, to, side),
                                      "seed %s node %s: room %d with stairs is nearer the %s than room %d", seed,
                                      below->id, o->key, landing, to->key);
                    continue;
                }
                if (elongated && !to_long && o_long && !tl->landed)
                    ck_assert_msg(o->stair != UCR_STAIR_NONE, "seed %s node %s: elongated room %d was free",
                                  seed, below->id, o->key);
                if (o->stair == UCR_STAIR_NONE && !tl->landed && (!elongated || o_long == to_long))
                    ck_assert_msg(side_distance(below, o, side) >= side_distance(below, to, side),
                                  "seed %s node %s: room %d is nearer the %s than room %d", seed, below->id,
                                  o->key, landing, to->key);
            }
        }
    } else {
        int k = strcmp(what, "dead-end") == 0 ? 0 : g_str_has_prefix(what, "corridor") ? 1
                : strcmp(what, "long-room") == 0 ? 3 : 2;
        t->missed[k]++;
        /* A throw not honoured is not hidden: the record below says what
         * it said, and why the stairs are elsewhere. */
        char *unmet = g_strdup_printf("though the die thrown for the next floor said %s %s%s (%s): ", what_name,
                                      side < 0 ? "near the middle of the map" : "towards the ",
                                      side < 0 ? "" : ucr_dir_name((ucr_dir)side), thrown);
        ck_assert_msg(to->rolled && strstr(to->rolled, unmet),
                      "seed %s node %s: area %d does not say the throw (%s) was not honoured: %s", seed, below->id,
                      to->key, thrown, to->rolled ? to->rolled : "(no record)");
        g_free(unmet);
    }
    g_free(said);
    g_free(same);
    g_free(anyway);
    g_free(same_this);
    g_free(thrown);
}

START_TEST(next_floor_throw_decides_the_landing_below)
{
    int seeds = g_getenv("UCR_SAN") ? 40 : 300;
    next_tally t = { 0 };
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "pips-next-%d", s);
        ucr_megadungeon *md = generate(seed, 3, 3);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint a = 0; a < n->areas->len; a++)
                if (g_array_index(n->areas, ucr_area, a).kind == UCR_AREA_ROOM)
                    check_next_floor(md, n, (int)a, seed, &t);
        }
        ucr_megadungeon_free(md);
    }
    printf("pips next floor over %d seeds: %ld throws, %ld lead below the booklet; of the %ld that reach a node, "
           "%ld land at its start (%ld of them all the same), %ld where the throw says (%ld rooms, %ld elongated, %ld corridors, %ld dead ends; %ld beside stairs there already); "
           "no place for %ld dead ends, %ld corridors, %ld rooms, %ld elongated rooms\n",
           seeds, t.thrown, t.out, t.reached, t.at_start + t.start_anyway, t.start_anyway, t.hinted, t.rooms, t.long_rooms, t.corridors, t.dead_ends, t.shared,
           t.missed[0], t.missed[1], t.missed[2], t.missed[3]);
    ck_assert_int_gt(t.thrown, seeds * 5);
    /* Nearly every throw that reaches a node decides where its stairs come
     * down; the others found no place of that kind (no free room, no
     * corridor's end on that side) where a landing of their own would not
     * make the node a hub of landings — mostly a corridor's end, which few
     * stairs there already are (90% when each got a landing of its own, and
     * 65% of pips nodes were hubs; about 89% now) — or came down at a pips
     * start that no stairs agreed with (few). */
    ck_assert_msg((t.hinted + t.at_start) * 100 >= (t.reached - t.start_anyway) * 87, "%ld + %ld of %ld",
                  t.hinted, t.at_start, t.reached - t.start_anyway);
    ck_assert_msg(t.start_anyway * 20 < t.reached, "%ld of %ld at the start all the same", t.start_anyway,
                  t.reached);
    ck_assert(t.rooms > 0 && t.long_rooms > 0 && t.corridors > 0 && t.dead_ends > 0 && t.at_start > 0);
}
END_TEST

/* Seed 004: a superstructure tunnel's "room" is a chamber on the tunnel in
 * the node (ucr_attach_chamber).  The start's tunnel into the hill is drawn
 * first and the ways drawn after it may pass under or over it: they leave
 * a place for that chamber, so no chamber lies beyond the map because its
 * tunnel is crossed (6 of 11 that did over 1,000 dungeons before; check_attach's
 * chamber-pips-34 node F among them with other throws), and the few left
 * (a tunnel from an area by the edge, no rock free along it: the ways keep
 * off the other joined sides' last three squares now) stay rare. */
START_TEST(start_tunnel_keeps_its_chamber)
{
    int seeds = g_getenv("UCR_SAN") ? 60 : 300;
    long beyond = 0;
    for (int i = 1; i <= seeds; i++) {
        char seed[64];
        g_snprintf(seed, sizeof seed, "chamber-pips-%d", i);
        ucr_megadungeon *md = generate(seed, 3, 3);
        for (guint ni = 0; ni < md->nodes->len; ni++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, ni);
            for (guint r = 0; r < n->rolls->len; r++) {
                const char *roll = g_ptr_array_index(n->rolls, r);
                for (int d = 0; d < 4; d++) {
                    char *want = g_strdup_printf("superstructure tunnel %s: its chamber", ucr_dir_name((ucr_dir)d));
                    bool hit = g_str_has_prefix(roll, want);
                    g_free(want);
                    if (!hit)
                        continue;
                    beyond++;
                    int pk = ucr_attach_join_passage(n, (ucr_dir)d, -1);
                    for (guint k = 0; pk >= 0 && k < n->passages->len; k++) {
                        const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, k);
                        for (guint c = 0; ps->crossings && c < ps->crossings->len; c++)
                            ck_assert_msg(g_array_index(ps->crossings, ucr_crossing, c).passage != pk,
                                          "seed %s node %s: the %s tunnel's chamber lies beyond the map, its "
                                          "tunnel crossed by passage %u", seed, n->id, ucr_dir_name((ucr_dir)d), k);
                    }
                }
            }
        }
        ucr_megadungeon_free(md);
    }
    printf("pips chambers beyond the map over %d 3x3 dungeons: %ld\n", seeds, beyond);
    /* (About 1 in 1,000 dungeons now, 11 before.) */
    ck_assert_msg(beyond <= seeds / 100 + 1, "%ld chambers beyond the map in %d dungeons", beyond, seeds);
}
END_TEST

START_TEST(same_seed_same_node)
{
    ucr_megadungeon *a = generate("pips-same", 3, 3), *b = generate("pips-same", 3, 3);
    char *ja = ucr_json_write(a), *jb = ucr_json_write(b);
    ck_assert_str_eq(ja, jb);
    g_free(ja);
    g_free(jb);
    ucr_megadungeon_free(a);
    ucr_megadungeon_free(b);
}
END_TEST

/* The JSON gives a diamond its outline: eight corners, the tips flat. */
START_TEST(json_diamond_outline)
{
    bool seen = false;
    for (int s = 0; s < 40 && !seen; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "pips-json-%d", s);
        ucr_megadungeon *md = generate(seed, 2, 2);
        char *json = ucr_json_write(md);
        const char *at = strstr(json, "\"diamond\": true");
        if (at) {
            /* The polygon comes before, in the same area object. */
            const char *start = at;
            while (start > json && strncmp(start, "\"polygon\"", 9) != 0)
                start--;
            int corners = 0;
            for (const char *c = start; c < at; c++)
                corners += *c == '[' && c[1] != '[';
            ck_assert_int_eq(corners, 8);
            seen = true;
        }
        g_free(json);
        ucr_megadungeon_free(md);
    }
    ck_assert(seen);
}
END_TEST

/* What the dice said and what the map drew (issue 22), counted from the
 * roll records and the outcomes over many seeds. */
typedef struct {
    long crossed, blocked;      /* ways that met the map: crossed it, cut short */
    long cut;                   /* of those cut short, with no map's edge beyond */
    long exits_kept, exits_moved;   /* exit throws: on the wall the die landed by, not */
    long exits_elsewhere;  /* of those moved, to another wall (that wall taken, or on the map's edge) */
    long doors_rolled, doors_kept;  /* coin tails: junctions with a doorway each side */
    long by_door, nodes, loops, edge_stops, sidesteps, room_pairs;
    long door_crossings;   /* ways that go down (up) from their door, under what stands beyond */
    long moved_rooms;      /* rooms drawn 20 ft further on for an exit by their door (or their way
                            * in drawn 20 ft longer as they are drawn) */
    long flights;          /* crossings of two elements or more with one flight of stairs */
    long oblique;          /* crossings at 45° of a corridor's diagonal run */
    long two_levels;       /* room squares two ways cross, one under, one over */
    long corridor_secrets; /* dead ends joined to a corridor by a secret door */
    long corridor_pairs;   /* corridors side by side joined by a secret door */
    long gm_again;         /* added exits whose first throws fitted no room */
    long rooms_rolled, rooms_lost;   /* 4-6: a room thrown; none drawn (a dead end) */
    long rooms_aside;      /* rooms drawn to one side of the way's end, none ahead */
    long junctions_back;   /* junctions on the way's last squares, nothing beyond its end */
    long doors_turned;     /* doorway junctions the passage turns to, at its end */
    long doors_back;       /* doorway junctions further back along the way's last run */
    long rooms_for_exits;  /* rooms drawn to one side of the way's end, for their exits */
    long doors_jogged;     /* doorway junctions the way jogs on to, from its end */
    long doors_secret;     /* doorways that lead 10 ft on to a secret door (the records) */
    long doors_secret_drawn;   /* the same, read from the map */
} honour_tally;

static long count_re(GRegex *re, const char *s)
{
    GMatchInfo *mi;
    long n = 0;
    g_regex_match(re, s, 0, &mi);
    while (g_match_info_matches(mi)) {
        n++;
        g_match_info_next(mi, NULL);
    }
    g_match_info_free(mi);
    return n;
}

static void honour_geometry(const ucr_node *n, const char *seed, honour_tally *t);
static void honour_doorway_secrets(const ucr_node *n, const char *seed, honour_tally *t);

/* A chamber seed 004 put on a superstructure tunnel: its secret door is the
 * tunnel's, on the chamber's side only. */
static bool superstructure_chamber(const ucr_area *a)
{
    return a->rolled && g_str_has_prefix(a->rolled, "superstructure tunnel");
}

static void honour_node(const ucr_node *n, const char *seed, honour_tally *t)
{
    static GRegex *cross, *blocked, *cut, *kept, *moved, *elsewhere, *edge, *room, *secret_doorway;
    if (!cross) {
        secret_doorway = g_regex_new("no room for its way: 10 ft on, a secret door into the (room|corridor) beside "
                                     "it, (room|junction) [0-9]+\\)", 0, 0, NULL);
        cut = g_regex_new("blocked after [0-9]+ ft", 0, 0, NULL);
        room = g_regex_new("pips-what 1d6=[456] \\(", 0, 0, NULL);
        cross = g_regex_new("pips-cross 1d[0-9]+=", 0, 0, NULL);
        blocked = g_regex_new("blocked(, the map's edge beyond what it meets,)? after [0-9]+ ft", 0, 0, NULL);
        kept = g_regex_new("\\(landed (north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) → (wall|corner) ",
                           0, 0, NULL);
        moved = g_regex_new("\\(landed (north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) (\\(that wall (is "
                            "taken|faces)|→ every wall)", 0, 0, NULL);
        edge = g_regex_new("; at the map's edge after [0-9]+ ft", 0, 0, NULL);
        elsewhere = g_regex_new("\\(landed (north|east|south|west)\\), pips-lie 1d6=[0-9] \\([^)]*\\) \\(that wall "
                                "(is taken|faces)", 0, 0, NULL);
    }
    t->nodes++;
    t->loops += n->stats.loops;
    for (guint r = 0; r < n->rolls->len; r++) {
        const char *line = g_ptr_array_index(n->rolls, r);
        t->crossed += count_re(cross, line);
        t->blocked += count_re(blocked, line);
        t->cut += count_re(cut, line);
        t->exits_kept += count_re(kept, line);
        t->exits_moved += count_re(moved, line);
        t->exits_elsewhere += count_re(elsewhere, line);
        t->edge_stops += count_re(edge, line);
        t->rooms_rolled += count_re(room, line);
        t->rooms_lost += strstr(line, "→ no room for it: a dead end") != NULL;
        t->rooms_aside += strstr(line, " (no room ahead: drawn to the ") != NULL;
        t->junctions_back += strstr(line, " back, where it finds room)") != NULL ||
                             strstr(line, " ft back, where its ways find room)") != NULL;
        t->doors_turned += strstr(line, " at its end, where its doorways find room)") != NULL;
        t->doors_back += strstr(line, " back along the way, where its ways find room)") != NULL;
        t->doors_jogged += strstr(line, " (the passage jogs ") != NULL;
        t->doors_secret += count_re(secret_doorway, line);
        t->rooms_for_exits += strstr(line, ", where its exits find room)") != NULL;
        t->sidesteps += strstr(line, "; sidesteps ") != NULL;
        t->room_pairs += strstr(line, ", a square apart: a secret door between them") != NULL;
        t->moved_rooms += strstr(line, "; the room drawn 20 ft further on, to make room for it") != NULL;
        t->moved_rooms += strstr(line, " (the way in 20 ft longer, for its exit by the same door)") != NULL;
        /* The GM throws again for an added exit that fits no room; the
         * throws set aside are no piece's ("pips-what" counts a piece). */
        const char *aside = strstr(line, "; thrown first: ");
        if (g_str_has_prefix(line, "the GM adds an exit") && aside) {
            ck_assert_msg(strstr(aside, "pips-") == NULL && strstr(line, ", thrown again)") != NULL,
                          "seed %s node %s: %s", seed, n->id, line);
            t->gm_again++;
        }
    }
    honour_geometry(n, seed, t);
    honour_doorway_secrets(n, seed, t);
    for (guint o = 0; n->outcomes && o < n->outcomes->len; o++) {
        const ucr_outcome *oc = &g_array_index(n->outcomes, ucr_outcome, o);
        if (!g_str_has_prefix(oc->rule, "coin tails"))
            continue;
        t->doors_rolled++;
        t->doors_kept += oc->reason == NULL;
    }
    /* Two rooms a square apart with a secret door between them: a square of
     * secret passage, a secret door on each room's wall. */
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        const ucr_vertex *va = &g_array_index(n->vertices, ucr_vertex, p->a);
        const ucr_vertex *vb = &g_array_index(n->vertices, ucr_vertex, p->b);
        if (p->cells->len != 1 || va->kind != UCR_VERTEX_AREA || vb->kind != UCR_VERTEX_AREA ||
            AREA(n, va->area)->kind != UCR_AREA_ROOM || AREA(n, vb->area)->kind != UCR_AREA_ROOM ||
            p->kind != UCR_EDGE_SECRET || superstructure_chamber(AREA(n, va->area)) ||
            superstructure_chamber(AREA(n, vb->area)))
            continue;
        ucr_door_kind ka, kb;
        ck_assert_msg(door_at(n, va->area, (int)k, &ka) && door_at(n, vb->area, (int)k, &kb) &&
                          ka == UCR_DOOR_SECRET && kb == UCR_DOOR_SECRET,
                      "seed %s node %s: rooms %d and %d: not a secret door each side", seed, n->id,
                      AREA(n, va->area)->key, AREA(n, vb->area)->key);
    }
    /* An exit on a wall whose door the way in holds leaves by that door: a
     * junction just outside it, no door of its own, and three ways at
     * least (the two halves of the way in, the way out). */
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        if (a->kind != UCR_AREA_JUNCTION || !a->rolled ||
            strcmp(a->rolled, "where the way out parts from the way by the same door") != 0)
            continue;
        int ways = 0;
        for (guint k = 0; k < n->passages->len; k++) {
            const ucr_passage *p = PASSAGE(n, k);
            if (p->a != (int)i && p->b != (int)i)
                continue;
            ways++;
            /* (A superstructure tunnel may start there, its door its own.) */
            const ucr_vertex *far = &g_array_index(n->vertices, ucr_vertex, p->a == (int)i ? p->b : p->a);
            if (far->kind == UCR_VERTEX_EXIT)
                continue;
            ck_assert_msg(!door_at(n, (int)i, (int)k, NULL), "seed %s node %s: junction %d has a door", seed, n->id,
                          a->key);
        }
        ck_assert_msg(ways >= 3, "seed %s node %s: junction %d has %d ways", seed, n->id, a->key, ways);
        t->by_door++;
    }
}

/* Whether crossing @cr of passage @p passes at 45° under (over) a
 * corridor's diagonal run: three squares in a row, the middle one a cell
 * of that corridor with diagonal steps in one direction either side, the
 * other two beside those steps (pips7: such a corridor is crossed, not a
 * reason to cut the way short). */
static bool oblique_crossing(const ucr_node *n, const ucr_passage *p, const ucr_crossing *cr, const char *seed)
{
    if (cr->passage < 0 || cr->last - cr->first != 2)
        return false;
    const ucr_passage *q = PASSAGE(n, cr->passage);
    ucr_point s0 = g_array_index(p->cells, ucr_point, cr->first), mid = g_array_index(p->cells, ucr_point, cr->first + 1),
              s1 = g_array_index(p->cells, ucr_point, cr->last);
    for (guint i = 1; i + 1 < q->cells->len; i++) {
        ucr_point a = g_array_index(q->cells, ucr_point, i - 1), c = g_array_index(q->cells, ucr_point, i),
                  z = g_array_index(q->cells, ucr_point, i + 1);
        if (c.x != mid.x || c.y != mid.y)
            continue;
        ck_assert_msg(c.x - a.x && c.y - a.y && z.x - c.x == c.x - a.x && z.y - c.y == c.y - a.y,
                      "seed %s node %s: a crossing of three squares of a corridor not at 45° to it", seed, n->id);
        ck_assert_msg(ucr_test_beside_diagonal(q, s0) && ucr_test_beside_diagonal(q, s1),
                      "seed %s node %s: a crossing at 45° off the corridor's squares", seed, n->id);
        return true;
    }
    return false;
}

/* The room squares two ways cross: never two at one level (they would
 * meet there), one under the room and one over it (pips7). */
static long rooms_crossed_twice(const ucr_node *n, const char *seed)
{
    GHashTable *kinds = g_hash_table_new(g_direct_hash, g_direct_equal);
    long twice = 0;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (guint x = 0; p->crossings && x < p->crossings->len; x++) {
            const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, x);
            for (int c = cr->first; cr->area >= 0 && c <= cr->last; c++) {
                ucr_point q = g_array_index(p->cells, ucr_point, c);
                gpointer key = GINT_TO_POINTER(q.y * n->width + q.x + 1);
                gpointer was = g_hash_table_lookup(kinds, key);
                if (was) {
                    ck_assert_msg(GPOINTER_TO_INT(was) - 1 != (int)cr->kind,
                                  "seed %s node %s: two ways cross (%d,%d) at one level", seed, n->id, q.x, q.y);
                    twice++;
                }
                g_hash_table_insert(kinds, key, GINT_TO_POINTER((int)cr->kind + 1));
            }
        }
    }
    g_hash_table_destroy(kinds);
    return twice;
}

/* A doorway of the coin's with no room for its way (issue 22, pips10):
 * a passage a square long from the junction, a plain door on the junction
 * (the doorway), a secret door at its other end on a room or on a junction
 * that parts a corridor there (seed 003: "If a passage or room is adjacent
 * to an already-mapped area, feel free to add a secret door"). */
static void honour_doorway_secrets(const ucr_node *n, const char *seed, honour_tally *t)
{
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        if (p->cells->len != 1 || p->kind != UCR_EDGE_SECRET)
            continue;
        const ucr_vertex *v[2] = { &g_array_index(n->vertices, ucr_vertex, p->a),
                                   &g_array_index(n->vertices, ucr_vertex, p->b) };
        if (v[0]->kind != UCR_VERTEX_AREA || v[1]->kind != UCR_VERTEX_AREA)
            continue;
        const ucr_area *j = AREA(n, v[0]->area), *to = AREA(n, v[1]->area);
        if (j->kind != UCR_AREA_JUNCTION || !j->rolled ||
            strcmp(j->rolled, "the passage ends with a doorway on either side") != 0)
            continue;
        ucr_door_kind kj, kt;
        ck_assert_msg(door_at(n, v[0]->area, (int)k, &kj) && kj == UCR_DOOR_PLAIN,
                      "seed %s node %s: junction %d: its doorway to a secret door is no plain door", seed, n->id,
                      j->key);
        ck_assert_msg(door_at(n, v[1]->area, (int)k, &kt) && kt == UCR_DOOR_SECRET,
                      "seed %s node %s: junction %d's doorway: no secret door beyond it", seed, n->id, j->key);
        bool corridor = to->kind == UCR_AREA_JUNCTION;
        ck_assert_msg(to->kind == UCR_AREA_ROOM ||
                          (corridor && to->rolled && !strcmp(to->rolled, "where a secret door opens into the corridor")),
                      "seed %s node %s: junction %d's doorway opens into area %d (%s)", seed, n->id, j->key, to->key,
                      to->rolled ? to->rolled : "");
        int ways = 0;
        for (guint q = 0; corridor && q < n->passages->len; q++)
            ways += PASSAGE(n, q)->a == v[1]->area || PASSAGE(n, q)->b == v[1]->area;
        ck_assert_msg(!corridor || ways == 3, "seed %s node %s: junction %d parts a corridor in %d ways", seed,
                      n->id, to->key, ways);
        ucr_point c = g_array_index(p->cells, ucr_point, 0);
        ck_assert_msg(abs(c.x - j->x) + abs(c.y - j->y) == 1, "seed %s node %s: junction %d's doorway not beside it",
                      seed, n->id, j->key);
        t->doors_secret_drawn++;
    }
}

/* The geometry behind the rates: a way that leaves by its door straight
 * under what stands beyond (steps on the door's square, the crossing from
 * the next); a run of crossings under one flight; a dead end joined to a
 * corridor by a secret door, on a junction that parts that corridor. */
static void honour_geometry(const ucr_node *n, const char *seed, honour_tally *t)
{
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        if (!p->crossings || !p->crossings->len)
            continue;
        const ucr_crossing *c0 = &g_array_index(p->crossings, ucr_crossing, 0);
        const ucr_vertex *va = &g_array_index(n->vertices, ucr_vertex, p->a);
        if (c0->first == 1 && va->kind == UCR_VERTEX_AREA) {
            bool steps = false;
            for (guint s = 0; s < p->stairs->len; s++)
                steps |= g_array_index(p->stairs, ucr_passage_stairs, s).index == 0;
            ck_assert_msg(steps, "seed %s node %s: passage %u crosses from its door without steps", seed, n->id, k);
            t->door_crossings++;
        }
        for (guint x = 1; x < p->crossings->len; x++)
            t->flights += g_array_index(p->crossings, ucr_crossing, x).first <=
                          g_array_index(p->crossings, ucr_crossing, x - 1).last + 2;
        for (guint x = 0; x < p->crossings->len; x++)
            t->oblique += oblique_crossing(n, p, &g_array_index(p->crossings, ucr_crossing, x), seed);
    }
    t->two_levels += rooms_crossed_twice(n, seed);
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        bool pair = a->kind == UCR_AREA_JUNCTION && a->rolled &&
                    strcmp(a->rolled, "a secret door into the corridor beside") == 0;
        t->corridor_pairs += pair;
        if (pair) {
            int ways = 0;
            for (guint k = 0; k < n->passages->len; k++)
                ways += PASSAGE(n, k)->a == (int)i || PASSAGE(n, k)->b == (int)i;
            ck_assert_msg(ways >= 3, "seed %s node %s: junction %d: %d ways", seed, n->id, a->key, ways);
        }
        if (a->kind != UCR_AREA_JUNCTION || !a->rolled || !g_str_has_prefix(a->rolled, "a secret door from the dead end"))
            continue;
        int ways = 0, secret = 0;
        for (guint k = 0; k < n->passages->len; k++) {
            const ucr_passage *p = PASSAGE(n, k);
            ways += p->a == (int)i || p->b == (int)i;
        }
        for (guint d = 0; d < n->doors->len; d++) {
            const ucr_door *door = &g_array_index(n->doors, ucr_door, d);
            secret += door->area == (int)i && door->kind == UCR_DOOR_SECRET;
        }
        ck_assert_msg(ways >= 3 && secret == 1, "seed %s node %s: junction %d: %d ways, %d secret doors", seed, n->id,
                      a->key, ways, secret);
        t->corridor_secrets++;
    }
}

/* Issue 22, seed 003: "If a passage double backs and crosses an
 * already-mapped portion, insert stairs or a slope" (a way that meets the
 * map crosses it: cut short only where it cannot); the exit on the wall
 * the die landed by; a doorway on either side where the coin says so.
 * The code before drew 9%, 62% and 51% of these (over these seeds). */
START_TEST(drawn_as_rolled)
{
    int seeds = g_getenv("UCR_SAN") ? 15 : 150;
    honour_tally t = { 0 };
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "pips-%d", s);
        ucr_megadungeon *md = generate(seed, 3, 3);
        for (guint i = 0; i < md->nodes->len; i++)
            honour_node(g_ptr_array_index(md->nodes, i), seed, &t);
        ucr_megadungeon_free(md);
    }
    double cross = (double)t.crossed / (double)MAX(1, t.crossed + t.blocked);
    double exits = (double)t.exits_kept / (double)MAX(1, t.exits_kept + t.exits_moved);
    double doors = (double)t.doors_kept / (double)MAX(1, t.doors_rolled);
    printf("pips drawn as rolled over %d seeds, %ld nodes: ways that meet the map crossed %ld of %ld (%.0f%%); exits "
           "on the wall the die landed by %ld of %ld (%.0f%%, %ld by the door of the way in); doorways either side "
           "%ld of %ld (%.0f%%); %.2f loops a node, %ld secret doors between rooms; %ld stops at the map's edge, %ld "
           "sidesteps; %ld ways down from their door, %ld rooms drawn further on, %ld flights under two elements or "
           "more, %ld dead ends into a corridor, %ld corridors side by side joined, %ld added exits thrown again, "
           "%ld crossings at 45° of a diagonal corridor, %ld room squares crossed under and over\n",
           seeds, t.nodes, t.crossed, t.crossed + t.blocked, 100 * cross, t.exits_kept,
           t.exits_kept + t.exits_moved, 100 * exits, t.by_door, t.doors_kept, t.doors_rolled, 100 * doors,
           (double)t.loops / (double)t.nodes, t.room_pairs, t.edge_stops, t.sidesteps, t.door_crossings,
           t.moved_rooms, t.flights, t.corridor_secrets, t.corridor_pairs / 2, t.gm_again, t.oblique, t.two_levels);
    double cut = (double)t.cut / (double)MAX(1, t.crossed + t.blocked);
    printf("pips ways that meet the map cut short (no map's edge beyond what they meet): %ld of %ld (%.1f%%)\n", t.cut,
           t.crossed + t.blocked, 100 * cut);
    double elsewhere = (double)t.exits_elsewhere / (double)MAX(1, t.exits_kept + t.exits_moved);
    printf("pips exits moved to another wall (that wall taken, or on the map's edge): %ld of %ld (%.1f%%)\n",
           t.exits_elsewhere, t.exits_kept + t.exits_moved, 100 * elsewhere);
    double rooms = 1.0 - (double)t.rooms_lost / (double)MAX(1, t.rooms_rolled);
    printf("pips rooms: 4-6 a room drawn %ld of %ld (%.1f%%), %ld to one side of the way's end (%ld for their "
           "exits); %ld junctions on the way's last squares; doorway junctions: %ld the passage turned to, %ld "
           "further back along it, %ld the way jogs on to, %ld doorways to a secret door 10 ft on\n",
           t.rooms_rolled - t.rooms_lost, t.rooms_rolled, 100 * rooms, t.rooms_aside, t.rooms_for_exits,
           t.junctions_back, t.doors_turned, t.doors_back, t.doors_jogged, t.doors_secret);
    /* The code before this drew 63%, 75% and 68% of these over these
     * seeds (0.93 loops a node); before the GM's throws again for an added
     * exit and the rooms drawn further on as they are drawn, 87%, 85% (14,527
     * of 17,160) and 74%.  The doorways are 72% over 1,000 seeds before and
     * after those (71-74% over these seeds as the maps move): a floor, not
     * this change's figure. */
    /* Main before this round: 87%, 85% (14,527 of 17,160), 74%, 86.4% of
     * the rooms, 1.21 loops.  Now the exits are thrown before the room is
     * drawn and it is drawn for them (91%); the rooms find room to one side
     * at the map's edge; the crossings fall to 85% (the start's tunnel
     * keeps a place for its chamber, and the fuller maps). */
    ck_assert_msg(cross >= 0.84, "ways that meet the map crossed %.2f", cross);
    /* Issue 22's 10%: cut short with nothing but the map beyond what they
     * meet (12.8% of these meetings on main before pips7, 13.1% over the
     * sanitizer's 15 seeds; 9.7% and 9.7% after). */
    ck_assert_msg(cut <= 0.105, "ways that meet the map cut short %.3f", cut);
    ck_assert_msg(exits >= 0.89, "exits on the wall the die landed by %.2f", exits);
    /* Issue #22, seed 003's exit by the wall the die landed by, moved to
     * another wall (that wall taken, or against the map's edge): 7.6% of
     * these exits on main before pips9 (1,325 of 17,380); 5.8% after (the
     * rooms off the map's edge where they fit, the second exit on a wall
     * by the wall's other end, the way out parting at the junction a short
     * way in comes from, the room a door beyond drawn further on, the way
     * down from its door by the edges no tunnel joins); 4.4% after pips12
     * (a room a door beyond another drawn where the way in turns to one
     * side, both exits by one door parting outside it, a way in parting at
     * a turn of it; over stats' 1,000 seeds 4.4%, 5.6% before). */
    ck_assert_msg(elsewhere <= (g_getenv("UCR_SAN") ? 0.065 : 0.05), "exits moved to another wall %.3f", elsewhere);
    /* Issue #22, seed 003's coin tails: the junction stands where both its
     * doorways find room (the passage turned at its end, or the junction
     * further back along the way's last run; the arms by the passage's
     * sides): 72% over 1,000 seeds before, 70-74% over these.  (The
     * sanitizer's 15 seeds throw some 120 coins: a few points either way
     * are noise there.) */
    /* pips10: 85% over 1,000 seeds before, 88% over these (1,136 of 1,297);
     * now 91% and 92%: a junction off the map has no room (the way shortens
     * to its door instead), the junction stands back past the way's bends,
     * the way jogs on from its end to where both doorways find room, and a
     * doorway with no room for its way leads 10 ft on to a secret door into
     * what is mapped beside it. */
    ck_assert_msg(doors >= (g_getenv("UCR_SAN") ? 0.84 : 0.90), "doorways either side %.3f", doors);
    ck_assert_int_gt(t.doors_jogged, t.nodes / 100);
    /* (Some 9 over these 150 seeds: the sanitizer's 15 may hold none.) */
    ck_assert_int_ge(t.doors_secret, g_getenv("UCR_SAN") ? 0 : 1);
    ck_assert_int_eq(t.doors_secret, t.doors_secret_drawn);
    ck_assert_int_gt(t.doors_turned, t.nodes / 50);
    ck_assert_int_gt(t.doors_back, t.nodes / 100);
    ck_assert_int_gt(t.rooms_for_exits, 0);
    ck_assert_msg(rooms >= 0.85, "4-6: a room drawn %.3f", rooms);
    ck_assert_int_gt(t.rooms_aside, t.nodes / 20);
    ck_assert_int_gt(t.junctions_back, t.nodes / 20);
    ck_assert_int_gt(t.door_crossings, t.nodes / 2);
    ck_assert_int_gt(t.moved_rooms, t.nodes / 4);
    ck_assert_int_gt(t.flights, t.nodes / 10);
    ck_assert_int_gt(t.oblique, t.nodes / 20);
    ck_assert_int_gt(t.two_levels, 0);
    ck_assert_int_gt(t.corridor_secrets, 0);
    ck_assert_int_gt(t.corridor_pairs, 0);
    ck_assert_int_gt(t.by_door, 0);
    ck_assert_int_gt(t.gm_again, t.nodes / 20);
    ck_assert_int_gt(t.sidesteps, 0);
    ck_assert_int_gt(t.edge_stops, 0);
    ck_assert_int_gt(t.room_pairs, t.nodes / 10);
    /* The loops (secret doors) do not fall: 0.49 a node before (now two
     * rooms a square apart roll for one too); 1.21 before this round. */
    ck_assert_msg((double)t.loops / (double)t.nodes >= 1.10, "%.2f loops a node", (double)t.loops / (double)t.nodes);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("method_pips");
    TCase *tables_tc = tcase_create("tables");
    tcase_add_unchecked_fixture(tables_tc, setup, teardown);
    tcase_add_test(tables_tc, pips_table_is_the_mnemonic);
    tcase_add_test(tables_tc, broken_overlay_is_refused);
    suite_add_tcase(s, tables_tc);
    TCase *tc = tcase_create("properties");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, invariants_over_many_seeds);
    tcase_add_test(tc, no_node_under_four_rooms);
    tcase_add_test(tc, sublevel_drawn_again_where_no_exit_fits);
    tcase_add_test(tc, room_drawn_where_its_exits_find_room);
    tcase_add_test(tc, two_exits_by_one_door);
    tcase_add_test(tc, dead_end_extended_where_no_wall_is_free);
    tcase_add_test(tc, next_floor_throw_decides_the_landing_below);
    tcase_add_test(tc, start_tunnel_keeps_its_chamber);
    tcase_add_test(tc, same_seed_same_node);
    tcase_add_test(tc, json_diamond_outline);
    tcase_add_test(tc, drawn_as_rolled);
    suite_add_tcase(s, tc);
    return ucr_check_run(s);
}
