#include "core/cli.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/printable.h"

static const GOptionEntry *cli_entry(const GOptionEntry *entries, const char *long_name,
                                     gsize long_len, char short_name)
{
    for (const GOptionEntry *e = entries; e->long_name; e++)
        if (long_name ? strlen(e->long_name) == long_len && !strncmp(e->long_name, long_name, long_len)
                      : e->short_name == short_name)
            return e;
    return NULL;
}

static gboolean cli_is_text(const GOptionEntry *e)
{
    return e && e->arg != G_OPTION_ARG_NONE && e->arg != G_OPTION_ARG_FILENAME &&
           e->arg != G_OPTION_ARG_FILENAME_ARRAY && e->arg != G_OPTION_ARG_CALLBACK;
}

/* The value of text option --@name: UTF-8 (refused rather than used as
 * bytes: the seed and the word are printed in the booklet and the JSON
 * model, which are UTF-8), printable (core/printable.h) and at most
 * UCR_CLI_TEXT_MAX bytes (libharu fails on a string of 65,535). */
static gboolean cli_check_text(const char *name, const char *value, GError **error)
{
    const char *bad;
    if (!g_utf8_validate(value, -1, &bad)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                    "bad --%s: byte %d (0x%02x) is not UTF-8; give the text in UTF-8 (any "
                    "language works, e.g. --%s Zauberküche)",
                    name, (int)(bad - value) + 1, (unsigned char)*bad, name);
        return FALSE;
    }
    size_t len = strlen(value);
    if (len > UCR_CLI_TEXT_MAX) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --%s: it is %zu bytes long; the limit is %d",
                    name, len, UCR_CLI_TEXT_MAX);
        return FALSE;
    }
    char why[UCR_PRINTABLE_WHY_MAX];
    int column;
    if (!ucr_printable_check(value, -1, NULL, &column, why)) {
        g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --%s: character %d: %s; give printable text",
                    name, column, why);
        return FALSE;
    }
    return TRUE;
}

static const ucr_cli_range *cli_range(const ucr_cli_range *ranges, const char *name)
{
    for (const ucr_cli_range *r = ranges; r && r->name; r++)
        if (!strcmp(r->name, name))
            return r;
    return NULL;
}

/* An integer option's value: decimal, within its range (GLib would take
 * "0x10" and "010" as 16 and 8, and our callers took 0 as "not given"). */
static gboolean cli_check_int(const char *name, const char *value, const ucr_cli_range *range, GError **error)
{
    long min = range ? range->min : INT_MIN, max = range ? range->max : INT_MAX;
    const char *digits = value + (*value == '-' || *value == '+');
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (g_ascii_isdigit(*digits) && !*end && !errno && v >= min && v <= max)
        return TRUE;
    g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE, "bad --%s %s: expected a whole number from %ld to %ld",
                name, value, min, max);
    return FALSE;
}

/* GLib cannot tell an invalid argument from one in another charset: it
 * refuses both, naming no option.  So we look first, the way GLib will
 * read the arguments: --name=VALUE, --name VALUE, -xVALUE, -x VALUE. */
static gboolean cli_check_values(const GOptionEntry *entries, const ucr_cli_range *ranges, int argc, char **argv,
                                 GError **error)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        const GOptionEntry *e = NULL;
        if (!strcmp(arg, "--"))
            break;
        if (!strncmp(arg, "--", 2)) {
            const char *eq = strchr(arg, '=');
            e = cli_entry(entries, arg + 2, eq ? (gsize)(eq - arg - 2) : strlen(arg + 2), 0);
            if (!cli_is_text(e))
                continue;
            value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        } else if (arg[0] == '-' && arg[1]) {
            e = cli_entry(entries, NULL, 0, arg[1]);
            if (!cli_is_text(e))
                continue;
            value = arg[2] ? arg + 2 : (i + 1 < argc ? argv[++i] : NULL);
        }
        if (value && !cli_check_text(e->long_name, value, error))
            return FALSE;
        if (value && e->arg == G_OPTION_ARG_INT &&
            !cli_check_int(e->long_name, value, cli_range(ranges, e->long_name), error))
            return FALSE;
    }
    return TRUE;
}

gboolean ucr_cli_source_date(GError **error)
{
    const char *env = g_getenv("SOURCE_DATE_EPOCH");
    if (!env || !*env)
        return TRUE;
    char *end;
    errno = 0;
    long long v = strtoll(env, &end, 10);
    if (g_ascii_isdigit(*env) && !*end && !errno && v >= 0 && v <= UCR_SOURCE_DATE_MAX)
        return TRUE;
    g_set_error(error, UCR_ERROR, UCR_ERROR_USAGE,
                "bad SOURCE_DATE_EPOCH '%s': expected a whole number of seconds since 1970 from 0 to "
                "%lld (9999-12-31 23:59:59 UTC), or unset it",
                env, UCR_SOURCE_DATE_MAX);
    return FALSE;
}

gboolean ucr_cli_parse_ranged(GOptionContext *ctx, const GOptionEntry *entries, const ucr_cli_range *ranges,
                              int *argc, char ***argv, GError **error)
{
    /* Only LC_CTYPE, and always the same one: LC_NUMERIC stays "C" (the
     * decimal point of every number we print) and no output can vary with
     * the user's locale.  C.UTF-8 is built into glibc since 2.35; on a libc
     * without it GLib takes the charset from $CHARSET. */
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        g_setenv("CHARSET", "UTF-8", TRUE);
    if (!cli_check_values(entries, ranges, *argc, *argv, error))
        return FALSE;
    if (!g_option_context_parse(ctx, argc, argv, error))
        return FALSE;
    return ucr_cli_source_date(error);
}

gboolean ucr_cli_parse(GOptionContext *ctx, const GOptionEntry *entries, int *argc, char ***argv,
                       GError **error)
{
    return ucr_cli_parse_ranged(ctx, entries, NULL, argc, argv, error);
}
