#include "model/model.h"

#include <string.h>

ucr_node *ucr_node_new(const char *id, int col, int row)
{
    ucr_node *n = g_new0(ucr_node, 1);
    n->id = g_strdup(id);
    n->col = col;
    n->row = row;
    n->areas = g_array_new(FALSE, TRUE, sizeof(ucr_area));
    n->passages = g_array_new(FALSE, TRUE, sizeof(ucr_passage));
    n->doors = g_array_new(FALSE, TRUE, sizeof(ucr_door));
    n->vertices = g_array_new(FALSE, TRUE, sizeof(ucr_vertex));
    n->links = g_array_new(FALSE, TRUE, sizeof(ucr_link));
    n->entry_area = 0;
    n->rolls = g_ptr_array_new_with_free_func(g_free);
    return n;
}

void ucr_monster_clear(ucr_monster *m)
{
    g_free(m->name);
    g_free(m->plural);
    g_free(m->appearing);
    g_free(m->doing);
    g_free(m->stats);
    if (m->hp)
        g_array_free(m->hp, TRUE);
    if (m->fields) {
        for (guint i = 0; i < m->fields->len; i++) {
            g_free(g_array_index(m->fields, ucr_field, i).key);
            g_free(g_array_index(m->fields, ucr_field, i).value);
        }
        g_array_free(m->fields, TRUE);
    }
    memset(m, 0, sizeof *m);
}

void ucr_area_stock_clear(ucr_area *a)
{
    g_clear_pointer(&a->contents, g_free);
    g_clear_pointer(&a->contents_kind, g_free);
    g_clear_pointer(&a->shape, g_free);
    g_clear_pointer(&a->stocked, g_free);
    g_clear_pointer(&a->trap, g_free);
    if (a->monsters) {
        for (guint i = 0; i < a->monsters->len; i++)
            ucr_monster_clear(&g_array_index(a->monsters, ucr_monster, i));
        g_array_free(a->monsters, TRUE);
        a->monsters = NULL;
    }
    if (a->treasure) {
        for (guint i = 0; i < a->treasure->len; i++)
            g_free(g_array_index(a->treasure, ucr_treasure, i).text);
        g_array_free(a->treasure, TRUE);
        a->treasure = NULL;
    }
    a->treasure_gp = 0;
    a->stock = 0;
}

void ucr_node_free(ucr_node *node)
{
    if (!node)
        return;
    for (guint i = 0; i < node->areas->len; i++) {
        ucr_area *a = &g_array_index(node->areas, ucr_area, i);
        g_free(a->rolled);
        ucr_area_stock_clear(a);
    }
    g_free(node->name);
    g_free(node->theme);
    g_free(node->wandering_check);
    g_free(node->wandering_dice);
    if (node->wandering) {
        for (guint i = 0; i < node->wandering->len; i++)
            ucr_monster_clear(&g_array_index(node->wandering, ucr_wandering_row, i).monster);
        g_array_free(node->wandering, TRUE);
    }
    if (node->door_stock) {
        for (guint i = 0; i < node->door_stock->len; i++) {
            g_free(g_array_index(node->door_stock, ucr_door_stock, i).detail);
            g_free(g_array_index(node->door_stock, ucr_door_stock, i).rolled);
        }
        g_array_free(node->door_stock, TRUE);
    }
    for (guint i = 0; i < node->passages->len; i++) {
        g_array_free(g_array_index(node->passages, ucr_passage, i).cells, TRUE);
        g_array_free(g_array_index(node->passages, ucr_passage, i).stairs, TRUE);
        if (g_array_index(node->passages, ucr_passage, i).crossings)
            g_array_free(g_array_index(node->passages, ucr_passage, i).crossings, TRUE);
    }
    for (guint i = 0; i < node->links->len; i++)
        g_free(g_array_index(node->links, ucr_link, i).via);
    g_array_free(node->areas, TRUE);
    g_array_free(node->passages, TRUE);
    g_array_free(node->doors, TRUE);
    g_array_free(node->vertices, TRUE);
    g_array_free(node->links, TRUE);
    g_ptr_array_free(node->rolls, TRUE);
    if (node->outcomes)
        g_array_free(node->outcomes, TRUE);
    g_free(node->id);
    g_free(node);
}

void ucr_megadungeon_free(ucr_megadungeon *md)
{
    if (!md)
        return;
    if (md->nodes)
        g_ptr_array_free(md->nodes, TRUE);
    if (md->tunnels) {
        for (guint i = 0; i < md->tunnels->len; i++) {
            ucr_tunnel *t = &g_array_index(md->tunnels, ucr_tunnel, i);
            g_free(t->rolled_from);
            g_free(t->rolled_to);
        }
        g_array_free(md->tunnels, TRUE);
    }
    if (md->halves) {
        for (int i = 0; i < md->columns * md->rows * 4; i++)
            g_free(md->halves[i].rolled);
        g_free(md->halves);
    }
    g_free(md->seed);
    g_free(md->version);
    g_free(md->name);
    g_free(md);
}

const char *ucr_area_kind_name(ucr_area_kind kind)
{
    switch (kind) {
    case UCR_AREA_ROOM: return "room";
    case UCR_AREA_JUNCTION: return "junction";
    case UCR_AREA_STAIRS: return "stairs";
    }
    return "?";
}

const char *ucr_area_feature_name(ucr_area_feature f)
{
    switch (f) {
    case UCR_FEATURE_NONE: return "none";
    case UCR_FEATURE_TRAP: return "trap";
    case UCR_FEATURE_TRAP_DISABLED: return "disabled trap";
    case UCR_FEATURE_DEBRIS: return "debris";
    case UCR_FEATURE_POOL: return "pool";
    }
    return "?";
}

const char *ucr_stair_name(ucr_stair stair)
{
    switch (stair) {
    case UCR_STAIR_NONE: return "none";
    case UCR_STAIR_DOWN: return "stairs down";
    case UCR_STAIR_UP: return "stairs up";
    case UCR_LADDER_DOWN: return "ladder down";
    case UCR_LADDER_UP: return "ladder up";
    case UCR_SLOPE_DOWN: return "slope down";
    case UCR_SLOPE_UP: return "slope up";
    }
    return "?";
}

bool ucr_stair_is_slope(ucr_stair stair)
{
    return stair == UCR_SLOPE_DOWN || stair == UCR_SLOPE_UP;
}

const char *ucr_door_kind_name(ucr_door_kind kind)
{
    switch (kind) {
    case UCR_DOOR_PLAIN: return "door";
    case UCR_DOOR_SECRET: return "secret";
    case UCR_DOOR_LOCKED: return "locked";
    case UCR_DOOR_TRAPPED: return "trapped";
    }
    return "?";
}

const char *ucr_edge_kind_name(ucr_edge_kind kind)
{
    switch (kind) {
    case UCR_EDGE_OPEN: return "open";
    case UCR_EDGE_DOOR: return "door";
    case UCR_EDGE_SECRET: return "secret";
    case UCR_EDGE_BLOCKED: return "blocked";
    }
    return "?";
}

const char *ucr_link_kind_name(ucr_link_kind kind)
{
    switch (kind) {
    case UCR_LINK_STAIRS_DOWN: return "stairs-down";
    case UCR_LINK_STAIRS_UP: return "stairs-up";
    case UCR_LINK_LADDER_DOWN: return "ladder-down";
    case UCR_LINK_LADDER_UP: return "ladder-up";
    case UCR_LINK_TUNNEL: return "tunnel";
    case UCR_LINK_ENTRANCE: return "entrance";
    }
    return "?";
}

const char *ucr_tunnel_kind_name(ucr_tunnel_kind kind)
{
    switch (kind) {
    case UCR_TUNNEL_OPEN: return "open";
    case UCR_TUNNEL_DOOR: return "door";
    case UCR_TUNNEL_SECRET: return "secret";
    case UCR_TUNNEL_STAIRS: return "stairs";
    case UCR_TUNNEL_LADDER: return "ladder";
    case UCR_TUNNEL_BLOCKED: return "blocked";
    case UCR_TUNNEL_WALL: return "wall";
    }
    return "?";
}

const char *ucr_dir_name(ucr_dir dir)
{
    static const char *names[] = { "north", "east", "south", "west" };
    return (unsigned)dir < 4 ? names[dir] : "?";
}

const char *ucr_cross_kind_name(ucr_cross_kind kind)
{
    return kind == UCR_CROSS_OVER ? "over" : "under";
}

char *ucr_node_id_for_index(int i)
{
    /* Spreadsheet column names: A..Z, AA..AZ, BA… */
    char buf[8];
    int n = 0;
    char rev[8];
    i += 1;
    while (i > 0 && n < 7) {
        int r = (i - 1) % 26;
        rev[n++] = (char)('A' + r);
        i = (i - 1) / 26;
    }
    for (int k = 0; k < n; k++)
        buf[k] = rev[n - 1 - k];
    buf[n] = '\0';
    return g_strdup(buf);
}

bool ucr_area_contains(const ucr_area *area, ucr_point p)
{
    return p.x >= area->x && p.x < area->x + area->w && p.y >= area->y && p.y < area->y + area->h;
}

const int UCR_DIR_DX[4] = { 0, 1, 0, -1 };
const int UCR_DIR_DY[4] = { -1, 0, 1, 0 };
const int UCR_DIR8_DX[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
const int UCR_DIR8_DY[9] = { 0, -1, -1, 0, 1, 1, 1, 0, -1 };

ucr_dir ucr_dir_opposite(ucr_dir dir)
{
    return (ucr_dir)((dir + 2) % 4);
}

ucr_area ucr_area_make(ucr_area_kind kind, int x, int y, int w, int h)
{
    ucr_area a = { 0 };
    a.kind = kind;
    a.x = x;
    a.y = y;
    a.w = w;
    a.h = h;
    a.link = -1;
    return a;
}

void ucr_area_record_append(ucr_area *area, const char *text)
{
    char *old = area->rolled;
    area->rolled = old ? g_strconcat(old, "; ", text, NULL) : g_strdup(text);
    g_free(old);
}

ucr_point ucr_area_mouth(const ucr_area *a, ucr_dir side, int k)
{
    switch (side) {
    case UCR_NORTH: return (ucr_point){ a->x + k, a->y - 1 };
    case UCR_SOUTH: return (ucr_point){ a->x + k, a->y + a->h };
    case UCR_WEST: return (ucr_point){ a->x - 1, a->y + k };
    default: return (ucr_point){ a->x + a->w, a->y + k };
    }
}

int ucr_area_wall_length(const ucr_area *a, ucr_dir side)
{
    return side == UCR_NORTH || side == UCR_SOUTH ? a->w : a->h;
}

ucr_dir ucr_area_wall_of(const ucr_area *a, ucr_point p)
{
    return p.y < a->y ? UCR_NORTH : p.y >= a->y + a->h ? UCR_SOUTH : p.x < a->x ? UCR_WEST : UCR_EAST;
}

bool ucr_area_touches(const ucr_area *a, ucr_point p)
{
    bool inx = p.x >= a->x && p.x < a->x + a->w, iny = p.y >= a->y && p.y < a->y + a->h;
    return (inx && (p.y == a->y - 1 || p.y == a->y + a->h)) || (iny && (p.x == a->x - 1 || p.x == a->x + a->w));
}

bool ucr_stair_is_down(ucr_stair s)
{
    return s == UCR_STAIR_DOWN || s == UCR_LADDER_DOWN;
}

bool ucr_stair_is_ladder(ucr_stair s)
{
    return s == UCR_LADDER_DOWN || s == UCR_LADDER_UP;
}

ucr_stair ucr_stair_opposite(ucr_stair s)
{
    switch (s) {
    case UCR_STAIR_DOWN: return UCR_STAIR_UP;
    case UCR_STAIR_UP: return UCR_STAIR_DOWN;
    case UCR_LADDER_DOWN: return UCR_LADDER_UP;
    case UCR_LADDER_UP: return UCR_LADDER_DOWN;
    case UCR_SLOPE_DOWN: return UCR_SLOPE_UP;
    case UCR_SLOPE_UP: return UCR_SLOPE_DOWN;
    default: return UCR_STAIR_NONE;
    }
}

int ucr_megadungeon_find_node(const ucr_megadungeon *md, const char *id)
{
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = g_ptr_array_index(md->nodes, i);
        if (g_strcmp0(n->id, id) == 0)
            return (int)i;
    }
    return -1;
}

/* Cell index of @p on passage @ps, or -1. */
static int passage_cell_index(const ucr_passage *ps, ucr_point p)
{
    for (guint i = 0; i < ps->cells->len; i++)
        if (ucr_point_eq(g_array_index(ps->cells, ucr_point, i), p))
            return (int)i;
    return -1;
}

int *ucr_node_parts(const ucr_node *node)
{
    int nv = (int)node->vertices->len;
    int *part = g_new(int, nv + 1);
    for (int v = 0; v < nv; v++)
        part[v] = v;
    for (guint k = 0; k < node->passages->len; k++) {
        const ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if (p->kind == UCR_EDGE_BLOCKED)
            continue;
        int x = p->a, y = p->b;
        while (part[x] != x)
            x = part[x] = part[part[x]];
        while (part[y] != y)
            y = part[y] = part[part[y]];
        part[x] = y;
    }
    for (int v = 0; v < nv; v++) {
        int r = v;
        while (part[r] != r)
            r = part[r];
        part[v] = r;
    }
    return part;
}

int ucr_node_split_passage(ucr_node *node, int k, int j, int junction)
{
    ucr_passage *m = &g_array_index(node->passages, ucr_passage, k);
    int len = (int)m->cells->len, old_b = m->b;
    g_assert(j > 0 && j < len - 1);
    ucr_passage tail = { 0 };
    tail.cells = g_array_new(FALSE, FALSE, sizeof(ucr_point));
    g_array_append_vals(tail.cells, &g_array_index(m->cells, ucr_point, j + 1), (guint)(len - j - 1));
    tail.a = junction;
    tail.b = old_b;
    tail.kind = UCR_EDGE_OPEN;
    tail.rubble = -1;
    tail.stairs = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
    g_array_set_size(m->cells, (guint)j);
    m->b = junction;
    /* Steps and crossings beyond the split move to the second half. */
    GArray *keep = g_array_new(FALSE, FALSE, sizeof(ucr_passage_stairs));
    for (guint i = 0; i < m->stairs->len; i++) {
        ucr_passage_stairs st = g_array_index(m->stairs, ucr_passage_stairs, i);
        if (st.index < j) {
            g_array_append_val(keep, st);
        } else {
            st.index -= j + 1;
            g_array_append_val(tail.stairs, st);
        }
    }
    g_array_free(m->stairs, TRUE);
    m->stairs = keep;
    if (m->crossings) {
        GArray *kc = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
        for (guint i = 0; i < m->crossings->len; i++) {
            ucr_crossing cr = g_array_index(m->crossings, ucr_crossing, i);
            if (cr.last < j) {
                g_array_append_val(kc, cr);
                continue;
            }
            cr.first -= j + 1;
            cr.last -= j + 1;
            if (!tail.crossings)
                tail.crossings = g_array_new(FALSE, FALSE, sizeof(ucr_crossing));
            g_array_append_val(tail.crossings, cr);
        }
        g_array_free(m->crossings, TRUE);
        m->crossings = kc->len ? kc : (g_array_free(kc, TRUE), NULL);
    }
    g_array_append_val(node->passages, tail);
    int k2 = (int)node->passages->len - 1;
    m = &g_array_index(node->passages, ucr_passage, k);
    ucr_passage *m2 = &g_array_index(node->passages, ucr_passage, k2);
    /* Crossings over the second half name it now (by the middle square of
     * the stretch: a crossing at 45° of a diagonal run starts and ends
     * beside its steps, on squares that are no cells). */
    for (guint q = 0; q < node->passages->len; q++) {
        ucr_passage *o = &g_array_index(node->passages, ucr_passage, q);
        for (guint i = 0; o->crossings && i < o->crossings->len; i++) {
            ucr_crossing *cr = &g_array_index(o->crossings, ucr_crossing, i);
            ucr_point mid = g_array_index(o->cells, ucr_point, (cr->first + cr->last) / 2);
            if (cr->passage == k && passage_cell_index(m2, mid) >= 0)
                cr->passage = k2;
        }
    }
    /* A door at the far end now stands at the second half's end; each half
     * says whether it passes a door. */
    m->kind = m2->kind = UCR_EDGE_OPEN;
    ucr_point first = g_array_index(m->cells, ucr_point, 0);
    for (guint i = 0; i < node->doors->len; i++) {
        ucr_door *d = &g_array_index(node->doors, ucr_door, i);
        if (d->passage != k)
            continue;
        ucr_passage *half = m;
        if (!(ucr_point_eq(d->cell, first) && m->a == d->area)) {
            d->passage = k2;
            half = m2;
        }
        if (d->kind == UCR_DOOR_SECRET)
            half->kind = UCR_EDGE_SECRET;
        else if (half->kind == UCR_EDGE_OPEN)
            half->kind = UCR_EDGE_DOOR;
    }
    return k2;
}

void ucr_node_remove_vertex(ucr_node *node, int v)
{
    g_array_remove_index(node->vertices, (guint)v);
    for (guint k = 0; k < node->passages->len; k++) {
        ucr_passage *p = &g_array_index(node->passages, ucr_passage, k);
        if (p->a > v)
            p->a--;
        if (p->b > v)
            p->b--;
    }
}

bool ucr_passage_dead_end(const ucr_node *node, const ucr_passage *p, ucr_point *end, int *dx, int *dy)
{
    const ucr_vertex *vb = &g_array_index(node->vertices, ucr_vertex, p->b);
    if (vb->kind != UCR_VERTEX_DEAD_END || p->cells->len < 2)
        return false;
    *end = g_array_index(p->cells, ucr_point, p->cells->len - 1);
    ucr_point f = g_array_index(p->cells, ucr_point, p->cells->len - 2);
    *dx = end->x - f.x;
    *dy = end->y - f.y;
    return !(*dx && *dy);
}

void ucr_node_outcome(ucr_node *node, const char *rule, const char *reason)
{
    if (!node->outcomes)
        node->outcomes = g_array_new(FALSE, FALSE, sizeof(ucr_outcome));
    ucr_outcome o = { rule, reason };
    g_array_append_val(node->outcomes, o);
}
