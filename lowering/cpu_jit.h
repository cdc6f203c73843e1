/* cpu_jit.h: running kernel functions on the host through the MLIR
 * ExecutionEngine, with the same loop bodies the GPU runs (tests, and the
 * check of every lowering against the reference evaluator on machines
 * without a GPU).
 *
 *   fuser_cpu_module *m = fuser_cpu_compile(module, err, sizeof err);   // plan-level IR
 *   fuser_host_tensor t[] = {{x_data, FUSER_DTYPE_BF16, 2, {4, 8}, {8, 1}}, ..., {out, ...}};
 *   fuser_cpu_run(m, "f_k0", t, 3, NULL, &variant, err, sizeof err);
 *
 * Tensors are passed in the kernel's tensor order (arguments, then
 * results); scalar arguments take a fuser_host_tensor with rank -1 and the
 * value in `scalar`. The first variant whose conditions hold runs. */
#ifndef FUSER_LOWERING_CPU_JIT_H
#define FUSER_LOWERING_CPU_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dialects/fuser.h"
#include "mlir-c/IR.h"

typedef struct {
  void *data; /* address of element [0, 0, ...] */
  fuser_dtype dtype;
  int rank; /* -1: a scalar argument */
  int64_t sizes[FUSER_MAX_RANK];
  int64_t strides[FUSER_MAX_RANK]; /* elements */
  union { int64_t i; double f; } scalar;
} fuser_host_tensor;

typedef struct fuser_cpu_module fuser_cpu_module;

/* Lowers every kernel function of `module` (consumed: it is transformed in
 * place) and JIT-compiles it. NULL with a message in err on failure. */
fuser_cpu_module *fuser_cpu_compile(MlirModule module, char *err, size_t errlen);

/* Runs kernel `kernel` (the plan's name, e.g. "f_k0"). `forced_variant`
 * ("vector"/"scalar") skips the condition check when not NULL; *variant
 * receives the variant that ran. */
bool fuser_cpu_run(fuser_cpu_module *m, const char *kernel, const fuser_host_tensor *tensors, int num_tensors,
                   const char *forced_variant, const char **variant, char *err, size_t errlen);

/* A raw call of one variant's entry, for plan executors (cpu_plan.h):
 * one argument per launch parameter, in order. Pointers are element 0 of
 * the tensor; SIZE/STRIDE parameters are index (int64) values on the CPU;
 * scalars take the kind of their dtype. */
typedef enum { FUSER_CPU_ARG_PTR, FUSER_CPU_ARG_INT, FUSER_CPU_ARG_F32, FUSER_CPU_ARG_F64 } fuser_cpu_arg_kind;
typedef struct {
  fuser_cpu_arg_kind kind;
  void *ptr;
  int64_t i; /* INT: sizes, strides, integer and bool scalars */
  double f;
} fuser_cpu_arg;

/* Calls entry `entry` (e.g. "f_k0__vector"); its integer scalar parameters
 * take their width from `int_bits[p]` (32 or 64; 0 for index parameters). */
bool fuser_cpu_call(fuser_cpu_module *m, const char *entry, int num_args, const fuser_cpu_arg *args,
                    const int *int_bits, char *err, size_t errlen);

void fuser_cpu_destroy(fuser_cpu_module *m);

#endif
