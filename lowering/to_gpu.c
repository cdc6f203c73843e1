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
 *   {entry = @fuser_kernels_i32::@f_k0__vector, kernel = @f_k0, variant = "vector",
 *    vector_width = 8, unroll = 1, index_bits = 32, block_size = 128,
 *    num_args = 6, params = [{ptr = 0 : i64}, ..., {size = array<i64: 6, 0>}] (launch_param.h),
 *    conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, ...]}
 * entry is the gpu.func in its gpu.module (gpu-module-to-binary keeps the
 * module's name for the gpu.binary), kernel the plan's kernel function; the
 * variant is the name messages, dumps and the CPU check's forced variant use.
 * threads = max(ceil((n / W) / unroll), n mod W), n = points of the
 * iteration space (product of the sizes of result 0), grid = ceil(threads /
 * block_size) blocks of block_size threads.
 *
 * Built through the op builder (lowering/builder.h): the thread number is
 * the value it makes, not an op found by position.
 *
 *   func.func @f_k0__vector(%arg0: memref<1xbf16>, ...) attributes {fuser.loops, fuser.block_size = 128 : i64, ...} {
 *     ... scf.parallel (%t) = (%c0) to (%n) step (%c1) { BODY(%t) } ...
 *   }
 * becomes
 *   gpu.module @fuser_kernels_i32 attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
 *     gpu.func @f_k0__vector(%arg0: memref<1xbf16>, ...) kernel attributes {fuser.launch = {...}} {
 *       %0 = gpu.block_id  x
 *       %1 = gpu.block_dim  x
 *       %2 = gpu.thread_id  x
 *       %t = arith.addi (arith.muli %0, %1), %2 ... BODY(%t)
 *       gpu.return
 *     }
 *   }
 *
 * Options: block-size (default 0: each function's fuser.block_size, from
 * its schedule; 128 without one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builder.h"
#include "lowering/launch_plan.h"
#include "lowering/row_gen.h"
#include "lowering/special_fns.h"
#include "lowering/lowering.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/kernel_info.h"
#include "passes/pass.h"

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static bool has_name(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* The gpu.module holding kernels of index width `bits`, created on first use
 * at the end of the module body. */
static MlirOperation module_for(fb_builder *b, MlirOperation module, MlirOperation *mods, int bits) {
  int slot = bits == 32 ? 0 : 1;
  if (!mlirOperationIsNull(mods[slot])) return mods[slot];
  char name[64];
  snprintf(name, sizeof name, "fuser_kernels_i%d", bits);
  fb_set_ip(b, fb_ip_end(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0))));
  return mods[slot] = fb_gpu_module(b, name, bits);
}

static void copy_name(MlirOperation op, char *out, size_t len) {
  MlirStringRef s = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name")));
  snprintf(out, len, "%.*s", (int)s.length, s.data);
}

/* Builds the gpu.func for loop-level function f inside gpu.module `gmod`;
 * returns its launch dictionary. */
static MlirAttribute convert(fb_builder *b, MlirOperation f, MlirOperation gmod, int block) {
  char name[512], binary[64];
  copy_name(f, name, sizeof name);
  copy_name(gmod, binary, sizeof binary);
  MlirBlock fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  int nargs = (int)mlirBlockGetNumArguments(fbody);
  MlirType stack[64];
  MlirType *types = nargs > 64 ? malloc((size_t)nargs * sizeof *types) : stack;
  for (int i = 0; i < nargs; i++) types[i] = mlirValueGetType(mlirBlockGetArgument(fbody, i));
  fb_set_loc(b, mlirOperationGetLocation(f));
  fb_set_ip(b, fb_ip_end(fb_body(gmod)));
  MlirOperation gfunc = fb_gpu_func(b, name, nargs, types, 0, NULL, true);
  if (types != stack) free(types);
  MlirAttribute launch = fuser_launch_dict(f, binary, name, block);
  mlirOperationSetDiscardableAttributeByName(gfunc, mlirStringRefCreateFromCString("fuser.launch"), launch);
  MlirBlock gbody = fb_body(gfunc);
  MlirOperation ret = mlirBlockGetTerminator(gbody);
  fb_set_ip(b, fb_ip_before(ret));
  MlirValue bid = fb_block_id(b, 'x'), bdim = fb_block_dim(b, 'x'), tid = fb_thread_id(b, 'x');
  MlirValue t = fb_binary(b, "arith.addi", fb_binary(b, "arith.muli", bid, bdim), tid);
  for (int i = 0; i < nargs; i++) mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, i), mlirBlockGetArgument(gbody, i));
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
  return launch;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  int block = (int)fuser_pass_option_int(options, "block-size");
  if (block < 0 || block > 1024) {
    mlirEmitError(mlirOperationGetLocation(module), "fuser-kernels-to-gpu: block-size must be in [1, 1024] (0: the schedule's)");
    return false;
  }
  if (!fuser_check_segmented(module, "fuser-kernels-to-gpu")) return false;
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  fb_builder b;
  fb_init(&b, ctx, mlirOperationGetLocation(module));
  int nlaunch = 0, caplaunch = 16;
  MlirAttribute *launches = malloc((size_t)caplaunch * sizeof *launches);
  MlirOperation first_kernel = {NULL};
  MlirOperation mods[2] = {{NULL}, {NULL}};
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (mlirOperationIsNull(first_kernel) && fuser_is_kernel(op)) first_kernel = op;
    if (fuser_is_loops_func(op)) {
      MlirAttribute bits = attr(op, "fuser.index_bits"), fblock = attr(op, "fuser.block_size");
      int this_block = block ? block : mlirAttributeIsNull(fblock) ? 128 : (int)mlirIntegerAttrGetValueInt(fblock);
      MlirOperation gmod = module_for(&b, module, mods, !mlirAttributeIsNull(bits) && mlirIntegerAttrGetValueInt(bits) == 32 ? 32 : 64);
      if (nlaunch == caplaunch) launches = realloc(launches, (size_t)(caplaunch *= 2) * sizeof *launches);
      /* a row kernel's block is its schedule's (threads x rows per block):
       * the block-size option does not apply to it */
      launches[nlaunch++] = fuser_is_row_kernel(op) ? fuser_row_kernel_to_gpu(&b, op, gmod) : convert(&b, op, gmod, this_block);
      mlirOperationDestroy(op);
    }
    op = next;
  }
  for (int m = 0; m < 2; m++)
    if (!mlirOperationIsNull(mods[m])) fuser_special_fns_to_libdevice(mods[m]);
  fuser_special_fns_erase_decls(module);
  if (nlaunch) {
    mlirOperationSetDiscardableAttributeByName(module, mlirStringRefCreateFromCString("gpu.container_module"),
                                               mlirUnitAttrGet(ctx));
    mlirOperationSetDiscardableAttributeByName(module, mlirStringRefCreateFromCString("fuser.launches"),
                                               mlirArrayAttrGet(ctx, nlaunch, launches));
  } else if (!mlirOperationIsNull(first_kernel)) {
    /* kernels but no loop-level functions: the lowering has not run */
    mlirEmitError(mlirOperationGetLocation(first_kernel),
                  "fuser-kernels-to-gpu: kernel functions but no loop-level functions (run fuser-lower-kernels first)");
    free(launches);
    fb_free(&b);
    return false;
  }
  free(launches);
  fb_free(&b);
  return true;
}

const fuser_pass_info fuser_kernels_to_gpu_pass = {
    .argument = "fuser-kernels-to-gpu",
    .description = "Turn loop-level kernel functions into gpu.module/gpu.func with the bare-pointer ABI",
    .anchor = "builtin.module",
    .options = {{"block-size", "0", "threads per block (0: each function's fuser.block_size, from its schedule)"}},
    .run = run,
};
