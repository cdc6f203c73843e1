/* schedule_reduction_attr.c: a kernel's reduction schedule as its
 * `fuser.schedule` attribute (written by fuser_reduction_schedule_attr, read
 * back by fuser_reduction_schedule_read, checked by the kinds' verifier), and
 * the row kinds of fuser-schedule (passes/schedule.h): inner_persistent,
 * inner_reduce, outer, outer_persistent and inner_outer, each choosing
 * through fuser_schedule_reduction_kernel (schedule_reduction.c).
 *
 * Before:
 *   func.func private @f_k0(%arg0: tensor<16384x4096xbf16> ...) attributes {fuser.kernel} {
 *     ... %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} ...
 * After: the same, with
 *       attributes {fuser.kernel, fuser.schedule = {inner_persistent = {rows = 16384 : i64,
 *         row_length = 4096 : i64, variants = [{rows_per_block = 1 : i64, threads = 256 : i64,
 *         vectors = 2 : i64, width = 8 : i64}, ...]}}} */
#include <stdio.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"
#include "passes/pass.h"
#include "passes/schedule.h"
#include "passes/schedule_reduction.h"

#define DYN INT64_MIN /* a symbolic product (fuser_reduction_schedule's rows, row_len) */

static bool pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

MlirAttribute fuser_reduction_schedule_attr(MlirContext ctx, const fuser_reduction_schedule *s) {
  MlirNamedAttribute e[8];
  int n = 0;
  e[n++] = fuser_named(ctx, "outer_dims", fuser_i64_attr(ctx, s->outer));
  if (s->batch > 0) e[n++] = fuser_named(ctx, "batch_dims", fuser_i64_attr(ctx, s->batch));
  if (s->rows != DYN) e[n++] = fuser_named(ctx, "rows", fuser_i64_attr(ctx, s->rows));
  if (s->row_len != DYN) e[n++] = fuser_named(ctx, "row_length", fuser_i64_attr(ctx, s->row_len));
  if (s->kind == FUSER_SCHED_INNER_OUTER) e[n++] = fuser_named(ctx, "partials", fuser_i64_attr(ctx, s->partials));
  MlirAttribute vs[FUSER_SCHED_MAX_VARIANTS];
  for (int i = 0; i < s->num_variants; i++) {
    const fuser_row_variant *v = &s->variants[i];
    MlirNamedAttribute f[9] = {
        fuser_named(ctx, "width", fuser_i64_attr(ctx, v->width)),
        fuser_named(ctx, "vectors", fuser_i64_attr(ctx, v->vectors)),
        fuser_named(ctx, "threads", fuser_i64_attr(ctx, v->threads)),
        fuser_named(ctx, "rows_per_block", fuser_i64_attr(ctx, v->rows_per_block)),
        fuser_named(ctx, "cluster", fuser_i64_attr(ctx, v->cluster)),
        fuser_named(ctx, "min_points", fuser_i64_attr(ctx, v->min_points)),
        fuser_named(ctx, "reload", mlirBoolAttrGet(ctx, 1)),
        fuser_named(ctx, "min_row_length", fuser_i64_attr(ctx, v->min_row_length)),
        fuser_named(ctx, "prefetch", mlirBoolAttrGet(ctx, 1)),
    };
    /* the optional keys only where set (the IR of other variants unchanged) */
    intptr_t nf = 4;
    if (v->cluster > 1) f[nf++] = f[4];
    if (v->min_points > 0) f[nf++] = f[5];
    if (v->reload) f[nf++] = f[6];
    if (v->min_row_length > 0) f[nf++] = f[7];
    if (v->prefetch) f[nf++] = f[8];
    vs[i] = mlirDictionaryAttrGet(ctx, nf, f);
  }
  e[n++] = fuser_named(ctx, "variants", mlirArrayAttrGet(ctx, s->num_variants, vs));
  return mlirDictionaryAttrGet(ctx, n, e);
}

static MlirAttribute entry(MlirAttribute d, const char *name) {
  return mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString(name));
}

static int64_t int_or(MlirAttribute d, const char *name, int64_t otherwise) {
  MlirAttribute a = entry(d, name);
  return mlirAttributeIsNull(a) ? otherwise : mlirIntegerAttrGetValueInt(a);
}

/* The iteration rank of a row schedule: the rank of the first reduction's input. */
static int space_rank(MlirOperation kernel) {
  for (MlirOperation op = mlirBlockGetFirstOperation(fuser_func_body(kernel)); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_reduction_op(op)) return (int)mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  return -1;
}

void fuser_reduction_schedule_read(MlirOperation kernel, MlirAttribute schedule, fuser_reduction_schedule *s) {
  memset(s, 0, sizeof *s);
  MlirStringRef kind = fuser_schedule_kind_name(kernel);
  for (fuser_sched_kind k = FUSER_SCHED_INNER_PERSISTENT; k <= FUSER_SCHED_LAST; k++)
    if (strlen(fuser_sched_kind_name(k)) == kind.length && memcmp(fuser_sched_kind_name(k), kind.data, kind.length) == 0) s->kind = k;
  s->rank = space_rank(kernel);
  s->outer = (int)int_or(schedule, "outer_dims", 0);
  s->batch = (int)int_or(schedule, "batch_dims", 0);
  s->rows = int_or(schedule, "rows", DYN);
  s->row_len = int_or(schedule, "row_length", DYN);
  s->partials = int_or(schedule, "partials", 0);
  MlirAttribute vs = entry(schedule, "variants");
  s->num_variants = (int)mlirArrayAttrGetNumElements(vs);
  for (int i = 0; i < s->num_variants; i++) {
    MlirAttribute v = mlirArrayAttrGetElement(vs, i);
    s->variants[i] = (fuser_row_variant){.width = (int)int_or(v, "width", 1), .vectors = (int)int_or(v, "vectors", 0),
                                         .threads = (int)int_or(v, "threads", 1), .rows_per_block = (int)int_or(v, "rows_per_block", 1),
                                         .cluster = (int)int_or(v, "cluster", 1), .min_points = int_or(v, "min_points", 0),
                                         .reload = !mlirAttributeIsNull(entry(v, "reload")) && mlirBoolAttrGetValue(entry(v, "reload")),
                                         .min_row_length = int_or(v, "min_row_length", 0),
                                         .prefetch = !mlirAttributeIsNull(entry(v, "prefetch")) && mlirBoolAttrGetValue(entry(v, "prefetch"))};
  }
}

/* ---- the kinds of passes/schedule.h ----------------------------------------- */

static bool classified_as(MlirOperation func, fuser_sched_kind want) {
  fuser_reduction_schedule s;
  fuser_schedule_reduction_kernel(func, &s);
  return s.kind == want;
}

static bool applies_inner_persistent(const fk_kernel *k, MlirOperation func) {
  (void)k;
  return classified_as(func, FUSER_SCHED_INNER_PERSISTENT);
}
static bool applies_inner_reduce(const fk_kernel *k, MlirOperation func) {
  (void)k;
  return classified_as(func, FUSER_SCHED_INNER_REDUCE);
}
static bool applies_outer(const fk_kernel *k, MlirOperation func) {
  (void)k;
  return classified_as(func, FUSER_SCHED_OUTER);
}
static bool applies_outer_persistent(const fk_kernel *k, MlirOperation func) {
  (void)k;
  return classified_as(func, FUSER_SCHED_OUTER_PERSISTENT);
}

static bool applies_inner_outer(const fk_kernel *k, MlirOperation func) {
  (void)k;
  return classified_as(func, FUSER_SCHED_INNER_OUTER);
}

static MlirAttribute choose(const fk_kernel *k, MlirOperation func, const fuser_schedule_options *o) {
  (void)k, (void)o; /* the row schedules take no options: their sizes follow the row (schedule_reduction.h) */
  fuser_reduction_schedule s;
  fuser_schedule_reduction_kernel(func, &s);
  return fuser_reduction_schedule_attr(mlirOperationGetContext(func), &s);
}

static bool bad(MlirOperation func, int variant_index, const char *what) {
  MlirStringRef kind = fuser_schedule_kind_name(func);
  char msg[200];
  if (variant_index < 0) snprintf(msg, sizeof msg, "fuser.schedule (%.*s): %s", (int)kind.length, kind.data, what);
  else snprintf(msg, sizeof msg, "fuser.schedule (%.*s): variant #%d: %s", (int)kind.length, kind.data, variant_index, what);
  mlirEmitError(mlirOperationGetLocation(func), msg);
  return false;
}

static bool int_in(MlirAttribute d, const char *name, int64_t lo, int64_t hi) {
  MlirAttribute a = entry(d, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)) return false;
  int64_t v = mlirIntegerAttrGetValueInt(a);
  return v >= lo && v <= hi;
}

static bool verify(MlirOperation func, MlirAttribute s) {
  int rank = space_rank(func);
  if (rank < 1) return bad(func, -1, "the kernel has no reduction");
  if (!int_in(s, "outer_dims", 0, rank)) return bad(func, -1, "'outer_dims' must be an integer in [0, the reduction input's rank]");
  if (!mlirAttributeIsNull(entry(s, "batch_dims")) && !int_in(s, "batch_dims", 1, rank - 1 - int_or(s, "outer_dims", 0)))
    return bad(func, -1, "'batch_dims' must be an integer in [1, rank - outer_dims - 1]");
  if (!mlirAttributeIsNull(entry(s, "rows")) && !int_in(s, "rows", 0, INT64_MAX)) return bad(func, -1, "'rows' must be a non-negative integer");
  if (!mlirAttributeIsNull(entry(s, "row_length")) && !int_in(s, "row_length", 0, INT64_MAX))
    return bad(func, -1, "'row_length' must be a non-negative integer");
  MlirStringRef kind = fuser_schedule_kind_name(func);
  bool io = kind.length == strlen("inner_outer") && memcmp(kind.data, "inner_outer", kind.length) == 0;
  if (io != !mlirAttributeIsNull(entry(s, "partials")) || (io && !int_in(s, "partials", 1, INT64_MAX)))
    return bad(func, -1, "'partials' (the row groups, a positive integer) is required by inner_outer and only there");
  if (io && (!int_in(s, "rows", 1, INT64_MAX) || int_or(s, "rows", 1) % int_or(s, "partials", 1) != 0))
    return bad(func, -1, "inner_outer: 'rows' must be static and a multiple of 'partials'");
  MlirAttribute vs = entry(s, "variants");
  if (mlirAttributeIsNull(vs) || !mlirAttributeIsAArray(vs) || mlirArrayAttrGetNumElements(vs) == 0 ||
      mlirArrayAttrGetNumElements(vs) > FUSER_SCHED_MAX_VARIANTS)
    return bad(func, -1, "'variants' must be an array of 1 to 4 dictionaries");
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(vs); i++) {
    MlirAttribute v = mlirArrayAttrGetElement(vs, i);
    if (!mlirAttributeIsADictionary(v)) return bad(func, (int)i, "must be a dictionary");
    if (!int_in(v, "width", 1, 8)) return bad(func, (int)i, "'width' must be an integer in [1, 8]");
    if (!int_in(v, "vectors", 0, 16)) return bad(func, (int)i, "'vectors' must be an integer in [0, 16] (0: looped)");
    if (!int_in(v, "threads", 1, 1024) || !pow2(int_or(v, "threads", 0)))
      return bad(func, (int)i, "'threads' must be a power of two in [1, 1024]");
    if (!int_in(v, "rows_per_block", 1, 1024) || int_or(v, "threads", 0) * int_or(v, "rows_per_block", 0) > 1024)
      return bad(func, (int)i, "'rows_per_block' must be at least 1, with threads x rows_per_block at most 1024");
    if (!mlirAttributeIsNull(entry(v, "cluster")) &&
        (!int_in(v, "cluster", 1, FUSER_SCHED_MAX_CLUSTER) || !pow2(int_or(v, "cluster", 0)) || int_or(v, "rows_per_block", 0) != 1 ||
         int_or(v, "threads", 0) < 32))
      return bad(func, (int)i, "'cluster' must be a power of two in [1, 8], on a variant of one row per block and at least 32 threads");
    /* a persistent cluster's blocks hold chunks of T x V x W of a static row */
    if (int_or(v, "cluster", 1) > 1 && int_or(v, "vectors", 0) > 0 &&
        (mlirAttributeIsNull(entry(s, "row_length")) ||
         int_or(v, "cluster", 1) * int_or(v, "threads", 0) * int_or(v, "vectors", 0) * int_or(v, "width", 1) < int_or(s, "row_length", 0)))
      return bad(func, (int)i, "a persistent 'cluster' variant (vectors > 0) needs a static 'row_length' of at most cluster x threads x vectors x width");
    if (!mlirAttributeIsNull(entry(v, "reload")) &&
        (!mlirAttributeIsABool(entry(v, "reload")) || (mlirBoolAttrGetValue(entry(v, "reload")) && int_or(v, "vectors", 0) == 0)))
      return bad(func, (int)i, "'reload' must be a bool, true only on a persistent variant (vectors > 0)");
    if (!mlirAttributeIsNull(entry(v, "prefetch")) &&
        (!mlirAttributeIsABool(entry(v, "prefetch")) ||
         (mlirBoolAttrGetValue(entry(v, "prefetch")) &&
          (int_or(v, "vectors", 0) == 0 || (!mlirAttributeIsNull(entry(v, "reload")) && mlirBoolAttrGetValue(entry(v, "reload"))) ||
           int_or(v, "cluster", 1) > 1))))
      return bad(func, (int)i, "'prefetch' must be a bool, true only on a held persistent variant (vectors > 0, no reload, no cluster)");
    if (!mlirAttributeIsNull(entry(v, "min_points")) && !int_in(v, "min_points", 0, INT64_MAX))
      return bad(func, (int)i, "'min_points' must be a non-negative integer");
    if (!mlirAttributeIsNull(entry(v, "min_row_length")) && !int_in(v, "min_row_length", 0, INT64_MAX))
      return bad(func, (int)i, "'min_row_length' must be a non-negative integer");
    if (io && (int_or(v, "vectors", 0) == 0 || int_or(s, "partials", 1) % int_or(v, "rows_per_block", 1) != 0))
      return bad(func, (int)i, "inner_outer: a persistent variant (vectors > 0) whose rows per block divide 'partials'");
  }
  return true;
}

/* Tried ahead of pointwise (schedule.c's table): a kernel none of them
 * takes (no reduction, or one they cannot hold) is pointwise. */
const fuser_schedule_kind fuser_schedule_inner_persistent = {
    .kind = "inner_persistent", .applies = applies_inner_persistent, .choose = choose, .verify = verify};
const fuser_schedule_kind fuser_schedule_inner_reduce = {
    .kind = "inner_reduce", .applies = applies_inner_reduce, .choose = choose, .verify = verify};
const fuser_schedule_kind fuser_schedule_inner_outer = {
    .kind = "inner_outer", .applies = applies_inner_outer, .choose = choose, .verify = verify};
const fuser_schedule_kind fuser_schedule_outer = {.kind = "outer", .applies = applies_outer, .choose = choose, .verify = verify};
const fuser_schedule_kind fuser_schedule_outer_persistent = {
    .kind = "outer_persistent", .applies = applies_outer_persistent, .choose = choose, .verify = verify};
