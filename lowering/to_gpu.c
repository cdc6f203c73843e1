/* fuser-kernels-to-gpu: loop-level functions -> gpu.module/gpu.func.
 *
 * Each `fuser.loops` function @f becomes the kernel `gpu.func @f` with the
 * same parameters, in `gpu.module @fuser_kernels_i32` or `@fuser_kernels_i64`
 * following its fuser.index_bits (the module's DLTI index width; one module
 * per width keeps the PTX compile to one LLVM module). The bare-pointer ABI:
 * a `memref<1xT>` is one pointer, index parameters are u32 or u64.
 * The scf.parallel over threads is replaced by its body, with the thread
 * number t = block_id.x * block_dim.x + thread_id.x; the body's own guard
 * t < nthreads covers the rounded-up grid.
 *
 * The launch description goes on the gpu.func (fuser.* attributes) and, so
 * that it survives gpu-module-to-binary, into the module attribute
 * `fuser.launches`: one dictionary per kernel variant, in module order:
 *   {binary = "fuser_kernels_i32", entry = "f_k0__vector", kernel = "f_k0", variant = "vector",
 *    vector_width = 8, unroll = 1, index_bits = 32, block_size = 128,
 *    num_args = 6, params = ["ptr(t0)", ..., "size(t6,0)"],
 *    conditions = [{arg = 0 : i64, kind = "align", bytes = 16 : i64}, ...]}
 * threads = max(ceil((n / W) / unroll), n mod W), n = points of the
 * iteration space (product of the sizes of result 0), grid = ceil(threads /
 * block_size) blocks of block_size threads.
 *
 * Options: block-size (default 128). */
#include <stdio.h>
#include <string.h>

#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
#include "lowering/strbuf.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/pass.h"
#include "lowering/row_gen.h"

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static bool has_name(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* The gpu.module holding kernels of index width `bits`, created on first use
 * at the end of the module body. */
static MlirOperation module_for(MlirOperation module, MlirOperation *mods, int bits) {
  int slot = bits == 32 ? 0 : 1;
  if (!mlirOperationIsNull(mods[slot])) return mods[slot];
  char text[256];
  snprintf(text, sizeof text,
           "gpu.module @fuser_kernels_i%d attributes {dlti.dl_spec = #dlti.dl_spec<index = %d : i64>} {\n}\n", bits, bits);
  MlirContext ctx = mlirOperationGetContext(module);
  MlirOperation m = mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(text),
                                             mlirStringRefCreateFromCString("fuser-kernels-to-gpu"));
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), m);
  return mods[slot] = m;
}

/* Builds the gpu.func for loop-level function f inside gpu.module `gmod`. */
static bool convert(MlirOperation f, MlirOperation gmod, int block, strbuf *launches) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
  MlirStringRef modname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(gmod, mlirStringRefCreateFromCString("sym_name")));
  char name[256], binary[256];
  snprintf(name, sizeof name, "%.*s", (int)sym.length, sym.data);
  snprintf(binary, sizeof binary, "%.*s", (int)modname.length, modname.data);
  MlirBlock fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  strbuf text = {0};
  sb_printf(&text, "gpu.func @%s(", name);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(fbody); i++) {
    sb_printf(&text, "%s%%a%ld: ", i ? ", " : "", (long)i);
    mlirTypePrint(mlirValueGetType(mlirBlockGetArgument(fbody, i)), fuser_print_to_strbuf, &text);
  }
  sb_printf(&text, ") kernel attributes {fuser.launch = ");
  fuser_launch_dict_text(f, binary, name, block, &text);
  sb_append(&text, "} {\n"
                   "    %bid = gpu.block_id x\n    %bdim = gpu.block_dim x\n    %tid = gpu.thread_id x\n"
                   "    %t0 = arith.muli %bid, %bdim : index\n    %t = arith.addi %t0, %tid : index\n"
                   "    gpu.return\n  }\n");
  if (launches->len) sb_append(launches, ", ");
  fuser_launch_dict_text(f, binary, name, block, launches);
  /* a gpu.func parses only inside a gpu.module: parse a wrapper, move it out */
  strbuf wrap = {0};
  sb_printf(&wrap, "gpu.module @wrapper {\n%s}\n", text.data);
  MlirOperation tmp = mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(wrap.data),
                                               mlirStringRefCreateFromCString("fuser-kernels-to-gpu"));
  sb_free(&text);
  sb_free(&wrap);
  if (mlirOperationIsNull(tmp)) return false;
  MlirOperation gfunc = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(tmp, 0)));
  mlirOperationRemoveFromParent(gfunc);
  mlirOperationDestroy(tmp);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(gmod, 0)), gfunc);
  mlirOperationSetLocation(gfunc, mlirOperationGetLocation(f));
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
  return true;
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
  MlirOperation mods[2] = {{NULL}, {NULL}};
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (has_name(op, "func.func") && !mlirAttributeIsNull(attr(op, "fuser.loops"))) {
      MlirAttribute bits = attr(op, "fuser.index_bits");
      MlirOperation gmod = module_for(module, mods, !mlirAttributeIsNull(bits) && mlirIntegerAttrGetValueInt(bits) == 32 ? 32 : 64);
      MlirStringRef mn = mlirStringAttrGetValue(mlirOperationGetAttributeByName(gmod, mlirStringRefCreateFromCString("sym_name")));
      char binary[64];
      snprintf(binary, sizeof binary, "%.*s", (int)mn.length, mn.data);
      if (fuser_is_row_kernel(op) ? !fuser_row_kernel_to_gpu(op, gmod, binary, &launches) : !convert(op, gmod, block, &launches)) {
        mlirEmitError(mlirOperationGetLocation(op), "fuser-kernels-to-gpu: cannot build the gpu.func (a bug)");
        ok = false;
      } else {
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
    .options = {{"block-size", "128", "threads per block"}},
    .run = run,
};
