/* undercroft tests — what most suites load first: the project's own dice
 * tables and fonts from the data directory, as the program loads them.
 * A suite that cannot load them fails there, naming what and why. */
#ifndef UCR_TEST_FIXTURE_H
#define UCR_TEST_FIXTURE_H

#include <check.h>
#include <glib.h>

#include "core/datadir.h"
#include "pipeline/pipeline.h"
#include "render/fonts.h"
#include "tables/table.h"

/** The tables in templates/tables (ucr_tables_free them). */
static inline ucr_tables *ucr_test_tables(void)
{
    GError *error = NULL;
    char *dir = g_build_filename(ucr_datadir(), "templates", "tables", NULL);
    ucr_tables *t = ucr_pipeline_tables_load(dir, NULL, &error);
    ck_assert_msg(t != NULL, "tables in %s: %s", dir, error ? error->message : "?");
    g_free(dir);
    return t;
}

/** A font map of the fonts in fonts/ (g_object_unref it). */
static inline PangoFontMap *ucr_test_fonts(void)
{
    GError *error = NULL;
    char *dir = g_build_filename(ucr_datadir(), "fonts", NULL);
    PangoFontMap *f = ucr_fonts_new(dir, &error);
    ck_assert_msg(f != NULL, "fonts in %s: %s", dir, error ? error->message : "?");
    g_free(dir);
    return f;
}

#endif
