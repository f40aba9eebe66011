#include "layout/style.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/datafile.h"
#include "core/error.h"
#include "render/fonts.h"

typedef enum { K_COLOR, K_NUMBER, K_INT, K_CHOICE, K_STRING } key_type;

/* One style key: where it lives in the struct and what it accepts. */
typedef struct {
    const char *group, *key;
    key_type type;
    size_t offset;
    double min, max;          /* K_NUMBER, K_INT */
    const char *choices[4];   /* K_CHOICE: the value is the index */
} key_spec;

#define OFF(f) offsetof(ucr_style, f)
static const key_spec KEYS[] = {
    { "style", "name", K_STRING, OFF(name), 0, 0, { 0 } },
    { "style", "description", K_STRING, OFF(description), 0, 0, { 0 } },
    { "paper", "colour", K_COLOR, OFF(paper), 0, 0, { 0 } },
    { "floor", "colour", K_COLOR, OFF(floor), 0, 0, { 0 } },
    { "grid", "colour", K_COLOR, OFF(grid), 0, 0, { 0 } },
    { "grid", "width", K_NUMBER, OFF(grid_width), 0.001, 0.2, { 0 } },
    { "grid", "where", K_CHOICE, OFF(grid_where), 0, 0, { "floor", "all", "none", NULL } },
    { "rock", "fill", K_CHOICE, OFF(rock_fill), 0, 0, { "solid", "hatch", "none", NULL } },
    { "rock", "colour", K_COLOR, OFF(rock), 0, 0, { 0 } },
    { "hatch", "colour", K_COLOR, OFF(hatch), 0, 0, { 0 } },
    { "hatch", "width", K_NUMBER, OFF(hatch_width), 0.005, 0.2, { 0 } },
    { "hatch", "band", K_NUMBER, OFF(hatch_band), 0.2, 3, { 0 } },
    { "hatch", "density", K_NUMBER, OFF(hatch_density), 0.2, 6, { 0 } },
    { "hatch", "length", K_NUMBER, OFF(hatch_length), 0.1, 1.5, { 0 } },
    { "walls", "colour", K_COLOR, OFF(wall), 0, 0, { 0 } },
    { "walls", "width", K_NUMBER, OFF(wall_width), 0.01, 0.4, { 0 } },
    { "walls", "strokes", K_INT, OFF(wall_strokes), 1, 2, { 0 } },
    { "walls", "wobble", K_NUMBER, OFF(wobble), 0, 0.3, { 0 } },
    { "walls", "bowing", K_NUMBER, OFF(bowing), 0, 3, { 0 } },
    { "walls", "overshoot", K_NUMBER, OFF(overshoot), 0, 0.4, { 0 } },
    { "symbols", "colour", K_COLOR, OFF(ink), 0, 0, { 0 } },
    { "symbols", "width", K_NUMBER, OFF(symbol_width), 0.01, 0.3, { 0 } },
    { "text", "hand-font", K_STRING, OFF(hand_font), 0, 0, { 0 } },
    { "text", "text-font", K_STRING, OFF(text_font), 0, 0, { 0 } },
    { "text", "colour", K_COLOR, OFF(text), 0, 0, { 0 } },
    { "text", "number-size", K_NUMBER, OFF(number_size), 0.3, 2, { 0 } },
    { "text", "label-size", K_NUMBER, OFF(label_size), 0.3, 2, { 0 } },
    { "text", "title-size", K_NUMBER, OFF(title_size), 0.5, 5, { 0 } },
};

/* The fonts a style may name: those shipped in fonts/.  Pango would quietly
 * substitute anything else, and the booklet embeds only these. */
static const char *const FONTS[] = { UCR_FONT_HAND, UCR_FONT_TEXT, NULL };

ucr_style *ucr_style_new_default(void)
{
    ucr_style *s = g_new0(ucr_style, 1);
    s->name = g_strdup(UCR_STYLE_DEFAULT);
    s->description = g_strdup("black and white ink, hatched rock");
    s->paper = (ucr_color){ 1, 1, 1, 1 };
    s->floor = (ucr_color){ 1, 1, 1, 1 };
    s->grid = (ucr_color){ 0.72, 0.72, 0.72, 1 };
    s->grid_width = 0.025;
    s->grid_where = UCR_GRID_FLOOR;
    s->rock_fill = UCR_ROCK_HATCH;
    s->rock = (ucr_color){ 0.8, 0.8, 0.8, 1 };
    s->hatch = (ucr_color){ 0.1, 0.1, 0.1, 1 };
    s->hatch_width = 0.035;
    s->hatch_band = 0.85;
    s->hatch_density = 4.5;
    s->hatch_length = 0.45;
    s->wall = (ucr_color){ 0, 0, 0, 1 };
    s->wall_width = 0.075;
    s->wall_strokes = 2;
    s->wobble = 0.05;
    s->bowing = 1;
    s->overshoot = 0.1;
    s->ink = (ucr_color){ 0, 0, 0, 1 };
    s->symbol_width = 0.05;
    s->hand_font = g_strdup(UCR_FONT_HAND);
    s->text_font = g_strdup(UCR_FONT_TEXT);
    s->text = (ucr_color){ 0, 0, 0, 1 };
    s->number_size = 0.75;
    s->label_size = 0.55;
    s->title_size = 1.8;
    return s;
}

void ucr_style_free(ucr_style *style)
{
    if (!style)
        return;
    g_free(style->name);
    g_free(style->description);
    g_free(style->hand_font);
    g_free(style->text_font);
    g_free(style);
}

static const key_spec *spec_find(const char *group, const char *key)
{
    for (size_t i = 0; i < G_N_ELEMENTS(KEYS); i++)
        if (!strcmp(KEYS[i].group, group) && (!key || !strcmp(KEYS[i].key, key)))
            return &KEYS[i];
    return NULL;
}

static char *known_keys(const char *group)
{
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(KEYS); i++)
        if (!strcmp(KEYS[i].group, group))
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", KEYS[i].key);
    return g_string_free(s, FALSE);
}

static char *known_groups(void)
{
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(KEYS); i++)
        if (i == 0 || strcmp(KEYS[i].group, KEYS[i - 1].group))
            g_string_append_printf(s, "%s[%s]", s->len ? ", " : "", KEYS[i].group);
    return g_string_free(s, FALSE);
}

/* Parses @value for @k into the style; on failure returns what is wrong. */
static char *key_set(ucr_style *st, const key_spec *k, const char *value)
{
    void *field = (char *)st + k->offset;
    switch (k->type) {
    case K_COLOR:
        if (!ucr_color_parse(value, field))
            return g_strdup_printf("'%s' is not a colour: use #rrggbb (or #rrggbbaa), e.g. #1a1a1a",
                                   value);
        return NULL;
    case K_NUMBER:
    case K_INT: {
        char *end;
        errno = 0;
        double v = g_ascii_strtod(value, &end);
        gboolean whole = k->type == K_INT;
        /* !(v >= min && v <= max) refuses nan too (every comparison with it
         * is false), and the range is checked before the (int) conversion,
         * which is undefined for a value out of int's range. */
        if (errno || end == value || *end || !isfinite(v) || !(v >= k->min && v <= k->max) ||
            (whole && v != (double)(int)v))
            return g_strdup_printf("'%s' is not %s from %g to %g", value,
                                   whole ? "a whole number" : "a number", k->min, k->max);
        if (whole)
            *(int *)field = (int)v;
        else
            *(double *)field = v;
        return NULL;
    }
    case K_CHOICE:
        for (int i = 0; k->choices[i]; i++)
            if (!strcmp(value, k->choices[i])) {
                *(int *)field = i;
                return NULL;
            }
        return g_strdup_printf("'%s' is not one of %s, %s%s%s", value, k->choices[0], k->choices[1],
                               k->choices[2] ? " or " : "", k->choices[2] ? k->choices[2] : "");
    case K_STRING:
        if (!strcmp(k->group, "text")) {
            for (int i = 0; FONTS[i]; i++)
                if (!strcmp(value, FONTS[i])) {
                    g_free(*(char **)field);
                    *(char **)field = g_strdup(value);
                    return NULL;
                }
            return g_strdup_printf("'%s' is not a shipped font: use \"%s\" or \"%s\"", value,
                                   FONTS[0], FONTS[1]);
        }
        g_free(*(char **)field);
        *(char **)field = g_strdup(value);
        return NULL;
    }
    return NULL;
}

ucr_style *ucr_style_load_file(const char *path, GError **error)
{
    char *contents = NULL;
    gsize length = 0;
    if (!ucr_datafile_read(path, "style file", &contents, &length, error))
        return NULL;
    ucr_style *st = ucr_style_parse(path, contents, length, error);
    g_free(contents);
    return st;
}

ucr_style *ucr_style_parse(const char *path, const char *text, gsize length, GError **error)
{
    GKeyFile *kf = g_key_file_new();
    GError *kerr = NULL;
    gboolean parsed = g_key_file_load_from_data(kf, text, length, G_KEY_FILE_NONE, &kerr);
    if (!parsed) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s: %s", path, kerr->message);
        g_error_free(kerr);
        g_key_file_free(kf);
        return NULL;
    }
    ucr_style *st = ucr_style_new_default();
    char *base = g_path_get_basename(path);
    if (g_str_has_suffix(base, ".ini"))
        base[strlen(base) - 4] = '\0';
    g_free(st->name);
    st->name = base;
    gsize ngroups;
    char **groups = g_key_file_get_groups(kf, &ngroups);
    char *problem = NULL;
    for (gsize g = 0; g < ngroups && !problem; g++) {
        if (!spec_find(groups[g], NULL)) {
            char *known = known_groups();
            problem = g_strdup_printf("%s: unknown group [%s]: the groups are %s", path, groups[g], known);
            g_free(known);
            break;
        }
        gsize nkeys;
        char **keys = g_key_file_get_keys(kf, groups[g], &nkeys, NULL);
        for (gsize k = 0; k < nkeys && !problem; k++) {
            const key_spec *spec = spec_find(groups[g], keys[k]);
            if (!spec) {
                char *known = known_keys(groups[g]);
                problem = g_strdup_printf("%s: key '%s.%s': unknown key; [%s] has %s", path, groups[g],
                                          keys[k], groups[g], known);
                g_free(known);
                break;
            }
            char *value = g_key_file_get_string(kf, groups[g], keys[k], NULL);
            char *wrong = value ? key_set(st, spec, g_strstrip(value)) : g_strdup("cannot be read");
            if (wrong)
                problem = g_strdup_printf("%s: key '%s.%s': %s", path, groups[g], keys[k], wrong);
            g_free(wrong);
            g_free(value);
        }
        g_strfreev(keys);
    }
    g_strfreev(groups);
    g_key_file_free(kf);
    if (problem) {
        g_set_error_literal(error, UCR_ERROR, UCR_ERROR_DATA, problem);
        g_free(problem);
        ucr_style_free(st);
        return NULL;
    }
    return st;
}

ucr_style *ucr_style_load(const char *name_or_path, const char *datadir, GError **error)
{
    if (strchr(name_or_path, '/') || g_str_has_suffix(name_or_path, ".ini"))
        return ucr_style_load_file(name_or_path, error);
    char *dir = g_build_filename(datadir, "templates", "styles", NULL);
    char *file = g_strconcat(name_or_path, ".ini", NULL);
    char *path = g_build_filename(dir, file, NULL);
    g_free(file);
    ucr_style *st = NULL;
    if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
        st = ucr_style_load_file(path, error);
    } else {
        /* Name the styles that are there, so the user can pick one. */
        char *list = ucr_datafile_ini_names(dir, NULL);
        if (list)
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                        "unknown --style '%s': use %s, or the path of a .ini style file", name_or_path, list);
        else
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                        "unknown --style '%s': no styles in %s; give the path of a .ini style file",
                        name_or_path, dir);
        g_free(list);
    }
    g_free(path);
    g_free(dir);
    return st;
}
