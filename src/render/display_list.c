/* O_TMPFILE (the store's file without a name) is a GNU extension. */
#define _GNU_SOURCE
#include "render/display_list.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
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

/* One call.  A 10 x 10 booklet makes some 200,000, each written to the
 * store (below) as it is here, so each kind keeps only its own fields: a
 * union, not a struct of all of them. */
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

/* ---- the store on disk -------------------------------------------------- *
 *
 * A list is written as its calls, each the cmd as it is in memory (its
 * pointers meaningless on disk) followed by what the pointers held: a
 * path's elements (an operator byte and only the coordinates it uses), the
 * strings, a text run's glyphs (render/text.c packs them), the copies of a
 * stamp.  Stamp sets and fonts stay in memory (a few dozen of each per
 * map) and go as pointers: the store keeps a reference to each it wrote.
 * The file is this process's own and is read back by it alone. */

struct ucr_list_store {
    int fd;
    char *dir;              /* for messages */
    guint64 size;           /* bytes written: the next key */
    GByteArray *buf;        /* one list's bytes, reused */
    GHashTable *stamp_sets; /* ucr_stamp_set * → itself, a reference each */
    GHashTable *fonts;      /* PangoFont * → itself, a reference each */
};

static void store_stamp_set_unref(gpointer set)
{
    ucr_stamp_set_unref(set);
}

ucr_list_store *ucr_list_store_new(GError **error)
{
    const char *dir = g_get_tmp_dir();
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
        /* No O_TMPFILE here (an old kernel, some file systems): a named
         * file, unlinked before anything is written to it. */
        char *path = g_build_filename(dir, "undercroft-pages-XXXXXX", NULL);
        fd = g_mkstemp_full(path, O_RDWR | O_CLOEXEC, 0600);
        if (fd >= 0)
            unlink(path);
        g_free(path);
    }
    if (fd < 0) {
        int e = errno;
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT,
                    "cannot make a temporary file in %s for the booklet's pages: %s "
                    "(set TMPDIR to a writable directory)",
                    dir, g_strerror(e));
        return NULL;
    }
    ucr_list_store *s = g_new0(ucr_list_store, 1);
    s->fd = fd;
    s->dir = g_strdup(dir);
    s->buf = g_byte_array_new();
    s->stamp_sets = g_hash_table_new_full(g_direct_hash, g_direct_equal, store_stamp_set_unref, NULL);
    s->fonts = g_hash_table_new_full(g_direct_hash, g_direct_equal, g_object_unref, NULL);
    return s;
}

void ucr_list_store_free(ucr_list_store *store)
{
    if (!store)
        return;
    close(store->fd);
    g_free(store->dir);
    g_byte_array_free(store->buf, TRUE);
    g_hash_table_destroy(store->stamp_sets);
    g_hash_table_destroy(store->fonts);
    g_free(store);
}

guint64 ucr_list_store_size(const ucr_list_store *store)
{
    return store->size;
}

/* The buffer of a large page (a split map's) is given back rather than
 * kept at that size for the rest of the booklet. */
static void store_buf_trim(ucr_list_store *s)
{
    if (s->buf->len > (1u << 20)) {
        g_byte_array_free(s->buf, TRUE);
        s->buf = g_byte_array_new();
    }
}

/* Room for @n more bytes at the end of @b: where to write them. */
static guint8 *grow(GByteArray *b, size_t n)
{
    guint at = b->len;
    g_byte_array_set_size(b, at + (guint)n);
    return b->data + at;
}

static void put_bytes(GByteArray *b, const void *p, size_t n)
{
    memcpy(grow(b, n), p, n);
}

/* @c with every byte defined, for the file: the text and stroke it was
 * recorded with were copied whole, padding and all, from the caller's. */
static void cmd_clean(const cmd *c, cmd *out)
{
    memset(out, 0, sizeof *out);
    out->kind = c->kind;
    out->even_odd = c->even_odd;
    out->level = c->level;
    out->color = c->color;
    switch (c->kind) {
    case CMD_FILL:
    case CMD_STROKE:
    case CMD_CLIP:
        out->path = c->path;
        out->stroke.width = c->stroke.width;
        out->stroke.cap = c->stroke.cap;
        out->stroke.join = c->stroke.join;
        out->stroke.n_dash = c->stroke.n_dash;
        memcpy(out->stroke.dash, c->stroke.dash, sizeof c->stroke.dash);
        break;
    case CMD_TEXT:
        out->text.utf8 = c->text.utf8;
        out->text.family = c->text.family;
        out->text.size = c->text.size;
        out->text.bold = c->text.bold;
        out->text.x = c->text.x;
        out->text.y = c->text.y;
        out->text.align = c->text.align;
        out->text.italic = c->text.italic;
        out->text.baseline = c->text.baseline;
        out->text.shaped = c->text.shaped;
        break;
    case CMD_PUSH_TRANSFORM:
    case CMD_STAMP:
        out->m = c->m;
        out->stamp_set = c->stamp_set;
        out->stamps = c->stamps;
        out->n_stamps = c->n_stamps;
        break;
    default:
        out->x = c->x;
        out->y = c->y;
        out->w = c->w;
        out->h = c->h;
        out->name = c->name;
        out->value = c->value;
        break;
    }
}

static void put_string(GByteArray *b, const char *s)
{
    guint32 n = s ? (guint32)strlen(s) : G_MAXUINT32;
    guint8 *p = grow(b, sizeof n + (s ? n : 0));
    memcpy(p, &n, sizeof n);
    if (s)
        memcpy(p + sizeof n, s, n);
}

static void put_path(GByteArray *b, const ucr_path *path)
{
    guint32 n = (guint32)ucr_path_length(path);
    const ucr_path_el *el = ucr_path_elements(path);
    /* Sized once, then filled: a map's path has thousands of elements. */
    guint at = b->len;
    size_t need = sizeof n;
    for (guint32 i = 0; i < n; i++)
        need += 1 + sizeof(double) * (el[i].op == UCR_PATH_CURVE ? 6 : el[i].op == UCR_PATH_CLOSE ? 0 : 2);
    g_byte_array_set_size(b, at + (guint)need);
    guint8 *p = b->data + at;
    memcpy(p, &n, sizeof n);
    p += sizeof n;
    for (guint32 i = 0; i < n; i++) {
        size_t k = sizeof(double) * (el[i].op == UCR_PATH_CURVE ? 6 : el[i].op == UCR_PATH_CLOSE ? 0 : 2);
        *p++ = (guint8)el[i].op;
        memcpy(p, el[i].pt, k);
        p += k;
    }
}

static gboolean write_all(ucr_list_store *s, const guint8 *p, size_t n, guint64 off, GError **error)
{
    while (n > 0) {
        ssize_t w = pwrite(s->fd, p, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : ENOSPC;
            g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR,
                        "cannot keep the booklet's pages in a temporary file in %s: %s", s->dir,
                        g_strerror(e));
            return FALSE;
        }
        p += w;
        n -= (size_t)w;
        off += (guint64)w;
    }
    return TRUE;
}

static gboolean read_all(ucr_list_store *s, guint8 *p, size_t n, guint64 off, GError **error)
{
    while (n > 0) {
        ssize_t r = pread(s->fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? errno : EIO;
            g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR,
                        "cannot read the booklet's pages back from a temporary file in %s: %s", s->dir,
                        g_strerror(e));
            return FALSE;
        }
        p += r;
        n -= (size_t)r;
        off += (guint64)r;
    }
    return TRUE;
}

gboolean ucr_list_store_put(ucr_list_store *store, const ucr_display_list *list, guint64 *key,
                            GError **error)
{
    GByteArray *b = store->buf;
    g_byte_array_set_size(b, 0);
    guint64 len = 0;   /* filled in below */
    put_bytes(b, &len, sizeof len);
    guint32 n = list->cmds->len;
    put_bytes(b, &n, sizeof n);
    for (guint i = 0; i < n; i++) {
        const cmd *c = &g_array_index(list->cmds, cmd, i);
        cmd clean;
        cmd_clean(c, &clean);
        put_bytes(b, &clean, sizeof clean);
        switch (c->kind) {
        case CMD_FILL:
        case CMD_STROKE:
        case CMD_CLIP: put_path(b, c->path); break;
        case CMD_TEXT: {
            put_string(b, c->text.utf8);
            put_string(b, c->text.family);
            if (c->text.shaped) {
                PangoFont *font = ucr_shaped_pack(c->text.shaped, b);
                if (font && !g_hash_table_contains(store->fonts, font))
                    g_hash_table_add(store->fonts, g_object_ref(font));
            }
            break;
        }
        case CMD_STAMP:
            if (!g_hash_table_contains(store->stamp_sets, c->stamp_set))
                g_hash_table_add(store->stamp_sets, ucr_stamp_set_ref(c->stamp_set));
            {
                guint8 *p = grow(b, (sizeof(gint32) + 2 * sizeof(double)) * (size_t)c->n_stamps);
                for (int k = 0; k < c->n_stamps; k++) {
                    gint32 shape = c->stamps[k].shape;
                    memcpy(p, &shape, sizeof shape);
                    memcpy(p + sizeof shape, &c->stamps[k].x, sizeof(double));
                    memcpy(p + sizeof shape + sizeof(double), &c->stamps[k].y, sizeof(double));
                    p += sizeof shape + 2 * sizeof(double);
                }
            }
            break;
        case CMD_LINK:
        case CMD_DEST:
        case CMD_BEGIN_GROUP: put_string(b, c->name); break;
        case CMD_INFO:
        case CMD_OUTLINE:
            put_string(b, c->name);
            put_string(b, c->value);
            break;
        default: break;
        }
    }
    len = b->len - sizeof len;
    memcpy(b->data, &len, sizeof len);
    if (!write_all(store, b->data, b->len, store->size, error))
        return FALSE;
    *key = store->size;
    store->size += b->len;
    store_buf_trim(store);
    return TRUE;
}

static const char *get_string(ucr_display_list *list, const guint8 **at)
{
    guint32 n;
    memcpy(&n, *at, sizeof n);
    *at += sizeof n;
    if (n == G_MAXUINT32)
        return NULL;
    const char *s = g_string_chunk_insert_len(list->strings, (const char *)*at, (gssize)n);
    *at += n;
    return s;
}

/* The elements decoded into one array and appended at once (unused
 * coordinates zero, as ucr_path_move_to() and the rest leave them). */
static ucr_path *get_path(const guint8 **at)
{
    const guint8 *p = *at;
    guint32 n;
    memcpy(&n, p, sizeof n);
    p += sizeof n;
    ucr_path *path = ucr_path_new();
    if (n == 0) {
        *at = p;
        return path;
    }
    ucr_path_el *els = g_new0(ucr_path_el, n);
    for (guint32 i = 0; i < n; i++) {
        ucr_path_el *el = &els[i];
        el->op = (ucr_path_op)*p++;
        if (el->op == UCR_PATH_CURVE) {
            memcpy(el->pt, p, sizeof(double) * 6);
            p += sizeof(double) * 6;
        } else if (el->op != UCR_PATH_CLOSE) {
            memcpy(el->pt, p, sizeof(double) * 2);
            p += sizeof(double) * 2;
        }
    }
    ucr_path_append_elements(path, els, (int)n);
    g_free(els);
    *at = p;
    return path;
}

ucr_display_list *ucr_list_store_get(ucr_list_store *store, guint64 key, GError **error)
{
    guint64 len;
    if (!read_all(store, (guint8 *)&len, sizeof len, key, error))
        return NULL;
    /* Its own buffer, given back at once: the document's writer grows
     * while the pages are read back, and takes the peak of the run. */
    guint8 *bytes = g_malloc((size_t)len);
    if (!read_all(store, bytes, (size_t)len, key + sizeof len, error)) {
        g_free(bytes);
        return NULL;
    }
    const guint8 *p = bytes;
    guint32 n;
    memcpy(&n, p, sizeof n);
    p += sizeof n;
    ucr_display_list *list = ucr_display_list_new();
    g_array_set_size(list->cmds, n);
    for (guint i = 0; i < n; i++) {
        cmd *c = &g_array_index(list->cmds, cmd, i);
        memcpy(c, p, sizeof *c);
        p += sizeof *c;
        switch (c->kind) {
        case CMD_FILL:
        case CMD_STROKE:
        case CMD_CLIP: c->path = get_path(&p); break;
        case CMD_TEXT: {
            bool shaped = c->text.shaped != NULL;
            c->text.utf8 = get_string(list, &p);
            c->text.family = get_string(list, &p);
            c->text.shaped = shaped ? ucr_shaped_unpack(&p) : NULL;
            break;
        }
        case CMD_STAMP:
            /* The set is alive: the store holds a reference to it. */
            ucr_stamp_set_ref(c->stamp_set);
            c->stamps = c->n_stamps ? g_new(ucr_stamp, c->n_stamps) : NULL;
            for (int k = 0; k < c->n_stamps; k++) {
                gint32 shape;
                memcpy(&shape, p, sizeof shape);
                c->stamps[k].shape = shape;
                memcpy(&c->stamps[k].x, p + sizeof shape, sizeof(double));
                memcpy(&c->stamps[k].y, p + sizeof shape + sizeof(double), sizeof(double));
                p += sizeof shape + 2 * sizeof(double);
            }
            break;
        case CMD_LINK:
        case CMD_DEST:
        case CMD_BEGIN_GROUP: c->name = get_string(list, &p); break;
        case CMD_INFO:
        case CMD_OUTLINE:
            c->name = get_string(list, &p);
            c->value = get_string(list, &p);
            break;
        default: break;
        }
    }
    g_free(bytes);
    return list;
}
