/* Resize ops: pad and cat, exactly as torch.nn.functional.pad and
 * torch.cat. Both allocate the result and copy the operands' overlapping
 * regions into it through views. */
#include "driver/checked_math.h"
#include "reference/ops.h"

/* pad_widths lists (left, right) pairs starting from the last dim; a
 * negative width removes elements from that side (torch's convention). */
bool ref_eval_pad(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  ref_type rt;
  if (!ref_result_type(c, 0, &rt)) return false;
  if (n != 2 || ops[1].rank != 0) return ref_fail(c, FUSER_REF_ERR_FUSION, "pad takes a tensor and a scalar value");
  const ref_tensor *in = &ops[0];
  int64_t w[2 * FUSER_MAX_RANK + 1], left[FUSER_MAX_RANK] = {0}, sizes[FUSER_MAX_RANK];
  int nw;
  if (!ref_attr_i64_array(c, "pad_widths", w, 2 * FUSER_MAX_RANK, &nw)) return false;
  if (nw % 2 || nw > 2 * in->rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "pad_widths needs an even number of entries, at most %d", 2 * in->rank);
  for (int d = 0; d < in->rank; d++) sizes[d] = in->sizes[d];
  for (int p = 0; p < nw / 2; p++) {
    int d = in->rank - 1 - p;
    left[d] = w[2 * p];
    if (!fuser_add_i64(sizes[d], w[2 * p], &sizes[d]) || !fuser_add_i64(sizes[d], w[2 * p + 1], &sizes[d]))
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "pad widths of dim %d overflow 64 bits", d);
    if (sizes[d] < 0)
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "pad widths make dim %d negative (%lld)", d, (long long)sizes[d]);
  }
  ref_tensor value;
  if (!ref_scalar_as(c, &ops[1], rt.dtype, &value)) return false;
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), in->rank, sizes, &res[0])) {
    ref_release(&value);
    return false;
  }
  bool filled = ref_fill(c, &res[0], &value);
  ref_release(&value);
  if (!filled) goto fail;
  /* the input's part that survives: input index i lands at i + left */
  ref_tensor src = *in, dst = res[0];
  for (int d = 0; d < in->rank; d++) {
    int64_t lo = left[d] < 0 ? -left[d] : 0;              /* first kept input index */
    int64_t hi = in->sizes[d] < sizes[d] - left[d] ? in->sizes[d] : sizes[d] - left[d]; /* one past the last */
    int64_t len = hi > lo ? hi - lo : 0;
    src.offset += lo * in->strides[d];
    dst.offset += (lo + left[d]) * res[0].strides[d];
    src.sizes[d] = dst.sizes[d] = len;
  }
  if (ref_copy_into(c, &dst, &src)) return true;
fail:
  ref_release(&res[0]);
  return false;
}

bool ref_eval_cat(ref_ctx *c, const ref_tensor *ops, int n, ref_tensor *res) {
  ref_type rt;
  int64_t dim;
  if (!ref_result_type(c, 0, &rt) || !ref_attr_i64(c, "dim", &dim)) return false;
  if (n != 2 || ops[0].rank != ops[1].rank || ops[0].rank == 0)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "cat takes two tensors of one rank");
  int rank = ops[0].rank;
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank) return ref_fail(c, FUSER_REF_ERR_FUSION, "cat dim is out of range");
  int64_t sizes[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    sizes[d] = ops[0].sizes[d];
    if (d == dim) sizes[d] += ops[1].sizes[d];
    else if (ops[1].sizes[d] != sizes[d])
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "cat operands differ in dim %d (%lld and %lld)", d,
                      (long long)sizes[d], (long long)ops[1].sizes[d]);
  }
  if (!ref_alloc(c, ref_storage_dtype(c, rt.dtype), rank, sizes, &res[0])) return false;
  int64_t at = 0;
  for (int k = 0; k < 2; k++) {
    ref_tensor dst = res[0];
    dst.sizes[dim] = ops[k].sizes[dim];
    dst.offset += at * res[0].strides[dim];
    at += ops[k].sizes[dim];
    if (!ref_copy_into(c, &dst, &ops[k])) {
      ref_release(&res[0]);
      return false;
    }
  }
  return true;
}

bool ref_resize_knows(fuser_op_id id) { return id == FUSER_OP_pad || id == FUSER_OP_cat; }
