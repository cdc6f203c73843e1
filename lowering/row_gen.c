/* row_gen.c: the row schedules' code generation (row_gen.h).
 *
 * Before (kernel level, fuser.schedule from fuser-schedule):
 *   func.func private @f_k0(%arg0: tensor<16384x4096xbf16> {fuser.strides = array<i64: 4096, 1>}) -> ...
 *       attributes {fuser.kernel, fuser.schedule = {kind = "inner_persistent", ...}} {
 *     %0 = "fuser.cast"(%arg0) ... %2 = "fuser.sum"(%1) {dims = array<i64: 1>} ... return %9
 * After (GPU form, one block of 256 threads per row, 2 vectors per thread):
 *   func.func @f_k0__persistent(%ptr_t0: memref<1xbf16>, %ptr_t1: memref<1xbf16>,
 *       %wg0: memref<8xf32, #gpu.address_space<workgroup>>) attributes {fuser.loops, fuser.row_kernel, ...} {
 *     %tid = gpu.thread_id x  %bid = gpu.block_id x
 *     %x0 = vector.load %mem_t0[%o0] {alignment = 16} : memref<?xbf16>, vector<8xbf16>  ... (2 loads)
 *     ... pairwise partial, 5 x gpu.shuffle xor, store %wg0[warp], gpu.barrier, 3 x gpu.shuffle xor
 *     ... epilogue from %x0, %x1: vector.store ... {alignment = 16}
 *
 * Values are vectors of W elements (W = 1 included) in their dtype's type
 * (bf16 stays bf16 until an op computes: then f32, nvFuser's promotion);
 * a value per row (a reduction result and what is computed from it) is
 * splat. Each value is evaluated at a `dim map` (for each of its dims the
 * kernel dim it walks, or -1: index 0) and a chunk (one vector of the row),
 * memoized per (value, map, chunk) inside the current scf region. */
#include "lowering/row_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/builder.h"
#include "lowering/kernel_gen.h"
#include "lowering/launch_plan.h"
#include "lowering/row_cluster.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"

#define MAX_CHUNKS 16
#define MAX_REDS 16

typedef struct {
  const void *key;
  int8_t map[FK_R];
  int chunk;
  int depth;
  MlirValue v;
} rmemo;

typedef struct {
  MlirOperation op;
  MlirValue val[2]; /* the row's result(s) in the accumulation type (var_mean: var, mean) */
  fuser_dtype acc;
} rred;

typedef struct {
  fb_builder b;
  fk_kernel *k;
  const fuser_reduction_schedule *s;
  const fuser_row_variant *var;
  bool gpu, failed, unsupported;
  char why[200];
  int W, T, RPB, block;
  MlirValue mem[FK_MAX_TENSORS];
  MlirValue size[FK_MAX_TENSORS][FK_R], stride[FK_MAX_TENSORS][FK_R];
  MlirValue scalar[FK_MAX_TENSORS];
  fk_param params[FK_MAX_PARAMS];
  int nparams;
  int space_tensor; /* a tensor with the row space's shape (sizes of rows and row length) */
  MlirValue rows, row_len; /* index */
  /* per thread context */
  MlirValue tid, lane, rib, row, valid, outer_idx[FK_R], col[MAX_CHUNKS];
  MlirValue chunk_ok[MAX_CHUNKS]; /* ragged rows: the chunk lies inside the row (else NULL: always) */
  /* outer schedule: the reduced (leading) dims merge into one row index,
   * the chunks are the rows in flight, the column vector is the thread's */
  bool outer_mode;
  MlirValue rowc[MAX_CHUNKS], rg, cv, col_ok;
  /* batched outer: the kept dims before the reduced ones, from the flat
   * column (bidx), and the trailing kept extent (inner_len) */
  MlirValue bidx[FK_R], inner_len;
  MlirValue count; /* elements each reduction combines (as index) */
  int nchunks;
  rmemo *memo;
  int nmemo, capmemo, depth;
  rred red[MAX_REDS];
  int nred;
  MlirValue wg[MAX_REDS * 2];
  int nwg, wg_used;
  MlirType wg_types[MAX_REDS * 2];
  /* the CPU form's per-phase partials */
  /* the cluster variant (GPU form): S blocks per row, this block's rank
   * and its chunk [clo, chi) of the row; per phase a buffer of S slots
   * the cluster's blocks push their partials into */
  int S;
  MlirValue crank, clo, chi, cwg[MAX_REDS];
  bool cluster_waited;
} rgen;

static void unsupported(rgen *g, const char *why) {
  if (!g->failed) snprintf(g->why, sizeof g->why, "%s", why);
  g->failed = g->unsupported = true;
}

static MlirContext ctx_of(rgen *g) { return g->b.ctx; }

/* ---- types and conversions ------------------------------------------------ */

static MlirType elem_type(rgen *g, fuser_dtype dt) { return fuser_dtype_to_type(ctx_of(g), dt); }
static MlirType storage_type(rgen *g, fuser_dtype dt) {
  return dt == FUSER_DTYPE_I1 ? mlirIntegerTypeGet(ctx_of(g), 8) : elem_type(g, dt);
}
static MlirType vec_type(rgen *g, fuser_dtype dt) { return fb_vector_type(elem_type(g, dt), g->W); }
static bool is_float(fuser_dtype dt) { return fuser_dtype_is_float(dt); }

static MlirValue splat_const(rgen *g, fuser_dtype dt, double v) {
  MlirType e = elem_type(g, dt);
  MlirValue c = is_float(dt) ? fb_const_float(&g->b, e, v) : fb_const_int(&g->b, e, (int64_t)v);
  return fb_broadcast(&g->b, c, fb_vector_type(e, g->W));
}

/* dtype conversion of a vector value (kg_convert's rules) */
static MlirValue convert(rgen *g, MlirValue x, fuser_dtype from, fuser_dtype to) {
  if (from == to) return x;
  MlirType tt = vec_type(g, to);
  if (to == FUSER_DTYPE_I1) {
    MlirValue z = splat_const(g, from, 0);
    return is_float(from) ? fb_cmpf(&g->b, FB_CMPF_UNE, x, z) : fb_cmpi(&g->b, FB_CMPI_NE, x, z);
  }
  if ((from == FUSER_DTYPE_BF16 && to == FUSER_DTYPE_F16) || (from == FUSER_DTYPE_F16 && to == FUSER_DTYPE_BF16))
    return convert(g, convert(g, x, from, FUSER_DTYPE_F32), FUSER_DTYPE_F32, to);
  const char *op;
  if (is_float(from) && is_float(to)) op = fuser_dtype_size(to) > fuser_dtype_size(from) ? "arith.extf" : "arith.truncf";
  else if (from == FUSER_DTYPE_I1) op = is_float(to) ? "arith.uitofp" : "arith.extui";
  else if (!is_float(from) && is_float(to)) op = "arith.sitofp";
  else if (is_float(from) && !is_float(to)) op = "arith.fptosi";
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

static void scope_push(rgen *g) { g->depth++; }
static void scope_pop(rgen *g) {
  while (g->nmemo > 0 && g->memo[g->nmemo - 1].depth >= g->depth) g->nmemo--;
  g->depth--;
}

/* ---- parameters, sizes, strides ------------------------------------------ */

static MlirValue idx(rgen *g, int64_t v) { return fb_const_index(&g->b, v); }

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
  MlirValue off = idx(g, 0);
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
      if (first_inner < 0) first_inner = d;
      /* the inner dims in order, consecutive */
      if (map[d] != outer + ninner || d != first_inner + ninner) {
        unsupported(g, "a tensor walks the reduced dims out of order");
        return off;
      }
      ninner++;
    }
  }
  if (g->outer_mode && nrow > 0) {
    /* the reduced dims merge (their strides nest: conditions()) */
    if (nrow != g->s->outer || last_row < 0) {
      unsupported(g, "a tensor walks only some of the reduced dims");
      return off;
    }
    off = fb_addi(&g->b, off, fb_muli(&g->b, g->rowc[chunk < 0 ? 0 : chunk], g->stride[t][last_row]));
  }
  *inner = ninner > 0;
  if (!*inner) return off;
  if (ninner != g->s->rank - outer) {
    unsupported(g, "a tensor walks only some of the reduced dims");
    return off;
  }
  /* contiguous: stride 1 innermost, nested over the inner dims; where a
   * stride or an extent is symbolic, the nesting is a run-time `merge`
   * condition (inner_merge_conditions) */
  int64_t expect = 1;
  for (int d = first_inner + ninner - 1; d >= first_inner; d--) {
    bool known = expect != FK_DYN && ft->strides[d] != FK_DYN;
    if ((d == first_inner + ninner - 1 && ft->strides[d] != 1) || (known && ft->strides[d] != expect)) {
      unsupported(g, "a tensor is not contiguous along the reduced dims");
      return off;
    }
    int64_t e = ft->shape[d];
    expect = expect == FK_DYN || e == FK_DYN ? FK_DYN : expect * e;
  }
  return fb_addi(&g->b, off, g->col[chunk < 0 ? 0 : chunk]);
}

static int64_t align_of(rgen *g, int t) { return (int64_t)g->W * (int64_t)fuser_dtype_size(g->k->t[t].dtype); }

static MlirValue load(rgen *g, int t, const int8_t *map, int chunk) {
  bool inner = false;
  MlirValue off = offset_of(g, t, map, chunk, &inner);
  if (g->failed) return off;
  fuser_dtype dt = g->k->t[t].dtype;
  MlirType st = storage_type(g, dt);
  MlirValue v;
  if (inner) {
    v = fb_vector_load(&g->b, fb_vector_type(st, g->W), g->mem[t], off, g->W > 1 ? align_of(g, t) : 0);
  } else {
    v = fb_broadcast(&g->b, fb_load(&g->b, g->mem[t], off), fb_vector_type(st, g->W));
  }
  if (dt == FUSER_DTYPE_I1) v = fb_cast(&g->b, "arith.trunci", v, vec_type(g, dt));
  return v;
}

static void store(rgen *g, int t, const int8_t *map, int chunk, MlirValue v) {
  bool inner = false;
  MlirValue off = offset_of(g, t, map, chunk, &inner);
  if (g->failed) return;
  fuser_dtype dt = g->k->t[t].dtype;
  if (dt == FUSER_DTYPE_I1) v = fb_cast(&g->b, "arith.extui", v, fb_vector_type(storage_type(g, dt), g->W));
  if (inner) fb_vector_store(&g->b, v, g->mem[t], off, g->W > 1 ? align_of(g, t) : 0);
  else fb_store(&g->b, fb_extract(&g->b, v, 0), g->mem[t], off);
}

/* ---- element-wise ops ------------------------------------------------------ */

static fuser_dtype compute_type(fuser_op_id id, const fuser_dtype *x, int n, fuser_dtype out) {
  fuser_rule rule = fuser_op_rule_of(id);
  if (rule == FUSER_RULE_COMPARE ||
      (rule == FUSER_RULE_BOOL && id != FUSER_OP_logical_and && id != FUSER_OP_logical_or && id != FUSER_OP_logical_not)) {
    bool fl = false, f64 = false, i64 = false;
    for (int i = 0; i < n; i++) fl |= is_float(x[i]), f64 |= x[i] == FUSER_DTYPE_F64, i64 |= x[i] == FUSER_DTYPE_I64;
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
    if ((f == FUSER_DTYPE_BF16 || f == FUSER_DTYPE_F16) && !is_float(out)) a = convert(g, a, f, FUSER_DTYPE_F32), f = FUSER_DTYPE_F32;
    return convert(g, a, f, out);
  }
  fuser_dtype ct = compute_type(id, dt, n, out);
  MlirValue a[3];
  for (int i = 0; i < n; i++) {
    if (id == FUSER_OP_where) a[i] = convert(g, x[i], dt[i], i == 0 ? FUSER_DTYPE_I1 : out);
    else a[i] = convert(g, x[i], dt[i], ct);
  }
  if (id == FUSER_OP_where) return fb_select(b, a[0], a[1], a[2]);
  bool fl = is_float(ct);
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
    if (!fl) return unsupported(g, "integer pow"), a[0];
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
  default: return unsupported(g, "an element-wise op the row generator lacks"), a[0];
  }
  fuser_rule rule = fuser_op_rule_of(id);
  fuser_dtype rt = rule == FUSER_RULE_COMPARE || (rule == FUSER_RULE_BOOL) ? FUSER_DTYPE_I1 : ct;
  return convert(g, r, rt, out);
}

/* ---- reductions: combine, neutral element, accumulation type ------------- */

static fuser_dtype acc_type(MlirOperation red) {
  fuser_dtype in = fuser_value_dtype(mlirOperationGetOperand(red, 0)), out = fuser_value_dtype(mlirOperationGetResult(red, 0));
  if (is_float(out) || is_float(in)) return out == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32;
  return FUSER_DTYPE_I64;
}

static double neutral(fuser_op_id id, fuser_dtype acc) {
  switch (id) {
  case FUSER_OP_prod: return 1;
  case FUSER_OP_max: return is_float(acc) ? -INFINITY : (double)INT64_MIN;
  case FUSER_OP_min: return is_float(acc) ? INFINITY : (double)INT64_MAX;
  default: return is_float(acc) ? -0.0 : 0; /* x + -0.0 == x: the add folds away */
  }
}

static MlirValue combine(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue y) {
  bool fl = is_float(acc);
  switch (id) {
  case FUSER_OP_prod: return fb_binary(&g->b, fl ? "arith.mulf" : "arith.muli", x, y);
  case FUSER_OP_max: return fb_binary(&g->b, fl ? "arith.maximumf" : "arith.maxsi", x, y);
  case FUSER_OP_min: return fb_binary(&g->b, fl ? "arith.minimumf" : "arith.minsi", x, y);
  default: return fb_binary(&g->b, fl ? "arith.addf" : "arith.addi", x, y);
  }
}

static MlirValue neutral_const(rgen *g, fuser_op_id id, fuser_dtype acc) {
  double v = neutral(id, acc);
  MlirType e = elem_type(g, acc);
  if (is_float(acc)) return fb_const_float(&g->b, e, v);
  int64_t iv = id == FUSER_OP_max ? INT64_MIN : id == FUSER_OP_min ? INT64_MAX : (int64_t)v;
  return fb_const_int(&g->b, e, iv);
}

/* The vector's lanes combined in a fixed pairwise tree (no reassociation
 * left to LLVM: the same order on every target). */
static MlirValue lanes_tree(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue v) {
  MlirValue l[16];
  for (int i = 0; i < g->W; i++) l[i] = fb_extract(&g->b, v, i);
  for (int n = g->W; n > 1; n /= 2)
    for (int i = 0; i < n / 2; i++) l[i] = combine(g, id, acc, l[i], l[i + n / 2]);
  return l[0];
}

/* ---- the walker ------------------------------------------------------------ */

static MlirValue eval(rgen *g, MlirValue v, const int8_t *map, int chunk);

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
    MlirType t = elem_type(g, *dt);
    if (mlirAttributeIsAFloat(a)) return fb_const_float(&g->b, t, mlirFloatAttrGetValueDouble(a));
    if (mlirAttributeIsAInteger(a)) {
      if (is_float(*dt)) return fb_const_float(&g->b, t, (double)mlirIntegerAttrGetValueInt(a));
      return fb_const_int(&g->b, t, *dt == FUSER_DTYPE_I1 ? (mlirIntegerAttrGetValueInt(a) != 0) : mlirIntegerAttrGetValueInt(a));
    }
    if (mlirAttributeIsABool(a)) return fb_const_int(&g->b, t, mlirBoolAttrGetValue(a));
  }
  unsupported(g, "scalar arithmetic inside a row kernel");
  return idx(g, 0);
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

static MlirValue eval_op(rgen *g, MlirOperation op, MlirValue v, const int8_t *map, int chunk) {
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  fuser_dtype out = fuser_value_dtype(v);
  int8_t o[FK_R];
  int64_t a[2 * FK_R];
  memset(o, -1, sizeof o);
  if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    int n = (int)mlirOperationGetNumOperands(op);
    MlirValue x[3];
    fuser_dtype dt[3];
    for (int i = 0; i < n && i < 3; i++) {
      MlirValue operand = mlirOperationGetOperand(op, i);
      if (fuser_value_is_tensor(operand)) {
        operand_map_same_rank(operand, v, map, o);
        x[i] = eval(g, operand, o, chunk);
        dt[i] = fuser_value_dtype(operand);
      } else {
        MlirValue s = scalar_value(g, operand, &dt[i]);
        x[i] = fb_broadcast(&g->b, s, vec_type(g, dt[i]));
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
  if (id == FUSER_OP_set || id == FUSER_OP_segment_set) return eval(g, mlirOperationGetOperand(op, 0), map, chunk);
  if (id == FUSER_OP_permute) {
    int n = fuser_get_i64_array(op, "dims", a, FK_R);
    for (int j = 0; j < n; j++) o[a[j]] = map[j];
    return eval(g, mlirOperationGetOperand(op, 0), o, chunk);
  }
  if (id == FUSER_OP_broadcast_in_dim || id == FUSER_OP_expand || id == FUSER_OP_broadcast || id == FUSER_OP_squeeze) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    int r = (int)mlirShapedTypeGetRank(mlirValueGetType(in));
    if (id == FUSER_OP_broadcast_in_dim) {
      fuser_get_i64_array(op, "broadcast_dims", a, FK_R);
      for (int i = 0; i < r; i++) o[i] = map[a[i]];
    } else if (id == FUSER_OP_expand) {
      for (int i = 0; i < r; i++) o[i] = map[i];
    } else if (id == FUSER_OP_broadcast) {
      int n = fuser_get_i64_array(op, "is_broadcast_dim", a, FK_R), i = 0;
      for (int j = 0; j < n; j++)
        if (!a[j]) o[i++] = map[j];
    } else {
      int n = fuser_get_i64_array(op, "dims", a, FK_R), outd = 0;
      for (int i = 0; i < r; i++) {
        bool sq = false;
        for (int q = 0; q < n; q++) sq |= (a[q] < 0 ? a[q] + r : a[q]) == i;
        o[i] = sq ? -1 : map[outd++];
      }
    }
    if (id != FUSER_OP_squeeze)
      for (int i = 0; i < r; i++)
        if (static_dim(in, i) == 1) o[i] = -1;
    return eval(g, in, o, chunk);
  }
  if (id == FUSER_OP_full) {
    fuser_dtype sdt;
    MlirValue s = scalar_value(g, mlirOperationGetOperand(op, 0), &sdt);
    return convert(g, fb_broadcast(&g->b, s, vec_type(g, sdt)), sdt, out);
  }
  if (kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN) {
    int ri = find_red(g, op);
    if (ri < 0) return unsupported(g, "a reduction used before its phase"), idx(g, 0);
    int which = 0;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      if (mlirValueEqual(mlirOperationGetResult(op, r), v)) which = (int)r;
    MlirValue s = g->red[ri].val[which];
    if (!g->outer_mode) s = fb_broadcast(&g->b, s, vec_type(g, g->red[ri].acc));
    return convert(g, s, g->red[ri].acc, out);
  }
  unsupported(g, "an op the row generator lacks");
  return idx(g, 0);
}

static MlirValue eval(rgen *g, MlirValue v, const int8_t *map, int chunk) {
  if (g->failed) return idx(g, 0);
  /* a value that does not walk the row is the same for every chunk */
  int c = map_walks(g, v, map) ? chunk : -1;
  MlirValue r;
  if (memo_get(g, v.ptr, map, c, &r)) return r;
  if (mlirValueIsABlockArgument(v)) r = load(g, (int)mlirBlockArgumentGetArgNumber(v), map, chunk);
  else r = eval_op(g, mlirOpResultGetOwner(v), v, map, chunk);
  if (!g->failed) memo_put(g, v.ptr, map, c, r);
  return r;
}

/* ---- thread context: row, lane, chunks ------------------------------------ */

static void thread_context(rgen *g, MlirValue tid, MlirValue bid) {
  fb_builder *b = &g->b;
  g->tid = tid;
  g->lane = g->T > 1 ? fb_remui(b, tid, idx(g, g->T)) : idx(g, 0);
  g->rib = g->RPB > 1 ? fb_divui(b, tid, idx(g, g->T)) : idx(g, 0);
  if (g->S > 1) {
    /* a cluster per row: blocks S r .. S r + S - 1 (a 1-D cluster's rank is
     * the block id mod S); chunks of whole vectors, the last ones may be short or empty */
    g->crank = fb_remui(b, bid, idx(g, g->S));
    bid = fb_divui(b, bid, idx(g, g->S));
    int64_t chunk = (g->s->row_len + (int64_t)g->S * g->W - 1) / ((int64_t)g->S * g->W) * g->W;
    g->clo = fb_muli(b, g->crank, idx(g, chunk));
    g->chi = fb_binary(b, "arith.minui", fb_addi(b, g->clo, idx(g, chunk)), g->row_len);
  }
  MlirValue row = fb_addi(b, fb_muli(b, bid, idx(g, g->RPB)), g->rib);
  g->valid = fb_cmpi(b, FB_CMPI_ULT, row, g->rows);
  /* rows past the end (the last block of short rows) read the last row and store nothing */
  if (g->RPB > 1) row = fb_select(b, g->valid, row, fb_subi(b, g->rows, idx(g, 1)));
  g->row = row;
  /* the outer indices, innermost last */
  MlirValue lin = row;
  for (int d = g->s->outer - 1; d >= 0; d--) {
    if (d == 0) { g->outer_idx[0] = lin; break; }
    MlirValue e = g->size[g->space_tensor][d];
    g->outer_idx[d] = fb_remui(b, lin, e);
    lin = fb_divui(b, lin, e);
  }
  g->nchunks = g->var->vectors > 0 ? g->var->vectors : 1;
  for (int c = 0; c < g->nchunks && g->var->vectors > 0; c++) {
    g->col[c] = fb_muli(b, fb_addi(b, fb_muli(b, idx(g, c), idx(g, g->T)), g->lane), idx(g, g->W));
    g->chunk_ok[c] = (MlirValue){NULL};
    /* a ragged row (V x T vectors > N / W): chunks past the end read the
     * row's last vector (in bounds), add the neutral element, store nothing */
    if ((int64_t)(c + 1) * g->T * g->W > g->s->row_len) {
      g->chunk_ok[c] = fb_cmpi(b, FB_CMPI_ULT, g->col[c], g->row_len);
      g->col[c] = fb_select(b, g->chunk_ok[c], g->col[c], idx(g, g->s->row_len - g->W));
    }
  }
}

/* ---- block reduction ------------------------------------------------------ */

/* gpu.shuffle xor of a 32- or 64-bit scalar (64-bit: two 32-bit halves). */
static MlirValue shuffle(rgen *g, MlirValue x, fuser_dtype dt, int off) {
  fb_builder *b = &g->b;
  MlirType i32 = mlirIntegerTypeGet(ctx_of(g), 32), i64 = mlirIntegerTypeGet(ctx_of(g), 64);
  MlirValue o = fb_const_int(b, i32, off), w = fb_const_int(b, i32, 32);
  if (fuser_dtype_size(dt) == 4) return fb_shuffle_xor(b, x, o, w, NULL);
  MlirValue bits = dt == FUSER_DTYPE_F64 ? fb_cast(b, "arith.bitcast", x, i64) : x;
  MlirValue lo = fb_cast(b, "arith.trunci", bits, i32);
  MlirValue hi = fb_cast(b, "arith.trunci", fb_binary(b, "arith.shrui", bits, fb_const_int(b, i64, 32)), i32);
  lo = fb_shuffle_xor(b, lo, o, w, NULL);
  hi = fb_shuffle_xor(b, hi, o, w, NULL);
  MlirValue r = fb_binary(b, "arith.ori", fb_cast(b, "arith.extui", lo, i64),
                          fb_binary(b, "arith.shli", fb_cast(b, "arith.extui", hi, i64), fb_const_int(b, i64, 32)));
  return dt == FUSER_DTYPE_F64 ? fb_cast(b, "arith.bitcast", r, elem_type(g, dt)) : r;
}

/* Every thread of the row gets the row's combination of the threads'
 * partials `x` (GPU form): warp butterfly, then across the row's warps
 * through workgroup buffer `wg`. */
static MlirValue block_allreduce_gpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue wg) {
  fb_builder *b = &g->b;
  int lanes = g->T < 32 ? g->T : 32;
  for (int off = lanes / 2; off >= 1; off /= 2) x = combine(g, id, acc, x, shuffle(g, x, acc, off));
  if (g->T <= 32) return x;
  int nwr = g->T / 32; /* warps per row */
  MlirValue lane32 = fb_remui(b, g->tid, idx(g, 32)), warp = fb_divui(b, g->tid, idx(g, 32));
  MlirOperation ifop = fb_if(b, fb_cmpi(b, FB_CMPI_EQ, lane32, idx(g, 0)), 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  fb_store(b, x, wg, warp);
  fb_set_ip(b, save);
  fb_barrier(b);
  MlirValue slot = fb_addi(b, fb_muli(b, g->rib, idx(g, nwr)), fb_remui(b, lane32, idx(g, nwr)));
  MlirValue w = fb_load(b, wg, slot);
  for (int off = nwr / 2; off >= 1; off /= 2) w = combine(g, id, acc, w, shuffle(g, w, acc, off));
  return w;
}

/* The cluster variant: every block of the row's cluster holds its
 * block's total x; thread t < S pushes it into slot [rank] of block t's
 * buffer cwg (distributed shared memory), one cluster barrier (arrive has
 * release, wait acquire semantics), then every thread combines the S slots
 * of its own block in rank order: the row's result, the same bits in
 * every block. Before the first push a wait matches the kernel's opening
 * relaxed arrive, so every block of the cluster has started. */
static MlirValue cluster_allreduce_gpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue cwg) {
  fb_builder *b = &g->b;
  if (!g->cluster_waited) fb_cluster_wait(b);
  g->cluster_waited = true;
  MlirOperation ifop = fb_if(b, fb_cmpi(b, FB_CMPI_ULT, g->tid, idx(g, g->S)), 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  fb_dsmem_store(b, x, cwg, g->crank, g->tid);
  fb_set_ip(b, save);
  fb_cluster_arrive(b, false);
  fb_cluster_wait(b);
  MlirValue r = fb_load(b, cwg, idx(g, 0));
  for (int i = 1; i < g->S; i++) r = combine(g, id, acc, r, fb_load(b, cwg, idx(g, i)));
  return r;
}

/* The CPU form's replay of the same butterflies over the block's partials
 * p[0 .. block): returns the combination for the row of thread `tid`'s
 * row-in-block index rib (p is overwritten). */
static void butterfly_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p, MlirValue base, int n, int stride) {
  fb_builder *b = &g->b;
  for (int off = n / 2; off >= 1; off /= 2) {
    MlirOperation loop = fb_for(b, idx(g, 0), idx(g, off), idx(g, 1), 0, NULL);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_in(fb_body(loop)));
    MlirValue i = fb_addi(b, base, fb_muli(b, fb_for_iv(loop), idx(g, stride)));
    MlirValue j = fb_addi(b, i, idx(g, off * stride));
    fb_store(b, combine(g, id, acc, fb_load(b, p, i), fb_load(b, p, j)), p, i);
    fb_set_ip(b, save);
  }
}

static MlirValue block_allreduce_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p, MlirValue rib) {
  fb_builder *b = &g->b;
  MlirValue base = fb_muli(b, rib, idx(g, g->T));
  int lanes = g->T < 32 ? g->T : 32;
  int nwr = g->T / lanes;
  /* each warp of the row */
  MlirOperation wl = fb_for(b, idx(g, 0), idx(g, nwr), idx(g, 1), 0, NULL);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_body(wl)));
  butterfly_cpu(g, id, acc, p, fb_addi(b, base, fb_muli(b, fb_for_iv(wl), idx(g, 32))), lanes, 1);
  fb_set_ip(b, save);
  if (nwr > 1) butterfly_cpu(g, id, acc, p, base, nwr, 32);
  return fb_load(b, p, base);
}

/* ---- phases ---------------------------------------------------------------- */

typedef struct {
  MlirOperation red;
  fuser_op_id id;   /* the combining op (var_mean: sum) */
  fuser_dtype acc;
  int pass;         /* var_mean: 0 the mean's sum, 1 the squared deviations */
} phase;

/* The thread's partial of phase ph over its chunks (registers) or its
 * strided columns (looped). */
static MlirValue thread_partial(rgen *g, const phase *ph) {
  fb_builder *b = &g->b;
  MlirValue in = mlirOperationGetOperand(ph->red, 0);
  fuser_dtype in_dt = fuser_value_dtype(in);
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
  MlirValue mean = {NULL};
  if (ph->pass == 1)
    mean = g->outer_mode ? g->red[g->nred - 1].val[1] : fb_broadcast(b, g->red[g->nred - 1].val[1], vec_type(g, ph->acc));
  MlirValue acc = {NULL};
  if (g->var->vectors > 0) {
    for (int c = 0; c < g->nchunks; c++) {
      MlirValue x = convert(g, eval(g, in, map, c), in_dt, ph->acc);
      if (ph->pass == 1) {
        MlirValue d = fb_binary(b, "arith.subf", x, mean);
        x = fb_binary(b, "arith.mulf", d, d);
      }
      if (!mlirValueIsNull(g->chunk_ok[c]))
        x = fb_select(b, g->chunk_ok[c], x, fb_broadcast(b, neutral_const(g, ph->id, ph->acc), vec_type(g, ph->acc)));
      acc = c == 0 ? x : combine(g, ph->id, ph->acc, acc, x); /* the neutral element only seeds */
    }
    return lanes_tree(g, ph->id, ph->acc, acc);
  }
  acc = fb_broadcast(b, neutral_const(g, ph->id, ph->acc), vec_type(g, ph->acc));
  MlirValue start = fb_muli(b, g->lane, idx(g, g->W)), step = idx(g, g->T * g->W), end = g->row_len;
  if (g->S > 1) start = fb_addi(b, g->clo, start), end = g->chi; /* this block's chunk */
  MlirOperation loop = fb_for(b, start, end, step, 1, &acc);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_end(fb_body(loop)));
  scope_push(g);
  g->col[0] = fb_for_iv(loop);
  MlirValue x = convert(g, eval(g, in, map, 0), in_dt, ph->acc);
  if (ph->pass == 1) {
    MlirValue d = fb_binary(b, "arith.subf", x, mean);
    x = fb_binary(b, "arith.mulf", d, d);
  }
  MlirValue next = combine(g, ph->id, ph->acc, fb_for_iter_arg(loop, 0), x);
  fb_yield(b, 1, &next);
  scope_pop(g);
  fb_set_ip(b, save);
  return lanes_tree(g, ph->id, ph->acc, fb_result(loop, 0));
}

/* A scalar of the accumulation type in the shape of `like` (outer: a
 * vector of columns). */
static MlirValue like_shape(rgen *g, MlirValue x, MlirValue like) {
  return fb_is_vector(mlirValueGetType(like)) ? fb_broadcast(&g->b, x, mlirValueGetType(like)) : x;
}

/* The number of reduced elements as a value of the accumulation type. */
static MlirValue count_as(rgen *g, fuser_dtype acc) {
  MlirValue n = fb_cast(&g->b, "arith.index_cast", g->count, mlirIntegerTypeGet(ctx_of(g), 64));
  return is_float(acc) ? fb_cast(&g->b, "arith.sitofp", n, elem_type(g, acc)) : n;
}

/* Records a phase's row result (var_mean: finishes mean or var). */
static void finish_phase(rgen *g, const phase *ph, MlirValue total) {
  fb_builder *b = &g->b;
  if (ph->pass == 0) {
    rred *r = &g->red[g->nred++];
    r->op = ph->red;
    r->acc = ph->acc;
    r->val[0] = total;
    if (fuser_op_kind_of(fuser_op_id_of(ph->red)) == FUSER_KIND_VAR_MEAN)
      r->val[1] = fb_binary(b, "arith.divf", total, like_shape(g, count_as(g, ph->acc), total));
    return;
  }
  int64_t corr = 0;
  fuser_get_i64(ph->red, "correction", &corr);
  MlirValue n = fb_cast(b, "arith.index_cast", g->count, mlirIntegerTypeGet(ctx_of(g), 64));
  MlirValue dof = fb_binary(b, "arith.maxsi", fb_subi(b, n, fb_const_int(b, mlirIntegerTypeGet(ctx_of(g), 64), corr)),
                            fb_const_int(b, mlirIntegerTypeGet(ctx_of(g), 64), 0));
  g->red[g->nred - 1].val[0] =
      fb_binary(b, "arith.divf", total, like_shape(g, fb_cast(b, "arith.sitofp", dof, elem_type(g, ph->acc)), total));
}

/* CPU form: the row results of phases [0, n) for the current thread,
 * read back from their partial buffers (each row's result sits at the
 * row's first slot). */
static void reload_row_results(rgen *g, const phase *ph, int n) {
  g->nred = 0;
  if (g->outer_mode) {
    MlirValue base = fb_muli(&g->b, g->cv, idx(g, g->W));
    for (int p = 0; p < n; p++) finish_phase(g, &ph[p], fb_vector_load(&g->b, vec_type(g, ph[p].acc), g->wg[p], base, 0));
    return;
  }
  MlirValue base = fb_muli(&g->b, g->rib, idx(g, g->T));
  for (int p = 0; p < n; p++) finish_phase(g, &ph[p], fb_load(&g->b, g->wg[p], base));
}

static int collect_phases(rgen *g, phase *ph, int cap) {
  int n = 0;
  MlirBlock body = fuser_func_body(g->k->func);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    fuser_op_kind kind = fuser_op_kind_of(id);
    if (kind != FUSER_KIND_REDUCTION && kind != FUSER_KIND_VAR_MEAN) continue;
    if (n + 2 > cap) {
      unsupported(g, "too many reductions in one kernel");
      return n;
    }
    fuser_dtype acc = acc_type(op);
    if (kind == FUSER_KIND_VAR_MEAN) {
      /* var_mean accumulates in f64 (results in their f32 dtype): a row's
       * mean cancels (a sum near 0 of terms near 1), where an f32 sum in
       * any order is ulps off, and LayerNorm's bias add then amplifies the
       * statistics' error; f64 runs at half the f32 rate on sm_90 (measured
       * on the H200: var_mean and LayerNorm bit-identical to the f64
       * reference or 1 bf16 ulp; an f32 variance pass gave 2 ulp on the CPU
       * JIT already). Not in the outer (columns) schedule: it combines
       * through a block x width buffer per phase in shared memory, which in
       * f64 passes the 48 KB of static shared memory; its rows are summed per
       * thread over many rows, checked against the f64 reference. */
      if (!g->outer_mode) acc = FUSER_DTYPE_F64;
      ph[n++] = (phase){op, FUSER_OP_sum, acc, 0};
      ph[n++] = (phase){op, FUSER_OP_sum, acc, 1};
    } else {
      ph[n++] = (phase){op, id, acc, 0};
    }
  }
  return n;
}

/* ---- the epilogue ----------------------------------------------------------- */

static void epilogue_chunk(rgen *g, int chunk) {
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(g->k->func));
  for (int j = 0; j < g->k->num_results && !g->failed; j++) {
    MlirValue v = mlirOperationGetOperand(ret, j);
    int t = g->k->num_args + j;
    int8_t map[FK_R];
    memset(map, -1, sizeof map);
    int r = g->k->t[t].rank;
    for (int d = 0; d < r; d++) map[d] = (g->k->t[t].shape[d] == 1 && d >= g->s->outer) ? -1 : (int8_t)d;
    MlirValue x = eval(g, v, map, chunk);
    store(g, t, map, chunk, x);
  }
}

/* Stores of the row's results: every chunk (persistent), or thread 0 of
 * the row (inner reduce); nothing for rows past the end. */
static void epilogue(rgen *g) {
  fb_builder *b = &g->b;
  MlirValue cond = g->valid;
  bool reduce_only = g->s->kind == FUSER_SCHED_INNER_REDUCE;
  if (reduce_only) cond = fb_andi(b, cond, fb_cmpi(b, FB_CMPI_EQ, g->lane, idx(g, 0)));
  if (reduce_only && g->S > 1) cond = fb_andi(b, cond, fb_cmpi(b, FB_CMPI_EQ, g->crank, idx(g, 0))); /* rank 0 stores */
  MlirOperation ifop = fb_if(b, cond, 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  scope_push(g);
  if (reduce_only || g->var->vectors > 0) {
    for (int c = 0; c < (reduce_only ? 1 : g->nchunks); c++) {
      if (!reduce_only && !mlirValueIsNull(g->chunk_ok[c])) {
        MlirOperation cif = fb_if(b, g->chunk_ok[c], 0, NULL, false);
        fb_ip s2 = fb_get_ip(b);
        fb_set_ip(b, fb_ip_in(fb_then(cif)));
        epilogue_chunk(g, c);
        fb_set_ip(b, s2);
      } else {
        epilogue_chunk(g, c);
      }
    }
  } else {
    MlirValue start = fb_muli(b, g->lane, idx(g, g->W)), end = g->row_len;
    if (g->S > 1) start = fb_addi(b, g->clo, start), end = g->chi;
    MlirOperation loop = fb_for(b, start, end, idx(g, g->T * g->W), 0, NULL);
    fb_set_ip(b, fb_ip_in(fb_body(loop)));
    scope_push(g);
    g->col[0] = fb_for_iv(loop);
    epilogue_chunk(g, 0);
    scope_pop(g);
  }
  scope_pop(g);
  fb_set_ip(b, save);
}

/* ---- the outer schedule ------------------------------------------------------ */

/* Thread t of a block: column vector cv = t mod CW of the block's tile,
 * row group rg = t / CW; a column past the end reads the last vector and
 * stores nothing. (rows_per_block holds CW, threads the row groups.) */
static void outer_thread_context(rgen *g, MlirValue tid, MlirValue bid) {
  fb_builder *b = &g->b;
  int cw = g->RPB;
  g->tid = tid;
  g->cv = fb_remui(b, tid, idx(g, cw));
  g->rg = fb_divui(b, tid, idx(g, cw));
  g->lane = idx(g, 0);
  g->rib = idx(g, 0);
  MlirValue col = fb_muli(b, fb_addi(b, fb_muli(b, bid, idx(g, cw)), g->cv), idx(g, g->W));
  g->col_ok = fb_cmpi(b, FB_CMPI_ULT, col, g->row_len);
  g->col[0] = fb_select(b, g->col_ok, col, fb_subi(b, g->row_len, idx(g, g->W)));
  if (g->s->batch > 0) {
    /* batched: the flat column splits into the batch indices and the
     * column of the trailing kept dims (a vector never straddles: their
     * extent is a multiple of W) */
    MlirValue lin = fb_divui(b, g->col[0], g->inner_len);
    g->col[0] = fb_remui(b, g->col[0], g->inner_len);
    for (int d = g->s->batch - 1; d >= 0; d--) {
      if (d == 0) { g->bidx[0] = lin; break; }
      g->bidx[d] = fb_remui(b, lin, g->size[g->space_tensor][d]);
      lin = fb_divui(b, lin, g->size[g->space_tensor][d]);
    }
  }
  for (int c = 1; c < MAX_CHUNKS; c++) g->col[c] = g->col[0];
  g->valid = g->col_ok;
  g->nchunks = 1;
}

/* The thread's partial over its rows rg, rg + G, ...: U rows in flight per
 * step while whole steps fit, then one row at a time. */
static MlirValue outer_partial(rgen *g, const phase *ph) {
  fb_builder *b = &g->b;
  MlirValue in = mlirOperationGetOperand(ph->red, 0);
  fuser_dtype in_dt = fuser_value_dtype(in);
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
  int U = g->var->vectors, G = g->T;
  MlirValue mean = ph->pass == 1 ? g->red[g->nred - 1].val[1] : (MlirValue){NULL};
  MlirValue acc = fb_broadcast(b, neutral_const(g, ph->id, ph->acc), vec_type(g, ph->acc));
  MlirValue step = idx(g, (int64_t)U * G);
  MlirValue full = fb_muli(b, fb_divui(b, g->rows, step), step);
  for (int pass = 0; pass < 2; pass++) {
    int n = pass == 0 ? U : 1;
    MlirValue lb = pass == 0 ? idx(g, 0) : fb_addi(b, full, g->rg), ub = pass == 0 ? full : g->rows;
    MlirOperation loop = fb_for(b, lb, ub, pass == 0 ? step : idx(g, G), 1, &acc);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_end(fb_body(loop)));
    scope_push(g);
    MlirValue a = fb_for_iter_arg(loop, 0), x[MAX_CHUNKS];
    for (int u = 0; u < n; u++) {
      g->rowc[u] = pass == 0 ? fb_addi(b, fb_for_iv(loop), fb_addi(b, g->rg, idx(g, (int64_t)u * G))) : fb_for_iv(loop);
      x[u] = convert(g, eval(g, in, map, u), in_dt, ph->acc); /* every load of the step first */
    }
    for (int u = 0; u < n; u++) {
      MlirValue v = x[u];
      if (ph->pass == 1) {
        MlirValue d = fb_binary(b, "arith.subf", v, mean);
        v = fb_binary(b, "arith.mulf", d, d);
      }
      a = combine(g, ph->id, ph->acc, a, v);
    }
    fb_yield(b, 1, &a);
    scope_pop(g);
    fb_set_ip(b, save);
    acc = fb_result(loop, 0);
  }
  return acc;
}

/* The row groups' partials combined in a fixed tree through buffer p
 * (block x W elements): step s adds group rg + s into rg for rg < s. GPU
 * form: every thread stores, barriers between steps; then every thread
 * reads its column's total. */
static MlirValue outer_tree_gpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue p) {
  fb_builder *b = &g->b;
  int cw = g->RPB;
  MlirType vt = vec_type(g, acc);
  MlirValue mine = fb_muli(b, g->tid, idx(g, g->W));
  fb_vector_store(b, x, p, mine, 0);
  fb_barrier(b);
  for (int s = g->T / 2; s >= 1; s /= 2) {
    MlirOperation ifop = fb_if(b, fb_cmpi(b, FB_CMPI_ULT, g->rg, idx(g, s)), 0, NULL, false);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_in(fb_then(ifop)));
    MlirValue other = fb_addi(b, mine, idx(g, (int64_t)s * cw * g->W));
    fb_vector_store(b, combine(g, id, acc, fb_vector_load(b, vt, p, mine, 0), fb_vector_load(b, vt, p, other, 0)), p, mine, 0);
    fb_set_ip(b, save);
    fb_barrier(b);
  }
  return fb_vector_load(b, vt, p, fb_muli(b, g->cv, idx(g, g->W)), 0);
}

/* The CPU form's replay of the same tree over the block's partials. */
static void outer_tree_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p) {
  fb_builder *b = &g->b;
  int cw = g->RPB;
  MlirType vt = vec_type(g, acc);
  for (int s = g->T / 2; s >= 1; s /= 2) {
    MlirOperation loop = fb_for(b, idx(g, 0), idx(g, (int64_t)s * cw), idx(g, 1), 0, NULL);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_in(fb_body(loop)));
    MlirValue mine = fb_muli(b, fb_for_iv(loop), idx(g, g->W));
    MlirValue other = fb_addi(b, mine, idx(g, (int64_t)s * cw * g->W));
    fb_vector_store(b, combine(g, id, acc, fb_vector_load(b, vt, p, mine, 0), fb_vector_load(b, vt, p, other, 0)), p, mine, 0);
    fb_set_ip(b, save);
  }
}

/* Results (of the kept shape) from row group 0's threads, where the column
 * exists. */
static void outer_epilogue(rgen *g) {
  fb_builder *b = &g->b;
  MlirValue cond = fb_andi(b, g->col_ok, fb_cmpi(b, FB_CMPI_EQ, g->rg, idx(g, 0)));
  MlirOperation ifop = fb_if(b, cond, 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  scope_push(g);
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(g->k->func));
  for (int j = 0; j < g->k->num_results && !g->failed; j++) {
    int t = g->k->num_args + j;
    int8_t map[FK_R];
    memset(map, -1, sizeof map);
    int r = g->k->t[t].rank;
    for (int d = 0; d < r; d++) {
      if (r == g->s->rank) map[d] = d < g->s->outer ? -1 : (int8_t)d; /* keepdim: the reduced dims are 1 */
      else map[d] = (int8_t)(d < g->s->batch ? d : g->s->outer + d);
    }
    store(g, t, map, -1, eval(g, mlirOperationGetOperand(ret, j), map, -1));
  }
  scope_pop(g);
  fb_set_ip(b, save);
}

/* ---- the function ------------------------------------------------------------ */

static void add_param(rgen *g, fk_param_kind kind, int t, int d) {
  g->params[g->nparams++] = (fk_param){kind, t, d};
}

/* The parameter list (kernel_gen's order: pointers, then each tensor's `?`
 * sizes and run-time strides, then scalars). */
static void make_params(rgen *g) {
  fk_kernel *k = g->k;
  for (int t = 0; t < k->num_tensors; t++)
    if (k->t[t].is_tensor) add_param(g, FK_PARAM_PTR, t, -1);
  for (int t = 0; t < k->num_tensors; t++) {
    if (!k->t[t].is_tensor) continue;
    for (int kind = FK_PARAM_SIZE; kind <= FK_PARAM_STRIDE; kind++)
      for (int d = 0; d < k->t[t].rank; d++)
        if ((kind == FK_PARAM_SIZE ? k->t[t].shape[d] : k->t[t].strides[d]) == FK_DYN) add_param(g, (fk_param_kind)kind, t, d);
  }
  for (int t = 0; t < k->num_args; t++)
    if (!k->t[t].is_tensor) add_param(g, FK_PARAM_SCALAR, t, -1);
}

static MlirType param_type(rgen *g, const fk_param *p) {
  if (p->kind == FK_PARAM_PTR) return fb_memref_1d_type(storage_type(g, g->k->t[p->tensor].dtype), 1);
  if (p->kind == FK_PARAM_SCALAR) return elem_type(g, g->k->t[p->tensor].dtype);
  return mlirIntegerTypeGet(ctx_of(g), 64);
}

/* Sizes, strides and memref views from the parameters (function entry). */
static void bind_params(rgen *g, MlirBlock entry) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  for (int t = 0; t < k->num_tensors; t++)
    for (int d = 0; d < k->t[t].rank; d++) {
      if (k->t[t].shape[d] != FK_DYN) g->size[t][d] = idx(g, k->t[t].shape[d]);
      if (k->t[t].strides[d] != FK_DYN) g->stride[t][d] = idx(g, k->t[t].strides[d]);
    }
  for (int i = 0; i < g->nparams; i++) {
    const fk_param *p = &g->params[i];
    MlirValue a = mlirBlockGetArgument(entry, i);
    if (p->kind == FK_PARAM_SIZE) g->size[p->tensor][p->dim] = fb_index_cast(b, a, fb_index_type(b));
    else if (p->kind == FK_PARAM_STRIDE) g->stride[p->tensor][p->dim] = fb_index_cast(b, a, fb_index_type(b));
    else if (p->kind == FK_PARAM_SCALAR) g->scalar[p->tensor] = a;
  }
  for (int i = 0; i < g->nparams; i++) {
    const fk_param *p = &g->params[i];
    if (p->kind != FK_PARAM_PTR) continue;
    /* the view spans the buffer (bounds are the schedule's business) */
    g->mem[p->tensor] = fb_reinterpret_1d(b, mlirBlockGetArgument(entry, i), idx(g, (int64_t)1 << 40));
  }
  /* rows and row length from the row-space tensor */
  const fk_tensor *st = &k->t[g->space_tensor];
  /* outer mode: the reduced dims [lo, hi) are the rows, the others the columns */
  int lo = g->outer_mode ? g->s->batch : 0, hi = g->outer_mode ? g->s->batch + g->s->outer : g->s->outer;
  g->rows = idx(g, 1);
  for (int d = lo; d < hi; d++) g->rows = fb_muli(b, g->rows, g->size[g->space_tensor][d]);
  g->inner_len = idx(g, 1);
  for (int d = hi; d < st->rank && g->s->batch > 0; d++) g->inner_len = fb_muli(b, g->inner_len, g->size[g->space_tensor][d]);
  g->row_len = idx(g, 1);
  if (g->s->row_len != FK_DYN) g->row_len = idx(g, g->s->row_len);
  else
    for (int d = 0; d < st->rank; d++)
      if (d < lo || d >= hi) g->row_len = fb_muli(b, g->row_len, g->size[g->space_tensor][d]);
  g->count = g->outer_mode ? g->rows : g->row_len;
}

/* A tensor with the row space's shape: result 0 (persistent), else an
 * argument of the full rank whose reduced dims are not all 1. */
static int find_space_tensor(rgen *g) {
  fk_kernel *k = g->k;
  if (g->s->kind == FUSER_SCHED_INNER_PERSISTENT) return k->num_args;
  for (int t = 0; t < k->num_args; t++) {
    if (!k->t[t].is_tensor || k->t[t].rank != g->s->rank) continue;
    bool ones = true;
    int lo = g->outer_mode ? g->s->batch : g->s->outer, hi = g->outer_mode ? g->s->batch + g->s->outer : g->s->rank;
    for (int d = lo; d < hi; d++) ones &= k->t[t].shape[d] == 1;
    if (!ones) return t;
  }
  return -1;
}

static MlirAttribute condition(rgen *g, int t, const char *kind, const char *field, int64_t value, int dim) {
  MlirContext c = ctx_of(g);
  MlirNamedAttribute e[4];
  int n = 0;
  bool res = t >= g->k->num_args;
  e[n++] = fuser_named(c, res ? "result" : "arg", fuser_i64_attr(c, res ? t - g->k->num_args : t));
  e[n++] = fuser_named(c, "kind", fuser_str_attr(c, kind));
  e[n++] = fuser_named(c, field, fuser_i64_attr(c, value));
  if (dim >= 0) e[n++] = fuser_named(c, "dim", fuser_i64_attr(c, dim));
  return mlirDictionaryAttrGet(c, n, e);
}

/* `merge` conditions for the dims a tensor walks contiguously along the
 * row (inner: the reduced dims; outer: the trailing kept dims) where their
 * nesting is not static: stride(d) == stride(d + 1) * size(d + 1). */
static int inner_merge_conditions(rgen *g, MlirAttribute *c, int n, int cap) {
  fk_kernel *k = g->k;
  int hi = g->outer_mode ? g->s->batch + g->s->outer : g->s->outer, nin = g->s->rank - hi;
  for (int t = 0; t < k->num_tensors && n < cap; t++) {
    const fk_tensor *ft = &k->t[t];
    if (!ft->is_tensor) continue;
    int from = ft->rank == g->s->rank ? hi : g->outer_mode && ft->rank == g->s->rank - g->s->outer ? ft->rank - nin : -1;
    for (int d = from; from >= 0 && d + 1 < ft->rank && n < cap; d++) {
      if (ft->shape[d] == 1 || ft->shape[d + 1] == 1) continue;
      bool nested = ft->strides[d] != FK_DYN && ft->strides[d + 1] != FK_DYN && ft->shape[d + 1] != FK_DYN &&
                    ft->strides[d] == ft->strides[d + 1] * ft->shape[d + 1];
      if (nested) continue;
      MlirContext cx = ctx_of(g);
      bool res = t >= k->num_args;
      MlirNamedAttribute e[4] = {
          fuser_named(cx, res ? "result" : "arg", fuser_i64_attr(cx, res ? t - k->num_args : t)),
          fuser_named(cx, "kind", fuser_str_attr(cx, "merge")),
          fuser_named(cx, "dim", fuser_i64_attr(cx, d)),
          fuser_named(cx, "inner", fuser_i64_attr(cx, d + 1)),
      };
      c[n++] = mlirDictionaryAttrGet(cx, 4, e);
    }
  }
  return n;
}

/* Run-time conditions of a vector variant: aligned pointers, row strides
 * and row length multiples of W. */
static MlirAttribute conditions(rgen *g) {
  MlirAttribute c[FK_MAX_TENSORS * 4];
  int n = 0;
  fk_kernel *k = g->k;
  if (g->W > 1) {
    for (int t = 0; t < k->num_tensors && n < FK_MAX_TENSORS * 3; t++) {
      if (!k->t[t].is_tensor || k->t[t].rank == 0) continue;
      c[n++] = condition(g, t, "align", "bytes", align_of(g, t), -1);
      for (int d = 0; d < k->t[t].rank; d++)
        if (k->t[t].strides[d] == FK_DYN) c[n++] = condition(g, t, "stride", "multiple", g->W, d);
    }
    int st = g->space_tensor, last = k->t[st].rank - 1;
    if (k->t[st].shape[last] == FK_DYN) c[n++] = condition(g, st, "extent", "multiple", g->W, last);
  }
  /* outer: every tensor walking the reduced dims merges them into one row
   * index: stride(d) == stride(d + 1) * size(d + 1), unless static */
  for (int t = 0; g->outer_mode && t < k->num_tensors && n < FK_MAX_TENSORS * 4 - 8; t++) {
    const fk_tensor *ft = &k->t[t];
    if (!ft->is_tensor || ft->rank != g->s->rank) continue;
    for (int d = g->s->batch; d + 1 < g->s->batch + g->s->outer; d++) {
      bool nested = ft->strides[d] != FK_DYN && ft->strides[d + 1] != FK_DYN && ft->shape[d + 1] != FK_DYN &&
                    ft->strides[d] == ft->strides[d + 1] * ft->shape[d + 1];
      if (!nested) {
        MlirContext cx = ctx_of(g);
        bool res = t >= k->num_args;
        MlirNamedAttribute e[4] = {
            fuser_named(cx, res ? "result" : "arg", fuser_i64_attr(cx, res ? t - k->num_args : t)),
            fuser_named(cx, "kind", fuser_str_attr(cx, "merge")),
            fuser_named(cx, "dim", fuser_i64_attr(cx, d)),
            fuser_named(cx, "inner", fuser_i64_attr(cx, d + 1)),
        };
        c[n++] = mlirDictionaryAttrGet(cx, 4, e);
      }
    }
  }
  n = inner_merge_conditions(g, c, n, FK_MAX_TENSORS * 4);
  return mlirArrayAttrGet(ctx_of(g), n, c);
}

static void set_attr(MlirOperation f, const char *name, MlirAttribute a) {
  mlirOperationSetDiscardableAttributeByName(f, mlirStringRefCreateFromCString(name), a);
}

static bool static_strides_aligned(rgen *g) {
  for (int t = 0; t < g->k->num_tensors; t++) {
    const fk_tensor *ft = &g->k->t[t];
    if (!ft->is_tensor) continue;
    for (int d = 0; d < ft->rank; d++)
      if (ft->strides[d] != FK_DYN && ft->strides[d] % g->W != 0 && ft->strides[d] != 1 && ft->shape[d] != 1) return false;
  }
  return true;
}

static const char *variant_name(const fuser_reduction_schedule *s, const fuser_row_variant *v) {
  if (s->kind == FUSER_SCHED_OUTER) return v->width > 1 ? "columns" : "columns_scalar";
  return v->vectors > 0 ? "persistent" : v->cluster > 1 ? "looped_cluster" : v->width > 1 ? "looped" : "looped_scalar";
}

static bool emit_variant(fk_kernel *k, const fuser_reduction_schedule *s, const fuser_row_variant *var, bool gpu,
                         MlirOperation *after, bool *unsup, char *why) {
  rgen *g = calloc(1, sizeof *g);
  g->k = k;
  g->s = s;
  g->var = var;
  g->gpu = gpu;
  g->W = var->width;
  g->T = var->threads;
  g->RPB = var->rows_per_block;
  g->block = g->T * g->RPB;
  g->outer_mode = s->kind == FUSER_SCHED_OUTER;
  /* the CPU form runs a cluster variant as one block per row (the looped code) */
  g->S = gpu && !g->outer_mode && var->cluster > 1 && var->vectors == 0 && g->RPB == 1 && s->row_len != INT64_MIN ? var->cluster : 1;
  MlirContext ctx = mlirOperationGetContext(k->func);
  fb_init(&g->b, ctx, mlirOperationGetLocation(k->func));
  fb_builder *b = &g->b;
  g->space_tensor = find_space_tensor(g);
  bool ok = true;
  if (g->space_tensor < 0) unsupported(g, "no tensor of the row space's shape");
  if (g->W > 1 && !static_strides_aligned(g)) unsupported(g, "a static stride is not a multiple of the vector width");
  make_params(g);
  phase ph[MAX_REDS];
  int nph = g->failed ? 0 : collect_phases(g, ph, MAX_REDS);
  char name[256];
  snprintf(name, sizeof name, "%.*s__%s", (int)k->name_len, k->name, variant_name(s, var));
  MlirType types[FK_MAX_PARAMS + 2 * MAX_REDS];
  int nargs = g->nparams;
  for (int i = 0; i < g->nparams; i++) types[i] = param_type(g, &g->params[i]);
  int nwg = 0;
  if (gpu && g->outer_mode)
    for (int p = 0; p < nph; p++) types[nargs + nwg++] = fb_workgroup_memref_type(b, elem_type(g, ph[p].acc), (int64_t)g->block * g->W);
  else if (gpu && g->T > 32)
    for (int p = 0; p < nph; p++) types[nargs + nwg++] = fb_workgroup_memref_type(b, elem_type(g, ph[p].acc), g->block / 32);
  int cwg_first = nargs + nwg;
  if (g->S > 1)
    for (int p = 0; p < nph; p++) types[nargs + nwg++] = fb_workgroup_memref_type(b, elem_type(g, ph[p].acc), g->S);
  MlirOperation f = {NULL};
  if (!g->failed) {
    fb_set_ip(b, fb_ip_after(*after));
    f = fb_func(b, name, nargs + nwg, types);
    MlirBlock entry = fb_body(f);
    /* constants go before an anchor at the entry's start, the code after it */
    fb_set_ip(b, fb_ip_in(entry));
    fb_set_const_ip(b, fb_ip_in(entry));
    MlirOperation anchor = mlirOpResultGetOwner(fb_const_index(b, 0));
    fb_set_const_ip(b, fb_ip_before(anchor));
    bind_params(g, entry);
    bool om = g->outer_mode;
    if (gpu) {
      if (om) outer_thread_context(g, fb_thread_id(b, 'x'), fb_block_id(b, 'x'));
      else thread_context(g, fb_thread_id(b, 'x'), fb_block_id(b, 'x'));
      if (g->S > 1) fb_cluster_arrive(b, true); /* matched by the wait before the first push */
      for (int p = 0; p < nph && !g->failed; p++) {
        MlirValue wg = cwg_first > nargs ? mlirBlockGetArgument(entry, nargs + p) : (MlirValue){NULL};
        MlirValue total = om ? outer_tree_gpu(g, ph[p].id, ph[p].acc, outer_partial(g, &ph[p]), wg)
                             : block_allreduce_gpu(g, ph[p].id, ph[p].acc, thread_partial(g, &ph[p]), wg);
        if (g->S > 1) total = cluster_allreduce_gpu(g, ph[p].id, ph[p].acc, total, mlirBlockGetArgument(entry, cwg_first + p));
        finish_phase(g, &ph[p], total);
      }
      if (!g->failed) {
        if (om) outer_epilogue(g);
        else epilogue(g);
      }
    } else {
      MlirValue nblocks = om ? fb_ceildivui(b, g->row_len, idx(g, (int64_t)g->RPB * g->W)) : fb_ceildivui(b, g->rows, idx(g, g->RPB));
      MlirValue lb = idx(g, 0), step = idx(g, 1);
      MlirOperation par = fb_parallel(b, 1, &lb, &nblocks, &step);
      MlirValue bid = fb_parallel_iv(par, 0);
      fb_set_ip(b, fb_ip_in(fb_body(par)));
      for (int p = 0; p < nph && !g->failed; p++) {
        /* every thread's partial into p[tid] (outer: a vector at tid * W) */
        MlirType pt = fb_memref_1d_type(elem_type(g, ph[p].acc), (int64_t)g->block * (om ? g->W : 1));
        MlirValue buf = fb_result(fb_op(b, "memref.alloca", 1, &pt, 0, NULL, 1,
                                        (MlirNamedAttribute[]){fb_named(b, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, (int32_t[]){0, 0}))}, 0), 0);
        MlirOperation tl = fb_for(b, idx(g, 0), idx(g, g->block), idx(g, 1), 0, NULL);
        fb_ip save = fb_get_ip(b);
        fb_set_ip(b, fb_ip_in(fb_body(tl)));
        scope_push(g);
        if (om) outer_thread_context(g, fb_for_iv(tl), bid);
        else thread_context(g, fb_for_iv(tl), bid);
        reload_row_results(g, ph, p);
        if (om) fb_vector_store(b, outer_partial(g, &ph[p]), buf, fb_muli(b, fb_for_iv(tl), idx(g, g->W)), 0);
        else fb_store(b, thread_partial(g, &ph[p]), buf, fb_for_iv(tl));
        scope_pop(g);
        fb_set_ip(b, save);
        if (om) {
          outer_tree_cpu(g, ph[p].id, ph[p].acc, buf);
        } else {
          /* the butterflies of every row of the block, then each row's result
           * (the GPU broadcasts it; here the epilogue's threads read it) */
          MlirOperation rl = fb_for(b, idx(g, 0), idx(g, g->RPB), idx(g, 1), 0, NULL);
          save = fb_get_ip(b);
          fb_set_ip(b, fb_ip_in(fb_body(rl)));
          MlirValue r = block_allreduce_cpu(g, ph[p].id, ph[p].acc, buf, fb_for_iv(rl));
          fb_store(b, r, buf, fb_muli(b, fb_for_iv(rl), idx(g, g->T)));
          fb_set_ip(b, save);
        }
        g->wg[p] = buf;
      }
      /* the epilogue, thread by thread; each thread reads its row's results */
      if (!g->failed) {
        MlirOperation tl = fb_for(b, idx(g, 0), idx(g, g->block), idx(g, 1), 0, NULL);
        fb_set_ip(b, fb_ip_in(fb_body(tl)));
        scope_push(g);
        if (om) outer_thread_context(g, fb_for_iv(tl), bid);
        else thread_context(g, fb_for_iv(tl), bid);
        reload_row_results(g, ph, nph);
        if (om) outer_epilogue(g);
        else epilogue(g);
        scope_pop(g);
      }
    }
  }
  if (g->failed) {
    if (!mlirOperationIsNull(f)) mlirOperationDestroy(f);
    *unsup = g->unsupported;
    snprintf(why, 200, "%s", g->why);
    ok = false;
  } else {
    MlirAttribute pdesc[FK_MAX_PARAMS];
    for (int i = 0; i < g->nparams; i++) {
      char d[64];
      fk_param_format(&g->params[i], d, sizeof d);
      pdesc[i] = fuser_str_attr(ctx, d);
    }
    MlirAttribute kn = mlirStringAttrGet(ctx, mlirStringRefCreate(k->name, k->name_len));
    set_attr(f, "fuser.loops", mlirUnitAttrGet(ctx));
    set_attr(f, "fuser.row_kernel", mlirUnitAttrGet(ctx));
    set_attr(f, "fuser.kernel_name", kn);
    set_attr(f, "fuser.variant", fuser_str_attr(ctx, variant_name(s, var)));
    set_attr(f, "fuser.vector_width", fuser_i64_attr(ctx, g->W));
    set_attr(f, "fuser.unroll", fuser_i64_attr(ctx, var->vectors > 0 ? var->vectors : 1));
    set_attr(f, "fuser.index_bits", fuser_i64_attr(ctx, 64));
    set_attr(f, "fuser.num_args", fuser_i64_attr(ctx, k->num_args));
    set_attr(f, "fuser.params", mlirArrayAttrGet(ctx, g->nparams, pdesc));
    set_attr(f, "fuser.vector_conditions", conditions(g));
    set_attr(f, "fuser.block_size", fuser_i64_attr(ctx, g->block));
    set_attr(f, "fuser.workgroup_buffers", fuser_i64_attr(ctx, nwg));
    if (g->S > 1) set_attr(f, "fuser.cluster_size", fuser_i64_attr(ctx, g->S));
    /* inner: a block per rows_per_block rows; outer: per CW x W columns */
    bool om = g->outer_mode;
    /* batched outer: the columns are result 0's dims (the kept shape) */
    bool batched = om && s->batch > 0;
    MlirNamedAttribute rg[5] = {
        fuser_named(ctx, "tensor", fuser_i64_attr(ctx, batched ? k->num_args : g->space_tensor)),
        fuser_named(ctx, "first", fuser_i64_attr(ctx, batched ? 0 : om ? s->outer : 0)),
        fuser_named(ctx, "dims", fuser_i64_attr(ctx, om ? s->rank - s->outer : s->outer)),
        fuser_named(ctx, "rows_per_block", fuser_i64_attr(ctx, om ? (int64_t)g->RPB * g->W : g->RPB)),
        fuser_named(ctx, "blocks_per_row", fuser_i64_attr(ctx, g->S)), /* the cluster variant only */
    };
    set_attr(f, "fuser.row_grid", mlirDictionaryAttrGet(ctx, g->S > 1 ? 5 : 4, rg));
    *after = f;
  }
  fb_free(b);
  free(g->memo);
  free(g);
  return ok;
}

bool fuser_row_kernel_lower(MlirOperation func, const fuser_reduction_schedule *s, bool gpu, MlirOperation *after,
                            bool *unsup) {
  *unsup = false;
  if (s->kind == FUSER_SCHED_NONE) return *unsup = true, false;
  fk_kernel *k = malloc(sizeof *k);
  bool ok = fk_kernel_read(func, k);
  MlirOperation start = *after, made[FUSER_SCHED_MAX_VARIANTS];
  int nmade = 0;
  char why[200] = "";
  for (int i = 0; ok && i < s->num_variants; i++) {
    ok = emit_variant(k, s, &s->variants[i], gpu, after, unsup, why);
    if (ok) made[nmade++] = *after;
  }
  if (!ok) {
    /* drop the variants already emitted: the kernel is lowered another way */
    for (int i = 0; i < nmade; i++) mlirOperationDestroy(made[i]);
    *after = start;
    if (*unsup && getenv("FUSER_DEBUG_ROWS")) fprintf(stderr, "row schedule not used for %.*s: %s\n", (int)k->name_len, k->name, why);
  }
  free(k);
  return ok;
}

bool fuser_is_row_kernel(MlirOperation f) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.row_kernel")));
}

MlirAttribute fuser_row_kernel_to_gpu(fb_builder *b, MlirOperation f, MlirOperation gmod) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
  MlirStringRef mn = mlirStringAttrGetValue(mlirOperationGetAttributeByName(gmod, mlirStringRefCreateFromCString("sym_name")));
  char name[256], binary[64];
  snprintf(name, sizeof name, "%.*s", (int)sym.length, sym.data);
  snprintf(binary, sizeof binary, "%.*s", (int)mn.length, mn.data);
  int nwg = (int)mlirIntegerAttrGetValueInt(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.workgroup_buffers")));
  int block = (int)mlirIntegerAttrGetValueInt(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.block_size")));
  MlirBlock fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  int n = (int)mlirBlockGetNumArguments(fbody), nargs = n - nwg;
  MlirType types[FK_MAX_PARAMS + 2 * MAX_REDS];
  for (int i = 0; i < n; i++) types[i] = mlirValueGetType(mlirBlockGetArgument(fbody, i));
  fb_set_loc(b, mlirOperationGetLocation(f));
  fb_set_ip(b, fb_ip_in(mlirRegionGetFirstBlock(mlirOperationGetRegion(gmod, 0))));
  MlirOperation gf = fb_gpu_func(b, name, nargs, types, nwg, types + nargs, true);
  int32_t kbs[3] = {block, 1, 1};
  mlirOperationSetInherentAttributeByName(gf, mlirStringRefCreateFromCString("known_block_size"), mlirDenseI32ArrayGet(ctx, 3, kbs));
  /* the cluster variant: .reqnctapercluster S (a plain launch then forms the clusters) */
  MlirAttribute cs = mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.cluster_size"));
  if (!mlirAttributeIsNull(cs)) {
    int32_t kcs[3] = {(int32_t)mlirIntegerAttrGetValueInt(cs), 1, 1};
    mlirOperationSetInherentAttributeByName(gf, mlirStringRefCreateFromCString("known_cluster_size"), mlirDenseI32ArrayGet(ctx, 3, kcs));
    /* .minnctapersm 2: ptxas keeps the 1024-thread blocks at <= 32
     * registers, so two share an SM (2048 threads: the loads in flight of
     * full occupancy; with 42 registers one block per SM would run) */
    mlirOperationSetDiscardableAttributeByName(gf, mlirStringRefCreateFromCString("nvvm.minctasm"),
                                               mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), 2));
  }
  /* an optional alignment of every workgroup buffer (transpose tiles: 16-byte chunks) */
  MlirAttribute wga = mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.workgroup_align"));
  if (!mlirAttributeIsNull(wga) && nwg > 0) {
    MlirNamedAttribute al = mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("llvm.align")), wga);
    MlirAttribute dicts[MAX_REDS * 2];
    for (int i = 0; i < nwg && i < MAX_REDS * 2; i++) dicts[i] = mlirDictionaryAttrGet(ctx, 1, &al);
    mlirOperationSetInherentAttributeByName(gf, mlirStringRefCreateFromCString("workgroup_attrib_attrs"),
                                            mlirArrayAttrGet(ctx, nwg < MAX_REDS * 2 ? nwg : MAX_REDS * 2, dicts));
  }
  /* the launch dictionary carries fuser.row_grid (launch_plan.c) */
  MlirAttribute launch = fuser_launch_dict(f, binary, name, block);
  mlirOperationSetDiscardableAttributeByName(gf, mlirStringRefCreateFromCString("fuser.launch"), launch);
  MlirBlock gbody = fb_body(gf);
  MlirOperation ret = mlirBlockGetTerminator(gbody);
  for (int i = 0; i < n; i++) mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, i), mlirBlockGetArgument(gbody, i));
  MlirOperation op = mlirBlockGetFirstOperation(fbody);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (!fuser_op_is(op, "func.return")) mlirOperationMoveBefore(op, ret);
    op = next;
  }
  return launch;
}
