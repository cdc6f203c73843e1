/* inner_outer_gen.c: the inner_outer schedule's own part of the row
 * generator (passes/schedule_reduction.h; the kernel comes from
 * fuser-fuse-inner-outer): its partial results, the column sums of values
 * of the rows over a group of R consecutive rows. The rows themselves are
 * the inner persistent code of row_gen.c, run once per row of the group
 * (row_gen.c's loop); here: which results are partials, each thread's
 * partial vectors (one per partial and chunk: the thread's columns are the
 * same in every row, so they add up in registers, in row order), and the
 * store of the group's row of partials.
 *
 *   scf.for %j = 0 to R iter_args(%acc = -0.0 ...) {   (row_gen.c)
 *     ... the row (b x RPB + rib) x R + j: phases, dx epilogue ...
 *     %x = <the partial's value at the thread's chunk>   (rg_io_accumulate)
 *     %acc2 = arith.addf %acc, %x
 *   }
 *   vector.store %acc, %partials[group x H + col]      (rg_io_store) */
#include <string.h>

#include "lowering/row_gen_internal.h"
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

void rg_io_accumulate(rgen *g, MlirValue *acc) {
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
  for (int p = 0; p < g->npart && !g->failed; p++)
    for (int c = 0; c < g->nchunks; c++) {
      MlirValue x = rg_convert(g, rg_eval(g, g->part_value[p], map, c), fuser_value_dtype(g->part_value[p]), FUSER_DTYPE_F32);
      /* a ragged chunk (past the row's end) adds the neutral element */
      if (!mlirValueIsNull(g->chunk_ok[c])) x = fb_select(&g->b, g->chunk_ok[c], x, rg_io_neutral(g));
      acc[p * g->nchunks + c] = rg_combine(g, FUSER_OP_sum, FUSER_DTYPE_F32, acc[p * g->nchunks + c], x);
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
