/* fuser-kernels-to-gpu: loop-level functions -> gpu.module/gpu.func.
 *
 * Each `fuser.loops` function @f becomes `gpu.module @f` holding the kernel
 * `gpu.func @f` with the same parameters (the bare-pointer ABI: a
 * `memref<1xT>` is one pointer, index parameters are u32 or u64 following
 * the module's index width, given as a DLTI spec from fuser.index_bits).
 * The scf.parallel over threads is replaced by its body, with the thread
 * number t = block_id.x * block_dim.x + thread_id.x; the body's own guard
 * t < nthreads covers the rounded-up grid.
 *
 * The launch description goes on the gpu.func (fuser.* attributes) and, so
 * that it survives gpu-module-to-binary, into the module attribute
 * `fuser.launches`: one dictionary per kernel variant, in module order:
 *   {binary = "f_k0__vector", kernel = "f_k0", variant = "vector",
 *    vector_width = 8, unroll = 2, index_bits = 32, block_size = 256,
 *    num_args = 6, params = ["ptr(t0)", ..., "size(t6,0)"],
 *    conditions = [{arg = 0 : i64, kind = "align", bytes = 16 : i64}, ...]}
 * threads = max(ceil((n / W) / unroll), n mod W), n = points of the
 * iteration space (product of the sizes of result 0), grid = ceil(threads /
 * block_size) blocks of block_size threads.
 *
 * Options: block-size (default 256). */
#include <stdio.h>
#include <string.h>

#include "lowering/lowering.h"
#include "lowering/strbuf.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/pass.h"

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static bool has_name(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

static void print_to_strbuf(MlirStringRef s, void *user) { sb_printf((strbuf *)user, "%.*s", (int)s.length, s.data); }

static void print_attr(strbuf *b, MlirAttribute a) {
  if (mlirAttributeIsNull(a)) sb_append(b, "[]");
  else mlirAttributePrint(a, print_to_strbuf, b);
}

static int64_t int_attr(MlirOperation op, const char *name) {
  MlirAttribute a = attr(op, name);
  return mlirAttributeIsNull(a) ? 0 : mlirIntegerAttrGetValueInt(a);
}

/* The launch dictionary of one loop-level function. */
static void launch_dict(MlirOperation f, const char *name, int block, strbuf *b) {
  MlirStringRef kernel = mlirStringAttrGetValue(attr(f, "fuser.kernel_name"));
  MlirStringRef variant = mlirStringAttrGetValue(attr(f, "fuser.variant"));
  sb_printf(b, "{binary = \"%s\", kernel = \"%.*s\", variant = \"%.*s\", vector_width = %lld : i64, unroll = %lld : i64, "
               "index_bits = %lld : i64, block_size = %d : i64, num_args = %lld : i64, params = ",
            name, (int)kernel.length, kernel.data, (int)variant.length, variant.data,
            (long long)int_attr(f, "fuser.vector_width"), (long long)int_attr(f, "fuser.unroll"),
            (long long)int_attr(f, "fuser.index_bits"), block, (long long)int_attr(f, "fuser.num_args"));
  print_attr(b, attr(f, "fuser.params"));
  sb_append(b, ", conditions = ");
  print_attr(b, attr(f, "fuser.vector_conditions"));
  sb_append(b, "}");
}

/* Builds the gpu.module for loop-level function f; returns it (not inserted). */
static MlirOperation convert(MlirOperation f, int block, strbuf *launches) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)sym.length, sym.data);
  MlirBlock fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  strbuf text = {0};
  sb_printf(&text, "gpu.module @%s attributes {dlti.dl_spec = #dlti.dl_spec<index = %lld : i64>} {\n", name,
            (long long)int_attr(f, "fuser.index_bits"));
  sb_printf(&text, "  gpu.func @%s(", name);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(fbody); i++) {
    sb_printf(&text, "%s%%a%ld: ", i ? ", " : "", (long)i);
    mlirTypePrint(mlirValueGetType(mlirBlockGetArgument(fbody, i)), print_to_strbuf, &text);
  }
  sb_printf(&text, ") kernel attributes {fuser.block_size = %d : i64, fuser.launch = ", block);
  launch_dict(f, name, block, &text);
  sb_append(&text, "} {\n"
                   "    %bid = gpu.block_id x\n    %bdim = gpu.block_dim x\n    %tid = gpu.thread_id x\n"
                   "    %t0 = arith.muli %bid, %bdim : index\n    %t = arith.addi %t0, %tid : index\n"
                   "    gpu.return\n  }\n}\n");
  if (launches->len) sb_append(launches, ", ");
  launch_dict(f, name, block, launches);
  MlirOperation mod = mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(text.data),
                                               mlirStringRefCreateFromCString("fuser-kernels-to-gpu"));
  sb_free(&text);
  if (mlirOperationIsNull(mod)) return mod;
  mlirOperationSetLocation(mod, mlirOperationGetLocation(f));
  MlirOperation gfunc = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(mod, 0)));
  MlirBlock gbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(gfunc, 0));
  MlirOperation ret = mlirBlockGetTerminator(gbody);
  MlirOperation tid_op = mlirBlockGetFirstOperation(gbody);
  for (int i = 0; i < 4; i++) tid_op = mlirOperationGetNextInBlock(tid_op);
  MlirValue t = mlirOperationGetResult(tid_op, 0);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(fbody); i++)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, i), mlirBlockGetArgument(gbody, i));
  MlirOperation op = mlirBlockGetFirstOperation(fbody);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (has_name(op, "scf.parallel")) {
      MlirBlock pbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
      mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(pbody, 0), t);
      MlirOperation inner = mlirBlockGetFirstOperation(pbody);
      while (!mlirOperationIsNull(inner)) {
        MlirOperation inext = mlirOperationGetNextInBlock(inner);
        if (!has_name(inner, "scf.reduce")) mlirOperationMoveBefore(inner, ret);
        inner = inext;
      }
    } else if (!has_name(op, "func.return")) {
      mlirOperationMoveBefore(op, ret);
    }
    op = next;
  }
  return mod;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  int block = (int)fuser_pass_option_int(options, "block-size");
  if (block < 1 || block > 1024) {
    mlirEmitError(mlirOperationGetLocation(module), "fuser-kernels-to-gpu: block-size must be in [1, 1024]");
    return false;
  }
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  strbuf launches = {0};
  bool ok = true, any = false;
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (has_name(op, "func.func") && !mlirAttributeIsNull(attr(op, "fuser.loops"))) {
      MlirOperation mod = convert(op, block, &launches);
      if (mlirOperationIsNull(mod)) {
        mlirEmitError(mlirOperationGetLocation(op), "fuser-kernels-to-gpu: cannot build the gpu.module (a bug)");
        ok = false;
      } else {
        mlirBlockInsertOwnedOperationAfter(body, op, mod);
        mlirOperationDestroy(op);
        any = true;
      }
    }
    op = next;
  }
  if (any) {
    mlirOperationSetDiscardableAttributeByName(module, mlirStringRefCreateFromCString("gpu.container_module"),
                                               mlirUnitAttrGet(ctx));
    strbuf all = {0};
    sb_printf(&all, "[%s]", launches.data);
    mlirOperationSetDiscardableAttributeByName(module, mlirStringRefCreateFromCString("fuser.launches"),
                                               mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(all.data)));
    sb_free(&all);
  }
  sb_free(&launches);
  return ok;
}

const fuser_pass_info fuser_kernels_to_gpu_pass = {
    .argument = "fuser-kernels-to-gpu",
    .description = "Turn loop-level kernel functions into gpu.module/gpu.func with the bare-pointer ABI",
    .anchor = "builtin.module",
    .options = {{"block-size", "256", "threads per block"}},
    .run = run,
};
