/* compile_modes.h: fuser-translate's compiling modes (--emit-ptx,
 * --emit-artifact), kept apart from the import/export modes. */
#ifndef FUSER_TOOLS_FUSER_TRANSLATE_COMPILE_MODES_H
#define FUSER_TOOLS_FUSER_TRANSLATE_COMPILE_MODES_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* Prints every PTX module of the compiled fusion to `output` ("-" stdout). */
bool translate_emit_ptx(MlirModule module, const char *output, const char *chip);

/* Writes the runtime artifact; with `expected`, records the CPU reference's
 * results (seed 0) as metadata for `fuser-run --artifact --check`. */
bool translate_emit_artifact(MlirModule module, const char *output, const char *chip, bool expected);

#endif
