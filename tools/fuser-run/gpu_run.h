/* gpu_run.h: `fuser-run [--gpu] script.py|fusion.mlir`: compile in-process
 * through libfuser (libfuser/fuser.h) and run on the GPU with the script's
 * own inputs; --check compares with the CPU reference evaluator. */
#ifndef FUSER_TOOLS_FUSER_RUN_GPU_RUN_H
#define FUSER_TOOLS_FUSER_RUN_GPU_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

typedef struct {
  uint64_t seed;
  int misalign, bench;
  bool check, specialize_sizes;
  const char *save_dir, *artifact_out;
} fuser_run_gpu_options;

/* Runs the fusion of `text` (the contents of `path`; .py is an nvFuser
 * script, anything else fuser MLIR). `func` is the same fusion already
 * loaded in the caller's context: the CPU reference runs on it. Prints the
 * compile, the outputs and the checks; returns false on any error or
 * failed check. */
bool fuser_run_gpu(const fuser_run_gpu_options *o, const char *path, const char *text, size_t len, MlirOperation func);

#endif
