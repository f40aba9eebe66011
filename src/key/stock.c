#include "key/stock.h"

#include <string.h>

static unsigned flags_of(const ucr_roll *r)
{
    unsigned f = 0;
    if (ucr_roll_visited(r, "monster"))
        f |= UCR_STOCK_MONSTER;
    if (ucr_roll_visited(r, "trap") || ucr_roll_visited(r, "door-trap"))
        f |= UCR_STOCK_TRAP;
    if (ucr_roll_visited(r, "treasure"))
        f |= UCR_STOCK_TREASURE;
    return f;
}

static void area_clear(ucr_area *a)
{
    g_clear_pointer(&a->contents, g_free);
    g_clear_pointer(&a->contents_kind, g_free);
    g_clear_pointer(&a->shape, g_free);
    g_clear_pointer(&a->stocked, g_free);
    a->stock = 0;
}

/* An area whose feature a node method rolled (seed 002's d6 at every
 * leximorph junction: 1 ordinary, 2 trapped, 3 trapped but disabled, 4 minor
 * obstacle, debris or pool): the feature is the one truth that the map draws,
 * so the key says the same and no second junction table is rolled over it.
 * Only a trap's detail is rolled, on the trap table (a disabled one keeps
 * the trap flag, as the junction table's "already sprung" row always did). */
static void feature_stock(ucr_area *a, const ucr_tables *tables, ucr_prng *rng)
{
    ucr_roll r = { 0 };
    bool trap = a->feature == UCR_FEATURE_TRAP || a->feature == UCR_FEATURE_TRAP_DISABLED;
    if (trap)
        ucr_tables_roll(tables, "trap", rng, &r);
    switch (a->feature) {
    case UCR_FEATURE_TRAP:
        a->contents = g_strdup_printf("Trapped junction: %s.", r.text);
        a->contents_kind = g_strdup("trap");
        a->stock = flags_of(&r) | UCR_STOCK_TRAP;
        break;
    case UCR_FEATURE_TRAP_DISABLED:
        a->contents = g_strdup_printf("Trapped junction, the trap disabled (sprung long ago, harmless now): %s.", r.text);
        a->contents_kind = g_strdup("trap");
        a->stock = flags_of(&r);
        break;
    case UCR_FEATURE_DEBRIS:
        a->contents = g_strdup("Minor obstacle: debris across the way, a turn to climb over.");
        a->contents_kind = g_strdup("obstacle");
        break;
    case UCR_FEATURE_POOL:
        a->contents = g_strdup("Minor obstacle: a pool of liquid across the way.");
        a->contents_kind = g_strdup("obstacle");
        break;
    default:
        a->contents = g_strdup("An ordinary junction: nothing of note.");
        a->contents_kind = g_strdup("empty");
        break;
    }
    /* The record: the node method's own roll decided what is here. */
    a->stocked = g_strdup_printf("%s (rolled with the node)%s%s",
                                 a->feature == UCR_FEATURE_NONE ? "ordinary junction" : ucr_area_feature_name(a->feature),
                                 trap ? "; " : "", trap ? r.rolled : "");
    if (trap)
        ucr_roll_clear(&r);
}

static void area_stock(ucr_area *a, const ucr_tables *tables, ucr_prng *rng)
{
    area_clear(a);
    if (a->kind != UCR_AREA_ROOM && (a->feature_rolled || a->feature != UCR_FEATURE_NONE)) {
        feature_stock(a, tables, rng);
        return;
    }
    GString *rec = g_string_new(NULL);
    if (a->kind == UCR_AREA_ROOM) {
        ucr_roll shape;
        ucr_tables_roll(tables, "room-shape", rng, &shape);
        a->shape = g_strdup(shape.text);
        ucr_text_capitalise(a->shape);
        g_string_append(rec, shape.rolled);
        ucr_roll_clear(&shape);
    }
    ucr_roll r;
    ucr_tables_roll(tables, a->kind == UCR_AREA_ROOM ? "contents" : "junction", rng, &r);
    a->contents = g_strdup(r.text);
    ucr_text_capitalise(a->contents);
    a->contents_kind = g_strdup(r.tag);
    a->stock = flags_of(&r);
    g_string_append_printf(rec, "%s%s", rec->len ? "; " : "", r.rolled);
    ucr_roll_clear(&r);
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

void ucr_megadungeon_stock(ucr_megadungeon *md, const ucr_tables *tables, const char *seed)
{
    for (guint i = 0; i < md->nodes->len; i++) {
        ucr_node *node = g_ptr_array_index(md->nodes, i);
        char *label = g_strdup_printf("stock/%s", node->id);
        ucr_prng rng;
        ucr_prng_seed(&rng, seed, label);
        g_free(label);
        /* Areas in key order, so that the rolls read down the key. */
        int na = (int)node->areas->len;
        int *by_key = g_new0(int, na + 1);
        for (int k = 0; k < na; k++) {
            int key = g_array_index(node->areas, ucr_area, k).key;
            by_key[(key >= 1 && key <= na) ? key - 1 : k] = k;
        }
        for (int k = 0; k < na; k++)
            area_stock(&g_array_index(node->areas, ucr_area, by_key[k]), tables, &rng);
        g_free(by_key);
        g_assert(node->door_stock == NULL);   /* stocked once */
        node->door_stock = g_array_sized_new(FALSE, TRUE, sizeof(ucr_door_stock), node->doors->len);
        g_array_set_size(node->door_stock, node->doors->len);
        for (guint d = 0; d < node->doors->len; d++)
            door_stock(&g_array_index(node->doors, ucr_door, d),
                       &g_array_index(node->door_stock, ucr_door_stock, d), tables, &rng);
    }
}
