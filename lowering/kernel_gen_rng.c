/* fuser.uniform / fuser.normal in the pointwise kernels: the element's
 * row-major linear index from the loop nest's indices, the op's scalars
 * from the prologue, then the value (lowering/philox_gen.h, shared with
 * the row kernels). The value depends only on the index, so it needs the
 * scalar variant (the access analysis forces it).
 *
 *   %u = "fuser.uniform"(%lo, %hi, %seed, %off) : (...) -> tensor<8xf32>
 * becomes, at index %i of the loop nest:
 *   %lin = ...; %sub = arith.divui %lin, 4; ... 10 x (arith.muli, arith.shrui,
 *   arith.xori, ...); %w = arith.select ...; %f = arith.uitofp %w : i32 to f32
 *   %u = arith.addf %lo, (arith.mulf %range, ...) */
#include "lowering/kernel_gen_internal.h"
#include "lowering/philox_gen.h"

#include "mlir-c/BuiltinTypes.h"

kval kg_rng(gen *g, MlirOperation op, MlirValue v, const idx_t *ix) {
  fuser_dtype dt = fuser_value_dtype(v);
  if (g->W > 1) {
    kg_fail_op(g, op, "lowering: random numbers need the scalar variant (vector width 1)");
    return kg_const(g, 0, dt, false);
  }
  fb_builder *b = &g->b;
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue lin = fb_const_int(b, i64, 0);
  for (int d = 0; d < ix->rank; d++) {
    MlirValue ext = fb_index_cast(b, kg_dim_of(g, v, d), i64);
    lin = fb_binary(b, "arith.addi", fb_binary(b, "arith.muli", lin, ext), fb_index_cast(b, ix->v[d], i64));
  }
  MlirValue seed = kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(op, 2)), FUSER_DTYPE_I64).v;
  MlirValue offset = kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(op, 3)), FUSER_DTYPE_I64).v;
  fuser_dtype cdt = dt == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32; /* the compute type */
  MlirValue a = kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(op, 0)), cdt).v;
  MlirValue bb = kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(op, 1)), cdt).v;
  bool normal = fuser_op_id_of(op) == FUSER_OP_normal;
  return (kval){fuser_philox_value(b, normal, dt, lin, seed, offset, a, bb), false, dt};
}
