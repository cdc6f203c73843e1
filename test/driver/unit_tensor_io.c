/* unit_tensor_io.c: the host-tensor summaries of driver/tensor_io.c on
 * strided views: element i is the i-th in logical row-major order whatever
 * the strides (a transposed view, a broadcast dim of stride 0, a byte
 * offset), and sum / fnv1a visit the same order. fuser-run prints the first
 * elements of every output with fuser_tensor_element; it used to walk the
 * whole tensor for each one (8 walks of a 1 GB output: 10 s of a 10.7 s
 * `fuser-run --artifact rope_qkv_large.fart` on the H200), and now indexes
 * it directly: these are the values it must keep giving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/tensor_io.h"

static int failures;

#define EXPECT(cond)                                                         \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);    \
      failures++;                                                            \
    }                                                                        \
  } while (0)

static DLTensor view(void *data, int ndim, int64_t *shape, int64_t *strides, uint64_t byte_offset, DLDataType dt) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data, t.ndim = ndim, t.shape = shape, t.strides = strides, t.byte_offset = byte_offset, t.dtype = dt;
  t.device = (DLDevice){kDLCPU, 0};
  return t;
}

int main(void) {
  DLDataType f32 = {kDLFloat, 32, 1}, i64 = {kDLInt, 64, 1};
  float m[2][3] = {{0, 1, 2}, {3, 4, 5}};
  /* the transpose of m: shape [3, 2], strides [1, 3] -> 0 3 1 4 2 5 */
  int64_t tshape[2] = {3, 2}, tstrides[2] = {1, 3};
  DLTensor t = view(m, 2, tshape, tstrides, 0, f32);
  const double want_t[6] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; i++) EXPECT(fuser_tensor_element(&t, i) == want_t[i]);
  /* row 1 of m broadcast to [2, 3] (stride 0 on dim 0), through a byte offset */
  int64_t bshape[2] = {2, 3}, bstrides[2] = {0, 1};
  DLTensor b = view(m, 2, bshape, bstrides, 3 * sizeof(float), f32);
  for (int i = 0; i < 6; i++) EXPECT(fuser_tensor_element(&b, i) == 3 + i % 3);
  EXPECT(fuser_tensor_sum(&b) == 2 * (3 + 4 + 5));
  /* compact (strides NULL) rank 3, and a rank-0 tensor */
  int64_t c[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
  int64_t cshape[3] = {2, 2, 2};
  DLTensor ct = view(c, 3, cshape, NULL, 0, i64);
  for (int i = 0; i < 8; i++) EXPECT(fuser_tensor_element_i64(&ct, i) == i + 1);
  EXPECT(fuser_tensor_element(&ct, 5) == 6);
  float s = 7;
  DLTensor scalar = view(&s, 0, NULL, NULL, 0, f32);
  EXPECT(fuser_tensor_element(&scalar, 0) == 7);
  /* the same bytes in the same order hash alike: the transpose of m equals
   * the compact tensor 0 3 1 4 2 5 */
  float tm[6] = {0, 3, 1, 4, 2, 5};
  int64_t cs[2] = {3, 2};
  DLTensor compact = view(tm, 2, cs, NULL, 0, f32);
  EXPECT(fuser_tensor_fnv1a(&t) == fuser_tensor_fnv1a(&compact));
  EXPECT(fuser_tensor_sum(&t) == 15);
  if (failures) return 1;
  printf("unit_tensor_io: ok\n");
  return 0;
}
