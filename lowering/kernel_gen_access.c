/* kernel_gen_access.c: global memory accesses of the kernel generator (see
 * kernel_gen_internal.h): the flat memref view of each tensor, the element
 * address of an index, the scalar, vector or gathered loads and stores, and
 * the loads issued ahead of a point's evaluation (kg_prefetch_*). Separate
 * because it is the only part that touches memory. */
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinTypes.h"

/* The flat 1-D memref view of tensor t (all index math is explicit). */
static MlirValue mem(gen *g, int t) {
  if (mlirValueIsNull(g->mem[t])) {
    fb_ip save = kg_enter_prologue(g);
    MlirLocation loc = fb_get_loc(&g->b);
    fb_set_loc(&g->b, mlirOperationGetLocation(g->k->func));
    /* the extent is irrelevant: loads are never bounds-checked */
    g->mem[t] = fb_reinterpret_1d(&g->b, kg_param(g, FK_PARAM_PTR, t, -1), kg_cidx(g, 1));
    fb_set_loc(&g->b, loc);
    kg_leave_prologue(g, save);
  }
  return g->mem[t];
}

static bool is_zero(gen *g, MlirValue v) { return mlirValueEqual(v, g->zero_index); }

/* The element offset of index ix into tensor t. */
static MlirValue address(gen *g, int t, const idx_t *ix) {
  const fk_tensor *ten = &g->k->t[t];
  MlirValue out = kg_cidx(g, 0);
  for (int j = 0; j < ten->rank; j++) {
    if (ten->strides[j] == 0 || is_zero(g, ix->v[j])) continue;
    MlirValue s = ten->strides[j] == FK_DYN ? kg_param(g, FK_PARAM_STRIDE, t, j) : kg_cidx(g, ten->strides[j]);
    out = fb_addi(&g->b, out, fb_muli(&g->b, ix->v[j], s));
  }
  return out;
}

/* Element stride of this access along the innermost iteration dim; FK_DYN
 * when it depends on a run-time stride (then *value holds it, made in the
 * prologue). */
static int64_t lane_stride(gen *g, int t, const idx_t *ix, MlirValue *value) {
  const fk_tensor *ten = &g->k->t[t];
  int64_t s = 0;
  bool dyn = false;
  MlirValue name = kg_cidx(g, 0);
  for (int j = 0; j < ten->rank; j++) {
    if (!ix->inner[j]) continue;
    MlirValue st;
    if (ten->strides[j] == FK_DYN) {
      dyn = true;
      st = kg_param(g, FK_PARAM_STRIDE, t, j);
    } else {
      s += ten->strides[j];
      st = kg_cidx(g, ten->strides[j]);
    }
    fb_ip save = kg_enter_prologue(g);
    name = fb_addi(&g->b, name, st);
    kg_leave_prologue(g, save);
  }
  *value = name;
  return dyn ? FK_DYN : s;
}

/* ---- prefetched loads (kernel_gen_internal.h) ---------------------------- */

/* The same index values with the same lanes: a load along other lanes
 * (kg_load's strided path also takes prefetches now) is another load. */
static bool same_index(const idx_t *x, const idx_t *y) {
  if (x->rank != y->rank) return false;
  for (int j = 0; j < x->rank; j++)
    if (!mlirValueEqual(x->v[j], y->v[j]) || x->inner[j] != y->inner[j]) return false;
  return true;
}

/* The prefetched loads of tensor t at ix (the same index values), or null. */
static const kg_pair *prefetched(gen *g, int t, const idx_t *ix) {
  for (int i = 0; i < g->pre.n; i++)
    if (g->pre.t[i] == t && same_index(&g->pre.ix[i], ix)) return &g->pre.v[i];
  return NULL;
}

MlirValue kg_zero_vector(gen *g, MlirType vty) {
  fb_builder *b = &g->b;
  MlirType et = mlirShapedTypeGetElementType(vty);
  fb_ip save = kg_enter_prologue(g);
  MlirValue z = fb_broadcast(b, mlirTypeIsAInteger(et) ? fb_const_int(b, et, 0) : fb_const_float(b, et, 0), vty);
  kg_leave_prologue(g, save);
  return z;
}

bool kg_prefetchable(gen *g, int t, const idx_t *ix) {
  MlirValue ls;
  return g->W > 1 && !g->gather[t] && mlirValueIsNull(g->tile.buf[t]) && lane_stride(g, t, ix, &ls) == 1;
}

kg_pair kg_issue_load(gen *g, int t, const idx_t *ix) {
  const fk_tensor *ten = &g->k->t[t];
  MlirType vty = fb_vector_type(kg_storage_type(g, ten->dtype), g->W);
  return kg_select_issue(g, t, vty, mem(g, t), address(g, t, ix), g->W * (int64_t)fuser_dtype_size(ten->dtype));
}

kg_pair kg_prefetch_load(gen *g, int t, const idx_t *ix) {
  return kg_prefetchable(g, t, ix) ? kg_issue_load(g, t, ix) : (kg_pair){{NULL}, {NULL}};
}

/* Whether t's lanes at ix are strided in a global tensor (neither
 * contiguous nor broadcast); *ls gets the stride. */
static bool strided_lanes(gen *g, int t, const idx_t *ix, MlirValue *ls) {
  if (g->W == 1 || g->gather[t] || !mlirValueIsNull(g->tile.buf[t])) return false;
  int64_t s = lane_stride(g, t, ix, ls);
  return s != 0 && s != 1;
}

bool kg_lanes_prefetchable(gen *g, int t, const idx_t *ix) {
  MlirValue ls;
  return strided_lanes(g, t, ix, &ls);
}

kg_pair kg_prefetch_lanes(gen *g, int t, const idx_t *ix, MlirValue when) {
  fb_builder *b = &g->b;
  MlirValue ls;
  if (!strided_lanes(g, t, ix, &ls)) return (kg_pair){{NULL}, {NULL}};
  MlirType vty = fb_vector_type(kg_storage_type(g, g->k->t[t].dtype), g->W);
  /* element 0 (the tensor has the result's extents: none is 0 where a
   * point runs) for every lane where `when` fails */
  MlirValue addr = fb_select(b, when, address(g, t, ix), g->zero_index);
  return (kg_pair){kg_lanes_load(g, vty, mem(g, t), addr, fb_select(b, when, ls, g->zero_index)), {NULL}};
}

void kg_prefetch_put(gen *g, int t, const idx_t *ix, kg_pair v) {
  if (mlirValueIsNull(v.v0) || g->pre.n == FK_MAX_PREFETCH) return;
  g->pre.t[g->pre.n] = t;
  g->pre.ix[g->pre.n] = *ix;
  g->pre.v[g->pre.n++] = v;
}

bool kg_reads_at_result_index(gen *g, int t) {
  const fk_kernel *k = g->k;
  if (t >= k->num_args || !k->t[t].is_tensor || k->t[t].rank != k->rank) return false;
  for (int a = 0; a < k->num_accesses; a++) {
    const fk_access *acc = &k->acc[a];
    if (acc->tensor != t || acc->opaque || acc->lanes_only) continue;
    bool identity = true;
    for (int j = 0; j < k->rank && identity; j++) {
      identity = acc->off[j] == 0;
      for (int d = 0; d < k->rank && identity; d++) identity = acc->coef[j][d] == (k->iter_dim[d] == j);
    }
    if (identity) return true;
  }
  return false;
}

void kg_prefetch_point(gen *g, const idx_t *it) {
  if (g->k->num_boundaries > 0) return; /* a cat/pad operand is read only on its side */
  idx_t rix;
  kg_result_index(g, it, &rix);
  MlirLocation saved = fb_get_loc(&g->b);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g->k->func, 0));
  for (int t = 0; t < g->k->num_args; t++) {
    if (!kg_reads_at_result_index(g, t)) continue;
    /* the load carries the location of an op that reads the tensor (the
     * script line), as when the walker loads it */
    MlirOpOperand use = mlirValueGetFirstUse(mlirBlockGetArgument(body, t));
    if (!mlirOpOperandIsNull(use)) fb_set_loc_of(&g->b, mlirOpOperandGetOwner(use));
    kg_prefetch_put(g, t, &rix, kg_prefetch_load(g, t, &rix));
    fb_set_loc(&g->b, saved);
  }
}

/* ---- gathered loads ------------------------------------------------------ */

/* The read of gathered tensor t: its only access (passes/vectorize.c). */
static const fk_access *gathered_access(gen *g, int t) {
  for (int a = 0; a < g->k->num_accesses; a++)
    if (g->k->acc[a].tensor == t) return &g->k->acc[a];
  return NULL;
}

/* Iteration indices `it` advanced by one point: the innermost index + 1,
 * a wrap at its extent carried outwards (selects, no division). */
static void next_point(gen *g, idx_t *it) {
  fb_builder *b = &g->b;
  const fk_kernel *k = g->k;
  MlirValue zero = kg_cidx(g, 0), one = kg_cidx(g, 1), carry = one;
  for (int d = k->rank - 1; d > 0; d--) {
    MlirValue v = fb_addi(b, it->v[d], carry);
    MlirValue ext = kg_iter_extent(g, d);
    MlirValue wrap = fb_cmpi(b, FB_CMPI_EQ, v, ext);
    it->v[d] = fb_select(b, wrap, zero, v);
    carry = fb_select(b, wrap, one, zero);
  }
  if (k->rank > 0) it->v[0] = fb_addi(b, it->v[0], carry);
}

void kg_gather_point(gen *g) {
  bool any = false;
  for (int t = 0; t < g->k->num_args; t++) any |= g->gather[t];
  if (!any) return;
  /* one division chain for the first lane; the others step from it */
  kg_delinearize(g, g->point, &g->lane[0]);
  for (int l = 1; l < g->W && l < 64; l++) {
    g->lane[l] = g->lane[l - 1];
    next_point(g, &g->lane[l]);
  }
}

/* Tensor t's index at iteration indices `it`, mapped through its access:
 * index j = sum_d coef[j][d] i_d + off[j]. */
static void gathered_index(gen *g, int t, const fk_access *acc, const idx_t *it, idx_t *tix) {
  fb_builder *b = &g->b;
  tix->rank = g->k->t[t].rank;
  for (int j = 0; j < tix->rank; j++) {
    MlirValue v = kg_cidx(g, acc->off[j]);
    for (int d = 0; d < g->k->rank; d++)
      if (acc->coef[j][d]) v = fb_addi(b, v, fb_muli(b, it->v[d], kg_cidx(g, acc->coef[j][d])));
    tix->v[j] = v;
  }
}

/* Tensor t's element at iteration indices `it`, at its own strides. */
static MlirValue gather_lane(gen *g, int t, const fk_access *acc, const idx_t *it) {
  idx_t tix;
  gathered_index(g, t, acc, it, &tix);
  return fb_load(&g->b, mem(g, t), address(g, t, &tix));
}

/* The tensor dim of gathered access acc that walks the innermost iteration
 * dim alone, with unit step and stride 1 (t is contiguous along the rows of
 * the space), or -1. */
static int row_dim(gen *g, const fk_access *acc) {
  const fk_kernel *k = g->k;
  int inner = k->rank - 1, j = -1;
  for (int q = 0; q < k->t[acc->tensor].rank; q++) {
    if (!acc->coef[q][inner]) continue;
    if (acc->coef[q][inner] != 1 || j >= 0) return -1;
    j = q;
  }
  return j >= 0 && k->t[acc->tensor].strides[j] == 1 ? j : -1;
}

/* The W lanes of gathered tensor t at the current point (g->lane, from
 * kg_gather_point): a vector of W element loads, one scalar load in the
 * tail. The walker's index is ignored: in a flat variant it is the run's
 * (0, ..., 0, e), which t's strides do not follow. A tensor contiguous
 * along the rows (the segments variant's x[:, :8191] of rows of 8192)
 * loads a vector that stays inside its first lane's row as one contiguous
 * load from there, through aligned loads and a shift (kg_shift_load: its
 * rows start anywhere in a 16-byte block); only the vectors that cross a
 * row's end (one in ~1000 rows of 8191) go lane by lane. */
static MlirValue gather_load(gen *g, int t, MlirType vty) {
  fb_builder *b = &g->b;
  const fk_kernel *k = g->k;
  const fk_access *acc = gathered_access(g, t);
  if (g->W == 1) return gather_lane(g, t, acc, &g->lane[0]);
  fb_ip save = fb_get_ip(b);
  MlirOperation in_row = {NULL};
  if (row_dim(g, acc) >= 0) {
    int inner = k->rank - 1;
    MlirValue fits = fb_cmpi(b, FB_CMPI_ULE, fb_addi_const(b, g->lane[0].v[inner], g->W), kg_iter_extent(g, inner));
    in_row = fb_if(b, fits, 1, &vty, true);
    fb_set_ip(b, fb_ip_end(fb_then(in_row)));
    idx_t tix;
    gathered_index(g, t, acc, &g->lane[0], &tix);
    MlirValue m = mem(g, t), addr = address(g, t, &tix);
    MlirValue row = kg_shift_load(g, t, vty, m, addr);
    if (mlirValueIsNull(row)) row = kg_lanes_load(g, vty, m, addr, kg_cidx(g, 1));
    fb_yield(b, 1, &row);
    fb_set_ip(b, fb_ip_end(fb_else(in_row)));
  }
  MlirValue lanes[64];
  for (int l = 0; l < g->W && l < 64; l++) lanes[l] = gather_lane(g, t, acc, &g->lane[l]);
  MlirValue v = fb_from_elements(b, vty, g->W, lanes);
  if (mlirOperationIsNull(in_row)) return v;
  fb_yield(b, 1, &v);
  fb_set_ip(b, save);
  return fb_result(in_row, 0);
}

kval kg_load(gen *g, int t, const idx_t *ix) {
  const fk_tensor *ten = &g->k->t[t];
  kval r = {.vec = g->W > 1, .dt = ten->dtype};
  fb_builder *b = &g->b;
  MlirType st = kg_storage_type(g, ten->dtype), vty = fb_vector_type(st, g->W);
  bool tiled = g->tile.reading && !mlirValueIsNull(g->tile.buf[t]), gathered = g->gather[t] && !tiled;
  bool direct = !tiled && !gathered;
  MlirValue m = direct ? mem(g, t) : (MlirValue){NULL}, addr = direct ? address(g, t, ix) : (MlirValue){NULL}, ls = {NULL};
  int64_t s = g->W > 1 && direct ? lane_stride(g, t, ix, &ls) : 0;
  MlirValue raw;
  if (gathered) {
    raw = gather_load(g, t, vty); /* lane by lane at its own coordinates */
  } else if (tiled) {
    raw = kg_tile_load(g, t, vty); /* the transpose tile (transpose_gen.c) */
  } else if (g->W == 1 || s == 0) {
    raw = fb_load(b, m, addr);
    if (g->W > 1) raw = fb_broadcast(b, raw, vty);
  } else if (s == 1) {
    raw = kg_select_load(g, t, vty, m, addr, g->W * (int64_t)fuser_dtype_size(ten->dtype), prefetched(g, t, ix));
  } else { /* gather: W scalar loads (issued ahead by kg_prefetch_lanes, or here) */
    const kg_pair *pre = prefetched(g, t, ix);
    raw = pre ? pre->v0 : kg_lanes_load(g, vty, m, addr, ls);
  }
  if (ten->dtype == FUSER_DTYPE_I1) {
    MlirValue z = fb_const_int(b, fb_int_type(b, 8), 0);
    if (g->W > 1) {
      fb_ip save = kg_enter_prologue(g);
      z = fb_broadcast(b, z, vty);
      kg_leave_prologue(g, save);
    }
    r.v = fb_cmpi(b, FB_CMPI_NE, raw, z);
  } else r.v = raw;
  return r;
}

void kg_store(gen *g, int t, const idx_t *ix, kval v) {
  const fk_tensor *ten = &g->k->t[t];
  fb_builder *b = &g->b;
  v = kg_convert(g, v, ten->dtype);
  if (g->W > 1) v = kg_splat(g, v);
  MlirType st = kg_storage_type(g, ten->dtype);
  if (ten->dtype == FUSER_DTYPE_I1) v.v = fb_cast(b, "arith.extui", v.v, g->W > 1 ? fb_vector_type(st, g->W) : st);
  MlirValue m = mem(g, t), addr = address(g, t, ix), ls = {NULL};
  int64_t s = g->W > 1 ? lane_stride(g, t, ix, &ls) : 0;
  if (g->W == 1) {
    fb_store(b, v.v, m, addr);
  } else if (s == 1) {
    kg_select_store(g, t, v.v, m, addr, g->W * (int64_t)fuser_dtype_size(ten->dtype));
  } else {
    kg_lanes_store(g, v.v, m, addr, ls);
  }
}
