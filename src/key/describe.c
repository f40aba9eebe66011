#include "key/describe.h"

#include <string.h>

static const char *area_title(const ucr_area *a)
{
    switch (a->kind) {
    case UCR_AREA_ROOM: return "Room";
    case UCR_AREA_JUNCTION: return "Intersection";
    default:
        switch (a->stair) {
        case UCR_STAIR_UP: return "Stairs up";
        case UCR_LADDER_DOWN: return "Ladder down";
        case UCR_LADDER_UP: return "Ladder up";
        default: return "Stairs down";
        }
    }
}

char *ucr_key_link_target(const ucr_megadungeon *md, const ucr_link *l)
{
    if (l->exit == UCR_EXIT_SURFACE)
        return g_strdup("the surface");
    if (l->exit == UCR_EXIT_BELOW)
        return g_strdup("below");
    const ucr_node *t = g_ptr_array_index(md->nodes, l->to_node);
    return g_strdup_printf("%s-%d", t->id, g_array_index(t->areas, ucr_area, l->to_area).key);
}

/* Where passage @p leads when left by its end @from_vertex. */
static char *passage_destination(const ucr_megadungeon *md, const ucr_node *n, const ucr_passage *p,
                                 int from_vertex)
{
    int other = p->a == from_vertex ? p->b : p->a;
    const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, other);
    int feet = (int)p->cells->len * 10;
    const char *prefix = p->kind == UCR_EDGE_BLOCKED ? "a collapsed passage" : "a passage";
    if (v->kind == UCR_VERTEX_AREA) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, v->area);
        return g_strdup_printf("%s (%d ft) to %d", prefix, feet, a->key);
    }
    if (v->kind == UCR_VERTEX_DEAD_END)
        return g_strdup_printf("%s that ends in rock after %d ft", prefix, feet);
    const ucr_vertex *here = &g_array_index(n->vertices, ucr_vertex, from_vertex);
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area != here->area || !l->has_side)
            continue;
        char *t = ucr_key_link_target(md, l);
        char *s = l->kind == UCR_LINK_ENTRANCE
                      ? g_strdup_printf("the way out: %s (%s)", l->via, ucr_dir_name(l->side))
                      : g_strdup_printf("the long tunnel to node %s (%s; %s)", t, ucr_dir_name(l->side),
                                        l->via);
        g_free(t);
        return s;
    }
    return g_strdup_printf("%s that leaves the map and is collapsed beyond", prefix);
}

static const char *link_phrase(ucr_link_kind k)
{
    switch (k) {
    case UCR_LINK_STAIRS_DOWN: return "Stairs down";
    case UCR_LINK_STAIRS_UP: return "Stairs up";
    case UCR_LINK_LADDER_DOWN: return "A ladder down";
    case UCR_LINK_LADDER_UP: return "A ladder up";
    default: return "The way";
    }
}

/* "a door", "a secret door", or what the door table rolled for it. */
static char *door_phrase(const ucr_node *n, guint d)
{
    const ucr_door *dr = &g_array_index(n->doors, ucr_door, d);
    if (dr->kind == UCR_DOOR_SECRET)
        return g_strdup("a secret door");
    if (n->door_stock && d < n->door_stock->len) {
        const ucr_door_stock *ds = &g_array_index(n->door_stock, ucr_door_stock, d);
        if (ds->detail)
            return g_strdup(ds->detail);
    }
    switch (dr->kind) {
    case UCR_DOOR_LOCKED: return g_strdup("a locked door");
    case UCR_DOOR_TRAPPED: return g_strdup("a trapped door");
    default: return g_strdup("a door");
    }
}

static const char *contents_label(const char *kind)
{
    if (!kind)
        return NULL;
    static const struct { const char *kind, *label; } labels[] = {
        { "monster", "Monster." }, { "trap", "Trap." }, { "special", "Special." },
        { "treasure", "Treasure." }, { "obstacle", "Obstacle." },
    };
    for (gsize i = 0; i < G_N_ELEMENTS(labels); i++)
        if (strcmp(kind, labels[i].kind) == 0)
            return labels[i].label;
    return NULL;
}

static void append_escaped(GString *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void append_escaped(GString *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = g_markup_vprintf_escaped(fmt, ap);
    va_end(ap);
    g_string_append(s, m);
    g_free(m);
}

char *ucr_key_area_markup(const ucr_megadungeon *md, const ucr_node *n, int area, gboolean show_dice)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    GString *s = g_string_new(NULL);
    append_escaped(s, "<b>%d. %s</b>", a->key, area_title(a));
    if (a->kind == UCR_AREA_ROOM && a->diamond)   /* seed 003 */
        g_string_append_printf(s, ", a diamond %d ft from corner to corner", a->w * 10);
    else if (a->kind == UCR_AREA_ROOM)
        g_string_append_printf(s, ", %d × %d ft", a->w * 10, a->h * 10);
    g_string_append(s, ". ");
    if (a->shape)
        append_escaped(s, "<i>%s</i> ", a->shape);
    /* Contents: always for rooms; elsewhere only when something is there. */
    if (a->contents && (a->kind == UCR_AREA_ROOM || g_strcmp0(a->contents_kind, "empty") != 0)) {
        const char *label = contents_label(a->contents_kind);
        if (label)
            append_escaped(s, "<b>%s</b> ", label);
        append_escaped(s, "%s ", a->contents);
    }
    if (a->kind == UCR_AREA_STAIRS && a->link < 0)
        g_string_append(s, "The tunnel changes level here and goes on. ");
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area != area || l->has_side)
            continue;
        if (l->kind == UCR_LINK_ENTRANCE) {
            append_escaped(s, "<b>Entrance:</b> %s. ", l->via);
        } else if (l->exit == UCR_EXIT_SURFACE) {
            g_string_append_printf(s, "%s to the surface. ", link_phrase(l->kind));
        } else if (l->exit == UCR_EXIT_BELOW) {
            g_string_append_printf(s, "%s to the levels below (not in this booklet). ", link_phrase(l->kind));
        } else {
            char *target = ucr_key_link_target(md, l);
            const ucr_node *tn = g_ptr_array_index(md->nodes, l->to_node);
            append_escaped(s, "%s to <b>%s</b> (level %d). ", link_phrase(l->kind), target, tn->depth);
            g_free(target);
        }
    }
    /* Exits, by the wall they leave from. */
    GString *ex = g_string_new(NULL);
    int count = 0;
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (int end = 0; end < 2; end++) {
            int vtx = end == 0 ? p->a : p->b;
            if (vtx != area || (end == 1 && p->a == p->b))
                continue;
            ucr_point c = g_array_index(p->cells, ucr_point, end == 0 ? 0 : p->cells->len - 1);
            ucr_dir side = c.y < a->y ? UCR_NORTH : c.y >= a->y + a->h ? UCR_SOUTH
                           : c.x < a->x ? UCR_WEST : UCR_EAST;
            char *door = NULL;
            for (guint d = 0; d < n->doors->len; d++) {
                const ucr_door *dr = &g_array_index(n->doors, ucr_door, d);
                if (dr->area == area && (guint)dr->passage == i) {
                    g_free(door);
                    door = door_phrase(n, d);
                }
            }
            char *dest = passage_destination(md, n, p, vtx);
            append_escaped(ex, "%s%s: %s%s%s", count ? "; " : "", ucr_dir_name(side), door ? door : "",
                           door ? " to " : "", dest);
            g_free(door);
            g_free(dest);
            count++;
        }
    }
    if (count)
        g_string_append_printf(s, "Exits — %s.", ex->str);
    else if (a->link < 0)
        g_string_append(s, "No exits: reached only by the stairs above, or not at all.");
    g_string_free(ex, TRUE);
    if (a->unreachable)
        append_escaped(s, " <i>No route from the surface reaches it: %s.</i>", a->unreachable);
    GString *rolled = g_string_new(NULL);
    if (a->rolled && a->kind != UCR_AREA_JUNCTION)
        g_string_append(rolled, a->rolled);
    if (a->stocked)
        g_string_append_printf(rolled, "%s%s", rolled->len ? "; " : "", a->stocked);
    if (rolled->len && show_dice)
        append_escaped(s, "\n<span size='smaller' foreground='#555555'>Rolled: %s</span>", rolled->str);
    g_string_free(rolled, TRUE);
    return g_string_free(s, FALSE);
}

static const char *plural(int n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

char *ucr_key_node_stats_markup(const ucr_node *n)
{
    const ucr_stats *st = &n->stats;
    GString *s = g_string_new(NULL);
    g_string_append_printf(s,
                           "<b>%d</b> areas · <b>%d</b> passages · <b>%d</b> %s · <b>%d</b> %s on a loop "
                           "(%d%%) · largest loop <b>%d</b> %s · <b>%d</b> %s · <b>%d</b> dead %s",
                           st->areas, st->passages, st->loops, plural(st->loops, "loop", "loops"),
                           st->on_loop, plural(st->on_loop, "area", "areas"),
                           (int)(st->loop_share * 100 + 0.5), st->largest_loop,
                           plural(st->largest_loop, "area", "areas"), st->chokepoints,
                           plural(st->chokepoints, "chokepoint", "chokepoints"), st->dead_ends,
                           plural(st->dead_ends, "end", "ends"));
    if (st->farthest_area >= 0) {
        const ucr_area *far = &g_array_index(n->areas, ucr_area, st->farthest_area);
        const ucr_area *entry = &g_array_index(n->areas, ucr_area, n->entry_area);
        g_string_append_printf(s, " · from the entry (%d) the farthest area is <b>%d</b>, %d ft of passage away",
                               entry->key, far->key, st->farthest * 10);
    }
    if (st->secret_only)
        g_string_append_printf(s, " · <b>%d</b> %s only through secret doors", st->secret_only,
                               plural(st->secret_only, "area reached", "areas reached"));
    if (st->unreachable) {
        g_string_append_printf(s, " · <b>%d</b> unreachable:", st->unreachable);
        int k = 0;
        for (guint i = 0; i < n->areas->len; i++) {
            const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
            if (a->unreachable)
                append_escaped(s, "%s %d (%s)", k++ ? ";" : "", a->key, a->unreachable);
        }
    } else {
        g_string_append(s, " · every area can be reached");
    }
    return g_string_free(s, FALSE);
}

char *ucr_key_super_stats_markup(const ucr_megadungeon *md)
{
    const ucr_stats *st = &md->stats;
    GString *s = g_string_new(NULL);
    g_string_append_printf(s,
                           "<b>Superstructure:</b> %d nodes, %d open tunnels, %d %s, %d %s on a loop "
                           "(%d%%), largest loop %d %s, %d %s, %d dead %s",
                           st->areas, st->edges, st->loops, plural(st->loops, "loop", "loops"),
                           st->on_loop, plural(st->on_loop, "node", "nodes"),
                           (int)(st->loop_share * 100 + 0.5), st->largest_loop,
                           plural(st->largest_loop, "node", "nodes"), st->chokepoints,
                           plural(st->chokepoints, "chokepoint", "chokepoints"), st->dead_ends,
                           plural(st->dead_ends, "end", "ends"));
    if (st->farthest_area >= 0) {
        const ucr_node *far = g_ptr_array_index(md->nodes, st->farthest_area);
        g_string_append_printf(s, "; the farthest node by tunnel from the entrance is %s, %d %s away",
                               far->id, st->farthest, plural(st->farthest, "tunnel", "tunnels"));
    }
    g_string_append(s, ".");
    return g_string_free(s, FALSE);
}

void ucr_key_area_row(const ucr_megadungeon *md, const ucr_node *n, int area, ucr_key_row *row)
{
    (void)md;
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    row->what = a->kind == UCR_AREA_ROOM ? g_strdup_printf("%s, %d × %d ft", area_title(a), a->w * 10, a->h * 10)
                                         : g_strdup(area_title(a));
    const char *k = a->contents_kind ? a->contents_kind : "";
    row->who = g_strdup(!strcmp(k, "monster") && a->contents ? a->contents : "");
    row->trap = g_strdup(!strcmp(k, "trap") && a->contents ? a->contents : "");
    row->treasure = g_strdup(!strcmp(k, "treasure") && a->contents ? a->contents : "");
    row->exits = g_strdup("");
}

void ucr_key_row_clear(ucr_key_row *row)
{
    g_free(row->what);
    g_free(row->who);
    g_free(row->trap);
    g_free(row->treasure);
    g_free(row->exits);
    memset(row, 0, sizeof *row);
}

char *ucr_key_node_intro_markup(const ucr_megadungeon *md, const ucr_node *n)
{
    (void)md;
    return g_markup_printf_escaped("Level %d, drawn by the %s method.", n->depth, n->method);
}
