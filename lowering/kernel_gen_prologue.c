/* kernel_gen_prologue.c: extents and scalars of the kernel generator (see
 * kernel_gen_internal.h). Both are point-independent, so they are emitted
 * once into the prologue and memoized per value; extents also remember which
 * argument size they follow (cat/pad boundaries for analysis). Separate from
 * the walker, which evaluates tensors at a point. */
#include <stdio.h>

#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- extents and scalars (prologue) -------------------------------------- */

dimv kg_dim_of(gen *g, MlirValue v, int j) {
  const void *key = v.ptr;
  for (int i = 0; i < g->ndims; i++)
    if (g->dims[i].key == key && g->dims[i].dim == j) return g->dims[i].d;
  dimv d = {.value = kg_static_dim(v, j), .src_tensor = -1};
  strbuf *save = g->cur;
  g->cur = g->pro;
  if (d.value != FK_DYN) {
    kg_cidx(g, d.value, d.name);
  } else if (mlirValueIsABlockArgument(v)) {
    int t = (int)mlirBlockArgumentGetArgNumber(v);
    kg_param(g, FK_PARAM_SIZE, t, j, d.name);
    d.src_tensor = t, d.src_dim = j;
  } else {
    MlirOperation op = kg_owner(v);
    fuser_op_id id = fuser_op_id_of(op);
    fuser_op_kind kind = fuser_op_kind_of(id);
    int64_t a[2 * FK_R];
    int n;
    dimv x;
    if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY ||
        id == FUSER_OP_set || id == FUSER_OP_segment_set) {
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
        MlirValue o = mlirOperationGetOperand(op, i);
        if (!fuser_value_is_tensor(o) || kg_static_dim(o, j) == 1) continue;
        d = kg_dim_of(g, o, j);
        break;
      }
    } else if (id == FUSER_OP_cat) {
      dimv l = kg_dim_of(g, mlirOperationGetOperand(op, 0), j), r = kg_dim_of(g, mlirOperationGetOperand(op, 1), j);
      int64_t cd = 0;
      fuser_get_i64(op, "dim", &cd);
      if (cd < 0) cd += kg_tensor_rank(v);
      if (cd != j) d = l;
      else {
        kg_fresh(g, d.name);
        kg_emit(g, "%s = arith.addi %s, %s : index", d.name, l.name, r.name);
        if (l.value != FK_DYN && r.src_tensor >= 0) d.src_tensor = r.src_tensor, d.src_dim = r.src_dim, d.shift = r.shift + l.value;
        if (r.value != FK_DYN && l.src_tensor >= 0) d.src_tensor = l.src_tensor, d.src_dim = l.src_dim, d.shift = l.shift + r.value;
      }
    } else if (id == FUSER_OP_pad && (n = fuser_get_i64_array(op, "pad_widths", a, 2 * FK_R)) >= 0) {
      int rank = kg_tensor_rank(v);
      int64_t lo = 0, hi = 0;
      int p = rank - 1 - j; /* pairs start from the last dim */
      if (2 * p + 1 < n) lo = a[2 * p], hi = a[2 * p + 1];
      x = kg_dim_of(g, mlirOperationGetOperand(op, 0), j);
      char t1[NAME];
      kg_iaddc(g, x.name, lo + hi, t1);
      snprintf(d.name, NAME, "%s", t1);
      if (x.src_tensor >= 0) d.src_tensor = x.src_tensor, d.src_dim = x.src_dim, d.shift = x.shift + lo + hi;
    } else if (id == FUSER_OP_permute && fuser_get_i64_array(op, "dims", a, FK_R) > j) {
      d = kg_dim_of(g, mlirOperationGetOperand(op, 0), (int)a[j]);
    } else if (kind == FUSER_KIND_SHAPED || kind == FUSER_KIND_FULL) {
      /* the k-th `?` result dim is operand 1 + k */
      int kth = 0;
      for (int i = 0; i < j; i++) kth += kg_static_dim(v, i) == FK_DYN;
      kval s = kg_scalar_of(g, mlirOperationGetOperand(op, 1 + kth));
      kg_fresh(g, d.name);
      kg_emit(g, "%s = arith.index_cast %s : %s to index", d.name, s.name, fuser_dtype_mlir_name(s.dt));
    } else if (id == FUSER_OP_iota) {
      kval s = kg_scalar_of(g, mlirOperationGetOperand(op, 0));
      kg_fresh(g, d.name);
      kg_emit(g, "%s = arith.index_cast %s : %s to index", d.name, s.name, fuser_dtype_mlir_name(s.dt));
    } else if (kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN) {
      int64_t keep = 0;
      n = fuser_get_i64_array(op, "dims", a, FK_R);
      fuser_get_i64(op, "keepdim", &keep);
      MlirValue in = mlirOperationGetOperand(op, 0);
      int in_rank = kg_tensor_rank(in), out = 0;
      for (int i = 0; i < in_rank; i++) {
        bool red = false;
        for (int q = 0; q < n; q++) red |= (a[q] < 0 ? a[q] + in_rank : a[q]) == i;
        if (red && !keep) continue;
        if (out++ == j) { d = kg_dim_of(g, in, i); break; }
      }
    } else if (id == FUSER_OP_squeeze || id == FUSER_OP_broadcast) {
      /* kept dims map in order; squeezed/broadcast ones are static 1 */
      MlirValue in = mlirOperationGetOperand(op, 0);
      int in_rank = kg_tensor_rank(in);
      int64_t bd[FK_R];
      int nb = fuser_get_i64_array(op, id == FUSER_OP_squeeze ? "dims" : "is_broadcast_dim", bd, FK_R);
      if (id == FUSER_OP_squeeze) {
        int out = 0;
        for (int i = 0; i < in_rank; i++) {
          bool sq = false;
          for (int q = 0; q < nb; q++) sq |= bd[q] == i;
          if (sq) continue;
          if (out++ == j) { d = kg_dim_of(g, in, i); break; }
        }
      } else {
        int in_dim = 0;
        for (int i = 0; i < j; i++) in_dim += !bd[i];
        d = kg_dim_of(g, in, in_dim);
      }
    } else {
      g->cur = save;
      kg_fail_op(g, op, "lowering: cannot derive a symbolic extent through this op");
      snprintf(d.name, NAME, "%%c0");
      return d;
    }
  }
  g->cur = save;
  if (g->ndims < 512) g->dims[g->ndims++] = (struct dim_memo){key, j, d};
  return d;
}

/* A scalar (non-tensor) value: a parameter, a constant, or scalar math. */
kval kg_scalar_of(gen *g, MlirValue v) {
  for (int i = 0; i < g->nscalars; i++)
    if (g->scalars[i].key == v.ptr) return g->scalars[i].v;
  kval r = {.dt = fuser_value_dtype(v)};
  strbuf *save = g->cur;
  g->cur = g->pro;
  if (mlirValueIsABlockArgument(v)) {
    kg_param(g, FK_PARAM_SCALAR, (int)mlirBlockArgumentGetArgNumber(v), -1, r.name);
  } else {
    MlirOperation op = kg_owner(v);
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_scalar) {
      MlirAttribute a = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("value"));
      double val = mlirAttributeIsAFloat(a) ? mlirFloatAttrGetValueDouble(a)
                   : mlirAttributeIsABool(a) ? mlirBoolAttrGetValue(a)
                                              : (double)mlirIntegerAttrGetValueInt(a);
      if (!kg_is_float(r.dt) && r.dt != FUSER_DTYPE_I1 && mlirAttributeIsAInteger(a)) {
        kg_fresh(g, r.name);
        kg_emit(g, "%s = arith.constant %lld : %s", r.name, (long long)mlirIntegerAttrGetValueInt(a),
             fuser_dtype_mlir_name(r.dt));
      } else kg_fconst(g, val, r.dt, false, r.name);
    } else if (id != FUSER_OP_NONE) {
      kval ops[3];
      int n = (int)mlirOperationGetNumOperands(op);
      for (int i = 0; i < n && i < 3; i++) ops[i] = kg_scalar_of(g, mlirOperationGetOperand(op, i));
      int saved_w = g->W;
      g->W = 1;
      r = kg_elementwise(g, op, id, ops, n, r.dt);
      g->W = saved_w;
    } else {
      kg_fail_op(g, op, "lowering: unsupported scalar producer");
    }
  }
  g->cur = save;
  if (g->nscalars < 256) g->scalars[g->nscalars++] = (struct scalar_memo){v.ptr, r};
  return r;
}
