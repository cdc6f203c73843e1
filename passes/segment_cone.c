/* A kernel's cone (fuser-segment): the ops it computes, from its roots up
 * to host values and other kernels' roots, and the globals and host
 * scalars it reads; scalar math the host cannot compute is cloned into the
 * kernel. */
#include <stdlib.h>

#include "passes/segment_internal.h"

static void add_cone_op(kernel_cone *k, MlirOperation op) {
  fuser_ptr_map_put(&k->in_cone, op.ptr, 1);
  if (k->nops == k->ops_cap) k->ops = realloc(k->ops, sizeof *k->ops * (k->ops_cap = k->ops_cap ? 2 * k->ops_cap : 32));
  k->ops[k->nops++] = op;
}

static void add_input(kernel_cone *k, MlirValue v) {
  if (fuser_ptr_map_get(&k->input_index, v.ptr, NULL)) return;
  if (k->ninputs == k->cap) k->inputs = realloc(k->inputs, sizeof *k->inputs * (k->cap = k->cap ? 2 * k->cap : 16));
  fuser_ptr_map_put(&k->input_index, v.ptr, k->ninputs);
  k->inputs[k->ninputs++] = v;
}

static bool is_constant_scalar(MlirValue v) {
  return !mlirValueIsABlockArgument(v) && fuser_op_id_of(mlirOpResultGetOwner(v)) == FUSER_OP_scalar;
}

/* A scalar the plan computes on the host and passes to kernels: an
 * argument, fuser.size/stride, or i64 +, -, * of such scalars (what the plan
 * model's polynomials over input sizes, strides and scalars express). */
static bool host_scalar(MlirValue v, int depth) {
  if (mlirValueIsABlockArgument(v)) return true;
  MlirOperation op = mlirOpResultGetOwner(v);
  fuser_op_id id = fuser_op_id_of(op);
  if (id == FUSER_OP_size || id == FUSER_OP_stride) return true;
  if (id == FUSER_OP_scalar) return fuser_value_dtype(v) == FUSER_DTYPE_I64;
  if ((id != FUSER_OP_add && id != FUSER_OP_sub && id != FUSER_OP_mul) || fuser_value_dtype(v) != FUSER_DTYPE_I64 ||
      depth > 64)
    return false;
  return host_scalar(mlirOperationGetOperand(op, 0), depth + 1) && host_scalar(mlirOperationGetOperand(op, 1), depth + 1);
}

/* Any other scalar computation (float math such as reciprocal(S), integer
 * division, casts) is recomputed in the prologue of each kernel that reads
 * it, from the host scalars it starts from. */
static bool kernel_scalar(MlirValue v) {
  if (is_tensor(v) || mlirValueIsABlockArgument(v)) return false;
  fuser_op_kind kind = fuser_op_kind_of(fuser_op_id_of(mlirOpResultGetOwner(v)));
  return (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) && !host_scalar(v, 0);
}

/* Iterative DFS (graphs of 10,000 ops must not exhaust the C stack). */
void seg_collect_cone(seg_state *st, kernel_cone *k, MlirValue root, int kernel) {
  MlirValue *stack = malloc(sizeof *stack * 64);
  int sp = 0, scap = 64;
  stack[sp++] = root;
  while (sp) {
    MlirValue v = stack[--sp];
    intptr_t ri;
    bool other_root = !mlirValueEqual(v, root) && fuser_ptr_map_get(&st->root_index, v.ptr, &ri) &&
                      st->roots[ri].kernel != kernel;
    if ((role(st, v) != ROLE_COMPUTE && !kernel_scalar(v)) || other_root) {
      if (!is_constant_scalar(v)) add_input(k, v);
      else if (!fuser_ptr_map_get(&k->in_cone, mlirOpResultGetOwner(v).ptr, NULL)) add_cone_op(k, mlirOpResultGetOwner(v));
      continue;
    }
    MlirOperation op = mlirOpResultGetOwner(v);
    if (fuser_ptr_map_get(&k->in_cone, op.ptr, NULL)) continue;
    add_cone_op(k, op);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      if (sp == scap) stack = realloc(stack, sizeof *stack * (scap *= 2));
      stack[sp++] = mlirOperationGetOperand(op, i);
    }
  }
  free(stack);
}
