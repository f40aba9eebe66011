#include "gen/methods/letters.h"

#include <string.h>

#include "core/datafile.h"
#include "core/error.h"
#include "model/model.h"

void ucr_letters_free(ucr_letters *letters)
{
    if (!letters)
        return;
    g_array_free(letters->glyphs, TRUE);
    g_free(letters->path);
    g_free(letters);
}

static ucr_letters *letters_fail(ucr_letters *l, GError **error, int line, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

static ucr_letters *letters_fail(ucr_letters *l, GError **error, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s:%d: %s", l->path, line, msg);
    g_free(msg);
    ucr_letters_free(l);
    return NULL;
}

bool ucr_glyph_diagonal(const ucr_glyph *g, int x, int y, int dx)
{
    int nx = x + dx, ny = y + 1;
    if (x < 0 || y < 0 || x >= g->w || y >= g->h || nx < 0 || ny >= g->h || nx >= g->w)
        return false;
    if (!g->cell[y][x] || !g->cell[ny][nx])
        return false;
    unsigned bit = dx > 0 ? 1 : 2;   /* '\' joins north-west to south-east */
    return ((g->diag[y][x] | g->diag[ny][nx]) & bit) != 0;
}

/* The corner-to-corner joins of cell (@x, @y): bit 0 north-east, 1
 * south-east, 2 south-west, 3 north-west. */
static unsigned diagonal_joins(const ucr_glyph *g, int x, int y)
{
    return (ucr_glyph_diagonal(g, x - 1, y - 1, 1) ? 8u : 0u) | (ucr_glyph_diagonal(g, x + 1, y - 1, -1) ? 1u : 0u) |
           (ucr_glyph_diagonal(g, x, y, 1) ? 2u : 0u) | (ucr_glyph_diagonal(g, x, y, -1) ? 4u : 0u);
}

static int side_joins(const ucr_glyph *g, int x, int y)
{
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int nx = x + UCR_DIR_DX[d], ny = y + UCR_DIR_DY[d];
        n += nx >= 0 && ny >= 0 && nx < g->w && ny < g->h && g->cell[ny][nx];
    }
    return n;
}

bool ucr_glyph_inner(const ucr_glyph *g, int x, int y)
{
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return false;
    unsigned j = diagonal_joins(g, x, y);
    return g->cell[y][x] && side_joins(g, x, y) == 0 && (j == 5u || j == 10u);
}

/* May a stroke leave cell (@x, @y) of @g through side @d: no side-by-side
 * stroke there, and no other diagonal stroke already leaving that way? */
static bool side_free(const ucr_glyph *g, int x, int y, int d, int upto)
{
    int nx = x + UCR_DIR_DX[d], ny = y + UCR_DIR_DY[d];
    if (nx >= 0 && ny >= 0 && nx < g->w && ny < g->h && g->cell[ny][nx])
        return false;
    for (int r = 0; r < upto; r++)
        for (int e = 0; e < 2; e++)
            if (g->runs[r].x[e] == x && g->runs[r].y[e] == y && g->runs[r].leave[e] == d)
                return false;
    return true;
}

/* The sides run @r leaves its ends by, choice @c: 0 straight out of its
 * first end across (east or west), 1 along (south). */
static void run_choose(ucr_glyph_run *r, int c)
{
    int sx = r->x[1] > r->x[0] ? 1 : -1;
    ucr_dir across = sx > 0 ? UCR_EAST : UCR_WEST, back = sx > 0 ? UCR_WEST : UCR_EAST;
    r->leave[0] = c ? UCR_SOUTH : across;
    r->leave[1] = c ? back : UCR_NORTH;
}

/* Backtracking over the runs from @r on: each leaves its ends by free sides. */
static bool runs_place(ucr_glyph *g, int r)
{
    if (r == g->nruns)
        return true;
    for (int c = 0; c < 2; c++) {
        run_choose(&g->runs[r], c);
        if (side_free(g, g->runs[r].x[0], g->runs[r].y[0], g->runs[r].leave[0], r) &&
            side_free(g, g->runs[r].x[1], g->runs[r].y[1], g->runs[r].leave[1], r) && runs_place(g, r + 1))
            return true;
    }
    return false;
}

/* Finds the diagonal strokes of @g (after trimming) and the sides they
 * leave their ends by; NULL if fine, else a message. */
static char *glyph_runs(ucr_glyph *g)
{
    g->nruns = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            for (int dx = -1; dx <= 1; dx += 2) {
                /* A stroke starts where the cell above it along the
                 * diagonal does not go on the same way. */
                if (!ucr_glyph_diagonal(g, x, y, dx))
                    continue;
                if (ucr_glyph_diagonal(g, x - dx, y - 1, dx) && ucr_glyph_inner(g, x, y))
                    continue;
                if (g->nruns == UCR_GLYPH_RUNS)
                    return g_strdup_printf("letter '%c' has more than %d diagonal strokes", g->name,
                                           UCR_GLYPH_RUNS);
                ucr_glyph_run *r = &g->runs[g->nruns++];
                int ex = x + dx, ey = y + 1;
                while (ucr_glyph_inner(g, ex, ey) && ucr_glyph_diagonal(g, ex, ey, dx)) {
                    ex += dx;
                    ey++;
                }
                r->x[0] = x;
                r->y[0] = y;
                r->x[1] = ex;
                r->y[1] = ey;
            }
    if (!runs_place(g, 0))
        return g_strdup_printf("letter '%c': its diagonal strokes cannot each leave their ends by a side "
                               "no other stroke uses (move one a square over)", g->name);
    return NULL;
}

/* Checks the glyph just read (header on line @line); NULL if fine, else a
 * message and *bad_line set. */
static char *glyph_check(const ucr_glyph *g, int line, int *bad_line)
{
    *bad_line = line;
    int count = 0, sx = -1, sy = -1;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            if (g->cell[y][x]) {
                count++;
                if (sx < 0) {
                    sx = x;
                    sy = y;
                }
            }
    if (g->h == 0)
        return g_strdup_printf("letter '%c' has no rows: draw it below its 'letter' line", g->name);
    if (count < 2)
        return g_strdup_printf("letter '%c' needs at least two '#' (a tunnel)", g->name);
    for (int y = 0; y + 1 < g->h; y++)
        for (int x = 0; x + 1 < g->w; x++)
            if (g->cell[y][x] && g->cell[y][x + 1] && g->cell[y + 1][x] && g->cell[y + 1][x + 1]) {
                *bad_line = line + 1 + y;
                return g_strdup_printf("letter '%c': a 2x2 block of '#' at column %d (tunnels are "
                                       "one '#' wide; leave a '.' inside)", g->name, x + 1);
            }
    /* A diagonal stroke is drawn across the corners of the two squares
     * beside it: they stay rock. */
    for (int y = 0; y + 1 < g->h; y++)
        for (int x = 0; x < g->w; x++)
            for (int dx = -1; dx <= 1; dx += 2)
                if (ucr_glyph_diagonal(g, x, y, dx) && (g->cell[y][x + dx] || g->cell[y + 1][x])) {
                    *bad_line = line + 1 + y;
                    return g_strdup_printf("letter '%c': the diagonal from column %d crosses a tunnel "
                                           "(the two squares beside a diagonal stay '.')", g->name, x + 1);
                }
    /* One shape: flood from the first '#' through joined neighbours. */
    bool seen[UCR_GLYPH_MAX][UCR_GLYPH_MAX] = { { false } };
    int stack[UCR_GLYPH_MAX * UCR_GLYPH_MAX], top = 0, reached = 0;
    stack[top++] = sy * UCR_GLYPH_MAX + sx;
    seen[sy][sx] = true;
    while (top) {
        int s = stack[--top], x = s % UCR_GLYPH_MAX, y = s / UCR_GLYPH_MAX;
        reached++;
        for (int d = 0; d < 8; d++) {
            int nx = x + UCR_DIR8_DX[d + 1], ny = y + UCR_DIR8_DY[d + 1];
            if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h || !g->cell[ny][nx] || seen[ny][nx])
                continue;
            bool joined = nx == x || ny == y ||
                          (ny > y ? ucr_glyph_diagonal(g, x, y, nx - x) : ucr_glyph_diagonal(g, nx, ny, x - nx));
            if (!joined)
                continue;
            seen[ny][nx] = true;
            stack[top++] = ny * UCR_GLYPH_MAX + nx;
        }
    }
    if (reached < count) {
        for (int y = 0; y < g->h; y++)
            for (int x = 0; x < g->w; x++)
                if (g->cell[y][x] && !seen[y][x]) {
                    *bad_line = line + 1 + y;
                    return g_strdup_printf("letter '%c': the '#' at column %d is cut off from the "
                                           "rest (tunnels join side by side, or corner to corner along a '\\', '/' or 'x')",
                                           g->name, x + 1);
                }
    }
    return NULL;
}

/* Trims empty rows and columns around the drawing, so that the letter's
 * outer tunnels lie on its edges (the connectors between letters start
 * there). */
static void glyph_trim(ucr_glyph *g)
{
    int x0 = g->w, x1 = -1, y0 = g->h, y1 = -1;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            if (g->cell[y][x]) {
                x0 = MIN(x0, x);
                x1 = MAX(x1, x);
                y0 = MIN(y0, y);
                y1 = MAX(y1, y);
            }
    if (x1 < 0)
        return;
    ucr_glyph t = *g;
    memset(t.cell, 0, sizeof t.cell);
    memset(t.diag, 0, sizeof t.diag);
    t.w = x1 - x0 + 1;
    t.h = y1 - y0 + 1;
    for (int y = 0; y < t.h; y++)
        for (int x = 0; x < t.w; x++) {
            t.cell[y][x] = g->cell[y + y0][x + x0];
            t.diag[y][x] = g->diag[y + y0][x + x0];
        }
    *g = t;
}

/* The letter ends: check it and trim it; a message (the caller frees it)
 * and its line in *bad when it is not a letter the method can use. */
static char *glyph_finish(ucr_glyph *cur, int cur_line, int *bad)
{
    char *msg = glyph_check(cur, cur_line, bad);
    if (msg)
        return msg;
    glyph_trim(cur);
    *bad = cur_line;
    return glyph_runs(cur);
}

/* A "letter X" line (s): the letter's name in *name, or a message (the
 * caller frees it) saying what is wrong with it. */
static char *header_parse(const ucr_letters *l, const char *s, char *name_out)
{
    const char *name = s + strlen("letter");
    if (!g_ascii_isspace(*name))
        return g_strdup("expected 'letter X' (one character after a space)");
    while (g_ascii_isspace(*name))
        name++;
    if (strlen(name) != 1 || !g_ascii_isgraph(name[0]))
        return g_strdup_printf("a letter is named by one character (ASCII), not '%s'", name);
    if (ucr_letters_find(l, name[0]))
        return g_strdup_printf("letter '%c' is drawn twice", name[0]);
    *name_out = name[0];
    return NULL;
}

/* One row (s) of letter cur, added at its foot; or a message (the caller
 * frees it) naming the square it cannot read. */
static char *row_parse(ucr_glyph *cur, const char *s)
{
    int len = (int)strlen(s);
    if (cur->h >= UCR_GLYPH_MAX || len > UCR_GLYPH_MAX)
        return g_strdup_printf("letter '%c' is larger than %dx%d", cur->name, UCR_GLYPH_MAX, UCR_GLYPH_MAX);
    for (int x = 0; x < len; x++) {
        if (!strchr("#. \\/x", s[x])) {
            char c = s[x];
            if (c < 0x20 || c > 0x7e)
                return g_strdup_printf("column %d: unexpected byte 0x%02x: use '#' "
                                       "for tunnel, '\\', '/' or 'x' for a diagonal and '.' for rock", x + 1,
                                       (unsigned char)c);
            return g_strdup_printf("column %d: unexpected '%c': use '#' for tunnel, '\\', '/' or 'x' for a "
                                   "diagonal and '.' for rock",
                                   x + 1, c);
        }
        cur->cell[cur->h][x] = s[x] != '.' && s[x] != ' ';
        cur->diag[cur->h][x] = s[x] == '\\' ? 1 : s[x] == '/' ? 2 : s[x] == 'x' ? 3 : 0;
    }
    cur->w = MAX(cur->w, len);
    cur->h++;
    return NULL;
}

ucr_letters *ucr_letters_parse(const char *path, const char *text, GError **error)
{
    ucr_letters *l = g_new0(ucr_letters, 1);
    l->path = g_strdup(path);
    l->glyphs = g_array_new(FALSE, TRUE, sizeof(ucr_glyph));
    const char *bad_byte;
    if (!g_utf8_validate(text, -1, &bad_byte)) {
        int lineno = 1;
        for (const char *c = text; c < bad_byte; c++)
            lineno += *c == '\n';
        return letters_fail(l, error, lineno, "byte 0x%02x is not UTF-8 (save the file as UTF-8 text)",
                            (unsigned char)*bad_byte);
    }
    char **lines = g_strsplit(text, "\n", -1);
    ucr_glyph cur = { 0 };
    int cur_line = 0;          /* line of the current letter's header, 0 if none */
    bool in_rows = false;
    char *msg = NULL;
    int bad = 0;
    for (int i = 0;; i++) {
        const char *raw = lines[i];
        int lineno = i + 1;
        char *s = raw ? g_strdup(raw) : NULL;
        if (s) {
            g_strchomp(s);   /* trailing spaces and '\r' */
        }
        bool blank = !s || s[0] == '\0';
        bool header = s && g_str_has_prefix(s, "letter");
        bool comment = s && !in_rows && s[0] == '#';
        if (cur_line && (blank || header || !s)) {
            if ((msg = glyph_finish(&cur, cur_line, &bad))) {
                g_free(s);
                break;
            }
            g_array_append_val(l->glyphs, cur);
            cur_line = 0;
            in_rows = false;
        }
        if (!s)
            break;
        bad = lineno;
        if (header) {
            char name = 0;
            msg = header_parse(l, s, &name);
            g_free(s);
            if (msg)
                break;
            memset(&cur, 0, sizeof cur);
            cur.name = name;
            cur_line = lineno;
            in_rows = true;
            continue;
        }
        if (blank || comment) {
            g_free(s);
            continue;
        }
        msg = cur_line ? row_parse(&cur, s) : g_strdup("rows must follow a 'letter X' line");
        g_free(s);
        if (msg)
            break;
    }
    g_strfreev(lines);
    if (msg) {
        ucr_letters *r = letters_fail(l, error, bad, "%s", msg);
        g_free(msg);
        return r;
    }
    if (l->glyphs->len == 0)
        return letters_fail(l, error, 1, "no letters: draw at least one after a 'letter X' line");
    return l;
}

ucr_letters *ucr_letters_load(const char *path, GError **error)
{
    char *contents = NULL;
    if (!ucr_datafile_read(path, "letters file", &contents, NULL, error))
        return NULL;
    ucr_letters *l = ucr_letters_parse(path, contents, error);
    g_free(contents);
    return l;
}

const ucr_glyph *ucr_letters_find(const ucr_letters *letters, char name)
{
    for (guint i = 0; i < letters->glyphs->len; i++) {
        const ucr_glyph *g = &g_array_index(letters->glyphs, ucr_glyph, i);
        if (g->name == name)
            return g;
    }
    return NULL;
}

const ucr_glyph *ucr_letters_find_any_case(const ucr_letters *letters, char name)
{
    const ucr_glyph *g = ucr_letters_find(letters, name);
    if (!g && g_ascii_isupper(name))
        g = ucr_letters_find(letters, g_ascii_tolower(name));
    if (!g && g_ascii_islower(name))
        g = ucr_letters_find(letters, g_ascii_toupper(name));
    return g;
}

char *ucr_letters_names(const ucr_letters *letters)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < letters->glyphs->len; i++)
        g_string_append_printf(s, "%s%c", i ? " " : "", g_array_index(letters->glyphs, ucr_glyph, i).name);
    return g_string_free(s, FALSE);
}

/* Where cell (@x, @y) of a @w × @h glyph goes when turned by @d4. */
static void rotate_cell(int w, int h, int d4, int x, int y, int *nx, int *ny)
{
    switch (d4) {
    case 2: *nx = h - 1 - y; *ny = x; break;             /* clockwise */
    case 3: *nx = w - 1 - x; *ny = h - 1 - y; break;     /* upside down */
    case 4: *nx = y; *ny = w - 1 - x; break;             /* counter-clockwise */
    default: *nx = x; *ny = y; break;
    }
}

ucr_glyph ucr_glyph_rotate(const ucr_glyph *g, int d4)
{
    ucr_glyph r = *g;
    memset(r.cell, 0, sizeof r.cell);
    memset(r.diag, 0, sizeof r.diag);
    bool quarter = d4 == 2 || d4 == 4;
    r.w = quarter ? g->h : g->w;
    r.h = quarter ? g->w : g->h;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            if (!g->cell[y][x])
                continue;
            int nx, ny;
            rotate_cell(g->w, g->h, d4, x, y, &nx, &ny);
            r.cell[ny][nx] = true;
            /* A quarter turn makes a '\' a '/'. */
            unsigned char dg = g->diag[y][x];
            r.diag[ny][nx] = quarter && dg != 3 ? (unsigned char)(dg ? 3 - dg : 0) : dg;
        }
    /* The strokes turn with their cells, and the sides they leave by. */
    int turn = d4 == 2 ? 1 : d4 == 3 ? 2 : d4 == 4 ? 3 : 0;
    for (int k = 0; k < g->nruns; k++) {
        ucr_glyph_run run = g->runs[k], out;
        for (int e = 0; e < 2; e++) {
            rotate_cell(g->w, g->h, d4, run.x[e], run.y[e], &out.x[e], &out.y[e]);
            out.leave[e] = (run.leave[e] + turn) % 4;
        }
        /* First end on top, as the loader finds them. */
        if (out.y[0] > out.y[1]) {
            ucr_glyph_run sw = out;
            for (int e = 0; e < 2; e++) {
                out.x[e] = sw.x[1 - e];
                out.y[e] = sw.y[1 - e];
                out.leave[e] = sw.leave[1 - e];
            }
        }
        r.runs[k] = out;
    }
    return r;
}
