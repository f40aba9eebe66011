/* undercroft — a Foundry VTT scene (see foundry.h). */
#include "export/foundry.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "export/uvtt.h"
#include "model/json.h"

/* Foundry's constants (CONST.WALL_DOOR_TYPES, DOOR_STATES,
 * WALL_SENSE_TYPES, WALL_MOVEMENT_TYPES, GRID_TYPES) since version 10. */
enum { DOOR_NONE = 0, DOOR_DOOR = 1, DOOR_SECRET = 2 };
enum { STATE_CLOSED = 0, STATE_LOCKED = 2 };
enum { SENSE_NORMAL = 20, MOVE_NORMAL = 20, GRID_SQUARE = 1 };

ucr_map_options ucr_foundry_image_options(void)
{
    return (ucr_map_options){ .player = true, .bare = true, .all_areas = true, .no_numbers = true };
}

/* One wall from (@x0, @y0) to (@x1, @y1), squares of the image, in pixels
 * (whole numbers: Foundry's wall coordinates are integers). */
static void put_wall(GString *s, bool *first, double x0, double y0, double x1, double y1, int ppg, int door,
                     int state)
{
    g_string_append_printf(s, "%s\n    {\"c\": [%ld, %ld, %ld, %ld], \"move\": %d, \"sight\": %d, \"light\": %d, "
                              "\"sound\": %d, \"door\": %d, \"ds\": %d}",
                           *first ? "" : ",", lround(x0 * ppg), lround(y0 * ppg), lround(x1 * ppg),
                           lround(y1 * ppg), MOVE_NORMAL, SENSE_NORMAL, SENSE_NORMAL, SENSE_NORMAL, door, state);
    *first = false;
}

/* Door @d's edge, in the model's squares. */
static void door_edge(const ucr_node *node, const ucr_door *d, double e[4])
{
    const ucr_area *a = &g_array_index(node->areas, ucr_area, d->area);
    if (d->side == UCR_NORTH || d->side == UCR_SOUTH) {
        double y = d->side == UCR_NORTH ? a->y : a->y + a->h;
        e[0] = d->cell.x, e[1] = y, e[2] = d->cell.x + 1, e[3] = y;
    } else {
        double x = d->side == UCR_WEST ? a->x : a->x + a->w;
        e[0] = x, e[1] = d->cell.y, e[2] = x, e[3] = d->cell.y + 1;
    }
}

static void put_walls(GString *s, const ucr_node *node, const ucr_map_plan *plan, int ppg)
{
    double ox = plan->shown.x0, oy = plan->shown.y0;
    bool first = true;
    g_string_append(s, "  \"walls\": [");
    for (guint i = 0; i < plan->walls->len; i++) {
        const ucr_map_segment *w = &g_array_index(plan->walls, ucr_map_segment, i);
        put_wall(s, &first, w->x0 - ox, w->y0 - oy, w->x1 - ox, w->y1 - oy, ppg, DOOR_NONE, STATE_CLOSED);
    }
    for (guint i = 0; i < plan->doors->len; i++) {
        const ucr_door *d = &g_array_index(node->doors, ucr_door, g_array_index(plan->doors, int, i));
        double e[4];
        door_edge(node, d, e);
        put_wall(s, &first, e[0] - ox, e[1] - oy, e[2] - ox, e[3] - oy, ppg,
                 d->kind == UCR_DOOR_SECRET ? DOOR_SECRET : DOOR_DOOR,
                 d->kind == UCR_DOOR_LOCKED ? STATE_LOCKED : STATE_CLOSED);
    }
    g_string_append(s, first ? "],\n" : "\n  ],\n");
}

gboolean ucr_foundry_write(FILE *out, const ucr_megadungeon *md, const ucr_node *node, const char *image, int ppg,
                           GError **error)
{
    /* The game master's walls and doors: every area, every door. */
    ucr_map_options gm = { .bare = true };
    ucr_map_plan *plan = ucr_map_plan_new(node, &gm);
    if (!ucr_vtt_fits(node, plan->shown, ppg, error)) {
        ucr_map_plan_free(plan);
        return FALSE;
    }
    GString *s = g_string_new("{\n  \"name\": ");
    char *name = g_strdup_printf("%s, node %s", md->name ? md->name : md->seed, node->id);
    ucr_json_string(s, name);
    g_free(name);
    g_string_append_printf(s, ",\n  \"width\": %d,\n  \"height\": %d,\n  \"padding\": 0,\n",
                           (int)(plan->shown.x1 - plan->shown.x0) * ppg, (int)(plan->shown.y1 - plan->shown.y0) * ppg);
    g_string_append(s, "  \"background\": {\"src\": ");
    ucr_json_string(s, image);
    g_string_append_printf(s, "},\n  \"grid\": {\"type\": %d, \"size\": %d, \"distance\": 10, \"units\": \"ft\"},\n",
                           GRID_SQUARE, ppg);
    g_string_append(s, "  \"tokenVision\": true,\n");
    put_walls(s, node, plan, ppg);
    /* Where the image's corner lies in the model (JSON) squares. */
    g_string_append(s, "  \"flags\": {\"undercroft\": {\"seed\": ");
    ucr_json_string(s, md->seed);
    g_string_append_printf(s, ", \"node\": \"%s\", \"origin\": [%d, %d]}}\n}\n", node->id, (int)plan->shown.x0,
                           (int)plan->shown.y0);
    ucr_map_plan_free(plan);
    gboolean ok = fputs(s->str, out) >= 0;
    g_string_free(s, TRUE);
    if (!ok)
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write the scene of node %s: %s", node->id,
                    g_strerror(errno));
    return ok;
}

gboolean ucr_foundry_image_write(FILE *out, const ucr_megadungeon *md, const ucr_node *node,
                                 const ucr_style *style, PangoFontMap *fonts, int ppg, GError **error)
{
    ucr_map_options mo = ucr_foundry_image_options();
    ucr_map_plan *plan = ucr_map_plan_new(node, &mo);
    ucr_rect shown = plan->shown;
    ucr_map_plan_free(plan);
    if (!ucr_vtt_fits(node, shown, ppg, error))
        return FALSE;
    size_t len = 0;
    char *png = ucr_vtt_map_png(md, node, style, fonts, &mo, shown, ppg, &len, error);
    if (!png)
        return FALSE;
    gboolean ok = fwrite(png, 1, len, out) == len;
    free(png);
    if (!ok)
        g_set_error(error, UCR_ERROR, UCR_ERROR_CANTCREAT, "cannot write the image of node %s: %s", node->id,
                    g_strerror(errno));
    return ok;
}
