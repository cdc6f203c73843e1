/* Argument layouts from nvFuser's contiguity and stride_order (layout.h). */
#include "passes/layout.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"

static int read_array(MlirAttribute a, int64_t *out, int n) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) || mlirDenseArrayGetNumElements(a) != n) return 0;
  for (int i = 0; i < n; i++) out[i] = mlirDenseI64ArrayGetElement(a, i);
  return 1;
}

bool fuser_arg_layout(MlirOperation func, int arg, const int64_t *known_extents, fuser_layout *out) {
  MlirValue v = mlirBlockGetArgument(fuser_func_body(func), arg);
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t)) return false;
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t order[FUSER_MAX_RANK], contig[FUSER_MAX_RANK], shape[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    order[d] = rank - 1 - d;
    contig[d] = 1;
    shape[d] = mlirShapedTypeGetDimSize(t, d);
    if (known_extents && shape[d] == mlirShapedTypeGetDynamicSize()) shape[d] = known_extents[d];
  }
  read_array(fuser_func_arg_attr(func, arg, "fuser.stride_order"), order, rank);
  read_array(fuser_func_arg_attr(func, arg, "fuser.contiguity"), contig, rank);
  out->arg = arg;
  out->rank = rank;
  out->offset = fuser_poly_const(0);
  for (int d = 0; d < rank; d++)
    out->size[d] = shape[d] == mlirShapedTypeGetDynamicSize() ? fuser_poly_sym(FUSER_SYM_SIZE, arg, d)
                                                             : fuser_poly_const(shape[d]);
  /* Walk the allocation order from the innermost position outward. A
   * contiguous dim's stride is the next inner non-broadcast dim's stride
   * times its extent (1 for the innermost); a non-contiguous one is only
   * known at run time; a broadcast dim (None) has stride 0. */
  int dim_at[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) dim_at[rank - 1 - order[d]] = d;
  fuser_poly inner = fuser_poly_const(1);
  for (int pos = rank - 1; pos >= 0; pos--) {
    int d = dim_at[pos];
    int64_t c = contig[pos];
    if (c < 0) {
      out->stride[d] = fuser_poly_const(0);
      continue;
    }
    out->stride[d] = c ? inner : fuser_poly_sym(FUSER_SYM_STRIDE, arg, d);
    inner = fuser_poly_mul(out->stride[d], out->size[d]);
  }
  return true;
}

void fuser_layout_static_strides(const fuser_layout *l, int64_t *out) {
  for (int d = 0; d < l->rank; d++)
    if (!fuser_poly_is_const(&l->stride[d], &out[d])) out[d] = mlirShapedTypeGetDynamicSize();
}

void fuser_dense_strides(int rank, const int64_t *shape, const int64_t *stride_order, int64_t *out) {
  int dim_at[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) dim_at[stride_order ? stride_order[d] : rank - 1 - d] = d;
  int64_t inner = 1;
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  for (int r = 0; r < rank; r++) { /* stride rank 0 is the fastest */
    int d = dim_at[r];
    out[d] = inner;
    if (inner != dyn) inner = shape[d] == dyn ? dyn : inner * shape[d];
  }
}
