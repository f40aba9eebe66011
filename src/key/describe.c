#include "key/describe.h"

#include <string.h>

#include "core/text.h"

static const char *area_title(const ucr_area *a)
{
    switch (a->kind) {
    case UCR_AREA_ROOM: return "Room";
    case UCR_AREA_JUNCTION: return "Intersection";
    default:
        if (a->trapdoor)   /* seed 003 */
            return "Trap door";
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

/* True if square @at lies on map side @side of @n. */
static bool on_side(const ucr_node *n, ucr_point at, ucr_dir side)
{
    switch (side) {
    case UCR_NORTH: return at.y == 0;
    case UCR_SOUTH: return at.y == n->height - 1;
    case UCR_WEST: return at.x == 0;
    default: return at.x == n->width - 1;
    }
}

/* True if a passage from area @area other than the one ending at @exit
 * leaves the map on side @side and on no other (not at a corner). */
static bool side_taken(const ucr_node *n, int area, ucr_dir side, const ucr_vertex *exit)
{
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        if (p->a != area && p->b != area)
            continue;
        const ucr_vertex *o = &g_array_index(n->vertices, ucr_vertex, p->a == area ? p->b : p->a);
        if (o == exit || o->kind != UCR_VERTEX_EXIT || !on_side(n, o->at, side))
            continue;
        int sides = 0;
        for (int d = UCR_NORTH; d <= UCR_WEST; d++)
            sides += on_side(n, o->at, (ucr_dir)d);
        if (sides == 1)
            return true;
    }
    return false;
}

/* The tunnel (or the way in) that a passage from @from_vertex leaves the
 * map by at its end @exit: the link of that area on the map side the exit
 * square lies on, or NULL: collapsed beyond.  An area two tunnels reach
 * has one link per side; an exit in a corner lies on two sides, and takes
 * the link of a side no other exit of the area leaves by alone (none there:
 * collapsed beyond, the tunnel of the other side being that exit's); only
 * where both sides are taken, the link of either. */
static const ucr_link *exit_link(const ucr_node *n, int from_vertex, const ucr_vertex *exit)
{
    const ucr_vertex *here = &g_array_index(n->vertices, ucr_vertex, from_vertex);
    unsigned sides = 0, free = 0;
    for (int d = UCR_NORTH; d <= UCR_WEST; d++)
        if (on_side(n, exit->at, (ucr_dir)d)) {
            sides |= 1u << d;
            if (!side_taken(n, from_vertex, (ucr_dir)d, exit))
                free |= 1u << d;
        }
    unsigned use = free ? free : sides;
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area == here->area && l->has_side && (use >> l->side & 1u))
            return l;
    }
    return NULL;
}

/* The slopes of passage @p (seed 003: "insert stairs or a slope") in the
 * order met leaving it by @from_vertex, "; a slope down, then a slope up",
 * or "" without any.  The caller frees it. */
static char *passage_slopes(const ucr_passage *p, int from_vertex)
{
    GString *s = g_string_new(NULL);
    bool reverse = p->a != from_vertex;
    int n = (int)p->stairs->len;
    for (int i = 0; i < n; i++) {
        const ucr_passage_stairs *ps = &g_array_index(p->stairs, ucr_passage_stairs, reverse ? n - 1 - i : i);
        if (!ucr_stair_is_slope(ps->stair))
            continue;
        /* Met from the other end, down is up. */
        bool down = (ps->stair == UCR_SLOPE_DOWN) != reverse;
        g_string_append_printf(s, "%s a slope %s", s->len ? ", then" : ";", down ? "down" : "up");
    }
    return g_string_free(s, FALSE);
}

/* What stands at the far end of a passage to an area (area_exits). */
typedef struct {
    char *door;            /* the door there, as door_phrase() says it, or NULL */
    ucr_door_kind door_kind;
    int loop_side;         /* a passage back to the area it left: the side it comes in by; else -1 */
} arrival_end;

/* An end of a passage in a word: its area's number, "a dead end", "the
 * map's edge". */
static char *vertex_word(const ucr_node *n, int v)
{
    const ucr_vertex *vx = &g_array_index(n->vertices, ucr_vertex, v);
    if (vx->kind == UCR_VERTEX_AREA)
        return g_strdup_printf("%d", g_array_index(n->areas, ucr_area, vx->area).key);
    return g_strdup(vx->kind == UCR_VERTEX_DEAD_END ? "a dead end" : "the map's edge");
}

/* What passage @p passes under or over on the way (seed 000's crossing
 * table), in the order met from @from_vertex: " under 11", " over the
 * passage from 3 to 7", " under 11 and 12"; "" when it crosses nothing (or
 * only comes up in the middle of a room's floor, said with its exit). */
static char *passage_crossed(const ucr_node *n, const ucr_passage *p, int from_vertex)
{
    GString *s = g_string_new(NULL);
    int count = p->crossings ? (int)p->crossings->len : 0, said = 0;
    bool backwards = p->a != from_vertex;
    for (int i = 0; i < count; i++) {
        const ucr_crossing *cr = &g_array_index(p->crossings, ucr_crossing, backwards ? count - 1 - i : i);
        if (cr->first == 0 || cr->last >= (int)p->cells->len - 1)
            continue;
        char *what;
        if (cr->area >= 0) {
            what = g_strdup_printf("%d", g_array_index(n->areas, ucr_area, cr->area).key);
        } else {
            const ucr_passage *o = &g_array_index(n->passages, ucr_passage, cr->passage);
            char *x = vertex_word(n, o->a), *y = vertex_word(n, o->b);
            what = g_strdup_printf("the passage from %s to %s", x, y);
            g_free(x);
            g_free(y);
        }
        g_string_append_printf(s, "%s%s", said ? " and " : cr->kind == UCR_CROSS_UNDER ? " under " : " over ", what);
        g_free(what);
        said++;
    }
    return g_string_free(s, FALSE);
}

/* The stairs and ladders in @p as met walking from @from_vertex ("stairs
 * down", "stairs down under 11 and up again"), with the levels they go
 * down in @descent, or NULL: none.  The caller frees it. */
static char *passage_stairs(const ucr_node *node, const ucr_passage *p, int from_vertex, int *descent)
{
    int len = p->stairs ? (int)p->stairs->len : 0, n = 0, net = 0, ladders = 0;
    *descent = 0;
    bool backwards = p->a != from_vertex;
    for (int k = 0; k < len; k++) {
        ucr_stair st = g_array_index(p->stairs, ucr_passage_stairs, k).stair;
        if (ucr_stair_is_slope(st))   /* a slope keeps the level (analysis): said by passage_slopes */
            continue;
        n++;
        bool down = st == UCR_STAIR_DOWN || st == UCR_LADDER_DOWN;
        net += (down != backwards) ? 1 : -1;
        ladders += st == UCR_LADDER_DOWN || st == UCR_LADDER_UP;
    }
    *descent = net;
    if (n == 0)
        return NULL;
    const char *what = ladders == n ? (n > 1 ? "ladders" : "a ladder") : "stairs";
    if (net == 0) {
        /* Down and up again, or up and down: which comes first, and what
         * it passes under (over) on the way. */
        bool first_down = false;
        for (int k = 0; k < len; k++) {
            ucr_stair st = g_array_index(p->stairs, ucr_passage_stairs, backwards ? len - 1 - k : k).stair;
            if (!ucr_stair_is_slope(st)) {
                first_down = (st == UCR_STAIR_DOWN || st == UCR_LADDER_DOWN) != backwards;
                break;
            }
        }
        char *crossed = passage_crossed(node, p, from_vertex);
        char *out = g_strdup_printf("%s %s%s and %s again", what, first_down ? "down" : "up", crossed,
                                    first_down ? "up" : "down");
        g_free(crossed);
        return out;
    }
    if (net > 1 || net < -1)
        return g_strdup_printf("%s %s, %d levels", what, net > 0 ? "down" : "up", net > 0 ? net : -net);
    return g_strdup_printf("%s %s", what, net > 0 ? "down" : "up");
}

/* Where the party arrives at the far end of a passage to an area: "11",
 * "a locked door (an iron lock) into 11" when a door stands at that end, or
 * for a passage that comes back to the area it left, "that loops back
 * here, coming in from the east" (and the door it comes in by).  The caller frees it. */
static char *arrival(const ucr_area *a, const arrival_end *far)
{
    if (far->loop_side >= 0 && far->door)
        return g_strdup_printf("that loops back here, coming in from the %s through %s",
                               ucr_dir_name(far->loop_side), far->door);
    if (far->loop_side >= 0)
        return g_strdup_printf("that loops back here, coming in from the %s", ucr_dir_name(far->loop_side));
    if (far->door)
        return g_strdup_printf("to %s into %d", far->door, a->key);
    return g_strdup_printf("to %d", a->key);
}

/* A passage to an area: its length, the stairs and slopes on the way (seed
 * 004: said where the party meets them, with the level they lead to), and
 * where it arrives. */
static char *passage_to_area(const ucr_node *n, const ucr_passage *p, int from_vertex, const ucr_area *a,
                             const arrival_end *far)
{
    const char *prefix = p->kind == UCR_EDGE_BLOCKED ? "a collapsed passage" : "a passage";
    char *feet = ucr_key_number((int)p->cells->len * 10);
    const ucr_vertex *here = &g_array_index(n->vertices, ucr_vertex, from_vertex);
    const ucr_area *from = here->kind == UCR_VERTEX_AREA ? &g_array_index(n->areas, ucr_area, here->area) : NULL;
    int descent;
    char *stairs = passage_stairs(n, p, from_vertex, &descent);
    char *slopes = passage_slopes(p, from_vertex);
    char *to = arrival(a, far);
    char *out;
    int slope = from ? a->level - from->level - descent : 0;
    if (stairs && slope)   /* the levels say otherwise: it slopes back */
        out = g_strdup_printf("%s (%s ft, %s%s, then sloping %s to level %d) %s", prefix, feet, stairs, slopes,
                              slope > 0 ? "down" : "up", a->level, to);
    else if (stairs && from && from->level != a->level)
        out = g_strdup_printf("%s (%s ft, %s%s) %s on level %d", prefix, feet, stairs, slopes, to, a->level);
    else if (stairs)
        out = g_strdup_printf("%s (%s ft, %s%s) %s", prefix, feet, stairs, slopes, to);
    else if (from && from->level != a->level)
        out = g_strdup_printf("%s (%s ft%s, sloping) %s on level %d", prefix, feet, slopes, to, a->level);
    else
        out = g_strdup_printf("%s (%s ft%s) %s", prefix, feet, slopes, to);
    g_free(stairs);
    g_free(slopes);
    g_free(to);
    g_free(feet);
    return out;
}

/* Where passage @p leads when left by its end @from_vertex, in the words of
 * the prose; @far says what stands at an area at its other end. */
static char *passage_destination(const ucr_megadungeon *md, const ucr_node *n, const ucr_passage *p,
                                 int from_vertex, const arrival_end *far)
{
    int other = p->a == from_vertex ? p->b : p->a;
    const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, other);
    int feet = (int)p->cells->len * 10;
    const char *prefix = p->kind == UCR_EDGE_BLOCKED ? "a collapsed passage" : "a passage";
    if (v->kind == UCR_VERTEX_AREA)
        return passage_to_area(n, p, from_vertex, &g_array_index(n->areas, ucr_area, v->area), far);
    if (v->kind == UCR_VERTEX_DEAD_END) {
        char *slopes = passage_slopes(p, from_vertex);
        char *ft = ucr_key_number(feet);
        char *s = *slopes ? g_strdup_printf("%s that ends in rock after %s ft (%s)", prefix, ft, slopes + 2)
                          : g_strdup_printf("%s that ends in rock after %s ft", prefix, ft);
        g_free(ft);
        g_free(slopes);
        return s;
    }
    const ucr_link *l = exit_link(n, from_vertex, v);
    if (l) {
        /* A collapsed passage on the way says so before where it led. */
        const char *fallen = p->kind == UCR_EDGE_BLOCKED ? "a collapsed passage to " : "";
        char *t = ucr_key_link_target(md, l);
        char *s = l->kind == UCR_LINK_ENTRANCE
                      ? g_strdup_printf("%sthe way out: %s (%s)", fallen, l->via, ucr_dir_name(l->side))
                      : g_strdup_printf("%sthe long tunnel to node %s (%s; %s)", fallen, t,
                                        ucr_dir_name(l->side), l->via);
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

/* The link phrase of a link at area @a: seed 003's trap door says so. */
static const char *area_link_phrase(const ucr_area *a, ucr_link_kind k)
{
    if (a->trapdoor && k == UCR_LINK_LADDER_DOWN)
        return "A trap door in the floor, a ladder beneath it down";
    return link_phrase(k);
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

void ucr_key_append_escaped(GString *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = g_markup_vprintf_escaped(fmt, ap);
    va_end(ap);
    g_string_append(s, m);
    g_free(m);
}

char *ucr_key_number(int v)
{
    char *plain = g_strdup_printf("%d", v);
    GString *s = g_string_new(NULL);
    int len = (int)strlen(plain);
    for (int i = 0; i < len; i++) {
        if (i && plain[i - 1] != '-' && (len - i) % 3 == 0)
            g_string_append_c(s, ',');
        g_string_append_c(s, plain[i]);
    }
    g_free(plain);
    return g_string_free(s, FALSE);
}

char *ucr_key_gp(int gp)
{
    return ucr_key_number(gp);
}

char *ucr_key_count(int n, const char *one, const char *many)
{
    char *num = ucr_key_number(n);
    char *s = g_strdup_printf("%s %s", num, n == 1 ? one : many);
    g_free(num);
    return s;
}

const char *ucr_key_dungeon_name(const ucr_megadungeon *md)
{
    return md->name && *md->name ? md->name : "Undercroft";
}

const char *ucr_key_node_name(const ucr_node *n)
{
    return n->name && *n->name ? n->name : NULL;
}

/* A table's value for column @key of @m, or NULL.  (The tables lower-case
 * their column names as they load them, tables/table.h: strcmp will do.) */
static const char *monster_field(const ucr_monster *m, const char *key)
{
    for (guint i = 0; m->fields && i < m->fields->len; i++) {
        const ucr_field *f = &g_array_index(m->fields, ucr_field, i);
        if (strcmp(f->key, key) == 0)
            return f->value;
    }
    return NULL;
}

/* The columns the stat line prints in its own order and words; every other
 * column of a user's table follows them as "Key value". */
static const struct { const char *key, *label; } STAT_COLUMNS[] = {
    { "ac", "AC" }, { "hd", "HD" }, { "att", "Att" }, { "mv", "MV" }, { "ml", "ML" },
};
static const char *const NOT_STATS[] = { "name", "plural", "no", "doing", "theme", NULL };

static gboolean is_stat_column(const char *key)
{
    for (gsize i = 0; i < G_N_ELEMENTS(STAT_COLUMNS); i++)
        if (strcmp(key, STAT_COLUMNS[i].key) == 0)
            return TRUE;
    for (gsize i = 0; NOT_STATS[i]; i++)
        if (strcmp(key, NOT_STATS[i]) == 0)
            return TRUE;
    return FALSE;
}

/* Appends @lead, @key, a space and @value to @s: "; AC 7" (without
 * printf: a stat line is built for every monster of the key). */
static void append_words(GString *s, const char *lead, const char *key, const char *value)
{
    g_string_append(s, lead);
    g_string_append(s, key);
    g_string_append_c(s, ' ');
    g_string_append(s, value);
}

char *ucr_key_monster_stats(const ucr_monster *m)
{
    GString *s = g_string_new(m->name ? m->name : "");
    if (s->len)
        s->str[0] = g_ascii_toupper(s->str[0]);
    if (!m->fields)
        return g_string_free(s, FALSE);
    g_string_append(s, ":");
    if (m->count > 0) {
        g_string_append(s, " No. ");
        ucr_text_append_int(s, m->count);
    } else if (m->appearing) {
        g_string_append(s, " No. ");
        g_string_append(s, m->appearing);
    }
    for (gsize i = 0; i < G_N_ELEMENTS(STAT_COLUMNS); i++) {
        const char *v = monster_field(m, STAT_COLUMNS[i].key);
        if (!v || !*v)
            continue;
        append_words(s, s->str[s->len - 1] == ':' ? " " : "; ", STAT_COLUMNS[i].label, v);
        if (i == 1 && m->hp && m->hp->len) {   /* hp right after HD */
            g_string_append(s, "; hp");
            for (guint k = 0; k < m->hp->len; k++) {
                g_string_append(s, k ? ", " : " ");
                ucr_text_append_int(s, g_array_index(m->hp, int, k));
            }
        }
    }
    for (guint i = 0; i < m->fields->len; i++) {
        const ucr_field *f = &g_array_index(m->fields, ucr_field, i);
        if (is_stat_column(f->key) || !*f->value)
            continue;
        append_words(s, "; ", f->key, f->value);
    }
    return g_string_free(s, FALSE);
}

/* One way out of an area, for the prose and the room table alike. */
typedef struct {
    ucr_dir side;
    char *door;            /* "a locked door (an iron lock)", or NULL: an open mouth */
    bool has_door;         /* door is a door (not stairs in the middle of the floor) */
    ucr_door_kind door_kind;
    char *dest;            /* the prose: "a passage (30 ft) to 6" */
    char *to;              /* the table: "6", "C-7", "dead end", "out" */
    arrival_end far;       /* what stands at an area at the other end */
    int times;             /* in the list: 1, or how many alike it stands for (0: merged away) */
} area_exit;

static void area_exit_clear(gpointer p)
{
    area_exit *e = p;
    g_free(e->door);
    g_free(e->dest);
    g_free(e->to);
    g_free(e->far.door);
}

/* Where the passage @p leads from its end @from_vertex, in a word or two. */
static char *passage_to(const ucr_megadungeon *md, const ucr_node *n, const ucr_passage *p, int from_vertex,
                        const arrival_end *far)
{
    int other = p->a == from_vertex ? p->b : p->a;
    const ucr_vertex *v = &g_array_index(n->vertices, ucr_vertex, other);
    const char *blocked = p->kind == UCR_EDGE_BLOCKED ? " (collapsed)" : "";
    if (v->kind == UCR_VERTEX_AREA && far->loop_side >= 0)
        return g_strdup_printf("back here from %c%s", g_ascii_toupper(ucr_dir_name(far->loop_side)[0]), blocked);
    if (v->kind == UCR_VERTEX_AREA)
        return g_strdup_printf("%d%s", g_array_index(n->areas, ucr_area, v->area).key, blocked);
    if (v->kind == UCR_VERTEX_DEAD_END)
        return g_strdup_printf("dead end%s", blocked);
    const ucr_link *l = exit_link(n, from_vertex, v);
    if (!l)
        return g_strdup("collapsed");
    if (l->kind == UCR_LINK_ENTRANCE)
        return g_strdup_printf("the way out%s", blocked);
    char *t = ucr_key_link_target(md, l);
    char *s = g_strdup_printf("%s (tunnel%s)", t, p->kind == UCR_EDGE_BLOCKED ? ", collapsed" : "");
    g_free(t);
    return s;
}

static const char *door_word(ucr_door_kind k)
{
    switch (k) {
    case UCR_DOOR_SECRET: return "secret door";
    case UCR_DOOR_LOCKED: return "locked door";
    case UCR_DOOR_TRAPPED: return "trapped door";
    default: return "door";
    }
}

/* The side of @a that passage @p leaves by at its end @end (0: its first
 * cell, 1: its last); *@under, when it comes up (or down) in the middle of
 * the floor instead (seed 001's "Ladder Up/Down, center of room"). */
static ucr_dir exit_side(const ucr_area *a, const ucr_passage *p, int end, const ucr_crossing **under)
{
    ucr_point c = g_array_index(p->cells, ucr_point, end == 0 ? 0 : p->cells->len - 1);
    *under = NULL;
    if (ucr_area_contains(a, c) && p->crossings && p->crossings->len) {
        /* It runs under (over) the wall of the side it comes from. */
        *under = &g_array_index(p->crossings, ucr_crossing, p->crossings->len - 1);
        c = g_array_index(p->cells, ucr_point, MAX((*under)->first - 1, 0));
    }
    return c.y < a->y ? UCR_NORTH : c.y >= a->y + a->h ? UCR_SOUTH : c.x < a->x ? UCR_WEST : UCR_EAST;
}

/* "the ladder in the middle of the room, down," for a passage that comes
 * up in the middle of the floor by @under. */
static char *middle_phrase(const ucr_passage *p, const ucr_crossing *under)
{
    bool ladder = false;
    for (guint k = 0; k < p->stairs->len; k++) {
        const ucr_passage_stairs *ps = &g_array_index(p->stairs, ucr_passage_stairs, k);
        if (ps->index == (int)p->cells->len - 1)
            ladder = ps->stair == UCR_LADDER_DOWN || ps->stair == UCR_LADDER_UP;
    }
    return g_strdup_printf("the %s in the middle of the room, %s,", ladder ? "ladder" : "stairs",
                           under->kind == UCR_CROSS_UNDER ? "down" : "up");
}

/* The door of passage @passage in the wall of area @area at the passage's
 * end square @at (a passage that leaves and comes back has one at each
 * end), or the last door of that area and passage, or -1. */
static int door_at_end(const ucr_node *n, int area, guint passage, ucr_point at)
{
    int found = -1;
    for (guint d = 0; d < n->doors->len; d++) {
        const ucr_door *dr = &g_array_index(n->doors, ucr_door, d);
        if (dr->area != area || (guint)dr->passage != passage)
            continue;
        if (dr->cell.x == at.x && dr->cell.y == at.y)
            return (int)d;
        found = (int)d;
    }
    return found;
}

/* One end of passage @i at @area: its side, its door, and what stands at
 * the other end when that is an area (its door; the side a loop comes back
 * in by). */
static area_exit exit_of(const ucr_megadungeon *md, const ucr_node *n, int area, guint i, int end)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
    int vtx = end == 0 ? p->a : p->b, other = end == 0 ? p->b : p->a;
    area_exit e = { .times = 1, .far = { .loop_side = -1 } };
    const ucr_crossing *under;
    e.side = exit_side(a, p, end, &under);
    if (under)
        e.door = middle_phrase(p, under);
    ucr_point here_cell = g_array_index(p->cells, ucr_point, end == 0 ? 0 : p->cells->len - 1);
    ucr_point far_cell = g_array_index(p->cells, ucr_point, end == 0 ? p->cells->len - 1 : 0);
    int d = door_at_end(n, area, i, here_cell);
    if (d >= 0) {
        g_free(e.door);
        e.door = door_phrase(n, (guint)d);
        e.has_door = true;
        e.door_kind = g_array_index(n->doors, ucr_door, d).kind;
    }
    const ucr_vertex *ov = &g_array_index(n->vertices, ucr_vertex, other);
    if (ov->kind == UCR_VERTEX_AREA) {
        if (other == vtx) {
            const ucr_crossing *u2;
            e.far.loop_side = (int)exit_side(a, p, 1 - end, &u2);
        }
        /* A door at the other end is met there; a loop's second door is
         * the one of its other end, not this one again. */
        int fd = door_at_end(n, ov->area, i, far_cell);
        if (fd == d)
            fd = -1;
        if (fd >= 0) {
            e.far.door = door_phrase(n, (guint)fd);
            e.far.door_kind = g_array_index(n->doors, ucr_door, fd).kind;
        }
    }
    e.dest = passage_destination(md, n, p, vtx, &e.far);
    e.to = passage_to(md, n, p, vtx, &e.far);
    return e;
}

/* Exits alike in every word (side, door, where to) stand as one that says
 * how many: "east: two passages (10 ft each) to 17". */
static void exits_merge(GArray *out)
{
    for (guint i = 0; i < out->len; i++) {
        area_exit *e = &g_array_index(out, area_exit, i);
        for (guint k = i + 1; k < out->len && e->times; k++) {
            area_exit *o = &g_array_index(out, area_exit, k);
            if (o->times && o->side == e->side && g_strcmp0(o->door, e->door) == 0 &&
                strcmp(o->dest, e->dest) == 0) {
                e->times += o->times;
                o->times = 0;
            }
        }
    }
}

/* Every passage end at area @area, in passage order; a passage that
 * leaves and comes back to it is one exit. */
static GArray *area_exits(const ucr_megadungeon *md, const ucr_node *n, int area)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(area_exit));
    g_array_set_clear_func(out, area_exit_clear);
    for (guint i = 0; i < n->passages->len; i++) {
        const ucr_passage *p = &g_array_index(n->passages, ucr_passage, i);
        for (int end = 0; end < 2; end++) {
            int vtx = end == 0 ? p->a : p->b;
            if (vtx != area || (end == 1 && p->a == p->b))
                continue;
            area_exit e = exit_of(md, n, area, i, end);
            g_array_append_val(out, e);
        }
    }
    exits_merge(out);
    return out;
}

/* One exit in the room table's words: "E 17", "W 11 (secret door; locked
 * door at 11)", "E 17 ×2", "C-7 (tunnel, secret door)". */
static void exit_row_append(GString *s, const area_exit *e)
{
    if (!e->times)
        return;
    g_string_append_printf(s, "%s%c %s", s->len ? "; " : "", g_ascii_toupper(ucr_dir_name(e->side)[0]), e->to);
    GString *doors = g_string_new(NULL);
    if (e->has_door)
        g_string_append(doors, door_word(e->door_kind));
    if (e->far.door && e->far.loop_side >= 0)
        g_string_append_printf(doors, "%s%s at %c", doors->len ? "; " : "", door_word(e->far.door_kind),
                               g_ascii_toupper(ucr_dir_name(e->far.loop_side)[0]));
    else if (e->far.door)
        g_string_append_printf(doors, "%s%s at %s", doors->len ? "; " : "", door_word(e->far.door_kind), e->to);
    if (doors->len && s->str[s->len - 1] == ')') {   /* "C-7 (tunnel, secret door)" */
        g_string_truncate(s, s->len - 1);
        g_string_append_printf(s, ", %s)", doors->str);
    } else if (doors->len) {
        g_string_append_printf(s, " (%s)", doors->str);
    }
    if (e->times > 1)
        g_string_append_printf(s, " ×%d", e->times);
    g_string_free(doors, TRUE);
}

/* The number words of exits alike. */
static const char *times_word(int n)
{
    static const char *const words[] = { "", "one", "two", "three", "four", "five", "six" };
    return n < (int)G_N_ELEMENTS(words) ? words[n] : "several";
}

/* One exit in the prose's words, "; " before all but the first: "north: a
 * wooden door to a passage (30 ft) to 6"; exits alike said once, "east: two
 * passages (10 ft each) to 17" or "east, twice: a door to …". */
static void exit_prose_append(GString *s, const area_exit *e, gboolean first)
{
    if (!e->times)
        return;
    const char *sep = first ? "" : "; ";
    const char *side = ucr_dir_name(e->side);
    if (e->times > 1 && !e->door && !e->far.door && g_str_has_prefix(e->dest, "a passage (")) {
        /* "a passage (10 ft, stairs up) to 17" → "two passages (10 ft each, stairs up) to 17" */
        const char *rest = e->dest + strlen("a passage (");
        const char *ft = strstr(rest, " ft");
        if (ft) {
            char *len = g_strndup(rest, (gsize)(ft - rest));
            ucr_key_append_escaped(s, "%s%s: %s passages (%s ft each%s", sep, side, times_word(e->times), len, ft + 3);
            g_free(len);
            return;
        }
    }
    if (e->times > 1)
        ucr_key_append_escaped(s, "%s%s, %s%s: %s%s%s", sep, side, e->times == 2 ? "twice" : times_word(e->times),
                       e->times == 2 ? "" : " times", e->door ? e->door : "", e->door ? " to " : "", e->dest);
    else
        ucr_key_append_escaped(s, "%s%s: %s%s%s", sep, side, e->door ? e->door : "", e->door ? " to " : "", e->dest);
}

/* The text of the parts of @a's stocking, joined. */
static char *monsters_text(const ucr_area *a, gboolean with_doing)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; a->monsters && i < a->monsters->len; i++) {
        const ucr_monster *m = &g_array_index(a->monsters, ucr_monster, i);
        if (s->len)
            g_string_append(s, "; ");
        if (m->fields && m->count > 0)
            g_string_append_printf(s, "%d %s", m->count, m->count == 1 ? m->name : m->plural);
        else
            g_string_append(s, m->name);
        if (with_doing && m->doing && *m->doing)
            g_string_append_printf(s, ", %s", m->doing);
    }
    return g_string_free(s, FALSE);
}

static char *treasure_text(const ucr_area *a)
{
    GString *s = g_string_new(NULL);
    int valued = 0;
    for (guint i = 0; a->treasure && i < a->treasure->len; i++) {
        const ucr_treasure *t = &g_array_index(a->treasure, ucr_treasure, i);
        g_string_append_printf(s, "%s%s", s->len ? "; " : "", t->text);
        valued += t->value > 0;
    }
    if (a->treasure && a->treasure->len > 1 && valued) {
        char *gp = ucr_key_gp(a->treasure_gp);
        g_string_append_printf(s, " (%s gp in all)", gp);
        g_free(gp);
    }
    return g_string_free(s, FALSE);
}

void ucr_key_area_row(const ucr_megadungeon *md, const ucr_node *n, int area, ucr_key_row *row)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    GString *what = g_string_new(NULL);
    if (a->kind == UCR_AREA_ROOM && a->diamond)
        g_string_append_printf(what, "Room, diamond %d ft", a->w * 10);
    else if (a->kind == UCR_AREA_ROOM)
        g_string_append_printf(what, "Room %d × %d ft", a->w * 10, a->h * 10);
    else if (a->kind == UCR_AREA_JUNCTION)
        g_string_append(what, "Intersection");
    /* Stairs and ladders: where they go, in the words of the prose. */
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area != area || l->has_side || l->kind == UCR_LINK_ENTRANCE)
            continue;
        char *t = l->exit == UCR_EXIT_SURFACE ? g_strdup("the surface")
                  : l->exit == UCR_EXIT_BELOW ? g_strdup("the levels below")
                                              : ucr_key_link_target(md, l);
        const char *phrase = a->trapdoor && l->kind == UCR_LINK_LADDER_DOWN ? "Trap door" : link_phrase(l->kind);
        if (g_str_has_prefix(phrase, "A "))
            phrase += 2;   /* "Ladder down", as a heading */
        g_string_append_printf(what, "%s%c%s to %s", what->len ? "; " : "", g_ascii_toupper(phrase[0]), phrase + 1, t);
        g_free(t);
    }
    if (!what->len)
        g_string_append(what, area_title(a));
    if (a->contents && (g_strcmp0(a->contents_kind, "special") == 0 ||
                        g_strcmp0(a->contents_kind, "obstacle") == 0)) {
        gsize at = what->len + 2;
        g_string_append_printf(what, "; %s", a->contents);
        /* Mid-row: "a pool of stagnant water", not "A pool". */
        if (g_ascii_isupper(what->str[at]) && !g_ascii_isupper(what->str[at + 1]))
            what->str[at] = g_ascii_tolower(what->str[at]);
        if (what->str[what->len - 1] == '.')
            g_string_truncate(what, what->len - 1);
    }
    row->what = g_string_free(what, FALSE);
    row->who = monsters_text(a, FALSE);
    row->trap = g_strdup(a->trap ? a->trap : "");
    row->treasure = treasure_text(a);
    GArray *ex = area_exits(md, n, area);
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < ex->len; i++)
        exit_row_append(s, &g_array_index(ex, area_exit, i));
    g_array_free(ex, TRUE);
    row->exits = g_string_free(s, FALSE);
}

/* A door in a mini-zine's exits: "door", else its kind alone ("locked"). */
static const char *door_word_terse(ucr_door_kind k)
{
    switch (k) {
    case UCR_DOOR_SECRET: return "secret";
    case UCR_DOOR_LOCKED: return "locked";
    case UCR_DOOR_TRAPPED: return "trapped";
    default: return "door";
    }
}

char *ucr_key_area_exits_terse(const ucr_megadungeon *md, const ucr_node *n, int area)
{
    GArray *ex = area_exits(md, n, area);
    GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
    GArray *times = g_array_new(FALSE, TRUE, sizeof(int));
    for (guint i = 0; i < ex->len; i++) {
        const area_exit *e = &g_array_index(ex, area_exit, i);
        if (!e->times)
            continue;
        /* "C-7 (tunnel)" takes its door inside the brackets. */
        const char *to = e->to;
        size_t tl = strlen(to);
        bool bracket = tl && to[tl - 1] == ')';
        char *w = !e->has_door ? g_strdup_printf("%c %s", g_ascii_toupper(ucr_dir_name(e->side)[0]), to)
                  : bracket    ? g_strdup_printf("%c %.*s, %s)", g_ascii_toupper(ucr_dir_name(e->side)[0]),
                                                 (int)tl - 1, to, door_word_terse(e->door_kind))
                               : g_strdup_printf("%c %s (%s)", g_ascii_toupper(ucr_dir_name(e->side)[0]), to,
                                                 door_word_terse(e->door_kind));
        /* Without the far doors more exits read alike: each said once. */
        guint k = 0;
        while (k < words->len && strcmp(g_ptr_array_index(words, k), w) != 0)
            k++;
        if (k < words->len) {
            g_array_index(times, int, k) += e->times;
            g_free(w);
        } else {
            g_ptr_array_add(words, w);
            g_array_append_val(times, e->times);
        }
    }
    GString *s = g_string_new(NULL);
    for (guint k = 0; k < words->len; k++) {
        g_string_append_printf(s, "%s%s", k ? ", " : "", (const char *)g_ptr_array_index(words, k));
        if (g_array_index(times, int, k) > 1)
            g_string_append_printf(s, " ×%d", g_array_index(times, int, k));
    }
    g_array_free(times, TRUE);
    g_ptr_array_free(words, TRUE);
    g_array_free(ex, TRUE);
    return g_string_free(s, FALSE);
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

gboolean ucr_key_area_has_prose(const ucr_node *n, int area)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    if (a->kind != UCR_AREA_JUNCTION || a->level != n->depth || a->trap ||
        a->unreachable || a->pocket_way >= 0)
        return TRUE;
    if (a->contents && g_strcmp0(a->contents_kind, "empty") != 0)
        return TRUE;
    if ((a->monsters && a->monsters->len) || (a->treasure && a->treasure->len))
        return TRUE;
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area == area && !l->has_side)
            return TRUE;
    }
    return FALSE;
}

char *ucr_key_area_markup(const ucr_megadungeon *md, const ucr_node *n, int area, gboolean show_dice)
{
    const ucr_area *a = &g_array_index(n->areas, ucr_area, area);
    GString *s = g_string_new(NULL);
    ucr_key_append_escaped(s, "<b>%d. %s</b>", a->key, area_title(a));
    if (a->kind == UCR_AREA_ROOM && a->diamond)   /* seed 003 */
        g_string_append_printf(s, ", a diamond %d ft from corner to corner", a->w * 10);
    else if (a->kind == UCR_AREA_ROOM)
        g_string_append_printf(s, ", %d × %d ft", a->w * 10, a->h * 10);
    g_string_append(s, ". ");
    if (a->level != n->depth)   /* stairs inside the node led here (key/analysis.h) */
        g_string_append_printf(s, "<b>On level %d</b> (the node's ways in are on level %d). ", a->level,
                               n->depth);
    if (a->shape)
        ucr_key_append_escaped(s, "<i>%s</i> ", a->shape);
    /* Contents: always for rooms; elsewhere only when something is there. */
    if (a->contents && (a->kind == UCR_AREA_ROOM || g_strcmp0(a->contents_kind, "empty") != 0)) {
        const char *label = contents_label(a->contents_kind);
        if (label)
            ucr_key_append_escaped(s, "<b>%s</b> ", label);
        ucr_key_append_escaped(s, "%s ", a->contents);
    }
    if (a->treasure && a->treasure->len > 1 && a->treasure_gp > 0) {
        char *gp = ucr_key_gp(a->treasure_gp);
        g_string_append_printf(s, "The treasure here is worth <b>%s gp</b> in all. ", gp);
        g_free(gp);
    }
    if (a->kind == UCR_AREA_STAIRS && a->link < 0)
        g_string_append(s, "The tunnel changes level here and goes on. ");
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area != area || l->has_side)
            continue;
        if (l->kind == UCR_LINK_ENTRANCE) {
            ucr_key_append_escaped(s, "<b>Entrance:</b> %s. ", l->via);
        } else if (l->exit == UCR_EXIT_SURFACE) {
            g_string_append_printf(s, "%s to the surface. ", area_link_phrase(a, l->kind));
        } else if (l->exit == UCR_EXIT_BELOW) {
            g_string_append_printf(s, "%s to the levels below (not in this booklet). ",
                                   area_link_phrase(a, l->kind));
        } else {
            char *target = ucr_key_link_target(md, l);
            const ucr_node *tn = g_ptr_array_index(md->nodes, l->to_node);
            ucr_key_append_escaped(s, "%s to <b>%s</b> (level %d). ", area_link_phrase(a, l->kind), target, tn->depth);
            g_free(target);
        }
    }
    /* Exits, by the wall they leave from. */
    GArray *ex = area_exits(md, n, area);
    for (guint i = 0; i < ex->len; i++) {
        const area_exit *e = &g_array_index(ex, area_exit, i);
        if (i == 0)
            g_string_append(s, "Exits — ");
        exit_prose_append(s, e, i == 0);
    }
    if (ex->len)
        g_string_append(s, ".");
    else if (a->link < 0)
        g_string_append(s, "No exits: reached only by the stairs above, or not at all.");
    g_array_free(ex, TRUE);
    if (a->unreachable)
        ucr_key_append_escaped(s, " <i>No route from the surface reaches it: %s.</i>", a->unreachable);
    else if (a->pocket_way >= 0) {
        /* The stairs or ladder that lead in (key/analysis.h: pockets). */
        bool ladder = false;
        for (guint k = 0; k < n->links->len; k++) {
            const ucr_link *l = &g_array_index(n->links, ucr_link, k);
            if (l->area == a->pocket_way && !l->has_side) {
                ladder = l->kind == UCR_LINK_LADDER_DOWN || l->kind == UCR_LINK_LADDER_UP;
                break;
            }
        }
        g_string_append(s, " <i>A pocket: no passage joins it to the rest of the node; ");
        if (a->pocket_way == area)
            g_string_append(s, ladder ? "only this ladder leads in.</i>" : "only these stairs lead in.</i>");
        else
            g_string_append_printf(s, ladder ? "only the ladder at %d leads in.</i>" : "only the stairs at %d lead in.</i>",
                                   g_array_index(n->areas, ucr_area, a->pocket_way).key);
    }
    /* Who is here, one stat line each, for the GM to fight them by. */
    for (guint i = 0; a->monsters && i < a->monsters->len; i++) {
        const ucr_monster *m = &g_array_index(a->monsters, ucr_monster, i);
        if (!m->fields)
            continue;
        char *line = ucr_key_monster_stats(m);
        ucr_key_append_escaped(s, "\n<i>%s</i>", line);
        g_free(line);
    }
    if (show_dice) {
        GString *rolled = g_string_new(NULL);
        if (a->rolled && a->kind != UCR_AREA_JUNCTION)
            g_string_append(rolled, a->rolled);
        if (a->stocked)
            g_string_append_printf(rolled, "%s%s", rolled->len ? "; " : "", a->stocked);
        if (rolled->len)
            ucr_key_append_escaped(s, "\n<span size='smaller' foreground='#555555'>Rolled: %s</span>", rolled->str);
        g_string_free(rolled, TRUE);
    }
    return g_string_free(s, FALSE);
}

char *ucr_key_node_intro_markup(const ucr_megadungeon *md, const ucr_node *n)
{
    (void)md;
    GString *s = g_string_new(NULL);
    const char *name = ucr_key_node_name(n);
    if (name)
        ucr_key_append_escaped(s, "<b>%s</b> (node %s), ", name, n->id);
    else
        ucr_key_append_escaped(s, "<b>Node %s</b>, ", n->id);
    g_string_append_printf(s, "dungeon level %d.", n->depth);
    if (n->theme && *n->theme)
        ucr_key_append_escaped(s, " %s", n->theme);
    if (s->str[s->len - 1] != '.')
        g_string_append_c(s, '.');
    int with = 0;
    for (guint i = 0; i < n->areas->len; i++)
        with += g_array_index(n->areas, ucr_area, i).treasure_gp > 0;
    if (n->treasure_gp > 0) {
        char *gp = ucr_key_gp(n->treasure_gp);
        g_string_append_printf(s, " Treasure: <b>%s gp</b> in all, in %d %s.", gp, with, with == 1 ? "area" : "areas");
        g_free(gp);
    }
    if (n->wandering && n->wandering->len) {
        ucr_key_append_escaped(s, "\n<b>Wandering monsters.</b> Check %s; when they come, roll %s:",
                       n->wandering_check ? n->wandering_check : "1 in 6, every 2 turns",
                       n->wandering_dice ? n->wandering_dice : "1d6");
        for (guint i = 0; i < n->wandering->len; i++) {
            const ucr_wandering_row *w = &g_array_index(n->wandering, ucr_wandering_row, i);
            char *line = ucr_key_monster_stats(&w->monster);
            if (w->lo == w->hi)
                ucr_key_append_escaped(s, "\n%d: %s", w->lo, line);
            else
                ucr_key_append_escaped(s, "\n%d–%d: %s", w->lo, w->hi, line);
            g_free(line);
        }
    }
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
        char *ft = ucr_key_number(st->farthest * 10);
        g_string_append_printf(s, " · from the entry (%d) the farthest area is <b>%d</b>, %s ft of passage away",
                               entry->key, far->key, ft);
        g_free(ft);
    }
    if (st->secret_only)
        g_string_append_printf(s, " · <b>%d</b> %s only through secret doors", st->secret_only,
                               plural(st->secret_only, "area reached", "areas reached"));
    if (st->pockets)
        g_string_append_printf(s, " · <b>%d</b> %s (no passage from its tunnels or entrance)",
                               st->pockets, plural(st->pockets, "pocket", "pockets"));
    if (st->unreachable) {
        g_string_append_printf(s, " · <b>%d</b> unreachable:", st->unreachable);
        int k = 0;
        for (guint i = 0; i < n->areas->len; i++) {
            const ucr_area *a = &g_array_index(n->areas, ucr_area, i);
            if (!a->unreachable)
                continue;
            /* The reason's first words; how to get through is in the area's entry. */
            const char *dash = strstr(a->unreachable, " — ");
            int len = dash ? (int)(dash - a->unreachable) : (int)strlen(a->unreachable);
            ucr_key_append_escaped(s, "%s %d (%.*s)", k++ ? ";" : "", a->key, len, a->unreachable);
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
