/* Unit tests for the extent analysis: the op rules of dialects/extent.h
 * evaluated on polynomials by passes/symbolic_extents.c, on fusions whose
 * inputs have symbolic sizes. Each case is a function; the extents of its
 * ops' results (and what they require of the extents) are printed compactly
 * and compared:
 *   s0.1  size of argument 0, dim 1      v2  the i64 scalar argument 2
 * This executable links the pass library alone. */
#include <stdio.h>
#include <string.h>

#include "dialects/extent.h"
#include "dialects/fuser.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/symbolic_extents.h"
#include "unit.h"

static void poly_text(const fuser_poly *p, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  if (p->overflow) {
    snprintf(buf, cap, "!");
    return;
  }
  if (p->nt == 0) snprintf(buf, cap, "0");
  for (int i = 0; i < p->nt && n < cap; i++) {
    const fuser_term *t = &p->t[i];
    const char *sep = "";
    n += snprintf(buf + n, cap - n, "%s", i ? " + " : "");
    if (t->coeff != 1 || t->nf == 0) n += snprintf(buf + n, cap - n, "%lld", (long long)t->coeff), sep = "*";
    for (int k = 0; k < t->nf && n < cap; k++, sep = "*") {
      const fuser_sym *s = &t->f[k];
      if (s->kind == FUSER_SYM_SCALAR) n += snprintf(buf + n, cap - n, "%sv%d", sep, s->arg);
      else n += snprintf(buf + n, cap - n, "%s%c%d.%d", sep, s->kind == FUSER_SYM_SIZE ? 's' : 't', s->arg, s->dim);
    }
  }
}

/* "[e0, e1] [e0] ... | a == b; c <= d": every tensor result of the body's
 * ops, then the equalities and bounds they require; or "fails at fuser.X". */
static void describe(MlirContext ctx, const char *body, char *out, size_t cap) {
  char text[4096];
  snprintf(text, sizeof text, "func.func @f%s\n  return\n}\n", body);
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(m)) {
    snprintf(out, cap, "does not parse");
    return;
  }
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  if (fuser_verify(mlirModuleGetOperation(m)) != 0) {
    snprintf(out, cap, "does not verify");
    mlirModuleDestroy(m);
    return;
  }
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  fuser_symbolic_extents x;
  fuser_symbolic_extents_init(&x);
  fuser_symbolic_extents_set_args(&x, b);
  MlirOperation failed;
  size_t n = 0;
  out[0] = 0;
  if (!fuser_symbolic_extents_derive(&x, b, &failed)) {
    snprintf(out, cap, "fails at %s", fuser_op_full_name(fuser_op_id_of(failed)));
  } else {
    char p[256];
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
        MlirValue v = mlirOperationGetResult(op, r);
        const fuser_poly *s = fuser_symbolic_extents_of(&x, v);
        if (!s) continue;
        n += snprintf(out + n, cap - n, "%s[", n ? " " : "");
        for (int d = 0; d < mlirShapedTypeGetRank(mlirValueGetType(v)); d++) {
          poly_text(&s[d], p, sizeof p);
          n += snprintf(out + n, cap - n, "%s%s", d ? ", " : "", p);
        }
        n += snprintf(out + n, cap - n, "]");
      }
    for (int i = 0; i < x.nchecks; i++) {
      char q[256];
      poly_text(&x.checks[i].a, p, sizeof p);
      poly_text(&x.checks[i].b, q, sizeof q);
      n += snprintf(out + n, cap - n, "%s%s %s %s", i ? "; " : " | ", p, x.checks[i].at_most ? "<=" : "==", q);
    }
  }
  fuser_symbolic_extents_free(&x);
  mlirModuleDestroy(m);
}

static int expect(MlirContext ctx, const char *body, const char *want) {
  char got[2048];
  describe(ctx, body, got, sizeof got);
  if (strcmp(got, want) == 0) return 1;
  fprintf(stderr, "want: %s\n got: %s\n", want, got);
  return 0;
}

#define T "tensor<"

static void test_elementwise(MlirContext ctx) {
  /* two symbolic non-broadcast extents: equal at run time */
  CHECK(expect(ctx, "(%a: " T "?x8xf32>, %b: " T "?x8xf32>) {\n"
                    "  %0 = \"fuser.add\"(%a, %b) : (" T "?x8xf32>, " T "?x8xf32>) -> " T "?x8xf32>\n",
               "[s0.0, 8] | s1.0 == s0.0"));
  /* a static 1 broadcasts; a static extent joined with a symbolic one */
  CHECK(expect(ctx, "(%a: " T "1x?xf32>, %b: " T "?x?xf32>, %c: " T "4x?xf32>) {\n"
                    "  %0 = \"fuser.mul\"(%a, %b) : (" T "1x?xf32>, " T "?x?xf32>) -> " T "?x?xf32>\n"
                    "  %1 = \"fuser.sub\"(%0, %c) : (" T "?x?xf32>, " T "4x?xf32>) -> " T "4x?xf32>\n",
               "[s1.0, s0.1] [4, s0.1] | s1.1 == s0.1; s1.0 == 4; s2.1 == s0.1"));
}

static void test_resize(MlirContext ctx) {
  /* a slice's extents are static; its end must be inside the input */
  CHECK(expect(ctx, "(%a: " T "?x?xf32>) {\n"
                    "  %0 = \"fuser.slice\"(%a) {start_indices = array<i64: 1, 0>, end_indices = array<i64: 4, 5>, "
                    "strides = array<i64: 1, 1>} : (" T "?x?xf32>) -> " T "3x5xf32>\n",
               "[3, 5] | 4 <= s0.0; 5 <= s0.1"));
  CHECK(expect(ctx, "(%a: " T "?x?xf32>, %v: f32) {\n"
                    "  %0 = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: 1, 2>} : (" T "?x?xf32>, f32) -> " T "?x?xf32>\n"
                    "  %1 = \"fuser.pad\"(%a, %v) {pad_widths = array<i64: 1, 2, -1, 0>} : (" T "?x?xf32>, f32) -> " T "?x?xf32>\n",
               "[s0.0, 3 + s0.1] [-1 + s0.0, 3 + s0.1]"));
  /* the cat dim sums, the other dims are equal */
  CHECK(expect(ctx, "(%a: " T "?x?xf32>, %b: " T "?x?xf32>) {\n"
                    "  %0 = \"fuser.cat\"(%a, %b) {dim = 0 : i64} : (" T "?x?xf32>, " T "?x?xf32>) -> " T "?x?xf32>\n",
               "[s0.0 + s1.0, s0.1] | s1.1 == s0.1"));
}

static void test_shape_operands(MlirContext ctx) {
  /* reshape, broadcast_in_dim and expand take `?` extents from i64 scalars:
   * arguments, fuser.size of a tensor, and their arithmetic; a reshape
   * keeps the element count */
  CHECK(expect(ctx, "(%a: " T "?x?xf32>, %n: i64) {\n"
                    "  %m = \"fuser.mul\"(%n, %n) : (i64, i64) -> i64\n"
                    "  %0 = \"fuser.reshape\"(%a, %n, %m) : (" T "?x?xf32>, i64, i64) -> " T "?x8x?xf32>\n",
               "[v1, 8, v1*v1] | s0.0*s0.1 == 8*v1*v1*v1"));
  CHECK(expect(ctx, "(%a: " T "?xf32>, %n: i64) {\n"
                    "  %s = \"fuser.size\"(%a) {dim = 0 : i64} : (" T "?xf32>) -> i64\n"
                    "  %0 = \"fuser.broadcast_in_dim\"(%a, %n, %s) {broadcast_dims = array<i64: 1>} : (" T "?xf32>, i64, i64) -> " T "?x?xf32>\n"
                    "  %1 = \"fuser.broadcast\"(%a) {is_broadcast_dim = array<i1: true, false>} : (" T "?xf32>) -> " T "1x?xf32>\n"
                    "  %2 = \"fuser.expand\"(%1, %n, %s) : (" T "1x?xf32>, i64, i64) -> " T "?x?xf32>\n",
               "[v1, s0.0] [1, s0.0] [v1, s0.0]"));
  /* an input dim that is not 1 has the requested extent: checked where symbolic */
  CHECK(expect(ctx, "(%a: " T "?xf32>, %b: " T "1x?xf32>, %n: i64) {\n"
                    "  %0 = \"fuser.broadcast_in_dim\"(%a, %n) {broadcast_dims = array<i64: 1>} : (" T "?xf32>, i64) -> " T "4x?xf32>\n"
                    "  %1 = \"fuser.expand\"(%b, %n) : (" T "1x?xf32>, i64) -> " T "4x?xf32>\n"
                    "  %2 = \"fuser.broadcast_in_dim\"(%a) {broadcast_dims = array<i64: 0>} : (" T "?xf32>) -> " T "6xf32>\n",
               "[4, v2] [4, v2] [6] | s0.0 == v2; s1.1 == v2; s0.0 == 6"));
  CHECK(expect(ctx, "(%n: i64, %v: f32) {\n"
                    "  %0 = \"fuser.full\"(%v, %n) : (f32, i64) -> " T "?x4xf32>\n"
                    "  %1 = \"fuser.iota\"(%n, %n, %n) : (i64, i64, i64) -> " T "?xi64>\n",
               "[v0, 4] [v0]"));
  /* an extent that is no polynomial of the arguments: the op that needs it */
  CHECK(expect(ctx, "(%a: " T "?xf32>, %n: i64) {\n"
                    "  %m = \"fuser.div\"(%n, %n) : (i64, i64) -> i64\n"
                    "  %0 = \"fuser.reshape\"(%a, %m) : (" T "?xf32>, i64) -> " T "?xf32>\n",
               "fails at fuser.reshape"));
}

static void test_dims(MlirContext ctx) {
  CHECK(expect(ctx, "(%a: " T "?x?x?xf32>) {\n"
                    "  %0 = \"fuser.sum\"(%a) {dims = array<i64: 1>, keepdim = true} : (" T "?x?x?xf32>) -> " T "?x1x?xf32>\n"
                    "  %1 = \"fuser.max\"(%a) {dims = array<i64: 0, 2>, keepdim = false} : (" T "?x?x?xf32>) -> " T "?xf32>\n"
                    "  %2:2 = \"fuser.var_mean\"(%a) {dims = array<i64: 2>, correction = 1 : i64, keepdim = false} : (" T
                    "?x?x?xf32>) -> (" T "?x?xf32>, " T "?x?xf32>)\n",
               "[s0.0, 1, s0.2] [s0.1] [s0.0, s0.1] [s0.0, s0.1]"));
  CHECK(expect(ctx, "(%a: " T "?x1x?xf32>, %b: " T "?x?x4xf32>) {\n"
                    "  %0 = \"fuser.squeeze\"(%a) {dims = array<i64: 1>} : (" T "?x1x?xf32>) -> " T "?x?xf32>\n"
                    "  %1 = \"fuser.permute\"(%b) {dims = array<i64: 2, 0, 1>} : (" T "?x?x4xf32>) -> " T "4x?x?xf32>\n",
               "[s0.0, s0.2] [4, s1.0, s1.1]"));
}

static void test_matmul(MlirContext ctx) {
  /* batch, M from a, N from b; the contraction extents are equal */
  CHECK(expect(ctx, "(%a: " T "?x?x?xf32>, %b: " T "?x?xf32>) {\n"
                    "  %0 = \"fuser.matmul\"(%a, %b) : (" T "?x?x?xf32>, " T "?x?xf32>) -> " T "?x?x?xf32>\n",
               "[s0.0, s0.1, s1.1] | s0.2 == s1.0"));
  /* a batch dim of 1 broadcasts */
  CHECK(expect(ctx, "(%a: " T "1x?x?xf32>, %b: " T "?x?x?xf32>) {\n"
                    "  %0 = \"fuser.matmul\"(%a, %b) : (" T "1x?x?xf32>, " T "?x?x?xf32>) -> " T "?x?x?xf32>\n",
               "[s1.0, s0.1, s1.2] | s0.2 == s1.1"));
  CHECK(expect(ctx, "(%x: " T "?x?xf32>, %w: " T "?x?xf32>, %bias: " T "?xf32>) {\n"
                    "  %0 = \"fuser.linear\"(%x, %w, %bias) : (" T "?x?xf32>, " T "?x?xf32>, " T "?xf32>) -> " T "?x?xf32>\n",
               "[s0.0, s1.0] | s0.1 == s1.1; s2.0 == s1.0"));
}

static void test_index(MlirContext ctx) {
  CHECK(expect(ctx, "(%a: " T "?x?xf32>, %i: " T "?xi64>, %j: " T "?x?xi64>) {\n"
                    "  %0 = \"fuser.index_select\"(%a, %i) {dim = 0 : i64} : (" T "?x?xf32>, " T "?xi64>) -> " T "?x?xf32>\n"
                    "  %1 = \"fuser.gather\"(%a, %j) {dim = 1 : i64} : (" T "?x?xf32>, " T "?x?xi64>) -> " T "?x?xf32>\n"
                    "  %2 = \"fuser.take_along_axis\"(%a, %j) {dim = 1 : i64} : (" T "?x?xf32>, " T "?x?xi64>) -> " T "?x?xf32>\n",
               "[s1.0, s0.1] [s2.0, s2.1] [s0.0, s2.1] | s2.0 <= s0.0; s0.0 == s2.0"));
}

/* The rules themselves, as the inference sees an op before it exists. */
static void test_rules(MlirContext ctx) {
  const char *text = "func.func @f(%a: tensor<?x8xf32>, %b: tensor<3x8xf32>) {\n"
                     "  %0 = \"fuser.cat\"(%a, %b) {dim = 0 : i64} : (tensor<?x8xf32>, tensor<3x8xf32>) -> tensor<?x8xf32>\n"
                     "  return\n}\n";
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  CHECK(!mlirModuleIsNull(m));
  if (mlirModuleIsNull(m)) return;
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirOperation cat = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
  fuser_op_desc_storage s;
  fuser_extent e[FUSER_MAX_RANK];
  CHECK(fuser_op_desc_of(cat, &s, NULL, 0));
  CHECK_EQ_INT(fuser_extent_rules(&s.desc, e), 2);
  CHECK(e[0].kind == FUSER_EXTENT_SUM && e[0].nrefs == 2 && e[0].ref[1].operand == 1 && e[0].ref[1].dim == 0);
  CHECK(e[1].kind == FUSER_EXTENT_EQUAL && fuser_extent_operand_static(&s.desc, e[1].ref[1]) == 8);
  fuser_extent_requirement q[FUSER_EXTENT_MAX_REQUIREMENTS];
  CHECK_EQ_INT(fuser_extent_requirements(&s.desc, q), 0);
  mlirModuleDestroy(m);
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  test_elementwise(ctx);
  test_resize(ctx);
  test_shape_operands(ctx);
  test_dims(ctx);
  test_matmul(ctx);
  test_index(ctx);
  test_rules(ctx);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
