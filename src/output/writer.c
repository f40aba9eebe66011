/* undercroft — the writers (output/writer.h): each format's three
 * operations, then the one table of them. */
#include "output/writer.h"

#include <errno.h>
#include <string.h>

#include "core/batch.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/outfile.h"
#include "export/foundry.h"
#include "export/uvtt.h"
#include "layout/map.h"
#include "model/json.h"
#include "render/cairo_device.h"
#include "render/fonts.h"

/* ---- pdf: the booklet ----------------------------------------------------- */

static gboolean pdf_write(void *state, const ucr_megadungeon *md, const ucr_node *node,
                          const ucr_write_options *opt, const char *path, FILE *stream, GError **error)
{
    (void)state, (void)node, (void)path;
    ucr_booklet_options bo = { .style = opt->style, .page = opt->page, .player_maps = opt->player,
                               .show_dice = opt->show_dice };
    bo.node_id = opt->node_id;   /* a mini-zine's node: no other booklet takes --node */
    return ucr_pdf_write_booklet(md, &bo, opt->backend, opt->impose, stream, error);
}

/* ---- json: the model ------------------------------------------------------ */

static gboolean json_write(void *state, const ucr_megadungeon *md, const ucr_node *node,
                           const ucr_write_options *opt, const char *path, FILE *stream, GError **error)
{
    (void)state, (void)node, (void)opt;
    char *json = ucr_json_write(md);
    gboolean ok = fputs(json, stream) >= 0;
    g_free(json);
    if (!ok)
        g_set_error(error, UCR_ERROR, UCR_ERROR_IOERR, "cannot write '%s'", path);
    return ok;
}

/* ---- svg, png and uvtt: a map per node ------------------------------------ */

/* The fonts every map of a run is drawn with (DATADIR/fonts). */
static void *fonts_open(const ucr_write_options *opt, GError **error)
{
    (void)opt;
    char *fonts_dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *fonts = ucr_fonts_new(fonts_dir, error);
    g_free(fonts_dir);
    return fonts;
}

static void fonts_close(void *fonts)
{
    if (fonts)
        g_object_unref(fonts);
}

static gboolean map_write(PangoFontMap *fonts, ucr_cairo_format format, const ucr_megadungeon *md,
                          const ucr_node *node, const ucr_write_options *opt, FILE *stream, GError **error)
{
    double w, h;
    ucr_map_options mopt = { .player = opt->player };
    ucr_display_list *sheet = ucr_map_record_sheet_with(md, node, opt->style, fonts, &mopt, &w, &h);
    ucr_device *dev = ucr_cairo_device_new(format, stream, w, h, opt->dpi, fonts);
    ucr_display_list_replay(sheet, dev, NULL);
    gboolean ok = ucr_device_close(dev, error);
    ucr_device_free(dev);
    ucr_display_list_free(sheet);
    return ok;
}

static gboolean svg_write(void *fonts, const ucr_megadungeon *md, const ucr_node *node,
                          const ucr_write_options *opt, const char *path, FILE *stream, GError **error)
{
    (void)path;
    return map_write(fonts, UCR_CAIRO_SVG, md, node, opt, stream, error);
}

static gboolean png_write(void *fonts, const ucr_megadungeon *md, const ucr_node *node,
                          const ucr_write_options *opt, const char *path, FILE *stream, GError **error)
{
    (void)path;
    return map_write(fonts, UCR_CAIRO_PNG, md, node, opt, stream, error);
}

static gboolean uvtt_write(void *fonts, const ucr_megadungeon *md, const ucr_node *node,
                           const ucr_write_options *opt, const char *path, FILE *stream, GError **error)
{
    (void)path;
    ucr_uvtt_options vtt = { opt->grid_pixels ? opt->grid_pixels : UCR_UVTT_PPG_DEFAULT, opt->player };
    if (!ucr_uvtt_write(stream, md, node, opt->style, fonts, &vtt, error))
        return FALSE;
    if (fflush(stream) != 0 || ferror(stream)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write the file of node %s: %s", node->id,
                    g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

/* ---- foundry: a Foundry VTT scene per node, its image beside it --------- */

/* FILE.png for FILE.foundry.json (or FILE.json). */
static char *foundry_image_path(const char *path)
{
    gsize n = strlen(path);
    if (g_str_has_suffix(path, ".foundry.json"))
        n -= strlen(".foundry.json");
    else if (g_str_has_suffix(path, ".json"))
        n -= strlen(".json");
    char *stem = g_strndup(path, n), *image = g_strconcat(stem, ".png", NULL);
    g_free(stem);
    return image;
}

static int grid_pixels(const ucr_write_options *opt)
{
    return opt->grid_pixels ? opt->grid_pixels : UCR_UVTT_PPG_DEFAULT;
}

static gboolean stream_done(FILE *stream, const ucr_node *node, GError **error)
{
    if (fflush(stream) != 0 || ferror(stream)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write the file of node %s: %s", node->id,
                    g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

static gboolean foundry_write(void *fonts, const ucr_megadungeon *md, const ucr_node *node,
                              const ucr_write_options *opt, const char *path, FILE *stream, GError **error)
{
    (void)fonts;
    /* The scene names its image as the user's Foundry data will: beside it. */
    char *image = foundry_image_path(path), *base = g_path_get_basename(image);
    gboolean ok = ucr_foundry_write(stream, md, node, base, grid_pixels(opt), error) &&
                  stream_done(stream, node, error);
    g_free(base);
    g_free(image);
    return ok;
}

static gboolean foundry_image_write(void *fonts, const ucr_megadungeon *md, const ucr_node *node,
                                    const ucr_write_options *opt, const char *path, FILE *stream, GError **error)
{
    (void)path;
    return ucr_foundry_image_write(stream, md, node, opt->style, fonts, grid_pixels(opt), error) &&
           stream_done(stream, node, error);
}

/* ---- the table ------------------------------------------------------------- */

static const char *const PDF_EXT[] = { "pdf", NULL }, *const JSON_EXT[] = { "json", NULL },
                         *const SVG_EXT[] = { "svg", NULL }, *const PNG_EXT[] = { "png", NULL },
                         *const UVTT_EXT[] = { "uvtt", "dd2vtt", NULL },   /* the same Universal VTT JSON */
                         *const FOUNDRY_EXT[] = { "foundry.json", NULL };

static const ucr_writer WRITERS[] = {
    { "pdf", PDF_EXT, "PDF booklet", "booklet", FALSE,
      UCR_WRITER_BOOKLET | UCR_WRITER_STYLE | UCR_WRITER_PLAYER, NULL, pdf_write, NULL, NULL, NULL },
    { "json", JSON_EXT, "JSON model", "model", FALSE, 0, NULL, json_write, NULL, NULL, NULL },
    { "svg", SVG_EXT, "SVG map", "maps", TRUE, UCR_WRITER_STYLE | UCR_WRITER_PLAYER, fonts_open, svg_write,
      fonts_close, NULL, NULL },
    { "png", PNG_EXT, "PNG map", "maps", TRUE, UCR_WRITER_STYLE | UCR_WRITER_PLAYER | UCR_WRITER_DPI,
      fonts_open, png_write, fonts_close, NULL, NULL },
    { "uvtt", UVTT_EXT, "Universal VTT map", "virtual tabletop maps", TRUE,
      UCR_WRITER_STYLE | UCR_WRITER_PLAYER | UCR_WRITER_GRID, fonts_open, uvtt_write, fonts_close, NULL, NULL },
    /* The GM's scene (secret doors secret); its image shows what players may
     * see, so there is no --player form of it. */
    { "foundry", FOUNDRY_EXT, "Foundry VTT scene", "Foundry VTT scenes (and their .png images)", TRUE,
      UCR_WRITER_STYLE | UCR_WRITER_GRID, fonts_open, foundry_write, fonts_close, foundry_image_path,
      foundry_image_write },
};

static const ucr_writer *const WRITER_LIST[] = { &WRITERS[0], &WRITERS[1], &WRITERS[2], &WRITERS[3],
                                                 &WRITERS[4], &WRITERS[5], NULL };
G_STATIC_ASSERT(G_N_ELEMENTS(WRITER_LIST) == G_N_ELEMENTS(WRITERS) + 1);

const ucr_writer *const *ucr_writers(void)
{
    return WRITER_LIST;
}

const ucr_writer *ucr_writer_lookup(const char *name)
{
    for (gsize i = 0; i < G_N_ELEMENTS(WRITERS); i++) {
        if (!g_ascii_strcasecmp(name, WRITERS[i].name))
            return &WRITERS[i];
        for (const char *const *e = WRITERS[i].extensions; *e; e++)
            if (!g_ascii_strcasecmp(name, *e))
                return &WRITERS[i];
    }
    return NULL;
}

const ucr_writer *ucr_writer_for_path(const char *path)
{
    /* The longest extension that ends the name: ".foundry.json" before ".json". */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const ucr_writer *best = NULL;
    gsize best_len = 0, n = strlen(base);
    for (gsize i = 0; i < G_N_ELEMENTS(WRITERS); i++)
        for (const char *const *e = WRITERS[i].extensions; *e; e++) {
            gsize len = strlen(*e);
            if (len + 1 < n && len > best_len && base[n - len - 1] == '.' && !g_ascii_strcasecmp(base + n - len, *e)) {
                best = &WRITERS[i];
                best_len = len;
            }
        }
    return best;
}

char *ucr_writer_list(ucr_writer_list_of of, unsigned takes, gboolean per_node_only, const char *prefix,
                      const char *sep, const char *last)
{
    GPtrArray *items = g_ptr_array_new();
    for (gsize i = 0; i < G_N_ELEMENTS(WRITERS); i++)
        if ((WRITERS[i].takes & takes) == takes && (!per_node_only || WRITERS[i].per_node))
            g_ptr_array_add(items, (gpointer)(of == UCR_WRITER_LIST_NAMES ? WRITERS[i].name
                                                                          : WRITERS[i].extensions[0]));
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < items->len; i++)
        g_string_append_printf(s, "%s%s%s", i == 0 ? "" : i + 1 < items->len ? sep : last, prefix,
                               (const char *)g_ptr_array_index(items, i));
    g_ptr_array_free(items, TRUE);
    return g_string_free(s, FALSE);
}

char *ucr_writer_list_files(void)
{
    GString *s = g_string_new(NULL);
    for (gsize i = 0; i < G_N_ELEMENTS(WRITERS); i++) {
        gboolean group_starts = i == 0 || strcmp(WRITERS[i - 1].plural, WRITERS[i].plural) != 0;
        gboolean group_ends = i + 1 == G_N_ELEMENTS(WRITERS) || strcmp(WRITERS[i + 1].plural, WRITERS[i].plural);
        g_string_append(s, group_starts ? (i ? ", " : "") : " or ");
        for (const char *const *e = WRITERS[i].extensions; *e; e++)
            g_string_append_printf(s, "%s.%s", e == WRITERS[i].extensions ? "" : " or ", *e);
        if (group_ends)
            g_string_append_printf(s, " %s", WRITERS[i].plural);
    }
    return g_string_free(s, FALSE);
}

char **ucr_writer_targets(const ucr_writer *w, const char *path, const char *node_id, int nodes)
{
    GPtrArray *t = g_ptr_array_new();
    if (!w->per_node) {
        g_ptr_array_add(t, g_strdup(path));
    } else if (node_id) {
        g_ptr_array_add(t, ucr_pattern_node(path, node_id, true));
    } else {
        /* Node ids depend on the superstructure's size alone (row-major). */
        for (int i = 0; i < nodes; i++) {
            char *id = ucr_node_id_for_index(i);
            g_ptr_array_add(t, ucr_pattern_node(path, id, false));
            g_free(id);
        }
    }
    for (guint i = 0, n = t->len; w->companion_path && i < n; i++)
        g_ptr_array_add(t, w->companion_path(g_ptr_array_index(t, i)));
    g_ptr_array_add(t, NULL);
    return (char **)g_ptr_array_free(t, FALSE);
}

/* One file at @path: @node's, or the whole dungeon's (@node NULL), kept
 * open in @outs until every file is written; FALSE with @error set. */
static gboolean file_write(const ucr_writer *w, void *state, const ucr_megadungeon *md, const ucr_node *node,
                           const char *path, const ucr_write_options *opt, GPtrArray *outs, GError **error)
{
    ucr_outfile *out = ucr_outfile_open(path, error);
    if (!out)
        return FALSE;
    if (!w->write(state, md, node, opt, path, ucr_outfile_stream(out), error)) {
        ucr_outfile_abort_error(out, error);   /* the writer's error, or why the write failed */
        return FALSE;
    }
    g_ptr_array_add(outs, out);
    if (!w->companion_path)
        return TRUE;
    char *second = w->companion_path(path);
    ucr_outfile *beside = ucr_outfile_open(second, error);
    gboolean ok = beside != NULL;
    if (ok && !w->companion_write(state, md, node, opt, second, ucr_outfile_stream(beside), error)) {
        ucr_outfile_abort_error(beside, error);
        ok = FALSE;
    } else if (ok) {
        g_ptr_array_add(outs, beside);
    }
    g_free(second);
    return ok;
}

gboolean ucr_writer_write(const ucr_writer *w, const ucr_megadungeon *md, const char *path,
                          const ucr_write_options *opt, GError **error)
{
    void *state = NULL;
    if (w->open && !(state = w->open(opt, error)))
        return FALSE;
    GPtrArray *outs = g_ptr_array_new();
    gboolean ok = TRUE;
    if (!w->per_node)
        ok = file_write(w, state, md, NULL, path, opt, outs, error);
    for (guint i = 0; w->per_node && i < md->nodes->len && ok; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        if (opt->node_id && strcmp(n->id, opt->node_id))
            continue;
        char *p = ucr_pattern_node(path, n->id, opt->node_id != NULL);
        ok = file_write(w, state, md, n, p, opt, outs, error);
        g_free(p);
    }
    /* Renamed into place only when every one is complete, all together. */
    if (ok && outs->len == 1)
        ok = ucr_outfile_commit(g_ptr_array_index(outs, 0), error);
    else if (ok)
        ok = ucr_outfile_commit_all((ucr_outfile **)outs->pdata, outs->len, error);
    else
        g_ptr_array_foreach(outs, (GFunc)(void (*)(void))ucr_outfile_abort, NULL);
    g_ptr_array_free(outs, TRUE);
    if (w->close)
        w->close(state);
    return ok;
}
