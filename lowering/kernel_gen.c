/* kernel_gen.c: the entry point of the kernel generator (kernel_gen.h; its
 * parts are listed in kernel_gen_internal.h): the fixed parameter list, the
 * loop-level function with its thread loop (fk_codegen), and one point of
 * the iteration space (delinearize, evaluate every result, store it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "lowering/launch_param.h"
#include "passes/vectorize.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

static void add_param(gen *g, fk_param_kind kind, int tensor, int dim) {
  if (g->nparams == g->capparams) {
    g->capparams = g->capparams ? 2 * g->capparams : 32;
    g->params = realloc(g->params, (size_t)g->capparams * sizeof *g->params);
  }
  g->params[g->nparams++] = (fk_param){kind, tensor, dim};
}

/* One parameter list for every variant of a kernel, in a fixed order: a
 * pointer per tensor, then each `?` size and run-time stride, tensor by
 * tensor, then the scalar arguments. (A variant may leave some unused.) */
static void param_list(gen *g) {
  fk_kernel *k = g->k;
  for (int t = 0; t < k->num_tensors; t++)
    if (k->t[t].is_tensor) add_param(g, FK_PARAM_PTR, t, -1);
  for (int t = 0; t < k->num_tensors; t++) {
    if (!k->t[t].is_tensor) continue;
    for (int kind = FK_PARAM_SIZE; kind <= FK_PARAM_STRIDE; kind++)
      for (int d = 0; d < k->t[t].rank; d++) {
        int64_t v = kind == FK_PARAM_SIZE ? k->t[t].shape[d] : k->t[t].strides[d];
        if (v == FK_DYN) add_param(g, (fk_param_kind)kind, t, d);
      }
  }
  for (int t = 0; t < k->num_args; t++)
    if (!k->t[t].is_tensor) add_param(g, FK_PARAM_SCALAR, t, -1);
  if (fk_index_sites(k->func, NULL, 0) > 0) add_param(g, FK_PARAM_CHECK, -1, -1);
}

static MlirType param_type(gen *g, const fk_param *p) {
  if (p->kind == FK_PARAM_PTR) return fb_memref_1d_type(kg_storage_type(g, g->k->t[p->tensor].dtype), 1);
  if (p->kind == FK_PARAM_SCALAR) return kg_elem_type(g, g->k->t[p->tensor].dtype);
  if (p->kind == FK_PARAM_CHECK) return fb_memref_1d_type(fb_int_type(&g->b, 32), 1);
  return fb_int_type(&g->b, 64); /* sizes and strides travel as i64 whatever the index width */
}

/* ---- one point of the iteration space ------------------------------------ */

/* The location of the op that computes result j (the kernel's otherwise). */
static MlirLocation result_loc(gen *g, MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOperationGetLocation(mlirOpResultGetOwner(v)) : mlirOperationGetLocation(g->k->func);
}

void kg_delinearize(gen *g, MlirValue lin, idx_t *it) {
  fk_kernel *k = g->k;
  it->rank = k->rank;
  for (int d = k->rank - 1; d >= 0; d--) {
    if (k->extent[d] == 1) {
      it->v[d] = kg_cidx(g, 0);
      continue;
    }
    if (d == 0) {
      it->v[0] = lin;
      break;
    }
    MlirValue ext = kg_iter_extent(g, d);
    it->v[d] = fb_remui(&g->b, lin, ext);
    lin = fb_divui(&g->b, lin, ext);
  }
}

/* Delinearizes the flat element index `e` into iteration indices and makes
 * the loads, compute and stores of every result there. */
static void emit_point(gen *g, MlirValue e) {
  fk_kernel *k = g->k;
  fb_builder *b = &g->b;
  idx_t it = {.rank = k->rank}; /* iteration indices */
  fb_set_loc(b, mlirOperationGetLocation(k->func));
  g->point = e;
  if (g->flat && k->rank > 0) {
    /* Every access walks the whole space as one linear run (its strides
     * nest: stride(d) = stride(d+1) * extent(d+1)), so its offset is
     * sum_d i_d * stride(d) = e * stride(innermost): indices (0, ..., 0, e)
     * give that offset with no division. (Gathered tensors do not follow
     * the run: kg_load delinearizes their lanes itself.) */
    for (int d = 0; d < k->rank - 1; d++) it.v[d] = kg_cidx(g, 0);
    it.v[k->rank - 1] = e;
  } else kg_delinearize(g, e, &it);
  /* every load of the point first, before any is used: with in-kernel
   * checks each load is a branch, and without them a branchy expansion in
   * ptxas does the same (rcp.rn.f32's slow path: swiglu_small's second
   * input was loaded after the sigmoids of the first, ncu on the H200: two
   * memory round trips in the chain, 1779 cycles per warp against
   * torch.compile's 908, whose kernel issues both loads first) */
  kg_gather_point(g);
  if (g->W > 1) kg_prefetch_point(g, &it);
  kg_emit_results(g, &it);
  g->pre.n = 0;
}

/* The index of every result at iteration indices `it` (result dim
 * iter_dim[d] is iteration dim d; the vectors run along g->lane_dim, the
 * last but in a transpose tile's columns). */
void kg_result_index(gen *g, const idx_t *it, idx_t *rix) {
  fk_kernel *k = g->k;
  memset(rix, 0, sizeof *rix);
  rix->rank = k->rank;
  for (int d = 0; d < k->rank; d++) rix->v[k->iter_dim[d]] = it->v[d];
  if (k->rank > 0) rix->inner[k->iter_dim[g->lane_dim]] = true;
}

/* Evaluates and stores every result at iteration indices `it`. */
void kg_emit_results(gen *g, const idx_t *it) {
  fk_kernel *k = g->k;
  fb_builder *b = &g->b;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(k->func, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  idx_t rix;
  kg_result_index(g, it, &rix);
  for (int j = 0; j < k->num_results && !g->failed; j++) {
    MlirValue r = mlirOperationGetOperand(ret, j);
    kval v = kg_visit(g, r, &rix);
    fb_set_loc(b, result_loc(g, r));
    kg_store(g, k->num_args + j, &rix, v);
  }
  fuser_scoped_memo_pop_to(&g->memo, 0);
}

/* Whether the vector at flat point `e` straddles a cat/pad boundary that W
 * does not divide (fk_lane_split_boundary): i < value < i + W for its first
 * lane's innermost index i, as (value - i - 1) <u (W - 1). Null when the
 * kernel has no such boundary. */
static MlirValue straddles(gen *g, MlirValue e) {
  fk_kernel *k = g->k;
  fb_builder *b = &g->b;
  MlirValue any = {NULL}, i = {NULL};
  for (int n = 0; n < k->num_boundaries; n++) {
    const fk_boundary *bd = &k->bnd[n];
    bool seen = false; /* pad and cat may record one position twice */
    for (int m = 0; m < n; m++)
      seen |= k->bnd[m].dim == bd->dim && k->bnd[m].value == bd->value && k->bnd[m].src_tensor == bd->src_tensor &&
              k->bnd[m].src_dim == bd->src_dim && k->bnd[m].shift == bd->shift;
    if (seen || !fk_lane_split_boundary(k, bd, g->W)) continue;
    if (mlirValueIsNull(i)) {
      int d = k->rank - 1;
      MlirValue ext = kg_iter_extent(g, d);
      i = d == 0 ? e : fb_remui(b, e, ext);
    }
    MlirValue at = kg_cidx(g, bd->value - 1);
    if (bd->value == FK_DYN) { /* extent(src) + shift - 1, once per thread */
      fb_ip save = kg_enter_prologue(g);
      at = fb_addi_const(b, kg_param(g, FK_PARAM_SIZE, bd->src_tensor, bd->src_dim), bd->shift - 1);
      kg_leave_prologue(g, save);
    }
    MlirValue c = fb_cmpi(b, FB_CMPI_ULT, fb_subi(b, at, i), kg_cidx(g, g->W - 1));
    any = mlirValueIsNull(any) ? c : fb_binary(b, "arith.ori", any, c);
  }
  return any;
}

/* The vector at flat point `e`; one that straddles a boundary W does not
 * divide (the pad of pad(x[:, 1:], [0, 1]) at column 8191 of rows of 8192:
 * one vector in 1024) goes lane by lane instead, so that each lane takes
 * its own side: a divergent branch for that vector's warp only. */
static void emit_vector(gen *g, MlirValue e) {
  fb_builder *b = &g->b;
  MlirValue split = straddles(g, e);
  if (mlirValueIsNull(split)) {
    emit_point(g, e);
    return;
  }
  int W = g->W;
  MlirOperation br = fb_if(b, split, 0, NULL, true);
  fb_set_ip(b, fb_ip_in(fb_then(br)));
  MlirOperation lanes = fb_for(b, kg_cidx(g, 0), kg_cidx(g, W), kg_cidx(g, 1), 0, NULL);
  fb_set_ip(b, fb_ip_in(fb_body(lanes)));
  g->W = 1;
  emit_point(g, fb_binary(b, "arith.addi", e, fb_for_iv(lanes)));
  g->W = W;
  fb_set_ip(b, fb_ip_in(fb_else(br)));
  emit_point(g, e);
  fb_set_ip(b, fb_ip_after(br));
}

/* ---- the function --------------------------------------------------------- */

static MlirNamedAttribute named(gen *g, const char *name, MlirAttribute a) { return fb_named(&g->b, name, a); }

static void set_attrs(gen *g, MlirOperation f, const fk_codegen_options *o) {
  fb_builder *b = &g->b;
  fk_kernel *k = g->k;
  MlirAttribute params[FK_MAX_PARAMS];
  for (int i = 0; i < g->nparams; i++) params[i] = fk_param_attr(b->ctx, &g->params[i]);
  char kernel[512];
  snprintf(kernel, sizeof kernel, "%.*s", (int)k->name_len, k->name);
  MlirNamedAttribute attrs[] = {
      named(g, "fuser.loops", mlirUnitAttrGet(b->ctx)),
      named(g, "fuser.kernel_name", mlirFlatSymbolRefAttrGet(b->ctx, mlirStringRefCreateFromCString(kernel))),
      named(g, "fuser.variant", fb_str_attr(b, o->variant)),
      named(g, "fuser.vector_width", fb_i64_attr(b, o->width)),
      named(g, "fuser.unroll", fb_i64_attr(b, o->unroll)),
      named(g, "fuser.index_bits", fb_i64_attr(b, o->index_bits)),
      named(g, "fuser.block_size", fb_i64_attr(b, o->block_size)),
      named(g, "fuser.num_args", fb_i64_attr(b, k->num_args)),
      named(g, "fuser.params", mlirArrayAttrGet(b->ctx, g->nparams, params)),
      named(g, "fuser.vector_conditions", mlirAttributeIsNull(o->conditions) ? mlirArrayAttrGet(b->ctx, 0, NULL) : o->conditions),
  };
  if (!mlirAttributeIsNull(o->access_conditions))
    mlirOperationSetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.access_conditions"), o->access_conditions);
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
    mlirOperationSetDiscardableAttributeByName(f, mlirIdentifierStr(attrs[i].name), attrs[i].attribute);
}

MlirOperation kg_open(gen *g, fk_kernel *k, const fk_codegen_options *opts, MlirOperation after, int nextra,
                      const MlirType *extra) {
  memset(g, 0, sizeof *g);
  g->k = k;
  g->W = 1;
  g->lane_dim = k->rank > 0 ? k->rank - 1 : 0;
  g->flat = opts->flat;
  for (intptr_t i = 0; !mlirAttributeIsNull(opts->gather) && i < mlirDenseArrayGetNumElements(opts->gather); i++) {
    int64_t t = mlirDenseI64ArrayGetElement(opts->gather, i);
    if (t >= 0 && t < k->num_args) g->gather[t] = true;
  }
  MlirContext ctx = mlirOperationGetContext(k->func);
  fb_builder *b = &g->b;
  fb_init(b, ctx, mlirOperationGetLocation(k->func));
  kg_walk_init(g);
  kg_prologue_init(g);
  param_list(g);
  MlirOperation f = {NULL};
  if (g->nparams > FK_MAX_PARAMS) {
    char msg[160];
    snprintf(msg, sizeof msg, "kernel needs %d parameters; at most %d are supported", g->nparams, FK_MAX_PARAMS);
    mlirEmitError(mlirOperationGetLocation(k->func), msg);
    g->failed = true;
    return f;
  }
  MlirType *types = malloc((size_t)(g->nparams + nextra + 1) * sizeof *types);
  for (int i = 0; i < g->nparams; i++) types[i] = param_type(g, &g->params[i]);
  for (int i = 0; i < nextra; i++) types[g->nparams + i] = extra[i];
  char name[600];
  snprintf(name, sizeof name, "%.*s__%s", (int)k->name_len, k->name, opts->variant);
  fb_set_ip(b, fb_ip_after(after));
  f = fb_func(b, name, g->nparams + nextra, types);
  free(types);
  MlirBlock entry = fb_body(f);
  /* the prologue and the constants: before the thread loop, in the order made */
  g->pro = fb_ip_in(entry);
  fb_set_ip(b, g->pro);
  fb_set_const_ip(b, g->pro);
  g->param_values = malloc((size_t)(g->nparams + 1) * sizeof *g->param_values);
  for (int i = 0; i < g->nparams; i++) {
    MlirValue a = mlirBlockGetArgument(entry, i);
    if (g->params[i].kind == FK_PARAM_SIZE || g->params[i].kind == FK_PARAM_STRIDE) a = fb_index_cast(b, a, fb_index_type(b));
    g->param_values[i] = a;
  }
  g->zero_index = kg_cidx(g, 0);
  kg_access_checks(g, opts->access_conditions);
  return f;
}

MlirOperation kg_close(gen *g, MlirOperation f, const fk_codegen_options *opts) {
  if (!g->failed && !mlirOperationIsNull(f)) set_attrs(g, f, opts);
  if (g->failed && !mlirOperationIsNull(f)) {
    mlirOperationDestroy(f);
    f = (MlirOperation){NULL};
  }
  fuser_scoped_memo_free(&g->memo);
  fuser_scoped_memo_free(&g->dims);
  fuser_scoped_memo_free(&g->scalars);
  free(g->params);
  free(g->param_values);
  fb_free(&g->b);
  return f;
}

MlirOperation fk_codegen(fk_kernel *k, const fk_codegen_options *opts, MlirOperation after) {
  gen g;
  MlirOperation f = kg_open(&g, k, opts, after, 0, NULL);
  if (g.failed) return kg_close(&g, f, opts);
  fb_builder *b = &g.b;
  int W = opts->width, U = opts->unroll;
  MlirValue c0 = g.zero_index, c1 = kg_cidx(&g, 1), cW = kg_cidx(&g, W), cU = kg_cidx(&g, U);
  /* total number of points */
  MlirValue n = kg_cidx(&g, 1);
  for (int d = 0; d < k->rank; d++)
    n = fb_muli(b, n, kg_iter_extent(&g, d));
  /* threads = max(ceil(nvec / U), tail): enough for the vectors and the tail */
  MlirValue nvec = fb_divui(b, n, cW);
  g.pro = fb_ip_before(mlirOpResultGetOwner(nvec));
  fb_move_const_ip(b, g.pro);
  MlirValue nvec_u = fb_ceildivui(b, nvec, cU), vend = fb_binary(b, "arith.muli", nvec, cW);
  MlirValue nthreads = fb_maxui(b, nvec_u, fb_subi(b, n, vend));
  MlirOperation par = fb_parallel(b, 1, &c0, &nthreads, &c1);
  MlirValue t = fb_parallel_iv(par, 0);
  fb_set_ip(b, fb_ip_in(fb_body(par)));
  /* redundant here; on the GPU the grid is rounded up to whole blocks */
  MlirOperation tin = fb_if(b, fb_cmpi(b, FB_CMPI_ULT, t, nthreads), 0, NULL, false);
  fb_set_ip(b, fb_ip_in(fb_then(tin)));
  MlirOperation uloop = fb_for(b, c0, cU, c1, 0, NULL);
  fb_set_ip(b, fb_ip_in(fb_body(uloop)));
  MlirValue q = fb_binary(b, "arith.addi", fb_binary(b, "arith.muli", fb_for_iv(uloop), nthreads), t);
  MlirOperation inb = fb_if(b, fb_cmpi(b, FB_CMPI_ULT, q, nvec), 0, NULL, false);
  fb_set_ip(b, fb_ip_in(fb_then(inb)));
  MlirValue e = fb_binary(b, "arith.muli", q, cW);
  /* the vector body */
  g.W = W;
  emit_vector(&g, e);
  /* the scalar tail */
  if (W > 1 && opts->tail && !g.failed) {
    fb_set_loc(b, mlirOperationGetLocation(k->func));
    fb_set_ip(b, fb_ip_after(uloop));
    MlirValue tail0 = fb_binary(b, "arith.addi", vend, t);
    MlirOperation tloop = fb_for(b, tail0, n, nthreads, 0, NULL);
    fb_set_ip(b, fb_ip_in(fb_body(tloop)));
    g.W = 1;
    emit_point(&g, fb_for_iv(tloop));
  }
  return kg_close(&g, f, opts);
}
