/* plan_launches.c: the second half of the plan model (plan_model_build.h):
 * after the PTX pipeline, each kernel call's launches (variants, grids,
 * parameters resolved to the call's tensors, run-time conditions), its
 * index flag, and matmul segments as typed batched products. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/launch_plan.h"
#include "lowering/plan_model_build.h"
#include "lowering/plan_model_internal.h"
#include "lowering/plan_translate.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"
#include "passes/kernel_info.h"
#include "support/location.h"

typedef struct fuser_expr program;

static program *poly(const fuser_poly *p) { return fuser_poly_program(p); }
static program *num(int64_t v) { return fpx_const(v); }
static program *op2(fpx_op op, program *x, program *y) { return fpx_binary(op, x, y); }

/* The conditions of one variant (or one matmul's checks) while they are
 * gathered: any number; cond_pack then fits them into the runtime's 64 per
 * variant by joining neighbours with &&. Dropping one instead would let a
 * variant run where it must not (an unchecked extent, a misaligned vector
 * access). */
typedef struct {
  program **items;
  int n, cap;
  bool failed; /* out of memory */
} cond_list;

static void cond_push(cond_list *l, program *c) {
  if (!c || l->failed) {
    fuser_plan_program_free(c);
    l->failed = true;
    return;
  }
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    program **p = realloc(l->items, sizeof *p * (size_t)cap);
    if (!p) {
      fuser_plan_program_free(c);
      l->failed = true;
      return;
    }
    l->items = p, l->cap = cap;
  }
  l->items[l->n++] = c;
}

/* Moves l's conditions into out[FPM_MAX_CONDITIONS] (*n of them): as they
 * are when they fit, else in groups of ceil(n / FPM_MAX_CONDITIONS) joined
 * with &&. Frees l; false when out of memory. */
static bool cond_pack(cond_list *l, program **out, int *n) {
  int group = (l->n + FPM_MAX_CONDITIONS - 1) / FPM_MAX_CONDITIONS;
  bool ok = !l->failed;
  *n = 0;
  for (int i = 0; i < l->n; i += group) {
    program *joined = l->items[i];
    for (int j = i + 1; j < l->n && j < i + group; j++) joined = op2(FPX_AND, joined, l->items[j]);
    if (!joined) ok = false;
    else if (ok) out[(*n)++] = joined;
    else fuser_plan_program_free(joined);
  }
  if (!ok) {
    for (int i = 0; i < *n; i++) fuser_plan_program_free(out[i]);
    *n = 0;
  }
  free(l->items);
  *l = (cond_list){0};
  return ok;
}

/* The extents a kernel assumes equal (call_info.checks), but those the
 * call's checks (fpm_check) already make before any kernel. */
static void cond_push_call_checks(cond_list *l, const call_info *c, const fuser_plan_model *m) {
  const model_state *st = m->internal;
  for (int q = 0; q < c->nchecks; q++) {
    bool made = false;
    for (int i = 0; i < m->num_checks && !made; i++) made = fpm_relation_equal(&st->check_keys[i], &c->checks[q]);
    if (!made) cond_push(l, op2(c->checks[q].rel == FPM_REL_LE ? FPX_LE : FPX_EQ, poly(&c->checks[q].a), poly(&c->checks[q].b)));
  }
}

/* The product of dims [from, rank) of d's sizes, starting from 1 (as the
 * text form wrote it: 1 * (s0) * (s1) ...). */
static program *points_of(const value_desc *d, int from, int to) {
  program *p = num(1);
  for (int q = from; q < to && q < d->rank; q++) p = op2(FPX_MUL, p, poly(&d->size[q]));
  return p;
}

static int module_for(fuser_plan_model *m, const fuser_launch *l, char names[][64]) {
  for (int i = 0; i < m->num_modules; i++)
    if (strcmp(names[i], l->binary) == 0) return i;
  int i = m->num_modules++;
  m->modules = realloc(m->modules, sizeof *m->modules * m->num_modules);
  m->module_sizes = realloc(m->module_sizes, sizeof *m->module_sizes * m->num_modules);
  m->modules[i] = malloc(l->ptx_len + 1);
  memcpy(m->modules[i], l->ptx, l->ptx_len);
  m->modules[i][l->ptx_len] = 0;
  m->module_sizes[i] = l->ptx_len;
  snprintf(names[i], 64, "%s", l->binary);
  return i;
}

/* A kernel with index ops gets its index flag: a zero-initialised 4-byte
 * temp and the text naming each site (fpm_temp.index_sites). */
void fpm_add_index_flag(fuser_plan_model *m, MlirOperation kernel, call_info *c) {
  MlirOperation sites[64];
  int n = fk_index_sites(kernel, sites, 64);
  c->flag_temp = -1;
  if (n == 0) return;
  if (n > 64) n = 64;
  size_t cap = 64 + 400 * (size_t)n, used = 0;
  char *text = malloc(cap);
  text[0] = 0;
  for (int i = 0; i < n; i++) {
    char where[300];
    fuser_location_text(mlirOperationGetLocation(sites[i]), where, sizeof where);
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(sites[i]));
    used += (size_t)snprintf(text + used, cap - used, "%s%s: %.*s", i ? "\n" : "", where, (int)name.length, name.data);
  }
  c->flag_temp = m->num_temps;
  m->temps = realloc(m->temps, sizeof *m->temps * (m->num_temps + 1));
  fuser_poly four = fuser_poly_const(4);
  m->temps[m->num_temps].bytes = fuser_poly_program(&four);
  m->temps[m->num_temps++].index_sites = text;
}

/* The parameters of a launch, resolved against the call's tensors. */
static bool resolve_params(const fuser_launch *l, const call_info *c, fpm_kernel *k, char *err, size_t errlen) {
  k->num_params = l->num_params;
  int ibits = l->param_bits; /* sizes and strides are passed at this width in every variant */
  for (int i = 0; i < l->num_params; i++) {
    const fk_param *p = &l->params[i];
    fpm_param *q = &k->params[i];
    if (p->kind == FK_PARAM_CHECK) { /* the index flag (add_index_flag) */
      if (c->flag_temp < 0) return fpm_fail(c->call, err, errlen, "kernel %s takes an index flag but has no index op", c->callee);
      *q = (fpm_param){.kind = FPM_PARAM_PTR, .buffer = FPM_TEMP, .index = c->flag_temp, .expr = num(0)};
      continue;
    }
    if (p->tensor < 0 || p->tensor >= c->num_tensors) return fpm_fail(c->call, err, errlen, "launch parameter %d of %s names tensor %d", i, c->callee, p->tensor);
    const value_desc *d = &c->t[p->tensor];
    switch (p->kind) {
    case FK_PARAM_PTR:
      q->kind = FPM_PARAM_PTR;
      q->buffer = d->buffer;
      q->index = d->index;
      q->expr = poly(&d->offset);
      break;
    case FK_PARAM_SIZE:
    case FK_PARAM_STRIDE:
      q->kind = ibits == 32 ? FPM_PARAM_I32 : FPM_PARAM_I64;
      q->expr = poly(p->kind == FK_PARAM_SIZE ? &d->size[p->dim] : &d->stride[p->dim]);
      break;
    case FK_PARAM_CHECK: break; /* above */
    case FK_PARAM_SCALAR:
      if (fuser_dtype_is_float(d->dtype)) {
        if (d->index < 0) return fpm_fail(c->call, err, errlen, "a floating scalar computed on the host is not supported");
        q->kind = d->dtype == FUSER_DTYPE_F64 ? FPM_PARAM_F64 : FPM_PARAM_F32;
        q->index = d->index;
      } else {
        q->kind = d->dtype == FUSER_DTYPE_I64 ? FPM_PARAM_I64 : FPM_PARAM_I32;
        q->expr = poly(&d->value);
      }
      break;
    }
  }
  return true;
}

static bool same_params(const fpm_kernel *k, const fuser_launch *l, const call_info *c) {
  fpm_kernel tmp = {0};
  char e[64];
  if (!resolve_params(l, c, &tmp, e, sizeof e) || tmp.num_params != k->num_params) return false;
  bool same = true;
  for (int i = 0; i < k->num_params; i++) {
    same &= tmp.params[i].kind == k->params[i].kind && tmp.params[i].buffer == k->params[i].buffer &&
            tmp.params[i].index == k->params[i].index &&
            ((!tmp.params[i].expr && !k->params[i].expr) || fpx_equal(tmp.params[i].expr, k->params[i].expr));
    fuser_plan_program_free(tmp.params[i].expr);
  }
  return same;
}

/* The run-time conditions of a variant, as programs. */
static void add_conditions(const fuser_launch *l, const call_info *c, cond_list *v) {
  for (int i = 0; i < l->num_conditions; i++) {
    const fuser_launch_condition *k = &l->conditions[i];
    if (k->kind == FK_COND_INDEX32) {
      /* every tensor's span and the point count fit comfortably in 31 bits:
       * 1 + max(size - 1, 0) * stride summed over dims, and the product of sizes */
      for (int t = 0; t < c->num_tensors; t++) {
        const value_desc *d = &c->t[t];
        if (!d->tensor) continue;
        program *span = num(1);
        for (int q = 0; q < d->rank; q++)
          span = op2(FPX_ADD, span, op2(FPX_MUL, op2(FPX_MAX, op2(FPX_SUB, poly(&d->size[q]), num(1)), num(0)), poly(&d->stride[q])));
        cond_push(v, op2(FPX_AND, op2(FPX_LT, span, num(2147418112)), op2(FPX_LT, points_of(d, 0, d->rank), num(2147418112))));
      }
      continue;
    }
    const value_desc *d = &c->t[k->tensor];
    switch (k->kind) {
    case FK_COND_ALIGN: /* (addr(i) + offset * esize) % bytes == 0 */
      if (d->buffer != FPM_INPUT) break; /* outputs and temps are 256-byte aligned */
      cond_push(v, op2(FPX_EQ, op2(FPX_MOD, op2(FPX_ADD, fpx_addr(d->index), op2(FPX_MUL, poly(&d->offset), num((int64_t)d->esize))),
                                   num(k->value)),
                       num(0)));
      break;
    case FK_COND_STRIDE:
      cond_push(v, op2(FPX_EQ, op2(FPX_MOD, poly(&d->stride[k->dim]), num(k->value)), num(0)));
      break;
    case FK_COND_EXTENT:
      cond_push(v, op2(FPX_EQ, op2(FPX_MOD, poly(&d->size[k->dim]), num(k->value)), num(0)));
      break;
    case FK_COND_POINTS:     /* enough points for the unrolled variant to fill the GPU */
    case FK_COND_ROW_LENGTH: /* a row long enough for the cluster variant: dims [dim, rank) */
      cond_push(v, op2(FPX_GE, points_of(d, k->kind == FK_COND_ROW_LENGTH ? k->dim : 0, d->rank), num(k->value)));
      break;
    case FK_COND_MERGE: /* dims dim and inner form one linear run */
      cond_push(v, op2(FPX_EQ, poly(&d->stride[k->dim]), op2(FPX_MUL, poly(&d->stride[k->inner]), poly(&d->size[k->inner]))));
      break;
    default:
      break;
    }
  }
}

/* ---- matmul segments ---------------------------------------------------------- */

static void pointer_of(const value_desc *d, fpm_param *q) {
  *q = (fpm_param){.kind = FPM_PARAM_PTR, .buffer = d->buffer, .index = d->index, .expr = poly(&d->offset)};
}

static program *stride_or_zero(const value_desc *d, int dim) { return dim >= 0 ? poly(&d->stride[dim]) : num(0); }

/* A batch dim's stride, 0 where the operand lacks the dim or broadcasts it
 * (extent 1 at run time: stride * min(extent - 1, 1)). */
static program *batch_stride(const value_desc *d, int dim) {
  if (dim < 0) return num(0);
  return op2(FPX_MUL, poly(&d->stride[dim]), op2(FPX_MIN, op2(FPX_SUB, poly(&d->size[dim]), num(1)), num(1)));
}

/* The operand of the matmul op, as the call's tensor (kernel argument). */
static const value_desc *matmul_operand(const call_info *c, int i) {
  MlirValue v = mlirOperationGetOperand(c->matmul, i);
  return mlirValueIsABlockArgument(v) ? &c->t[mlirBlockArgumentGetArgNumber(v)] : NULL;
}

static bool matmul_segment(const fuser_plan_model *m, const call_info *c, fpm_kernel *k, char *err, size_t errlen) {
  MlirOperation op = c->matmul;
  int nops = (int)mlirOperationGetNumOperands(op);
  const value_desc *a = matmul_operand(c, 0), *b = matmul_operand(c, 1), *bias = nops == 3 ? matmul_operand(c, 2) : NULL;
  const value_desc *out = &c->t[c->num_args];
  fuser_matmul_dims d;
  if (!a || !b || (nops == 3 && !bias) || !fuser_matmul_dims_of(fuser_op_id_of(op), a->rank, b->rank, &d))
    return fpm_fail(c->call, err, errlen, "matmul segment %s is not one matmul of its arguments", c->callee);
  fpm_matmul *mm = k->matmul = calloc(1, sizeof *mm);
  mm->linear = fuser_op_id_of(op) == FUSER_OP_linear;
  mm->has_bias = bias != NULL;
  snprintf(mm->dtype, sizeof mm->dtype, "%s", fuser_dtype_mlir_name(out->dtype));
  mm->batch = d.batch;
  pointer_of(a, &mm->a);
  pointer_of(b, &mm->b);
  pointer_of(out, &mm->out);
  if (bias) pointer_of(bias, &mm->bias);
  for (int i = 0; i < d.batch; i++) {
    mm->batch_size[i] = poly(&out->size[i]);
    mm->a_batch[i] = batch_stride(a, d.a_dim[i]);
    mm->b_batch[i] = batch_stride(b, d.b_dim[i]);
    mm->out_batch[i] = poly(&out->stride[i]);
  }
  mm->m = d.a_m >= 0 ? poly(&a->size[d.a_m]) : num(1);
  mm->n = d.b_n >= 0 ? poly(&b->size[d.b_n]) : num(1);
  mm->k = poly(&a->size[d.a_k]);
  mm->a_m = stride_or_zero(a, d.a_m);
  mm->a_k = stride_or_zero(a, d.a_k);
  mm->b_k = stride_or_zero(b, d.b_k);
  mm->b_n = stride_or_zero(b, d.b_n);
  mm->out_m = stride_or_zero(out, d.m_dim);
  mm->out_n = stride_or_zero(out, d.n_dim);
  mm->bias_n = bias && bias->rank == 1 ? poly(&bias->stride[0]) : num(0);
  cond_list checks = {0};
  cond_push_call_checks(&checks, c, m);
  if (!cond_pack(&checks, mm->checks, &mm->num_checks)) return fuser_message(err, errlen, "out of memory");
  return true;
}

void fpm_matmul_free(fpm_matmul *mm) {
  if (!mm) return;
  program *all[] = {mm->a.expr, mm->b.expr, mm->bias.expr, mm->out.expr, mm->m, mm->n, mm->k, mm->a_m, mm->a_k, mm->b_k, mm->b_n,
                    mm->out_m, mm->out_n, mm->bias_n};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) fuser_plan_program_free(all[i]);
  for (int i = 0; i < mm->batch; i++)
    fuser_plan_program_free(mm->batch_size[i]), fuser_plan_program_free(mm->a_batch[i]), fuser_plan_program_free(mm->b_batch[i]),
        fuser_plan_program_free(mm->out_batch[i]);
  for (int i = 0; i < mm->num_checks; i++) fuser_plan_program_free(mm->checks[i]);
  free(mm);
}

bool fuser_plan_model_add_launches(fuser_plan_model *m, MlirOperation module, char *err, size_t errlen) {
  model_state *st = m->internal;
  fuser_launch *launches;
  int n = fuser_launch_plan_read(module, &launches);
  if (n < 0) return fuser_message(err, errlen, "the launch plan does not read (the error above)");
  char (*names)[64] = calloc(n + 1, 64);
  m->kernels = calloc(st->ncalls + 1, sizeof *m->kernels);
  bool ok = true;
  for (int ci = 0; ok && ci < st->ncalls; ci++) {
    call_info *c = &st->calls[ci];
    fpm_kernel *k = &m->kernels[m->num_kernels++];
    snprintf(k->name, sizeof k->name, "%s", c->callee);
    if (!mlirOperationIsNull(c->matmul)) {
      ok = matmul_segment(m, c, k, err, errlen);
      continue;
    }
    for (int li = 0; ok && li < n; li++) {
      fuser_launch *l = &launches[li];
      if (strcmp(l->kernel, c->callee) != 0) continue;
      if (!l->ptx) {
        ok = fpm_fail(c->call, err, errlen, "no PTX for %s: run the PTX pipeline first", l->entry);
        break;
      }
      if (k->num_variants == 0) ok = resolve_params(l, c, k, err, errlen);
      else if (!same_params(k, l, c)) ok = fpm_fail(c->call, err, errlen, "variants of %s take different parameters", c->callee);
      if (!ok) break;
      if (k->num_variants == FPM_MAX_VARIANTS) { /* never drop one: the last is the fallback that always applies */
        ok = fpm_fail(c->call, err, errlen, "%s has more than %d variants", c->callee, FPM_MAX_VARIANTS);
        break;
      }
      fpm_variant *v = &k->variants[k->num_variants++];
      snprintf(v->entry, sizeof v->entry, "%s", l->entry);
      v->module = module_for(m, l, names);
      v->block = l->block_size;
      v->vector_width = l->vector_width;
      const value_desc *r0 = &c->t[c->num_args];
      if (l->grid_tensor >= 0 && l->grid_tensor < c->num_tensors) {
        /* a row kernel: a block per rows_per_block rows, the product of the
         * row dims' sizes (a transpose tile counts ceil(size / tile)) */
        const value_desc *gt = &c->t[l->grid_tensor];
        program *rows = num(1);
        for (int q = l->grid_first; q < l->grid_first + l->grid_dims && q < gt->rank; q++) {
          if (q >= l->grid_skip[0] && q < l->grid_skip[1]) continue; /* the reduced dims of a held slab */
          bool tile = l->grid_tile > 0 && (q == l->grid_tile_dims[0] || q == l->grid_tile_dims[1]);
          rows = op2(FPX_MUL, rows, tile ? op2(FPX_CEILDIV, poly(&gt->size[q]), num(l->grid_tile)) : poly(&gt->size[q]));
        }
        v->grid = op2(FPX_MAX, op2(FPX_CEILDIV, rows, num(l->rows_per_block)), num(1));
        /* the cluster variant: blocks_per_row blocks (one cluster) per row */
        if (l->blocks_per_row > 1) v->grid = op2(FPX_MUL, v->grid, num(l->blocks_per_row));
      } else { /* threads as fuser_launch_threads over the iteration space (result 0) */
        program *vec = op2(FPX_CEILDIV, op2(FPX_DIV, points_of(r0, 0, r0->rank), num(l->vector_width)), num(l->unroll));
        program *threads = op2(FPX_MAX, vec, op2(FPX_MOD, points_of(r0, 0, r0->rank), num(l->vector_width)));
        v->grid = op2(FPX_MAX, op2(FPX_CEILDIV, threads, num(l->block_size)), num(1));
      }
      if (!v->grid) {
        ok = fuser_message(err, errlen, "out of memory");
        break;
      }
      cond_list conds = {0};
      add_conditions(l, c, &conds);
      cond_push_call_checks(&conds, c, m);
      if (!cond_pack(&conds, v->conditions, &v->num_conditions)) ok = fuser_message(err, errlen, "out of memory");
    }
    if (ok && k->num_variants == 0) ok = fpm_fail(c->call, err, errlen, "no launch for kernel %s", c->callee);
  }
  free(names);
  fuser_launch_plan_free(launches, n);
  return ok;
}

