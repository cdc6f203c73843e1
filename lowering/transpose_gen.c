/* transpose_gen.c: the `tile` variant of the transpose schedule
 * (passes/schedule_transpose.c, transpose_gen.h), on the kernel generator's
 * walker (kernel_gen_internal.h).
 *
 * out = x + permute(y, [1, 0]), all row-major, tile 64 (bf16, W = 8):
 *   before: func.func private @f_k0(%x, %y {fuser.strides = array<i64: 1, ?>}) ... fuser.schedule = {transpose = {...}}
 *   after (GPU form):
 *   func.func @f_k0__tile(%x: memref<1xbf16>, %y: ..., %out: ..., sizes..., %wg: memref<4096xbf16, #gpu.address_space<workgroup>>)
 *       attributes {fuser.loops, fuser.row_kernel, fuser.row_grid = {...}, fuser.workgroup_buffers = 1, ...} {
 *     scf.for %tile = %block_id to %ntiles step %grid_dim {
 *       2 x { %y_q = vector.load y[...] {alignment = 16} (along y's rows) }
 *       2 x { %x_q = vector.load x[...] }                  (phase 2's loads, issued here)
 *       2 x { vector.store %y_q, %wg[row * 64 + swizzled chunk] }
 *       gpu.barrier
 *       2 x { 8 x memref.load %wg[...]; addf %x_q; vector.store out[...] {alignment = 16} }
 *       gpu.barrier
 *     }
 *   }
 *
 * Tiles: tile x tile points of the iteration dims (tile_dim, innermost),
 * the other dims fixed per tile; with `groups` (a_lo, b_lo), of the groups
 * [a_lo, tile_dim] and [b_lo, innermost], each walked as one dim under the
 * variant's `merge` conditions: its index on its innermost dim, 0 on the
 * others (NCHW to NHWC: C x HW tiles, not C x W ones that a W of 7..56
 * leaves mostly idle). A block per tile (fuser.row_grid with `tile` and
 * `tile_sides`: ceil(A / tile) ceil(B / tile) x the other extents, A and B
 * the products of the groups' extents), and the blocks stride over the
 * tiles, so any grid covers them.
 * Phase 1: thread t loads vectors v = t + k x threads: buffer row v / 8 (the
 * innermost dim's offset), chunk v % 8 (tile_dim's offset / W), W-wide
 * along tile_dim, and stores them at chunk c ^ (row / W % 8) of its row;
 * all its loads (and, on the GPU, phase 2's loads of the inputs read at the
 * output's index) are issued before any store, so they are in flight
 * together instead of one round trip after another.
 * Phase 2: vector v = t + k x threads is the output vector at tile_dim
 * offset v / 8, innermost offset (v % 8) W; a tiled input's lanes are W
 * loads from the buffer rows there. The XOR swizzle keeps both phases free
 * of bank conflicts for 2-byte elements: phase 1's 8 lanes of a row write 8
 * distinct chunks (all 32 banks), and phase 2's 32 lanes read 4 tile_dim
 * offsets (2 words) in 8 chunks, 16 distinct words in 16 banks.
 * Phase 2 in columns: where an output's W-wide stores may be misaligned
 * (rows of 8193 bf16: each vector's store became chunks at a misalignment
 * that changes from row to row, a warp's 4 rows in 4 branches), vector v is
 * at innermost offset v % T and tile_dim offset (v / T) W instead: its W
 * lanes run along tile_dim (the walker's lane_dim), a tiled input's lanes
 * are one 16-byte chunk of a buffer row, the other inputs' and the outputs'
 * are element accesses, and a warp's 32 threads sit on 32 consecutive
 * columns, so each element access is one contiguous run. The choice is a
 * uniform branch on the outputs' checks outside the tile loop (a loop per
 * form; the buffers' swizzle per form, below), or static for a `narrow`
 * output.
 * Ragged edges: a vector that crosses the tile_dim or innermost extent is
 * done element by element under guards; points past the extents are
 * skipped, so symbolic sizes need no condition. A side whose static extent
 * is a multiple of W has no such vector, and gets no element path.
 *
 * CPU form: the same loops with the threads as scf.for loops per phase, one
 * memref.alloca buffer per tiled input at the function entry (static: one
 * frame per call, whatever the extents; the schedule bounds all of them to
 * a block's 48 KiB of shared memory) and no barriers (the phases run in
 * order). */
#include "lowering/transpose_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* The extent of tile group [lo, hi]: the product of its dims' extents (one
 * dim walked as one under the variant's `merge` conditions). */
static MlirValue group_extent(gen *g, int lo, int hi) {
  MlirValue e = kg_iter_extent(g, hi);
  for (int d = hi - 1; d >= lo; d--) e = fb_muli(&g->b, e, kg_iter_extent(g, d));
  return e;
}

/* The same, static: -1 where an extent is symbolic. */
static int64_t static_group_extent(const fk_kernel *k, int lo, int hi) {
  int64_t n = 1;
  for (int d = lo; d <= hi; d++) {
    if (k->extent[d] == FK_DYN) return -1;
    n *= k->extent[d];
  }
  return n;
}

static MlirValue xori(gen *g, MlirValue x, MlirValue y) { return fb_binary(&g->b, "arith.xori", x, y); }

/* The buffer index of tile point (a_local, b_local): row b_local, chunk
 * a_local / W swizzled by the row's group of W rows (rows: a phase-2 lane
 * load reads rows W apart, in 8 distinct chunks) or, in columns, by the
 * row mod C (a quarter-warp's 16-byte loads read 8 consecutive rows: 8
 * distinct chunks). A tile's two phases take the same swizzle; the rows
 * form keeps a vector's W rows at one chunk, at constant offsets. */
static MlirValue buffer_index(gen *g, MlirValue a_local, MlirValue b_local, int W) {
  fb_builder *b = &g->b;
  int T = g->tile.T, C = T / W;
  MlirValue row = g->tile.columns ? b_local : fb_divui(b, b_local, kg_cidx(g, W));
  MlirValue group = fb_remui(b, row, kg_cidx(g, C));
  MlirValue chunk = xori(g, fb_divui(b, a_local, kg_cidx(g, W)), group);
  MlirValue in_chunk = fb_remui(b, a_local, kg_cidx(g, W));
  return fb_addi(b, fb_addi(b, fb_muli(b, b_local, kg_cidx(g, T)), fb_muli(b, chunk, kg_cidx(g, W))), in_chunk);
}

MlirValue kg_tile_load(gen *g, int t, MlirType vty) {
  fb_builder *b = &g->b;
  MlirValue buf = g->tile.buf[t];
  if (g->W == 1) return fb_load(b, buf, buffer_index(g, g->tile.a_local, g->tile.b_local, g->tile.W));
  if (g->tile.columns) /* the lanes along tile_dim: one chunk of the buffer row */
    return fb_vector_load(b, vty, buf, buffer_index(g, g->tile.a_local, g->tile.b_local, g->tile.W),
                          g->W * (int64_t)fuser_dtype_size(g->k->t[t].dtype));
  MlirValue lanes[64];
  for (int j = 0; j < g->W; j++)
    lanes[j] = fb_load(b, buf, buffer_index(g, g->tile.a_local, fb_addi_const(b, g->tile.b_local, j), g->tile.W));
  return fb_from_elements(b, vty, g->W, lanes);
}

/* The index of tensor t's (single) access at iteration indices it; its
 * lanes run along iteration dim `lane`. */
static void access_index(gen *g, const fk_access *acc, const idx_t *it, int lane, idx_t *tix) {
  fk_kernel *k = g->k;
  fb_builder *b = &g->b;
  const fk_tensor *ten = &k->t[acc->tensor];
  memset(tix, 0, sizeof *tix);
  tix->rank = ten->rank;
  for (int j = 0; j < ten->rank; j++) {
    MlirValue v = kg_cidx(g, acc->off[j]);
    for (int d = 0; d < k->rank; d++)
      if (acc->coef[j][d]) v = fb_addi(b, v, fb_muli(b, it->v[d], kg_cidx(g, acc->coef[j][d])));
    tix->v[j] = v;
    tix->inner[j] = acc->coef[j][lane] != 0;
  }
}

static const fk_access *access_of(fk_kernel *k, int t) {
  for (int a = 0; a < k->num_accesses; a++)
    if (k->acc[a].tensor == t) return &k->acc[a];
  return NULL;
}

/* scf.if cond { ... }: the insertion point moves into the then block. */
static void open_if(gen *g, MlirValue cond) {
  MlirOperation op = fb_if(&g->b, cond, 0, NULL, false);
  fb_set_ip(&g->b, fb_ip_in(fb_then(op)));
}

/* The loop over a block's threads of the CPU form, or the thread id. */
static MlirValue thread_of_phase(gen *g, bool gpu, MlirValue tid, const fuser_tile_plan *p) {
  if (gpu) return tid;
  MlirOperation l = fb_for(&g->b, kg_cidx(g, 0), kg_cidx(g, p->threads), kg_cidx(g, 1), 0, NULL);
  fb_set_ip(&g->b, fb_ip_in(fb_body(l)));
  return fb_for_iv(l);
}

/* A thread's vector q of phase 1: buffer row `row` (the innermost dim's
 * offset in the tile), the tile_dim offset a_local, the iteration indices
 * av, bv, its buffer index and whether it lies whole inside the extents. */
typedef struct {
  MlirValue row, a_local, av, bv, at, in_b, full;
} tile_in_vec;

/* Thread t's vector q of a phase: v = t + q x threads. */
static MlirValue vector_number(gen *g, const fuser_tile_plan *p, MlirValue t, int q) {
  return fb_addi_const(&g->b, t, (int64_t)q * p->threads);
}

/* Vector v's buffer-row coordinate v / C and its chunk's first element
 * (v % C) W (C = tile / W chunks a row). */

static void split_vector(gen *g, const fuser_tile_plan *p, MlirValue t, int q, MlirValue *row, MlirValue *first) {
  fb_builder *b = &g->b;
  int W = p->width, C = p->tile / W;
  MlirValue v = vector_number(g, p, t, q);
  *row = fb_divui(b, v, kg_cidx(g, C));
  *first = fb_muli(b, fb_remui(b, v, kg_cidx(g, C)), kg_cidx(g, W));
}

/* Whether the W-wide vector at `first` (a multiple of W) along a side of
 * extent `extent` lies whole inside it: first + W <= extent, or, where the
 * extent is statically a multiple of W (`whole`), first < extent (the
 * vector is then whole inside or whole outside, and the callers make no
 * ragged-end path: 200 x 328 bf16 has none). */
static MlirValue vector_inside(gen *g, MlirValue first, MlirValue extent, int W, bool whole) {
  if (whole) return fb_cmpi(&g->b, FB_CMPI_ULT, first, extent);
  return fb_cmpi(&g->b, FB_CMPI_ULE, fb_addi_const(&g->b, first, W), extent);
}

static void tile_in_vectors(gen *g, const fuser_tile_plan *p, MlirValue t, MlirValue a0, MlirValue b0, MlirValue A,
                            MlirValue B, tile_in_vec *iv) {
  fb_builder *b = &g->b;
  int W = p->width;
  for (int q = 0; q < p->vectors; q++) {
    tile_in_vec *x = &iv[q];
    split_vector(g, p, t, q, &x->row, &x->a_local);
    x->av = fb_addi(b, a0, x->a_local), x->bv = fb_addi(b, b0, x->row);
    x->at = buffer_index(g, x->a_local, x->row, W);
    x->in_b = fb_cmpi(b, FB_CMPI_ULT, x->bv, B);
    x->full = vector_inside(g, x->av, A, W, g->tile.a_whole);
  }
}

/* The pair of a whole vector's loads of tensor t (kg_pair), issued in the
 * then-region of `whole` and yielded from it (zero vectors outside), and
 * recorded for kg_load at ix (kg_prefetch_put). n tensors ts, at ixs. */
static void issue_when_whole(gen *g, MlirValue whole, int n, const int *ts, const idx_t *ixs) {
  fb_builder *b = &g->b;
  MlirType ty[2 * FK_MAX_TENSORS];
  bool pair[FK_MAX_TENSORS];
  int m = 0;
  for (int i = 0; i < n; i++) {
    ty[m++] = fb_vector_type(kg_storage_type(g, g->k->t[ts[i]].dtype), g->W);
    pair[i] = kg_issues_pair(g, ts[i]);
    if (pair[i]) ty[m] = ty[m - 1], m++;
  }
  fb_ip save = fb_get_ip(b);
  MlirOperation br = fb_if(b, whole, m, ty, true);
  fb_set_ip(b, fb_ip_end(fb_then(br)));
  MlirValue v[2 * FK_MAX_TENSORS];
  for (int i = 0, j = 0; i < n; i++) {
    kg_pair pr = kg_issue_load(g, ts[i], &ixs[i]);
    v[j++] = pr.v0;
    if (pair[i]) v[j++] = pr.v1;
  }
  fb_yield(b, m, v);
  fb_set_ip(b, fb_ip_end(fb_else(br)));
  for (int j = 0; j < m; j++) v[j] = kg_zero_vector(g, ty[j]);
  fb_yield(b, m, v);
  fb_set_ip(b, save);
  for (int i = 0, j = 0; i < n; i++) {
    kg_pair pr = {fb_result(br, j++), {NULL}};
    if (pair[i]) pr.v1 = fb_result(br, j++);
    kg_prefetch_put(g, ts[i], &ixs[i], pr);
  }
}

/* Phase 1, first part: the W-wide global loads of every whole vector of
 * every tiled input, all issued (issue_when_whole: zero vectors for a
 * vector not whole inside the extents, which the store side does element by
 * element) before any is finished. tix[q][i]: vector q's index in tiled
 * input i, which the finish looks them up by. */
static void issue_tile_vectors(gen *g, const fuser_tile_plan *p, idx_t *it, const tile_in_vec *iv, idx_t (*tix)[4]) {
  fk_kernel *k = g->k;
  int a = p->tile_dim, R = k->rank;
  for (int q = 0; q < p->vectors && !g->failed; q++) {
    for (int i = 0; i < p->ntiled; i++) {
      it->v[a] = iv[q].av, it->v[R - 1] = iv[q].bv;
      access_index(g, access_of(k, p->tiled[i]), it, a, &tix[q][i]);
    }
    g->W = p->width;
    issue_when_whole(g, fb_andi(&g->b, iv[q].in_b, iv[q].full), p->ntiled, p->tiled, tix[q]);
  }
}

/* Phase 1, the finish: each whole vector from its issued loads (a
 * misaligned tensor's pair shifted), after phase 2's loads are issued too.
 * x[q * ntiled + i]: vector q of tiled input i, raw storage. */
static void finish_tile_vectors(gen *g, const fuser_tile_plan *p, const tile_in_vec *iv, idx_t (*tix)[4], MlirValue *x) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  int W = p->width, nt = p->ntiled;
  MlirType ty[4];
  for (int i = 0; i < nt; i++) ty[i] = fb_vector_type(kg_storage_type(g, k->t[p->tiled[i]].dtype), W);
  for (int q = 0; q < p->vectors && !g->failed; q++) {
    fb_ip save = fb_get_ip(b);
    MlirOperation br = fb_if(b, fb_andi(b, iv[q].in_b, iv[q].full), nt, ty, true);
    fb_set_ip(b, fb_ip_end(fb_then(br)));
    MlirValue raw[4], zero[4];
    for (int i = 0; i < nt; i++) {
      int tn = p->tiled[i];
      g->W = W;
      kval v = kg_load(g, tn, &tix[q][i]);
      raw[i] = v.v;
      if (k->t[tn].dtype == FUSER_DTYPE_I1) raw[i] = fb_cast(b, "arith.extui", raw[i], ty[i]);
    }
    fb_yield(b, nt, raw);
    fb_set_ip(b, fb_ip_end(fb_else(br)));
    for (int i = 0; i < nt; i++) zero[i] = kg_zero_vector(g, ty[i]);
    fb_yield(b, nt, zero);
    fb_set_ip(b, save);
    for (int i = 0; i < nt; i++) x[q * nt + i] = fb_result(br, i);
  }
}

/* Phase 1, second part: the loaded vectors into the buffers, and the
 * vectors crossing the tile_dim extent element by element. */
static void store_tile_vectors(gen *g, const fuser_tile_plan *p, idx_t *it, const tile_in_vec *iv, const MlirValue *x,
                               MlirValue A) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  int W = p->width, a = p->tile_dim;
  for (int q = 0; q < p->vectors && !g->failed; q++) {
    fb_ip save = fb_get_ip(b);
    open_if(g, iv[q].in_b);
    MlirOperation branch = fb_if(b, iv[q].full, 0, NULL, true);
    for (int i = 0; i < p->ntiled; i++) {
      int tn = p->tiled[i];
      const fk_access *acc = access_of(k, tn);
      /* a whole vector along tile_dim */
      fb_set_ip(b, fb_ip_in(fb_then(branch)));
      fb_vector_store(b, x[q * p->ntiled + i], g->tile.buf[tn], iv[q].at, W * (int64_t)fuser_dtype_size(k->t[tn].dtype));
      /* the ragged end: element by element */
      fb_set_ip(b, fb_ip_in(fb_else(branch)));
      for (int j = 0; j < W && !g->tile.a_whole; j++) {
        fb_ip e = fb_get_ip(b);
        MlirValue aj = fb_addi_const(b, iv[q].av, j);
        open_if(g, fb_cmpi(b, FB_CMPI_ULT, aj, A));
        idx_t tix;
        it->v[a] = aj, it->v[k->rank - 1] = iv[q].bv;
        access_index(g, acc, it, a, &tix);
        g->W = 1;
        kval y = kg_load(g, tn, &tix);
        MlirValue r = y.v;
        if (k->t[tn].dtype == FUSER_DTYPE_I1) r = fb_cast(b, "arith.extui", r, fb_int_type(b, 8));
        fb_store(b, r, g->tile.buf[tn], fb_addi_const(b, iv[q].at, j));
        fb_set_ip(b, e);
      }
    }
    fb_set_ip(b, save);
  }
}

/* A thread's vector q of phase 2: the output vector at tile_dim offset
 * a_local, innermost offset b_local, iteration indices av, bv; whether its
 * other coordinate lies inside its extent (`in`: av in rows, bv in
 * columns) and whether its W lanes all do (`full`). */
typedef struct {
  MlirValue a_local, b_local, av, bv, in, full;
} tile_out_vec;

/* In rows, vector v = t + q x threads is the output vector at tile_dim
 * offset v / C and innermost offset (v % C) W: W lanes along the innermost
 * dim, read from W buffer rows and written as one W-wide access. In
 * columns it is at innermost offset v % T and tile_dim offset (v / T) W: W
 * lanes along tile_dim, one buffer chunk, written lane by lane, a warp's
 * 32 threads at 32 consecutive innermost offsets, so that each of its W
 * element stores (and loads of the inputs read at the output's index) is
 * one contiguous run whatever the output's alignment. */
static void tile_out_vectors(gen *g, const fuser_tile_plan *p, MlirValue t, MlirValue a0, MlirValue b0, MlirValue A,
                             MlirValue B, bool columns, tile_out_vec *ov) {
  fb_builder *b = &g->b;
  int W = p->width;
  for (int q = 0; q < p->vectors; q++) {
    tile_out_vec *o = &ov[q];
    if (columns) {
      MlirValue v = vector_number(g, p, t, q);
      o->b_local = fb_remui(b, v, kg_cidx(g, p->tile));
      o->a_local = fb_muli(b, fb_divui(b, v, kg_cidx(g, p->tile)), kg_cidx(g, W));
    } else {
      split_vector(g, p, t, q, &o->a_local, &o->b_local);
    }
    o->av = fb_addi(b, a0, o->a_local), o->bv = fb_addi(b, b0, o->b_local);
    o->in = columns ? fb_cmpi(b, FB_CMPI_ULT, o->bv, B) : fb_cmpi(b, FB_CMPI_ULT, o->av, A);
    o->full = columns ? vector_inside(g, o->av, A, W, g->tile.a_whole) : vector_inside(g, o->bv, B, W, g->tile.b_whole);
  }
}

/* Phase 2's lanes: along tile_dim in columns (the walker's lane_dim and
 * kg_tile_load's chunk), along the innermost dim otherwise. */
static void set_lanes(gen *g, const fuser_tile_plan *p, bool columns) {
  g->lane_dim = columns ? p->tile_dim : g->k->rank - 1;
}

/* The global loads of phase 2 (the inputs read at the output's index, not
 * through a tile) of every whole vector, issued ahead (kg_prefetch_put):
 * on the GPU before the barrier, so that they are in flight with the tile's
 * loads instead of after them. In rows they are W-wide; in columns W
 * element loads each. */
static void prefetch_outputs_inputs(gen *g, const fuser_tile_plan *p, idx_t *it, const tile_out_vec *ov, bool columns) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  int W = p->width, a = p->tile_dim, R = k->rank;
  if (k->num_boundaries > 0) return;
  int ts[FK_MAX_TENSORS], n = 0;
  for (int t = 0; t < k->num_args; t++)
    if (mlirValueIsNull(g->tile.buf[t]) && kg_reads_at_result_index(g, t)) ts[n++] = t;
  if (n == 0 || n * p->vectors > FK_MAX_PREFETCH) return;
  g->W = W;
  set_lanes(g, p, columns);
  for (int q = 0; q < p->vectors && !g->failed; q++) {
    it->v[a] = ov[q].av, it->v[R - 1] = ov[q].bv;
    idx_t rix;
    kg_result_index(g, it, &rix);
    /* those that load W-wide (or, in columns, lanes; the others load where they are used) */
    int use[FK_MAX_TENSORS], m = 0;
    idx_t ixs[FK_MAX_TENSORS];
    for (int i = 0; i < n; i++)
      if (columns ? kg_lanes_prefetchable(g, ts[i], &rix) : kg_prefetchable(g, ts[i], &rix)) ixs[m] = rix, use[m++] = ts[i];
    if (m == 0) continue;
    MlirValue whole = fb_andi(b, ov[q].in, ov[q].full);
    for (int i = 0; columns && i < m; i++) kg_prefetch_put(g, use[i], &ixs[i], kg_prefetch_lanes(g, use[i], &ixs[i], whole));
    if (!columns) issue_when_whole(g, whole, m, use, ixs);
  }
  set_lanes(g, p, false);
}

/* Phase 2: the outputs, W lanes along the innermost dim (of extent B: its
 * group's) or, in columns, along tile_dim (of extent A). */
static void store_results(gen *g, const fuser_tile_plan *p, idx_t *it, const tile_out_vec *ov, MlirValue A, MlirValue B,
                          bool columns) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  int W = p->width, a = p->tile_dim, R = k->rank, lane = columns ? a : R - 1;
  g->tile.reading = true;
  set_lanes(g, p, columns);
  for (int q = 0; q < p->vectors && !g->failed; q++) {
    fb_ip save = fb_get_ip(b);
    open_if(g, ov[q].in);
    MlirOperation branch = fb_if(b, ov[q].full, 0, NULL, true);
    fb_set_ip(b, fb_ip_in(fb_then(branch)));
    it->v[a] = ov[q].av, it->v[R - 1] = ov[q].bv;
    g->tile.a_local = ov[q].a_local, g->tile.b_local = ov[q].b_local;
    g->W = W;
    kg_emit_results(g, it);
    /* the ragged end: element by element */
    fb_set_ip(b, fb_ip_in(fb_else(branch)));
    MlirValue first = columns ? ov[q].av : ov[q].bv, local = columns ? ov[q].a_local : ov[q].b_local;
    bool whole = columns ? g->tile.a_whole : g->tile.b_whole;
    for (int j = 0; j < W && !whole && !g->failed; j++) {
      fb_ip e = fb_get_ip(b);
      MlirValue at = fb_addi_const(b, first, j);
      open_if(g, fb_cmpi(b, FB_CMPI_ULT, at, columns ? A : B));
      it->v[a] = ov[q].av, it->v[R - 1] = ov[q].bv, it->v[lane] = at;
      g->tile.a_local = ov[q].a_local, g->tile.b_local = ov[q].b_local;
      if (columns) g->tile.a_local = fb_addi_const(b, local, j);
      else g->tile.b_local = fb_addi_const(b, local, j);
      g->W = 1;
      kg_emit_results(g, it);
      fb_set_ip(b, e);
    }
    fb_set_ip(b, save);
  }
  g->tile.reading = false;
  set_lanes(g, p, false);
  g->pre.n = 0;
}

/* Whether phase 2 runs in columns: where an output's W-wide stores may be
 * misaligned (a row of 8193 bf16: each vector's store would be chunks at a
 * misalignment that differs from row to row, so a warp's 4 rows took 4
 * branches of narrow stores). A run-time i1 from the outputs' in-kernel
 * checks, uniform over the launch; null with *always set when an output is
 * statically misaligned (`narrow`), null when none can be. */
static MlirValue columns_condition(gen *g, const fuser_tile_plan *p, bool *always) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  MlirValue any = {NULL};
  *always = false;
  for (int j = 0; j < k->num_results; j++) {
    int t = k->num_args + j;
    if (p->narrow[t]) {
      *always = true;
      return (MlirValue){NULL};
    }
    if (mlirValueIsNull(g->access_ok[t])) continue;
    fb_ip save = kg_enter_prologue(g);
    MlirValue bad = fb_binary(b, "arith.xori", g->access_ok[t], fb_const_bool(b, true));
    any = mlirValueIsNull(any) ? bad : fb_binary(b, "arith.ori", any, bad);
    kg_leave_prologue(g, save);
  }
  return any;
}

/* One tile: phase 1 (the tiled inputs into the buffers, and on the GPU
 * phase 2's global loads issued too), the barrier, phase 2 in rows or
 * columns, the barrier before the next tile overwrites the buffers. On the
 * GPU both phases' global loads are issued before the barrier; the CPU
 * form's phases are loops of their own, so phase 2 issues its loads at its
 * start. */
static void emit_tile(gen *g, const fuser_tile_plan *p, bool gpu, MlirValue tid, idx_t *it, const MlirValue *tile,
                      bool columns) {
  fb_builder *b = &g->b;
  MlirValue a0 = tile[0], b0 = tile[1], A = tile[2], B = tile[3];
  g->tile.columns = columns; /* the buffers' swizzle, and phase 2's tile loads */
  fb_ip body = fb_get_ip(b);
  MlirValue t = thread_of_phase(g, gpu, tid, p);
  tile_in_vec iv[64];
  tile_out_vec ov[64];
  MlirValue x[4 * 64];
  idx_t tix[64][4];
  tile_in_vectors(g, p, t, a0, b0, A, B, iv);
  issue_tile_vectors(g, p, it, iv, tix);
  if (gpu) {
    tile_out_vectors(g, p, t, a0, b0, A, B, columns, ov);
    prefetch_outputs_inputs(g, p, it, ov, columns);
  }
  finish_tile_vectors(g, p, iv, tix, x);
  store_tile_vectors(g, p, it, iv, x, A);
  fuser_scoped_memo_pop_to(&g->memo, 0);
  fb_set_ip(b, body);
  if (gpu) fb_barrier(b);
  body = fb_get_ip(b);
  t = thread_of_phase(g, gpu, tid, p);
  if (!gpu) {
    tile_out_vectors(g, p, t, a0, b0, A, B, columns, ov);
    prefetch_outputs_inputs(g, p, it, ov, columns);
  }
  store_results(g, p, it, ov, A, B, columns);
  fb_set_ip(b, body);
  if (gpu) fb_barrier(b);
  g->tile.columns = false;
}

/* The block's loop over the tiles (grid: first, step, ntiles, and the tile
 * counts along tile_dim and the innermost side; sides: their extents A, B),
 * phase 2 in columns or rows; own_prologue: the prologue goes right before
 * it (else the caller has placed it). */
static void tile_loop(gen *g, const fuser_tile_plan *p, bool gpu, MlirValue tid, const MlirValue *grid, const MlirValue *sides,
                      bool columns, bool own_prologue) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  int R = k->rank, a = p->tile_dim;
  MlirValue ta = grid[3], tbn = grid[4], cT = kg_cidx(g, p->tile);
  MlirOperation loop = fb_for(b, grid[0], grid[2], grid[1], 0, NULL);
  if (own_prologue) {
    g->pro = fb_ip_before(loop);
    fb_move_const_ip(b, g->pro);
  }
  fb_ip after = fb_ip_after(loop);
  fb_set_ip(b, fb_ip_in(fb_body(loop)));
  /* the tile: innermost tile fastest, then tile_dim's, then the other dims */
  MlirValue r = fb_for_iv(loop);
  MlirValue b0 = fb_muli(b, fb_remui(b, r, tbn), cT);
  r = fb_divui(b, r, tbn);
  MlirValue a0 = fb_muli(b, fb_remui(b, r, ta), cT);
  r = fb_divui(b, r, ta);
  idx_t it = {.rank = R};
  for (int d = R - 2; d >= 0; d--) {
    if (d == a) continue;
    if (k->extent[d] == 1 || fuser_tile_side(p, R, d) != 0) {
      it.v[d] = kg_cidx(g, 0);
      continue;
    }
    MlirValue e = kg_iter_extent(g, d);
    it.v[d] = fb_remui(b, r, e);
    r = fb_divui(b, r, e);
  }
  MlirValue tile[4] = {a0, b0, sides[0], sides[1]};
  emit_tile(g, p, gpu, tid, &it, tile, columns);
  fb_set_ip(b, after);
}

static void set_attr(MlirOperation f, const char *name, MlirAttribute a) {
  mlirOperationSetDiscardableAttributeByName(f, mlirStringRefCreateFromCString(name), a);
}

MlirOperation fk_transpose_codegen(fk_kernel *k, const fk_codegen_options *o, const fuser_tile_plan *p, bool gpu,
                                   MlirOperation after) {
  MlirContext ctx = mlirOperationGetContext(k->func);
  int T = p->tile, R = k->rank, a = p->tile_dim;
  /* one shared-memory buffer of tile^2 elements per tiled input */
  MlirType wg[4], st[4];
  fb_builder tb;
  fb_init(&tb, ctx, mlirOperationGetLocation(k->func));
  for (int i = 0; i < p->ntiled; i++) {
    fuser_dtype dt = k->t[p->tiled[i]].dtype;
    st[i] = dt == FUSER_DTYPE_I1 ? mlirIntegerTypeGet(ctx, 8) : fuser_dtype_to_type(ctx, dt);
    wg[i] = fb_workgroup_memref_type(&tb, st[i], (int64_t)T * T);
  }
  fb_free(&tb);
  gen g;
  MlirOperation f = kg_open(&g, k, o, after, gpu ? p->ntiled : 0, wg);
  if (g.failed) return kg_close(&g, f, o);
  fb_builder *b = &g.b;
  /* statically misaligned tensors: element accesses (the branch folds away) */
  for (int t = 0; t < k->num_tensors; t++)
    if (p->narrow[t]) g.access_ok[t] = fb_const_bool(b, false);
  g.tile.T = T;
  g.tile.W = p->width;
  int64_t sa = static_group_extent(k, p->a_lo, a), sb = static_group_extent(k, p->b_lo, R - 1);
  g.tile.a_whole = sa > 0 && sa % p->width == 0;
  g.tile.b_whole = sb > 0 && sb % p->width == 0;
  MlirBlock entry = fb_body(f);
  MlirValue tid = {NULL}, first, step;
  for (int i = 0; i < p->ntiled; i++) {
    MlirValue buf;
    if (gpu) {
      buf = mlirBlockGetArgument(entry, g.nparams + i);
    } else {
      MlirType bt = fb_memref_1d_type(st[i], (int64_t)T * T);
      /* 16-byte aligned: phase 1 stores whole chunks */
      MlirNamedAttribute at[2] = {fb_named(b, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, (int32_t[]){0, 0})),
                                  fb_named(b, "alignment", fb_i64_attr(b, 16))};
      buf = fb_result(fb_op(b, "memref.alloca", 1, &bt, 0, NULL, 2, at, 0), 0);
    }
    g.tile.buf[p->tiled[i]] = buf;
  }
  if (gpu) {
    tid = fb_thread_id(b, 'x');
    first = fb_block_id(b, 'x');
    step = fb_grid_dim(b, 'x');
  } else {
    first = kg_cidx(&g, 0);
    step = kg_cidx(&g, 1);
  }
  /* the tile's sides: the groups [a_lo, a] and [b_lo, R - 1], each indexed
   * on its innermost dim (0 on the others: under the merge conditions the
   * offsets are the same) */
  MlirValue A = group_extent(&g, p->a_lo, a), B = group_extent(&g, p->b_lo, R - 1), cT = kg_cidx(&g, T);
  MlirValue ta = fb_ceildivui(b, A, cT), tbn = fb_ceildivui(b, B, cT);
  MlirValue ntiles = fb_muli(b, ta, tbn);
  for (int d = 0; d < R - 1; d++)
    if (fuser_tile_side(p, R, d) == 0) ntiles = fb_muli(b, ntiles, kg_iter_extent(&g, d));
  /* phase 2 in columns where an output may be misaligned: statically, or
   * under a uniform branch on the outputs' checks, outside the tile loop
   * (one loop per form: ptxas gave a loop holding both forms 120 registers
   * where each alone takes 96) */
  bool always;
  MlirValue cols = columns_condition(&g, p, &always);
  bool both = !mlirValueIsNull(cols);
  MlirValue grid[5] = {first, step, ntiles, ta, tbn}, sides[2] = {A, B};
  if (mlirValueIsNull(cols)) {
    tile_loop(&g, p, gpu, tid, grid, sides, always, true);
  } else {
    MlirOperation br = fb_if(b, cols, 0, NULL, true);
    g.pro = fb_ip_before(br);
    fb_move_const_ip(b, g.pro);
    fb_set_ip(b, fb_ip_in(fb_then(br)));
    tile_loop(&g, p, gpu, tid, grid, sides, true, false);
    fb_set_ip(b, fb_ip_in(fb_else(br)));
    tile_loop(&g, p, gpu, tid, grid, sides, false, false);
  }
  MlirOperation out = kg_close(&g, f, o);
  if (!mlirOperationIsNull(out)) {
    set_attr(out, "fuser.row_kernel", mlirUnitAttrGet(ctx));
    /* both forms in one kernel: ptxas gave the bf16 tile of 128 threads 108
     * registers where each form alone takes 96 (5 blocks an SM);
     * .minnctapersm keeps 5 blocks of 128 threads (96 registers) and 4 of
     * 256 (64 registers, as measured: bench/results/h200_2026-12-07_session12) */
    if (both) set_attr(out, "fuser.min_blocks_per_sm", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), p->threads >= 256 ? 4 : 5));
    set_attr(out, "fuser.workgroup_buffers", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), gpu ? p->ntiled : 0));
    /* the buffers' alignment (phase 1 stores 16-byte chunks) */
    set_attr(out, "fuser.workgroup_align", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 16));
    /* a block per tile: ceil(A / T) ceil(B / T) x the other extents of
     * result 0, A and B the products of the sides' dims (tile_sides: 1 for
     * the group [a_lo, a], 2 for [b_lo, R - 1], 0 for the others, by result dim) */
    MlirType i64 = mlirIntegerTypeGet(ctx, 64);
    int64_t sides[FK_R] = {0};
    for (int d = 0; d < R; d++) sides[k->iter_dim[d]] = fuser_tile_side(p, R, d);
    MlirAttribute vals[6] = {mlirIntegerAttrGet(i64, k->num_args), mlirIntegerAttrGet(i64, 0), mlirIntegerAttrGet(i64, R),
                             mlirIntegerAttrGet(i64, 1), mlirIntegerAttrGet(i64, T), mlirDenseI64ArrayGet(ctx, R, sides)};
    const char *names[6] = {"tensor", "first", "dims", "rows_per_block", "tile", "tile_sides"};
    MlirNamedAttribute rg[6];
    for (int i = 0; i < 6; i++) rg[i] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(names[i])), vals[i]);
    set_attr(out, "fuser.row_grid", mlirDictionaryAttrGet(ctx, 6, rg));
  }
  return out;
}
