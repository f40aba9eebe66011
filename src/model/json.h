/* undercroft — the JSON model (format "undercroft/1", see doc/json.md). */
#ifndef UCR_JSON_H
#define UCR_JSON_H

#include <stdio.h>
#include "model/model.h"

/** The whole megadungeon as JSON text; the caller frees the result. */
char *ucr_json_write(const ucr_megadungeon *md);

/** Appends @s to @out as a JSON string literal, quotes included. */
void ucr_json_string(GString *out, const char *s);

#endif
