/* row_gen_block.c: the inner (row) schedules' thread context (row, lane,
 * chunks of thread t) and the block reduction: the warp butterfly of
 * gpu.shuffle xor, per-warp partials through shared memory (GPU form), and
 * the CPU form's replay of the same butterflies in the same pairing order,
 * so both forms combine the partials identically (row_gen_internal.h). */
#include "lowering/row_gen_internal.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- thread context: row, lane, chunks ------------------------------------ */

void rg_thread_context(rgen *g, MlirValue tid, MlirValue bid) {
  fb_builder *b = &g->b;
  g->tid = tid;
  g->lane = g->T > 1 ? fb_remui(b, tid, rg_idx(g, g->T)) : rg_idx(g, 0);
  g->rib = g->RPB > 1 ? fb_divui(b, tid, rg_idx(g, g->T)) : rg_idx(g, 0);
  if (g->S > 1) {
    /* a cluster per row: blocks S r .. S r + S - 1 (a 1-D cluster's rank is
     * the block id mod S); chunks of whole vectors, the last ones may be short or empty */
    g->crank = fb_remui(b, bid, rg_idx(g, g->S));
    bid = fb_divui(b, bid, rg_idx(g, g->S));
    /* persistent: the T x V vectors the block holds; looped: the row in S
     * near-equal runs of whole vectors */
    int64_t sw = (int64_t)g->S * g->W;
    MlirValue chunk = g->var->vectors > 0            ? rg_idx(g, (int64_t)g->T * g->var->vectors * g->W)
                      : g->s->row_len != INT64_MIN ? rg_idx(g, (g->s->row_len + sw - 1) / sw * g->W)
                                                   : fb_muli(b, fb_ceildivui(b, g->row_len, rg_idx(g, sw)), rg_idx(g, g->W)); /* symbolic row */
    g->clo = fb_muli(b, g->crank, chunk);
    g->chi = fb_binary(b, "arith.minui", fb_addi(b, g->clo, chunk), g->row_len);
  }
  MlirValue row = fb_addi(b, fb_muli(b, bid, rg_idx(g, g->RPB)), g->rib);
  /* inner_outer: row `step` of the thread's group of group_rows rows */
  if (g->group_rows > 0) row = fb_addi(b, fb_muli(b, row, rg_idx(g, g->group_rows)), g->step);
  g->valid = fb_cmpi(b, FB_CMPI_ULT, row, g->rows);
  /* rows past the end (the last block of short rows) read the last row and store nothing */
  if (g->RPB > 1) row = fb_select(b, g->valid, row, fb_subi(b, g->rows, rg_idx(g, 1)));
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
  /* the cluster's last block holds the row's end */
  int64_t last_lo = g->S > 1 ? (int64_t)(g->S - 1) * g->T * g->var->vectors * g->W : 0;
  for (int c = 0; c < g->nchunks && g->var->vectors > 0; c++) {
    g->col[c] = fb_muli(b, fb_addi(b, fb_muli(b, rg_idx(g, c), rg_idx(g, g->T)), g->lane), rg_idx(g, g->W));
    if (g->S > 1) g->col[c] = fb_addi(b, g->clo, g->col[c]);
    g->chunk_ok[c] = (MlirValue){NULL};
    /* a ragged row (V x T vectors > N / W): chunks past the end read the
     * row's last vector (in bounds), add the neutral element, store nothing */
    if (last_lo + (int64_t)(c + 1) * g->T * g->W > g->s->row_len) {
      g->chunk_ok[c] = fb_cmpi(b, FB_CMPI_ULT, g->col[c], g->row_len);
      g->col[c] = fb_select(b, g->chunk_ok[c], g->col[c], rg_idx(g, g->s->row_len - g->W));
    }
  }
}

/* ---- block reduction ------------------------------------------------------ */

/* gpu.shuffle xor of a 32- or 64-bit scalar (64-bit: two 32-bit halves). */
static MlirValue shuffle(rgen *g, MlirValue x, fuser_dtype dt, int off) {
  fb_builder *b = &g->b;
  MlirType i32 = mlirIntegerTypeGet(rg_ctx_of(g), 32), i64 = mlirIntegerTypeGet(rg_ctx_of(g), 64);
  MlirValue o = fb_const_int(b, i32, off), w = fb_const_int(b, i32, 32);
  if (fuser_dtype_size(dt) == 4) return fb_shuffle_xor(b, x, o, w, NULL);
  MlirValue bits = dt == FUSER_DTYPE_F64 ? fb_cast(b, "arith.bitcast", x, i64) : x;
  MlirValue lo = fb_cast(b, "arith.trunci", bits, i32);
  MlirValue hi = fb_cast(b, "arith.trunci", fb_binary(b, "arith.shrui", bits, fb_const_int(b, i64, 32)), i32);
  lo = fb_shuffle_xor(b, lo, o, w, NULL);
  hi = fb_shuffle_xor(b, hi, o, w, NULL);
  MlirValue r = fb_binary(b, "arith.ori", fb_cast(b, "arith.extui", lo, i64),
                          fb_binary(b, "arith.shli", fb_cast(b, "arith.extui", hi, i64), fb_const_int(b, i64, 32)));
  return dt == FUSER_DTYPE_F64 ? fb_cast(b, "arith.bitcast", r, rg_elem_type(g, dt)) : r;
}

/* Every thread of the row gets the row's combination of the threads'
 * partials x[i] of n independent reductions (GPU form): warp butterflies,
 * then across the row's warps through workgroup buffers wg[i], at slot
 * `base` (NULL: 0) on. The n reductions share one barrier: their butterfly
 * steps interleave (n shuffles in flight), each value combined in the same
 * order as alone, so the bits are those of n separate reductions. */
void rg_block_allreduce_gpu(rgen *g, int n, const fuser_op_id *id, const fuser_dtype *acc, MlirValue *x, const MlirValue *wg,
                            MlirValue base) {
  fb_builder *b = &g->b;
  int lanes = g->T < 32 ? g->T : 32;
  for (int off = lanes / 2; off >= 1; off /= 2) {
    MlirValue sh[MAX_REDS];
    for (int i = 0; i < n; i++) sh[i] = shuffle(g, x[i], acc[i], off);
    for (int i = 0; i < n; i++) x[i] = rg_combine(g, id[i], acc[i], x[i], sh[i]);
  }
  if (g->T <= 32) return;
  int nwr = g->T / 32; /* warps per row */
  MlirValue lane32 = fb_remui(b, g->tid, rg_idx(g, 32)), warp = fb_divui(b, g->tid, rg_idx(g, 32));
  if (!mlirValueIsNull(base)) warp = fb_addi(b, base, warp);
  MlirOperation ifop = fb_if(b, fb_cmpi(b, FB_CMPI_EQ, lane32, rg_idx(g, 0)), 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  for (int i = 0; i < n; i++) fb_store(b, x[i], wg[i], warp);
  fb_set_ip(b, save);
  fb_barrier(b);
  MlirValue slot = fb_addi(b, fb_muli(b, g->rib, rg_idx(g, nwr)), fb_remui(b, lane32, rg_idx(g, nwr)));
  if (!mlirValueIsNull(base)) slot = fb_addi(b, base, slot);
  for (int i = 0; i < n; i++) x[i] = fb_load(b, wg[i], slot);
  for (int off = nwr / 2; off >= 1; off /= 2) {
    MlirValue sh[MAX_REDS];
    for (int i = 0; i < n; i++) sh[i] = shuffle(g, x[i], acc[i], off);
    for (int i = 0; i < n; i++) x[i] = rg_combine(g, id[i], acc[i], x[i], sh[i]);
  }
}

/* The CPU form's replay of the same butterflies over the block's partials
 * p[0 .. block): returns the combination for the row of thread `tid`'s
 * row-in-block index rib (p is overwritten). */
static void butterfly_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p, MlirValue base, int n, int stride) {
  fb_builder *b = &g->b;
  for (int off = n / 2; off >= 1; off /= 2) {
    MlirOperation loop = fb_for(b, rg_idx(g, 0), rg_idx(g, off), rg_idx(g, 1), 0, NULL);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_in(fb_body(loop)));
    MlirValue i = fb_addi(b, base, fb_muli(b, fb_for_iv(loop), rg_idx(g, stride)));
    MlirValue j = fb_addi(b, i, rg_idx(g, off * stride));
    fb_store(b, rg_combine(g, id, acc, fb_load(b, p, i), fb_load(b, p, j)), p, i);
    fb_set_ip(b, save);
  }
}

MlirValue rg_block_allreduce_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p, MlirValue rib) {
  fb_builder *b = &g->b;
  MlirValue base = fb_muli(b, rib, rg_idx(g, g->T));
  int lanes = g->T < 32 ? g->T : 32;
  int nwr = g->T / lanes;
  /* each warp of the row */
  MlirOperation wl = fb_for(b, rg_idx(g, 0), rg_idx(g, nwr), rg_idx(g, 1), 0, NULL);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_body(wl)));
  butterfly_cpu(g, id, acc, p, fb_addi(b, base, fb_muli(b, fb_for_iv(wl), rg_idx(g, 32))), lanes, 1);
  fb_set_ip(b, save);
  if (nwr > 1) butterfly_cpu(g, id, acc, p, base, nwr, 32);
  return fb_load(b, p, base);
}
