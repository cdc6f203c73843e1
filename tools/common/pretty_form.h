/* pretty_form.h: a located error for fuser ops written in custom
 * ("pretty") form, which MLIR's parser rejects without a message (IRDL ops
 * have no custom syntax). */
#ifndef FUSER_TOOLS_COMMON_PRETTY_FORM_H
#define FUSER_TOOLS_COMMON_PRETTY_FORM_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* Emits, through the context's handlers, an error at the first bare
 * (unquoted) name of a registered fuser op in `text` (outside strings and
 * comments, not an attribute name `fuser.x = ...`):
 *   fuser ops print and parse in generic form: "fuser.add"(...) : ...
 * Returns false, emitting nothing, when there is none. */
bool fuser_report_pretty_form(MlirContext ctx, const char *text);

#endif
