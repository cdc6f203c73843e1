/* row_gen_values.c: the values of the row and outer generators
 * (row_gen_internal.h): types and conversions, the memo, sizes, loads and
 * stores, element-wise ops, combine/neutral elements, and the walker that
 * evaluates a kernel value at a dim map and chunk.
 *
 * Values are vectors of W elements (W = 1 included) in their dtype's type
 * (bf16 stays bf16 until an op computes: then f32, nvFuser's promotion);
 * a value per row (a reduction result and what is computed from it) is
 * splat. Each value is evaluated at a `dim map` (for each of its dims the
 * kernel dim it walks, or -1: index 0) and a chunk (one vector of the row),
 * memoized per (value, map, chunk) inside the current scf region. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/row_gen_internal.h"
#include "lowering/philox_gen.h"
#include "lowering/special_fns.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"

/* Marks the variant unsupported (the kernel is lowered another way),
 * keeping the first reason. */
void rg_unsupported(rgen *g, const char *why) {
  if (!g->failed) snprintf(g->why, sizeof g->why, "%s", why);
  g->failed = g->unsupported = true;
}

/* ---- types and conversions ------------------------------------------------ */

MlirType rg_elem_type(rgen *g, fuser_dtype dt) { return fuser_dtype_to_type(rg_ctx_of(g), dt); }
MlirType rg_storage_type(rgen *g, fuser_dtype dt) {
  return dt == FUSER_DTYPE_I1 ? mlirIntegerTypeGet(rg_ctx_of(g), 8) : rg_elem_type(g, dt);
}
MlirType rg_vec_type(rgen *g, fuser_dtype dt) { return fb_vector_type(rg_elem_type(g, dt), g->W); }
bool rg_is_float(fuser_dtype dt) { return fuser_dtype_is_float(dt); }

static MlirValue splat_const(rgen *g, fuser_dtype dt, double v) {
  MlirType e = rg_elem_type(g, dt);
  MlirValue c = rg_is_float(dt) ? fb_const_float(&g->b, e, v) : fb_const_int(&g->b, e, (int64_t)v);
  return fb_broadcast(&g->b, c, fb_vector_type(e, g->W));
}

/* dtype conversion of a vector value (kg_convert's rules) */
MlirValue rg_convert(rgen *g, MlirValue x, fuser_dtype from, fuser_dtype to) {
  if (from == to) return x;
  MlirType tt = rg_vec_type(g, to);
  if (to == FUSER_DTYPE_I1) {
    MlirValue z = splat_const(g, from, 0);
    return rg_is_float(from) ? fb_cmpf(&g->b, FB_CMPF_UNE, x, z) : fb_cmpi(&g->b, FB_CMPI_NE, x, z);
  }
  if ((from == FUSER_DTYPE_BF16 && to == FUSER_DTYPE_F16) || (from == FUSER_DTYPE_F16 && to == FUSER_DTYPE_BF16))
    return rg_convert(g, rg_convert(g, x, from, FUSER_DTYPE_F32), FUSER_DTYPE_F32, to);
  const char *op;
  if (rg_is_float(from) && rg_is_float(to)) op = fuser_dtype_size(to) > fuser_dtype_size(from) ? "arith.extf" : "arith.truncf";
  else if (from == FUSER_DTYPE_I1) op = rg_is_float(to) ? "arith.uitofp" : "arith.extui";
  else if (!rg_is_float(from) && rg_is_float(to)) op = "arith.sitofp";
  else if (rg_is_float(from) && !rg_is_float(to)) op = "arith.fptosi";
  else op = fuser_dtype_size(to) > fuser_dtype_size(from) ? "arith.extsi" : "arith.trunci";
  return fb_cast(&g->b, op, x, tt);
}

/* ---- memo ----------------------------------------------------------------- */

static bool memo_get(rgen *g, const void *key, const int8_t *map, int chunk, MlirValue *out) {
  for (int i = g->nmemo - 1; i >= 0; i--)
    if (g->memo[i].key == key && g->memo[i].chunk == chunk && memcmp(g->memo[i].map, map, FK_R) == 0) {
      *out = g->memo[i].v;
      return true;
    }
  return false;
}

static void memo_put(rgen *g, const void *key, const int8_t *map, int chunk, MlirValue v) {
  if (g->nmemo == g->capmemo) g->memo = realloc(g->memo, sizeof *g->memo * (g->capmemo = g->capmemo ? 2 * g->capmemo : 64));
  rmemo *m = &g->memo[g->nmemo++];
  m->key = key;
  memcpy(m->map, map, FK_R);
  m->chunk = chunk;
  m->depth = g->depth;
  m->v = v;
}

void rg_scope_push(rgen *g) { g->depth++; }
void rg_scope_pop(rgen *g) {
  while (g->nmemo > 0 && g->memo[g->nmemo - 1].depth >= g->depth) g->nmemo--;
  g->depth--;
}

/* ---- parameters, sizes, strides ------------------------------------------ */

static int64_t static_dim(MlirValue v, int d) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, d) ? FK_DYN : mlirShapedTypeGetDimSize(t, d);
}

/* ---- loads and stores ----------------------------------------------------- */

/* Element offset of tensor t at a dim map (outer dims from the row's
 * indices, inner dims contiguous from the chunk's column). *inner says
 * whether it walks the row (else it is the same for the whole row). */
static MlirValue offset_of(rgen *g, int t, const int8_t *map, int chunk, bool *inner) {
  const fk_tensor *ft = &g->k->t[t];
  /* kernel dims [lo, outer) are the reduced rows (outer mode) or none;
   * below lo the batch (outer) or the rows (inner); from outer the row */
  int lo = g->outer_mode ? g->s->batch : g->s->outer, outer = g->outer_mode ? g->s->batch + g->s->outer : g->s->outer;
  MlirValue off = rg_idx(g, 0);
  int first_inner = -1, ninner = 0;
  int nrow = 0, last_row = -1;
  for (int d = 0; d < ft->rank; d++) {
    if (map[d] < 0) continue;
    if (map[d] >= lo && map[d] < outer && g->outer_mode) {
      nrow++; /* merged below */
      if (map[d] == outer - 1) last_row = d;
    } else if (map[d] < lo) {
      MlirValue i = g->outer_mode ? g->bidx[map[d]] : g->outer_idx[map[d]];
      off = fb_addi(&g->b, off, fb_muli(&g->b, i, g->stride[t][d]));
    } else {
      if (ft->strides[d] == 0) continue; /* broadcast along the row: a per-row value */
      if (first_inner < 0) first_inner = d;
      /* the inner dims in order, consecutive */
      if (map[d] != outer + ninner || d != first_inner + ninner) {
        rg_unsupported(g, "a tensor walks the reduced dims out of order");
        return off;
      }
      ninner++;
    }
  }
  if (g->outer_mode && nrow > 0) {
    /* the reduced dims merge (their strides nest: conditions()) */
    if (nrow != g->s->outer || last_row < 0) {
      rg_unsupported(g, "a tensor walks only some of the reduced dims");
      return off;
    }
    off = fb_addi(&g->b, off, fb_muli(&g->b, g->rowc[chunk < 0 ? 0 : chunk], g->stride[t][last_row]));
  }
  *inner = ninner > 0;
  if (!*inner) return off;
  if (ninner != g->s->rank - outer) {
    rg_unsupported(g, "a tensor walks only some of the reduced dims");
    return off;
  }
  /* contiguous: stride 1 innermost, nested over the inner dims; where a
   * stride or an extent is symbolic, the nesting is a run-time `merge`
   * condition (inner_merge_conditions) */
  int64_t expect = 1;
  for (int d = first_inner + ninner - 1; d >= first_inner; d--) {
    bool known = expect != FK_DYN && ft->strides[d] != FK_DYN;
    if ((d == first_inner + ninner - 1 && ft->strides[d] != 1) || (known && ft->strides[d] != expect)) {
      rg_unsupported(g, "a tensor is not contiguous along the reduced dims");
      return off;
    }
    int64_t e = ft->shape[d];
    expect = expect == FK_DYN || e == FK_DYN ? FK_DYN : expect * e;
  }
  return fb_addi(&g->b, off, g->col[chunk < 0 ? 0 : chunk]);
}

int64_t rg_align_of(rgen *g, int t) { return (int64_t)g->W * (int64_t)fuser_dtype_size(g->k->t[t].dtype); }

static MlirValue load(rgen *g, int t, const int8_t *map, int chunk) {
  bool inner = false;
  MlirValue off = offset_of(g, t, map, chunk, &inner);
  if (g->failed) return off;
  fuser_dtype dt = g->k->t[t].dtype;
  MlirType st = rg_storage_type(g, dt);
  MlirValue v;
  if (inner) {
    v = fb_vector_load(&g->b, fb_vector_type(st, g->W), g->mem[t], off, g->W > 1 ? rg_align_of(g, t) : 0);
  } else {
    v = fb_broadcast(&g->b, fb_load(&g->b, g->mem[t], off), fb_vector_type(st, g->W));
  }
  if (dt == FUSER_DTYPE_I1) v = fb_cast(&g->b, "arith.trunci", v, rg_vec_type(g, dt));
  return v;
}

/* The identity dim map of a tensor of the row space's rank (what the
 * walker passes to a full-rank argument read by an op of its shape). */
static void identity_map(rgen *g, int8_t *map) {
  memset(map, -1, FK_R);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
}

MlirValue rg_load_row(rgen *g, int t, int chunk) {
  int8_t map[FK_R];
  identity_map(g, map);
  return load(g, t, map, chunk);
}

void rg_preload(rgen *g, int t, int chunk, MlirValue v) {
  int8_t map[FK_R];
  identity_map(g, map);
  memo_put(g, mlirBlockGetArgument(fuser_func_body(g->k->func), t).ptr, map, chunk, v);
}

void rg_store(rgen *g, int t, const int8_t *map, int chunk, MlirValue v) {
  bool inner = false;
  MlirValue off = offset_of(g, t, map, chunk, &inner);
  if (g->failed) return;
  fuser_dtype dt = g->k->t[t].dtype;
  if (dt == FUSER_DTYPE_I1) v = fb_cast(&g->b, "arith.extui", v, fb_vector_type(rg_storage_type(g, dt), g->W));
  if (inner) fb_vector_store(&g->b, v, g->mem[t], off, g->W > 1 ? rg_align_of(g, t) : 0);
  else fb_store(&g->b, fb_extract(&g->b, v, 0), g->mem[t], off);
}

/* ---- element-wise ops ------------------------------------------------------ */

static fuser_dtype compute_type(fuser_op_id id, const fuser_dtype *x, int n, fuser_dtype out) {
  fuser_rule rule = fuser_op_rule_of(id);
  if (rule == FUSER_RULE_COMPARE ||
      (rule == FUSER_RULE_BOOL && id != FUSER_OP_logical_and && id != FUSER_OP_logical_or && id != FUSER_OP_logical_not)) {
    bool fl = false, f64 = false, i64 = false;
    for (int i = 0; i < n; i++) fl |= rg_is_float(x[i]), f64 |= x[i] == FUSER_DTYPE_F64, i64 |= x[i] == FUSER_DTYPE_I64;
    return fl ? (f64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32) : i64 ? FUSER_DTYPE_I64 : FUSER_DTYPE_I32;
  }
  if (id == FUSER_OP_logical_and || id == FUSER_OP_logical_or || id == FUSER_OP_logical_not) return FUSER_DTYPE_I1;
  return out == FUSER_DTYPE_BF16 || out == FUSER_DTYPE_F16 ? FUSER_DTYPE_F32 : out;
}

/* `recip_key` non-NULL: a float division whose divisor is the same for the
 * whole row (a reduction result, a scalar): x * (1 / d), the reciprocal
 * computed once per row and memoized under recip_key (on the H200 softmax's
 * per-element division cost ~4% of the copy bandwidth). */
static MlirValue elementwise(rgen *g, fuser_op_id id, MlirValue *x, fuser_dtype *dt, int n, fuser_dtype out,
                             const void *recip_key) {
  fb_builder *b = &g->b;
  if (id == FUSER_OP_cast) {
    MlirValue a = x[0];
    fuser_dtype f = dt[0];
    if ((f == FUSER_DTYPE_BF16 || f == FUSER_DTYPE_F16) && !rg_is_float(out)) a = rg_convert(g, a, f, FUSER_DTYPE_F32), f = FUSER_DTYPE_F32;
    return rg_convert(g, a, f, out);
  }
  fuser_dtype ct = compute_type(id, dt, n, out);
  MlirValue a[3];
  for (int i = 0; i < n; i++) {
    if (id == FUSER_OP_where) a[i] = rg_convert(g, x[i], dt[i], i == 0 ? FUSER_DTYPE_I1 : out);
    else a[i] = rg_convert(g, x[i], dt[i], ct);
  }
  if (id == FUSER_OP_where) return fb_select(b, a[0], a[1], a[2]);
  bool fl = rg_is_float(ct);
  MlirValue r;
  switch (id) {
  case FUSER_OP_neg: r = fl ? fb_unary(b, "arith.negf", a[0]) : fb_binary(b, "arith.subi", splat_const(g, ct, 0), a[0]); break;
  case FUSER_OP_abs: r = fb_unary(b, fl ? "math.absf" : "math.absi", a[0]); break;
  case FUSER_OP_exp: r = fb_unary(b, "math.exp", a[0]); break;
  case FUSER_OP_exp2: r = fb_unary(b, "math.exp2", a[0]); break;
  case FUSER_OP_expm1: r = fb_unary(b, "math.expm1", a[0]); break;
  case FUSER_OP_log: r = fb_unary(b, "math.log", a[0]); break;
  case FUSER_OP_log1p: r = fb_unary(b, "math.log1p", a[0]); break;
  case FUSER_OP_log2: r = fb_unary(b, "math.log2", a[0]); break;
  case FUSER_OP_sqrt: r = fb_unary(b, "math.sqrt", a[0]); break;
  case FUSER_OP_rsqrt: r = fb_unary(b, "math.rsqrt", a[0]); break;
  case FUSER_OP_sin: r = fb_unary(b, "math.sin", a[0]); break;
  case FUSER_OP_cos: r = fb_unary(b, "math.cos", a[0]); break;
  case FUSER_OP_tanh: r = fb_unary(b, "math.tanh", a[0]); break;
  case FUSER_OP_erf: r = fb_unary(b, "math.erf", a[0]); break;
  case FUSER_OP_erfinv:
  case FUSER_OP_erfcinv:
  case FUSER_OP_lgamma:
  case FUSER_OP_nextafter: r = fuser_special_fn_call(b, id, a); break;
  case FUSER_OP_reciprocal: r = fb_binary(b, "arith.divf", splat_const(g, ct, 1), a[0]); break;
  case FUSER_OP_sigmoid:
  case FUSER_OP_silu: {
    MlirValue one = splat_const(g, ct, 1);
    MlirValue e = fb_unary(b, "math.exp", fb_unary(b, "arith.negf", a[0]));
    r = fb_binary(b, "arith.divf", one, fb_binary(b, "arith.addf", one, e));
    if (id == FUSER_OP_silu) r = fb_binary(b, "arith.mulf", a[0], r);
    break;
  }
  case FUSER_OP_relu: r = fb_binary(b, fl ? "arith.maximumf" : "arith.maxsi", a[0], splat_const(g, ct, 0)); break;
  case FUSER_OP_add: r = fb_binary(b, fl ? "arith.addf" : "arith.addi", a[0], a[1]); break;
  case FUSER_OP_sub: r = fb_binary(b, fl ? "arith.subf" : "arith.subi", a[0], a[1]); break;
  case FUSER_OP_mul: r = fb_binary(b, fl ? "arith.mulf" : "arith.muli", a[0], a[1]); break;
  case FUSER_OP_div: {
    int8_t nomap[FK_R];
    memset(nomap, -2, sizeof nomap);
    MlirValue rc;
    if (fl && recip_key && !memo_get(g, recip_key, nomap, -2, &rc)) {
      rc = fb_binary(b, "arith.divf", splat_const(g, ct, 1), a[1]);
      memo_put(g, recip_key, nomap, -2, rc);
    }
    r = fl && recip_key ? fb_binary(b, "arith.mulf", a[0], rc) : fb_binary(b, fl ? "arith.divf" : "arith.divsi", a[0], a[1]);
    break;
  }
  case FUSER_OP_pow:
    if (!fl) return rg_unsupported(g, "integer pow"), a[0];
    r = fb_binary(b, "math.powf", a[0], a[1]);
    break;
  case FUSER_OP_maximum: r = fb_binary(b, fl ? "arith.maximumf" : "arith.maxsi", a[0], a[1]); break;
  case FUSER_OP_minimum: r = fb_binary(b, fl ? "arith.minimumf" : "arith.minsi", a[0], a[1]); break;
  case FUSER_OP_eq: r = fl ? fb_cmpf(b, FB_CMPF_OEQ, a[0], a[1]) : fb_cmpi(b, FB_CMPI_EQ, a[0], a[1]); break;
  case FUSER_OP_ne: r = fl ? fb_cmpf(b, FB_CMPF_UNE, a[0], a[1]) : fb_cmpi(b, FB_CMPI_NE, a[0], a[1]); break;
  case FUSER_OP_lt: r = fl ? fb_cmpf(b, FB_CMPF_OLT, a[0], a[1]) : fb_cmpi(b, FB_CMPI_SLT, a[0], a[1]); break;
  case FUSER_OP_le: r = fl ? fb_cmpf(b, FB_CMPF_OLE, a[0], a[1]) : fb_cmpi(b, FB_CMPI_SLE, a[0], a[1]); break;
  case FUSER_OP_gt: r = fl ? fb_cmpf(b, FB_CMPF_OGT, a[0], a[1]) : fb_cmpi(b, FB_CMPI_SGT, a[0], a[1]); break;
  case FUSER_OP_ge: r = fl ? fb_cmpf(b, FB_CMPF_OGE, a[0], a[1]) : fb_cmpi(b, FB_CMPI_SGE, a[0], a[1]); break;
  case FUSER_OP_logical_and: r = fb_binary(b, "arith.andi", a[0], a[1]); break;
  case FUSER_OP_logical_or: r = fb_binary(b, "arith.ori", a[0], a[1]); break;
  case FUSER_OP_clamp:
    r = fb_binary(b, fl ? "arith.minimumf" : "arith.minsi", fb_binary(b, fl ? "arith.maximumf" : "arith.maxsi", a[0], a[1]), a[2]);
    break;
  default: return rg_unsupported(g, "an element-wise op the row generator lacks"), a[0];
  }
  fuser_rule rule = fuser_op_rule_of(id);
  fuser_dtype rt = rule == FUSER_RULE_COMPARE || (rule == FUSER_RULE_BOOL) ? FUSER_DTYPE_I1 : ct;
  return rg_convert(g, r, rt, out);
}

/* ---- reductions: combine, neutral element, accumulation type ------------- */

fuser_dtype rg_acc_type(MlirOperation red) {
  fuser_dtype in = fuser_value_dtype(mlirOperationGetOperand(red, 0)), out = fuser_value_dtype(mlirOperationGetResult(red, 0));
  if (rg_is_float(out) || rg_is_float(in)) return out == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32;
  return FUSER_DTYPE_I64;
}

static double neutral(fuser_op_id id, fuser_dtype acc) {
  switch (id) {
  case FUSER_OP_prod: return 1;
  case FUSER_OP_max: return rg_is_float(acc) ? -INFINITY : (double)INT64_MIN;
  case FUSER_OP_min: return rg_is_float(acc) ? INFINITY : (double)INT64_MAX;
  default: return rg_is_float(acc) ? -0.0 : 0; /* x + -0.0 == x: the add folds away */
  }
}

MlirValue rg_combine(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue y) {
  bool fl = rg_is_float(acc);
  switch (id) {
  case FUSER_OP_prod: return fb_binary(&g->b, fl ? "arith.mulf" : "arith.muli", x, y);
  case FUSER_OP_max: return fb_binary(&g->b, fl ? "arith.maximumf" : "arith.maxsi", x, y);
  case FUSER_OP_min: return fb_binary(&g->b, fl ? "arith.minimumf" : "arith.minsi", x, y);
  default: return fb_binary(&g->b, fl ? "arith.addf" : "arith.addi", x, y);
  }
}

MlirValue rg_neutral_const(rgen *g, fuser_op_id id, fuser_dtype acc) {
  double v = neutral(id, acc);
  MlirType e = rg_elem_type(g, acc);
  if (rg_is_float(acc)) return fb_const_float(&g->b, e, v);
  int64_t iv = id == FUSER_OP_max ? INT64_MIN : id == FUSER_OP_min ? INT64_MAX : (int64_t)v;
  return fb_const_int(&g->b, e, iv);
}

/* The vector's lanes combined in a fixed pairwise tree (no reassociation
 * left to LLVM: the same order on every target). */
MlirValue rg_lanes_tree(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue v) {
  MlirValue l[16];
  for (int i = 0; i < g->W; i++) l[i] = fb_extract(&g->b, v, i);
  for (int n = g->W; n > 1; n /= 2)
    for (int i = 0; i < n / 2; i++) l[i] = rg_combine(g, id, acc, l[i], l[i + n / 2]);
  return l[0];
}

/* ---- the walker ------------------------------------------------------------ */

static bool computed_from(MlirValue v, MlirOperation op, const void **seen, int *nseen) {
  if (mlirValueIsABlockArgument(v)) return false;
  MlirOperation d = mlirOpResultGetOwner(v);
  if (mlirOperationEqual(d, op)) return true;
  for (int i = 0; i < *nseen; i++)
    if (seen[i] == d.ptr) return false;
  if (*nseen == 512) return true;
  seen[(*nseen)++] = d.ptr;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(d); i++)
    if (computed_from(mlirOperationGetOperand(d, i), op, seen, nseen)) return true;
  return false;
}

bool rg_computed_from(MlirValue v, MlirOperation op) {
  const void *seen[512];
  int nseen = 0;
  return computed_from(v, op, seen, &nseen);
}

static int find_red(rgen *g, MlirOperation op) {
  for (int i = 0; i < g->nred; i++)
    if (mlirOperationEqual(g->red[i].op, op)) return i;
  return -1;
}

static MlirValue scalar_value(rgen *g, MlirValue v, fuser_dtype *dt) {
  *dt = fuser_value_dtype(v);
  if (mlirValueIsABlockArgument(v)) return g->scalar[mlirBlockArgumentGetArgNumber(v)];
  MlirOperation op = mlirOpResultGetOwner(v);
  if (fuser_op_id_of(op) == FUSER_OP_scalar) {
    MlirAttribute a = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("value"));
    MlirType t = rg_elem_type(g, *dt);
    if (mlirAttributeIsAFloat(a)) return fb_const_float(&g->b, t, mlirFloatAttrGetValueDouble(a));
    if (mlirAttributeIsAInteger(a)) {
      if (rg_is_float(*dt)) return fb_const_float(&g->b, t, (double)mlirIntegerAttrGetValueInt(a));
      return fb_const_int(&g->b, t, *dt == FUSER_DTYPE_I1 ? (mlirIntegerAttrGetValueInt(a) != 0) : mlirIntegerAttrGetValueInt(a));
    }
    if (mlirAttributeIsABool(a)) return fb_const_int(&g->b, t, mlirBoolAttrGetValue(a));
  }
  rg_unsupported(g, "scalar arithmetic inside a row kernel");
  return rg_idx(g, 0);
}

static void operand_map_same_rank(MlirValue operand, MlirValue result, const int8_t *map, int8_t *o) {
  memcpy(o, map, FK_R);
  int r = (int)mlirShapedTypeGetRank(mlirValueGetType(operand));
  for (int d = 0; d < r; d++)
    if (static_dim(operand, d) == 1 && static_dim(result, d) != 1) o[d] = -1;
}

static bool map_walks(rgen *g, MlirValue v, const int8_t *map) {
  bool walks = false;
  if (fuser_value_is_tensor(v))
    for (int d = 0; d < (int)mlirShapedTypeGetRank(mlirValueGetType(v)); d++)
      walks |= g->outer_mode ? map[d] >= g->s->batch && map[d] < g->s->batch + g->s->outer : map[d] >= g->s->outer;
  return walks;
}

/* Whether v at `map` varies along the walked dims (the row's columns, or
 * the outer schedule's rows): it reads a tensor along them. Reductions and
 * what only broadcasts them do not. (Depth-capped: deep means "varies".) */
static bool varies(rgen *g, MlirValue v, const int8_t *map, int depth) {
  if (!fuser_value_is_tensor(v)) return false;
  if (depth > 48) return true;
  if (mlirValueIsABlockArgument(v)) return map_walks(g, v, map);
  MlirOperation op = mlirOpResultGetOwner(v);
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  if (kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN || id == FUSER_OP_full) return false;
  int8_t o[FK_R];
  int64_t a[FK_R];
  if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue x = mlirOperationGetOperand(op, i);
      if (!fuser_value_is_tensor(x)) continue;
      operand_map_same_rank(x, v, map, o);
      if (varies(g, x, o, depth + 1)) return true;
    }
    return false;
  }
  if (id == FUSER_OP_broadcast_in_dim) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    memset(o, -1, sizeof o);
    fuser_get_i64_array(op, "broadcast_dims", a, FK_R);
    for (int i = 0; i < (int)mlirShapedTypeGetRank(mlirValueGetType(in)); i++)
      o[i] = static_dim(in, i) == 1 ? -1 : map[a[i]];
    return varies(g, in, o, depth + 1);
  }
  if (id == FUSER_OP_set || id == FUSER_OP_segment_set) return varies(g, mlirOperationGetOperand(op, 0), map, depth + 1);
  return true;
}

/* A scalar operand of an op in dtype `to` (a scalar, not a vector). */
static MlirValue scalar_as(rgen *g, MlirValue v, fuser_dtype to) {
  fuser_dtype dt;
  MlirValue s = scalar_value(g, v, &dt);
  if (dt == to) return s;
  return fb_extract(&g->b, rg_convert(g, fb_broadcast(&g->b, s, rg_vec_type(g, dt)), dt, to), 0);
}

/* fuser.uniform / fuser.normal in an inner (row) schedule, so dropout fuses
 * into a normalization: lane l of chunk c of row r is the result's element
 * r * row_len + col_c + l (the result spans the row space, its dims the
 * kernel's in order), its value philox_gen's, the same as the pointwise
 * kernels and the reference give. */
static MlirValue rng(rgen *g, MlirOperation op, MlirValue v, const int8_t *map, int chunk) {
  fb_builder *b = &g->b;
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(v));
  bool spans = !g->outer_mode && rank == g->s->rank && chunk >= 0;
  for (int d = 0; spans && d < rank; d++) spans = map[d] == d;
  if (!spans) return rg_unsupported(g, "random numbers that do not span an inner schedule's row space"), rg_idx(g, 0);
  fuser_dtype dt = fuser_value_dtype(v), cdt = dt == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32;
  MlirValue a = scalar_as(g, mlirOperationGetOperand(op, 0), cdt), bb = scalar_as(g, mlirOperationGetOperand(op, 1), cdt);
  MlirValue seed = scalar_as(g, mlirOperationGetOperand(op, 2), FUSER_DTYPE_I64);
  MlirValue offset = scalar_as(g, mlirOperationGetOperand(op, 3), FUSER_DTYPE_I64);
  MlirType i64 = mlirIntegerTypeGet(rg_ctx_of(g), 64);
  MlirValue base = fb_addi(b, fb_muli(b, g->row, g->row_len), g->col[chunk]), lanes[64];
  bool normal = fuser_op_id_of(op) == FUSER_OP_normal;
  for (int l = 0; l < g->W && l < 64; l++)
    lanes[l] = fuser_philox_value(b, normal, dt, fb_index_cast(b, fb_addi(b, base, rg_idx(g, l)), i64), seed, offset, a, bb);
  return fb_from_elements(b, rg_vec_type(g, dt), g->W, lanes);
}

/* The dim map at which the walker evaluates tensor operand i of op (whose
 * result v it evaluates at `map`); false where op walks no tensor operand
 * there (a scalar operand; full, rng, reductions: their own rules). One rule
 * for rg_eval and rg_prefetch. */
static bool operand_map(rgen *g, MlirOperation op, MlirValue v, const int8_t *map, int i, int8_t *o) {
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  MlirValue in = mlirOperationGetOperand(op, i);
  int64_t a[2 * FK_R];
  memset(o, -1, FK_R);
  if (!fuser_value_is_tensor(in)) return false;
  if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    operand_map_same_rank(in, v, map, o);
    return true;
  }
  if (i != 0) return false;
  if (id == FUSER_OP_set || id == FUSER_OP_segment_set) {
    memcpy(o, map, FK_R);
    return true;
  }
  if (id == FUSER_OP_permute) {
    int n = fuser_get_i64_array(op, "dims", a, FK_R);
    for (int j = 0; j < n; j++) o[a[j]] = map[j];
    return true;
  }
  if (id != FUSER_OP_broadcast_in_dim && id != FUSER_OP_expand && id != FUSER_OP_broadcast && id != FUSER_OP_squeeze) return false;
  int r = (int)mlirShapedTypeGetRank(mlirValueGetType(in));
  if (id == FUSER_OP_broadcast_in_dim) {
    fuser_get_i64_array(op, "broadcast_dims", a, FK_R);
    for (int d = 0; d < r; d++) o[d] = map[a[d]];
  } else if (id == FUSER_OP_expand) {
    for (int d = 0; d < r; d++) o[d] = map[d];
  } else if (id == FUSER_OP_broadcast) {
    int n = fuser_get_i64_array(op, "is_broadcast_dim", a, FK_R), d = 0;
    for (int j = 0; j < n; j++)
      if (!a[j]) o[d++] = map[j];
  } else {
    int n = fuser_get_i64_array(op, "dims", a, FK_R), outd = 0;
    for (int d = 0; d < r; d++) {
      bool sq = false;
      for (int q = 0; q < n; q++) sq |= (a[q] < 0 ? a[q] + r : a[q]) == d;
      o[d] = sq ? -1 : map[outd++];
    }
  }
  if (id != FUSER_OP_squeeze)
    for (int d = 0; d < r; d++)
      if (static_dim(in, d) == 1) o[d] = -1;
  return true;
}

static MlirValue eval_op(rgen *g, MlirOperation op, MlirValue v, const int8_t *map, int chunk) {
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  fuser_dtype out = fuser_value_dtype(v);
  int8_t o[FK_R];
  if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    int n = (int)mlirOperationGetNumOperands(op);
    MlirValue x[3];
    fuser_dtype dt[3];
    for (int i = 0; i < n && i < 3; i++) {
      MlirValue operand = mlirOperationGetOperand(op, i);
      if (operand_map(g, op, v, map, i, o)) {
        x[i] = rg_eval(g, operand, o, chunk);
        dt[i] = fuser_value_dtype(operand);
      } else {
        MlirValue s = scalar_value(g, operand, &dt[i]);
        x[i] = fb_broadcast(&g->b, s, rg_vec_type(g, dt[i]));
      }
    }
    /* the divisor the same along the row: multiply by its reciprocal */
    const void *recip_key = NULL;
    if (id == FUSER_OP_div && n == 2) {
      MlirValue d = mlirOperationGetOperand(op, 1);
      if (fuser_value_is_tensor(d)) operand_map_same_rank(d, v, map, o);
      if (!varies(g, d, o, 0)) recip_key = op.ptr;
    }
    return elementwise(g, id, x, dt, n, out, recip_key);
  }
  if (operand_map(g, op, v, map, 0, o)) return rg_eval(g, mlirOperationGetOperand(op, 0), o, chunk);
  if (id == FUSER_OP_full) {
    fuser_dtype sdt;
    MlirValue s = scalar_value(g, mlirOperationGetOperand(op, 0), &sdt);
    return rg_convert(g, fb_broadcast(&g->b, s, rg_vec_type(g, sdt)), sdt, out);
  }
  if (kind == FUSER_KIND_RNG) return rng(g, op, v, map, chunk);
  if (kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN) {
    int ri = find_red(g, op);
    if (ri < 0) return rg_unsupported(g, "a reduction used before its phase"), rg_idx(g, 0);
    int which = 0;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      if (mlirValueEqual(mlirOperationGetResult(op, r), v)) which = (int)r;
    MlirValue s = g->red[ri].val[which];
    if (!g->outer_mode) s = fb_broadcast(&g->b, s, rg_vec_type(g, g->red[ri].acc));
    return rg_convert(g, s, g->red[ri].acc, out);
  }
  rg_unsupported(g, "an op the row generator lacks");
  return rg_idx(g, 0);
}

MlirValue rg_eval(rgen *g, MlirValue v, const int8_t *map, int chunk) {
  if (g->failed) return rg_idx(g, 0);
  /* a value that does not walk the row is the same for every chunk */
  int c = map_walks(g, v, map) ? chunk : -1;
  MlirValue r;
  if (memo_get(g, v.ptr, map, c, &r)) return r;
  if (mlirValueIsABlockArgument(v)) r = load(g, (int)mlirBlockArgumentGetArgNumber(v), map, chunk);
  else r = eval_op(g, mlirOpResultGetOwner(v), v, map, chunk);
  if (!g->failed) memo_put(g, v.ptr, map, c, r);
  return r;
}

/* Issues, in the current scope, the loads of kernel arguments that v at
 * (map, chunk) reads, as rg_eval would (the same maps and memo keys), and
 * nothing else: rg_eval of v later finds them in the memo. Stops at
 * reductions and at what reads none. Depth-capped like varies(). */
static void prefetch(rgen *g, MlirValue v, const int8_t *map, int chunk, int depth) {
  if (g->failed || !fuser_value_is_tensor(v) || depth > 48) return;
  if (mlirValueIsABlockArgument(v)) {
    rg_eval(g, v, map, chunk);
    return;
  }
  MlirOperation op = mlirOpResultGetOwner(v);
  int8_t o[FK_R];
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (operand_map(g, op, v, map, (int)i, o)) prefetch(g, mlirOperationGetOperand(op, i), o, chunk, depth + 1);
}

void rg_prefetch(rgen *g, MlirValue v, const int8_t *map, int chunk) { prefetch(g, v, map, chunk, 0); }
