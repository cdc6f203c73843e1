/* index.c: the index-dependent ops: triu, tril, and the data-dependent reads
 * index_select, gather and take_along_axis. An index outside [0, extent) is an error naming the op
 * (FUSER_REF_ERR_INDEX), as PyTorch's gather/index_select raise for it
 * (negative indices included: torch does not wrap them); the kernels record
 * the same condition in their index flag (docs/lowering.md). */
#include "reference/ops.h"

static int64_t offset_of(const ref_tensor *t, const int64_t *idx) {
  int64_t off = t->offset;
  for (int d = 0; d < t->rank; d++) off += idx[d] * t->strides[d];
  return off;
}

bool ref_eval_index(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  fuser_op_id id = fuser_op_id_of(c->op);
  ref_type rt;
  int64_t dim;
  if (!ref_result_type(c, 0, &rt) || !ref_attr_i64(c, "dim", &dim)) return false;
  if (n != 2 || ops[0].rank == 0 || dim < 0 || dim >= ops[0].rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "an index op takes (arg, index) and a dim of arg");
  const ref_tensor *arg = &ops[0], *index = &ops[1];
  int rank = arg->rank;
  int64_t sizes[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    int src, sd;
    fuser_index_dims_of(id, (int)dim, arg->sizes, index->sizes, d, &src, &sd);
    sizes[d] = src ? index->sizes[sd] : arg->sizes[sd];
    if (d == dim || id == FUSER_OP_index_select) continue;
    int64_t ae = arg->sizes[d], ie = index->sizes[d];
    if (id == FUSER_OP_gather ? ie > ae : (ae != ie && ae != 1 && ie != 1))
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "index extent %lld does not fit arg extent %lld in dim %d", (long long)ie,
                      (long long)ae, d);
  }
  if (!ref_check_extents(c, &rt, sizes)) return false;
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), rank, sizes, &res[0])) return false;
  ref_domain dom = ref_domain_of(c, rt.dtype);
  int64_t total = ref_numel(&res[0]), at[FUSER_MAX_RANK] = {0};
  for (int64_t e = 0; e < total; e++) {
    int64_t ix[FUSER_MAX_RANK] = {0}, ax[FUSER_MAX_RANK], k;
    if (id == FUSER_OP_index_select) ix[0] = at[dim];
    else
      for (int d = 0; d < rank; d++) ix[d] = index->sizes[d] == 1 ? 0 : at[d];
    ref_load_row(index, offset_of(index, ix), 1, 1, REF_I64, &k);
    if (k < 0 || k >= arg->sizes[dim]) {
      ref_release(&res[0]);
      return ref_fail(c, FUSER_REF_ERR_INDEX, "index %lld is out of range [0, %lld) in dim %lld", (long long)k,
                      (long long)arg->sizes[dim], (long long)dim);
    }
    for (int d = 0; d < rank; d++) ax[d] = d == dim ? k : arg->sizes[d] == 1 ? 0 : at[d];
    double v[1];
    ref_load_row(arg, offset_of(arg, ax), 1, 1, dom, v);
    ref_store_row(&res[0], offset_of(&res[0], at), 1, 1, dom, v);
    for (int d = rank - 1; d >= 0 && ++at[d] == sizes[d]; d--) at[d] = 0;
  }
  return true;
}

/* triu / tril: x where fuser_triangle_keeps (the last two dims), else 0. */
bool ref_eval_triangle(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  ref_type rt;
  int64_t diagonal;
  fuser_op_id id = fuser_op_id_of(c->op);
  if (!ref_result_type(c, 0, &rt) || !ref_attr_i64(c, "diagonal", &diagonal)) return false;
  if (n != 1 || ops[0].rank < 2) return ref_fail(c, FUSER_REF_ERR_FUSION, "%s takes one tensor of rank >= 2", fuser_op_mnemonic(id));
  const ref_tensor *x = &ops[0];
  int rank = x->rank;
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), rank, x->sizes, &res[0])) return false;
  ref_domain dom = ref_domain_of(c, rt.dtype);
  int64_t total = ref_numel(&res[0]), at[FUSER_MAX_RANK] = {0};
  for (int64_t e = 0; e < total; e++) {
    double v[1] = {0}; /* zero in every domain's 8 bytes */
    if (fuser_triangle_keeps(id, at[rank - 2], at[rank - 1], diagonal)) ref_load_row(x, offset_of(x, at), 1, 1, dom, v);
    ref_store_row(&res[0], offset_of(&res[0], at), 1, 1, dom, v);
    for (int d = rank - 1; d >= 0 && ++at[d] == x->sizes[d]; d--) at[d] = 0;
  }
  return true;
}
