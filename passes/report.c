/* fuser-report: prints what segmentation and vectorization decided (see
 * report.h). It changes nothing.
 *
 *   fusion @f: 1 kernel, 0 alias outputs
 *     kernel @f_k0  (fusion output)
 *       ops: cast neg cast cat ...
 *       in:  tensor<2x16x1024x16xbf16> strides [589824, 32, 576, 1]
 *       out: tensor<2x16x1024x32xbf16> strides [524288, 32768, 32, 1]
 *       vector width: 8
 * and for a reduction kernel its schedule (passes/schedule_reduction.h):
 *       schedule: inner_persistent, rows 16384 x row length 4096
 *         variant 0: persistent, width 8, 256 threads x 2 vectors per row, 1 row per block
 */
#include "passes/report.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"
#include "passes/kernel_info.h"
#include "passes/pass.h"
#include "passes/schedule_reduction.h"
#include "passes/schedule_transpose.h"
#include "support/mlir_print.h"


static void print_strides(MlirAttribute a, FILE *out) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a)) {
    fputs(" strides ?", out);
    return;
  }
  fputs(" strides [", out);
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(a); i++) {
    int64_t v = mlirDenseI64ArrayGetElement(a, i);
    if (v == mlirShapedTypeGetDynamicSize()) fprintf(out, "%s?", i ? ", " : "");
    else fprintf(out, "%s%lld", i ? ", " : "", (long long)v);
  }
  fputs("]", out);
}

static MlirOperation lookup_func(MlirOperation module, MlirStringRef name) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute n = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(n)) continue;
    MlirStringRef s = mlirStringAttrGetValue(n);
    if (s.length == name.length && memcmp(s.data, name.data, s.length) == 0) return op;
  }
  return (MlirOperation){NULL};
}

static void report_kernel(MlirOperation kernel, MlirOperation call, FILE *out) {
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(kernel, mlirStringRefCreateFromCString("sym_name")));
  fprintf(out, "  kernel @%.*s  (", (int)name.length, name.data);
  MlirAttribute cuts = mlirOperationGetDiscardableAttributeByName(call, mlirStringRefCreateFromCString("fuser.cuts"));
  for (intptr_t i = 0; !mlirAttributeIsNull(cuts) && i < mlirArrayAttrGetNumElements(cuts); i++) {
    MlirStringRef c = mlirStringAttrGetValue(mlirArrayAttrGetElement(cuts, i));
    fprintf(out, "%s%.*s", i ? "; " : "", (int)c.length, c.data);
  }
  fputs(")\n", out);
  /* fuser-fuse-inner-outer left this column kernel apart from its rows kernel */
  MlirAttribute io = mlirOperationGetDiscardableAttributeByName(call, mlirStringRefCreateFromCString("fuser.inner_outer"));
  if (!mlirAttributeIsNull(io) && mlirAttributeIsAString(io)) {
    MlirStringRef w = mlirStringAttrGetValue(io);
    fprintf(out, "    inner-outer: %.*s\n", (int)w.length, w.data);
  }
  fputs("    ops:", out);
  MlirBlock body = fuser_func_body(kernel);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    if (id != FUSER_OP_NONE && id != FUSER_OP_scalar) fprintf(out, " %s", fuser_op_mnemonic(id));
  }
  fputc('\n', out);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirValue a = mlirBlockGetArgument(body, i);
    fputs("    in:  ", out);
    mlirTypePrint(mlirValueGetType(a), fuser_print_to_file, out);
    if (mlirTypeIsARankedTensor(mlirValueGetType(a))) print_strides(fuser_func_arg_attr(kernel, (int)i, "fuser.strides"), out);
    fputc('\n', out);
  }
  MlirOperation ret = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    fputs("    out: ", out);
    mlirTypePrint(mlirValueGetType(mlirOperationGetOperand(ret, i)), fuser_print_to_file, out);
    print_strides(fuser_func_result_attr(kernel, (int)i, "fuser.strides"), out);
    fputc('\n', out);
  }
  int64_t width;
  fuser_reduction_schedule s;
  fuser_schedule_reduction_kernel(kernel, &s);
  if (s.kind != FUSER_SCHED_NONE) {
    /* a row schedule (passes/schedule_reduction.h): its variants, in order */
    bool columns = s.kind == FUSER_SCHED_OUTER || s.kind == FUSER_SCHED_OUTER_PERSISTENT;
    fprintf(out, "    schedule: %s, %s", fuser_sched_kind_name(s.kind), columns ? "reduced rows" : "rows");
    if (s.rows == INT64_MIN) fputs(" ?", out);
    else fprintf(out, " %lld", (long long)s.rows);
    fputs(columns ? " x columns" : " x row length", out);
    if (s.row_len == INT64_MIN) fputs(" ?\n", out);
    else fprintf(out, " %lld\n", (long long)s.row_len);
    if (s.kind == FUSER_SCHED_INNER_OUTER)
      fprintf(out, "      partials: %lld row groups of %lld rows, each group's column sums in registers (one f32 row per group)\n",
              (long long)s.partials, (long long)(s.rows / s.partials));
    if (s.batch > 0)
      fprintf(out, "      batched: dims [%d, %d) reduced, the %d dim%s before them kept (columns = batch x trailing dims)\n", s.batch,
              s.batch + s.outer, s.batch, s.batch == 1 ? "" : "s");
    for (int i = 0; i < s.num_variants; i++) {
      const fuser_row_variant *v = &s.variants[i];
      if (s.kind == FUSER_SCHED_OUTER_PERSISTENT) {
        fprintf(out, "      variant %d: held, width %d, %d column vectors x %d row groups per block, %d rows held per thread\n", i,
                v->width, v->rows_per_block, v->threads, v->vectors);
      } else if (s.kind == FUSER_SCHED_OUTER) {
        fprintf(out, "      variant %d: width %d, %d column vectors x %d row groups per block, %d rows in flight", i, v->width,
                v->rows_per_block, v->threads, v->vectors);
        if (v->min_points > 0) fprintf(out, ", when the kept shape has at least %lld points", (long long)v->min_points);
        fputc('\n', out);
      } else if (v->vectors > 0 && v->cluster > 1)
        fprintf(out, "      variant %d: persistent over a cluster of %d blocks per row, width %d, %d threads x %d vectors per block%s\n", i,
                v->cluster, v->width, v->threads, v->vectors, v->reload ? ", re-read for each pass" : "");
      else if (v->vectors > 0)
        fprintf(out, "      variant %d: persistent, width %d, %d threads x %d vectors per row, %d row%s per block%s%s\n", i, v->width,
                v->threads, v->vectors, v->rows_per_block, v->rows_per_block == 1 ? "" : "s", v->reload ? ", re-read for each pass" : "",
                v->prefetch ? ", the epilogue's loads before the reduction" : "");
      else if (v->cluster > 1 && v->min_row_length > 0)
        fprintf(out, "      variant %d: looped over a cluster of %d blocks per row, width %d, %d threads per block, when the row has at least %lld elements\n",
                i, v->cluster, v->width, v->threads, (long long)v->min_row_length);
      else if (v->cluster > 1)
        fprintf(out, "      variant %d: looped over a cluster of %d blocks per row, width %d, %d threads per block\n", i, v->cluster,
                v->width, v->threads);
      else if (v->min_points > 0)
        fprintf(out, "      variant %d: looped, width %d, %d threads per row, %d rows per block, when there are at least %lld rows\n", i,
                v->width, v->threads, v->rows_per_block, (long long)v->min_points);
      else
        fprintf(out, "      variant %d: looped, width %d, %d threads per row\n", i, v->width, v->threads);
    }
    if (s.kind == FUSER_SCHED_OUTER && (s.num_variants == 0 || s.variants[s.num_variants - 1].width > 1))
      fputs("      then the per-point kernel (no conditions)\n", out);
  } else if (strcmp(s.why, "no reduction") != 0) {
    fprintf(out, "    schedule: none (%s): the per-point kernel\n", s.why);
  }
  if (s.kind == FUSER_SCHED_NONE && strcmp(s.why, "no reduction") == 0) {
    /* the transpose schedule (passes/schedule_transpose.h): wherever there
     * is a tile plan, as fuser-schedule decides */
    fk_kernel *k = malloc(sizeof *k);
    fuser_tile_plan tp;
    if (fk_kernel_read(kernel, k) && fk_kernel_analyze(k) && fuser_tile_plan_of(k, &tp)) {
      fk_condition_list mc = {0};
      if (fuser_tile_groups(k, &tp, &mc))
        fprintf(out, "    schedule: transpose, %d x %d tiles of iteration dims %d..%d and %d..%d, each group merged into one "
                     "dim%s, through shared memory, %d tiled input%s, %d threads x %d vectors of %d per phase; %sthen the "
                     "per-point kernel\n",
                tp.tile, tp.tile, tp.a_lo, tp.tile_dim, tp.b_lo, k->rank - 1, mc.n ? " where the strides allow" : "", tp.ntiled,
                tp.ntiled == 1 ? "" : "s", tp.threads, tp.vectors, tp.width,
                mc.n ? "else tiles of the single dims (tile_dims); " : "");
      else
        fprintf(out, "    schedule: transpose, %d x %d tiles of iteration dims %d and %d through shared memory, %d tiled input%s, "
                     "%d threads x %d vectors of %d per phase; then the per-point kernel\n",
                tp.tile, tp.tile, tp.tile_dim, k->rank - 1, tp.ntiled, tp.ntiled == 1 ? "" : "s", tp.threads, tp.vectors, tp.width);
      fk_conditions_free(&mc);
    }
    fk_kernel_free(k);
    free(k);
  }
  if (fuser_get_i64(kernel, "fuser.vector_width", &width)) fprintf(out, "    vector width: %lld\n", (long long)width);
  else if (s.kind == FUSER_SCHED_NONE) fputs("    vector width: not decided (run fuser-vectorize)\n", out);
  MlirAttribute cond = mlirOperationGetDiscardableAttributeByName(kernel, mlirStringRefCreateFromCString("fuser.vector_conditions"));
  if (!mlirAttributeIsNull(cond)) {
    fputs("    run-time conditions: ", out);
    mlirAttributePrint(cond, fuser_print_to_file, out);
    fputc('\n', out);
  }
}

typedef struct {
  MlirOperation module;
  FILE *out;
} report_state;

static bool report_fusion(MlirOperation func, void *ud) {
  report_state *st = ud;
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
  MlirBlock body = fuser_func_body(func);
  int kernels = 0, aliases = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    kernels += fuser_op_is(op, "func.call");
  MlirOperation ret = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++)
    aliases += !mlirAttributeIsNull(fuser_func_result_attr(func, (int)i, "fuser.alias_of"));
  bool planned = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.plan")));
  fprintf(st->out, "fusion @%.*s: %s%d kernel%s, %d alias output%s\n", (int)name.length, name.data,
          planned ? "" : "not segmented yet, ", kernels, kernels == 1 ? "" : "s", aliases, aliases == 1 ? "" : "s");
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!fuser_op_is(op, "func.call")) continue;
    MlirAttribute callee = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee"));
    MlirOperation k = lookup_func(st->module, mlirFlatSymbolRefAttrGetValue(callee));
    if (!mlirOperationIsNull(k)) report_kernel(k, op, st->out);
  }
  return true;
}

bool fuser_report(MlirOperation module, FILE *out) {
  if (!fuser_check_kernel_bodies(module)) return false;
  report_state st = {module, out};
  fuser_for_each_fusion(module, report_fusion, &st);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  bool ok = fuser_report(op, fuser_pass_option_bool(options, "stderr") ? stderr : stdout);
  fflush(stdout);
  return ok;
}

const fuser_pass_info fuser_report_pass = {
    .argument = "fuser-report",
    .description = "Print each fusion's kernels: ops, globals, strides, vector width, cut reasons",
    .anchor = "builtin.module",
    .options = {{"stderr", "false", "print to stderr instead of stdout"}},
    .run = run,
};
