/* nvfuser_import.h: nvFuser FusionDefinition repro scripts -> fuser IR.
 *
 * The script (the classic Python frontend format: `def nvfuser_fusion_idN(fd)`
 * with fd.define_* / fd.ops.* / fd.add_output, the `with FusionDefinition()
 * as fd:` block, the `inputs = [...]` block and `fd.execute(inputs)`) is read
 * by a C parser, never run. docs/frontend.md describes what is accepted and
 * the IR each construct becomes. */
#ifndef FUSER_FRONTEND_NVFUSER_IMPORT_H
#define FUSER_FRONTEND_NVFUSER_IMPORT_H

#include <stddef.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Imports `len` bytes of script text (need not be NUL-terminated) into a new
 * module holding one fusion func.func named after the script's def. `path`
 * names the script in locations (`path:line:col`, wrapped in a NameLoc with
 * the Python variable name for values). On any error emits located
 * diagnostics through the context (mlirEmitError) and returns a null module;
 * the result is verified with fuser_verify. */
MlirModule fuser_import_nvfuser(MlirContext ctx, const char *text, size_t len, const char *path);

#ifdef __cplusplus
}
#endif
#endif
