#include "layout/booklet.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "key/describe.h"
#include "key/terse.h"
#include "layout/map.h"
#include "layout/symbols.h"
#include "layout/textblock.h"
#include "render/fonts.h"

#define MM (72.0 / 25.4)
/* A map is never drawn larger than this per 10-ft square: past it the page
 * gains nothing, and the space under the map holds the start of the key. */
#define MAX_SQUARE (7.0 * MM)
/* Neighbouring parts of a split map share this many squares. */
#define SPLIT_OVERLAP 2
#define GREY "#555555"

/* A page, once ended, waits in the booklet's store on disk (list NULL,
 * key set): the overview is laid out last but printed second, so every
 * page waits for it, and a 10 x 10 booklet's pages held in memory came to
 * 100 MB.  Only the page being laid out is in memory. */
typedef struct {
    ucr_display_list *list;   /* while it is laid out (or when the store failed) */
    guint64 key;              /* in the store, when list is NULL */
    double w, h, fill;
    ucr_page_kind kind;
} bpage;

struct ucr_booklet {
    GPtrArray *pages;  /* bpage */
    double min_square;
    double min_part_square;    /* of the maps printed in parts */
    ucr_list_store *store;     /* NULL: no temporary file could be made */
    bool store_full;           /* a write failed: the pages from there on stay in memory */
    ucr_display_list *loaded;  /* the page ucr_booklet_page() read back last */
};

/* The layout in progress: the page being recorded and where its text box
 * and next line are. */
typedef struct {
    const ucr_megadungeon *md;
    const ucr_booklet_options *opt;
    const ucr_page_template *t;
    PangoFontMap *fonts;
    ucr_booklet *b;
    bpage *cur;
    ucr_device *dev;
    int number;                  /* of the current page, from 1 */
    double left, right, top, bottom;
    double y;                    /* where the next block goes */
    double used;                 /* lowest point drawn in the text box */
    const ucr_node *node;        /* whose pages these are, or NULL */
    const ucr_node *page_node;   /* whose page this one is (its footer): the node when it began */
    int *map_page;               /* per node: the page its map starts on */
    double key_pt;               /* a mini-zine's terse key: its type size */
    GError *error;
} lay;

static const ucr_node *node_at(const ucr_megadungeon *md, int i)
{
    return g_ptr_array_index(md->nodes, i);
}

static const ucr_area *area_at(const ucr_node *n, int i)
{
    return &g_array_index(n->areas, ucr_area, i);
}

static char *count_noun(int n, const char *one, const char *many)
{
    return g_strdup_printf("%d %s", n, n == 1 ? one : many);
}

static double text_width(const lay *L)
{
    return L->right - L->left;
}

/* "C-7" is a key entry of this dungeon: link it. */
static gboolean ref_ok(const char *id, int key, gpointer data)
{
    const ucr_megadungeon *md = data;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = node_at(md, (int)i);
        if (strcmp(n->id, id) == 0)
            return key >= 1 && key <= (int)n->areas->len;
    }
    return FALSE;
}

/* A block of markup; on a markup fault the error is kept for the end and
 * an empty block keeps the layout going. */
static ucr_textblock *block(lay *L, const char *markup, const char *family, double size,
                            double width, double align)
{
    ucr_textblock_style st = { family, size, width, align, 0, ref_ok, (gpointer)L->md };
    GError *e = NULL;
    ucr_textblock *tb = ucr_textblock_new(L->fonts, markup, &st, &e);
    if (!tb) {
        if (!L->error)
            L->error = e;
        else
            g_error_free(e);
        tb = ucr_textblock_new(L->fonts, "", &st, NULL);
    }
    return tb;
}

static void mark_used(lay *L, double y)
{
    if (y > L->used)
        L->used = y;
}

static double put(lay *L, const ucr_textblock *tb, double x, double y)
{
    ucr_textblock_draw(tb, L->dev, x, y);
    double h = ucr_textblock_height(tb);
    mark_used(L, y + h);
    return h;
}

/* Shapes, draws and drops a block; returns its height. */
static double put_markup(lay *L, const char *markup, const char *family, double size, double x,
                         double y, double width, double align)
{
    ucr_textblock *tb = block(L, markup, family, size, width, align);
    double h = put(L, tb, x, y);
    ucr_textblock_free(tb);
    return h;
}

/* ---- pages ------------------------------------------------------------- */

static double footer_height(const lay *L)
{
    return L->t->small_pt * 2.2;
}

static void footer(lay *L)
{
    const ucr_page_template *t = L->t;
    double y = L->cur->h - t->margin_bottom - t->small_pt * 1.2;
    bool right_hand = L->number % 2 == 1;
    char *num = g_strdup_printf("%d", L->number);
    ucr_textblock *tb = block(L, num, UCR_FONT_TEXT, t->small_pt, 0, right_hand ? 1 : 0);
    ucr_textblock_draw(tb, L->dev, right_hand ? L->right : L->left, y);
    ucr_textblock_free(tb);
    g_free(num);
    const ucr_node *n = L->page_node;
    char *where = n && n->name ? g_markup_printf_escaped("<span foreground='" GREY "'>node %s, %s · level %d</span>",
                                                         n->id, n->name, n->depth)
                : n ? g_markup_printf_escaped("<span foreground='" GREY "'>node %s · level %d · seed %s</span>",
                                              n->id, n->depth, L->md->seed)
                          : g_markup_printf_escaped("<span foreground='" GREY "'>undercroft · seed %s</span>",
                                                    L->md->seed);
    tb = block(L, where, UCR_FONT_TEXT, t->small_pt, 0, right_hand ? 0 : 1);
    ucr_textblock_draw(tb, L->dev, right_hand ? L->left : L->right, y);
    ucr_textblock_free(tb);
    g_free(where);
}

static void page_end(lay *L)
{
    if (!L->cur)
        return;
    double fill = (L->used - L->top) / (L->bottom - L->top);
    L->cur->fill = fill < 0 ? 0 : fill > 1 ? 1 : fill;
    if (L->cur->kind != UCR_PAGE_COVER)
        footer(L);
    ucr_device_end_page(L->dev);
    ucr_device_close(L->dev, NULL);
    ucr_device_free(L->dev);
    L->dev = NULL;
    /* To the store; a page it cannot take (the temporary file's disk is
     * full) stays in memory, as every page did before the store. */
    ucr_booklet *b = L->b;
    if (b->store && !b->store_full && !L->error) {
        if (ucr_list_store_put(b->store, L->cur->list, &L->cur->key, NULL)) {
            ucr_display_list_free(L->cur->list);
            L->cur->list = NULL;
        } else {
            b->store_full = true;
        }
    }
    L->cur = NULL;
}

/* Starts a page of @kind, turned to landscape when @landscape, appended
 * or, with @slot >= 0, in a place reserved for it.  Odd pages are right-
 * hand pages: their inner margin (the fold) is on the left. */
static void page_begin(lay *L, ucr_page_kind kind, bool landscape, int slot)
{
    page_end(L);
    const ucr_page_template *t = L->t;
    bpage *p = g_new0(bpage, 1);
    p->kind = kind;
    p->list = ucr_display_list_new();
    p->w = landscape ? t->height : t->width;
    p->h = landscape ? t->width : t->height;
    if (slot >= 0) {
        g_ptr_array_index(L->b->pages, slot) = p;
        L->number = slot + 1;
    } else {
        g_ptr_array_add(L->b->pages, p);
        L->number = (int)L->b->pages->len;
    }
    bool right_hand = L->number % 2 == 1;
    if (landscape) {
        /* A turned page has the fold along its top or bottom edge. */
        double m = MAX(t->margin_inner, t->margin_outer);
        L->left = t->margin_outer;
        L->right = p->w - t->margin_outer;
        L->top = m;
        L->bottom = p->h - m - footer_height(L);
    } else {
        L->left = right_hand ? t->margin_inner : t->margin_outer;
        L->right = p->w - (right_hand ? t->margin_outer : t->margin_inner);
        L->top = t->margin_top;
        L->bottom = p->h - t->margin_bottom - footer_height(L);
    }
    L->y = L->top;
    L->used = L->top;
    L->cur = p;
    L->page_node = L->node;
    L->dev = ucr_list_device_new(p->list);
    ucr_device_begin_page(L->dev, p->w, p->h);
}

/* Takes back the page page_begin() just appended, nothing drawn on it. */
static void page_drop(lay *L)
{
    ucr_device_close(L->dev, NULL);
    ucr_device_free(L->dev);
    L->dev = NULL;
    ucr_display_list_free(L->cur->list);
    g_free(L->cur);
    L->cur = NULL;
    g_ptr_array_set_size(L->b->pages, L->b->pages->len - 1);
    L->number = (int)L->b->pages->len;
}

static int next_page_number(const lay *L)
{
    return (int)L->b->pages->len + 1;
}

/* Ruled lines for the GM's notes from L->y to the foot of the page, under
 * a "Notes" heading. */
static void ruled_notes(lay *L)
{
    L->y += put_markup(L, "<b>Notes</b>", UCR_FONT_HAND, L->t->heading_pt, L->left, L->y,
                       text_width(L), 0);
    ucr_path *p = ucr_path_new();
    double gap = L->t->body_pt * 2.4;
    for (double y = L->y + gap; y <= L->bottom; y += gap) {
        ucr_path_move_to(p, L->left, y);
        ucr_path_line_to(p, L->right, y);
    }
    ucr_stroke st = { .width = 0.4, .cap = UCR_CAP_BUTT, .join = UCR_JOIN_MITER };
    ucr_device_stroke_path(L->dev, p, &st, (ucr_color){ 0.7, 0.7, 0.7, 1 });
    ucr_path_free(p);
    mark_used(L, L->bottom);
}

/* A page of ruled lines for the GM's notes: the deliberate filler of a
 * folded booklet. */
static void notes_page(lay *L)
{
    const ucr_node *keep = L->node;
    L->node = NULL;
    page_begin(L, UCR_PAGE_NOTES, false, -1);
    L->node = keep;
    ruled_notes(L);
}

/* The page in progress is about to end with most of it empty (a key's last
 * lines): the rest of it is for notes. */
static void close_sparse_page(lay *L)
{
    if (!L->cur || L->cur->kind == UCR_PAGE_NOTES)
        return;
    double fill = (L->used - L->top) / (L->bottom - L->top);
    if (fill >= 0.25)
        return;
    L->y = L->used + L->t->body_pt * 1.5;
    ruled_notes(L);
}

/* ---- cover ------------------------------------------------------------- */

static int deepest_level(const ucr_megadungeon *md)
{
    int deepest = 1;
    for (guint i = 0; i < md->nodes->len; i++)
        deepest = MAX(deepest, node_at(md, (int)i)->depth);
    return deepest;
}

static void document_info(lay *L)
{
    const ucr_megadungeon *md = L->md;
    char *title = md->name ? g_strdup_printf("%s — a megadungeon from seed “%s”", md->name, md->seed)
                           : g_strdup_printf("Undercroft — a megadungeon from seed “%s”", md->seed);
    char *nodes = count_noun((int)md->nodes->len, "sublevel", "sublevels");
    char *subject = md->nodes->len == 1
                        ? g_strdup_printf("A random non-linear dungeon of a single sublevel from seed “%s”: "
                                          "its map and key, printed for %s paper", md->seed, L->t->name)
                        : g_strdup_printf("A random non-linear megadungeon of %s (%d × %d) from seed “%s”: "
                                          "maps and keys, printed for %s paper",
                                          nodes, md->columns, md->rows, md->seed, L->t->name);
    char *keywords = g_strdup_printf("megadungeon, dungeon, tabletop role-playing, map, key, seed %s",
                                     md->seed);
    char *creator = g_strdup_printf("undercroft %s", md->version);
    char *date = ucr_booklet_date();
    ucr_device_set_info(L->dev, "title", title);
    ucr_device_set_info(L->dev, "author", "undercroft");
    ucr_device_set_info(L->dev, "subject", subject);
    ucr_device_set_info(L->dev, "keywords", keywords);
    ucr_device_set_info(L->dev, "creator", creator);
    ucr_device_set_info(L->dev, "date", date);
    g_free(title);
    g_free(nodes);
    g_free(subject);
    g_free(keywords);
    g_free(creator);
    g_free(date);
}

static void legend(lay *L, double x, double y, double w);

/* The cover; with @own_page, what the cover says of using the booklet and
 * the map symbols go on the page behind it (a folded booklet needs the
 * pages before the first map to be even in number). */
static void legend_page_body(lay *L);

/* The cover's "how to use this booklet": the dungeon's grid, the way in,
 * and how to read the maps and keys (markup; the caller frees it). */
static char *how_to_use(const lay *L)
{
    const ucr_megadungeon *md = L->md;
    const ucr_node *en = node_at(md, md->entrance_node);
    int key = area_at(en, md->entrance_area)->key;
    char *entrance = md->entrance_stairs
                         ? g_strdup_printf("stairs down from the surface into %s-%d", en->id, key)
                         : g_strdup_printf("a tunnel into the hillside from the %s, reaching %s-%d",
                                           ucr_dir_name(md->entrance_side), en->id, key);
    char *last = node_at(md, (int)md->nodes->len - 1)->id;
    char *grid = md->nodes->len == 1 ? g_strdup("one sublevel (node A)")
                                     : g_strdup_printf("a grid of %d × %d sublevels (nodes A–%s) joined "
                                                       "by long tunnels, and by stairs and ladders "
                                                       "between levels 1 to %d",
                                                       md->columns, md->rows, last, deepest_level(md));
    char *s = g_markup_printf_escaped(
        "<b>How to use this booklet.</b> The dungeon is %s. The way in is %s.\n\n"
        "The overview shows the nodes, the tunnels between them and the page each starts on. "
        "Every node then has its map and its key. The key opens with a table of its areas — "
        "what each is, who is there, traps, treasure and the exits — and the full entries "
        "follow, with what the players see in <i>italics</i>, to read aloud. "
        "<b>C-7</b> means area 7 of node C; in the PDF, every such reference and every number "
        "on a map is a link to its entry. One square is 10 feet.%s\n\n"
        "Loops are the point: most areas can be reached by more than one route, so the "
        "players can go around danger, and each key says how many loops its node has.",
        grid, entrance,
        L->opt->player_maps ? " The player maps at the end show what the players may see: no "
                              "secret doors, no traps, no hidden areas."
                            : "");
    g_free(entrance);
    g_free(grid);
    return s;
}

static void cover(lay *L, bool own_page)
{
    const ucr_megadungeon *md = L->md;
    const ucr_page_template *t = L->t;
    page_begin(L, UCR_PAGE_COVER, false, -1);
    document_info(L);
    ucr_device_dest(L->dev, "cover", L->left, L->top);
    ucr_device_outline(L->dev, 1, "Cover", "cover");
    double w = text_width(L);
    L->y = L->top + (L->bottom - L->top) * 0.14;
    /* The dungeon's rolled name is the title; undercroft its maker. */
    char *title = g_markup_printf_escaped("<b>%s</b>", md->name ? md->name : "UNDERCROFT");
    L->y += put_markup(L, title, UCR_FONT_HAND, md->name ? t->title_pt * 0.8 : t->title_pt, L->left,
                       L->y, w, 0.5);
    g_free(title);
    char *nodes = count_noun((int)md->nodes->len, "sublevel", "sublevels");
    /* One node is no dungeon of dungeons: say what it is. */
    char *s = md->nodes->len == 1
                  ? g_markup_printf_escaped("A dungeon of a single sublevel\nfrom the seed <b>%s</b>", md->seed)
                  : g_markup_printf_escaped("A megadungeon of %s\nfrom the seed <b>%s</b>", nodes, md->seed);
    L->y += t->heading_pt * 0.6;
    L->y += put_markup(L, s, UCR_FONT_HAND, t->heading_pt * 1.2, L->left, L->y, w, 0.5);
    g_free(s);
    g_free(nodes);
    if (L->opt->zine_pages) {
        const ucr_node *n = node_at(md, L->opt->node_id ? ucr_megadungeon_find_node(md, L->opt->node_id) : 0);
        s = g_markup_printf_escaped("\n<b>Node %s</b>, dungeon level %d.\n\nOne square is 10 ft. "
                                    "Areas are numbered on the map; the key follows it. "
                                    "<b>C-7</b> is area 7 of node C. What the players see is in "
                                    "<i>italics</i>.",
                                    n->id, n->depth);
        L->y += t->heading_pt;
        put_markup(L, s, UCR_FONT_TEXT, t->body_pt, L->left, L->y, w, 0);
        g_free(s);
        return;
    }
    if (own_page) {
        page_begin(L, UCR_PAGE_COVER, false, -1);
        L->y = L->top;
    }

    s = how_to_use(L);
    if (!own_page)
        L->y += t->heading_pt * 2.5;
    L->y += put_markup(L, s, UCR_FONT_TEXT, t->body_pt * 1.1, L->left, L->y, w, 0);
    g_free(s);
    L->y += t->body_pt * 1.5;
    L->y += put_markup(L, "<b>Map symbols</b>", UCR_FONT_TEXT, t->body_pt, L->left, L->y, w, 0);
    legend(L, L->left, L->y, w);
    s = g_markup_printf_escaped("<span foreground='" GREY "'>Made by undercroft %s from the seed “%s” "
                                "for %s paper. The same seed always gives the same dungeon.</span>",
                                md->version, md->seed, t->name);
    put_markup(L, s, UCR_FONT_TEXT, t->small_pt, L->left, L->bottom - t->small_pt * 3, w, 0);
    g_free(s);
}

/* ---- overview ---------------------------------------------------------- */

int ucr_booklet_arrow_to(const ucr_megadungeon *md, const ucr_tunnel *t)
{
    if (t->kind != UCR_TUNNEL_STAIRS && t->kind != UCR_TUNNEL_LADDER)
        return -1;
    int a = node_at(md, t->from)->depth, b = node_at(md, t->to)->depth;
    return a < b ? t->to : b < a ? t->from : -1;
}

/* A tunnel's label on the overview at @detail: 0 in words ("stairs 2 +
 * room"), 1 in the legend's letters ("st2+R"), 2 its kind's letter alone,
 * 3 nothing (the line's own style still tells a collapse). */
static char *tunnel_label(const ucr_megadungeon *md, const ucr_tunnel *tu, int detail)
{
    if (detail >= 3)
        return g_strdup("");
    bool brief = detail > 0;
    const char *what = "";
    switch (tu->kind) {
    case UCR_TUNNEL_DOOR: what = brief ? "D" : "door"; break;
    case UCR_TUNNEL_SECRET: what = brief ? "S" : "secret"; break;
    case UCR_TUNNEL_STAIRS: what = brief ? "st" : "stairs"; break;
    case UCR_TUNNEL_LADDER: what = brief ? "L" : "ladder"; break;
    case UCR_TUNNEL_BLOCKED: what = brief ? "×" : "collapsed"; break;
    default: break;
    }
    GString *s = g_string_new(what);
    if (detail <= 1) {
        int to = ucr_booklet_arrow_to(md, tu);
        if (to >= 0) {
            int levels = abs(node_at(md, tu->from)->depth - node_at(md, tu->to)->depth);
            if (levels > 1)
                g_string_append_printf(s, brief ? "%d" : " %d", levels);
        }
        if (tu->chamber)
            g_string_append(s, brief ? "+R" : " + room");
    }
    return g_string_free(s, FALSE);
}

typedef struct {
    double s, box_w, box_h, ox, oy;  /* grid cell, node box, grid origin */
    double grid_h;
    ucr_textblock *heading, *reading;
    double row_h, head_h;
    ucr_textblock *heads[10];
    double col_x[11];
    int rows_first, rows_per_page, pages;
} overview_plan;

static const char *const overview_heads[10] = { "node", "level", "method", "areas", "loops",
                                                "on a loop", "choke-points", "dead ends",
                                                "unreached", "map on page" };
static const double overview_cols[10] = { 0.065, 0.065, 0.115, 0.075, 0.075, 0.12, 0.115, 0.095, 0.14, 0.135 };



static void overview_plan_make(lay *L, overview_plan *p)
{
    const ucr_megadungeon *md = L->md;
    const ucr_page_template *t = L->t;
    /* Margins differ by side, the text width does not. */
    double w = t->width - t->margin_inner - t->margin_outer;
    double h = t->height - t->margin_top - t->margin_bottom - t->small_pt * 2.2;
    p->heading = block(L, "<b>The superstructure</b>", UCR_FONT_HAND, t->heading_pt * 1.3, w, 0);
    double hh = ucr_textblock_height(p->heading) + t->body_pt * 0.6;
    p->oy = hh;
    char *summary = ucr_key_super_stats_markup(md);
    /* The nodes' names, which the boxes have no room for. */
    GString *names = g_string_new(NULL);
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = node_at(md, (int)i);
        if (!n->name)
            continue;
        char *e = g_markup_printf_escaped("<b>%s</b> %s", n->id, n->name);
        g_string_append(names, names->len ? "; " : "\n<b>The nodes.</b> ");
        g_string_append(names, e);
        g_free(e);
    }
    if (names->len)
        g_string_append(names, ".");
    char *joined = g_strconcat(summary, names->str, NULL);
    g_string_free(names, TRUE);
    g_free(summary);
    summary = joined;
    char *m = g_strdup_printf(
        "<b>Reading the overview.</b> Boxes are the sublevels (nodes) with their level and "
        "method and the page their map is on; lines are the long tunnels between them: a door "
        "(D), a secret door (S), stairs (st) or a ladder (L) with an arrow pointing down to the "
        "deeper node (a number says how many levels it drops), a room on the way (+R), or a "
        "dashed line where the tunnel has collapsed (×). The way in is the box with a double frame. Stairs and ladders inside the nodes "
        "join the levels as well; each key says where.\n%s",
        summary);
    g_free(summary);
    p->reading = block(L, m, UCR_FONT_TEXT, t->body_pt, w, 0);
    g_free(m);
    double x = 0;
    p->head_h = 0;
    for (int c = 0; c < 10; c++) {
        p->col_x[c] = x;
        char *hm = g_markup_printf_escaped("<b>%s</b>", overview_heads[c]);
        /* A head of one word is never broken inside (a narrow paper's
         * column may be a little narrower than "method"). */
        double hw = strpbrk(overview_heads[c], " -") ? overview_cols[c] * w - 3 : w;
        p->heads[c] = block(L, hm, UCR_FONT_TEXT, t->small_pt, hw, 0);
        g_free(hm);
        p->head_h = MAX(p->head_h, ucr_textblock_height(p->heads[c]));
        x += overview_cols[c] * w;
    }
    p->col_x[10] = x;
    p->head_h += 3;
    p->row_h = t->small_pt * 1.45;
    int n = (int)md->nodes->len;
    /* The grid takes what the text and the table leave, but never less
     * than a third of the page: a large table flows onto further pages. */
    double rest = h - p->oy - 2 * t->body_pt - ucr_textblock_height(p->reading) - p->head_h -
                  n * p->row_h - 2;
    double grid_h = rest;
    if (rest < h / 3)  /* a large superstructure: the grid takes the page, the table the next */
        grid_h = h - p->oy - 2 * t->body_pt - ucr_textblock_height(p->reading);
    p->s = MIN(w / md->columns, grid_h / md->rows);
    p->box_w = p->s * 0.72;
    p->box_h = p->s * 0.64;
    p->grid_h = p->s * md->rows;
    p->ox = (w - p->s * md->columns) / 2;
    double first = h - p->oy - p->grid_h - t->body_pt - ucr_textblock_height(p->reading) -
                   t->body_pt - p->head_h;
    p->rows_first = MAX(0, (int)(first / p->row_h));
    p->rows_per_page = MAX(1, (int)((h - p->head_h) / p->row_h));
    p->pages = 1;
    if (p->rows_first < n)
        p->pages += (n - p->rows_first + p->rows_per_page - 1) / p->rows_per_page;
}

static void overview_plan_clear(overview_plan *p)
{
    ucr_textblock_free(p->heading);
    ucr_textblock_free(p->reading);
    for (int c = 0; c < 10; c++)
        ucr_textblock_free(p->heads[c]);
}

static void stroke_line(lay *L, double x0, double y0, double x1, double y1, double width, bool dashed,
                        ucr_color c)
{
    ucr_path *p = ucr_path_new();
    ucr_path_move_to(p, x0, y0);
    ucr_path_line_to(p, x1, y1);
    ucr_stroke st = { .width = width, .cap = UCR_CAP_BUTT, .join = UCR_JOIN_MITER };
    if (dashed) {
        st.n_dash = 2;
        st.dash[0] = width * 3;
        st.dash[1] = width * 2.5;
    }
    ucr_device_stroke_path(L->dev, p, &st, c);
    ucr_path_free(p);
}

static void fill_rect(lay *L, double x, double y, double w, double h, ucr_color c)
{
    ucr_path *p = ucr_path_new();
    ucr_path_rect(p, x, y, w, h);
    ucr_device_fill_path(L->dev, p, false, c);
    ucr_path_free(p);
}

/* A filled arrowhead with its tip at (x, y), pointing along (dx, dy). */
static void arrowhead(lay *L, double x, double y, double dx, double dy, double size)
{
    ucr_path *p = ucr_path_new();
    ucr_path_move_to(p, x, y);
    ucr_path_line_to(p, x - dx * size - dy * size * 0.55, y - dy * size + dx * size * 0.55);
    ucr_path_line_to(p, x - dx * size + dy * size * 0.55, y - dy * size - dx * size * 0.55);
    ucr_path_close(p);
    ucr_device_fill_path(L->dev, p, false, (ucr_color){ 0, 0, 0, 1 });
    ucr_path_free(p);
}

/* Draws the label centred on (cx, cy) over a patch of paper. */
static void halo_label(lay *L, const ucr_textblock *tb, double cx, double cy)
{
    double w = ucr_textblock_width(tb), h = ucr_textblock_height(tb);
    fill_rect(L, cx - w / 2 - 1.5, cy - h / 2, w + 3, h, (ucr_color){ 1, 1, 1, 1 });
    put(L, tb, cx - w / 2, cy - h / 2);
}

static void overview_tunnels(lay *L, const overview_plan *p, double gx, double gy)
{
    const ucr_megadungeon *md = L->md;
    double size = L->t->small_pt;
    for (guint i = 0; i < md->tunnels->len; i++) {
        const ucr_tunnel *tu = &g_array_index(md->tunnels, ucr_tunnel, i);
        const ucr_node *a = node_at(md, tu->from), *b = node_at(md, tu->to);
        double x1 = gx + (a->col + 0.5) * p->s, y1 = gy + (a->row + 0.5) * p->s;
        double x2 = gx + (b->col + 0.5) * p->s, y2 = gy + (b->row + 0.5) * p->s;
        bool horizontal = fabs(y2 - y1) < 1e-6;
        bool blocked = tu->kind == UCR_TUNNEL_BLOCKED;
        stroke_line(L, x1, y1, x2, y2, blocked ? 0.8 : 1.8, blocked, (ucr_color){ 0, 0, 0, 1 });
        int to = ucr_booklet_arrow_to(md, tu);
        if (to >= 0) {
            double dx = (x2 - x1) / p->s, dy = (y2 - y1) / p->s;
            if (to == tu->from)
                dx = -dx, dy = -dy;
            double tx = to == tu->to ? x2 : x1, ty = to == tu->to ? y2 : y1;
            double back = horizontal ? p->box_w / 2 : p->box_h / 2;
            arrowhead(L, tx - dx * (back + 1), ty - dy * (back + 1), dx, dy, MAX(4.0, p->s * 0.05));
        }
        /* The gap between the boxes holds the label, or its short form. */
        double gap_along = horizontal ? p->s - p->box_w : p->s - p->box_h;
        double room = horizontal ? gap_along - 4 : p->s * 0.8;
        double room_h = horizontal ? p->box_h * 0.8 : gap_along - 2;
        char *text = NULL;
        ucr_textblock *tb = NULL;
        for (int detail = 0; detail <= 3; detail++) {
            g_free(text);
            ucr_textblock_free(tb);
            text = tunnel_label(md, tu, detail);
            tb = block(L, text, UCR_FONT_TEXT, size, 0, 0);
            if (ucr_textblock_width(tb) <= room && ucr_textblock_height(tb) <= room_h)
                break;
        }
        if (*text)
            halo_label(L, tb, (x1 + x2) / 2, (y1 + y2) / 2);
        ucr_textblock_free(tb);
        g_free(text);
    }
}

/* The lines a node's box shows, as many as fit: letter, level, method,
 * page; then fewer.  The method is a whole word or absent. */
static void overview_box(lay *L, const overview_plan *p, const ucr_node *n, double cx, double cy,
                         int page)
{
    ucr_path *box = ucr_path_new();
    ucr_path_rect(box, cx - p->box_w / 2, cy - p->box_h / 2, p->box_w, p->box_h);
    ucr_device_fill_path(L->dev, box, false, (ucr_color){ 1, 1, 1, 1 });
    ucr_stroke st = { .width = 1.2, .cap = UCR_CAP_BUTT, .join = UCR_JOIN_MITER };
    ucr_device_stroke_path(L->dev, box, &st, (ucr_color){ 0, 0, 0, 1 });
    ucr_path_free(box);
    double small = L->t->small_pt;
    double size = MAX(small, MIN(L->t->body_pt * 1.3, p->box_h / 5.5));
    char *variants[4];
    variants[0] = g_markup_printf_escaped("<span size='%d'><b>%s</b></span>\nlevel %d\n%s\np. %d",
                                          (int)(size * 1.5 * PANGO_SCALE), n->id, n->depth, n->method, page);
    variants[1] = g_markup_printf_escaped("<span size='%d'><b>%s</b></span>\nlevel %d\np. %d",
                                          (int)(size * 1.3 * PANGO_SCALE), n->id, n->depth, page);
    variants[2] = g_markup_printf_escaped("<b>%s</b> L%d\np. %d", n->id, n->depth, page);
    variants[3] = g_markup_printf_escaped("<b>%s</b>", n->id);
    ucr_textblock *tb = NULL;
    for (int v = 0; v < 4; v++) {
        double sz = v < 2 ? size : small;
        tb = block(L, variants[v], UCR_FONT_HAND, sz, 0, 0.5);
        if (v == 3 || (ucr_textblock_width(tb) <= p->box_w * 0.92 &&
                       ucr_textblock_height(tb) <= p->box_h * 0.94))
            break;
        ucr_textblock_free(tb);
    }
    put(L, tb, cx, cy - ucr_textblock_height(tb) / 2);
    ucr_textblock_free(tb);
    for (int v = 0; v < 4; v++)
        g_free(variants[v]);
    char *dest = g_strdup_printf("map-%s", n->id);
    ucr_device_link(L->dev, cx - p->box_w / 2, cy - p->box_h / 2, p->box_w, p->box_h, dest);
    g_free(dest);
}

/* The map symbols with their names, drawn by the map's own pen. */
/* One legend entry's symbol, drawn in squares into a 2 × 1 cell. */
typedef enum {
    LEG_WALL,        /* a wall with ucr_wall_symbol @wall on it */
    LEG_STAIRS, LEG_LADDER, LEG_SLOPE, LEG_TRAPDOOR, LEG_PIT, LEG_SPRUNG, LEG_RUBBLE, LEG_DEBRIS, LEG_POOL,
    LEG_UNDER,       /* a passage dashed under a room's floor */
    LEG_TEXT         /* a hand-lettered mark, @text, under group @group */
} legend_kind;

typedef struct {
    legend_kind kind;
    ucr_wall_symbol wall;
    const char *text, *group;
    const char *name;
} legend_row;

/* Every symbol and mark a map draws (check_booklet holds the maps to
 * this list): the same functions draw them here, under the same groups. */
static const legend_row legend_rows[] = {
    { LEG_WALL, UCR_SYMBOL_DOOR, NULL, NULL, "door" },
    { LEG_WALL, UCR_SYMBOL_DOUBLE_DOOR, NULL, NULL, "double door" },
    { LEG_WALL, UCR_SYMBOL_SECRET_DOOR, NULL, NULL, "secret door" },
    { LEG_WALL, UCR_SYMBOL_LOCKED_DOOR, NULL, NULL, "locked door" },
    { LEG_WALL, UCR_SYMBOL_TRAPPED_DOOR, NULL, NULL, "trapped door" },
    { LEG_WALL, UCR_SYMBOL_PORTCULLIS, NULL, NULL, "portcullis" },
    { LEG_WALL, UCR_SYMBOL_ARCHWAY, NULL, NULL, "archway" },
    { LEG_STAIRS, 0, NULL, NULL, "stairs (narrow end down)" },
    { LEG_LADDER, 0, NULL, NULL, "ladder" },
    { LEG_SLOPE, 0, NULL, NULL, "slope (arrow points down)" },
    { LEG_TRAPDOOR, 0, NULL, NULL, "trapdoor" },
    { LEG_UNDER, 0, NULL, NULL, "passage under a room" },
    { LEG_PIT, 0, NULL, NULL, "pit or trap" },
    { LEG_SPRUNG, 0, NULL, NULL, "sprung or disabled trap" },
    { LEG_TEXT, 0, "T", "stock:trap", "a trap (see the key)" },
    { LEG_RUBBLE, 0, NULL, NULL, "rubble (a collapse)" },
    { LEG_DEBRIS, 0, NULL, NULL, "debris" },
    { LEG_POOL, 0, NULL, NULL, "pool" },
    { LEG_TEXT, 0, "below", "exit:below", "deeper than this booklet" },
    { LEG_TEXT, 0, "collapsed", "exit:collapsed", "a tunnel fallen in" },
};

#define LEGEND_ITEMS G_N_ELEMENTS(legend_rows)

/* @min_text: the smallest text in squares (the legend's own size).  Returns
 * how many squares wide the symbol is drawn from its cell's left: 2, or more
 * for a word that the smallest text makes wider (a narrow panel's legend). */
static double legend_symbol(ucr_pen *pen, const legend_row *r, double min_text)
{
    const ucr_style *style = pen->style;
    switch (r->kind) {
    case LEG_WALL: {
        ucr_path *wall = ucr_path_new();
        ucr_pen_rough_line(pen, wall, 0.1, 0.5, 1.9, 0.5, 2, 1, 0.5);
        ucr_stroke st = { .width = style->wall_width, .cap = UCR_CAP_ROUND, .join = UCR_JOIN_ROUND };
        ucr_device_stroke_path(pen->dev, wall, &st, (ucr_color){ 0, 0, 0, 1 });
        ucr_path_free(wall);
        ucr_symbol_wall(pen, r->wall, 1.0, 0.5, false);
        break;
    }
    case LEG_STAIRS: ucr_symbol_stairs(pen, (ucr_rect){ 0.2, 0.05, 1.8, 0.95 }, 1, 0, true); break;
    case LEG_LADDER: ucr_symbol_ladder(pen, (ucr_rect){ 0.5, 0.1, 1.5, 0.9 }, 1, 0, true); break;
    case LEG_SLOPE: ucr_symbol_slope(pen, (ucr_rect){ 0.2, 0.1, 1.8, 0.9 }, 1, 0, true); break;
    case LEG_TRAPDOOR: ucr_symbol_trapdoor(pen, 1.0, 0.5, 0.7); break;
    case LEG_PIT: ucr_symbol_pit(pen, 1.0, 0.5, 0.7); break;
    case LEG_SPRUNG: ucr_symbol_trap_sprung(pen, 1.0, 0.5, 0.7); break;
    case LEG_RUBBLE: ucr_symbol_rubble(pen, (ucr_rect){ 0.5, 0.0, 1.5, 1.0 }); break;
    case LEG_DEBRIS: ucr_symbol_debris(pen, (ucr_rect){ 0.5, 0.0, 1.5, 1.0 }); break;
    case LEG_POOL: ucr_symbol_pool(pen, 1.0, 0.5, 0.35); break;
    case LEG_UNDER: {
        /* A room's wall, and the passage's walls dashed across it. */
        ucr_path *wall = ucr_path_new();
        ucr_pen_rough_line(pen, wall, 1.0, -0.1, 1.0, 1.1, 2, 1, 0.5);
        ucr_stroke st = { .width = style->wall_width, .cap = UCR_CAP_ROUND, .join = UCR_JOIN_ROUND };
        ucr_device_stroke_path(pen->dev, wall, &st, (ucr_color){ 0, 0, 0, 1 });
        ucr_path_free(wall);
        const double pts[4] = { 0.1, 0.5, 1.9, 0.5 };
        ucr_symbol_passage_under(pen, pts, 2, 0.6);
        break;
    }
    case LEG_TEXT: {
        /* As the map letters it (a mark bold), within the cell's 2 squares. */
        bool bold = r->text[1] == '\0';
        double size = bold ? 0.7 : 0.5;
        ucr_rect tr = ucr_pen_text_rect(pen, r->text, style->hand_font, size, bold, 0, 0);
        double fit = MAX(min_text, MIN(size, size * 1.9 / (tr.x1 - tr.x0)));
        double wide = (tr.x1 - tr.x0) * fit / size;
        ucr_device_begin_group(pen->dev, r->group);
        ucr_pen_text(pen, r->text, style->hand_font, fit, bold, MAX(1.0, wide / 2 + 0.05), 0.5, false);
        ucr_device_end_group(pen->dev);
        return MAX(2.0, wide + 0.1);
    }
    }
    return 2.0;
}

static void legend(lay *L, double x, double y, double w)
{
    const ucr_style *style = L->opt->style;
    double cell_w = L->t->small_pt * (w < L->t->small_pt * 40 ? 9.5 : 14), cell_h = L->t->small_pt * 3.0;
    int per_row = MAX(1, (int)(w / cell_w));
    cell_w = w / per_row;
    double sq = cell_h * 0.8;  /* points per square of the symbols */
    ucr_display_list *lists[LEGEND_ITEMS];
    ucr_textblock *tbs[LEGEND_ITEMS];
    double wide[LEGEND_ITEMS];
    for (guint i = 0; i < LEGEND_ITEMS; i++) {
        lists[i] = ucr_display_list_new();
        ucr_device *dev = ucr_list_device_new(lists[i]);
        ucr_pen pen = { .dev = dev, .style = style, .fonts = L->fonts };
        ucr_prng_seed(&pen.rng, "legend", legend_rows[i].name);
        wide[i] = legend_symbol(&pen, &legend_rows[i], MAX(L->t->small_pt, UCR_PAGE_MIN_TEXT_PT) * 1.01 / sq);
        ucr_device_close(dev, NULL);
        ucr_device_free(dev);
        tbs[i] = block(L, legend_rows[i].name, UCR_FONT_TEXT, L->t->small_pt, cell_w - (wide[i] + 0.3) * sq, 0);
    }
    /* A row is as tall as its tallest description (a narrow panel wraps
     * them to three lines), so that no entry runs into the next row. */
    double cy = y;
    for (guint r0 = 0; r0 < LEGEND_ITEMS; r0 += (guint)per_row) {
        double row_h = cell_h;
        for (guint i = r0; i < LEGEND_ITEMS && i < r0 + (guint)per_row; i++)
            row_h = MAX(row_h, ucr_textblock_height(tbs[i]) + L->t->small_pt * 0.6);
        for (guint i = r0; i < LEGEND_ITEMS && i < r0 + (guint)per_row; i++) {
            double cx = x + (i - r0) * cell_w;
            ucr_matrix m = ucr_matrix_scale_translate(sq, cx, cy + (row_h - sq) / 2);
            ucr_display_list_replay(lists[i], L->dev, &m);
            put(L, tbs[i], cx + (wide[i] + 0.2) * sq, cy + (row_h - ucr_textblock_height(tbs[i])) / 2);
        }
        cy += row_h;
    }
    for (guint i = 0; i < LEGEND_ITEMS; i++) {
        ucr_display_list_free(lists[i]);
        ucr_textblock_free(tbs[i]);
    }
    mark_used(L, cy);
}

static void overview_table_head(lay *L, const overview_plan *p)
{
    for (int c = 0; c < 10; c++)
        put(L, p->heads[c], L->left + p->col_x[c], L->y);
    L->y += p->head_h;
    stroke_line(L, L->left, L->y - 1.5, L->left + p->col_x[10], L->y - 1.5, 0.5, false,
                (ucr_color){ 0, 0, 0, 1 });
}

static void overview_row(lay *L, const overview_plan *p, const ucr_node *n, int row, int page)
{
    const ucr_stats *st = &n->stats;
    char *cells[10];
    cells[0] = g_markup_printf_escaped("<b>%s</b>", n->id);
    cells[1] = g_strdup_printf("%d", n->depth);
    cells[2] = g_markup_escape_text(n->method, -1);
    cells[3] = g_strdup_printf("%d", st->areas);
    cells[4] = g_strdup_printf("%d", st->loops);
    cells[5] = g_strdup_printf("%d (%d%%)", st->on_loop, (int)(st->loop_share * 100 + 0.5));
    cells[6] = g_strdup_printf("%d", st->chokepoints);
    cells[7] = g_strdup_printf("%d", st->dead_ends);
    cells[8] = g_strdup_printf("%d", st->unreachable);
    cells[9] = g_strdup_printf("%d", page);
    if (row % 2)
        fill_rect(L, L->left, L->y, p->col_x[10], p->row_h, (ucr_color){ 0.92, 0.92, 0.92, 1 });
    for (int c = 0; c < 10; c++) {
        put_markup(L, cells[c], UCR_FONT_TEXT, L->t->small_pt, L->left + p->col_x[c], L->y + 1,
                   0, 0);
        g_free(cells[c]);
    }
    char *dest = g_strdup_printf("map-%s", n->id);
    ucr_device_link(L->dev, L->left, L->y, p->col_x[10], p->row_h, dest);
    g_free(dest);
    L->y += p->row_h;
    mark_used(L, L->y);
}

static void overview_draw(lay *L, const overview_plan *p, int first_slot)
{
    const ucr_megadungeon *md = L->md;
    const ucr_page_template *t = L->t;
    page_begin(L, UCR_PAGE_OVERVIEW, false, first_slot);
    ucr_device_dest(L->dev, "overview", L->left, L->top);
    ucr_device_outline(L->dev, 1, "Overview", "overview");
    put(L, p->heading, L->left, L->y);
    double gx = L->left + p->ox, gy = L->top + p->oy;
    overview_tunnels(L, p, gx, gy);
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = node_at(md, (int)i);
        double cx = gx + (n->col + 0.5) * p->s, cy = gy + (n->row + 0.5) * p->s;
        overview_box(L, p, n, cx, cy, L->map_page[i]);
        if ((int)i == md->entrance_node) {
            /* Above the box, left of a tunnel that may come down into it,
             * where it fits; the box's double frame says it anyway. */
            ucr_textblock *tb = block(L, "▼ the way in", UCR_FONT_TEXT, t->small_pt, 0, 0.5);
            double th = ucr_textblock_height(tb), tw = ucr_textblock_width(tb);
            if (th <= (p->s - p->box_h) / 2 - 1 && tw <= p->box_w / 2 + (p->s - p->box_w) / 2 - 4)
                halo_label(L, tb, cx - tw / 2 - 3, cy - p->box_h / 2 - th / 2 - 1);
            ucr_textblock_free(tb);
            ucr_path *frame = ucr_path_new();
            double in = MIN(2.5, p->box_w * 0.06);
            ucr_path_rect(frame, cx - p->box_w / 2 + in, cy - p->box_h / 2 + in, p->box_w - 2 * in,
                          p->box_h - 2 * in);
            ucr_stroke st = { .width = 0.6, .cap = UCR_CAP_BUTT, .join = UCR_JOIN_MITER };
            ucr_device_stroke_path(L->dev, frame, &st, (ucr_color){ 0, 0, 0, 1 });
            ucr_path_free(frame);
        }
    }
    mark_used(L, gy + p->grid_h);
    L->y = gy + p->grid_h + t->body_pt;
    L->y += put(L, p->reading, L->left, L->y) + t->body_pt;
    int n = (int)md->nodes->len, row = 0, slot = first_slot;
    int on_page = p->rows_first;
    while (row < n) {
        if (on_page == 0) {
            page_begin(L, UCR_PAGE_OVERVIEW, false, ++slot);
            on_page = p->rows_per_page;
        }
        overview_table_head(L, p);
        for (; on_page > 0 && row < n; on_page--, row++)
            overview_row(L, p, node_at(md, row), row, L->map_page[row]);
    }
    close_sparse_page(L);
    page_end(L);
}

/* ---- maps -------------------------------------------------------------- */

typedef struct {
    double s;          /* points per square */
    bool landscape;
    bool spread;       /* across two facing pages, a left (even) and a right */
    int nx, ny;        /* parts */
} map_plan;

/* Records node @n's map again (*@list replaced) at @s points a square:
 * its extent and its size on the page, *@mw by *@mh. */
static void map_record_again(lay *L, const ucr_node *n, ucr_map_options *opt, double s, ucr_display_list **list,
                             ucr_map_extent *ext, double *mw, double *mh)
{
    ucr_display_list_free(*list);
    opt->points_per_square = s;
    *list = ucr_map_record_with(L->md, n, L->opt->style, L->fonts, opt, ext);
    *mw = (ext->x1 - ext->x0) * s;
    *mh = (ext->y1 - ext->y0) * s;
}

/* The line under a map spread over two pages. */
static double spread_caption(const lay *L)
{
    return L->t->small_pt * 2.2;
}

/* How node @n's map is shown: as large as fits up to MAX_SQUARE; with a
 * folded template's wide = spread, across two facing pages when one page
 * cannot hold it at the template's min-square; a page
 * turned to landscape when that is what lets it reach the smallest square
 * the template allows; else, when a square down to the template's
 * whole-square keeps it on one page (of either way up), whole at that
 * square — a GM sees the node at a glance, a leximorph's word (seed 002)
 * read whole; else in parts at the smallest square. */
static map_plan map_plan_make(lay *L, const ucr_node *n, bool player, double max_square)
{
    const ucr_page_template *t = L->t;
    ucr_map_options opt = { .min_text_pt = t->map_text_pt, .player = player, .links = !player,
                            .no_title = L->opt->zine_pages > 0 };
    double w = t->width - t->margin_inner - t->margin_outer;
    double h = t->height - t->margin_top - t->margin_bottom - footer_height(L);
    map_plan mp = { 0 };
    mp.nx = mp.ny = 1;
    mp.s = MIN(ucr_map_scale_to_fit_with(n, L->opt->style, &opt, w, h), max_square);
    if (mp.s >= t->min_square)
        return mp;
    /* A mini-zine's panels fold too: 2 faces 3, 4 faces 5. */
    if (t->wide == UCR_WIDE_SPREAD && (t->folded || L->opt->zine_pages)) {
        /* Two facing pages less the strip at the fold that both show. */
        double hs = h, ss = t->whole_square;
        for (int i = 0; i < 2; i++)
            ss = ucr_map_scale_to_fit_with(n, L->opt->style, &opt, 2 * w - SPLIT_OVERLAP * ss, hs);
        ss = MIN(ss, max_square);
        if (ss > mp.s && ss >= t->whole_square) {
            mp.s = ss;
            mp.spread = true;
            return mp;
        }
    }
    double ls = 0;
    if (t->wide != UCR_WIDE_PORTRAIT) {
        double m = MAX(t->margin_inner, t->margin_outer);
        double lw = t->height - 2 * t->margin_outer, lh = t->width - 2 * m - footer_height(L);
        ls = MIN(ucr_map_scale_to_fit_with(n, L->opt->style, &opt, lw, lh), max_square);
        if (ls >= t->min_square && t->wide == UCR_WIDE_LANDSCAPE) {
            mp.s = ls;
            mp.landscape = true;
            return mp;
        }
    }
    if (t->wide == UCR_WIDE_LANDSCAPE && ls > mp.s && ls >= t->whole_square) {
        mp.s = ls;
        mp.landscape = true;
        return mp;
    }
    if (mp.s >= t->whole_square)
        return mp;
    mp.s = t->min_square;
    return mp;
}

/* A window onto another device for one part of a split map: what is drawn
 * passes through (the clip does the cutting), but text and links anchored
 * outside the window are dropped — a backend may keep clipped-out text in
 * the PDF's text layer (libharu does, cairo does not), and a link there
 * would be a live rectangle over nothing. */
typedef struct {
    ucr_device super;
    ucr_device *to;
    double x0, y0, x1, y1;
    bool drop_title;   /* not the first part: the map's title is part 1's (cut
                        * by the window, it read as a torn heading) */
    int dropping;      /* groups open inside the dropped title */
} window_device;

static bool in_window(const window_device *w, double x, double y)
{
    return x >= w->x0 && x <= w->x1 && y >= w->y0 && y <= w->y1;
}

static void wd_fill(ucr_device *dev, const ucr_path *p, bool eo, ucr_color c)
{
    if (!((window_device *)dev)->dropping)
        ucr_device_fill_path(((window_device *)dev)->to, p, eo, c);
}

static void wd_stroke(ucr_device *dev, const ucr_path *p, const ucr_stroke *st, ucr_color c)
{
    if (!((window_device *)dev)->dropping)
        ucr_device_stroke_path(((window_device *)dev)->to, p, st, c);
}

static void wd_clip(ucr_device *dev, const ucr_path *p, bool eo)
{
    if (!((window_device *)dev)->dropping)
        ucr_device_clip_path(((window_device *)dev)->to, p, eo);
}

static void wd_pop_clip(ucr_device *dev)
{
    if (!((window_device *)dev)->dropping)
        ucr_device_pop_clip(((window_device *)dev)->to);
}

static void wd_text(ucr_device *dev, const ucr_text *t, ucr_color c)
{
    window_device *w = (window_device *)dev;
    if (!w->dropping && in_window(w, t->x, t->y))
        ucr_device_show_text(w->to, t, c);
}

/* Only the copies whose ink reaches into the window: the rest would be
 * clipped away, but would still be written. */
static void wd_stamp(ucr_device *dev, const ucr_stamp_set *set, const ucr_matrix *m, const ucr_stamp *at,
                     int n, ucr_color c)
{
    window_device *w = (window_device *)dev;
    double r = ucr_stamp_set_reach(set) * ucr_matrix_expansion(m);
    ucr_stamp *in = g_new(ucr_stamp, MAX(n, 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (at[i].x >= w->x0 - r && at[i].x <= w->x1 + r && at[i].y >= w->y0 - r && at[i].y <= w->y1 + r)
            in[k++] = at[i];
    ucr_device_stamp(w->to, set, m, in, k, c);
    g_free(in);
}

static void wd_link(ucr_device *dev, double x, double y, double lw, double lh, const char *dest)
{
    window_device *w = (window_device *)dev;
    if (in_window(w, x + lw / 2, y + lh / 2))
        ucr_device_link(w->to, x, y, lw, lh, dest);
}

static void wd_begin_group(ucr_device *dev, const char *name)
{
    window_device *w = (window_device *)dev;
    if (w->dropping || (w->drop_title && !strcmp(name, "title")))
        w->dropping++;
    else
        ucr_device_begin_group(w->to, name);
}

static void wd_end_group(ucr_device *dev)
{
    window_device *w = (window_device *)dev;
    if (w->dropping)
        w->dropping--;
    else
        ucr_device_end_group(w->to);
}

static void replay_window(const ucr_display_list *list, ucr_device *to, const ucr_matrix *m, double x,
                          double y, double w, double h, bool drop_title)
{
    window_device *wd = (window_device *)ucr_device_new_of_size(sizeof(window_device));
    wd->super.fill_path = wd_fill;
    wd->super.stroke_path = wd_stroke;
    wd->super.clip_path = wd_clip;
    wd->super.pop_clip = wd_pop_clip;
    wd->super.show_text = wd_text;
    wd->super.stamp = wd_stamp;
    wd->super.link = wd_link;
    wd->super.begin_group = wd_begin_group;
    wd->super.end_group = wd_end_group;
    wd->to = to;
    wd->x0 = x;
    wd->y0 = y;
    wd->x1 = x + w;
    wd->y1 = y + h;
    wd->drop_title = drop_title;
    ucr_display_list_replay(list, &wd->super, m);
    ucr_device_close(&wd->super, NULL);
    ucr_device_free(&wd->super);
}

static void continued_mark(lay *L, const char *text, double cx, double cy)
{
    char *m = g_markup_printf_escaped("<i>%s</i>", text);
    ucr_textblock *tb = block(L, m, UCR_FONT_TEXT, L->t->small_pt, 0, 0);
    halo_label(L, tb, cx, cy);
    ucr_textblock_free(tb);
    g_free(m);
}

/* ---- a map across two facing pages ---- */

/* A run of text of a recorded map, in squares: how far it reaches either
 * side, and where it is anchored (the window that shows it). */
typedef struct {
    double x0, x1, ax;
} text_span;

typedef struct {
    ucr_device super;
    GArray *spans;   /* text_span */
} span_device;

static void sd_text(ucr_device *dev, const ucr_text *t, ucr_color c)
{
    (void)c;
    /* An estimate: the device has no fonts, and a cut is chosen by counts. */
    double w = (double)g_utf8_strlen(t->utf8, -1) * t->size * 0.55;
    text_span sp = { t->x - t->align * w, t->x - t->align * w + w, t->x };
    g_array_append_val(((span_device *)dev)->spans, sp);
}

static GArray *map_text_spans(const ucr_display_list *list)
{
    span_device *sd = (span_device *)ucr_device_new_of_size(sizeof(span_device));
    sd->super.show_text = sd_text;
    sd->spans = g_array_new(FALSE, FALSE, sizeof(text_span));
    ucr_display_list_replay(list, &sd->super, NULL);
    GArray *spans = sd->spans;
    ucr_device_close(&sd->super, NULL);
    ucr_device_free(&sd->super);
    return spans;
}

/* Where a spread's halves meet, in squares, between @lo and @hi: the left
 * page shows up to the cut plus half the overlap @ov, the right from the
 * cut less half of it.  The cut that leaves the fewest labels crossing a
 * half's inner edge, and of those the one nearest @mid. */
static double spread_cut(const GArray *spans, double lo, double hi, double mid, double ov)
{
    double best = CLAMP(mid, lo, hi), best_score = G_MAXDOUBLE;
    for (double c = lo; c <= hi + 1e-9; c += 0.25) {
        double el = c + ov / 2, er = c - ov / 2;
        int cut = 0;
        for (guint i = 0; i < spans->len; i++) {
            const text_span *sp = &g_array_index(spans, text_span, i);
            cut += sp->ax <= el && sp->x0 < el && sp->x1 > el;
            cut += sp->ax >= er && sp->x0 < er && sp->x1 > er;
        }
        double score = cut * 1000.0 + fabs(c - mid);
        if (score < best_score) {
            best_score = score;
            best = c;
        }
    }
    return best;
}

/* One half of a spread: the map's columns @c0 to @c1 (squares) with their
 * left edge at @x, its top at L->top. */
static void spread_half(lay *L, const ucr_display_list *list, const ucr_map_extent *ext, double s,
                        double c0, double c1, double x, bool drop_title)
{
    double tw = (c1 - c0) * s, th = (ext->y1 - ext->y0) * s, y = L->top;
    ucr_path *clip = ucr_path_new();
    ucr_path_rect(clip, x, y, tw, th);
    ucr_device_clip_path(L->dev, clip, false);
    ucr_path_free(clip);
    ucr_matrix m = ucr_matrix_scale_translate(s, x - c0 * s, y - ext->y0 * s);
    replay_window(list, L->dev, &m, x, y, tw, th, drop_title);
    ucr_device_pop_clip(L->dev);
    mark_used(L, y + th);
}

/* Node @n's map across the left page L is on (even) and the right page it
 * begins, each half against the fold, SPLIT_OVERLAP squares at the fold on
 * both; shrunk a little when its labels widen it, down to the template's
 * whole-square.  FALSE, nothing drawn, when it cannot fit so. */
static bool map_spread(lay *L, const ucr_node *n, ucr_page_kind kind, const char *dest, map_plan *mp,
                       ucr_map_options *opt, ucr_display_list **list, ucr_map_extent *ext)
{
    const ucr_page_template *t = L->t;
    double w = text_width(L), h = L->bottom - L->top;
    double mw = (ext->x1 - ext->x0) * mp->s, mh = (ext->y1 - ext->y0) * mp->s;
    for (int tries = 0; tries < 3 && (mw > 2 * w - SPLIT_OVERLAP * mp->s + 0.5 || mh > h + 0.5); tries++) {
        double s = mp->s * MIN((2 * w - SPLIT_OVERLAP * mp->s) / mw, h / mh) * 0.99;
        if (s < t->whole_square)
            return false;
        mp->s = s;
        map_record_again(L, n, opt, s, list, ext, &mw, &mh);
    }
    if (mw > 2 * w - SPLIT_OVERLAP * mp->s + 0.5 || mh > h + 0.5)
        return false;
    double s = mp->s, half = w / s, ov = SPLIT_OVERLAP;
    ucr_device_dest(L->dev, dest, L->left, L->top);
    GArray *spans = map_text_spans(*list);
    double c = spread_cut(spans, ext->x1 - half + ov / 2, ext->x0 + half - ov / 2, (ext->x0 + ext->x1) / 2, ov);
    g_array_free(spans, TRUE);
    spread_half(L, *list, ext, s, ext->x0, c + ov / 2, L->right - (c + ov / 2 - ext->x0) * s, false);
    char *cap = g_strdup_printf("<i>The map of node %s runs across both pages; the %d ft at the fold "
                                "are on each.</i>", n->id, SPLIT_OVERLAP * 10);
    if (mh + spread_caption(L) <= h)   /* where there is room for it */
        put_markup(L, cap, UCR_FONT_TEXT, t->small_pt, L->left, L->top + mh + t->small_pt * 0.6, w, 0);
    g_free(cap);
    page_begin(L, kind, false, -1);
    spread_half(L, *list, ext, s, c - ov / 2, ext->x1, L->left, true);
    L->y = MIN(L->top + mh + spread_caption(L), L->bottom);
    mark_used(L, L->y);
    return true;
}

/* Draws node @n's map from the top of a new page (or pages, when split);
 * leaves L on its last page just under the map.  Returns the square. */
/* A map already recorded at its plan's scale (node_pages measures it so). */
typedef struct {
    map_plan mp;
    ucr_display_list *list;
    ucr_map_extent ext;
} recorded_map;

/* The map on the rest of a key page, when it fits there at nearly
 * (80%) the scale s_alone it would have alone; false leaves it for a
 * page of its own. */
static bool map_after_key(lay *L, const ucr_node *n, const char *dest, double s_alone, int *first_page,
                          double *s_out)
{
    const ucr_page_template *t = L->t;
    double y = L->used + t->body_pt * 1.5, room = L->bottom - y;
    ucr_map_options o = { .min_text_pt = t->map_text_pt, .links = true };
    double s = MIN(ucr_map_scale_to_fit_with(n, L->opt->style, &o, text_width(L), room), s_alone);
    if (room > 0 && s >= t->min_square && s >= s_alone * 0.8) {
        o.points_per_square = s;
        ucr_map_extent ext;
        ucr_display_list *list = ucr_map_record_with(L->md, n, L->opt->style, L->fonts, &o, &ext);
        double mw = (ext.x1 - ext.x0) * s, mh = (ext.y1 - ext.y0) * s;
        if (mw <= text_width(L) + 0.5 && mh <= room + 0.5) {
            L->cur->kind = UCR_PAGE_MAP;
            *first_page = L->number;
            ucr_device_dest(L->dev, dest, L->left, y);
            ucr_matrix m = ucr_matrix_scale_translate(s, L->left + (text_width(L) - mw) / 2 - ext.x0 * s,
                                                      y - ext.y0 * s);
            ucr_display_list_replay(list, L->dev, &m);
            L->y = y + mh + t->body_pt;
            mark_used(L, L->y);
            ucr_display_list_free(list);
            *s_out = s;
            return true;
        }
        ucr_display_list_free(list);
    }
    return false;
}

/* The marks at the edges of part k = j * nx + i (first the page of part 0):
 * where the map continues, and where it comes from. */
static void part_marks(lay *L, int i, int j, int nx, int ny, int first, double x0, double y0, double tw,
                       double th)
{
    const ucr_page_template *t = L->t;
    int k = j * nx + i;
    char buf[64];
    if (i + 1 < nx) {
        g_snprintf(buf, sizeof buf, "continued on p. %d →", first + k + 1);
        continued_mark(L, buf, x0 + tw - t->small_pt * 6, y0 + th / 2);
    }
    if (i > 0) {
        g_snprintf(buf, sizeof buf, "← from p. %d", first + k - 1);
        continued_mark(L, buf, x0 + t->small_pt * 4, y0 + th / 2);
    }
    if (j + 1 < ny) {
        g_snprintf(buf, sizeof buf, "continued on p. %d ↓", first + k + nx);
        continued_mark(L, buf, x0 + tw / 2, y0 + th - t->small_pt);
    }
    if (j > 0) {
        g_snprintf(buf, sizeof buf, "↑ from p. %d", first + k - nx);
        continued_mark(L, buf, x0 + tw / 2, y0 + t->small_pt);
    }
}

/* In parts: each page (w by h points) shows a window of the map (list,
 * its extent ext, mw by mh points at s points a square), neighbours
 * overlapping by SPLIT_OVERLAP squares, with where it continues at its
 * edges. */
static void map_in_parts(lay *L, const ucr_node *n, ucr_page_kind kind, const char *dest, double s,
                         ucr_display_list *list, const ucr_map_extent *ext, double mw, double mh, double w,
                         double h)
{
    const ucr_page_template *t = L->t;
    if (s < L->b->min_part_square)
        L->b->min_part_square = s;
    double caption = t->small_pt * 2.2;
    double ov = SPLIT_OVERLAP * s;
    double ww = w, wh = h - caption;
    int nx = mw <= ww ? 1 : (int)ceil((mw - ov) / (ww - ov));
    int ny = mh <= wh ? 1 : (int)ceil((mh - ov) / (wh - ov));
    int parts = nx * ny, first = L->number;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int k = j * nx + i;
            if (k > 0)
                page_begin(L, kind, false, -1);
            if (k == 0)
                ucr_device_dest(L->dev, dest, L->left, L->top);
            double ox = nx == 1 ? 0 : MIN(i * (ww - ov), mw - ww);
            double oy = ny == 1 ? 0 : MIN(j * (wh - ov), mh - wh);
            double tw = MIN(ww, mw), th = MIN(wh, mh);
            char *cap = g_strdup_printf("<i>Map of node %s, part %d of %d — the parts overlap by %d ft</i>",
                                        n->id, k + 1, parts, SPLIT_OVERLAP * 10);
            put_markup(L, cap, UCR_FONT_TEXT, t->small_pt, L->left, L->y, w, 0);
            g_free(cap);
            double x0 = L->left + (w - tw) / 2, y0 = L->y + caption;
            ucr_path *clip = ucr_path_new();
            ucr_path_rect(clip, x0, y0, tw, th);
            ucr_device_clip_path(L->dev, clip, false);
            ucr_path_free(clip);
            ucr_matrix m = ucr_matrix_scale_translate(s, x0 - ox - ext->x0 * s, y0 - oy - ext->y0 * s);
            replay_window(list, L->dev, &m, x0, y0, tw, th, k > 0);
            ucr_device_pop_clip(L->dev);
            part_marks(L, i, j, nx, ny, first, x0, y0, tw, th);
            L->y = y0 + th + t->body_pt;
            mark_used(L, L->y);
        }
}

static double map_pages(lay *L, const ucr_node *n, bool player, ucr_page_kind kind, const char *dest,
                        double max_square, int *first_page, recorded_map *pre)
{
    const ucr_page_template *t = L->t;
    map_plan mp = pre ? pre->mp : map_plan_make(L, n, player, max_square);
    /* An unfolded booklet lets a map follow the end of the last key on its
     * page, when it fits there at nearly the scale it would have alone. */
    double after = 0;
    if (!t->folded && !player && L->cur && L->cur->kind == UCR_PAGE_KEY && !mp.landscape &&
        map_after_key(L, n, dest, mp.s, first_page, &after))
        return after;
    close_sparse_page(L);
    if (mp.spread && next_page_number(L) % 2 == 1)
        notes_page(L);   /* a spread begins on a left page */
    ucr_map_options opt = { .points_per_square = mp.s, .min_text_pt = t->map_text_pt,
                            .player = player, .links = !player, .no_title = L->opt->zine_pages > 0 };
    ucr_map_extent ext;
    ucr_display_list *list;
    if (pre) {
        list = pre->list;
        ext = pre->ext;
        pre->list = NULL;
    } else {
        list = ucr_map_record_with(L->md, n, L->opt->style, L->fonts, &opt, &ext);
    }
    double mw = (ext.x1 - ext.x0) * mp.s, mh = (ext.y1 - ext.y0) * mp.s;
    page_begin(L, kind, mp.landscape, -1);
    *first_page = L->number;
    double w = text_width(L), h = L->bottom - L->top;
    if (mp.spread) {
        if (map_spread(L, n, kind, dest, &mp, &opt, &list, &ext)) {
            ucr_display_list_free(list);
            return mp.s;
        }
        /* Too large even for two pages: in parts at the template's square. */
        mp.s = t->min_square;
        map_record_again(L, n, &opt, mp.s, &list, &ext, &mw, &mh);
    }
    /* Labels the fit could not foresee may widen the sheet a little: a
     * smaller scale, while the square stays legible, rather than parts. */
    for (int tries = 0; tries < 3 && (mw > w + 0.5 || mh > h + 0.5); tries++) {
        double s = mp.s * MIN(w / mw, h / mh) * 0.99;
        if (s < t->whole_square)
            break;
        mp.s = s;
        map_record_again(L, n, &opt, s, &list, &ext, &mw, &mh);
    }
    if ((mw > w + 0.5 || mh > h + 0.5) && mp.s < t->min_square) {
        /* Shrunk to stay whole, and its labels still overflow the page:
         * in parts after all, at the template's square, on upright pages. */
        if (mp.landscape) {
            page_drop(L);
            page_begin(L, kind, false, -1);
            *first_page = L->number;
            w = text_width(L);
            h = L->bottom - L->top;
        }
        mp.s = t->min_square;
        map_record_again(L, n, &opt, mp.s, &list, &ext, &mw, &mh);
    }
    if (mw <= w + 0.5 && mh <= h + 0.5) {
        ucr_device_dest(L->dev, dest, L->left, L->top);
        ucr_matrix m = ucr_matrix_scale_translate(mp.s, L->left + (w - mw) / 2 - ext.x0 * mp.s,
                                                  L->y - ext.y0 * mp.s);
        ucr_display_list_replay(list, L->dev, &m);
        L->y += mh + t->body_pt;
        mark_used(L, L->y);
        ucr_display_list_free(list);
        return mp.s;
    }
    map_in_parts(L, n, kind, dest, mp.s, list, &ext, mw, mh, w, h);
    ucr_display_list_free(list);
    return mp.s;
}

/* ---- keys -------------------------------------------------------------- */

/* Where the key's text flows: columns of the text box, page after page. */
typedef struct {
    int columns, col;
    double col_w, gap, col_top, y;
} flow;

/* The heading of @n's key, shaped (the caller frees it). */
static ucr_textblock *key_heading_block(lay *L, const ucr_node *n, bool continued)
{
    char *m = continued ? g_markup_printf_escaped("<b>Key to node %s</b> <span size='smaller'>(continued)</span>", n->id)
              : n->name ? g_markup_printf_escaped("<b>Key to node %s</b> <span size='smaller'>— %s</span>", n->id, n->name)
                        : g_markup_printf_escaped("<b>Key to node %s</b>", n->id);
    ucr_textblock *tb = block(L, m, UCR_FONT_HAND, L->t->heading_pt, text_width(L), 0);
    g_free(m);
    return tb;
}

static void key_heading(lay *L, const ucr_node *n, bool continued)
{
    ucr_textblock *tb = key_heading_block(L, n, continued);
    L->y += put(L, tb, L->left, L->y) + L->t->body_pt * 0.4;
    ucr_textblock_free(tb);
}

static void key_new_page(lay *L, const ucr_node *n)
{
    page_begin(L, UCR_PAGE_KEY, false, -1);
    key_heading(L, n, true);
}

static void flow_start(lay *L, flow *f)
{
    /* A page turned for a wide map is wide enough for two. */
    f->columns = L->cur->w > L->cur->h ? MAX(2, L->t->key_columns) : L->t->key_columns;
    f->gap = L->t->body_pt * 1.6;
    f->col_w = (text_width(L) - f->gap * (f->columns - 1)) / f->columns;
    f->col = 0;
    f->col_top = f->y = L->y;
}

static void flow_next(lay *L, flow *f, const ucr_node *n)
{
    if (f->col + 1 < f->columns) {
        f->col++;
        f->y = f->col_top;
        return;
    }
    key_new_page(L, n);
    flow_start(L, f);
}

static double flow_x(const lay *L, const flow *f)
{
    return L->left + f->col * (f->col_w + f->gap);
}

/* Sets @tb into the columns, breaking it between lines where a column
 * ends (never leaving a lone first or last line); @dest marks its top. */
static void flow_block(lay *L, flow *f, const ucr_node *n, const ucr_textblock *tb, const char *dest,
                       double after)
{
    int lines = ucr_textblock_lines(tb), i = 0;
    while (i < lines) {
        double top = ucr_textblock_line_top(tb, i), avail = L->bottom - f->y;
        int k = i;
        while (k < lines && ucr_textblock_line_bottom(tb, k) - top <= avail)
            k++;
        int need = MIN(2, lines - i);
        if (k - i < need && f->y > f->col_top + 0.5) {
            flow_next(L, f, n);
            continue;
        }
        if (k == i)
            k = i + 1;  /* a line taller than a column: set it anyway */
        if (k < lines && lines - k == 1 && k - i >= 3)
            k--;        /* no lone last line at the top of the next column */
        if (i == 0 && dest)
            ucr_device_dest(L->dev, dest, flow_x(L, f), f->y);
        ucr_textblock_draw_lines(tb, L->dev, flow_x(L, f), f->y, i, k);
        f->y += ucr_textblock_line_bottom(tb, k - 1) - top;
        mark_used(L, f->y);
        i = k;
    }
    f->y += after;
}

typedef struct {
    const char *head;
    double frac;
} table_col;

static const table_col room_cols[6] = {
    { "#", 0.055 }, { "Area", 0.18 }, { "Who is there", 0.23 }, { "Trap", 0.15 },
    { "Treasure", 0.15 }, { "Exits", 0.235 },
};

static double room_table_head(lay *L, ucr_textblock *const *heads, double pad)
{
    double x = L->left, h = 0, w = text_width(L);
    for (int c = 0; c < 6; c++) {
        put(L, heads[c], x + pad, L->y + pad);
        h = MAX(h, ucr_textblock_height(heads[c]));
        x += room_cols[c].frac * w;
    }
    L->y += h + 2 * pad;
    stroke_line(L, L->left, L->y, L->right, L->y, 0.6, false, (ucr_color){ 0, 0, 0, 1 });
    L->y += 0.6;
    return h;
}

/* Whether area index @ai of @n gets a prose entry in the booklet: not one
 * that would only repeat its row's exits (key/describe.h), unless the dice
 * are asked for. */
static bool has_entry(const lay *L, const ucr_node *n, int ai)
{
    return L->opt->show_dice || ucr_key_area_has_prose(n, ai);
}

/* One row per numbered area: number, what it is, who is there, trap,
 * treasure, exits; the header again on every page it flows onto. */
/* The header cells of the room table at width @w. */
static void room_heads(lay *L, double w, double pad, ucr_textblock **heads)
{
    for (int c = 0; c < 6; c++) {
        char *m = g_markup_printf_escaped("<b>%s</b>", room_cols[c].head);
        heads[c] = block(L, m, UCR_FONT_TEXT, L->t->small_pt, room_cols[c].frac * w - 2 * pad, 0);
        g_free(m);
    }
}

/* One row's cells at width @w; returns the row's height. */
static double room_row_blocks(lay *L, char **cells, double w, double pad, ucr_textblock **tb)
{
    double h = 0;
    for (int c = 0; c < 6; c++) {
        tb[c] = block(L, cells[c], UCR_FONT_TEXT, L->t->small_pt, room_cols[c].frac * w - 2 * pad, 0);
        h = MAX(h, ucr_textblock_height(tb[c]));
    }
    return h + 2 * pad;
}

static void room_table(lay *L, const ucr_node *n, const int *order)
{
    double w = text_width(L), pad = 1.5;
    ucr_textblock *heads[6];
    room_heads(L, w, pad, heads);
    room_table_head(L, heads, pad);
    int na = (int)n->areas->len;
    for (int r = 0; r < na; r++) {
        int ai = order[r];
        ucr_key_row row;
        ucr_key_area_row(L->md, n, ai, &row);
        char *num = g_markup_printf_escaped("<b>%d</b>", area_at(n, ai)->key);
        char *cells[6] = { num, g_markup_escape_text(row.what, -1), g_markup_escape_text(row.who, -1),
                           g_markup_escape_text(row.trap, -1), g_markup_escape_text(row.treasure, -1),
                           g_markup_escape_text(row.exits, -1) };
        ucr_key_row_clear(&row);
        ucr_textblock *tb[6];
        double h = room_row_blocks(L, cells, w, pad, tb);
        if (L->y + h > L->bottom) {
            key_new_page(L, n);
            if (text_width(L) != w) {
                /* From a page turned for a wide map to an upright one: the
                 * columns follow the page, or the last ones fall off it. */
                w = text_width(L);
                for (int c = 0; c < 6; c++) {
                    ucr_textblock_free(heads[c]);
                    ucr_textblock_free(tb[c]);
                }
                room_heads(L, w, pad, heads);
                h = room_row_blocks(L, cells, w, pad, tb);
            }
            room_table_head(L, heads, pad);
        }
        for (int c = 0; c < 6; c++)
            g_free(cells[c]);
        if (r % 2)
            fill_rect(L, L->left, L->y, w, h, (ucr_color){ 0.92, 0.92, 0.92, 1 });
        double x = L->left;
        for (int c = 0; c < 6; c++) {
            put(L, tb[c], x + pad, L->y + pad);
            x += room_cols[c].frac * w;
            ucr_textblock_free(tb[c]);
        }
        /* An area with no prose entry is found at its row: the map's
         * number and every "C-7" land here. */
        char *dest = ucr_map_key_dest(n->id, area_at(n, ai)->key);
        if (has_entry(L, n, ai))
            ucr_device_link(L->dev, L->left, L->y, room_cols[0].frac * w, h, dest);
        else
            ucr_device_dest(L->dev, dest, L->left, L->y);
        g_free(dest);
        L->y += h;
        mark_used(L, L->y);
    }
    for (int c = 0; c < 6; c++)
        ucr_textblock_free(heads[c]);
    L->y += L->t->body_pt;
}

/* The whole key of @n from L->y on: heading, what opens it, the room
 * table, the entries in the template's columns, the node's figures. */
static void key(lay *L, const ucr_node *n)
{
    const ucr_page_template *t = L->t;
    /* A mini-zine's key is the terse one, in the type ucr_booklet_new() chose. */
    bool terse = L->opt->zine_pages > 0;
    double pt = terse ? L->key_pt : t->body_pt;
    char *intro = terse ? ucr_key_terse_intro(L->md, n) : ucr_key_node_intro_markup(L->md, n);
    ucr_textblock *itb = intro && *intro ? block(L, intro, UCR_FONT_TEXT, pt, text_width(L), 0) : NULL;
    g_free(intro);
    /* The heading stays with what opens the key: the intro (with its
     * wandering monsters), set in one piece, or the room table's first
     * rows.  When they would run into the footer, both start a page. */
    ucr_textblock *htb = key_heading_block(L, n, false);
    double opening = itb ? ucr_textblock_height(itb) : t->small_pt * 8;
    if (L->y > L->top && L->y + ucr_textblock_height(htb) + t->body_pt * 0.4 + opening > L->bottom)
        page_begin(L, UCR_PAGE_KEY, false, -1);
    char *dest = g_strdup_printf("key-%s", n->id);
    ucr_device_dest(L->dev, dest, L->left, L->y);
    ucr_device_outline(L->dev, 2, "Key", dest);
    g_free(dest);
    L->y += put(L, htb, L->left, L->y) + t->body_pt * 0.4;
    ucr_textblock_free(htb);
    if (itb) {
        /* An intro taller than a whole page still starts under its heading. */
        if (L->y + ucr_textblock_height(itb) > L->bottom)
            key_new_page(L, n);
        L->y += put(L, itb, L->left, L->y) + t->body_pt * 0.6;
        ucr_textblock_free(itb);
    }
    int na = (int)n->areas->len;
    int *order = g_new(int, MAX(na, 1));
    for (int i = 0; i < na; i++)
        order[area_at(n, i)->key - 1] = i;
    if (!terse) {
        if (L->y + t->small_pt * 8 > L->bottom)
            key_new_page(L, n);
        room_table(L, n, order);
    }
    flow f;
    flow_start(L, &f);
    for (int k = 0; k < na; k++) {
        char *m = terse                     ? ucr_key_terse_area(L->md, n, order[k])
                  : has_entry(L, n, order[k]) ? ucr_key_area_markup(L->md, n, order[k], L->opt->show_dice)
                                              : NULL;
        if (!m)
            continue;
        ucr_textblock *tb = block(L, m, UCR_FONT_TEXT, pt, f.col_w, 0);
        char *d = ucr_map_key_dest(n->id, area_at(n, order[k])->key);
        flow_block(L, &f, n, tb, d, pt * (terse ? 0.35 : 0.55));
        g_free(d);
        ucr_textblock_free(tb);
        g_free(m);
    }
    char *bare = terse ? ucr_key_terse_bare(n) : NULL;
    if (bare) {
        ucr_textblock *tb = block(L, bare, UCR_FONT_TEXT, pt, f.col_w, 0);
        flow_block(L, &f, n, tb, NULL, 0);
        ucr_textblock_free(tb);
        g_free(bare);
    }
    if (!terse) {
        char *stats = ucr_key_node_stats_markup(n);
        char *grey = g_strdup_printf("<span foreground='" GREY "'>%s</span>", stats);
        ucr_textblock *tb = block(L, grey, UCR_FONT_TEXT, t->small_pt, f.col_w, 0);
        flow_block(L, &f, n, tb, NULL, 0);
        ucr_textblock_free(tb);
        g_free(grey);
        g_free(stats);
    }
    g_free(order);
}

/* Height the key of @n would take in one column of the full width: the
 * test of whether it fits under its map. */
static double key_height_estimate(lay *L, const ucr_node *n)
{
    const ucr_page_template *t = L->t;
    double w = text_width(L);
    double h = t->heading_pt * 1.6 + t->small_pt * 3;
    /* The intro by its length (it is shaped once, where it is set). */
    char *intro = ucr_key_node_intro_markup(L->md, n);
    if (intro && *intro)
        h += (strlen(intro) / MAX(1.0, w / (t->body_pt * 0.55)) + 2) * t->body_pt * 1.25;
    g_free(intro);
    int na = (int)n->areas->len, entries = 0;
    for (int i = 0; i < na; i++)
        entries += has_entry(L, n, i);
    /* Table rows are one to three lines; entries about five at this width. */
    h += na * t->small_pt * 2.6 + t->body_pt;
    h += entries * t->body_pt * 1.2 * 5.5 / MAX(1, t->key_columns);
    return h;
}

static void node_pages(lay *L, int i)
{
    const ucr_node *n = node_at(L->md, i);
    const ucr_page_template *t = L->t;
    L->node = n;
    /* A folded booklet puts a map on a left (even) page, facing its key;
     * a node whose map and key fit on one page may take any page. */
    recorded_map pre = { 0 }, *have = NULL;
    if (t->folded && next_page_number(L) % 2 == 1) {
        pre.mp = map_plan_make(L, n, false, MAX_SQUARE);
        ucr_map_options opt = { .points_per_square = pre.mp.s, .min_text_pt = t->map_text_pt, .links = true };
        double h = t->height - t->margin_top - t->margin_bottom - footer_height(L);
        pre.list = ucr_map_record_with(L->md, n, L->opt->style, L->fonts, &opt, &pre.ext);
        have = &pre;
        double mh = (pre.ext.y1 - pre.ext.y0) * pre.mp.s;
        double kh = key_height_estimate(L, n);
        if (pre.mp.landscape || pre.mp.spread || mh + kh > h) {
            close_sparse_page(L);
            notes_page(L);
        }
    }
    char *dest = g_strdup_printf("map-%s", n->id);
    double s = map_pages(L, n, false, UCR_PAGE_MAP, dest, MAX_SQUARE, &L->map_page[i], have);
    ucr_display_list_free(pre.list);
    if (s < L->b->min_square)
        L->b->min_square = s;
    char *title = n->name ? g_strdup_printf("Node %s — %s (level %d, %s)", n->id, n->name, n->depth, n->method)
                          : g_strdup_printf("Node %s — level %d, %s", n->id, n->depth, n->method);
    ucr_device_outline(L->dev, 1, title, dest);
    ucr_device_outline(L->dev, 2, "Map", dest);
    g_free(title);
    g_free(dest);
    /* The key starts under the map when a fair part of the page is left. */
    if (L->bottom - L->y < (L->bottom - L->top) * 0.2)
        page_begin(L, UCR_PAGE_KEY, false, -1);
    key(L, n);
    L->node = NULL;
}

static void player_maps(lay *L)
{
    const ucr_megadungeon *md = L->md;
    for (guint i = 0; i < md->nodes->len; i++) {
        const ucr_node *n = node_at(md, (int)i);
        L->node = n;
        char *dest = g_strdup_printf("player-%s", n->id);
        int first;
        map_pages(L, n, true, UCR_PAGE_PLAYER_MAP, dest, MAX_SQUARE * 1.6, &first, NULL);
        if (i == 0)
            ucr_device_outline(L->dev, 1, "Player maps", dest);
        char *title = g_strdup_printf("Node %s", n->id);
        ucr_device_outline(L->dev, 2, title, dest);
        g_free(title);
        g_free(dest);
        L->node = NULL;
    }
}

/* ---- the booklet ------------------------------------------------------- */

/* The back of a mini-zine: the map symbols and where it came from. */
static void legend_page_body(lay *L)
{
    double w = text_width(L);
    L->y += put_markup(L, "<b>Map symbols</b>", UCR_FONT_TEXT, L->t->body_pt, L->left, L->y, w, 0);
    legend(L, L->left, L->y, w);
    char *s = g_markup_printf_escaped("<span foreground='" GREY "'>Made by undercroft %s from the seed "
                                      "“%s”. The same seed always gives the same dungeon.</span>",
                                      L->md->version, L->md->seed);
    put_markup(L, s, UCR_FONT_TEXT, L->t->small_pt, L->left, L->bottom - L->t->small_pt * 4, w, 0);
    g_free(s);
}

/* A folded booklet is a whole number of sheets, four pages each, and ends
 * on a back cover: a notes page, or the map symbols when the key ran to
 * the last page (its tail would be the outside of the booklet). */
static void back_cover(lay *L)
{
    GPtrArray *pages = L->b->pages;
    const bpage *last = pages->len ? g_ptr_array_index(pages, pages->len - 1) : NULL;
    if (pages->len % 4 == 0 && last && last->kind == UCR_PAGE_NOTES)
        return;
    while ((pages->len + 1) % 4) {
        notes_page(L);
        page_end(L);
    }
    const ucr_node *keep = L->node;
    L->node = NULL;
    page_begin(L, UCR_PAGE_COVER, false, -1);
    L->node = keep;
    legend_page_body(L);
    mark_used(L, L->bottom);
    page_end(L);
}

/* The booklet of @md laid out; a mini-zine's key set at @key_pt. */
static ucr_booklet *booklet_build(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                                  PangoFontMap *fonts, double key_pt, GError **error)
{
    ucr_booklet *b = g_new0(ucr_booklet, 1);
    b->pages = g_ptr_array_new();
    b->min_square = G_MAXDOUBLE;
    b->min_part_square = G_MAXDOUBLE;
    /* Without a temporary file (TMPDIR not writable) the pages stay in
     * memory: the same booklet, at a larger peak. */
    b->store = ucr_list_store_new(NULL);
    lay L = { 0 };
    L.md = md;
    L.opt = opt;
    L.t = opt->page;
    L.fonts = fonts;
    L.b = b;
    L.map_page = g_new0(int, md->nodes->len);
    L.key_pt = key_pt;
    int only = opt->node_id ? ucr_megadungeon_find_node(md, opt->node_id) : -1;
    if (opt->zine_pages) {
        cover(&L, false);
        node_pages(&L, only >= 0 ? only : 0);
        close_sparse_page(&L);
        page_end(&L);
        while ((int)b->pages->len < opt->zine_pages - 1) {
            notes_page(&L);
            page_end(&L);
        }
        page_begin(&L, UCR_PAGE_COVER, false, -1);
        legend_page_body(&L);
        mark_used(&L, L.bottom);
        page_end(&L);
        goto finish;
    }
    overview_plan plan;
    overview_plan_make(&L, &plan);
    cover(&L, L.t->folded && plan.pages % 2 == 1);
    page_end(&L);
    int first_slot = (int)b->pages->len;
    for (int k = 0; k < plan.pages; k++)
        g_ptr_array_add(b->pages, NULL);
    for (guint i = 0; i < md->nodes->len; i++)
        if (only < 0 || (int)i == only)
            node_pages(&L, (int)i);
    if (opt->player_maps)
        player_maps(&L);
    close_sparse_page(&L);
    page_end(&L);
    if (L.t->folded)
        back_cover(&L);
    overview_draw(&L, &plan, first_slot);
    overview_plan_clear(&plan);
finish:
    g_free(L.map_page);
    if (L.error) {
        g_propagate_error(error, L.error);
        ucr_booklet_free(b);
        return NULL;
    }
    return b;
}

ucr_booklet *ucr_booklet_new(const ucr_megadungeon *md, const ucr_booklet_options *opt,
                             PangoFontMap *fonts, GError **error)
{
    if (!opt->zine_pages)
        return booklet_build(md, opt, fonts, 0, error);
    /* A mini-zine's key in the largest type that keeps it on the sheet:
     * the panel's body size, then half way, then its small size (the
     * legibility floor); past that the caller refuses the node. */
    const ucr_page_template *t = opt->page;
    const double sizes[3] = { t->body_pt, (t->body_pt + t->small_pt) / 2, t->small_pt };
    for (int i = 0;; i++) {
        ucr_booklet *b = booklet_build(md, opt, fonts, sizes[i], error);
        if (!b || i == 2 || ucr_booklet_page_count(b) <= opt->zine_pages)
            return b;
        ucr_booklet_free(b);
    }
}

void ucr_booklet_free(ucr_booklet *b)
{
    if (!b)
        return;
    for (guint i = 0; i < b->pages->len; i++) {
        bpage *p = g_ptr_array_index(b->pages, i);
        if (p) {
            ucr_display_list_free(p->list);
            g_free(p);
        }
    }
    g_ptr_array_free(b->pages, TRUE);
    ucr_display_list_free(b->loaded);
    ucr_list_store_free(b->store);
    g_free(b);
}

int ucr_booklet_page_count(const ucr_booklet *b)
{
    return (int)b->pages->len;
}

const ucr_display_list *ucr_booklet_page(const ucr_booklet *b, int i, double *width,
                                         double *height, ucr_page_kind *kind, double *filled)
{
    const bpage *p = g_ptr_array_index(b->pages, i);
    if (width)
        *width = p->w;
    if (height)
        *height = p->h;
    if (kind)
        *kind = p->kind;
    if (filled)
        *filled = p->fill;
    if (p->list)
        return p->list;
    /* The booklet is const to its readers; this cache is not what it says. */
    ucr_booklet *mb = (ucr_booklet *)b;
    ucr_display_list_free(mb->loaded);
    mb->loaded = ucr_list_store_get(mb->store, p->key, NULL);
    return mb->loaded;
}

ucr_display_list *ucr_booklet_page_load(const ucr_booklet *b, int i, GError **error)
{
    const bpage *p = g_ptr_array_index(b->pages, i);
    if (p->list) {
        ucr_display_list *copy = ucr_display_list_new();
        ucr_device *dev = ucr_list_device_new(copy);
        ucr_display_list_replay(p->list, dev, NULL);
        ucr_device_close(dev, NULL);
        ucr_device_free(dev);
        return copy;
    }
    return ucr_list_store_get(b->store, p->key, error);
}

double ucr_booklet_min_square(const ucr_booklet *b)
{
    return b->min_square;
}

double ucr_booklet_min_part_square(const ucr_booklet *b)
{
    return b->min_part_square;
}

gboolean ucr_booklet_replay(const ucr_booklet *b, ucr_device *dev, GError **error)
{
    /* One page in memory at a time: read back, replayed, dropped. */
    for (guint i = 0; i < b->pages->len; i++) {
        const bpage *p = g_ptr_array_index(b->pages, i);
        if (p->list) {
            ucr_display_list_replay(p->list, dev, NULL);
            continue;
        }
        ucr_display_list *list = ucr_list_store_get(b->store, p->key, error);
        if (!list)
            return FALSE;
        ucr_display_list_replay(list, dev, NULL);
        ucr_display_list_free(list);
    }
    return TRUE;
}

char *ucr_booklet_date(void)
{
    gint64 when = 1491523200;   /* 2017-04-07, the day seed 001 was posted */
    const char *env = g_getenv("SOURCE_DATE_EPOCH");
    if (env && *env) {
        char *end;
        errno = 0;
        long long v = strtoll(env, &end, 10);
        if (!errno && *end == '\0' && v >= 0 && v < 253402300800LL)
            when = v;
    }
    GDateTime *dt = g_date_time_new_from_unix_utc(when);
    char *s = g_date_time_format(dt, "%Y-%m-%dT%H:%M:%S");
    g_date_time_unref(dt);
    return s;
}
