/* unit_builder.c: the op builder (lowering/builder.h) builds a small
 * loop-level function and a gpu.func; the module verifies and its printed
 * form (with locations) holds the ops, folds, constants and attributes. */
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/mlir_print.h"
#include "unit.h"

static strbuf print_op(MlirOperation op) {
  strbuf t = {0};
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  mlirOperationPrintWithFlags(op, flags, fuser_print_to_strbuf, &t);
  mlirOpPrintingFlagsDestroy(flags);
  return t;
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

/* func.func @sum(%p: memref<1xf32>, %n: index): s = sum p[0..n); p[0] = s,
 * with a vector load, a compare/select and an scf.if on the way. */
static void build_loops(fb_builder *b, MlirBlock module_body) {
  MlirType f32 = fb_f32_type(b), idx = fb_index_type(b);
  MlirType args[2] = {fb_memref_1d_type(f32, 1), idx};
  fb_set_ip(b, fb_ip_end(module_body));
  MlirOperation f = fb_func(b, "sum", 2, args);
  MlirBlock entry = fb_body(f);
  fb_set_ip(b, fb_ip_in(entry));
  MlirValue p = mlirBlockGetArgument(entry, 0), n = mlirBlockGetArgument(entry, 1);
  /* constants go before the function's first op, wherever they are asked for */
  MlirValue mem = fb_reinterpret_1d(b, p, n);
  fb_set_const_ip(b, fb_ip_before(mlirOpResultGetOwner(mem)));
  MlirValue c0 = fb_const_index(b, 0), c1 = fb_const_index(b, 1);
  CHECK(mlirValueEqual(c1, fb_const_index(b, 1))); /* de-duplicated by value */
  MlirValue zero = fb_const_float(b, f32, 0.0);
  MlirOperation loop = fb_for(b, c0, n, c1, 1, &zero);
  fb_set_ip(b, fb_ip_in(fb_body(loop)));
  MlirValue i = fb_for_iv(loop);
  CHECK(mlirValueEqual(fb_muli(b, i, c1), i)); /* folds * 1 */
  CHECK(mlirValueEqual(fb_addi(b, c0, i), i)); /* folds + 0 */
  CHECK(mlirValueEqual(fb_muli(b, i, c0), c0)); /* folds * 0 */
  MlirValue x = fb_load(b, mem, fb_addi_const(b, fb_muli(b, i, fb_const_index(b, 2)), -1));
  MlirValue pos = fb_cmpf(b, FB_CMPF_OGT, x, zero);
  MlirValue y = fb_select(b, pos, x, fb_unary(b, "arith.negf", x));
  MlirOperation branch = fb_if(b, pos, 1, &f32, true);
  fb_ip after = fb_get_ip(b);
  fb_set_ip(b, fb_ip_end(fb_then(branch)));
  fb_yield(b, 1, &y);
  fb_set_ip(b, fb_ip_end(fb_else(branch)));
  fb_yield(b, 1, &x);
  fb_set_ip(b, after);
  MlirValue next = fb_binary(b, "arith.addf", fb_for_iter_arg(loop, 0), fb_result(branch, 0));
  fb_yield(b, 1, &next);
  fb_set_ip(b, fb_ip_in(entry));
  MlirType v4 = fb_vector_type(f32, 4);
  MlirValue v = fb_vector_load(b, v4, mem, c0, 16);
  MlirValue s = fb_vector_reduction(b, "add", fb_binary(b, "arith.addf", v, fb_broadcast(b, fb_result(loop, 0), v4)));
  fb_store(b, s, mem, c0);
  fb_vector_store(b, v, mem, c0, 16);
  MlirValue lane = fb_extract(b, v, 3);
  fb_atomic_rmw(b, FB_ATOMIC_ADDF, lane, mem, c1);
}

/* gpu.func @k: t = block_id * block_dim + thread_id; a shuffle and a barrier
 * through a workgroup buffer. */
static void build_gpu(fb_builder *b, MlirBlock module_body) {
  MlirType f32 = fb_f32_type(b), i32 = fb_int_type(b, 32);
  fb_set_ip(b, fb_ip_end(module_body));
  MlirOperation gm = fb_gpu_module(b, "kernels", 32);
  fb_set_ip(b, fb_ip_end(fb_body(gm)));
  MlirType args[1] = {fb_memref_1d_type(f32, 1)}, wg = fb_workgroup_memref_type(b, f32, 32);
  MlirOperation k = fb_gpu_func(b, "k", 1, args, 1, &wg, true);
  MlirBlock entry = fb_body(k);
  fb_set_ip(b, fb_ip_in(entry));
  MlirValue tid = fb_thread_id(b, 'x');
  fb_set_const_ip(b, fb_ip_before(mlirOpResultGetOwner(tid)));
  MlirValue t = fb_addi(b, fb_muli(b, fb_block_id(b, 'x'), fb_block_dim(b, 'x')), tid);
  MlirValue mem = fb_reinterpret_1d(b, mlirBlockGetArgument(entry, 0), fb_const_index(b, 1));
  MlirValue x = fb_load(b, mem, t);
  MlirValue valid;
  MlirValue y = fb_shuffle_xor(b, x, fb_const_int(b, i32, 16), fb_const_int(b, i32, 32), &valid);
  MlirValue shared = mlirBlockGetArgument(entry, 1);
  fb_store(b, y, shared, fb_thread_id(b, 'x'));
  fb_barrier(b);
  MlirValue z = fb_load(b, shared, fb_const_index(b, 0));
  MlirOperation guard = fb_if(b, valid, 0, NULL, false);
  fb_set_ip(b, fb_ip_in(fb_then(guard)));
  fb_store(b, z, mem, t);
  MlirValue lbs[1] = {fb_const_index(b, 0)}, ubs[1] = {fb_grid_dim(b, 'x')}, steps[1] = {fb_const_index(b, 1)};
  MlirOperation par = fb_parallel(b, 1, lbs, ubs, steps);
  fb_set_ip(b, fb_ip_in(fb_body(par)));
  fb_store(b, z, mem, fb_parallel_iv(par, 0));
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("script.py"), 3, 5);
  MlirModule m = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  MlirOperation mod = mlirModuleGetOperation(m);
  mlirOperationSetDiscardableAttributeByName(mod, mlirStringRefCreateFromCString("gpu.container_module"),
                                             mlirUnitAttrGet(ctx));
  fb_builder b;
  fb_init(&b, ctx, loc);
  build_loops(&b, mlirModuleGetBody(m));
  build_gpu(&b, mlirModuleGetBody(m));
  fb_free(&b);
  CHECK(mlirOperationVerify(mod));
  strbuf t = print_op(mod);
  CHECK(strstr(t.data, "func.func @sum(%arg0: memref<1xf32>") != NULL);
  CHECK(strstr(t.data, "memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg1], strides: [1] : memref<1xf32> to memref<?xf32>") != NULL);
  CHECK(strstr(t.data, "iter_args(") != NULL);
  CHECK(strstr(t.data, "arith.cmpf ogt") != NULL);
  CHECK(strstr(t.data, "arith.subi") != NULL); /* i*2 + (-1) */
  CHECK(strstr(t.data, "arith.select") != NULL);
  CHECK(strstr(t.data, "scf.if") != NULL);
  CHECK(strstr(t.data, "vector.load %") != NULL && strstr(t.data, "{alignment = 16 : i64} : memref<?xf32>, vector<4xf32>") != NULL);
  CHECK(strstr(t.data, "vector.reduction <add>") != NULL);
  CHECK(strstr(t.data, "vector.extract %") != NULL);
  CHECK(strstr(t.data, "memref.atomic_rmw addf") != NULL);
  CHECK(count(t.data, "arith.constant 1 : index") == 2); /* once per function (constant scope) */
  CHECK(count(t.data, "arith.muli") == 2);              /* i*2 and block_id*block_dim: the folds left none else */
  CHECK(strstr(t.data, "gpu.module @kernels attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}") != NULL);
  CHECK(strstr(t.data, "workgroup(%arg1 : memref<32xf32, #gpu.address_space<workgroup>>) kernel") != NULL);
  CHECK(strstr(t.data, "gpu.shuffle  xor") != NULL);
  CHECK(strstr(t.data, "gpu.barrier") != NULL);
  CHECK(strstr(t.data, "gpu.thread_id  x") != NULL);
  CHECK(strstr(t.data, "scf.parallel") != NULL && strstr(t.data, "scf.reduce") != NULL);
  /* every op carries the builder's location: the script's line */
  CHECK(strstr(t.data, "#loc1 = loc(\"script.py\":3:5)") != NULL || strstr(t.data, "loc(\"script.py\":3:5)") != NULL);
  if (unit_failed) fputs(t.data, stderr);
  free(t.data);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
