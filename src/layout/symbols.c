#include "layout/symbols.h"

#include <math.h>

#include "render/text.h"

static ucr_stroke stroke_of(double width)
{
    ucr_stroke s = { 0 };
    s.width = width;
    s.cap = UCR_CAP_ROUND;
    s.join = UCR_JOIN_ROUND;
    return s;
}

static void stroke(ucr_pen *pen, const ucr_path *path, double width)
{
    ucr_stroke s = stroke_of(width);
    ucr_device_stroke_path(pen->dev, path, &s, pen->style->ink);
}

double ucr_pen_uniform(ucr_pen *pen, double lo, double hi)
{
    return lo + (hi - lo) * (ucr_prng_next(&pen->rng) / 4294967296.0);
}

void ucr_pen_rough_line(ucr_pen *pen, ucr_path *path, double x0, double y0, double x1, double y1,
                        int passes, double wobble, double overshoot)
{
    const ucr_style *st = pen->style;
    double len = hypot(x1 - x0, y1 - y0);
    if (len < 1e-9)
        return;
    double ux = (x1 - x0) / len, uy = (y1 - y0) / len, nx = -uy, ny = ux;
    /* rough.js: a short line cannot stray as far as a long one without
     * looking drunk, so the jitter shrinks with the length. */
    double w = st->wobble * wobble * CLAMP(len / 2.0, 0.35, 1.0);
    double bow = st->bowing * w * CLAMP(len / 3.0, 0.3, 1.5) * ucr_pen_uniform(pen, -1, 1);
    for (int pass = 0; pass < passes; pass++) {
        double j = pass == 0 ? w : w * 0.6;
        double e0 = st->overshoot * overshoot * ucr_pen_uniform(pen, 0.2, 1.0);
        double e1 = st->overshoot * overshoot * ucr_pen_uniform(pen, 0.2, 1.0);
        double o0 = ucr_pen_uniform(pen, -j, j), o1 = ucr_pen_uniform(pen, -j, j);
        double o2 = ucr_pen_uniform(pen, -j, j), o3 = ucr_pen_uniform(pen, -j, j);
        double d1 = ucr_pen_uniform(pen, 0.2, 0.4), d2 = ucr_pen_uniform(pen, 0.6, 0.8);
        ucr_path_move_to(path, x0 - ux * e0 + nx * o0, y0 - uy * e0 + ny * o0);
        ucr_path_curve_to(path, x0 + (x1 - x0) * d1 + nx * (bow + o1), y0 + (y1 - y0) * d1 + ny * (bow + o1),
                          x0 + (x1 - x0) * d2 + nx * (bow + o2), y0 + (y1 - y0) * d2 + ny * (bow + o2),
                          x1 + ux * e1 + nx * o3, y1 + uy * e1 + ny * o3);
    }
}

void ucr_pen_hatch_cluster(ucr_pen *pen, ucr_path *path, double cx, double cy)
{
    const ucr_style *st = pen->style;
    double a = ucr_pen_uniform(pen, 0, G_PI);
    double ux = cos(a), uy = sin(a), nx = -uy, ny = ux;
    double gap = st->hatch_length * 0.32;
    for (int k = -1; k <= 1; k++) {
        double l = st->hatch_length * ucr_pen_uniform(pen, 0.75, 1.15) / 2;
        double shift = ucr_pen_uniform(pen, -0.12, 0.12) * st->hatch_length;
        double mx = cx + nx * gap * k + ux * shift, my = cy + ny * gap * k + uy * shift;
        ucr_path_move_to(path, mx - ux * l, my - uy * l);
        ucr_path_line_to(path, mx + ux * l, my + uy * l);
    }
}

double ucr_pen_text_size(const ucr_pen *pen, double size)
{
    return MAX(size, pen->min_text);
}

ucr_rect ucr_pen_text_rect(ucr_pen *pen, const char *utf8, const char *family, double size, bool bold,
                           double cx, double cy)
{
    size = ucr_pen_text_size(pen, size);
    ucr_text t = { utf8, family, size, bold, cx, cy, 0.5, false, false, NULL };
    double w, h;
    ucr_text_measure(pen->fonts, &t, &w, &h);
    /* The ink of letters and digits, not the line's leading. */
    double ih = size * 0.72;
    return (ucr_rect){ cx - w / 2, cy - ih / 2, cx + w / 2, cy + ih / 2 };
}

ucr_rect ucr_pen_text(ucr_pen *pen, const char *utf8, const char *family, double size, bool bold,
                      double cx, double cy, bool halo)
{
    size = ucr_pen_text_size(pen, size);
    ucr_rect r = ucr_pen_text_rect(pen, utf8, family, size, bold, cx, cy);
    if (halo) {
        ucr_path *p = ucr_path_new();
        double pad = size * UCR_PEN_HALO;
        ucr_path_rect(p, r.x0 - pad, r.y0 - pad, r.x1 - r.x0 + 2 * pad, r.y1 - r.y0 + 2 * pad);
        ucr_device_fill_path(pen->dev, p, false, pen->style->paper);
        ucr_path_free(p);
    }
    ucr_text t = { utf8, family, size, bold, cx, cy, 0.5, false, false, NULL };
    ucr_device_show_text(pen->dev, &t, pen->style->text);
    return r;
}

/* ---- wall symbols --------------------------------------------------------- */

const char *ucr_wall_symbol_name(ucr_wall_symbol sym)
{
    switch (sym) {
    case UCR_SYMBOL_DOOR: return "door:plain";
    case UCR_SYMBOL_DOUBLE_DOOR: return "door:double";
    case UCR_SYMBOL_SECRET_DOOR: return "door:secret";
    case UCR_SYMBOL_LOCKED_DOOR: return "door:locked";
    case UCR_SYMBOL_TRAPPED_DOOR: return "door:trapped";
    case UCR_SYMBOL_PORTCULLIS: return "door:portcullis";
    case UCR_SYMBOL_ARCHWAY: return "door:archway";
    }
    return "door";
}

/* A point @a along the wall and @b across it from the wall point. */
#define AT(a, b) (vertical ? x + (b) : x + (a)), (vertical ? y + (a) : y + (b))

/* The door leaf: a paper-filled box across the wall, outlined by hand. */
static void door_box(ucr_pen *pen, double x, double y, bool vertical, double along, double across)
{
    ucr_path *fill = ucr_path_new();
    double w = vertical ? across : along, h = vertical ? along : across;
    ucr_path_rect(fill, x - w / 2, y - h / 2, w, h);
    ucr_device_fill_path(pen->dev, fill, false, pen->style->floor);
    ucr_path_free(fill);
    ucr_path *p = ucr_path_new();
    double a = along / 2, b = across / 2;
    double cx[4] = { -a, a, a, -a }, cy[4] = { -b, -b, b, b };
    for (int i = 0; i < 4; i++) {
        int k = (i + 1) % 4;
        ucr_pen_rough_line(pen, p, AT(cx[i], cy[i]), AT(cx[k], cy[k]), 1, 0.3, 0.15);
    }
    stroke(pen, p, pen->style->symbol_width);
    ucr_path_free(p);
}

ucr_rect ucr_symbol_wall(ucr_pen *pen, ucr_wall_symbol sym, double x, double y, bool vertical)
{
    const ucr_style *st = pen->style;
    double along = 0.52, across = 0.26;
    ucr_rect extra = { 0, 0, 0, 0 };
    bool has_extra = false;
    ucr_device_begin_group(pen->dev, ucr_wall_symbol_name(sym));
    ucr_path *p = ucr_path_new();
    switch (sym) {
    case UCR_SYMBOL_DOOR:
        door_box(pen, x, y, vertical, along, across);
        break;
    case UCR_SYMBOL_DOUBLE_DOOR:
        along = 0.72;
        door_box(pen, x, y, vertical, along, across);
        ucr_pen_rough_line(pen, p, AT(0, -across / 2), AT(0, across / 2), 1, 0.2, 0);
        stroke(pen, p, st->symbol_width);
        break;
    case UCR_SYMBOL_LOCKED_DOOR:
        door_box(pen, x, y, vertical, along, across);
        /* The bolt: a bar across the leaf and out into both rooms. */
        ucr_pen_rough_line(pen, p, AT(0, -across * 0.95), AT(0, across * 0.95), 1, 0.2, 0);
        stroke(pen, p, st->symbol_width * 1.6);
        across *= 1.9;
        break;
    case UCR_SYMBOL_TRAPPED_DOOR: {
        door_box(pen, x, y, vertical, along, across);
        ucr_path_circle(p, x, y, across * 0.22);
        ucr_device_fill_path(pen->dev, p, false, st->ink);
        ucr_path_free(p);
        p = ucr_path_new();
        /* and a T beside it on the wall */
        double ts = ucr_pen_text_size(pen, 0.42), off = 0.1 + ts * 0.5;
        double tx = vertical ? x + off : x + along / 2 + off - 0.1, ty = vertical ? y + along / 2 + off - 0.1 : y - off;
        extra = ucr_pen_text(pen, "T", st->hand_font, 0.42, true, tx, ty, true);
        has_extra = true;
        along += 2 * off;
        across = MAX(across, 2 * (off + ts * 0.4));
        break;
    }
    case UCR_SYMBOL_SECRET_DOOR:
        /* The classic S across the wall line, which stays: the door is
         * only a door to those who find it. */
        ucr_pen_text(pen, "S", st->hand_font, 0.72, true, x, y, false);
        along = 0.5;
        across = 0.6;
        break;
    case UCR_SYMBOL_PORTCULLIS:
        ucr_pen_rough_line(pen, p, AT(-0.45, 0), AT(0.45, 0), 1, 0.2, 0);
        stroke(pen, p, st->symbol_width * 0.7);
        ucr_path_free(p);
        p = ucr_path_new();
        for (int i = 0; i < 4; i++)
            ucr_path_circle(p, AT(-0.33 + i * 0.22, 0), 0.055);
        ucr_device_fill_path(pen->dev, p, false, st->ink);
        along = 0.9;
        across = 0.2;
        break;
    case UCR_SYMBOL_ARCHWAY: {
        /* The wall stops: paper over it, and square jambs at both sides. */
        ucr_path *gap = ucr_path_new();
        double w = vertical ? 0.2 : 0.7, h = vertical ? 0.7 : 0.2;
        ucr_path_rect(gap, x - w / 2, y - h / 2, w, h);
        ucr_device_fill_path(pen->dev, gap, false, st->floor);
        ucr_path_free(gap);
        for (int s = -1; s <= 1; s += 2)
            ucr_pen_rough_line(pen, p, AT(s * 0.38, -0.16), AT(s * 0.38, 0.16), 1, 0.2, 0);
        stroke(pen, p, st->wall_width);
        along = 0.9;
        across = 0.36;
        break;
    }
    }
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
    double w = vertical ? across : along, h = vertical ? along : across;
    ucr_rect r = { x - w / 2, y - h / 2, x + w / 2, y + h / 2 };
    if (has_extra) {
        /* The trapped door's T sits off the door's centre: what it covers
         * is the box and the T's own ink together. */
        r.x0 = MIN(r.x0, extra.x0);
        r.y0 = MIN(r.y0, extra.y0);
        r.x1 = MAX(r.x1, extra.x1);
        r.y1 = MAX(r.y1, extra.y1);
    }
    return r;
}

#undef AT

/* ---- floor symbols ------------------------------------------------------- */

void ucr_symbol_stairs(ucr_pen *pen, ucr_rect box, int dx, int dy, bool down)
{
    ucr_device_begin_group(pen->dev, down ? "stairs:down" : "stairs:up");
    double len = dx ? box.x1 - box.x0 : box.y1 - box.y0;
    double wid = dx ? box.y1 - box.y0 : box.x1 - box.x0;
    double cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2;
    int n = MAX(3, (int)lround(len / 0.2));
    ucr_path *p = ucr_path_new();
    for (int i = 0; i < n; i++) {
        /* From the top of the flight (t = 0) down: treads narrow towards
         * the bottom, the usual way of showing which way is down; the last
         * a third of the first, so that it reads at print size (from 0.82
         * to 0.46 of the width it was a guess at A5). */
        double t = (i + 0.5) / n;
        double half = wid * (0.46 - 0.32 * t);
        double along = -len / 2 + t * len;
        double ax = cx + dx * along, ay = cy + dy * along;
        double px = dy ? 1 : 0, py = dx ? 1 : 0;
        ucr_pen_rough_line(pen, p, ax - px * half, ay - py * half, ax + px * half, ay + py * half, 1, 0.2, 0);
    }
    stroke(pen, p, pen->style->symbol_width);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_slope(ucr_pen *pen, ucr_rect box, int dx, int dy, bool down)
{
    ucr_device_begin_group(pen->dev, down ? "slope:down" : "slope:up");
    double len = (dx ? box.x1 - box.x0 : box.y1 - box.y0) * 0.9;
    double wid = dx ? box.y1 - box.y0 : box.x1 - box.x0;
    double cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2;
    double px = dy ? 1 : 0, py = dx ? 1 : 0;
    double top = wid * 0.42, bottom = wid * 0.16;
    ucr_path *p = ucr_path_new();
    /* The ramp's two edges, wide at the top, narrow at the foot: the same
     * "narrow end down" as the stairs, without the treads. */
    for (int s = -1; s <= 1; s += 2)
        ucr_pen_rough_line(pen, p, cx - dx * len / 2 + px * top * s, cy - dy * len / 2 + py * top * s,
                           cx + dx * len / 2 + px * bottom * s, cy + dy * len / 2 + py * bottom * s, 1, 0.2, 0);
    /* An arrow down the middle, pointing downhill. */
    double ax = cx + dx * len * 0.3, ay = cy + dy * len * 0.3, head = wid * 0.14;
    ucr_pen_rough_line(pen, p, cx - dx * len * 0.3, cy - dy * len * 0.3, ax, ay, 1, 0.1, 0);
    for (int s = -1; s <= 1; s += 2) {
        ucr_path_move_to(p, ax, ay);
        ucr_path_line_to(p, ax - dx * head + px * head * s, ay - dy * head + py * head * s);
    }
    stroke(pen, p, pen->style->symbol_width);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_ladder(ucr_pen *pen, ucr_rect box, int dx, int dy, bool down)
{
    ucr_device_begin_group(pen->dev, down ? "ladder:down" : "ladder:up");
    double len = (dx ? box.x1 - box.x0 : box.y1 - box.y0) * 0.8;
    double cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2;
    double px = dy ? 1 : 0, py = dx ? 1 : 0, r = 0.17;
    ucr_path *p = ucr_path_new();
    for (int s = -1; s <= 1; s += 2)
        ucr_pen_rough_line(pen, p, cx + px * r * s - dx * len / 2, cy + py * r * s - dy * len / 2,
                           cx + px * r * s + dx * len / 2, cy + py * r * s + dy * len / 2, 1, 0.2, 0);
    int rungs = MAX(2, (int)lround(len / 0.18));
    for (int i = 0; i <= rungs; i++) {
        double t = -len / 2 + i * len / rungs;
        ucr_path_move_to(p, cx + dx * t - px * r, cy + dy * t - py * r);
        ucr_path_line_to(p, cx + dx * t + px * r, cy + dy * t + py * r);
    }
    stroke(pen, p, pen->style->symbol_width);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

static void rough_square(ucr_pen *pen, ucr_path *p, double cx, double cy, double s)
{
    double h = s / 2;
    ucr_pen_rough_line(pen, p, cx - h, cy - h, cx + h, cy - h, 1, 0.3, 0.3);
    ucr_pen_rough_line(pen, p, cx + h, cy - h, cx + h, cy + h, 1, 0.3, 0.3);
    ucr_pen_rough_line(pen, p, cx + h, cy + h, cx - h, cy + h, 1, 0.3, 0.3);
    ucr_pen_rough_line(pen, p, cx - h, cy + h, cx - h, cy - h, 1, 0.3, 0.3);
}

void ucr_symbol_trapdoor(ucr_pen *pen, double cx, double cy, double size)
{
    ucr_device_begin_group(pen->dev, "trapdoor");
    ucr_path *p = ucr_path_new();
    rough_square(pen, p, cx, cy, size);
    stroke(pen, p, pen->style->symbol_width);
    ucr_path_free(p);
    /* The hinge side, heavy, and the ring to lift it by. */
    p = ucr_path_new();
    ucr_pen_rough_line(pen, p, cx - size / 2, cy - size / 2, cx - size / 2, cy + size / 2, 1, 0.2, 0);
    stroke(pen, p, pen->style->symbol_width * 2.5);
    ucr_path_free(p);
    p = ucr_path_new();
    ucr_path_circle(p, cx + size * 0.25, cy, size * 0.1);
    stroke(pen, p, pen->style->symbol_width * 0.8);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_pit(ucr_pen *pen, double cx, double cy, double size)
{
    ucr_device_begin_group(pen->dev, "pit");
    ucr_path *p = ucr_path_new();
    double h = size / 2;
    rough_square(pen, p, cx, cy, size);
    ucr_pen_rough_line(pen, p, cx - h, cy - h, cx + h, cy + h, 1, 0.3, 0);
    ucr_pen_rough_line(pen, p, cx + h, cy - h, cx - h, cy + h, 1, 0.3, 0);
    stroke(pen, p, pen->style->symbol_width);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_trap_sprung(ucr_pen *pen, double cx, double cy, double size)
{
    ucr_device_begin_group(pen->dev, "trap:sprung");
    ucr_path *p = ucr_path_new();
    double h = size / 2;
    rough_square(pen, p, cx, cy, size);
    ucr_pen_rough_line(pen, p, cx - h, cy - h, cx + h, cy + h, 1, 0.3, 0);
    ucr_pen_rough_line(pen, p, cx + h, cy - h, cx - h, cy + h, 1, 0.3, 0);
    ucr_stroke s = stroke_of(pen->style->symbol_width * 0.8);
    s.n_dash = 2;
    s.dash[0] = size * 0.14;
    s.dash[1] = size * 0.1;
    ucr_device_stroke_path(pen->dev, p, &s, pen->style->ink);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

/* An irregular stone of about @r around (@cx, @cy). */
static void stone(ucr_pen *pen, ucr_path *p, double cx, double cy, double r)
{
    int n = 5 + (int)ucr_prng_below(&pen->rng, 3);
    double a0 = ucr_pen_uniform(pen, 0, 2 * G_PI);
    for (int i = 0; i < n; i++) {
        double a = a0 + 2 * G_PI * i / n, rr = r * ucr_pen_uniform(pen, 0.6, 1.15);
        if (i == 0)
            ucr_path_move_to(p, cx + cos(a) * rr, cy + sin(a) * rr);
        else
            ucr_path_line_to(p, cx + cos(a) * rr, cy + sin(a) * rr);
    }
    ucr_path_close(p);
}

void ucr_symbol_rubble(ucr_pen *pen, ucr_rect box)
{
    ucr_device_begin_group(pen->dev, "rubble");
    double w = box.x1 - box.x0, h = box.y1 - box.y0, m = MIN(w, h);
    /* Broken stones packed across the whole square, a few of them inked
     * solid: a collapse must read as blocked, not as litter. */
    static const double AT[][2] = { { 0.22, 0.22 }, { 0.55, 0.18 }, { 0.82, 0.3 }, { 0.3, 0.55 },
                                    { 0.68, 0.58 }, { 0.2, 0.84 }, { 0.52, 0.84 }, { 0.84, 0.8 } };
    ucr_path *outline = ucr_path_new(), *solid = ucr_path_new();
    for (unsigned i = 0; i < G_N_ELEMENTS(AT); i++) {
        double cx = box.x0 + w * (AT[i][0] + ucr_pen_uniform(pen, -0.05, 0.05));
        double cy = box.y0 + h * (AT[i][1] + ucr_pen_uniform(pen, -0.05, 0.05));
        stone(pen, i % 3 == 1 ? solid : outline, cx, cy, m * ucr_pen_uniform(pen, 0.13, 0.18));
    }
    ucr_device_fill_path(pen->dev, outline, false, pen->style->floor);
    stroke(pen, outline, pen->style->symbol_width * 0.9);
    ucr_device_fill_path(pen->dev, solid, false, pen->style->ink);
    ucr_path_free(outline);
    ucr_path_free(solid);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_debris(ucr_pen *pen, ucr_rect box)
{
    ucr_device_begin_group(pen->dev, "obstacle:debris");
    double w = box.x1 - box.x0, h = box.y1 - box.y0;
    ucr_path *p = ucr_path_new();
    for (int k = 0; k < 5; k++)
        stone(pen, p, box.x0 + w * ucr_pen_uniform(pen, 0.2, 0.8), box.y0 + h * ucr_pen_uniform(pen, 0.2, 0.8),
              MIN(w, h) * 0.13);
    stroke(pen, p, pen->style->symbol_width * 0.8);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_pool(ucr_pen *pen, double cx, double cy, double r)
{
    ucr_device_begin_group(pen->dev, "obstacle:pool");
    ucr_path *p = ucr_path_new();
    enum { N = 10 };
    double rr[N];
    for (int i = 0; i < N; i++)
        rr[i] = r * ucr_pen_uniform(pen, 0.85, 1.1);
    for (int i = 0; i <= N; i++) {
        double a = 2 * G_PI * i / N;
        double x = cx + cos(a) * rr[i % N], y = cy + sin(a) * rr[i % N] * 0.8;
        if (i == 0)
            ucr_path_move_to(p, x, y);
        else
            ucr_path_line_to(p, x, y);
    }
    ucr_path_close(p);
    stroke(pen, p, pen->style->symbol_width);
    ucr_path_free(p);
    p = ucr_path_new();
    for (int k = -1; k <= 1; k += 2) {
        double y = cy + k * r * 0.25;
        ucr_path_move_to(p, cx - r * 0.45, y);
        ucr_path_curve_to(p, cx - r * 0.2, y - r * 0.15, cx + r * 0.05, y + r * 0.15, cx + r * 0.35, y);
    }
    stroke(pen, p, pen->style->symbol_width * 0.7);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_passage_under(ucr_pen *pen, const double *pts, int n, double width)
{
    ucr_device_begin_group(pen->dev, "passage:under");
    ucr_path *p = ucr_path_new();
    for (int i = 0; i + 1 < n; i++) {
        double x0 = pts[2 * i], y0 = pts[2 * i + 1], x1 = pts[2 * i + 2], y1 = pts[2 * i + 3];
        double len = hypot(x1 - x0, y1 - y0);
        if (len < 1e-9)
            continue;
        double nx = -(y1 - y0) / len * width / 2, ny = (x1 - x0) / len * width / 2;
        for (int s = -1; s <= 1; s += 2) {
            ucr_path_move_to(p, x0 + s * nx, y0 + s * ny);
            ucr_path_line_to(p, x1 + s * nx, y1 + s * ny);
        }
    }
    ucr_stroke s = stroke_of(pen->style->symbol_width * 1.2);
    s.cap = UCR_CAP_BUTT;
    s.n_dash = 2;
    s.dash[0] = 0.25;
    s.dash[1] = 0.15;
    ucr_device_stroke_path(pen->dev, p, &s, pen->style->wall);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_diagonal_corridor(ucr_pen *pen, double x0, double y0, double x1, double y1,
                                  double width)
{
    ucr_device_begin_group(pen->dev, "passage:diagonal");
    double len = hypot(x1 - x0, y1 - y0);
    double nx = -(y1 - y0) / len * width / 2, ny = (x1 - x0) / len * width / 2;
    ucr_path *f = ucr_path_new();
    ucr_path_move_to(f, x0 + nx, y0 + ny);
    ucr_path_line_to(f, x1 + nx, y1 + ny);
    ucr_path_line_to(f, x1 - nx, y1 - ny);
    ucr_path_line_to(f, x0 - nx, y0 - ny);
    ucr_path_close(f);
    ucr_device_fill_path(pen->dev, f, false, pen->style->floor);
    ucr_path_free(f);
    ucr_path *p = ucr_path_new();
    for (int s = -1; s <= 1; s += 2)
        ucr_pen_rough_line(pen, p, x0 + s * nx, y0 + s * ny, x1 + s * nx, y1 + s * ny,
                           pen->style->wall_strokes, 1, 1);
    ucr_stroke st = stroke_of(pen->style->wall_width);
    ucr_device_stroke_path(pen->dev, p, &st, pen->style->wall);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_diamond_room(ucr_pen *pen, double cx, double cy, double r)
{
    ucr_device_begin_group(pen->dev, "room:diamond");
    double px[4] = { cx, cx + r, cx, cx - r }, py[4] = { cy - r, cy, cy + r, cy };
    ucr_path *f = ucr_path_new();
    for (int i = 0; i < 4; i++)
        (i ? ucr_path_line_to : ucr_path_move_to)(f, px[i], py[i]);
    ucr_path_close(f);
    ucr_device_fill_path(pen->dev, f, false, pen->style->floor);
    ucr_path_free(f);
    ucr_path *p = ucr_path_new();
    for (int i = 0; i < 4; i++)
        ucr_pen_rough_line(pen, p, px[i], py[i], px[(i + 1) % 4], py[(i + 1) % 4], pen->style->wall_strokes, 1, 1);
    ucr_stroke st = stroke_of(pen->style->wall_width);
    ucr_device_stroke_path(pen->dev, p, &st, pen->style->wall);
    ucr_path_free(p);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_compass(ucr_pen *pen, double cx, double cy, double r)
{
    const ucr_style *st = pen->style;
    ucr_device_begin_group(pen->dev, "compass");
    ucr_path *p = ucr_path_new();
    ucr_path_circle(p, cx, cy, r * 0.55);
    for (int k = 0; k < 4; k++) {
        double a = k * G_PI / 2;
        ucr_path_move_to(p, cx + cos(a) * r * 0.35, cy + sin(a) * r * 0.35);
        ucr_path_line_to(p, cx + cos(a) * r * 0.85, cy + sin(a) * r * 0.85);
    }
    stroke(pen, p, st->symbol_width * 0.7);
    ucr_path_free(p);
    /* The north needle: half filled, half open, the engraver's way. */
    double w = r * 0.22;
    ucr_path *left = ucr_path_new(), *right = ucr_path_new();
    ucr_path_move_to(left, cx, cy - r);
    ucr_path_line_to(left, cx - w, cy);
    ucr_path_line_to(left, cx, cy);
    ucr_path_close(left);
    ucr_path_move_to(right, cx, cy - r);
    ucr_path_line_to(right, cx + w, cy);
    ucr_path_line_to(right, cx, cy);
    ucr_path_close(right);
    ucr_device_fill_path(pen->dev, left, false, st->ink);
    ucr_device_fill_path(pen->dev, right, false, st->paper);
    stroke(pen, right, st->symbol_width * 0.7);
    ucr_path_free(left);
    ucr_path_free(right);
    double ns = ucr_pen_text_size(pen, r * 0.55);
    ucr_pen_text(pen, "N", st->hand_font, ns, true, cx, cy - r - ns * 0.64, false);
    ucr_device_end_group(pen->dev);
}

void ucr_symbol_scale_bar(ucr_pen *pen, double x, double y, int squares)
{
    const ucr_style *st = pen->style;
    ucr_device_begin_group(pen->dev, "scale-bar");
    double h = 0.28;
    ucr_path *fill = ucr_path_new(), *outline = ucr_path_new();
    for (int i = 0; i < squares; i++) {
        if (i % 2 == 0)
            ucr_path_rect(fill, x + i, y, 1, h);
        ucr_path_rect(outline, x + i, y, 1, h);
    }
    ucr_device_fill_path(pen->dev, fill, false, st->ink);
    ucr_stroke s = stroke_of(st->symbol_width * 0.6);
    s.join = UCR_JOIN_MITER;
    ucr_device_stroke_path(pen->dev, outline, &s, st->ink);
    ucr_path_free(fill);
    ucr_path_free(outline);
    char label[32];
    g_snprintf(label, sizeof label, "%d ft", squares * 10);
    double ts = ucr_pen_text_size(pen, 0.45), ly = y + h + ts;
    ucr_pen_text(pen, "0", st->text_font, ts, false, x, ly, false);
    ucr_pen_text(pen, label, st->text_font, ts, false, x + squares, ly, false);
    ucr_pen_text(pen, "1 square = 10 ft", st->text_font, ts, false, x + squares / 2.0, y - ts * 0.9, false);
    ucr_device_end_group(pen->dev);
}
