/* row_gen_internal.h: the private state and shared helpers of the row and
 * outer reduction kernel generator (the implementation of row_gen.h), split
 * by responsibility into:
 *   row_gen_values.c  types and conversions, the memo, loads and stores,
 *                     element-wise ops, combine/neutral, the walker (eval);
 *   row_gen_block.c   the inner schedules' thread context and block
 *                     reduction (warp shuffles, GPU and CPU all-reduce);
 *   outer_gen.c       the outer (columns) schedule: thread context, partial
 *                     over rows, the row groups' tree, epilogue; the outer
 *                     persistent schedule's held rows;
 *   inner_outer_gen.c the inner_outer schedule's partial results (column
 *                     sums over a row group, in registers);
 *   row_gen.c         phases, the inner epilogue, parameters, run-time
 *                     conditions, variants and the public entry points.
 * Only those files include this header; every other client uses row_gen.h.
 * Shared functions carry the rg_ prefix; the rest stay static in their file. */
#ifndef FUSER_LOWERING_ROW_GEN_INTERNAL_H
#define FUSER_LOWERING_ROW_GEN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/fuser.h"
#include "lowering/builder.h"
#include "lowering/kernel_gen.h"
#include "lowering/row_gen.h"
#include "mlir-c/IR.h"
#include "passes/schedule_reduction.h"

#define MAX_CHUNKS 16
#define MAX_REDS 16
#define MAX_PREFETCH 8

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
  bool held; /* outer persistent: the chunks are the thread's held rows (registers) */
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
   * the cluster's blocks push their partials into (row_cluster.c) */
  int S;
  MlirValue crank, clo, chi;
  bool cluster_waited;
  /* inner_outer: each group of T threads walks group_rows rows (row j of
   * the group in `step`); the partial results (tensor, value summed) */
  int64_t group_rows;
  MlirValue step;
  MlirValue wg_base; /* the row's slot set in the block reduction's buffers (NULL: 0) */
  int npart;
  int part_tensor[FUSER_SCHED_MAX_PARTIALS];
  MlirValue part_value[FUSER_SCHED_MAX_PARTIALS];
  bool part_early[FUSER_SCHED_MAX_PARTIALS]; /* accumulated before the row's reductions */
  /* GPU form: the row vectors loaded one row ahead (argument pre_t[i] at
   * chunk pre_c[i]), carried by the loop; pre_next: the next row's */
  int npre;
  int pre_t[MAX_PREFETCH], pre_c[MAX_PREFETCH];
  MlirValue pre_next[MAX_PREFETCH];
} rgen;

/* One reduction pass over the rows: a reduction op, or one of var_mean's two. */
typedef struct {
  MlirOperation red;
  fuser_op_id id;   /* the combining op (var_mean: sum) */
  fuser_dtype acc;
  int pass;         /* var_mean: 0 the mean's sum, 1 the squared deviations */
} phase;

static inline MlirContext rg_ctx_of(rgen *g) { return g->b.ctx; }
static inline MlirValue rg_idx(rgen *g, int64_t v) { return fb_const_index(&g->b, v); }

/* row_gen_values.c */
void rg_unsupported(rgen *g, const char *why);
MlirType rg_elem_type(rgen *g, fuser_dtype dt);
MlirType rg_storage_type(rgen *g, fuser_dtype dt);
MlirType rg_vec_type(rgen *g, fuser_dtype dt);
bool rg_is_float(fuser_dtype dt);
MlirValue rg_convert(rgen *g, MlirValue x, fuser_dtype from, fuser_dtype to);
void rg_scope_push(rgen *g);
void rg_scope_pop(rgen *g);
int64_t rg_align_of(rgen *g, int t);
void rg_store(rgen *g, int t, const int8_t *map, int chunk, MlirValue v);
/* argument t's vector at `chunk` of the current row, as the walker loads a
 * full-rank argument (rg_load_row), and that value given to the walker as
 * that load (rg_preload, in the current scope): a load issued earlier */
MlirValue rg_load_row(rgen *g, int t, int chunk);
void rg_preload(rgen *g, int t, int chunk, MlirValue v);
fuser_dtype rg_acc_type(MlirOperation red);
MlirValue rg_combine(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue y);
/* row_cluster.c: the row's result from this block's total x, through the
 * cluster's blocks (the cluster variant, GPU form; cwg: the phase's S slots). */
MlirValue rg_cluster_allreduce_gpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue cwg);
MlirValue rg_neutral_const(rgen *g, fuser_op_id id, fuser_dtype acc);
MlirValue rg_lanes_tree(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue v);
MlirValue rg_eval(rgen *g, MlirValue v, const int8_t *map, int chunk);
/* Issues the loads of kernel arguments that rg_eval(v, map, chunk) would
 * read, reductions' inputs excepted, memoized in the current scope. */
void rg_prefetch(rgen *g, MlirValue v, const int8_t *map, int chunk);
/* Whether v is computed from op's results (a walk up the kernel body's
 * defs, at most 512 ops: past them the answer is yes). */
bool rg_computed_from(MlirValue v, MlirOperation op);

/* row_gen.c: the combination of phase ph's input over the thread's chunks
 * (its vectors of the row, or the outer schedule's held rows), evaluated
 * once and kept in registers; ragged chunks count as the neutral element. */
MlirValue rg_chunks_partial(rgen *g, const phase *ph);

/* row_gen_block.c */
void rg_thread_context(rgen *g, MlirValue tid, MlirValue bid);
/* n independent reductions in one (x[i]: the thread's partials, replaced by
 * the row's results), one barrier; wg[i] their slots from `base` (NULL: 0) */
void rg_block_allreduce_gpu(rgen *g, int n, const fuser_op_id *id, const fuser_dtype *acc, MlirValue *x, const MlirValue *wg,
                            MlirValue base);
MlirValue rg_block_allreduce_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p, MlirValue rib);

/* inner_outer_gen.c */
void rg_io_init(rgen *g);
bool rg_io_is_partial(const rgen *g, int t);
int rg_io_num_acc(const rgen *g);
MlirValue rg_io_neutral(rgen *g);
/* adds the current row's values of the partials into acc[p x chunks + c]:
 * early, those computed from no row reduction of the kernel (before the
 * row's block reductions: their inputs need not live across the barrier);
 * else the others (GPU form), or all (CPU form: no early call) */
void rg_io_accumulate(rgen *g, MlirValue *acc, bool early);
/* stores acc as row `group` of the partial results */
void rg_io_store(rgen *g, const MlirValue *acc, MlirValue group);
/* GPU form: the loop over the group's rows, the thread's partials (acc,
 * rg_io_num_acc of them) and the prefetched row vectors its iter_args, the
 * row's slot set (wg_base) from its step; close adds the row's values,
 * passes the next row's vectors on, and stores the partials */
MlirOperation rg_io_open_rows(rgen *g, MlirValue *acc, fb_ip *after, MlirValue tid, MlirValue bid);
void rg_io_close_rows(rgen *g, MlirOperation loop, MlirValue *acc, fb_ip after, MlirValue tid, MlirValue bid);
/* CPU form: the block's threads' partials (a buffer), one thread's update, the stores */
MlirValue rg_io_cpu_partials(rgen *g);
void rg_io_cpu_accumulate(rgen *g, MlirValue buf, MlirValue tid);
void rg_io_cpu_store(rgen *g, MlirValue buf, MlirValue bid);

/* outer_gen.c */
void rg_outer_thread_context(rgen *g, MlirValue tid, MlirValue bid);
MlirValue rg_outer_partial(rgen *g, const phase *ph);
MlirValue rg_outer_tree_gpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue x, MlirValue p);
void rg_outer_tree_cpu(rgen *g, fuser_op_id id, fuser_dtype acc, MlirValue p);
void rg_outer_epilogue(rgen *g);

#endif
