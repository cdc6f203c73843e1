/* kernel_access.c: the access analysis of kernel functions (kernel_info.h):
 * every global read and write as an affine index map over the iteration
 * space, and the cat/pad boundaries along iteration dims. fuser-vectorize
 * decides flattening and widths from them. A pure analysis: it builds no IR.
 *
 * It walks the op DAG from each result back to the arguments the way the
 * kernel generator evaluates it (lowering/kernel_gen_walk.c), with the same
 * index rules (kernel_rules.h), in the same order, and memoized the same way:
 * per (value, index), where an index dim is identified as the generator's
 * index value would be (index 0, an iteration index, or a fresh value), so
 * that both see the same accesses first. The walks are iterative (explicit
 * stacks): their depth does not grow with the fusion.
 *
 * Also the check that every op can be lowered into a GPU kernel: an op that
 * cannot is a located error at its line here, before any code is made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/Diagnostics.h"
#include "support/error.h"
#include "passes/kernel_info.h"
#include "passes/kernel_rules.h"
#include "passes/scoped_memo.h"

/* An index into a value: per dim, which index value it is (0: the index
 * constant 0; else a unique id) and its affine map over the iteration indices. */
typedef struct {
  int rank;
  bool opaque;
  bool lanes_only; /* fk_access.lanes_only */
  int64_t tok[FK_R];
  int8_t coef[FK_R][FK_R];
  int64_t off[FK_R];
} aidx;

typedef struct {
  int64_t value; /* static extent or FK_DYN */
  int src_tensor, src_dim;
  int64_t shift;
  const void *scalar; /* the scalar value it is (a reshape's new_shape entry), else NULL */
} adim;

typedef struct {
  fk_kernel *k;
  bool failed;
  int64_t next_tok;
  fuser_scoped_memo visited; /* (value, rank, tok[]) */
  fuser_scoped_memo dims;    /* (value, dim) -> adim */
  fuser_scoped_memo scalars; /* value -> checked */
  MlirValue result0;         /* the value of result 0 (the iteration space) */
} walker;

static bool fail(walker *w, MlirOperation op, const char *msg) {
  if (!w->failed) fuser_emit_error(op, "%s", msg);
  w->failed = true;
  return false;
}

/* "fuser.<op>: <what>" at the op. */
static bool fail_op(walker *w, MlirOperation op, const char *what) {
  char msg[256];
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(msg, sizeof msg, "%.*s: %s", (int)n.length, n.data, what);
  return fail(w, op, msg);
}

/* ---- what the GPU kernel generator cannot lower --------------------------- */

/* NULL when op (an element-wise or scalar op) can be lowered. */
static const char *elementwise_unsupported(MlirOperation op, fuser_op_id id) {
  fuser_dtype out = fuser_value_dtype(mlirOperationGetResult(op, 0));
  if (id == FUSER_OP_lerp && !fuser_dtype_is_float(out)) return "integer lerp is not supported in GPU kernels yet";
  return NULL;
}

/* ---- growing arrays ------------------------------------------------------- */

static void add_access(fk_kernel *k, int t, const aidx *ix) {
  if (k->num_accesses == k->cap_accesses) {
    k->cap_accesses = k->cap_accesses ? 2 * k->cap_accesses : 16;
    k->acc = realloc(k->acc, (size_t)k->cap_accesses * sizeof *k->acc);
  }
  fk_access *a = &k->acc[k->num_accesses++];
  memset(a, 0, sizeof *a);
  a->tensor = t;
  a->opaque = ix->opaque;
  a->lanes_only = ix->lanes_only;
  memcpy(a->coef, ix->coef, sizeof a->coef);
  memcpy(a->off, ix->off, sizeof a->off);
}

static void record_boundary(walker *w, fk_boundary_kind kind, const aidx *ix, int j, adim at) {
  fk_kernel *k = w->k;
  if (ix->opaque) return;
  int dim = -1, nz = 0;
  for (int d = 0; d < k->rank; d++)
    if (ix->coef[j][d]) dim = d, nz++;
  if (nz != 1) return;
  if (k->num_boundaries == k->cap_boundaries) {
    k->cap_boundaries = k->cap_boundaries ? 2 * k->cap_boundaries : 16;
    k->bnd = realloc(k->bnd, (size_t)k->cap_boundaries * sizeof *k->bnd);
  }
  fk_boundary *b = &k->bnd[k->num_boundaries++];
  b->kind = kind;
  b->dim = dim;
  b->value = at.value == FK_DYN ? FK_DYN : at.value - ix->off[j];
  b->src_tensor = at.value == FK_DYN ? at.src_tensor : -1;
  b->src_dim = at.src_dim;
  b->shift = at.shift - ix->off[j];
}

/* ---- scalars: every producer can be lowered (post-order, iterative) ------- */

static void check_scalar(walker *w, MlirValue root) {
  MlirValue *stack = malloc(16 * sizeof *stack);
  int n = 0, cap = 16;
  stack[n++] = root;
  bool yes = true;
  while (n > 0 && !w->failed) {
    MlirValue v = stack[n - 1];
    if (fuser_scoped_memo_find(&w->scalars, &v.ptr) || mlirValueIsABlockArgument(v)) {
      n--;
      continue;
    }
    MlirOperation op = fk_owner(v);
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_NONE) {
      fail(w, op, "lowering: unsupported scalar producer");
      break;
    }
    bool ready = true;
    if (id != FUSER_OP_scalar) {
      intptr_t no = mlirOperationGetNumOperands(op);
      for (intptr_t i = no - 1; i >= 0; i--) {
        MlirValue o = mlirOperationGetOperand(op, i);
        if (fuser_scoped_memo_find(&w->scalars, &o.ptr) || mlirValueIsABlockArgument(o)) continue;
        if (n == cap) stack = realloc(stack, (size_t)(cap *= 2) * sizeof *stack);
        stack[n++] = o;
        ready = false;
      }
    }
    if (!ready) continue;
    const char *why = id == FUSER_OP_scalar ? NULL : elementwise_unsupported(op, id);
    if (why) {
      fail_op(w, op, why);
      break;
    }
    fuser_scoped_memo_push(&w->scalars, &v.ptr, &yes);
    n--;
  }
  free(stack);
}

/* ---- extents (post-order, iterative) -------------------------------------- */

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

/* Extent of dim j of tensor value v, and which argument size it follows. */
static adim dim_of(walker *w, MlirValue root, int root_dim) {
  typedef struct { MlirValue v; int j; } item;
  item *stack = malloc(16 * sizeof *stack);
  int n = 0, cap = 16;
  stack[n++] = (item){root, root_dim};
  while (n > 0 && !w->failed) {
    item it = stack[n - 1];
    dim_key key = dkey(it.v, it.j);
    if (fuser_scoped_memo_find(&w->dims, &key)) {
      n--;
      continue;
    }
    fk_extent_rule r = fk_extent_rule_of(it.v, it.j);
    adim d = {.value = FK_DYN, .src_tensor = -1};
    /* operands first */
    item need[2];
    int nneed = 0;
    if (r.kind == FK_EXTENT_FOLLOW || r.kind == FK_EXTENT_SUM) need[nneed++] = (item){r.a, r.dim};
    if (r.kind == FK_EXTENT_SUM) need[nneed++] = (item){r.b, r.dim};
    bool ready = true;
    for (int i = nneed - 1; i >= 0; i--) {
      dim_key nk = dkey(need[i].v, need[i].j);
      if (fuser_scoped_memo_find(&w->dims, &nk)) continue;
      if (n == cap) stack = realloc(stack, (size_t)(cap *= 2) * sizeof *stack);
      stack[n++] = need[i];
      ready = false;
    }
    if (!ready) continue;
    switch (r.kind) {
    case FK_EXTENT_STATIC: d.value = r.value; break;
    case FK_EXTENT_ARG: d.src_tensor = r.arg, d.src_dim = r.dim; break;
    case FK_EXTENT_FOLLOW: {
      dim_key ak = dkey(r.a, r.dim);
      adim x = *(adim *)fuser_scoped_memo_find(&w->dims, &ak);
      if (!r.padded) d = x;
      else if (x.src_tensor >= 0) d.src_tensor = x.src_tensor, d.src_dim = x.src_dim, d.shift = x.shift + r.add;
      break;
    }
    case FK_EXTENT_SUM: {
      dim_key ak = dkey(r.a, r.dim), bk = dkey(r.b, r.dim);
      adim l = *(adim *)fuser_scoped_memo_find(&w->dims, &ak), rr = *(adim *)fuser_scoped_memo_find(&w->dims, &bk);
      if (l.value != FK_DYN && rr.src_tensor >= 0) d.src_tensor = rr.src_tensor, d.src_dim = rr.src_dim, d.shift = rr.shift + l.value;
      if (rr.value != FK_DYN && l.src_tensor >= 0) d.src_tensor = l.src_tensor, d.src_dim = l.src_dim, d.shift = l.shift + rr.value;
      break;
    }
    case FK_EXTENT_SCALAR:
      check_scalar(w, r.a);
      d.scalar = r.a.ptr;
      break;
    case FK_EXTENT_UNKNOWN: fail(w, fk_owner(it.v), "lowering: cannot derive a symbolic extent through this op"); break;
    }
    fuser_scoped_memo_push(&w->dims, &key, &d);
    n--;
  }
  free(stack);
  dim_key key = dkey(root, root_dim);
  adim *d = fuser_scoped_memo_find(&w->dims, &key);
  return d ? *d : (adim){.value = FK_DYN, .src_tensor = -1};
}

/* ---- reshapes that keep the vector lanes ---------------------------------- */

/* The extent of dim j of reshape result v as a boundary: a new_shape entry
 * that is a scalar argument (a symbolic reshape) names no size, but where
 * result 0's extent along the lanes is that same scalar, the result's size
 * is it (the launch can check that size). */
static adim reshape_extent(walker *w, MlirValue v, int j) {
  adim e = dim_of(w, v, j);
  const fk_kernel *k = w->k;
  if (e.value != FK_DYN || e.src_tensor >= 0 || !e.scalar || mlirValueIsNull(w->result0)) return e;
  int rj = k->iter_dim[k->rank - 1];
  adim r = dim_of(w, w->result0, rj);
  if (r.scalar == e.scalar) e = (adim){.value = FK_DYN, .src_tensor = k->num_args, .src_dim = rj};
  return e;
}

/* Whether the vector lanes survive reshape v (of `in`), read at ix; then
 * *o (fresh index values) becomes the lanes' map into `in`. The generator
 * linearizes the first lane's index over v's extents and delinearizes it
 * over in's (kernel_gen_walk.c); the other lanes follow with unit steps
 * when
 *   - the lanes do not move in v (no dim of ix moves with the innermost
 *     iteration dim): they read one element of `in`, a broadcast; or
 *   - they walk v's last dim alone, with unit step and no offset, from a
 *     multiple of W (the width rule: W divides the run and every offset):
 *     the first lane's linear index is a multiple of W when W divides v's
 *     last extent, and so is its remainder by in's last extent when W
 *     divides that one too; W lanes then stay in one row of in's last dim.
 * Both extents are recorded as boundaries along the lanes' dim: the width
 * rule (vectorize.c) makes W divide them, statically or under an `extent`
 * condition where they follow a size. In both cases in's other dims are
 * indices no affine map follows (fk_access.lanes_only): the width rule
 * makes W divide their strides. Merges and splits alike: merge_heads
 * (B, S, H, D) -> (B, S, H*D) needs W | D and W | H*D, split_heads
 * (B, S, H*D) -> (B, S, H, D) the same. */
static bool reshape_lanes(walker *w, const aidx *ix, MlirValue v, MlirValue in, aidx *o) {
  const fk_kernel *k = w->k;
  int R = k->rank, m = ix->rank, lane = R - 1;
  if (ix->opaque || R == 0 || m == 0 || o->rank == 0) return false;
  for (int j = 0; j + 1 < m; j++)
    if (ix->coef[j][lane]) return false;
  o->lanes_only = true;
  if (!ix->coef[m - 1][lane]) return true; /* a broadcast along the lanes */
  for (int d = 0; d < R; d++)
    if (ix->coef[m - 1][d] != (d == lane)) return false;
  if (ix->off[m - 1] != 0) return false;
  record_boundary(w, FK_BOUNDARY_RESHAPE, ix, m - 1, reshape_extent(w, v, m - 1));
  record_boundary(w, FK_BOUNDARY_RESHAPE, ix, m - 1, dim_of(w, in, o->rank - 1));
  o->coef[o->rank - 1][lane] = 1;
  return true;
}

/* ---- the walk ------------------------------------------------------------- */

typedef struct {
  MlirValue v;
  aidx ix;
} frame;

typedef struct {
  frame *items;
  int n, cap;
} frame_stack;

static void push(frame_stack *s, MlirValue v, const aidx *ix) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->items = realloc(s->items, (size_t)s->cap * sizeof *s->items);
  }
  s->items[s->n].v = v;
  s->items[s->n++].ix = *ix;
}

typedef struct {
  const void *value;
  int64_t rank;
  int64_t tok[FK_R];
} visit_key;

static void zero_dim(aidx *o, int j) {
  o->tok[j] = 0;
  memset(o->coef[j], 0, sizeof o->coef[j]);
  o->off[j] = 0;
}

static void copy_dim(aidx *o, int j, const aidx *ix, int i) {
  o->tok[j] = ix->tok[i];
  memcpy(o->coef[j], ix->coef[i], sizeof o->coef[j]);
  o->off[j] = ix->off[i];
}

/* An index value made by an add of c (0: the same value). */
static void add_to_dim(walker *w, aidx *o, int j, int64_t c) {
  if (c != 0) o->tok[j] = w->next_tok++;
  o->off[j] += c;
}

/* The children of (v, ix), pushed last-first so that they are walked in
 * operand order; records the accesses and boundaries of this node. */
static void expand(walker *w, frame_stack *s, MlirValue v, const aidx *ix) {
  fk_kernel *k = w->k;
  if (mlirValueIsABlockArgument(v)) {
    add_access(k, (int)mlirBlockArgumentGetArgNumber(v), ix);
    return;
  }
  MlirOperation op = fk_owner(v);
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  fk_dim_map map[FK_R];
  aidx o;
  memset(&o, 0, sizeof o);
  o.opaque = ix->opaque;
  o.lanes_only = ix->lanes_only;
  if (id == FUSER_OP_NONE) {
    fail(w, op, "lowering: a kernel body may only hold fuser ops");
  } else if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    const char *why = elementwise_unsupported(op, id);
    if (why) {
      fail_op(w, op, why);
      return;
    }
    if (fuser_is_triangle_op(id)) k->has_reshape = true; /* index-dependent values: the scalar variant */
    int no = (int)mlirOperationGetNumOperands(op);
    aidx ops[3];
    for (int i = 0; i < no && i < 3; i++) {
      MlirValue operand = mlirOperationGetOperand(op, i);
      ops[i] = *ix;
      if (!fuser_value_is_tensor(operand)) continue;
      fk_operand_index_map(op, i, v, map);
      for (int j = 0; j < ix->rank; j++)
        if (map[j].src < 0) zero_dim(&ops[i], j);
    }
    for (int i = (no < 3 ? no : 3) - 1; i >= 0; i--) push(s, mlirOperationGetOperand(op, i), &ops[i]);
  } else if (fk_operand_index_map(op, 0, v, map)) { /* set, slice, permute, broadcasts, squeeze */
    MlirValue in = mlirOperationGetOperand(op, 0);
    o.rank = fk_tensor_rank(in);
    for (int i = 0; i < o.rank; i++) {
      if (map[i].src < 0) zero_dim(&o, i);
      else {
        copy_dim(&o, i, ix, map[i].src);
        add_to_dim(w, &o, i, map[i].add);
      }
    }
    push(s, in, &o);
  } else if (id == FUSER_OP_reshape) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    for (int j = 0; j < ix->rank; j++) dim_of(w, v, j);
    o.rank = fk_tensor_rank(in);
    for (int j = o.rank - 1; j >= 0; j--) {
      dim_of(w, in, j);
      o.tok[j] = w->next_tok++;
    }
    if (reshape_lanes(w, ix, v, in, &o)) k->reshape_lanes = true;
    else k->has_reshape = true, o.opaque = true;
    push(s, in, &o);
  } else if (id == FUSER_OP_cat) {
    int64_t cd = 0;
    fuser_get_i64(op, "dim", &cd);
    if (cd < 0) cd += ix->rank;
    MlirValue lhs = mlirOperationGetOperand(op, 0), rhs = mlirOperationGetOperand(op, 1);
    adim e = dim_of(w, lhs, (int)cd);
    record_boundary(w, FK_BOUNDARY_CAT, ix, (int)cd, e);
    o = *ix;
    o.tok[cd] = w->next_tok++;
    if (e.value != FK_DYN) o.off[cd] -= e.value;
    else o.opaque = o.opaque || e.src_tensor < 0;
    push(s, rhs, &o);
    push(s, lhs, ix);
  } else if (id == FUSER_OP_pad) {
    int64_t pw[2 * FK_R];
    int n = fuser_get_i64_array(op, "pad_widths", pw, 2 * FK_R);
    MlirValue in = mlirOperationGetOperand(op, 0);
    bool cond = false;
    o = *ix;
    for (int p = 0; 2 * p + 1 < n && p < ix->rank; p++) {
      int j = ix->rank - 1 - p;
      int64_t lo = pw[2 * p], hi = pw[2 * p + 1];
      if (lo == 0 && hi == 0) continue;
      adim e = dim_of(w, in, j);
      adim lo_d = {.value = lo, .src_tensor = -1};
      adim hi_d = {.value = e.value == FK_DYN ? FK_DYN : e.value + lo, .src_tensor = e.src_tensor, .src_dim = e.src_dim,
                   .shift = e.shift + lo};
      record_boundary(w, FK_BOUNDARY_PAD, ix, j, lo_d);
      record_boundary(w, FK_BOUNDARY_PAD, ix, j, hi_d);
      cond = true;
      add_to_dim(w, &o, j, -lo);
    }
    if (!cond) {
      push(s, in, ix);
      return;
    }
    aidx none = {0};
    push(s, mlirOperationGetOperand(op, 1), &none); /* the pad value, in the else branch */
    push(s, in, &o);
  } else if (kind == FUSER_KIND_REDUCTION) {
    k->has_reduction = true;
    int64_t dims[FK_R], keep = 0;
    int nd = fuser_get_i64_array(op, "dims", dims, FK_R);
    fuser_get_i64(op, "keepdim", &keep);
    MlirValue in = mlirOperationGetOperand(op, 0);
    int in_rank = fk_tensor_rank(in);
    bool red[FK_R] = {0};
    for (int q = 0; q < nd; q++) red[dims[q] < 0 ? dims[q] + in_rank : dims[q]] = true;
    o.rank = in_rank;
    o.opaque = true;
    int out = 0;
    for (int i = 0; i < in_rank; i++) {
      if (red[i]) {
        dim_of(w, in, i); /* the loop's bound */
        o.tok[i] = w->next_tok++;
        if (keep) out++;
      } else {
        copy_dim(&o, i, ix, out++);
      }
    }
    push(s, in, &o);
  } else if (kind == FUSER_KIND_INDEX) {
    /* data-dependent reads: the scalar variant. The index tensor is read
     * first (at the result index; index_select's 1-D index at the result's
     * dim), then arg at an opaque index (the loaded value along dim) */
    k->has_reshape = true;
    int64_t dim = 0;
    fuser_get_i64(op, "dim", &dim);
    MlirValue arg = mlirOperationGetOperand(op, 0), index = mlirOperationGetOperand(op, 1);
    aidx xi;
    memset(&xi, 0, sizeof xi);
    xi.opaque = ix->opaque;
    xi.rank = fk_tensor_rank(index);
    if (id == FUSER_OP_index_select) copy_dim(&xi, 0, ix, (int)dim);
    else
      for (int j = 0; j < xi.rank; j++) {
        if (fk_static_dim(index, j) == 1) zero_dim(&xi, j);
        else copy_dim(&xi, j, ix, j);
      }
    o.rank = fk_tensor_rank(arg);
    o.opaque = true;
    for (int j = 0; j < o.rank; j++) {
      dim_of(w, arg, j); /* the range checks' bounds */
      if (j == dim) o.tok[j] = w->next_tok++;
      else if (fk_static_dim(arg, j) == 1) zero_dim(&o, j);
      else copy_dim(&o, j, ix, j);
    }
    push(s, arg, &o);
    push(s, index, &xi);
  } else if (id == FUSER_OP_full) {
    check_scalar(w, mlirOperationGetOperand(op, 0));
  } else if (id == FUSER_OP_iota) {
    k->has_reshape = true; /* index-dependent values: the scalar variant */
    check_scalar(w, mlirOperationGetOperand(op, 1));
    check_scalar(w, mlirOperationGetOperand(op, 2));
  } else if (fuser_op_kind_of(id) == FUSER_KIND_RNG) {
    k->has_reshape = true; /* index-dependent values: the scalar variant */
    for (int i = 0; i < 4; i++) check_scalar(w, mlirOperationGetOperand(op, i));
  } else {
    fail_op(w, op, "not supported in GPU kernels yet");
  }
}

bool fk_kernel_analyze(fk_kernel *k) {
  walker w = {.k = k, .next_tok = 1};
  fuser_scoped_memo_init(&w.visited, sizeof(visit_key), 1);
  fuser_scoped_memo_init(&w.dims, sizeof(dim_key), sizeof(adim));
  fuser_scoped_memo_init(&w.scalars, sizeof(void *), 1);
  k->num_accesses = k->num_boundaries = 0;
  k->has_reduction = k->has_reshape = k->reshape_lanes = false;
  /* the point index, delinearized as the generator does: an extent-1 dim
   * reads index 0 (the same index value as a broadcast's), others are their
   * own iteration index */
  aidx ix;
  memset(&ix, 0, sizeof ix);
  ix.rank = k->rank;
  for (int d = 0; d < k->rank; d++) { /* result dim iter_dim[d] walks iteration dim d */
    int j = k->iter_dim[d];
    ix.coef[j][d] = 1;
    ix.tok[j] = k->extent[d] == 1 ? 0 : w.next_tok++;
  }
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(k->func, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  if (k->num_results > 0) w.result0 = mlirOperationGetOperand(ret, 0);
  frame_stack s = {0};
  char one = 1;
  for (int j = 0; j < k->num_results && !w.failed; j++) {
    push(&s, mlirOperationGetOperand(ret, j), &ix);
    while (s.n > 0 && !w.failed) {
      frame f = s.items[--s.n];
      if (!fuser_value_is_tensor(f.v)) {
        check_scalar(&w, f.v);
        continue;
      }
      visit_key key;
      memset(&key, 0, sizeof key);
      key.value = f.v.ptr, key.rank = f.ix.rank;
      memcpy(key.tok, f.ix.tok, sizeof key.tok);
      if (fuser_scoped_memo_find(&w.visited, &key)) continue;
      fuser_scoped_memo_push(&w.visited, &key, &one);
      expand(&w, &s, f.v, &f.ix);
    }
    add_access(k, k->num_args + j, &ix); /* the store */
  }
  free(s.items);
  fuser_scoped_memo_free(&w.visited);
  fuser_scoped_memo_free(&w.dims);
  fuser_scoped_memo_free(&w.scalars);
  return !w.failed;
}
