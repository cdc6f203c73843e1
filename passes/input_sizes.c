/* fuser-input-sizes: a `fuser.size` of a computed tensor becomes the size
 * of a fusion argument's dim that is the same iteration dim (the dim graph,
 * nvFuser's exact map), or that dim's static extent, so that the host plan
 * can compute it: the plan evaluates sizes of its arguments only.
 * `rand_like(T)` of a computed T (dropout after a cast) and
 * `fd.ops.size(T, d)` of a computed T make such sizes. A size no argument
 * dim maps to is left alone (the plan then reports it).
 *
 * Before:
 *   %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
 *   %1 = "fuser.size"(%0) {dim = 1 : i64} : (tensor<?x?xf32>) -> i64
 * After:
 *   %1 = "fuser.size"(%arg0) {dim = 1 : i64} : (tensor<?x?xbf16>) -> i64
 *
 * No options. */
#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/pass.h"

/* The first tensor argument dim in class `cls`: its argument and dim. */
static bool argument_dim(fuser_dim_graph *g, MlirBlock body, int cls, MlirValue *arg, int *dim) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirValue a = mlirBlockGetArgument(body, i);
    if (!mlirTypeIsARankedTensor(mlirValueGetType(a))) continue;
    for (int d = 0; d < (int)mlirShapedTypeGetRank(mlirValueGetType(a)); d++)
      if (fuser_dim_class(g, fuser_dim_node(g, a, d)) == cls) {
        *arg = a, *dim = d;
        return true;
      }
  }
  return false;
}

static bool rewrite_sizes(MlirOperation func, void *ud) {
  (void)ud;
  MlirBlock body = fuser_func_body(func);
  fuser_dim_graph g;
  bool built = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (fuser_op_id_of(op) != FUSER_OP_size) continue;
    MlirValue t = mlirOperationGetOperand(op, 0);
    int64_t k;
    if (mlirValueIsABlockArgument(t) || !fuser_get_i64(op, "dim", &k)) continue;
    if (!built) fuser_dim_graph_build(&g, func), built = true;
    int node = fuser_dim_node(&g, t, (int)k);
    if (node < 0) continue;
    MlirContext ctx = mlirOperationGetContext(op);
    int64_t extent = fuser_dim_static_extent(&g, node);
    MlirValue arg;
    int dim;
    if (extent != mlirShapedTypeGetDynamicSize()) { /* a static extent: a constant */
      MlirNamedAttribute value = mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")),
                                                       mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), extent));
      MlirType i64 = mlirIntegerTypeGet(ctx, 64);
      MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("fuser.scalar"), mlirOperationGetLocation(op));
      mlirOperationStateAddResults(&st, 1, &i64);
      mlirOperationStateAddAttributes(&st, 1, &value);
      MlirOperation c = mlirOperationCreate(&st);
      mlirBlockInsertOwnedOperationBefore(body, op, c);
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(c, 0));
    } else if (argument_dim(&g, body, fuser_dim_class(&g, node), &arg, &dim)) {
      mlirOperationSetOperand(op, 0, arg);
      mlirOperationSetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("dim"),
                                                 mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), dim));
    }
  }
  if (built) fuser_dim_graph_free(&g);
  fuser_erase_dead_ops(body);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  (void)options;
  return fuser_for_each_fusion(op, rewrite_sizes, NULL);
}

const fuser_pass_info fuser_input_sizes_pass = {
    .argument = "fuser-input-sizes",
    .description = "Rewrite sizes of computed tensors as sizes of the fusion arguments (or constants) the host can compute",
    .anchor = "builtin.module",
    .run = run,
};
