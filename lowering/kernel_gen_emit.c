/* kernel_gen_emit.c: the text-emission layer of the kernel generator (see
 * kernel_gen_internal.h): fresh SSA names, lines into the prologue or the
 * body, index constants and index arithmetic, kernel parameters, value types
 * and dtype conversions. Separate because every other part of the generator
 * builds on it, and it knows nothing of the op DAG. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

/* ---- emission helpers ---------------------------------------------------- */

void kg_fresh(gen *g, char *out) { snprintf(out, NAME, "%%v%d", g->counter++); }

void kg_emit(gen *g, const char *fmt, ...) {
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

bool kg_fail_op(gen *g, MlirOperation op, const char *msg) {
  if (!g->failed) mlirEmitError(mlirOperationGetLocation(op), msg);
  g->failed = true;
  return false;
}

const char *kg_storage_type(fuser_dtype dt) { return dt == FUSER_DTYPE_I1 ? "i8" : fuser_dtype_mlir_name(dt); }

void kg_type_str(gen *g, fuser_dtype dt, bool vec, char *out) {
  if (vec) snprintf(out, NAME, "vector<%dx%s>", g->W, fuser_dtype_mlir_name(dt));
  else snprintf(out, NAME, "%s", fuser_dtype_mlir_name(dt));
}

/* An index constant, emitted once in the prologue. */
const char *kg_cidx(gen *g, int64_t v, char *out) {
  if (v >= 0) snprintf(out, NAME, "%%c%lld", (long long)v);
  else snprintf(out, NAME, "%%cm%lld", (long long)-v);
  char key[NAME + 8];
  snprintf(key, sizeof key, "  %s = ", out);
  if (!g->pro->data || !strstr(g->pro->data, key))
    sb_printf(g->pro, "  %s = arith.constant %lld : index\n", out, (long long)v);
  return out;
}

const char *kg_param(gen *g, fk_param_kind kind, int tensor, int dim, char *out) {
  static const char *prefix[] = {"ptr", "size", "stride", "scalar"};
  if (kind == FK_PARAM_SIZE || kind == FK_PARAM_STRIDE) snprintf(out, NAME, "%%%s_t%d_%d", prefix[kind], tensor, dim);
  else snprintf(out, NAME, "%%%s_t%d", prefix[kind], tensor);
  for (int i = 0; i < g->nparams; i++)
    if (g->params[i].kind == kind && g->params[i].tensor == tensor && (g->params[i].dim == dim)) return out;
  if (g->nparams < FK_MAX_PARAMS) g->params[g->nparams++] = (fk_param){kind, tensor, dim};
  return out;
}

bool kg_is_zero(const char *name) { return strcmp(name, "%c0") == 0; }

void kg_iadd(gen *g, const char *a, const char *b, char *out) {
  if (kg_is_zero(a)) { snprintf(out, NAME, "%s", b); return; }
  if (kg_is_zero(b)) { snprintf(out, NAME, "%s", a); return; }
  kg_fresh(g, out);
  kg_emit(g, "%s = arith.addi %s, %s : index", out, a, b);
}

void kg_imul(gen *g, const char *a, const char *b, char *out) {
  if (kg_is_zero(a) || kg_is_zero(b)) { snprintf(out, NAME, "%%c0"); return; }
  if (strcmp(b, "%c1") == 0) { snprintf(out, NAME, "%s", a); return; }
  if (strcmp(a, "%c1") == 0) { snprintf(out, NAME, "%s", b); return; }
  kg_fresh(g, out);
  kg_emit(g, "%s = arith.muli %s, %s : index", out, a, b);
}

void kg_iaddc(gen *g, const char *a, int64_t c, char *out) {
  char cn[NAME];
  if (c == 0) { snprintf(out, NAME, "%s", a); return; }
  kg_fresh(g, out);
  if (c > 0) kg_emit(g, "%s = arith.addi %s, %s : index", out, a, kg_cidx(g, c, cn));
  else kg_emit(g, "%s = arith.subi %s, %s : index", out, a, kg_cidx(g, -c, cn));
}
/* ---- values, types, conversions ----------------------------------------- */

MlirOperation kg_owner(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

int kg_tensor_rank(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }

int64_t kg_static_dim(MlirValue v, int j) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, j) ? FK_DYN : mlirShapedTypeGetDimSize(t, j);
}

bool kg_is_float(fuser_dtype dt) { return fuser_dtype_is_float(dt); }

/* A float constant of dtype dt (splat to a vector when vec), in the prologue. */
void kg_fconst(gen *g, double v, fuser_dtype dt, bool vec, char *out) {
  char s[NAME], ty[NAME];
  kg_fresh(g, s);
  strbuf *save = g->cur;
  g->cur = g->pro;
  if (dt == FUSER_DTYPE_I1) kg_emit(g, "%s = arith.constant %s", s, v != 0 ? "true" : "false");
  else if (kg_is_float(dt)) {
    union { double d; uint64_t u; } bits = {.d = v};
    if (isfinite(v)) kg_emit(g, "%s = arith.constant %.17e : %s", s, v, fuser_dtype_mlir_name(dt));
    else if (dt == FUSER_DTYPE_F64) kg_emit(g, "%s = arith.constant 0x%016llX : f64", s, (unsigned long long)bits.u);
    else kg_emit(g, "%s = arith.constant 0x%08X : %s", s, isnan(v) ? 0x7FC00000u : (v > 0 ? 0x7F800000u : 0xFF800000u), "f32");
  } else kg_emit(g, "%s = arith.constant %lld : %s", s, (long long)v, fuser_dtype_mlir_name(dt));
  if (vec) {
    kg_fresh(g, out);
    kg_type_str(g, dt, true, ty);
    kg_emit(g, "%s = vector.broadcast %s : %s to %s", out, s, fuser_dtype_mlir_name(dt), ty);
  } else snprintf(out, NAME, "%s", s);
  g->cur = save;
}

kval kg_splat(gen *g, kval x) {
  if (x.vec || g->W == 1) return x;
  kval r = {.vec = true, .dt = x.dt};
  char ty[NAME];
  kg_fresh(g, r.name);
  kg_type_str(g, x.dt, true, ty);
  kg_emit(g, "%s = vector.broadcast %s : %s to %s", r.name, x.name, fuser_dtype_mlir_name(x.dt), ty);
  return r;
}

kval kg_convert(gen *g, kval x, fuser_dtype to) {
  if (x.dt == to) return x;
  kval r = {.vec = x.vec, .dt = to};
  char from_ty[NAME], to_ty[NAME], z[NAME];
  kg_type_str(g, x.dt, x.vec, from_ty);
  kg_type_str(g, to, x.vec, to_ty);
  kg_fresh(g, r.name);
  const char *op = NULL;
  if (to == FUSER_DTYPE_I1) { /* x != 0 */
    kg_fconst(g, 0, x.dt, x.vec, z);
    if (kg_is_float(x.dt)) kg_emit(g, "%s = arith.cmpf une, %s, %s : %s", r.name, x.name, z, from_ty);
    else kg_emit(g, "%s = arith.cmpi ne, %s, %s : %s", r.name, x.name, z, from_ty);
    return r;
  }
  if (kg_is_float(x.dt) && kg_is_float(to)) op = fuser_dtype_size(to) > fuser_dtype_size(x.dt) ? "arith.extf" : "arith.truncf";
  else if (x.dt == FUSER_DTYPE_I1) op = kg_is_float(to) ? "arith.uitofp" : "arith.extui";
  else if (!kg_is_float(x.dt) && kg_is_float(to)) op = "arith.sitofp";
  else if (kg_is_float(x.dt) && !kg_is_float(to)) op = "arith.fptosi";
  else op = fuser_dtype_size(to) > fuser_dtype_size(x.dt) ? "arith.extsi" : "arith.trunci";
  if ((x.dt == FUSER_DTYPE_BF16 && to == FUSER_DTYPE_F16) || (x.dt == FUSER_DTYPE_F16 && to == FUSER_DTYPE_BF16)) {
    kval mid = kg_convert(g, x, FUSER_DTYPE_F32);
    return kg_convert(g, mid, to);
  }
  kg_emit(g, "%s = %s %s : %s to %s", r.name, op, x.name, from_ty, to_ty);
  return r;
}
