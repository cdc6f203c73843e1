/* Unit tests for the passes' support code: passes/ptr_map.c (the hash map
 * the analyses key by MLIR handles), passes/symbolic.c (canonical
 * polynomials of sizes and strides), passes/dim_graph.c (the exact dim
 * map), passes/ir_util.c (dead-op erasure), passes/scoped_memo.c (the
 * walkers' memo) and the registry. This executable links the pass library
 * alone: every pass is reachable from the registry, so a reference from
 * passes/ to the lowering fails its link. */
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/pass.h"
#include "passes/ptr_map.h"
#include "passes/scoped_memo.h"
#include "passes/symbolic.h"
#include "unit.h"

static void test_ptr_map(void) {
  fuser_ptr_map m;
  fuser_ptr_map_init(&m);
  char keys[1000];
  for (int i = 0; i < 1000; i++) fuser_ptr_map_put(&m, &keys[i], i * 3); /* grows past 64 */
  intptr_t v = -1;
  bool all = true;
  for (int i = 0; i < 1000; i++) all &= fuser_ptr_map_get(&m, &keys[i], &v) && v == i * 3;
  CHECK(all);
  fuser_ptr_map_put(&m, &keys[5], 7); /* overwrite */
  CHECK(fuser_ptr_map_get(&m, &keys[5], &v) && v == 7);
  CHECK_EQ_INT(m.count, 1000);
  int other;
  CHECK(!fuser_ptr_map_get(&m, &other, NULL));
  fuser_ptr_map_free(&m);
}

static void test_symbolic(void) {
  fuser_poly a = fuser_poly_sym(FUSER_SYM_SIZE, 2, 1), b = fuser_poly_sym(FUSER_SYM_SIZE, 2, 2);
  fuser_poly ab = fuser_poly_mul(a, b), ba = fuser_poly_mul(b, a);
  CHECK(fuser_poly_equal(&ab, &ba)); /* canonical factor order */
  fuser_poly s = fuser_poly_add(fuser_poly_add(ab, fuser_poly_const(3)), fuser_poly_mul(ba, fuser_poly_const(-1)));
  int64_t v;
  CHECK(fuser_poly_is_const(&s, &v) && v == 3); /* like terms cancel */
  fuser_poly z = fuser_poly_mul(a, fuser_poly_const(0));
  CHECK(fuser_poly_is_const(&z, &v) && v == 0);
  fuser_poly big = fuser_poly_const(1); /* too many factors: overflow, never a wrong answer */
  for (int i = 0; i < FUSER_POLY_MAX_FACTORS + 1; i++) big = fuser_poly_mul(big, fuser_poly_sym(FUSER_SYM_STRIDE, i, 0));
  CHECK(big.overflow);
  CHECK(!fuser_poly_equal(&big, &big));
}

static const char *fusion =
    "func.func @f(%a: tensor<?x?xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {\n"
    "  %0 = \"fuser.broadcast_in_dim\"(%b) {broadcast_dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>\n"
    "  %1 = \"fuser.add\"(%a, %0) : (tensor<?x?xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n"
    "  %2 = \"fuser.neg\"(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32>\n"
    "  %3 = \"fuser.exp\"(%2) : (tensor<?x?xf32>) -> tensor<?x?xf32>\n"
    "  %4 = \"fuser.slice\"(%1) {start_indices = array<i64: 0, 0>, end_indices = array<i64: 2, 8>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<2x8xf32>\n"
    "  return %1 : tensor<4x8xf32>\n"
    "}\n";

static void test_dim_graph_and_dead_ops(MlirContext ctx) {
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(fusion));
  CHECK(!mlirModuleIsNull(m));
  if (mlirModuleIsNull(m)) return;
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirBlock body = fuser_func_body(func);
  fuser_dim_graph g;
  fuser_dim_graph_build(&g, func);
  MlirValue a = mlirBlockGetArgument(body, 0), b = mlirBlockGetArgument(body, 1);
  /* %a's `?x?` is pinned to 4x8 by the add with the broadcast */
  CHECK_EQ_INT(fuser_dim_static_extent(&g, fuser_dim_node(&g, a, 0)), 4);
  CHECK_EQ_INT(fuser_dim_static_extent(&g, fuser_dim_node(&g, a, 1)), 8);
  CHECK_EQ_INT(fuser_dim_class(&g, fuser_dim_node(&g, a, 1)), fuser_dim_class(&g, fuser_dim_node(&g, b, 0)));
  /* a resized dim (slice 0:2 of 4) is not the same dim */
  MlirOperation slice = mlirBlockGetFirstOperation(body);
  for (int i = 0; i < 4; i++) slice = mlirOperationGetNextInBlock(slice);
  MlirValue s = mlirOperationGetResult(slice, 0);
  CHECK(fuser_dim_class(&g, fuser_dim_node(&g, s, 0)) != fuser_dim_class(&g, fuser_dim_node(&g, a, 0)));
  CHECK(fuser_dim_class(&g, fuser_dim_node(&g, s, 1)) == fuser_dim_class(&g, fuser_dim_node(&g, a, 1)));
  fuser_dim_graph_free(&g);
  /* dead chains (neg -> exp, the slice) go in one sweep; the rest stays */
  fuser_erase_dead_ops(body);
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) n++;
  CHECK_EQ_INT(n, 3); /* broadcast_in_dim, add, return */
  mlirModuleDestroy(m);
}

static void test_scoped_memo(void) {
  fuser_scoped_memo m;
  fuser_scoped_memo_init(&m, 2 * sizeof(int64_t), sizeof(int));
  int64_t key[2] = {1, 0};
  bool all = true;
  for (int i = 0; i < 500; i++) { /* grows past 64 */
    key[1] = i;
    fuser_scoped_memo_push(&m, key, &i);
  }
  for (int i = 0; i < 500; i++) {
    key[1] = i;
    int *v = fuser_scoped_memo_find(&m, key);
    all &= v && *v == i;
  }
  CHECK(all);
  int mark = fuser_scoped_memo_mark(&m), shadow = -7;
  key[1] = 3;
  fuser_scoped_memo_push(&m, key, &shadow); /* an inner scope shadows */
  CHECK(*(int *)fuser_scoped_memo_find(&m, key) == -7);
  key[1] = 900;
  fuser_scoped_memo_push(&m, key, &shadow);
  fuser_scoped_memo_pop_to(&m, mark); /* the scope ends: the outer value again */
  key[1] = 3;
  CHECK(*(int *)fuser_scoped_memo_find(&m, key) == 3);
  key[1] = 900;
  CHECK(fuser_scoped_memo_find(&m, key) == NULL);
  fuser_scoped_memo_free(&m);
}

/* The registry holds the passes of passes/ and none of the lowering's
 * (those are registered by lowering/register.c). */
static void test_registry(void) {
  CHECK(fuser_pass_lookup("fuser-vectorize", 15) != NULL);
  CHECK(fuser_pass_lookup("fuser-schedule", 14) != NULL);
  CHECK(fuser_pass_lookup("fuser-lower-kernels", 19) == NULL);
  int n = fuser_pass_count();
  for (int i = 0; i < n; i++) CHECK(fuser_pass_at(i)->run != NULL);
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  test_scoped_memo();
  test_registry();
  test_ptr_map();
  test_symbolic();
  test_dim_graph_and_dead_ops(ctx);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
