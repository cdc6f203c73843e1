/* kernel_rules.c: the index and extent rules of kernel_rules.h. */
#include "passes/kernel_rules.h"

#include "dialects/extent.h"
#include "dialects/fuser.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/kernel_info.h"

MlirOperation fk_owner(MlirValue v) { return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL}; }

int fk_tensor_rank(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }

int64_t fk_static_dim(MlirValue v, int j) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, j) ? FK_DYN : mlirShapedTypeGetDimSize(t, j);
}

static void copy_dims(fk_dim_map *map, int rank) {
  for (int i = 0; i < rank; i++) map[i] = (fk_dim_map){i, 0};
}

static int norm(int64_t d, int rank) { return (int)(d < 0 ? d + rank : d); }

bool fk_operand_index_map(MlirOperation op, int operand, MlirValue result, fk_dim_map *map) {
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  MlirValue in = mlirOperationGetOperand(op, operand);
  int64_t a[FK_R];
  int n, rank = fk_tensor_rank(result);
  if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    /* an operand of extent 1 where the result is wider is implicitly broadcast */
    for (int j = 0; j < rank; j++)
      map[j] = fk_static_dim(in, j) == 1 && fk_static_dim(result, j) != 1 ? (fk_dim_map){-1, 0} : (fk_dim_map){j, 0};
    return true;
  }
  if (id == FUSER_OP_set || id == FUSER_OP_segment_set) {
    copy_dims(map, rank);
    return true;
  }
  if (id == FUSER_OP_slice) {
    copy_dims(map, rank);
    n = fuser_get_i64_array(op, "start_indices", a, FK_R);
    for (int j = 0; j < n && j < rank; j++) map[j].add = a[j];
    return true;
  }
  if (id == FUSER_OP_permute) { /* result dim j is input dim dims[j] */
    copy_dims(map, rank);
    n = fuser_get_i64_array(op, "dims", a, FK_R);
    for (int j = 0; j < n; j++) map[a[j]] = (fk_dim_map){j, 0};
    return true;
  }
  if (id != FUSER_OP_broadcast_in_dim && id != FUSER_OP_expand && id != FUSER_OP_broadcast && id != FUSER_OP_squeeze)
    return false;
  int in_rank = fk_tensor_rank(in);
  if (id == FUSER_OP_broadcast_in_dim) {
    n = fuser_get_i64_array(op, "broadcast_dims", a, FK_R);
    for (int i = 0; i < in_rank; i++) map[i] = (fk_dim_map){(int)a[i], 0};
  } else if (id == FUSER_OP_expand) {
    copy_dims(map, in_rank);
  } else if (id == FUSER_OP_broadcast) {
    n = fuser_get_i64_array(op, "is_broadcast_dim", a, FK_R);
    int i = 0;
    for (int j = 0; j < n; j++)
      if (!a[j]) map[i++] = (fk_dim_map){j, 0};
  } else { /* squeeze: the dropped input dims have extent 1 */
    n = fuser_get_i64_array(op, "dims", a, FK_R);
    int out = 0;
    for (int i = 0; i < in_rank; i++) {
      bool sq = false;
      for (int q = 0; q < n; q++) sq |= norm(a[q], in_rank) == i;
      map[i] = sq ? (fk_dim_map){-1, 0} : (fk_dim_map){out++, 0};
    }
  }
  /* a static-1 input dim broadcast to a larger extent reads index 0 */
  if (id != FUSER_OP_squeeze)
    for (int i = 0; i < in_rank; i++)
      if (fk_static_dim(in, i) == 1) map[i] = (fk_dim_map){-1, 0};
  return true;
}

static fk_extent_rule follow(MlirValue a, int dim) { return (fk_extent_rule){.kind = FK_EXTENT_FOLLOW, .a = a, .dim = dim}; }

/* The op's extent rule (dialects/extent.h) seen from the kernel: a join of
 * operand extents (broadcast, cat's other dims) follows its first operand
 * whose extent is not a static 1, the others being equal to it (the host
 * plan checks that before the launch). */
fk_extent_rule fk_extent_rule_of(MlirValue v, int j) {
  fk_extent_rule r = {.kind = FK_EXTENT_UNKNOWN};
  int64_t s = fk_static_dim(v, j);
  if (s != FK_DYN) return (fk_extent_rule){.kind = FK_EXTENT_STATIC, .value = s};
  if (mlirValueIsABlockArgument(v))
    return (fk_extent_rule){.kind = FK_EXTENT_ARG, .arg = (int)mlirBlockArgumentGetArgNumber(v), .dim = j};
  MlirOperation op = fk_owner(v);
  fuser_op_desc_storage st;
  fuser_extent e[FUSER_MAX_RANK];
  if (!fuser_op_desc_of(op, &st, NULL, 0) || fuser_extent_rules(&st.desc, e) <= j) return r;
  const fuser_extent *x = &e[j];
  MlirValue a = x->nrefs ? mlirOperationGetOperand(op, x->ref[0].operand) : (MlirValue){NULL};
  switch (x->kind) {
  case FUSER_EXTENT_STATIC: return (fk_extent_rule){.kind = FK_EXTENT_STATIC, .value = x->value};
  case FUSER_EXTENT_DIM:
    r = follow(a, x->ref[0].dim);
    r.add = x->value;
    r.padded = fuser_op_id_of(op) == FUSER_OP_pad;
    return r;
  case FUSER_EXTENT_SUM:
    return (fk_extent_rule){.kind = FK_EXTENT_SUM, .a = a, .b = mlirOperationGetOperand(op, x->ref[1].operand), .dim = j};
  case FUSER_EXTENT_SCALAR: return (fk_extent_rule){.kind = FK_EXTENT_SCALAR, .a = a};
  case FUSER_EXTENT_BROADCAST:
  case FUSER_EXTENT_EQUAL:
    for (int i = 0; i < x->nrefs; i++) {
      MlirValue o = mlirOperationGetOperand(op, x->ref[i].operand);
      if (x->kind == FUSER_EXTENT_EQUAL || fk_static_dim(o, x->ref[i].dim) != 1) return follow(o, x->ref[i].dim);
    }
    break;
  }
  return r;
}
