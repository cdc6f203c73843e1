/* fuser-vectorize: flattening and vector width of every kernel function.
 *
 * On each `fuser.kernel` function (plan contract): the access analysis
 * (passes/kernel_access.c) maps every global read and write to an index map
 * over the iteration space (the result shape). Then:
 *   1. flattening: adjacent iteration dims d, d+1 merge when every access
 *      has stride(d) == stride(d+1) * extent(d+1) (static facts only); the
 *      innermost group is the run vectors move along;
 *   2. width: the minimum over tensors accessed contiguously along the run of
 *      16 bytes / element size; the largest power of two dividing the run's
 *      extent, unless the run is the whole iteration space (then a scalar
 *      tail covers the rest: 1000 x 1003 bf16 keeps 8); dividing every
 *      stride outside the run and every constant offset (slice starts, cat
 *      and pad shifts) of contiguous accesses; dividing every cat/pad
 *      boundary inside the run, except a pad's along the innermost dim,
 *      where W need only divide the row (the vectors that straddle it go
 *      lane by lane: fk_lane_split_boundary). Broadcast tensors (stride 0
 *      along the run) are read once and splat; other strides are gathered
 *      lane by lane.
 *   3. conditions: what is symbolic becomes a run-time condition of the
 *      vectorized variant (pointer alignment, a run-time stride or a `?`
 *      extent being a multiple, 32-bit index math fitting); the lowering then
 *      also emits a scalar variant without conditions.
 *   4. gather: where some inputs' reads cannot follow the whole space as one
 *      run (a transposed or broadcast input), the same flat plan over the
 *      other accesses, those inputs loaded lane by lane (fuser.gather_width,
 *      fuser.gather_conditions, fuser.gather_tensors); and segments: the
 *      same, also gathering the inputs whose rows merge only under a
 *      run-time condition (fuser.segments_*: x[:, :8191] of rows of 8192,
 *      whose vectors that stay in a row load contiguously).
 *
 *   func.func private @f_k0(%a: tensor<64x12xbf16> {fuser.strides = array<i64: 16, 1>})
 *       -> (tensor<64x12xbf16> {fuser.strides = array<i64: 12, 1>}) attributes {fuser.kernel}
 * becomes, with the same body,
 *   ... attributes {fuser.kernel, fuser.vector_width = 4 : i64,
 *                   fuser.flat_shape = array<i64: 64, 12>, fuser.flat_groups = [array<i64: 0>, array<i64: 1>],
 *                   fuser.access_widths = array<i64: 4, 4>, fuser.access_kinds = ["vector", "vector"],
 *                   fuser.index_bits = 32 : i64,
 *                   fuser.vector_conditions = [{align = {arg = 0 : i64, bytes = 8 : i64}},
 *                                              {align = {bytes = 8 : i64, result = 0 : i64}}]}
 *
 * Options: max-bytes (default 16): the widest access in bytes; report
 * (default false): print fuser_vectorize_report to stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/conditions.h"
#include "passes/kernel_info.h"
#include "passes/pass.h"
#include "passes/vectorize.h"
#include "passes/schedule_reduction.h"

#define INDEX32_LIMIT ((int64_t)1 << 31)

/* Largest power of two dividing v (v == 0 divides everything). */
static int64_t pow2_dividing(int64_t v) {
  if (v == 0) return INT64_MAX;
  if (v < 0) v = -v;
  return v & -v;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

typedef struct {
  int width;
  int num_groups;
  int group_start[FK_R + 1]; /* group g covers dims [group_start[g], group_start[g+1]) */
  int run_start;
  int index_bits;
  int access_width[FK_MAX_TENSORS];
  const char *access_kind[FK_MAX_TENSORS];
  fk_condition_list conditions;
  fk_condition_list merge_conditions; /* dims merged under run-time conditions */
} vec_plan;

static void add_condition(vec_plan *p, fk_cond_kind kind, int t, int dim, int64_t value) {
  fk_conditions_add(&p->conditions, (fk_condition){kind, t, dim, -1, value});
}

/* Whether boundary bd may be split: vectors that straddle it go lane by
 * lane. A pad's boundaries along the innermost iteration dim, static or
 * symbolic (its source is read at a static shift, which the offset rule
 * covers), and a cat's static ones there (its right operand's static shift
 * is an offset too); not a symbolic cat position, whose right operand is
 * read shifted by it (its `extent` condition keeps that read aligned), nor
 * an in-kernel reshape's extents (the lanes must not cross them). */
static bool splittable(const fk_kernel *k, const fk_boundary *bd) {
  if (bd->dim != k->rank - 1) return false;
  return bd->kind == FK_BOUNDARY_PAD || (bd->kind == FK_BOUNDARY_CAT && bd->value != FK_DYN);
}

/* vectorize.h */
bool fk_lane_split_boundary(const fk_kernel *k, const fk_boundary *bd, int64_t W) {
  return W > 1 && splittable(k, bd) && (bd->value == FK_DYN || bd->value % W != 0);
}

/* The width a splittable boundary allows: any that keeps every vector
 * inside one row (the power of two dividing the row's static extent; a
 * `?` row gets an `extent` condition of W below, or is the whole space).
 * pad(x[:, 1:], [0, 1]) over rows of 8192 keeps W = 8 instead of 1: one
 * vector in 1024 straddles column 8191. */
static int64_t split_width(const fk_kernel *k, const fk_boundary *bd) {
  if (!splittable(k, bd)) return 1;
  int64_t e = k->extent[k->rank - 1];
  return e == FK_DYN ? INT64_MAX : pow2_dividing(e);
}

/* Whether every access walks dims d and d+1 as one linear run. */
static bool mergeable(const fk_kernel *k, int d) {
  if (k->extent[d + 1] == FK_DYN) return false;
  for (int a = 0; a < k->num_accesses; a++) {
    int64_t s0 = fk_access_stride(k, &k->acc[a], d), s1 = fk_access_stride(k, &k->acc[a], d + 1);
    if (s0 == FK_DYN || s1 == FK_DYN || s0 != s1 * k->extent[d + 1]) return false;
  }
  return true;
}

/* The tensor dim an access walks along iteration dim d: -1 when it does
 * not move (a broadcast), -2 when the map is not a single unit column. */
static int walked_dim(const fk_access *a, int rank, int d) {
  int j = -1;
  for (int q = 0; q < rank; q++) {
    if (!a->coef[q][d]) continue;
    if (a->coef[q][d] != 1 || j >= 0) return -2;
    j = q;
  }
  return j;
}

/* Whether access acc walks dims d, d+1 as one run at run time (the rule
 * of fk_mergeable_at_run_time for one access; its condition, if any, is
 * appended to conds): stride(j) == stride(j2) * E, E the iteration
 * extent of d + 1, which an in-kernel slice makes smaller than the
 * tensor's size along j2 (permute(x, [2, 1, 0])[:16, :7, :9] of x of
 * 14 x 15 x 16 stored dim 0 fastest walks 9 of a row's 14: its strides
 * nest, the access does not). A static E goes into the condition
 * (`size`); a `?` E is the tensor's own size (no op the access analysis
 * maps with a zero offset shrinks a `?` extent: slice ends are static). */
static bool access_mergeable_at_run_time(const fk_kernel *k, const fk_access *acc, int d, fk_condition_list *conds) {
  const fk_tensor *t = &k->t[acc->tensor];
  int j = walked_dim(acc, t->rank, d), j2 = walked_dim(acc, t->rank, d + 1);
  if (j == -1 && j2 == -1) return true;
  if (j < 0 || j2 < 0 || acc->off[j] || acc->off[j2]) return false;
  int64_t e = k->extent[d + 1] != FK_DYN ? k->extent[d + 1] : t->shape[j2];
  if (t->strides[j] != FK_DYN && t->strides[j2] != FK_DYN && e != FK_DYN) return t->strides[j] == t->strides[j2] * e;
  fk_conditions_add(conds, (fk_condition){FK_COND_MERGE, acc->tensor, j, j2, e == FK_DYN ? 0 : e});
  return true;
}

/* vectorize.h: whether dims d, d+1 can merge at run time. */
bool fk_mergeable_at_run_time(const fk_kernel *k, int d, fk_condition_list *conds) {
  for (int a = 0; a < k->num_accesses; a++)
    if (!access_mergeable_at_run_time(k, &k->acc[a], d, conds)) return false;
  return true;
}

/* Whether tensor dim j of a lanes_only access (through a reshape that
 * keeps the lanes) is one whose index follows no map: it does not move with
 * the lanes, and its extent is not 1 (index 0 always). Every vector's first
 * lane is aligned only if W divides the stride of each such dim. */
static bool outer_dim(const fk_kernel *k, const fk_access *acc, int j) {
  return acc->coef[j][k->rank - 1] == 0 && k->t[acc->tensor].shape[j] != 1;
}

/* Whether 32-bit index math is provably enough. */
static bool fits_index32(const fk_kernel *k) {
  int64_t limit = INDEX32_LIMIT - (1 << 16);
  int64_t points = 1;
  for (int d = 0; d < k->rank; d++) {
    if (k->extent[d] == FK_DYN) return false;
    points *= k->extent[d];
    if (points >= limit) return false;
  }
  for (int t = 0; t < k->num_tensors; t++) {
    const fk_tensor *ten = &k->t[t];
    if (!ten->is_tensor) continue;
    int64_t span = 0;
    for (int j = 0; j < ten->rank; j++) {
      if (ten->shape[j] == FK_DYN || ten->strides[j] == FK_DYN) return false;
      if (ten->shape[j] > 0) span += (ten->shape[j] - 1) * (ten->strides[j] < 0 ? -ten->strides[j] : ten->strides[j]);
      if (span >= limit) return false;
    }
  }
  return true;
}

/* The groups of adjacent dims that merge from static facts alone; the run
 * is the innermost group. Returns the number of groups. */
static int static_groups(const fk_kernel *k, vec_plan *p) {
  int R = k->rank, starts[FK_R + 1], n = 0;
  starts[n++] = 0;
  for (int d = 0; d + 1 < R; d++)
    if (!mergeable(k, d)) starts[n++] = d + 1;
  memcpy(p->group_start, starts, sizeof(int) * (size_t)n);
  p->group_start[n] = R;
  p->num_groups = n;
  p->run_start = starts[n - 1];
  return n;
}

static void decide(const fk_kernel *k, int max_bytes, bool speculate, vec_plan *p) {
  int R = k->rank;
  for (int d = 0; d <= R; d++) p->group_start[d] = d;
  p->num_groups = R;
  p->run_start = R > 0 ? R - 1 : 0;
  bool affine = !k->has_reduction && !k->has_reshape && R > 0;
  for (int a = 0; a < k->num_accesses; a++) affine &= !k->acc[a].opaque;
  /* 1. flattening (not through a reshape that keeps the lanes: its outer
   * indices follow no map, so no two dims are known to nest) */
  if (affine && !k->reshape_lanes) {
    int n = static_groups(k, p);
    /* What only run-time strides keep apart: when every boundary can merge
     * under conditions, the whole space is one run (W over any size, with a
     * scalar tail), checked at launch; else keep the static groups. */
    if (speculate && n > 1 && k->num_boundaries == 0) {
      fk_condition_list conds = {0};
      bool all = true;
      for (int g = 1; all && g < n; g++) all = fk_mergeable_at_run_time(k, p->group_start[g] - 1, &conds);
      if (all) {
        p->group_start[0] = 0;
        p->group_start[1] = R;
        p->num_groups = 1;
        p->run_start = 0;
        p->merge_conditions = conds;
      } else fk_conditions_free(&conds);
    }
  }
  int ks = p->run_start, inner = R - 1;
  /* 2. width from static facts */
  int64_t W = 1;
  bool any_vector = false;
  for (int a = 0; affine && a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    if (fk_access_stride(k, acc, inner) != 1) continue;
    int64_t w = max_bytes / (int64_t)fuser_dtype_size(k->t[acc->tensor].dtype);
    W = any_vector ? min64(W, w) : w;
    any_vector = true;
  }
  if (!any_vector) W = 1;
  /* inner_prod[d] = product of the extents of dims d+1..R-1 (static inside the run by the merge rule) */
  int64_t inner_prod[FK_R + 1];
  for (int d = R - 1; d >= 0; d--)
    inner_prod[d] = d == R - 1 ? 1 : inner_prod[d + 1] * (k->extent[d + 1] == FK_DYN ? 1 : k->extent[d + 1]);
  if (W > 1 && ks > 0) { /* vectors must not cross the run's end: its extent decides (a `?` one: a condition) */
    bool dyn = false;
    int64_t P = 1;
    for (int d = ks; d < R; d++) {
      if (k->extent[d] == FK_DYN) dyn = true;
      else P *= k->extent[d];
    }
    if (!dyn) W = min64(W, pow2_dividing(P));
  }
  for (int a = 0; W > 1 && a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    if (fk_access_stride(k, acc, inner) != 1) continue;
    for (int d = 0; d < ks && !acc->lanes_only; d++) {
      int64_t s = fk_access_stride(k, acc, d);
      if (s != FK_DYN) W = min64(W, pow2_dividing(s));
    }
    for (int j = 0; j < k->t[acc->tensor].rank && acc->lanes_only; j++) {
      int64_t s = k->t[acc->tensor].strides[j];
      if (outer_dim(k, acc, j) && s != FK_DYN) W = min64(W, pow2_dividing(s));
    }
    int64_t c = fk_access_offset(k, acc);
    if (c != FK_DYN) W = min64(W, pow2_dividing(c));
    else W = 1; /* a slice offset times a run-time stride: not worth a condition */
  }
  for (int b = 0; W > 1 && b < k->num_boundaries; b++) {
    const fk_boundary *bd = &k->bnd[b];
    if (bd->dim < ks) continue;
    int64_t keep = bd->value != FK_DYN ? pow2_dividing(bd->value * inner_prod[bd->dim])
                   : bd->src_tensor < 0 ? 1 : pow2_dividing(bd->shift * inner_prod[bd->dim]);
    W = min64(W, max64(keep, split_width(k, bd)));
  }
  if (W < 1) W = 1;
  p->width = (int)W;
  bool fits = fits_index32(k);
  p->index_bits = fits ? 32 : 64;
  /* per-tensor access widths */
  for (int t = 0; t < k->num_tensors; t++) {
    p->access_width[t] = k->t[t].is_tensor ? (int)W : 0;
    p->access_kind[t] = k->t[t].is_tensor ? (W > 1 ? "vector" : "scalar") : "none";
  }
  for (int a = 0; W > 1 && a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    int64_t s = fk_access_stride(k, acc, inner);
    if (s == 1) continue;
    p->access_width[acc->tensor] = 1;
    if (s == 0 && strcmp(p->access_kind[acc->tensor], "gather") != 0) p->access_kind[acc->tensor] = "broadcast";
    else p->access_kind[acc->tensor] = "gather";
  }
  /* 3. run-time conditions of the vectorized variant */
  if (W == 1 && p->merge_conditions.n) static_groups(k, p); /* nothing to gain: keep the static groups */
  if (W == 1) return;
  for (int a = 0; a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    if (fk_access_stride(k, acc, inner) != 1) continue;
    const fk_tensor *ten = &k->t[acc->tensor];
    add_condition(p, FK_COND_ALIGN, acc->tensor, -1, W * (int64_t)fuser_dtype_size(ten->dtype));
    for (int d = 0; d < ks && !acc->lanes_only; d++)
      for (int j = 0; j < ten->rank; j++)
        if (acc->coef[j][d] && ten->strides[j] == FK_DYN)
          add_condition(p, FK_COND_STRIDE, acc->tensor, j, W);
    for (int j = 0; j < ten->rank && acc->lanes_only; j++)
      if (outer_dim(k, acc, j) && ten->strides[j] == FK_DYN) add_condition(p, FK_COND_STRIDE, acc->tensor, j, W);
  }
  if (ks > 0) {
    for (int d = ks; d < R; d++)
      if (k->extent[d] == FK_DYN) {
        int64_t m = W / min64(W, pow2_dividing(inner_prod[d]));
        if (m > 1) add_condition(p, FK_COND_EXTENT, k->num_args, k->iter_dim[d], m);
      }
  }
  for (int b = 0; b < k->num_boundaries; b++) {
    const fk_boundary *bd = &k->bnd[b];
    if (bd->dim < ks || bd->value != FK_DYN || fk_lane_split_boundary(k, bd, W)) continue;
    int64_t m = W / min64(W, pow2_dividing(inner_prod[bd->dim]));
    if (m > 1)
      add_condition(p, FK_COND_EXTENT, bd->src_tensor, bd->src_dim, m);
  }
  fk_conditions_append(&p->conditions, &p->merge_conditions);
  if (!fits) {
    add_condition(p, FK_COND_INDEX32, -1, -1, 0);
    p->index_bits = 64; /* the scalar variant */
  }
}

static void set_attr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name), a);
}

static MlirAttribute i64_attr(MlirContext ctx, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v); }

static void write_attrs(MlirOperation func, const fk_kernel *k, const vec_plan *p) {
  MlirContext ctx = mlirOperationGetContext(func);
  set_attr(func, "fuser.vector_width", i64_attr(ctx, p->width));
  set_attr(func, "fuser.index_bits", i64_attr(ctx, p->index_bits));
  int64_t shape[FK_R];
  MlirAttribute groups[FK_R];
  for (int g = 0; g < p->num_groups; g++) {
    int64_t e = 1, dims[FK_R];
    int nd = 0;
    for (int d = p->group_start[g]; d < p->group_start[g + 1]; d++) {
      e = (e == FK_DYN || k->extent[d] == FK_DYN) ? FK_DYN : e * k->extent[d];
      dims[nd++] = d;
    }
    shape[g] = e;
    groups[g] = mlirDenseI64ArrayGet(ctx, nd, dims);
  }
  set_attr(func, "fuser.flat_shape", mlirDenseI64ArrayGet(ctx, p->num_groups, shape));
  set_attr(func, "fuser.flat_groups", mlirArrayAttrGet(ctx, p->num_groups, groups));
  int64_t widths[FK_MAX_TENSORS];
  MlirAttribute kinds[FK_MAX_TENSORS];
  for (int t = 0; t < k->num_tensors; t++) {
    widths[t] = p->access_width[t];
    kinds[t] = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(p->access_kind[t]));
  }
  set_attr(func, "fuser.access_widths", mlirDenseI64ArrayGet(ctx, k->num_tensors, widths));
  set_attr(func, "fuser.access_kinds", mlirArrayAttrGet(ctx, k->num_tensors, kinds));
  set_attr(func, "fuser.vector_conditions", fk_conditions_attr(ctx, &p->conditions, k->num_args));
}

/* Whether access acc can follow the whole space flattened into one run:
 * contiguous along the innermost dim, and every boundary between dims
 * mergeable (perhaps under run-time conditions, which then join the plan's;
 * with `strict`, an input's only from static facts). */
static bool follows_flat_run(const fk_kernel *k, const fk_access *acc, bool strict) {
  fk_condition_list conds = {0};
  bool ok = fk_access_stride(k, acc, k->rank - 1) == 1;
  for (int d = 0; ok && d + 1 < k->rank; d++) ok = access_mergeable_at_run_time(k, acc, d, &conds);
  if (strict && acc->tensor < k->num_args && conds.n > 0) ok = false;
  fk_conditions_free(&conds);
  return ok;
}

/* The gather plan: the whole space as one flat run for every access that
 * can follow it, each input whose access cannot (a transposed or broadcast
 * read) loaded lane by lane at its own delinearized coordinates
 * (kernel_gen.c). Decided as the merged plan over the accesses that follow
 * the run only, so W and the conditions (alignment, merges, index32) come
 * from them. `strict` (the segments plan) gathers every input read once,
 * so the plan has no condition on them (x[:, :8191] of rows of 8192, whose
 * rows never merge; an input one element off its alignment): an input
 * contiguous along its rows then loads each vector that stays in one row
 * as one contiguous (shifted) load; an input read more than once follows
 * the run only where its static facts let it. Returns the number of gathered
 * tensors (listed in gathered), 0 when there is no such plan: not affine,
 * rank < 2, an access that cannot follow the run belongs to a result, to a
 * tensor read more than once or through a reshape, no access follows it, or
 * W would be 1. */
static int decide_gather(const fk_kernel *k, int max_bytes, bool strict, vec_plan *p, int64_t *gathered) {
  if (k->rank < 2 || k->has_reduction || k->has_reshape || k->reshape_lanes || k->num_boundaries > 0) return 0;
  int count[FK_MAX_TENSORS] = {0}, n = 0;
  bool gather[FK_MAX_TENSORS] = {false};
  for (int a = 0; a < k->num_accesses; a++) {
    if (k->acc[a].opaque) return 0;
    count[k->acc[a].tensor]++;
  }
  fk_access *kept = malloc((size_t)(k->num_accesses + 1) * sizeof *kept);
  int nkept = 0;
  for (int a = 0; a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    bool strict_gather = strict && acc->tensor < k->num_args && count[acc->tensor] == 1 && !acc->lanes_only;
    if (!strict_gather && follows_flat_run(k, acc, strict)) kept[nkept++] = *acc;
    else if (acc->tensor >= k->num_args || count[acc->tensor] != 1 || acc->lanes_only) n = -1;
    else gather[acc->tensor] = true;
  }
  for (int t = 0; n >= 0 && t < k->num_tensors; t++)
    if (gather[t]) gathered[n++] = t;
  if (n > 0 && nkept > 0) {
    fk_kernel sub = *k; /* the same tensors and space, the kept accesses only */
    sub.acc = kept, sub.num_accesses = nkept;
    decide(&sub, max_bytes, true, p);
    if (p->num_groups != 1 || p->width < 2) n = 0;
  } else n = 0;
  free(kept);
  return n;
}

/* A gather plan's attributes (docs/passes.md): fuser.<name>_width,
 * fuser.<name>_conditions, fuser.<name>_tensors; name "gather" or "segments". */
static void write_gather_attrs(MlirOperation func, const char *name, const fk_kernel *k, const vec_plan *p, int n,
                               const int64_t *gathered) {
  MlirContext ctx = mlirOperationGetContext(func);
  char attr[64];
  snprintf(attr, sizeof attr, "fuser.%s_width", name);
  set_attr(func, attr, i64_attr(ctx, p->width));
  snprintf(attr, sizeof attr, "fuser.%s_conditions", name);
  set_attr(func, attr, fk_conditions_attr(ctx, &p->conditions, k->num_args));
  snprintf(attr, sizeof attr, "fuser.%s_tensors", name);
  set_attr(func, attr, mlirDenseI64ArrayGet(ctx, n, gathered));
}

/* The gather plan, and the segments plan where it gathers more tensors. */
static void gather_plans(MlirOperation func, const fk_kernel *k, int max_bytes) {
  vec_plan gather = {0}, segments = {0};
  int64_t gathered[FK_MAX_TENSORS], strict[FK_MAX_TENSORS];
  int ng = decide_gather(k, max_bytes, false, &gather, gathered);
  if (ng > 0) write_gather_attrs(func, "gather", k, &gather, ng, gathered);
  int ns = decide_gather(k, max_bytes, true, &segments, strict);
  if (ns > ng) write_gather_attrs(func, "segments", k, &segments, ns, strict);
  fk_conditions_free(&gather.conditions), fk_conditions_free(&gather.merge_conditions);
  fk_conditions_free(&segments.conditions), fk_conditions_free(&segments.merge_conditions);
}

bool fuser_vectorize_kernel(MlirOperation func, int max_bytes) {
  fk_kernel *k = malloc(sizeof *k);
  bool ok = fk_kernel_read(func, k) && fk_kernel_analyze(k);
  if (ok) {
    /* the plan from static facts ("rows"), and the one that also merges
     * dims whose contiguity only the run-time strides can tell */
    vec_plan rows = {0}, merged = {0};
    decide(k, max_bytes, false, &rows);
    decide(k, max_bytes, true, &merged);
    bool use_merged = merged.merge_conditions.n > 0 && merged.width > 1;
    write_attrs(func, k, use_merged ? &merged : &rows);
    if (use_merged && rows.width > 1) {
      MlirContext ctx = mlirOperationGetContext(func);
      set_attr(func, "fuser.row_width", i64_attr(ctx, rows.width));
      set_attr(func, "fuser.row_conditions", fk_conditions_attr(ctx, &rows.conditions, k->num_args));
    }
    fk_conditions_free(&rows.conditions), fk_conditions_free(&rows.merge_conditions);
    fk_conditions_free(&merged.conditions), fk_conditions_free(&merged.merge_conditions);
    gather_plans(func, k, max_bytes);
  }
  fk_kernel_free(k);
  free(k);
  return ok;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  int max_bytes = (int)fuser_pass_option_int(options, "max-bytes");
  if (max_bytes < 1 || (max_bytes & (max_bytes - 1))) {
    mlirEmitError(mlirOperationGetLocation(module), "fuser-vectorize: max-bytes must be a power of two");
    return false;
  }
  if (!fuser_check_segmented(module, "fuser-vectorize")) return false;
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_kernel(op) && !fuser_has_row_schedule(op)) ok &= fuser_vectorize_kernel(op, max_bytes);
  if (ok && fuser_pass_option_bool(options, "report")) {
    fuser_vectorize_report(module, stdout);
    fflush(stdout);
  }
  return ok;
}

const fuser_pass_info fuser_vectorize_pass = {
    .argument = "fuser-vectorize",
    .description = "Flatten contiguous dims and choose the vector width of every kernel",
    .anchor = "builtin.module",
    .options = {{"max-bytes", "16", "widest global access in bytes (a power of two)"},
                {"report", "false", "print the per-kernel report (passes/vectorize.h) to stdout"}},
    .run = run,
};
