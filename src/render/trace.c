#include "render/trace.h"

#include <math.h>

typedef struct {
    ucr_device super;
    GString *out;
} trace_device;

static GString *out_of(ucr_device *dev)
{
    return ((trace_device *)dev)->out;
}

/* Two decimals, and never "-0.00": the line must not depend on the sign of
 * a rounding error. */
static void num(GString *s, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    double r = round(v * 100) / 100;
    if (r == 0)
        r = 0;
    g_ascii_formatd(buf, sizeof buf, "%.2f", r);
    g_string_append_c(s, ' ');
    g_string_append(s, buf);
}

static void color(GString *s, ucr_color c)
{
    int v[4] = { (int)lround(c.r * 255), (int)lround(c.g * 255), (int)lround(c.b * 255),
                 (int)lround(c.a * 255) };
    g_string_append_printf(s, " #%02x%02x%02x", v[0], v[1], v[2]);
    if (v[3] != 255)
        g_string_append_printf(s, "%02x", v[3]);
}

static void path(GString *s, const ucr_path *p)
{
    const ucr_path_el *el = ucr_path_elements(p);
    for (int i = 0; i < ucr_path_length(p); i++) {
        static const char letter[] = "MLCZ";
        static const int npt[] = { 2, 2, 6, 0 };
        g_string_append_c(s, ' ');
        g_string_append_c(s, letter[el[i].op]);
        for (int k = 0; k < npt[el[i].op]; k++)
            num(s, el[i].pt[k]);
    }
}

static void tr_begin_page(ucr_device *dev, double width, double height)
{
    GString *s = out_of(dev);
    g_string_append(s, "begin_page");
    num(s, width);
    num(s, height);
    g_string_append_c(s, '\n');
}

static void tr_end_page(ucr_device *dev)
{
    g_string_append(out_of(dev), "end_page\n");
}

static void tr_fill(ucr_device *dev, const ucr_path *p, bool even_odd, ucr_color c)
{
    GString *s = out_of(dev);
    g_string_append(s, even_odd ? "fill_path evenodd" : "fill_path nonzero");
    color(s, c);
    path(s, p);
    g_string_append_c(s, '\n');
}

static void stroke_style(GString *s, const ucr_stroke *st, double scale)
{
    static const char *caps[] = { "butt", "round", "square" };
    static const char *joins[] = { "miter", "round", "bevel" };
    g_string_append(s, " width");
    num(s, st->width * scale);
    g_string_append_printf(s, " cap %s join %s", caps[st->cap], joins[st->join]);
    if (st->n_dash) {
        g_string_append(s, " dash");
        for (int i = 0; i < st->n_dash; i++)
            num(s, st->dash[i] * scale);
    }
}

static void tr_stroke(ucr_device *dev, const ucr_path *p, const ucr_stroke *st, ucr_color c)
{
    GString *s = out_of(dev);
    g_string_append(s, "stroke_path");
    stroke_style(s, st, 1);
    color(s, c);
    path(s, p);
    g_string_append_c(s, '\n');
}

/* The shapes as the copies draw them (through the matrix), then every
 * copy: "stamp width … #colour shapes N | M … L … | … at K X Y …". */
static void tr_stamp(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m,
                     const ucr_stamp *at, int n, ucr_color c)
{
    GString *s = out_of(dev);
    g_string_append(s, "stamp");
    stroke_style(s, ucr_stamp_set_stroke(set), ucr_matrix_expansion(m));
    color(s, c);
    g_string_append_printf(s, " shapes %d", ucr_stamp_set_length(set));
    ucr_matrix lin = { m->a, m->b, m->c, m->d, 0, 0 };
    for (int i = 0; i < ucr_stamp_set_length(set); i++) {
        ucr_path *p = ucr_path_transform(ucr_stamp_set_shape(set, i), &lin);
        g_string_append(s, " |");
        path(s, p);
        ucr_path_free(p);
    }
    g_string_append(s, " at");
    for (int i = 0; i < n; i++) {
        g_string_append_printf(s, " %d", at[i].shape);
        num(s, at[i].x);
        num(s, at[i].y);
    }
    g_string_append_c(s, '\n');
}

static void tr_clip(ucr_device *dev, const ucr_path *p, bool even_odd)
{
    GString *s = out_of(dev);
    g_string_append(s, even_odd ? "clip_path evenodd" : "clip_path nonzero");
    path(s, p);
    g_string_append_c(s, '\n');
}

static void tr_pop_clip(ucr_device *dev)
{
    g_string_append(out_of(dev), "pop_clip\n");
}

static void tr_text(ucr_device *dev, const ucr_text *t, ucr_color c)
{
    GString *s = out_of(dev);
    char *q = g_strescape(t->utf8, "\xc2\xb0");   /* keep ° and other UTF-8 readable */
    g_string_append_printf(s, "show_text \"%s\" font \"%s\"%s%s size", q, t->family,
                           t->bold ? " bold" : "", t->italic ? " italic" : "");
    g_free(q);
    num(s, t->size);
    g_string_append(s, " at");
    num(s, t->x);
    num(s, t->y);
    g_string_append(s, " align");
    num(s, t->align);
    if (t->baseline)
        g_string_append(s, " baseline");
    color(s, c);
    g_string_append_c(s, '\n');
}

static void tr_link(ucr_device *dev, double x, double y, double w, double h, const char *dest)
{
    GString *s = out_of(dev);
    g_string_append(s, "link");
    num(s, x);
    num(s, y);
    num(s, w);
    num(s, h);
    g_string_append_printf(s, " to \"%s\"\n", dest);
}

static void tr_dest(ucr_device *dev, const char *name, double x, double y)
{
    GString *s = out_of(dev);
    g_string_append_printf(s, "dest \"%s\"", name);
    num(s, x);
    num(s, y);
    g_string_append_c(s, '\n');
}

static void tr_begin_group(ucr_device *dev, const char *name)
{
    g_string_append_printf(out_of(dev), "begin_group %s\n", name);
}

static void tr_end_group(ucr_device *dev)
{
    g_string_append(out_of(dev), "end_group\n");
}

static void tr_set_info(ucr_device *dev, const char *key, const char *value)
{
    char *q = g_strescape(value, "\xc2\xb0");
    g_string_append_printf(out_of(dev), "set_info %s \"%s\"\n", key, q);
    g_free(q);
}

static void tr_outline(ucr_device *dev, int level, const char *title, const char *dest)
{
    char *q = g_strescape(title, "\xc2\xb0");
    g_string_append_printf(out_of(dev), "outline %d \"%s\" to \"%s\"\n", level, q, dest);
    g_free(q);
}

static void tr_push_transform(ucr_device *dev, const ucr_matrix *m)
{
    GString *s = out_of(dev);
    g_string_append(s, "push_transform");
    num(s, m->a);
    num(s, m->b);
    num(s, m->c);
    num(s, m->d);
    num(s, m->e);
    num(s, m->f);
    g_string_append_c(s, '\n');
}

static void tr_pop_transform(ucr_device *dev)
{
    g_string_append(out_of(dev), "pop_transform\n");
}

ucr_device *ucr_trace_device_new(GString *out)
{
    trace_device *d = (trace_device *)ucr_device_new_of_size(sizeof(trace_device));
    d->out = out;
    d->super.begin_page = tr_begin_page;
    d->super.end_page = tr_end_page;
    d->super.fill_path = tr_fill;
    d->super.stroke_path = tr_stroke;
    d->super.clip_path = tr_clip;
    d->super.pop_clip = tr_pop_clip;
    d->super.show_text = tr_text;
    d->super.stamp = tr_stamp;
    d->super.link = tr_link;
    d->super.dest = tr_dest;
    d->super.begin_group = tr_begin_group;
    d->super.end_group = tr_end_group;
    d->super.set_info = tr_set_info;
    d->super.outline = tr_outline;
    d->super.push_transform = tr_push_transform;
    d->super.pop_transform = tr_pop_transform;
    return &d->super;
}
