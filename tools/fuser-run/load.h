/* load.h: reading a fusion for fuser-run: a .mlir module, or an nvFuser
 * repro script (.py) through the importer. */
#ifndef FUSER_TOOLS_FUSER_RUN_LOAD_H
#define FUSER_TOOLS_FUSER_RUN_LOAD_H

#include "mlir-c/IR.h"

/* Parses or imports `text` (the contents of `path`) and runs the fuser
 * verifier. On failure the diagnostics have been printed (through the
 * context's handler) and a null module is returned. */
MlirModule fuser_run_load(MlirContext ctx, const char *path, const char *text, size_t len);

#endif
