/* undercroft — the writers: one per output format, in one table.
 *
 * Like MuPDF's fz_document_writer: a writer is a name, the file extensions
 * that choose it, whether it writes one file per node, which of the
 * drawing options it takes, and three operations — open (what every file of
 * a run shares, such as the fonts), write (one file: the whole dungeon, or
 * one node) and close.  The command line looks a writer up by --format name
 * or by the output file's extension and hands it the dungeon; every list of
 * formats in the help and the messages is made from the table, so they
 * cannot drift apart.  A new format is one writer more in writer.c. */
#ifndef UCR_OUTPUT_WRITER_H
#define UCR_OUTPUT_WRITER_H

#include <stdio.h>
#include <glib.h>

#include "layout/impose.h"
#include "layout/page.h"
#include "layout/style.h"
#include "model/model.h"
#include "output/pdf.h"

/** How the files are drawn: everything past the dungeon itself. */
typedef struct {
    const ucr_style *style;
    const ucr_page_template *page;
    ucr_pdf_backend backend;
    gboolean player;              /* player maps: a section of the booklet, or the maps */
    gboolean show_dice;
    int dpi;                      /* PNG maps */
    int grid_pixels;              /* Universal VTT: image pixels per square */
    const ucr_imposition *impose; /* the booklet's pages on sheets, or NULL */
    const char *node_id;          /* per-node formats and a mini-zine: only this node, or NULL */
} ucr_write_options;

/** The options a writer takes (ucr_writer.takes); any other is refused. */
enum {
    UCR_WRITER_BOOKLET = 1 << 0,  /* --paper, --backend, --show-dice, --impose */
    UCR_WRITER_STYLE = 1 << 1,    /* --style */
    UCR_WRITER_PLAYER = 1 << 2,   /* --player */
    UCR_WRITER_DPI = 1 << 3,      /* --dpi */
    UCR_WRITER_GRID = 1 << 4,     /* --grid-pixels */
};

typedef struct ucr_writer ucr_writer;

/** One output format. */
struct ucr_writer {
    const char *name;              /* "pdf": --format NAME */
    const char *const *extensions; /* NULL-terminated, the usual one first; also --format names */
    const char *noun;              /* "PDF booklet": what the file is, in messages */
    const char *plural;            /* "maps": what the files are, in the -o help */
    gboolean per_node;             /* one file per node (FILE-A.svg, or {node} in FILE) */
    unsigned takes;                /* UCR_WRITER_* */
    /* What every file of one run shares; NULL with @error set.  May be NULL. */
    void *(*open)(const ucr_write_options *opt, GError **error);
    /* One file to @stream (@path names it in messages): @node's (per-node
     * writers) or the whole dungeon's (@node NULL).  FALSE with @error set;
     * what was written is then incomplete and is discarded. */
    gboolean (*write)(void *state, const ucr_megadungeon *md, const ucr_node *node, const ucr_write_options *opt,
                      const char *path, FILE *stream, GError **error);
    /* Frees what open made (NULL allowed).  May be NULL. */
    void (*close)(void *state);
    /* A second file beside each one, or NULL: its path made from the
     * first's (an owned string), and what it holds, written as @write
     * writes (a Foundry scene's image). */
    char *(*companion_path)(const char *path);
    gboolean (*companion_write)(void *state, const ucr_megadungeon *md, const ucr_node *node,
                                const ucr_write_options *opt, const char *path, FILE *stream, GError **error);
};

/** Every writer, NULL-terminated, in the order the help lists them. */
const ucr_writer *const *ucr_writers(void);

/** The writer of format @name or extension @name (case-insensitive: "pdf",
 *  "dd2vtt"), or NULL; static. */
const ucr_writer *ucr_writer_lookup(const char *name);

/** The writer that @path's extension chooses, or NULL. */
const ucr_writer *ucr_writer_for_path(const char *path);

/** What a list of writers names: their names, or each one's usual extension. */
typedef enum { UCR_WRITER_LIST_NAMES, UCR_WRITER_LIST_EXTENSIONS } ucr_writer_list_of;

/** The writers that take every option of @takes (0: all; with
 *  @per_node_only, only those writing one file per node) as text: each
 *  @prefix then its name or extension, separated by @sep, the last by
 *  @last ("pdf, json or png"; "FILE.pdf, FILE.json"; ".svg/.png").  The
 *  caller frees the result. */
char *ucr_writer_list(ucr_writer_list_of of, unsigned takes, gboolean per_node_only, const char *prefix,
                      const char *sep, const char *last);

/** The -o help's list: every writer's extensions and plural, writers of the
 *  same plural together (".pdf booklet, .json model, .svg or .png maps").
 *  The caller frees the result. */
char *ucr_writer_list_files(void);

/** The files @w writes for @path (a name whose {node} is not yet filled in)
 *  in a dungeon of @nodes nodes: @path itself, or one per node (only
 *  @node_id's when not NULL, then @path itself with {node} filled in).  A
 *  NULL-terminated array; free it with g_strfreev(). */
char **ucr_writer_targets(const ucr_writer *w, const char *path, const char *node_id, int nodes);

/** Writes @md as @w's file(s) at @path: through temporary files renamed
 *  into place only when every one is complete, so that a failure leaves
 *  none.  FALSE with @error set (UCR_ERROR_CANTCREAT, UCR_ERROR_IOERR, or
 *  the writer's). */
gboolean ucr_writer_write(const ucr_writer *w, const ucr_megadungeon *md, const char *path,
                          const ucr_write_options *opt, GError **error);

#endif
