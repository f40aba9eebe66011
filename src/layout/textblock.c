#include "layout/textblock.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "layout/map.h"
#include "render/text.h"

typedef struct {
    char *utf8;
    char *family;
    double size, x;
    bool bold, italic;
    ucr_color color;
    ucr_shaped *shaped;   /* the run's glyphs, drawn without shaping again */
} run;

typedef struct {
    double x0, x1;
    char *dest;
} ref_link;

typedef struct {
    double top, bottom, baseline;
    GArray *runs;   /* run */
    GArray *links;  /* ref_link */
} line;

struct ucr_textblock {
    gint refs;      /* the caller's, and the cache's (see cached) */
    GArray *lines;  /* line */
    double height, width;
};

static void run_clear(gpointer p)
{
    run *r = p;
    g_free(r->utf8);
    g_free(r->family);
    ucr_shaped_unref(r->shaped);
}

static void link_clear(gpointer p)
{
    g_free(((ref_link *)p)->dest);
}

static void line_clear(gpointer p)
{
    line *l = p;
    g_array_unref(l->runs);
    g_array_unref(l->links);
}

/* The foreground colour Pango markup gave this item, black otherwise. */
static ucr_color item_color(const PangoItem *item)
{
    ucr_color c = { 0, 0, 0, 1 };
    for (GSList *a = item->analysis.extra_attrs; a; a = a->next) {
        const PangoAttribute *attr = a->data;
        if (attr->klass->type == PANGO_ATTR_FOREGROUND) {
            const PangoColor *pc = &((const PangoAttrColor *)attr)->color;
            c.r = pc->red / 65535.0;
            c.g = pc->green / 65535.0;
            c.b = pc->blue / 65535.0;
        } else if (attr->klass->type == PANGO_ATTR_FOREGROUND_ALPHA) {
            c.a = ((const PangoAttrInt *)attr)->value / 65535.0;
        }
    }
    return c;
}

/* A reference: one or two capitals, a dash, a number ("C-7", "AB-12").
 * Not G_REGEX_OPTIMIZE: PCRE's JIT reads words past the subject's end,
 * which valgrind reports on every booklet. */
static GRegex *ref_regex(void)
{
    static GRegex *re;
    if (g_once_init_enter(&re)) {
        GRegex *r = g_regex_new("(?<![A-Za-z0-9])([A-Z]{1,2})-([0-9]{1,4})(?![0-9])", 0, 0, NULL);
        g_once_init_leave(&re, r);
    }
    return re;
}

typedef struct {
    int start, end;  /* byte range in the layout text */
    char *dest;
} ref_span;

/* Finds the references of @text that @style accepts. */
static GArray *find_refs(const char *text, const ucr_textblock_style *style)
{
    GArray *refs = g_array_new(FALSE, FALSE, sizeof(ref_span));
    if (!style->ref_ok)
        return refs;
    GMatchInfo *mi;
    g_regex_match(ref_regex(), text, 0, &mi);
    while (g_match_info_matches(mi)) {
        char *id = g_match_info_fetch(mi, 1), *num = g_match_info_fetch(mi, 2);
        int key = atoi(num);
        if (style->ref_ok(id, key, style->ref_data)) {
            ref_span s;
            g_match_info_fetch_pos(mi, 0, &s.start, &s.end);
            s.dest = ucr_map_key_dest(id, key);
            g_array_append_val(refs, s);
        }
        g_free(id);
        g_free(num);
        g_match_info_next(mi, NULL);
    }
    g_match_info_free(mi);
    return refs;
}

/* Appends the run of glyph item @gi at @x to @l, without its trailing
 * spaces (they draw nothing; the runs keep what is seen). */
static void run_add(line *l, const char *text, const PangoGlyphItem *gi, double x)
{
    const PangoItem *item = gi->item;
    int len = item->length;
    while (len > 0 && (text[item->offset + len - 1] == ' ' || text[item->offset + len - 1] == '\n'))
        len--;
    if (len <= 0)
        return;
    PangoFontDescription *fd = pango_font_describe_with_absolute_size(item->analysis.font);
    run r = {
        .utf8 = g_strndup(text + item->offset, (gsize)len),
        .family = g_strdup(pango_font_description_get_family(fd)),
        .size = (double)pango_font_description_get_size(fd) / PANGO_SCALE,
        .x = x,
        .bold = pango_font_description_get_weight(fd) >= PANGO_WEIGHT_SEMIBOLD,
        .italic = pango_font_description_get_style(fd) != PANGO_STYLE_NORMAL,
        .color = item_color(item),
    };
    pango_font_description_free(fd);
    /* The glyphs of what is seen, as shaped here: a split copy without
     * the trailing spaces. */
    if (len < item->length) {
        PangoGlyphItem *rest = pango_glyph_item_copy((PangoGlyphItem *)gi);
        PangoGlyphItem *seen = pango_glyph_item_split(rest, text, len);
        r.shaped = ucr_shaped_new(text, seen, r.size);
        pango_glyph_item_free(seen);
        pango_glyph_item_free(rest);
    } else {
        r.shaped = ucr_shaped_new(text, gi, r.size);
    }
    g_array_append_val(l->runs, r);
}

static line line_new(double top, double bottom, double baseline)
{
    line l = { .top = top, .bottom = bottom, .baseline = baseline };
    l.runs = g_array_new(FALSE, TRUE, sizeof(run));
    g_array_set_clear_func(l.runs, run_clear);
    l.links = g_array_new(FALSE, TRUE, sizeof(ref_link));
    g_array_set_clear_func(l.links, link_clear);
    return l;
}

static ucr_textblock *block_new(void)
{
    ucr_textblock *tb = g_new0(ucr_textblock, 1);
    tb->refs = 1;
    tb->lines = g_array_new(FALSE, TRUE, sizeof(line));
    g_array_set_clear_func(tb->lines, line_clear);
    return tb;
}

/* The block as Pango lays it out, wrapped or not. */
static void lines_from_pango(ucr_textblock *tb, PangoLayout *layout, const char *text,
                             const GArray *refs, const ucr_textblock_style *style)
{
    PangoRectangle all;
    pango_layout_get_extents(layout, NULL, &all);
    tb->height = (double)all.height / PANGO_SCALE;
    tb->width = (double)all.width / PANGO_SCALE;

    PangoLayoutIter *it = pango_layout_get_iter(layout);
    do {
        PangoLayoutLine *pl = pango_layout_iter_get_line_readonly(it);
        PangoRectangle lr;
        pango_layout_iter_get_line_extents(it, NULL, &lr);
        line l = line_new((double)lr.y / PANGO_SCALE, (double)(lr.y + lr.height) / PANGO_SCALE,
                          (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE);
        double x = (double)lr.x / PANGO_SCALE;
        if (style->width <= 0)
            x -= style->align * (double)lr.width / PANGO_SCALE;
        double line_x = x;
        for (GSList *rl = pl->runs; rl; rl = rl->next) {
            const PangoGlyphItem *gi = rl->data;
            run_add(&l, text, gi, x);
            x += (double)pango_glyph_string_get_width(gi->glyphs) / PANGO_SCALE;
        }
        /* Links over the references that start on this line (they never
         * break, so they end on it too). */
        for (guint i = 0; i < refs->len; i++) {
            const ref_span *s = &g_array_index(refs, ref_span, i);
            if (s->start < pl->start_index || s->start >= pl->start_index + pl->length)
                continue;
            int x0, x1;
            pango_layout_line_index_to_x(pl, s->start, FALSE, &x0);
            pango_layout_line_index_to_x(pl, s->end, FALSE, &x1);
            ref_link k = { line_x + (double)MIN(x0, x1) / PANGO_SCALE,
                           line_x + (double)MAX(x0, x1) / PANGO_SCALE, g_strdup(s->dest) };
            g_array_append_val(l.links, k);
        }
        g_array_append_val(tb->lines, l);
    } while (pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
}

/* ---- breaking lines on text shaped once ------------------------------
 *
 * Pango 1.50 shapes a wrapped paragraph again at every line break it
 * tries (the default booklet's key: 356,000 characters shaped for the
 * 147,000 it lays out, a seventh of the booklet's CPU time; 146,000 now).
 * Left-to-right text — every block of the booklet — is instead laid out
 * unwrapped, shaped once, and each paragraph broken here the way Pango
 * breaks it with PANGO_WRAP_WORD: as many words as fit, trailing spaces
 * not counted, a word wider than the line alone on it; the same lines,
 * runs, extents and links (check_textblock compares the two on odd text
 * at many widths, check_booklet over whole booklets).  Right-to-left text
 * takes Pango's path. */

static gboolean reference_only;   /* tests: Pango's breaking for every block */

void ucr_textblock_use_pango_breaking(gboolean on)
{
    reference_only = on;
}

/* What breaking a paragraph needs of the whole block's text. */
typedef struct {
    const char *text;
    const PangoLogAttr *la;   /* per character, and one after the last */
    const int *adv;           /* each character's advance, Pango units */
    const int *byte;          /* each character's byte offset; [n] = length */
    int limit;                /* the wrap width */
    PangoAlignment align;
} breaking;

/* Where the lines of characters @p0 .. @p1 start, as PANGO_WRAP_WORD_CHAR
 * breaks them: as many characters as fit up to a break, the spaces before
 * the break not counted.  NULL if a word is wider than the line: Pango
 * breaks it between its characters, shaping each part anew (a ligature
 * parts), which the runs shaped once cannot do. */
static GArray *break_greedy(const breaking *bk, int p0, int p1)
{
    GArray *starts = g_array_new(FALSE, FALSE, sizeof(int));
    for (int s = p0; s < p1;) {
        g_array_append_val(starts, s);
        int width = 0, white = 0, best = -1;
        for (int b = s + 1; b <= p1; b++) {
            width += bk->adv[b - 1];
            white = bk->la[b - 1].is_white ? white + bk->adv[b - 1] : 0;
            if (b < p1 && !bk->la[b].is_line_break)
                continue;
            /* Spaces before a break hang past the line; at the paragraph's
             * end there is no break, and they count. */
            if (width - (b < p1 ? white : 0) <= bk->limit)
                best = b;
            else {
                if (best < 0) {
                    g_array_unref(starts);
                    return NULL;
                }
                break;
            }
        }
        s = best < 0 ? p1 : best;
    }
    return starts;
}

/* Lays out the paragraph @pl (unwrapped, characters @p0 .. @p1) as lines
 * of @tb from *@y down; *@min_x / *@max_x take in their extents.  FALSE if
 * a word is wider than the line (break_greedy()). */
static gboolean paragraph_lines(ucr_textblock *tb, const breaking *bk, const PangoLayoutLine *pl, int p0,
                                int p1, const GArray *refs, int spacing, int *y, int *min_x, int *max_x)
{
    GArray *starts = break_greedy(bk, p0, p1);
    if (!starts)
        return FALSE;
    int nlines = (int)starts->len;
    int *start_byte = g_new(int, (gsize)nlines + 1);
    for (int i = 0; i < nlines; i++)
        start_byte[i] = bk->byte[g_array_index(starts, int, i)];
    start_byte[nlines] = bk->byte[p1];

    /* The runs of each line: copies of the paragraph's runs, split at the
     * lines' starts; line i has parts [first[i], first[i + 1]). */
    GPtrArray *parts = g_ptr_array_new_with_free_func((GDestroyNotify)pango_glyph_item_free);
    int *first = g_new0(int, (gsize)nlines + 1);
    int li = 0;
    for (GSList *r = pl->runs; r; r = r->next) {
        PangoGlyphItem *cur = pango_glyph_item_copy(r->data);
        for (;;) {
            while (li + 1 < nlines && start_byte[li + 1] <= cur->item->offset)
                first[++li] = (int)parts->len;
            if (li + 1 < nlines && start_byte[li + 1] < cur->item->offset + cur->item->length) {
                g_ptr_array_add(parts, pango_glyph_item_split(cur, bk->text, start_byte[li + 1] - cur->item->offset));
                continue;
            }
            g_ptr_array_add(parts, cur);
            break;
        }
    }
    while (li + 1 <= nlines)
        first[++li] = (int)parts->len;

    for (int i = 0; i < nlines; i++) {
        int a = first[i], b = first[i + 1];
        /* A wrapped line's final space takes no room (Pango zeroes its
         * glyph): the line is centred or right-aligned on what is seen. */
        if (i + 1 < nlines && b > a) {
            PangoGlyphString *gs = ((PangoGlyphItem *)parts->pdata[b - 1])->glyphs;
            if (gs->num_glyphs > 0 && bk->la[g_array_index(starts, int, i + 1) - 1].is_white) {
                gs->glyphs[gs->num_glyphs - 1].geometry.width = 0;
                gs->glyphs[gs->num_glyphs - 1].glyph = PANGO_GLYPH_EMPTY;
            }
        }
        /* Pango's logical rectangle of a line: the union of its runs'. */
        int ascent = 0, descent = 0, width = 0;
        for (int k = a; k < b; k++) {
            const PangoGlyphItem *gi = parts->pdata[k];
            PangoRectangle lg;
            pango_glyph_string_extents(gi->glyphs, gi->item->analysis.font, NULL, &lg);
            ascent = MAX(ascent, -lg.y);
            descent = MAX(descent, lg.y + lg.height);
            width += lg.width;
        }
        int x_offset = 0;
        if (bk->align == PANGO_ALIGN_RIGHT) {
            x_offset = bk->limit - width;
        } else if (bk->align == PANGO_ALIGN_CENTER) {
            x_offset = (bk->limit - width) / 2;
            if (((bk->limit | width) & (PANGO_SCALE - 1)) == 0)
                x_offset = PANGO_UNITS_ROUND(x_offset);
        }
        *min_x = MIN(*min_x, x_offset);
        *max_x = MAX(*max_x, x_offset + width);
        if (tb->lines->len > 0)
            *y += spacing;
        line l = line_new((double)*y / PANGO_SCALE, (double)(*y + ascent + descent) / PANGO_SCALE,
                          (double)(*y + ascent) / PANGO_SCALE);
        double x = (double)x_offset / PANGO_SCALE;
        for (int k = a; k < b; k++) {
            const PangoGlyphItem *gi = parts->pdata[k];
            run_add(&l, bk->text, gi, x);
            x += (double)pango_glyph_string_get_width(gi->glyphs) / PANGO_SCALE;
        }
        /* Links: a reference never breaks, so it lies on the line it
         * starts on; its x is the advances before it. */
        for (guint r = 0; r < refs->len; r++) {
            const ref_span *sp = &g_array_index(refs, ref_span, r);
            if (sp->start < start_byte[i] || sp->start >= start_byte[i + 1])
                continue;
            int x0 = x_offset, c = g_array_index(starts, int, i);
            for (; bk->byte[c] < sp->start; c++)
                x0 += bk->adv[c];
            int x1 = x0;
            for (; bk->byte[c] < sp->end; c++)
                x1 += bk->adv[c];
            ref_link k = { (double)x0 / PANGO_SCALE, (double)x1 / PANGO_SCALE, g_strdup(sp->dest) };
            g_array_append_val(l.links, k);
        }
        g_array_append_val(tb->lines, l);
        *y += ascent + descent;
    }
    g_free(first);
    g_ptr_array_unref(parts);
    g_free(start_byte);
    g_array_unref(starts);
    return TRUE;
}

/* The block's lines broken here (see above), from @layout laid out
 * unwrapped: TRUE.  FALSE, with @tb untouched, for text this does not do,
 * with the way Pango wraps it in @wrap: right-to-left runs (as words), a
 * word wider than the line (between its characters).  The tests' reference
 * (ucr_textblock_use_pango_breaking()) has Pango break every block so. */
static gboolean lines_broken_here(ucr_textblock *tb, PangoLayout *layout, const char *text,
                                  const GArray *refs, const ucr_textblock_style *style, PangoWrapMode *wrap)
{
    *wrap = PANGO_WRAP_WORD;
    for (GSList *ls = pango_layout_get_lines_readonly(layout); ls; ls = ls->next)
        for (GSList *r = ((PangoLayoutLine *)ls->data)->runs; r; r = r->next)
            if (((PangoGlyphItem *)r->data)->item->analysis.level & 1)
                return FALSE;
    int n_attrs;
    const PangoLogAttr *la = pango_layout_get_log_attrs_readonly(layout, &n_attrs);
    int nchars = n_attrs - 1;
    int *adv = g_new0(int, (gsize)nchars + 1);
    int *byte = g_new(int, (gsize)nchars + 1);
    int c = 0;
    for (const char *p = text; *p && c < nchars; p = g_utf8_next_char(p))
        byte[c++] = (int)(p - text);
    byte[nchars] = (int)strlen(text);
    breaking bk = { text, la, adv, byte, (int)(style->width * PANGO_SCALE),
                    style->align >= 0.75   ? PANGO_ALIGN_RIGHT
                    : style->align >= 0.25 ? PANGO_ALIGN_CENTER
                                           : PANGO_ALIGN_LEFT };
    int spacing = (int)(style->spacing * PANGO_SCALE);
    int y = 0, min_x = G_MAXINT, max_x = G_MININT;
    gboolean broken = TRUE;
    PangoLayoutIter *it = pango_layout_get_iter(layout);
    c = 0;
    do {
        const PangoLayoutLine *pl = pango_layout_iter_get_line_readonly(it);
        int p0 = c;
        while (byte[p0] < pl->start_index)
            p0++;
        /* Each character's advance, run by run. */
        for (GSList *r = pl->runs; r; r = r->next) {
            PangoGlyphItem *gi = r->data;
            while (byte[c] < gi->item->offset)
                c++;
            pango_glyph_item_get_logical_widths(gi, text, adv + c);
        }
        int p1 = p0;
        while (byte[p1] < pl->start_index + pl->length)
            p1++;
        if (pl->runs && p1 > p0) {
            if (!paragraph_lines(tb, &bk, pl, p0, p1, refs, spacing, &y, &min_x, &max_x)) {
                *wrap = PANGO_WRAP_WORD_CHAR;   /* Pango breaks the whole block */
                broken = FALSE;
                break;
            }
        } else {
            /* An empty paragraph: the height Pango gives it unwrapped. */
            PangoRectangle lr;
            pango_layout_iter_get_line_extents(it, NULL, &lr);
            int ascent = pango_layout_iter_get_baseline(it) - lr.y;
            int x_offset = bk.align == PANGO_ALIGN_RIGHT    ? bk.limit
                           : bk.align == PANGO_ALIGN_CENTER ? bk.limit / 2
                                                            : 0;
            if (bk.align == PANGO_ALIGN_CENTER && (bk.limit & (PANGO_SCALE - 1)) == 0)
                x_offset = PANGO_UNITS_ROUND(x_offset);
            min_x = MIN(min_x, x_offset);
            max_x = MAX(max_x, x_offset);
            if (tb->lines->len > 0)
                y += spacing;
            line l = line_new((double)y / PANGO_SCALE, (double)(y + lr.height) / PANGO_SCALE,
                              (double)(y + ascent) / PANGO_SCALE);
            g_array_append_val(tb->lines, l);
            y += lr.height;
        }
        c = p1;
    } while (pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
    tb->height = (double)y / PANGO_SCALE;
    /* (no line when the first paragraph had a word too wide: no extents) */
    tb->width = broken ? (double)((gint64)max_x - min_x) / PANGO_SCALE : 0;
    g_free(byte);
    g_free(adv);
    if (!broken || reference_only)
        g_array_set_size(tb->lines, 0);
    return broken && !reference_only;
}

static ucr_textblock *shape(PangoFontMap *fonts, const char *markup,
                            const ucr_textblock_style *style, GError **error)
{
    PangoAttrList *attrs = NULL;
    char *text = NULL;
    GError *perr = NULL;
    if (!pango_parse_markup(markup, -1, 0, &attrs, &text, NULL, &perr)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_SOFTWARE, "bad markup in the booklet's text: %s",
                    perr->message);
        g_error_free(perr);
        return NULL;
    }
    PangoContext *ctx = ucr_text_context_new(fonts);
    ucr_text base = { .utf8 = "", .family = style->family, .size = style->size };
    PangoLayout *layout = ucr_text_layout_new(ctx, &base, style->size);
    pango_layout_set_text(layout, text, -1);
    /* Words stay whole: a hyphen Pango inserts would be a glyph with no
     * character behind it, and the runs carry characters. */
    pango_attr_list_insert_before(attrs, pango_attr_insert_hyphens_new(FALSE));
    ucr_text_plain_letters(attrs);
    GArray *refs = find_refs(text, style);
    for (guint i = 0; i < refs->len; i++) {
        const ref_span *s = &g_array_index(refs, ref_span, i);
        PangoAttribute *a = pango_attr_allow_breaks_new(FALSE);
        a->start_index = (guint)s->start;
        a->end_index = (guint)s->end;
        pango_attr_list_insert(attrs, a);
    }
    pango_layout_set_attributes(layout, attrs);
    pango_attr_list_unref(attrs);
    pango_layout_set_spacing(layout, (int)(style->spacing * PANGO_SCALE));

    ucr_textblock *tb = block_new();
    PangoWrapMode wrap = PANGO_WRAP_WORD;
    if (style->width <= 0 || !lines_broken_here(tb, layout, text, refs, style, &wrap)) {
        if (style->width > 0) {
            pango_layout_set_width(layout, (int)(style->width * PANGO_SCALE));
            pango_layout_set_wrap(layout, wrap);
            pango_layout_set_alignment(layout, style->align >= 0.75   ? PANGO_ALIGN_RIGHT
                                               : style->align >= 0.25 ? PANGO_ALIGN_CENTER
                                                                      : PANGO_ALIGN_LEFT);
        }
        lines_from_pango(tb, layout, text, refs, style);
    }
    for (guint i = 0; i < refs->len; i++)
        g_free(g_array_index(refs, ref_span, i).dest);
    g_array_unref(refs);
    g_object_unref(layout);
    g_object_unref(ctx);
    g_free(text);
    return tb;
}

/* ---- the same short text, shaped once --------------------------------
 *
 * Many of a key's blocks are short and come again and again (table cells
 * like "—" or "1–2", column heads, "Empty."): of the default booklet's
 * 3,070 blocks, 1,580 are given out again from here.  A block is never
 * changed once made, so a short one is kept in a cache on the font map it
 * was shaped with (6 ms of the booklet's 300; the rest of the shaping time
 * is long paragraphs, which never come again).  Only text with no '-' is
 * kept, so no reference ("C-7") at all: a kept block never depends on
 * which references the dungeon links (ref_ok). */

/* 1,024 blocks hold the default booklet's common cells; 4,096 cost a 10 x 10
 * booklet 3.4 MB of peak memory for no time measured. */
enum { CACHE_TEXT_MAX = 64, CACHE_ENTRIES_MAX = 1024 };

static const char cache_key[] = "ucr-textblock-cache";

static void unref_block(gpointer p)
{
    ucr_textblock_free(p);
}

/* The cache's key: the markup and every style field that shapes it. */
static char *style_key(const char *markup, const ucr_textblock_style *st)
{
    return g_strdup_printf("%a %a %a %a\x1f%s\x1f%s", st->size, st->width, st->align, st->spacing,
                           st->family ? st->family : "", markup);
}

ucr_textblock *ucr_textblock_new(PangoFontMap *fonts, const char *markup,
                                 const ucr_textblock_style *style, GError **error)
{
    /* A reference has a '-' in its markup, or a character reference.
     * Pango's breaking (tests) keeps out of the cache both ways. */
    if (reference_only || strlen(markup) > CACHE_TEXT_MAX || strchr(markup, '-') || strstr(markup, "&#"))
        return shape(fonts, markup, style, error);
    GHashTable *cache = g_object_get_data(G_OBJECT(fonts), cache_key);
    if (!cache) {
        cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, unref_block);
        g_object_set_data_full(G_OBJECT(fonts), cache_key, cache, (GDestroyNotify)g_hash_table_unref);
    }
    char *key = style_key(markup, style);
    ucr_textblock *tb = g_hash_table_lookup(cache, key);
    if (tb) {
        g_free(key);
        g_atomic_int_inc(&tb->refs);
        return tb;
    }
    tb = shape(fonts, markup, style, error);
    if (tb && g_hash_table_size(cache) < CACHE_ENTRIES_MAX) {
        g_atomic_int_inc(&tb->refs);
        g_hash_table_insert(cache, key, tb);
    } else {
        g_free(key);
    }
    return tb;
}

void ucr_textblock_free(ucr_textblock *tb)
{
    if (!tb || !g_atomic_int_dec_and_test(&tb->refs))
        return;
    g_array_unref(tb->lines);
    g_free(tb);
}

int ucr_textblock_lines(const ucr_textblock *tb)
{
    return (int)tb->lines->len;
}

double ucr_textblock_height(const ucr_textblock *tb)
{
    return tb->height;
}

double ucr_textblock_width(const ucr_textblock *tb)
{
    return tb->width;
}

double ucr_textblock_line_bottom(const ucr_textblock *tb, int i)
{
    return g_array_index(tb->lines, line, i).bottom;
}

double ucr_textblock_line_top(const ucr_textblock *tb, int i)
{
    return g_array_index(tb->lines, line, i).top;
}

void ucr_textblock_draw_lines(const ucr_textblock *tb, ucr_device *dev, double x, double y,
                              int first, int last)
{
    if (first >= last || first < 0 || last > (int)tb->lines->len)
        return;
    double dy = y - g_array_index(tb->lines, line, first).top;
    for (int i = first; i < last; i++) {
        const line *l = &g_array_index(tb->lines, line, i);
        for (guint j = 0; j < l->runs->len; j++) {
            const run *r = &g_array_index(l->runs, run, j);
            ucr_text t = { .utf8 = r->utf8, .family = r->family, .size = r->size, .bold = r->bold,
                           .x = x + r->x, .y = dy + l->baseline, .align = 0, .italic = r->italic,
                           .baseline = true, .shaped = r->shaped };
            ucr_device_show_text(dev, &t, r->color);
        }
        for (guint j = 0; j < l->links->len; j++) {
            const ref_link *k = &g_array_index(l->links, ref_link, j);
            ucr_device_link(dev, x + k->x0, dy + l->top, k->x1 - k->x0, l->bottom - l->top, k->dest);
        }
    }
}

void ucr_textblock_draw(const ucr_textblock *tb, ucr_device *dev, double x, double y)
{
    if (tb->lines->len)
        ucr_textblock_draw_lines(tb, dev, x, y + g_array_index(tb->lines, line, 0).top, 0,
                                 (int)tb->lines->len);
}
