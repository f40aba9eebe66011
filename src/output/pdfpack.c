#define _GNU_SOURCE   /* O_TMPFILE, fopencookie */
#include "output/pdfpack.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/error.h"

/* How many objects go into one object stream.  More compress better (the
 * link annotations and structure elements repeat each other); a reader
 * inflates a whole stream to reach one object, and 200 short dictionaries
 * are some 20 KB. */
#define PACK_OBJECTS_PER_STREAM 200

/* ---- a PDF lexer, just enough to find where objects end ------------------ */

typedef enum { TOK_END, TOK_REGULAR, TOK_NAME, TOK_STRING, TOK_DELIM } tok_kind;

typedef struct {
    const char *s;
    gsize n;
    tok_kind kind;
} token;

typedef struct {
    const char *p, *end;
} lexer;

/* PDF's three kinds of character (ISO 32000-1, 7.2.2), by table: the
 * lexer looks at every byte of half a megabyte of dictionaries. */
enum { CH_REGULAR, CH_SPACE, CH_DELIM };

static const guint8 char_kind[256] = {
    [0] = CH_SPACE, ['\t'] = CH_SPACE, ['\n'] = CH_SPACE, ['\f'] = CH_SPACE, ['\r'] = CH_SPACE,
    [' '] = CH_SPACE, ['('] = CH_DELIM, [')'] = CH_DELIM, ['<'] = CH_DELIM, ['>'] = CH_DELIM,
    ['['] = CH_DELIM, [']'] = CH_DELIM, ['{'] = CH_DELIM, ['}'] = CH_DELIM, ['/'] = CH_DELIM,
    ['%'] = CH_DELIM,
};

static gboolean is_space(char c)
{
    return char_kind[(guint8)c] == CH_SPACE;
}

static gboolean is_regular(char c)
{
    return char_kind[(guint8)c] == CH_REGULAR;
}

/* The next token at @lx, comments skipped.  FALSE on what cannot be a PDF
 * (a string or hex string that does not end, a lone '>'); TOK_END at the
 * end of the text. */
static gboolean lex_next(lexer *lx, token *t)
{
    const char *p = lx->p, *end = lx->end;
    for (;;) {
        while (p < end && is_space(*p))
            p++;
        if (p < end && *p == '%') {
            while (p < end && *p != '\n' && *p != '\r')
                p++;
            continue;
        }
        break;
    }
    t->s = p;
    if (p == end) {
        t->n = 0;
        t->kind = TOK_END;
        lx->p = p;
        return TRUE;
    }
    const char *q = p + 1;
    switch (*p) {
    case '(': {
        /* Parentheses nest; a backslash escapes the next byte. */
        int depth = 1;
        while (q < end && depth > 0) {
            if (*q == '\\' && q + 1 < end)
                q++;
            else if (*q == '(')
                depth++;
            else if (*q == ')')
                depth--;
            q++;
        }
        if (depth > 0 || q > end)
            return FALSE;
        t->kind = TOK_STRING;
        break;
    }
    case '<':
        if (q < end && *q == '<') {
            q++;
            t->kind = TOK_DELIM;
            break;
        }
        while (q < end && *q != '>')
            q++;
        if (q == end)
            return FALSE;
        q++;
        t->kind = TOK_STRING;
        break;
    case '>':
        if (q == end || *q != '>')
            return FALSE;
        q++;
        t->kind = TOK_DELIM;
        break;
    case '[': case ']': case '{': case '}':
        t->kind = TOK_DELIM;
        break;
    case ')':
        return FALSE;
    case '/':
        while (q < end && is_regular(*q))
            q++;
        t->kind = TOK_NAME;
        break;
    default:
        while (q < end && is_regular(*q))
            q++;
        t->kind = TOK_REGULAR;
        break;
    }
    t->n = (gsize)(q - p);
    lx->p = q;
    return TRUE;
}

static gboolean tok_is(const token *t, const char *word)
{
    return t->n == strlen(word) && !memcmp(t->s, word, t->n);
}

/* A token of digits only, as a number below 2^48; FALSE otherwise. */
static gboolean tok_uint(const token *t, guint64 *v)
{
    if (t->kind != TOK_REGULAR || t->n == 0 || t->n > 14)
        return FALSE;
    guint64 x = 0;
    for (gsize i = 0; i < t->n; i++) {
        if (t->s[i] < '0' || t->s[i] > '9')
            return FALSE;
        x = x * 10 + (guint64)(t->s[i] - '0');
    }
    *v = x;
    return TRUE;
}

/* The tokens of @lx up to (not including) the keyword @stop, into @toks.
 * FALSE if @stop never comes. */
static gboolean tokens_read(lexer *lx, const char *stop, GArray *toks)
{
    g_array_set_size(toks, 0);
    for (;;) {
        token t;
        if (!lex_next(lx, &t) || t.kind == TOK_END)
            return FALSE;
        if (t.kind == TOK_REGULAR && tok_is(&t, stop))
            return TRUE;
        g_array_append_val(toks, t);
    }
}

/* Where a link annotation's /QuadPoints with a single quadrilateral starts
 * in @toks (the 11 tokens "/QuadPoints [ 8 numbers ]"), or -1.  cairo 1.16
 * writes one beside the /Rect of every link: a quadrilateral that is the
 * Rect itself, less its rounding to whole points.  Without it a reader
 * takes the Rect, so the link works the same; with 1,100 links to a
 * booklet that is 25 KB, a tenth of what this pass leaves. */
static int link_quad_points(const GArray *toks)
{
    const token *t = (const token *)(const void *)toks->data;
    int depth = 0, quad = -1;
    gboolean link = FALSE;
    for (guint i = 0; i < toks->len; i++) {
        if (t[i].kind == TOK_DELIM && (tok_is(&t[i], "<<") || tok_is(&t[i], "[")))
            depth++;
        else if (t[i].kind == TOK_DELIM && (tok_is(&t[i], ">>") || tok_is(&t[i], "]")))
            depth--;
        else if (depth == 1 && t[i].kind == TOK_NAME && i + 1 < toks->len) {
            if (tok_is(&t[i], "/Subtype") && tok_is(&t[i + 1], "/Link"))
                link = TRUE;
            if (tok_is(&t[i], "/QuadPoints") && i + 10 < toks->len && tok_is(&t[i + 1], "[")
                && tok_is(&t[i + 10], "]")) {
                quad = (int)i;
                for (guint k = i + 2; k < i + 10; k++)
                    if (t[k].kind != TOK_REGULAR)
                        quad = -1;
            }
        }
    }
    return link && t[0].kind == TOK_DELIM && tok_is(&t[0], "<<") ? quad : -1;
}

/* Marks in @drop the 11 tokens of a link's single /QuadPoints (see
 * link_quad_points). */
static void drop_quad_points(const GArray *toks, gboolean *drop)
{
    int quad = link_quad_points(toks);
    for (int i = 0; quad >= 0 && i < 11; i++)
        drop[quad + i] = TRUE;
}

/* Marks in @drop every repeat of a dictionary entry "/Name N G R" that the
 * same dictionary already has, with the same reference.  cairo 1.16 names a
 * form XObject in the page's /XObject resources once per use, and a map
 * places its hatching's few dozen forms some two thousand times: a
 * dictionary with a key twice is not valid PDF (qpdf warns at each), and
 * the copies were a fifth of the page's resources. */
static void drop_repeated_refs(const GArray *toks, gboolean *drop)
{
    const token *t = (const token *)(const void *)toks->data;
    GHashTable *seen = NULL;   /* "depth name N G", of the dictionary open at that depth */
    GArray *open = g_array_new(FALSE, FALSE, sizeof(guint));   /* where each open << is */
    for (guint i = 0; i < toks->len; i++) {
        if (t[i].kind == TOK_DELIM && tok_is(&t[i], "<<")) {
            g_array_append_val(open, i);
            continue;
        }
        if (t[i].kind == TOK_DELIM && tok_is(&t[i], ">>") && open->len > 0) {
            g_array_set_size(open, open->len - 1);
            continue;
        }
        if (t[i].kind != TOK_NAME || open->len == 0 || i + 3 >= toks->len || !tok_is(&t[i + 3], "R")
            || t[i + 1].kind != TOK_REGULAR || t[i + 2].kind != TOK_REGULAR)
            continue;
        if (!seen)
            seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        char *key = g_strdup_printf("%u %.*s %.*s %.*s", g_array_index(open, guint, open->len - 1), (int)t[i].n,
                                    t[i].s, (int)t[i + 1].n, t[i + 1].s, (int)t[i + 2].n, t[i + 2].s);
        if (!g_hash_table_add(seen, key))
            for (int k = 0; k < 4; k++)
                drop[i + k] = TRUE;
        i += 3;
    }
    if (seen)
        g_hash_table_destroy(seen);
    g_array_free(open, TRUE);
}

/* Appends @toks to @out, comments gone and a space only where two tokens
 * would otherwise run together; the tokens @drop marks (if not NULL) are
 * left out. */
static void tokens_write(const GArray *toks, const gboolean *drop, GString *out)
{
    const token *t = (const token *)(const void *)toks->data;
    tok_kind prev = TOK_DELIM;
    for (int i = 0; i < (int)toks->len; i++) {
        if (drop && drop[i])
            continue;
        if (t[i].kind == TOK_REGULAR && (prev == TOK_REGULAR || prev == TOK_NAME))
            g_string_append_c(out, ' ');
        g_string_append_len(out, t[i].s, (gssize)t[i].n);
        prev = t[i].kind;
    }
}

/* ---- where the PDF is ------------------------------------------------------ */

/* The input: in memory, or in a file read a piece at a time, so that a
 * 10 x 10 booklet's 11 MB never sit in memory whole. */
typedef struct {
    const char *mem;  /* the whole file, or NULL: read @fd */
    int fd;
    gsize len;
    GByteArray *buf;  /* what source_read last returned, from @fd */
    int read_errno;   /* why a read of @fd failed, 0 if none did */
} pack_source;

/* The @n bytes at @off (fewer at the end of the file), valid until the
 * next call; NULL if @fd cannot be read. */
static const char *source_read(pack_source *src, guint64 off, gsize n)
{
    off = MIN(off, (guint64)src->len);
    n = MIN(n, (gsize)(src->len - off));
    if (src->mem)
        return src->mem + off;
    g_byte_array_set_size(src->buf, (guint)n);
    for (gsize done = 0; done < n;) {
        ssize_t r = pread(src->fd, src->buf->data + done, n - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            src->read_errno = r < 0 ? errno : EIO;
            return NULL;
        }
        done += (gsize)r;
    }
    return (const char *)src->buf->data;
}

/* ---- reading the file ----------------------------------------------------- */

typedef struct {
    guint64 offset;   /* in the input */
    guint64 end;      /* where the next object (or the xref table) begins */
    gboolean stream;
    gboolean unused;   /* an xref entry pointing at another object's offset */
    guint64 packed_in; /* output: the object stream's number, or 0 */
    guint64 index;     /* output: its place in that stream, or its new offset */
} pack_object;

typedef struct {
    pack_source *src;
    gsize len;
    int version;       /* the x of %PDF-1.x */
    guint64 size;      /* the trailer's /Size: objects 0 .. size-1 */
    pack_object *objects;
    GString *root, *info, *id;  /* the trailer's values, as text */
} pack_input;

static void pack_input_clear(pack_input *in)
{
    g_free(in->objects);
    if (in->root)
        g_string_free(in->root, TRUE);
    if (in->info)
        g_string_free(in->info, TRUE);
    if (in->id)
        g_string_free(in->id, TRUE);
}

/* A fixed-width xref field of @n digits at @p; FALSE if not digits. */
static gboolean digits(const char *p, int n, guint64 *v)
{
    guint64 x = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return FALSE;
        x = x * 10 + (guint64)(p[i] - '0');
    }
    *v = x;
    return TRUE;
}

/* The value after a trailer key, as text in *@out: a reference, or one
 * object (a dictionary or array to its matching end). */
static gboolean trailer_value(lexer *lx, GString **out)
{
    GArray *toks = g_array_new(FALSE, FALSE, sizeof(token));
    lexer look = *lx;
    token t;
    int depth = 0;
    gboolean ok = TRUE;
    do {
        ok = lex_next(&look, &t) && t.kind != TOK_END;
        if (!ok)
            break;
        g_array_append_val(toks, t);
        if (t.kind == TOK_DELIM && (tok_is(&t, "<<") || tok_is(&t, "[")))
            depth++;
        else if (t.kind == TOK_DELIM && (tok_is(&t, ">>") || tok_is(&t, "]")))
            depth--;
    } while (depth > 0);
    ok = ok && depth == 0;
    guint64 v;
    if (ok && toks->len == 1 && tok_uint(&t, &v)) {
        /* "num gen R"? */
        lexer after = look;
        token gen, r;
        if (lex_next(&after, &gen) && tok_uint(&gen, &v) && lex_next(&after, &r) && tok_is(&r, "R")) {
            g_array_append_val(toks, gen);
            g_array_append_val(toks, r);
            look = after;
        }
    }
    if (ok) {
        if (*out)
            g_string_free(*out, TRUE);
        *out = g_string_new(NULL);
        tokens_write(toks, NULL, *out);
        lx->p = look.p;
    }
    g_array_free(toks, TRUE);
    return ok;
}

/* The trailer dictionary at @lx, up to "startxref N %%EOF" and the end of
 * the file: FALSE for anything this pass does not take (an earlier xref,
 * encryption, a hybrid xref stream). */
static gboolean read_trailer(pack_input *in, lexer *lx)
{
    token t;
    if (!lex_next(lx, &t) || !tok_is(&t, "<<"))
        return FALSE;
    gboolean have_size = FALSE;
    for (;;) {
        if (!lex_next(lx, &t))
            return FALSE;
        if (tok_is(&t, ">>"))
            break;
        if (t.kind != TOK_NAME)
            return FALSE;
        if (tok_is(&t, "/Prev") || tok_is(&t, "/Encrypt") || tok_is(&t, "/XRefStm"))
            return FALSE;
        GString **slot = tok_is(&t, "/Root") ? &in->root
                         : tok_is(&t, "/Info") ? &in->info
                         : tok_is(&t, "/ID") ? &in->id : NULL;
        if (tok_is(&t, "/Size")) {
            token v;
            if (!lex_next(lx, &v) || !tok_uint(&v, &in->size))
                return FALSE;
            have_size = TRUE;
            continue;
        }
        GString *ignored = NULL;
        gboolean ok = trailer_value(lx, slot ? slot : &ignored);
        if (ignored)
            g_string_free(ignored, TRUE);
        if (!ok)
            return FALSE;
    }
    guint64 v;
    if (!lex_next(lx, &t) || !tok_is(&t, "startxref") || !lex_next(lx, &t) || !tok_uint(&t, &v))
        return FALSE;
    /* "%%EOF" is a comment to the lexer: nothing but it may follow. */
    const char *p = lx->p;
    while (p < lx->end && is_space(*p))
        p++;
    if ((gsize)(lx->end - p) < 5 || memcmp(p, "%%EOF", 5))
        return FALSE;
    for (p += 5; p < lx->end; p++)
        if (!is_space(*p))
            return FALSE;
    return have_size && in->root != NULL;
}

static int compare_offsets(const void *a, const void *b)
{
    const pack_object *x = *(pack_object *const *)a, *y = *(pack_object *const *)b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x < y ? -1 : x > y;   /* by number: the same order everywhere */
}

/* Object @num at its offset: "num 0 obj", then a stream or not.  FALSE if
 * the xref table points at anything else, or the object is an object or
 * xref stream already. */
static gboolean read_object(pack_input *in, guint64 num)
{
    pack_object *o = &in->objects[num];
    /* A stream's dictionary is short: its first 4 KB are read, the whole
     * object only if they do not reach "stream" or "endobj". */
    gsize extent = (gsize)(o->end - o->offset), n = MIN(extent, (gsize)4096);
again:;
    const char *text = source_read(in->src, o->offset, n);
    if (!text)
        return FALSE;
    lexer lx = { text, text + n };
    token t;
    guint64 v;
    if (!lex_next(&lx, &t) || !tok_uint(&t, &v) || v != num || !lex_next(&lx, &t)
        || !tok_is(&t, "0") || !lex_next(&lx, &t) || !tok_is(&t, "obj"))
        return FALSE;
    for (;;) {
        if (!lex_next(&lx, &t) || t.kind == TOK_END) {
            if (n < extent) {
                n = extent;
                goto again;
            }
            return FALSE;
        }
        if (t.kind == TOK_NAME && (tok_is(&t, "/ObjStm") || tok_is(&t, "/XRef")))
            return FALSE;
        if (t.kind == TOK_REGULAR && tok_is(&t, "endobj"))
            return TRUE;
        if (t.kind == TOK_REGULAR && tok_is(&t, "stream")) {
            o->stream = TRUE;
            return TRUE;
        }
    }
}

/* The header's version and where the cross-reference table is (@xref);
 * @lx is left on the table, past "xref". */
static gboolean xref_find(pack_input *in, guint64 *xref_out, lexer *lx_out)
{
    gsize len = in->len;
    const char *magic = len >= 32 ? source_read(in->src, 0, 8) : NULL;
    if (!magic || memcmp(magic, "%PDF-1.", 7) || magic[7] < '0' || magic[7] > '9')
        return FALSE;
    in->version = magic[7] - '0';

    /* startxref, in the last KB.  (Not g_strrstr_len: it stops at a NUL,
     * and the deflated stream before the table may hold some.) */
    gsize tail_len = MIN(len, (gsize)1024);
    const char *tail = source_read(in->src, len - tail_len, tail_len), *sx = NULL;
    for (gsize at = tail_len - 9; tail && at > 0 && !sx; at--)
        if (tail[at] == 's' && !memcmp(tail + at, "startxref", 9))
            sx = tail + at;
    if (!sx)
        return FALSE;
    lexer lx = { sx + 9, tail + tail_len };
    token t;
    guint64 xref;
    if (!lex_next(&lx, &t) || !tok_uint(&t, &xref) || xref + 4 > len)
        return FALSE;
    *xref_out = xref;
    /* From the table to the end: the table, the trailer, startxref. */
    const char *table = source_read(in->src, xref, len - xref);
    if (!table || memcmp(table, "xref", 4))
        return FALSE;
    lx_out->p = table + 4;
    lx_out->end = table + (len - xref);
    return TRUE;
}

/* The table at @lx (objects before @xref): every object's offset, in
 * in->objects, then the trailer. */
static gboolean xref_read(pack_input *in, lexer *lx_in, guint64 xref)
{
    lexer lx = *lx_in;
    token t;
    /* The table: subsections "first count", then 20-byte entries. */
    GArray *entries = g_array_new(FALSE, TRUE, sizeof(pack_object));
    GArray *seen = g_array_new(FALSE, TRUE, sizeof(guint8));
    gboolean ok = TRUE;
    for (;;) {
        guint64 first, count;
        if (!lex_next(&lx, &t) || t.kind == TOK_END) {
            ok = FALSE;
            break;
        }
        if (tok_is(&t, "trailer"))
            break;
        if (!tok_uint(&t, &first) || !lex_next(&lx, &t) || !tok_uint(&t, &count)
            || first + count > 10000000) {
            ok = FALSE;
            break;
        }
        /* The entries start on the next line. */
        const char *p = lx.p;
        while (p < lx.end && (*p == ' ' || *p == '\r' || *p == '\n'))
            p++;
        if ((gsize)(lx.end - p) < count * 20) {
            ok = FALSE;
            break;
        }
        if (entries->len < first + count) {
            g_array_set_size(entries, (guint)(first + count));
            g_array_set_size(seen, (guint)(first + count));
        }
        for (guint64 i = 0; i < count && ok; i++, p += 20) {
            guint64 off, gen, num = first + i;
            if (!digits(p, 10, &off) || p[10] != ' ' || !digits(p + 11, 5, &gen) || p[16] != ' '
                || g_array_index(seen, guint8, num)) {
                ok = FALSE;
                break;
            }
            g_array_index(seen, guint8, num) = 1;
            if (num == 0) {
                ok = p[17] == 'f';
                continue;
            }
            /* Only objects in use, of generation 0. */
            ok = p[17] == 'n' && gen == 0 && off > 8 && off < xref;
            g_array_index(entries, pack_object, num).offset = off;
        }
        lx.p = p;
        if (!ok)
            break;
    }
    ok = ok && read_trailer(in, &lx) && in->size == entries->len && in->size > 1;
    for (guint i = 0; ok && i < seen->len; i++)
        ok = g_array_index(seen, guint8, i) != 0;
    g_array_free(seen, TRUE);
    in->objects = (pack_object *)(void *)g_array_free(entries, FALSE);
    return ok;
}

/* Where each object ends. */
static gboolean objects_bound(pack_input *in, guint64 xref)
{
    gboolean ok = TRUE;
    /* Each object ends where the next begins (or the xref table does).
     * cairo 1.16 leaves a number it reserved and never wrote pointing at
     * the offset of the object written instead ("3" and "5" both where
     * "5 0 obj" is): only the object named there is there, the others are
     * no object at all and become free entries. */
    guint64 n = in->size - 1;
    pack_object **by_offset = g_new(pack_object *, n);
    for (guint64 i = 0; i < n; i++)
        by_offset[i] = &in->objects[i + 1];
    qsort(by_offset, n, sizeof *by_offset, compare_offsets);
    for (guint64 i = 0, j; i < n && ok; i = j) {
        guint64 at = by_offset[i]->offset, end;
        for (j = i; j < n && by_offset[j]->offset == at; j++)
            ;
        end = j < n ? by_offset[j]->offset : xref;
        gsize head_len = (gsize)MIN(end - at, (guint64)32);
        const char *text = source_read(in->src, at, head_len);
        token num;
        guint64 named = 0;
        if (text) {
            lexer head = { text, text + head_len };
            ok = lex_next(&head, &num) && tok_uint(&num, &named);
        } else {
            ok = FALSE;
        }
        gboolean found = FALSE;
        for (guint64 k = i; k < j && ok; k++) {
            pack_object *o = by_offset[k];
            o->end = end;
            if ((guint64)(o - in->objects) == named)
                found = TRUE;
            else
                o->unused = TRUE;
        }
        ok = ok && found;
    }
    g_free(by_offset);
    return ok;
}

static gboolean read_input(pack_input *in)
{
    guint64 xref;
    lexer lx;
    if (!xref_find(in, &xref, &lx) || !xref_read(in, &lx, xref) || !objects_bound(in, xref))
        return FALSE;
    for (guint64 num = 1; num < in->size; num++)
        if (!in->objects[num].unused && !read_object(in, num))
            return FALSE;
    return TRUE;
}


/* ---- writing --------------------------------------------------------------- */

typedef struct {
    FILE *f;
    guint64 pos;
} pack_writer;

static void put(pack_writer *w, const void *data, gsize n)
{
    fwrite(data, 1, n, w->f);
    w->pos += n;
}

static void put_str(pack_writer *w, const char *s)
{
    put(w, s, strlen(s));
}

static guint8 *deflate_bytes(const guint8 *data, gsize len, gsize *out_len)
{
    uLongf n = compressBound((uLong)len);
    guint8 *z = g_malloc(n);
    if (compress2(z, &n, data, (uLong)len, Z_DEFAULT_COMPRESSION) != Z_OK)
        g_error("pdfpack: zlib could not deflate %zu bytes", (size_t)len);
    *out_len = n;
    return z;
}

/* A stream object: @dict (without << >>) and the deflated @data. */
static void put_stream(pack_writer *w, guint64 num, const char *dict, const guint8 *data, gsize len)
{
    gsize zlen;
    guint8 *z = deflate_bytes(data, len, &zlen);
    char *head = g_strdup_printf("%" G_GUINT64_FORMAT " 0 obj\n<<%s/Filter/FlateDecode/Length %zu>>\nstream\n",
                                 num, dict, (size_t)zlen);
    put_str(w, head);
    put(w, z, zlen);
    put_str(w, "\nendstream\nendobj\n");
    g_free(head);
    g_free(z);
}

/* Packs the objects @nums[0..count) into object stream @num. */
static void put_object_stream(pack_writer *w, pack_input *in, guint64 num, const guint64 *nums,
                              guint count)
{
    GString *index = g_string_new(NULL), *body = g_string_new(NULL);
    GArray *toks = g_array_new(FALSE, FALSE, sizeof(token));
    for (guint i = 0; i < count; i++) {
        pack_object *o = &in->objects[nums[i]];
        o->packed_in = num;
        o->index = i;
        g_string_append_printf(index, "%s%" G_GUINT64_FORMAT " %zu", i ? " " : "", nums[i],
                               (size_t)body->len);
        gsize n = (gsize)(o->end - o->offset);
        const char *text = source_read(in->src, o->offset, n);
        if (!text)
            break;   /* the caller sees src->read_errno */
        lexer lx = { text, text + n };
        token t;
        for (int k = 0; k < 3; k++)
            lex_next(&lx, &t);   /* "num 0 obj", checked by read_object */
        gsize before = body->len;
        tokens_read(&lx, "endobj", toks);   /* read_object found "endobj" */
        gboolean *drop = g_new0(gboolean, toks->len + 1);
        drop_quad_points(toks, drop);
        drop_repeated_refs(toks, drop);
        tokens_write(toks, drop, body);
        g_free(drop);
        if (body->len == before)
            g_string_append(body, "null");   /* "n 0 obj endobj" */
        g_string_append_c(body, '\n');
    }
    g_string_append_c(index, '\n');
    char *dict = g_strdup_printf("/Type/ObjStm/N %u/First %zu", count, (size_t)index->len);
    g_string_append_len(index, body->str, (gssize)body->len);
    put_stream(w, num, dict, (const guint8 *)index->str, index->len);
    g_free(dict);
    g_string_free(index, TRUE);
    g_string_free(body, TRUE);
    g_array_free(toks, TRUE);
}

static void put_field(guint8 *row, int width, guint64 v)
{
    for (int i = width - 1; i >= 0; i--, v >>= 8)
        row[i] = (guint8)(v & 0xff);
}

/* The cross-reference stream, object @num at the writer's position, for
 * objects 0 .. num: each row type, offset or object stream, generation or
 * index, PNG "up"-predicted (most rows differ from the last in a byte or
 * two, which deflate then all but removes). */
static void put_xref_stream(pack_writer *w, pack_input *in, guint64 num)
{
    guint64 self = w->pos, size = num + 1;
    int w2 = 1;
    while (w2 < 8 && (MAX(self, num) >> (8 * w2)) != 0)
        w2++;
    int cols = 1 + w2 + 2;
    guint8 *rows = g_malloc0((gsize)size * (gsize)(cols + 1));
    guint8 *prev = g_malloc0((gsize)cols), *row = g_malloc((gsize)cols);
    /* The free entries are a list from object 0: each names the next. */
    guint64 *next_free = g_new0(guint64, size), following = 0;
    for (guint64 i = size; i-- > 0;) {
        if (i == 0 || (i < in->size && in->objects[i].unused)) {
            next_free[i] = following;
            following = i;
        }
    }
    for (guint64 i = 0; i < size; i++) {
        memset(row, 0, (gsize)cols);
        if (i == 0 || (i < in->size && in->objects[i].unused)) {
            put_field(row + 1, w2, next_free[i]);
            put_field(row + 1 + w2, 2, i == 0 ? 65535 : 0);
        } else if (i == num) {
            row[0] = 1;
            put_field(row + 1, w2, self);
        } else if (i < in->size && in->objects[i].packed_in) {
            row[0] = 2;
            put_field(row + 1, w2, in->objects[i].packed_in);
            put_field(row + 1 + w2, 2, in->objects[i].index);
        } else {
            /* a stream copied as it was, or an object stream: index holds
             * its offset in the output */
            row[0] = 1;
            put_field(row + 1, w2, in->objects[i].index);
        }
        guint8 *out = rows + i * (guint64)(cols + 1);
        out[0] = 2;   /* PNG filter "up" */
        for (int c = 0; c < cols; c++)
            out[1 + c] = (guint8)(row[c] - prev[c]);
        memcpy(prev, row, (gsize)cols);
    }
    GString *dict = g_string_new(NULL);
    g_string_append_printf(dict, "/Type/XRef/Size %" G_GUINT64_FORMAT "/Index[0 %" G_GUINT64_FORMAT
                           "]/W[1 %d 2]/Root %s",
                           size, size, w2, in->root->str);
    if (in->info)
        g_string_append_printf(dict, "/Info %s", in->info->str);
    if (in->id)
        g_string_append_printf(dict, "/ID%s%s", in->id->str[0] == '[' ? "" : " ", in->id->str);
    g_string_append_printf(dict, "/DecodeParms<</Columns %d/Predictor 12>>", cols);
    put_stream(w, num, dict->str, rows, (gsize)size * (gsize)(cols + 1));
    g_string_free(dict, TRUE);
    g_free(rows);
    g_free(next_free);
    g_free(prev);
    g_free(row);
}

/* Copies @n bytes at @off of the input to @w, a piece at a time. */
static gboolean copy_bytes(pack_writer *w, pack_source *src, guint64 off, guint64 n)
{
    while (n > 0) {
        gsize piece = (gsize)MIN(n, (guint64)(256 * 1024));
        const char *bytes = source_read(src, off, piece);
        if (!bytes)
            return FALSE;
        put(w, bytes, piece);
        off += piece;
        n -= piece;
    }
    return TRUE;
}

/* Packs @src into @out, or copies it.  FALSE if @src could not be read. */
static gboolean pack(pack_source *src, FILE *out, gboolean *packed)
{
    pack_input in = { .src = src, .len = src->len };
    pack_writer w = { out, 0 };
    *packed = read_input(&in);
    if (!*packed) {
        pack_input_clear(&in);
        src->read_errno = 0;   /* what could not be read, is copied */
        return copy_bytes(&w, src, 0, src->len);
    }
    /* Object streams need 1.5; a binary comment tells transfer programs
     * that the file is not text. */
    char header[32];
    g_snprintf(header, sizeof header, "%%PDF-1.%d\n%%\xb5\xed\xae\xfb\n", MAX(in.version, 5));
    put_str(&w, header);

    /* Streams as they are, in the order they came; the others listed for
     * packing, by number. */
    GArray *loose = g_array_new(FALSE, FALSE, sizeof(guint64));
    pack_object **order = g_new(pack_object *, in.size - 1);
    for (guint64 i = 1; i < in.size; i++)
        order[i - 1] = &in.objects[i];
    qsort(order, in.size - 1, sizeof *order, compare_offsets);
    gboolean ok = TRUE;
    for (guint64 i = 0; i < in.size - 1 && ok; i++) {
        pack_object *o = order[i];
        if (!o->stream || o->unused)
            continue;
        o->index = w.pos;
        const char *last = source_read(src, o->end - 1, 1);
        char last_byte = last ? *last : 0;
        ok = last && copy_bytes(&w, src, o->offset, o->end - o->offset);
        if (ok && last_byte != '\n')
            put_str(&w, "\n");
    }
    g_free(order);
    for (guint64 i = 1; i < in.size; i++)
        if (!in.objects[i].stream && !in.objects[i].unused)
            g_array_append_val(loose, i);

    /* The object streams take the numbers after the last object, then the
     * xref stream.  Their offsets go where in.objects[] cannot hold them. */
    guint streams = (loose->len + PACK_OBJECTS_PER_STREAM - 1) / PACK_OBJECTS_PER_STREAM;
    guint64 next = in.size;
    pack_object *grown = g_renew(pack_object, in.objects, in.size + streams);
    in.objects = grown;
    memset(in.objects + in.size, 0, sizeof(pack_object) * streams);
    for (guint s = 0; s < streams && ok; s++, next++) {
        guint first = s * PACK_OBJECTS_PER_STREAM;
        guint count = MIN((guint)PACK_OBJECTS_PER_STREAM, loose->len - first);
        in.objects[next].index = w.pos;
        put_object_stream(&w, &in, next, &g_array_index(loose, guint64, first), count);
        ok = src->read_errno == 0;
    }
    if (ok) {
        guint64 xref_at = w.pos;
        in.size += streams;
        put_xref_stream(&w, &in, next);
        char tail[64];
        g_snprintf(tail, sizeof tail, "startxref\n%" G_GUINT64_FORMAT "\n%%%%EOF\n", xref_at);
        put_str(&w, tail);
    }
    g_array_free(loose, TRUE);
    pack_input_clear(&in);
    return ok;
}

gboolean ucr_pdfpack_write(const guint8 *pdf, gsize len, FILE *out)
{
    pack_source src = { .mem = (const char *)pdf, .fd = -1, .len = len };
    gboolean packed;
    pack(&src, out, &packed);   /* memory is always readable */
    return packed;
}

struct ucr_pdfpack_spill {
    int fd;
    FILE *stream;
    guint64 len;      /* bytes written */
    int write_errno;  /* why the first write failed, 0 if none did */
};

/* The spill's writes.  A failure is kept and the write reported as done,
 * as core/outfile.c does: cairo's PDF surface asserts on a short write
 * ("_cairo_array_index_const: Assertion"). */
static ssize_t spill_write(void *cookie, const char *buf, size_t size)
{
    ucr_pdfpack_spill *sp = cookie;
    for (size_t done = 0; done < size && !sp->write_errno;) {
        ssize_t n = write(sp->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            sp->write_errno = n < 0 ? errno : EIO;
        else
            done += (size_t)n;
    }
    sp->len += size;
    return (ssize_t)size;
}

ucr_pdfpack_spill *ucr_pdfpack_begin(void)
{
#ifdef O_TMPFILE
    int fd = open(g_get_tmp_dir(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0)
        return NULL;
    ucr_pdfpack_spill *sp = g_new0(ucr_pdfpack_spill, 1);
    sp->fd = fd;
    cookie_io_functions_t io = { NULL, spill_write, NULL, NULL };
    sp->stream = fopencookie(sp, "wb", io);
    if (!sp->stream) {
        close(fd);
        g_free(sp);
        return NULL;
    }
    return sp;
#else
    return NULL;
#endif
}

FILE *ucr_pdfpack_stream(ucr_pdfpack_spill *spill)
{
    return spill->stream;
}

gboolean ucr_pdfpack_spill_failed(ucr_pdfpack_spill *spill)
{
    fflush(spill->stream);
    return spill->write_errno != 0;
}

void ucr_pdfpack_abort(ucr_pdfpack_spill *spill)
{
    if (!spill)
        return;
    fclose(spill->stream);
    close(spill->fd);
    g_free(spill);
}

gboolean ucr_pdfpack_end(ucr_pdfpack_spill *spill, FILE *out, gboolean *packed, GError **error)
{
    gboolean was_packed = FALSE;
    int why = 0;
    if (ucr_pdfpack_spill_failed(spill)) {
        why = spill->write_errno;
    } else {
        pack_source src = { .mem = NULL, .fd = spill->fd, .len = (gsize)spill->len, .buf = g_byte_array_new() };
        if (!pack(&src, out, &was_packed))
            why = src.read_errno ? src.read_errno : EIO;
        g_byte_array_free(src.buf, TRUE);
    }
    ucr_pdfpack_abort(spill);
    if (packed)
        *packed = was_packed;
    if (why)
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot use the PDF's temporary file in %s: %s",
                    g_get_tmp_dir(), g_strerror(why));
    return !why;
}
