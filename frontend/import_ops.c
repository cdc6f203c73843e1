/* fd.ops.* -> fuser ops: the dispatch of one call on its op's kind to the
 * file of its family (import_op_call.h lists them). Each op's arguments
 * are bound by nvFuser's parameter names (positional or keyword, defaults
 * as nvFuser's), negative dims and slice indices are normalized as
 * nvFuser/PyTorch do, and every result type comes from
 * fuser_infer_result_types, so nvFuser's promotion and shape rules hold by
 * construction. */
#include <stdio.h>

#include "frontend/import_op_call.h"

bool imp_fd_op(importer *imp, const py_stmt *s, const py_expr *call, py_str op_name) {
  op_call c = {.imp = imp, .stmt = s, .call = call, .hint_rank = -1, .hint_dtype = FUSER_DTYPE_INVALID};
  c.id = fuser_op_from_mnemonic(op_name.data, op_name.len);
  snprintf(c.what, sizeof c.what, "fd.ops.%.*s", (int)(op_name.len > 40 ? 40 : op_name.len), op_name.data);
  if (c.id == FUSER_OP_size) return imp_op_size(&c);
  if (py_str_eq(op_name, "var")) c.id = FUSER_OP_var_mean, c.var_only = true;
  if (py_str_eq(op_name, "shape") || py_str_eq(op_name, "tensor_sizes")) return imp_op_shape(&c); /* tensor_sizes: classic */
  if (py_str_eq(op_name, "at")) return imp_op_at(&c);
  if (py_str_eq(op_name, "welford")) return imp_op_welford(&c);
  if (py_str_eq(op_name, "stride_order")) return imp_op_stride_order(&c);
  if (py_str_eq(op_name, "truediv")) return imp_op_truediv(&c);
  if (py_str_eq(op_name, "add_alpha") || py_str_eq(op_name, "sub_alpha"))
    return imp_op_alpha(&c, py_str_eq(op_name, "add_alpha") ? FUSER_OP_add : FUSER_OP_sub);
  if (py_str_eq(op_name, "rand_like") || py_str_eq(op_name, "randn_like"))
    return imp_op_rng_like(&c, py_str_eq(op_name, "randn_like"));
  if (c.id == FUSER_OP_NONE || c.id == FUSER_OP_scalar)
    return imp_error(imp, call->base->name_line, call->base->name_col, "unsupported op '%s' (not in the fuser dialect)", c.what);
  switch (fuser_op_kind_of(c.id)) {
  case FUSER_KIND_UNARY: return fuser_is_triangle_op(c.id) ? imp_op_triangle(&c) : imp_op_elementwise(&c, 1);
  case FUSER_KIND_BINARY: return imp_op_elementwise(&c, 2);
  case FUSER_KIND_TERNARY: return imp_op_elementwise(&c, 3);
  case FUSER_KIND_SHAPED:
    if (c.id == FUSER_OP_broadcast_in_dim) return imp_op_broadcast_in_dim(&c);
    if (c.id == FUSER_OP_expand) return imp_op_expand(&c);
    return imp_op_reshape(&c);
  case FUSER_KIND_META:
    if (c.id == FUSER_OP_broadcast) return imp_op_broadcast(&c);
    if (c.id == FUSER_OP_permute || c.id == FUSER_OP_squeeze) return imp_op_permute_or_squeeze(&c);
    if (c.id == FUSER_OP_slice) return imp_op_slice(&c);
    return imp_op_copy(&c);
  case FUSER_KIND_PAD: return imp_op_pad(&c);
  case FUSER_KIND_CAT: return imp_op_cat(&c);
  case FUSER_KIND_REDUCTION:
  case FUSER_KIND_VAR_MEAN: return imp_op_reduction(&c);
  case FUSER_KIND_FULL: return imp_op_full(&c);
  case FUSER_KIND_IOTA: return imp_op_iota(&c);
  case FUSER_KIND_RNG: return imp_op_rng(&c);
  case FUSER_KIND_MATMUL: return imp_op_matmul(&c);
  case FUSER_KIND_INDEX: return imp_op_index(&c);
  case FUSER_KIND_SCALAR:
  case FUSER_KIND_VIEW:
  case FUSER_KIND_QUERY: /* made by passes: no fd.ops spelling */
  case FUSER_KIND_CHECK:
  case FUSER_KIND_HOST:
  case FUSER_KIND_ADDRESS:
  case FUSER_KIND_LAUNCH:
  case FUSER_KIND_NONE:
    break;
  }
  return imp_error(imp, call->line, call->col, "unsupported op '%s'", c.what);
}
