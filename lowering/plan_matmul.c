/* plan_matmul.c: a matmul segment as the artifact's matmul kernel
 * (plan_matmul.h). The plan model already resolved every extent and element
 * stride into the runtime's programs; this writes them in the
 * parameter order of fuser_builder_add_matmul. For example matmul_2d's
 * bf16 [M, K] row-major @ [K, N] column-major (test/frontend/Inputs/scripts,
 * `fuser-artifact F` prints it):
 *   kernel 0 matmul_2d_k0: 13 parameters, 1 variants
 *     matmul (cuBLASLt): bf16, 0 batch dims
 *     ptr input 0 + 0, ptr input 1 + 0, ptr output 0 + 0      A, B, D
 *     size(0, 0)  size(1, 1)  size(0, 1)                      M, N, K
 *     size(0, 1)  1           1  size(1, 0)                   A's m, k and B's k, n strides
 *     size(1, 1)  1           0                               D's m, n strides, no bias
 *     when size(0, 1) == size(1, 0) */
#include "lowering/plan_matmul.h"

#include "driver/artifact_builder.h"
#include "lowering/plan_artifact.h"

static void pointer(fuser_builder *b, int k, const fpm_param *q) {
  fuser_builder_param_pointer_program(b, k, fuser_plan_buffer_kind(q->buffer), q->index, q->expr);
}

int fuser_plan_add_matmul(fuser_builder *b, const fpm_kernel *kn, int dtype) {
  const fpm_matmul *mm = kn->matmul;
  int k = fuser_builder_add_matmul_programs(b, kn->name, dtype, mm->batch, mm->has_bias, mm->num_checks,
                                            (const struct fuser_expr *const *)mm->checks);
  if (k < 0) return -1;
  pointer(b, k, &mm->a);
  pointer(b, k, &mm->b);
  pointer(b, k, &mm->out);
  const struct fuser_expr *values[] = {mm->m, mm->n, mm->k, mm->a_m, mm->a_k, mm->b_k, mm->b_n, mm->out_m, mm->out_n, mm->bias_n};
  for (int i = 0; i < (int)(sizeof values / sizeof *values); i++) fuser_builder_param_value_program(b, k, FUSER_PARAM_I64, values[i]);
  for (int d = 0; d < mm->batch; d++) {
    const struct fuser_expr *batch[4] = {mm->batch_size[d], mm->a_batch[d], mm->b_batch[d], mm->out_batch[d]};
    for (int i = 0; i < 4; i++) fuser_builder_param_value_program(b, k, FUSER_PARAM_I64, batch[i]);
  }
  if (mm->has_bias) pointer(b, k, &mm->bias);
  return k;
}
