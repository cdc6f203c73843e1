/* compile.h: a fusion, end to end, into a runtime artifact.
 *
 *   fuser-level passes (FUSER_PLAN_PIPELINE: fuser-specialize-shapes{empty-only}, fuser-remove-empty,
 *   fuser-alias-meta-ops, fuser-input-sizes, fuser-allocation-order, fuser-split-reductions, fuser-segment; skipped
 *   when already segmented)
 *   -> the plan model (plan_model_build.h)
 *   -> fuser-vectorize, the kernel lowering and the NVVM/PTX pipeline
 *   -> the launch plan resolved into runtime expressions
 *   -> the artifact (driver/artifact_builder.h), with the script's input
 *      recipes as metadata "inputs" (driver/host_inputs.h) and any extra
 *      metadata the caller gives.
 * The module is transformed in place. */
#ifndef FUSER_LOWERING_COMPILE_H
#define FUSER_LOWERING_COMPILE_H

#include <stddef.h>

#include "mlir-c/IR.h"

struct fuser_artifact;

typedef struct {
  const char *chip; /* default "sm_90" */
  int unroll;       /* vectors per thread (0, the default: chosen per kernel by fuser-lower-kernels) */
  int block_size;   /* threads per block (default 128) */
} fuser_compile_options;

/* Extra metadata entries one compile can add (fuser-translate --expected:
 * the checksums and the values of each output). */
#define FUSER_COMPILE_MAX_METADATA 32

typedef struct {
  int count;
  const char *keys[FUSER_COMPILE_MAX_METADATA];
  const void *blobs[FUSER_COMPILE_MAX_METADATA];
  size_t sizes[FUSER_COMPILE_MAX_METADATA];
} fuser_metadata;

/* Returns 0 and the artifact, or non-zero with a message in err (and any
 * located diagnostics already emitted through the context). */
int fuser_compile_module(MlirOperation module, const fuser_compile_options *options, const fuser_metadata *extra,
                         struct fuser_artifact **out, char *err, size_t errlen);

/* The input recipes of a fusion's `fuser.inputs` attribute, as the text
 * driver/host_inputs.h reads (malloc'ed; NULL when the attribute is absent
 * or malformed, with a message in err). */
char *fuser_input_recipes(MlirOperation fusion, char *err, size_t errlen);

#endif
