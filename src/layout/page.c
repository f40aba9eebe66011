#include "layout/page.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/datafile.h"
#include "core/error.h"

#define MM (72.0 / 25.4)
/* The default whole-square: a map's numbers stay at the template's map
 * text size however small the square, and at 2.5 mm (an A4 page's 3.5 mm
 * photo-reduced to A5) its doors, stairs and traps still read. */
#define WHOLE_SQUARE (2.5 * MM)

typedef enum { K_MM, K_PT, K_INT, K_BOOL, K_CHOICE, K_STRING } key_type;

/* One template key: where it lives and what it accepts. */
typedef struct {
    const char *group, *key;
    key_type type;
    size_t offset;
    double min, max;
    const char *choices[4];
} key_spec;

#define OFF(f) offsetof(ucr_page_template, f)
static const key_spec KEYS[] = {
    { "page", "name", K_STRING, OFF(name), 0, 0, { 0 } },
    { "page", "description", K_STRING, OFF(description), 0, 0, { 0 } },
    { "page", "width", K_MM, OFF(width), 70, 1200, { 0 } },
    { "page", "height", K_MM, OFF(height), 70, 1200, { 0 } },
    { "page", "margin-top", K_MM, OFF(margin_top), 3, 60, { 0 } },
    { "page", "margin-bottom", K_MM, OFF(margin_bottom), 3, 60, { 0 } },
    { "page", "margin-inner", K_MM, OFF(margin_inner), 3, 60, { 0 } },
    { "page", "margin-outer", K_MM, OFF(margin_outer), 3, 60, { 0 } },
    { "page", "folded", K_BOOL, OFF(folded), 0, 0, { 0 } },
    { "text", "title", K_PT, OFF(title_pt), UCR_PAGE_MIN_BODY_PT, 120, { 0 } },
    { "text", "heading", K_PT, OFF(heading_pt), UCR_PAGE_MIN_BODY_PT, 72, { 0 } },
    { "text", "body", K_PT, OFF(body_pt), UCR_PAGE_MIN_BODY_PT, 24, { 0 } },
    { "text", "small", K_PT, OFF(small_pt), UCR_PAGE_MIN_TEXT_PT, 24, { 0 } },
    { "key", "columns", K_INT, OFF(key_columns), 1, 2, { 0 } },
    { "map", "text", K_PT, OFF(map_text_pt), UCR_PAGE_MIN_TEXT_PT, 24, { 0 } },
    { "map", "min-square", K_MM, OFF(min_square), 2, 30, { 0 } },
    { "map", "whole-square", K_MM, OFF(whole_square), 2, 30, { 0 } },
    { "map", "wide", K_CHOICE, OFF(wide), 0, 0, { "landscape", "spread", "portrait", NULL } },
};

static ucr_page_template *template_new_default(void)
{
    ucr_page_template *t = g_new0(ucr_page_template, 1);
    t->name = g_strdup("A4");
    t->description = g_strdup("ISO A4 (210 × 297 mm)");
    t->width = 210 * MM;
    t->height = 297 * MM;
    t->margin_top = t->margin_bottom = 14 * MM;
    t->margin_inner = 16 * MM;
    t->margin_outer = 14 * MM;
    t->title_pt = 44;
    t->heading_pt = 16;
    t->body_pt = 9;
    t->small_pt = 7.5;
    t->key_columns = 2;
    t->map_text_pt = 8.5;
    t->min_square = 4 * MM;
    t->whole_square = WHOLE_SQUARE;
    t->wide = UCR_WIDE_LANDSCAPE;
    return t;
}

void ucr_page_template_free(ucr_page_template *t)
{
    if (!t)
        return;
    g_free(t->name);
    g_free(t->description);
    g_free(t);
}

static const key_spec *spec_find(const char *group, const char *key)
{
    for (size_t i = 0; i < G_N_ELEMENTS(KEYS); i++)
        if (!strcmp(KEYS[i].group, group) && (!key || !strcmp(KEYS[i].key, key)))
            return &KEYS[i];
    return NULL;
}

static char *known(const char *group)
{
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(KEYS); i++) {
        if (group ? strcmp(KEYS[i].group, group) != 0 : (i > 0 && !strcmp(KEYS[i].group, KEYS[i - 1].group)))
            continue;
        if (group)
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", KEYS[i].key);
        else
            g_string_append_printf(s, "%s[%s]", s->len ? ", " : "", KEYS[i].group);
    }
    return g_string_free(s, FALSE);
}

/* The line of @key in @group (of the group itself when @key is NULL), for
 * messages: GKeyFile keeps no line numbers.  A key set twice is read from
 * its last line (GKeyFile keeps the last value), so that is its line. */
int ucr_keyfile_line(const char *text, gsize length, const char *group, const char *key)
{
    int line = 1, found = 0;
    gboolean in_group = FALSE;
    const char *p = text, *end = text + length;
    while (p < end && !(found && !key)) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        size_t n = (size_t)(eol - q);
        if (n > 0 && *q == '[') {
            size_t gl = strlen(group);
            in_group = n >= gl + 2 && !strncmp(q + 1, group, gl) && q[gl + 1] == ']';
            if (in_group && !key)
                found = line;
        } else if (in_group && key) {
            size_t kl = strlen(key);
            if (n > kl && !strncmp(q, key, kl) && (q[kl] == '=' || q[kl] == ' ' || q[kl] == '\t'))
                found = line;
        }
        line++;
        p = eol + 1;
    }
    return found ? found : 1;
}

/* Parses @value for @k into @t; on failure returns what is wrong. */
static char *key_set(ucr_page_template *t, const key_spec *k, const char *value)
{
    void *field = (char *)t + k->offset;
    switch (k->type) {
    case K_MM:
    case K_PT:
    case K_INT: {
        char *end;
        errno = 0;
        double v = g_ascii_strtod(value, &end);
        gboolean whole = k->type == K_INT;
        /* isfinite first: NaN passes every comparison. */
        if (errno || end == value || *end || !isfinite(v) || v < k->min || v > k->max ||
            (whole && v != floor(v)))
            return g_strdup_printf("'%s' is not %s from %g to %g%s", value,
                                   whole ? "a whole number" : "a number", k->min, k->max,
                                   k->type == K_MM ? " (millimetres)" : k->type == K_PT ? " (points)" : "");
        if (whole)
            *(int *)field = (int)v;
        else
            *(double *)field = k->type == K_MM ? v * MM : v;
        return NULL;
    }
    case K_BOOL:
        if (!strcmp(value, "true") || !strcmp(value, "false")) {
            *(bool *)field = value[0] == 't';
            return NULL;
        }
        return g_strdup_printf("'%s' is not true or false", value);
    case K_CHOICE:
        for (int i = 0; k->choices[i]; i++)
            if (!strcmp(value, k->choices[i])) {
                *(int *)field = i;
                return NULL;
            }
        return g_strdup_printf("'%s' is not one of %s, %s or %s", value, k->choices[0], k->choices[1],
                               k->choices[2]);
    case K_STRING:
        if (!*value || strlen(value) > 200 || !g_utf8_validate(value, -1, NULL))
            return g_strdup_printf("expected some text (UTF-8, at most 200 bytes)");
        g_free(*(char **)field);
        *(char **)field = g_strdup(value);
        return NULL;
    }
    return NULL;
}

/* The page must leave room to lay anything out: a block of at least 50 ×
 * 80 mm, a key column of at least UCR_PAGE_MIN_COLUMN_EM body-size ems (a
 * narrower one breaks a key into a word a line, thousands of pages), and a
 * map part of at least UCR_PAGE_MIN_MAP_SQUARES squares each way at
 * min-square (fewer, and one node's map goes in dozens of parts).  Sets
 * @group and @key to where the value to change is. */
static char *check_block(const ucr_page_template *t, const char **group, const char **key)
{
    double bw = t->width - t->margin_inner - t->margin_outer;
    double bh = t->height - t->margin_top - t->margin_bottom;
    *group = "page";
    *key = NULL;
    if (bw < 50 * MM || bh < 80 * MM)
        return g_strdup_printf("the margins leave %.0f × %.0f mm to print on: at least 50 × 80 mm is "
                               "needed", bw / MM, bh / MM);
    /* as layout/booklet.c flows the key */
    double gap = t->body_pt * 1.6, column = (bw - gap * (t->key_columns - 1)) / t->key_columns;
    if (column < UCR_PAGE_MIN_COLUMN_EM * t->body_pt) {
        *group = "text", *key = "body";
        return g_strdup_printf("%g pt text in %d key column%s %.0f mm wide makes lines of %.1f ems: at least %d "
                               "are needed (smaller text, narrower margins or fewer columns)",
                               t->body_pt, t->key_columns, t->key_columns > 1 ? "s" : "", column / MM,
                               floor(column / t->body_pt * 10) / 10, UCR_PAGE_MIN_COLUMN_EM);
    }
    double across = bw / t->min_square + 1e-9, down = bh / t->min_square + 1e-9;   /* 180 / 9 is 20 */
    if (MIN(across, down) < UCR_PAGE_MIN_MAP_SQUARES) {
        *group = "map", *key = "min-square";
        return g_strdup_printf("%g mm squares on %.0f × %.0f mm hold %.0f × %.0f squares of a map: a map part "
                               "needs at least %d × %d (at most %.1f mm squares here)",
                               t->min_square / MM, bw / MM, bh / MM, floor(across), floor(down),
                               UCR_PAGE_MIN_MAP_SQUARES, UCR_PAGE_MIN_MAP_SQUARES,
                               floor(MIN(bw, bh) / UCR_PAGE_MIN_MAP_SQUARES / MM * 10) / 10);
    }
    return NULL;
}

/* Every key of @kf set on @t; the first problem as "FILE:LINE: …" (owned),
 * or NULL. */
static char *keys_read(ucr_page_template *t, GKeyFile *kf, const char *path, const char *text, gsize length)
{
    gsize ngroups;
    char **groups = g_key_file_get_groups(kf, &ngroups);
    char *problem = NULL;
    for (gsize g = 0; g < ngroups && !problem; g++) {
        if (!spec_find(groups[g], NULL)) {
            char *k = known(NULL);
            problem = g_strdup_printf("%s:%d: unknown group [%s]: the groups are %s", path,
                                      ucr_keyfile_line(text, length, groups[g], NULL), groups[g], k);
            g_free(k);
            break;
        }
        gsize nkeys;
        char **keys = g_key_file_get_keys(kf, groups[g], &nkeys, NULL);
        for (gsize k = 0; k < nkeys && !problem; k++) {
            const key_spec *spec = spec_find(groups[g], keys[k]);
            int line = ucr_keyfile_line(text, length, groups[g], keys[k]);
            if (!spec) {
                char *kn = known(groups[g]);
                problem = g_strdup_printf("%s:%d: unknown key '%s' in [%s]: it has %s", path, line,
                                          keys[k], groups[g], kn);
                g_free(kn);
                break;
            }
            char *value = g_key_file_get_string(kf, groups[g], keys[k], NULL);
            char *wrong = value ? key_set(t, spec, g_strstrip(value)) : g_strdup("cannot be read");
            if (wrong)
                problem = g_strdup_printf("%s:%d: %s.%s: %s", path, line, groups[g], keys[k], wrong);
            g_free(wrong);
            g_free(value);
        }
        g_strfreev(keys);
    }
    g_strfreev(groups);
    return problem;
}

ucr_page_template *ucr_page_template_parse(const char *path, const char *text, gsize length,
                                           GError **error)
{
    GKeyFile *kf = g_key_file_new();
    GError *kerr = NULL;
    if (memchr(text, '\0', length) || !g_key_file_load_from_data(kf, text, length, G_KEY_FILE_NONE, &kerr)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_DATA, "%s: %s", path,
                    kerr ? kerr->message : "a NUL byte: not a text file");
        g_clear_error(&kerr);
        g_key_file_free(kf);
        return NULL;
    }
    ucr_page_template *t = template_new_default();
    char *base = g_path_get_basename(path);
    if (g_str_has_suffix(base, ".ini"))
        base[strlen(base) - 4] = '\0';
    g_free(t->name);
    t->name = base;
    char *problem = keys_read(t, kf, path, text, length);
    if (!problem) {
        /* Shrinking a map to keep it whole never stops above the square its
         * parts are drawn at; the default follows a smaller min-square. */
        if (!g_key_file_has_key(kf, "map", "whole-square", NULL))
            t->whole_square = MIN(t->whole_square, t->min_square);
        else if (t->whole_square > t->min_square + 1e-9)
            problem = g_strdup_printf("%s:%d: map.whole-square: %g mm is above min-square (%g mm): a map is "
                                      "shrunk below the square of its parts to stay on one page, not above",
                                      path, ucr_keyfile_line(text, length, "map", "whole-square"),
                                      t->whole_square / MM, t->min_square / MM);
    }
    if (!problem) {
        const char *group, *key;
        char *wrong = check_block(t, &group, &key);
        /* the line of the value to change, or its group's */
        int line = g_key_file_has_key(kf, group, key ? key : "", NULL) ? ucr_keyfile_line(text, length, group, key)
                                                                      : ucr_keyfile_line(text, length, group, NULL);
        if (wrong)
            problem = g_strdup_printf("%s:%d: %s%s%s%s%s", path, line, key ? group : "", key ? "." : "",
                                      key ? key : "", key ? ": " : "", wrong);
        g_free(wrong);
    }
    g_key_file_free(kf);
    if (problem) {
        g_set_error_literal(error, UCR_ERROR, UCR_ERROR_DATA, problem);
        g_free(problem);
        ucr_page_template_free(t);
        return NULL;
    }
    return t;
}

static ucr_page_template *load_file(const char *path, GError **error)
{
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_NOINPUT, "%s: no such page template", path);
        return NULL;
    }
    /* Only a regular file of at most 1 MiB is read (a FIFO would be read
     * forever, a folder not at all): core/datafile.c. */
    char *text;
    gsize length;
    if (!ucr_datafile_read(path, "page template", &text, &length, error))
        return NULL;
    ucr_page_template *t = ucr_page_template_parse(path, text, length, error);
    g_free(text);
    return t;
}

ucr_page_template *ucr_page_template_load(const char *name_or_path, const char *datadir,
                                          GError **error)
{
    if (strchr(name_or_path, '/') || g_str_has_suffix(name_or_path, ".ini"))
        return load_file(name_or_path, error);
    char *dir = g_build_filename(datadir, "templates", "pages", NULL);
    char *lower = g_ascii_strdown(name_or_path, -1);
    char *file = g_strconcat(lower, ".ini", NULL);
    char *path = g_build_filename(dir, file, NULL);
    g_free(file);
    ucr_page_template *t = NULL;
    gboolean plain = strspn(lower, "abcdefghijklmnopqrstuvwxyz0123456789-_") == strlen(lower);
    if (plain && *lower && g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
        t = load_file(path, error);
    } else {
        char *list = ucr_datafile_ini_names(dir, NULL);
        if (list)
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                        "unknown --paper '%s': use %s, or the path of a .ini page template", name_or_path, list);
        else
            g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                        "unknown --paper '%s': no page templates in %s; give the path of a .ini page template",
                        name_or_path, dir);
        g_free(list);
    }
    g_free(lower);
    g_free(path);
    g_free(dir);
    return t;
}
