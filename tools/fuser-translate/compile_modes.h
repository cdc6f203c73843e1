/* compile_modes.h: fuser-translate's compiling modes (--emit-ptx,
 * --emit-artifact), kept apart from the import/export modes. */
#ifndef FUSER_TOOLS_FUSER_TRANSLATE_COMPILE_MODES_H
#define FUSER_TOOLS_FUSER_TRANSLATE_COMPILE_MODES_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* How the fusion is compiled: the chip, the lowering's tuning knobs (0 =
 * the lowering's default) and whether the `?` extents are first given the
 * script's input sizes (fuser-specialize-shapes: code for those sizes only,
 * with constant extents and strides). */
typedef struct {
  const char *chip;
  int unroll, block_size;
  bool specialize_shapes;
} translate_compile_options;

/* Prints every PTX module of the compiled fusion to `output` ("-" stdout). */
bool translate_emit_ptx(MlirModule module, const char *output, const translate_compile_options *o);

/* Writes the runtime artifact; with `expected`, records the CPU reference's
 * results (seed 0) as metadata for `fuser-run --artifact --check`. */
bool translate_emit_artifact(MlirModule module, const char *output, const translate_compile_options *o,
                             bool expected);

#endif
