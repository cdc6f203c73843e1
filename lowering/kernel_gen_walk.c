/* kernel_gen_walk.c: the walker of the kernel generator (see
 * kernel_gen_internal.h). It evaluates a tensor value at one index by
 * remapping the index through the op DAG back to the arguments: broadcasts,
 * permute, slice, squeeze and reshape remap it; cat and pad branch (scf.if)
 * and record their boundaries; reductions loop (scf.for). Its memo keys
 * values by (value, index) and is scoped to the enclosing scf region. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"

/* ---- memo ---------------------------------------------------------------- */

static char *idx_key(const idx_t *ix) {
  strbuf b = {0};
  sb_append(&b, "");
  for (int j = 0; j < ix->rank; j++) sb_printf(&b, "%s,", ix->name[j]);
  return b.data;
}

static bool memo_find(gen *g, const void *key, const char *idx, kval *out) {
  for (int i = g->nmemo - 1; i >= 0; i--)
    if (g->memo[i].key == key && strcmp(g->memo[i].idx, idx) == 0) {
      *out = g->memo[i].v;
      return true;
    }
  return false;
}

static void memo_add(gen *g, const void *key, char *idx, kval v) {
  if (g->nmemo == g->capmemo) {
    g->capmemo = g->capmemo ? 2 * g->capmemo : 64;
    g->memo = realloc(g->memo, (size_t)g->capmemo * sizeof *g->memo);
  }
  g->memo[g->nmemo++] = (memo_entry){key, idx, v, g->depth};
}

static void scope_push(gen *g) {
  g->depth++;
  g->indent += 2;
}

static void scope_pop(gen *g) {
  while (g->nmemo > 0 && g->memo[g->nmemo - 1].depth >= g->depth) free(g->memo[--g->nmemo].idx);
  g->depth--;
  g->indent -= 2;
}

/* ---- the walker ----------------------------------------------------------- */

static void idx_zero(gen *g, idx_t *o, int j) {
  kg_cidx(g, 0, o->name[j]);
  memset(o->coef[j], 0, sizeof o->coef[j]);
  o->off[j] = 0;
}

static void idx_copy_dim(idx_t *o, int j, const idx_t *ix, int i) {
  memcpy(o->name[j], ix->name[i], NAME);
  memcpy(o->coef[j], ix->coef[i], sizeof o->coef[j]);
  o->off[j] = ix->off[i];
}

/* The input index of an operand that is implicitly broadcast (static 1). */
static void same_rank_operand(gen *g, MlirValue operand, MlirValue result, const idx_t *ix, idx_t *o) {
  *o = *ix;
  for (int j = 0; j < ix->rank; j++)
    if (kg_static_dim(operand, j) == 1 && kg_static_dim(result, j) != 1) idx_zero(g, o, j);
}

static void record_boundary(gen *g, const idx_t *ix, int j, dimv at) {
  if (!g->analysis || ix->opaque || g->k->num_boundaries >= FK_MAX_ACCESSES) return;
  int dim = -1, nz = 0;
  for (int d = 0; d < g->k->rank; d++)
    if (ix->coef[j][d]) dim = d, nz++;
  if (nz != 1) return;
  fk_boundary *b = &g->k->bnd[g->k->num_boundaries++];
  b->dim = dim;
  b->value = at.value == FK_DYN ? FK_DYN : at.value - ix->off[j];
  b->src_tensor = at.value == FK_DYN ? at.src_tensor : -1;
  b->src_dim = at.src_dim;
  b->shift = at.shift - ix->off[j];
}

/* Linear index of ix over the extents of v, then delinearized over the
 * extents of `to` (reshape of a computed value). */
static void reshape_index(gen *g, MlirValue from, const idx_t *ix, MlirValue to, idx_t *o) {
  char lin[NAME];
  kg_cidx(g, 0, lin);
  for (int j = 0; j < ix->rank; j++) {
    char t1[NAME], t2[NAME];
    kg_imul(g, lin, kg_dim_of(g, from, j).name, t1);
    kg_iadd(g, t1, ix->name[j], t2);
    memcpy(lin, t2, NAME);
  }
  o->rank = kg_tensor_rank(to);
  o->opaque = true;
  memset(o->coef, 0, sizeof o->coef);
  memset(o->off, 0, sizeof o->off);
  for (int j = o->rank - 1; j >= 0; j--) {
    dimv e = kg_dim_of(g, to, j);
    if (j == 0) { memcpy(o->name[0], lin, NAME); break; }
    kg_fresh(g, o->name[j]);
    kg_emit(g, "%s = arith.remui %s, %s : index", o->name[j], lin, e.name);
    char q[NAME];
    kg_fresh(g, q);
    kg_emit(g, "%s = arith.divui %s, %s : index", q, lin, e.name);
    memcpy(lin, q, NAME);
  }
}

static kval visit_cat(gen *g, MlirOperation op, MlirValue v, const idx_t *ix) {
  int64_t cd = 0;
  fuser_get_i64(op, "dim", &cd);
  if (cd < 0) cd += ix->rank;
  MlirValue lhs = mlirOperationGetOperand(op, 0), rhs = mlirOperationGetOperand(op, 1);
  dimv e = kg_dim_of(g, lhs, (int)cd);
  record_boundary(g, ix, (int)cd, e);
  kval r = {.vec = g->W > 1, .dt = fuser_value_dtype(v)};
  char p[NAME], ty[NAME];
  kg_type_str(g, r.dt, r.vec, ty);
  kg_fresh(g, p);
  kg_emit(g, "%s = arith.cmpi slt, %s, %s : index", p, ix->name[cd], e.name);
  kg_fresh(g, r.name);
  kg_emit(g, "%s = scf.if %s -> (%s) {", r.name, p, ty);
  scope_push(g);
  kval a = kg_visit(g, lhs, ix);
  kg_emit(g, "scf.yield %s : %s", a.name, ty);
  scope_pop(g);
  kg_emit(g, "} else {");
  scope_push(g);
  idx_t o = *ix;
  kg_fresh(g, o.name[cd]);
  kg_emit(g, "%s = arith.subi %s, %s : index", o.name[cd], ix->name[cd], e.name);
  if (e.value != FK_DYN) o.off[cd] -= e.value;
  else o.opaque = o.opaque || e.src_tensor < 0;
  kval b = kg_visit(g, rhs, &o);
  kg_emit(g, "scf.yield %s : %s", b.name, ty);
  scope_pop(g);
  kg_emit(g, "}");
  return r;
}

static kval visit_pad(gen *g, MlirOperation op, MlirValue v, const idx_t *ix) {
  int64_t w[2 * FK_R];
  int n = fuser_get_i64_array(op, "pad_widths", w, 2 * FK_R);
  MlirValue in = mlirOperationGetOperand(op, 0);
  kval r = {.vec = g->W > 1, .dt = fuser_value_dtype(v)};
  char cond[NAME] = "", ty[NAME];
  kg_type_str(g, r.dt, r.vec, ty);
  idx_t o = *ix;
  for (int p = 0; 2 * p + 1 < n && p < ix->rank; p++) {
    int j = ix->rank - 1 - p;
    int64_t lo = w[2 * p], hi = w[2 * p + 1];
    if (lo == 0 && hi == 0) continue;
    dimv e = kg_dim_of(g, in, j);
    char lo_n[NAME], hi_n[NAME], c1[NAME], c2[NAME], c[NAME];
    kg_cidx(g, lo, lo_n);
    {
      strbuf *save = g->cur;
      g->cur = g->pro;
      kg_iaddc(g, e.name, lo, hi_n);
      g->cur = save;
    }
    dimv lo_d = {.value = lo, .src_tensor = -1};
    dimv hi_d = {.value = e.value == FK_DYN ? FK_DYN : e.value + lo, .src_tensor = e.src_tensor, .src_dim = e.src_dim,
                 .shift = e.shift + lo};
    record_boundary(g, ix, j, lo_d);
    record_boundary(g, ix, j, hi_d);
    kg_fresh(g, c1);
    kg_emit(g, "%s = arith.cmpi sge, %s, %s : index", c1, ix->name[j], lo_n);
    kg_fresh(g, c2);
    kg_emit(g, "%s = arith.cmpi slt, %s, %s : index", c2, ix->name[j], hi_n);
    kg_fresh(g, c);
    kg_emit(g, "%s = arith.andi %s, %s : i1", c, c1, c2);
    if (cond[0]) {
      char cc[NAME];
      kg_fresh(g, cc);
      kg_emit(g, "%s = arith.andi %s, %s : i1", cc, cond, c);
      memcpy(cond, cc, NAME);
    } else memcpy(cond, c, NAME);
    kg_iaddc(g, ix->name[j], -lo, o.name[j]);
    o.off[j] -= lo;
  }
  if (!cond[0]) return kg_visit(g, in, ix);
  kg_fresh(g, r.name);
  kg_emit(g, "%s = scf.if %s -> (%s) {", r.name, cond, ty);
  scope_push(g);
  kval a = kg_visit(g, in, &o);
  kg_emit(g, "scf.yield %s : %s", a.name, ty);
  scope_pop(g);
  kg_emit(g, "} else {");
  scope_push(g);
  kval pv = kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(op, 1)), r.dt);
  pv = kg_splat(g, pv);
  kg_emit(g, "scf.yield %s : %s", pv.name, ty);
  scope_pop(g);
  kg_emit(g, "}");
  return r;
}

/* A reduction at one output point: loops over the reduced dims, f32/f64/i64
 * accumulation (the simple correct kernel; only in the scalar variant). */
static kval visit_reduction(gen *g, MlirOperation op, fuser_op_id id, MlirValue v, const idx_t *ix) {
  if (g->W > 1) return kg_fail_op(g, op, "lowering: reductions need the scalar variant (vector width 1)"), (kval){0};
  int64_t dims[FK_R], keep = 0;
  int nd = fuser_get_i64_array(op, "dims", dims, FK_R);
  fuser_get_i64(op, "keepdim", &keep);
  MlirValue in = mlirOperationGetOperand(op, 0);
  int in_rank = kg_tensor_rank(in);
  fuser_dtype in_dt = fuser_value_dtype(in), out_dt = fuser_value_dtype(v);
  fuser_dtype acc = kg_is_float(out_dt) || kg_is_float(in_dt) ? (out_dt == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32)
                                                        : FUSER_DTYPE_I64;
  idx_t o = {.rank = in_rank, .opaque = true};
  bool red[FK_R] = {0};
  for (int q = 0; q < nd; q++) red[dims[q] < 0 ? dims[q] + in_rank : dims[q]] = true;
  double init = id == FUSER_OP_sum ? 0 : id == FUSER_OP_prod ? 1 : id == FUSER_OP_max ? -INFINITY : INFINITY;
  if (!kg_is_float(acc) && id == FUSER_OP_max) init = (double)INT64_MIN;
  if (!kg_is_float(acc) && id == FUSER_OP_min) init = (double)INT64_MAX;
  kval cur = kg_kconst(g, init, (kval){.dt = acc});
  char ty[NAME], results[FK_R][NAME];
  kg_type_str(g, acc, false, ty);
  int out = 0, nloops = 0;
  for (int i = 0; i < in_rank; i++) {
    if (red[i]) {
      char iv[NAME], res[NAME], it[NAME];
      snprintf(iv, NAME, "%%r%d", g->counter++);
      kg_fresh(g, res);
      snprintf(it, NAME, "%%acc%d", g->counter++);
      char lo[NAME], step[NAME];
      kg_cidx(g, 0, lo);
      kg_cidx(g, 1, step);
      kg_emit(g, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {", res, iv, lo, kg_dim_of(g, in, i).name,
           step, it, cur.name, ty);
      scope_push(g);
      memcpy(o.name[i], iv, NAME);
      memcpy(cur.name, it, NAME);
      memcpy(results[nloops++], res, NAME);
      if (keep) out++;
    } else {
      idx_copy_dim(&o, i, ix, out++);
    }
  }
  kval x = kg_convert(g, kg_visit(g, in, &o), acc);
  bool fl = kg_is_float(acc);
  kval next;
  switch (id) {
  case FUSER_OP_sum: next = kg_op2(g, fl ? "arith.addf" : "arith.addi", cur, x); break;
  case FUSER_OP_prod: next = kg_op2(g, fl ? "arith.mulf" : "arith.muli", cur, x); break;
  case FUSER_OP_max: next = kg_op2(g, fl ? "arith.maximumf" : "arith.maxsi", cur, x); break;
  default: next = kg_op2(g, fl ? "arith.minimumf" : "arith.minsi", cur, x); break;
  }
  for (int l = nloops - 1; l >= 0; l--) {
    kg_emit(g, "scf.yield %s : %s", next.name, ty);
    scope_pop(g);
    kg_emit(g, "}");
    memcpy(next.name, results[l], NAME);
  }
  return kg_convert(g, next, out_dt);
}

kval kg_visit(gen *g, MlirValue v, const idx_t *ix) {
  if (g->failed) return (kval){.name = "%c0"};
  if (!fuser_value_is_tensor(v)) {
    kval s = kg_scalar_of(g, v);
    return g->W > 1 ? kg_splat(g, s) : s;
  }
  char *key = idx_key(ix);
  kval r;
  if (memo_find(g, v.ptr, key, &r)) {
    free(key);
    return r;
  }
  if (mlirValueIsABlockArgument(v)) {
    r = kg_load(g, (int)mlirBlockArgumentGetArgNumber(v), ix);
    memo_add(g, v.ptr, key, r);
    return r;
  }
  MlirOperation op = kg_owner(v);
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  fuser_dtype out_dt = fuser_value_dtype(v);
  int64_t a[2 * FK_R];
  int n;
  idx_t o = {.rank = 0, .opaque = ix->opaque};
  if (id == FUSER_OP_NONE) {
    kg_fail_op(g, op, "lowering: a kernel body may only hold fuser ops");
    r = (kval){.name = "%c0"};
  } else if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    kval x[3];
    int no = (int)mlirOperationGetNumOperands(op);
    for (int i = 0; i < no && i < 3; i++) {
      MlirValue operand = mlirOperationGetOperand(op, i);
      if (fuser_value_is_tensor(operand)) {
        same_rank_operand(g, operand, v, ix, &o);
        x[i] = kg_visit(g, operand, &o);
      } else {
        x[i] = kg_scalar_of(g, operand);
      }
    }
    r = kg_elementwise(g, op, id, x, no, out_dt);
  } else if (id == FUSER_OP_set || id == FUSER_OP_segment_set) {
    r = kg_visit(g, mlirOperationGetOperand(op, 0), ix);
  } else if (id == FUSER_OP_slice) {
    n = fuser_get_i64_array(op, "start_indices", a, FK_R);
    o = *ix;
    for (int j = 0; j < n && j < ix->rank; j++) {
      kg_iaddc(g, ix->name[j], a[j], o.name[j]);
      o.off[j] += a[j];
    }
    r = kg_visit(g, mlirOperationGetOperand(op, 0), &o);
  } else if (id == FUSER_OP_permute) {
    /* result dim j is input dim dims[j] */
    n = fuser_get_i64_array(op, "dims", a, FK_R);
    o.rank = ix->rank;
    for (int j = 0; j < n; j++) idx_copy_dim(&o, (int)a[j], ix, j);
    r = kg_visit(g, mlirOperationGetOperand(op, 0), &o);
  } else if (id == FUSER_OP_broadcast_in_dim || id == FUSER_OP_expand || id == FUSER_OP_broadcast ||
             id == FUSER_OP_squeeze) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    o.rank = kg_tensor_rank(in);
    if (id == FUSER_OP_broadcast_in_dim) {
      n = fuser_get_i64_array(op, "broadcast_dims", a, FK_R);
      for (int i = 0; i < o.rank; i++) idx_copy_dim(&o, i, ix, (int)a[i]);
    } else if (id == FUSER_OP_expand) {
      for (int i = 0; i < o.rank; i++) idx_copy_dim(&o, i, ix, i);
    } else if (id == FUSER_OP_broadcast) {
      n = fuser_get_i64_array(op, "is_broadcast_dim", a, FK_R);
      int i = 0;
      for (int j = 0; j < n; j++)
        if (!a[j]) idx_copy_dim(&o, i++, ix, j);
    } else { /* squeeze: the dropped input dims have extent 1 */
      n = fuser_get_i64_array(op, "dims", a, FK_R);
      int out = 0;
      for (int i = 0; i < o.rank; i++) {
        bool sq = false;
        for (int q = 0; q < n; q++) sq |= (a[q] < 0 ? a[q] + o.rank : a[q]) == i;
        if (sq) idx_zero(g, &o, i);
        else idx_copy_dim(&o, i, ix, out++);
      }
    }
    /* a static-1 input dim broadcast to a larger extent reads index 0 */
    if (id != FUSER_OP_squeeze)
      for (int i = 0; i < o.rank; i++)
        if (kg_static_dim(in, i) == 1) idx_zero(g, &o, i);
    r = kg_visit(g, in, &o);
  } else if (id == FUSER_OP_reshape) {
    g->k->has_reshape = true;
    if (g->W > 1) {
      kg_fail_op(g, op, "lowering: reshape of a computed value needs the scalar variant (vector width 1)");
      r = (kval){.name = "%c0"};
    } else {
      MlirValue in = mlirOperationGetOperand(op, 0);
      reshape_index(g, v, ix, in, &o);
      r = kg_visit(g, in, &o);
    }
  } else if (id == FUSER_OP_cat) {
    r = visit_cat(g, op, v, ix);
  } else if (id == FUSER_OP_pad) {
    r = visit_pad(g, op, v, ix);
  } else if (kind == FUSER_KIND_REDUCTION) {
    g->k->has_reduction = true;
    r = visit_reduction(g, op, id, v, ix);
  } else if (id == FUSER_OP_full) {
    r = kg_convert(g, kg_scalar_of(g, mlirOperationGetOperand(op, 0)), out_dt);
    r = kg_splat(g, r);
  } else if (id == FUSER_OP_iota) {
    g->k->has_reshape = true; /* index-dependent values: the scalar variant */
    kval start = kg_scalar_of(g, mlirOperationGetOperand(op, 1)), step = kg_scalar_of(g, mlirOperationGetOperand(op, 2));
    kval i = {.dt = FUSER_DTYPE_I64};
    if (g->W > 1) {
      kg_fail_op(g, op, "lowering: iota needs the scalar variant (vector width 1)");
      r = (kval){.name = "%c0"};
    } else {
      kg_fresh(g, i.name);
      kg_emit(g, "%s = arith.index_cast %s : index to i64", i.name, ix->name[0]);
      kval ic = kg_convert(g, i, out_dt);
      r = kg_op2(g, kg_is_float(out_dt) ? "arith.addf" : "arith.addi", kg_convert(g, start, out_dt),
              kg_op2(g, kg_is_float(out_dt) ? "arith.mulf" : "arith.muli", ic, kg_convert(g, step, out_dt)));
    }
  } else {
    kg_fail_op(g, op, "lowering: op not supported in kernels yet");
    r = (kval){.name = "%c0"};
  }
  memo_add(g, v.ptr, key, r);
  return r;
}
