/* schedule_pointwise.c: the pointwise schedule (schedule.h): every thread
 * computes `unroll` vectors of `vector_width` consecutive points of the
 * flattened iteration space, blocks of `block_size` threads, index math of
 * `index_bits`. Variants, tried in order at launch (docs/lowering.md):
 *   vector     width W under the vectorizer's conditions (plus, for a chosen
 *              unroll > 1 with `?` sizes, a `points` condition; then
 *              vector_u1, the same with unroll 1)
 *   rows       when the vector variant merges dims under run-time
 *              conditions: vectors along the last static run
 *   mixed      the last of those with its per-tensor align/stride conditions
 *              checked in the kernel (passes/access_select.h): a misaligned
 *              tensor gets shifted loads and stores, the others keep W-wide
 *              accesses
 *   gather     when fuser-vectorize made a gather plan (fuser.gather_*):
 *              the whole space as one flat run of width fuser.gather_width
 *              under fuser.gather_conditions, the inputs listed in `gather`
 *              loaded lane by lane at their own coordinates; after the
 *              others, so that it only replaces `scalar` for the layouts
 *              they all fail on (a skinny transposed input)
 *   segments   when fuser-vectorize made a segments plan (fuser.segments_*):
 *              the gather variant that also gathers the inputs whose rows
 *              merge only under a run-time condition (x[:, :8191] of rows
 *              of 8192: rows of 8191 that `rows` and `mixed` cannot vector
 *              either); such an input contiguous along its rows loads each
 *              vector that stays in a row contiguously (kernel_gen_access.c)
 *   scalar     width 1, no conditions (when W is 1 or the others have
 *              conditions, unless `mixed` or `segments` has none left) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/access_select.h"
#include "passes/conditions.h"
#include "passes/schedule.h"

static MlirAttribute fattr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* Instructions per byte moved above which a kernel is compute-bound on the
 * H200 (~1 TB/s of bf16 elements in and out against ~33 T lane-instructions/s:
 * ~8 per byte at full bandwidth; lower, as the loads must also be issued). */
#define COMPUTE_BOUND_COST_PER_BYTE 4

/* Threads that fill the target GPU (schedule.h). */
#define FULL_GPU_THREADS (FUSER_TARGET_SMS * FUSER_TARGET_THREADS_PER_SM)

/* Rough f32 instruction counts per element of the libdevice/arith
 * expansions: what makes a kernel compute-bound. Everything else counts 1. */
static int op_cost(fuser_op_id id) {
  switch (id) {
  case FUSER_OP_tanh: return 17;
  case FUSER_OP_exp: case FUSER_OP_exp2: case FUSER_OP_expm1: return 8;
  case FUSER_OP_log: case FUSER_OP_log1p: case FUSER_OP_log2: return 10;
  case FUSER_OP_sigmoid: case FUSER_OP_silu: return 12;
  case FUSER_OP_sin: case FUSER_OP_cos: case FUSER_OP_tan: case FUSER_OP_erf: return 20;
  case FUSER_OP_pow: case FUSER_OP_atan2: return 30;
  case FUSER_OP_div: case FUSER_OP_reciprocal: case FUSER_OP_sqrt: case FUSER_OP_rsqrt: return 6;
  default: return 1;
  }
}

static int64_t tensor_bytes(MlirType t) {
  if (!mlirTypeIsARankedTensor(t)) return 0;
  return (int64_t)fuser_dtype_size(fuser_dtype_of_type(mlirShapedTypeGetElementType(t)));
}

/* The unroll when none is asked for (unroll=0). A memory-bound kernel keeps
 * one vector per thread (RoPE: unroll 1 was the fastest, docs/lowering.md);
 * one whose arithmetic per byte moved is high enough to limit it at full
 * bandwidth (gelu's tanh: ~7 instructions per byte) gets 4 vectors per thread,
 * so that each thread has independent work to overlap with its loads. */
static int auto_unroll(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  int64_t cost = 0, bytes = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    if (id != FUSER_OP_NONE) cost += op_cost(id);
  }
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) bytes += tensor_bytes(mlirValueGetType(mlirBlockGetArgument(entry, i)));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) bytes += tensor_bytes(mlirValueGetType(mlirOperationGetOperand(ret, i)));
  return bytes > 0 && cost >= COMPUTE_BOUND_COST_PER_BYTE * bytes ? 4 : 1;
}

/* Whether fuser-vectorize flattened the whole iteration space into one group. */
static bool one_group(MlirOperation func) {
  MlirAttribute groups = fattr(func, "fuser.flat_groups");
  return !mlirAttributeIsNull(groups) && mlirArrayAttrGetNumElements(groups) == 1;
}

/* A scalar tail is needed only when the vectors run over the whole
 * iteration space (one flattened group) and its size is not known to be a
 * multiple of W; otherwise the run's extent is (statically or by condition). */
/* Whether the whole space as one run of W-wide vectors leaves a scalar
 * tail (a `?` extent: it may). */
static bool whole_space_tail(const fk_kernel *k, int width) {
  int64_t n = 1;
  for (int d = 0; d < k->rank; d++) {
    if (k->extent[d] == FK_DYN) return true;
    n *= k->extent[d];
  }
  return n % width != 0;
}

static bool needs_tail(const fk_kernel *k, MlirOperation func, int width) { return one_group(func) && whole_space_tail(k, width); }

static bool has_index32(MlirAttribute conds) {
  fk_condition c;
  for (intptr_t i = 0; !mlirAttributeIsNull(conds) && i < mlirArrayAttrGetNumElements(conds); i++)
    if (fk_condition_read(mlirArrayAttrGetElement(conds, i), 0, &c) && c.kind == FK_COND_INDEX32) return true;
  return false;
}

typedef struct {
  const char *name;
  int width, unroll, index_bits;
  bool tail, flat;
  MlirAttribute conditions;
  MlirAttribute access_conditions; /* null, or the per-tensor conditions checked in the kernel */
  MlirAttribute gather;            /* null, or the tensors loaded lane by lane (dense i64 array) */
} variant;

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirAttribute i64(MlirContext ctx, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v); }

static MlirAttribute variant_attr(MlirContext ctx, const variant *v) {
  MlirNamedAttribute e[9] = {
      named(ctx, "name", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(v->name))),
      named(ctx, "vector_width", i64(ctx, v->width)),
      named(ctx, "unroll", i64(ctx, v->unroll)),
      named(ctx, "index_bits", i64(ctx, v->index_bits)),
      named(ctx, "tail", mlirBoolAttrGet(ctx, v->tail)),
      named(ctx, "flat", mlirBoolAttrGet(ctx, v->flat)),
      named(ctx, "conditions", mlirAttributeIsNull(v->conditions) ? mlirArrayAttrGet(ctx, 0, NULL) : v->conditions),
      named(ctx, "access_conditions", v->access_conditions),
      named(ctx, "gather", v->gather),
  };
  int n = 7; /* the optional entries only where present */
  if (!mlirAttributeIsNull(v->access_conditions)) e[n++] = e[7];
  if (!mlirAttributeIsNull(v->gather)) e[n++] = e[8];
  return mlirDictionaryAttrGet(ctx, n, e);
}

/* The variant of fuser-vectorize's gather plan `name` ("gather" or
 * "segments": fuser.<name>_width, _conditions, _tensors), if it made one. */
static bool gather_variant(const fk_kernel *k, MlirOperation func, const char *name, int unroll, variant *v) {
  char attr[64];
  snprintf(attr, sizeof attr, "fuser.%s_width", name);
  MlirAttribute w = fattr(func, attr);
  snprintf(attr, sizeof attr, "fuser.%s_conditions", name);
  MlirAttribute conds = fattr(func, attr);
  snprintf(attr, sizeof attr, "fuser.%s_tensors", name);
  MlirAttribute tensors = fattr(func, attr);
  if (mlirAttributeIsNull(w) || mlirAttributeIsNull(conds) || mlirAttributeIsNull(tensors)) return false;
  int width = (int)mlirIntegerAttrGetValueInt(w);
  int index_bits = (int)mlirIntegerAttrGetValueInt(fattr(func, "fuser.index_bits"));
  *v = (variant){name, width, unroll, has_index32(conds) ? 32 : index_bits, whole_space_tail(k, width), true, conds,
                 {NULL}, tensors};
  return true;
}

MlirAttribute fuser_schedule_with_points(MlirContext ctx, MlirAttribute conds, int64_t n) {
  intptr_t m = mlirAttributeIsNull(conds) ? 0 : mlirArrayAttrGetNumElements(conds);
  MlirAttribute *all = malloc((size_t)(m + 1) * sizeof *all);
  for (intptr_t i = 0; i < m; i++) all[i] = mlirArrayAttrGetElement(conds, i);
  /* result 0: tensor 0 past no arguments */
  all[m] = fk_condition_attr(ctx, &(fk_condition){.kind = FK_COND_POINTS, .tensor = 0, .value = n}, 0);
  MlirAttribute a = mlirArrayAttrGet(ctx, m + 1, all);
  free(all);
  return a;
}

static bool applies(const fk_kernel *k, MlirOperation func) { return true; }

static MlirAttribute choose(const fk_kernel *k, MlirOperation func, const fuser_schedule_options *o) {
  MlirContext ctx = mlirOperationGetContext(func);
  int unroll = o->unroll;
  bool chosen = unroll == 0;
  if (chosen) unroll = auto_unroll(func);
  int width = (int)mlirIntegerAttrGetValueInt(fattr(func, "fuser.vector_width"));
  int index_bits = (int)mlirIntegerAttrGetValueInt(fattr(func, "fuser.index_bits"));
  /* A chosen unroll pays only when the unrolled threads still fill the GPU:
   * static sizes decide here; `?` sizes get the unrolled vector variant under
   * a `points` condition, then the same variant with unroll 1. */
  int64_t fill = 0, points = 1;
  bool dynamic = false;
  for (int d = 0; d < k->rank; d++) {
    if (k->extent[d] == FK_DYN) dynamic = true;
    else points *= k->extent[d];
  }
  if (chosen && unroll > 1) {
    fill = (int64_t)FULL_GPU_THREADS * unroll * width;
    if (!dynamic && points < fill) unroll = 1;
    if (!dynamic) fill = 0;
  }
  MlirAttribute conds = fattr(func, "fuser.vector_conditions");
  if (mlirAttributeIsNull(conds)) conds = mlirArrayAttrGet(ctx, 0, NULL);
  bool has_conditions = mlirArrayAttrGetNumElements(conds) > 0;
  variant vs[8];
  int n = 0;
  if (width > 1) {
    variant v = {"vector", width, unroll, has_index32(conds) ? 32 : index_bits, needs_tail(k, func, width),
                 one_group(func) && k->num_boundaries == 0, conds, {NULL}, {NULL}};
    if (fill > 0) { /* the unrolled variant: the same conditions and enough points */
      variant u = v;
      u.conditions = fuser_schedule_with_points(ctx, conds, fill);
      vs[n++] = u;
      v.unroll = 1;
      v.name = "vector_u1";
    }
    vs[n++] = v;
  }
  MlirAttribute row_width = fattr(func, "fuser.row_width");
  if (!mlirAttributeIsNull(row_width) && mlirIntegerAttrGetValueInt(row_width) > 1) {
    /* the dims merged for the vector variant only at run time: vectors along
     * the last static run instead, under that plan's own conditions */
    MlirAttribute rc = fattr(func, "fuser.row_conditions");
    vs[n++] = (variant){"rows", (int)mlirIntegerAttrGetValueInt(row_width), fill > 0 ? 1 : unroll,
                        has_index32(rc) ? 32 : index_bits, false, false, rc, {NULL}, {NULL}};
  }
  if (n > 0) { /* per-tensor alignment checked in the kernel instead of all or nothing */
    variant m = vs[n - 1];
    MlirAttribute launch, in_kernel;
    if (fuser_split_access_conditions(ctx, m.conditions, &launch, &in_kernel)) {
      m.name = "mixed";
      m.conditions = launch;
      m.access_conditions = in_kernel;
      vs[n++] = m;
    }
  }
  /* the scalar variant, unless a mixed one covers every layout already */
  bool covered = n > 0 && mlirArrayAttrGetNumElements(vs[n - 1].conditions) == 0;
  for (int i = 0; i < 2 && !covered; i++)
    if (gather_variant(k, func, i == 0 ? "gather" : "segments", fill > 0 ? 1 : unroll, &vs[n])) {
      covered = mlirArrayAttrGetNumElements(vs[n].conditions) == 0;
      n++;
      has_conditions = true; /* the scalar variant must follow, unless this one has no conditions */
    }
  if ((width == 1 || has_conditions) && !covered)
    vs[n++] = (variant){"scalar", 1, o->scalar_unroll, index_bits, false, false, mlirArrayAttrGet(ctx, 0, NULL), {NULL}, {NULL}};
  MlirAttribute all[8];
  for (int i = 0; i < n; i++) all[i] = variant_attr(ctx, &vs[i]);
  MlirNamedAttribute e[2] = {named(ctx, "block_size", i64(ctx, o->block_size)), named(ctx, "variants", mlirArrayAttrGet(ctx, n, all))};
  return mlirDictionaryAttrGet(ctx, 2, e);
}

/* ---- the C verifier -------------------------------------------------------- */

static bool bad(MlirOperation func, int variant_index, const char *what) {
  char msg[200];
  if (variant_index < 0) snprintf(msg, sizeof msg, "fuser.schedule (pointwise): %s", what);
  else snprintf(msg, sizeof msg, "fuser.schedule (pointwise): variant #%d: %s", variant_index, what);
  mlirEmitError(mlirOperationGetLocation(func), msg);
  return false;
}

static bool int_in(MlirAttribute d, const char *name, int64_t lo, int64_t hi) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)) return false;
  int64_t v = mlirIntegerAttrGetValueInt(a);
  return v >= lo && v <= hi;
}

static bool is_bool(MlirAttribute d, const char *name) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsABool(a);
}

static bool verify(MlirOperation func, MlirAttribute s) {
  if (!int_in(s, "block_size", 1, 1024)) return bad(func, -1, "'block_size' must be an integer in [1, 1024]");
  MlirAttribute vs = mlirDictionaryAttrGetElementByName(s, mlirStringRefCreateFromCString("variants"));
  if (mlirAttributeIsNull(vs) || !mlirAttributeIsAArray(vs) || mlirArrayAttrGetNumElements(vs) == 0)
    return bad(func, -1, "'variants' must be a non-empty array of dictionaries");
  intptr_t n = mlirArrayAttrGetNumElements(vs);
  for (intptr_t i = 0; i < n; i++) {
    MlirAttribute v = mlirArrayAttrGetElement(vs, i);
    if (!mlirAttributeIsADictionary(v)) return bad(func, (int)i, "must be a dictionary");
    MlirAttribute name = mlirDictionaryAttrGetElementByName(v, mlirStringRefCreateFromCString("name"));
    if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name) || mlirStringAttrGetValue(name).length == 0)
      return bad(func, (int)i, "'name' must be a non-empty string");
    if (!int_in(v, "vector_width", 1, 64)) return bad(func, (int)i, "'vector_width' must be an integer in [1, 64]");
    int64_t w = mlirIntegerAttrGetValueInt(mlirDictionaryAttrGetElementByName(v, mlirStringRefCreateFromCString("vector_width")));
    if (w & (w - 1)) return bad(func, (int)i, "'vector_width' must be a power of two");
    if (!int_in(v, "unroll", 1, 64)) return bad(func, (int)i, "'unroll' must be an integer in [1, 64]");
    if (!int_in(v, "index_bits", 32, 64) ||
        mlirIntegerAttrGetValueInt(mlirDictionaryAttrGetElementByName(v, mlirStringRefCreateFromCString("index_bits"))) % 32)
      return bad(func, (int)i, "'index_bits' must be 32 or 64");
    if (!is_bool(v, "tail") || !is_bool(v, "flat")) return bad(func, (int)i, "'tail' and 'flat' must be booleans");
    MlirAttribute c = mlirDictionaryAttrGetElementByName(v, mlirStringRefCreateFromCString("conditions"));
    if (mlirAttributeIsNull(c) || !mlirAttributeIsAArray(c)) return bad(func, (int)i, "'conditions' must be an array");
    fk_condition cond; /* the shape only: num_args 0 reads every tensor as a number */
    for (intptr_t j = 0; j < mlirArrayAttrGetNumElements(c); j++)
      if (!fk_condition_read(mlirArrayAttrGetElement(c, j), 0, &cond))
        return bad(func, (int)i, "each condition must be one of passes/conditions.h's forms ({align = {arg = T, bytes = B}}, ..., {index32})");
    if (i == n - 1 && mlirArrayAttrGetNumElements(c) != 0) return bad(func, (int)i, "the last variant must have no conditions");
    MlirAttribute ac = mlirDictionaryAttrGetElementByName(v, mlirStringRefCreateFromCString("access_conditions"));
    if (!mlirAttributeIsNull(ac) && !mlirAttributeIsAArray(ac)) return bad(func, (int)i, "'access_conditions' must be an array");
    for (intptr_t j = 0; !mlirAttributeIsNull(ac) && j < mlirArrayAttrGetNumElements(ac); j++)
      if (!fk_condition_read(mlirArrayAttrGetElement(ac, j), 0, &cond))
        return bad(func, (int)i, "each access condition must be one of passes/conditions.h's forms");
    MlirAttribute g = mlirDictionaryAttrGetElementByName(v, mlirStringRefCreateFromCString("gather"));
    if (!mlirAttributeIsNull(g) && !mlirAttributeIsADenseI64Array(g)) return bad(func, (int)i, "'gather' must be an array<i64> of tensors");
  }
  return true;
}

const fuser_schedule_kind fuser_schedule_pointwise = {
    .kind = "pointwise",
    .analyzed = true,
    .applies = applies,
    .choose = choose,
    .verify = verify,
};
