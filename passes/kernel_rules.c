/* kernel_rules.c: the index and extent rules of kernel_rules.h. */
#include "passes/kernel_rules.h"

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

fk_extent_rule fk_extent_rule_of(MlirValue v, int j) {
  fk_extent_rule r = {.kind = FK_EXTENT_UNKNOWN};
  int64_t s = fk_static_dim(v, j);
  if (s != FK_DYN) return (fk_extent_rule){.kind = FK_EXTENT_STATIC, .value = s};
  if (mlirValueIsABlockArgument(v))
    return (fk_extent_rule){.kind = FK_EXTENT_ARG, .arg = (int)mlirBlockArgumentGetArgNumber(v), .dim = j};
  MlirOperation op = fk_owner(v);
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  int64_t a[2 * FK_R];
  int n;
  if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY || id == FUSER_OP_set ||
      id == FUSER_OP_segment_set) {
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue o = mlirOperationGetOperand(op, i);
      if (fuser_value_is_tensor(o) && fk_static_dim(o, j) != 1) return follow(o, j);
    }
  } else if (id == FUSER_OP_cat) {
    int64_t cd = 0;
    fuser_get_i64(op, "dim", &cd);
    MlirValue l = mlirOperationGetOperand(op, 0);
    if (norm(cd, fk_tensor_rank(v)) != j) return follow(l, j);
    return (fk_extent_rule){.kind = FK_EXTENT_SUM, .a = l, .b = mlirOperationGetOperand(op, 1), .dim = j};
  } else if (id == FUSER_OP_pad && (n = fuser_get_i64_array(op, "pad_widths", a, 2 * FK_R)) >= 0) {
    int p = fk_tensor_rank(v) - 1 - j; /* pairs start from the last dim */
    r = follow(mlirOperationGetOperand(op, 0), j);
    if (2 * p + 1 < n) r.add = a[2 * p] + a[2 * p + 1];
    r.padded = true;
    return r;
  } else if (id == FUSER_OP_permute && fuser_get_i64_array(op, "dims", a, FK_R) > j) {
    return follow(mlirOperationGetOperand(op, 0), (int)a[j]);
  } else if (kind == FUSER_KIND_SHAPED || kind == FUSER_KIND_FULL) {
    int kth = 0; /* the k-th `?` result dim is operand 1 + k */
    for (int i = 0; i < j; i++) kth += fk_static_dim(v, i) == FK_DYN;
    return (fk_extent_rule){.kind = FK_EXTENT_SCALAR, .a = mlirOperationGetOperand(op, 1 + kth)};
  } else if (id == FUSER_OP_iota) {
    return (fk_extent_rule){.kind = FK_EXTENT_SCALAR, .a = mlirOperationGetOperand(op, 0)};
  } else if (kind == FUSER_KIND_RNG) { /* the k-th `?` result dim is operand 4 + k */
    int kth = 0;
    for (int i = 0; i < j; i++) kth += fk_static_dim(v, i) == FK_DYN;
    return (fk_extent_rule){.kind = FK_EXTENT_SCALAR, .a = mlirOperationGetOperand(op, 4 + kth)};
  } else if (kind == FUSER_KIND_INDEX) { /* fuser_index_dims_of: from arg or index */
    int64_t dim = 0, as[FK_R], xs[FK_R];
    fuser_get_i64(op, "dim", &dim);
    MlirValue arg = mlirOperationGetOperand(op, 0), index = mlirOperationGetOperand(op, 1);
    for (int i = 0; i < fk_tensor_rank(arg); i++) as[i] = fk_static_dim(arg, i);
    for (int i = 0; i < fk_tensor_rank(index); i++) xs[i] = fk_static_dim(index, i);
    int src, sd;
    fuser_index_dims_of(id, (int)dim, as, xs, j, &src, &sd);
    return follow(src ? index : arg, sd);
  } else if (kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN) {
    int64_t keep = 0;
    n = fuser_get_i64_array(op, "dims", a, FK_R);
    fuser_get_i64(op, "keepdim", &keep);
    MlirValue in = mlirOperationGetOperand(op, 0);
    int in_rank = fk_tensor_rank(in), out = 0;
    for (int i = 0; i < in_rank; i++) {
      bool red = false;
      for (int q = 0; q < n; q++) red |= norm(a[q], in_rank) == i;
      if (red && !keep) continue;
      if (out++ == j) return follow(in, i);
    }
  } else if (id == FUSER_OP_squeeze || id == FUSER_OP_broadcast) {
    /* kept dims map in order; squeezed/broadcast ones are static 1 */
    MlirValue in = mlirOperationGetOperand(op, 0);
    int in_rank = fk_tensor_rank(in);
    int64_t bd[FK_R];
    int nb = fuser_get_i64_array(op, id == FUSER_OP_squeeze ? "dims" : "is_broadcast_dim", bd, FK_R);
    if (id == FUSER_OP_squeeze) {
      int out = 0;
      for (int i = 0; i < in_rank; i++) {
        bool sq = false;
        for (int q = 0; q < nb; q++) sq |= bd[q] == i;
        if (sq) continue;
        if (out++ == j) return follow(in, i);
      }
    } else {
      int in_dim = 0;
      for (int i = 0; i < j; i++) in_dim += !bd[i];
      return follow(in, in_dim);
    }
  }
  return r;
}
