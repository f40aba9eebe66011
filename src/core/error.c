#include "core/error.h"

#include <stdio.h>

G_DEFINE_QUARK(undercroft-error-quark, ucr_error)

int ucr_error_report(GError *error)
{
    int code = error->domain == UCR_ERROR ? error->code : UCR_ERROR_SOFTWARE;
    fprintf(stderr, "undercroft: %s\n", error->message);
    g_error_free(error);
    return code;
}
