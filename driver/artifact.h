/* artifact.h: the in-memory form of a compiled fusion (internal to the
 * runtime; the compiler uses artifact_builder.h, callers fuser_runtime.h).
 *
 * Everything a call needs is precomputed here at build/load time (allocation
 * orders, expression programs), so fuser_execute only evaluates small
 * expression programs and launches. The file format (artifact_io.c) is a
 * field-by-field serialisation of these structs. */
#ifndef FUSER_DRIVER_ARTIFACT_H
#define FUSER_DRIVER_ARTIFACT_H

#include "driver/artifact_builder.h"
#include "driver/expr.h"

#include <stdint.h>

/* Limits the loader enforces, so that per-call state fits on the stack. */
#define FUSER_MAX_PARAMS 256
#define FUSER_MAX_KERNELS 256
#define FUSER_MAX_TOTAL_PARAMS 2048 /* over all kernels: one int64 slot each per call */
#define FUSER_MAX_TEMPS 64
#define FUSER_MAX_VARIANTS 16
#define FUSER_MAX_CONDITIONS 64
#define FUSER_MAX_NAME 256
#define FUSER_MAX_INPUTS 4096
#define FUSER_MAX_OUTPUTS 4096
#define FUSER_MAX_MODULES 4096
#define FUSER_MAX_CHECKS 4096

typedef struct fuser_module {
  int format;     /* FUSER_MODULE_PTX / CUBIN */
  size_t size;    /* bytes of image, without the NUL the runtime keeps after it */
  uint8_t *image; /* size + 1 bytes, image[size] == 0 */
} fuser_module;

enum { FUSER_INPUT_TENSOR = 1, FUSER_INPUT_SCALAR = 2 };

typedef struct fuser_input {
  int kind;
  int dtype;
  char *name; /* may be NULL */
  int rank;
  int64_t sizes[FUSER_TENSOR_MAX_RANK];      /* static extent or -1 */
  int8_t contiguity[FUSER_TENSOR_MAX_RANK];  /* allocation order: 1, 0, -1 (None) */
  int8_t stride_order[FUSER_TENSOR_MAX_RANK];
  int8_t alloc_order[FUSER_TENSOR_MAX_RANK]; /* derived: logical dim at allocation position p */
} fuser_input;

enum { FUSER_OUTPUT_NEW = 1, FUSER_OUTPUT_ALIAS = 2 };

typedef struct fuser_output_desc {
  int kind;
  int dtype;
  int rank;
  fuser_expr sizes[FUSER_TENSOR_MAX_RANK];
  /* NEW */
  int8_t stride_order[FUSER_TENSOR_MAX_RANK];
  int8_t alloc_order[FUSER_TENSOR_MAX_RANK];
  /* ALIAS */
  int input;
  fuser_expr offset;
  fuser_expr strides[FUSER_TENSOR_MAX_RANK];
} fuser_output_desc;

typedef struct fuser_temp {
  fuser_expr bytes;
  int zero_init;
  /* Non-NULL: an index flag (one i32, zeroed first): after the kernels, a
   * value v > 0 fails the call naming line v of this text (the index op's
   * location; fuser_builder_set_index_flag). */
  char *index_sites;
} fuser_temp;

/* A check of the whole call (the plan's fuser.check): what the fusion's
 * views and kernels rely on that only the call's inputs can tell (a
 * reshape's element count, a slice inside its input, extents the fusion
 * maps onto each other). Evaluated after the inputs are checked, before any
 * variant is picked or anything is allocated, with or without kernels; a
 * zero value fails the call with the message (the op it protects). */
typedef struct fuser_check {
  fuser_expr cond;
  char *message; /* may be NULL */
} fuser_check;

enum { FUSER_PARAM_POINTER = 1 }; /* the value kinds are in artifact_builder.h */

typedef struct fuser_param {
  int kind;   /* FUSER_PARAM_POINTER or FUSER_PARAM_I32/I64/F32/F64 */
  int buffer; /* POINTER: FUSER_BUFFER_* */
  int index;  /* POINTER: buffer index; F32/F64: scalar input */
  fuser_expr expr; /* POINTER: element offset; I32/I64: value */
} fuser_param;

typedef struct fuser_variant {
  int module;
  char *entry;
  fuser_expr grid[3];
  unsigned block[3];
  unsigned shared_bytes;
  size_t nconditions;
  fuser_expr *conditions;
} fuser_variant;

/* What a kernel is: a CUDA launch of one of its variants' entries, or a
 * matrix product the runtime runs through cuBLASLt (driver/cublaslt.h;
 * parameters in the FUSER_MATMUL_P_* order of artifact_builder.h, one
 * variant with no module whose conditions are the extent checks). */
enum { FUSER_KERNEL_LAUNCH = 0, FUSER_KERNEL_MATMUL = 1 };

typedef struct fuser_kernel {
  char *name;
  int kind;       /* FUSER_KERNEL_* */
  int mm_dtype;   /* MATMUL: of every operand (BF16, F16, F32) */
  int mm_batch;   /* MATMUL: batch dims */
  int mm_bias;    /* MATMUL: has linear's [N] bias (cuBLASLt's bias epilogue) */
  size_t nparams;
  fuser_param *params;
  size_t nvariants;
  fuser_variant *variants;
} fuser_kernel;

/* A named blob the compiler attaches (source script, fusion name, input
 * recipes...): carried and returned, never interpreted by the runtime. */
typedef struct fuser_metadata {
  char *key;
  size_t size;
  uint8_t *value; /* size + 1 bytes, value[size] == 0 */
} fuser_metadata;

#define FUSER_MAX_METADATA 256

struct fuser_artifact {
  int refcount;
  size_t nmodules;
  fuser_module *modules;
  size_t ninputs;
  fuser_input *inputs;
  size_t noutputs;
  fuser_output_desc *outputs;
  size_t ntemps;
  fuser_temp *temps;
  size_t nchecks;
  fuser_check *checks;
  size_t nkernels;
  fuser_kernel *kernels;
  size_t nmetadata;
  fuser_metadata *metadata;
};

/* Frees every part (not refcounted; fuser_artifact_release calls it). */
void fuser_artifact_destroy_(fuser_artifact *a);

/* Checks the whole plan: indices in range, ranks and orders valid, every
 * expression well-formed and referring to inputs that exist with the right
 * kind, names non-empty. Fills derived fields (alloc_order). Used by the
 * builder's finish and the file loader. */
int fuser_artifact_validate_(fuser_artifact *a, fuser_error *err);

/* Allocation order from nvFuser's stride_order: logical dim d goes to
 * allocation position rank-1-stride_order[d]. Returns 0 if stride_order is
 * not a permutation of 0..rank-1. */
int fuser_alloc_order_from_stride_order(int rank, const int8_t *stride_order, int8_t *alloc_order);

#include "driver/error.h" /* fuser_set_error, fuser_clear_error */

#endif
