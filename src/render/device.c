#include "render/device.h"

#include <math.h>
#include <string.h>

struct ucr_path {
    GArray *els;   /* ucr_path_el */
};

ucr_device *ucr_device_new_of_size(size_t size)
{
    g_assert(size >= sizeof(ucr_device));
    return g_malloc0(size);
}

/* The wrappers: skip empty slots, and everything after close. */
#define CALL(dev, slot, ...)                             \
    do {                                                 \
        if ((dev) && !(dev)->closed && (dev)->slot)      \
            (dev)->slot((dev), __VA_ARGS__);             \
    } while (0)
#define CALL0(dev, slot)                                 \
    do {                                                 \
        if ((dev) && !(dev)->closed && (dev)->slot)      \
            (dev)->slot((dev));                          \
    } while (0)

void ucr_device_begin_page(ucr_device *dev, double width, double height)
{
    CALL(dev, begin_page, width, height);
}

void ucr_device_end_page(ucr_device *dev)
{
    CALL0(dev, end_page);
}

void ucr_device_fill_path(ucr_device *dev, const ucr_path *path, bool even_odd, ucr_color color)
{
    CALL(dev, fill_path, path, even_odd, color);
}

void ucr_device_stroke_path(ucr_device *dev, const ucr_path *path, const ucr_stroke *stroke,
                            ucr_color color)
{
    CALL(dev, stroke_path, path, stroke, color);
}

void ucr_device_clip_path(ucr_device *dev, const ucr_path *path, bool even_odd)
{
    CALL(dev, clip_path, path, even_odd);
}

void ucr_device_pop_clip(ucr_device *dev)
{
    CALL0(dev, pop_clip);
}

void ucr_device_show_text(ucr_device *dev, const ucr_text *text, ucr_color color)
{
    CALL(dev, show_text, text, color);
}

void ucr_device_stamp(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m,
                      const ucr_stamp *at, int n, ucr_color color)
{
    if (!dev || dev->closed || n <= 0)
        return;
    if (dev->stamp) {
        dev->stamp(dev, set, m, at, n, color);
        return;
    }
    if (!dev->stroke_path)
        return;
    ucr_path *p = ucr_stamp_set_path(set, m, at, n);
    ucr_stroke st = *ucr_stamp_set_stroke(set);
    double s = ucr_matrix_expansion(m);
    st.width *= s;
    for (int k = 0; k < st.n_dash; k++)
        st.dash[k] *= s;
    dev->stroke_path(dev, p, &st, color);
    ucr_path_free(p);
}

void ucr_device_link(ucr_device *dev, double x, double y, double w, double h, const char *dest)
{
    CALL(dev, link, x, y, w, h, dest);
}

void ucr_device_dest(ucr_device *dev, const char *name, double x, double y)
{
    CALL(dev, dest, name, x, y);
}

void ucr_device_begin_group(ucr_device *dev, const char *name)
{
    CALL(dev, begin_group, name);
}

void ucr_device_end_group(ucr_device *dev)
{
    CALL0(dev, end_group);
}

void ucr_device_set_info(ucr_device *dev, const char *key, const char *value)
{
    CALL(dev, set_info, key, value);
}

void ucr_device_outline(ucr_device *dev, int level, const char *title, const char *dest)
{
    CALL(dev, outline, level, title, dest);
}

void ucr_device_push_transform(ucr_device *dev, const ucr_matrix *m)
{
    CALL(dev, push_transform, m);
}

void ucr_device_pop_transform(ucr_device *dev)
{
    CALL0(dev, pop_transform);
}

gboolean ucr_device_close(ucr_device *dev, GError **error)
{
    if (!dev || dev->closed)
        return TRUE;
    dev->closed = true;
    return dev->close ? dev->close(dev, error) : TRUE;
}

void ucr_device_free(ucr_device *dev)
{
    if (!dev)
        return;
    if (dev->drop)
        dev->drop(dev);
    g_free(dev);
}

/* ---- paths ---------------------------------------------------------- */

ucr_path *ucr_path_new(void)
{
    ucr_path *p = g_new(ucr_path, 1);
    p->els = g_array_new(FALSE, TRUE, sizeof(ucr_path_el));
    return p;
}

void ucr_path_free(ucr_path *path)
{
    if (!path)
        return;
    g_array_free(path->els, TRUE);
    g_free(path);
}

static void path_add(ucr_path *path, ucr_path_op op, int n, const double *pt)
{
    ucr_path_el el = { op, { 0 } };
    if (n > 0)   /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(el.pt, pt, sizeof(double) * (size_t)n);
    g_array_append_val(path->els, el);
}

void ucr_path_move_to(ucr_path *path, double x, double y)
{
    path_add(path, UCR_PATH_MOVE, 2, (double[]){ x, y });
}

void ucr_path_line_to(ucr_path *path, double x, double y)
{
    path_add(path, UCR_PATH_LINE, 2, (double[]){ x, y });
}

void ucr_path_curve_to(ucr_path *path, double x1, double y1, double x2, double y2, double x3,
                       double y3)
{
    path_add(path, UCR_PATH_CURVE, 6, (double[]){ x1, y1, x2, y2, x3, y3 });
}

void ucr_path_close(ucr_path *path)
{
    path_add(path, UCR_PATH_CLOSE, 0, NULL);
}

void ucr_path_rect(ucr_path *path, double x, double y, double w, double h)
{
    ucr_path_move_to(path, x, y);
    ucr_path_line_to(path, x + w, y);
    ucr_path_line_to(path, x + w, y + h);
    ucr_path_line_to(path, x, y + h);
    ucr_path_close(path);
}

void ucr_path_circle(ucr_path *path, double cx, double cy, double r)
{
    const double k = 0.5522847498 * r;   /* the usual cubic approximation of a quarter circle */
    ucr_path_move_to(path, cx + r, cy);
    ucr_path_curve_to(path, cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    ucr_path_curve_to(path, cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    ucr_path_curve_to(path, cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    ucr_path_curve_to(path, cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    ucr_path_close(path);
}

int ucr_path_length(const ucr_path *path)
{
    return (int)path->els->len;
}

const ucr_path_el *ucr_path_elements(const ucr_path *path)
{
    return (const ucr_path_el *)(void *)path->els->data;
}

ucr_path *ucr_path_transform(const ucr_path *path, const ucr_matrix *m)
{
    ucr_path *out = ucr_path_new();
    g_array_set_size(out->els, path->els->len);
    for (guint i = 0; i < path->els->len; i++) {
        ucr_path_el el = g_array_index(path->els, ucr_path_el, i);
        int n = el.op == UCR_PATH_CURVE ? 3 : el.op == UCR_PATH_CLOSE ? 0 : 1;
        for (int k = 0; k < n; k++)
            ucr_matrix_apply(m, &el.pt[2 * k], &el.pt[2 * k + 1]);
        g_array_index(out->els, ucr_path_el, i) = el;
    }
    return out;
}

void ucr_path_append_elements(ucr_path *path, const ucr_path_el *els, int n)
{
    if (n > 0)
        g_array_append_vals(path->els, els, (guint)n);
}

/* ---- stamp sets --------------------------------------------------------- */

struct ucr_stamp_set {
    gint refs;
    int n;
    ucr_path **shapes;
    ucr_stroke stroke;
};

ucr_stamp_set *ucr_stamp_set_new(ucr_path **shapes, int n, const ucr_stroke *stroke)
{
    ucr_stamp_set *set = g_new0(ucr_stamp_set, 1);
    set->refs = 1;
    set->n = n;
    set->shapes = g_new(ucr_path *, MAX(n, 1));
    if (n > 0)
        memcpy(set->shapes, shapes, sizeof *shapes * (size_t)n);
    set->stroke = *stroke;
    return set;
}

ucr_stamp_set *ucr_stamp_set_ref(const ucr_stamp_set *set)
{
    ucr_stamp_set *s = (ucr_stamp_set *)set;
    g_atomic_int_inc(&s->refs);
    return s;
}

void ucr_stamp_set_unref(const ucr_stamp_set *set)
{
    ucr_stamp_set *s = (ucr_stamp_set *)set;
    if (!s || !g_atomic_int_dec_and_test(&s->refs))
        return;
    for (int i = 0; i < s->n; i++)
        ucr_path_free(s->shapes[i]);
    g_free(s->shapes);
    g_free(s);
}

/* The points a path element uses (see ucr_path_el). */
static int el_points(ucr_path_op op)
{
    return op == UCR_PATH_CURVE ? 6 : op == UCR_PATH_CLOSE ? 0 : 2;
}

static guint hash_double(guint h, double v)
{
    guint64 bits;
    memcpy(&bits, &v, sizeof bits);
    return h * 31u + (guint)(bits ^ (bits >> 32));
}

guint ucr_stamp_set_hash(gconstpointer key)
{
    const ucr_stamp_set *set = key;
    guint h = hash_double((guint)set->n, set->stroke.width);
    h = h * 31u + (guint)set->stroke.cap * 7u + (guint)set->stroke.join;
    for (int i = 0; i < set->n; i++) {
        const ucr_path_el *el = ucr_path_elements(set->shapes[i]);
        for (int k = 0; k < ucr_path_length(set->shapes[i]); k++) {
            h = h * 31u + (guint)el[k].op;
            for (int j = 0; j < el_points(el[k].op); j++)
                h = hash_double(h, el[k].pt[j]);
        }
    }
    return h;
}

gboolean ucr_stamp_set_equal(gconstpointer a, gconstpointer b)
{
    const ucr_stamp_set *x = a, *y = b;
    if (x == y)
        return TRUE;
    if (x->n != y->n || x->stroke.width != y->stroke.width || x->stroke.cap != y->stroke.cap ||
        x->stroke.join != y->stroke.join || x->stroke.n_dash != y->stroke.n_dash)
        return FALSE;
    for (int j = 0; j < x->stroke.n_dash && j < 4; j++)
        if (x->stroke.dash[j] != y->stroke.dash[j])
            return FALSE;
    for (int i = 0; i < x->n; i++) {
        int len = ucr_path_length(x->shapes[i]);
        if (len != ucr_path_length(y->shapes[i]))
            return FALSE;
        const ucr_path_el *ex = ucr_path_elements(x->shapes[i]), *ey = ucr_path_elements(y->shapes[i]);
        for (int k = 0; k < len; k++) {
            if (ex[k].op != ey[k].op)
                return FALSE;
            for (int j = 0; j < el_points(ex[k].op); j++)
                if (ex[k].pt[j] != ey[k].pt[j])
                    return FALSE;
        }
    }
    return TRUE;
}

int ucr_stamp_set_length(const ucr_stamp_set *set)
{
    return set->n;
}

const ucr_path *ucr_stamp_set_shape(const ucr_stamp_set *set, int i)
{
    g_assert(i >= 0 && i < set->n);
    return set->shapes[i];
}

const ucr_stroke *ucr_stamp_set_stroke(const ucr_stamp_set *set)
{
    return &set->stroke;
}

double ucr_stamp_set_reach(const ucr_stamp_set *set)
{
    double r = 0;
    for (int i = 0; i < set->n; i++)
        for (guint k = 0; k < set->shapes[i]->els->len; k++) {
            const ucr_path_el *el = &g_array_index(set->shapes[i]->els, ucr_path_el, k);
            int np = el->op == UCR_PATH_CURVE ? 3 : el->op == UCR_PATH_CLOSE ? 0 : 1;
            for (int j = 0; j < np; j++)
                r = MAX(r, hypot(el->pt[2 * j], el->pt[2 * j + 1]));
        }
    return r + set->stroke.width / 2;
}

ucr_path *ucr_stamp_set_path(const ucr_stamp_set *set, const ucr_matrix *m, const ucr_stamp *at,
                             int n)
{
    ucr_path *out = ucr_path_new();
    for (int i = 0; i < n; i++) {
        const ucr_path *shape = ucr_stamp_set_shape(set, at[i].shape);
        ucr_matrix t = { m->a, m->b, m->c, m->d, at[i].x, at[i].y };
        for (guint k = 0; k < shape->els->len; k++) {
            ucr_path_el el = g_array_index(shape->els, ucr_path_el, k);
            int np = el.op == UCR_PATH_CURVE ? 3 : el.op == UCR_PATH_CLOSE ? 0 : 1;
            for (int j = 0; j < np; j++)
                ucr_matrix_apply(&t, &el.pt[2 * j], &el.pt[2 * j + 1]);
            g_array_append_val(out->els, el);
        }
    }
    return out;
}

/* ---- matrices and colours --------------------------------------------- */

ucr_matrix ucr_matrix_scale_translate(double s, double tx, double ty)
{
    return (ucr_matrix){ s, 0, 0, s, tx, ty };
}

void ucr_matrix_apply(const ucr_matrix *m, double *x, double *y)
{
    double px = *x, py = *y;
    *x = m->a * px + m->c * py + m->e;
    *y = m->b * px + m->d * py + m->f;
}

double ucr_matrix_expansion(const ucr_matrix *m)
{
    return sqrt(fabs(m->a * m->d - m->b * m->c));
}

ucr_matrix ucr_matrix_multiply(const ucr_matrix *a, const ucr_matrix *b)
{
    return (ucr_matrix){ a->a * b->a + a->c * b->b, a->b * b->a + a->d * b->b,
                         a->a * b->c + a->c * b->d, a->b * b->c + a->d * b->d,
                         a->a * b->e + a->c * b->f + a->e, a->b * b->e + a->d * b->f + a->f };
}

ucr_matrix ucr_matrix_invert(const ucr_matrix *m)
{
    double det = m->a * m->d - m->b * m->c;
    if (fabs(det) < 1e-12)
        return (ucr_matrix){ 1, 0, 0, 1, 0, 0 };
    ucr_matrix r = { m->d / det, -m->b / det, -m->c / det, m->a / det, 0, 0 };
    r.e = -(r.a * m->e + r.c * m->f);
    r.f = -(r.b * m->e + r.d * m->f);
    return r;
}

gboolean ucr_color_parse(const char *text, ucr_color *color)
{
    size_t n = text ? strlen(text) : 0;
    if ((n != 7 && n != 9) || text[0] != '#')
        return FALSE;
    unsigned v[4] = { 0, 0, 0, 255 };
    for (size_t i = 0; i < (n - 1) / 2; i++) {
        int hi = g_ascii_xdigit_value(text[1 + 2 * i]), lo = g_ascii_xdigit_value(text[2 + 2 * i]);
        if (hi < 0 || lo < 0)
            return FALSE;
        v[i] = (unsigned)(hi * 16 + lo);
    }
    *color = (ucr_color){ v[0] / 255.0, v[1] / 255.0, v[2] / 255.0, v[3] / 255.0 };
    return TRUE;
}
