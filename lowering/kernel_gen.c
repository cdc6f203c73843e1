/* kernel_gen.c: the walker that evaluates a kernel's op DAG at one point
 * (or one vector of W consecutive points) of the iteration space by index
 * remapping, emitting upstream MLIR text; in analysis mode it also records
 * the global accesses and the cat/pad boundaries (kernel_gen.h).
 *
 * Text goes to two buffers: the prologue (function entry: constants, memref
 * views, extents derived from parameters, scalar arithmetic; all
 * point-independent) and the body (index math, loads, compute, stores).
 * Values computed inside an scf.if branch are memoized only inside it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

#define NAME 40

typedef struct {
  int rank;
  char name[FK_R][NAME];
  int8_t coef[FK_R][FK_R];
  int64_t off[FK_R];
  bool opaque;
} idx_t;

typedef struct {
  char name[NAME];
  bool vec;
  fuser_dtype dt;
} kval;

typedef struct {
  char name[NAME];
  int64_t value; /* static extent or FK_DYN */
  int src_tensor, src_dim;
  int64_t shift; /* extent = size(src) + shift when src_tensor >= 0 */
} dimv;

typedef struct {
  const void *key;
  char *idx;
  kval v;
  int depth;
} memo_entry;

typedef struct {
  fk_kernel *k;
  bool analysis;
  int W;
  bool flat; /* index every access by the flat point index (fk_codegen_options.flat) */
  strbuf *pro, *body, *cur;
  int indent, depth, counter;
  memo_entry *memo;
  int nmemo, capmemo;
  struct dim_memo { const void *key; int dim; dimv d; } dims[512];
  int ndims;
  struct scalar_memo { const void *key; kval v; } scalars[256];
  int nscalars;
  fk_param *params;
  int nparams;
  bool mem_made[FK_MAX_TENSORS];
  bool failed;
} gen;

/* ---- emission helpers ---------------------------------------------------- */

static void fresh(gen *g, char *out) { snprintf(out, NAME, "%%v%d", g->counter++); }

static void emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(gen *g, const char *fmt, ...) {
  int ind = g->cur == g->pro ? 2 : g->indent;
  sb_printf(g->cur, "%*s", ind, "");
  va_list ap;
  va_start(ap, fmt);
  char tmp[2048];
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  sb_append(g->cur, tmp);
  sb_append(g->cur, "\n");
}

static bool fail_op(gen *g, MlirOperation op, const char *msg) {
  if (!g->failed) mlirEmitError(mlirOperationGetLocation(op), msg);
  g->failed = true;
  return false;
}

static const char *storage_type(fuser_dtype dt) { return dt == FUSER_DTYPE_I1 ? "i8" : fuser_dtype_mlir_name(dt); }

static void type_str(gen *g, fuser_dtype dt, bool vec, char *out) {
  if (vec) snprintf(out, NAME, "vector<%dx%s>", g->W, fuser_dtype_mlir_name(dt));
  else snprintf(out, NAME, "%s", fuser_dtype_mlir_name(dt));
}

/* An index constant, emitted once in the prologue. */
static const char *cidx(gen *g, int64_t v, char *out) {
  if (v >= 0) snprintf(out, NAME, "%%c%lld", (long long)v);
  else snprintf(out, NAME, "%%cm%lld", (long long)-v);
  char key[NAME + 8];
  snprintf(key, sizeof key, "  %s = ", out);
  if (!g->pro->data || !strstr(g->pro->data, key))
    sb_printf(g->pro, "  %s = arith.constant %lld : index\n", out, (long long)v);
  return out;
}

static const char *param(gen *g, fk_param_kind kind, int tensor, int dim, char *out) {
  static const char *prefix[] = {"ptr", "size", "stride", "scalar"};
  if (kind == FK_PARAM_SIZE || kind == FK_PARAM_STRIDE) snprintf(out, NAME, "%%%s_t%d_%d", prefix[kind], tensor, dim);
  else snprintf(out, NAME, "%%%s_t%d", prefix[kind], tensor);
  for (int i = 0; i < g->nparams; i++)
    if (g->params[i].kind == kind && g->params[i].tensor == tensor && (g->params[i].dim == dim)) return out;
  if (g->nparams < FK_MAX_PARAMS) g->params[g->nparams++] = (fk_param){kind, tensor, dim};
  return out;
}

/* The flat 1-D memref view of tensor t (all index math is explicit). */
static const char *mem(gen *g, int t, char *out) {
  snprintf(out, NAME, "%%mem_t%d", t);
  if (!g->mem_made[t]) {
    char p[NAME], big[NAME];
    param(g, FK_PARAM_PTR, t, -1, p);
    cidx(g, 1, big); /* extent is irrelevant: loads are never bounds-checked */
    const char *st = storage_type(g->k->t[t].dtype);
    sb_printf(g->pro, "  %s = memref.reinterpret_cast %s to offset: [0], sizes: [%s], strides: [1] : memref<1x%s> to memref<?x%s>\n",
              out, p, big, st, st);
    g->mem_made[t] = true;
  }
  return out;
}

static bool is_zero(const char *name) { return strcmp(name, "%c0") == 0; }

static void iadd(gen *g, const char *a, const char *b, char *out) {
  if (is_zero(a)) { snprintf(out, NAME, "%s", b); return; }
  if (is_zero(b)) { snprintf(out, NAME, "%s", a); return; }
  fresh(g, out);
  emit(g, "%s = arith.addi %s, %s : index", out, a, b);
}

static void imul(gen *g, const char *a, const char *b, char *out) {
  if (is_zero(a) || is_zero(b)) { snprintf(out, NAME, "%%c0"); return; }
  if (strcmp(b, "%c1") == 0) { snprintf(out, NAME, "%s", a); return; }
  if (strcmp(a, "%c1") == 0) { snprintf(out, NAME, "%s", b); return; }
  fresh(g, out);
  emit(g, "%s = arith.muli %s, %s : index", out, a, b);
}

static void iaddc(gen *g, const char *a, int64_t c, char *out) {
  char cn[NAME];
  if (c == 0) { snprintf(out, NAME, "%s", a); return; }
  fresh(g, out);
  if (c > 0) emit(g, "%s = arith.addi %s, %s : index", out, a, cidx(g, c, cn));
  else emit(g, "%s = arith.subi %s, %s : index", out, a, cidx(g, -c, cn));
}

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

/* ---- values, types, conversions ----------------------------------------- */

static MlirOperation owner(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static int tensor_rank(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }

static int64_t static_dim(MlirValue v, int j) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, j) ? FK_DYN : mlirShapedTypeGetDimSize(t, j);
}

static bool is_float(fuser_dtype dt) { return fuser_dtype_is_float(dt); }

/* A float constant of dtype dt (splat to a vector when vec), in the prologue. */
static void fconst(gen *g, double v, fuser_dtype dt, bool vec, char *out) {
  char s[NAME], ty[NAME];
  fresh(g, s);
  strbuf *save = g->cur;
  g->cur = g->pro;
  if (dt == FUSER_DTYPE_I1) emit(g, "%s = arith.constant %s", s, v != 0 ? "true" : "false");
  else if (is_float(dt)) {
    union { double d; uint64_t u; } bits = {.d = v};
    if (isfinite(v)) emit(g, "%s = arith.constant %.17e : %s", s, v, fuser_dtype_mlir_name(dt));
    else if (dt == FUSER_DTYPE_F64) emit(g, "%s = arith.constant 0x%016llX : f64", s, (unsigned long long)bits.u);
    else emit(g, "%s = arith.constant 0x%08X : %s", s, isnan(v) ? 0x7FC00000u : (v > 0 ? 0x7F800000u : 0xFF800000u), "f32");
  } else emit(g, "%s = arith.constant %lld : %s", s, (long long)v, fuser_dtype_mlir_name(dt));
  if (vec) {
    fresh(g, out);
    type_str(g, dt, true, ty);
    emit(g, "%s = vector.broadcast %s : %s to %s", out, s, fuser_dtype_mlir_name(dt), ty);
  } else snprintf(out, NAME, "%s", s);
  g->cur = save;
}

static kval splat(gen *g, kval x) {
  if (x.vec || g->W == 1) return x;
  kval r = {.vec = true, .dt = x.dt};
  char ty[NAME];
  fresh(g, r.name);
  type_str(g, x.dt, true, ty);
  emit(g, "%s = vector.broadcast %s : %s to %s", r.name, x.name, fuser_dtype_mlir_name(x.dt), ty);
  return r;
}

static kval convert(gen *g, kval x, fuser_dtype to) {
  if (x.dt == to) return x;
  kval r = {.vec = x.vec, .dt = to};
  char from_ty[NAME], to_ty[NAME], z[NAME];
  type_str(g, x.dt, x.vec, from_ty);
  type_str(g, to, x.vec, to_ty);
  fresh(g, r.name);
  const char *op = NULL;
  if (to == FUSER_DTYPE_I1) { /* x != 0 */
    fconst(g, 0, x.dt, x.vec, z);
    if (is_float(x.dt)) emit(g, "%s = arith.cmpf une, %s, %s : %s", r.name, x.name, z, from_ty);
    else emit(g, "%s = arith.cmpi ne, %s, %s : %s", r.name, x.name, z, from_ty);
    return r;
  }
  if (is_float(x.dt) && is_float(to)) op = fuser_dtype_size(to) > fuser_dtype_size(x.dt) ? "arith.extf" : "arith.truncf";
  else if (x.dt == FUSER_DTYPE_I1) op = is_float(to) ? "arith.uitofp" : "arith.extui";
  else if (!is_float(x.dt) && is_float(to)) op = "arith.sitofp";
  else if (is_float(x.dt) && !is_float(to)) op = "arith.fptosi";
  else op = fuser_dtype_size(to) > fuser_dtype_size(x.dt) ? "arith.extsi" : "arith.trunci";
  if ((x.dt == FUSER_DTYPE_BF16 && to == FUSER_DTYPE_F16) || (x.dt == FUSER_DTYPE_F16 && to == FUSER_DTYPE_BF16)) {
    kval mid = convert(g, x, FUSER_DTYPE_F32);
    return convert(g, mid, to);
  }
  emit(g, "%s = %s %s : %s to %s", r.name, op, x.name, from_ty, to_ty);
  return r;
}

/* ---- extents and scalars (prologue) -------------------------------------- */

static kval scalar_of(gen *g, MlirValue v);

static dimv dim_of(gen *g, MlirValue v, int j) {
  const void *key = v.ptr;
  for (int i = 0; i < g->ndims; i++)
    if (g->dims[i].key == key && g->dims[i].dim == j) return g->dims[i].d;
  dimv d = {.value = static_dim(v, j), .src_tensor = -1};
  strbuf *save = g->cur;
  g->cur = g->pro;
  if (d.value != FK_DYN) {
    cidx(g, d.value, d.name);
  } else if (mlirValueIsABlockArgument(v)) {
    int t = (int)mlirBlockArgumentGetArgNumber(v);
    param(g, FK_PARAM_SIZE, t, j, d.name);
    d.src_tensor = t, d.src_dim = j;
  } else {
    MlirOperation op = owner(v);
    fuser_op_id id = fuser_op_id_of(op);
    fuser_op_kind kind = fuser_op_kind_of(id);
    int64_t a[2 * FK_R];
    int n;
    dimv x;
    if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY ||
        id == FUSER_OP_set || id == FUSER_OP_segment_set) {
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
        MlirValue o = mlirOperationGetOperand(op, i);
        if (!fuser_value_is_tensor(o) || static_dim(o, j) == 1) continue;
        d = dim_of(g, o, j);
        break;
      }
    } else if (id == FUSER_OP_cat) {
      dimv l = dim_of(g, mlirOperationGetOperand(op, 0), j), r = dim_of(g, mlirOperationGetOperand(op, 1), j);
      int64_t cd = 0;
      fuser_get_i64(op, "dim", &cd);
      if (cd < 0) cd += tensor_rank(v);
      if (cd != j) d = l;
      else {
        fresh(g, d.name);
        emit(g, "%s = arith.addi %s, %s : index", d.name, l.name, r.name);
        if (l.value != FK_DYN && r.src_tensor >= 0) d.src_tensor = r.src_tensor, d.src_dim = r.src_dim, d.shift = r.shift + l.value;
        if (r.value != FK_DYN && l.src_tensor >= 0) d.src_tensor = l.src_tensor, d.src_dim = l.src_dim, d.shift = l.shift + r.value;
      }
    } else if (id == FUSER_OP_pad && (n = fuser_get_i64_array(op, "pad_widths", a, 2 * FK_R)) >= 0) {
      int rank = tensor_rank(v);
      int64_t lo = 0, hi = 0;
      int p = rank - 1 - j; /* pairs start from the last dim */
      if (2 * p + 1 < n) lo = a[2 * p], hi = a[2 * p + 1];
      x = dim_of(g, mlirOperationGetOperand(op, 0), j);
      char t1[NAME];
      iaddc(g, x.name, lo + hi, t1);
      snprintf(d.name, NAME, "%s", t1);
      if (x.src_tensor >= 0) d.src_tensor = x.src_tensor, d.src_dim = x.src_dim, d.shift = x.shift + lo + hi;
    } else if (id == FUSER_OP_permute && fuser_get_i64_array(op, "dims", a, FK_R) > j) {
      d = dim_of(g, mlirOperationGetOperand(op, 0), (int)a[j]);
    } else if (kind == FUSER_KIND_SHAPED || kind == FUSER_KIND_FULL) {
      /* the k-th `?` result dim is operand 1 + k */
      int kth = 0;
      for (int i = 0; i < j; i++) kth += static_dim(v, i) == FK_DYN;
      kval s = scalar_of(g, mlirOperationGetOperand(op, 1 + kth));
      fresh(g, d.name);
      emit(g, "%s = arith.index_cast %s : %s to index", d.name, s.name, fuser_dtype_mlir_name(s.dt));
    } else if (id == FUSER_OP_iota) {
      kval s = scalar_of(g, mlirOperationGetOperand(op, 0));
      fresh(g, d.name);
      emit(g, "%s = arith.index_cast %s : %s to index", d.name, s.name, fuser_dtype_mlir_name(s.dt));
    } else if (kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN) {
      int64_t keep = 0;
      n = fuser_get_i64_array(op, "dims", a, FK_R);
      fuser_get_i64(op, "keepdim", &keep);
      MlirValue in = mlirOperationGetOperand(op, 0);
      int in_rank = tensor_rank(in), out = 0;
      for (int i = 0; i < in_rank; i++) {
        bool red = false;
        for (int q = 0; q < n; q++) red |= (a[q] < 0 ? a[q] + in_rank : a[q]) == i;
        if (red && !keep) continue;
        if (out++ == j) { d = dim_of(g, in, i); break; }
      }
    } else if (id == FUSER_OP_squeeze || id == FUSER_OP_broadcast) {
      /* kept dims map in order; squeezed/broadcast ones are static 1 */
      MlirValue in = mlirOperationGetOperand(op, 0);
      int in_rank = tensor_rank(in);
      int64_t bd[FK_R];
      int nb = fuser_get_i64_array(op, id == FUSER_OP_squeeze ? "dims" : "is_broadcast_dim", bd, FK_R);
      if (id == FUSER_OP_squeeze) {
        int out = 0;
        for (int i = 0; i < in_rank; i++) {
          bool sq = false;
          for (int q = 0; q < nb; q++) sq |= bd[q] == i;
          if (sq) continue;
          if (out++ == j) { d = dim_of(g, in, i); break; }
        }
      } else {
        int in_dim = 0;
        for (int i = 0; i < j; i++) in_dim += !bd[i];
        d = dim_of(g, in, in_dim);
      }
    } else {
      g->cur = save;
      fail_op(g, op, "lowering: cannot derive a symbolic extent through this op");
      snprintf(d.name, NAME, "%%c0");
      return d;
    }
  }
  g->cur = save;
  if (g->ndims < 512) g->dims[g->ndims++] = (struct dim_memo){key, j, d};
  return d;
}

static kval elementwise(gen *g, MlirOperation op, fuser_op_id id, kval *x, int n, fuser_dtype out_dt);

/* A scalar (non-tensor) value: a parameter, a constant, or scalar math. */
static kval scalar_of(gen *g, MlirValue v) {
  for (int i = 0; i < g->nscalars; i++)
    if (g->scalars[i].key == v.ptr) return g->scalars[i].v;
  kval r = {.dt = fuser_value_dtype(v)};
  strbuf *save = g->cur;
  g->cur = g->pro;
  if (mlirValueIsABlockArgument(v)) {
    param(g, FK_PARAM_SCALAR, (int)mlirBlockArgumentGetArgNumber(v), -1, r.name);
  } else {
    MlirOperation op = owner(v);
    fuser_op_id id = fuser_op_id_of(op);
    if (id == FUSER_OP_scalar) {
      MlirAttribute a = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("value"));
      double val = mlirAttributeIsAFloat(a) ? mlirFloatAttrGetValueDouble(a)
                   : mlirAttributeIsABool(a) ? mlirBoolAttrGetValue(a)
                                              : (double)mlirIntegerAttrGetValueInt(a);
      if (!is_float(r.dt) && r.dt != FUSER_DTYPE_I1 && mlirAttributeIsAInteger(a)) {
        fresh(g, r.name);
        emit(g, "%s = arith.constant %lld : %s", r.name, (long long)mlirIntegerAttrGetValueInt(a),
             fuser_dtype_mlir_name(r.dt));
      } else fconst(g, val, r.dt, false, r.name);
    } else if (id != FUSER_OP_NONE) {
      kval ops[3];
      int n = (int)mlirOperationGetNumOperands(op);
      for (int i = 0; i < n && i < 3; i++) ops[i] = scalar_of(g, mlirOperationGetOperand(op, i));
      int saved_w = g->W;
      g->W = 1;
      r = elementwise(g, op, id, ops, n, r.dt);
      g->W = saved_w;
    } else {
      fail_op(g, op, "lowering: unsupported scalar producer");
    }
  }
  g->cur = save;
  if (g->nscalars < 256) g->scalars[g->nscalars++] = (struct scalar_memo){v.ptr, r};
  return r;
}

/* ---- elementwise ops ------------------------------------------------------ */

/* The type an op computes in: its result type, with bf16/f16 widened to f32;
 * comparisons compute in the operands' common type. */
static fuser_dtype compute_type(fuser_op_id id, kval *x, int n, fuser_dtype out_dt) {
  fuser_rule rule = fuser_op_rule_of(id);
  if (rule == FUSER_RULE_COMPARE || (rule == FUSER_RULE_BOOL && id != FUSER_OP_logical_and &&
                                     id != FUSER_OP_logical_or && id != FUSER_OP_logical_not)) {
    bool any_float = false, any_f64 = false, any_i64 = false;
    for (int i = 0; i < n; i++) {
      any_float |= is_float(x[i].dt);
      any_f64 |= x[i].dt == FUSER_DTYPE_F64;
      any_i64 |= x[i].dt == FUSER_DTYPE_I64;
    }
    if (any_float) return any_f64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32;
    return any_i64 ? FUSER_DTYPE_I64 : FUSER_DTYPE_I32;
  }
  if (id == FUSER_OP_logical_and || id == FUSER_OP_logical_or || id == FUSER_OP_logical_not) return FUSER_DTYPE_I1;
  if (out_dt == FUSER_DTYPE_BF16 || out_dt == FUSER_DTYPE_F16) return FUSER_DTYPE_F32;
  return out_dt;
}

static kval op1(gen *g, const char *opname, kval a) {
  kval r = {.vec = a.vec, .dt = a.dt};
  char ty[NAME];
  type_str(g, a.dt, a.vec, ty);
  fresh(g, r.name);
  emit(g, "%s = %s %s : %s", r.name, opname, a.name, ty);
  return r;
}

static kval op2(gen *g, const char *opname, kval a, kval b) {
  kval r = {.vec = a.vec, .dt = a.dt};
  char ty[NAME];
  type_str(g, a.dt, a.vec, ty);
  fresh(g, r.name);
  emit(g, "%s = %s %s, %s : %s", r.name, opname, a.name, b.name, ty);
  return r;
}

static kval cmp(gen *g, const char *pred, kval a, kval b) {
  kval r = {.vec = a.vec, .dt = FUSER_DTYPE_I1};
  char ty[NAME];
  type_str(g, a.dt, a.vec, ty);
  fresh(g, r.name);
  emit(g, "%s = arith.%s %s, %s, %s : %s", r.name, is_float(a.dt) ? "cmpf" : "cmpi", pred, a.name, b.name, ty);
  return r;
}

static kval select3(gen *g, kval c, kval a, kval b) {
  kval r = {.vec = a.vec, .dt = a.dt};
  char ty[NAME], cty[NAME];
  type_str(g, a.dt, a.vec, ty);
  type_str(g, FUSER_DTYPE_I1, c.vec, cty);
  fresh(g, r.name);
  emit(g, "%s = arith.select %s, %s, %s : %s, %s", r.name, c.name, a.name, b.name, cty, ty);
  return r;
}

static kval kconst(gen *g, double v, kval like) {
  kval r = {.vec = like.vec, .dt = like.dt};
  fconst(g, v, like.dt, like.vec, r.name);
  return r;
}

static kval elementwise(gen *g, MlirOperation op, fuser_op_id id, kval *x, int n, fuser_dtype out_dt) {
  bool vec = false;
  for (int i = 0; i < n; i++) vec |= x[i].vec;
  if (id == FUSER_OP_cast) {
    kval a = vec ? splat(g, x[0]) : x[0];
    if ((a.dt == FUSER_DTYPE_BF16 || a.dt == FUSER_DTYPE_F16) && !is_float(out_dt)) a = convert(g, a, FUSER_DTYPE_F32);
    return convert(g, a, out_dt);
  }
  fuser_dtype ct = compute_type(id, x, n, out_dt);
  kval a[3];
  for (int i = 0; i < n && i < 3; i++) {
    a[i] = x[i];
    if (id == FUSER_OP_where && i == 0) a[i] = convert(g, a[i], FUSER_DTYPE_I1);
    else if (id == FUSER_OP_where) a[i] = convert(g, a[i], out_dt);
    else {
      if ((a[i].dt == FUSER_DTYPE_BF16 || a[i].dt == FUSER_DTYPE_F16) && ct != FUSER_DTYPE_F32 &&
          ct != FUSER_DTYPE_F64)
        a[i] = convert(g, a[i], FUSER_DTYPE_F32);
      a[i] = convert(g, a[i], ct);
    }
    if (vec) a[i] = splat(g, a[i]);
  }
  bool fl = is_float(ct);
  kval r;
  switch (id) {
  case FUSER_OP_neg: r = fl ? op1(g, "arith.negf", a[0]) : op2(g, "arith.subi", kconst(g, 0, a[0]), a[0]); break;
  case FUSER_OP_abs: r = op1(g, fl ? "math.absf" : "math.absi", a[0]); break;
  case FUSER_OP_exp: r = op1(g, "math.exp", a[0]); break;
  case FUSER_OP_exp2: r = op1(g, "math.exp2", a[0]); break;
  case FUSER_OP_expm1: r = op1(g, "math.expm1", a[0]); break;
  case FUSER_OP_log: r = op1(g, "math.log", a[0]); break;
  case FUSER_OP_log1p: r = op1(g, "math.log1p", a[0]); break;
  case FUSER_OP_log2: r = op1(g, "math.log2", a[0]); break;
  case FUSER_OP_sqrt: r = op1(g, "math.sqrt", a[0]); break;
  case FUSER_OP_rsqrt: r = op1(g, "math.rsqrt", a[0]); break;
  case FUSER_OP_sin: r = op1(g, "math.sin", a[0]); break;
  case FUSER_OP_cos: r = op1(g, "math.cos", a[0]); break;
  case FUSER_OP_tan: r = op1(g, "math.tan", a[0]); break;
  case FUSER_OP_tanh: r = op1(g, "math.tanh", a[0]); break;
  case FUSER_OP_erf: r = op1(g, "math.erf", a[0]); break;
  case FUSER_OP_ceil: r = fl ? op1(g, "math.ceil", a[0]) : a[0]; break;
  case FUSER_OP_floor: r = fl ? op1(g, "math.floor", a[0]) : a[0]; break;
  case FUSER_OP_round: r = fl ? op1(g, "math.roundeven", a[0]) : a[0]; break;
  case FUSER_OP_trunc: r = fl ? op1(g, "math.trunc", a[0]) : a[0]; break;
  case FUSER_OP_reciprocal: r = op2(g, "arith.divf", kconst(g, 1, a[0]), a[0]); break;
  case FUSER_OP_sigmoid:
  case FUSER_OP_silu: {
    kval e = op1(g, "math.exp", op1(g, "arith.negf", a[0]));
    kval one = kconst(g, 1, a[0]);
    r = op2(g, "arith.divf", one, op2(g, "arith.addf", one, e));
    if (id == FUSER_OP_silu) r = op2(g, "arith.mulf", a[0], r);
    break;
  }
  case FUSER_OP_relu: r = op2(g, fl ? "arith.maximumf" : "arith.maxsi", a[0], kconst(g, 0, a[0])); break;
  case FUSER_OP_sign: {
    kval z = kconst(g, 0, a[0]);
    kval pos = cmp(g, fl ? "ogt" : "sgt", a[0], z), negc = cmp(g, fl ? "olt" : "slt", a[0], z);
    r = select3(g, pos, kconst(g, 1, a[0]), select3(g, negc, kconst(g, -1, a[0]), a[0]));
    break;
  }
  case FUSER_OP_isnan: r = fl ? cmp(g, "uno", a[0], a[0]) : cmp(g, "ne", a[0], a[0]); break;
  case FUSER_OP_isinf:
    r = fl ? cmp(g, "oeq", op1(g, "math.absf", a[0]), kconst(g, INFINITY, a[0])) : cmp(g, "ne", a[0], a[0]);
    break;
  case FUSER_OP_logical_not: r = op2(g, "arith.xori", a[0], kconst(g, 1, a[0])); break;
  case FUSER_OP_bitwise_not: r = op2(g, "arith.xori", a[0], kconst(g, -1, a[0])); break;
  case FUSER_OP_add: r = op2(g, fl ? "arith.addf" : "arith.addi", a[0], a[1]); break;
  case FUSER_OP_sub: r = op2(g, fl ? "arith.subf" : "arith.subi", a[0], a[1]); break;
  case FUSER_OP_mul: r = op2(g, fl ? "arith.mulf" : "arith.muli", a[0], a[1]); break;
  case FUSER_OP_div: r = op2(g, fl ? "arith.divf" : "arith.divsi", a[0], a[1]); break;
  case FUSER_OP_fmod: r = op2(g, fl ? "arith.remf" : "arith.remsi", a[0], a[1]); break;
  case FUSER_OP_pow:
    if (!fl) return fail_op(g, op, "lowering: integer pow is not supported"), a[0];
    r = op2(g, "math.powf", a[0], a[1]);
    break;
  case FUSER_OP_maximum: r = op2(g, fl ? "arith.maximumf" : "arith.maxsi", a[0], a[1]); break;
  case FUSER_OP_minimum: r = op2(g, fl ? "arith.minimumf" : "arith.minsi", a[0], a[1]); break;
  case FUSER_OP_atan2: r = op2(g, "math.atan2", a[0], a[1]); break;
  case FUSER_OP_remainder: { /* Python's modulo: the sign of the divisor */
    kval m = op2(g, fl ? "arith.remf" : "arith.remsi", a[0], a[1]), z = kconst(g, 0, a[0]);
    kval nz = cmp(g, fl ? "une" : "ne", m, z);
    kval diff = op2(g, "arith.xori", cmp(g, fl ? "olt" : "slt", m, z), cmp(g, fl ? "olt" : "slt", a[1], z));
    kval fix = op2(g, "arith.andi", nz, diff);
    r = select3(g, fix, op2(g, fl ? "arith.addf" : "arith.addi", m, a[1]), m);
    break;
  }
  case FUSER_OP_eq: r = cmp(g, fl ? "oeq" : "eq", a[0], a[1]); break;
  case FUSER_OP_ne: r = cmp(g, fl ? "une" : "ne", a[0], a[1]); break;
  case FUSER_OP_lt: r = cmp(g, fl ? "olt" : "slt", a[0], a[1]); break;
  case FUSER_OP_le: r = cmp(g, fl ? "ole" : "sle", a[0], a[1]); break;
  case FUSER_OP_gt: r = cmp(g, fl ? "ogt" : "sgt", a[0], a[1]); break;
  case FUSER_OP_ge: r = cmp(g, fl ? "oge" : "sge", a[0], a[1]); break;
  case FUSER_OP_logical_and:
  case FUSER_OP_bitwise_and: r = op2(g, "arith.andi", a[0], a[1]); break;
  case FUSER_OP_logical_or:
  case FUSER_OP_bitwise_or: r = op2(g, "arith.ori", a[0], a[1]); break;
  case FUSER_OP_bitwise_xor: r = op2(g, "arith.xori", a[0], a[1]); break;
  case FUSER_OP_where: r = select3(g, a[0], a[1], a[2]); break;
  case FUSER_OP_clamp:
    r = op2(g, fl ? "arith.minimumf" : "arith.minsi", op2(g, fl ? "arith.maximumf" : "arith.maxsi", a[0], a[1]), a[2]);
    break;
  case FUSER_OP_lerp:
    if (!fl) return fail_op(g, op, "lowering: integer lerp is not supported"), a[0];
    r = op2(g, "arith.addf", a[0], op2(g, "arith.mulf", a[2], op2(g, "arith.subf", a[1], a[0])));
    break;
  default: return fail_op(g, op, "lowering: unsupported elementwise op"), a[0];
  }
  return convert(g, r, out_dt);
}

/* ---- the walker ----------------------------------------------------------- */

static kval visit(gen *g, MlirValue v, const idx_t *ix);

static void idx_zero(gen *g, idx_t *o, int j) {
  cidx(g, 0, o->name[j]);
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
    if (static_dim(operand, j) == 1 && static_dim(result, j) != 1) idx_zero(g, o, j);
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

/* The element offset of index ix into tensor t. */
static void address(gen *g, int t, const idx_t *ix, char *out) {
  const fk_tensor *ten = &g->k->t[t];
  char zero[NAME];
  snprintf(out, NAME, "%s", cidx(g, 0, zero));
  for (int j = 0; j < ten->rank; j++) {
    if (ten->strides[j] == 0 || is_zero(ix->name[j])) continue;
    char s[NAME], term[NAME], sum[NAME];
    if (ten->strides[j] == FK_DYN) param(g, FK_PARAM_STRIDE, t, j, s);
    else cidx(g, ten->strides[j], s);
    imul(g, ix->name[j], s, term);
    iadd(g, out, term, sum);
    memcpy(out, sum, NAME);
  }
}

/* Element stride of this access along the innermost iteration dim; FK_DYN
 * when it depends on a run-time stride (then `name` holds it). */
static int64_t lane_stride(gen *g, int t, const idx_t *ix, char *name) {
  const fk_tensor *ten = &g->k->t[t];
  int d = g->k->rank - 1;
  int64_t s = 0;
  bool dyn = false;
  cidx(g, 0, name);
  for (int j = 0; j < ten->rank && d >= 0; j++) {
    if (!ix->coef[j][d]) continue;
    char st[NAME], sum[NAME];
    if (ten->strides[j] == FK_DYN) {
      dyn = true;
      param(g, FK_PARAM_STRIDE, t, j, st);
    } else {
      s += ten->strides[j] * ix->coef[j][d];
      cidx(g, ten->strides[j], st);
    }
    strbuf *save = g->cur;
    g->cur = g->pro;
    iadd(g, name, st, sum);
    g->cur = save;
    memcpy(name, sum, NAME);
  }
  return dyn ? FK_DYN : s;
}

static void record_access(gen *g, int t, const idx_t *ix) {
  if (!g->analysis || g->k->num_accesses >= FK_MAX_ACCESSES) return;
  fk_access *a = &g->k->acc[g->k->num_accesses++];
  a->tensor = t;
  a->opaque = ix->opaque;
  memcpy(a->coef, ix->coef, sizeof a->coef);
  memcpy(a->off, ix->off, sizeof a->off);
}

static kval load(gen *g, int t, const idx_t *ix) {
  record_access(g, t, ix);
  const fk_tensor *ten = &g->k->t[t];
  kval r = {.vec = g->W > 1, .dt = ten->dtype};
  bool is_bool = ten->dtype == FUSER_DTYPE_I1;
  fuser_dtype sdt = is_bool ? FUSER_DTYPE_I32 : ten->dtype; /* placeholder for type_str below */
  const char *st = storage_type(ten->dtype);
  char m[NAME], addr[NAME], ls[NAME], vty[NAME];
  mem(g, t, m);
  address(g, t, ix, addr);
  int64_t s = g->W > 1 ? lane_stride(g, t, ix, ls) : 0;
  snprintf(vty, NAME, "vector<%dx%s>", g->W, st);
  (void)sdt;
  char raw[NAME];
  fresh(g, raw);
  if (g->W == 1 || s == 0) {
    emit(g, "%s = memref.load %s[%s] : memref<?x%s>", raw, m, addr, st);
    if (g->W > 1) {
      char b[NAME];
      fresh(g, b);
      emit(g, "%s = vector.broadcast %s : %s to %s", b, raw, st, vty);
      memcpy(raw, b, NAME);
    }
  } else if (s == 1) {
    emit(g, "%s = vector.load %s[%s] {alignment = %d : i64} : memref<?x%s>, %s", raw, m, addr,
         (int)(g->W * fuser_dtype_size(ten->dtype)), st, vty);
  } else { /* gather: W scalar loads */
    char lanes[FK_R * 4][NAME], cur[NAME];
    memcpy(cur, addr, NAME);
    strbuf list = {0};
    for (int l = 0; l < g->W; l++) {
      fresh(g, lanes[l]);
      emit(g, "%s = memref.load %s[%s] : memref<?x%s>", lanes[l], m, cur, st);
      sb_printf(&list, "%s%s", l ? ", " : "", lanes[l]);
      char nx[NAME];
      iadd(g, cur, ls, nx);
      memcpy(cur, nx, NAME);
    }
    emit(g, "%s = vector.from_elements %s : %s", raw, list.data, vty);
    sb_free(&list);
  }
  if (is_bool) {
    char z[NAME];
    fresh(g, r.name);
    strbuf *save = g->cur;
    g->cur = g->pro;
    char zs[NAME];
    fresh(g, zs);
    emit(g, "%s = arith.constant 0 : i8", zs);
    if (g->W > 1) {
      fresh(g, z);
      emit(g, "%s = vector.broadcast %s : i8 to %s", z, zs, vty);
    } else memcpy(z, zs, NAME);
    g->cur = save;
    emit(g, "%s = arith.cmpi ne, %s, %s : %s", r.name, raw, z, g->W > 1 ? vty : "i8");
  } else memcpy(r.name, raw, NAME);
  return r;
}

static void store(gen *g, int t, const idx_t *ix, kval v) {
  record_access(g, t, ix);
  const fk_tensor *ten = &g->k->t[t];
  v = convert(g, v, ten->dtype);
  if (g->W > 1) v = splat(g, v);
  const char *st = storage_type(ten->dtype);
  char m[NAME], addr[NAME], ls[NAME], vty[NAME];
  snprintf(vty, NAME, "vector<%dx%s>", g->W, st);
  if (ten->dtype == FUSER_DTYPE_I1) {
    char e[NAME];
    fresh(g, e);
    emit(g, "%s = arith.extui %s : %s to %s", e, v.name, g->W > 1 ? (snprintf(ls, NAME, "vector<%dxi1>", g->W), ls) : "i1",
         g->W > 1 ? vty : "i8");
    memcpy(v.name, e, NAME);
  }
  mem(g, t, m);
  address(g, t, ix, addr);
  int64_t s = g->W > 1 ? lane_stride(g, t, ix, ls) : 0;
  if (g->W == 1) {
    emit(g, "memref.store %s, %s[%s] : memref<?x%s>", v.name, m, addr, st);
  } else if (s == 1) {
    emit(g, "vector.store %s, %s[%s] {alignment = %d : i64} : memref<?x%s>, %s", v.name, m, addr,
         (int)(g->W * fuser_dtype_size(ten->dtype)), st, vty);
  } else {
    char cur[NAME];
    memcpy(cur, addr, NAME);
    for (int l = 0; l < g->W; l++) {
      char e[NAME], nx[NAME];
      fresh(g, e);
      emit(g, "%s = vector.extract %s[%d] : %s from %s", e, v.name, l, st, vty);
      emit(g, "memref.store %s, %s[%s] : memref<?x%s>", e, m, cur, st);
      iadd(g, cur, ls, nx);
      memcpy(cur, nx, NAME);
    }
  }
}

/* Linear index of ix over the extents of v, then delinearized over the
 * extents of `to` (reshape of a computed value). */
static void reshape_index(gen *g, MlirValue from, const idx_t *ix, MlirValue to, idx_t *o) {
  char lin[NAME];
  cidx(g, 0, lin);
  for (int j = 0; j < ix->rank; j++) {
    char t1[NAME], t2[NAME];
    imul(g, lin, dim_of(g, from, j).name, t1);
    iadd(g, t1, ix->name[j], t2);
    memcpy(lin, t2, NAME);
  }
  o->rank = tensor_rank(to);
  o->opaque = true;
  memset(o->coef, 0, sizeof o->coef);
  memset(o->off, 0, sizeof o->off);
  for (int j = o->rank - 1; j >= 0; j--) {
    dimv e = dim_of(g, to, j);
    if (j == 0) { memcpy(o->name[0], lin, NAME); break; }
    fresh(g, o->name[j]);
    emit(g, "%s = arith.remui %s, %s : index", o->name[j], lin, e.name);
    char q[NAME];
    fresh(g, q);
    emit(g, "%s = arith.divui %s, %s : index", q, lin, e.name);
    memcpy(lin, q, NAME);
  }
}

static kval visit_cat(gen *g, MlirOperation op, MlirValue v, const idx_t *ix) {
  int64_t cd = 0;
  fuser_get_i64(op, "dim", &cd);
  if (cd < 0) cd += ix->rank;
  MlirValue lhs = mlirOperationGetOperand(op, 0), rhs = mlirOperationGetOperand(op, 1);
  dimv e = dim_of(g, lhs, (int)cd);
  record_boundary(g, ix, (int)cd, e);
  kval r = {.vec = g->W > 1, .dt = fuser_value_dtype(v)};
  char p[NAME], ty[NAME];
  type_str(g, r.dt, r.vec, ty);
  fresh(g, p);
  emit(g, "%s = arith.cmpi slt, %s, %s : index", p, ix->name[cd], e.name);
  fresh(g, r.name);
  emit(g, "%s = scf.if %s -> (%s) {", r.name, p, ty);
  scope_push(g);
  kval a = visit(g, lhs, ix);
  emit(g, "scf.yield %s : %s", a.name, ty);
  scope_pop(g);
  emit(g, "} else {");
  scope_push(g);
  idx_t o = *ix;
  fresh(g, o.name[cd]);
  emit(g, "%s = arith.subi %s, %s : index", o.name[cd], ix->name[cd], e.name);
  if (e.value != FK_DYN) o.off[cd] -= e.value;
  else o.opaque = o.opaque || e.src_tensor < 0;
  kval b = visit(g, rhs, &o);
  emit(g, "scf.yield %s : %s", b.name, ty);
  scope_pop(g);
  emit(g, "}");
  return r;
}

static kval visit_pad(gen *g, MlirOperation op, MlirValue v, const idx_t *ix) {
  int64_t w[2 * FK_R];
  int n = fuser_get_i64_array(op, "pad_widths", w, 2 * FK_R);
  MlirValue in = mlirOperationGetOperand(op, 0);
  kval r = {.vec = g->W > 1, .dt = fuser_value_dtype(v)};
  char cond[NAME] = "", ty[NAME];
  type_str(g, r.dt, r.vec, ty);
  idx_t o = *ix;
  for (int p = 0; 2 * p + 1 < n && p < ix->rank; p++) {
    int j = ix->rank - 1 - p;
    int64_t lo = w[2 * p], hi = w[2 * p + 1];
    if (lo == 0 && hi == 0) continue;
    dimv e = dim_of(g, in, j);
    char lo_n[NAME], hi_n[NAME], c1[NAME], c2[NAME], c[NAME];
    cidx(g, lo, lo_n);
    {
      strbuf *save = g->cur;
      g->cur = g->pro;
      iaddc(g, e.name, lo, hi_n);
      g->cur = save;
    }
    dimv lo_d = {.value = lo, .src_tensor = -1};
    dimv hi_d = {.value = e.value == FK_DYN ? FK_DYN : e.value + lo, .src_tensor = e.src_tensor, .src_dim = e.src_dim,
                 .shift = e.shift + lo};
    record_boundary(g, ix, j, lo_d);
    record_boundary(g, ix, j, hi_d);
    fresh(g, c1);
    emit(g, "%s = arith.cmpi sge, %s, %s : index", c1, ix->name[j], lo_n);
    fresh(g, c2);
    emit(g, "%s = arith.cmpi slt, %s, %s : index", c2, ix->name[j], hi_n);
    fresh(g, c);
    emit(g, "%s = arith.andi %s, %s : i1", c, c1, c2);
    if (cond[0]) {
      char cc[NAME];
      fresh(g, cc);
      emit(g, "%s = arith.andi %s, %s : i1", cc, cond, c);
      memcpy(cond, cc, NAME);
    } else memcpy(cond, c, NAME);
    iaddc(g, ix->name[j], -lo, o.name[j]);
    o.off[j] -= lo;
  }
  if (!cond[0]) return visit(g, in, ix);
  fresh(g, r.name);
  emit(g, "%s = scf.if %s -> (%s) {", r.name, cond, ty);
  scope_push(g);
  kval a = visit(g, in, &o);
  emit(g, "scf.yield %s : %s", a.name, ty);
  scope_pop(g);
  emit(g, "} else {");
  scope_push(g);
  kval pv = convert(g, scalar_of(g, mlirOperationGetOperand(op, 1)), r.dt);
  pv = splat(g, pv);
  emit(g, "scf.yield %s : %s", pv.name, ty);
  scope_pop(g);
  emit(g, "}");
  return r;
}

/* A reduction at one output point: loops over the reduced dims, f32/f64/i64
 * accumulation (the simple correct kernel; only in the scalar variant). */
static kval visit_reduction(gen *g, MlirOperation op, fuser_op_id id, MlirValue v, const idx_t *ix) {
  if (g->W > 1) return fail_op(g, op, "lowering: reductions need the scalar variant (vector width 1)"), (kval){0};
  int64_t dims[FK_R], keep = 0;
  int nd = fuser_get_i64_array(op, "dims", dims, FK_R);
  fuser_get_i64(op, "keepdim", &keep);
  MlirValue in = mlirOperationGetOperand(op, 0);
  int in_rank = tensor_rank(in);
  fuser_dtype in_dt = fuser_value_dtype(in), out_dt = fuser_value_dtype(v);
  fuser_dtype acc = is_float(out_dt) || is_float(in_dt) ? (out_dt == FUSER_DTYPE_F64 ? FUSER_DTYPE_F64 : FUSER_DTYPE_F32)
                                                        : FUSER_DTYPE_I64;
  idx_t o = {.rank = in_rank, .opaque = true};
  bool red[FK_R] = {0};
  for (int q = 0; q < nd; q++) red[dims[q] < 0 ? dims[q] + in_rank : dims[q]] = true;
  double init = id == FUSER_OP_sum ? 0 : id == FUSER_OP_prod ? 1 : id == FUSER_OP_max ? -INFINITY : INFINITY;
  if (!is_float(acc) && id == FUSER_OP_max) init = (double)INT64_MIN;
  if (!is_float(acc) && id == FUSER_OP_min) init = (double)INT64_MAX;
  kval cur = kconst(g, init, (kval){.dt = acc});
  char ty[NAME], results[FK_R][NAME];
  type_str(g, acc, false, ty);
  int out = 0, nloops = 0;
  for (int i = 0; i < in_rank; i++) {
    if (red[i]) {
      char iv[NAME], res[NAME], it[NAME];
      snprintf(iv, NAME, "%%r%d", g->counter++);
      fresh(g, res);
      snprintf(it, NAME, "%%acc%d", g->counter++);
      char lo[NAME], step[NAME];
      cidx(g, 0, lo);
      cidx(g, 1, step);
      emit(g, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {", res, iv, lo, dim_of(g, in, i).name,
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
  kval x = convert(g, visit(g, in, &o), acc);
  bool fl = is_float(acc);
  kval next;
  switch (id) {
  case FUSER_OP_sum: next = op2(g, fl ? "arith.addf" : "arith.addi", cur, x); break;
  case FUSER_OP_prod: next = op2(g, fl ? "arith.mulf" : "arith.muli", cur, x); break;
  case FUSER_OP_max: next = op2(g, fl ? "arith.maximumf" : "arith.maxsi", cur, x); break;
  default: next = op2(g, fl ? "arith.minimumf" : "arith.minsi", cur, x); break;
  }
  for (int l = nloops - 1; l >= 0; l--) {
    emit(g, "scf.yield %s : %s", next.name, ty);
    scope_pop(g);
    emit(g, "}");
    memcpy(next.name, results[l], NAME);
  }
  return convert(g, next, out_dt);
}

static kval visit(gen *g, MlirValue v, const idx_t *ix) {
  if (g->failed) return (kval){.name = "%c0"};
  if (!fuser_value_is_tensor(v)) {
    kval s = scalar_of(g, v);
    return g->W > 1 ? splat(g, s) : s;
  }
  char *key = idx_key(ix);
  kval r;
  if (memo_find(g, v.ptr, key, &r)) {
    free(key);
    return r;
  }
  if (mlirValueIsABlockArgument(v)) {
    r = load(g, (int)mlirBlockArgumentGetArgNumber(v), ix);
    memo_add(g, v.ptr, key, r);
    return r;
  }
  MlirOperation op = owner(v);
  fuser_op_id id = fuser_op_id_of(op);
  fuser_op_kind kind = fuser_op_kind_of(id);
  fuser_dtype out_dt = fuser_value_dtype(v);
  int64_t a[2 * FK_R];
  int n;
  idx_t o = {.rank = 0, .opaque = ix->opaque};
  if (id == FUSER_OP_NONE) {
    fail_op(g, op, "lowering: a kernel body may only hold fuser ops");
    r = (kval){.name = "%c0"};
  } else if (kind == FUSER_KIND_UNARY || kind == FUSER_KIND_BINARY || kind == FUSER_KIND_TERNARY) {
    kval x[3];
    int no = (int)mlirOperationGetNumOperands(op);
    for (int i = 0; i < no && i < 3; i++) {
      MlirValue operand = mlirOperationGetOperand(op, i);
      if (fuser_value_is_tensor(operand)) {
        same_rank_operand(g, operand, v, ix, &o);
        x[i] = visit(g, operand, &o);
      } else {
        x[i] = scalar_of(g, operand);
      }
    }
    r = elementwise(g, op, id, x, no, out_dt);
  } else if (id == FUSER_OP_set || id == FUSER_OP_segment_set) {
    r = visit(g, mlirOperationGetOperand(op, 0), ix);
  } else if (id == FUSER_OP_slice) {
    n = fuser_get_i64_array(op, "start_indices", a, FK_R);
    o = *ix;
    for (int j = 0; j < n && j < ix->rank; j++) {
      iaddc(g, ix->name[j], a[j], o.name[j]);
      o.off[j] += a[j];
    }
    r = visit(g, mlirOperationGetOperand(op, 0), &o);
  } else if (id == FUSER_OP_permute) {
    /* result dim j is input dim dims[j] */
    n = fuser_get_i64_array(op, "dims", a, FK_R);
    o.rank = ix->rank;
    for (int j = 0; j < n; j++) idx_copy_dim(&o, (int)a[j], ix, j);
    r = visit(g, mlirOperationGetOperand(op, 0), &o);
  } else if (id == FUSER_OP_broadcast_in_dim || id == FUSER_OP_expand || id == FUSER_OP_broadcast ||
             id == FUSER_OP_squeeze) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    o.rank = tensor_rank(in);
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
        if (static_dim(in, i) == 1) idx_zero(g, &o, i);
    r = visit(g, in, &o);
  } else if (id == FUSER_OP_reshape) {
    g->k->has_reshape = true;
    if (g->W > 1) {
      fail_op(g, op, "lowering: reshape of a computed value needs the scalar variant (vector width 1)");
      r = (kval){.name = "%c0"};
    } else {
      MlirValue in = mlirOperationGetOperand(op, 0);
      reshape_index(g, v, ix, in, &o);
      r = visit(g, in, &o);
    }
  } else if (id == FUSER_OP_cat) {
    r = visit_cat(g, op, v, ix);
  } else if (id == FUSER_OP_pad) {
    r = visit_pad(g, op, v, ix);
  } else if (kind == FUSER_KIND_REDUCTION) {
    g->k->has_reduction = true;
    r = visit_reduction(g, op, id, v, ix);
  } else if (id == FUSER_OP_full) {
    r = convert(g, scalar_of(g, mlirOperationGetOperand(op, 0)), out_dt);
    r = splat(g, r);
  } else if (id == FUSER_OP_iota) {
    g->k->has_reshape = true; /* index-dependent values: the scalar variant */
    kval start = scalar_of(g, mlirOperationGetOperand(op, 1)), step = scalar_of(g, mlirOperationGetOperand(op, 2));
    kval i = {.dt = FUSER_DTYPE_I64};
    if (g->W > 1) {
      fail_op(g, op, "lowering: iota needs the scalar variant (vector width 1)");
      r = (kval){.name = "%c0"};
    } else {
      fresh(g, i.name);
      emit(g, "%s = arith.index_cast %s : index to i64", i.name, ix->name[0]);
      kval ic = convert(g, i, out_dt);
      r = op2(g, is_float(out_dt) ? "arith.addf" : "arith.addi", convert(g, start, out_dt),
              op2(g, is_float(out_dt) ? "arith.mulf" : "arith.muli", ic, convert(g, step, out_dt)));
    }
  } else {
    fail_op(g, op, "lowering: op not supported in kernels yet");
    r = (kval){.name = "%c0"};
  }
  memo_add(g, v.ptr, key, r);
  return r;
}

/* ---- one point of the iteration space ------------------------------------ */

/* Delinearizes the flat element index `e` into iteration indices and emits
 * the loads, compute and stores of every result there. */
static void emit_point(gen *g, const char *e) {
  fk_kernel *k = g->k;
  idx_t ix = {.rank = k->rank};
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(k->func, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  char lin[NAME];
  snprintf(lin, NAME, "%s", e);
  if (g->flat && k->rank > 0) {
    /* Every access walks the whole space as one linear run (its strides
     * nest: stride(d) = stride(d+1) * extent(d+1)), so its offset is
     * sum_d i_d * stride(d) = e * stride(innermost): indices (0, ..., 0, e)
     * give that offset with no division. */
    for (int d = 0; d < k->rank; d++) {
      memset(ix.coef[d], 0, sizeof ix.coef[d]);
      ix.coef[d][d] = 1;
      ix.off[d] = 0;
      if (d < k->rank - 1) cidx(g, 0, ix.name[d]);
      else memcpy(ix.name[d], lin, NAME);
    }
  }
  for (int d = k->rank - 1; d >= 0 && !g->flat; d--) {
    memset(ix.coef[d], 0, sizeof ix.coef[d]);
    ix.coef[d][d] = 1;
    ix.off[d] = 0;
    if (k->extent[d] == 1) { cidx(g, 0, ix.name[d]); continue; }
    if (d == 0) { memcpy(ix.name[0], lin, NAME); break; }
    dimv ext;
    if (k->extent[d] == FK_DYN) param(g, FK_PARAM_SIZE, k->num_args, d, ext.name);
    else cidx(g, k->extent[d], ext.name);
    fresh(g, ix.name[d]);
    emit(g, "%s = arith.remui %s, %s : index", ix.name[d], lin, ext.name);
    char q[NAME];
    fresh(g, q);
    emit(g, "%s = arith.divui %s, %s : index", q, lin, ext.name);
    memcpy(lin, q, NAME);
  }
  for (int j = 0; j < k->num_results && !g->failed; j++) {
    kval v = visit(g, mlirOperationGetOperand(ret, j), &ix);
    store(g, k->num_args + j, &ix, v);
  }
  while (g->nmemo > 0) free(g->memo[--g->nmemo].idx);
}

static void gen_init(gen *g, fk_kernel *k, strbuf *pro, strbuf *body, fk_param *params) {
  memset(g, 0, sizeof *g);
  g->k = k;
  g->pro = pro;
  g->body = g->cur = body;
  g->params = params;
  g->W = 1;
  /* One parameter list for every variant of a kernel, in a fixed order: a
   * pointer per tensor, then each `?` size and run-time stride, tensor by
   * tensor, then the scalar arguments. (A variant may leave some unused.) */
  char nm[NAME];
  for (int t = 0; t < k->num_tensors; t++)
    if (k->t[t].is_tensor) param(g, FK_PARAM_PTR, t, -1, nm);
  /* Sizes and strides travel as i64 whatever the index width (one ABI for
   * both variants); the prologue casts them to index. */
  for (int t = 0; t < k->num_tensors; t++) {
    if (!k->t[t].is_tensor) continue;
    for (int kind = FK_PARAM_SIZE; kind <= FK_PARAM_STRIDE; kind++)
      for (int d = 0; d < k->t[t].rank; d++) {
        int64_t v = kind == FK_PARAM_SIZE ? k->t[t].shape[d] : k->t[t].strides[d];
        if (v != FK_DYN) continue;
        param(g, (fk_param_kind)kind, t, d, nm);
        sb_printf(g->pro, "  %s = arith.index_cast %s_i64 : i64 to index\n", nm, nm);
      }
  }
  for (int t = 0; t < k->num_args; t++)
    if (!k->t[t].is_tensor) param(g, FK_PARAM_SCALAR, t, -1, nm);
}

bool fk_kernel_analyze(fk_kernel *k) {
  strbuf pro = {0}, body = {0};
  fk_param params[FK_MAX_PARAMS];
  gen g;
  gen_init(&g, k, &pro, &body, params);
  g.analysis = true;
  k->num_accesses = k->num_boundaries = 0;
  emit_point(&g, "%e");
  free(g.memo);
  sb_free(&pro);
  sb_free(&body);
  return !g.failed;
}

bool fk_codegen(fk_kernel *k, const fk_codegen_options *opts, strbuf *out, fk_param *params, int *num_params) {
  strbuf pro = {0}, vbody = {0}, tbody = {0};
  gen g;
  gen_init(&g, k, &pro, &vbody, params);
  int W = opts->width, U = opts->unroll;
  g.flat = opts->flat;
  char c0[NAME], c1[NAME], cW[NAME], cU[NAME], n[NAME];
  cidx(&g, 0, c0);
  cidx(&g, 1, c1);
  cidx(&g, W, cW);
  cidx(&g, U, cU);
  /* total number of points */
  g.cur = g.pro;
  cidx(&g, 1, n);
  for (int d = 0; d < k->rank; d++) {
    char e[NAME], t[NAME];
    if (k->extent[d] == FK_DYN) param(&g, FK_PARAM_SIZE, k->num_args, d, e);
    else cidx(&g, k->extent[d], e);
    imul(&g, n, e, t);
    memcpy(n, t, NAME);
  }
  /* vector body */
  g.W = W;
  g.cur = &vbody;
  g.indent = 8;
  emit_point(&g, "%e");
  /* scalar tail */
  bool tail = W > 1 && opts->tail;
  if (tail) {
    g.W = 1;
    g.cur = &tbody;
    g.indent = 6;
    emit_point(&g, "%et");
  }
  *num_params = g.nparams;
  if (g.failed) goto done;
  sb_printf(out, "func.func @%.*s__%s(", (int)k->name_len, k->name, opts->variant);
  for (int i = 0; i < g.nparams; i++) {
    const fk_param *p = &params[i];
    char nm[NAME];
    param(&g, p->kind, p->tensor, p->dim, nm);
    if (i) sb_append(out, ", ");
    if (p->kind == FK_PARAM_PTR) sb_printf(out, "%s: memref<1x%s>", nm, storage_type(k->t[p->tensor].dtype));
    else if (p->kind == FK_PARAM_SCALAR) sb_printf(out, "%s: %s", nm, fuser_dtype_mlir_name(k->t[p->tensor].dtype));
    else sb_printf(out, "%s_i64: i64", nm);
  }
  sb_printf(out, ") attributes {fuser.loops, fuser.kernel_name = \"%.*s\", fuser.variant = \"%s\", "
                 "fuser.vector_width = %d : i64, fuser.unroll = %d : i64, fuser.index_bits = %d : i64, "
                 "fuser.num_args = %d : i64, fuser.params = [",
            (int)k->name_len, k->name, opts->variant, W, U, opts->index_bits, k->num_args);
  for (int i = 0; i < g.nparams; i++) {
    char desc[64];
    fk_param_format(&params[i], desc, sizeof desc);
    sb_printf(out, "%s\"%s\"", i ? ", " : "", desc);
  }
  sb_printf(out, "]%s%s} {\n", opts->extra_attrs ? ", " : "", opts->extra_attrs ? opts->extra_attrs : "");
  sb_append(out, pro.data);
  /* threads = max(ceil(nvec / U), tail): enough for the vectors and the tail */
  sb_printf(out, "  %%nvec = arith.divui %s, %s : index\n", n, cW);
  sb_printf(out, "  %%nvec_u = arith.ceildivui %%nvec, %s : index\n", cU);
  sb_printf(out, "  %%vend = arith.muli %%nvec, %s : index\n", cW);
  sb_printf(out, "  %%ntail = arith.subi %s, %%vend : index\n", n);
  sb_printf(out, "  %%nthreads = arith.maxui %%nvec_u, %%ntail : index\n");
  sb_printf(out, "  scf.parallel (%%t) = (%s) to (%%nthreads) step (%s) {\n", c0, c1);
  /* redundant here; on the GPU the grid is rounded up to whole blocks */
  sb_printf(out, "    %%tin = arith.cmpi ult, %%t, %%nthreads : index\n");
  sb_printf(out, "    scf.if %%tin {\n");
  sb_printf(out, "    scf.for %%u = %s to %s step %s {\n", c0, cU, c1);
  sb_printf(out, "      %%uq = arith.muli %%u, %%nthreads : index\n");
  sb_printf(out, "      %%q = arith.addi %%uq, %%t : index\n");
  sb_printf(out, "      %%inb = arith.cmpi ult, %%q, %%nvec : index\n");
  sb_printf(out, "      scf.if %%inb {\n");
  sb_printf(out, "        %%e = arith.muli %%q, %s : index\n", cW);
  sb_append(out, vbody.data);
  sb_printf(out, "      }\n    }\n");
  if (tail) {
    sb_printf(out, "    %%tail0 = arith.addi %%vend, %%t : index\n");
    sb_printf(out, "    scf.for %%et = %%tail0 to %s step %%nthreads {\n", n);
    sb_append(out, tbody.data);
    sb_printf(out, "    }\n");
  }
  sb_printf(out, "    }\n    scf.reduce\n  }\n  return\n}\n");
done:
  for (int i = 0; i < g.nmemo; i++) free(g.memo[i].idx);
  free(g.memo);
  sb_free(&pro);
  sb_free(&vbody);
  sb_free(&tbody);
  return !g.failed;
}
