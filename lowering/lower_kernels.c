/* fuser-lower-kernels: kernel functions -> loop-level functions.
 *
 * For each `fuser.kernel` function (vectorized by fuser-vectorize; run here
 * when its attributes are missing) emits, right after it, one loop-level
 * func.func per variant:
 *   @<kernel>__vector  width W, with the kernel's fuser.vector_conditions
 *   @<kernel>__rows    when the vector variant merges dims under run-time
 *                      `merge` conditions: vectors along the last statically
 *                      contiguous run, with fuser.row_width/row_conditions
 *   @<kernel>__scalar  width 1, no conditions (only when the vector variant
 *                      has conditions, or W is 1)
 * Each takes one `memref<1xT>` per tensor (arguments, then results), then
 * the `?` sizes, run-time strides and scalars it needs as index/scalar
 * parameters (attribute fuser.params says which), and holds
 *   scf.parallel (%t) over threads { scf.for over `unroll` vectors of W
 *   points; a grid-stride scalar tail }
 * with memref.load / vector.load {alignment}, f32 arithmetic, scf.if for
 * cat/pad. The kernel function itself stays (the plan calls it).
 *
 *   func.func private @f_k0(%a: tensor<16xbf16> {fuser.strides = array<i64: 1>}) -> ... {fuser.kernel, ...}
 * gains
 *   func.func @f_k0__vector(%ptr_t0: memref<1xbf16>, %ptr_t1: memref<1xbf16>) attributes {fuser.loops, ...} {
 *     %mem_t0 = memref.reinterpret_cast %ptr_t0 to offset: [0], sizes: [%c1], strides: [1] ...
 *     scf.parallel (%t) = (%c0) to (%nthreads) step (%c1) { ... vector.load %mem_t0[%e] {alignment = 16 : i64} ... }
 *   }
 *
 * Options: unroll (default 0 = chosen per kernel: 1, or 4 when its arithmetic
 * per byte moved makes it compute-bound; measured on the H200,
 * docs/lowering.md): vectors per thread in the vector variant;
 * scalar-unroll (default 1): elements per thread in the scalar variant. */
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen.h"
#include "lowering/lowering.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/pass.h"
#include "passes/vectorize.h"
#include "lowering/row_gen.h"
#include "passes/schedule_reduction.h"

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static void print_to_strbuf(MlirStringRef s, void *user) {
  sb_printf((strbuf *)user, "%.*s", (int)s.length, s.data);
}

/* Emits one variant as text, parses it and inserts it after `after`. */
static bool emit_variant(fk_kernel *k, const fk_codegen_options *opts, MlirOperation *after) {
  strbuf text = {0};
  fk_param params[FK_MAX_PARAMS];
  int np = 0;
  bool ok = fk_codegen(k, opts, &text, params, &np);
  if (ok) {
    MlirContext ctx = mlirOperationGetContext(k->func);
    MlirOperation f = mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(text.data),
                                               mlirStringRefCreateFromCString("fuser-lower-kernels"));
    if (mlirOperationIsNull(f)) {
      mlirEmitError(mlirOperationGetLocation(k->func), "fuser-lower-kernels: generated loop IR does not parse (a bug)");
      if (getenv("FUSER_DUMP_LOOPS")) fputs(text.data, stderr);
      ok = false;
    } else {
      mlirOperationSetLocation(f, mlirOperationGetLocation(k->func));
      MlirBlock block = mlirOperationGetBlock(*after);
      mlirBlockInsertOwnedOperationAfter(block, *after, f);
      *after = f;
    }
  }
  sb_free(&text);
  return ok;
}

/* A scalar tail is needed only when the vectors run over the whole
 * iteration space (one flattened group) and its size is not known to be a
 * multiple of W; otherwise the run's extent is (statically or by condition). */
static bool needs_tail(const fk_kernel *k, MlirOperation func, int width) {
  MlirAttribute groups = attr(func, "fuser.flat_groups");
  if (mlirAttributeIsNull(groups) || mlirArrayAttrGetNumElements(groups) != 1) return false;
  int64_t n = 1;
  for (int d = 0; d < k->rank; d++) {
    if (k->extent[d] == FK_DYN) return true;
    n *= k->extent[d];
  }
  return n % width != 0;
}

/* Whether fuser-vectorize flattened the whole iteration space into one
 * group for the vector variant. (With a cat or pad boundary inside, the
 * boundary still needs its own dim's index: not flat.) */
static bool one_group(MlirOperation func) {
  MlirAttribute groups = attr(func, "fuser.flat_groups");
  return !mlirAttributeIsNull(groups) && mlirArrayAttrGetNumElements(groups) == 1;
}

/* Instructions per byte moved above which a kernel is compute-bound on the
 * H200 (~1 TB/s of bf16 elements in and out against ~33 T lane-instructions/s:
 * ~8 per byte at full bandwidth; lower, as the loads must also be issued). */
#define COMPUTE_BOUND_COST_PER_BYTE 4

/* Threads that fill the H100/H200: 132 SMs x 2048 resident threads. */
#define FULL_GPU_THREADS (132 * 2048)

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

/* The unroll when none is asked for (unroll=0). A memory-bound kernel keeps
 * one vector per thread (RoPE: unroll 1 was the fastest, docs/lowering.md);
 * one whose arithmetic per byte moved is high enough to limit it at full
 * bandwidth (gelu's tanh: ~7 instructions per byte) gets 4 vectors per thread,
 * so that each thread has independent work to overlap with its loads. */
static int64_t tensor_bytes(MlirType t) {
  if (!mlirTypeIsARankedTensor(t)) return 0;
  return (int64_t)fuser_dtype_size(fuser_dtype_of_type(mlirShapedTypeGetElementType(t)));
}

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

/* A kernel with a row schedule (inner persistent or inner reduce) gets its
 * row variants (lowering/row_gen.h); *done says whether it did. */
static bool lower_row_kernel(MlirOperation func, bool gpu, bool *done) {
  *done = false;
  fuser_reduction_schedule s;
  fuser_schedule_reduction_kernel(func, &s);
  if (s.kind == FUSER_SCHED_NONE) return true;
  fuser_schedule_attach(func, &s);
  MlirOperation after = func;
  bool unsupported = false;
  if (!fuser_row_kernel_lower(func, &s, gpu, &after, &unsupported)) return unsupported; /* else a located error */
  *done = true;
  if (s.kind != FUSER_SCHED_OUTER) return true;
  /* outer: the per-point variants follow as the fallback for strides that
   * do not merge (they go right after the kernel: move them after ours) */
  MlirOperation first = mlirOperationGetNextInBlock(func);
  if (!fuser_lower_kernel(func, 0, 1)) return false;
  MlirOperation op = mlirOperationGetNextInBlock(func);
  while (!mlirOperationEqual(op, first)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveAfter(op, after);
    after = op;
    op = next;
  }
  return true;
}

bool fuser_lower_kernel_for(MlirOperation func, int unroll, int scalar_unroll, bool gpu) {
  bool done = false;
  if (!lower_row_kernel(func, gpu, &done)) return false;
  if (done) return true;
  return fuser_lower_kernel(func, unroll, scalar_unroll);
}

bool fuser_lower_kernel(MlirOperation func, int unroll, int scalar_unroll) {
  if (mlirAttributeIsNull(attr(func, "fuser.vector_width")) && !fuser_vectorize_kernel(func, 16)) return false;
  bool chosen = unroll == 0;
  if (chosen) unroll = auto_unroll(func);
  fk_kernel *k = malloc(sizeof *k);
  bool ok = fk_kernel_read(func, k) && fk_kernel_analyze(k); /* accesses and cat/pad boundaries */
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
    fill = (int64_t)FULL_GPU_THREADS * unroll * mlirIntegerAttrGetValueInt(attr(func, "fuser.vector_width"));
    if (!dynamic && points < fill) unroll = 1;
    if (!dynamic) fill = 0;
  }
  int width = (int)mlirIntegerAttrGetValueInt(attr(func, "fuser.vector_width"));
  int index_bits = (int)mlirIntegerAttrGetValueInt(attr(func, "fuser.index_bits"));
  MlirAttribute conds = attr(func, "fuser.vector_conditions");
  bool has_conditions = !mlirAttributeIsNull(conds) && mlirArrayAttrGetNumElements(conds) > 0;
  MlirOperation after = func;
  if (ok && width > 1) {
    strbuf extra = {0};
    sb_append(&extra, "fuser.vector_conditions = ");
    if (mlirAttributeIsNull(conds)) sb_append(&extra, "[]");
    else mlirAttributePrint(conds, print_to_strbuf, &extra);
    bool index32 = extra.data && strstr(extra.data, "index32");
    fk_codegen_options o = {.width = width, .unroll = unroll, .index_bits = index32 ? 32 : index_bits,
                            .tail = needs_tail(k, func, width), .flat = one_group(func) && k->num_boundaries == 0, .variant = "vector",
                            .extra_attrs = extra.data};
    if (fill > 0) {
      /* the unrolled variant: the same conditions and enough points */
      strbuf more = {0};
      size_t close = extra.len - 1; /* the list's `]` */
      sb_printf(&more, "%.*s%s{at_least = %lld : i64, kind = \"points\", result = 0 : i64}]", (int)close, extra.data,
                extra.data[close - 1] == '[' ? "" : ", ", (long long)fill);
      o.extra_attrs = more.data;
      ok = emit_variant(k, &o, &after);
      sb_free(&more);
      o.unroll = 1;
      o.variant = "vector_u1";
      o.extra_attrs = extra.data;
    }
    ok = ok && emit_variant(k, &o, &after);
    sb_free(&extra);
  }
  MlirAttribute row_width = attr(func, "fuser.row_width");
  if (ok && !mlirAttributeIsNull(row_width) && mlirIntegerAttrGetValueInt(row_width) > 1) {
    /* the dims merged for the vector variant only at run time: vectors along
     * the last static run instead, under that plan's own conditions */
    strbuf extra = {0};
    sb_append(&extra, "fuser.vector_conditions = ");
    mlirAttributePrint(attr(func, "fuser.row_conditions"), print_to_strbuf, &extra);
    bool index32 = strstr(extra.data, "index32") != NULL;
    fk_codegen_options o = {.width = (int)mlirIntegerAttrGetValueInt(row_width), .unroll = fill > 0 ? 1 : unroll,
                            .index_bits = index32 ? 32 : index_bits, .tail = false, .variant = "rows",
                            .extra_attrs = extra.data};
    ok = emit_variant(k, &o, &after);
    sb_free(&extra);
  }
  if (ok && (width == 1 || has_conditions)) {
    fk_codegen_options o = {.width = 1, .unroll = scalar_unroll, .index_bits = index_bits, .variant = "scalar",
                            .extra_attrs = "fuser.vector_conditions = []"};
    ok = emit_variant(k, &o, &after);
  }
  free(k);
  return ok;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  int unroll = (int)fuser_pass_option_int(options, "unroll");
  int scalar_unroll = (int)fuser_pass_option_int(options, "scalar-unroll");
  const char *target = fuser_pass_option_str(options, "target");
  if (strcmp(target, "gpu") != 0 && strcmp(target, "cpu") != 0) {
    mlirEmitError(mlirOperationGetLocation(module), "fuser-lower-kernels: target must be gpu or cpu");
    return false;
  }
  if (unroll < 0 || scalar_unroll < 1) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "fuser-lower-kernels: unroll must be >= 0 (0: chosen per kernel) and scalar-unroll >= 1");
    return false;
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_kernel(op)) ok &= fuser_lower_kernel_for(op, unroll, scalar_unroll, strcmp(target, "gpu") == 0);
  return ok;
}

const fuser_pass_info fuser_lower_kernels_pass = {
    .argument = "fuser-lower-kernels",
    .description = "Lower kernel functions to loop-level functions (scf/vector/memref/arith/math), one per variant",
    .anchor = "builtin.module",
    .options = {{"unroll", "0", "vectors per thread in the vector variant (0: 1, or 4 for compute-bound kernels)"},
                {"scalar-unroll", "1", "elements per thread in the scalar variant"},
                {"target", "gpu", "gpu or cpu: the form of the row schedules' block reductions (row_gen.h)"}},
    .run = run,
};
