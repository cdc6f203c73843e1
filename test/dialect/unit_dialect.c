/* Unit tests for the dialect's C side: the op table matches the loaded IRDL
 * dialect, dtype names round-trip, and nvFuser's type promotion. */
#include <string.h>

#include "dialects/fuser.h"
#include "unit.h"

static void test_every_op_is_registered(MlirContext ctx) {
  for (int i = 0; i < FUSER_OP_COUNT; i++) {
    const char *name = fuser_op_full_name((fuser_op_id)i);
    bool ok = mlirContextIsRegisteredOperation(ctx, mlirStringRefCreateFromCString(name));
    if (!ok) fprintf(stderr, "not registered: %s\n", name);
    CHECK(ok);
    CHECK_EQ_INT(fuser_op_from_mnemonic(name + 6, strlen(name + 6)), i);
  }
  CHECK_EQ_INT(fuser_op_from_mnemonic("nosuch", 6), FUSER_OP_NONE);
}

static void test_dtypes(MlirContext ctx) {
  for (int i = 0; i < FUSER_DTYPE_COUNT; i++) {
    const char *nv = fuser_dtype_nvfuser_name((fuser_dtype)i);
    CHECK_EQ_INT(fuser_dtype_from_nvfuser_name(nv, strlen(nv)), i);
    CHECK_EQ_INT(fuser_dtype_of_type(fuser_dtype_to_type(ctx, (fuser_dtype)i)), i);
  }
  CHECK_EQ_INT(fuser_dtype_size(FUSER_DTYPE_BF16), 2);
  CHECK_EQ_INT(fuser_dtype_from_nvfuser_name("Float8", 6), FUSER_DTYPE_INVALID);
}

static fuser_dtype promote2(fuser_rule r, fuser_dtype a, bool ta, fuser_dtype b, bool tb) {
  fuser_dtype d[2] = {a, b};
  bool t[2] = {ta, tb};
  return fuser_promote(r, 2, d, t, NULL);
}

static void test_promotion(void) {
  enum { T = 1, S = 0 };
  /* bf16 arithmetic computes and returns f32 */
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_BF16, T, FUSER_DTYPE_BF16, T), FUSER_DTYPE_F32);
  /* a double scalar does not widen an f32 tensor */
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_F32, T, FUSER_DTYPE_F64, S), FUSER_DTYPE_F32);
  /* ... nor a bf16 one beyond f32 */
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_BF16, T, FUSER_DTYPE_F64, S), FUSER_DTYPE_F32);
  /* a float scalar promotes an integer tensor to the default float dtype */
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_I64, T, FUSER_DTYPE_F64, S), FUSER_DTYPE_F32);
  /* integer tensors stay integer */
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_I32, T, FUSER_DTYPE_I64, S), FUSER_DTYPE_I32);
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_I32, T, FUSER_DTYPE_I64, T), FUSER_DTYPE_I64);
  /* two scalars: the wider one */
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_I64, S, FUSER_DTYPE_F64, S), FUSER_DTYPE_F64);
  /* bf16 with f16 gives f32 */
  CHECK_EQ_INT(promote2(FUSER_RULE_KEEP, FUSER_DTYPE_BF16, T, FUSER_DTYPE_F16, T), FUSER_DTYPE_BF16);
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_BF16, T, FUSER_DTYPE_F16, T), FUSER_DTYPE_F32);
  /* f64 tensors stay f64 */
  CHECK_EQ_INT(promote2(FUSER_RULE_ARITH, FUSER_DTYPE_F64, T, FUSER_DTYPE_F32, T), FUSER_DTYPE_F64);
  /* float unaries turn integers into f32 */
  fuser_dtype i = FUSER_DTYPE_I64;
  bool t = true;
  CHECK_EQ_INT(fuser_promote(FUSER_RULE_FLOAT, 1, &i, &t, NULL), FUSER_DTYPE_F32);
  fuser_dtype h = FUSER_DTYPE_F16;
  CHECK_EQ_INT(fuser_promote(FUSER_RULE_FLOAT, 1, &h, &t, NULL), FUSER_DTYPE_F32);
  CHECK_EQ_INT(fuser_promote(FUSER_RULE_KEEP, 1, &h, &t, NULL), FUSER_DTYPE_F16);
  /* comparisons give bool */
  CHECK_EQ_INT(promote2(FUSER_RULE_COMPARE, FUSER_DTYPE_BF16, T, FUSER_DTYPE_F64, S), FUSER_DTYPE_I1);
  /* where keeps bf16 (no half->float) */
  fuser_dtype w[3] = {FUSER_DTYPE_I1, FUSER_DTYPE_BF16, FUSER_DTYPE_BF16};
  bool wt[3] = {true, true, true};
  CHECK_EQ_INT(fuser_promote(FUSER_RULE_WHERE, 3, w, wt, NULL), FUSER_DTYPE_BF16);
  /* bitwise ops reject floats */
  const char *why = NULL;
  fuser_dtype bw[2] = {FUSER_DTYPE_F32, FUSER_DTYPE_I64};
  CHECK_EQ_INT(fuser_promote(FUSER_RULE_INTEGER, 2, bw, wt, &why), FUSER_DTYPE_INVALID);
  CHECK(why != NULL);
}

/* The op-table accessors are total: FUSER_OP_NONE (an op of another
 * dialect) reads nothing outside the table (UBSan found kind_of(-1) read
 * in the kernel walker). */
static void test_not_an_op(void) {
  CHECK(fuser_op_kind_of(FUSER_OP_NONE) == FUSER_KIND_NONE);
  CHECK(fuser_op_rule_of(FUSER_OP_NONE) == FUSER_RULE_NONE);
  CHECK(strcmp(fuser_op_mnemonic(FUSER_OP_NONE), "?") == 0);
  CHECK(strcmp(fuser_op_full_name((fuser_op_id)FUSER_OP_COUNT), "?") == 0);
  CHECK(fuser_op_kind_of(FUSER_OP_add) == FUSER_KIND_BINARY);
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  CHECK(!mlirContextIsNull(ctx));
  test_every_op_is_registered(ctx);
  test_dtypes(ctx);
  test_promotion();
  mlirContextDestroy(ctx);
  test_not_an_op();
  UNIT_MAIN_END();
}
