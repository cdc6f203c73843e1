/* Unit tests for the verifier rules that text cannot reach: IRDL rejects
 * such ops while parsing, but ops built from C (the importer, passes) skip
 * IRDL until the next verification, so fuser_verify_op must still refuse
 * them with a message rather than read past what is there. Ops are built
 * here with mlirOperationCreate, which does not verify. */
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "unit.h"

static MlirContext ctx;
static MlirModule module;
static MlirBlock body; /* the entry block of @values, whose arguments are the operands */

/* Argument i of @values: 0 tensor<2x3xf32>, 1 f32, 2 i64, 3 f64, 4 tensor<2x3xi1> */
static MlirValue arg(int i) { return mlirBlockGetArgument(body, i); }

static MlirType parse_type(const char *text) { return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text)); }

static MlirNamedAttribute named(const char *name, const char *attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)),
                               mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(attr)));
}

/* Builds `name(operands) {attrs} : result types` and returns the verifier's message ("" when it passes). */
static const char *verify_built(const char *name, int nops, const MlirValue *ops, int nattrs,
                                const MlirNamedAttribute *attrs, int nres, const char *const *results) {
  static char err[512];
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), mlirLocationUnknownGet(ctx));
  mlirOperationStateAddOperands(&st, nops, ops);
  mlirOperationStateAddAttributes(&st, nattrs, attrs);
  MlirType types[2];
  for (int i = 0; i < nres; i++) types[i] = parse_type(results[i]);
  mlirOperationStateAddResults(&st, nres, types);
  MlirOperation op = mlirOperationCreate(&st);
  err[0] = 0;
  if (fuser_verify_op(op, err, sizeof err)) strcpy(err, "");
  mlirOperationDestroy(op);
  return err;
}

static void check_message(const char *got, const char *want) {
  bool ok = strstr(got, want) != NULL && want[0];
  if (!ok) fprintf(stderr, "  got \"%s\", want \"%s\"\n", got, want);
  CHECK(ok);
}

static void test_missing_attributes(void) {
  const char *t23[] = {"tensor<3x2xf32>"};
  MlirValue x = arg(0);
  check_message(verify_built("fuser.permute", 1, &x, 0, NULL, 1, t23), "requires attribute 'dims'");
  MlirNamedAttribute dims = named("dims", "array<i64: 1>");
  const char *t2[] = {"tensor<2xf32>"};
  check_message(verify_built("fuser.sum", 1, &x, 1, &dims, 1, t2), "requires attribute 'keepdim'");
  MlirNamedAttribute red[2] = {dims, named("keepdim", "1.0 : f32")};
  check_message(verify_built("fuser.sum", 1, &x, 2, red, 1, t2), "attribute 'keepdim' must be an integer");
  const char *i64[] = {"i64"};
  check_message(verify_built("fuser.scalar", 0, NULL, 0, NULL, 1, i64), "requires attribute 'value'");
}

static void test_operand_kinds(void) {
  MlirValue f = arg(1), x = arg(0), n = arg(2);
  const char *f32[] = {"f32"};
  MlirNamedAttribute dims = named("dims", "array<i64: 0>");
  check_message(verify_built("fuser.permute", 1, &f, 1, &dims, 1, f32), "input must be a tensor");
  MlirValue reshape_ops[2] = {x, f};
  const char *dyn[] = {"tensor<?xf32>"};
  check_message(verify_built("fuser.reshape", 2, reshape_ops, 0, NULL, 1, dyn), "shape operand #1 must be an i64 scalar");
  MlirValue cat_ops[2] = {f, x};
  MlirNamedAttribute dim = named("dim", "0 : i64");
  const char *t[] = {"tensor<2x3xf32>"};
  check_message(verify_built("fuser.cat", 2, cat_ops, 1, &dim, 1, t), "lhs must be a tensor");
  MlirValue one[1] = {x};
  /* regression: a wrong operand count used to fail with an empty message */
  check_message(verify_built("fuser.cat", 1, one, 1, &dim, 1, t), "expects 2 operands");
  check_message(verify_built("fuser.permute", 2, cat_ops, 1, &dims, 1, t), "expects 1 operand");
  check_message(verify_built("fuser.pad", 1, one, 0, NULL, 1, t), "expects 2 operands");
  check_message(verify_built("fuser.sum", 2, cat_ops, 0, NULL, 1, t), "expects 1 operand");
  check_message(verify_built("fuser.add", 1, one, 0, NULL, 1, t), "expects 2 operands");
  const char *two[] = {"tensor<2x3xf32>", "tensor<2x3xf32>"};
  check_message(verify_built("fuser.neg", 1, one, 0, NULL, 2, two), "expects 1 result(s)");
  check_message(verify_built("fuser.var_mean", 1, one, 0, NULL, 1, t), "expects 2 result(s)");
  MlirValue full_ops[2] = {arg(3), f};
  check_message(verify_built("fuser.full", 2, full_ops, 0, NULL, 1, dyn), "shape operand #1 must be an i64 scalar");
  MlirValue iota_ops[2] = {n, n};
  check_message(verify_built("fuser.iota", 2, iota_ops, 0, NULL, 1, dyn), "iota takes (length: i64, start, step) scalars");
  const char *scalar[] = {"f32"};
  check_message(verify_built("fuser.reshape", 1, &x, 0, NULL, 1, scalar), "needs a result shape of rank <= 8");
  /* a well-formed op passes: the harness itself can tell good from bad */
  const char *neg[] = {"tensor<2x3xf32>"};
  CHECK(strcmp(verify_built("fuser.neg", 1, one, 0, NULL, 1, neg), "") == 0);
}

/* The importer calls the inference directly with the script's shape, which
 * may hold a negative extent that no MLIR type can. */
static const char *infer_reshape_to(int64_t extent) {
  static char err[256];
  MlirValue x = arg(0);
  int64_t shape[1] = {extent};
  fuser_op_desc d = {.id = FUSER_OP_reshape, .num_operands = 1, .operands = &x, .hint_rank = 1,
                     .hint_shape = shape, .hint_dtype = FUSER_DTYPE_INVALID};
  MlirType result;
  err[0] = 0;
  if (fuser_infer_result_types(ctx, &d, &result, err, sizeof err)) strcpy(err, "");
  return err;
}

static void test_inference_from_c(void) {
  check_message(infer_reshape_to(-5), "result extent -5 of dim 0 is negative");
  CHECK(strcmp(infer_reshape_to(6), "") == 0);
}

int main(void) {
  ctx = fuser_context_create();
  CHECK(!mlirContextIsNull(ctx));
  module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString("func.func @values(%a: tensor<2x3xf32>, %b: f32, %c: i64, %d: f64, "
                                          "%e: tensor<2x3xi1>) { return }"));
  CHECK(!mlirModuleIsNull(module));
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  test_missing_attributes();
  test_operand_kinds();
  test_inference_from_c();
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
