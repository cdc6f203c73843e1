/* fuser-lower-kernels: kernel functions -> loop-level functions.
 *
 * For each `fuser.kernel` function, following its `fuser.schedule`
 * (fuser-schedule, passes/schedule.h; a kernel without one is a located
 * error), emits right after it one loop-level func.func per variant of the
 * schedule, in order:
 *   @<kernel>__vector  width W, with the kernel's fuser.vector_conditions
 *   @<kernel>__rows    vectors along the last statically contiguous run
 *   @<kernel>__scalar  width 1, no conditions
 * Each takes one `memref<1xT>` per tensor (arguments, then results), then
 * the `?` sizes, run-time strides and scalars it needs as i64/scalar
 * parameters (attribute fuser.params says which), and holds
 *   scf.parallel (%t) over threads { scf.for over `unroll` vectors of W
 *   points; a grid-stride scalar tail }
 * with memref.load / vector.load {alignment}, f32 arithmetic, scf.if for
 * cat/pad, built through the op builder (lowering/builder.h) at the
 * locations of the fuser ops they lower. The kernel function itself stays
 * (the plan calls it).
 *
 *   func.func private @f_k0(%a: tensor<16xbf16> {fuser.strides = array<i64: 1>}) -> ...
 *       attributes {fuser.kernel, fuser.schedule = {pointwise = {variants = [{name = "vector", ...}]}}, ...}
 * gains
 *   func.func @f_k0__vector(%arg0: memref<1xbf16>, %arg1: memref<1xbf16>) attributes {fuser.loops, ...} {
 *     %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%c1], strides: [1] ...
 *     scf.parallel (%t) = (%c0) to (%nthreads) step (%c1) { ... vector.load %reinterpret_cast[%e] {alignment = 16 : i64} ... }
 *   }
 *
 * A transpose schedule gets its tile variant (lowering/transpose_gen.h)
 * then the pointwise variants. A row schedule (inner_persistent, inner_reduce, outer) gets the row
 * variants of lowering/row_gen.h instead (fuser.row_kernel, fuser.row_grid);
 * the outer kind then the pointwise variants as its fallback.
 *
 * Option: target (gpu or cpu, default gpu): the form of the row schedules'
 * block reductions. Everything else comes from the schedule (fuser-schedule's
 * unroll, scalar-unroll and block-size; fuser-vectorize's max-bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen.h"
#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/pass.h"
#include "lowering/row_gen.h"
#include "lowering/transpose_gen.h"
#include "passes/schedule.h"
#include "passes/schedule_reduction.h"
#include "passes/vectorize.h"

static MlirAttribute entry(MlirAttribute dict, const char *name) {
  return mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString(name));
}

/* Whether a variant fits the launch plan's fixed fields (launch_plan.h);
 * else a located error: a longer name or more conditions would be cut. */
static bool fits_launch_plan(MlirOperation func, const fk_kernel *k, const char *variant, MlirAttribute conds) {
  const fuser_launch *l = NULL;
  char msg[256];
  size_t entry = k->name_len + 2 + strlen(variant);
  intptr_t nconds = mlirAttributeIsNull(conds) ? 0 : mlirArrayAttrGetNumElements(conds);
  if (k->name_len >= sizeof l->kernel || entry >= sizeof l->entry)
    snprintf(msg, sizeof msg, "kernel name of %zu characters: at most %zu are supported (entry '<kernel>__%s' at most %zu)",
             k->name_len, sizeof l->kernel - 1, variant, sizeof l->entry - 1);
  else if (strlen(variant) >= sizeof l->variant)
    snprintf(msg, sizeof msg, "variant name '%s' is longer than %zu characters", variant, sizeof l->variant - 1);
  else if (nconds > FUSER_LAUNCH_MAX_CONDITIONS)
    snprintf(msg, sizeof msg, "variant '%s' has %ld run-time conditions: at most %d are supported", variant, (long)nconds,
             FUSER_LAUNCH_MAX_CONDITIONS);
  else
    return true;
  mlirEmitError(mlirOperationGetLocation(func), msg);
  return false;
}

bool fuser_lower_pointwise(MlirOperation func, MlirAttribute schedule, MlirOperation *after) {
  fk_kernel *k = malloc(sizeof *k);
  /* the accesses and boundaries too: which loads kg_prefetch_point may issue first */
  bool ok = fk_kernel_read(func, k) && fk_kernel_analyze(k);
  int block = (int)fuser_schedule_int(schedule, "block_size");
  MlirAttribute variants = entry(schedule, "variants");
  for (intptr_t i = 0; ok && i < mlirArrayAttrGetNumElements(variants); i++) {
    MlirAttribute v = mlirArrayAttrGetElement(variants, i);
    MlirStringRef name = mlirStringAttrGetValue(entry(v, "name"));
    char variant[64];
    snprintf(variant, sizeof variant, "%.*s", (int)name.length, name.data);
    fk_codegen_options o = {.width = (int)fuser_schedule_int(v, "vector_width"),
                            .unroll = (int)fuser_schedule_int(v, "unroll"),
                            .index_bits = (int)fuser_schedule_int(v, "index_bits"),
                            .tail = fuser_schedule_bool(v, "tail"),
                            .flat = fuser_schedule_bool(v, "flat"),
                            .variant = variant,
                            .conditions = entry(v, "conditions"),
                            .access_conditions = entry(v, "access_conditions"),
                            .gather = entry(v, "gather"),
                            .block_size = block};
    if (!fits_launch_plan(func, k, variant, o.conditions)) {
      ok = false;
      break;
    }
    MlirOperation f = fk_codegen(k, &o, *after);
    ok = !mlirOperationIsNull(f);
    if (ok) *after = f;
  }
  fk_kernel_free(k);
  free(k);
  return ok;
}

/* The lowering of each kind of schedule (passes/schedule.h lists the kinds;
 * a kind without a lowering here is a located error). */
typedef bool (*lower_fn)(MlirOperation func, MlirAttribute schedule, bool gpu, MlirOperation *after);

static bool lower_pointwise(MlirOperation func, MlirAttribute schedule, bool gpu, MlirOperation *after) {
  (void)gpu; /* the same loops for both targets */
  return fuser_lower_pointwise(func, schedule, after);
}

/* The pointwise variants of a row-scheduled kernel, after *after: the outer
 * kind's fallback for strides that do not merge, or the whole lowering of a
 * kernel the row generator does not handle. Its schedule is
 * fuser_schedule_pointwise's default one (unroll chosen, scalar unroll 1,
 * 128 threads) on the kernel's 16-byte vector plan. */
static bool lower_pointwise_fallback(MlirOperation func, MlirOperation *after) {
  if (mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.vector_width"))) &&
      !fuser_vectorize_kernel(func, 16))
    return false;
  fk_kernel *k = malloc(sizeof *k);
  bool ok = fk_kernel_read(func, k) && fk_kernel_analyze(k);
  fuser_schedule_options o = {.unroll = 0, .scalar_unroll = 1, .block_size = 128};
  MlirAttribute schedule = ok ? fuser_schedule_pointwise.choose(k, func, &o) : mlirAttributeGetNull();
  fk_kernel_free(k);
  free(k);
  return !mlirAttributeIsNull(schedule) && fuser_lower_pointwise(func, schedule, after);
}

/* The row schedules (inner_persistent, inner_reduce, outer, inner_outer): their variants
 * from lowering/row_gen.c in the GPU or CPU form; the outer kind appends
 * the pointwise variants as its fallback. */
static bool lower_rows(MlirOperation func, MlirAttribute schedule, bool gpu, MlirOperation *after) {
  fuser_reduction_schedule s;
  fuser_reduction_schedule_read(func, schedule, &s);
  bool unsupported = false;
  if (!fuser_row_kernel_lower(func, &s, gpu, after, &unsupported)) {
    /* inner_outer's partial results have no per-point form */
    if (unsupported && s.kind == FUSER_SCHED_INNER_OUTER)
      mlirEmitError(mlirOperationGetLocation(func), "fuser-lower-kernels: the inner_outer schedule does not apply to this kernel "
                                                    "(FUSER_DEBUG_ROWS=1 says why)");
    return unsupported && s.kind != FUSER_SCHED_INNER_OUTER && lower_pointwise_fallback(func, after); /* else a located error */
  }
  /* the per-point variants follow where the last row variant has run-time
   * conditions (outer: always; inner: `merge` of symbolic inner dims), but
   * not for a var_mean, which the per-point kernel lacks (an outer
   * schedule then ends in its own width-1 variant) */
  MlirAttribute conds = mlirOperationGetDiscardableAttributeByName(*after, mlirStringRefCreateFromCString("fuser.vector_conditions"));
  bool conditional = s.kind == FUSER_SCHED_OUTER || (!mlirAttributeIsNull(conds) && mlirArrayAttrGetNumElements(conds) > 0);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
       conditional && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_op_kind_of(fuser_op_id_of(op)) == FUSER_KIND_VAR_MEAN) conditional = false;
  return !conditional || lower_pointwise_fallback(func, after);
}

/* The transpose schedule: its tile variants (lowering/transpose_gen.c:
 * `tile`, and `tile_dims` after a `tile` that merges dims under run-time
 * conditions), then the pointwise variants after them as the fallback. */
static bool lower_transpose(MlirOperation func, MlirAttribute schedule, bool gpu, MlirOperation *after) {
  MlirContext ctx = mlirOperationGetContext(func);
  fk_kernel *k = malloc(sizeof *k);
  bool ok = fk_kernel_read(func, k) && fk_kernel_analyze(k);
  fuser_tile_plan p;
  if (ok && !fuser_tile_plan_of(k, &p)) {
    mlirEmitError(mlirOperationGetLocation(func), "fuser-lower-kernels: the transpose schedule does not apply to this kernel");
    ok = false;
  }
  MlirAttribute variants = entry(schedule, "variants");
  intptr_t ntile = fuser_tile_variants(schedule);
  if (ok) { /* the schedule's tile fields, as verified */
    p.tile = (int)fuser_schedule_int(schedule, "tile");
    p.tile_dim = (int)fuser_schedule_int(schedule, "tile_dim");
    p.threads = (int)fuser_schedule_int(schedule, "threads");
    MlirAttribute tiled = entry(schedule, "tiled"), narrow = entry(schedule, "narrow");
    p.ntiled = (int)mlirDenseArrayGetNumElements(tiled);
    for (int i = 0; i < p.ntiled; i++) p.tiled[i] = (int)mlirDenseI64ArrayGetElement(tiled, i);
    memset(p.narrow, 0, sizeof p.narrow);
    for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(narrow); i++) p.narrow[mlirDenseI64ArrayGetElement(narrow, i)] = true;
  }
  for (intptr_t i = 0; ok && i < ntile; i++) {
    MlirAttribute tile = mlirArrayAttrGetElement(variants, i), groups = entry(tile, "groups");
    p.width = (int)fuser_schedule_int(tile, "vector_width");
    p.vectors = (int)fuser_schedule_int(tile, "unroll");
    p.a_lo = mlirAttributeIsNull(groups) ? p.tile_dim : (int)mlirDenseI64ArrayGetElement(groups, 0);
    p.b_lo = mlirAttributeIsNull(groups) ? k->rank - 1 : (int)mlirDenseI64ArrayGetElement(groups, 1);
    if (p.b_lo >= k->rank) {
      mlirEmitError(mlirOperationGetLocation(func), "fuser-lower-kernels: a tile variant's groups lie outside the iteration space");
      ok = false;
      break;
    }
    MlirStringRef nm = mlirStringAttrGetValue(entry(tile, "name"));
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)nm.length, nm.data);
    fk_codegen_options o = {.width = p.width, .unroll = p.vectors, .index_bits = (int)fuser_schedule_int(tile, "index_bits"),
                            .variant = name, .conditions = entry(tile, "conditions"),
                            .access_conditions = entry(tile, "access_conditions"), .block_size = p.threads};
    ok = fits_launch_plan(func, k, name, o.conditions);
    if (ok) {
      MlirOperation f = fk_transpose_codegen(k, &o, &p, gpu, *after);
      ok = !mlirOperationIsNull(f);
      if (ok) *after = f;
    }
  }
  fk_kernel_free(k);
  free(k);
  if (!ok) return false;
  intptr_t n = mlirArrayAttrGetNumElements(variants);
  MlirAttribute *rest = malloc((size_t)n * sizeof *rest);
  for (intptr_t i = ntile; i < n; i++) rest[i - ntile] = mlirArrayAttrGetElement(variants, i);
  MlirNamedAttribute e[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("block_size")), entry(schedule, "block_size")),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("variants")), mlirArrayAttrGet(ctx, n - ntile, rest))};
  free(rest);
  return fuser_lower_pointwise(func, mlirDictionaryAttrGet(ctx, 2, e), after);
}

static const struct {
  const char *kind;
  lower_fn lower;
} lowerings[] = {
    {"inner_persistent", lower_rows},
    {"inner_reduce", lower_rows},
    {"outer", lower_rows},
    {"outer_persistent", lower_rows},
    {"inner_outer", lower_rows},
    {"transpose", lower_transpose},
    {"pointwise", lower_pointwise},
};

bool fuser_lower_kernel_for(MlirOperation func, bool gpu) {
  MlirAttribute schedule = fuser_schedule_of(func);
  if (mlirAttributeIsNull(schedule)) return false;
  MlirStringRef kind = fuser_schedule_kind_name(func);
  MlirOperation after = func;
  for (size_t i = 0; i < sizeof lowerings / sizeof lowerings[0]; i++)
    if (strlen(lowerings[i].kind) == kind.length && memcmp(lowerings[i].kind, kind.data, kind.length) == 0)
      return lowerings[i].lower(func, schedule, gpu, &after);
  char msg[160];
  snprintf(msg, sizeof msg, "fuser-lower-kernels: schedule kind '%.*s' has no lowering yet", (int)kind.length, kind.data);
  mlirEmitError(mlirOperationGetLocation(func), msg);
  return false;
}

/* lowering.h */
bool fuser_is_loops_func(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == 9 && memcmp(n.data, "func.func", 9) == 0 &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.loops")));
}

bool fuser_lower_kernel(MlirOperation func) { return fuser_lower_kernel_for(func, true); }

static bool run(MlirOperation module, const fuser_pass_options *options) {
  const char *target = fuser_pass_option_str(options, "target");
  if (strcmp(target, "gpu") != 0 && strcmp(target, "cpu") != 0) {
    mlirEmitError(mlirOperationGetLocation(module), "fuser-lower-kernels: target must be gpu or cpu");
    return false;
  }
  if (!fuser_check_segmented(module, "fuser-lower-kernels")) return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_kernel(op)) ok &= fuser_lower_kernel_for(op, strcmp(target, "gpu") == 0);
  return ok;
}

const fuser_pass_info fuser_lower_kernels_pass = {
    .argument = "fuser-lower-kernels",
    .description = "Lower kernel functions to loop-level functions (scf/vector/memref/arith/math), one per variant of their schedule",
    .anchor = "builtin.module",
    .options = {{"target", "gpu", "gpu or cpu: the form of the row schedules' block reductions (row_gen.h)"}},
    .run = run,
};
