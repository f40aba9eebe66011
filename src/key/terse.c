#include "key/terse.h"

#include <string.h>

#include "key/describe.h"

static const ucr_area *area_at(const ucr_node *n, int i)
{
    return &g_array_index(n->areas, ucr_area, i);
}

char *ucr_key_terse_intro(const ucr_megadungeon *md, const ucr_node *n)
{
    (void)md;
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "Dungeon level %d.", n->depth);
    if (n->theme && *n->theme)
        ucr_key_append_escaped(s, " %s", n->theme);
    if (s->str[s->len - 1] != '.')
        g_string_append_c(s, '.');
    int with = 0;
    for (guint i = 0; i < n->areas->len; i++)
        with += area_at(n, (int)i)->treasure_gp > 0;
    if (n->treasure_gp > 0) {
        char *gp = ucr_key_gp(n->treasure_gp);
        g_string_append_printf(s, " Treasure <b>%s gp</b> in %d %s.", gp, with, with == 1 ? "area" : "areas");
        g_free(gp);
    }
    if (n->wandering && n->wandering->len) {
        ucr_key_append_escaped(s, "\n<b>Wandering monsters:</b> %s; roll %s.",
                       n->wandering_check ? n->wandering_check : "1 in 6, every 2 turns",
                       n->wandering_dice ? n->wandering_dice : "1d6");
        for (guint i = 0; i < n->wandering->len; i++) {
            const ucr_wandering_row *w = &g_array_index(n->wandering, ucr_wandering_row, i);
            char *line = ucr_key_monster_stats(&w->monster);
            if (w->lo == w->hi)
                ucr_key_append_escaped(s, "\n<b>%d</b> %s", w->lo, line);
            else
                ucr_key_append_escaped(s, "\n<b>%d–%d</b> %s", w->lo, w->hi, line);
            g_free(line);
        }
    }
    return g_string_free(s, FALSE);
}

/* Who is in area @a: each monster group by its stat line (its number and
 * hit points in it) and what it is doing, anyone else by name. */
static void terse_who(GString *s, const ucr_area *a)
{
    for (guint i = 0; a->monsters && i < a->monsters->len; i++) {
        const ucr_monster *m = &g_array_index(a->monsters, ucr_monster, i);
        if (!m->fields) {
            if (m->count > 1)
                ucr_key_append_escaped(s, " %d %s.", m->count, m->plural);
            else
                ucr_key_append_escaped(s, " %s.", m->name);
            continue;
        }
        char *line = ucr_key_monster_stats(m);
        bool doing = m->doing && *m->doing;
        ucr_key_append_escaped(s, " <i>%s</i>%s%s.", line, doing ? " — " : "", doing ? m->doing : "");
        g_free(line);
    }
}

/* How area index @area is entered from the surface, and what leads to a
 * pocket or why nothing does: the booklet's words, shortened. */
static void terse_ways(GString *s, const ucr_node *n, int area)
{
    const ucr_area *a = area_at(n, area);
    for (guint k = 0; k < n->links->len; k++) {
        const ucr_link *l = &g_array_index(n->links, ucr_link, k);
        if (l->area == area && !l->has_side && l->kind == UCR_LINK_ENTRANCE)
            ucr_key_append_escaped(s, " <b>Entrance:</b> %s.", l->via);
    }
    if (a->unreachable)
        ucr_key_append_escaped(s, " <i>No route from the surface: %s.</i>", a->unreachable);
    else if (a->pocket_way >= 0 && a->pocket_way != area)
        g_string_append_printf(s, " <i>A pocket: reached only by the stairs at %d.</i>",
                               area_at(n, a->pocket_way)->key);
    else if (a->pocket_way == area)
        g_string_append(s, " <i>A pocket: reached only by its stairs.</i>");
}

/* Whether @text is said in @contents already (its first letter may be
 * capitalised there). */
static bool said_in(const char *contents, const char *text)
{
    if (!contents || !text || !*text)
        return false;
    char *c = g_utf8_strdown(contents, -1), *t = g_utf8_strdown(text, -1);
    bool found = strstr(c, t) != NULL;
    g_free(c);
    g_free(t);
    return found;
}

/* The treasure of @a that its contents do not name already, "; "-joined,
 * with the sum when there is more than one piece. */
static char *treasure_unsaid(const ucr_area *a, const char *contents)
{
    GString *s = g_string_new(NULL);
    int valued = 0;
    for (guint i = 0; a->treasure && i < a->treasure->len; i++) {
        const ucr_treasure *t = &g_array_index(a->treasure, ucr_treasure, i);
        valued += t->value > 0;
        if (!said_in(contents, t->text))
            g_string_append_printf(s, "%s%s", s->len ? "; " : "", t->text);
    }
    if (a->treasure && a->treasure->len > 1 && valued) {
        char *gp = ucr_key_gp(a->treasure_gp);
        if (s->len)
            g_string_append_printf(s, " (%s gp in all)", gp);
        else
            g_string_append_printf(s, "%s gp in all", gp);
        g_free(gp);
    }
    return g_string_free(s, FALSE);
}

char *ucr_key_terse_area(const ucr_megadungeon *md, const ucr_node *n, int area)
{
    if (!ucr_key_area_has_prose(n, area))
        return NULL;
    const ucr_area *a = area_at(n, area);
    ucr_key_row row;
    ucr_key_area_row(md, n, area, &row);
    GString *s = g_string_new(NULL);
    ucr_key_append_escaped(s, "<b>%d.</b> %s.", a->key, row.what);
    if (a->level != n->depth)
        g_string_append_printf(s, " <b>Level %d.</b>", a->level);
    /* The row's "what" holds a special or an obstacle; a monster's words
     * are its stat line's; an empty room's, only its dressing. */
    const char *contents = a->contents && !(a->monsters && a->monsters->len) &&
                                   g_strcmp0(a->contents_kind, "empty") != 0 &&
                                   g_strcmp0(a->contents_kind, "special") != 0 &&
                                   g_strcmp0(a->contents_kind, "obstacle") != 0
                               ? a->contents
                               : NULL;
    if (contents) {
        /* "Trap: disabled (…)", "Treasure: a scroll …, unguarded, …". */
        bool trap = g_strcmp0(a->contents_kind, "trap") == 0, gold = g_strcmp0(a->contents_kind, "treasure") == 0;
        if (trap || gold) {
            gunichar c = g_utf8_get_char(contents);
            bool lower = g_unichar_isupper(c) && !g_unichar_isupper(g_utf8_get_char(g_utf8_next_char(contents)));
            ucr_key_append_escaped(s, " %s: ", trap ? "Trap" : "Treasure");
            if (lower) {
                char buf[8] = { 0 };
                g_unichar_to_utf8(g_unichar_tolower(c), buf);
                ucr_key_append_escaped(s, "%s%s", buf, g_utf8_next_char(contents));
            } else {
                ucr_key_append_escaped(s, "%s", contents);
            }
        } else {
            ucr_key_append_escaped(s, " %s", contents);
        }
    }
    terse_ways(s, n, area);
    terse_who(s, a);
    /* A trap or treasure the contents named is not named again. */
    if (*row.trap && !said_in(contents, row.trap))
        ucr_key_append_escaped(s, " Trap: %s.", row.trap);
    char *treasure = treasure_unsaid(a, contents);
    if (*treasure)
        ucr_key_append_escaped(s, " %s: %s.", g_strcmp0(a->contents_kind, "empty") == 0 ? "Hidden treasure" : "Treasure",
                       treasure);
    g_free(treasure);
    char *exits = ucr_key_area_exits_terse(md, n, area);
    if (*exits)
        ucr_key_append_escaped(s, " <i>Exits</i> %s.", exits);
    g_free(exits);
    ucr_key_row_clear(&row);
    return g_string_free(s, FALSE);
}

char *ucr_key_terse_bare(const ucr_node *n)
{
    int count = 0;
    for (guint i = 0; i < n->areas->len; i++)
        if (!ucr_key_area_has_prose(n, (int)i))
            count++;
    if (!count)
        return NULL;
    GString *s = g_string_new(NULL);
    /* In key order, as the map numbers them. */
    int *keys = g_new(int, count), k = 0;
    for (guint i = 0; i < n->areas->len; i++)
        if (!ucr_key_area_has_prose(n, (int)i))
            keys[k++] = area_at(n, (int)i)->key;
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
            int t = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = t;
        }
    g_string_append(s, count == 1 ? "<b>Junction with only its exits</b> (see the map): "
                                  : "<b>Junctions with only their exits</b> (see the map): ");
    for (int i = 0; i < count; i++)
        g_string_append_printf(s, "%s%d", i ? ", " : "", keys[i]);
    g_string_append_c(s, '.');
    g_free(keys);
    return g_string_free(s, FALSE);
}
