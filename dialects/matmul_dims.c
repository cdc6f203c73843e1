/* Where each result dim of a matrix product comes from (fuser.h,
 * fuser_matmul_dims_of): the one statement of torch.matmul's and linear's
 * dim mapping that the dim graph, the plan model and the runtime's layouts
 * share (infer.c checks extents with the same rule). */
#include "dialects/fuser.h"

bool fuser_matmul_dims_of(fuser_op_id id, int rank_a, int rank_b, fuser_matmul_dims *m) {
  *m = (fuser_matmul_dims){0};
  if (rank_a < 1 || rank_b < 1 || rank_a > FUSER_MAX_RANK || rank_b > FUSER_MAX_RANK) return false;
  m->a_k = rank_a - 1;
  m->m_dim = m->n_dim = -1;
  int r = 0;
  if (id == FUSER_OP_linear) {
    if (rank_b > 2) return false;
    m->batch = rank_a > 2 ? rank_a - 2 : 0;
    for (int d = 0; d < m->batch; d++) m->a_dim[r] = d, m->b_dim[r++] = -1;
    m->b_k = rank_b - 1;
    if (rank_a >= 2) m->m_dim = r, m->a_dim[r] = rank_a - 2, m->b_dim[r++] = -1;
    if (rank_b == 2) m->n_dim = r, m->a_dim[r] = -1, m->b_dim[r++] = 0;
    m->b_n = rank_b == 2 ? 0 : -1;
  } else if (id == FUSER_OP_matmul) {
    int ba = rank_a > 2 ? rank_a - 2 : 0, bb = rank_b > 2 ? rank_b - 2 : 0;
    m->batch = ba > bb ? ba : bb;
    for (int d = 0; d < m->batch; d++, r++) {
      m->a_dim[r] = d - (m->batch - ba) >= 0 ? d - (m->batch - ba) : -1;
      m->b_dim[r] = d - (m->batch - bb) >= 0 ? d - (m->batch - bb) : -1;
    }
    m->b_k = rank_b == 1 ? 0 : rank_b - 2;
    if (rank_a >= 2) m->m_dim = r, m->a_dim[r] = rank_a - 2, m->b_dim[r++] = -1;
    if (rank_b >= 2) m->n_dim = r, m->a_dim[r] = -1, m->b_dim[r++] = rank_b - 1;
    m->b_n = rank_b >= 2 ? rank_b - 1 : -1;
  } else {
    return false;
  }
  m->a_m = rank_a >= 2 ? rank_a - 2 : -1;
  m->rank = r;
  return true;
}
