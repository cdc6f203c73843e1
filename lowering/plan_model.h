/* plan_model.h: a compiled fusion's host plan as plain C data, the bridge
 * between the compiler (MLIR) and the runtime's artifact builder.
 *
 * fuser_plan_model_build reads the plan-level fusion (views, kernel calls,
 * outputs; after fuser-segment) and, once the kernels are lowered to PTX,
 * fuser_plan_model_add_launches reads the plan's fuser.launch ops (made by
 * fuser-plan-launches, lowering/plan_launch_ops.c): every kernel parameter,
 * grid and variant condition in the runtime's expression language
 * (docs/runtime.md): `size(i, d)`, `stride(i, d)`, `addr(i)`, `scalar(i)` of
 * the fusion's inputs. plan_artifact.c turns the model into an artifact.
 * This header includes no MLIR header so both sides can use it. Every
 * expression is a program of the runtime (driver/expr.h), made by
 * lowering/plan_translate.h: from the plan's host SSA (the call's checks,
 * views that are outputs, the launches), or from the model's polynomials
 * where the plan has no host SSA yet (output sizes, temps, a pointer's
 * element offset, matmul segments). */
#ifndef FUSER_LOWERING_PLAN_MODEL_H
#define FUSER_LOWERING_PLAN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* driver/expr.h's program (pointers only: see lowering/plan_translate.h) */
struct fuser_expr;

#define FPM_MAX_RANK 8
#define FPM_MAX_PARAMS 160
#define FPM_MAX_CONDITIONS 64
/* variants of one kernel: the transpose schedule makes up to nine (tile,
 * tile_mixed, tile_dims, tile_dims_mixed, vector, rows, mixed, gather or
 * segments, scalar); at most the artifact's FUSER_MAX_VARIANTS */
#define FPM_MAX_VARIANTS 12

/* Buffers a pointer parameter points into. */
enum { FPM_INPUT = 1, FPM_OUTPUT = 2, FPM_TEMP = 3 };
/* Parameter kinds. */
enum { FPM_PARAM_PTR, FPM_PARAM_I32, FPM_PARAM_I64, FPM_PARAM_F32, FPM_PARAM_F64 };

typedef struct {
  bool tensor;
  char dtype[8]; /* MLIR spelling: bf16 f16 f32 f64 i1 i32 i64 */
  char name[32];
  int rank;
  int64_t sizes[FPM_MAX_RANK]; /* static extent or -1 */
  int64_t contiguity[FPM_MAX_RANK];
  int64_t stride_order[FPM_MAX_RANK];
} fpm_input;

typedef struct {
  int alias_input; /* >= 0: a view of that input, made on the host */
  char dtype[8];
  int rank;
  struct fuser_expr *sizes[FPM_MAX_RANK]; /* programs, like offset and strides */
  int64_t stride_order[FPM_MAX_RANK];     /* allocated outputs */
  struct fuser_expr *offset;              /* alias outputs: element offset */
  struct fuser_expr *strides[FPM_MAX_RANK]; /* alias outputs: element strides */
} fpm_output;

typedef struct {
  struct fuser_expr *bytes;
  /* Non-null: this temp is a kernel's index flag (4 bytes, one i32): zero
   * it before the kernel, read it after; a value v > 0 means line v of this
   * text ("file:line:col: fuser.gather", one line per index op of the
   * kernel, fk_index_sites) read an index out of range. */
  char *index_sites;
} fpm_temp;

typedef struct {
  int kind;   /* FPM_PARAM_* */
  int buffer; /* FPM_INPUT/OUTPUT/TEMP for pointers */
  int index;  /* buffer index; the scalar input for F32/F64 */
  struct fuser_expr *expr; /* element offset (pointers; bytes for temps) or the value */
} fpm_param;

typedef struct {
  char entry[160];
  int module;
  struct fuser_expr *grid;
  int block;
  int num_conditions;
  struct fuser_expr *conditions[FPM_MAX_CONDITIONS];
} fpm_variant;

/* A matmul segment (fuser.matmul / fuser.linear): out = a @ b (+ bias) over
 * a batch of [M, K] x [K, N] products, every extent and element stride an
 * expression of the inputs; a dim an operand lacks (a 1-D operand's M or N,
 * a broadcast batch dim) has stride 0. The runtime runs it through
 * cuBLASLt, the CPU plan through the reference's implementation. */
typedef struct {
  bool linear;       /* fuser.linear (b is the weight [N, K], read through b_k/b_n) */
  bool has_bias;     /* linear's bias, added to the f32 sum: cuBLASLt's bias epilogue */
  char dtype[8];     /* of every operand and the result: bf16 f16 f32 */
  int batch;         /* batch dims */
  fpm_param a, b, bias, out; /* FPM_PARAM_PTR: buffer, index, element offset */
  struct fuser_expr *batch_size[FPM_MAX_RANK], *a_batch[FPM_MAX_RANK], *b_batch[FPM_MAX_RANK], *out_batch[FPM_MAX_RANK];
  struct fuser_expr *m, *n, *k;
  struct fuser_expr *a_m, *a_k, *b_k, *b_n, *out_m, *out_n, *bias_n;
  int num_checks;    /* extents that must agree (K, batch, bias N): non-zero at run time */
  struct fuser_expr *checks[FPM_MAX_CONDITIONS];
} fpm_matmul;

typedef struct {
  char name[128];
  fpm_matmul *matmul; /* a matmul segment: no params, no variants */
  int num_params;
  fpm_param params[FPM_MAX_PARAMS];
  int num_variants;
  fpm_variant variants[FPM_MAX_VARIANTS];
} fpm_kernel;

/* A check of the whole call: what the plan's views rely on that only the
 * call's inputs can tell (fuser.check ops: a reshape's element count, a
 * slice inside its input, extents the fusion maps onto each other),
 * checked before any kernel runs, also when there are none. */
typedef struct {
  struct fuser_expr *cond; /* a program (driver/expr.h) that must give non-zero */
  char *message; /* the op that needs it, "file:line:col: fuser.reshape ..." */
} fpm_check;

typedef struct {
  char name[128];
  int num_inputs, num_outputs, num_temps, num_kernels, num_modules, num_checks;
  fpm_check *checks;
  fpm_input *inputs;
  fpm_output *outputs;
  fpm_temp *temps;
  fpm_kernel *kernels;
  char **modules; /* PTX text */
  size_t *module_sizes;
  void *internal; /* the compiler side's state between build and add_launches */
} fuser_plan_model;

void fuser_plan_model_free(fuser_plan_model *m);

#endif
