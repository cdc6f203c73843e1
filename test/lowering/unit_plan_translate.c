/* unit_plan_translate: the translator from the plan's host SSA to the
 * runtime's expression programs (lowering/plan_translate.h). Each return
 * operand of a small function is translated; the program is printed
 * (fuser_expr_print) and run (fuser_expr_eval) on a 6 x 4 input with
 * strides 5, 1 and the scalar 7; what it cannot translate is refused with
 * an error located at the op. */
#include <stdio.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/expr.h"
#include "lowering/plan_translate.h"
#include "unit.h"

static const char *ir =
    "func.func @f(%t: tensor<?x?xf32>, %s: i64, %x: f32) -> (i1, i64, i1, i64, i1, i64, i64, f32, i64, i64, i64, i64, i64) {\n"
    "  %0 = \"fuser.size\"(%t) {dim = 0 : i64} : (tensor<?x?xf32>) -> i64\n"
    "  %1 = \"fuser.stride\"(%t) {dim = 0 : i64} : (tensor<?x?xf32>) -> i64\n"
    "  %2 = \"fuser.mul\"(%0, %1) : (i64, i64) -> i64\n"
    "  %3 = \"fuser.scalar\"() {value = 30 : i64} : () -> i64\n"
    "  %4 = \"fuser.ge\"(%2, %3) : (i64, i64) -> i1\n"
    "  %5 = \"fuser.sub\"(%s, %0) : (i64, i64) -> i64\n"
    "  %6 = \"fuser.maximum\"(%5, %1) : (i64, i64) -> i64\n"
    "  %7 = \"fuser.eq\"(%6, %3) : (i64, i64) -> i1\n"
    "  %8 = \"fuser.logical_and\"(%4, %7) : (i1, i1) -> i1\n"
    "  %c = arith.constant 3 : i64\n"
    "  %9 = arith.addi %s, %c : i64\n"
    "  %10 = arith.cmpi slt, %9, %2 : i64\n"
    "  %11 = \"fuser.div\"(%0, %1) : (i64, i64) -> i64 loc(\"t.py\":9:4)\n"
    "  %12 = \"fuser.add\"(%11, %s) : (i64, i64) -> i64\n"
    "  %13 = arith.cmpi ult, %0, %1 : i64 loc(\"t.py\":11:2)\n"
    "  %14 = arith.extui %13 : i1 to i64 loc(\"t.py\":12:2)\n"
    "  %15 = \"fuser.add\"(%x, %x) : (f32, f32) -> f32 loc(\"t.py\":13:2)\n"
    "  %16 = \"fuser.size\"(%t) {dim = 1 : i64} : (tensor<?x?xf32>) -> i64\n"
    "  %17 = \"fuser.scalar\"() {value = 4 : i64} : () -> i64\n"
    "  %18 = \"fuser.ceildiv\"(%0, %17) : (i64, i64) -> i64\n"
    "  %19 = \"fuser.fmod\"(%18, %17) : (i64, i64) -> i64\n"
    "  %20 = \"fuser.address\"(%t) : (tensor<?x?xf32>) -> i64\n"
    "  %21 = arith.divsi %s, %c : i64\n"
    "  %22 = arith.remsi %s, %c : i64\n"
    "  %23 = arith.addi %21, %22 : i64\n"
    "  %24 = \"fuser.remainder\"(%s, %0) : (i64, i64) -> i64 loc(\"t.py\":24:2)\n"
    "  return %4, %6, %8, %9, %10, %12, %14, %15, %16, %19, %20, %23, %24 : i1, i64, i1, i64, i1, i64, i64, f32, i64, i64, i64, i64, i64\n"
    "}\n";

static void translated(MlirValue v, const char *text, int64_t value, const fuser_arg *args) {
  char err[512] = "", got[512] = "";
  struct fuser_expr *e = fuser_plan_translate(v, err, sizeof err);
  CHECK(e != NULL);
  if (!e) {
    printf("not translated: %s\n", err);
    return;
  }
  fuser_expr_print(e, got, sizeof got);
  if (strcmp(got, text) != 0) printf("got '%s', want '%s'\n", got, text);
  CHECK(strcmp(got, text) == 0);
  int64_t r = 0;
  CHECK_EQ_INT(fuser_expr_eval(e, args, 3, &r), FUSER_EXPR_OK);
  CHECK_EQ_INT(r, value);
  fuser_plan_program_free(e);
}

static void refused(MlirValue v, const char *message) {
  char err[512] = "";
  struct fuser_expr *e = fuser_plan_translate(v, err, sizeof err);
  CHECK(e == NULL);
  if (!strstr(err, message)) printf("error '%s' lacks '%s'\n", err, message);
  CHECK(strstr(err, message) != NULL);
  fuser_plan_program_free(e);
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(ir));
  CHECK(!mlirModuleIsNull(m));
  if (mlirModuleIsNull(m)) UNIT_MAIN_END();
  MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirOperation ret = mlirBlockGetTerminator(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)));
  int64_t shape[2] = {6, 4}, strides[2] = {5, 1};
  DLTensor t = {.ndim = 2, .shape = shape, .strides = strides};
  fuser_arg args[3] = {fuser_arg_tensor(&t), fuser_arg_int(7), fuser_arg_double(1.5)};
  translated(mlirOperationGetOperand(ret, 0), "(size(0, 0) * stride(0, 0)) >= 30", 1, args);
  translated(mlirOperationGetOperand(ret, 1), "max(scalar(1) - size(0, 0), stride(0, 0))", 5, args);
  translated(mlirOperationGetOperand(ret, 2), "((size(0, 0) * stride(0, 0)) >= 30) && (max(scalar(1) - size(0, 0), stride(0, 0)) == 30)", 0,
             args);
  translated(mlirOperationGetOperand(ret, 3), "scalar(1) + 3", 10, args);
  translated(mlirOperationGetOperand(ret, 4), "(scalar(1) + 3) < (size(0, 0) * stride(0, 0))", 1, args);
  translated(mlirOperationGetOperand(ret, 8), "size(0, 1)", 4, args);
  /* integer div and fmod truncate (C, CUDA, the runtime's DIV and MOD); ceildiv for a positive divisor */
  translated(mlirOperationGetOperand(ret, 5), "(size(0, 0) / stride(0, 0)) + scalar(1)", 8, args);
  translated(mlirOperationGetOperand(ret, 9), "ceildiv(size(0, 0), 4) % 4", 2, args);
  translated(mlirOperationGetOperand(ret, 10), "addr(0)", 0, args); /* the DLTensor's data: NULL here */
  translated(mlirOperationGetOperand(ret, 11), "(scalar(1) / 3) + (scalar(1) % 3)", 3, args);
  refused(mlirOperationGetOperand(ret, 12), "t.py:24:2: 'fuser.remainder' is not a host expression");
  refused(mlirOperationGetOperand(ret, 6), "t.py:12:2: 'arith.extui' is not a host expression");
  refused(mlirOperationGetOperand(ret, 7), "t.py:13:2: 'fuser.add' is not an integer scalar");
  /* an unsigned compare has no instruction */
  MlirValue ult = mlirOperationGetOperand(mlirOpResultGetOwner(mlirOperationGetOperand(ret, 6)), 0);
  refused(ult, "t.py:11:2: 'arith.cmpi' compares unsigned");
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
