#include "key/stock.h"

#include "key/describe.h"

#include <string.h>

#include "core/text.h"

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
 * G_MAXINT rather than wrap round to a debt (doc/limits.md). */
static int gp_add(int a, int b)
{
    return (int)CLAMP((gint64)a + b, 0, G_MAXINT);
}

/* What the table hook needs: where to put what it rolls, and the node's
 * theme, which its monsters draw from. */
typedef struct {
    ucr_area *area;
    const char *theme_kind;    /* theme.txt's "kind" of the node, or NULL */
    ucr_table_decks *decks;    /* the dungeon's decks ("draw: deck" tables) */
    GHashTable *said;          /* sentence → how often the dungeon's key says it (an int of its own) */
    GHashTable *row_uses;      /* a monster row's words (row_words) → how often the dungeon placed it */
} stock_ctx;

/* A booklet says one sentence of description at most this often. */
#define SAID_AT_MOST 3

/* The next sentence of the text at *@at (sentences end in ". ") into @buf,
 * chomped and without its full stop, *@at moved past it; empty ones are
 * skipped; false at the end.  No copy of the text is made: the stocking
 * asks this of every room's words, several times. */
static gboolean sentence_next(const char **at, GString *buf)
{
    while (*at && **at) {
        const char *s = *at, *end = strstr(s, ". ");
        gsize len = end ? (gsize)(end - s) : strlen(s);
        *at = end ? end + 2 : s + len;
        g_string_truncate(buf, 0);
        g_string_append_len(buf, s, (gssize)len);
        while (buf->len && g_ascii_isspace(buf->str[buf->len - 1]))
            g_string_truncate(buf, buf->len - 1);
        if (buf->len && buf->str[buf->len - 1] == '.')
            g_string_truncate(buf, buf->len - 1);
        if (buf->len)
            return TRUE;
    }
    return FALSE;
}

/* How often the dungeon's key says already the most said sentence of @text. */
static int said_most(GHashTable *said, const char *text)
{
    GString *part = g_string_sized_new(64);
    int most = 0;
    while (sentence_next(&text, part)) {
        const int *n = g_hash_table_lookup(said, part->str);
        most = MAX(most, n ? *n : 0);
    }
    g_string_free(part, TRUE);
    return most;
}

/* Counts the sentences of @text as said once more. */
static void said_add(GHashTable *said, const char *text)
{
    GString *part = g_string_sized_new(64);
    while (sentence_next(&text, part)) {
        /* Counted in place: one look-up for a sentence said before. */
        int *n = g_hash_table_lookup(said, part->str);
        if (n)
            ++*n;
        else
            g_hash_table_insert(said, g_strdup(part->str), g_memdup2(&(int) { 1 }, sizeof(int)));
    }
    g_string_free(part, TRUE);
}

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
    guint n = g_strv_length(t->columns);
    m->fields = g_array_sized_new(FALSE, TRUE, sizeof(ucr_field), n);
    g_array_set_size(m->fields, n);
    for (guint i = 0; i < n; i++)
        g_array_index(m->fields, ucr_field, i) = (ucr_field) { g_strdup(t->columns[i]), g_strdup(row->fields[i]) };
}

/* The words a row of a monster table puts in the key: its name and what
 * they are doing (one monster may stand in the tables of several levels). */
static char *row_words(const ucr_table *t, const ucr_table_row *row)
{
    return g_strconcat(ucr_table_field(t, row, "name"), ", ", ucr_table_field(t, row, "doing"), NULL);
}

/* How often the dungeon has placed the monsters of @row. */
static int row_uses(const stock_ctx *c, const ucr_table *t, const ucr_table_row *row)
{
    char *words = row_words(t, row);
    int n = GPOINTER_TO_INT(g_hash_table_lookup(c->row_uses, words));
    g_free(words);
    return n;
}

/* One of the theme's rows of monster table @t, dealt like a deck of their
 * own so that a themed node does not meet one of them again and again, and
 * none the dungeon has placed SAID_AT_MOST times; NULL: none left. */
static const ucr_table_row *theme_row(const stock_ctx *c, const ucr_table *t, ucr_prng *rng)
{
    GPtrArray *mine = g_ptr_array_new();
    for (guint r = 0; r < t->rows->len; r++) {
        const ucr_table_row *row = &g_array_index(t->rows, ucr_table_row, r);
        if (strcmp(ucr_table_field(t, row, "theme"), c->theme_kind) == 0)
            g_ptr_array_add(mine, (gpointer)row);
    }
    const ucr_table_row *pick = NULL;
    char *name = g_strdup_printf("%s/theme/%s", t->name, c->theme_kind);
    for (guint tries = 0; tries < mine->len && !pick; tries++) {
        int card = t->deck && c->decks ? ucr_table_decks_deal(c->decks, name, (int)mine->len)
                                       : ucr_dice_d(rng, (int)mine->len) - 1;
        pick = g_ptr_array_index(mine, card);
        if (row_uses(c, t, pick) >= SAID_AT_MOST)
            pick = NULL;
    }
    g_free(name);
    g_ptr_array_free(mine, TRUE);
    return pick;
}

/* One row of monster table @t.  In a themed node, half the time one of the
 * rows of the node's theme (column "theme"), so that a node reads as a
 * place held by someone (seed 004: "themes and room clusters").  A row the
 * dungeon has placed SAID_AT_MOST times is passed over while the deck
 * holds others. */
static const ucr_table_row *monster_row(const stock_ctx *c, const ucr_table *t, ucr_prng *rng, GString *rolled)
{
    const ucr_table_row *row = NULL;
    if (c->theme_kind && ucr_table_column(t, "theme") >= 0 && ucr_dice_d(rng, 6) <= 3 &&
        (row = theme_row(c, t, rng)) != NULL) {
        g_string_append_printf(rolled, "%s%s: the theme's %s", rolled->len ? "; " : "", t->name, row->fields[0]);
    } else {
        /* The first row under the cap, or over a whole deck the least placed. */
        int total = 0, least = G_MAXINT;
        for (int tries = 0; tries < t->sides && least >= SAID_AT_MOST; tries++) {
            int face;
            const ucr_table_row *r = ucr_table_draw(t, c->decks, rng, &face);
            int uses = row_uses(c, t, r);
            if (uses < least) {
                row = r;
                least = uses;
                total = face;
            }
        }
        ucr_roll_record(rolled, "; ", t, total);
    }
    int uses = row_uses(c, t, row);
    g_hash_table_insert(c->row_uses, row_words(t, row), GINT_TO_POINTER(uses + 1));
    return row;
}

/* One draw of a monster of table @t into @m: its row, how many, each one's
 * hit points; returns the phrase the key's sentence shows. */
static char *monster_draw(stock_ctx *c, const ucr_table *t, ucr_prng *rng, GString *rolled, ucr_monster *m)
{
    const ucr_table_row *row = monster_row(c, t, rng, rolled);
    monster_from_row(t, row, m);
    ucr_dice_expr no;
    ucr_dice_expr_parse(m->appearing, &no);   /* checked when loaded */
    m->count = MAX(1, ucr_dice_expr_roll(&no, rng));
    int dice, add;
    ucr_hit_dice_parse(ucr_table_field(t, row, "hd"), &dice, &add);
    m->hp = g_array_sized_new(FALSE, FALSE, sizeof(int), (guint)m->count);
    for (int i = 0; i < m->count; i++) {
        int hp = MAX(1, (dice ? ucr_dice_roll(rng, dice, 8) : ucr_dice_d(rng, 4)) + add);
        g_array_append_val(m->hp, hp);
    }
    g_string_append(rolled, "; no ");
    g_string_append(rolled, m->appearing);
    g_string_append_c(rolled, '=');
    ucr_text_append_int(rolled, m->count);
    char *phrase = m->count == 1 ? g_strdup_printf("%s %s", article(m->name), m->name)
                                 : g_strdup_printf("%d %s", m->count, m->plural);
    char *text = *m->doing ? g_strdup_printf("%s, %s", phrase, m->doing) : g_strdup(phrase);
    g_free(phrase);
    return text;
}

/* A monster placed in the area: how many (the table's "no"), each one's hit
 * points (d8 a hit die, "1/2" a d4, at least 1), and the phrase the key's
 * sentence shows. */
static char *monster_place(stock_ctx *c, const ucr_table *t, ucr_prng *rng, GString *rolled)
{
    ucr_monster m = { 0 };
    char *text = NULL;
    /* A phrase the dungeon's key says SAID_AT_MOST times already ("an
     * owlbear, tearing at a locked chest") is drawn again, a few times. */
    for (int tries = 0; tries < 4; tries++) {
        ucr_monster_clear(&m);
        g_free(text);
        text = monster_draw(c, t, rng, rolled, &m);
        char *sentence = g_strdup(text);
        ucr_text_capitalise(sentence);
        int said = said_most(c->said, sentence);
        g_free(sentence);
        if (said < SAID_AT_MOST)
            break;
    }
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
    const ucr_table_row *row = ucr_table_draw(t, c->decks, rng, &total);
    ucr_dice_expr no, gp;
    ucr_dice_expr_parse(ucr_table_field(t, row, "no"), &no);   /* checked when loaded */
    ucr_dice_expr_parse(ucr_table_field(t, row, "gp"), &gp);
    int count = MAX(1, ucr_dice_expr_roll(&no, rng));
    int each_raw = ((gp.count ? ucr_dice_roll(rng, gp.count, gp.sides) : 0) + gp.add) * gp.mul;
    int value = (int)CLAMP((gint64)count * each_raw / gp.div, 0, UCR_TREASURE_GP_MAX);
    ucr_roll_record(rolled, "; ", t, total);
    g_string_append(rolled, "; no=");
    ucr_text_append_int(rolled, count);
    g_string_append(rolled, "; gp=");
    ucr_text_append_int(rolled, value);
    const char *item = ucr_table_field(t, row, "item"), *items = ucr_table_field(t, row, "items");
    const char *where = ucr_table_field(t, row, "where");
    GString *s = g_string_new(NULL);
    gboolean coins_in_gp = gp.count == 0 && gp.add == 1 && gp.mul == 1 && gp.div == 1;
    if (no.count == 0 && count == 1)
        g_string_append(s, item);             /* "a silver candlestick": the table's own words */
    else {   /* "1,100 silver pieces": one number format with the key's sums */
        char *many = ucr_key_count(count, item, items);
        g_string_append(s, many);
        g_free(many);
    }
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

/* What room @index looks like: never a sentence of a room next door, nor
 * one the dungeon has said SAID_AT_MOST times (a few draws, then the one
 * said least: a user's tables may be small); and in a themed node, one
 * empty room in three shows who holds it. */
static void room_describe(ucr_node *n, int index, const ucr_tables *tables, ucr_prng *rng, stock_ctx *ctx,
                          GString *rec, const char *theme_sign)
{
    ucr_area *a = &g_array_index(n->areas, ucr_area, index);
    char *best = NULL;
    int best_score = G_MAXINT;
    for (int tries = 0; tries < 12 && best_score > 0; tries++) {
        ucr_roll shape;
        ucr_tables_deal_at(tables, "room-shape", n->depth, rng, ctx->decks, stock_hook, ctx, &shape);
        char *text = g_strdup(shape.text);
        ucr_text_capitalise(text);
        g_string_append(rec, "; ");
        g_string_append(rec, shape.rolled);
        ucr_roll_clear(&shape);
        int said = said_most(ctx->said, text);
        int score = (shape_next_door(n, index, text) ? 1000 : 0) + (said >= SAID_AT_MOST ? said : 0);
        if (score < best_score) {
            g_free(best);
            best = text;
            best_score = score;
        } else {
            g_free(text);
        }
    }
    g_free(a->shape);
    a->shape = best;
    said_add(ctx->said, a->shape);
    if (theme_sign && g_strcmp0(a->contents_kind, "empty") == 0 && ucr_dice_d(rng, 6) <= 2 &&
        said_most(ctx->said, theme_sign) < SAID_AT_MOST) {
        char *more = g_strdup_printf("%s %s%s", a->contents, theme_sign, g_str_has_suffix(theme_sign, ".") ? "" : ".");
        ucr_text_capitalise(more);
        g_free(a->contents);
        a->contents = more;
    }
}

static void area_stock(ucr_node *n, int index, const ucr_tables *tables, const char *seed,
                       const stock_ctx *dungeon, const char *theme_sign)
{
    ucr_area *a = &g_array_index(n->areas, ucr_area, index);
    ucr_area_stock_clear(a);
    /* Each area on a stream of its own: a table that rolls more or fewer
     * dice changes that area's words and nothing else, and the contents'
     * kind (the map's trap marks) is rolled first. */
    GString *label = g_string_new("stock/");
    g_string_append(label, n->id);
    g_string_append_c(label, '/');
    ucr_text_append_int(label, a->key);
    ucr_prng rng;
    ucr_prng_seed(&rng, seed, label->str);
    g_string_free(label, TRUE);
    stock_ctx ctx = *dungeon;
    ctx.area = a;
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
    ucr_tables_deal_at(tables, table, n->depth, &rng, ctx.decks, stock_hook, &ctx, &r);
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
    if (a->kind == UCR_AREA_ROOM)
        room_describe(n, index, tables, &rng, &ctx, rec, theme_sign);
    said_add(ctx.said, a->contents);
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

/* A name rolled on @table, capitalised; NULL when a user's set has no
 * such table. */
static char *name_roll(const ucr_tables *tables, const char *table, ucr_prng *rng, ucr_table_decks *decks)
{
    ucr_roll r;
    ucr_tables_deal_at(tables, table, 1, rng, decks, NULL, NULL, &r);
    char *name = g_strdup(r.text);
    ucr_roll_clear(&r);
    ucr_text_capitalise(name);
    if (!*name) {
        g_free(name);
        return NULL;
    }
    return name;
}

static const char *const NAME_SMALL_WORDS[] = { "the", "of", "a", "an", "and", "in", NULL };

/* One word's stem: lower case, a plural or verb ending cut. */
static char *word_stem(const char *word)
{
    char *w = g_ascii_strdown(word, -1);
    gsize n = strlen(w);
    if (n > 4 && g_str_has_suffix(w, "ies"))
        strcpy(w + n - 3, "y");
    else if (n > 5 && g_str_has_suffix(w, "ing"))
        w[n - 3] = '\0';
    else if (n > 4 && g_str_has_suffix(w, "ed"))
        w[n - 2] = '\0';
    else if (n > 3 && w[n - 1] == 's' && w[n - 2] != 's')
        w[n - 1] = '\0';
    return w;
}

GPtrArray *ucr_stock_name_stems(const char *name)
{
    GPtrArray *stems = g_ptr_array_new_with_free_func(g_free);
    GString *word = g_string_new(NULL);
    for (const char *p = name;; p++) {
        if (g_ascii_isalpha(*p)) {
            g_string_append_c(word, *p);
            continue;
        }
        char *low = g_ascii_strdown(word->str, -1);
        gboolean small = g_strv_contains(NAME_SMALL_WORDS, low);
        g_free(low);
        if (word->len && !small) {
            char *stem = word_stem(word->str);
            gboolean seen = FALSE;
            for (guint i = 0; i < stems->len && !seen; i++)
                seen = strcmp(g_ptr_array_index(stems, i), stem) == 0;
            if (seen)
                g_free(stem);
            else
                g_ptr_array_add(stems, stem);
        }
        g_string_truncate(word, 0);
        if (!*p)
            break;
    }
    g_string_free(word, TRUE);
    return stems;
}

int ucr_stock_stems_shared(const GPtrArray *a, const GPtrArray *b)
{
    int n = 0;
    for (guint i = 0; i < a->len; i++)
        for (guint k = 0; k < b->len; k++)
            n += strcmp(g_ptr_array_index(a, i), g_ptr_array_index(b, k)) == 0;
    return n;
}

/* A node's name that shares as few word stems as can be with the names
 * already given (@taken: their stems): none while the tables allow it, so
 * that "The Gaol of Whispers" and "The Whispering Gaol" are not two nodes
 * of one dungeon; the parts are dealt from decks, and up to 60 names are
 * drawn before the one sharing least is kept. */
static char *node_name(const ucr_tables *tables, ucr_prng *rng, ucr_table_decks *decks, GPtrArray *taken)
{
    char *best = NULL;
    int best_shared = G_MAXINT;
    for (int tries = 0; tries < 60 && best_shared > 0; tries++) {
        char *name = name_roll(tables, "node-name", rng, decks);
        if (!name)
            return NULL;
        GPtrArray *stems = ucr_stock_name_stems(name);
        int shared = 0;
        for (guint i = 0; i < taken->len; i++)
            shared = MAX(shared, ucr_stock_stems_shared(g_ptr_array_index(taken, i), stems));
        g_ptr_array_unref(stems);
        if (shared < best_shared) {
            g_free(best);
            best = name;
            best_shared = shared;
        } else {
            g_free(name);
        }
    }
    g_ptr_array_add(taken, ucr_stock_name_stems(best));
    return best;
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
    GPtrArray *taken = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    /* The decks on a stream of their own: the map's dice never see them. */
    stock_ctx dungeon = { NULL, NULL, ucr_table_decks_new(seed, "stock/decks"),
                          g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
                          g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
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
        node->name = node_name(tables, &names, dungeon.decks, taken);
        /* The theme: who holds the node, or nobody. */
        const ucr_table *themes = ucr_tables_lookup(tables, "theme");
        const char *theme_kind = NULL, *theme_sign = NULL;
        g_clear_pointer(&node->theme, g_free);
        if (themes && themes->columns) {
            const ucr_table_row *row = ucr_table_draw(themes, dungeon.decks, &rng, NULL);
            const char *kind = ucr_table_field(themes, row, "kind");
            if (*kind && strcmp(kind, "none") != 0) {
                theme_kind = kind;
                node->theme = g_strdup(ucr_table_field(themes, row, "theme"));
                theme_sign = *ucr_table_field(themes, row, "sign") ? ucr_table_field(themes, row, "sign") : NULL;
            }
        }
        node->treasure_gp = 0;
        for (guint k = 0; k < node->areas->len; k++) {
            dungeon.theme_kind = theme_kind;
            area_stock(node, (int)k, tables, seed, &dungeon, theme_sign);
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
    g_ptr_array_unref(taken);
    g_hash_table_destroy(dungeon.said);
    g_hash_table_destroy(dungeon.row_uses);
    ucr_table_decks_free(dungeon.decks);
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
