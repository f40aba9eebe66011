#include "render/text.h"

#include <string.h>

#include <pango/pangocairo.h>

PangoContext *ucr_text_context_new(PangoFontMap *fonts)
{
    PangoContext *ctx = pango_font_map_create_context(fonts);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(ctx, fo);
    cairo_font_options_destroy(fo);
    pango_context_set_round_glyph_positions(ctx, FALSE);
    /* Pango takes its default language from the locale and hands it to
     * fontconfig, which ranks fonts by language before slant: under
     * ar_SA.UTF-8 the upright DejaVu Sans (it has Arabic) beat the Oblique
     * (it has not), and the read-aloud text lost its italics.  Without a
     * language fontconfig would take one from LANG, LC_CTYPE or FC_LANG.
     * One fixed language: the same text, the same fonts, in every locale. */
    pango_context_set_language(ctx, pango_language_from_string(UCR_TEXT_LANGUAGE));
    return ctx;
}

PangoLayout *ucr_text_layout_new(PangoContext *ctx, const ucr_text *text, double size)
{
    PangoLayout *layout = pango_layout_new(ctx);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, text->family);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    if (text->bold)
        pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    if (text->italic)
        pango_font_description_set_style(fd, PANGO_STYLE_ITALIC);
    pango_layout_set_font_description(layout, fd);
    pango_font_description_free(fd);
    pango_layout_set_text(layout, text->utf8, -1);
    PangoAttrList *attrs = pango_attr_list_new();
    ucr_text_plain_letters(attrs);
    pango_layout_set_attributes(layout, attrs);
    pango_attr_list_unref(attrs);
    return layout;
}

void ucr_text_plain_letters(PangoAttrList *attrs)
{
    pango_attr_list_insert_before(attrs, pango_attr_font_features_new("liga 0, clig 0"));
}

/* Map labels are measured again and again (every spot a label might take,
 * the same room numbers on every map): the extents at REF units, kept on
 * the font map by face and text, are measured once. */
typedef struct {
    int width, height;   /* Pango units at REF */
} measured;

static const char measure_key[] = "ucr-text-measure-cache";

enum { MEASURED_MAX = 8192 };

void ucr_text_measure(PangoFontMap *fonts, const ucr_text *text, double *width, double *height)
{
    /* Shaped at 100 units and scaled: map text is a fraction of a square,
     * far below the sizes fonts are designed to be measured at. */
    enum { REF = 100 };
    GHashTable *cache = g_object_get_data(G_OBJECT(fonts), measure_key);
    if (!cache) {
        cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        g_object_set_data_full(G_OBJECT(fonts), measure_key, cache, (GDestroyNotify)g_hash_table_unref);
    }
    char *key = g_strdup_printf("%d%d\x1f%s\x1f%s", text->bold, text->italic,
                                text->family ? text->family : "", text->utf8);
    measured *m = g_hash_table_lookup(cache, key), fresh;
    if (m) {
        g_free(key);
    } else {
        PangoContext *ctx = ucr_text_context_new(fonts);
        PangoLayout *layout = ucr_text_layout_new(ctx, text, REF);
        PangoRectangle logical;
        pango_layout_get_extents(layout, NULL, &logical);
        g_object_unref(layout);
        g_object_unref(ctx);
        fresh = (measured){ logical.width, logical.height };
        m = &fresh;
        /* Bounded: a map's labels are a few hundred. */
        if (g_hash_table_size(cache) < MEASURED_MAX)
            g_hash_table_insert(cache, key, g_memdup2(&fresh, sizeof fresh));
        else
            g_free(key);
    }
    *width = (double)m->width / PANGO_SCALE * text->size / REF;
    *height = (double)m->height / PANGO_SCALE * text->size / REF;
}

/* A run's glyphs kept small: a booklet keeps every run of its key until
 * it is written (a 10 x 10 dungeon some 40,000), and a copy of Pango's
 * glyph item, with its item and attributes, came to several times this. */
typedef struct {
    PangoGlyph glyph;
    int width;
    int cluster;   /* log_cluster, with is_cluster_start in bit 30 */
} glyph_rec;

enum { CLUSTER_START = 1 << 30 };

struct ucr_shaped {
    gint refs;
    int n, length, num_chars;
    guint8 level, gravity, script_ok;
    GUnicodeScript script;
    PangoLanguage *language;
    PangoFont *font;
    double size;
    int *offsets;          /* x_offset, y_offset per glyph; NULL: all 0 */
    glyph_rec *glyphs;     /* n, in the same allocation */
    char *text;            /* length bytes and a NUL, in the same allocation */
};

ucr_shaped *ucr_shaped_new(const char *text, const PangoGlyphItem *glyphs, double size)
{
    const PangoItem *item = glyphs->item;
    const PangoGlyphString *gs = glyphs->glyphs;
    int n = gs->num_glyphs;
    ucr_shaped *sh = g_malloc0(sizeof *sh + sizeof(glyph_rec) * (size_t)n + (size_t)item->length + 1);
    sh->refs = 1;
    sh->n = n;
    sh->length = item->length;
    sh->num_chars = item->num_chars;
    sh->level = item->analysis.level;
    sh->gravity = item->analysis.gravity;
    sh->script = (GUnicodeScript)item->analysis.script;
    sh->language = item->analysis.language;
    sh->font = item->analysis.font ? g_object_ref(item->analysis.font) : NULL;
    sh->size = size;
    sh->glyphs = (glyph_rec *)(void *)(sh + 1);
    sh->text = (char *)(sh->glyphs + n);
    memcpy(sh->text, text + item->offset, (size_t)item->length);
    for (int i = 0; i < n; i++) {
        const PangoGlyphInfo *g = &gs->glyphs[i];
        sh->glyphs[i] = (glyph_rec){ g->glyph, g->geometry.width,
                                     gs->log_clusters[i] | (g->attr.is_cluster_start ? CLUSTER_START : 0) };
        if ((g->geometry.x_offset || g->geometry.y_offset) && !sh->offsets)
            sh->offsets = g_new0(int, 2 * (size_t)n);
        if (sh->offsets) {
            sh->offsets[2 * i] = g->geometry.x_offset;
            sh->offsets[2 * i + 1] = g->geometry.y_offset;
        }
    }
    return sh;
}

ucr_shaped *ucr_shaped_ref(const ucr_shaped *shaped)
{
    ucr_shaped *sh = (ucr_shaped *)shaped;
    g_atomic_int_inc(&sh->refs);
    return sh;
}

void ucr_shaped_unref(const ucr_shaped *shaped)
{
    ucr_shaped *sh = (ucr_shaped *)shaped;
    if (!sh || !g_atomic_int_dec_and_test(&sh->refs))
        return;
    if (sh->font)
        g_object_unref(sh->font);
    g_free(sh->offsets);
    g_free(sh);
}

const char *ucr_shaped_text(const ucr_shaped *shaped)
{
    return shaped->text;
}

void ucr_shaped_glyphs(const ucr_shaped *shaped, PangoGlyphItem *out)
{
    const ucr_shaped *sh = shaped;
    PangoItem *item = pango_item_new();
    item->offset = 0;
    item->length = sh->length;
    item->num_chars = sh->num_chars;
    item->analysis.font = sh->font ? g_object_ref(sh->font) : NULL;
    item->analysis.level = sh->level;
    item->analysis.gravity = sh->gravity;
    item->analysis.script = (guint8)sh->script;
    item->analysis.language = sh->language;
    PangoGlyphString *gs = pango_glyph_string_new();
    pango_glyph_string_set_size(gs, sh->n);
    for (int i = 0; i < sh->n; i++) {
        PangoGlyphInfo *g = &gs->glyphs[i];
        memset(g, 0, sizeof *g);
        g->glyph = sh->glyphs[i].glyph;
        g->geometry.width = sh->glyphs[i].width;
        if (sh->offsets) {
            g->geometry.x_offset = sh->offsets[2 * i];
            g->geometry.y_offset = sh->offsets[2 * i + 1];
        }
        g->attr.is_cluster_start = (sh->glyphs[i].cluster & CLUSTER_START) != 0;
        gs->log_clusters[i] = sh->glyphs[i].cluster & ~CLUSTER_START;
    }
    *out = (PangoGlyphItem){ .item = item, .glyphs = gs };
}

void ucr_shaped_glyphs_clear(PangoGlyphItem *glyphs)
{
    pango_item_free(glyphs->item);
    pango_glyph_string_free(glyphs->glyphs);
}

double ucr_shaped_size(const ucr_shaped *shaped)
{
    return shaped->size;
}

/* ---- packed runs (a display list kept on disk: render/display_list.c) --- */

typedef struct {
    int n, length, num_chars;
    guint8 level, gravity, script_ok, has_offsets;
    GUnicodeScript script;
    PangoLanguage *language;   /* interned by Pango for the life of the process */
    PangoFont *font;           /* kept alive by the caller (see text.h) */
    double size;
} packed_head;

PangoFont *ucr_shaped_pack(const ucr_shaped *sh, GByteArray *out)
{
    packed_head h;
    memset(&h, 0, sizeof h);   /* its padding too: it is written to a file */
    h.n = sh->n;
    h.length = sh->length;
    h.num_chars = sh->num_chars;
    h.level = sh->level;
    h.gravity = sh->gravity;
    h.script_ok = sh->script_ok;
    h.has_offsets = sh->offsets != NULL;
    h.script = sh->script;
    h.language = sh->language;
    h.font = sh->font;
    h.size = sh->size;
    g_byte_array_append(out, (const guint8 *)&h, sizeof h);
    g_byte_array_append(out, (const guint8 *)sh->glyphs, (guint)(sizeof(glyph_rec) * (size_t)sh->n));
    if (sh->offsets)
        g_byte_array_append(out, (const guint8 *)sh->offsets, (guint)(sizeof(int) * 2 * (size_t)sh->n));
    g_byte_array_append(out, (const guint8 *)sh->text, (guint)sh->length);
    return sh->font;
}

ucr_shaped *ucr_shaped_unpack(const guint8 **at)
{
    const guint8 *p = *at;
    packed_head h;
    memcpy(&h, p, sizeof h);
    p += sizeof h;
    ucr_shaped *sh = g_malloc0(sizeof *sh + sizeof(glyph_rec) * (size_t)h.n + (size_t)h.length + 1);
    sh->refs = 1;
    sh->n = h.n;
    sh->length = h.length;
    sh->num_chars = h.num_chars;
    sh->level = h.level;
    sh->gravity = h.gravity;
    sh->script_ok = h.script_ok;
    sh->script = h.script;
    sh->language = h.language;
    sh->font = h.font ? g_object_ref(h.font) : NULL;
    sh->size = h.size;
    sh->glyphs = (glyph_rec *)(void *)(sh + 1);
    sh->text = (char *)(sh->glyphs + h.n);
    memcpy(sh->glyphs, p, sizeof(glyph_rec) * (size_t)h.n);
    p += sizeof(glyph_rec) * (size_t)h.n;
    if (h.has_offsets) {
        sh->offsets = g_new(int, 2 * (size_t)h.n);
        memcpy(sh->offsets, p, sizeof(int) * 2 * (size_t)h.n);
        p += sizeof(int) * 2 * (size_t)h.n;
    }
    memcpy(sh->text, p, (size_t)h.length);
    p += h.length;
    *at = p;
    return sh;
}
