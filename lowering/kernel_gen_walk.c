/* kernel_gen_walk.c: the walker of the kernel generator (see
 * kernel_gen_internal.h). It evaluates a tensor value at one index by
 * remapping the index through the op DAG back to the arguments: broadcasts,
 * permute, slice, squeeze and reshape remap it (passes/kernel_rules.h's
 * index rule); cat and pad branch (scf.if); reductions loop (scf.for). Its
 * memo keys values by (value, index) and is scoped to the enclosing scf
 * region.
 *
 * The walk is iterative: an explicit stack of frames, each an op being
 * evaluated at an index that resumes (`pc`) when the operand it asked for is
 * done. Its depth is the DAG's, on the heap; the C stack does not grow with
 * the fusion (a 100,000-op chain lowers, bench/compile_scaling.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "passes/kernel_rules.h"

typedef struct {
  const void *value;
  int64_t rank;
  const void *index[FK_R];
} memo_key;

static memo_key mkey(MlirValue v, const idx_t *ix) {
  memo_key k;
  memset(&k, 0, sizeof k);
  k.value = v.ptr;
  k.rank = ix->rank;
  for (int j = 0; j < ix->rank; j++) k.index[j] = ix->v[j].ptr;
  return k;
}

void kg_walk_init(gen *g) { fuser_scoped_memo_init(&g->memo, sizeof(memo_key), sizeof(kval)); }

typedef struct {
  MlirValue v;
  idx_t ix;
  int pc;
  MlirOperation op;
  fuser_op_id id;
  kval x[3]; /* element-wise operands */
  int nops;
  idx_t o;       /* the index the next operand is read at */
  fb_ip after;   /* the insertion point after this frame's scf op */
  int mark;      /* the memo's mark at the region's entry */
  MlirOperation region; /* the scf.if, or the outermost scf.for */
  MlirValue e;          /* cat: the left extent */
  MlirOperation loops[FK_R];
  int nloops;
  fuser_dtype acc;
  kval cur;
} frame;

typedef struct {
  frame *items;
  int n, cap;
} frame_stack;

static frame *push(frame_stack *s, MlirValue v, const idx_t *ix) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 32;
    s->items = realloc(s->items, (size_t)s->cap * sizeof *s->items);
  }
  frame *f = &s->items[s->n++];
  memset(f, 0, sizeof *f);
  f->v = v;
  f->ix = *ix;
  return f;
}

static void idx_zero(gen *g, idx_t *o, int j) {
  o->v[j] = kg_cidx(g, 0);
  o->inner[j] = false;
}

static kval dummy(gen *g, MlirValue v) { return (kval){g->zero_index, false, fuser_value_dtype(v)}; }

/* What a step of a frame asks for: an operand at an index, or nothing (done). */
typedef struct {
  bool need;
  MlirValue v;
  idx_t ix;
  kval result;
} step;

static step need(MlirValue v, const idx_t *ix) { return (step){.need = true, .v = v, .ix = *ix}; }
static step done(kval r) { return (step){.result = r}; }

static step elementwise(gen *g, frame *f, kval child) {
  MlirOperation op = f->op;
  if (f->pc > 0) f->x[f->pc - 1] = child;
  while (f->pc < f->nops) {
    int i = f->pc++;
    MlirValue operand = mlirOperationGetOperand(op, i);
    if (!fuser_value_is_tensor(operand)) {
      f->x[i] = kg_scalar_of(g, operand);
      continue;
    }
    fk_dim_map map[FK_R];
    fk_operand_index_map(op, i, f->v, map);
    idx_t o = f->ix;
    for (int j = 0; j < o.rank; j++)
      if (map[j].src < 0) idx_zero(g, &o, j);
    return need(operand, &o);
  }
  return done(kg_elementwise(g, op, f->id, f->x, f->nops, fuser_value_dtype(f->v)));
}

/* set, slice, permute, broadcasts, squeeze: one operand at a remapped index */
static step view(gen *g, frame *f, kval child, const fk_dim_map *map) {
  if (f->pc == 1) return done(child);
  f->pc = 1;
  MlirValue in = mlirOperationGetOperand(f->op, 0);
  idx_t o = {.rank = fk_tensor_rank(in)};
  for (int i = 0; i < o.rank; i++) {
    if (map[i].src < 0) {
      idx_zero(g, &o, i);
      continue;
    }
    o.v[i] = fb_addi_const(&g->b, f->ix.v[map[i].src], map[i].add);
    o.inner[i] = f->ix.inner[map[i].src];
  }
  return need(in, &o);
}

/* Linear index of ix over the extents of `from`, then delinearized over the
 * extents of `to` (reshape of a computed value). In a vector variant ix is
 * the first lane's index and the lanes move along from's last dim or not at
 * all (the access analysis allows no other: kernel_access.c,
 * reshape_lanes), from a multiple of W, with W dividing both last extents:
 * so they move along to's last dim, with unit step. */
static idx_t reshape_index(gen *g, MlirValue from, const idx_t *ix, MlirValue to) {
  fb_builder *b = &g->b;
  MlirValue lin = kg_cidx(g, 0);
  for (int j = 0; j < ix->rank; j++) lin = fb_addi(b, fb_muli(b, lin, kg_dim_of(g, from, j)), ix->v[j]);
  idx_t o = {.rank = fk_tensor_rank(to)};
  for (int j = o.rank - 1; j >= 0; j--) {
    MlirValue e = kg_dim_of(g, to, j);
    if (j == 0) {
      o.v[0] = lin;
      break;
    }
    o.v[j] = fb_remui(b, lin, e);
    lin = fb_divui(b, lin, e);
  }
  if (o.rank > 0) o.inner[o.rank - 1] = ix->rank > 0 && ix->inner[ix->rank - 1];
  return o;
}

/* Opens the region of f's scf op at `blk` (a new memo scope). */
static void enter(gen *g, frame *f, MlirBlock blk) {
  fb_set_ip(&g->b, fb_ip_end(blk));
  f->mark = fuser_scoped_memo_mark(&g->memo);
}

static void leave(gen *g, frame *f) { fuser_scoped_memo_pop_to(&g->memo, f->mark); }

static step cat(gen *g, frame *f, kval child) {
  fb_builder *b = &g->b;
  int64_t cd = 0;
  fuser_get_i64(f->op, "dim", &cd);
  if (cd < 0) cd += f->ix.rank;
  MlirValue lhs = mlirOperationGetOperand(f->op, 0), rhs = mlirOperationGetOperand(f->op, 1);
  fuser_dtype dt = fuser_value_dtype(f->v);
  if (f->pc == 0) {
    f->e = kg_dim_of(g, lhs, (int)cd);
    MlirValue p = fb_cmpi(b, FB_CMPI_SLT, f->ix.v[cd], f->e);
    MlirType ty = kg_type(g, dt, g->W > 1);
    f->after = fb_get_ip(b);
    f->region = fb_if(b, p, 1, &ty, true);
    enter(g, f, fb_then(f->region));
    f->pc = 1;
    return need(lhs, &f->ix);
  }
  fb_yield(b, 1, &child.v);
  leave(g, f);
  if (f->pc == 1) {
    enter(g, f, fb_else(f->region));
    idx_t o = f->ix;
    o.v[cd] = fb_subi(b, f->ix.v[cd], f->e);
    f->pc = 2;
    return need(rhs, &o);
  }
  fb_set_ip(b, f->after);
  return done((kval){fb_result(f->region, 0), g->W > 1, dt});
}

static step pad(gen *g, frame *f, kval child) {
  fb_builder *b = &g->b;
  MlirValue in = mlirOperationGetOperand(f->op, 0);
  fuser_dtype dt = fuser_value_dtype(f->v);
  if (f->pc == 3) return done(child); /* nothing padded */
  if (f->pc == 0) {
    int64_t w[2 * FK_R];
    int n = fuser_get_i64_array(f->op, "pad_widths", w, 2 * FK_R);
    MlirValue cond = {NULL};
    idx_t o = f->ix;
    for (int p = 0; 2 * p + 1 < n && p < f->ix.rank; p++) {
      int j = f->ix.rank - 1 - p;
      int64_t lo = w[2 * p], hi = w[2 * p + 1];
      if (lo == 0 && hi == 0) continue;
      MlirValue e = kg_dim_of(g, in, j), lo_n = kg_cidx(g, lo);
      fb_ip save = kg_enter_prologue(g);
      MlirValue hi_n = fb_addi_const(b, e, lo);
      kg_leave_prologue(g, save);
      MlirValue c1 = fb_cmpi(b, FB_CMPI_SGE, f->ix.v[j], lo_n), c2 = fb_cmpi(b, FB_CMPI_SLT, f->ix.v[j], hi_n);
      MlirValue c = fb_andi(b, c1, c2);
      cond = mlirValueIsNull(cond) ? c : fb_andi(b, cond, c);
      o.v[j] = fb_addi_const(b, f->ix.v[j], -lo);
    }
    if (mlirValueIsNull(cond)) {
      f->pc = 3;
      return need(in, &f->ix);
    }
    MlirType ty = kg_type(g, dt, g->W > 1);
    f->after = fb_get_ip(b);
    f->region = fb_if(b, cond, 1, &ty, true);
    enter(g, f, fb_then(f->region));
    f->pc = 1;
    return need(in, &o);
  }
  fb_yield(b, 1, &child.v);
  leave(g, f);
  enter(g, f, fb_else(f->region));
  kval pv = kg_splat(g, kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(f->op, 1)), dt));
  fb_yield(b, 1, &pv.v);
  leave(g, f);
  fb_set_ip(b, f->after);
  return done((kval){fb_result(f->region, 0), g->W > 1, dt});
}

/* A reduction at one output point: loops over the reduced dims, f32/f64/i64
 * accumulation (the simple correct kernel; only in the scalar variant). */
static step reduction(gen *g, frame *f, kval child) {
  fb_builder *b = &g->b;
  fuser_dtype out_dt = fuser_value_dtype(f->v);
  if (f->pc == 0) {
    if (g->W > 1) return kg_fail_op(g, f->op, "lowering: reductions need the scalar variant (vector width 1)"), done(dummy(g, f->v));
    int64_t dims[FK_R], keep = 0;
    int nd = fuser_get_i64_array(f->op, "dims", dims, FK_R);
    fuser_get_i64(f->op, "keepdim", &keep);
    MlirValue in = mlirOperationGetOperand(f->op, 0);
    int in_rank = fk_tensor_rank(in);
    fuser_dtype in_dt = fuser_value_dtype(in);
    f->acc = kg_is_float(out_dt) || kg_is_float(in_dt) ? (out_dt == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32)
                                                         : FUSER_DTYPE_I64;
    bool red[FK_R] = {0};
    for (int q = 0; q < nd; q++) red[dims[q] < 0 ? dims[q] + in_rank : dims[q]] = true;
    double init = f->id == FUSER_OP_sum ? 0 : f->id == FUSER_OP_prod ? 1 : f->id == FUSER_OP_max ? -INFINITY : INFINITY;
    if (!kg_is_float(f->acc) && f->id == FUSER_OP_max) init = (double)INT64_MIN;
    if (!kg_is_float(f->acc) && f->id == FUSER_OP_min) init = (double)INT64_MAX;
    f->cur = kg_const(g, init, f->acc, false);
    f->after = fb_get_ip(b);
    f->mark = fuser_scoped_memo_mark(&g->memo);
    idx_t o = {.rank = in_rank};
    int out = 0;
    for (int i = 0; i < in_rank; i++) {
      if (red[i]) {
        MlirOperation loop = fb_for(b, kg_cidx(g, 0), kg_dim_of(g, in, i), kg_cidx(g, 1), 1, &f->cur.v);
        fb_set_ip(b, fb_ip_end(fb_body(loop)));
        o.v[i] = fb_for_iv(loop);
        f->cur.v = fb_for_iter_arg(loop, 0);
        f->loops[f->nloops++] = loop;
        if (keep) out++;
      } else {
        o.v[i] = f->ix.v[out];
        o.inner[i] = f->ix.inner[out];
        out++;
      }
    }
    f->pc = 1;
    return need(in, &o);
  }
  kval x = kg_convert(g, child, f->acc);
  bool fl = kg_is_float(f->acc);
  kval next;
  switch (f->id) {
  case FUSER_OP_sum: next = kg_op2(g, fl ? "arith.addf" : "arith.addi", f->cur, x); break;
  case FUSER_OP_prod: next = kg_op2(g, fl ? "arith.mulf" : "arith.muli", f->cur, x); break;
  case FUSER_OP_max: next = kg_op2(g, fl ? "arith.maximumf" : "arith.maxsi", f->cur, x); break;
  default: next = kg_op2(g, fl ? "arith.minimumf" : "arith.minsi", f->cur, x); break;
  }
  for (int l = f->nloops - 1; l >= 0; l--) {
    fb_set_ip(b, fb_ip_end(fb_body(f->loops[l])));
    fb_yield(b, 1, &next.v);
    next.v = fb_result(f->loops[l], 0);
  }
  leave(g, f);
  fb_set_ip(b, f->after);
  return done(kg_convert(g, next, out_dt));
}

static step iota(gen *g, frame *f) {
  if (g->W > 1) return kg_fail_op(g, f->op, "lowering: iota needs the scalar variant (vector width 1)"), done(dummy(g, f->v));
  fuser_dtype out_dt = fuser_value_dtype(f->v);
  kval start = kg_scalar_of(g, mlirOperationGetOperand(f->op, 1)), stride = kg_scalar_of(g, mlirOperationGetOperand(f->op, 2));
  kval i = {fb_index_cast(&g->b, f->ix.v[0], kg_elem_type(g, FUSER_DTYPE_I64)), false, FUSER_DTYPE_I64};
  kval ic = kg_convert(g, i, out_dt);
  bool fl = kg_is_float(out_dt);
  kval prod = kg_op2(g, fl ? "arith.mulf" : "arith.muli", ic, kg_convert(g, stride, out_dt));
  return done(kg_op2(g, fl ? "arith.addf" : "arith.addi", kg_convert(g, start, out_dt), prod));
}

/* index_select / gather / take_along_axis at one point: the index tensor
 * first, then arg at the checked index (kernel_gen_index.c); the other dims
 * follow the result index (a broadcast dim of either reads 0), as
 * passes/kernel_access.c walks them. */
static step index_read(gen *g, frame *f, kval child) {
  fb_builder *b = &g->b;
  MlirValue arg = mlirOperationGetOperand(f->op, 0), index = mlirOperationGetOperand(f->op, 1);
  int64_t dim = 0;
  fuser_get_i64(f->op, "dim", &dim);
  if (f->pc == 2) return done(child);
  if (f->pc == 0) {
    if (g->W > 1) return kg_fail_op(g, f->op, "lowering: index ops need the scalar variant (vector width 1)"), done(dummy(g, f->v));
    idx_t xi = {.rank = fk_tensor_rank(index)};
    if (f->id == FUSER_OP_index_select) xi.v[0] = f->ix.v[dim];
    else
      for (int j = 0; j < xi.rank; j++) {
        if (fk_static_dim(index, j) == 1) idx_zero(g, &xi, j);
        else xi.v[j] = f->ix.v[j];
      }
    f->pc = 1;
    return need(index, &xi);
  }
  idx_t o = {.rank = fk_tensor_rank(arg)};
  MlirValue extra = {NULL};
  for (int j = 0; j < o.rank; j++) {
    if (j == dim) continue;
    if (fk_static_dim(arg, j) == 1) {
      idx_zero(g, &o, j);
      continue;
    }
    o.v[j] = f->ix.v[j];
    /* gather: index extents may be smaller than arg's, never larger (checked
     * when static; a symbolic one is checked here) */
    if (f->id == FUSER_OP_gather && (fk_static_dim(arg, j) == FK_DYN || fk_static_dim(index, j) == FK_DYN)) {
      MlirValue in = fb_cmpi(b, FB_CMPI_SLT, o.v[j], kg_dim_of(g, arg, j));
      extra = mlirValueIsNull(extra) ? in : fb_andi(b, extra, in);
    }
  }
  o.v[dim] = kg_index_checked(g, f->op, child, kg_dim_of(g, arg, (int)dim), extra);
  f->pc = 2;
  return need(arg, &o);
}

/* triu / tril at one point: the input where col - row >= diagonal (triu)
 * or <= diagonal (tril) over the last two index dims (signed), else 0;
 * the same rule as fuser_triangle_keeps. */
static step triangle(gen *g, frame *f, kval child) {
  fb_builder *b = &g->b;
  if (f->pc == 0) {
    if (g->W > 1) return kg_fail_op(g, f->op, "lowering: triu/tril need the scalar variant (vector width 1)"), done(dummy(g, f->v));
    f->pc = 1;
    return need(mlirOperationGetOperand(f->op, 0), &f->ix);
  }
  int64_t diagonal = 0;
  fuser_get_i64(f->op, "diagonal", &diagonal);
  int r = f->ix.rank;
  fb_cmpi_pred pred = f->id == FUSER_OP_triu ? FB_CMPI_SGE : FB_CMPI_SLE;
  MlirValue keep = fb_cmpi(b, pred, fb_subi(b, f->ix.v[r - 1], f->ix.v[r - 2]), kg_cidx(g, diagonal));
  return done((kval){fb_select(b, keep, child.v, kg_kconst(g, 0, child).v), false, child.dt});
}

/* One step of frame f, given the value of the operand it last asked for. */
static step advance(gen *g, frame *f, kval child) {
  fb_set_loc(&g->b, mlirOperationGetLocation(f->op));
  fuser_op_kind kind = fuser_op_kind_of(f->id);
  fk_dim_map map[FK_R];
  if (fuser_is_triangle_op(f->id)) return triangle(g, f, child);
  if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) return elementwise(g, f, child);
  if (f->id == FUSER_OP_cat) return cat(g, f, child);
  if (f->id == FUSER_OP_pad) return pad(g, f, child);
  if (kind == FUSER_KIND_REDUCTION) return reduction(g, f, child);
  if (f->id == FUSER_OP_full) return done(kg_splat(g, kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(f->op, 0)), fuser_value_dtype(f->v))));
  if (f->id == FUSER_OP_iota) return iota(g, f);
  if (kind == FUSER_KIND_RNG) return done(kg_rng(g, f->op, f->v, &f->ix));
  if (kind == FUSER_KIND_INDEX) return index_read(g, f, child);
  if (f->id == FUSER_OP_reshape) {
    if (f->pc == 1) return done(child);
    for (int j = 0; g->W > 1 && j + 1 < f->ix.rank; j++)
      if (f->ix.inner[j])
        return kg_fail_op(g, f->op, "lowering: the vector lanes cross this reshape's rows: the scalar variant only"),
               done(dummy(g, f->v));
    f->pc = 1;
    MlirValue in = mlirOperationGetOperand(f->op, 0);
    idx_t o = reshape_index(g, f->v, &f->ix, in);
    return need(in, &o);
  }
  if (f->pc == 0 && !fk_operand_index_map(f->op, 0, f->v, map))
    return kg_fail_op(g, f->op, "lowering: op not supported in kernels yet"), done(dummy(g, f->v));
  if (f->pc == 0) return view(g, f, child, map);
  return done(child);
}

/* The value of a frame that needs no op step (a scalar, a memo hit, an
 * argument), or false. */
static bool leaf(gen *g, MlirValue v, const idx_t *ix, kval *out) {
  if (g->failed) return *out = dummy(g, v), true;
  if (!fuser_value_is_tensor(v)) {
    kval s = kg_scalar_of(g, v);
    *out = g->W > 1 ? kg_splat(g, s) : s;
    return true;
  }
  memo_key key = mkey(v, ix);
  kval *hit = fuser_scoped_memo_find(&g->memo, &key);
  if (hit) return *out = *hit, true;
  if (mlirValueIsABlockArgument(v)) {
    *out = kg_load(g, (int)mlirBlockArgumentGetArgNumber(v), ix);
    fuser_scoped_memo_push(&g->memo, &key, out);
    return true;
  }
  return false;
}

kval kg_visit(gen *g, MlirValue root, const idx_t *ix) {
  kval r;
  if (leaf(g, root, ix, &r)) return r;
  frame_stack s = {0};
  MlirLocation saved_loc = fb_get_loc(&g->b);
  frame *f = push(&s, root, ix);
  f->op = fk_owner(root);
  f->id = fuser_op_id_of(f->op);
  if (f->id == FUSER_OP_NONE) {
    kg_fail_op(g, f->op, "lowering: a kernel body may only hold fuser ops");
    free(s.items);
    return dummy(g, root);
  }
  f->nops = (int)mlirOperationGetNumOperands(f->op);
  if (f->nops > 3) f->nops = 3;
  kval child = {0};
  while (s.n > 0) {
    f = &s.items[s.n - 1];
    step st = g->failed ? done(dummy(g, f->v)) : advance(g, f, child);
    if (!st.need) { /* f is done */
      memo_key key = mkey(f->v, &f->ix);
      fuser_scoped_memo_push(&g->memo, &key, &st.result);
      child = st.result;
      s.n--;
      continue;
    }
    if (leaf(g, st.v, &st.ix, &child)) continue; /* resume f with it */
    MlirOperation op = fk_owner(st.v);
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_NONE) {
      kg_fail_op(g, op, "lowering: a kernel body may only hold fuser ops");
      child = dummy(g, st.v);
      continue;
    }
    frame *c = push(&s, st.v, &st.ix);
    c->op = op;
    c->id = id;
    c->nops = (int)mlirOperationGetNumOperands(op);
    if (c->nops > 3) c->nops = 3;
    child = (kval){0};
  }
  free(s.items);
  fb_set_loc(&g->b, saved_loc);
  return child;
}
