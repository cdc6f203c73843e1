/* unit_compare: fuser-run's output check (tools/fuser-run/artifact_run.c,
 * fuser_run_compare and --check-ulp): bit-identical outputs pass; outputs
 * 1 bf16 ulp apart fail by default and pass with a tolerance of 1 ulp but
 * not with 0; 2 ulp apart fail at 1; shape mismatches always fail. */
#include <stdint.h>
#include <string.h>

#include "tools/fuser-run/artifact_run.h"
#include "unit.h"

static DLTensor bf16(uint16_t *data, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device = (DLDevice){kDLCPU, 0};
  t.ndim = 1;
  t.dtype = (DLDataType){kDLBfloat, 16, 1};
  t.shape = shape;
  return t;
}

int main(void) {
  int64_t n4[1] = {4}, n3[1] = {3};
  uint16_t ref[4] = {0x3F80, 0x4000, 0xBF80, 0x0000};       /* 1, 2, -1, 0 */
  uint16_t same[4] = {0x3F80, 0x4000, 0xBF80, 0x0000};
  uint16_t one_ulp[4] = {0x3F81, 0x4000, 0xBF80, 0x0000};   /* 1 + 2^-7 */
  uint16_t two_ulp[4] = {0x3F80, 0x4002, 0xBF80, 0x0000};
  DLTensor r = bf16(ref, n4), s = bf16(same, n4), o = bf16(one_ulp, n4), t = bf16(two_ulp, n4), short3 = bf16(same, n3);

  fuser_run_set_check_ulp(0);
  CHECK(fuser_run_compare(&s, &r));
  CHECK(!fuser_run_compare(&o, &r));
  CHECK(!fuser_run_compare(&short3, &r));
  fuser_run_set_check_ulp(1);
  CHECK(fuser_run_compare(&o, &r));
  CHECK(!fuser_run_compare(&t, &r));
  CHECK(!fuser_run_compare(&short3, &r));
  fuser_run_set_check_ulp(2);
  CHECK(fuser_run_compare(&t, &r));
  UNIT_MAIN_END();
}
