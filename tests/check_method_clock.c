/* Tests of the "clock" and "tictactoe" node methods (seed 001,
 * pre-connecting SubMethod II): the position tables, the locations they
 * mean, the d10 for unmapped locations, and the shared invariants over many
 * seeds. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "core/error.h"
#include "gen/kit/attach.h"
#include "gen/kit/embed.h"
#include "gen/super/megadungeon.h"
#include "gen/methods/clock.h"
#include "key/describe.h"
#include "key/honour.h"
#include "model/json.h"
#include "invariants.h"
#include "pipeline/pipeline.h"

enum { SEEDS = 1000 };

static ucr_tables *tables;

static void setup(void)
{
    tables = ucr_test_tables();
}

static void teardown(void)
{
    ucr_tables_free(tables);
}

static ucr_megadungeon *generate(const char *method, const char *seed, int cols, int rows)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, cols, rows, tables, ucr_node_method_lookup(method), { 0 } };
    ck_assert_ptr_nonnull(opt.method);
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

/* ---- the tables ------------------------------------------------------- */

/* The default tables read as seed 001 prints them: roll N is position N;
 * d10 "0" (10) dead end, "up to 6" junction, "over 6" room. */
START_TEST(default_tables_are_the_seeds)
{
    static const char *const clock_tags[] = { "one", "two", "three", "four", "five", "six", "seven", "eight",
                                              "nine", "ten", "eleven", "twelve" };
    static const char *const ttt_tags[] = { "north", "north-east", "east", "south-east", "south", "south-west",
                                            "west", "north-west" };
    const ucr_table *c = ucr_tables_lookup(tables, "clock-position");
    const ucr_table *t = ucr_tables_lookup(tables, "tictactoe-position");
    const ucr_table *u = ucr_tables_lookup(tables, "clock-unmapped");
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(u);
    ck_assert(c->count == 1 && c->sides == 12 && c->rows->len == 12);
    ck_assert(t->count == 1 && t->sides == 8 && t->rows->len == 8);
    ck_assert(u->count == 1 && u->sides == 10);
    for (int i = 0; i < 12; i++) {
        const ucr_table_row *r = &g_array_index(c->rows, ucr_table_row, i);
        ck_assert(r->lo == i + 1 && r->hi == i + 1);
        ck_assert_str_eq(r->tag, clock_tags[i]);
    }
    for (int i = 0; i < 8; i++) {
        const ucr_table_row *r = &g_array_index(t->rows, ucr_table_row, i);
        ck_assert(r->lo == i + 1 && r->hi == i + 1);
        ck_assert_str_eq(r->tag, ttt_tags[i]);
    }
    for (guint i = 0; i < u->rows->len; i++) {
        const ucr_table_row *r = &g_array_index(u->rows, ucr_table_row, i);
        for (int roll = r->lo; roll <= r->hi; roll++)
            ck_assert_str_eq(r->tag, roll == 10 ? "dead-end" : roll <= 6 ? "junction" : "room");
    }
}
END_TEST

/* A user's table with an unknown kind is refused at load (exit 65). */
START_TEST(bad_position_table_refused)
{
    char *dir = g_dir_make_tmp("ucr-clock-XXXXXX", NULL);
    char *path = g_build_filename(dir, "clock-position.txt", NULL);
    g_file_set_contents(path, "roll: 1d2\n1: [north] up\n2: [two] 2 o'clock\n", -1, NULL);
    char *defaults = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    GError *error = NULL;
    ucr_tables *t = ucr_pipeline_tables_load(defaults, dir, &error);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    ck_assert_msg(strstr(error->message, "clock-position.txt:2:") != NULL, "%s", error->message);
    g_error_free(error);
    g_remove(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
    g_free(defaults);
}
END_TEST

/* ---- the locations ---------------------------------------------------- */

static ucr_area test_area(int x, int y, int w, int h)
{
    ucr_area a = { 0 };
    a.x = x;
    a.y = y;
    a.w = w;
    a.h = h;
    return a;
}

/* 12 due north, 3 due east, 6 due south, 9 due west; the others in their
 * quadrant, clockwise in order. */
START_TEST(clock_positions_go_round)
{
    static const ucr_area rooms[3] = { { .x = 20, .y = 20, .w = 4, .h = 4 }, { .x = 22, .y = 18, .w = 6, .h = 2 },
                                       { .x = 24, .y = 22, .w = 1, .h = 1 } };
    for (int r = 0; r < 3; r++) {
        ucr_area a = test_area(rooms[r].x, rooms[r].y, rooms[r].w, rooms[r].h);
        double cx = a.x + (a.w - 1) / 2.0, cy = a.y + (a.h - 1) / 2.0;
        double last = -1;
        for (int pos = 1; pos <= 12; pos++) {
            int x, y, w, h, mx, my;
            ucr_clock_location(&a, pos, false, 48, 44, &x, &y, &w, &h, &mx, &my);
            ck_assert(mx >= x && mx < x + w && my >= y && my < y + h);
            /* The location lies outside the area. */
            ck_assert(x >= a.x + a.w || x + w <= a.x || y >= a.y + a.h || y + h <= a.y);
            double dx = mx - cx, dy = my - cy;
            double angle = atan2(dx, -dy) * 180.0 / G_PI;   /* clockwise from north */
            if (angle < 0)
                angle += 360;
            if (pos == 12)
                angle = angle > 180 ? angle - 360 : angle;
            switch (pos) {
            case 12: ck_assert(fabs(dx) <= 0.5 && dy < 0); break;
            case 3: ck_assert(fabs(dy) <= 0.5 && dx > 0); break;
            case 6: ck_assert(fabs(dx) <= 0.5 && dy > 0); break;
            case 9: ck_assert(fabs(dy) <= 0.5 && dx < 0); break;
            default:
                /* quadrant: 1-2 north-east … 10-11 north-west */
                ck_assert_msg(angle > (pos / 3) * 90 && angle < (pos / 3 + 1) * 90, "pos %d angle %f", pos, angle);
            }
            if (pos < 12) {
                ck_assert_msg(angle > last, "pos %d angle %f after %f", pos, angle, last);
                last = angle;
            }
        }
    }
}
END_TEST

/* Square 1 is the top middle, then clockwise: each square lies on its side
 * of the centre square, the middle ones level with it. */
START_TEST(tictactoe_squares_clockwise_from_the_top)
{
    static const int dx[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
    static const int dy[9] = { 0, -1, -1, 0, 1, 1, 1, 0, -1 };
    ucr_area a = test_area(20, 18, 6, 3);
    for (int pos = 1; pos <= 8; pos++) {
        int x, y, w, h, mx, my;
        ucr_clock_location(&a, pos, true, 48, 44, &x, &y, &w, &h, &mx, &my);
        if (dx[pos] > 0)
            ck_assert(x >= a.x + a.w);
        else if (dx[pos] < 0)
            ck_assert(x + w <= a.x);
        else
            ck_assert(x <= a.x && x + w >= a.x + a.w);
        if (dy[pos] > 0)
            ck_assert(y >= a.y + a.h);
        else if (dy[pos] < 0)
            ck_assert(y + h <= a.y);
        else
            ck_assert(y <= a.y && y + h >= a.y + a.h);
        ck_assert(w >= 5 && h >= 5);
    }
}
END_TEST

/* Near the map's edge, a location is clipped to the map (its outer two
 * rings are for the tunnels that leave it). */
START_TEST(locations_stay_on_the_map)
{
    ucr_area a = test_area(1, 1, 3, 3);
    for (int t = 0; t < 2; t++)
        for (int pos = 1; pos <= (t ? 8 : 12); pos++) {
            int x, y, w, h, mx, my;
            ucr_clock_location(&a, pos, t, 48, 44, &x, &y, &w, &h, &mx, &my);
            ck_assert(x >= 2 && y >= 2 && x + w <= 46 && y + h <= 42 && w >= 1 && h >= 1);
        }
}
END_TEST

/* gen/kit/embed.c: a node is whole when its passages join every area to every
 * other, a collapsed passage too; a dead end or exit joins nothing. */
START_TEST(embed_joined_reads_the_passages)
{
    ucr_node *n = ucr_node_new("T", 0, 0);
    n->width = n->height = 20;
    ucr_area a = ucr_area_make(UCR_AREA_ROOM, 1, 1, 3, 3), b = ucr_area_make(UCR_AREA_ROOM, 10, 1, 3, 3),
             c = ucr_area_make(UCR_AREA_ROOM, 10, 10, 3, 3);
    ucr_node_add_area(n, NULL, &a);
    ucr_node_add_area(n, NULL, &b);
    ck_assert(!ucr_embed_joined(n));
    GArray *cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int x = 4; x < 10; x++)
        g_array_append_val(cells, ((ucr_point){ x, 2 }));
    ucr_node_add_passage(n, NULL, cells, 0, 1, UCR_EDGE_BLOCKED);
    ck_assert(ucr_embed_joined(n));
    ucr_node_add_area(n, NULL, &c);
    /* Room 2 reaches only a dead end of its own: still a pocket. */
    int dead = ucr_node_add_vertex(n, UCR_VERTEX_DEAD_END, (ucr_point){ 11, 15 });
    cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int y = 13; y <= 15; y++)
        g_array_append_val(cells, ((ucr_point){ 11, y }));
    ucr_node_add_passage(n, NULL, cells, 2, dead, UCR_EDGE_OPEN);
    ck_assert(!ucr_embed_joined(n));
    cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    for (int y = 4; y < 10; y++)
        g_array_append_val(cells, ((ucr_point){ 11, y }));
    ucr_node_add_passage(n, NULL, cells, 1, 2, UCR_EDGE_OPEN);
    ck_assert(ucr_embed_joined(n));
    ucr_node_free(n);
}
END_TEST

/* ---- properties over many seeds --------------------------------------- */

static bool overlaps(const ucr_area *a, int x, int y, int w, int h)
{
    return a->x < x + w && x < a->x + a->w && a->y < y + h && y < a->y + a->h;
}

typedef struct {
    long ways, positions[13], unmapped[3], made, joined, corridor_joined, walled, no_way, dead, cut;
    long turns, intersections, crossings, loops, nodes, rooms;
    long farther, check_ways, check_rooms, room_loops, stat_rooms, no_room_loop;
    long added, added_rooms, already, between, met, branched, merged, by_mouth;
} tally;

/* The location of a way, @grow squares wider on every side. */
static bool in_location(const ucr_area *a, int x, int y, int w, int h, int grow)
{
    return overlaps(a, x - grow, y - grow, w + 2 * grow, h + 2 * grow);
}

/* The area key after @word ("room 7", "junction 9") in @s, or -1. */
static int key_after(const char *s, const char *word)
{
    const char *p = strstr(s, word);
    return p ? atoi(p + strlen(word)) : -1;
}

/* A way that "meets" a corridor straight on (gen/methods/clock.c,
 * meet_straight): junction @to (a key) in line with a wall of area @from,
 * within 9 squares of it, on the side facing the location's middle
 * (@mx, @my) or across, and a corridor of one square's width from that wall
 * to it. */
static void check_met(const ucr_node *n, int from, int to, int mx, int my, const char *seed, const char *line)
{
    int b = ucr_test_area_by_key(n, to);
    ck_assert_msg(b >= 0 && AREA(n, b)->kind == UCR_AREA_JUNCTION, "seed %s node %s: %s", seed, n->id, line);
    const ucr_area *f = AREA(n, from), *j = AREA(n, b);
    bool inx = j->x >= f->x && j->x < f->x + f->w, iny = j->y >= f->y && j->y < f->y + f->h;
    int gap = inx ? (j->y < f->y ? f->y - j->y : j->y - (f->y + f->h - 1))
                  : (j->x < f->x ? f->x - j->x : j->x - (f->x + f->w - 1));
    ck_assert_msg((inx || iny) && gap >= 2 && gap <= 9, "seed %s node %s: junction %d not straight on: %s", seed,
                  n->id, to, line);
    int dx = inx ? 0 : j->x < f->x ? -1 : 1, dy = inx ? (j->y < f->y ? -1 : 1) : 0;
    int vx = mx - (f->x + f->w / 2), vy = my - (f->y + f->h / 2);
    ck_assert_msg(dx * vx + dy * vy >= 0, "seed %s node %s: away from the location: %s", seed, n->id, line);
    /* (A later check or join may split the connector: then its parts.) */
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        if (!((p->a == from && p->b == b) || (p->b == from && p->a == b)))
            continue;
        bool straight = (int)p->cells->len == gap - 1;
        for (guint c = 0; c < p->cells->len && straight; c++) {
            ucr_point q = g_array_index(p->cells, ucr_point, c);
            straight = inx ? q.x == j->x : q.y == j->y;
        }
        ck_assert_msg(straight, "seed %s node %s: no straight corridor to junction %d: %s", seed, n->id, to, line);
    }
}

/* The squares between area @f's walls and square @q, by rows and columns
 * (0 inside it, 1 beside a wall). */
static int squares_out(const ucr_area *f, ucr_point q)
{
    int dx = q.x < f->x ? f->x - q.x : q.x >= f->x + f->w ? q.x - (f->x + f->w - 1) : 0;
    int dy = q.y < f->y ? f->y - q.y : q.y >= f->y + f->h ? q.y - (f->y + f->h - 1) : 0;
    return dx + dy;
}

/* A way that branches off area @from's own corridor (gen/methods/clock.c,
 * area_by_branch): junction @jk a new one of its own ("where a way branches
 * off a corridor"), on a corridor that leads from @from through junctions
 * only, no more than 13 squares out of its wall (the corridor turns, so it
 * walks farther); from a room, its exit shares the corridor it names, out
 * of wall @wall (no door of its own).  The new area @to lies in the location, or
 * within UCR_CLOCK_NEAR of it (@grow), reached from the junction. */
static void check_branch(const ucr_node *n, int from, int jk, int to, const char *wall, int x, int y, int w, int h,
                         int grow, const char *seed, const char *line)
{
    int j = ucr_test_area_by_key(n, jk), b = ucr_test_area_by_key(n, to);
    ck_assert_msg(j >= 0 && AREA(n, j)->kind == UCR_AREA_JUNCTION && AREA(n, j)->rolled &&
                      !strcmp(AREA(n, j)->rolled, "where a way branches off a corridor"),
                  "seed %s node %s: no branch junction %d: %s", seed, n->id, jk, line);
    ucr_point q = { AREA(n, j)->x, AREA(n, j)->y };
    ck_assert_msg(squares_out(AREA(n, from), q) <= 13 && ucr_test_corridor_joins(n, from, j),
                  "seed %s node %s: junction %d not on its corridor: %s", seed, n->id, jk, line);
    ck_assert_msg(b >= 0 && in_location(AREA(n, b), x, y, w, h, grow) && ucr_test_corridor_joins(n, j, b),
                  "seed %s node %s: %s: not there from junction %d", seed, n->id, line, jk);
    if (!wall)
        return;
    const ucr_area *f = AREA(n, from);
    bool out = false;
    for (guint k = 0; k < n->passages->len && !out; k++) {
        const ucr_passage *p = PASSAGE(n, k);
        for (int e = 0; e < 2 && !out; e++) {
            if ((e ? p->b : p->a) != from)
                continue;
            ucr_point c = g_array_index(p->cells, ucr_point, e ? p->cells->len - 1 : 0);
            ucr_dir side = c.y < f->y ? UCR_NORTH : c.y >= f->y + f->h ? UCR_SOUTH : c.x < f->x ? UCR_WEST : UCR_EAST;
            out = !strcmp(ucr_dir_name(side), wall);
        }
    }
    ck_assert_msg(out, "seed %s node %s: no corridor out of the %s wall: %s", seed, n->id, wall, line);
}

/* A new area in the rock a mouth of area @f opens on (gen/methods/clock.c,
 * area_by_mouth): within 8 squares of its walls, its middle towards the
 * location's (@mx, @my) or across, never away. */
static void check_by_mouth(const ucr_area *f, const ucr_area *b, int mx, int my, const char *seed,
                           const char *id, const char *line)
{
    double fx = f->x + (f->w - 1) / 2.0, fy = f->y + (f->h - 1) / 2.0;
    double bx = b->x + (b->w - 1) / 2.0 - fx, by = b->y + (b->h - 1) / 2.0 - fy;
    ck_assert_msg(in_location(b, f->x, f->y, f->w, f->h, 8) && (mx - fx) * bx + (my - fy) * by >= 0,
                  "seed %s node %s: %s: not in the rock towards it", seed, id, line);
}

/* The corridor checks of seeds 000/001 read back as the pre-connecting
 * method takes them (gen/methods/clock.c, check_exit): a side passage with
 * no room beside it rolls its position around the junction the check made,
 * recorded as that junction's way; a room behind a check's door rolls its
 * exits like every room. */
static void check_corridor_checks(const ucr_node *n, bool ttt, const char *seed, tally *t)
{
    int sides = ttt ? 8 : 12;
    for (guint r = 0; r < n->rolls->len; r++) {
        const char *line = g_ptr_array_index(n->rolls, r);
        if (!g_str_has_prefix(line, "corridor check ") || !strstr(line, ": a side passage on the "))
            continue;
        const char *jp = strstr(line, "wall: junction ");
        if (!jp)
            jp = strstr(line, "(junction ");
        if (!jp)
            continue;   /* to a room beside it, or nothing fits */
        int key = -1, pos = -1;
        ck_assert_msg(sscanf(strstr(jp, "junction "), "junction %d, position %d", &key, &pos) == 2 ||
                          sscanf(strstr(jp, "junction "), "junction %d", &key) == 1,
                      "seed %s node %s: %s", seed, n->id, line);
        if (pos < 0)
            ck_assert(sscanf(strstr(jp, "position "), "position %d", &pos) == 1);
        ck_assert(pos >= 1 && pos <= sides);
        int a = ucr_test_area_by_key(n, key);
        ck_assert_msg(a >= 0 && AREA(n, a)->kind == UCR_AREA_JUNCTION && AREA(n, a)->rolled &&
                          g_str_has_prefix(AREA(n, a)->rolled, "where a side passage branches off"),
                      "seed %s node %s: %s: no junction %d made by the check", seed, n->id, line, key);
        /* Its way, rolled and recorded (in the node's rolls and in the
         * junction's own "rolled"). */
        char *want = g_strdup_printf("junction %d side passage (", key);
        bool found = false;
        for (guint q = 0; q < n->rolls->len && !found; q++) {
            const char *l = g_ptr_array_index(n->rolls, q);
            int d, p;
            const char *pp = strstr(l, "position 1d");
            found = g_str_has_prefix(l, want) && pp && sscanf(pp, "position 1d%d=%d", &d, &p) == 2 && p == pos &&
                    strstr(AREA(n, a)->rolled, l + strlen(want)) != NULL;
        }
        ck_assert_msg(found, "seed %s node %s: %s: the way of junction %d is not recorded", seed, n->id, line, key);
        g_free(want);
    }
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        if (a->kind != UCR_AREA_ROOM || !a->rolled || !g_str_has_prefix(a->rolled, "behind a door off a corridor"))
            continue;
        char *want = g_strdup_printf("room %d: 1d3=", a->key);
        bool found = false;
        for (guint q = 0; q < n->rolls->len && !found; q++)
            found = g_str_has_prefix(g_ptr_array_index(n->rolls, q), want);
        ck_assert_msg(found, "seed %s node %s: room %d behind a check's door rolls no exits", seed, n->id, a->key);
        g_free(want);
        t->check_rooms++;
    }
}

static void check_node(const ucr_megadungeon *md, const ucr_node *n, bool ttt, const char *seed, tally *t)
{
    int sides = ttt ? 8 : 12;
    for (guint r = 0; r < n->rolls->len; r++) {
        const char *line = g_ptr_array_index(n->rolls, r);
        int key, e, pos = 0, matched = 0;
        bool from_room;
        if (sscanf(line, "junction %d: position%n", &key, &matched) == 1 && matched > 0) {
            /* "Roll again twice …, with doubles indicating that the junction
             * is a turn rather than an intersection." */
            int d, a, b;
            const char *second = strstr(line, ", position");
            ck_assert(second != NULL);
            ck_assert(sscanf(strstr(line, "position"), "position 1d%d=%d", &d, &a) == 2);
            ck_assert(sscanf(second, ", position 1d%d=%d", &d, &b) == 2);
            ck_assert_int_eq(d, sides);
            bool turn = strstr(line, "doubles, a turn") != NULL;
            ck_assert_msg(turn == (a == b), "seed %s node %s: %s", seed, n->id, line);
            t->turns += turn;
            t->intersections += !turn;
            /* Then one way (a turn) or two, each to its rolled position. */
            char *w1 = g_strdup_printf("junction %d way 1 (position %d)", key, a);
            char *w2 = g_strdup_printf("junction %d way 2 (position %d)", key, b);
            char *w2any = g_strdup_printf("junction %d way 2", key);
            bool has1 = false, has2 = false, any2 = false;
            for (guint q = r + 1; q < n->rolls->len; q++) {
                const char *l = g_ptr_array_index(n->rolls, q);
                has1 |= g_str_has_prefix(l, w1);
                has2 |= g_str_has_prefix(l, w2);
                any2 |= g_str_has_prefix(l, w2any);
            }
            ck_assert_msg(has1 && (turn ? !any2 : has2), "seed %s node %s: the ways of %s", seed, n->id, line);
            g_free(w1);
            g_free(w2);
            g_free(w2any);
            continue;
        }
        matched = 0;
        bool added = strstr(line, ": added, the map closed with ") != NULL;
        if (sscanf(line, "room %d exit %d (%n", &key, &e, &matched) == 2 && matched > 0) {
            from_room = true;
            int d, total;
            const char *p = strstr(line, added ? "open rock at position " : "position 1d");
            if (added) {
                ck_assert(p && sscanf(p, "open rock at position %d", &total) == 1);
            } else {
                ck_assert(p && sscanf(p, "position 1d%d=%d", &d, &total) == 2);
                ck_assert_int_eq(d, sides);
            }
            pos = total;   /* the default table: roll N is position N */
        } else if (sscanf(line, "junction %d way %d (position %d)%n", &key, &e, &pos, &matched) == 3 && matched > 0) {
            from_room = false;
        } else if ((sscanf(line, "junction %d side passage (%n", &key, &matched) == 1 ||
                    sscanf(line, "junction %d door (%n", &key, &matched) == 1) &&
                   matched > 0) {
            /* A corridor check's side passage: a way like any other, from
             * the junction on the corridor (seed 001, pre-connected). */
            int d;
            const char *p = strstr(line, "position 1d");
            ck_assert(p && sscanf(p, "position 1d%d=%d", &d, &pos) == 2);
            ck_assert_int_eq(d, sides);
            from_room = false;
            t->check_ways++;
            /* Its destination rolled before its wall, it opens on the wall
             * facing the position rolled, or on either when that lies
             * straight along the corridor: never on the wall facing away
             * (issue #22: over 40 seeds those ways ended short of what
             * was there in 19%, against 6% facing it). */
            if (strstr(line, " side passage (")) {
                char wall[8] = "";
                ck_assert(sscanf(line + matched, "%7[a-z] wall", wall) == 1);
                double turn = (ttt ? pos - 1 : pos % 12) * 2 * G_PI / sides;
                int wd = !strcmp(wall, "north") ? 0 : !strcmp(wall, "east") ? 1 : !strcmp(wall, "south") ? 2 : 3;
                double dot = UCR_DIR_DX[wd] * sin(turn) - UCR_DIR_DY[wd] * cos(turn);
                ck_assert_msg(dot > -1e-6, "seed %s node %s: a side passage facing away from its destination: %s",
                              seed, n->id, line);
            }
        } else {
            continue;
        }
        ck_assert(pos >= 1 && pos <= sides);
        t->ways++;
        t->positions[pos]++;
        int from = ucr_test_area_by_key(n, key);
        ck_assert_msg(from >= 0 && AREA(n, from)->kind == (from_room ? UCR_AREA_ROOM : UCR_AREA_JUNCTION),
                      "seed %s node %s: %s", seed, n->id, line);
        if (strstr(line, "walled up")) {
            t->walled++;
            continue;
        }
        if (added) {
            /* Seed 003: the GM's exit, to a new room in open rock, or none. */
            t->added++;
            if (strstr(line, "(no room for it: the GM adds none)"))
                continue;
        }
        int x, y, w, h, mx, my;
        ucr_clock_location(AREA(n, from), pos, ttt, n->width, n->height, &x, &y, &w, &h, &mx, &my);
        const char *arrow = strstr(line, "→");
        const char *um = strstr(line, "nothing mapped there: ");
        if (um) {
            /* seed 001's d10: 0 (10) dead end, up to 6 junction, over 6 room. */
            int d, roll;
            ck_assert(sscanf(um, "nothing mapped there: 1d%d=%d", &d, &roll) == 2 && d == 10);
            const char *want = roll == 10 ? "the passage dead ends" : roll <= 6 ? "a junction" : "a room";
            ck_assert_msg(strstr(um, want) != NULL, "seed %s node %s: %s", seed, n->id, line);
            t->unmapped[roll == 10 ? 0 : roll <= 6 ? 1 : 2]++;
        }
        if (strstr(line, "(cut short")) {
            t->cut++;
            continue;
        }
        if (strstr(line, "(no way there")) {
            t->no_way++;
            continue;
        }
        ck_assert_msg(arrow != NULL, "seed %s node %s: where does it lead? %s", seed, n->id, line);
        const char *after = arrow + strlen("→ ");
        int to = -1;
        if (g_str_has_prefix(after, "dead end")) {
            t->dead++;
            continue;
        } else if (added && g_str_has_prefix(after, "room ")) {
            to = key_after(after, "room ");
            int a = ucr_test_area_by_key(n, to);
            ck_assert_msg(a >= 0 && AREA(n, a)->kind == UCR_AREA_ROOM, "seed %s node %s: %s", seed, n->id, line);
            t->added_rooms++;
        } else if (g_str_has_prefix(after, "already joined: ")) {
            /* Seed 001's "connects with it": the corridors from here
             * already lead there (through junctions only). */
            const char *there = strstr(line, " is there");
            int k = -1;
            const char *also = strstr(line, ", also there)");
            if (strstr(line, "(to a corridor, also there)")) {
                k = -1;
            } else if (also) {
                /* Joined to what else is there (not the first). */
                const char *num = also;
                while (num > line && num[-1] != ' ')
                    num--;
                k = atoi(num);
            } else if (there && !strstr(line, "a corridor is there")) {
                const char *num = there;
                while (num > line && num[-1] != ' ')
                    num--;
                k = atoi(num);
            }
            if (k >= 0) {
                int b = ucr_test_area_by_key(n, k);
                ck_assert_msg(b >= 0 && ucr_test_corridor_joins(n, from, b), "seed %s node %s: not joined: %s",
                              seed, n->id, line);
            }
            t->already++;
            continue;
        } else if (g_str_has_prefix(after, "meets ")) {
            /* Walled into a pocket of rock: straight on from a wall of the
             * area, never away from the location, to a corridor that leads
             * there, joined at a new junction no more than 90 ft out. */
            to = key_after(after, "junction ");
            check_met(n, from, to, mx, my, seed, line);
            t->met++;
        } else if (g_str_has_prefix(after, "branches off its corridor at junction ") ||
                   g_str_has_prefix(after, "shares its corridor out of the ")) {
            /* Fenced in: the way branches off the area's own corridor. */
            bool merged = g_str_has_prefix(after, "shares ");
            char wall[8] = "";
            ck_assert(!merged || (from_room && sscanf(after, "shares its corridor out of the %7[a-z] wall", wall) == 1));
            ck_assert_msg(um != NULL && strstr(um, "a room"), "seed %s node %s: %s", seed, n->id, line);
            int jk = key_after(after, "junction ");
            to = key_after(after, "→ room ");
            check_branch(n, from, jk, to, merged ? wall : NULL, x, y, w, h,
                         strstr(line, "(beside it)") ? UCR_CLOCK_NEAR : 0, seed, line);
            t->made++;
            t->branched++;
            t->merged += merged;
        } else if (g_str_has_prefix(after, "joins the corridor that leads there at junction ")) {
            to = key_after(after, "junction ");
            t->between++;
        } else if (g_str_has_prefix(after, "room ") || g_str_has_prefix(after, "junction ")) {
            /* A new area the dice made, in the location rolled. */
            ck_assert_msg(um != NULL, "seed %s node %s: %s", seed, n->id, line);
            bool room = g_str_has_prefix(after, "room ");
            to = key_after(after, room ? "room " : "junction ");
            int a = ucr_test_area_by_key(n, to);
            ck_assert_msg(a >= 0 && AREA(n, a)->kind == (room ? UCR_AREA_ROOM : UCR_AREA_JUNCTION),
                          "seed %s node %s: %s", seed, n->id, line);
            if (strstr(line, "(in the rock its way opens on, towards it)")) {
                check_by_mouth(AREA(n, from), AREA(n, a), mx, my, seed, n->id, line);
                t->by_mouth++;
            } else if (strstr(line, "(farther out)")) {
                /* "Or in that general direction": near the location (40
                 * or 80 ft out, clipped to the map), on its side of the
                 * area the way left. */
                const ucr_area *f = AREA(n, from), *b = AREA(n, a);
                double fx = f->x + (f->w - 1) / 2.0, fy = f->y + (f->h - 1) / 2.0;
                double vx = mx - fx, vy = my - fy;
                double bx = b->x + (b->w - 1) / 2.0 - fx, by = b->y + (b->h - 1) / 2.0 - fy;
                ck_assert_msg(in_location(b, x, y, w, h, 8 + 3) && vx * bx + vy * by > 0,
                              "seed %s node %s: %s: not farther out", seed, n->id, line);
                t->farther++;
            } else if (strstr(line, "(beside it)")) {
                /* Nor there: within UCR_CLOCK_NEAR squares of the location. */
                ck_assert_msg(in_location(AREA(n, a), x, y, w, h, UCR_CLOCK_NEAR), "seed %s node %s: %s: not beside it",
                              seed, n->id, line);
                t->farther++;
            } else {
                ck_assert_msg(overlaps(AREA(n, a), x, y, w, h), "seed %s node %s: %s: not in the location", seed,
                              n->id, line);
            }
            ck_assert_msg(strstr(um, room ? "a room" : "a junction") != NULL, "seed %s node %s: %s", seed, n->id,
                          line);
            t->made++;
        } else if (g_str_has_prefix(after, "joins it at junction ") ||
                   g_str_has_prefix(after, "joins its corridor at junction ")) {
            ck_assert(strstr(line, "a corridor is there") || strstr(line, "out of reach"));
            to = key_after(after, "junction ");
            t->corridor_joined++;
        } else if (g_str_has_prefix(after, "joins ")) {
            /* seed 001: "If there is a room or corridor already in that
             * location, the new corridor connects with it." */
            char word[16];
            ck_assert(sscanf(after, "joins %15s %d", word, &to) == 2);
            ck_assert(!strcmp(word, "room") || !strcmp(word, "junction"));
            if (!strstr(line, "where it leads")) {
                /* "The room that is in that relative position": a room
                 * counts within UCR_CLOCK_REACH of the location. */
                int a = ucr_test_area_by_key(n, to);
                int reach = (!strcmp(word, "room") ? UCR_CLOCK_REACH : 0) +
                            (strstr(line, "the next thing there or beside it") ? UCR_CLOCK_NEAR : 0);
                ck_assert_msg(a >= 0 && in_location(AREA(n, a), x, y, w, h, reach),
                              "seed %s node %s: %s: not there", seed, n->id, line);
            }
            t->joined++;
        } else {
            ck_abort_msg("seed %s node %s: unreadable: %s", seed, n->id, line);
        }
        int b = ucr_test_area_by_key(n, to);
        ck_assert_msg(b >= 0 && ucr_test_corridor_joins(n, from, b), "seed %s node %s: no corridor for %s", seed, n->id,
                      line);
    }
    /* The key says for every exit where it leads, as the dice decided: each
     * room's exit records are in its "Rolled:". */
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = AREA(n, i);
        if (a->kind != UCR_AREA_ROOM)
            continue;
        t->rooms++;
        char *markup = ucr_key_area_markup(md, n, (int)i, TRUE);
        char *prefix = g_strdup_printf("room %d exit ", a->key);
        for (guint r = 0; r < n->rolls->len; r++) {
            const char *line = g_ptr_array_index(n->rolls, r);
            if (!g_str_has_prefix(line, prefix))
                continue;
            char *esc = g_markup_escape_text(line, -1);
            ck_assert_msg(strstr(markup, esc) != NULL, "seed %s node %s: the key of room %d misses: %s", seed,
                          n->id, a->key, line);
            g_free(esc);
        }
        ck_assert_msg(strstr(markup, "Exits —") != NULL || strstr(markup, "No exits") != NULL, "%s", markup);
        g_free(prefix);
        g_free(markup);
    }
    check_corridor_checks(n, ttt, seed, t);
    for (guint k = 0; k < n->passages->len; k++)
        if (PASSAGE(n, k)->crossings)
            t->crossings += PASSAGE(n, k)->crossings->len;
    t->loops += n->stats.loops;
    t->room_loops += n->stats.room_loops;
    t->stat_rooms += n->stats.rooms;
    t->no_room_loop += n->stats.room_loops == 0;
    t->nodes++;
}

static void many_seeds(const char *method, bool ttt)
{
    int seeds = g_getenv("UCR_SAN") ? SEEDS / 8 : SEEDS;
    if (g_getenv("UCR_SEEDS"))
        seeds = atoi(g_getenv("UCR_SEEDS"));
    tally t = { 0 };
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "%s-%d", method, s);
        /* Two nodes, side by side or one above the other, so that tunnels
         * join every map side over the seeds (a whole 3 × 3 would take
         * minutes for 1,000 seeds). */
        ucr_megadungeon *md = generate(method, seed, s % 2 ? 2 : 1, s % 2 ? 1 : 2);
        ucr_test_check_megadungeon(md, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            ck_assert_str_eq(n->method, method);
            /* Drawn again rather than shipped with a pocket that a tunnel's
             * last resort left (ucr_embed_retry_joined). */
            ck_assert_msg(ucr_embed_joined(n), "seed %s node %s: an area joined to no other", seed, n->id);
            check_node(md, n, ttt, seed, &t);
        }
        ucr_megadungeon_free(md);
    }
    int sides = ttt ? 8 : 12;
    /* Every position is rolled about equally (the d12 or d8). */
    for (int p = 1; p <= sides; p++)
        ck_assert_msg(t.positions[p] * sides * 2 > t.ways && t.positions[p] * sides < t.ways * 2,
                      "%s: position %d rolled %ld times of %ld", method, p, t.positions[p], t.ways);
    /* The d10 of unmapped locations: 10% dead end, 60% junction, 30% room. */
    long um = t.unmapped[0] + t.unmapped[1] + t.unmapped[2];
    ck_assert_msg(um > 0 && t.unmapped[0] * 20 < um * 3 && t.unmapped[0] * 20 > um &&
                      t.unmapped[1] * 2 > um && t.unmapped[2] * 5 > um,
                  "%s: d10 outcomes %ld/%ld/%ld", method, t.unmapped[0], t.unmapped[1], t.unmapped[2]);
    ck_assert_msg(t.turns > 0 && t.intersections > t.turns * 4, "%s: %ld turns, %ld intersections", method,
                  t.turns, t.intersections);
    /* Loops come from joining what is already there. */
    ck_assert_msg(t.joined + t.corridor_joined > t.ways / 5, "%s: %ld + %ld joins of %ld ways", method, t.joined,
                  t.corridor_joined, t.ways);
    ck_assert_msg(t.loops > t.nodes * 3, "%s: %ld loops in %ld nodes", method, t.loops, t.nodes);
    ck_assert_msg(t.crossings > t.nodes / 10, "%s: %ld crossings in %ld nodes", method, t.crossings, t.nodes);
    /* Ways that found no wall or no way are recorded, not hidden; they stay
     * few. */
    ck_assert_msg((t.walled + t.no_way) * 5 < t.ways, "%s: %ld walled up, %ld with no way, of %ld ways", method,
                  t.walled, t.no_way, t.ways);
    /* The corridor checks' exits are pre-connected too, and rooms behind
     * their doors roll exits. */
    ck_assert_msg(t.check_ways > t.nodes && t.check_rooms > t.nodes / 4, "%s: %ld check ways, %ld check rooms",
                  method, t.check_ways, t.check_rooms);
    /* Issue #22: a d10 room whose mouths open on rock fenced in by
     * corridors is drawn in the rock a mouth opens on, towards it, or
     * off the area's own corridor (none before). */
    ck_assert_msg(t.branched > 0 && t.by_mouth > 0, "%s: %ld branched, %ld in the rock by a mouth", method,
                  t.branched, t.by_mouth);
    /* Issue #11: loops between rooms, counted as other generators count
     * them, at least 0.25 per room, and at most 15% of nodes without one
     * (the best-known peer: 0.21 and 25%). */
    ck_assert_msg(t.room_loops * 4 >= t.stat_rooms && t.no_room_loop * 100 <= t.nodes * 15,
                  "%s: %ld room loops over %ld rooms, %ld of %ld nodes without one", method, t.room_loops,
                  t.stat_rooms, t.no_room_loop, t.nodes);
    fprintf(stderr,
            "%s: %d seeds, %ld nodes, %ld rooms, %ld ways: %ld new areas (%ld farther out), %ld joins (+%ld at "
            "corridors), %ld dead ends, %ld cut short, %ld walled up, %ld no way; %ld loops, %ld crossings; "
            "%ld check ways, %ld rooms behind check doors; %ld met straight on; %ld branched off their corridor "
            "(%ld rooms' exits sharing a corridor), %ld in the rock by a mouth; %.2f room loops per room, "
            "%.1f%% nodes without\n",
            method, seeds, t.nodes, t.rooms, t.ways, t.made, t.farther, t.joined, t.corridor_joined, t.dead,
            t.cut, t.walled, t.no_way, t.loops, t.crossings, t.check_ways, t.check_rooms, t.met, t.branched,
            t.merged, t.by_mouth,
            (double)t.room_loops / (double)MAX(t.stat_rooms, 1), 100.0 * (double)t.no_room_loop / (double)t.nodes);
}

START_TEST(clock_over_many_seeds)
{
    many_seeds("clock", false);
}
END_TEST

START_TEST(tictactoe_over_many_seeds)
{
    many_seeds("tictactoe", true);
}
END_TEST

/* Rooms of @n. */
static int rooms_of(const ucr_node *n)
{
    int rooms = 0;
    for (guint i = 0; i < n->areas->len; i++)
        rooms += AREA(n, i)->kind == UCR_AREA_ROOM;
    return rooms;
}

/* Nodes of @method with fewer than 4 rooms over UCR_ROOM_SEEDS (100 by
 * default, 12 under the sanitizers) 3 x 3 megadungeons at @size; the count
 * of all nodes in @nodes. */
static int few_room_nodes(const char *method, ucr_node_size size, int *nodes)
{
    int seeds = g_getenv("UCR_ROOM_SEEDS") ? atoi(g_getenv("UCR_ROOM_SEEDS")) : g_getenv("UCR_SAN") ? 12 : 100;
    int few = 0;
    *nodes = 0;
    for (int s = 1; s <= seeds; s++) {
        char *seed = g_strdup_printf("rooms-%d", s);
        ucr_gen_options gen = { seed, 3, 3, tables, ucr_node_method_lookup(method), { 0 } };
        gen.method_options.node_size = size;
        GError *error = NULL;
        ucr_megadungeon *md = ucr_megadungeon_generate(&gen, &error);
        ck_assert_msg(md != NULL, "%s %s: %s", method, seed, error ? error->message : "");
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            (*nodes)++;
            if (rooms_of(n) < 4) {
                few++;
                if (g_getenv("UCR_VERBOSE"))
                    fprintf(stderr, "%s %s node %s: %d rooms\n", method, seed, n->id, rooms_of(n));
            }
        }
        ucr_megadungeon_free(md);
        g_free(seed);
    }
    return few;
}

/* Issue #22: no sublevel of fewer than 4 rooms.  Seed 003's answer when
 * the dice close the map early: the GM adds exits; a node that closed early
 * reopens a wall (rolled, recorded) until it holds 4 rooms. */
START_TEST(every_node_has_four_rooms)
{
    static const char *const methods[2] = { "clock", "tictactoe" };
    static const ucr_node_size sizes[2] = { UCR_NODE_STANDARD, UCR_NODE_POCKET };
    int few[4], nodes[4];
    for (int k = 0; k < 4; k++) {
        few[k] = few_room_nodes(methods[k / 2], sizes[k % 2], &nodes[k]);
        fprintf(stderr, "%s (%s): %d of %d nodes with fewer than 4 rooms\n", methods[k / 2],
                k % 2 ? "pocket" : "standard", few[k], nodes[k]);
    }
    /* None at either size: `undercroft stats --node-size pocket --count
     * 1000` finds none of 9,000 pocket nodes under 4 rooms for clock nor
     * tictactoe (before: 9.9% of standard nodes, 38% of pocket ones; then
     * 0.2% with rock for a room two squares clear only; then a bound of 1
     * pocket node in 500 kept in case). */
    for (int k = 0; k < 4; k++)
        ck_assert_msg(few[k] == 0, "%s (%s): %d of %d nodes with fewer than 4 rooms", methods[k / 2],
                      k % 2 ? "pocket" : "standard", few[k], nodes[k]);
}
END_TEST

/* The share of @rule's rolls drawn as rolled for @method, from the report
 * of `undercroft stats` (key/honour.h) over @seeds 3 x 3 dungeons. */
static double honour_share(const char *method, const char *rule, int seeds, long *rolled)
{
    ucr_honour *h = ucr_honour_new();
    ucr_honour_declare(h, method, ucr_node_method_lookup(method)->honour);
    for (int s = 1; s <= seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "honour-%d", s);
        ucr_megadungeon *md = generate(method, seed, 3, 3);
        ucr_honour_add(h, md);
        ucr_megadungeon_free(md);
    }
    char *table = ucr_honour_table(h);
    char *row = g_strdup_printf("| %s | %s | ", method, rule);
    const char *at = strstr(table, row);
    ck_assert_msg(at != NULL, "no row '%s' in\n%s", row, table);
    long as_rolled = 0;
    ck_assert(sscanf(at + strlen(row), "%ld | %ld", rolled, &as_rolled) == 2 && *rolled > 0);
    g_free(row);
    g_free(table);
    ucr_honour_free(h);
    return (double)as_rolled / (double)*rolled;
}

/* The share of @rule drawn as rolled for clock and tictactoe over 100
 * dungeons, printed; each at least @least.  Under the sanitizers 10
 * dungeons, a tenth of the sample, at least @least_san. */
static void rule_at_least(const char *rule, double least, double least_san)
{
    static const char *const methods[2] = { "clock", "tictactoe" };
    int seeds = g_getenv("UCR_SAN") ? 10 : 100;
    if (g_getenv("UCR_SAN"))
        least = least_san;
    for (int m = 0; m < 2; m++) {
        long rolled = 0;
        double share = honour_share(methods[m], rule, seeds, &rolled);
        fprintf(stderr, "%s: %s: %.1f%% of %ld as rolled\n", methods[m], rule, 100 * share, rolled);
        ck_assert_msg(share >= least, "%s: %s: %.1f%% of %ld", methods[m], rule, 100 * share, rolled);
    }
}

/* Issue #22: seed 001's "if there is a room or corridor already in that
 * location, the new corridor connects with it", drawn as rolled: a
 * corridor of its own, a join at the area's door, the corridors already
 * between them, or — when what is there first is out of reach — the next
 * thing there or beside it; walled into a pocket of rock, a corridor that
 * leads there met straight on; a corridor check's side passage opening
 * only where the rock beyond opens out, on the wall facing its destination
 * (rolled first); the next thing there or beside it before the room's
 * corridor farther than 20 ft from its door; a way round what lies
 * between before one across it (whose crossing may cut it short).  Over
 * honour-1 ... honour-100 95.6% and 96.0% (94.0% and 94.3% before the last
 * two; 90.6% and 90.4% before the side passages; 87% and 86% over 1,000
 * seeds before the straight meetings); over honour-1 ... honour-10, the
 * sanitizers' sample, 95.6% and 96.6% (94.8% and 94.4%; 91.8% and 89.8%). */
START_TEST(something_there_is_joined)
{
    rule_at_least("something already there: connect to it (seed 001)", 0.95, 0.952);
}
END_TEST

/* Issue #22: a corridor check's side passage (seed 000), whose
 * destination is rolled first and which opens only on the wall facing it
 * where the rock beyond opens out, is drawn: looked for 40 and 50 ft on
 * and back along the corridor as well as 10-30 ft.  Over honour-1 ...
 * honour-100 93.7% and 93.4% (89.4% and 88.8% when it looked 30 ft only);
 * over honour-1 ... honour-10, the sanitizers' sample, 93.7% and 94.0%
 * (89.0% and 89.9%). */
START_TEST(side_passages_are_drawn)
{
    rule_at_least("corridor check: a side passage (seed 000)", 0.92, 0.91);
}
END_TEST

/* Issue #22: a d10 junction in an unmapped location is drawn: the node's
 * junctions are twice its rooms (before: as many, and 79-82% drawn). */
START_TEST(rolled_junctions_are_drawn)
{
    rule_at_least("nothing mapped, d10 a junction: drawn (seed 001)", 0.87, 0.85);
}
END_TEST

/* Issue #22: a d10 room in an unmapped location is drawn: with no space
 * or no way for it there nor 40 or 80 ft farther out, anywhere within
 * UCR_CLOCK_NEAR squares of the location (before: 78-79%); where the
 * mouths open on rock fenced in by corridors, in the rock a mouth facing
 * it opens on, or off the area's own corridor, there or beside it.  Over
 * honour-1 ... honour-100 91.5% and 91.1% (86.8% and 87.5% before the last two);
 * over honour-1 ... honour-10, the sanitizers' sample, 90.8% and 90.7% (83.4% and
 * 85.7%). */
START_TEST(rolled_rooms_are_drawn)
{
    rule_at_least("nothing mapped, d10 a room: drawn (seed 001)", 0.90, 0.89);
}
END_TEST

START_TEST(same_seed_same_node)
{
    const char *methods[2] = { "clock", "tictactoe" };
    for (int m = 0; m < 2; m++) {
        ucr_megadungeon *a = generate(methods[m], "clock-same", 3, 3), *b = generate(methods[m], "clock-same", 3, 3);
        char *ja = ucr_json_write(a), *jb = ucr_json_write(b);
        ck_assert_str_eq(ja, jb);
        g_free(ja);
        g_free(jb);
        ucr_megadungeon_free(a);
        ucr_megadungeon_free(b);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("method_clock");
    TCase *geo = tcase_create("locations");
    tcase_add_test(geo, clock_positions_go_round);
    tcase_add_test(geo, tictactoe_squares_clockwise_from_the_top);
    tcase_add_test(geo, locations_stay_on_the_map);
    tcase_add_test(geo, embed_joined_reads_the_passages);
    suite_add_tcase(s, geo);
    TCase *tc = tcase_create("properties");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, default_tables_are_the_seeds);
    tcase_add_test(tc, bad_position_table_refused);
    tcase_add_test(tc, clock_over_many_seeds);
    tcase_add_test(tc, tictactoe_over_many_seeds);
    tcase_add_test(tc, same_seed_same_node);
    suite_add_tcase(s, tc);
    TCase *rooms = tcase_create("rooms");
    tcase_add_unchecked_fixture(rooms, setup, teardown);
    tcase_set_timeout(rooms, 900);
    tcase_add_test(rooms, every_node_has_four_rooms);
    tcase_add_test(rooms, something_there_is_joined);
    tcase_add_test(rooms, side_passages_are_drawn);
    tcase_add_test(rooms, rolled_junctions_are_drawn);
    tcase_add_test(rooms, rolled_rooms_are_drawn);
    suite_add_tcase(s, rooms);
    return ucr_check_run(s);
}
