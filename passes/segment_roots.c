/* fuser-segment's cut rules (segment.c has the whole story): which
 * tensors are materialized in global memory, each with the reason its
 * kernel call records in fuser.cuts. Values are classified (host or
 * compute), reductions followed through their row spaces (inner, outer
 * persistent), kernels bounded by the op budget, outputs aliased to inputs
 * given a copy, and values shared by kernels of different shapes
 * materialized when expensive to recompute. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "passes/schedule_reduction.h"
#include "passes/segment_internal.h"

void seg_add_root(seg_state *st, MlirValue v, const char *reason) {
  if (is_root(st, v)) return;
  if (st->nroots == st->cap) st->roots = realloc(st->roots, sizeof *st->roots * (st->cap = st->cap ? 2 * st->cap : 16));
  root_info *r = &st->roots[st->nroots];
  r->value = v;
  r->kernel = -1;
  snprintf(r->reason, sizeof r->reason, "%s", reason);
  fuser_ptr_map_put(&st->root_index, v.ptr, st->nroots++);
}

/* Whether two tensors have the same extents: static ones equal, `?` ones
 * proved equal by the dim graph (two `?x?` tensors of unrelated inputs
 * may differ at run time, so they cannot share an iteration space). */
bool seg_same_shape(seg_state *st, MlirValue a, MlirValue b) {
  MlirType x = mlirValueGetType(a), y = mlirValueGetType(b);
  if (mlirShapedTypeGetRank(x) != mlirShapedTypeGetRank(y)) return false;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(x); d++) {
    bool dx = mlirShapedTypeIsDynamicDim(x, d), dy = mlirShapedTypeIsDynamicDim(y, d);
    if (!dx && !dy) {
      if (mlirShapedTypeGetDimSize(x, d) != mlirShapedTypeGetDimSize(y, d)) return false;
      continue;
    }
    /* a symbolic dim is the same as another (or as a static one: a
     * script's `?` rows meeting its literal [16]) when the dim graph unifies them */
    if (fuser_dim_class(&st->g, fuser_dim_node(&st->g, a, (int)d)) != fuser_dim_class(&st->g, fuser_dim_node(&st->g, b, (int)d)))
      return false;
  }
  return true;
}

/* Host values live in the plan: arguments, views, scalars. */
void seg_classify(seg_state *st) {
  intptr_t pos = 0;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(st->body); i++) {
    fuser_ptr_map_put(&st->role, mlirBlockGetArgument(st->body, i).ptr, ROLE_HOST);
    fuser_ptr_map_put(&st->position, mlirBlockGetArgument(st->body, i).ptr, pos++);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(st->body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      fuser_ptr_map_put(&st->position, mlirOperationGetResult(op, r).ptr, pos++);
    st->next_position = pos;
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_NONE) continue;
    bool host = id == FUSER_OP_view || mlirOperationGetNumResults(op) == 0 || !is_tensor(mlirOperationGetResult(op, 0));
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      fuser_ptr_map_put(&st->role, mlirOperationGetResult(op, r).ptr, host ? ROLE_HOST : ROLE_COMPUTE);
  }
}

/* A shared value whose inline cone has more compute ops than this is
 * computed once and materialized rather than recomputed in every kernel. */
#define EXPENSIVE 8

/* Whether `res` lies in the row space of reduction input `space` with its
 * dims `red` = [from, from + k) reduced (from * 64 + k): the same rank,
 * every kept dim the same iteration dim, every reduced dim the same or of
 * extent 1 (the reduced value itself, or broadcast back). A row schedule
 * (inner or outer persistent) then computes the reduction and this
 * consumer in one kernel. */
static bool in_row_space(seg_state *st, MlirValue space, int red, MlirValue res) {
  MlirType s = mlirValueGetType(space), r = mlirValueGetType(res);
  if (!mlirTypeIsARankedTensor(r) || mlirShapedTypeGetRank(s) != mlirShapedTypeGetRank(r)) return false;
  int rank = (int)mlirShapedTypeGetRank(s), from = red / 64, to = from + red % 64;
  for (int d = 0; d < rank; d++) {
    int a = fuser_dim_class(&st->g, fuser_dim_node(&st->g, space, d));
    int b = fuser_dim_class(&st->g, fuser_dim_node(&st->g, res, d));
    bool one = !mlirShapedTypeIsDynamicDim(r, d) && mlirShapedTypeGetDimSize(r, d) == 1;
    if (a != b && !(d >= from && d < to && one)) return false;
  }
  return true;
}

/* The row space a value with a reduction in its cone follows (NULL: none,
 * e.g. an outer reduction no block holds); *red: its reduced dims. */
static MlirValue row_space_of(seg_state *st, MlirValue v, int *red) {
  intptr_t s = 0, kk = 0;
  if (!fuser_ptr_map_get(&st->row_space, v.ptr, &s)) return (MlirValue){NULL};
  fuser_ptr_map_get(&st->row_reduced, v.ptr, &kk);
  *red = (int)kk;
  return (MlirValue){(const void *)s};
}

/* The row space of reduction `op` (its input), or NULL: inner reductions
 * always (the inner schedules take any row), outer and middle-dim ones
 * when the outer persistent schedule holds their rows in one block
 * (*declined: their rows, -1 when symbolic, where it does not). */
static MlirValue reduction_row_space(seg_state *st, MlirOperation op, int *red, intptr_t *tree, intptr_t *declined) {
  MlirValue in = mlirOperationGetOperand(op, 0);
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(in)), from = 0, k = 0;
  *tree = 0;
  *declined = 0;
  if (fuser_reduction_is_inner(op, &k)) {
    *red = (rank - k) * 64 + k;
    return in;
  }
  if (!fuser_reduction_is_outer(op, &k) && !fuser_reduction_is_batched_outer(op, &from, &k)) return (MlirValue){NULL};
  int64_t rows = 1;
  for (int d = from; d < from + k && rows >= 0; d++) {
    int64_t e = fuser_dim_static_extent(&st->g, fuser_dim_node(&st->g, in, d));
    rows = e < 0 ? -1 : rows * e;
  }
  /* the tree bytes of the outer reductions upstream in the same row space (softmax's max before its sum) */
  intptr_t up = 0, up_red = 0;
  if (fuser_ptr_map_get(&st->row_tree, in.ptr, &up) && fuser_ptr_map_get(&st->row_reduced, in.ptr, &up_red) && up_red != from * 64 + k) up = 0;
  *tree = up + fuser_reduction_tree_bytes(op);
  if (rows < 0 || !fuser_outer_persistent_fits(rows, (int)*tree)) {
    *declined = rows < 0 ? -1 : rows;
    return (MlirValue){NULL};
  }
  *red = from * 64 + k;
  return in;
}

/* A compute operand of a kernel op: a tensor computed in the same kernel
 * (not a host value, not materialized). */
static bool inline_operand(seg_state *st, MlirValue o) { return role(st, o) == ROLE_COMPUTE && !is_root(st, o); }

static intptr_t ops_of(seg_state *st, MlirValue v) {
  intptr_t c = 0;
  fuser_ptr_map_get(&st->ops, v.ptr, &c);
  return c;
}

/* 1 + the bounds of op's inline operands (a use counts each time). */
static intptr_t ops_bound(seg_state *st, MlirOperation op) {
  intptr_t n = 1;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (inline_operand(st, mlirOperationGetOperand(op, i))) n += ops_of(st, mlirOperationGetOperand(op, i));
  return n;
}

/* The exact number of distinct ops in op's inline cone, counted up to
 * limit + 1 (the walk stops there, so it costs O(limit)). */
static intptr_t cone_ops_upto(seg_state *st, MlirOperation op, intptr_t limit) {
  fuser_ptr_map seen;
  fuser_ptr_map_init(&seen);
  int sp = 0, scap = 64;
  MlirOperation *stack = malloc(sizeof *stack * scap);
  intptr_t n = 0;
  stack[sp++] = op;
  fuser_ptr_map_put(&seen, op.ptr, 1);
  while (sp && n <= limit) {
    MlirOperation o = stack[--sp];
    n++;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); i++) {
      MlirValue v = mlirOperationGetOperand(o, i);
      if (!inline_operand(st, v) || fuser_ptr_map_get(&seen, mlirOpResultGetOwner(v).ptr, NULL)) continue;
      fuser_ptr_map_put(&seen, mlirOpResultGetOwner(v).ptr, 1);
      if (sp == scap) stack = realloc(stack, sizeof *stack * (scap *= 2));
      stack[sp++] = mlirOpResultGetOwner(v);
    }
  }
  free(stack);
  fuser_ptr_map_free(&seen);
  return n;
}

/* The kernel op budget: when op's inline cone would hold more than
 * `budget` ops, its largest inline operands are materialized until the rest
 * fits. The bound is checked against the exact count first, so values used
 * twice (x * x) do not cut early. Records the bound of op's results. */
static void apply_op_budget(seg_state *st, MlirOperation op) {
  if (st->budget <= 0) return;
  intptr_t n = ops_bound(st, op);
  if (n > st->budget) {
    intptr_t exact = cone_ops_upto(st, op, st->budget);
    if (exact <= st->budget) n = exact;
    char reason[96];
    snprintf(reason, sizeof reason, "kernel op budget: more than %lld ops (max-kernel-ops)", (long long)st->budget);
    while (n > st->budget) {
      MlirValue largest = {NULL};
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
        MlirValue o = mlirOperationGetOperand(op, i);
        if (inline_operand(st, o) && (mlirValueIsNull(largest) || ops_of(st, o) > ops_of(st, largest))) largest = o;
      }
      if (mlirValueIsNull(largest)) break;
      seg_add_root(st, largest, reason);
      n = ops_bound(st, op);
    }
  }
  if (n > st->budget + 1) n = st->budget + 1;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) fuser_ptr_map_put(&st->ops, mlirOperationGetResult(op, r).ptr, n);
}

/* Each aliased output becomes `fuser.set` of its value, defined last (so
 * its kernel is launched last); the value itself is materialized first.
 * A view of K written into K would read what it overwrites: refused. */
bool seg_insert_alias_copies(seg_state *st) {
  MlirOperation ret = mlirBlockGetTerminator(st->body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    int k = alias_input_of(st->func, (int)i);
    if (k < 0) continue;
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (!mlirValueIsABlockArgument(v) && fuser_op_id_of(mlirOpResultGetOwner(v)) == FUSER_OP_view &&
        mlirValueEqual(mlirOperationGetOperand(mlirOpResultGetOwner(v), 0), mlirBlockGetArgument(st->body, k))) {
      mlirEmitError(mlirOperationGetLocation(mlirOpResultGetOwner(v)),
                    "an output aliased to an input is a view of that same input: not supported (it would read what it "
                    "overwrites)");
      return false;
    }
    MlirType t = mlirValueGetType(v);
    MlirOperation copy = fuser_create_op(mlirOperationGetLocation(ret), "fuser.set", 1, &v, 1, &t, 0, NULL);
    fuser_insert_before(ret, copy);
    mlirOperationSetOperand(ret, i, mlirOperationGetResult(copy, 0));
    fuser_ptr_map_put(&st->alias_copy, mlirOperationGetResult(copy, 0).ptr, 1);
  }
  return true;
}

/* Decides the materialized tensors (roots), in program order. */
void seg_find_roots(seg_state *st) {
  for (MlirOperation op = mlirBlockGetFirstOperation(st->body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_NONE || role(st, mlirOperationGetResult(op, 0)) != ROLE_COMPUTE) continue;
    fuser_op_kind kind = fuser_op_kind_of(id);
    bool reduces = kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN;
    bool red = reduces;
    apply_op_budget(st, op);
    intptr_t cost = 1;
    MlirValue space = {NULL};
    int space_k = 0;
    intptr_t tree = 0, declined = 0;
    if (reduces) space = reduction_row_space(st, op, &space_k, &tree, &declined);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue o = mlirOperationGetOperand(op, i);
      if (role(st, o) != ROLE_COMPUTE || is_root(st, o)) continue;
      intptr_t c = 0;
      fuser_ptr_map_get(&st->cost, o.ptr, &c);
      cost += c;
      bool o_red = fuser_ptr_map_get(&st->has_red, o.ptr, NULL);
      int ok_k = 0;
      MlirValue o_space = o_red ? row_space_of(st, o, &ok_k) : (MlirValue){NULL};
      /* A reduction's result consumed at another shape: materialize it,
       * unless a row schedule holds both (the consumer stays in the
       * reduction's row space: a normalization's broadcast back). */
      if (o_red && !reduces && is_tensor(o) && !seg_same_shape(st, o, mlirOperationGetResult(op, 0))) {
        if (mlirValueIsNull(o_space) || !in_row_space(st, o_space, ok_k, mlirOperationGetResult(op, 0))) {
          /* an outer reduction broadcast back that no block holds says why */
          intptr_t rows = 0;
          char why[160] = "reduction result consumed at a different shape", *end = why + strlen(why);
          if (fuser_ptr_map_get(&st->declined, o.ptr, &rows) && rows < 0)
            snprintf(end, sizeof why - (size_t)(end - why), " (an outer reduction broadcast back over symbolic rows: no block holds them)");
          else if (rows > 0)
            snprintf(end, sizeof why - (size_t)(end - why), " (an outer reduction broadcast back over %lld rows: more than one block holds)",
                     (long long)rows);
          seg_add_root(st, o, why);
          continue;
        }
      }
      /* A reduction of a value that already holds one: one kernel only when
       * both reduce the same innermost dims of the same rows (softmax's sum
       * of exp(x - max)); else the first is computed in its own kernel. */
      if (o_red && reduces) {
        bool same_rows = !mlirValueIsNull(o_space) && !mlirValueIsNull(space) && ok_k == space_k &&
                         in_row_space(st, o_space, ok_k, mlirOperationGetOperand(op, 0));
        if (!same_rows) {
          seg_add_root(st, o, "reduction of a reduced value over other rows");
          continue;
        }
      }
      if (o_red && !reduces && mlirValueIsNull(space)) space = o_space, space_k = ok_k;
      intptr_t t = 0;
      if (!reduces && fuser_ptr_map_get(&st->row_tree, o.ptr, &t) && t > tree) tree = t;
      if (!reduces && fuser_ptr_map_get(&st->declined, o.ptr, &t) && declined == 0) declined = t;
      red |= o_red;
    }
    if (kind == FUSER_KIND_MATMUL) { /* cuBLASLt: its own segment, operands in global memory */
      seg_add_root(st, mlirOperationGetResult(op, 0), "matmul runs in cuBLASLt (a segment of its own)");
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
        if (role(st, mlirOperationGetOperand(op, i)) == ROLE_COMPUTE)
          seg_add_root(st, mlirOperationGetOperand(op, i), "matmul operand (cuBLASLt reads it from global memory)");
      red = false;
    }
    if (id == FUSER_OP_segment_set && role(st, mlirOperationGetOperand(op, 0)) == ROLE_COMPUTE) {
      seg_add_root(st, mlirOperationGetResult(op, 0), "segment_set materializes a computed tensor");
      red = false;
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      if (red) fuser_ptr_map_put(&st->has_red, mlirOperationGetResult(op, r).ptr, 1);
      if (red && !mlirValueIsNull(space)) {
        fuser_ptr_map_put(&st->row_space, mlirOperationGetResult(op, r).ptr, (intptr_t)space.ptr);
        fuser_ptr_map_put(&st->row_reduced, mlirOperationGetResult(op, r).ptr, space_k);
        if (tree > 0) fuser_ptr_map_put(&st->row_tree, mlirOperationGetResult(op, r).ptr, tree);
      }
      if (red && declined != 0) fuser_ptr_map_put(&st->declined, mlirOperationGetResult(op, r).ptr, declined);
      fuser_ptr_map_put(&st->cost, mlirOperationGetResult(op, r).ptr, cost > EXPENSIVE ? EXPENSIVE + 1 : cost);
    }
  }
  MlirOperation ret = mlirBlockGetTerminator(st->body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (!is_alias_copy(st, v)) {
      if (role(st, v) == ROLE_COMPUTE) seg_add_root(st, v, "fusion output");
      continue;
    }
    MlirValue src = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
    if (role(st, src) == ROLE_COMPUTE) seg_add_root(st, src, "an output written into an input: computed before the copy");
    seg_add_root(st, v, "fusion output written into its aliased input, after every kernel");
  }
}

/* Walks root `ri`'s cone; a value already in the cone of a root of another
 * shape (another iteration space, so another kernel) that is expensive to
 * recompute (a reduction in its cone, or more than EXPENSIVE ops) becomes a
 * root itself. Returns whether it added roots. */
static bool claim_cone(seg_state *st, fuser_ptr_map *claimed, int ri) {
  MlirValue root = st->roots[ri].value;
  bool added = false;
  MlirValue *stack = malloc(sizeof *stack * 64);
  int sp = 0, scap = 64;
  stack[sp++] = root;
  while (sp) {
    MlirValue v = stack[--sp];
    if (role(st, v) != ROLE_COMPUTE || (!mlirValueEqual(v, root) && is_root(st, v))) continue;
    intptr_t owner;
    if (fuser_ptr_map_get(claimed, v.ptr, &owner)) {
      if (owner == ri || seg_same_shape(st, st->roots[owner].value, root)) continue;
      intptr_t cost = 0;
      fuser_ptr_map_get(&st->cost, v.ptr, &cost);
      if (fuser_ptr_map_get(&st->has_red, v.ptr, NULL) || cost > EXPENSIVE) {
        seg_add_root(st, v, "computed once for kernels of different shapes");
        added = true;
      }
      continue;
    }
    fuser_ptr_map_put(claimed, v.ptr, ri);
    MlirOperation op = mlirOpResultGetOwner(v);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      if (sp == scap) stack = realloc(stack, sizeof *stack * (scap *= 2));
      stack[sp++] = mlirOperationGetOperand(op, i);
    }
  }
  free(stack);
  return added;
}

/* Materializes expensive values shared by kernels of different shapes,
 * until no cone shares one (each round cuts cones, so this converges).
 * Consumers are walked first (roots in reverse program order), so a chain
 * shared by many reductions is cut at every reduction in one round. */
void seg_materialize_shared(seg_state *st) {
  for (bool again = true; again;) {
    again = false;
    fuser_ptr_map claimed;
    fuser_ptr_map_init(&claimed);
    int n = st->nroots;
    int *order = malloc(sizeof *order * (n + 1));
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && position_of(st, st->roots[order[j - 1]].value) < position_of(st, st->roots[order[j]].value); j--) {
        int t = order[j];
        order[j] = order[j - 1];
        order[j - 1] = t;
      }
    for (int i = 0; i < n; i++) again |= claim_cone(st, &claimed, order[i]);
    free(order);
    fuser_ptr_map_free(&claimed);
  }
}
