#include "key/survey.h"

#include "key/honour.h"

#include <math.h>
#include <string.h>

enum { F_LOOPS, F_SHARE, F_LARGEST, F_CHOKE, F_DEAD, F_FARTHEST, F_UNREACH, F_LOOPED,
       F_ROOMS, F_ROOM_LOOPS, F_ROOM_LOOPED, F_HUB, F_POCKETS, F_FEW, F_COUNT };

typedef struct {
    long n;
    double sum[F_COUNT], sq[F_COUNT];
} group;

struct ucr_survey {
    GHashTable *groups;   /* method name (owned) → group* (owned) */
    group super;
    long dungeons;
    ucr_honour *honour;   /* what was drawn as rolled (key/honour.h) */
};

ucr_survey *ucr_survey_new(void)
{
    ucr_survey *s = g_new0(ucr_survey, 1);
    s->groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    s->honour = ucr_honour_new();
    return s;
}

void ucr_survey_declare(ucr_survey *survey, const char *method, const ucr_honour_rule *const *rules)
{
    ucr_honour_declare(survey->honour, method, rules);
}

void ucr_survey_free(ucr_survey *survey)
{
    if (!survey)
        return;
    g_hash_table_destroy(survey->groups);
    ucr_honour_free(survey->honour);
    g_free(survey);
}

/* @hubs: for a node 1 if it is a hub of landings (more than a quarter of its
 * areas), for the superstructure the number of such nodes. */
static void group_add(group *g, const ucr_stats *st, double farthest, double hubs)
{
    double v[F_COUNT] = { st->loops, st->loop_share, st->largest_loop, st->chokepoints,
                          st->dead_ends, farthest, st->unreachable, st->loops > 0,
                          st->rooms, st->room_loops, st->room_loops > 0, hubs, st->pockets, st->rooms < 4 };
    g->n++;
    for (int f = 0; f < F_COUNT; f++) {
        g->sum[f] += v[f];
        g->sq[f] += v[f] * v[f];
    }
}

void ucr_survey_add(ucr_survey *survey, const ucr_megadungeon *md)
{
    survey->dungeons++;
    ucr_honour_add(survey->honour, md);
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        const char *method = n->method ? n->method : "?";
        group *g = g_hash_table_lookup(survey->groups, method);
        if (!g) {
            g = g_new0(group, 1);
            g_hash_table_insert(survey->groups, g_strdup(method), g);
        }
        group_add(g, &n->stats, n->stats.farthest * 10.0, n->stats.landings * 4 > n->stats.areas);
    }
    group_add(&survey->super, &md->stats, md->stats.farthest, md->stats.hubs);
}

static void cell(GString *o, const group *g, int f, const char *fmt)
{
    double mean = g->sum[f] / g->n;
    double var = g->sq[f] / g->n - mean * mean;
    double sd = var > 0 ? sqrt(var) : 0;
    g_string_append(o, " | ");
    g_string_append_printf(o, fmt, mean, sd);
}

/* @rooms: the node rows, which have the room graph's figures too (loops per
 * room is the ratio of the sums: all loops over all rooms of the method). */
static void row(GString *o, const char *name, const group *g, const char *far_fmt, gboolean rooms)
{
    g_string_append_printf(o, "| %s | %ld", name, g->n);
    cell(o, g, F_LOOPS, "%.2f ± %.2f");
    g_string_append_printf(o, " | %.0f%%", 100.0 * g->sum[F_LOOPED] / g->n);
    if (rooms) {
        cell(o, g, F_ROOMS, "%.1f ± %.1f");
        /* Issue #22: no sublevel of fewer than 4 rooms; counted, not averaged. */
        g_string_append_printf(o, " | %.0f", g->sum[F_FEW]);
        cell(o, g, F_ROOM_LOOPS, "%.2f ± %.2f");
        g_string_append_printf(o, " | %.2f | %.0f%%",
                               g->sum[F_ROOMS] > 0 ? g->sum[F_ROOM_LOOPS] / g->sum[F_ROOMS] : 0.0,
                               100.0 * (1.0 - g->sum[F_ROOM_LOOPED] / g->n));
    } else {
        g_string_append(o, " | – | – | – | – | –");
    }
    cell(o, g, F_SHARE, "%.2f ± %.2f");
    cell(o, g, F_LARGEST, "%.2f ± %.2f");
    cell(o, g, F_CHOKE, "%.2f ± %.2f");
    cell(o, g, F_DEAD, "%.2f ± %.2f");
    cell(o, g, F_FARTHEST, far_fmt);
    cell(o, g, F_UNREACH, "%.2f ± %.2f");
    cell(o, g, F_POCKETS, "%.2f ± %.2f");
    if (rooms)
        g_string_append_printf(o, " | %.0f%%", 100.0 * g->sum[F_HUB] / g->n);
    else
        cell(o, g, F_HUB, "%.2f ± %.2f");
    g_string_append(o, " |\n");
}

char *ucr_survey_table(const ucr_survey *survey)
{
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "%ld megadungeons\n\n", survey->dungeons);
    g_string_append(o, "| method | nodes | loops | with a loop | rooms | under 4 rooms | room loops | "
                       "room loops per room | no room loop | loop share | largest loop | "
                       "chokepoints | dead ends | farthest | unreachable | pockets | landing hubs |\n"
                       "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                       "| ---: | ---: | ---: | ---: |\n");
    GList *names = g_list_sort(g_hash_table_get_keys(survey->groups), (GCompareFunc)strcmp);
    for (GList *l = names; l; l = l->next)
        row(o, l->data, g_hash_table_lookup(survey->groups, l->data), "%.0f ± %.0f ft", TRUE);
    g_list_free(names);
    if (survey->super.n)
        row(o, "*superstructure*", &survey->super, "%.2f ± %.2f tunnels", FALSE);
    g_string_append(o, "\npockets: parts of a node that no passage joins to its tunnels or entrance;\n"
                       "landing hubs: nodes with stair or ladder landings on more than a quarter of their\n"
                       "areas (superstructure: such nodes per megadungeon).\n");
    char *honour = ucr_honour_table(survey->honour);
    g_string_append_printf(o, "\n%s", honour);
    g_free(honour);
    return g_string_free(o, FALSE);
}
