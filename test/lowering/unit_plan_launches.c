/* unit_plan_launches: the plan model reads a call's launches from the
 * plan's fuser.launch ops (lowering/plan_launches.c, after
 * fuser-plan-launches) and refuses, with an error located at the op, what
 * the artifact cannot carry: a grid in y or z, a block that is not a
 * constant, dynamic shared memory, an entry without PTX, variants of one
 * call passing different parameters, an index flag of a kernel without
 * index ops, a call with no launch. The well-formed plan reads: two
 * variants, the vector one under its condition, the grid a program of the
 * input's size, the pointers resolved to input 0 and output 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/expr.h"
#include "lowering/plan_model_build.h"
#include "unit.h"

/* A plan of one call of @k (neg of a `?` vector) and its launches: LAUNCHES
 * is spliced in after the call; %g the grid, %one, %c128, %zero constants,
 * %al an alignment condition, %a / %r the input's and the result's
 * addresses, %n the size. */
static const char *head =
    "module {\n"
    "  func.func @f(%arg0: tensor<?xf32>) -> tensor<?xf32> attributes {fuser.fusion, fuser.plan} {\n"
    "    %out = call @k(%arg0) {fuser.cuts = [\"fusion output\"]} : (tensor<?xf32>) -> tensor<?xf32>\n"
    "    %n = \"fuser.size\"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64\n"
    "    %one = \"fuser.scalar\"() {value = 1 : i64} : () -> i64\n"
    "    %two = \"fuser.scalar\"() {value = 2 : i64} : () -> i64\n"
    "    %zero = \"fuser.scalar\"() {value = 0 : i64} : () -> i64\n"
    "    %c16 = \"fuser.scalar\"() {value = 16 : i64} : () -> i64\n"
    "    %c128 = \"fuser.scalar\"() {value = 128 : i64} : () -> i64\n"
    "    %g = \"fuser.ceildiv\"(%n, %c128) : (i64, i64) -> i64\n"
    "    %a = \"fuser.address\"(%arg0) : (tensor<?xf32>) -> i64\n"
    "    %r = \"fuser.address\"(%out) : (tensor<?xf32>) -> i64\n"
    "    %m = \"fuser.fmod\"(%a, %c16) : (i64, i64) -> i64\n"
    "    %al = \"fuser.eq\"(%m, %zero) : (i64, i64) -> i1\n"
    "    %flag = \"fuser.index_flag\"() : () -> i64\n";
static const char *tail =
    "    return %out : tensor<?xf32>\n"
    "  }\n"
    "  func.func private @k(%arg0: tensor<?xf32> {fuser.strides = array<i64: 1>}) -> (tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {\n"
    "    %0 = \"fuser.neg\"(%arg0) : (tensor<?xf32>) -> tensor<?xf32>\n"
    "    return %0 : tensor<?xf32>\n"
    "  }\n"
    "  gpu.binary @bin [#gpu.object<#nvvm.target, \".entry k__vector .entry k__scalar\">]\n"
    "}\n";

static const char *vector_launch =
    "    \"fuser.launch\"(%g, %one, %one, %c128, %one, %one, %zero, %al, %a, %r, %n) {entry = @bin::@k__vector, kernel = @k, "
    "variant = \"vector\", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 3>} : (i64, i64, i64, i64, i64, i64, i64, i1, i64, "
    "i64, i64) -> ()\n";
static const char *scalar_launch =
    "    \"fuser.launch\"(%g, %one, %one, %c128, %one, %one, %zero, %a, %r, %n) {entry = @bin::@k__scalar, kernel = @k, "
    "variant = \"scalar\", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 3>} : (i64, i64, i64, i64, i64, i64, i64, i64, i64, "
    "i64) -> ()\n";

/* Builds the model of head + launches + tail; returns whether the launches
 * read, the error in err. */
static bool read_plan(MlirContext ctx, const char *launches, fuser_plan_model *model, char *err, size_t errlen) {
  size_t n = strlen(head) + strlen(launches) + strlen(tail) + 1;
  char *text = malloc(n);
  snprintf(text, n, "%s%s%s", head, launches, tail);
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  CHECK(!mlirModuleIsNull(m));
  if (mlirModuleIsNull(m)) return false;
  MlirOperation op = mlirModuleGetOperation(m);
  err[0] = 0;
  bool ok = fuser_plan_model_build(op, model, err, errlen) && fuser_plan_model_add_launches(model, op, err, errlen);
  mlirModuleDestroy(m);
  return ok;
}

/* The launches `launches` are refused with an error naming `why`. */
static void refused(MlirContext ctx, const char *launches, const char *why) {
  fuser_plan_model model;
  char err[1024];
  bool ok = read_plan(ctx, launches, &model, err, sizeof err);
  CHECK(!ok);
  if (ok || !strstr(err, why)) printf("expected an error with '%s', got '%s'\n", why, ok ? "(read)" : err);
  CHECK(strstr(err, why) != NULL);
  fuser_plan_model_free(&model);
}

static char *with(const char *from, const char *old, const char *new) {
  const char *at = strstr(from, old);
  size_t n = strlen(from) - strlen(old) + strlen(new) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%.*s%s%s", (int)(at - from), from, new, at + strlen(old));
  return s;
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  fuser_plan_model model;
  char err[1024], both[4096], text[512];
  snprintf(both, sizeof both, "%s%s", vector_launch, scalar_launch);
  bool ok = read_plan(ctx, both, &model, err, sizeof err);
  if (!ok) printf("%s\n", err);
  CHECK(ok);
  if (ok) {
    CHECK_EQ_INT(model.num_kernels, 1);
    const fpm_kernel *k = &model.kernels[0];
    CHECK_EQ_INT(k->num_variants, 2);
    CHECK_EQ_INT(k->num_params, 3);
    CHECK(strcmp(k->variants[0].entry, "k__vector") == 0 && strcmp(k->variants[1].entry, "k__scalar") == 0);
    CHECK_EQ_INT(k->variants[0].block, 128);
    CHECK(strcmp(fuser_expr_print(k->variants[0].grid, text, sizeof text), "ceildiv(size(0, 0), 128)") == 0);
    CHECK_EQ_INT(k->variants[0].num_conditions, 1);
    CHECK(strcmp(fuser_expr_print(k->variants[0].conditions[0], text, sizeof text), "(addr(0) % 16) == 0") == 0);
    CHECK_EQ_INT(k->variants[1].num_conditions, 0);
    CHECK(k->params[0].kind == FPM_PARAM_PTR && k->params[0].buffer == FPM_INPUT && k->params[0].index == 0);
    CHECK(k->params[1].kind == FPM_PARAM_PTR && k->params[1].buffer == FPM_OUTPUT && k->params[1].index == 0);
    CHECK(k->params[2].kind == FPM_PARAM_I64 && strcmp(fuser_expr_print(k->params[2].expr, text, sizeof text), "size(0, 0)") == 0);
  }
  fuser_plan_model_free(&model);

  /* the scalar launch changed in one place: what the reader refuses */
  static const struct {
    const char *old, *new, *why;
  } edits[] = {
      {"(%g, %one, %one,", "(%g, %two, %one,", "the artifact's launches are 1-D"},
      {"%c128, %one, %one, %zero", "%n, %one, %one, %zero", "a constant block"},
      {"%one, %one, %zero, %a", "%one, %one, %one, %a", "without dynamic shared memory"},
      {"@bin::@k__scalar", "@none::@k__scalar", "no PTX for k__scalar: run the PTX pipeline first"},
      {"%a, %r, %n)", "%a, %r, %flag)", "kernel k takes an index flag but has no index op"},
  };
  for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
    char *bad = with(scalar_launch, edits[i].old, edits[i].new);
    refused(ctx, bad, edits[i].why);
    free(bad);
  }
  /* after the vector launch, a scalar one passing the grid where the vector one passes the size */
  char *other = with(scalar_launch, "%a, %r, %n)", "%a, %r, %g)");
  snprintf(both, sizeof both, "%s%s", vector_launch, other);
  refused(ctx, both, "variants of k take different parameters");
  free(other);
  refused(ctx, "", "no launch for kernel k");
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
