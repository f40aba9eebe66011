/* undercroft — map styles: how a map is inked, as data.
 *
 * A style is a GLib key file (templates/styles/NAME.ini) that users copy
 * and edit.  Every key is optional: what a file leaves out keeps the value
 * of the built-in default (the `ink` style).  Unknown groups or keys and
 * bad values are refused with "FILE: key 'group.key': what is wrong"
 * (UCR_ERROR_DATA), before anything is written.  Lengths are in map squares
 * (1 square = 10 ft), so a style looks the same at every print size. */
#ifndef UCR_STYLE_H
#define UCR_STYLE_H

#include <glib.h>
#include "render/device.h"

typedef enum { UCR_ROCK_SOLID, UCR_ROCK_HATCH, UCR_ROCK_NONE } ucr_rock_fill;
typedef enum { UCR_GRID_FLOOR, UCR_GRID_ALL, UCR_GRID_NONE } ucr_grid_where;

typedef struct {
    char *name;            /* "ink"; the file's base name if it has no [style] name */
    char *description;
    ucr_color paper;       /* the sheet around the map */
    ucr_color floor;
    ucr_color grid;
    double grid_width;
    ucr_grid_where grid_where;
    ucr_rock_fill rock_fill;
    ucr_color rock;        /* solid rock */
    ucr_color hatch;
    double hatch_width, hatch_band, hatch_density, hatch_length;
    ucr_color wall;
    double wall_width;
    int wall_strokes;      /* 1 or 2: the doubled ink line */
    double wobble, bowing, overshoot;
    ucr_color ink;         /* symbols, frame, scale bar, compass */
    double symbol_width;
    char *hand_font, *text_font;
    ucr_color text;
    double number_size, label_size, title_size;
} ucr_style;

/** Loads the style @name_or_path: a name ("ink") is looked up as
 *  DATADIR/templates/styles/NAME.ini, anything with a '/' or ending in
 *  ".ini" is a file path.  Returns NULL with @error set: UCR_ERROR_USAGE for
 *  an unknown name (the message lists the shipped styles), UCR_ERROR_NOINPUT
 *  for a missing file, UCR_ERROR_DATA for a malformed one.  Free with
 *  ucr_style_free(). */
ucr_style *ucr_style_load(const char *name_or_path, const char *datadir, GError **error);

/** Loads and validates the style file at @path (see ucr_style_load). */
ucr_style *ucr_style_load_file(const char *path, GError **error);

/** Parses the style held in @text (@length bytes; @path names it in
 *  messages and gives the style its name); for files and the fuzzer. */
ucr_style *ucr_style_parse(const char *path, const char *text, gsize length, GError **error);

/** The built-in default style (`ink`); free with ucr_style_free(). */
ucr_style *ucr_style_new_default(void);

void ucr_style_free(ucr_style *style);

/** The name of the default style. */
#define UCR_STYLE_DEFAULT "ink"

#endif
