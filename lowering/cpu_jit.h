/* cpu_jit.h: running kernel functions on the host through the MLIR
 * ExecutionEngine, with the same loop bodies the GPU runs (tests, and the
 * check of every lowering against the reference evaluator on machines
 * without a GPU).
 *
 *   fuser_cpu_module *m = fuser_cpu_compile(module, err, sizeof err);   // plan-level IR
 *   fuser_cpu_call(m, "f_k0__vector", n, args, bits, err, sizeof err);
 *
 * Which entry runs, and with what, is the plan's: its fuser.launch ops,
 * read into the plan model, whose conditions cpu_plan.h evaluates with the
 * runtime's evaluator as the GPU runtime does. */
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

/* A call of one variant's entry, for plan executors (cpu_plan.h):
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
