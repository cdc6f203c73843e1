/* reference.h: the CPU reference evaluator, the oracle every other part of
 * fuser is checked against.
 *
 * It executes a fusion (a func.func with `fuser.fusion`) on host tensors
 * given as DLPack DLTensors, with nvFuser's semantics: bf16/f16 values are
 * rounded to nearest-even on every store, f32 arithmetic is done in f32,
 * reductions accumulate in their declared dtype, pad/cat/slice follow torch.
 * In float64 mode every op computes in double and only casts round (to the
 * precision of their dtype), which gives error bounds for the normal mode.
 * docs/reference.md has the full semantics, the input generator and examples.
 *
 * Tensors may have any sizes, strides (in elements, 0 for expanded dims) and
 * storage offsets (DLTensor.byte_offset, a multiple of the element size);
 * zero-size dims are fine. Results are newly allocated, row-major or in the
 * order a result's `fuser.stride_order` attribute asks for. Nothing here
 * aborts: every failure is a status code and a message.
 */
#ifndef FUSER_REFERENCE_REFERENCE_H
#define FUSER_REFERENCE_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#include "dialects/fuser.h"
#include "driver/half.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DLPack 0.6 has no bool code; 6 is kDLBool of DLPack >= 0.8 (what PyTorch
 * exports for torch.bool). i1 tensors are one byte per element, 0 or 1. */
#define FUSER_DL_BOOL 6

typedef enum {
  FUSER_REF_OK = 0,
  FUSER_REF_ERR_UNSUPPORTED, /* an op, attribute or dtype the evaluator does not know */
  FUSER_REF_ERR_INPUT,       /* an argument does not match the function type */
  FUSER_REF_ERR_SHAPE,       /* runtime extents that do not fit together */
  FUSER_REF_ERR_FUSION,      /* not a fusion function, or a malformed one */
  FUSER_REF_ERR_INPUTS_ATTR, /* a malformed `fuser.inputs` attribute */
  FUSER_REF_ERR_MEMORY,      /* allocation failed */
  FUSER_REF_ERR_IO,          /* a file could not be written */
  FUSER_REF_ERR_INDEX,       /* an index op read an index out of range (index_select, gather, take_along_axis) */
} fuser_ref_status;

/* Where a failure happened: a status, a message, and the op's location when
 * the failure is about one op (null location otherwise). */
typedef struct {
  fuser_ref_status status;
  char message[512];
  MlirLocation loc;
} fuser_ref_error;

typedef struct {
  bool f64; /* float64 mode: every float op in double; casts still round */
  /* called (when set) after each op of the fusion's body: `done` of
   * `total` ops evaluated (fuser-run shows progress on a terminal) */
  void (*progress)(void *ctx, int done, int total);
  void *progress_ctx;
} fuser_ref_options;

/* A fusion argument or result: a tensor, or a scalar of `dtype`
 * (f64/f32 in `f`, integers and i1 in `i`). */
typedef struct {
  bool is_tensor;
  DLTensor *tensor; /* arguments: borrowed; results: owned, see fuser_ref_outputs_free */
  fuser_dtype dtype;
  double f;
  int64_t i;
} fuser_ref_value;

typedef struct {
  int count;
  fuser_ref_value *values;
} fuser_ref_outputs;

/* Runs `func` on `args` (one per function argument, in order). On success
 * fills `out` (free it with fuser_ref_outputs_free) and returns FUSER_REF_OK.
 * Inputs are checked against the function type: tensor vs scalar, dtype,
 * rank and every static extent. */
fuser_ref_status fuser_ref_run(MlirOperation func, const fuser_ref_value *args, int nargs,
                               const fuser_ref_options *options, fuser_ref_outputs *out,
                               fuser_ref_error *err);

void fuser_ref_outputs_free(fuser_ref_outputs *out);

/* Whether fuser_ref_run writes into argument tensors: a result with
 * `fuser.alias_input = K` (fd.add_output(out, alias_input)) is copied into
 * argument K's storage after the body ran, as nvFuser updates it in place.
 * Callers that keep the inputs (to save a case) make them again. */
bool fuser_ref_writes_inputs(MlirOperation func);

/* Whether the evaluator has semantics for the op (a unit test checks every
 * op of dialects/ops.def, so a new op cannot be forgotten here). */
bool fuser_ref_supports_op(fuser_op_id id);

/* One matmul segment on raw buffers, as the reference computes fuser.matmul
 * and fuser.linear (f32 accumulation in k order, bias added to the sum, one
 * rounding): out[b.., m, n] = sum_k a[b.., m, k] * b[b.., k, n] (+ bias[n]),
 * every operand addressed by element strides (0 for a dim it lacks). The CPU
 * plan runs matmul segments through it. False only when out of memory. */
typedef struct {
  fuser_dtype dtype; /* of a, b, bias and out */
  int batch;
  int64_t batch_size[FUSER_MAX_RANK], a_batch[FUSER_MAX_RANK], b_batch[FUSER_MAX_RANK], out_batch[FUSER_MAX_RANK];
  int64_t m, n, k, a_m, a_k, b_k, b_n, out_m, out_n, bias_n;
  const void *a, *b, *bias; /* bias NULL: none */
  void *out;
} fuser_ref_matmul_args;
bool fuser_ref_matmul_run(const fuser_ref_matmul_args *args);

/* ---- inputs -------------------------------------------------------------- */

/* A fusion's inputs made from its `fuser.inputs` attribute with a seeded
 * generator: same seed, same values (docs/reference.md states the
 * distributions). Each tensor is a view (sizes, strides, offset) over a
 * storage of the factory's shape, as the script's `.as_strided` says. */
typedef struct {
  int count;
  fuser_ref_value *values; /* tensors owned by this struct */
  void **storages;         /* one per value (NULL for scalars) */
} fuser_ref_inputs;

/* A fuser.inputs attribute for a fusion that has none (hand-written IR):
 * per argument, a seeded `randn` storage of its declared shape (integer
 * tensors `arange`, bool `ones`), every `?` extent `dynamic_extent`, and
 * scalars 1. Null when an argument's type has no such input. */
MlirAttribute fuser_ref_default_inputs(MlirOperation func, int64_t dynamic_extent);

fuser_ref_status fuser_ref_make_inputs(MlirOperation func, uint64_t seed, fuser_ref_inputs *inputs,
                                       fuser_ref_error *err);
void fuser_ref_inputs_free(fuser_ref_inputs *inputs);

/* Fills `count` elements of `dtype` at `data` as the factory `randn` or
 * `rand` of argument `arg_index` would (the generator behind
 * fuser_ref_make_inputs, for callers that build their own storages). */
fuser_ref_status fuser_ref_fill_random(const char *factory, fuser_dtype dtype, uint64_t seed, int arg_index,
                                       void *data, int64_t count, fuser_ref_error *err);

/* ---- DLTensor helpers ---------------------------------------------------- */

/* The fuser dtype of a DLPack dtype (FUSER_DTYPE_INVALID if none) and back. */
fuser_dtype fuser_ref_dtype_from_dl(DLDataType t);
DLDataType fuser_ref_dtype_to_dl(fuser_dtype dt);

/* A new host tensor of `dtype` with `sizes`, row-major, zero-filled; NULL
 * when out of memory. Free with fuser_ref_tensor_free. */
DLTensor *fuser_ref_tensor_alloc(fuser_dtype dtype, int rank, const int64_t *sizes);
/* A view (no copy) of `data` with the given layout; the data stays the
 * caller's. Free the view with fuser_ref_tensor_free. */
DLTensor *fuser_ref_tensor_view(void *data, fuser_dtype dtype, int rank, const int64_t *sizes,
                                const int64_t *strides, int64_t offset_elements);
void fuser_ref_tensor_free(DLTensor *t);

/* Element `index` (row-major over the logical sizes) as a double (integers
 * and bool converted). */
double fuser_ref_tensor_get(const DLTensor *t, int64_t index);
/* The same element of an integer or bool tensor, exactly (an i64 beyond
 * 2^53 does not survive a double). */
int64_t fuser_ref_tensor_get_i64(const DLTensor *t, int64_t index);
int64_t fuser_ref_tensor_numel(const DLTensor *t);

/* ---- checksums and files ------------------------------------------------- */

/* The sum of all elements in double, and the FNV-1a 64 hash of the element
 * bytes in row-major logical order (independent of strides). */
double fuser_ref_checksum_sum(const DLTensor *t);
uint64_t fuser_ref_checksum_fnv1a(const DLTensor *t);

/* Writes `t` as a NumPy .npy file (format 1.0, C order). bf16 has no NumPy
 * dtype: it is written as float32 (exactly). */
fuser_ref_status fuser_ref_save_npy(const DLTensor *t, const char *path, fuser_ref_error *err);

/* Rounding to bf16/f16 (exact, NaN-preserving, round to nearest even) is
 * driver/half.h's, shared with the runtime-side input generator. */

#ifdef __cplusplus
}
#endif
#endif
