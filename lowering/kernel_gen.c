/* kernel_gen.c: the public entry points of the kernel generator
 * (kernel_gen.h; its parts are listed in kernel_gen_internal.h): one point of
 * the iteration space (delinearize, evaluate every result, store it), the
 * fixed parameter list, analysis (fk_kernel_analyze) and code generation of
 * the loop-level function (fk_codegen). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"

/* ---- one point of the iteration space ------------------------------------ */

/* Delinearizes the flat element index `e` into iteration indices and emits
 * the loads, compute and stores of every result there. */
static void emit_point(gen *g, const char *e) {
  fk_kernel *k = g->k;
  idx_t ix = {.rank = k->rank};
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(k->func, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  char lin[NAME];
  snprintf(lin, NAME, "%s", e);
  if (g->flat && k->rank > 0) {
    /* Every access walks the whole space as one linear run (its strides
     * nest: stride(d) = stride(d+1) * extent(d+1)), so its offset is
     * sum_d i_d * stride(d) = e * stride(innermost): indices (0, ..., 0, e)
     * give that offset with no division. */
    for (int d = 0; d < k->rank; d++) {
      memset(ix.coef[d], 0, sizeof ix.coef[d]);
      ix.coef[d][d] = 1;
      ix.off[d] = 0;
      if (d < k->rank - 1) kg_cidx(g, 0, ix.name[d]);
      else memcpy(ix.name[d], lin, NAME);
    }
  }
  for (int d = k->rank - 1; d >= 0 && !g->flat; d--) {
    memset(ix.coef[d], 0, sizeof ix.coef[d]);
    ix.coef[d][d] = 1;
    ix.off[d] = 0;
    if (k->extent[d] == 1) { kg_cidx(g, 0, ix.name[d]); continue; }
    if (d == 0) { memcpy(ix.name[0], lin, NAME); break; }
    dimv ext;
    if (k->extent[d] == FK_DYN) kg_param(g, FK_PARAM_SIZE, k->num_args, d, ext.name);
    else kg_cidx(g, k->extent[d], ext.name);
    kg_fresh(g, ix.name[d]);
    kg_emit(g, "%s = arith.remui %s, %s : index", ix.name[d], lin, ext.name);
    char q[NAME];
    kg_fresh(g, q);
    kg_emit(g, "%s = arith.divui %s, %s : index", q, lin, ext.name);
    memcpy(lin, q, NAME);
  }
  for (int j = 0; j < k->num_results && !g->failed; j++) {
    kval v = kg_visit(g, mlirOperationGetOperand(ret, j), &ix);
    kg_store(g, k->num_args + j, &ix, v);
  }
  while (g->nmemo > 0) free(g->memo[--g->nmemo].idx);
}

static void gen_init(gen *g, fk_kernel *k, strbuf *pro, strbuf *body, fk_param *params) {
  memset(g, 0, sizeof *g);
  g->k = k;
  g->pro = pro;
  g->body = g->cur = body;
  g->params = params;
  g->W = 1;
  /* One parameter list for every variant of a kernel, in a fixed order: a
   * pointer per tensor, then each `?` size and run-time stride, tensor by
   * tensor, then the scalar arguments. (A variant may leave some unused.) */
  char nm[NAME];
  for (int t = 0; t < k->num_tensors; t++)
    if (k->t[t].is_tensor) kg_param(g, FK_PARAM_PTR, t, -1, nm);
  /* Sizes and strides travel as i64 whatever the index width (one ABI for
   * both variants); the prologue casts them to index. */
  for (int t = 0; t < k->num_tensors; t++) {
    if (!k->t[t].is_tensor) continue;
    for (int kind = FK_PARAM_SIZE; kind <= FK_PARAM_STRIDE; kind++)
      for (int d = 0; d < k->t[t].rank; d++) {
        int64_t v = kind == FK_PARAM_SIZE ? k->t[t].shape[d] : k->t[t].strides[d];
        if (v != FK_DYN) continue;
        kg_param(g, (fk_param_kind)kind, t, d, nm);
        sb_printf(g->pro, "  %s = arith.index_cast %s_i64 : i64 to index\n", nm, nm);
      }
  }
  for (int t = 0; t < k->num_args; t++)
    if (!k->t[t].is_tensor) kg_param(g, FK_PARAM_SCALAR, t, -1, nm);
}

bool fk_kernel_analyze(fk_kernel *k) {
  strbuf pro = {0}, body = {0};
  fk_param params[FK_MAX_PARAMS];
  gen g;
  gen_init(&g, k, &pro, &body, params);
  g.analysis = true;
  k->num_accesses = k->num_boundaries = 0;
  emit_point(&g, "%e");
  free(g.memo);
  sb_free(&pro);
  sb_free(&body);
  return !g.failed;
}

bool fk_codegen(fk_kernel *k, const fk_codegen_options *opts, strbuf *out, fk_param *params, int *num_params) {
  strbuf pro = {0}, vbody = {0}, tbody = {0};
  gen g;
  gen_init(&g, k, &pro, &vbody, params);
  int W = opts->width, U = opts->unroll;
  g.flat = opts->flat;
  char c0[NAME], c1[NAME], cW[NAME], cU[NAME], n[NAME];
  kg_cidx(&g, 0, c0);
  kg_cidx(&g, 1, c1);
  kg_cidx(&g, W, cW);
  kg_cidx(&g, U, cU);
  /* total number of points */
  g.cur = g.pro;
  kg_cidx(&g, 1, n);
  for (int d = 0; d < k->rank; d++) {
    char e[NAME], t[NAME];
    if (k->extent[d] == FK_DYN) kg_param(&g, FK_PARAM_SIZE, k->num_args, d, e);
    else kg_cidx(&g, k->extent[d], e);
    kg_imul(&g, n, e, t);
    memcpy(n, t, NAME);
  }
  /* vector body */
  g.W = W;
  g.cur = &vbody;
  g.indent = 8;
  emit_point(&g, "%e");
  /* scalar tail */
  bool tail = W > 1 && opts->tail;
  if (tail) {
    g.W = 1;
    g.cur = &tbody;
    g.indent = 6;
    emit_point(&g, "%et");
  }
  *num_params = g.nparams;
  if (g.failed) goto done;
  sb_printf(out, "func.func @%.*s__%s(", (int)k->name_len, k->name, opts->variant);
  for (int i = 0; i < g.nparams; i++) {
    const fk_param *p = &params[i];
    char nm[NAME];
    kg_param(&g, p->kind, p->tensor, p->dim, nm);
    if (i) sb_append(out, ", ");
    if (p->kind == FK_PARAM_PTR) sb_printf(out, "%s: memref<1x%s>", nm, kg_storage_type(k->t[p->tensor].dtype));
    else if (p->kind == FK_PARAM_SCALAR) sb_printf(out, "%s: %s", nm, fuser_dtype_mlir_name(k->t[p->tensor].dtype));
    else sb_printf(out, "%s_i64: i64", nm);
  }
  sb_printf(out, ") attributes {fuser.loops, fuser.kernel_name = \"%.*s\", fuser.variant = \"%s\", "
                 "fuser.vector_width = %d : i64, fuser.unroll = %d : i64, fuser.index_bits = %d : i64, "
                 "fuser.num_args = %d : i64, fuser.params = [",
            (int)k->name_len, k->name, opts->variant, W, U, opts->index_bits, k->num_args);
  for (int i = 0; i < g.nparams; i++) {
    char desc[64];
    fk_param_format(&params[i], desc, sizeof desc);
    sb_printf(out, "%s\"%s\"", i ? ", " : "", desc);
  }
  sb_printf(out, "]%s%s} {\n", opts->extra_attrs ? ", " : "", opts->extra_attrs ? opts->extra_attrs : "");
  sb_append(out, pro.data);
  /* threads = max(ceil(nvec / U), tail): enough for the vectors and the tail */
  sb_printf(out, "  %%nvec = arith.divui %s, %s : index\n", n, cW);
  sb_printf(out, "  %%nvec_u = arith.ceildivui %%nvec, %s : index\n", cU);
  sb_printf(out, "  %%vend = arith.muli %%nvec, %s : index\n", cW);
  sb_printf(out, "  %%ntail = arith.subi %s, %%vend : index\n", n);
  sb_printf(out, "  %%nthreads = arith.maxui %%nvec_u, %%ntail : index\n");
  sb_printf(out, "  scf.parallel (%%t) = (%s) to (%%nthreads) step (%s) {\n", c0, c1);
  /* redundant here; on the GPU the grid is rounded up to whole blocks */
  sb_printf(out, "    %%tin = arith.cmpi ult, %%t, %%nthreads : index\n");
  sb_printf(out, "    scf.if %%tin {\n");
  sb_printf(out, "    scf.for %%u = %s to %s step %s {\n", c0, cU, c1);
  sb_printf(out, "      %%uq = arith.muli %%u, %%nthreads : index\n");
  sb_printf(out, "      %%q = arith.addi %%uq, %%t : index\n");
  sb_printf(out, "      %%inb = arith.cmpi ult, %%q, %%nvec : index\n");
  sb_printf(out, "      scf.if %%inb {\n");
  sb_printf(out, "        %%e = arith.muli %%q, %s : index\n", cW);
  sb_append(out, vbody.data);
  sb_printf(out, "      }\n    }\n");
  if (tail) {
    sb_printf(out, "    %%tail0 = arith.addi %%vend, %%t : index\n");
    sb_printf(out, "    scf.for %%et = %%tail0 to %s step %%nthreads {\n", n);
    sb_append(out, tbody.data);
    sb_printf(out, "    }\n");
  }
  sb_printf(out, "    }\n    scf.reduce\n  }\n  return\n}\n");
done:
  for (int i = 0; i < g.nmemo; i++) free(g.memo[i].idx);
  free(g.memo);
  sb_free(&pro);
  sb_free(&vbody);
  sb_free(&tbody);
  return !g.failed;
}
