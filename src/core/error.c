#include "core/error.h"

G_DEFINE_QUARK(undercroft-error-quark, ucr_error)
