/* undercroft — the registry of node methods. */
#include <string.h>

#include "gen/grid_method.h"
#include "gen/method_clock.h"
#include "gen/method_leximorph.h"
#include "gen/method_numbered.h"
#include "gen/method_pips.h"
#include "gen/method_compass.h"
#include "gen/node_method.h"

/* The grid method through the common interface. */
static void *grid_roll(ucr_prng *rng, const bool join_sides[4], const ucr_tables *tables,
                       const ucr_method_options *options)
{
    (void)options;
    return ucr_grid_plan_roll(rng, join_sides, tables);
}

static void grid_exits(void *plan, GPtrArray *out)
{
    ucr_grid_plan_exits(plan, out);
}

static ucr_node *grid_embed(void *plan, const char *id, int col, int row, const ucr_node_request *req,
                            ucr_prng *rng, GError **error)
{
    return ucr_grid_embed(plan, id, col, row, req, rng, error);
}

static void grid_free(void *plan)
{
    ucr_grid_plan_free(plan);
}

static const ucr_node_method grid_method = {
    "grid", "004",
    "RDG 2.0 substructure: a 3x3 tunnel grid, 36 direction rolls on 2d6 with doubles",
    grid_roll, grid_exits, grid_embed, grid_free,
};

/* New methods are added here, in the order --method help lists them and the
 * mixed default rolls them. */
static const ucr_node_method *const methods[] = {
    &grid_method,
    &ucr_leximorph_method,
    &ucr_method_numbered,
    &ucr_method_pips,
    &ucr_method_clock,
    &ucr_method_tictactoe,
    &ucr_compass_method,
    NULL,
};

const ucr_node_method *const *ucr_node_methods(void)
{
    return methods;
}

const ucr_node_method *ucr_node_method_lookup(const char *name)
{
    for (int i = 0; methods[i]; i++)
        if (strcmp(methods[i]->name, name) == 0)
            return methods[i];
    return NULL;
}

char *ucr_node_method_names(void)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; methods[i]; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", methods[i]->name);
    return g_string_free(s, FALSE);
}
