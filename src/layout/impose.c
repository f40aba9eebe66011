#include "layout/impose.h"

#include <math.h>
#include <string.h>

#include "core/datafile.h"
#include "core/error.h"
#include "layout/page.h"

#define MM (72.0 / 25.4)
/* Room around a saddle sheet's pages for crop marks. */
#define MARKS_MARGIN (10 * MM)

void ucr_imposition_free(ucr_imposition *im)
{
    if (!im)
        return;
    g_free(im->name);
    g_free(im->panel);
    g_free(im);
}

static ucr_imposition *parse(const char *path, const char *text, gsize length, GError **error)
{
    GKeyFile *kf = g_key_file_new();
    GError *e = NULL;
    if (!g_key_file_load_from_data(kf, text, length, G_KEY_FILE_NONE, &e)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s: %s", path, e->message);
        g_error_free(e);
        g_key_file_free(kf);
        return NULL;
    }
    ucr_imposition *im = g_new0(ucr_imposition, 1);
    char *base = g_path_get_basename(path);
    im->name = g_strndup(base, strcspn(base, "."));
    g_free(base);
    char *bad = NULL;
    int line = 1;
    gsize ng = 0;
    char **groups = g_key_file_get_groups(kf, &ng);
    for (gsize g = 0; g < ng && !bad; g++)
        if (strcmp(groups[g], "impose")) {
            line = ucr_keyfile_line(text, length, groups[g], NULL);
            bad = g_strdup_printf("unknown group [%s]: the file has one group, [impose]", groups[g]);
        }
    g_strfreev(groups);
    gsize nk = 0;
    char **keys = bad ? NULL : g_key_file_get_keys(kf, "impose", &nk, NULL);
    if (!bad && !keys)
        bad = g_strdup("no [impose] group");
    char *kind = NULL;
    for (gsize k = 0; keys && k < nk && !bad; k++) {
        const char *key = keys[k];
        char *v = g_key_file_get_string(kf, "impose", key, NULL);
        line = ucr_keyfile_line(text, length, "impose", key);
        g_strstrip(v);
        if (!strcmp(key, "kind")) {
            kind = g_strdup(v);
            if (!strcmp(v, "saddle"))
                im->kind = UCR_IMPOSE_SADDLE;
            else if (!strcmp(v, "minizine"))
                im->kind = UCR_IMPOSE_MINIZINE;
            else
                bad = g_strdup_printf("kind = %s: use saddle or minizine", v);
        } else if (!strcmp(key, "crop-marks") || !strcmp(key, "guides")) {
            bool *flag = !strcmp(key, "guides") ? &im->guides : &im->crop_marks;
            if (!strcmp(v, "true"))
                *flag = true;
            else if (!strcmp(v, "false"))
                *flag = false;
            else
                bad = g_strdup_printf("%s = %s: use true or false", key, v);
        } else if (!strcmp(key, "bleed")) {
            char *end;
            double mm = g_ascii_strtod(v, &end);
            if (!*v || *end || !isfinite(mm) || mm < 0 || mm > 10)
                bad = g_strdup_printf("bleed = %s: a length in mm from 0 to 10", v);
            im->bleed = mm * MM;
        } else if (!strcmp(key, "creep")) {
            char *end;
            double mm = g_ascii_strtod(v, &end);
            if (!*v || *end || !isfinite(mm) || mm < 0 || mm > 2)
                bad = g_strdup_printf("creep = %s: a length in mm per sheet from 0 to 2", v);
            im->creep = mm * MM;
        } else if (!strcmp(key, "panel")) {
            g_free(im->panel);
            im->panel = g_strdup(v);
        } else if (strcmp(key, "description")) {
            bad = g_strdup_printf("unknown key '%s': use kind, description, crop-marks, bleed, creep, panel, guides",
                                  key);
        }
        g_free(v);
    }
    g_strfreev(keys);
    if (!bad && !kind) {
        line = ucr_keyfile_line(text, length, "impose", NULL);
        bad = g_strdup("no kind: say kind = saddle or kind = minizine");
    }
    if (!bad && im->kind == UCR_IMPOSE_MINIZINE && !im->panel) {
        line = ucr_keyfile_line(text, length, "impose", NULL);
        bad = g_strdup("a minizine needs panel = the page template of its panels");
    }
    g_free(kind);
    g_key_file_free(kf);
    if (bad) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s:%d: %s", path, line, bad);
        g_free(bad);
        ucr_imposition_free(im);
        return NULL;
    }
    /* A panel template named in the file is found beside it. */
    if (im->panel && !g_path_is_absolute(im->panel)) {
        char *dir = g_path_get_dirname(path);
        char *p = g_build_filename(dir, im->panel, NULL);
        g_free(im->panel);
        im->panel = p;
        g_free(dir);
    }
    return im;
}

ucr_imposition *ucr_imposition_load(const char *name_or_path, const char *datadir, GError **error)
{
    char *path;
    char *dir = g_build_filename(datadir, "templates", "impose", NULL);
    if (strchr(name_or_path, '/') || g_str_has_suffix(name_or_path, ".ini")) {
        path = g_strdup(name_or_path);
    } else {
        char *file = g_strconcat(name_or_path, ".ini", NULL);
        path = g_build_filename(dir, file, NULL);
        g_free(file);
        gboolean plain = *name_or_path && strspn(name_or_path, "abcdefghijklmnopqrstuvwxyz0123456789-_") ==
                                               strlen(name_or_path);
        if (!plain || !g_file_test(path, G_FILE_TEST_IS_REGULAR) ||
            g_str_has_suffix(name_or_path, "-panel")) {
            char *list = ucr_datafile_ini_names(dir, "-panel");
            if (list)
                g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                            "unknown --impose '%s': use %s, or the path of a .ini imposition", name_or_path, list);
            else
                g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                            "unknown --impose '%s': no impositions in %s; give the path of a .ini imposition",
                            name_or_path, dir);
            g_free(list);
            g_free(path);
            g_free(dir);
            return NULL;
        }
    }
    g_free(dir);
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "%s: no such imposition", path);
        g_free(path);
        return NULL;
    }
    char *text;
    gsize length;
    ucr_imposition *im = NULL;
    if (ucr_datafile_read(path, "imposition", &text, &length, error)) {
        im = parse(path, text, length, error);
        g_free(text);
    }
    g_free(path);
    return im;
}

int ucr_impose_saddle_order(int n, int *slots)
{
    int padded = (n + 3) / 4 * 4;
    for (int k = 0; k < padded / 4; k++) {
        int *s = slots + 4 * k;
        s[0] = padded - 2 * k;      /* front: [N−2k | 2k+1] */
        s[1] = 2 * k + 1;
        s[2] = 2 * k + 2;           /* back: [2k+2 | N−2k−1] */
        s[3] = padded - 2 * k - 1;
    }
    return padded;
}

/* Places @p with its top-left at (x, y) of a slot @w × @h, turned back to
 * portrait when it was laid out in landscape (its top to the slot's left),
 * or upside down when @upside_down. */
static void place(ucr_device *dev, const ucr_impose_page *p, double x, double y, double w, double h,
                  bool upside_down)
{
    ucr_matrix m = { 1, 0, 0, 1, x, y };
    if (p->width > p->height && w < h)
        m = (ucr_matrix){ 0, -1, 1, 0, x, y + p->width };
    else if (upside_down)
        m = (ucr_matrix){ -1, 0, 0, -1, x + w, y + h };
    ucr_device_push_transform(dev, &m);
    ucr_display_list_replay_with(p->list, dev, NULL, UCR_REPLAY_CONTENT | UCR_REPLAY_NO_NAVIGATION);
    ucr_device_pop_transform(dev);
}

static void line(ucr_device *dev, double x0, double y0, double x1, double y1, double width, bool dashed,
                 double grey)
{
    ucr_path *p = ucr_path_new();
    ucr_path_move_to(p, x0, y0);
    ucr_path_line_to(p, x1, y1);
    ucr_stroke st = { .width = width, .cap = UCR_CAP_BUTT, .join = UCR_JOIN_MITER };
    if (dashed) {
        st.n_dash = 2;
        st.dash[0] = 4;
        st.dash[1] = 3;
    }
    ucr_device_stroke_path(dev, p, &st, (ucr_color){ grey, grey, grey, 1 });
    ucr_path_free(p);
}

/* Crop marks just outside the corners of the trimmed area (x, y, w, h),
 * clear of the bleed. */
static void crop_marks(ucr_device *dev, double x, double y, double w, double h, double bleed)
{
    double gap = bleed + 2, len = 6 * MM;
    double xs[2] = { x, x + w }, ys[2] = { y, y + h };
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double sx = i ? 1 : -1, sy = j ? 1 : -1;
            line(dev, xs[i] + sx * gap, ys[j], xs[i] + sx * (gap + len), ys[j], 0.3, false, 0);
            line(dev, xs[i], ys[j] + sy * gap, xs[i], ys[j] + sy * (gap + len), 0.3, false, 0);
        }
}

/* The printer's sheets a saddle's two pages may go on, landscape, in mm:
 * A4 (two A5 pages) and US Letter (two digest pages). */
static const double SHEETS[][2] = { { 297, 210 }, { 279.4, 215.9 } };

bool ucr_impose_saddle_sheet(const ucr_imposition *im, double pw, double ph, double *sw, double *sh,
                             double *x, double *y)
{
    bool print = im->crop_marks || im->bleed > 0;
    double margin = print ? MARKS_MARGIN + im->bleed : 0;
    *sw = 2 * pw + 2 * margin;
    *sh = ph + 2 * margin;
    /* At home: the smallest standard sheet that holds both pages (a 0.5 mm
     * slack for the sizes' rounding), the pages centred on it. */
    double best = G_MAXDOUBLE;
    for (gsize i = 0; !print && i < G_N_ELEMENTS(SHEETS); i++) {
        double w = SHEETS[i][0] * MM, h = SHEETS[i][1] * MM;
        if (w + 0.5 * MM >= 2 * pw && h + 0.5 * MM >= ph && w * h < best) {
            best = w * h;
            *sw = w;
            *sh = h;
        }
    }
    *x = (*sw - 2 * pw) / 2;
    *y = (*sh - ph) / 2;
    return print;
}

static GPtrArray *saddle(const ucr_imposition *im, const ucr_impose_page *pages, int n, double pw,
                         double ph, double *out_w, double *out_h)
{
    double sw, sh, mx, my;
    ucr_impose_saddle_sheet(im, pw, ph, &sw, &sh, &mx, &my);
    int *slots = g_new(int, (n + 3) / 4 * 4 + 4);
    int padded = ucr_impose_saddle_order(n, slots);
    GPtrArray *sheets = g_ptr_array_new();
    for (int side = 0; side < padded / 2; side++) {
        ucr_display_list *list = ucr_display_list_new();
        ucr_device *dev = ucr_list_device_new(list);
        ucr_device_begin_page(dev, sw, sh);
        /* Creep: a folded stack's inner sheets stick out at the fore-edge,
         * sheet k (from the outside) by k times the paper's allowance; its
         * pages move that much toward the fold. */
        double creep = im->creep * (side / 2);
        for (int half = 0; half < 2; half++) {
            int page = slots[2 * side + half];
            double x = mx + half * pw + (half ? -creep : creep), y = my;
            if (page <= n)
                place(dev, &pages[page - 1], x, y, pw, ph, false);
        }
        if (im->crop_marks) {
            crop_marks(dev, mx, my, 2 * pw, ph, im->bleed);
            /* The fold: a short mark at top and bottom. */
            line(dev, mx + pw, my - im->bleed - 2, mx + pw, my - im->bleed - 2 - 4 * MM, 0.3, true, 0);
            line(dev, mx + pw, my + ph + im->bleed + 2, mx + pw, my + ph + im->bleed + 2 + 4 * MM, 0.3, true, 0);
        }
        ucr_device_end_page(dev);
        ucr_device_close(dev, NULL);
        ucr_device_free(dev);
        g_ptr_array_add(sheets, list);
    }
    g_free(slots);
    *out_w = sw;
    *out_h = sh;
    return sheets;
}

/* Panels, left to right: the top row upside down. */
static const int MINIZINE_TOP[4] = { 5, 4, 3, 2 }, MINIZINE_BOTTOM[4] = { 6, 7, 8, 1 };

static GPtrArray *minizine(const ucr_imposition *im, const ucr_impose_page *pages, int n, double sw,
                           double sh, double *out_w, double *out_h)
{
    double pw = sw / 4, ph = sh / 2;
    ucr_display_list *list = ucr_display_list_new();
    ucr_device *dev = ucr_list_device_new(list);
    ucr_device_begin_page(dev, sw, sh);
    for (int c = 0; c < 4; c++) {
        if (MINIZINE_TOP[c] <= n)
            place(dev, &pages[MINIZINE_TOP[c] - 1], c * pw, 0, pw, ph, true);
        if (MINIZINE_BOTTOM[c] <= n)
            place(dev, &pages[MINIZINE_BOTTOM[c] - 1], c * pw, ph, pw, ph, false);
    }
    if (im->guides) {
        /* Folds dashed and faint; the one cut solid, along the middle of the
         * centre fold. */
        line(dev, 0, ph, pw, ph, 0.4, true, 0.75);
        line(dev, 3 * pw, ph, sw, ph, 0.4, true, 0.75);
        for (int c = 1; c < 4; c++)
            line(dev, c * pw, 0, c * pw, sh, 0.4, true, 0.75);
        line(dev, pw, ph, 3 * pw, ph, 0.6, false, 0.55);
        ucr_text t = { .utf8 = "✂ cut", .family = "DejaVu Sans", .size = 7, .x = pw + 4, .y = ph - 4,
                       .align = 0, .baseline = true };
        ucr_device_show_text(dev, &t, (ucr_color){ 0.55, 0.55, 0.55, 1 });
    }
    ucr_device_end_page(dev);
    ucr_device_close(dev, NULL);
    ucr_device_free(dev);
    GPtrArray *sheets = g_ptr_array_new();
    g_ptr_array_add(sheets, list);
    *out_w = sw;
    *out_h = sh;
    return sheets;
}

GPtrArray *ucr_impose(const ucr_imposition *im, const ucr_impose_page *pages, int n, double page_w,
                      double page_h, double sheet_w, double sheet_h, double *out_w, double *out_h)
{
    if (im->kind == UCR_IMPOSE_MINIZINE)
        return minizine(im, pages, n, sheet_w, sheet_h, out_w, out_h);
    return saddle(im, pages, n, page_w, page_h, out_w, out_h);
}

/* ---- the paper rules ----------------------------------------------------- */

const char *ucr_imposition_paper(const ucr_imposition *im)
{
    /* A saddle booklet is folded: A5 pages on A4 unless told otherwise. */
    return im && im->kind == UCR_IMPOSE_SADDLE ? "a5" : UCR_PAGE_DEFAULT;
}

gboolean ucr_imposition_check(const ucr_imposition *im, const ucr_page_template *paper, gboolean node_given,
                              int nodes, GError **error)
{
    if (!im || im->kind != UCR_IMPOSE_MINIZINE)
        return TRUE;
    if (!node_given && nodes > 1) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "a mini-zine holds one node: give --node ID (A, B, …), or --size 1x1");
        return FALSE;
    }
    if (paper->folded) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "a mini-zine is one --paper a4 or letter sheet, not %s pages", paper->name);
        return FALSE;
    }
    return TRUE;
}

ucr_page_template *ucr_imposition_panel(const ucr_imposition *im, const ucr_page_template *paper,
                                        const char *datadir, GError **error)
{
    ucr_page_template *t = ucr_page_template_load(im->panel, datadir, error);
    if (!t)
        return NULL;
    ucr_imposition_sheet(paper, &t->width, &t->height);
    t->width /= 4;
    t->height /= 2;
    return t;
}

gboolean ucr_imposition_panels_fit(int pages, bool map_in_parts, const char *seed, const char *node_id, int nodes,
                                   GError **error)
{
    if (pages <= UCR_MINIZINE_PANELS && !map_in_parts)
        return TRUE;
    /* What does not fit: the pages, or a map that two facing panels hold
     * only in parts (a mini-zine's map is whole, at 3 mm a square or more). */
    char *what = pages > UCR_MINIZINE_PANELS
                     ? g_strdup_printf("node %s needs %d pages: a mini-zine has %d panels (cover, map and key, back)",
                                       node_id, pages, UCR_MINIZINE_PANELS)
                     : g_strdup_printf("node %s's map does not fit a mini-zine's two facing panels whole", node_id);
    /* Name what works: a node of this dungeon is no choice when it has one. */
    if (nodes == 1)
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "seed %s: %s; fold it as an A5 booklet instead (--paper a5 --impose saddle), or try "
                    "another --seed", seed, what);
    else
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "%s; choose a smaller node with --node ID, or fold a booklet instead (--paper a5 "
                    "--impose saddle)", what);
    g_free(what);
    return FALSE;
}

void ucr_imposition_sheet(const ucr_page_template *paper, double *width, double *height)
{
    *width = MAX(paper->width, paper->height);
    *height = MIN(paper->width, paper->height);
}
