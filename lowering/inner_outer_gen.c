/* inner_outer_gen.c: the inner_outer schedule's own part of the row
 * generator (passes/schedule_reduction.h; the kernel comes from
 * fuser-fuse-inner-outer): its partial results, the column sums of values
 * of the rows over a group of R consecutive rows. The rows themselves are
 * the inner persistent code of row_gen.c, run once per row of the group
 * (row_gen.c's loop); here: which results are partials, each thread's
 * partial vectors (one per partial and chunk: the thread's columns are the
 * same in every row, so they add up in registers, in row order), the
 * store of the group's row of partials, and the loop over the group's rows
 * (GPU form: an scf.for carrying the partials and the row's vectors of the
 * row tensors, loaded a row ahead; CPU form: the threads' partials in a
 * buffer per block).
 *
 *   %g0 = vector.load %grad[row 0 ...]                  (the row tensors' chunks)
 *   scf.for %j = 0 to R iter_args(%acc = -0.0 ..., %g = %g0 ...) {
 *     %gn = vector.load %grad[row min(j + 1, R - 1) ...] (issued first)
 *     %acc2 = arith.addf %acc, <the partial's value>     (rg_io_accumulate, early)
 *     ... row j from %g: its sums (one block reduction, slot set j mod 2),
 *         the dx epilogue (row_gen.c) ...
 *     scf.yield %acc2 ..., %gn ...
 *   }
 *   vector.store %acc, %partials[group x H + col]      (rg_io_store) */
#include <string.h>

#include "lowering/row_gen_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"
#include "passes/schedule_reduction.h"

void rg_io_init(rgen *g) {
  g->npart = 0;
  if (g->s->kind != FUSER_SCHED_INNER_OUTER) return;
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(g->k->func));
  for (int j = 0; j < g->k->num_results; j++) {
    MlirValue x;
    int64_t groups;
    if (!fuser_inner_outer_partial(mlirOperationGetOperand(ret, j), &x, &groups)) continue;
    if (g->npart == FUSER_SCHED_MAX_PARTIALS) {
      rg_unsupported(g, "too many inner-outer partials");
      return;
    }
    g->part_tensor[g->npart] = g->k->num_args + j;
    g->part_value[g->npart++] = x;
  }
  g->group_rows = g->s->rows / g->s->partials;
}

bool rg_io_is_partial(const rgen *g, int t) {
  for (int p = 0; p < g->npart; p++)
    if (g->part_tensor[p] == t) return true;
  return false;
}

int rg_io_num_acc(const rgen *g) { return g->npart * g->nchunks; }

MlirValue rg_io_neutral(rgen *g) {
  return fb_broadcast(&g->b, rg_neutral_const(g, FUSER_OP_sum, FUSER_DTYPE_F32), rg_vec_type(g, FUSER_DTYPE_F32));
}

/* Whether partial p is computed from no row reduction of the kernel. */
static bool independent_of_rows(const rgen *g, int p) {
  for (MlirOperation op = mlirBlockGetFirstOperation(fuser_func_body(g->k->func)); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    fuser_op_kind kind = fuser_op_kind_of(fuser_op_id_of(op));
    if ((kind == FUSER_KIND_REDUCTION || kind == FUSER_KIND_VAR_MEAN) && rg_computed_from(g->part_value[p], op)) return false;
  }
  return true;
}

void rg_io_accumulate(rgen *g, MlirValue *acc, bool early) {
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
  for (int p = 0; p < g->npart && !g->failed; p++) {
    if (early) g->part_early[p] = independent_of_rows(g, p);
    else if (g->part_early[p]) continue;
    if (early && !g->part_early[p]) continue;
    for (int c = 0; c < g->nchunks; c++) {
      MlirValue x = rg_convert(g, rg_eval(g, g->part_value[p], map, c), fuser_value_dtype(g->part_value[p]), FUSER_DTYPE_F32);
      /* a ragged chunk (past the row's end) adds the neutral element */
      if (!mlirValueIsNull(g->chunk_ok[c])) x = fb_select(&g->b, g->chunk_ok[c], x, rg_io_neutral(g));
      acc[p * g->nchunks + c] = rg_combine(g, FUSER_OP_sum, FUSER_DTYPE_F32, acc[p * g->nchunks + c], x);
    }
  }
}

void rg_io_store(rgen *g, const MlirValue *acc, MlirValue group) {
  fb_builder *b = &g->b;
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  map[0] = 0, map[1] = (int8_t)g->s->outer; /* [group, the row's last dim] */
  MlirValue row = g->outer_idx[0];
  g->outer_idx[0] = group; /* the partials' row is the group */
  for (int p = 0; p < g->npart && !g->failed; p++)
    for (int c = 0; c < g->nchunks; c++) {
      fb_ip save = fb_get_ip(b);
      if (!mlirValueIsNull(g->chunk_ok[c])) {
        MlirOperation cif = fb_if(b, g->chunk_ok[c], 0, NULL, false);
        fb_set_ip(b, fb_ip_in(fb_then(cif)));
      }
      rg_store(g, g->part_tensor[p], map, c, acc[p * g->nchunks + c]);
      fb_set_ip(b, save);
    }
  g->outer_idx[0] = row;
}

/* ---- the loop over a group's rows (row_gen.c emits the row inside) ------- */

/* Whether argument t is a row tensor the loop loads a row ahead: of the
 * row space's shape (no dim of static extent 1: the walker reads it with
 * the identity map), read only by ops of its rank. */
static bool prefetched(rgen *g, int t) {
  const fk_tensor *ft = &g->k->t[t];
  if (!ft->is_tensor || ft->rank != g->s->rank || ft->dtype == FUSER_DTYPE_I1) return false;
  for (int d = 0; d < ft->rank; d++)
    if (ft->shape[d] == 1) return false;
  MlirValue a = mlirBlockGetArgument(fuser_func_body(g->k->func), t);
  bool used = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(a); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation op = mlirOpOperandGetOwner(u);
    fuser_op_kind kind = fuser_op_kind_of(fuser_op_id_of(op));
    if ((kind != FUSER_KIND_UNARY && kind != FUSER_KIND_BINARY && kind != FUSER_KIND_TERNARY) ||
        mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(op, 0))) != ft->rank)
      return false;
    used = true;
  }
  return used;
}

/* The bytes a thread may hold of the next row (16 registers): LayerNorm
 * backward's grad and x at 2 chunks of 16 bytes. */
#define PREFETCH_BYTES 64

/* The vectors loaded a row ahead: every chunk of each prefetched argument,
 * while they fit PREFETCH_BYTES. */
static void choose_prefetch(rgen *g) {
  g->npre = 0;
  int bytes = 0;
  for (int t = 0; t < g->k->num_args; t++) {
    if (!prefetched(g, t)) continue;
    int b = g->nchunks * g->W * fuser_dtype_size(g->k->t[t].dtype);
    if (bytes + b > PREFETCH_BYTES || g->npre + g->nchunks > MAX_PREFETCH) continue;
    bytes += b;
    for (int c = 0; c < g->nchunks; c++) g->pre_t[g->npre] = t, g->pre_c[g->npre++] = c;
  }
}

/* inner_outer (GPU form): opens the loop over the group's rows, the
 * partials (acc) and the prefetched vectors as its iter_args; the row code
 * then goes in its body. Row j's vectors come from iteration j - 1 (row 0's
 * from before the loop), and iteration j first issues row j + 1's loads
 * (the last row's: its own again), so they are in flight during row j's
 * reductions and stores instead of after them. */
MlirOperation rg_io_open_rows(rgen *g, MlirValue *acc, fb_ip *after, MlirValue tid, MlirValue bid) {
  fb_builder *b = &g->b;
  g->nchunks = g->var->vectors;
  int n = rg_io_num_acc(g);
  MlirValue init[FUSER_SCHED_MAX_PARTIALS * MAX_CHUNKS + MAX_PREFETCH];
  for (int i = 0; i < n; i++) init[i] = rg_io_neutral(g);
  choose_prefetch(g);
  g->step = rg_idx(g, 0);
  rg_thread_context(g, tid, bid);
  for (int i = 0; i < g->npre; i++) init[n + i] = rg_load_row(g, g->pre_t[i], g->pre_c[i]);
  MlirOperation loop = fb_for(b, rg_idx(g, 0), rg_idx(g, g->group_rows), rg_idx(g, 1), n + g->npre, init);
  *after = fb_get_ip(b);
  fb_set_ip(b, fb_ip_end(fb_body(loop)));
  rg_scope_push(g);
  MlirValue j = fb_for_iv(loop);
  g->step = fb_binary(b, "arith.minui", fb_addi(b, j, rg_idx(g, 1)), rg_idx(g, g->group_rows - 1));
  rg_thread_context(g, tid, bid);
  for (int i = 0; i < g->npre; i++) g->pre_next[i] = rg_load_row(g, g->pre_t[i], g->pre_c[i]);
  g->step = j;
  for (int i = 0; i < g->npre; i++) rg_preload(g, g->pre_t[i], g->pre_c[i], fb_for_iter_arg(loop, n + i));
  /* row j's block reductions use slot set j mod 2 of their buffers: a warp
   * writes row j + 2's slots only after row j + 1's barrier, which every
   * warp reaches after reading row j's; so no barrier ends the row */
  if (g->T > 32) g->wg_base = fb_muli(b, fb_remui(b, g->step, rg_idx(g, 2)), rg_idx(g, g->block / 32));
  for (int i = 0; i < n; i++) acc[i] = fb_for_iter_arg(loop, i);
  return loop;
}

/* Closes it: adds the row's values (no barrier: the next row's block
 * reductions use the other slot set), passes the next row's vectors on;
 * then stores the group's partials. */
void rg_io_close_rows(rgen *g, MlirOperation loop, MlirValue *acc, fb_ip after, MlirValue tid, MlirValue bid) {
  fb_builder *b = &g->b;
  int n = rg_io_num_acc(g);
  rg_io_accumulate(g, acc, false);
  MlirValue next[FUSER_SCHED_MAX_PARTIALS * MAX_CHUNKS + MAX_PREFETCH];
  for (int i = 0; i < n; i++) next[i] = acc[i];
  for (int i = 0; i < g->npre; i++) next[n + i] = g->pre_next[i];
  fb_yield(b, n + g->npre, next);
  rg_scope_pop(g);
  fb_set_ip(b, after);
  for (int i = 0; i < n; i++) acc[i] = fb_result(loop, i);
  g->step = rg_idx(g, 0);
  g->wg_base = (MlirValue){NULL};
  rg_thread_context(g, tid, bid); /* the thread's columns and group */
  rg_io_store(g, acc, fb_addi(b, fb_muli(b, bid, rg_idx(g, g->RPB)), g->rib));
}

/* inner_outer (CPU form): each block's threads' partials in one buffer
 * [thread][partial x chunk] of W-wide vectors, set to the neutral element. */
MlirValue rg_io_cpu_partials(rgen *g) {
  fb_builder *b = &g->b;
  MlirContext ctx = rg_ctx_of(g);
  g->nchunks = g->var->vectors;
  int n = rg_io_num_acc(g);
  MlirType pt = fb_memref_1d_type(rg_elem_type(g, FUSER_DTYPE_F32), (int64_t)g->block * n * g->W);
  MlirValue buf = fb_result(fb_op(b, "memref.alloc", 1, &pt, 0, NULL, 1,
                                  (MlirNamedAttribute[]){fb_named(b, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, (int32_t[]){0, 0}))}, 0), 0);
  MlirOperation tl = fb_for(b, rg_idx(g, 0), rg_idx(g, (int64_t)g->block * n), rg_idx(g, 1), 0, NULL);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_body(tl)));
  fb_vector_store(b, rg_io_neutral(g), buf, fb_muli(b, fb_for_iv(tl), rg_idx(g, g->W)), 0);
  fb_set_ip(b, save);
  return buf;
}

/* The CPU form's thread `tid` adds its row's values into its partials in buf. */
void rg_io_cpu_accumulate(rgen *g, MlirValue buf, MlirValue tid) {
  fb_builder *b = &g->b;
  int n = rg_io_num_acc(g);
  MlirValue acc[FUSER_SCHED_MAX_PARTIALS * MAX_CHUNKS], at[FUSER_SCHED_MAX_PARTIALS * MAX_CHUNKS];
  for (int i = 0; i < n; i++) {
    at[i] = fb_muli(b, fb_addi(b, fb_muli(b, tid, rg_idx(g, n)), rg_idx(g, i)), rg_idx(g, g->W));
    acc[i] = fb_vector_load(b, rg_vec_type(g, FUSER_DTYPE_F32), buf, at[i], 0);
  }
  rg_io_accumulate(g, acc, false);
  for (int i = 0; i < n; i++) fb_vector_store(b, acc[i], buf, at[i], 0);
}

/* The CPU form's stores of every thread's group partials, then frees buf. */
void rg_io_cpu_store(rgen *g, MlirValue buf, MlirValue bid) {
  fb_builder *b = &g->b;
  int n = rg_io_num_acc(g);
  MlirOperation tl = fb_for(b, rg_idx(g, 0), rg_idx(g, g->block), rg_idx(g, 1), 0, NULL);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_body(tl)));
  rg_scope_push(g);
  g->step = rg_idx(g, 0);
  rg_thread_context(g, fb_for_iv(tl), bid);
  MlirValue acc[FUSER_SCHED_MAX_PARTIALS * MAX_CHUNKS];
  for (int i = 0; i < n; i++)
    acc[i] = fb_vector_load(b, rg_vec_type(g, FUSER_DTYPE_F32), buf,
                            fb_muli(b, fb_addi(b, fb_muli(b, fb_for_iv(tl), rg_idx(g, n)), rg_idx(g, i)), rg_idx(g, g->W)), 0);
  rg_io_store(g, acc, fb_addi(b, fb_muli(b, bid, rg_idx(g, g->RPB)), g->rib));
  rg_scope_pop(g);
  fb_set_ip(b, save);
  fb_op(b, "memref.dealloc", 0, NULL, 1, &buf, 0, NULL, 0);
}
