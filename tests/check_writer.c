/* The writer table (output/writer.c): every format is found by its name and
 * by each of its extensions, and every list of formats that the help and the
 * messages print is made from the table, so none leaves a format out
 * (before the table, the --format help and "no output file" forgot uvtt).
 * tests/e2e.sh checks the same lists in the program's own output. */
#include <check.h>
#include <glib.h>
#include <string.h>

#include "check_run.h"
#include "output/writer.h"

START_TEST(every_writer_is_found_by_name_and_extension)
{
    int n = 0;
    for (const ucr_writer *const *w = ucr_writers(); *w; w++, n++) {
        ck_assert_ptr_eq(ucr_writer_lookup((*w)->name), *w);
        char *upper = g_ascii_strup((*w)->name, -1);
        ck_assert_ptr_eq(ucr_writer_lookup(upper), *w);
        g_free(upper);
        ck_assert_ptr_nonnull((*w)->extensions[0]);
        for (const char *const *e = (*w)->extensions; *e; e++) {
            ck_assert_ptr_eq(ucr_writer_lookup(*e), *w);
            char *path = g_strdup_printf("some.dir/dungeon.%s", *e);
            ck_assert_ptr_eq(ucr_writer_for_path(path), *w);
            g_free(path);
        }
        ck_assert_ptr_nonnull((*w)->write);
    }
    ck_assert_int_eq(n, 6);
    ck_assert_ptr_eq(ucr_writer_lookup("dd2vtt"), ucr_writer_lookup("uvtt"));
    /* The longest extension wins: a Foundry scene, not a JSON model. */
    ck_assert_ptr_eq(ucr_writer_for_path("vtt/A.foundry.json"), ucr_writer_lookup("foundry"));
    ck_assert_ptr_eq(ucr_writer_for_path("vtt/foundry.json"), ucr_writer_lookup("json"));
    ck_assert_ptr_null(ucr_writer_lookup("docx"));
    ck_assert_ptr_null(ucr_writer_for_path("dungeon.txt"));
    ck_assert_ptr_null(ucr_writer_for_path("some.pdf/dungeon"));
    ck_assert_ptr_null(ucr_writer_for_path("-"));
}
END_TEST

/* @list holds every writer's name (or usual extension) that @keep keeps, in
 * the table's order, each after @prefix, and nothing else. */
static void assert_list(const char *list, const char *prefix, gboolean names, unsigned takes,
                        gboolean per_node_only)
{
    const char *at = list;
    int listed = 0;
    for (const ucr_writer *const *w = ucr_writers(); *w; w++) {
        gboolean kept = ((*w)->takes & takes) == takes && (!per_node_only || (*w)->per_node);
        char *item = g_strconcat(prefix, names ? (*w)->name : (*w)->extensions[0], NULL);
        const char *found = strstr(at, item);
        if (kept) {
            ck_assert_msg(found != NULL, "'%s' lacks %s", list, item);
            at = found + strlen(item);
            listed++;
        }
        g_free(item);
    }
    char **words = g_strsplit_set(list, ",/| ", -1);
    int n = 0;
    for (char **w = words; *w; w++)
        n += **w && strcmp(*w, "or") && strcmp(*w, "and");
    g_strfreev(words);
    ck_assert_msg(n == listed, "'%s' lists %d, the table %d", list, n, listed);
}

START_TEST(the_lists_agree_with_the_table)
{
    char *names = ucr_writer_list(UCR_WRITER_LIST_NAMES, 0, FALSE, "", ", ", " or ");
    ck_assert_str_eq(names, "pdf, json, svg, png, uvtt or foundry");   /* the --format help and message */
    assert_list(names, "", TRUE, 0, FALSE);
    char *files = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, 0, FALSE, "FILE.", ", ", " or ");
    assert_list(files, "FILE.", FALSE, 0, FALSE);   /* "no output file" */
    char *maps = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, 0, TRUE, ".", "/", "/");
    ck_assert_str_eq(maps, ".svg/.png/.uvtt/.foundry.json");
    assert_list(maps, ".", FALSE, 0, TRUE);   /* --node, --player */
    char *player = ucr_writer_list(UCR_WRITER_LIST_EXTENSIONS, UCR_WRITER_PLAYER, TRUE, ".", "/", "/");
    assert_list(player, ".", FALSE, UCR_WRITER_PLAYER, TRUE);
    char *bars = ucr_writer_list(UCR_WRITER_LIST_NAMES, 0, FALSE, "", "|", "|");
    assert_list(bars, "", TRUE, 0, FALSE);
    g_free(names);
    g_free(files);
    g_free(maps);
    g_free(player);
    g_free(bars);
}
END_TEST

START_TEST(the_output_help_names_every_extension)
{
    char *files = ucr_writer_list_files();
    ck_assert_str_eq(files, ".pdf booklet, .json model, .svg or .png maps, .uvtt or .dd2vtt virtual tabletop maps, "
                            ".foundry.json Foundry VTT scenes (and their .png images)");
    for (const ucr_writer *const *w = ucr_writers(); *w; w++)
        for (const char *const *e = (*w)->extensions; *e; e++) {
            char *ext = g_strdup_printf(".%s ", *e);
            ck_assert_msg(strstr(files, ext) != NULL, "'%s' lacks %s", files, ext);
            g_free(ext);
        }
    g_free(files);
}
END_TEST

START_TEST(per_node_writers_name_a_file_per_node)
{
    const ucr_writer *svg = ucr_writer_lookup("svg"), *pdf = ucr_writer_lookup("pdf");
    char **t = ucr_writer_targets(svg, "out/map.svg", NULL, 3);
    ck_assert_uint_eq(g_strv_length(t), 3);
    ck_assert_str_eq(t[0], "out/map-A.svg");
    ck_assert_str_eq(t[2], "out/map-C.svg");
    g_strfreev(t);
    t = ucr_writer_targets(svg, "out/{node}.svg", "B", 3);
    ck_assert_uint_eq(g_strv_length(t), 1);
    ck_assert_str_eq(t[0], "out/B.svg");
    g_strfreev(t);
    t = ucr_writer_targets(pdf, "out/d.pdf", NULL, 9);
    ck_assert_uint_eq(g_strv_length(t), 1);
    ck_assert_str_eq(t[0], "out/d.pdf");
    g_strfreev(t);
}
END_TEST

static Suite *writer_suite(void)
{
    Suite *s = suite_create("writer");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, every_writer_is_found_by_name_and_extension);
    tcase_add_test(tc, the_lists_agree_with_the_table);
    tcase_add_test(tc, the_output_help_names_every_extension);
    tcase_add_test(tc, per_node_writers_name_a_file_per_node);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ucr_check_run(writer_suite());
}
