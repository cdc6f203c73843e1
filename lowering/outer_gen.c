/* outer_gen.c: the outer (columns) reduction schedule: the reduced leading
 * dims merge into one row index; thread t of a block owns a column vector
 * and a row group, sums its rows with U rows in flight, the row groups
 * combine in a fixed tree through shared memory (the CPU form replays the
 * same tree), and row group 0 stores the kept-shape results
 * (row_gen_internal.h). The outer persistent schedule shares the thread
 * context and the tree: each thread holds its V rows of the column vector
 * (chunks, loaded once), and every thread stores its rows of the result
 * (the inner epilogue of row_gen.c over the chunks).
 *
 * Before (kernel level): softmax over dim 1 of [B, C, W], kind outer_persistent,
 *   %2 = "fuser.max"(%1) {dims = array<i64: 1>} ... broadcast_in_dim ... sub, exp, sum, div
 * After (GPU form, held variant): thread t: cv = t mod CW, rg = t / CW;
 *   %x_u = vector.load %mem_t0[(b * C + rg + u * G) * W + col] {alignment = 16} (u < V)
 *   max of the x_u, the tree over the G row groups (store, gpu.barrier, ...),
 *   exp(x_u - max), their sum, the tree again, vector.store of exp_u / sum. */
#include <string.h>

#include "lowering/row_gen_internal.h"
#include "passes/ir_util.h"

/* ---- the outer schedule ------------------------------------------------------ */

/* Outer persistent: the thread's held rows rg, rg + G, ... (a chunk each,
 * V of them). A row past the end (static rows not a multiple of G, or
 * symbolic rows) reads row rows - 1 and counts as the neutral element;
 * chunks that lie inside the rows for every thread get no check. */
static void held_rows(rgen *g) {
  fb_builder *b = &g->b;
  int V = g->var->vectors, G = g->T;
  MlirValue last = fb_subi(b, g->rows, rg_idx(g, 1));
  for (int u = 0; u < V; u++) {
    MlirValue r = fb_addi(b, g->rg, rg_idx(g, (int64_t)u * G));
    g->chunk_ok[u] = (MlirValue){NULL};
    if (g->s->rows == INT64_MIN || (int64_t)(u + 1) * G > g->s->rows) {
      g->chunk_ok[u] = fb_cmpi(b, FB_CMPI_ULT, r, g->rows);
      r = fb_select(b, g->chunk_ok[u], r, last);
    }
    g->rowc[u] = r;
  }
  g->nchunks = V;
}

/* Thread t of a block: column vector cv = t mod CW of the block's tile,
 * row group rg = t / CW; a column past the end reads the last vector and
 * stores nothing. (rows_per_block holds CW, threads the row groups.) */
void rg_outer_thread_context(rgen *g, MlirValue tid, MlirValue bid) {
  fb_builder *b = &g->b;
  int cw = g->RPB;
  g->tid = tid;
  g->cv = fb_remui(b, tid, rg_idx(g, cw));
  g->rg = fb_divui(b, tid, rg_idx(g, cw));
  g->lane = rg_idx(g, 0);
  g->rib = rg_idx(g, 0);
  MlirValue col = fb_muli(b, fb_addi(b, fb_muli(b, bid, rg_idx(g, cw)), g->cv), rg_idx(g, g->W));
  g->col_ok = fb_cmpi(b, FB_CMPI_ULT, col, g->row_len);
  g->col[0] = fb_select(b, g->col_ok, col, fb_subi(b, g->row_len, rg_idx(g, g->W)));
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
  if (g->held) held_rows(g);
}

/* The thread's partial over its rows rg, rg + G, ...: U rows in flight per
 * step while whole steps fit, then one row at a time. */
MlirValue rg_outer_partial(rgen *g, const phase *ph) {
  fb_builder *b = &g->b;
  MlirValue in = mlirOperationGetOperand(ph->red, 0);
  fuser_dtype in_dt = fuser_value_dtype(in);
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
  int U = g->var->vectors, G = g->T;
  MlirValue mean = ph->pass == 1 ? g->red[g->nred - 1].val[1] : (MlirValue){NULL};
  MlirValue acc = fb_broadcast(b, rg_neutral_const(g, ph->id, ph->acc), rg_vec_type(g, ph->acc));
  MlirValue step = rg_idx(g, (int64_t)U * G);
  MlirValue full = fb_muli(b, fb_divui(b, g->rows, step), step);
  for (int pass = 0; pass < 2; pass++) {
    int n = pass == 0 ? U : 1;
    MlirValue lb = pass == 0 ? rg_idx(g, 0) : fb_addi(b, full, g->rg), ub = pass == 0 ? full : g->rows;
    MlirOperation loop = fb_for(b, lb, ub, pass == 0 ? step : rg_idx(g, G), 1, &acc);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_end(fb_body(loop)));
    rg_scope_push(g);
    MlirValue a = fb_for_iter_arg(loop, 0), x[MAX_CHUNKS];
    for (int u = 0; u < n; u++) {
      g->rowc[u] = pass == 0 ? fb_addi(b, fb_for_iv(loop), fb_addi(b, g->rg, rg_idx(g, (int64_t)u * G))) : fb_for_iv(loop);
      x[u] = rg_convert(g, rg_eval(g, in, map, u), in_dt, ph->acc); /* every load of the step first */
    }
    for (int u = 0; u < n; u++) {
      MlirValue v = x[u];
      if (ph->pass == 1) {
        MlirValue d = fb_binary(b, "arith.subf", v, mean);
        v = fb_binary(b, "arith.mulf", d, d);
      }
      a = rg_combine(g, ph->id, ph->acc, a, v);
    }
    fb_yield(b, 1, &a);
    rg_scope_pop(g);
    fb_set_ip(b, save);
    acc = fb_result(loop, 0);
  }
  return acc;
}

/* The row groups' partials combined in a fixed tree through buffer p
 * (block x W elements): step s adds group rg + s into rg for rg < s. GPU
 * form: every thread stores, barriers between steps; then every thread
 * reads its column's total. */
MlirValue rg_outer_tree_gpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue p) {
  fb_builder *b = &g->b;
  int cw = g->RPB;
  MlirType vt = rg_vec_type(g, acc);
  MlirValue mine = fb_muli(b, g->tid, rg_idx(g, g->W));
  fb_vector_store(b, x, p, mine, 0);
  fb_barrier(b);
  for (int s = g->T / 2; s >= 1; s /= 2) {
    MlirOperation ifop = fb_if(b, fb_cmpi(b, FB_CMPI_ULT, g->rg, rg_idx(g, s)), 0, NULL, false);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_in(fb_then(ifop)));
    MlirValue other = fb_addi(b, mine, rg_idx(g, (int64_t)s * cw * g->W));
    fb_vector_store(b, rg_combine(g, id, acc, fb_vector_load(b, vt, p, mine, 0), fb_vector_load(b, vt, p, other, 0)), p, mine, 0);
    fb_set_ip(b, save);
    fb_barrier(b);
  }
  return fb_vector_load(b, vt, p, fb_muli(b, g->cv, rg_idx(g, g->W)), 0);
}

/* The CPU form's replay of the same tree over the block's partials. */
void rg_outer_tree_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p) {
  fb_builder *b = &g->b;
  int cw = g->RPB;
  MlirType vt = rg_vec_type(g, acc);
  for (int s = g->T / 2; s >= 1; s /= 2) {
    MlirOperation loop = fb_for(b, rg_idx(g, 0), rg_idx(g, (int64_t)s * cw), rg_idx(g, 1), 0, NULL);
    fb_ip save = fb_get_ip(b);
    fb_set_ip(b, fb_ip_in(fb_body(loop)));
    MlirValue mine = fb_muli(b, fb_for_iv(loop), rg_idx(g, g->W));
    MlirValue other = fb_addi(b, mine, rg_idx(g, (int64_t)s * cw * g->W));
    fb_vector_store(b, rg_combine(g, id, acc, fb_vector_load(b, vt, p, mine, 0), fb_vector_load(b, vt, p, other, 0)), p, mine, 0);
    fb_set_ip(b, save);
  }
}

/* Results (of the kept shape) from row group 0's threads, where the column
 * exists. */
void rg_outer_epilogue(rgen *g) {
  fb_builder *b = &g->b;
  MlirValue cond = fb_andi(b, g->col_ok, fb_cmpi(b, FB_CMPI_EQ, g->rg, rg_idx(g, 0)));
  MlirOperation ifop = fb_if(b, cond, 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  rg_scope_push(g);
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
    rg_store(g, t, map, -1, rg_eval(g, mlirOperationGetOperand(ret, j), map, -1));
  }
  rg_scope_pop(g);
  fb_set_ip(b, save);
}
