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
  const char *binary; /* --emit-ptx: only this binary's PTX */
  bool launch_plan;   /* --emit-ptx: the launch plan's text form instead of PTX */
} translate_compile_options;

/* Writes the compiled fusion's PTX, each module whole, as ptxas takes it:
 * one binary (or --binary=NAME) to `output` ("-" stdout); several (one per
 * index width) to `<output without .ptx>.<binary>.ptx` each, naming the
 * files on stderr (to stdout: an error). A fusion without kernels writes
 * nothing and says so. With launch_plan, the plan's text form instead. */
bool translate_emit_ptx(MlirModule module, const char *output, const translate_compile_options *o);

/* Writes the runtime artifact; with `expected`, records the CPU reference's
 * results (seed 0) as metadata for `fuser-run --artifact --check`. */
bool translate_emit_artifact(MlirModule module, const char *output, const translate_compile_options *o,
                             bool expected);

#endif
