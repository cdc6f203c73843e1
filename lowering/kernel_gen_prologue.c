/* kernel_gen_prologue.c: extents and scalars of the kernel generator (see
 * kernel_gen_internal.h). Both are point-independent, so they are made once
 * in the prologue and memoized per value. Both walks are iterative (a stack
 * of values whose operands are not made yet), so a long chain of ops does not
 * grow the C stack. The extent rules are passes/kernel_rules.h's, shared
 * with the access analysis. */
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/kernel_rules.h"

typedef struct {
  const void *value;
  int64_t dim;
} dim_key;

static dim_key dkey(MlirValue v, int j) {
  dim_key key;
  memset(&key, 0, sizeof key);
  key.value = v.ptr, key.dim = j;
  return key;
}

void kg_prologue_init(gen *g) {
  fuser_scoped_memo_init(&g->dims, sizeof(dim_key), sizeof(MlirValue));
  fuser_scoped_memo_init(&g->scalars, sizeof(void *), sizeof(kval));
}

static MlirValue *find_dim(gen *g, MlirValue v, int j) {
  dim_key key = dkey(v, j);
  return fuser_scoped_memo_find(&g->dims, &key);
}

/* The location of the op that defines v (the kernel's for an argument). */
static MlirLocation loc_of_value(gen *g, MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOperationGetLocation(mlirOpResultGetOwner(v)) : mlirOperationGetLocation(g->k->func);
}

MlirValue kg_dim_of(gen *g, MlirValue root, int root_dim) {
  MlirValue *known = find_dim(g, root, root_dim);
  if (known) return *known;
  typedef struct { MlirValue v; int j; } item;
  item *stack = malloc(16 * sizeof *stack);
  int n = 0, cap = 16;
  stack[n++] = (item){root, root_dim};
  fb_ip save = kg_enter_prologue(g);
  MlirLocation saved_loc = fb_get_loc(&g->b);
  while (n > 0 && !g->failed) {
    item it = stack[n - 1];
    if (find_dim(g, it.v, it.j)) {
      n--;
      continue;
    }
    fk_extent_rule r = fk_extent_rule_of(it.v, it.j);
    item need[2];
    int nneed = 0;
    if (r.kind == FK_EXTENT_FOLLOW || r.kind == FK_EXTENT_SUM) need[nneed++] = (item){r.a, r.dim};
    if (r.kind == FK_EXTENT_SUM) need[nneed++] = (item){r.b, r.dim};
    bool ready = true;
    for (int i = nneed - 1; i >= 0; i--) {
      if (find_dim(g, need[i].v, need[i].j)) continue;
      if (n == cap) stack = realloc(stack, (size_t)(cap *= 2) * sizeof *stack);
      stack[n++] = need[i];
      ready = false;
    }
    if (!ready) continue;
    fb_set_loc(&g->b, loc_of_value(g, it.v));
    MlirValue d = g->zero_index;
    switch (r.kind) {
    case FK_EXTENT_STATIC: d = kg_cidx(g, r.value); break;
    case FK_EXTENT_ARG: d = kg_param(g, FK_PARAM_SIZE, r.arg, r.dim); break;
    case FK_EXTENT_FOLLOW: d = fb_addi_const(&g->b, *find_dim(g, r.a, r.dim), r.add); break;
    case FK_EXTENT_SUM: d = fb_binary(&g->b, "arith.addi", *find_dim(g, r.a, r.dim), *find_dim(g, r.b, r.dim)); break;
    case FK_EXTENT_SCALAR: {
      kval s = kg_scalar_of(g, r.a);
      fb_set_loc(&g->b, loc_of_value(g, it.v));
      d = fb_index_cast(&g->b, s.v, fb_index_type(&g->b));
      break;
    }
    case FK_EXTENT_UNKNOWN:
      kg_fail_op(g, fk_owner(it.v), "lowering: cannot derive a symbolic extent through this op");
      break;
    }
    dim_key key = dkey(it.v, it.j);
    fuser_scoped_memo_push(&g->dims, &key, &d);
    n--;
  }
  free(stack);
  fb_set_loc(&g->b, saved_loc);
  kg_leave_prologue(g, save);
  known = find_dim(g, root, root_dim);
  return known ? *known : g->zero_index;
}

/* ---- scalars -------------------------------------------------------------- */

static kval *find_scalar(gen *g, MlirValue v) { return fuser_scoped_memo_find(&g->scalars, &v.ptr); }

/* The constant of a fuser.scalar op. */
static kval scalar_constant(gen *g, MlirOperation op, fuser_dtype dt) {
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("value"));
  if (!kg_is_float(dt) && dt != FUSER_DTYPE_I1 && mlirAttributeIsAInteger(a))
    return (kval){fb_const_int(&g->b, kg_elem_type(g, dt), mlirIntegerAttrGetValueInt(a)), false, dt};
  double val = mlirAttributeIsAFloat(a) ? mlirFloatAttrGetValueDouble(a)
               : mlirAttributeIsABool(a) ? mlirBoolAttrGetValue(a)
                                          : (double)mlirIntegerAttrGetValueInt(a);
  return kg_const(g, val, dt, false);
}

kval kg_scalar_of(gen *g, MlirValue root) {
  kval *known = find_scalar(g, root);
  if (known) return *known;
  MlirValue *stack = malloc(16 * sizeof *stack);
  int n = 0, cap = 16;
  stack[n++] = root;
  fb_ip save = kg_enter_prologue(g);
  MlirLocation saved_loc = fb_get_loc(&g->b);
  int saved_w = g->W;
  g->W = 1; /* scalars are scalars in every variant */
  while (n > 0 && !g->failed) {
    MlirValue v = stack[n - 1];
    if (find_scalar(g, v)) {
      n--;
      continue;
    }
    kval r = {.v = g->zero_index, .dt = fuser_value_dtype(v)};
    MlirOperation op = fk_owner(v);
    fuser_op_id id = mlirOperationIsNull(op) ? FUSER_OP_NONE : fuser_op_id_of(op);
    int no = mlirOperationIsNull(op) || id == FUSER_OP_scalar ? 0 : (int)mlirOperationGetNumOperands(op);
    if (no > 3) no = 3;
    bool ready = true;
    for (int i = no - 1; i >= 0 && id != FUSER_OP_NONE; i--) {
      MlirValue o = mlirOperationGetOperand(op, i);
      if (find_scalar(g, o)) continue;
      if (n == cap) stack = realloc(stack, (size_t)(cap *= 2) * sizeof *stack);
      stack[n++] = o;
      ready = false;
    }
    if (!ready) continue;
    if (mlirValueIsABlockArgument(v)) {
      r.v = kg_param(g, FK_PARAM_SCALAR, (int)mlirBlockArgumentGetArgNumber(v), -1);
    } else if (id == FUSER_OP_scalar) {
      fb_set_loc(&g->b, mlirOperationGetLocation(op));
      r = scalar_constant(g, op, r.dt);
    } else if (id != FUSER_OP_NONE) {
      kval ops[3];
      for (int i = 0; i < no; i++) ops[i] = *find_scalar(g, mlirOperationGetOperand(op, i));
      fb_set_loc(&g->b, mlirOperationGetLocation(op));
      r = kg_elementwise(g, op, id, ops, no, r.dt);
    } else {
      kg_fail_op(g, op, "lowering: unsupported scalar producer");
    }
    fuser_scoped_memo_push(&g->scalars, &v.ptr, &r);
    n--;
  }
  g->W = saved_w;
  free(stack);
  fb_set_loc(&g->b, saved_loc);
  kg_leave_prologue(g, save);
  known = find_scalar(g, root);
  return known ? *known : (kval){g->zero_index, false, fuser_value_dtype(root)};
}
