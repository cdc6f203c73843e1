/* tensor.h: the evaluator's own tensors (internal to reference/).
 *
 * A ref_tensor is a strided view into a reference-counted buffer, so meta
 * ops (permute, slice, expand, broadcast, squeeze, set) are views and cost
 * nothing. Scalars are rank-0 tensors. Element values move between storage
 * and computation one row at a time through three compute domains: float
 * (f32 arithmetic), double (f64 and float64 mode) and int64 (integers and
 * bool); ref_load_row/ref_store_row do the conversions, and every store to
 * bf16/f16 rounds to nearest even.
 */
#ifndef FUSER_REFERENCE_TENSOR_H
#define FUSER_REFERENCE_TENSOR_H

#include <stdarg.h>

#include "reference/reference.h"

typedef enum { REF_F32, REF_F64, REF_I64 } ref_domain;

/* bytes of one element of a domain's row buffer */
#define REF_DOMAIN_SIZE 8

typedef struct {
  int refs;
  bool owned; /* false: the caller's memory (an input DLTensor) */
  void *data;
} ref_buffer;

typedef struct {
  fuser_dtype dtype;
  int rank;
  int64_t sizes[FUSER_MAX_RANK];
  int64_t strides[FUSER_MAX_RANK]; /* elements; 0 for broadcast/expanded dims */
  int64_t offset;                  /* elements from buf->data */
  ref_buffer *buf;
} ref_tensor;

/* The evaluation state an op handler sees: options, the current op (for
 * messages) and the error to fill. */
typedef struct {
  fuser_ref_options options;
  MlirOperation op;
  fuser_ref_error *err;
} ref_ctx;

/* Sets err (status, message, the current op's location); returns false. */
bool ref_fail(ref_ctx *c, fuser_ref_status status, const char *fmt, ...);

int64_t ref_numel(const ref_tensor *t);
/* A new zero-filled row-major tensor; false (error set) when out of memory
 * or when the element count overflows. */
bool ref_alloc(ref_ctx *c, fuser_dtype dtype, int rank, const int64_t *sizes, ref_tensor *out);
/* Another reference to the same data (views copy the struct, then retain). */
void ref_retain(ref_tensor *t);
void ref_release(ref_tensor *t);
void ref_row_major_strides(int rank, const int64_t *sizes, int64_t *strides);
bool ref_is_row_major(const ref_tensor *t);

/* The dtype a value of declared dtype `dt` is stored in: f64 for every
 * float dtype in float64 mode, `dt` otherwise. */
fuser_dtype ref_storage_dtype(const ref_ctx *c, fuser_dtype dt);
/* The domain that computes in dtype `dt` (bf16/f16/f32 -> float unless in
 * float64 mode; f64 -> double; integers and bool -> int64). */
ref_domain ref_domain_of(const ref_ctx *c, fuser_dtype dt);

/* Moves n elements, `stride` apart, starting `offset` elements into t's
 * buffer, to or from a packed row of `domain` values. */
void ref_load_row(const ref_tensor *t, int64_t offset, int64_t stride, int64_t n, ref_domain domain, void *row);
void ref_store_row(ref_tensor *t, int64_t offset, int64_t stride, int64_t n, ref_domain domain, const void *row);
/* Rounds a row of doubles to the precision of dtype `dt` (float64 mode casts). */
void ref_round_row(fuser_dtype dt, double *row, int64_t n);

/* Stores v as element i of a plain array of dtype dt (rounded once). */
void ref_put_f64(void *base, fuser_dtype dt, int64_t i, double v);

/* Scalar access to a rank-0 tensor (or element 0). */
double ref_scalar_f64(const ref_tensor *t);
int64_t ref_scalar_i64(const ref_tensor *t);
bool ref_make_scalar(ref_ctx *c, fuser_dtype dt, double f, int64_t i, ref_tensor *out);
/* The scalar `value` converted to a value of dtype `dt` (rounded to its
 * precision even in float64 mode, where it is held in double): what a fill
 * value becomes when it is stored into a tensor of dtype dt. */
bool ref_scalar_as(ref_ctx *c, const ref_tensor *value, fuser_dtype dt, ref_tensor *out);

/* Visits every row of a `rank`-dim index space (all dims but the last);
 * `idx` holds the current outer index (idx[rank-1] is 0). Returns false as
 * soon as `visit` does. */
typedef bool (*ref_row_visitor)(const int64_t *idx, void *user);
bool ref_for_each_row(int rank, const int64_t *sizes, ref_row_visitor visit, void *user);

/* Offset of index `idx` (dims [0, rank-1) only) in t. */
int64_t ref_outer_offset(const ref_tensor *t, const int64_t *idx);

/* A copy of `t` in a new buffer with `dtype`, laid out in the given
 * allocation order (perm[0] outermost; NULL = row-major). */
bool ref_copy(ref_ctx *c, const ref_tensor *t, fuser_dtype dtype, const int *perm, ref_tensor *out);

/* Copies the values of `src` into the view `dst` of the same sizes,
 * converting (and rounding) to dst's dtype. */
bool ref_copy_into(ref_ctx *c, ref_tensor *dst, const ref_tensor *src);
/* Sets every element of `dst` to the value of the rank-0 tensor `value`. */
bool ref_fill(ref_ctx *c, ref_tensor *dst, const ref_tensor *value);

/* ---- bridges to the public DLTensor world -------------------------------- */

/* Wraps a caller's DLTensor as a ref_tensor (no copy). */
bool ref_from_dl(ref_ctx *c, const DLTensor *t, ref_tensor *out);
/* A new DLTensor that owns a copy of `t` in dtype `dt` with allocation
 * order perm (NULL = row-major). */
DLTensor *ref_to_dl(ref_ctx *c, const ref_tensor *t, fuser_dtype dt, const int *perm);

#endif
