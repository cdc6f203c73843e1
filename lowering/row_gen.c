/* row_gen.c: the row schedules' code generation (row_gen.h).
 *
 * Before (kernel level, fuser.schedule from fuser-schedule):
 *   func.func private @f_k0(%arg0: tensor<16384x4096xbf16> {fuser.strides = array<i64: 4096, 1>}) -> ...
 *       attributes {fuser.kernel, fuser.schedule = {inner_persistent = {...}}} {
 *     %0 = "fuser.cast"(%arg0) ... %2 = "fuser.sum"(%1) {dims = array<i64: 1>} ... return %9
 * After (GPU form, one block of 256 threads per row, 2 vectors per thread):
 *   func.func @f_k0__persistent(%ptr_t0: memref<1xbf16>, %ptr_t1: memref<1xbf16>,
 *       %wg0: memref<8xf32, #gpu.address_space<workgroup>>) attributes {fuser.loops, fuser.row_kernel, ...} {
 *     %tid = gpu.thread_id x  %bid = gpu.block_id x
 *     %x0 = vector.load %mem_t0[%o0] {alignment = 16} : memref<?xbf16>, vector<8xbf16>  ... (2 loads)
 *     ... pairwise partial, 5 x gpu.shuffle xor, store %wg0[warp], gpu.barrier, 3 x gpu.shuffle xor
 *     ... epilogue from %x0, %x1: vector.store ... {alignment = 16}
 *
 * The implementation is split by responsibility (row_gen_internal.h lists
 * the files; row_gen_values.c says how values are represented); this one
 * holds the phases, the inner epilogue, the parameters, the run-time
 * conditions, the variants and the public entry points. */
#include "lowering/row_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/builder.h"
#include "lowering/kernel_gen.h"
#include "lowering/launch_param.h"
#include "lowering/launch_plan.h"
#include "lowering/row_cluster.h"
#include "lowering/row_gen_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/conditions.h"
#include "passes/ir_util.h"
#include "passes/schedule_reduction.h"

/* ---- phases ---------------------------------------------------------------- */

/* var_mean's mean for its second pass as a vector of the accumulation
 * type (outer: already a vector of columns; inner: the row's value splat);
 * NULL for other passes. */
static MlirValue pass_mean(rgen *g, const phase *ph) {
  if (ph->pass != 1) return (MlirValue){NULL};
  MlirValue m = g->red[g->nred - 1].val[1];
  return g->outer_mode ? m : fb_broadcast(&g->b, m, rg_vec_type(g, ph->acc));
}

MlirValue rg_chunks_partial(rgen *g, const phase *ph) {
  fb_builder *b = &g->b;
  MlirValue in = mlirOperationGetOperand(ph->red, 0), mean = pass_mean(g, ph), acc = {NULL};
  fuser_dtype in_dt = fuser_value_dtype(in);
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
  for (int c = 0; c < g->nchunks; c++) {
    MlirValue x = rg_convert(g, rg_eval(g, in, map, c), in_dt, ph->acc);
    if (ph->pass == 1) {
      MlirValue d = fb_binary(b, "arith.subf", x, mean);
      x = fb_binary(b, "arith.mulf", d, d);
    }
    if (!mlirValueIsNull(g->chunk_ok[c]))
      x = fb_select(b, g->chunk_ok[c], x, fb_broadcast(b, rg_neutral_const(g, ph->id, ph->acc), rg_vec_type(g, ph->acc)));
    acc = c == 0 ? x : rg_combine(g, ph->id, ph->acc, acc, x); /* the neutral element only seeds */
  }
  return acc;
}

/* The thread's partial of phase ph over its chunks (registers) or its
 * strided columns (looped). */
static MlirValue thread_partial(rgen *g, const phase *ph) {
  fb_builder *b = &g->b;
  if (g->var->vectors > 0) return rg_lanes_tree(g, ph->id, ph->acc, rg_chunks_partial(g, ph));
  MlirValue in = mlirOperationGetOperand(ph->red, 0), mean = pass_mean(g, ph);
  fuser_dtype in_dt = fuser_value_dtype(in);
  int8_t map[FK_R];
  memset(map, -1, sizeof map);
  for (int d = 0; d < g->s->rank; d++) map[d] = (int8_t)d;
  MlirValue acc = fb_broadcast(b, rg_neutral_const(g, ph->id, ph->acc), rg_vec_type(g, ph->acc));
  MlirValue start = fb_muli(b, g->lane, rg_idx(g, g->W)), step = rg_idx(g, g->T * g->W), end = g->row_len;
  if (g->S > 1) start = fb_addi(b, g->clo, start), end = g->chi; /* this block's chunk */
  MlirOperation loop = fb_for(b, start, end, step, 1, &acc);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_end(fb_body(loop)));
  rg_scope_push(g);
  g->col[0] = fb_for_iv(loop);
  MlirValue x = rg_convert(g, rg_eval(g, in, map, 0), in_dt, ph->acc);
  if (ph->pass == 1) {
    MlirValue d = fb_binary(b, "arith.subf", x, mean);
    x = fb_binary(b, "arith.mulf", d, d);
  }
  MlirValue next = rg_combine(g, ph->id, ph->acc, fb_for_iter_arg(loop, 0), x);
  fb_yield(b, 1, &next);
  rg_scope_pop(g);
  fb_set_ip(b, save);
  return rg_lanes_tree(g, ph->id, ph->acc, fb_result(loop, 0));
}

/* A scalar of the accumulation type in the shape of `like` (outer: a
 * vector of columns). */
static MlirValue like_shape(rgen *g, MlirValue x, MlirValue like) {
  return fb_is_vector(mlirValueGetType(like)) ? fb_broadcast(&g->b, x, mlirValueGetType(like)) : x;
}

/* The number of reduced elements as a value of the accumulation type. */
static MlirValue count_as(rgen *g, fuser_dtype acc) {
  MlirValue n = fb_cast(&g->b, "arith.index_cast", g->count, mlirIntegerTypeGet(rg_ctx_of(g), 64));
  return rg_is_float(acc) ? fb_cast(&g->b, "arith.sitofp", n, rg_elem_type(g, acc)) : n;
}

/* Records a phase's row result (var_mean: finishes mean or var). */
static void finish_phase(rgen *g, const phase *ph, MlirValue total) {
  fb_builder *b = &g->b;
  if (ph->pass == 0) {
    rred *r = &g->red[g->nred++];
    r->op = ph->red;
    r->acc = ph->acc;
    r->val[0] = total;
    if (fuser_op_kind_of(fuser_op_id_of(ph->red)) == FUSER_KIND_VAR_MEAN)
      r->val[1] = fb_binary(b, "arith.divf", total, like_shape(g, count_as(g, ph->acc), total));
    return;
  }
  int64_t corr = 0;
  fuser_get_i64(ph->red, "correction", &corr);
  MlirValue n = fb_cast(b, "arith.index_cast", g->count, mlirIntegerTypeGet(rg_ctx_of(g), 64));
  MlirValue dof = fb_binary(b, "arith.maxsi", fb_subi(b, n, fb_const_int(b, mlirIntegerTypeGet(rg_ctx_of(g), 64), corr)),
                            fb_const_int(b, mlirIntegerTypeGet(rg_ctx_of(g), 64), 0));
  g->red[g->nred - 1].val[0] =
      fb_binary(b, "arith.divf", total, like_shape(g, fb_cast(b, "arith.sitofp", dof, rg_elem_type(g, ph->acc)), total));
}

/* CPU form: the row results of phases [0, n) for the current thread,
 * read back from their partial buffers (each row's result sits at the
 * row's first slot). */
static void reload_row_results(rgen *g, const phase *ph, int n) {
  g->nred = 0;
  if (g->outer_mode) {
    MlirValue base = fb_muli(&g->b, g->cv, rg_idx(g, g->W));
    for (int p = 0; p < n; p++) finish_phase(g, &ph[p], fb_vector_load(&g->b, rg_vec_type(g, ph[p].acc), g->wg[p], base, 0));
    return;
  }
  MlirValue base = fb_muli(&g->b, g->rib, rg_idx(g, g->T));
  for (int p = 0; p < n; p++) finish_phase(g, &ph[p], fb_load(&g->b, g->wg[p], base));
}

/* The end of the run of phases from p none of whose inputs is computed
 * from another's result (LayerNorm backward's sums of g w and g w xhat;
 * not softmax's max then sum, nor var_mean's two passes). */
static int independent_phases_end(const phase *ph, int nph, int p) {
  int q = p + 1;
  for (; q < nph; q++)
    for (int r = p; r < q; r++)
      if (mlirOperationEqual(ph[q].red, ph[r].red) || rg_computed_from(mlirOperationGetOperand(ph[q].red, 0), ph[r].red)) return q;
  return q;
}

static int collect_phases(rgen *g, phase *ph, int cap) {
  int n = 0;
  MlirBlock body = fuser_func_body(g->k->func);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    fuser_op_id id = fuser_op_id_of(op);
    fuser_op_kind kind = fuser_op_kind_of(id);
    if (kind != FUSER_KIND_REDUCTION && kind != FUSER_KIND_VAR_MEAN) continue;
    MlirValue x;
    int64_t groups;
    if (g->npart > 0 && fuser_inner_outer_partial(mlirOperationGetResult(op, 0), &x, &groups)) continue; /* inner_outer_gen.c's */
    if (n + 2 > cap) {
      rg_unsupported(g, "too many reductions in one kernel");
      return n;
    }
    fuser_dtype acc = rg_acc_type(op);
    if (kind == FUSER_KIND_VAR_MEAN) {
      /* var_mean accumulates in f64 (results in their f32 dtype): a row's
       * mean cancels (a sum near 0 of terms near 1), where an f32 sum in
       * any order is ulps off, and LayerNorm's bias add then amplifies the
       * statistics' error; f64 runs at half the f32 rate on sm_90 (measured
       * on the H200: var_mean and LayerNorm bit-identical to the f64
       * reference or 1 bf16 ulp; an f32 variance pass gave 2 ulp on the CPU
       * JIT already). The outer (columns) schedule too: its tree buffers
       * (block x width f64 per pass) fit 48 KB by the schedule's choice of
       * row groups (schedule_reduction.h); in f32 a column mean of 3000
       * values near 0 was 77 ulp off. */
      acc = FUSER_DTYPE_F64;
      ph[n++] = (phase){op, FUSER_OP_sum, acc, 0};
      ph[n++] = (phase){op, FUSER_OP_sum, acc, 1};
    } else {
      ph[n++] = (phase){op, id, acc, 0};
    }
  }
  return n;
}

/* ---- the epilogue ----------------------------------------------------------- */

/* The dim map at which the epilogue evaluates and stores result j. */
static void result_map(rgen *g, int j, int8_t *map) {
  int t = g->k->num_args + j;
  memset(map, -1, FK_R);
  for (int d = 0; d < g->k->t[t].rank; d++) map[d] = (g->k->t[t].shape[d] == 1 && d >= g->s->outer) ? -1 : (int8_t)d;
}

static void epilogue_chunk(rgen *g, int chunk) {
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(g->k->func));
  for (int j = 0; j < g->k->num_results && !g->failed; j++) {
    MlirValue v = mlirOperationGetOperand(ret, j);
    int t = g->k->num_args + j;
    if (rg_io_is_partial(g, t)) continue; /* stored once per row group (inner_outer_gen.c) */
    int8_t map[FK_R];
    result_map(g, j, map);
    MlirValue x = rg_eval(g, v, map, chunk);
    rg_store(g, t, map, chunk, x);
  }
}

/* A `prefetch` variant (the schedule's choice: a grid of one partial wave)
 * in the GPU form: the epilogue's loads that no reduction feeds (RMSNorm's
 * and LayerNorm's weight and bias, a residual, a saved statistic) issued
 * with the row's, before the first block reduction, so their latency hides
 * behind it. Issued in the epilogue they waited for the barrier, and each
 * chunk's load waited for the previous chunk's store (the pointers may
 * alias). Costs the raw vectors' registers across the reduction (4 per
 * 16-byte vector). */
static bool prefetches_epilogue(const rgen *g) {
  return g->var->prefetch && g->s->kind == FUSER_SCHED_INNER_PERSISTENT && g->var->vectors > 0 && !g->var->reload && g->npart == 0 &&
         g->S == 1;
}

static void prefetch_epilogue(rgen *g, const phase *first) {
  MlirOperation ret = mlirBlockGetTerminator(fuser_func_body(g->k->func));
  int8_t row[FK_R];
  memset(row, -1, sizeof row);
  for (int d = 0; d < g->s->rank; d++) row[d] = (int8_t)d;
  /* the first reduction's row first: its loads start the critical chain */
  for (int c = 0; c < g->nchunks && !g->failed; c++) rg_prefetch(g, mlirOperationGetOperand(first->red, 0), row, c);
  for (int c = 0; c < g->nchunks && !g->failed; c++)
    for (int j = 0; j < g->k->num_results && !g->failed; j++) {
      int8_t map[FK_R];
      result_map(g, j, map);
      rg_prefetch(g, mlirOperationGetOperand(ret, j), map, c);
    }
}

/* Stores of the row's results: every chunk (persistent), or thread 0 of
 * the row (inner reduce); nothing for rows past the end. */
static void epilogue(rgen *g) {
  fb_builder *b = &g->b;
  MlirValue cond = g->valid;
  bool reduce_only = g->s->kind == FUSER_SCHED_INNER_REDUCE;
  if (reduce_only) cond = fb_andi(b, cond, fb_cmpi(b, FB_CMPI_EQ, g->lane, rg_idx(g, 0)));
  if (reduce_only && g->S > 1) cond = fb_andi(b, cond, fb_cmpi(b, FB_CMPI_EQ, g->crank, rg_idx(g, 0))); /* rank 0 stores */
  MlirOperation ifop = fb_if(b, cond, 0, NULL, false);
  fb_ip save = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(ifop)));
  rg_scope_push(g);
  if (reduce_only || g->var->vectors > 0) {
    for (int c = 0; c < (reduce_only ? 1 : g->nchunks); c++) {
      if (!reduce_only && !mlirValueIsNull(g->chunk_ok[c])) {
        MlirOperation cif = fb_if(b, g->chunk_ok[c], 0, NULL, false);
        fb_ip s2 = fb_get_ip(b);
        fb_set_ip(b, fb_ip_in(fb_then(cif)));
        epilogue_chunk(g, c);
        fb_set_ip(b, s2);
      } else {
        epilogue_chunk(g, c);
      }
    }
  } else {
    MlirValue start = fb_muli(b, g->lane, rg_idx(g, g->W)), end = g->row_len;
    if (g->S > 1) start = fb_addi(b, g->clo, start), end = g->chi;
    MlirOperation loop = fb_for(b, start, end, rg_idx(g, g->T * g->W), 0, NULL);
    fb_set_ip(b, fb_ip_in(fb_body(loop)));
    rg_scope_push(g);
    g->col[0] = fb_for_iv(loop);
    epilogue_chunk(g, 0);
    rg_scope_pop(g);
  }
  rg_scope_pop(g);
  fb_set_ip(b, save);
}

/* ---- the function ------------------------------------------------------------ */

static void add_param(rgen *g, fk_param_kind kind, int t, int d) {
  g->params[g->nparams++] = (fk_param){kind, t, d};
}

/* The parameter list (kernel_gen's order: pointers, then each tensor's `?`
 * sizes and run-time strides, then scalars). */
static void make_params(rgen *g) {
  fk_kernel *k = g->k;
  for (int t = 0; t < k->num_tensors; t++)
    if (k->t[t].is_tensor) add_param(g, FK_PARAM_PTR, t, -1);
  for (int t = 0; t < k->num_tensors; t++) {
    if (!k->t[t].is_tensor) continue;
    for (int kind = FK_PARAM_SIZE; kind <= FK_PARAM_STRIDE; kind++)
      for (int d = 0; d < k->t[t].rank; d++)
        if ((kind == FK_PARAM_SIZE ? k->t[t].shape[d] : k->t[t].strides[d]) == FK_DYN) add_param(g, (fk_param_kind)kind, t, d);
  }
  for (int t = 0; t < k->num_args; t++)
    if (!k->t[t].is_tensor) add_param(g, FK_PARAM_SCALAR, t, -1);
}

static MlirType param_type(rgen *g, const fk_param *p) {
  if (p->kind == FK_PARAM_PTR) return fb_memref_1d_type(rg_storage_type(g, g->k->t[p->tensor].dtype), 1);
  if (p->kind == FK_PARAM_SCALAR) return rg_elem_type(g, g->k->t[p->tensor].dtype);
  return mlirIntegerTypeGet(rg_ctx_of(g), 64);
}

/* Sizes, strides and memref views from the parameters (function entry). */
static void bind_params(rgen *g, MlirBlock entry) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  for (int t = 0; t < k->num_tensors; t++)
    for (int d = 0; d < k->t[t].rank; d++) {
      if (k->t[t].shape[d] != FK_DYN) g->size[t][d] = rg_idx(g, k->t[t].shape[d]);
      if (k->t[t].strides[d] != FK_DYN) g->stride[t][d] = rg_idx(g, k->t[t].strides[d]);
    }
  for (int i = 0; i < g->nparams; i++) {
    const fk_param *p = &g->params[i];
    MlirValue a = mlirBlockGetArgument(entry, i);
    if (p->kind == FK_PARAM_SIZE) g->size[p->tensor][p->dim] = fb_index_cast(b, a, fb_index_type(b));
    else if (p->kind == FK_PARAM_STRIDE) g->stride[p->tensor][p->dim] = fb_index_cast(b, a, fb_index_type(b));
    else if (p->kind == FK_PARAM_SCALAR) g->scalar[p->tensor] = a;
  }
  for (int i = 0; i < g->nparams; i++) {
    const fk_param *p = &g->params[i];
    if (p->kind != FK_PARAM_PTR) continue;
    /* the view spans the buffer (bounds are the schedule's business) */
    g->mem[p->tensor] = fb_reinterpret_1d(b, mlirBlockGetArgument(entry, i), rg_idx(g, (int64_t)1 << 40));
  }
  /* rows and row length from the row-space tensor */
  const fk_tensor *st = &k->t[g->space_tensor];
  /* outer mode: the reduced dims [lo, hi) are the rows, the others the columns */
  int lo = g->outer_mode ? g->s->batch : 0, hi = g->outer_mode ? g->s->batch + g->s->outer : g->s->outer;
  g->rows = rg_idx(g, 1);
  for (int d = lo; d < hi; d++) g->rows = fb_muli(b, g->rows, g->size[g->space_tensor][d]);
  g->inner_len = rg_idx(g, 1);
  for (int d = hi; d < st->rank && g->s->batch > 0; d++) g->inner_len = fb_muli(b, g->inner_len, g->size[g->space_tensor][d]);
  g->row_len = rg_idx(g, 1);
  if (g->s->row_len != FK_DYN) g->row_len = rg_idx(g, g->s->row_len);
  else
    for (int d = 0; d < st->rank; d++)
      if (d < lo || d >= hi) g->row_len = fb_muli(b, g->row_len, g->size[g->space_tensor][d]);
  g->count = g->outer_mode ? g->rows : g->row_len;
}

/* A tensor with the row space's shape: result 0 (persistent), else an
 * argument of the full rank whose reduced dims are not all 1. */
static int find_space_tensor(rgen *g) {
  fk_kernel *k = g->k;
  if (g->s->kind == FUSER_SCHED_INNER_PERSISTENT || g->s->kind == FUSER_SCHED_OUTER_PERSISTENT ||
      g->s->kind == FUSER_SCHED_INNER_OUTER)
    return k->num_args;
  for (int t = 0; t < k->num_args; t++) {
    if (!k->t[t].is_tensor || k->t[t].rank != g->s->rank) continue;
    bool ones = true;
    int lo = g->outer_mode ? g->s->batch : g->s->outer, hi = g->outer_mode ? g->s->batch + g->s->outer : g->s->rank;
    for (int d = lo; d < hi; d++) ones &= k->t[t].shape[d] == 1;
    if (!ones) return t;
  }
  return -1;
}

/* The attribute of a condition on tensor t (passes/conditions.h). */
static MlirAttribute condition(rgen *g, fk_cond_kind kind, int t, int dim, int inner, int64_t value) {
  fk_condition c = {.kind = kind, .tensor = t, .dim = dim, .inner = inner, .value = value};
  return fk_condition_attr(rg_ctx_of(g), &c, g->k->num_args);
}

/* `merge` conditions for the dims a tensor walks contiguously along the
 * row (inner: the reduced dims; outer: the trailing kept dims) where their
 * nesting is not static: stride(d) == stride(d + 1) * size(d + 1). */
static int inner_merge_conditions(rgen *g, MlirAttribute *c, int n, int cap) {
  fk_kernel *k = g->k;
  int hi = g->outer_mode ? g->s->batch + g->s->outer : g->s->outer, nin = g->s->rank - hi;
  for (int t = 0; t < k->num_tensors && n < cap; t++) {
    const fk_tensor *ft = &k->t[t];
    if (!ft->is_tensor) continue;
    int from = ft->rank == g->s->rank ? hi : g->outer_mode && ft->rank == g->s->rank - g->s->outer ? ft->rank - nin : -1;
    for (int d = from; from >= 0 && d + 1 < ft->rank && n < cap; d++) {
      if (ft->shape[d] == 1 || ft->shape[d + 1] == 1) continue;
      bool nested = ft->strides[d] != FK_DYN && ft->strides[d + 1] != FK_DYN && ft->shape[d + 1] != FK_DYN &&
                    ft->strides[d] == ft->strides[d + 1] * ft->shape[d + 1];
      if (nested) continue;
      c[n++] = condition(g, FK_COND_MERGE, t, d, d + 1, 0);
    }
  }
  return n;
}

/* Whether tensor t is constant along the row (a per-row statistic broadcast
 * along it, passes/schedule_reduction.h): every access is a scalar load, so
 * it needs no alignment and no stride condition. */
static bool per_row_tensor(rgen *g, int t) {
  const fk_tensor *ft = &g->k->t[t];
  int hi = g->outer_mode ? g->s->batch + g->s->outer : g->s->outer;
  return ft->is_tensor && ft->rank == g->s->rank && fuser_tensor_constant_along_row(ft->strides, ft->shape, ft->rank, hi);
}
/* Whether tensor t is a result an inner reduce stores one element at a
 * time (a value per row: no vector access, no alignment needed). */
static bool scalar_result(rgen *g, int t) { return g->s->kind == FUSER_SCHED_INNER_REDUCE && t >= g->k->num_args; }

/* Run-time conditions of a vector variant: aligned pointers, row strides
 * and row length multiples of W. */
static MlirAttribute conditions(rgen *g) {
  MlirAttribute c[FK_MAX_TENSORS * 4];
  int n = 0;
  fk_kernel *k = g->k;
  if (g->W > 1) {
    for (int t = 0; t < k->num_tensors && n < FK_MAX_TENSORS * 3; t++) {
      if (!k->t[t].is_tensor || k->t[t].rank == 0 || per_row_tensor(g, t) || scalar_result(g, t)) continue;
      c[n++] = condition(g, FK_COND_ALIGN, t, -1, -1, rg_align_of(g, t));
      for (int d = 0; d < k->t[t].rank; d++)
        if (k->t[t].strides[d] == FK_DYN) c[n++] = condition(g, FK_COND_STRIDE, t, d, -1, g->W);
    }
    int st = g->space_tensor, last = k->t[st].rank - 1;
    if (k->t[st].shape[last] == FK_DYN) c[n++] = condition(g, FK_COND_EXTENT, st, last, -1, g->W);
  }
  /* outer: every tensor walking the reduced dims merges them into one row
   * index: stride(d) == stride(d + 1) * size(d + 1), unless static */
  for (int t = 0; g->outer_mode && t < k->num_tensors && n < FK_MAX_TENSORS * 4 - 8; t++) {
    const fk_tensor *ft = &k->t[t];
    if (!ft->is_tensor || ft->rank != g->s->rank) continue;
    for (int d = g->s->batch; d + 1 < g->s->batch + g->s->outer; d++) {
      bool nested = ft->strides[d] != FK_DYN && ft->strides[d + 1] != FK_DYN && ft->shape[d + 1] != FK_DYN &&
                    ft->strides[d] == ft->strides[d + 1] * ft->shape[d + 1];
      if (!nested) {
        c[n++] = condition(g, FK_COND_MERGE, t, d, d + 1, 0);
      }
    }
  }
  n = inner_merge_conditions(g, c, n, FK_MAX_TENSORS * 4);
  /* a variant for long rows (the symbolic rows' cluster): the row-space
   * tensor's reduced dims hold at least min_row_length elements */
  if (g->var->min_row_length > 0 && n < FK_MAX_TENSORS * 4) {
    c[n++] = condition(g, FK_COND_ROW_LENGTH, g->space_tensor, g->s->outer, -1, g->var->min_row_length);
  }
  /* a variant for many columns (outer) or many rows (inner reduce): result 0 large enough */
  if (g->var->min_points > 0 && n < FK_MAX_TENSORS * 4) {
    c[n++] = condition(g, FK_COND_POINTS, k->num_args, -1, -1, g->var->min_points);
  }
  return mlirArrayAttrGet(rg_ctx_of(g), n, c);
}

static void set_attr(MlirOperation f, const char *name, MlirAttribute a) {
  mlirOperationSetDiscardableAttributeByName(f, mlirStringRefCreateFromCString(name), a);
}

static bool static_strides_aligned(rgen *g) {
  for (int t = 0; t < g->k->num_tensors; t++) {
    const fk_tensor *ft = &g->k->t[t];
    if (!ft->is_tensor || per_row_tensor(g, t) || scalar_result(g, t)) continue;
    for (int d = 0; d < ft->rank; d++)
      if (ft->strides[d] != FK_DYN && ft->strides[d] % g->W != 0 && ft->strides[d] != 1 && ft->shape[d] != 1) return false;
  }
  return true;
}

static const char *variant_name(const fuser_reduction_schedule *s, const fuser_row_variant *v) {
  if (s->kind == FUSER_SCHED_OUTER) return v->width == 1 ? "columns_scalar" : v->min_points > 0 ? "columns_wide" : "columns";
  if (s->kind == FUSER_SCHED_OUTER_PERSISTENT) return v->width == 1 ? "held_scalar" : "held";
  if (s->kind == FUSER_SCHED_INNER_OUTER) return v->width == 1 ? "inner_outer_scalar" : "inner_outer";
  if (v->vectors == 0 && v->min_points > 0) return "looped_warp";
  if (v->vectors > 0) return v->cluster > 1 ? "persistent_cluster" : "persistent";
  return v->cluster > 1 ? "looped_cluster" : v->width > 1 ? "looped" : "looped_scalar";
}

/* Whether the cluster variant's blocks may be capped at 32 registers (two
 * 1024-thread blocks per SM): not when a persistent one holds its f32
 * values across the passes (V x W of them per thread). */
static bool min_blocks_ok(const fuser_row_variant *v) { return v->vectors == 0 || v->reload; }
static bool emit_variant(fk_kernel *k, const fuser_reduction_schedule *s, const fuser_row_variant *var, bool gpu,
                         MlirOperation *after, bool *unsup, char *why) {
  rgen *g = calloc(1, sizeof *g);
  g->k = k;
  g->s = s;
  g->var = var;
  g->gpu = gpu;
  g->W = var->width;
  g->T = var->threads;
  g->RPB = var->rows_per_block;
  g->block = g->T * g->RPB;
  g->outer_mode = s->kind == FUSER_SCHED_OUTER || s->kind == FUSER_SCHED_OUTER_PERSISTENT;
  g->held = s->kind == FUSER_SCHED_OUTER_PERSISTENT;
  /* the CPU form runs a cluster variant as one block per row: the looped
   * code over the whole row (a persistent one's block holds only its chunk) */
  fuser_row_variant cpu_var;
  if (!gpu && !g->outer_mode && var->cluster > 1) {
    cpu_var = *var;
    cpu_var.vectors = 0;
    cpu_var.reload = false;
    g->var = &cpu_var;
  }
  /* a persistent cluster needs a static row (verified); a looped one computes its chunks */
  g->S = gpu && !g->outer_mode && var->cluster > 1 && g->RPB == 1 && (s->row_len != INT64_MIN || var->vectors == 0) ? var->cluster : 1;
  MlirContext ctx = mlirOperationGetContext(k->func);
  fb_init(&g->b, ctx, mlirOperationGetLocation(k->func));
  fb_builder *b = &g->b;
  g->space_tensor = find_space_tensor(g);
  rg_io_init(g);
  bool ok = true;
  if (g->space_tensor < 0) rg_unsupported(g, "no tensor of the row space's shape");
  if (g->W > 1 && !static_strides_aligned(g)) rg_unsupported(g, "a static stride is not a multiple of the vector width");
  make_params(g);
  phase ph[MAX_REDS];
  int nph = g->failed ? 0 : collect_phases(g, ph, MAX_REDS);
  char name[256];
  snprintf(name, sizeof name, "%.*s__%s", (int)k->name_len, k->name, variant_name(s, var));
  MlirType types[FK_MAX_PARAMS + 2 * MAX_REDS];
  int nargs = g->nparams;
  for (int i = 0; i < g->nparams; i++) types[i] = param_type(g, &g->params[i]);
  int nwg = 0;
  if (gpu && g->outer_mode)
    for (int p = 0; p < nph; p++) types[nargs + nwg++] = fb_workgroup_memref_type(b, rg_elem_type(g, ph[p].acc), (int64_t)g->block * g->W);
  else if (gpu && g->T > 32)
    /* inner_outer: two slot sets per phase, alternating by row: the next row's
     * writes need no barrier after this row's reads (rg_io_open_rows) */
    for (int p = 0; p < nph; p++) types[nargs + nwg++] = fb_workgroup_memref_type(b, rg_elem_type(g, ph[p].acc), g->block / 32 * (g->npart > 0 ? 2 : 1));
  int cwg_first = nargs + nwg;
  if (g->S > 1)
    for (int p = 0; p < nph; p++) types[nargs + nwg++] = fb_workgroup_memref_type(b, rg_elem_type(g, ph[p].acc), g->S);
  MlirOperation f = {NULL};
  if (!g->failed) {
    fb_set_ip(b, fb_ip_after(*after));
    f = fb_func(b, name, nargs + nwg, types);
    MlirBlock entry = fb_body(f);
    /* constants go before an anchor at the entry's start, the code after it */
    fb_set_ip(b, fb_ip_in(entry));
    fb_set_const_ip(b, fb_ip_in(entry));
    MlirOperation anchor = mlirOpResultGetOwner(fb_const_index(b, 0));
    fb_set_const_ip(b, fb_ip_before(anchor));
    bind_params(g, entry);
    bool om = g->outer_mode;
    if (gpu) {
      MlirValue tid = fb_thread_id(b, 'x'), bid = fb_block_id(b, 'x'), acc[FUSER_SCHED_MAX_PARTIALS * MAX_CHUNKS];
      fb_ip after_rows;
      MlirOperation rows_loop = g->npart > 0 ? rg_io_open_rows(g, acc, &after_rows, tid, bid) : (MlirOperation){NULL};
      if (om) rg_outer_thread_context(g, tid, bid);
      else rg_thread_context(g, tid, bid);
      if (g->S > 1) fb_cluster_arrive(b, true); /* matched by the wait before the first push */
      if (g->npart > 0) rg_io_accumulate(g, acc, true);
      if (!om && nph > 0 && prefetches_epilogue(g)) prefetch_epilogue(g, &ph[0]);
      for (int p = 0, q; p < nph && !g->failed; p = q) {
        /* inner: the phases [p, q) independent of each other share one
         * block reduction (one barrier; their loads all issued before it);
         * not when each pass re-reads the row under a register cap (the
         * passes' loads together spilled: LayerNorm backward's dx over
         * 32,768 columns, 16 bytes at 64 registers) */
        q = om || var->reload ? p + 1 : independent_phases_end(ph, nph, p);
        MlirValue part[MAX_REDS], wg[MAX_REDS];
        fuser_op_id ids[MAX_REDS];
        fuser_dtype accs[MAX_REDS];
        for (int i = 0; i < q - p; i++) {
          wg[i] = cwg_first > nargs ? mlirBlockGetArgument(entry, nargs + p + i) : (MlirValue){NULL};
          ids[i] = ph[p + i].id, accs[i] = ph[p + i].acc;
          /* reload: the pass's loads and values live in its own scope, so the
           * next pass (after the block barrier) and the epilogue load again */
          if (var->reload) rg_scope_push(g);
          part[i] = om ? (g->held ? rg_chunks_partial(g, &ph[p + i]) : rg_outer_partial(g, &ph[p + i])) : thread_partial(g, &ph[p + i]);
          if (var->reload) rg_scope_pop(g);
        }
        if (om) part[0] = rg_outer_tree_gpu(g, ph[p].id, ph[p].acc, part[0], wg[0]);
        else rg_block_allreduce_gpu(g, q - p, ids, accs, part, wg, g->wg_base);
        for (int i = 0; i < q - p; i++) {
          if (g->S > 1) part[i] = rg_cluster_allreduce_gpu(g, ids[i], accs[i], part[i], mlirBlockGetArgument(entry, cwg_first + p + i));
          finish_phase(g, &ph[p + i], part[i]);
        }
      }
      if (!g->failed) {
        if (om && !g->held) rg_outer_epilogue(g);
        else epilogue(g);
      }
      if (g->npart > 0 && !g->failed) rg_io_close_rows(g, rows_loop, acc, after_rows, tid, bid);
    } else {
      MlirValue nblocks = om ? fb_ceildivui(b, g->row_len, rg_idx(g, (int64_t)g->RPB * g->W))
                             : fb_ceildivui(b, g->rows, rg_idx(g, (int64_t)g->RPB * (g->npart > 0 ? g->group_rows : 1)));
      MlirValue lb = rg_idx(g, 0), step = rg_idx(g, 1);
      MlirOperation par = fb_parallel(b, 1, &lb, &nblocks, &step);
      MlirValue bid = fb_parallel_iv(par, 0);
      fb_set_ip(b, fb_ip_in(fb_body(par)));
      /* inner_outer: the block's rows one after the other, the threads' partials in a buffer */
      MlirValue partials = {NULL};
      fb_ip block_ip = fb_ip_in(fb_body(par));
      if (g->npart > 0) {
        partials = rg_io_cpu_partials(g);
        MlirOperation rl = fb_for(b, rg_idx(g, 0), rg_idx(g, g->group_rows), rg_idx(g, 1), 0, NULL);
        block_ip = fb_ip_in(fb_body(rl));
        fb_set_ip(b, block_ip);
        g->step = fb_for_iv(rl);
      }
      for (int p = 0; p < nph && !g->failed; p++) {
        /* every thread's partial into p[tid] (outer: a vector at tid * W) */
        MlirType pt = fb_memref_1d_type(rg_elem_type(g, ph[p].acc), (int64_t)g->block * (om ? g->W : 1));
        /* on the heap, freed at the block's end: memref.alloca in the loop the
         * parallel becomes grows the stack per block (canonicalize inlines an
         * alloca_scope there; 272 blocks of 2 x 16 KB overflowed 8 MB) */
        MlirValue buf = fb_result(fb_op(b, "memref.alloc", 1, &pt, 0, NULL, 1,
                                        (MlirNamedAttribute[]){fb_named(b, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, (int32_t[]){0, 0}))}, 0), 0);
        MlirOperation tl = fb_for(b, rg_idx(g, 0), rg_idx(g, g->block), rg_idx(g, 1), 0, NULL);
        fb_ip save = fb_get_ip(b);
        fb_set_ip(b, fb_ip_in(fb_body(tl)));
        rg_scope_push(g);
        if (om) rg_outer_thread_context(g, fb_for_iv(tl), bid);
        else rg_thread_context(g, fb_for_iv(tl), bid);
        reload_row_results(g, ph, p);
        if (om)
          fb_vector_store(b, g->held ? rg_chunks_partial(g, &ph[p]) : rg_outer_partial(g, &ph[p]), buf, fb_muli(b, fb_for_iv(tl), rg_idx(g, g->W)), 0);
        else fb_store(b, thread_partial(g, &ph[p]), buf, fb_for_iv(tl));
        rg_scope_pop(g);
        fb_set_ip(b, save);
        if (om) {
          rg_outer_tree_cpu(g, ph[p].id, ph[p].acc, buf);
        } else {
          /* the butterflies of every row of the block, then each row's result
           * (the GPU broadcasts it; here the epilogue's threads read it) */
          MlirOperation rl = fb_for(b, rg_idx(g, 0), rg_idx(g, g->RPB), rg_idx(g, 1), 0, NULL);
          save = fb_get_ip(b);
          fb_set_ip(b, fb_ip_in(fb_body(rl)));
          MlirValue r = rg_block_allreduce_cpu(g, ph[p].id, ph[p].acc, buf, fb_for_iv(rl));
          fb_store(b, r, buf, fb_muli(b, fb_for_iv(rl), rg_idx(g, g->T)));
          fb_set_ip(b, save);
        }
        g->wg[p] = buf;
      }
      /* the epilogue, thread by thread; each thread reads its row's results */
      if (!g->failed) {
        MlirOperation tl = fb_for(b, rg_idx(g, 0), rg_idx(g, g->block), rg_idx(g, 1), 0, NULL);
        fb_set_ip(b, fb_ip_in(fb_body(tl)));
        rg_scope_push(g);
        if (om) rg_outer_thread_context(g, fb_for_iv(tl), bid);
        else rg_thread_context(g, fb_for_iv(tl), bid);
        reload_row_results(g, ph, nph);
        if (om && !g->held) rg_outer_epilogue(g);
        else epilogue(g);
        if (g->npart > 0) rg_io_cpu_accumulate(g, partials, fb_for_iv(tl));
        rg_scope_pop(g);
        fb_set_ip(b, block_ip);
      }
      for (int p = 0; p < nph && !g->failed; p++) fb_op(b, "memref.dealloc", 0, NULL, 1, &g->wg[p], 0, NULL, 0);
      g->nred = 0;
      if (g->npart > 0 && !g->failed) {
        fb_set_ip(b, fb_ip_in(fb_body(par)));
        rg_io_cpu_store(g, partials, bid);
      }
    }
  }
  if (g->failed) {
    if (!mlirOperationIsNull(f)) mlirOperationDestroy(f);
    *unsup = g->unsupported;
    snprintf(why, 200, "%s", g->why);
    ok = false;
  } else {
    MlirAttribute pdesc[FK_MAX_PARAMS];
    for (int i = 0; i < g->nparams; i++) pdesc[i] = fk_param_attr(ctx, &g->params[i]);
    MlirAttribute kn = mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreate(k->name, k->name_len));
    set_attr(f, "fuser.loops", mlirUnitAttrGet(ctx));
    set_attr(f, "fuser.row_kernel", mlirUnitAttrGet(ctx));
    set_attr(f, "fuser.kernel_name", kn);
    set_attr(f, "fuser.variant", fuser_str_attr(ctx, variant_name(s, var)));
    set_attr(f, "fuser.vector_width", fuser_i64_attr(ctx, g->W));
    set_attr(f, "fuser.unroll", fuser_i64_attr(ctx, var->vectors > 0 ? var->vectors : 1));
    set_attr(f, "fuser.index_bits", fuser_i64_attr(ctx, 64));
    set_attr(f, "fuser.num_args", fuser_i64_attr(ctx, k->num_args));
    set_attr(f, "fuser.params", mlirArrayAttrGet(ctx, g->nparams, pdesc));
    set_attr(f, "fuser.vector_conditions", conditions(g));
    set_attr(f, "fuser.block_size", fuser_i64_attr(ctx, g->block));
    set_attr(f, "fuser.workgroup_buffers", fuser_i64_attr(ctx, nwg));
    if (g->S > 1) set_attr(f, "fuser.cluster_size", fuser_i64_attr(ctx, g->S));
    if (gpu && (g->S > 1 || var->reload)) {
      /* two 1024-thread blocks per SM (ptxas then caps the registers at 32)
       * unless a phase accumulates in f64: its vector<W x f64> partials
       * spilled at 32 registers (var_mean over 131,072 columns: 132 bytes) */
      bool f64 = false;
      for (int p = 0; p < nph; p++) f64 = f64 || ph[p].acc == FUSER_DTYPE_F64;
      if (!f64 && min_blocks_ok(var)) set_attr(f, "fuser.min_blocks_per_sm", fuser_i64_attr(ctx, 2));
    }
    /* inner: a block per rows_per_block rows; outer: per CW x W columns */
    bool om = g->outer_mode;
    /* batched outer: the columns are result 0's dims (the kept shape) */
    bool batched = om && s->batch > 0;
    MlirNamedAttribute rg[6] = { /* the fifth (blocks_per_row) and sixth (skip) are optional */
        fuser_named(ctx, "tensor", fuser_i64_attr(ctx, batched || g->held ? k->num_args : g->space_tensor)),
        fuser_named(ctx, "first", fuser_i64_attr(ctx, batched || g->held ? 0 : om ? s->outer : 0)),
        fuser_named(ctx, "dims", fuser_i64_attr(ctx, g->held ? s->rank : om ? s->rank - s->outer : s->outer)),
        fuser_named(ctx, "rows_per_block", fuser_i64_attr(ctx, om ? (int64_t)g->RPB * g->W : (int64_t)g->RPB * (g->npart > 0 ? g->group_rows : 1))),
        fuser_named(ctx, "blocks_per_row", fuser_i64_attr(ctx, g->S)), /* the cluster variant only */
    };
    int nrg = g->S > 1 ? 5 : 4;
    /* outer persistent: result 0 has the row space's shape; its reduced dims
     * are not counted (a block per CW x W kept points) */
    if (g->held) rg[nrg++] = fuser_named(ctx, "skip", mlirDenseI64ArrayGet(ctx, 2, (int64_t[]){s->batch, s->batch + s->outer}));
    set_attr(f, "fuser.row_grid", mlirDictionaryAttrGet(ctx, nrg, rg));
    *after = f;
  }
  fb_free(b);
  free(g->memo);
  free(g);
  return ok;
}

bool fuser_row_kernel_lower(MlirOperation func, const fuser_reduction_schedule *s, bool gpu, MlirOperation *after,
                            bool *unsup) {
  *unsup = false;
  if (s->kind == FUSER_SCHED_NONE) return *unsup = true, false;
  fk_kernel *k = malloc(sizeof *k);
  bool ok = fk_kernel_read(func, k);
  MlirOperation start = *after, made[FUSER_SCHED_MAX_VARIANTS];
  int nmade = 0;
  char why[200] = "";
  for (int i = 0; ok && i < s->num_variants; i++) {
    ok = emit_variant(k, s, &s->variants[i], gpu, after, unsup, why);
    if (ok) made[nmade++] = *after;
  }
  if (!ok) {
    /* drop the variants already emitted: the kernel is lowered another way */
    for (int i = 0; i < nmade; i++) mlirOperationDestroy(made[i]);
    *after = start;
    if (*unsup && getenv("FUSER_DEBUG_ROWS")) fprintf(stderr, "row schedule not used for %.*s: %s\n", (int)k->name_len, k->name, why);
  }
  free(k);
  return ok;
}

bool fuser_is_row_kernel(MlirOperation f) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.row_kernel")));
}

MlirAttribute fuser_row_kernel_to_gpu(fb_builder *b, MlirOperation f, MlirOperation gmod) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
  MlirStringRef mn = mlirStringAttrGetValue(mlirOperationGetAttributeByName(gmod, mlirStringRefCreateFromCString("sym_name")));
  char name[256], binary[64];
  snprintf(name, sizeof name, "%.*s", (int)sym.length, sym.data);
  snprintf(binary, sizeof binary, "%.*s", (int)mn.length, mn.data);
  int nwg = (int)mlirIntegerAttrGetValueInt(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.workgroup_buffers")));
  int block = (int)mlirIntegerAttrGetValueInt(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.block_size")));
  MlirBlock fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  int n = (int)mlirBlockGetNumArguments(fbody), nargs = n - nwg;
  MlirType types[FK_MAX_PARAMS + 2 * MAX_REDS];
  for (int i = 0; i < n; i++) types[i] = mlirValueGetType(mlirBlockGetArgument(fbody, i));
  fb_set_loc(b, mlirOperationGetLocation(f));
  fb_set_ip(b, fb_ip_in(mlirRegionGetFirstBlock(mlirOperationGetRegion(gmod, 0))));
  MlirOperation gf = fb_gpu_func(b, name, nargs, types, nwg, types + nargs, true);
  int32_t kbs[3] = {block, 1, 1};
  mlirOperationSetInherentAttributeByName(gf, mlirStringRefCreateFromCString("known_block_size"), mlirDenseI32ArrayGet(ctx, 3, kbs));
  /* the cluster variant: .reqnctapercluster S (a plain launch then forms the clusters) */
  MlirAttribute cs = mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.cluster_size"));
  if (!mlirAttributeIsNull(cs)) {
    int32_t kcs[3] = {(int32_t)mlirIntegerAttrGetValueInt(cs), 1, 1};
    mlirOperationSetInherentAttributeByName(gf, mlirStringRefCreateFromCString("known_cluster_size"), mlirDenseI32ArrayGet(ctx, 3, kcs));
  }
  /* .minnctapersm 2 (the cluster and re-read variants): ptxas keeps the
   * 1024-thread blocks at <= 32 registers (512-thread ones at <= 64), so two
   * share an SM (2048 threads: the loads in flight of full occupancy; with
   * 42 registers one block per SM ran) */
  MlirAttribute mb = mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.min_blocks_per_sm"));
  if (!mlirAttributeIsNull(mb))
    mlirOperationSetDiscardableAttributeByName(gf, mlirStringRefCreateFromCString("nvvm.minctasm"),
                                               mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), (int32_t)mlirIntegerAttrGetValueInt(mb)));
  /* an optional alignment of every workgroup buffer (transpose tiles: 16-byte chunks) */
  MlirAttribute wga = mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.workgroup_align"));
  if (!mlirAttributeIsNull(wga) && nwg > 0) {
    MlirNamedAttribute al = mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("llvm.align")), wga);
    MlirAttribute dicts[MAX_REDS * 2];
    for (int i = 0; i < nwg && i < MAX_REDS * 2; i++) dicts[i] = mlirDictionaryAttrGet(ctx, 1, &al);
    mlirOperationSetInherentAttributeByName(gf, mlirStringRefCreateFromCString("workgroup_attrib_attrs"),
                                            mlirArrayAttrGet(ctx, nwg < MAX_REDS * 2 ? nwg : MAX_REDS * 2, dicts));
  }
  /* the launch dictionary carries fuser.row_grid (launch_plan.c) */
  MlirAttribute launch = fuser_launch_dict(f, binary, name, block);
  mlirOperationSetDiscardableAttributeByName(gf, mlirStringRefCreateFromCString("fuser.launch"), launch);
  MlirBlock gbody = fb_body(gf);
  MlirOperation ret = mlirBlockGetTerminator(gbody);
  for (int i = 0; i < n; i++) mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, i), mlirBlockGetArgument(gbody, i));
  MlirOperation op = mlirBlockGetFirstOperation(fbody);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (!fuser_op_is(op, "func.return")) mlirOperationMoveBefore(op, ret);
    op = next;
  }
  return launch;
}
