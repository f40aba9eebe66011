/* undercroft — dice tables as editable data files.
 *
 * Format (one table per file, named after the file: "treasure.txt" is the
 * table "treasure"; '#' starts a comment):
 *
 *     roll: 1d20
 *     1-4:  2x2
 *     5:    [monster] {monster}, guarding {treasure}.
 *     ...
 *
 * The first line names the dice (NdM, 1-10 dice of 2-1000 sides); every
 * other line is a range of that roll ("3-4" or "5") and the result text.
 * Ranges must cover every possible roll exactly once.  A table of two dice
 * may also have rows for one pair of faces ("2+2", "5+6": either die may
 * show either face) that take precedence over the range of their total:
 * seed 004 reads doubles ("door to tunnel (or room if double 2s rolled)").
 * In a result:
 *
 *   - "[word]" at the very start is the row's kind, read by the program
 *     where it needs one (door kinds, what a room holds); it is not shown;
 *   - "{name}" rolls on the table "name" and puts its result there (a nested
 *     roll: "monster with treasure: roll on treasure");
 *   - "{NdM}", "{NdM+K}", "{NdM-K}" roll dice and put the number there.
 *
 * Two kinds of table more, for the stocking (key/stock.h):
 *
 *   - "roll: level" instead of dice: the rows are dungeon levels 1 to
 *     UCR_TABLE_LEVELS, read with the node's depth ("1: {monster-1}");
 *   - "draw: deck" after "roll: 1dN": the table is a deck of N cards, one a
 *     face, that a dungeon deals without replacement (ucr_table_decks):
 *     every row comes up as often as its faces say before any comes again,
 *     so that a booklet does not repeat one sentence while others wait;
 *   - "columns: name | plural | no | …" after "roll:": every row gives one
 *     plain value per column, separated by '|'.  A column "hd" makes a
 *     monster table, "gp" a treasure table, each checked for its columns
 *     and numbers.  "check: …" (wandering monsters: how often) may follow.
 *
 * Mistakes are reported as "file:line: what is wrong" (UCR_ERROR_DATA):
 * syntax, gaps and overlaps, a reference to a table that does not exist, and
 * a loop of references (a table that, through others, rolls on itself).
 */
#ifndef UCR_TABLE_H
#define UCR_TABLE_H

#include <glib.h>
#include "core/dice.h"

/* A level table ("roll: level") answers the dungeon level instead of dice:
 * its rows cover levels 1 to UCR_TABLE_LEVELS (deeper levels read the last). */
#define UCR_TABLE_LEVELS 20

typedef struct {
    int lo, hi;
    int pair[2];           /* a "A+B" row: the faces, A <= B; {0, 0} for a range */
    char *text;            /* the result, without its [kind] */
    char *tag;             /* the [kind] without brackets, or NULL */
    char **fields;         /* a table with columns: one value per column; else NULL */
    int line;
} ucr_table_row;

typedef struct {
    char *path;
    char *name;            /* the file name without ".txt" */
    int count, sides;      /* the dice: count d sides (1d20 for a level table) */
    gboolean by_level;     /* "roll: level": rows are dungeon levels, no dice */
    char **columns;        /* "columns: a | b | c", lower-cased; NULL: plain rows */
    int columns_line;      /* where "columns:" is */
    char *check;           /* "check: 1 in 6, every 2 turns" (wandering monsters), or NULL */
    gboolean deck;         /* "draw: deck": dealt without replacement where decks are given */
    GArray *rows;          /* ucr_table_row */
    guint *by_total;       /* the index: total - count → the range row's index + 1 */
    GHashTable *pairs;     /* a pair of faces (A * 1001 + B) → its row's index + 1, or NULL */
} ucr_table;

/** A number to roll, as the data tables write it: "3", "1d6", "2d4+1",
 *  "3d6*10", "1d6/10" (K, NdM, NdM+K or NdM-K, then optionally "*K" or "/K";
 *  a division rounds down). */
typedef struct {
    int count, sides;      /* count 0: the constant add */
    int add, mul, div;
} ucr_dice_expr;

/** Parses @s (the whole of it) into @e; FALSE if it is not one. */
gboolean ucr_dice_expr_parse(const char *s, ucr_dice_expr *e);
/** The largest number @e can roll. */
gint64 ucr_dice_expr_max(const ucr_dice_expr *e);
/** Rolls @e (count dice, in order, one ucr_dice_d() each). */
int ucr_dice_expr_roll(const ucr_dice_expr *e, ucr_prng *rng);

/** The most monsters one "no" of a monster table may give (its hit points
 *  are each rolled and printed), and the most gold pieces one treasure may
 *  be worth (an area's and a node's sums stay far from overflowing);
 *  doc/limits.md. */
#define UCR_MONSTER_NO_MAX 200
#define UCR_TREASURE_GP_MAX 1000000

/** Hit dice as old-school tables write them: "3" (3d8), "2+1", "1-1", "1/2"
 *  (1d4).  Sets @dice (0 for "1/2") and @add; FALSE if malformed. */
gboolean ucr_hit_dice_parse(const char *s, int *dice, int *add);

/** The index of column @name in @t, or -1. */
int ucr_table_column(const ucr_table *t, const char *name);

/** @row's value of column @name ("" when the table has no such column). */
const char *ucr_table_field(const ucr_table *t, const ucr_table_row *row, const char *name);

/** Loads and checks the syntax and coverage of the table at @path (its
 *  references are checked by ucr_tables_load_with(), which knows the other
 *  tables).  Returns NULL with @error set (UCR_ERROR_NOINPUT if missing,
 *  UCR_ERROR_DATA if malformed).  Free with ucr_table_free(). */
/** The longest line of a table file, in bytes (doc/limits.md). */
#define UCR_TABLE_MAX_LINE 1000

ucr_table *ucr_table_load(const char *path, GError **error);
/** Parses the table held in @text (@length bytes; @path names it in
 *  messages and gives the table its name); for files and the fuzzer. */
ucr_table *ucr_table_parse(const char *path, const char *text, gsize length, GError **error);
void ucr_table_free(ucr_table *table);

/** Rolls on @table; stores the dice total in @total (if non-NULL) and
 *  returns the row (owned by the table).  References are not followed: see
 *  ucr_tables_roll().  Each die is one ucr_dice_d() call, in order. */
const ucr_table_row *ucr_table_roll(const ucr_table *table, ucr_prng *rng, int *total);

/** The dice of one roll on a table, each face kept. */
typedef struct {
    int total;
    int n;
    int faces[10];
} ucr_table_dice;

/** As ucr_table_roll(), keeping every die in @dice. */
const ucr_table_row *ucr_table_roll_dice(const ucr_table *table, ucr_prng *rng, ucr_table_dice *dice);

/** Decks of cards, one per table (or per name), shuffled on their own PRNG
 *  stream (@seed, @label) and reshuffled when dealt out: what "draw: deck"
 *  tables are drawn from within one dungeon.  Free with
 *  ucr_table_decks_free() (NULL is fine). */
typedef struct ucr_table_decks ucr_table_decks;
ucr_table_decks *ucr_table_decks_new(const char *seed, const char *label);
void ucr_table_decks_free(ucr_table_decks *decks);

/** The next card, 0..@n-1, of the deck called @name of @n cards (a new
 *  deck, shuffled, the first time; a deck of another count under the same
 *  name starts afresh).  No card comes again before all have come. */
int ucr_table_decks_deal(ucr_table_decks *decks, const char *name, int n);

/** As ucr_table_decks_deal(), but the card comes from those left in this
 *  round that have not yet completed @combo (the cards already dealt to the
 *  same row's other decks): a row of two decks ("{trigger} that {effect}")
 *  says no whole phrase twice before it must. */
int ucr_table_decks_deal_new(ucr_table_decks *decks, const char *name, int n, const char *combo);

/** A row of @table: dealt from its deck in @decks when it is a "draw:
 *  deck" table and @decks is not NULL (@total: the face), else rolled on
 *  @rng as ucr_table_roll() does. */
const ucr_table_row *ucr_table_draw(const ucr_table *table, ucr_table_decks *decks, ucr_prng *rng, int *total);

/** The row of @table that a roll of @total (with @faces, which may be NULL
 *  when the table has no pair rows) reads; NULL if @total is out of range. */
const ucr_table_row *ucr_table_pick(const ucr_table *table, int total, const int *faces);

/** "2d6=4 (2+2)" or "1d10=7": the dice as rolled, for the key.  Free it. */
char *ucr_table_dice_text(const ucr_table *table, const ucr_table_dice *dice);


/** The tables the generator and the stocking use, by name. */
typedef struct {
    ucr_table *room_size;  /* rows "WxH" in 10-ft squares (borrowed from @by_name) */
    GHashTable *by_name;   /* char* name → ucr_table*, owned */
} ucr_tables;

/** A table the program reads itself, declared by the stage or node method
 *  that reads it (stocking, the superstructure, each method: their own
 *  lists), so that a user's table is checked when it loads, not when a node
 *  first rolls on it. */
typedef struct {
    const char *name;          /* the table, e.g. "rdg-direction" */
    const char *const *kinds;  /* the [kind]s its rows must carry, NULL-terminated;
                                * NULL: rows need no kind */
    /* NULL if a row's text is fine for the program, else what it must be */
    const char *(*text_check)(const char *tag, const char *text);
    gboolean sizes;            /* rows are room sizes "WxH" (ucr_table_parse_size) */
} ucr_table_need;

/** Loads the tables of @defaults, then those of @user (may be NULL) over
 *  them: a user's file replaces the default of the same name, and may add
 *  new tables for the others to refer to.  Every table is then checked:
 *  references resolve, there is no loop of references, and every table this
 *  module reads (room-size) or @needs names — a NULL-terminated array of
 *  lists, each ended by a need with a NULL name — is there with the rows it
 *  needs (kinds, texts, sizes), in the order given.  Returns NULL with
 *  @error set: UCR_ERROR_DATA for a bad table ("file:line: …"),
 *  UCR_ERROR_NOINPUT for a missing folder or a missing table.  Free with
 *  ucr_tables_free().  A whole run loads its tables with
 *  ucr_pipeline_tables_load() (pipeline/pipeline.h), which knows every
 *  stage's needs. */
ucr_tables *ucr_tables_load_with(const char *defaults, const char *user, const ucr_table_need *const *needs,
                                 GError **error);
void ucr_tables_free(ucr_tables *tables);

/** The table called @name, or NULL; owned by @tables. */
const ucr_table *ucr_tables_lookup(const ucr_tables *tables, const char *name);

/** The table @name, which the program requires (a ucr_table_need of the
 *  stage that reads it), so it is always there once the tables loaded. */
const ucr_table *ucr_tables_need(const ucr_tables *tables, const char *name);

/** One nested reference of a roll: the table it rolled on and the text it
 *  put in place of "{name}" (its own nested references included). */
typedef struct {
    const char *table;     /* static to the tables */
    char *text;            /* owned */
    int depth;             /* 1: referenced by the top row, 2: by that, … */
} ucr_roll_part;

/** What one roll on a table gave, nested rolls followed. */
typedef struct {
    char *text;            /* the result with every {reference} replaced, as written */
    const char *tag;       /* the top row's [kind] (owned by the table), or NULL */
    char *rolled;          /* the dice, e.g. "contents 1d12=7; monster 1d20=3; 2d4=5" */
    GPtrArray *visited;    /* names of the tables rolled on, top first (static to @tables) */
    GArray *parts;         /* ucr_roll_part: every nested reference, in the order met */
} ucr_roll;

/** Rolls on the table @name of @tables, following nested references.
 *  @name must exist (checked at load).  Level tables read level 1.  Free
 *  the result with ucr_roll_clear(). */
void ucr_tables_roll(const ucr_tables *tables, const char *name, ucr_prng *rng, ucr_roll *out);

/** Called for every reference to a table with columns (after level tables
 *  have chosen it): returns the text to put in place of the reference
 *  (the caller frees it) having rolled what it needs on @rng and noted its
 *  dice in @rolled; NULL to roll as usual and put the row's first column. */
typedef char *(*ucr_roll_hook)(const ucr_table *t, ucr_prng *rng, GString *rolled, void *data);

/** As ucr_tables_roll(), for dungeon level @level (1 = first below the
 *  surface), with @hook (may be NULL) given @data. */
void ucr_tables_roll_at(const ucr_tables *tables, const char *name, int level, ucr_prng *rng,
                        ucr_roll_hook hook, void *data, ucr_roll *out);

/** As ucr_tables_roll_at(), dealing every "draw: deck" table met (the
 *  top one and every nested one) from @decks (may be NULL: rolled). */
void ucr_tables_deal_at(const ucr_tables *tables, const char *name, int level, ucr_prng *rng,
                        ucr_table_decks *decks, ucr_roll_hook hook, void *data, ucr_roll *out);

/** The table that @name stands for at @level: @name itself, or, while it is
 *  a level table whose row for @level is one reference "{other}", that
 *  table.  NULL if @name does not exist. */
const ucr_table *ucr_tables_resolve(const ucr_tables *tables, const char *name, int level);
void ucr_roll_clear(ucr_roll *roll);

/** Appends the record of a roll of @t that came to @total to @rolled, as
 *  every roll's record reads: @sep ("; ", a method's own ", ") after an
 *  earlier record, then "name 2d6=7". */
void ucr_roll_record(GString *rolled, const char *sep, const ucr_table *t, int total);

/** The text the first reference to the table @name gave in @roll, or NULL
 *  (owned by @roll). */
const char *ucr_roll_part_text(const ucr_roll *roll, const char *name);

/** True if the roll passed through the table @name. */
gboolean ucr_roll_visited(const ucr_roll *roll, const char *name);

/** Capitalises, in place, the first letter of @s and of every sentence in it
 *  (after ". ", "! ", "? "), so that a table may give "a pack of rats" to the
 *  middle or the start of a sentence.  ASCII letters only. */
void ucr_text_capitalise(char *s);

/** The longest side of a room a table may give, in 10-ft squares. */
#define UCR_ROOM_SIDE_MAX 12

/** Parses a room size row "WxH" (1..UCR_ROOM_SIDE_MAX each).  Returns FALSE
 *  if malformed. */
gboolean ucr_table_parse_size(const char *text, int *w, int *h);

#endif
