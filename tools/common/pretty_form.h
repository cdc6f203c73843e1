/* pretty_form.h: a located error for fuser ops written in custom
 * ("pretty") form, which MLIR's parser rejects without a message (IRDL ops
 * have no custom syntax). */
#ifndef FUSER_TOOLS_COMMON_PRETTY_FORM_H
#define FUSER_TOOLS_COMMON_PRETTY_FORM_H

#include "mlir-c/IR.h"
#include "tools/common/tool_support.h"

/* Emits, through the context's handler, an error at the first statement of
 * `text` that starts `[%r = ]fuser.<op>` (outside comments):
 *   fuser ops print and parse in generic form: "fuser.add"(...)
 * Does nothing when there is none. */
void fuser_report_pretty_form(MlirContext ctx, fuser_diag_state *diag, const char *text);

#endif
