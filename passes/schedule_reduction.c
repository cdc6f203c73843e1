/* schedule_reduction.c: the reduction schedule of a kernel (see
 * schedule_reduction.h): the classification of its reductions, the
 * variants' heuristics and fuser_schedule_reduction_kernel. The schedule as
 * an attribute and the row kinds of fuser-schedule that write it on a kernel
 * as `fuser.schedule` are in schedule_reduction_attr.c.
 *
 * Before:
 *   func.func private @f_k0(%arg0: tensor<16384x4096xbf16> {fuser.strides = array<i64: 4096, 1>}) -> ...
 *       attributes {fuser.kernel} {
 *     %0 = "fuser.cast"(%arg0) ... %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} ...
 * After: the same, with
 *       attributes {fuser.kernel, fuser.schedule = {inner_persistent = {rows = 16384 : i64,
 *         row_length = 4096 : i64, variants = [{rows_per_block = 1 : i64, threads = 256 : i64,
 *         vectors = 2 : i64, width = 8 : i64}, ...]}}} */
#include "passes/schedule_reduction.h"

#include <stdio.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/pass.h"
#include "passes/schedule.h"

#define DYN INT64_MIN

const char *fuser_sched_kind_name(fuser_sched_kind k) {
  switch (k) {
  case FUSER_SCHED_INNER_PERSISTENT: return "inner_persistent";
  case FUSER_SCHED_INNER_OUTER: return "inner_outer";
  case FUSER_SCHED_INNER_REDUCE: return "inner_reduce";
  case FUSER_SCHED_OUTER: return "outer";
  case FUSER_SCHED_OUTER_PERSISTENT: return "outer_persistent";
  default: return "none";
  }
}

bool fuser_is_reduction_op(MlirOperation op) {
  fuser_op_kind k = fuser_op_kind_of(fuser_op_id_of(op));
  return k == FUSER_KIND_REDUCTION || k == FUSER_KIND_VAR_MEAN;
}

/* The stride order of a value: the `fuser.stride_order` of its producer,
 * the fusion/kernel argument's attribute, or none (row-major). */
static int stride_order_of(MlirValue v, int64_t *order, int rank) {
  if (mlirValueIsABlockArgument(v)) {
    MlirOperation f = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    MlirAttribute a = fuser_func_arg_attr(f, (int)mlirBlockArgumentGetArgNumber(v), "fuser.stride_order");
    if (!mlirAttributeIsNull(a) && mlirAttributeIsADenseI64Array(a) && mlirDenseArrayGetNumElements(a) == rank) {
      for (int d = 0; d < rank; d++) order[d] = mlirDenseI64ArrayGetElement(a, d);
      return rank;
    }
    /* a kernel argument: its strides say the order */
    MlirAttribute s = fuser_func_arg_attr(f, (int)mlirBlockArgumentGetArgNumber(v), "fuser.strides");
    if (!mlirAttributeIsNull(s) && mlirAttributeIsADenseI64Array(s) && mlirDenseArrayGetNumElements(s) == rank) {
      /* innermost = smallest non-zero static stride; dynamic strides: unknown */
      for (int d = 0; d < rank; d++) {
        int64_t sd = mlirDenseI64ArrayGetElement(s, d);
        if (sd == DYN) return -1;
        int r = 0;
        for (int e = 0; e < rank; e++) {
          int64_t se = mlirDenseI64ArrayGetElement(s, e);
          if (se < sd || (se == sd && e > d)) r++;
        }
        order[d] = r;
      }
      return rank;
    }
    return -1;
  }
  return fuser_get_i64_array(mlirOpResultGetOwner(v), "fuser.stride_order", order, rank);
}

/* The reduction's input, its rank and which of its dims `dims` reduces
 * (k of them); false when the op has no ranked input or bad dims. */
static bool reduced_dims(MlirOperation red, MlirValue *in, int *rank, bool reduced[8], int *k) {
  *in = mlirOperationGetOperand(red, 0);
  MlirType t = mlirValueGetType(*in);
  if (!mlirTypeIsARankedTensor(t)) return false;
  *rank = (int)mlirShapedTypeGetRank(t);
  int64_t dims[8];
  int nd = fuser_get_i64_array(red, "dims", dims, 8);
  if (nd <= 0 || *rank > 8) return false;
  for (int d = 0; d < 8; d++) reduced[d] = false;
  for (int q = 0; q < nd; q++) {
    int64_t d = dims[q] < 0 ? dims[q] + *rank : dims[q];
    if (d < 0 || d >= *rank) return false;
    reduced[d] = true;
  }
  *k = 0;
  for (int d = 0; d < *rank; d++) *k += reduced[d];
  return true;
}

bool fuser_reduction_is_inner(MlirOperation red, int *num_reduced) {
  MlirValue in;
  int rank, k;
  bool reduced[8];
  if (!reduced_dims(red, &in, &rank, reduced, &k)) return false;
  MlirType t = mlirValueGetType(in);
  int64_t order[8];
  /* the reduced dims are the trailing logical dims ... */
  for (int d = 0; d < rank; d++)
    if (reduced[d] != (d >= rank - k)) return false;
  /* ... and the innermost in allocation order, in the same order (a dim of
   * extent 1 may sit anywhere) */
  if (stride_order_of(in, order, rank) == rank)
    for (int d = rank - k; d < rank; d++)
      if (order[d] != rank - 1 - d && mlirShapedTypeGetDimSize(t, d) != 1) return false;
  if (num_reduced) *num_reduced = k;
  return true;
}

bool fuser_reduction_is_outer(MlirOperation red, int *num_reduced) {
  MlirValue in;
  int rank, k;
  bool reduced[8];
  if (!reduced_dims(red, &in, &rank, reduced, &k)) return false;
  MlirType t = mlirValueGetType(in);
  int64_t order[8];
  if (k == rank) return false; /* a full reduction */
  for (int d = 0; d < rank; d++)
    if (reduced[d] != (d < k)) return false;
  if (stride_order_of(in, order, rank) == rank)
    for (int d = 0; d < rank; d++)
      if (order[d] != rank - 1 - d && mlirShapedTypeGetDimSize(t, d) != 1) return false;
  if (num_reduced) *num_reduced = k;
  return true;
}

bool fuser_reduction_is_batched_outer(MlirOperation red, int *batch, int *num_reduced) {
  MlirValue in;
  int rank, k;
  bool reduced[8];
  if (!reduced_dims(red, &in, &rank, reduced, &k)) return false;
  int b = 0;
  while (b < rank && !reduced[b]) b++;
  if (b == 0 || b + k >= rank) return false;
  for (int d = b; d < b + k; d++)
    if (!reduced[d]) return false;
  MlirType t = mlirValueGetType(in);
  int64_t order[8];
  if (stride_order_of(in, order, rank) == rank)
    for (int d = 0; d < rank; d++)
      if (order[d] != rank - 1 - d && mlirShapedTypeGetDimSize(t, d) != 1) return false;
  *batch = b;
  *num_reduced = k;
  return true;
}

/* Product of dims [from, to) of v, with the static extents the dim graph
 * knows for `?` dims; DYN when one stays symbolic. */
static int64_t product(fuser_dim_graph *g, MlirValue v, int from, int to) {
  int64_t p = 1;
  for (int d = from; d < to; d++) {
    int64_t e = fuser_dim_static_extent(g, fuser_dim_node(g, v, d));
    if (e == DYN || e < 0) return DYN;
    p *= e;
  }
  return p;
}

static bool pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

bool fuser_tensor_constant_along_row(const int64_t *strides, const int64_t *shape, int rank, int from) {
  if (from < 0 || from >= rank) return false;
  for (int d = from; d < rank; d++)
    if (strides[d] != 0 && shape[d] != 1) return false;
  return true;
}

/* Whether kernel argument i (of the row space's rank) is constant along the
 * row's dims [from, rank), by its `fuser.strides`. */
static bool arg_constant_along_row(MlirOperation kernel, int i, MlirType t, int rank, int from) {
  if (mlirShapedTypeGetRank(t) != rank || rank > 8) return false;
  MlirAttribute a = fuser_func_arg_attr(kernel, i, "fuser.strides");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) || mlirDenseArrayGetNumElements(a) != rank) return false;
  int64_t strides[8], shape[8];
  for (int d = 0; d < rank; d++) {
    strides[d] = mlirDenseI64ArrayGetElement(a, d);
    shape[d] = mlirShapedTypeIsDynamicDim(t, d) ? DYN : mlirShapedTypeGetDimSize(t, d);
  }
  return fuser_tensor_constant_along_row(strides, shape, rank, from);
}

/* Elements per 16-byte vector of the widest tensor the kernel reads (and,
 * unless `inputs_only`, writes), leaving out the arguments constant along
 * the row's dims [from, rank) (read once per row). A batched outer kernel
 * writes one f32 vector per column (a first stage's partials) and reads rows
 * of bf16: the reads set the width there (`inputs_only`). */
static int vector_width_of(MlirOperation kernel, bool inputs_only, int rank, int from) {
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(kernel, mlirStringRefCreateFromCString("function_type")));
  size_t widest = 1;
  intptr_t nin = mlirFunctionTypeGetNumInputs(ft), n = nin + (inputs_only ? 0 : mlirFunctionTypeGetNumResults(ft));
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(kernel));
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = i < nin ? mlirFunctionTypeGetInput(ft, i) : mlirFunctionTypeGetResult(ft, i - nin);
    if (!mlirTypeIsARankedTensor(t)) continue;
    MlirValue x;
    int64_t groups;
    /* inner_outer's f32 partials are stored W wide from the row's vectors */
    if (i >= nin && fuser_inner_outer_partial(mlirOperationGetOperand(ret, i - nin), &x, &groups)) continue;
    if (i < nin && arg_constant_along_row(kernel, (int)i, t, rank, from)) continue;
    size_t b = fuser_dtype_size(fuser_dtype_of_type(mlirShapedTypeGetElementType(t)));
    if (b > widest) widest = b;
  }
  int w = (int)(16 / widest);
  return w > 8 ? 8 : w < 1 ? 1 : w;
}

/* Registers hold at most this many vectors of a row per thread. */
#define MAX_VECTORS 16
/* Threads per row of the looped variants. */
#define LOOPED_THREADS 512
/* Threads per block and the largest chunk of a row per block (bytes) of
 * the cluster variant (schedule_reduction.h). */
#define CLUSTER_THREADS 1024
#define CLUSTER_CHUNK_BYTES (64 * 1024)
/* Rows per block of the warp-per-row looped variant (inner reduce). */
#define WARP_ROWS_PER_BLOCK 8
/* Fewest threads per block when short rows share a block. */
#define MIN_BLOCK 128

static int64_t next_pow2(int64_t x) {
  int64_t p = 1;
  while (p < x) p *= 2;
  return p;
}

/* The persistent variant for a static row of N elements, if one fits: V
 * vectors per thread in the order of preference, T = the power of two
 * covering the row, accepted when the slots past the row's end (a ragged
 * last chunk, masked) are at most 1/8 of it. */
static bool persistent_variant_of(int64_t n, int w, int copies, fuser_row_variant *v) {
  if (n % w) return false;
  int64_t nvec = n / w;
  static const int prefer[] = {2, 4, 1, 8, 16, 3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15};
  for (size_t i = 0; i < sizeof prefer / sizeof prefer[0]; i++) {
    int vv = prefer[i];
    if (vv > nvec) continue;
    int64_t t = next_pow2((nvec + vv - 1) / vv);
    if (!pow2(t) || t > 1024) continue;
    if (8 * (vv * t - nvec) > nvec) continue;
    /* the row's f32 values must fit the registers a thread gets at this
     * block size (65536 per SM, at most 255 per thread), with ~24 to spare */
    int64_t block = t >= MIN_BLOCK ? t : MIN_BLOCK, regs = 65536 / block > 255 ? 255 : 65536 / block;
    if ((int64_t)copies * vv * w + 24 > regs) continue;
    /* short rows: prefer more vectors per thread over fewer than a warp */
    if (t < 32 && vv < 2 && nvec >= 2) continue;
    /* every field set: the caller's variant is not zeroed */
    *v = (fuser_row_variant){.width = w, .vectors = vv, .threads = (int)t, .rows_per_block = t >= MIN_BLOCK ? 1 : (int)(MIN_BLOCK / t)};
    return true;
  }
  return false;
}

/* Held f32 values per thread past which a persistent row is re-read for
 * each pass instead (reload): 2 vectors of 8 held (rmsnorm and softmax over
 * 16,384 columns, 1024 threads of 40 registers, one block per SM: 99% and
 * 89% of copy on the H200) ran well, 4 did not (log_softmax over 32,000
 * columns, 64 registers: 70.5%). */
#define MAX_HELD_VALUES 16
/* Threads and most vectors per thread of a re-read persistent row: 8 loads
 * in flight per thread, 64 registers, two blocks per SM (log_softmax over
 * 32,000 columns: 138.3 us, 90.7% of copy; 1024 threads x 4 vectors capped
 * at 32 registers 144.9 us; without the cap, one block per SM, 181.8 us). */
#define RELOAD_THREADS 512
#define RELOAD_MAX_VECTORS 8
/* The persistent cluster variant's blocks: 1024 threads x 4 vectors
 * re-read for each pass (64 KB of bf16 per block, 32 registers, two blocks
 * per SM), S = the power of two <= 8 covering the row. Measured on the
 * H200 (512 MB cases) against the looped cluster variant: softmax over
 * 65,536 columns 292.4 -> 183.5 us, 262,144 331.8 -> 213.9; rmsnorm 197.7
 * -> 150.4 and 223.5 -> 161.4; holding the f32 values instead (64
 * registers, one block per SM) 215.3 and 239.6 for softmax. */
#define CLUSTER_VECTORS 4
/* Symbolic rows: one cluster variant (its size is static) for rows of at
 * least 128 KB of the widest element: 4 blocks, chunks of >= 32 KB (the
 * static rule gives 2 blocks at 128 KB and 8 at 512 KB: 4 is between;
 * not measured on the GPU yet). */
#define SYMBOLIC_CLUSTER 4
#define SYMBOLIC_CLUSTER_ROW_BYTES (128 * 1024)

/* Whether a held persistent variant over `rows` static rows issues its
 * epilogue's loads before the block reduction (fuser_row_variant.prefetch):
 * when its grid is one partial wave (at most a block per SM) the kernel
 * time is one thread's dependent chain, and a load after the barrier adds
 * an L2 round trip to it (rmsnorm_small, 256 x 1024 bf16, 128 blocks: the
 * weight's two loads after the barrier, each after the previous chunk's
 * store; ncu on the H200 5149 cycles against torch.compile's 4534, whose
 * kernel loads the weight first). With more blocks than SMs, other blocks
 * hide the latency and the held vectors would cost occupancy (layernorm_fwd's
 * weight and bias: 72 -> 103 registers), so large kernels keep their code.
 * The registers must hold a second copy of the row (2 V W + 24). */
static bool prefetch_fits(int64_t rows, const fuser_row_variant *v) {
  if (rows == DYN || v->vectors == 0 || v->reload || v->cluster > 1) return false;
  int64_t block = (int64_t)v->threads * v->rows_per_block, blocks = (rows + v->rows_per_block - 1) / v->rows_per_block;
  int64_t regs = 65536 / block > 255 ? 255 : 65536 / block;
  return blocks <= FUSER_TARGET_SMS && 2 * (int64_t)v->vectors * v->width + 24 <= regs;
}

/* A re-read variant for a static row of N elements whose held variant
 * would keep more than MAX_HELD_VALUES per thread: RELOAD_THREADS threads
 * and the fewest vectors covering the row, under the same 1/8 rule for
 * the slots past its end. */
static bool reload_variant(int64_t n, int w, fuser_row_variant *v) {
  int64_t nvec = n / w, vv = (nvec + RELOAD_THREADS - 1) / RELOAD_THREADS;
  if (n % w || vv > RELOAD_MAX_VECTORS || 8 * (vv * RELOAD_THREADS - nvec) > nvec) return false;
  *v = (fuser_row_variant){.width = w, .vectors = (int)vv, .threads = RELOAD_THREADS, .rows_per_block = 1, .reload = true};
  return true;
}

static bool persistent_variant(int64_t n, int w, fuser_row_variant *v) { return persistent_variant_of(n, w, 1, v); }

/* inner_outer: the persistent variants of width w (when > 1) and 1; each
 * thread also holds a partial vector per partial result and chunk, so
 * (1 + partials) x V x W values must fit its registers. */
static int inner_outer_variants(int64_t row_len, int w, int partials, fuser_row_variant *out) {
  int n = 0;
  if (w > 1 && persistent_variant_of(row_len, w, 1 + partials, &out[n])) n++;
  if (persistent_variant_of(row_len, 1, 1 + partials, &out[n])) n++;
  return n;
}

bool fuser_inner_outer_partial(MlirValue v, MlirValue *x, int64_t *groups) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation sum = mlirOpResultGetOwner(v);
  int64_t dims[2], keep = 0;
  if (fuser_op_id_of(sum) != FUSER_OP_sum || fuser_get_i64_array(sum, "dims", dims, 2) != 1 || dims[0] != 1) return false;
  MlirAttribute ka = mlirOperationGetDiscardableAttributeByName(sum, mlirStringRefCreateFromCString("keepdim"));
  if (!mlirAttributeIsNull(ka) && mlirAttributeIsABool(ka)) keep = mlirBoolAttrGetValue(ka);
  MlirValue r = mlirOperationGetOperand(sum, 0);
  if (keep || !mlirValueIsAOpResult(r) || fuser_op_id_of(mlirOpResultGetOwner(r)) != FUSER_OP_reshape) return false;
  MlirOperation reshape = mlirOpResultGetOwner(r);
  MlirType rt = mlirValueGetType(r), vt = mlirValueGetType(v);
  if (mlirOperationGetNumOperands(reshape) != 1 || mlirShapedTypeGetRank(rt) != 3 || !mlirShapedTypeHasStaticShape(rt) ||
      mlirShapedTypeGetRank(vt) != 2 || fuser_value_dtype(v) != FUSER_DTYPE_F32)
    return false;
  MlirValue in = mlirOperationGetOperand(reshape, 0);
  MlirType it = mlirValueGetType(in);
  if (!mlirTypeIsARankedTensor(it) || mlirShapedTypeGetRank(it) < 2 || fuser_value_dtype(in) != FUSER_DTYPE_F32) return false;
  /* x: [rows..., H], its leading dims the rows (static or `?`) */
  int xr = (int)mlirShapedTypeGetRank(it);
  int64_t g = mlirShapedTypeGetDimSize(rt, 0), rows = g * mlirShapedTypeGetDimSize(rt, 1), h = mlirShapedTypeGetDimSize(rt, 2), known = 1;
  bool dyn = false;
  for (int d = 0; d + 1 < xr; d++)
    if (mlirShapedTypeIsDynamicDim(it, d)) dyn = true;
    else known *= mlirShapedTypeGetDimSize(it, d);
  if ((dyn ? known == 0 || rows % known != 0 : known != rows) ||
      (!mlirShapedTypeIsDynamicDim(it, xr - 1) && mlirShapedTypeGetDimSize(it, xr - 1) != h))
    return false;
  *x = in;
  *groups = g;
  return true;
}

int64_t fuser_inner_outer_groups(const fuser_reduction_schedule *inner, int partials, int64_t requested, char *why, int whylen) {
  if (inner->kind != FUSER_SCHED_INNER_PERSISTENT || inner->outer != inner->rank - 1 || inner->rows == DYN || inner->row_len == DYN) {
    snprintf(why, whylen, "the rows kernel is not an inner persistent one over static rows of one reduced dim");
    return 0;
  }
  fuser_row_variant v[2];
  int nv = inner_outer_variants(inner->row_len, inner->variants[0].width, partials, v);
  if (nv == 0 || (inner->variants[0].width > 1 && v[0].width == 1)) {
    snprintf(why, whylen, "the row and %d partial(s) per thread do not fit the registers", partials);
    return 0;
  }
  int64_t rpb = 1, block = (int64_t)v[0].threads * v[0].rows_per_block; /* the vector variant's (the fallback's is not timed) */
  for (int i = 0; i < nv; i++)
    if (v[i].rows_per_block > rpb) rpb = v[i].rows_per_block; /* powers of two: the largest is a multiple of the others */
  int64_t n = inner->rows;
  if (requested > 0) {
    if (n % requested == 0 && requested % rpb == 0) return requested;
    snprintf(why, whylen, "partial-rows=%lld does not divide the %lld rows into groups of whole blocks", (long long)requested, (long long)n);
    return 0;
  }
  /* two 256-thread blocks per SM: what the registers of these kernels allow
   * (103-128 per thread, ptxas); more groups only add partials to write and
   * read (measured, LayerNorm backward 16384 x 4096: 512 groups 118.3 us,
   * 256 groups 114.6 us, docs/lowering.md) */
  int64_t cap = (int64_t)FUSER_TARGET_SMS * (512 / block > 1 ? 512 / block : 1);
  /* groups of 32 rows or more; of 16 where that leaves an SM without a block */
  for (int min_rows = 32; min_rows >= 16; min_rows /= 2)
    for (int64_t g = cap < n / min_rows ? cap : n / min_rows; g >= 1; g--)
      if (n % g == 0 && g % rpb == 0) {
        if (g / rpb >= FUSER_TARGET_SMS) return g;
        break;
      }
  snprintf(why, whylen, "too few row groups of 16 rows or more to give each of the %d SMs a block (the two kernels fill them)", FUSER_TARGET_SMS);
  return 0;
}

/* Whether the kernel holds a var_mean: the per-point kernel has none, so
 * its outer schedule ends with its own width-1 variant instead. */
static bool has_var_mean(MlirOperation kernel) {
  for (MlirOperation op = mlirBlockGetFirstOperation(fuser_func_body(kernel)); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_op_kind_of(fuser_op_id_of(op)) == FUSER_KIND_VAR_MEAN) return true;
  return false;
}

/* Outer schedule constants (schedule_reduction.h): the wide tile, under a
 * run-time condition on the kept points, then the narrow one. */
#define OUTER_WIDE_COLUMN_VECTORS 16
#define OUTER_WIDE_ROW_GROUPS 16
#define OUTER_WIDE_ROWS_IN_FLIGHT 4
#define OUTER_COLUMN_VECTORS 4
#define OUTER_ROW_GROUPS 128
#define OUTER_ROWS_IN_FLIGHT 4
/* static shared memory a block may hold (the tree buffers) */
#define OUTER_SHARED_BYTES (48 * 1024)

/* The bytes per accumulator lane the outer tree combines through its
 * shared buffers (block x W lanes per pass): a var_mean's two passes in f64,
 * a float sum/max/min in f32 (bf16/f16/f32 results), f64 and integer ones
 * (accumulated in i64) in 8 bytes. */
int fuser_reduction_tree_bytes(MlirOperation red) {
  if (fuser_op_kind_of(fuser_op_id_of(red)) == FUSER_KIND_VAR_MEAN) return 2 * 8;
  MlirType t = mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetResult(red, 0)));
  fuser_dtype dt = fuser_dtype_of_type(t);
  return fuser_dtype_is_float(dt) && fuser_dtype_size(dt) <= 4 ? 4 : 8; /* integers accumulate in i64 */
}

static int outer_tree_bytes(MlirOperation kernel) {
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(fuser_func_body(kernel)); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_reduction_op(op)) n += fuser_reduction_tree_bytes(op);
  return n;
}

/* An outer variant of cw column vectors of width w and `groups` row groups,
 * the groups halved until the tree buffers fit the shared memory. */
static fuser_row_variant outer_variant(int w, int cw, int groups, int in_flight, int tree_bytes, int64_t min_points) {
  while (groups > 1 && (int64_t)tree_bytes * groups * cw * w > OUTER_SHARED_BYTES) groups /= 2;
  return (fuser_row_variant){.width = w, .vectors = in_flight, .threads = groups, .rows_per_block = cw, .min_points = min_points};
}

/* The outer variants (schedule_reduction.h): wide and narrow tiles when the
 * columns take vectors of w, then the var_mean's width-1 variant (the
 * per-point kernel, appended by the lowering otherwise, has no var_mean). */
static void outer_variants(MlirOperation kernel, fuser_reduction_schedule *s, int w, bool vectors_fit) {
  int passes = outer_tree_bytes(kernel);
  int64_t wide_points = (int64_t)FUSER_TARGET_SMS * 2 * OUTER_WIDE_COLUMN_VECTORS * w;
  if (w > 1 && vectors_fit) {
    /* s->row_len: the kept points (batch included), when static: no wide tile below the threshold */
    if (s->row_len == DYN || s->row_len >= wide_points)
      s->variants[s->num_variants++] = outer_variant(w, OUTER_WIDE_COLUMN_VECTORS, OUTER_WIDE_ROW_GROUPS, OUTER_WIDE_ROWS_IN_FLIGHT, passes,
                                                     wide_points);
    s->variants[s->num_variants++] = outer_variant(w, OUTER_COLUMN_VECTORS, OUTER_ROW_GROUPS, OUTER_ROWS_IN_FLIGHT, passes, 0);
  }
  if (has_var_mean(kernel))
    s->variants[s->num_variants++] = outer_variant(1, OUTER_COLUMN_VECTORS, OUTER_ROW_GROUPS, OUTER_ROWS_IN_FLIGHT, passes, 0);
  if (s->num_variants == 0) s->kind = FUSER_SCHED_NONE, snprintf(s->why, sizeof s->why, "columns not a multiple of the vector width");
}

/* Outer persistent constants (schedule_reduction.h). */
#define HELD_VALUES 64     /* f32 values of the held rows per thread (V x W) */
#define HELD_VECTORS 16    /* rows held per thread at most (the generator's chunks) */
#define HELD_SPARE_REGS 32 /* registers besides the held values */

bool fuser_outer_persistent_variant(int64_t rows, int w, int tree_bytes, fuser_row_variant *v) {
  if (rows == DYN || rows < 1 || w < 1) return false;
  int vmax = HELD_VALUES / w > HELD_VECTORS ? HELD_VECTORS : HELD_VALUES / w;
  int64_t groups = next_pow2((rows + vmax - 1) / vmax);
  int64_t cw = w > 1 ? OUTER_COLUMN_VECTORS : 2 * OUTER_COLUMN_VECTORS;
  while (cw * groups < MIN_BLOCK) cw *= 2;
  int64_t block = cw * groups, held = (rows + groups - 1) / groups;
  int64_t regs = 65536 / block > 255 ? 255 : 65536 / block;
  if (block > 1024 || held * w + HELD_SPARE_REGS > regs || (int64_t)tree_bytes * block * w > OUTER_SHARED_BYTES) return false;
  *v = (fuser_row_variant){.width = w, .vectors = (int)held, .threads = (int)groups, .rows_per_block = (int)cw};
  return true;
}

bool fuser_outer_persistent_fits(int64_t rows, int tree_bytes) {
  fuser_row_variant v;
  return fuser_outer_persistent_variant(rows, 8, tree_bytes, &v) && fuser_outer_persistent_variant(rows, 1, tree_bytes, &v);
}

/* Whether every result of the kernel has the shape of the row space (static
 * extents equal where both are static). */
static bool results_of_space_shape(MlirOperation kernel, MlirType space) {
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(kernel));
  for (intptr_t j = 0; j < mlirOperationGetNumOperands(ret); j++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(ret, j));
    if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != mlirShapedTypeGetRank(space)) return false;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
      if (!mlirShapedTypeIsDynamicDim(t, d) && !mlirShapedTypeIsDynamicDim(space, d) &&
          mlirShapedTypeGetDimSize(t, d) != mlirShapedTypeGetDimSize(space, d))
        return false;
  }
  return true;
}

/* The sizes of an outer schedule over reduced dims [batch, batch + k) of
 * the row space `space`: s->batch, s->outer, s->rows (the reduced rows) and
 * s->row_len (the kept points, batch included), static or DYN; returns the
 * trailing kept extent (dims [batch + k, rank)), static or DYN. */
static int64_t outer_extents(MlirOperation kernel, fuser_reduction_schedule *s, MlirValue space, int batch, int k) {
  fuser_dim_graph g;
  fuser_dim_graph_build(&g, kernel);
  s->batch = batch;
  s->outer = k;
  s->rows = product(&g, space, batch, batch + k);
  int64_t before = product(&g, space, 0, batch), after = product(&g, space, batch + k, s->rank);
  s->row_len = before == DYN || after == DYN ? DYN : before * after;
  fuser_dim_graph_free(&g);
  return after;
}

/* The outer persistent schedule of a kernel whose outer (batch = 0) or
 * batched outer reduction over dims [batch, batch + k) is broadcast back:
 * the held-rows variant of width w, then of width 1; NONE (with the reason)
 * when the rows are symbolic or too many for one block. */
static void outer_persistent(MlirOperation kernel, fuser_reduction_schedule *s, MlirValue space, int batch, int k) {
  int w = vector_width_of(kernel, false, s->rank, batch + k);
  int64_t after = outer_extents(kernel, s, space, batch, k);
  int tree = outer_tree_bytes(kernel);
  fuser_row_variant v;
  s->kind = FUSER_SCHED_OUTER_PERSISTENT;
  /* the vectors stay inside one batch entry: the trailing kept extent a multiple of W */
  if (w > 1 && (after == DYN || after % w == 0) && fuser_outer_persistent_variant(s->rows, w, tree, &v)) s->variants[s->num_variants++] = v;
  if (fuser_outer_persistent_variant(s->rows, 1, tree, &v)) {
    s->variants[s->num_variants++] = v;
    return;
  }
  s->kind = FUSER_SCHED_NONE;
  s->num_variants = 0;
  if (s->rows == DYN) snprintf(s->why, sizeof s->why, "an outer reduction broadcast back over a symbolic number of rows");
  else snprintf(s->why, sizeof s->why, "an outer reduction broadcast back over %lld rows: more than one block holds", (long long)s->rows);
}

/* The inner_outer schedule of a kernel whose other results are inner
 * persistent over [rows, row_len] (full), with npartials partial results
 * over `groups` row groups; NONE with the reason when it does not hold. */
static void inner_outer_schedule(MlirOperation kernel, MlirValue space_value, bool full, int npartials, int64_t groups,
                                 fuser_reduction_schedule *s) {
  fuser_dim_graph g;
  fuser_dim_graph_build(&g, kernel);
  s->rows = product(&g, space_value, 0, s->outer);
  s->row_len = product(&g, space_value, s->outer, s->rank);
  fuser_dim_graph_free(&g);
  if (!full || s->outer != s->rank - 1 || s->rows == DYN || s->row_len == DYN || s->rows % groups != 0) {
    snprintf(s->why, sizeof s->why, "inner-outer partials beside results that are not inner persistent over static rows");
    return;
  }
  int w = vector_width_of(kernel, false, s->rank, s->outer);
  s->num_variants = inner_outer_variants(s->row_len, w, npartials, s->variants);
  for (int i = 0; i < s->num_variants; i++)
    if (groups % s->variants[i].rows_per_block != 0) s->num_variants = 0;
  if (s->num_variants == 0 || s->variants[s->num_variants - 1].width != 1) {
    s->num_variants = 0;
    snprintf(s->why, sizeof s->why, "inner-outer partials: no persistent variant of whole blocks per row group");
    return;
  }
  s->kind = FUSER_SCHED_INNER_OUTER;
  s->partials = groups;
}

void fuser_schedule_reduction_kernel(MlirOperation kernel, fuser_reduction_schedule *s) {
  memset(s, 0, sizeof *s);
  s->rows = s->row_len = DYN;
  MlirBlock body = fuser_func_body(kernel);
  MlirType space = {NULL};
  MlirValue space_value = {NULL};
  int nred = 0, k = -1, batch = 0;
  bool outer = false;
  /* inner_outer: the partial results' reshape and sum are the schedule's
   * own (fuser_inner_outer_partial); the rest must be inner persistent */
  MlirOperation ret = mlirBlockGetTerminator(body), partial_ops[2 * FUSER_SCHED_MAX_PARTIALS];
  int npartials = 0;
  int64_t groups = 0;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    MlirValue x, v = mlirOperationGetOperand(ret, i);
    int64_t gi;
    if (!fuser_inner_outer_partial(v, &x, &gi)) continue;
    if (npartials == FUSER_SCHED_MAX_PARTIALS || (groups && gi != groups) || i == 0) {
      snprintf(s->why, sizeof s->why, "inner-outer partials: more than %d, of different row groups, or result 0", FUSER_SCHED_MAX_PARTIALS);
      return;
    }
    groups = gi;
    partial_ops[2 * npartials] = mlirOpResultGetOwner(v);
    partial_ops[2 * npartials + 1] = mlirOpResultGetOwner(mlirOperationGetOperand(mlirOpResultGetOwner(v), 0));
    npartials++;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    bool own = false;
    for (int i = 0; i < 2 * npartials; i++) own |= mlirOperationEqual(op, partial_ops[i]);
    if (own) continue;
    if (id == FUSER_OP_reshape || id == FUSER_OP_cat || id == FUSER_OP_pad || id == FUSER_OP_iota || id == FUSER_OP_slice) {
      snprintf(s->why, sizeof s->why, "%s in a reduction kernel", fuser_op_mnemonic(id));
      s->kind = FUSER_SCHED_NONE;
    }
    if (!fuser_is_reduction_op(op)) continue;
    nred++;
    int kr = 0, br = 0;
    MlirType in = mlirValueGetType(mlirOperationGetOperand(op, 0));
    bool is_outer = false;
    if (!fuser_reduction_is_inner(op, &kr)) {
      if (!fuser_reduction_is_outer(op, &kr) && !fuser_reduction_is_batched_outer(op, &br, &kr)) {
        snprintf(s->why, sizeof s->why, "%s reduces neither its input's innermost nor its outermost dims", fuser_op_mnemonic(id));
        return;
      }
      is_outer = true;
    }
    if (k >= 0 && br != batch) {
      snprintf(s->why, sizeof s->why, "reductions over different dims");
      return;
    }
    if (k < 0) {
      k = kr;
      batch = br;
      outer = is_outer;
      space = in;
      space_value = mlirOperationGetOperand(op, 0);
    } else {
      bool same = k == kr && outer == is_outer && mlirShapedTypeGetRank(in) == mlirShapedTypeGetRank(space);
      for (intptr_t d = 0; same && d < mlirShapedTypeGetRank(in); d++)
        same = mlirShapedTypeGetDimSize(in, d) == mlirShapedTypeGetDimSize(space, d) ||
               mlirShapedTypeIsDynamicDim(in, d) || mlirShapedTypeIsDynamicDim(space, d);
      if (!same) {
        snprintf(s->why, sizeof s->why, "reductions over different dims");
        return;
      }
    }
  }
  if (nred == 0) {
    snprintf(s->why, sizeof s->why, "no reduction");
    return;
  }
  if (s->why[0]) return;
  if (npartials > 0 && (outer || batch > 0)) {
    snprintf(s->why, sizeof s->why, "inner-outer partials beside outer reductions");
    return;
  }
  s->rank = (int)mlirShapedTypeGetRank(space);
  if ((batch > 0 || outer) && results_of_space_shape(kernel, space) && mlirOperationGetNumOperands(mlirBlockGetTerminator(body)) > 0 &&
      mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetOperand(mlirBlockGetTerminator(body), 0))) == s->rank) {
    outer_persistent(kernel, s, space_value, batch, k);
    return;
  }
  if (batch > 0) {
    /* batched outer: results of the reduced shape [kept before, kept after] */
    MlirType r0 = mlirValueGetType(mlirOperationGetOperand(mlirBlockGetTerminator(body), 0));
    bool ok = mlirShapedTypeGetRank(r0) == s->rank - k;
    for (int d = 0, rd = 0; ok && d < s->rank; d++) {
      if (d >= batch && d < batch + k) continue;
      ok = mlirShapedTypeIsDynamicDim(r0, rd) || mlirShapedTypeIsDynamicDim(space, d) ||
           mlirShapedTypeGetDimSize(r0, rd) == mlirShapedTypeGetDimSize(space, d);
      rd++;
    }
    if (!ok) {
      snprintf(s->why, sizeof s->why, "a batched outer reduction's results are not of the reduced shape");
      return;
    }
    int w = vector_width_of(kernel, true, s->rank, batch + k);
    s->kind = FUSER_SCHED_OUTER;
    int64_t after = outer_extents(kernel, s, space_value, batch, k);
    /* the vectors stay inside one batch entry: the trailing kept extent a multiple of W */
    outer_variants(kernel, s, w, after == DYN || after % w == 0);
    return;
  }
  /* `outer` counts the leading dims: the rows (inner) or the reduced rows (outer) */
  s->outer = outer ? k : s->rank - k;
  /* the results: the row space (normalization) or the reduced shape */
  MlirType r0 = mlirValueGetType(mlirOperationGetOperand(mlirBlockGetTerminator(body), 0));
  int rr = (int)mlirShapedTypeGetRank(r0);
  int kept_from = outer ? k : 0, kept_to = outer ? s->rank : s->rank - k;
  bool full = rr == s->rank, reduced = rr == kept_to - kept_from || rr == s->rank;
  for (int d = 0; d < rr; d++) {
    int64_t e = mlirShapedTypeGetDimSize(r0, d);
    bool dyn = mlirShapedTypeIsDynamicDim(r0, d);
    int sd = rr == s->rank ? d : kept_from + d;
    int64_t se = mlirShapedTypeGetDimSize(space, sd);
    bool sdyn = mlirShapedTypeIsDynamicDim(space, sd);
    bool is_reduced_dim = sd < kept_from || sd >= kept_to;
    /* a static 1 at a reduced dim whose input extent is not a static 1 is
     * a kept reduced dim (keepdim): one value per row, not the row's shape,
     * even when the input extent is symbolic (a row of 1 at run time is an
     * inner reduce too) */
    full = full && rr == s->rank && (dyn || sdyn || e == se) && !(is_reduced_dim && e == 1 && !(se == 1 && !sdyn));
    if (is_reduced_dim) reduced = reduced && !dyn && e == 1;
    else reduced = reduced && (dyn || sdyn || e == se);
  }
  if (rr == s->rank && full) reduced = false;
  if (!full && !reduced) {
    snprintf(s->why, sizeof s->why, "results neither of the reduction input's shape nor of the reduced shape");
    return;
  }
  fuser_dim_graph g;
  fuser_dim_graph_build(&g, kernel);
  if (outer) {
    /* the width follows the rows read (bf16 rows 8 wide, f32 results stored
     * 8 wide); per-row statistics (constant along the row) do not count */
    int w = vector_width_of(kernel, true, s->rank, k);
    s->kind = FUSER_SCHED_OUTER;
    s->rows = product(&g, space_value, 0, k);
    s->row_len = product(&g, space_value, k, s->rank); /* the columns */
    fuser_dim_graph_free(&g);
    /* then the per-point kernel (no conditions: any stride), see lowering */
    outer_variants(kernel, s, w, s->row_len == DYN || s->row_len % w == 0);
    return;
  }
  if (npartials > 0) {
    fuser_dim_graph_free(&g);
    inner_outer_schedule(kernel, space_value, full, npartials, groups, s);
    return;
  }
  s->kind = full ? FUSER_SCHED_INNER_PERSISTENT : FUSER_SCHED_INNER_REDUCE;
  /* inner reduce: the results are one value per row, stored alone; the
   * rows read set the width (batch-norm's bf16 rows with f64 statistics) */
  int w = vector_width_of(kernel, !full, s->rank, s->rank - k);
  s->rows = product(&g, space_value, 0, s->outer);
  s->row_len = product(&g, space_value, s->outer, s->rank);
  fuser_dim_graph_free(&g);
  fuser_row_variant v;
  if (s->row_len != DYN && persistent_variant(s->row_len, w, &v)) {
    /* too many values to hold: re-read the row for each pass (when a re-read variant fits) */
    if ((int64_t)v.vectors * w > MAX_HELD_VALUES && v.threads >= RELOAD_THREADS) reload_variant(s->row_len, w, &v);
    if (s->kind == FUSER_SCHED_INNER_PERSISTENT) v.prefetch = prefetch_fits(s->rows, &v);
    s->variants[s->num_variants++] = v;
  }
  /* a long static row: its chunks over a cluster (the bytes of the widest tensor's elements) */
  int64_t row_bytes = s->row_len != DYN ? s->row_len * (16 / w) : 0;
  if (s->num_variants == 0 && w > 1 && s->row_len != DYN && s->row_len % w == 0 && row_bytes > CLUSTER_CHUNK_BYTES) {
    int64_t S = next_pow2((row_bytes + CLUSTER_CHUNK_BYTES - 1) / CLUSTER_CHUNK_BYTES);
    int64_t held = (int64_t)CLUSTER_THREADS * CLUSTER_VECTORS * w; /* a persistent block's elements */
    if (S <= FUSER_SCHED_MAX_CLUSTER && !has_var_mean(kernel) && S * held >= s->row_len)
      /* every block holds its 64 KB chunk, re-read for each pass (no f64 phase: its partials spill at 32 registers) */
      s->variants[s->num_variants++] = (fuser_row_variant){.width = w, .vectors = CLUSTER_VECTORS, .threads = CLUSTER_THREADS,
                                                           .rows_per_block = 1, .cluster = (int)S, .reload = true};
    else
      s->variants[s->num_variants++] = (fuser_row_variant){
          .width = w, .vectors = 0, .threads = CLUSTER_THREADS, .rows_per_block = 1, .cluster = (int)(S < FUSER_SCHED_MAX_CLUSTER ? S : FUSER_SCHED_MAX_CLUSTER)};
  }
  /* symbolic rows: long ones over a cluster, under a run-time condition on the row length */
  if (w > 1 && s->row_len == DYN && !has_var_mean(kernel))
    s->variants[s->num_variants++] = (fuser_row_variant){.width = w, .vectors = 0, .threads = CLUSTER_THREADS, .rows_per_block = 1,
                                                         .cluster = SYMBOLIC_CLUSTER,
                                                         .min_row_length = SYMBOLIC_CLUSTER_ROW_BYTES / (16 / w)};
  /* symbolic rows reduced to a value each: a warp per row when there are many rows */
  int64_t warp_rows = (int64_t)FUSER_TARGET_SMS * 2 * WARP_ROWS_PER_BLOCK;
  if (w > 1 && s->row_len == DYN && s->kind == FUSER_SCHED_INNER_REDUCE && (s->rows == DYN || s->rows >= warp_rows))
    s->variants[s->num_variants++] =
        (fuser_row_variant){.width = w, .vectors = 0, .threads = 32, .rows_per_block = WARP_ROWS_PER_BLOCK, .min_points = warp_rows};
  if (w > 1 && (s->row_len == DYN || s->row_len % w == 0) &&
      (s->num_variants == 0 || s->variants[s->num_variants - 1].min_points > 0 || s->variants[s->num_variants - 1].min_row_length > 0))
    s->variants[s->num_variants++] = (fuser_row_variant){.width = w, .vectors = 0, .threads = LOOPED_THREADS, .rows_per_block = 1};
  /* the last variant has no conditions: any alignment, any stride */
  if (w > 1 || s->num_variants == 0)
    s->variants[s->num_variants++] = (fuser_row_variant){.width = 1, .vectors = 0, .threads = LOOPED_THREADS, .rows_per_block = 1};
}

bool fuser_has_row_schedule(MlirOperation kernel) {
  fuser_reduction_schedule s;
  fuser_schedule_reduction_kernel(kernel, &s);
  return s.kind != FUSER_SCHED_NONE;
}
