#include "render/fonts.h"

#include <string.h>

#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>

#include "core/error.h"

/* g_ptr_array_sort hands over pointers to the elements. */
static gint path_order(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

PangoFontMap *ucr_fonts_new(const char *fonts_dir, GError **error)
{
    /* Fonts are added file by file: adding a whole folder would make
     * fontconfig try to write a cache, and we write nothing but the output. */
    GDir *dir = g_dir_open(fonts_dir, 0, NULL);
    if (!dir) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "cannot open the fonts folder '%s'", fonts_dir);
        return NULL;
    }
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(dir)))
        if (g_str_has_suffix(name, ".ttf") || g_str_has_suffix(name, ".otf"))
            g_ptr_array_add(files, g_build_filename(fonts_dir, name, NULL));
    g_dir_close(dir);
    g_ptr_array_sort(files, path_order);   /* same order on every machine */
    FcConfig *config = FcConfigCreate();
    int loaded = 0;
    for (guint i = 0; i < files->len; i++)
        loaded += FcConfigAppFontAddFile(config, g_ptr_array_index(files, i)) ? 1 : 0;
    g_ptr_array_free(files, TRUE);
    if (!loaded) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "no usable fonts in '%s'", fonts_dir);
        FcConfigDestroy(config);
        return NULL;
    }
    PangoFontMap *map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
    FcConfigDestroy(config);   /* the font map holds its own reference */
    return map;
}
