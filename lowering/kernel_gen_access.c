/* kernel_gen_access.c: global memory accesses of the kernel generator (see
 * kernel_gen_internal.h): the flat memref view of each tensor, the element
 * address of an index, and the scalar, vector or gathered loads and stores.
 * In analysis mode each access is also recorded as an index map (fk_access).
 * Separate because it is the only part that touches memory. */
#include <stdio.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"

/* The flat 1-D memref view of tensor t (all index math is explicit). */
static const char *mem(gen *g, int t, char *out) {
  snprintf(out, NAME, "%%mem_t%d", t);
  if (!g->mem_made[t]) {
    char p[NAME], big[NAME];
    kg_param(g, FK_PARAM_PTR, t, -1, p);
    kg_cidx(g, 1, big); /* extent is irrelevant: loads are never bounds-checked */
    const char *st = kg_storage_type(g->k->t[t].dtype);
    sb_printf(g->pro, "  %s = memref.reinterpret_cast %s to offset: [0], sizes: [%s], strides: [1] : memref<1x%s> to memref<?x%s>\n",
              out, p, big, st, st);
    g->mem_made[t] = true;
  }
  return out;
}

/* The element offset of index ix into tensor t. */
static void address(gen *g, int t, const idx_t *ix, char *out) {
  const fk_tensor *ten = &g->k->t[t];
  char zero[NAME];
  snprintf(out, NAME, "%s", kg_cidx(g, 0, zero));
  for (int j = 0; j < ten->rank; j++) {
    if (ten->strides[j] == 0 || kg_is_zero(ix->name[j])) continue;
    char s[NAME], term[NAME], sum[NAME];
    if (ten->strides[j] == FK_DYN) kg_param(g, FK_PARAM_STRIDE, t, j, s);
    else kg_cidx(g, ten->strides[j], s);
    kg_imul(g, ix->name[j], s, term);
    kg_iadd(g, out, term, sum);
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
  kg_cidx(g, 0, name);
  for (int j = 0; j < ten->rank && d >= 0; j++) {
    if (!ix->coef[j][d]) continue;
    char st[NAME], sum[NAME];
    if (ten->strides[j] == FK_DYN) {
      dyn = true;
      kg_param(g, FK_PARAM_STRIDE, t, j, st);
    } else {
      s += ten->strides[j] * ix->coef[j][d];
      kg_cidx(g, ten->strides[j], st);
    }
    strbuf *save = g->cur;
    g->cur = g->pro;
    kg_iadd(g, name, st, sum);
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

kval kg_load(gen *g, int t, const idx_t *ix) {
  record_access(g, t, ix);
  const fk_tensor *ten = &g->k->t[t];
  kval r = {.vec = g->W > 1, .dt = ten->dtype};
  bool is_bool = ten->dtype == FUSER_DTYPE_I1;
  fuser_dtype sdt = is_bool ? FUSER_DTYPE_I32 : ten->dtype; /* placeholder for type_str below */
  const char *st = kg_storage_type(ten->dtype);
  char m[NAME], addr[NAME], ls[NAME], vty[NAME];
  mem(g, t, m);
  address(g, t, ix, addr);
  int64_t s = g->W > 1 ? lane_stride(g, t, ix, ls) : 0;
  snprintf(vty, NAME, "vector<%dx%s>", g->W, st);
  (void)sdt;
  char raw[NAME];
  kg_fresh(g, raw);
  if (g->W == 1 || s == 0) {
    kg_emit(g, "%s = memref.load %s[%s] : memref<?x%s>", raw, m, addr, st);
    if (g->W > 1) {
      char b[NAME];
      kg_fresh(g, b);
      kg_emit(g, "%s = vector.broadcast %s : %s to %s", b, raw, st, vty);
      memcpy(raw, b, NAME);
    }
  } else if (s == 1) {
    kg_emit(g, "%s = vector.load %s[%s] {alignment = %d : i64} : memref<?x%s>, %s", raw, m, addr,
         (int)(g->W * fuser_dtype_size(ten->dtype)), st, vty);
  } else { /* gather: W scalar loads */
    char lanes[FK_R * 4][NAME], cur[NAME];
    memcpy(cur, addr, NAME);
    strbuf list = {0};
    for (int l = 0; l < g->W; l++) {
      kg_fresh(g, lanes[l]);
      kg_emit(g, "%s = memref.load %s[%s] : memref<?x%s>", lanes[l], m, cur, st);
      sb_printf(&list, "%s%s", l ? ", " : "", lanes[l]);
      char nx[NAME];
      kg_iadd(g, cur, ls, nx);
      memcpy(cur, nx, NAME);
    }
    kg_emit(g, "%s = vector.from_elements %s : %s", raw, list.data, vty);
    sb_free(&list);
  }
  if (is_bool) {
    char z[NAME];
    kg_fresh(g, r.name);
    strbuf *save = g->cur;
    g->cur = g->pro;
    char zs[NAME];
    kg_fresh(g, zs);
    kg_emit(g, "%s = arith.constant 0 : i8", zs);
    if (g->W > 1) {
      kg_fresh(g, z);
      kg_emit(g, "%s = vector.broadcast %s : i8 to %s", z, zs, vty);
    } else memcpy(z, zs, NAME);
    g->cur = save;
    kg_emit(g, "%s = arith.cmpi ne, %s, %s : %s", r.name, raw, z, g->W > 1 ? vty : "i8");
  } else memcpy(r.name, raw, NAME);
  return r;
}

void kg_store(gen *g, int t, const idx_t *ix, kval v) {
  record_access(g, t, ix);
  const fk_tensor *ten = &g->k->t[t];
  v = kg_convert(g, v, ten->dtype);
  if (g->W > 1) v = kg_splat(g, v);
  const char *st = kg_storage_type(ten->dtype);
  char m[NAME], addr[NAME], ls[NAME], vty[NAME];
  snprintf(vty, NAME, "vector<%dx%s>", g->W, st);
  if (ten->dtype == FUSER_DTYPE_I1) {
    char e[NAME];
    kg_fresh(g, e);
    kg_emit(g, "%s = arith.extui %s : %s to %s", e, v.name, g->W > 1 ? (snprintf(ls, NAME, "vector<%dxi1>", g->W), ls) : "i1",
         g->W > 1 ? vty : "i8");
    memcpy(v.name, e, NAME);
  }
  mem(g, t, m);
  address(g, t, ix, addr);
  int64_t s = g->W > 1 ? lane_stride(g, t, ix, ls) : 0;
  if (g->W == 1) {
    kg_emit(g, "memref.store %s, %s[%s] : memref<?x%s>", v.name, m, addr, st);
  } else if (s == 1) {
    kg_emit(g, "vector.store %s, %s[%s] {alignment = %d : i64} : memref<?x%s>, %s", v.name, m, addr,
         (int)(g->W * fuser_dtype_size(ten->dtype)), st, vty);
  } else {
    char cur[NAME];
    memcpy(cur, addr, NAME);
    for (int l = 0; l < g->W; l++) {
      char e[NAME], nx[NAME];
      kg_fresh(g, e);
      kg_emit(g, "%s = vector.extract %s[%d] : %s from %s", e, v.name, l, st, vty);
      kg_emit(g, "memref.store %s, %s[%s] : memref<?x%s>", e, m, cur, st);
      kg_iadd(g, cur, ls, nx);
      memcpy(cur, nx, NAME);
    }
  }
}
