#include "model/json.h"

void ucr_json_string(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\r': g_string_append(out, "\\r"); break;
        case '\t': g_string_append(out, "\\t"); break;
        default:
            if (*p < 0x20)
                g_string_append_printf(out, "\\u%04x", *p);
            else
                g_string_append_c(out, (char)*p);
        }
    }
    g_string_append_c(out, '"');
}

static void key_str(GString *o, const char *key, const char *value)
{
    g_string_append_printf(o, "\"%s\": ", key);
    ucr_json_string(o, value);
}

/* The figures every stats object has; the caller adds its own keys and the
 * closing brace.  loop_share is printed with three decimals so that the file
 * stays byte-identical across machines. */
static void stats_write(GString *o, const ucr_stats *s, const char *unit)
{
    g_string_append_printf(o,
                           "{ \"areas\": %d, \"passages\": %d, \"vertices\": %d, \"edges\": %d, "
                           "\"components\": %d, \"loops\": %d, \"chokepoints\": %d, "
                           "\"bridges\": %d, \"dead_ends\": %d, \"unreachable\": %d,\n        "
                           "\"on_loop\": %d, \"loop_share\": %.3f, \"largest_loop\": %d, "
                           "\"secret_only\": %d, \"farthest\": %d, \"farthest_unit\": \"%s\"",
                           s->areas, s->passages, s->vertices, s->edges, s->components, s->loops,
                           s->chokepoints, s->bridges, s->dead_ends, s->unreachable, s->on_loop,
                           s->loop_share, s->largest_loop, s->secret_only, s->farthest, unit);
}

static int area_key(const ucr_node *n, int area)
{
    return g_array_index(n->areas, ucr_area, area).key;
}

/* Door position: the middle of the wall edge it sits on. */
static void door_at(const ucr_node *n, const ucr_door *d, double *x, double *y)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, d->area);
    switch (d->side) {
    case UCR_NORTH: *x = d->cell.x + 0.5; *y = a->y; break;
    case UCR_SOUTH: *x = d->cell.x + 0.5; *y = a->y + a->h; break;
    case UCR_WEST: *x = a->x; *y = d->cell.y + 0.5; break;
    default: *x = a->x + a->w; *y = d->cell.y + 0.5; break;
    }
}

/* A diamond room (seed 003): its outline, the diamond inscribed in its
 * square with a one-square flat at each tip, clockwise from the north tip. */
static void diamond_polygon(GString *o, const ucr_area *a)
{
    int r = a->w / 2, cx = a->x + r, cy = a->y + r;
    g_string_append_printf(o, "\"polygon\": [[%d, %d], [%d, %d], [%d, %d], [%d, %d], [%d, %d], [%d, %d], "
                              "[%d, %d], [%d, %d]], ",
                           cx, a->y, cx + 1, a->y, a->x + a->w, cy, a->x + a->w, cy + 1, cx + 1, a->y + a->h, cx,
                           a->y + a->h, a->x, cy + 1, a->x, cy);
}

/* A monster: its name, how many and their hit points (when placed), and
 * every column of its table row, as written. */
static void monster_write(GString *o, const ucr_monster *m)
{
    g_string_append(o, "{ ");
    key_str(o, "name", m->name);
    if (m->fields) {
        g_string_append(o, ", ");
        key_str(o, "plural", m->plural);
        g_string_append(o, ", ");
        key_str(o, "appearing", m->appearing);
    }
    if (m->count > 0)
        g_string_append_printf(o, ", \"count\": %d", m->count);
    if (m->hp) {
        g_string_append(o, ", \"hp\": [");
        for (guint k = 0; k < m->hp->len; k++)
            g_string_append_printf(o, "%s%d", k ? ", " : "", g_array_index(m->hp, int, k));
        g_string_append(o, "]");
    }
    if (m->doing && *m->doing) {
        g_string_append(o, ", ");
        key_str(o, "doing", m->doing);
    }
    if (m->stats) {
        g_string_append(o, ", ");
        key_str(o, "stats", m->stats);
    }
    if (m->fields) {
        g_string_append(o, ", \"fields\": { ");
        for (guint k = 0; k < m->fields->len; k++) {
            const ucr_field *f = &g_array_index(m->fields, ucr_field, k);
            if (k)
                g_string_append(o, ", ");
            key_str(o, f->key, f->value);
        }
        g_string_append(o, " }");
    }
    g_string_append(o, " }");
}

/* The node's id, place, name and wandering monsters. */
static void node_head_write(GString *o, const ucr_node *n)
{
    g_string_append(o, "    {\n      ");
    key_str(o, "id", n->id);
    g_string_append(o, ", ");
    key_str(o, "method", n->method);
    g_string_append_printf(o, ", \"depth\": %d, \"column\": %d, \"row\": %d,\n", n->depth, n->col, n->row);
    if (n->name) {
        g_string_append(o, "      ");
        key_str(o, "name", n->name);
        g_string_append(o, ", \"theme\": ");
        if (n->theme)
            ucr_json_string(o, n->theme);
        else
            g_string_append(o, "null");
        g_string_append_printf(o, ", \"treasure_gp\": %d,\n", n->treasure_gp);
    }
    if (n->wandering) {
        g_string_append(o, "      \"wandering\": { ");
        key_str(o, "check", n->wandering_check);
        g_string_append(o, ", ");
        key_str(o, "dice", n->wandering_dice);
        g_string_append(o, ", \"rows\": [");
        for (guint k = 0; k < n->wandering->len; k++) {
            const ucr_wandering_row *w = &g_array_index(n->wandering, ucr_wandering_row, k);
            g_string_append_printf(o, "%s\n        { \"lo\": %d, \"hi\": %d, \"monster\": ", k ? "," : "", w->lo, w->hi);
            monster_write(o, &w->monster);
            g_string_append(o, " }");
        }
        g_string_append(o, "\n      ] },\n");
    }
}

/* An area's stock: what the key says it holds. */
static void area_stock_write(GString *o, const ucr_area *a)
{
    g_string_append(o, ",\n          \"stock\": { ");
    key_str(o, "kind", a->contents_kind);
    g_string_append(o, ", ");
    key_str(o, "contents", a->contents);
    if (a->shape) {
        g_string_append(o, ", ");
        key_str(o, "shape", a->shape);
    }
    g_string_append_printf(o, ", \"monster\": %s, \"trap\": %s, \"treasure\": %s, ",
                           a->stock & UCR_STOCK_MONSTER ? "true" : "false",
                           a->stock & UCR_STOCK_TRAP ? "true" : "false",
                           a->stock & UCR_STOCK_TREASURE ? "true" : "false");
    key_str(o, "rolled", a->stocked);
    if (a->monsters && a->monsters->len) {
        g_string_append(o, ",\n            \"monsters\": [");
        for (guint k = 0; k < a->monsters->len; k++) {
            g_string_append(o, k ? ", " : "");
            monster_write(o, &g_array_index(a->monsters, ucr_monster, k));
        }
        g_string_append(o, "]");
    }
    if (a->treasure && a->treasure->len) {
        g_string_append(o, ",\n            \"treasures\": [");
        for (guint k = 0; k < a->treasure->len; k++) {
            const ucr_treasure *t = &g_array_index(a->treasure, ucr_treasure, k);
            g_string_append(o, k ? ", { " : "{ ");
            key_str(o, "text", t->text);
            g_string_append_printf(o, ", \"gp\": %d }", t->value);
        }
        g_string_append(o, "]");
    }
    g_string_append_printf(o, ", \"treasure_gp\": %d", a->treasure_gp);
    if (a->trap) {
        g_string_append(o, ", ");
        key_str(o, "trap_text", a->trap);
    }
    g_string_append(o, " }");
}

static void areas_write(GString *o, const ucr_node *n)
{
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        g_string_append_printf(o, "%s\n        { \"key\": %d, \"kind\": \"%s\", \"level\": %d, ", i ? "," : "",
                               a->key, ucr_area_kind_name(a->kind), a->level);
        if (a->diamond)
            diamond_polygon(o, a);
        else
            g_string_append_printf(o, "\"polygon\": [[%d, %d], [%d, %d], [%d, %d], [%d, %d]], ", a->x, a->y,
                                   a->x + a->w, a->y, a->x + a->w, a->y + a->h, a->x, a->y + a->h);
        g_string_append_printf(o, "\"x\": %d, \"y\": %d, \"w\": %d, \"h\": %d", a->x, a->y, a->w, a->h);
        if (a->stair != UCR_STAIR_NONE)
            g_string_append_printf(o, ", \"stairs\": \"%s\"", ucr_stair_name(a->stair));
        if (a->diamond)
            g_string_append(o, ", \"diamond\": true");
        if (a->trapdoor)
            g_string_append(o, ", \"trapdoor\": true");
        if (a->feature != UCR_FEATURE_NONE)
            g_string_append_printf(o, ", \"feature\": \"%s\"", ucr_area_feature_name(a->feature));
        if (a->rolled) {
            g_string_append(o, ", ");
            key_str(o, "rolled", a->rolled);
        }
        if (a->contents)
            area_stock_write(o, a);
        g_string_append(o, " }");
    }
}

/* Stretches of passage @p that run under or over another element (seed 000). */
static void crossings_write(GString *o, const ucr_node *n, const ucr_passage *p)
{
    g_string_append(o, ", \"crossings\": [");
    for (guint k = 0; k < p->crossings->len; k++) {
        const ucr_crossing *x = &g_array_index(p->crossings, ucr_crossing, k);
        g_string_append_printf(o, "%s{ \"kind\": \"%s\", \"cells\": [", k ? ", " : "",
                               ucr_cross_kind_name(x->kind));
        for (int c = x->first; c <= x->last; c++) {
            ucr_point q = g_array_index(p->cells, ucr_point, c);
            g_string_append_printf(o, "%s[%d, %d]", c > x->first ? ", " : "", q.x, q.y);
        }
        if (x->area >= 0)
            g_string_append_printf(o, "], \"area\": %d }", area_key(n, x->area));
        else
            g_string_append_printf(o, "], \"passage\": %d }", x->passage);
    }
    g_string_append(o, "]");
}

static void passages_write(GString *o, const ucr_node *n)
{
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        g_string_append_printf(o, "%s\n        { \"path\": [", i ? "," : "");
        for (guint k = 0; k < p->cells->len; k++) {
            ucr_point c = g_array_index(p->cells, ucr_point, k);
            g_string_append_printf(o, "%s[%d.5, %d.5]", k ? ", " : "", c.x, c.y);
        }
        g_string_append_printf(o, "], \"width\": 1, \"kind\": \"%s\", \"from\": %d, \"to\": %d",
                               ucr_edge_kind_name(p->kind), p->a, p->b);
        if (p->rubble >= 0) {
            ucr_point c = g_array_index(p->cells, ucr_point, p->rubble);
            g_string_append_printf(o, ", \"rubble\": [%d, %d]", c.x, c.y);
        }
        if (p->stairs->len) {
            g_string_append(o, ", \"stairs\": [");
            for (guint k = 0; k < p->stairs->len; k++) {
                const ucr_passage_stairs *ps = &g_array_index(p->stairs, ucr_passage_stairs, k);
                ucr_point c = g_array_index(p->cells, ucr_point, ps->index);
                g_string_append_printf(o, "%s{ \"at\": [%d, %d], \"kind\": \"%s\" }", k ? ", " : "",
                                       c.x, c.y, ucr_stair_name(ps->stair));
            }
            g_string_append(o, "]");
        }
        if (p->crossings && p->crossings->len)
            crossings_write(o, n, p);
        g_string_append(o, " }");
    }
}

static void doors_write(GString *o, const ucr_node *n)
{
    for (guint i = 0; i < n->doors->len; i++) {
        const ucr_door *d = &g_array_index(n->doors, ucr_door, i);
        double x, y;
        door_at(n, d, &x, &y);
        g_string_append_printf(o, "%s\n        { \"at\": [%g, %g], \"kind\": \"%s\", \"area\": %d, "
                               "\"passage\": %d, \"side\": \"%s\", \"cell\": [%d, %d]",
                               i ? "," : "", x, y, ucr_door_kind_name(d->kind), area_key(n, d->area),
                               d->passage, ucr_dir_name(d->side), d->cell.x, d->cell.y);
        const ucr_door_stock *ds = n->door_stock && i < n->door_stock->len
                                       ? &g_array_index(n->door_stock, ucr_door_stock, i) : NULL;
        if (ds && ds->detail) {
            g_string_append(o, ", ");
            key_str(o, "detail", ds->detail);
            g_string_append(o, ", ");
            key_str(o, "rolled", ds->rolled);
        }
        g_string_append(o, " }");
    }
}

static void links_write(GString *o, const ucr_megadungeon *md, const ucr_node *n)
{
    for (guint i = 0; i < n->links->len; i++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, i);
        g_string_append_printf(o, "%s\n        { \"area\": %d, \"kind\": \"%s\", \"to\": ", i ? "," : "",
                               area_key(n, l->area), ucr_link_kind_name(l->kind));
        if (l->exit == UCR_EXIT_NONE) {
            const ucr_node *t = g_ptr_array_index(md->nodes, l->to_node);
            g_string_append(o, "{ ");
            key_str(o, "node", t->id);
            g_string_append_printf(o, ", \"area\": %d }", area_key(t, l->to_area));
        } else {
            g_string_append_printf(o, "null, \"exit\": \"%s\"",
                                   l->exit == UCR_EXIT_SURFACE ? "surface" : "below");
        }
        if (l->has_side)
            g_string_append_printf(o, ", \"side\": \"%s\"", ucr_dir_name(l->side));
        if (l->via) {
            g_string_append(o, ", ");
            key_str(o, "via", l->via);
        }
        g_string_append(o, " }");
    }
}

static void graph_write(GString *o, const ucr_node *n)
{
    g_string_append(o, "\n      ],\n      \"graph\": { \"vertices\": [");
    for (guint i = 0; i < n->vertices->len; i++) {
        const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, i);
        const char *kind = v->kind == UCR_VERTEX_AREA ? "area"
                           : v->kind == UCR_VERTEX_DEAD_END ? "dead-end" : "exit";
        g_string_append_printf(o, "%s\n          { \"id\": %u, \"kind\": \"%s\"", i ? "," : "", i, kind);
        if (v->kind == UCR_VERTEX_AREA)
            g_string_append_printf(o, ", \"area\": %d }", area_key(n, v->area));
        else
            g_string_append_printf(o, ", \"at\": [%d, %d] }", v->at.x, v->at.y);
    }
    g_string_append(o, "\n        ],\n        \"edges\": [");
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        g_string_append_printf(o, "%s[%d, %d, \"%s\"]", i ? ", " : "", p->a, p->b,
                               ucr_edge_kind_name(p->kind));
    }
}

static void node_stats_write(GString *o, const ucr_node *n)
{
    g_string_append(o, "] },\n      \"stats\": ");
    stats_write(o, &n->stats, "squares");
    if (n->stats.farthest_area >= 0)
        g_string_append_printf(o, ", \"farthest_area\": %d", area_key(n, n->stats.farthest_area));
    else
        g_string_append(o, ", \"farthest_area\": null");
    g_string_append(o, ", \"unreachable_areas\": [");
    int count = 0;
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (!a->unreachable)
            continue;
        g_string_append_printf(o, "%s{ \"area\": %d, ", count++ ? ", " : "", a->key);
        key_str(o, "reason", a->unreachable);
        g_string_append(o, " }");
    }
    /* The pockets (key/analysis.h): their areas reached only by stairs, and
     * the area of those stairs. */
    g_string_append_printf(o, "], \"landings\": %d, \"pockets\": %d, \"pocket_areas\": [",
                           n->stats.landings, n->stats.pockets);
    count = 0;
    for (guint i = 0; i < n->areas->len; i++) {
        const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
        if (a->pocket_way >= 0)
            g_string_append_printf(o, "%s{ \"area\": %d, \"way_in\": %d }", count++ ? ", " : "", a->key,
                                   area_key(n, a->pocket_way));
    }
    g_string_append(o, "] }");
}

static void node_write(GString *o, const ucr_megadungeon *md, const ucr_node *n)
{
    node_head_write(o, n);
    g_string_append_printf(o, "      \"width\": %d, \"height\": %d, \"entry\": %d, \"unplaced\": %d,\n",
                           n->width, n->height, area_key(n, n->entry_area), n->unplaced);
    g_string_append(o, "      \"areas\": [");
    areas_write(o, n);
    g_string_append(o, "\n      ],\n      \"passages\": [");
    passages_write(o, n);
    g_string_append(o, "\n      ],\n      \"doors\": [");
    doors_write(o, n);
    g_string_append(o, "\n      ],\n      \"links\": [");
    links_write(o, md, n);
    graph_write(o, n);
    node_stats_write(o, n);
    g_string_append(o, ",\n      \"rolls\": [");
    for (guint i = 0; i < n->rolls->len; i++) {
        g_string_append(o, i ? ",\n        " : "\n        ");
        ucr_json_string(o, g_ptr_array_index(n->rolls, i));
    }
    g_string_append(o, "\n      ]");
    for (guint i = 0; n->outcomes && i < n->outcomes->len; i++) {
        const ucr_outcome *out = &g_array_index(n->outcomes, ucr_outcome, i);
        g_string_append(o, i ? ",\n        { \"rule\": " : ",\n      \"outcomes\": [\n        { \"rule\": ");
        ucr_json_string(o, out->rule);
        g_string_append(o, ", \"reason\": ");
        if (out->reason)
            ucr_json_string(o, out->reason);
        else
            g_string_append(o, "null");
        g_string_append(o, i + 1 < n->outcomes->len ? " }" : " }\n      ]");
    }
    g_string_append(o, "\n    }");
}

char *ucr_json_write(const ucr_megadungeon *md)
{
    GString *o = g_string_new("{\n  \"format\": \"" UCR_FORMAT "\",\n  ");
    key_str(o, "seed", md->seed);
    g_string_append(o, ",\n  ");
    key_str(o, "version", md->version);
    if (md->name) {
        g_string_append(o, ",\n  ");
        key_str(o, "name", md->name);
    }
    const ucr_node *en = g_ptr_array_index(md->nodes, md->entrance_node);
    g_string_append(o, ",\n  \"entrance\": { ");
    key_str(o, "node", en->id);
    g_string_append_printf(o, ", \"area\": %d, \"kind\": \"%s\"", area_key(en, md->entrance_area),
                           md->entrance_stairs ? "stairs" : "tunnel");
    if (!md->entrance_stairs)
        g_string_append_printf(o, ", \"side\": \"%s\"", ucr_dir_name(md->entrance_side));
    static const char *const sizes[] = { "standard", "pocket", "large" };
    g_string_append_printf(o, " },\n  \"node_size\": \"%s\",\n  \"superstructure\": {\n    \"columns\": %d, \"rows\": %d,\n",
                           sizes[md->node_size], md->columns, md->rows);
    g_string_append(o, "    \"tunnels\": [");
    for (guint i = 0; i < md->tunnels->len; i++) {
        const ucr_tunnel *t = &g_array_index(md->tunnels, ucr_tunnel, i);
        const ucr_node *a = g_ptr_array_index(md->nodes, t->from), *b = g_ptr_array_index(md->nodes, t->to);
        g_string_append_printf(o, "%s\n      { ", i ? "," : "");
        key_str(o, "from", a->id);
        g_string_append(o, ", ");
        key_str(o, "to", b->id);
        g_string_append_printf(o, ", \"kind\": \"%s\", \"descent\": %d, \"chamber\": %s, \"rolled\": [",
                               ucr_tunnel_kind_name(t->kind), t->descent, t->chamber ? "true" : "false");
        ucr_json_string(o, t->rolled_from);
        g_string_append(o, ", ");
        ucr_json_string(o, t->rolled_to);
        g_string_append(o, "] }");
    }
    g_string_append(o, "\n    ],\n    \"rolls\": [");
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        g_string_append_printf(o, "%s\n      { ", i ? "," : "");
        key_str(o, "node", n->id);
        for (int d = 0; d < 4; d++) {
            g_string_append_printf(o, ", \"%s\": ", ucr_dir_name((ucr_dir)d));
            ucr_json_string(o, md->halves[i * 4 + d].rolled);
        }
        g_string_append(o, " }");
    }
    g_string_append(o, "\n    ],\n    \"stats\": ");
    stats_write(o, &md->stats, "tunnels");
    g_string_append(o, ", \"farthest_node\": ");
    if (md->stats.farthest_area >= 0)
        ucr_json_string(o, ((const ucr_node *)g_ptr_array_index(md->nodes, md->stats.farthest_area))->id);
    else
        g_string_append(o, "null");
    g_string_append_printf(o, ", \"hooks_surface\": %d, \"hooks_below\": %d, \"landings\": %d, "
                              "\"pockets\": %d, \"hubs\": %d",
                           md->stats.hooks_surface, md->stats.hooks_below, md->stats.landings,
                           md->stats.pockets, md->stats.hubs);
    g_string_append(o, ", \"unreachable_nodes\": [");
    int count = 0;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        if (!n->unreachable)
            continue;
        g_string_append(o, count++ ? ", { " : "{ ");
        key_str(o, "node", n->id);
        g_string_append(o, ", ");
        key_str(o, "reason", n->unreachable);
        g_string_append(o, " }");
    }
    g_string_append(o, "] }");
    g_string_append(o, "\n  },\n  \"nodes\": [\n");
    for (guint i = 0; i < md->nodes->len; i++) {
        node_write(o, md, g_ptr_array_index(md->nodes, i));
        g_string_append(o, i + 1 < md->nodes->len ? ",\n" : "\n");
    }
    g_string_append(o, "  ]\n}\n");
    return g_string_free(o, FALSE);
}
