/* Tests of the leximorph node method (seeds 002, 001): its dice tables, the
 * letters file, and the shared invariants plus its own over many seeds. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "fixture.h"
#include "core/datadir.h"
#include "core/error.h"
#include "gen/methods/letters.h"
#include "gen/super/megadungeon.h"
#include "gen/methods/leximorph.h"
#include "invariants.h"
#include "key/analysis.h"
#include "pipeline/pipeline.h"

enum { SEEDS = 1000 };

static ucr_tables *tables;
static ucr_letters *letters;

static void setup(void)
{
    GError *error = NULL;
    tables = ucr_test_tables();
    char *path = g_build_filename(ucr_datadir(), "templates", "letters.txt", NULL);
    letters = ucr_letters_load(path, &error);
    g_free(path);
    ck_assert_msg(letters != NULL, "letters: %s", error ? error->message : "?");
}

static void teardown(void)
{
    ucr_tables_free(tables);
    ucr_letters_free(letters);
}

/* ---- the tables, every row ---------------------------------------------- */

START_TEST(d10_letter_table)
{
    /* seed 002: 0 R, 1 A, 2 D, 3 T, 4 Q, 5 L, 6 X, 7 P, 8 B, 9 lowercase g */
    const char *want = "RADTQLXPBg";
    const ucr_table *t = ucr_tables_need(tables, "leximorph-letter");
    ck_assert(t->count == 1 && t->sides == 10);
    for (int f = 0; f <= 9; f++) {
        ck_assert_int_eq(ucr_leximorph_letter(ucr_table_pick(t, f == 0 ? 10 : f, NULL)), want[f]);
        ck_assert_ptr_nonnull(ucr_letters_find(letters, want[f]));
    }
}
END_TEST

START_TEST(d4_rotation_table)
{
    static const char *const names[] = { "normal", "turned 90° clockwise", "upside down",
                                         "turned 90° counter-clockwise" };
    const ucr_table *t = ucr_tables_need(tables, "leximorph-rotation");
    for (int d4 = 1; d4 <= 4; d4++) {
        ck_assert_str_eq(ucr_table_pick(t, d4, NULL)->text, names[d4 - 1]);
        ck_assert_int_eq(ucr_leximorph_rotation(ucr_table_pick(t, d4, NULL)), d4);
    }
    /* L: a stem on the left, a foot at the bottom. */
    const ucr_glyph *L = ucr_letters_find(letters, 'L');
    ucr_glyph r1 = ucr_glyph_rotate(L, 1), r2 = ucr_glyph_rotate(L, 2);
    ucr_glyph r3 = ucr_glyph_rotate(L, 3), r4 = ucr_glyph_rotate(L, 4);
    ck_assert(memcmp(r1.cell, L->cell, sizeof r1.cell) == 0);
    int w = L->w, h = L->h;
    ck_assert_int_eq(r2.w, h);
    ck_assert_int_eq(r2.h, w);
    /* Clockwise: the stem runs along the top, the foot down the left. */
    for (int x = 0; x < r2.w; x++)
        ck_assert(r2.cell[0][x]);
    for (int y = 0; y < r2.h; y++)
        ck_assert(r2.cell[y][0]);
    ck_assert(!r2.cell[r2.h - 1][r2.w - 1]);
    /* Upside down: the foot along the top, the stem on the right. */
    for (int x = 0; x < r3.w; x++)
        ck_assert(r3.cell[0][x]);
    for (int y = 0; y < r3.h; y++)
        ck_assert(r3.cell[y][r3.w - 1]);
    /* Counter-clockwise: the stem along the bottom, the foot up the right. */
    for (int x = 0; x < r4.w; x++)
        ck_assert(r4.cell[r4.h - 1][x]);
    for (int y = 0; y < r4.h; y++)
        ck_assert(r4.cell[y][r4.w - 1]);
    ck_assert(!r4.cell[0][0]);
    /* Four quarter turns are the letter again. */
    ucr_glyph back = *L;
    for (int k = 0; k < 4; k++)
        back = ucr_glyph_rotate(&back, 2);
    ck_assert(memcmp(back.cell, L->cell, sizeof back.cell) == 0);
}
END_TEST

START_TEST(d6_junction_table)
{
    static const struct { ucr_lexi_junction j; const char *name; } rows[] = {
        { UCR_LEXI_ORDINARY, "ordinary junction" },
        { UCR_LEXI_TRAPPED, "trapped junction" },
        { UCR_LEXI_TRAPPED_DISABLED, "trapped junction (disabled)" },
        { UCR_LEXI_OBSTACLE, "minor obstacle" },
        { UCR_LEXI_DOOR, "door" },
        { UCR_LEXI_ROOM, "room" },
    };
    const ucr_table *t = ucr_tables_need(tables, "leximorph-junction");
    for (int d6 = 1; d6 <= 6; d6++) {
        const ucr_table_row *row = ucr_table_pick(t, d6, NULL);
        ck_assert_int_eq(ucr_leximorph_junction(row), rows[d6 - 1].j);
        ck_assert_str_eq(row->text, rows[d6 - 1].name);
        ck_assert_str_eq(ucr_leximorph_junction_name(ucr_leximorph_junction(row)), rows[d6 - 1].name);
    }
}
END_TEST

START_TEST(d8_side_table)
{
    static const struct { ucr_lexi_side s; const char *name; } rows[] = {
        { UCR_LEXI_BLANK, "blank wall" },
        { UCR_LEXI_SECRET_DOOR, "blank wall with secret door" },
        { UCR_LEXI_BRANCH, "branch/side passage" },
        { UCR_LEXI_DIAGONALS, "two diagonal passages" },
        { UCR_LEXI_BLOCKED, "blocked passage" },
        { UCR_LEXI_SIDE_DOOR, "door" },
        { UCR_LEXI_DOOR_PAIR, "pair of doors, side by side" },
        { UCR_LEXI_STAIRS, "stairs" },
    };
    const ucr_table *t = ucr_tables_need(tables, "leximorph-wall");
    for (int d8 = 1; d8 <= 8; d8++) {
        const ucr_table_row *row = ucr_table_pick(t, d8, NULL);
        ck_assert_int_eq(ucr_leximorph_side(row), rows[d8 - 1].s);
        ck_assert_str_eq(row->text, rows[d8 - 1].name);
        ck_assert_str_eq(ucr_leximorph_side_name(ucr_leximorph_side(row)), rows[d8 - 1].name);
    }
}
END_TEST

/* ---- the letters file --------------------------------------------------- */

static void expect_bad(const char *text, const char *where, const char *words)
{
    GError *error = NULL;
    ucr_letters *l = ucr_letters_parse("my-letters.txt", text, &error);
    ck_assert_ptr_null(l);
    ck_assert_ptr_nonnull(error);
    ck_assert_int_eq(error->code, UCR_ERROR_DATA);
    ck_assert_msg(g_str_has_prefix(error->message, where), "'%s' should start with '%s'", error->message,
                  where);
    ck_assert_msg(strstr(error->message, words), "'%s' should say '%s'", error->message, words);
    g_error_free(error);
}

START_TEST(malformed_letters_give_file_and_line)
{
    expect_bad("letter A\n.#.\n###\n\nletter B\n##\n##\n", "my-letters.txt:6:", "2x2 block");
    expect_bad("letter A\n#..\n", "my-letters.txt:1:", "at least two");
    expect_bad("letter A\n##.\n..#\n", "my-letters.txt:3:", "cut off");
    expect_bad("letter A\n#@#\n", "my-letters.txt:2:", "unexpected '@'");
    /* A diagonal's two squares beside it stay rock. */
    expect_bad("letter A\n##\n.\\\n", "my-letters.txt:2:", "diagonal from column 1 crosses a tunnel");
    /* Corner to corner only along a diagonal's character. */
    expect_bad("letter A\n#.\n.#\n", "my-letters.txt:3:", "cut off");
    expect_bad("letter AB\n##\n", "my-letters.txt:1:", "one character");
    expect_bad("letter A\n##\n\nletter A\n##\n", "my-letters.txt:4:", "drawn twice");
    expect_bad(".#\n", "my-letters.txt:1:", "must follow");
    expect_bad("letter A\n########\n", "my-letters.txt:2:", "larger than");
    expect_bad("# only comments\n", "my-letters.txt:1:", "no letters");
    GError *error = NULL;
    ck_assert_ptr_null(ucr_letters_load("/nonexistent/letters.txt", &error));
    ck_assert_int_eq(error->code, UCR_ERROR_NOINPUT);
    g_error_free(error);
}
END_TEST

/* '\', '/' and 'x' draw diagonal strokes: X is two of them crossing, each
 * arm leaving the crossing by a side of its own (the map enters a junction
 * side by side), and a quarter turn keeps it so. */
START_TEST(diagonal_strokes_parsed)
{
    GError *error = NULL;
    ucr_letters *l = ucr_letters_parse("x.txt", "letter X\n#...#\n.\\./.\n..x..\n./.\\.\n#...#\n", &error);
    ck_assert_msg(l != NULL, "%s", error ? error->message : "?");
    const ucr_glyph *g = ucr_letters_find(l, 'X');
    ck_assert(ucr_glyph_diagonal(g, 0, 0, 1) && ucr_glyph_diagonal(g, 1, 1, 1) && ucr_glyph_diagonal(g, 4, 0, -1));
    ck_assert(!ucr_glyph_diagonal(g, 0, 0, -1) && !ucr_glyph_diagonal(g, 1, 0, 1));
    ck_assert(ucr_glyph_inner(g, 1, 1) && ucr_glyph_inner(g, 3, 3) && !ucr_glyph_inner(g, 2, 2) &&
              !ucr_glyph_inner(g, 0, 0));
    for (int d4 = 1; d4 <= 4; d4++) {
        ucr_glyph r = ucr_glyph_rotate(g, d4);
        ck_assert_int_eq(r.nruns, 4);
        bool side_used[4] = { false };
        for (int k = 0; k < r.nruns; k++) {
            const ucr_glyph_run *run = &r.runs[k];
            /* Each run is one arm: a corner to the centre, corner to corner. */
            ck_assert_int_eq(abs(run->x[1] - run->x[0]), 2);
            ck_assert_int_eq(run->y[1] - run->y[0], 2);
            ck_assert(r.cell[run->y[0]][run->x[0]] && r.cell[run->y[1]][run->x[1]]);
            int dx = run->x[1] > run->x[0] ? 1 : -1;
            ck_assert(ucr_glyph_diagonal(&r, run->x[0], run->y[0], dx));
            for (int e = 0; e < 2; e++) {
                /* It leaves an end through a side towards the other end. */
                int ox = run->x[1 - e] - run->x[e], oy = run->y[1 - e] - run->y[e];
                int lx = UCR_DIR_DX[run->leave[e]], ly = UCR_DIR_DY[run->leave[e]];
                ck_assert((lx && lx * ox > 0) || (ly && ly * oy > 0));
                if (run->x[e] == 2 && run->y[e] == 2) {
                    ck_assert_msg(!side_used[run->leave[e]], "d4=%d: two arms leave the centre %s", d4,
                                  ucr_dir_name((ucr_dir)run->leave[e]));
                    side_used[run->leave[e]] = true;
                }
            }
        }
    }
    ucr_letters_free(l);
    /* The default file draws X, K, N, V, Y and Z with diagonals. */
    for (const char *c = "XKNVYZ"; *c; c++)
        ck_assert_msg(ucr_letters_find(letters, *c)->nruns > 0, "letter %c has no diagonal stroke", *c);
    ck_assert_int_eq(ucr_letters_find(letters, 'L')->nruns, 0);
}
END_TEST

START_TEST(letters_trimmed_and_found)
{
    GError *error = NULL;
    ucr_letters *l = ucr_letters_parse("t", "# c\nletter o\n.....\n.###.\n.#.#.\n.###.\n", &error);
    ck_assert_ptr_nonnull(l);
    const ucr_glyph *g = ucr_letters_find_any_case(l, 'O');
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(g->w, 3);
    ck_assert_int_eq(g->h, 3);
    ck_assert(g->cell[0][0] && !g->cell[1][1]);
    ucr_letters_free(l);
}
END_TEST

/* ---- the drawn nodes ---------------------------------------------------- */

static ucr_megadungeon *generate(const char *seed, int cols, int rows, const ucr_leximorph_options *mo)
{
    GError *error = NULL;
    ucr_gen_options opt = { seed, cols, rows, tables, ucr_node_method_lookup("leximorph"), { 0 } };
    ucr_leximorph_options lo = { 0 };
    if (mo)
        lo = *mo;
    lo.letters = letters;
    ucr_method_options_set(&opt.method_options, &ucr_leximorph_method, &lo);
    ucr_megadungeon *md = ucr_pipeline_dungeon(&opt, FALSE, &error);
    ck_assert_msg(md != NULL, "seed %s: %s", seed, error ? error->message : "?");
    return md;
}

START_TEST(invariants_over_many_seeds)
{
    int seeds = g_getenv("UCR_SAN") ? SEEDS / 10 : SEEDS;
    long loops = 0, nodes = 0, features = 0, stairs = 0;
    long room_loops = 0, rooms = 0, loopless = 0, check_rooms = 0, check_junctions = 0;
    long pairs = 0, pairs_drawn = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "lexi-%d", s);
        ucr_megadungeon *md = generate(seed, 3, 3, NULL);
        ucr_test_check_megadungeon(md, seed);
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            ck_assert_str_eq(n->method, "leximorph");
            ck_assert_int_le(n->width, 62);
            /* Four quarters: a map that prints whole on one page (issue #11). */
            ck_assert_int_le(n->width, 44);
            ck_assert_int_le(n->height, 44);
            loops += n->stats.loops;
            nodes++;
            /* Loops as other generators count them: rooms the vertices,
             * each corridor network one vertex (key/analysis.c). */
            int nr = 0, rl = ucr_node_room_loops(n, &nr);
            room_loops += rl;
            rooms += nr;
            loopless += rl == 0;
            /* No sublevel of fewer than four rooms (issue #22). */
            ck_assert_msg(nr >= 4, "seed %s node %s: %d rooms", seed, n->id, nr);
            /* seed 002's d8 7: a pair of doors side by side into one room. */
            for (guint o = 0; n->outcomes && o < n->outcomes->len; o++) {
                const ucr_outcome *oc = &g_array_index(n->outcomes, ucr_outcome, o);
                if (strstr(oc->rule, "pair of doors")) {
                    pairs++;
                    pairs_drawn += oc->reason == NULL;
                }
            }
            for (guint a = 0; a < n->areas->len; a++) {
                const ucr_area *ar = AREA(n, a);
                features += ar->feature != UCR_FEATURE_NONE;
                stairs += ar->kind == UCR_AREA_STAIRS;
                /* seed 002: "At every corner or junction … roll (d6)" — the
                 * junctions the 60-ft checks make too: what lies there is
                 * the model's (drawn and keyed), never junction.txt's. */
                if (ar->kind == UCR_AREA_JUNCTION)
                    ck_assert_msg(ar->feature_rolled && ar->rolled && strstr(ar->rolled, ": d6="),
                                  "seed %s node %s: junction %d has no d6 of its own: '%s'", seed, n->id, ar->key,
                                  ar->rolled ? ar->rolled : "");
                if (ar->rolled && g_str_has_prefix(ar->rolled, "junction of the 60-ft check")) {
                    check_junctions++;
                    bool room6 = strstr(ar->rolled, ": d6=6: room") != NULL;
                    ck_assert_int_eq(room6, ar->kind == UCR_AREA_ROOM);
                    check_rooms += room6;
                    /* d6 = 5: the door stands on the junction's wall. */
                    if (strstr(ar->rolled, ": d6=5: door on its ")) {
                        bool door = false;
                        for (guint d = 0; d < n->doors->len; d++)
                            door |= g_array_index(n->doors, ucr_door, d).area == (int)a;
                        ck_assert_msg(door, "seed %s node %s: '%s' but no door", seed, n->id, ar->rolled);
                    }
                }
            }
            /* Four sectors, four letters from the d10 table. */
            int sectors = 0;
            for (guint r = 0; r < n->rolls->len; r++)
                if (g_str_has_prefix(g_ptr_array_index(n->rolls, r), "sector "))
                    sectors++;
            ck_assert_int_eq(sectors, 4);
        }
        ucr_megadungeon_free(md);
    }
    /* Pre-loaded: the letters' loops (A, B, D, O…) and the connectors. */
    ck_assert_msg(loops > nodes * 3, "only %ld loops in %ld nodes", loops, nodes);
    ck_assert(features > nodes);
    ck_assert(stairs > nodes / 2);
    /* Issue 22: at least 0.35 room loops per room, at most 10% of nodes
     * without one (rooms on the strokes, side passages going on). */
    printf("leximorph over %d seeds: %ld room loops over %ld rooms (%.3f), %ld of %ld nodes without; "
           "pairs of doors %ld of %ld as a pair\n",
           seeds, room_loops, rooms, (double)room_loops / (double)rooms, loopless, nodes, pairs_drawn, pairs);
    ck_assert_msg(room_loops * 100 >= rooms * 35, "%ld room loops over %ld rooms", room_loops, rooms);
    ck_assert_msg(loopless * 100 <= nodes * 10, "%ld of %ld nodes without a room loop", loopless, nodes);
    /* Issue 22: a d8 pair of doors drawn as a pair, 90% or more. */
    ck_assert(pairs > nodes);
    ck_assert_msg(pairs_drawn * 10 >= pairs * 9, "%ld of %ld pairs of doors drawn as a pair", pairs_drawn, pairs);
    /* The checks' junctions roll the d6: about one in six is a room. */
    ck_assert(check_junctions > nodes);
    ck_assert_msg(check_rooms * 10 > check_junctions && check_rooms * 4 < check_junctions,
                  "%ld rooms of %ld check junctions", check_rooms, check_junctions);
}
END_TEST

/* Rolls one node plan directly and embeds it with every side joined. */
static ucr_node *node_draw(const char *seed, const ucr_leximorph_options *mo, ucr_leximorph_plan **plan_out)
{
    ucr_prng rng;
    ucr_prng_seed(&rng, seed, "test");
    bool sides[4] = { true, true, true, true };
    ucr_leximorph_options o = *mo;
    o.letters = letters;
    ucr_leximorph_plan *plan = ucr_leximorph_plan_roll(&rng, sides, tables, &o);
    ucr_node_request req = { 0 };
    for (int d = 0; d < 4; d++) {
        req.joins[d].used = true;
        req.joins[d].link = -1;
        req.joins[d].half.through = true;
        req.joins[d].half.n = 1;
        req.joins[d].half.steps[0].kind = d % 2 ? UCR_STEP_DOOR : UCR_STEP_SECRET;
    }
    int link_area[4] = { -1, -1, -1, -1 };
    req.link_area = link_area;
    req.tables = tables;
    GError *error = NULL;
    ucr_node *node = ucr_leximorph_embed(plan, "T", 0, 0, &req, &rng, &error);
    ck_assert_msg(node != NULL, "seed %s: %s", seed, error ? error->message : "?");
    *plan_out = plan;
    return node;
}

static bool on_map(const ucr_node *n, ucr_point p)
{
    for (guint a = 0; a < n->areas->len; a++)
        if (ucr_area_contains(AREA(n, a), p))
            return true;
    for (guint k = 0; k < n->passages->len; k++) {
        const ucr_passage *ps = PASSAGE(n, k);
        for (guint c = 0; c < ps->cells->len; c++) {
            ucr_point q = g_array_index(ps->cells, ucr_point, c);
            if (q.x == p.x && q.y == p.y)
                return true;
        }
    }
    return false;
}

/* The template before rooms: one network (seed 002: "so that there aren't
 * any disconnected lines"), holding every letter. */
static void check_template(const ucr_leximorph_plan *plan, const char *seed)
{
    int w, h;
    const guint8 *sk = ucr_leximorph_plan_skeleton(plan, &w, &h);
    ck_assert_ptr_nonnull(sk);
    int total = 0, start = -1;
    for (int i = 0; i < w * h; i++)
        if (sk[i]) {
            total++;
            if (start < 0)
                start = i;
        }
    guint8 *seen = g_new0(guint8, w * h);
    int *stack = g_new(int, w * h), top = 0, reached = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top) {
        int i = stack[--top], x = i % w, y = i / w;
        reached++;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx, ny = y + dy, j = ny * w + nx;
                if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= w || ny >= h || !sk[j] || seen[j])
                    continue;
                /* Corner to corner: a diagonal stroke, the squares beside
                 * it rock. */
                if (dx && dy && (sk[y * w + nx] || sk[ny * w + x]))
                    continue;
                seen[j] = 1;
                stack[top++] = j;
            }
    }
    ck_assert_msg(reached == total, "seed %s: the letters' tunnels are not one network (%d of %d)", seed,
                  reached, total);
    for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++) {
        const GArray *sq = ucr_leximorph_plan_letter_squares(plan, i);
        ck_assert_int_gt(sq->len, 0);
        for (guint k = 0; k < sq->len; k++) {
            ucr_point p = g_array_index(sq, ucr_point, k);
            ck_assert(sk[p.y * w + p.x] && seen[p.y * w + p.x]);
        }
    }
    g_free(seen);
    g_free(stack);
}

START_TEST(letters_present_and_touching)
{
    int seeds = g_getenv("UCR_SAN") ? 40 : 300;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "letters-%d", s);
        ucr_leximorph_options mo = { 0 };
        mo.rotate = s % 2;
        mo.sectors = 1 + s % 9;
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        ck_assert_int_eq(ucr_leximorph_plan_letter_count(plan), mo.sectors);
        check_template(plan, seed);
        ck_assert_int_eq(n->unplaced, 0);
        ucr_test_check_node_geometry(NULL, n, seed);
        for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++) {
            char c = ucr_leximorph_plan_letter(plan, i);
            ck_assert_msg(strchr("RADTQLXPBg", c), "seed %s: letter '%c' is not on the d10 table", seed, c);
            /* The rolled letter is recorded, in order. */
            const char *roll = g_ptr_array_index(n->rolls, i);
            char want[8];
            g_snprintf(want, sizeof want, ": %c", c);
            ck_assert_msg(strstr(roll, want), "seed %s: roll '%s' does not name '%c'", seed, roll, c);
            ck_assert(mo.rotate == (strstr(roll, "d4=") != NULL));
            /* Its skeleton is tunnels or junctions (or rooms grown on them). */
            const GArray *sq = ucr_leximorph_plan_letter_squares(plan, i);
            for (guint k = 0; k < sq->len; k++)
                ck_assert_msg(on_map(n, g_array_index(sq, ucr_point, k)), "seed %s: letter %c lost a square",
                              seed, c);
        }
        /* Every side joined: a passage reaches each map edge. */
        int edges = 0;
        for (guint v = 0; v < n->vertices->len; v++)
            edges += g_array_index(n->vertices, ucr_vertex, v).kind == UCR_VERTEX_EXIT;
        ck_assert_int_eq(edges, 4);
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
}
END_TEST

START_TEST(word_blood_uses_its_letters)
{
    ucr_leximorph_options mo = { 0 };
    mo.word = "BLOOD";
    for (int s = 0; s < 20; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "blood-%d", s);
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        ck_assert_int_eq(ucr_leximorph_plan_letter_count(plan), 5);
        for (int i = 0; i < 5; i++) {
            ck_assert_int_eq(ucr_leximorph_plan_letter(plan, i), "BLOOD"[i]);
            char want[32];
            g_snprintf(want, sizeof want, "--word: %c", "BLOOD"[i]);
            ck_assert(strstr(g_ptr_array_index(n->rolls, i), want));
        }
        check_template(plan, seed);
        ucr_test_check_node_geometry(NULL, n, seed);
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
        /* And through the whole megadungeon. */
        ucr_megadungeon *md = generate(seed, 2, 2, &mo);
        ucr_test_check_megadungeon(md, seed);
        ucr_megadungeon_free(md);
    }
    /* Lower case finds the capitals; 'g' stays lower case. */
    mo.word = "bag";
    ucr_leximorph_plan *plan;
    ucr_node *n = node_draw("bag", &mo, &plan);
    ck_assert_int_eq(ucr_leximorph_plan_letter(plan, 0), 'B');
    ck_assert_int_eq(ucr_leximorph_plan_letter(plan, 2), 'g');
    ucr_node_free(n);
    ucr_leximorph_plan_free(plan);
}
END_TEST

/* The area at map square @p, or -1. */
static int area_at(const ucr_node *n, ucr_point p)
{
    for (guint a = 0; a < n->areas->len; a++)
        if (ucr_area_contains(AREA(n, a), p))
            return (int)a;
    return -1;
}

/* seed 002 d8 = 4, "two diagonal passages": drawn at 45° (the model's
 * diagonal steps), each leaving the junction two squares straight out;
 * nowhere else in a node does a passage step diagonally. */
START_TEST(diagonal_passages_are_diagonal)
{
    int seeds = g_getenv("UCR_SAN") ? 40 : 300;
    long rolled = 0, drawn = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "diagonal-%d", s);
        ucr_leximorph_options mo = { 0 };
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        ucr_test_check_node_geometry(NULL, n, seed);
        long here = 0;
        for (guint r = 0; r < n->rolls->len; r++) {
            const char *line = g_ptr_array_index(n->rolls, r);
            if (g_str_has_prefix(line, "tunnel of "))
                for (const char *q = strstr(line, ": two diagonal passages"); q;
                     q = strstr(q + 1, ": two diagonal passages"))
                    here++;
        }
        rolled += here;
        long diagonal = 0;
        for (guint k = 0; k < n->passages->len; k++) {
            const ucr_passage *ps = PASSAGE(n, k);
            guint first = 0;
            for (guint c = 1; c < ps->cells->len && !first; c++) {
                ucr_point a = g_array_index(ps->cells, ucr_point, c - 1), b = g_array_index(ps->cells, ucr_point, c);
                if (a.x != b.x && a.y != b.y)
                    first = c;
            }
            if (!first)
                continue;
            /* A letter's own diagonal stroke (X, K, N, V, Y, Z): at 45° from
             * the square after its junction (letters_legible). */
            int sw, shh;
            const guint8 *sk = ucr_leximorph_plan_skeleton(plan, &sw, &shh);
            ucr_point fc = g_array_index(ps->cells, ucr_point, first);
            if (sk[fc.y * sw + fc.x]) {
                ck_assert_int_le(first, 1);
                continue;
            }
            diagonal++;
            /* Two squares straight out of the wall it leaves, then 45°. */
            ck_assert_int_eq(first, 2);
            ck_assert_int_lt(ps->a, (int)n->areas->len);
            const char *why = AREA(n, ps->a)->rolled;
            ck_assert_msg(why && (strstr(why, "two diagonal passages") || g_str_has_prefix(why, "junction of the 60-ft")),
                          "seed %s: a diagonal passage from '%s'", seed, why ? why : "");
        }
        ck_assert_msg(diagonal == 0 || here > 0, "seed %s: diagonal passages no d8 rolled", seed);
        drawn += diagonal;
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
    /* Two passages a roll; most are drawn at 45° (where a diagonal does not
     * fit, out and turning; about two in three over many seeds). */
    ck_assert_msg(rolled > seeds, "only %ld diagonal rolls", rolled);
    ck_assert_msg(drawn >= rolled, "%ld diagonal passages for %ld rolls of two", drawn, rolled);
}
END_TEST

/* How many letters of @plan have a diagonal stroke. */
static long letters_with_diagonals(const ucr_leximorph_plan *plan)
{
    long k = 0;
    for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++)
        k += strchr("XKNVYZ", ucr_leximorph_plan_letter(plan, i)) != NULL;
    return k;
}

/* Is @p under a room at least two squares wide both ways?  (A 60-ft
 * check's junction that could not grow stays a one-square-wide chamber
 * along its tunnel: on the map it still reads as the stroke.) */
static bool in_room(const ucr_node *n, ucr_point p)
{
    for (guint a = 0; a < n->areas->len; a++) {
        const ucr_area *ar = AREA(n, a);
        if (ar->kind == UCR_AREA_ROOM && ar->w > 1 && ar->h > 1 && ucr_area_contains(ar, p))
            return true;
    }
    return false;
}

/* The word reads on the map once rooms grow on it: every stroke of every
 * letter (the squares between two cells of the letters file) keeps a
 * square of tunnel that no room covers, and a diagonal stroke is drawn at
 * 45° — over rolled letters, turned ones, and long words at the smallest
 * scale. */
START_TEST(letters_legible)
{
    static const char *const words[] = { NULL, "LABYRINTH", "XKNVYZ", "BOARD", "VORTEX", "ZANY", NULL };
    int seeds = g_getenv("UCR_SAN") ? 30 : 240;
    long strokes = 0, diagonal_steps = 0, grown = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "legible-%d", s);
        ucr_leximorph_options mo = { 0 };
        mo.word = words[s % 7];
        mo.rotate = s % 7 == 6;
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        ucr_test_check_node_geometry(NULL, n, seed);
        ck_assert_int_eq(n->unplaced, 0);
        int w, h;
        const guint8 *sk = ucr_leximorph_plan_skeleton(plan, &w, &h);
        for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++) {
            const GArray *sq = ucr_leximorph_plan_letter_squares(plan, i);
            const GArray *st = ucr_leximorph_plan_letter_strokes(plan, i);
            ck_assert_int_eq(sq->len, st->len);
            GHashTable *open = g_hash_table_new(NULL, NULL), *all = g_hash_table_new(NULL, NULL);
            for (guint k = 0; k < sq->len; k++) {
                int id = g_array_index(st, int, k);
                ucr_point p = g_array_index(sq, ucr_point, k);
                ck_assert_msg(on_map(n, p), "seed %s: letter %c lost (%d,%d)", seed,
                              ucr_leximorph_plan_letter(plan, i), p.x, p.y);
                if (id < 0)
                    continue;
                g_hash_table_add(all, GINT_TO_POINTER(id + 1));
                if (!in_room(n, p))
                    g_hash_table_add(open, GINT_TO_POINTER(id + 1));
                else
                    grown++;
            }
            ck_assert_msg(g_hash_table_size(open) == g_hash_table_size(all),
                          "seed %s: %u of the %u strokes of letter %c lie under rooms", seed,
                          g_hash_table_size(all) - g_hash_table_size(open), g_hash_table_size(all),
                          ucr_leximorph_plan_letter(plan, i));
            strokes += g_hash_table_size(all);
            g_hash_table_destroy(open);
            g_hash_table_destroy(all);
        }
        /* A diagonal stroke is a passage stepping corner to corner along
         * the letter's squares. */
        bool want_diagonal = false;
        for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++)
            want_diagonal |= strchr("XKNVYZ", ucr_leximorph_plan_letter(plan, i)) != NULL;
        long here = 0;
        for (guint k = 0; k < n->passages->len; k++) {
            const ucr_passage *ps = PASSAGE(n, k);
            for (guint c = 1; c < ps->cells->len; c++) {
                ucr_point a = g_array_index(ps->cells, ucr_point, c - 1), b = g_array_index(ps->cells, ucr_point, c);
                if (a.x != b.x && a.y != b.y && sk[a.y * w + a.x] && sk[b.y * w + b.x])
                    here++;
            }
        }
        ck_assert_msg(!want_diagonal || here >= 2 * letters_with_diagonals(plan), "seed %s: %ld diagonal steps", seed,
                      here);
        ck_assert_msg(want_diagonal || here == 0, "seed %s: a diagonal in letters without one", seed);
        diagonal_steps += here;
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
    ck_assert(strokes > seeds * 20);
    ck_assert(diagonal_steps > seeds);
    /* Rooms do grow on the letters (seed 002's d6 = 6), only not over them. */
    ck_assert(grown > seeds);
}
END_TEST

/* The straight lines of letter @i of @plan (maximal runs of its squares
 * along a row or a column, two strokes or more: the T's bar and stem, each
 * side of an O) that rooms @n drew over: how many lines, and in @worst the
 * largest share of one line's squares under rooms (in_room). */
static int lines_covered(const ucr_node *n, const ucr_leximorph_plan *plan, int i, int scale, double *worst,
                         long *covered_lines)
{
    int w, h;
    ucr_leximorph_plan_skeleton(plan, &w, &h);
    const GArray *sq = ucr_leximorph_plan_letter_squares(plan, i);
    guint8 *mine = g_new0(guint8, w * h);
    for (guint k = 0; k < sq->len; k++) {
        ucr_point p = g_array_index(sq, ucr_point, k);
        mine[p.y * w + p.x] = 1;
    }
    int lines = 0;
    for (int axis = 0; axis < 2; axis++)
        for (int a = 0; a < (axis ? w : h); a++) {
            int run = 0, under = 0;
            for (int b = 0; b <= (axis ? h : w); b++) {
                ucr_point p = axis ? (ucr_point){ a, b } : (ucr_point){ b, a };
                bool on = b < (axis ? h : w) && mine[p.y * w + p.x];
                if (on) {
                    run++;
                    under += in_room(n, p);
                    continue;
                }
                if (run >= 2 * scale + 1) {
                    lines++;
                    double share = (double)under / run;
                    *worst = MAX(*worst, share);
                    *covered_lines += 2 * under > run;
                }
                run = under = 0;
            }
        }
    g_free(mine);
    return lines;
}

/* The word reads (issue #22: `--seed lx1` hid the T, `lx3` the L and the R
 * under rooms): on the model, every straight line of every letter shows at
 * least half of its squares as tunnel, no room over them, over many seeds
 * of rolled and given words; rooms still grow on the letters (d6 = 6). */
START_TEST(letter_lines_show)
{
    static const char *const words[] = { NULL, "LABYRINTH", "BOARD", "TRAP", NULL };
    int seeds = g_getenv("UCR_SAN") ? 30 : 200;
    long lines = 0, covered = 0, grown = 0;
    double worst = 0;
    char first_bad[128] = "";
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "lines-%d", s);
        ucr_leximorph_options mo = { 0 };
        mo.word = words[s % 5];
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++) {
            double here = 0;
            long before = covered;
            lines += lines_covered(n, plan, i, ucr_leximorph_plan_scale(plan), &here, &covered);
            if (covered > before && !first_bad[0])
                g_snprintf(first_bad, sizeof first_bad, "seed %s: letter %c has a line %.0f%% under rooms", seed,
                           ucr_leximorph_plan_letter(plan, i), 100 * here);
            worst = MAX(worst, here);
        }
        for (guint a = 0; a < n->areas->len; a++)
            grown += AREA(n, a)->kind == UCR_AREA_ROOM && AREA(n, a)->rolled &&
                     strstr(AREA(n, a)->rolled, ": d6=6: room");
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
    printf("leximorph letter lines over %d seeds: %ld lines, %ld more than half under rooms, the most covered %.0f%%\n",
           seeds, lines, covered, 100 * worst);
    ck_assert_msg(covered == 0, "%ld lines more than half under rooms; %s", covered, first_bad);
    ck_assert(lines > seeds * 8);
    ck_assert(grown > seeds);
}
END_TEST

/* The letters read on the map: a letter's counters (squares its own
 * strokes close off) hold closets of one or two squares only (three, one
 * deep, behind a pair of doors), and a room
 * grown on a stroke reaches one square into a counter at most. */
START_TEST(counters_stay_open)
{
    int seeds = g_getenv("UCR_SAN") ? 40 : 300;
    long counter_squares = 0, closets = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "counter-%d", s);
        ucr_leximorph_options mo = { 0 };
        mo.word = s % 3 == 0 ? "BOARD" : NULL;
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        int w, h;
        const guint8 *sk = ucr_leximorph_plan_skeleton(plan, &w, &h);
        guint8 *hole = g_new0(guint8, w * h), *seen = g_new(guint8, w * h);
        int *stack = g_new(int, w * h);
        for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++) {
            const GArray *sq = ucr_leximorph_plan_letter_squares(plan, i);
            guint8 *wall = g_new0(guint8, w * h);
            for (guint k = 0; k < sq->len; k++) {
                ucr_point p = g_array_index(sq, ucr_point, k);
                wall[p.y * w + p.x] = 1;
            }
            memset(seen, 0, (size_t)(w * h));
            int top = 0;
            for (int j = 0; j < w * h; j++)
                if ((j % w == 0 || j / w == 0 || j % w == w - 1 || j / w == h - 1) && !wall[j]) {
                    seen[j] = 1;
                    stack[top++] = j;
                }
            while (top) {
                int j = stack[--top];
                int nb[4] = { j % w ? j - 1 : -1, j % w < w - 1 ? j + 1 : -1, j >= w ? j - w : -1,
                              j < w * (h - 1) ? j + w : -1 };
                for (int d = 0; d < 4; d++)
                    if (nb[d] >= 0 && !wall[nb[d]] && !seen[nb[d]]) {
                        seen[nb[d]] = 1;
                        stack[top++] = nb[d];
                    }
            }
            for (int j = 0; j < w * h; j++)
                if (!wall[j] && !seen[j])
                    hole[j] = 1;
            g_free(wall);
        }
        for (int j = 0; j < w * h; j++)
            counter_squares += hole[j];
        for (guint a = 0; a < n->areas->len; a++) {
            const ucr_area *ar = AREA(n, a);
            if (ar->kind != UCR_AREA_ROOM)
                continue;
            for (int y = ar->y; y < ar->y + ar->h; y++)
                for (int x = ar->x; x < ar->x + ar->w; x++) {
                    if (!hole[y * w + x])
                        continue;
                    /* A closet, or a pair of doors' hall one square deep
                     * (30 x 10 ft: two doors side by side need three). */
                    if (ar->w * ar->h <= 2 || (ar->w * ar->h == 3 && strstr(ar->rolled, "pair of doors"))) {
                        closets++;
                        continue;
                    }
                    bool beside = (x > 0 && sk[y * w + x - 1]) || (x < w - 1 && sk[y * w + x + 1]) ||
                                  (y > 0 && sk[(y - 1) * w + x]) || (y < h - 1 && sk[(y + 1) * w + x]);
                    ck_assert_msg(beside && strstr(ar->rolled, ": d6=6: room"),
                                  "seed %s: room %dx%d at (%d,%d) fills a counter at (%d,%d): %s", seed, ar->w,
                                  ar->h, ar->x, ar->y, x, y, ar->rolled);
                }
        }
        g_free(hole);
        g_free(seen);
        g_free(stack);
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
    ck_assert(counter_squares > seeds * 10);
    ck_assert(closets > 0);
}
END_TEST

/* d8 3 and 4 are passages that go on: every record of one going on through
 * its room names a passage from that room to another room. */
START_TEST(side_passages_go_on_to_rooms)
{
    int seeds = g_getenv("UCR_SAN") ? 40 : 200;
    long onward = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "onward-%d", s);
        ucr_leximorph_options mo = { 0 };
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        for (guint r = 0; r < n->rolls->len; r++) {
            const char *line = g_ptr_array_index(n->rolls, r);
            const char *q = strstr(line, ": the passage goes on through the room at (");
            if (!q)
                continue;
            ck_assert(strstr(line, "branch/side passage") || strstr(line, "two diagonal passages"));
            ucr_point a, b;
            ck_assert_int_eq(sscanf(q, ": the passage goes on through the room at (%d,%d) to the room at (%d,%d)",
                                    &a.x, &a.y, &b.x, &b.y), 4);
            int ra = area_at(n, a), rb = area_at(n, b);
            ck_assert(ra >= 0 && rb >= 0 && ra != rb);
            ck_assert(AREA(n, ra)->kind == UCR_AREA_ROOM && AREA(n, rb)->kind == UCR_AREA_ROOM);
            bool joined = false;
            for (guint k = 0; k < n->passages->len; k++) {
                const ucr_passage *ps = PASSAGE(n, k);
                joined |= (ps->a == ra && ps->b == rb) || (ps->a == rb && ps->b == ra);
            }
            ck_assert_msg(joined, "seed %s: '%s' but no passage", seed, line);
            onward++;
        }
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
    ck_assert_msg(onward > seeds, "only %ld side passages went on", onward);
}
END_TEST

/* The corridors of the template that are no letter's: each connector (two
 * ends on letters) is at most twice as long as the straight way between its
 * ends.  A connector whose nearest ends were cut off once went all round a
 * letter, one square off its strokes, and the 60-ft checks there found no
 * room (issue 11). */
static int check_connectors_short(const ucr_leximorph_plan *plan, const char *seed)
{
    int connectors = 0;
    int w, h;
    const guint8 *sk = ucr_leximorph_plan_skeleton(plan, &w, &h);
    guint8 *mark = g_new0(guint8, w * h);   /* 1 letter, 2 seen */
    for (int i = 0; i < ucr_leximorph_plan_letter_count(plan); i++) {
        const GArray *sq = ucr_leximorph_plan_letter_squares(plan, i);
        for (guint k = 0; k < sq->len; k++) {
            ucr_point p = g_array_index(sq, ucr_point, k);
            mark[p.y * w + p.x] = 1;
        }
    }
    static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
    int *stack = g_new(int, w * h);
    for (int s = 0; s < w * h; s++) {
        if (!sk[s] || mark[s])
            continue;
        int top = 0, size = 0, nends = 0;
        ucr_point ends[2] = { { 0, 0 }, { 0, 0 } };
        stack[top++] = s;
        mark[s] = 2;
        while (top) {
            int i = stack[--top], x = i % w, y = i / w;
            size++;
            bool end = false;
            for (int d = 0; d < 4; d++) {
                int nx = x + dx[d], ny = y + dy[d];
                if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                    continue;
                int j = ny * w + nx;
                end |= mark[j] == 1;
                if (sk[j] && !mark[j]) {
                    mark[j] = 2;
                    stack[top++] = j;
                }
            }
            if (end && nends < 2)
                ends[nends] = (ucr_point){ x, y };
            nends += end;
        }
        if (nends != 2)   /* a superstructure tunnel: a letter to the map's edge */
            continue;
        connectors++;
        int straight = abs(ends[0].x - ends[1].x) + abs(ends[0].y - ends[1].y) + 1;
        ck_assert_msg(size <= 2 * straight, "seed %s: a connector of %d squares between (%d,%d) and (%d,%d)",
                      seed, size, ends[0].x, ends[0].y, ends[1].x, ends[1].y);
    }
    g_free(stack);
    g_free(mark);
    return connectors;
}

/* Issue 11: every roll of every node on the map (seed 002), the side rooms
 * of the 60-ft checks too, over 2,000+ nodes, with the two dungeons whose
 * node rang a letter with its connector (chamber-leximorph-32 node I,
 * chamber-leximorph-825 node D: 2 and 3 rolls found no room). */
START_TEST(connectors_leave_room_for_the_checks)
{
    static const char *const rung[] = { "chamber-leximorph-32", "chamber-leximorph-825" };
    for (int k = 0; k < 2; k++) {
        ucr_megadungeon *md = generate(rung[k], 3, 3, NULL);
        ucr_test_check_megadungeon(md, rung[k]);   /* unplaced == 0 in every node */
        for (guint i = 0; i < md->nodes->len; i++) {
            const ucr_node *n = g_ptr_array_index(md->nodes, i);
            for (guint r = 0; r < n->rolls->len; r++)
                ck_assert_msg(!strstr(g_ptr_array_index(n->rolls, r), "no room on the map"),
                              "seed %s node %s: %s", rung[k], n->id, (char *)g_ptr_array_index(n->rolls, r));
        }
        ucr_megadungeon_free(md);
    }
    int seeds = g_getenv("UCR_SAN") ? 250 : 2500;
    long connectors = 0;
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "ring-%d", s);
        ucr_leximorph_options mo = { 0 };
        mo.rotate = s % 2;
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        ck_assert_msg(n->unplaced == 0, "seed %s: %d rolls found no room", seed, n->unplaced);
        connectors += check_connectors_short(plan, seed);
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
    /* Four letters in two rows and columns: about four connectors a node. */
    ck_assert_msg(connectors >= 3L * seeds, "only %ld connectors in %d nodes", connectors, seeds);
}
END_TEST

/* Issue #11, the reader sees the word: a map of up to six letters is
 * sized to print whole on one page of every template — at most 44 x 49
 * squares, or 57 x 36 when wider than tall (issue #21: 4 mm a square on A4
 * and Letter, 3.5 mm on A5 and digest, a spread or a turned page where
 * that helps) — at three squares a character or more, and still every roll on the map (seed 002) over 2,400 nodes of
 * one to six letters, rolled and turned; seven letters or more keep the
 * roomy map of at most 62 x 62 squares. */
START_TEST(map_sized_to_a_page)
{
    int seeds = g_getenv("UCR_SAN") ? 240 : 2400;
    int sized[10] = { 0 };
    for (int s = 0; s < seeds; s++) {
        char seed[32];
        g_snprintf(seed, sizeof seed, "page-%d", s);
        ucr_leximorph_options mo = { 0 };
        mo.sectors = 1 + s % 6;
        mo.rotate = s % 4 == 3;
        ucr_leximorph_plan *plan;
        ucr_node *n = node_draw(seed, &mo, &plan);
        ck_assert_msg(n->unplaced == 0, "seed %s, %d letters: %d rolls found no room", seed, mo.sectors,
                      n->unplaced);
        ck_assert_msg((n->width <= 44 && n->height <= 49) || (n->width <= 57 && n->height <= 36),
                      "seed %s, %d letters: a map of %d x %d squares", seed, mo.sectors, n->width, n->height);
        /* Three squares a character or more: the strokes a letter's
         * rows or columns apart stay two squares of rock apart. */
        int w, h;
        ucr_leximorph_plan_skeleton(plan, &w, &h);
        ck_assert_int_eq(w, n->width);
        const GArray *sq = ucr_leximorph_plan_letter_squares(plan, 0);
        int x0 = INT_MAX, x1 = INT_MIN;
        for (guint k = 0; k < sq->len; k++) {
            x0 = MIN(x0, g_array_index(sq, ucr_point, k).x);
            x1 = MAX(x1, g_array_index(sq, ucr_point, k).x);
        }
        ck_assert_msg(x1 - x0 >= 4 * 3, "seed %s: a letter %d squares wide", seed, x1 - x0 + 1);
        sized[mo.sectors] = n->width * 100 + n->height;
        ucr_node_free(n);
        ucr_leximorph_plan_free(plan);
    }
    /* The default four quarters: 43 x 44 (four squares a character, every
     * side joined: size_narrow); two letters side by side 52 x 27; five or
     * six 53 x 36. */
    ck_assert_int_eq(sized[4], 4344);
    ck_assert_int_eq(sized[2], 5227);
    ck_assert_int_eq(sized[6], 5336);
    ucr_leximorph_options mo = { .word = "LABYRINTH" };
    ucr_leximorph_plan *plan;
    ucr_node *n = node_draw("page-labyrinth", &mo, &plan);
    ck_assert_int_eq(n->width, 61);
    ck_assert_int_eq(n->height, 61);
    ck_assert_int_eq(n->unplaced, 0);
    ucr_node_free(n);
    ucr_leximorph_plan_free(plan);
}
END_TEST

/* Issue #21: the four letters of a standard node print whole at 4 mm a
 * square on A4 (180 mm across for the map and 1.2 squares of sheet): 43
 * squares wide at most, whichever sides the superstructure joins, 42 with
 * no join east or west (the margin narrowed where no chamber needs it);
 * every letter at four squares a character, every letter of the word joined
 * (the old map was 44 wide: 3.98 mm). */
START_TEST(standard_map_fits_a4_at_4mm)
{
    int per = g_getenv("UCR_SAN") ? 2 : 12;
    for (int mask = 0; mask < 16; mask++)
        for (int k = 0; k < per; k++) {
            char seed[48];
            g_snprintf(seed, sizeof seed, "a4-%d-%d", mask, k);
            bool sides[4];
            for (int d = 0; d < 4; d++)
                sides[d] = mask >> d & 1;
            ucr_prng rng;
            ucr_prng_seed(&rng, seed, "test");
            ucr_leximorph_options o = { .letters = letters, .rotate = k % 2 };
            ucr_leximorph_plan *plan = ucr_leximorph_plan_roll(&rng, sides, tables, &o);
            int w, h;
            ucr_leximorph_plan_skeleton(plan, &w, &h);
            int most = sides[UCR_EAST] || sides[UCR_WEST] ? 43 : 42;
            ck_assert_msg(w <= most && h <= 44, "seed %s (joins %d): a map of %d x %d squares", seed, mask, w, h);
            ck_assert_int_eq(ucr_leximorph_plan_scale(plan), 4);
            ck_assert_int_eq(ucr_leximorph_plan_letter_count(plan), 4);
            ucr_leximorph_plan_free(plan);
        }
}
END_TEST

START_TEST(same_seed_same_node)
{
    ucr_leximorph_options mo = { 0 };
    ucr_megadungeon *a = generate("lexi-same", 3, 3, &mo), *b = generate("lexi-same", 3, 3, &mo);
    const ucr_node *na = g_ptr_array_index(a->nodes, 4), *nb = g_ptr_array_index(b->nodes, 4);
    ck_assert_int_eq(na->rolls->len, nb->rolls->len);
    for (guint i = 0; i < na->rolls->len; i++)
        ck_assert_str_eq(g_ptr_array_index(na->rolls, i), g_ptr_array_index(nb->rolls, i));
    ck_assert_int_eq(na->areas->len, nb->areas->len);
    ck_assert_int_eq(na->passages->len, nb->passages->len);
    ucr_megadungeon_free(a);
    ucr_megadungeon_free(b);
}
END_TEST

/* Issue #22: no sublevel of fewer than 4 rooms, at either size (`undercroft
 * stats --method leximorph --count 1000`, and with `--node-size pocket`:
 * none of 9,000 nodes either way). */
START_TEST(every_node_holds_four_rooms)
{
    static const ucr_node_size sizes[2] = { UCR_NODE_STANDARD, UCR_NODE_POCKET };
    int seeds = g_getenv("UCR_SAN") ? 12 : 120;
    for (int k = 0; k < 2; k++) {
        int nodes, few = ucr_test_few_room_nodes(tables, "leximorph", sizes[k], "lex-rooms", seeds, &nodes);
        printf("leximorph %s: %d of %d nodes hold fewer than 4 rooms\n", ucr_node_size_name(sizes[k]), few, nodes);
        ck_assert_msg(few == 0, "leximorph %s: %d of %d nodes hold fewer than 4 rooms", ucr_node_size_name(sizes[k]),
                      few, nodes);
    }
}
END_TEST

static Suite *leximorph_suite(void)
{
    Suite *s = suite_create("leximorph");
    TCase *tables_case = tcase_create("tables");
    tcase_add_checked_fixture(tables_case, setup, teardown);
    tcase_add_test(tables_case, d10_letter_table);
    tcase_add_test(tables_case, d4_rotation_table);
    tcase_add_test(tables_case, d6_junction_table);
    tcase_add_test(tables_case, d8_side_table);
    tcase_add_test(tables_case, malformed_letters_give_file_and_line);
    tcase_add_test(tables_case, letters_trimmed_and_found);
    tcase_add_test(tables_case, diagonal_strokes_parsed);
    suite_add_tcase(s, tables_case);
    TCase *nodes = tcase_create("nodes");
    tcase_add_checked_fixture(nodes, setup, teardown);
    tcase_set_timeout(nodes, 0);
    tcase_add_test(nodes, letters_present_and_touching);
    tcase_add_test(nodes, word_blood_uses_its_letters);
    tcase_add_test(nodes, same_seed_same_node);
    tcase_add_test(nodes, diagonal_passages_are_diagonal);
    tcase_add_test(nodes, counters_stay_open);
    tcase_add_test(nodes, letters_legible);
    tcase_add_test(nodes, letter_lines_show);
    tcase_add_test(nodes, side_passages_go_on_to_rooms);
    tcase_add_test(nodes, invariants_over_many_seeds);
    tcase_add_test(nodes, connectors_leave_room_for_the_checks);
    tcase_add_test(nodes, map_sized_to_a_page);
    tcase_add_test(nodes, standard_map_fits_a4_at_4mm);
    tcase_add_test(nodes, every_node_holds_four_rooms);
    suite_add_tcase(s, nodes);
    return s;
}

int main(void)
{
    return ucr_check_run(leximorph_suite());
}
