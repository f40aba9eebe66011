#include "render/display_list.h"

#include <string.h>

#include "render/text.h"

typedef enum {
    CMD_BEGIN_PAGE,
    CMD_END_PAGE,
    CMD_FILL,
    CMD_STROKE,
    CMD_CLIP,
    CMD_POP_CLIP,
    CMD_TEXT,
    CMD_STAMP,
    CMD_LINK,
    CMD_DEST,
    CMD_BEGIN_GROUP,
    CMD_END_GROUP,
    CMD_INFO,
    CMD_OUTLINE,
    CMD_PUSH_TRANSFORM,
    CMD_POP_TRANSFORM
} cmd_kind;

/* One call.  A booklet keeps every call of every page until it is written
 * (a 10 x 10 dungeon some 200,000), so each kind keeps only its own
 * fields: a union, not a struct of all of them. */
typedef struct {
    cmd_kind kind;
    bool even_odd;
    int level;             /* outline level */
    ucr_color color;       /* FILL, STROKE, TEXT, STAMP */
    union {
        struct {           /* FILL, STROKE, CLIP */
            ucr_path *path;        /* owned */
            ucr_stroke stroke;
        };
        ucr_text text;     /* TEXT: strings point into the list's chunk */
        struct {           /* BEGIN_PAGE, LINK, DEST, BEGIN_GROUP, INFO, OUTLINE */
            double x, y, w, h;     /* page size, link rectangle, destination point */
            const char *name;      /* link target, destination, group name, info key,
                                    * outline destination (chunk) */
            const char *value;     /* info value, outline title (chunk) */
        };
        struct {           /* PUSH_TRANSFORM, STAMP */
            ucr_matrix m;          /* pushed transform, stamps' shape matrix */
            const ucr_stamp_set *stamp_set;  /* a reference */
            ucr_stamp *stamps;     /* owned */
            int n_stamps;
        };
    };
} cmd;

struct ucr_display_list {
    GArray *cmds;          /* cmd */
    GStringChunk *strings; /* every string recorded, freed at once */
};

typedef struct {
    ucr_device super;
    ucr_display_list *list;
} list_device;

ucr_display_list *ucr_display_list_new(void)
{
    ucr_display_list *list = g_new(ucr_display_list, 1);
    list->cmds = g_array_new(FALSE, TRUE, sizeof(cmd));
    list->strings = g_string_chunk_new(4096);
    return list;
}

void ucr_display_list_free(ucr_display_list *list)
{
    if (!list)
        return;
    for (guint i = 0; i < list->cmds->len; i++) {
        cmd *c = &g_array_index(list->cmds, cmd, i);
        if (c->kind == CMD_FILL || c->kind == CMD_STROKE || c->kind == CMD_CLIP) {
            ucr_path_free(c->path);
        } else if (c->kind == CMD_STAMP) {
            ucr_stamp_set_unref(c->stamp_set);
            g_free(c->stamps);
        } else if (c->kind == CMD_TEXT) {
            ucr_shaped_unref(c->text.shaped);
        }
    }
    g_array_free(list->cmds, TRUE);
    g_string_chunk_free(list->strings);
    g_free(list);
}

int ucr_display_list_length(const ucr_display_list *list)
{
    return (int)list->cmds->len;
}

/* ---- recording ---------------------------------------------------------- */

static cmd *append(ucr_device *dev, cmd_kind kind)
{
    ucr_display_list *list = ((list_device *)dev)->list;
    cmd c;
    memset(&c, 0, sizeof c);   /* all of the union, not only its first member */
    c.kind = kind;
    g_array_append_val(list->cmds, c);
    return &g_array_index(list->cmds, cmd, list->cmds->len - 1);
}

static const char *keep(ucr_device *dev, const char *s)
{
    return s ? g_string_chunk_insert_const(((list_device *)dev)->list->strings, s) : NULL;
}

static ucr_path *path_copy(const ucr_path *path)
{
    return ucr_path_transform(path, &(ucr_matrix){ 1, 0, 0, 1, 0, 0 });
}

static void rec_begin_page(ucr_device *dev, double width, double height)
{
    cmd *c = append(dev, CMD_BEGIN_PAGE);
    c->w = width;
    c->h = height;
}

static void rec_end_page(ucr_device *dev)
{
    append(dev, CMD_END_PAGE);
}

static void rec_fill(ucr_device *dev, const ucr_path *path, bool even_odd, ucr_color color)
{
    cmd *c = append(dev, CMD_FILL);
    c->path = path_copy(path);
    c->even_odd = even_odd;
    c->color = color;
}

static void rec_stroke(ucr_device *dev, const ucr_path *path, const ucr_stroke *stroke,
                       ucr_color color)
{
    cmd *c = append(dev, CMD_STROKE);
    c->path = path_copy(path);
    c->stroke = *stroke;
    c->color = color;
}

static void rec_clip(ucr_device *dev, const ucr_path *path, bool even_odd)
{
    cmd *c = append(dev, CMD_CLIP);
    c->path = path_copy(path);
    c->even_odd = even_odd;
}

static void rec_pop_clip(ucr_device *dev)
{
    append(dev, CMD_POP_CLIP);
}

static void rec_text(ucr_device *dev, const ucr_text *text, ucr_color color)
{
    const char *utf8 = keep(dev, text->utf8), *family = keep(dev, text->family);
    cmd *c = append(dev, CMD_TEXT);
    c->text = *text;
    c->text.utf8 = utf8;
    c->text.family = family;
    if (text->shaped)
        c->text.shaped = ucr_shaped_ref(text->shaped);
    c->color = color;
}

static void rec_stamp(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m,
                      const ucr_stamp *at, int n, ucr_color color)
{
    cmd *c = append(dev, CMD_STAMP);
    c->stamp_set = ucr_stamp_set_ref(set);
    c->m = *m;
    c->stamps = g_memdup2(at, sizeof *at * (gsize)n);
    c->n_stamps = n;
    c->color = color;
}

static void rec_link(ucr_device *dev, double x, double y, double w, double h, const char *dest)
{
    const char *name = keep(dev, dest);
    cmd *c = append(dev, CMD_LINK);
    c->x = x;
    c->y = y;
    c->w = w;
    c->h = h;
    c->name = name;
}

static void rec_dest(ucr_device *dev, const char *dest, double x, double y)
{
    const char *name = keep(dev, dest);
    cmd *c = append(dev, CMD_DEST);
    c->x = x;
    c->y = y;
    c->name = name;
}

static void rec_begin_group(ucr_device *dev, const char *group)
{
    const char *name = keep(dev, group);
    append(dev, CMD_BEGIN_GROUP)->name = name;
}

static void rec_end_group(ucr_device *dev)
{
    append(dev, CMD_END_GROUP);
}

static void rec_set_info(ucr_device *dev, const char *key, const char *value)
{
    const char *k = keep(dev, key), *v = keep(dev, value);
    cmd *c = append(dev, CMD_INFO);
    c->name = k;
    c->value = v;
}

static void rec_outline(ucr_device *dev, int level, const char *title, const char *dest)
{
    const char *t = keep(dev, title), *d = keep(dev, dest);
    cmd *c = append(dev, CMD_OUTLINE);
    c->level = level;
    c->value = t;
    c->name = d;
}

static void rec_push_transform(ucr_device *dev, const ucr_matrix *m)
{
    append(dev, CMD_PUSH_TRANSFORM)->m = *m;
}

static void rec_pop_transform(ucr_device *dev)
{
    append(dev, CMD_POP_TRANSFORM);
}

ucr_device *ucr_list_device_new(ucr_display_list *list)
{
    list_device *d = (list_device *)ucr_device_new_of_size(sizeof(list_device));
    d->list = list;
    d->super.begin_page = rec_begin_page;
    d->super.end_page = rec_end_page;
    d->super.fill_path = rec_fill;
    d->super.stroke_path = rec_stroke;
    d->super.clip_path = rec_clip;
    d->super.pop_clip = rec_pop_clip;
    d->super.show_text = rec_text;
    d->super.stamp = rec_stamp;
    d->super.link = rec_link;
    d->super.dest = rec_dest;
    d->super.begin_group = rec_begin_group;
    d->super.end_group = rec_end_group;
    d->super.set_info = rec_set_info;
    d->super.outline = rec_outline;
    d->super.push_transform = rec_push_transform;
    d->super.pop_transform = rec_pop_transform;
    return &d->super;
}

/* ---- replay ------------------------------------------------------------- */

void ucr_display_list_replay(const ucr_display_list *list, ucr_device *dev, const ucr_matrix *ctm)
{
    ucr_display_list_replay_with(list, dev, ctm, 0);
}

void ucr_display_list_replay_with(const ucr_display_list *list, ucr_device *dev, const ucr_matrix *ctm,
                                  unsigned flags)
{
    ucr_matrix id = { 1, 0, 0, 1, 0, 0 };
    const ucr_matrix *m = ctm ? ctm : &id;
    double s = ucr_matrix_expansion(m);
    bool identity = m->a == 1 && m->b == 0 && m->c == 0 && m->d == 1 && m->e == 0 && m->f == 0;
    for (guint i = 0; i < list->cmds->len; i++) {
        const cmd *c = &g_array_index(list->cmds, cmd, i);
        if ((flags & UCR_REPLAY_CONTENT) && (c->kind == CMD_BEGIN_PAGE || c->kind == CMD_END_PAGE))
            continue;
        if ((flags & UCR_REPLAY_NO_NAVIGATION) &&
            (c->kind == CMD_LINK || c->kind == CMD_DEST || c->kind == CMD_OUTLINE))
            continue;
        /* As recorded when the matrix is the identity (every booklet page):
         * no copy of every path on every replay. */
        bool has_path = c->kind == CMD_FILL || c->kind == CMD_STROKE || c->kind == CMD_CLIP;
        ucr_path *copy = has_path && !identity ? ucr_path_transform(c->path, m) : NULL;
        const ucr_path *p = copy ? copy : has_path ? c->path : NULL;
        double x = 0, y = 0;
        if (c->kind == CMD_LINK || c->kind == CMD_DEST) {
            x = c->x;
            y = c->y;
            ucr_matrix_apply(m, &x, &y);
        }
        switch (c->kind) {
        case CMD_BEGIN_PAGE: ucr_device_begin_page(dev, c->w * s, c->h * s); break;
        case CMD_END_PAGE: ucr_device_end_page(dev); break;
        case CMD_FILL: ucr_device_fill_path(dev, p, c->even_odd, c->color); break;
        case CMD_STROKE: {
            ucr_stroke st = c->stroke;
            st.width *= s;
            for (int k = 0; k < st.n_dash; k++)
                st.dash[k] *= s;
            ucr_device_stroke_path(dev, p, &st, c->color);
            break;
        }
        case CMD_CLIP: ucr_device_clip_path(dev, p, c->even_odd); break;
        case CMD_POP_CLIP: ucr_device_pop_clip(dev); break;
        case CMD_TEXT: {
            ucr_text t = c->text;
            ucr_matrix_apply(m, &t.x, &t.y);
            t.size *= s;
            ucr_device_show_text(dev, &t, c->color);
            break;
        }
        case CMD_STAMP: {
            ucr_matrix lin = ucr_matrix_multiply(m, &c->m);
            ucr_stamp *at = g_memdup2(c->stamps, sizeof *at * (gsize)c->n_stamps);
            for (int k = 0; k < c->n_stamps; k++)
                ucr_matrix_apply(m, &at[k].x, &at[k].y);
            ucr_device_stamp(dev, c->stamp_set, &lin, at, c->n_stamps, c->color);
            g_free(at);
            break;
        }
        case CMD_LINK: ucr_device_link(dev, x, y, c->w * s, c->h * s, c->name); break;
        case CMD_DEST: ucr_device_dest(dev, c->name, x, y); break;
        case CMD_BEGIN_GROUP: ucr_device_begin_group(dev, c->name); break;
        case CMD_END_GROUP: ucr_device_end_group(dev); break;
        case CMD_INFO: ucr_device_set_info(dev, c->name, c->value); break;
        case CMD_OUTLINE: ucr_device_outline(dev, c->level, c->value, c->name); break;
        case CMD_PUSH_TRANSFORM: {
            /* Content inside is already mapped by @m: the pushed matrix
             * acts in @m's space, m · T · m⁻¹. */
            ucr_matrix inv = ucr_matrix_invert(m), t = ucr_matrix_multiply(&c->m, &inv);
            t = ucr_matrix_multiply(m, &t);
            ucr_device_push_transform(dev, &t);
            break;
        }
        case CMD_POP_TRANSFORM: ucr_device_pop_transform(dev); break;
        }
        ucr_path_free(copy);
    }
}
