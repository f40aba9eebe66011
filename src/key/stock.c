#include "key/stock.h"

#include "key/describe.h"

#include <string.h>

static unsigned flags_of(const ucr_roll *r)
{
    unsigned f = 0;
    if (ucr_roll_visited(r, "monster"))
        f |= UCR_STOCK_MONSTER;
    /* "trap" and every "…-trap" table ("door-trap", "passage-trap"). */
    for (guint i = 0; i < r->visited->len; i++) {
        const char *name = g_ptr_array_index(r->visited, i);
        if (strcmp(name, "trap") == 0 || g_str_has_suffix(name, "-trap"))
            f |= UCR_STOCK_TRAP;
    }
    if (ucr_roll_visited(r, "treasure"))
        f |= UCR_STOCK_TREASURE;
    return f;
}

/* @a + @b gold pieces, a sum of treasures: each is worth at most
 * UCR_TREASURE_GP_MAX (checked when the tables load), and a sum stops at
 * G_MAXINT rather than wrap round to a debt (README, Limits). */
static int gp_add(int a, int b)
{
    return (int)CLAMP((gint64)a + b, 0, G_MAXINT);
}

/* What the table hook needs: where to put what it rolls, and the node's
 * theme, which its monsters draw from. */
typedef struct {
    ucr_area *area;
    const char *theme_kind;    /* theme.txt's "kind" of the node, or NULL */
} stock_ctx;

/* "a goblin" / "an ochre jelly": the article English wants. */
static const char *article(const char *noun)
{
    return strchr("aeiouAEIOU", noun[0]) && noun[0] ? "an" : "a";
}

static void monster_from_row(const ucr_table *t, const ucr_table_row *row, ucr_monster *m)
{
    m->name = g_strdup(ucr_table_field(t, row, "name"));
    m->plural = g_strdup(ucr_table_field(t, row, "plural"));
    m->appearing = g_strdup(ucr_table_field(t, row, "no"));
    m->doing = g_strdup(ucr_table_field(t, row, "doing"));
    m->fields = g_array_new(FALSE, TRUE, sizeof(ucr_field));
    for (int i = 0; t->columns[i]; i++) {
        ucr_field f = { g_strdup(t->columns[i]), g_strdup(row->fields[i]) };
        g_array_append_val(m->fields, f);
    }
}

/* One row of monster table @t.  In a themed node, half the time one of the
 * rows of the node's theme (column "theme"), so that a node reads as a
 * place held by someone (seed 004: "themes and room clusters"). */
static const ucr_table_row *monster_row(const stock_ctx *c, const ucr_table *t, ucr_prng *rng, GString *rolled)
{
    if (c->theme_kind && ucr_table_column(t, "theme") >= 0 && ucr_dice_d(rng, 6) <= 3) {
        GPtrArray *mine = g_ptr_array_new();
        for (guint r = 0; r < t->rows->len; r++) {
            const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
            if (strcmp(ucr_table_field(t, row, "theme"), c->theme_kind) == 0)
                g_ptr_array_add(mine, (gpointer)row);
        }
        const ucr_table_row *pick = NULL;
        if (mine->len) {
            pick = g_ptr_array_index(mine, ucr_dice_d(rng, (int)mine->len) - 1);
            g_string_append_printf(rolled, "%s%s: the theme's %s", rolled->len ? "; " : "", t->name, pick->fields[0]);
        }
        g_ptr_array_free(mine, TRUE);
        if (pick)
            return pick;
    }
    int total;
    const ucr_table_row *row = ucr_table_roll(t, rng, &total);
    g_string_append_printf(rolled, "%s%s %dd%d=%d", rolled->len ? "; " : "", t->name, t->count, t->sides, total);
    return row;
}

/* A monster placed in the area: how many (the table's "no"), each one's hit
 * points (d8 a hit die, "1/2" a d4, at least 1), and the phrase the key's
 * sentence shows. */
static char *monster_place(stock_ctx *c, const ucr_table *t, ucr_prng *rng, GString *rolled)
{
    const ucr_table_row *row = monster_row(c, t, rng, rolled);
    ucr_monster m = { 0 };
    monster_from_row(t, row, &m);
    ucr_dice_expr no;
    ucr_dice_expr_parse(m.appearing, &no);   /* checked when loaded */
    m.count = MAX(1, ucr_dice_expr_roll(&no, rng));
    int dice, add;
    ucr_hit_dice_parse(ucr_table_field(t, row, "hd"), &dice, &add);
    m.hp = g_array_sized_new(FALSE, FALSE, sizeof(int), (guint)m.count);
    for (int i = 0; i < m.count; i++) {
        int hp = MAX(1, (dice ? ucr_dice_roll(rng, dice, 8) : ucr_dice_d(rng, 4)) + add);
        g_array_append_val(m.hp, hp);
    }
    g_string_append_printf(rolled, "; no %s=%d", m.appearing, m.count);
    char *phrase = m.count == 1 ? g_strdup_printf("%s %s", article(m.name), m.name)
                                : g_strdup_printf("%d %s", m.count, m.plural);
    char *text = *m.doing ? g_strdup_printf("%s, %s", phrase, m.doing) : g_strdup(phrase);
    g_free(phrase);
    m.stats = ucr_key_monster_stats(&m);
    if (c->area) {
        if (!c->area->monsters)
            c->area->monsters = g_array_new(FALSE, TRUE, sizeof(ucr_monster));
        g_array_append_val(c->area->monsters, m);
    } else {
        ucr_monster_clear(&m);
    }
    return text;
}

/* A treasure placed in the area, valued in gold pieces: "no" of the item,
 * each worth "gp" (whose "/K" divides the whole: 300 copper pieces at
 * "1/100" are 3 gp). */
static char *treasure_place(stock_ctx *c, const ucr_table *t, ucr_prng *rng, GString *rolled)
{
    int total;
    const ucr_table_row *row = ucr_table_roll(t, rng, &total);
    ucr_dice_expr no, gp;
    ucr_dice_expr_parse(ucr_table_field(t, row, "no"), &no);   /* checked when loaded */
    ucr_dice_expr_parse(ucr_table_field(t, row, "gp"), &gp);
    int count = MAX(1, ucr_dice_expr_roll(&no, rng));
    int each_raw = ((gp.count ? ucr_dice_roll(rng, gp.count, gp.sides) : 0) + gp.add) * gp.mul;
    int value = (int)CLAMP((gint64)count * each_raw / gp.div, 0, UCR_TREASURE_GP_MAX);
    g_string_append_printf(rolled, "%s%s %dd%d=%d; no=%d; gp=%d", rolled->len ? "; " : "", t->name, t->count,
                           t->sides, total, count, value);
    const char *item = ucr_table_field(t, row, "item"), *items = ucr_table_field(t, row, "items");
    const char *where = ucr_table_field(t, row, "where");
    GString *s = g_string_new(NULL);
    gboolean coins_in_gp = gp.count == 0 && gp.add == 1 && gp.mul == 1 && gp.div == 1;
    if (no.count == 0 && count == 1)
        g_string_append(s, item);             /* "a silver candlestick": the table's own words */
    else
        g_string_append_printf(s, "%d %s", count, count == 1 ? item : items);
    if (count > 1 && gp.div == 1 && !coins_in_gp) {
        char *each = ucr_key_gp(each_raw);
        g_string_append_printf(s, " worth %s gp each", each);
        g_free(each);
    }
    if (*where)
        g_string_append_printf(s, " %s", where);
    if (!coins_in_gp && value > 0) {
        char *all = ucr_key_gp(value);
        g_string_append_printf(s, " (%s gp)", all);
        g_free(all);
    }
    if (c->area) {
        if (!c->area->treasure)
            c->area->treasure = g_array_new(FALSE, TRUE, sizeof(ucr_treasure));
        ucr_treasure tr = { g_strdup(s->str), value };
        g_array_append_val(c->area->treasure, tr);
        c->area->treasure_gp = gp_add(c->area->treasure_gp, value);
    }
    return g_string_free(s, FALSE);
}

static char *stock_hook(const ucr_table *t, ucr_prng *rng, GString *rolled, void *data)
{
    if (ucr_table_column(t, "hd") >= 0)
        return monster_place(data, t, rng, rolled);
    if (ucr_table_column(t, "gp") >= 0)
        return treasure_place(data, t, rng, rolled);
    return NULL;
}

/* Who, what trap and what treasure the roll put here, kept apart from the
 * sentence for the key's room table (describe.h).  A user's monster or
 * treasure table without columns still gives its text, with no stats and no
 * value. */
static void area_parts(ucr_area *a, const ucr_roll *r)
{
    gboolean had_monsters = a->monsters && a->monsters->len, had_treasure = a->treasure && a->treasure->len;
    if (!a->monsters)
        a->monsters = g_array_new(FALSE, TRUE, sizeof(ucr_monster));
    if (!a->treasure)
        a->treasure = g_array_new(FALSE, TRUE, sizeof(ucr_treasure));
    for (guint i = 0; i < r->parts->len; i++) {
        const ucr_roll_part *p = &g_array_index(r->parts, ucr_roll_part, i);
        if (strcmp(p->table, "monster") == 0 && !had_monsters) {
            ucr_monster m = { .name = g_strdup(p->text) };
            g_array_append_val(a->monsters, m);
        } else if ((strcmp(p->table, "trap") == 0 || g_str_has_prefix(p->table, "passage-trap")) && !a->trap) {
            a->trap = g_strdup(p->text);
        } else if (strcmp(p->table, "treasure") == 0 && !had_treasure) {
            ucr_treasure t = { .text = g_strdup(p->text) };
            g_array_append_val(a->treasure, t);
        }
    }
}

/* True if @x and @y share a sentence ("Brick walls, …. It smells …."). */
static gboolean shapes_share(const char *x, const char *y)
{
    char **xs = g_strsplit(x, ". ", -1), **ys = g_strsplit(y, ". ", -1);
    gboolean same = FALSE;
    for (int i = 0; xs[i] && !same; i++)
        for (int j = 0; ys[j] && !same; j++)
            same = g_ascii_strcasecmp(g_strchomp(xs[i]), g_strchomp(ys[j])) == 0;
    g_strfreev(xs);
    g_strfreev(ys);
    return same;
}

/* True if area @i of @n shares a passage with an area whose description
 * shares a sentence with @shape. */
static gboolean shape_next_door(const ucr_node *n, int i, const char *shape)
{
    for (guint p = 0; p < n->passages->len; p++) {
        const ucr_passage *ps = &g_array_index(n->passages, ucr_passage, p);
        int other = ps->a == i ? ps->b : ps->b == i ? ps->a : -1;
        if (other < 0 || other == i || other >= (int)n->areas->len)
            continue;
        const ucr_area *o = &g_array_index(n->areas, ucr_area, other);
        if (o->shape && shapes_share(o->shape, shape))
            return TRUE;
    }
    return FALSE;
}

static void area_stock(ucr_node *n, int index, const ucr_tables *tables, const char *seed,
                       const char *theme_kind, const char *theme_sign)
{
    ucr_area *a = &g_array_index(n->areas, ucr_area, index);
    ucr_area_stock_clear(a);
    /* Each area on a stream of its own: a table that rolls more or fewer
     * dice changes that area's words and nothing else, and the contents'
     * kind (the map's trap marks) is rolled first. */
    char *label = g_strdup_printf("stock/%s/%d", n->id, a->key);
    ucr_prng rng;
    ucr_prng_seed(&rng, seed, label);
    g_free(label);
    stock_ctx ctx = { a, theme_kind };
    ucr_roll r;
    /* A junction whose node method already put something there (seed 002's
     * trapped junctions and minor obstacles, which the map draws) is
     * described as that, not rolled again: no second trap or obstacle on
     * top of the method's. */
    const char *feature_table = NULL, *feature_kind = NULL;
    switch (a->kind == UCR_AREA_ROOM ? UCR_FEATURE_NONE : a->feature) {
    case UCR_FEATURE_TRAP: feature_table = "passage-trap", feature_kind = "trap"; break;
    case UCR_FEATURE_TRAP_DISABLED: feature_table = "passage-trap-sprung", feature_kind = "trap"; break;
    case UCR_FEATURE_DEBRIS: feature_table = "junction-debris", feature_kind = "obstacle"; break;
    case UCR_FEATURE_POOL: feature_table = "junction-pool", feature_kind = "obstacle"; break;
    default: break;
    }
    if (feature_table && !ucr_tables_lookup(tables, feature_table))
        feature_table = NULL;   /* a user's set without it: roll as usual */
    if (!feature_table && a->kind != UCR_AREA_ROOM && a->feature_rolled && a->feature == UCR_FEATURE_NONE) {
        /* The method's own roll said "an ordinary junction" (seed 002's 1):
         * nothing is rolled over it, so the key cannot disagree with it. */
        a->contents = g_strdup(a->kind == UCR_AREA_STAIRS ? "An ordinary landing: nothing of note."
                                                          : "An ordinary junction: nothing of note.");
        a->contents_kind = g_strdup("empty");
        a->monsters = g_array_new(FALSE, TRUE, sizeof(ucr_monster));
        a->treasure = g_array_new(FALSE, TRUE, sizeof(ucr_treasure));
        a->stocked = g_strdup("ordinary junction (rolled with the node)");
        return;
    }
    /* A stair landing is stocked as what it is (landing.txt: nothing, or a
     * trap the map marks), not as a junction, whose obstacles the map would
     * not draw. */
    const char *table = feature_table                  ? feature_table
                        : a->kind == UCR_AREA_ROOM     ? "contents"
                        : a->kind == UCR_AREA_STAIRS   ? "landing"
                                                       : "junction";
    ucr_tables_roll_at(tables, table, n->depth, &rng, stock_hook, &ctx, &r);
    /* An obstacle the stocking put at a junction becomes the area's feature,
     * so that the map draws the debris or pool the key names. */
    if (!feature_table && a->kind != UCR_AREA_ROOM && a->feature == UCR_FEATURE_NONE) {
        if (ucr_roll_visited(&r, "junction-debris"))
            a->feature = UCR_FEATURE_DEBRIS;
        else if (ucr_roll_visited(&r, "junction-pool"))
            a->feature = UCR_FEATURE_POOL;
    }
    a->contents = g_strdup(r.text);
    if (feature_table && strcmp(feature_kind, "trap") == 0) {
        char *sentence = g_strdup_printf("%s.", r.text);
        g_free(a->contents);
        a->contents = sentence;
    }
    ucr_text_capitalise(a->contents);
    a->contents_kind = g_strdup(feature_table ? feature_kind : r.tag);
    /* The map marks a feature already; the stocking's flag (its "T") only
     * for what the stocking put there. */
    a->stock = feature_table ? 0 : flags_of(&r);
    area_parts(a, &r);
    if (feature_table && strcmp(feature_kind, "trap") == 0) {   /* the whole phrase, "already sprung, …" */
        g_free(a->trap);
        a->trap = g_strdup(r.text);
    }
    GString *rec = g_string_new(r.rolled);
    ucr_roll_clear(&r);
    if (a->kind == UCR_AREA_ROOM) {
        /* What the room looks like, never a sentence of a room next door
         * (a few tries, then at least not the same words: the tables may
         * be small). */
        for (int tries = 0; tries < 12; tries++) {
            ucr_roll shape;
            ucr_tables_roll_at(tables, "room-shape", n->depth, &rng, stock_hook, &ctx, &shape);
            g_free(a->shape);
            a->shape = g_strdup(shape.text);
            ucr_text_capitalise(a->shape);
            g_string_append_printf(rec, "; %s", shape.rolled);
            ucr_roll_clear(&shape);
            if (!shape_next_door(n, index, a->shape))
                break;
        }
        /* An empty room of a themed node shows who holds it, one in three. */
        if (theme_sign && g_strcmp0(a->contents_kind, "empty") == 0 && ucr_dice_d(&rng, 6) <= 2) {
            char *more = g_strdup_printf("%s %s%s", a->contents, theme_sign,
                                         g_str_has_suffix(theme_sign, ".") ? "" : ".");
            ucr_text_capitalise(more);
            g_free(a->contents);
            a->contents = more;
        }
    }
    a->stocked = g_string_free(rec, FALSE);
}

static ucr_door_kind door_kind_of(const char *tag)
{
    if (tag && strcmp(tag, "locked") == 0)
        return UCR_DOOR_LOCKED;
    if (tag && strcmp(tag, "trapped") == 0)
        return UCR_DOOR_TRAPPED;
    return UCR_DOOR_PLAIN;
}

static void door_stock(ucr_door *d, ucr_door_stock *ds, const ucr_tables *tables, ucr_prng *rng)
{
    /* Only ordinary doors: secret doors stay secret, and a door a node
     * method already made locked or trapped by its own rule keeps it. */
    if (d->kind != UCR_DOOR_PLAIN)
        return;
    ucr_roll r;
    ucr_tables_roll(tables, "door", rng, &r);
    d->kind = door_kind_of(r.tag);
    ds->detail = g_strdup(r.text);
    ds->rolled = g_strdup(r.rolled);
    ucr_roll_clear(&r);
}

/* A name rolled on @table, capitalised, different from every name in
 * @taken (a few tries). */
static char *name_roll(const ucr_tables *tables, const char *table, ucr_prng *rng, GHashTable *taken)
{
    char *name = NULL;
    for (int tries = 0; tries < 12; tries++) {
        ucr_roll r;
        ucr_tables_roll(tables, table, rng, &r);
        g_free(name);
        name = g_strdup(r.text);
        ucr_roll_clear(&r);
        ucr_text_capitalise(name);
        if (!taken || !g_hash_table_contains(taken, name))
            break;
    }
    if (!*name) {   /* no such table in a user's own set */
        g_free(name);
        return NULL;
    }
    if (!taken)
        return name;
    g_hash_table_add(taken, name);
    return g_strdup(name);
}

/* The level's wandering monsters: every row of the wandering table chosen
 * for the node's depth, with how often to roll. */
static void wandering_stock(ucr_node *n, const ucr_tables *tables)
{
    const ucr_table *t = ucr_tables_resolve(tables, "wandering", n->depth);
    if (!t || t->by_level)
        return;
    n->wandering = g_array_new(FALSE, TRUE, sizeof(ucr_wandering_row));
    n->wandering_dice = g_strdup_printf("%dd%d", t->count, t->sides);
    n->wandering_check = g_strdup(t->check ? t->check : "1 in 6, every 2 turns");
    for (guint r = 0; r < t->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        if (row->pair[0])
            continue;
        ucr_wandering_row w = { .lo = row->lo, .hi = row->hi };
        if (t->columns && ucr_table_column(t, "hd") >= 0)
            monster_from_row(t, row, &w.monster);
        else
            w.monster.name = g_strdup(row->text);
        w.monster.stats = ucr_key_monster_stats(&w.monster);
        g_array_append_val(n->wandering, w);
    }
}

void ucr_megadungeon_stock(ucr_megadungeon *md, const ucr_tables *tables, const char *seed)
{
    GHashTable *taken = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    ucr_prng names;
    ucr_prng_seed(&names, seed, "stock/names");
    g_free(md->name);
    md->name = name_roll(tables, "dungeon-name", &names, NULL);
    for (guint i = 0; i < md->nodes->len; i++) {
        ucr_node *node = g_ptr_array_index(md->nodes, i);
        char *label = g_strdup_printf("stock/%s", node->id);
        ucr_prng rng;
        ucr_prng_seed(&rng, seed, label);
        g_free(label);
        g_free(node->name);
        node->name = name_roll(tables, "node-name", &rng, taken);
        /* The theme: who holds the node, or nobody. */
        const ucr_table *themes = ucr_tables_lookup(tables, "theme");
        const char *theme_kind = NULL, *theme_sign = NULL;
        g_clear_pointer(&node->theme, g_free);
        if (themes && themes->columns) {
            const ucr_table_row *row = ucr_table_roll(themes, &rng, NULL);
            const char *kind = ucr_table_field(themes, row, "kind");
            if (*kind && strcmp(kind, "none") != 0) {
                theme_kind = kind;
                node->theme = g_strdup(ucr_table_field(themes, row, "theme"));
                theme_sign = *ucr_table_field(themes, row, "sign") ? ucr_table_field(themes, row, "sign") : NULL;
            }
        }
        node->treasure_gp = 0;
        for (guint k = 0; k < node->areas->len; k++) {
            area_stock(node, (int)k, tables, seed, theme_kind, theme_sign);
            node->treasure_gp = gp_add(node->treasure_gp, g_array_index(node->areas, ucr_area, k).treasure_gp);
        }
        wandering_stock(node, tables);
        /* Doors on a stream of their own too: the map draws their kinds. */
        label = g_strdup_printf("stock/%s/doors", node->id);
        ucr_prng_seed(&rng, seed, label);
        g_free(label);
        g_assert(node->door_stock == NULL);   /* stocked once */
        node->door_stock = g_array_sized_new(FALSE, TRUE, sizeof(ucr_door_stock), node->doors->len);
        g_array_set_size(node->door_stock, node->doors->len);
        for (guint d = 0; d < node->doors->len; d++)
            door_stock(&g_array_index(node->doors, ucr_door, d),
                       &g_array_index(node->door_stock, ucr_door_stock, d), tables, &rng);
    }
    g_hash_table_destroy(taken);
}

/* The tables the stocking reads by name, and the kinds it acts on. */
static const char *const CONTENT_KINDS[] = { "empty", "monster", "trap", "special", "treasure",
                                             "obstacle", NULL };
/* A landing holds nothing the map does not show: no obstacle, no monster
 * (those are met in rooms and on the way). */
static const char *const LANDING_KINDS[] = { "empty", "trap", NULL };
static const char *const DOOR_KINDS[] = { "door", "locked", "trapped", NULL };
const ucr_table_need ucr_stock_tables[] = {
    { "room-shape", NULL, NULL, FALSE },
    { "door", DOOR_KINDS, NULL, FALSE },
    { "contents", CONTENT_KINDS, NULL, FALSE },
    { "junction", CONTENT_KINDS, NULL, FALSE },
    { "landing", LANDING_KINDS, NULL, FALSE },
    { NULL, NULL, NULL, FALSE },
};
