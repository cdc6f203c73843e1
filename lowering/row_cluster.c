/* row_cluster.c: thread-block cluster primitives (row_cluster.h).
 *
 * Before (what the row generator asks for):
 *   fb_dsmem_store(b, %total, %wg1, %rank, %t)
 * After (loop level, lowered by the unchanged NVVM pipeline to
 * mapa.shared::cluster + st.shared::cluster.f32):
 *   %p = memref.extract_aligned_pointer_as_index %wg1 : memref<8xf32, #gpu.address_space<workgroup>> -> index
 *   %a = arith.addi (index_cast %p : i64), (%rank * 4 : i64)
 *   %q = llvm.inttoptr %a : i64 to !llvm.ptr<3>
 *   %r = nvvm.mapa %q, %t_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
 *   llvm.store %total, %r : f32, !llvm.ptr<7> */
#include "lowering/row_cluster.h"

#include "lowering/row_gen_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* !llvm.ptr<space>: the C API's LLVM dialect library is not linked, so
 * the type comes from its spelling as a type attribute (cached by fb_dialect_attr). */
static MlirType llvm_ptr(fb_builder *b, int space) {
  MlirAttribute a = fb_dialect_attr(b, space == 3 ? "!llvm.ptr<3>" : "!llvm.ptr<7>");
  return mlirTypeAttrGetValue(a);
}

void fb_cluster_arrive(fb_builder *b, bool relaxed) {
  MlirNamedAttribute al = fb_named(b, "aligned", mlirUnitAttrGet(b->ctx));
  fb_op(b, relaxed ? "nvvm.cluster.arrive.relaxed" : "nvvm.cluster.arrive", 0, NULL, 0, NULL, 1, &al, 0);
}

void fb_cluster_wait(fb_builder *b) {
  MlirNamedAttribute al = fb_named(b, "aligned", mlirUnitAttrGet(b->ctx));
  fb_op(b, "nvvm.cluster.wait", 0, NULL, 0, NULL, 1, &al, 0);
}

void fb_dsmem_store(fb_builder *b, MlirValue v, MlirValue wg, MlirValue slot, MlirValue rank) {
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64), i32 = mlirIntegerTypeGet(b->ctx, 32);
  MlirType et = mlirValueGetType(v);
  int64_t esize = mlirTypeIsAF64(et) || (mlirTypeIsAInteger(et) && mlirIntegerTypeGetWidth(et) == 64) ? 8 : 4;
  MlirValue base = fb_op1(b, "memref.extract_aligned_pointer_as_index", fb_index_type(b), 1, &wg);
  MlirValue off = fb_muli(b, slot, fb_const_index(b, esize));
  MlirValue addr = fb_cast(b, "arith.index_cast", fb_addi(b, base, off), i64);
  MlirValue p3 = fb_op1(b, "llvm.inttoptr", llvm_ptr(b, 3), 1, &addr);
  MlirValue ops[2] = {p3, fb_cast(b, "arith.index_cast", rank, i32)};
  MlirValue p7 = fb_op1(b, "nvvm.mapa", llvm_ptr(b, 7), 2, ops);
  MlirValue st[2] = {v, p7};
  fb_op(b, "llvm.store", 0, NULL, 2, st, 0, NULL, 0);
}

/* The cluster variant: every block of the row's cluster holds its
 * block's total x; thread t < S pushes it into slot [rank] of block t's
 * buffer cwg (distributed shared memory), one cluster barrier (arrive has
 * release, wait acquire semantics), then every thread combines the S slots
 * of its own block in rank order: the row's result, the same bits in
 * every block. Before the first push a wait matches the kernel's opening
 * relaxed arrive, so every block of the cluster has started. */
MlirValue rg_cluster_allreduce_gpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue cwg) {
  fb_builder *b = &g->b;
  if (!g->cluster_waited) fb_cluster_wait(b);
  g->cluster_waited = true;
  MlirOperation ifop = fb_if(b, fb_cmpi(b, FB_CMPI_ULT, g->tid, rg_idx(g, g->S)), 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  fb_dsmem_store(b, x, cwg, g->crank, g->tid);
  fb_set_ip(b, save);
  fb_cluster_arrive(b, false);
  fb_cluster_wait(b);
  MlirValue r = fb_load(b, cwg, rg_idx(g, 0));
  for (int i = 1; i < g->S; i++) r = rg_combine(g, id, acc, r, fb_load(b, cwg, rg_idx(g, i)));
  return r;
}
