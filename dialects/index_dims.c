/* Where each result dim of an index op comes from (fuser.h,
 * fuser_index_dims_of): the one statement of index_select's, gather's and
 * take_along_axis's result shapes (nvFuser's csrc/ops/indexing.cpp) that
 * the inference, the kernel extent rules, the plan model and the reference
 * evaluator share. */
#include "dialects/fuser.h"

void fuser_index_dims_of(fuser_op_id id, int dim, const int64_t *arg_shape, const int64_t *index_shape, int d, int *src,
                         int *src_dim) {
  *src_dim = d;
  if (id == FUSER_OP_index_select) {
    *src = d == dim ? 1 : 0;
    if (d == dim) *src_dim = 0;
  } else if (id == FUSER_OP_gather) {
    *src = 1;
  } else { /* take_along_axis: a broadcast arg dim takes the index's extent */
    *src = d == dim || (arg_shape[d] == 1 && index_shape[d] != 1) ? 1 : 0;
  }
}
