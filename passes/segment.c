/* fuser-segment: partition a fusion into as few kernels as correctness
 * allows, outline them, and turn the fusion body into a host plan.
 *
 * A tensor is materialized in global memory only when it must be:
 *   - it is a fusion output (that is not an input or a view of one);
 *   - it is a `segment_set` of a computed tensor;
 *   - it depends on a reduction and is consumed at a different shape
 *     (re-evaluating it per consumer element would repeat the reduction),
 *     unless the consumer stays in the reduction's row space: an inner
 *     reduction (its input's innermost dims), its broadcast back and its
 *     epilogue are one kernel, which the inner-persistent row schedule
 *     computes with the row in registers (passes/schedule_reduction.h);
 *     so are an outer or middle-dim reduction (softmax over dim 1 of
 *     [B, C, W]) and its broadcast back when the outer persistent schedule
 *     holds its C rows in one block (fuser_outer_persistent_fits; else the
 *     cut says why);
 *   - it holds a reduction and is reduced again over other rows;
 *   - it is a matmul/linear result or operand: each product is a kernel of
 *     its own (attribute `fuser.matmul`), which the plan runs through
 *     cuBLASLt, reading its operands from global memory;
 *   - a kernel would compute more than `max-kernel-ops` ops (default 1000):
 *     the largest operands of the op that crosses the budget are cut
 *     ("kernel op budget"), and kernels of one shape and level share a
 *     kernel only within the budget. LLVM's NVPTX code generation of one
 *     kernel body grows faster than linearly with its size (its DAG combiner
 *     over one basic block); bounded bodies keep a 100,000-op chain's
 *     compile time linear, as nvFuser's segmenter bounds its segments.
 * Everything else is recomputed inside the kernels that need it: pointwise
 * ops, casts, broadcasts, slice, pad and cat fuse with their producers and
 * consumers (no forced boundary before resize ops, unlike nvFuser #1597,
 * #2599); views of inputs are read in place; alias outputs make no kernel.
 * An output written into an input (`fuser.alias_input = K`, nvFuser's
 * add_output(out, alias_input)) is computed into a temporary and copied
 * into argument K's buffer by a kernel of its own, launched after every
 * kernel, so no kernel reads K after (or while) it is overwritten.
 * Each materialized tensor is the root of a kernel whose iteration space is
 * its shape; independent roots of the same shape share a kernel. Scalars
 * reach kernels as parameters when the plan can compute them on the host
 * (arguments, sizes, strides and i64 + - * of them); other scalar math is
 * cloned into the kernels that use it (their prologue computes it).
 *
 * Kernels become private functions `@<fusion>_k<N>` (attribute
 * `fuser.kernel`) over the global tensors they read, each argument and
 * result annotated with `fuser.strides` (its buffer's layout). The fusion
 * body keeps its views and host scalars and calls the kernels in order;
 * each call says why it exists (`fuser.cuts`). The reference evaluator runs
 * the plan unchanged, which is how segmentation is checked.
 *
 * Before:
 *   func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
 *     %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
 *     %1 = "fuser.exp"(%0) : (tensor<8xf32>) -> tensor<8xf32>
 *     return %1 : tensor<8xf32>
 * After:
 *   func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
 *     %0 = call @f_k0(%a) {fuser.cuts = ["fusion output"]} : (tensor<8xf32>) -> tensor<8xf32>
 *     return %0 : tensor<8xf32>
 *   func.func private @f_k0(%arg0: tensor<8xf32> {fuser.strides = array<i64: 1>})
 *       -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
 *     %0 = "fuser.neg"(%arg0) ...  %1 = "fuser.exp"(%0) ...  return %1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/layout.h"
#include "passes/pass.h"
#include "passes/ptr_map.h"
#include "passes/schedule_reduction.h"

/* Per-value facts, in a ptr_map to small integers. */
enum { ROLE_HOST = 1, ROLE_COMPUTE = 2 };

typedef struct {
  MlirValue value;
  char reason[160];
  int kernel;
} root_info;

typedef struct {
  MlirOperation func;
  MlirBlock body;
  MlirContext ctx;
  fuser_dim_graph g;
  fuser_ptr_map role;       /* value -> ROLE_* */
  fuser_ptr_map has_red;    /* value -> 1 when its inline cone has a reduction */
  fuser_ptr_map cost;       /* value -> compute ops in its inline cone (capped) */
  fuser_ptr_map ops;        /* value -> compute ops in its inline cone, an upper bound up to
                               budget + 1 (exact along chains; shared ops count once per use) */
  intptr_t budget;          /* max-kernel-ops (0: none) */
  fuser_ptr_map row_space;  /* value with a reduction in its cone -> that reduction's input, when
                               the reduction is inner (reduces the input's innermost dims), or
                               outer / middle and held by the outer persistent schedule */
  fuser_ptr_map row_reduced; /* the same value -> the dims that reduction reduced, [from, from + k),
                               as from * 64 + k */
  fuser_ptr_map row_tree;   /* the same value -> the tree bytes per lane of the outer reductions
                               in its cone (fuser_reduction_tree_bytes, summed along the chain) */
  fuser_ptr_map declined;   /* value with an outer reduction broadcast back that no block holds in
                               its cone -> that reduction's rows (-1: symbolic) */
  fuser_ptr_map root_index; /* value -> index in roots */
  fuser_ptr_map position;   /* value -> definition order in the plan (arguments first) */
  intptr_t next_position;
  fuser_ptr_map written;    /* call result -> the fuser.strides it was written with */
  fuser_ptr_map alias_copy; /* the copy of an aliased output (fuser.alias_input) -> 1 */
  root_info *roots;
  int nroots, cap;
  int nkernels;
} seg_state;

static int role(seg_state *st, MlirValue v) {
  intptr_t r = 0;
  fuser_ptr_map_get(&st->role, v.ptr, &r);
  return (int)r;
}

static bool is_root(seg_state *st, MlirValue v) { return fuser_ptr_map_get(&st->root_index, v.ptr, NULL); }

static void add_root(seg_state *st, MlirValue v, const char *reason) {
  if (is_root(st, v)) return;
  if (st->nroots == st->cap) st->roots = realloc(st->roots, sizeof *st->roots * (st->cap = st->cap ? 2 * st->cap : 16));
  root_info *r = &st->roots[st->nroots];
  r->value = v;
  r->kernel = -1;
  snprintf(r->reason, sizeof r->reason, "%s", reason);
  fuser_ptr_map_put(&st->root_index, v.ptr, st->nroots++);
}

static bool is_tensor(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

/* Whether two tensors have the same extents: static ones equal, `?` ones
 * proved equal by the dim graph (two `?x?` tensors of unrelated inputs
 * may differ at run time, so they cannot share an iteration space). */
static bool same_shape(seg_state *st, MlirValue a, MlirValue b) {
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
static void classify(seg_state *st) {
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
    bool host = id == FUSER_OP_view || !is_tensor(mlirOperationGetResult(op, 0));
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
      add_root(st, largest, reason);
      n = ops_bound(st, op);
    }
  }
  if (n > st->budget + 1) n = st->budget + 1;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) fuser_ptr_map_put(&st->ops, mlirOperationGetResult(op, r).ptr, n);
}

static int alias_input_of(MlirOperation func, int result) {
  MlirAttribute a = fuser_func_result_attr(func, result, "fuser.alias_input");
  return mlirAttributeIsNull(a) ? -1 : (int)mlirIntegerAttrGetValueInt(a);
}

/* Each aliased output becomes `fuser.set` of its value, defined last (so
 * its kernel is launched last); the value itself is materialized first.
 * A view of K written into K would read what it overwrites: refused. */
static bool insert_alias_copies(seg_state *st) {
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

static bool is_alias_copy(seg_state *st, MlirValue v) { return fuser_ptr_map_get(&st->alias_copy, v.ptr, NULL); }

/* Decides the materialized tensors (roots), in program order. */
static void find_roots(seg_state *st) {
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
      if (o_red && !reduces && is_tensor(o) && !same_shape(st, o, mlirOperationGetResult(op, 0))) {
        if (mlirValueIsNull(o_space) || !in_row_space(st, o_space, ok_k, mlirOperationGetResult(op, 0))) {
          /* an outer reduction broadcast back that no block holds says why */
          intptr_t rows = 0;
          char why[160] = "reduction result consumed at a different shape", *end = why + strlen(why);
          if (fuser_ptr_map_get(&st->declined, o.ptr, &rows) && rows < 0)
            snprintf(end, sizeof why - (size_t)(end - why), " (an outer reduction broadcast back over symbolic rows: no block holds them)");
          else if (rows > 0)
            snprintf(end, sizeof why - (size_t)(end - why), " (an outer reduction broadcast back over %lld rows: more than one block holds)",
                     (long long)rows);
          add_root(st, o, why);
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
          add_root(st, o, "reduction of a reduced value over other rows");
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
      add_root(st, mlirOperationGetResult(op, 0), "matmul runs in cuBLASLt (a segment of its own)");
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
        if (role(st, mlirOperationGetOperand(op, i)) == ROLE_COMPUTE)
          add_root(st, mlirOperationGetOperand(op, i), "matmul operand (cuBLASLt reads it from global memory)");
      red = false;
    }
    if (id == FUSER_OP_segment_set && role(st, mlirOperationGetOperand(op, 0)) == ROLE_COMPUTE) {
      add_root(st, mlirOperationGetResult(op, 0), "segment_set materializes a computed tensor");
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
      if (role(st, v) == ROLE_COMPUTE) add_root(st, v, "fusion output");
      continue;
    }
    MlirValue src = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
    if (role(st, src) == ROLE_COMPUTE) add_root(st, src, "an output written into an input: computed before the copy");
    add_root(st, v, "fusion output written into its aliased input, after every kernel");
  }
}

/* The ops a kernel computes (its roots' cones up to host values and other
 * roots), collected as a mark per op. */
typedef struct {
  fuser_ptr_map in_cone; /* op -> 1 */
  fuser_ptr_map input_index;
  MlirValue *inputs;
  int ninputs, cap;
  MlirOperation *ops; /* the cone's ops, in discovery order */
  int nops, ops_cap;
} kernel_cone;

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
static void collect_cone(seg_state *st, kernel_cone *k, MlirValue root, int kernel) {
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

static intptr_t position_of(seg_state *st, MlirValue v) {
  intptr_t p = 0;
  fuser_ptr_map_get(&st->position, v.ptr, &p);
  return p;
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
      if (owner == ri || same_shape(st, st->roots[owner].value, root)) continue;
      intptr_t cost = 0;
      fuser_ptr_map_get(&st->cost, v.ptr, &cost);
      if (fuser_ptr_map_get(&st->has_red, v.ptr, NULL) || cost > EXPENSIVE) {
        add_root(st, v, "computed once for kernels of different shapes");
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
static void materialize_shared(seg_state *st) {
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

/* A matrix product's result: alone in its kernel (a cuBLASLt call). */
static bool is_matmul(MlirValue v) {
  return !mlirValueIsABlockArgument(v) && fuser_op_kind_of(fuser_op_id_of(mlirOpResultGetOwner(v))) == FUSER_KIND_MATMUL;
}

/* Assigns roots to kernels. A root's level is one more than the highest
 * level of the roots its cone reads (0 when it reads none); a root can only
 * depend on roots of lower levels, so roots of the same shape and level are
 * independent and share a kernel, as long as the kernel stays within the op
 * budget. One cone walk per root: linear in the size of the cones. */
static void group_roots(seg_state *st) {
  int n = st->nroots;
  int *order = malloc(sizeof *order * (n + 1)), *level = calloc(n + 1, sizeof *level);
  intptr_t *kernel_ops = calloc(n + 1, sizeof *kernel_ops); /* ops per kernel so far */
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = 1; i < n; i++) /* program order: inputs of a root come first */
    for (int j = i; j > 0 && position_of(st, st->roots[order[j - 1]].value) > position_of(st, st->roots[order[j]].value); j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int oi = 0; oi < n; oi++) {
    int i = order[oi];
    kernel_cone k = {0};
    fuser_ptr_map_init(&k.in_cone);
    fuser_ptr_map_init(&k.input_index);
    collect_cone(st, &k, st->roots[i].value, -2);
    for (int in = 0; in < k.ninputs; in++) {
      intptr_t ri;
      if (fuser_ptr_map_get(&st->root_index, k.inputs[in].ptr, &ri) && level[ri] + 1 > level[i]) level[i] = level[ri] + 1;
    }
    fuser_ptr_map_free(&k.in_cone);
    fuser_ptr_map_free(&k.input_index);
    free(k.inputs);
    root_info *r = &st->roots[i];
    for (int oj = 0; oj < oi && r->kernel < 0 && !is_alias_copy(st, r->value); oj++) {
      root_info *o = &st->roots[order[oj]];
      bool fits = st->budget <= 0 || kernel_ops[o->kernel] + k.nops <= st->budget;
      if (level[order[oj]] == level[i] && same_shape(st, o->value, r->value) && fits && !is_matmul(o->value) &&
          !is_matmul(r->value))
        r->kernel = o->kernel;
    }
    if (r->kernel < 0) r->kernel = st->nkernels++;
    kernel_ops[r->kernel] += k.nops; /* cones of one kernel may share ops: an upper bound */
    free(k.ops);
  }
  free(order);
  free(level);
  free(kernel_ops);
}

/* Element strides of a global tensor as the kernel will read it. */
static MlirAttribute strides_of(seg_state *st, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t strides[FUSER_MAX_RANK], shape[FUSER_MAX_RANK], so[FUSER_MAX_RANK];
  if (mlirValueIsABlockArgument(v)) {
    int arg = (int)mlirBlockArgumentGetArgNumber(v);
    int64_t known[FUSER_MAX_RANK];
    for (int d = 0; d < rank; d++) known[d] = fuser_dim_static_extent(&st->g, fuser_dim_node(&st->g, v, d));
    fuser_layout l;
    fuser_arg_layout(st->func, arg, known, &l);
    fuser_layout_static_strides(&l, strides);
    return mlirDenseI64ArrayGet(st->ctx, rank, strides);
  }
  intptr_t written;
  if (fuser_ptr_map_get(&st->written, v.ptr, &written)) return (MlirAttribute){(const void *)written};
  MlirOperation def = mlirOpResultGetOwner(v);
  if (fuser_op_id_of(def) == FUSER_OP_view)
    return mlirOperationGetDiscardableAttributeByName(def, mlirStringRefCreateFromCString("static_strides"));
  for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(t, d);
  bool ordered = fuser_get_i64_array(def, "fuser.stride_order", so, FUSER_MAX_RANK) == rank;
  fuser_dense_strides(rank, shape, ordered ? so : NULL, strides);
  return mlirDenseI64ArrayGet(st->ctx, rank, strides);
}

/* Layout a kernel result is written with: the aliased input's, the fusion
 * output's stride order when it is one, else its producer's. */
static MlirAttribute result_strides(seg_state *st, MlirValue v) {
  MlirOperation ret = mlirBlockGetTerminator(st->body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    if (!mlirValueEqual(mlirOperationGetOperand(ret, i), v)) continue;
    int k = alias_input_of(st->func, (int)i);
    if (k >= 0) return strides_of(st, mlirBlockGetArgument(st->body, k)); /* written into argument k */
    MlirAttribute so = fuser_func_result_attr(st->func, (int)i, "fuser.stride_order");
    if (mlirAttributeIsNull(so)) break;
    MlirType t = mlirValueGetType(v);
    int rank = (int)mlirShapedTypeGetRank(t);
    int64_t shape[FUSER_MAX_RANK], order[FUSER_MAX_RANK], strides[FUSER_MAX_RANK];
    for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeGetDimSize(t, d), order[d] = mlirDenseI64ArrayGetElement(so, d);
    fuser_dense_strides(rank, shape, order, strides);
    return mlirDenseI64ArrayGet(st->ctx, rank, strides);
  }
  return strides_of(st, v);
}

static MlirAttribute dict1(MlirContext ctx, const char *name, MlirAttribute a) {
  MlirNamedAttribute e = fuser_named(ctx, name, a);
  return mlirDictionaryAttrGet(ctx, mlirAttributeIsNull(a) ? 0 : 1, &e);
}

/* Kernel parameters in plan order: arguments first, then by definition
 * (insertion sort: kernels read few globals). */
static void sort_inputs(seg_state *st, kernel_cone *k) {
  intptr_t *pos = malloc(sizeof *pos * (k->ninputs + 1));
  for (int i = 0; i < k->ninputs; i++) {
    pos[i] = 0;
    fuser_ptr_map_get(&st->position, k->inputs[i].ptr, &pos[i]);
  }
  for (int i = 1; i < k->ninputs; i++)
    for (int j = i; j > 0 && pos[j - 1] > pos[j]; j--) {
      intptr_t p = pos[j];
      pos[j] = pos[j - 1];
      pos[j - 1] = p;
      MlirValue v = k->inputs[j];
      k->inputs[j] = k->inputs[j - 1];
      k->inputs[j - 1] = v;
    }
  for (int i = 0; i < k->ninputs; i++) fuser_ptr_map_put(&k->input_index, k->inputs[i].ptr, i);
  free(pos);
}

/* The cone's ops in program order (by their first result's position). */
static int by_position(const void *a, const void *b) {
  intptr_t x = ((const intptr_t *)a)[0], y = ((const intptr_t *)b)[0];
  return x < y ? -1 : x > y;
}

static void sort_cone_ops(seg_state *st, kernel_cone *k) {
  intptr_t *pairs = malloc(sizeof *pairs * 2 * (k->nops + 1));
  for (int i = 0; i < k->nops; i++) {
    pairs[2 * i] = position_of(st, mlirOperationGetResult(k->ops[i], 0));
    pairs[2 * i + 1] = (intptr_t)k->ops[i].ptr;
  }
  qsort(pairs, k->nops, 2 * sizeof *pairs, by_position);
  for (int i = 0; i < k->nops; i++) k->ops[i] = (MlirOperation){(void *)pairs[2 * i + 1]};
  free(pairs);
}

/* Builds the kernel function, clones the cone into it, and calls it from
 * the plan. */
static void outline(seg_state *st, int kernel) {
  kernel_cone k = {0};
  fuser_ptr_map_init(&k.in_cone);
  fuser_ptr_map_init(&k.input_index);
  int nres = 0;
  MlirValue results[64];
  MlirAttribute reasons[64];
  for (int i = 0; i < st->nroots && nres < 64; i++)
    if (st->roots[i].kernel == kernel) {
      collect_cone(st, &k, st->roots[i].value, kernel);
      reasons[nres] = fuser_str_attr(st->ctx, st->roots[i].reason);
      results[nres++] = st->roots[i].value;
    }
  sort_inputs(st, &k);
  MlirContext ctx = st->ctx;
  MlirLocation loc = mlirOperationGetLocation(st->func);
  MlirType *in_types = malloc(sizeof *in_types * (k.ninputs + 1));
  MlirLocation *in_locs = malloc(sizeof *in_locs * (k.ninputs + 1));
  MlirAttribute *arg_attrs = malloc(sizeof *arg_attrs * (k.ninputs + 1));
  for (int i = 0; i < k.ninputs; i++) {
    in_types[i] = mlirValueGetType(k.inputs[i]);
    in_locs[i] = loc;
    arg_attrs[i] = is_tensor(k.inputs[i]) ? dict1(ctx, "fuser.strides", strides_of(st, k.inputs[i]))
                                          : mlirDictionaryAttrGet(ctx, 0, NULL);
  }
  MlirType res_types[64];
  MlirAttribute res_attrs[64];
  for (int i = 0; i < nres; i++) {
    res_types[i] = mlirValueGetType(results[i]);
    res_attrs[i] = dict1(ctx, "fuser.strides", result_strides(st, results[i]));
  }
  /* the kernel function */
  MlirRegion region = mlirRegionCreate();
  MlirBlock kbody = mlirBlockCreate(k.ninputs, in_types, in_locs);
  mlirRegionAppendOwnedBlock(region, kbody);
  fuser_ptr_map mapping; /* plan value -> kernel value */
  fuser_ptr_map_init(&mapping);
  for (int i = 0; i < k.ninputs; i++) fuser_ptr_map_put(&mapping, k.inputs[i].ptr, (intptr_t)mlirBlockGetArgument(kbody, i).ptr);
  sort_cone_ops(st, &k);
  for (int oi = 0; oi < k.nops; oi++) {
    MlirOperation op = k.ops[oi];
    MlirOperation c = mlirOperationClone(op);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(c); i++) {
      intptr_t mapped;
      if (fuser_ptr_map_get(&mapping, mlirOperationGetOperand(op, i).ptr, &mapped))
        mlirOperationSetOperand(c, i, (MlirValue){(void *)mapped});
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      fuser_ptr_map_put(&mapping, mlirOperationGetResult(op, r).ptr, (intptr_t)mlirOperationGetResult(c, r).ptr);
    mlirBlockAppendOwnedOperation(kbody, c);
  }
  MlirValue kres[64];
  for (int i = 0; i < nres; i++) {
    intptr_t mapped = 0;
    fuser_ptr_map_get(&mapping, results[i].ptr, &mapped);
    kres[i] = (MlirValue){(void *)mapped};
  }
  mlirBlockAppendOwnedOperation(kbody, fuser_create_op(loc, "func.return", nres, kres, 0, NULL, 0, NULL));
  fuser_ptr_map_free(&mapping);

  char name[256];
  MlirStringRef fname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(st->func, mlirStringRefCreateFromCString("sym_name")));
  snprintf(name, sizeof name, "%.*s_k%d", (int)fname.length, fname.data, kernel);
  MlirType fty = mlirFunctionTypeGet(ctx, k.ninputs, in_types, nres, res_types);
  MlirNamedAttribute fattrs[7] = {
      fuser_named(ctx, "sym_name", fuser_str_attr(ctx, name)),
      fuser_named(ctx, "function_type", mlirTypeAttrGet(fty)),
      fuser_named(ctx, "sym_visibility", fuser_str_attr(ctx, "private")),
      fuser_named(ctx, "arg_attrs", mlirArrayAttrGet(ctx, k.ninputs, arg_attrs)),
      fuser_named(ctx, "res_attrs", mlirArrayAttrGet(ctx, nres, res_attrs)),
      fuser_named(ctx, "fuser.kernel", mlirUnitAttrGet(ctx)),
  };
  /* a matmul segment: the plan calls cuBLASLt for it; the kernel lowering skips it */
  bool matmul = nres == 1 && is_matmul(results[0]);
  if (matmul) fattrs[6] = fuser_named(ctx, "fuser.matmul", mlirUnitAttrGet(ctx));
  MlirOperationState fst = mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&fst, matmul ? 7 : 6, fattrs);
  mlirOperationStateAddOwnedRegions(&fst, 1, &region);
  MlirOperation kfunc = mlirOperationCreate(&fst);
  /* kernels follow the fusion in the module, in launch order */
  MlirOperation after = st->func;
  for (MlirOperation n = mlirOperationGetNextInBlock(after); !mlirOperationIsNull(n) &&
       !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(n, mlirStringRefCreateFromCString("fuser.kernel")));
       n = mlirOperationGetNextInBlock(n))
    after = n;
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(st->func), after, kfunc);

  /* the call in the plan */
  MlirNamedAttribute cattrs[2] = {
      fuser_named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(name))),
      fuser_named(ctx, "fuser.cuts", mlirArrayAttrGet(ctx, nres, reasons)),
  };
  MlirOperation call = fuser_create_op(loc, "func.call", k.ninputs, k.inputs, nres, res_types, 2, cattrs);
  fuser_insert_before(mlirBlockGetTerminator(st->body), call);
  for (int i = 0; i < nres; i++) {
    MlirValue cr = mlirOperationGetResult(call, i);
    fuser_ptr_map_put(&st->position, cr.ptr, st->next_position++);
    MlirAttribute written = mlirDictionaryAttrGetElementByName(res_attrs[i], mlirStringRefCreateFromCString("fuser.strides"));
    fuser_ptr_map_put(&st->written, cr.ptr, (intptr_t)written.ptr);
    /* replace uses outside this kernel's cone (other kernels, the return) */
    MlirOpOperand u = mlirValueGetFirstUse(results[i]);
    while (!mlirOpOperandIsNull(u)) {
      MlirOpOperand next = mlirOpOperandGetNextUse(u);
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (!fuser_ptr_map_get(&k.in_cone, user.ptr, NULL)) mlirOperationSetOperand(user, mlirOpOperandGetOperandNumber(u), cr);
      u = next;
    }
  }
  free(in_types);
  free(in_locs);
  free(arg_attrs);
  free(k.inputs);
  free(k.ops);
  fuser_ptr_map_free(&k.in_cone);
  fuser_ptr_map_free(&k.input_index);
}

/* Compute ops left in the plan are dead once kernels exist. */
static void erase_compute(seg_state *st) {
  fuser_erase_dead_ops(st->body);
}

static bool segment_fusion(MlirOperation func, void *ud) {
  seg_state st = {.func = func, .body = fuser_func_body(func), .ctx = mlirOperationGetContext(func),
                  .budget = *(const intptr_t *)ud};
  fuser_ptr_map_init(&st.alias_copy);
  if (!insert_alias_copies(&st)) {
    fuser_ptr_map_free(&st.alias_copy);
    return false;
  }
  fuser_dim_graph_build(&st.g, func);
  fuser_ptr_map_init(&st.role);
  fuser_ptr_map_init(&st.has_red);
  fuser_ptr_map_init(&st.cost);
  fuser_ptr_map_init(&st.ops);
  fuser_ptr_map_init(&st.row_space);
  fuser_ptr_map_init(&st.row_reduced);
  fuser_ptr_map_init(&st.row_tree);
  fuser_ptr_map_init(&st.declined);
  fuser_ptr_map_init(&st.root_index);
  fuser_ptr_map_init(&st.position);
  fuser_ptr_map_init(&st.written);
  classify(&st);
  find_roots(&st);
  materialize_shared(&st);
  group_roots(&st);
  for (int k = 0; k < st.nkernels; k++) outline(&st, k);
  erase_compute(&st);
  mlirOperationSetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.plan"), mlirUnitAttrGet(st.ctx));
  fuser_ptr_map_free(&st.role);
  fuser_ptr_map_free(&st.has_red);
  fuser_ptr_map_free(&st.cost);
  fuser_ptr_map_free(&st.ops);
  fuser_ptr_map_free(&st.row_space);
  fuser_ptr_map_free(&st.row_reduced);
  fuser_ptr_map_free(&st.row_tree);
  fuser_ptr_map_free(&st.declined);
  fuser_ptr_map_free(&st.root_index);
  fuser_ptr_map_free(&st.position);
  fuser_ptr_map_free(&st.written);
  fuser_ptr_map_free(&st.alias_copy);
  fuser_dim_graph_free(&st.g);
  free(st.roots);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  const char *text = fuser_pass_option_str(options, "max-kernel-ops");
  char *end = NULL;
  long long value = strtoll(text, &end, 10);
  intptr_t budget = (intptr_t)value;
  if (!*text || *end || value < 0) {
    mlirEmitError(mlirOperationGetLocation(op), "fuser-segment: max-kernel-ops must be an integer >= 0 (0: no budget)");
    return false;
  }
  return fuser_for_each_fusion(op, segment_fusion, &budget);
}

const fuser_pass_info fuser_segment_pass = {
    .argument = "fuser-segment",
    .description = "Partition fusions into kernels (outlined functions) and a host plan that calls them",
    .anchor = "builtin.module",
    .options = {{"max-kernel-ops", "1000", "most ops one kernel computes before a cut (0: no budget)"}},
    .run = run,
};
