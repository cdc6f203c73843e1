/* mlir_print.h: the MlirStringCallback sinks for mlir*Print: into a strbuf,
 * a fixed_text or a FILE. Every printer of IR, types, attributes,
 * diagnostics and pass pipelines uses one of these three. */
#ifndef FUSER_SUPPORT_MLIR_PRINT_H
#define FUSER_SUPPORT_MLIR_PRINT_H

#include "mlir-c/Support.h"
#include "support/strbuf.h"

/* user: a strbuf *. */
void fuser_print_to_strbuf(MlirStringRef s, void *user);
/* user: a fixed_text * (truncates). */
void fuser_print_to_fixed(MlirStringRef s, void *user);
/* user: a FILE *. */
void fuser_print_to_file(MlirStringRef s, void *user);

#endif
