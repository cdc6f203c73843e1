/* plan_launches.c: the second half of the plan model (plan_model_build.h):
 * after the PTX pipeline, each kernel call's launches (variants, grids,
 * parameters resolved to the call's tensors, run-time conditions), its
 * index flag, and matmul segments as typed batched products. */
#include <stdarg.h>
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
#include "passes/layout.h"
#include "support/location.h"

/* A malloc'ed expression, whole (a cut one would mean something else). */
static char *fmt(const char *f, ...) {
  va_list ap, ap2;
  va_start(ap, f);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : malloc((size_t)n + 1);
  if (s) vsnprintf(s, (size_t)n + 1, f, ap2);
  va_end(ap2);
  return s;
}

/* The conditions of one variant (or one matmul's checks) while they are
 * gathered: any number; cond_pack then fits them into the runtime's 64 per
 * variant by joining neighbours with &&. Dropping one instead would let a
 * variant run where it must not (an unchecked extent, a misaligned vector
 * access). */
typedef struct {
  char **items;
  int n, cap;
  bool failed; /* out of memory */
} cond_list;

static void cond_push(cond_list *l, char *c) {
  if (!c || l->failed) {
    free(c);
    l->failed = true;
    return;
  }
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    char **p = realloc(l->items, sizeof *p * (size_t)cap);
    if (!p) {
      free(c);
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
static bool cond_pack(cond_list *l, char **out, int *n) {
  int group = (l->n + FPM_MAX_CONDITIONS - 1) / FPM_MAX_CONDITIONS;
  bool ok = !l->failed;
  *n = 0;
  for (int i = 0; ok && i < l->n; i += group) {
    char *joined = group == 1 ? l->items[i] : fmt("(%s)", l->items[i]);
    if (group > 1) free(l->items[i]);
    for (int j = i + 1; j < l->n && j < i + group; j++) {
      char *next = joined ? fmt("%s && (%s)", joined, l->items[j]) : NULL;
      free(joined), free(l->items[j]);
      joined = next;
    }
    if (!joined) ok = false;
    else out[(*n)++] = joined;
  }
  if (!ok) {
    for (int i = 0; i < *n; i++) free(out[i]);
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
    for (int i = 0; i < m->num_checks && !made; i++) made = st->check_keys[i] && strcmp(st->check_keys[i], c->checks[q]) == 0;
    if (!made) cond_push(l, fpm_dup_str(c->checks[q]));
  }
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
      *q = (fpm_param){.kind = FPM_PARAM_PTR, .buffer = FPM_TEMP, .index = c->flag_temp, .expr = fpm_dup_str("0")};
      continue;
    }
    if (p->tensor < 0 || p->tensor >= c->num_tensors) return fpm_fail(c->call, err, errlen, "launch parameter %d of %s names tensor %d", i, c->callee, p->tensor);
    const value_desc *d = &c->t[p->tensor];
    switch (p->kind) {
    case FK_PARAM_PTR:
      q->kind = FPM_PARAM_PTR;
      q->buffer = d->buffer;
      q->index = d->index;
      q->expr = fpm_poly_str(&d->offset);
      break;
    case FK_PARAM_SIZE:
    case FK_PARAM_STRIDE:
      q->kind = ibits == 32 ? FPM_PARAM_I32 : FPM_PARAM_I64;
      q->expr = fpm_poly_str(p->kind == FK_PARAM_SIZE ? &d->size[p->dim] : &d->stride[p->dim]);
      break;
    case FK_PARAM_CHECK: break; /* above */
    case FK_PARAM_SCALAR:
      if (fuser_dtype_is_float(d->dtype)) {
        if (d->index < 0) return fpm_fail(c->call, err, errlen, "a floating scalar computed on the host is not supported");
        q->kind = d->dtype == FUSER_DTYPE_F64 ? FPM_PARAM_F64 : FPM_PARAM_F32;
        q->index = d->index;
      } else {
        q->kind = d->dtype == FUSER_DTYPE_I64 ? FPM_PARAM_I64 : FPM_PARAM_I32;
        q->expr = fpm_poly_str(&d->value);
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
            ((!tmp.params[i].expr && !k->params[i].expr) ||
             (tmp.params[i].expr && k->params[i].expr && strcmp(tmp.params[i].expr, k->params[i].expr) == 0));
    free(tmp.params[i].expr);
  }
  return same;
}

/* The run-time conditions of a variant, as expressions. */
static void add_conditions(const fuser_launch *l, const call_info *c, cond_list *v) {
  for (int i = 0; i < l->num_conditions; i++) {
    const fuser_launch_condition *k = &l->conditions[i];
    char a[1024], b[1024];
    if (k->kind == FUSER_COND_INDEX32) {
      /* every tensor's span and the point count fit comfortably in 31 bits */
      for (int t = 0; t < c->num_tensors; t++) {
        const value_desc *d = &c->t[t];
        if (!d->tensor) continue;
        char span[4096] = "1", points[2048] = "1";
        for (int q = 0; q < d->rank; q++) {
          fpm_poly_text(&d->size[q], a, sizeof a);
          fpm_poly_text(&d->stride[q], b, sizeof b);
          size_t n = strlen(span), m2 = strlen(points);
          snprintf(span + n, sizeof span - n, " + max(%s - 1, 0) * (%s)", a, b);
          snprintf(points + m2, sizeof points - m2, " * (%s)", a);
        }
        cond_push(v, fmt("%s < 2147418112 && %s < 2147418112", span, points));
      }
      continue;
    }
    const value_desc *d = &c->t[k->tensor];
    switch (k->kind) {
    case FUSER_COND_ALIGN:
      if (d->buffer != FPM_INPUT) break; /* outputs and temps are 256-byte aligned */
      fpm_poly_text(&d->offset, a, sizeof a);
      cond_push(v, fmt("(addr(%d) + (%s) * %zu) %% %lld == 0", d->index, a, d->esize, (long long)k->value));
      break;
    case FUSER_COND_STRIDE:
      fpm_poly_text(&d->stride[k->dim], a, sizeof a);
      cond_push(v, fmt("(%s) %% %lld == 0", a, (long long)k->value));
      break;
    case FUSER_COND_EXTENT:
      fpm_poly_text(&d->size[k->dim], a, sizeof a);
      cond_push(v, fmt("(%s) %% %lld == 0", a, (long long)k->value));
      break;
    case FUSER_COND_POINTS:       /* enough points for the unrolled variant to fill the GPU */
    case FUSER_COND_ROW_LENGTH: { /* a row long enough for the cluster variant: dims [dim, rank) */
      char points[2048] = "1";
      for (int q = k->kind == FUSER_COND_ROW_LENGTH ? k->dim : 0; q < d->rank; q++) {
        fpm_poly_text(&d->size[q], a, sizeof a);
        size_t m2 = strlen(points);
        snprintf(points + m2, sizeof points - m2, " * (%s)", a);
      }
      cond_push(v, fmt("%s >= %lld", points, (long long)k->value));
      break;
    }
    case FUSER_COND_MERGE: { /* dims dim and inner form one linear run */
      char c2[1024];
      fpm_poly_text(&d->stride[k->dim], a, sizeof a);
      fpm_poly_text(&d->stride[k->inner], b, sizeof b);
      fpm_poly_text(&d->size[k->inner], c2, sizeof c2);
      cond_push(v, fmt("(%s) == (%s) * (%s)", a, b, c2));
      break;
    }
    default:
      break;
    }
  }
}

/* ---- matmul segments ---------------------------------------------------------- */

static void pointer_of(const value_desc *d, fpm_param *q) {
  *q = (fpm_param){.kind = FPM_PARAM_PTR, .buffer = d->buffer, .index = d->index, .expr = fpm_poly_str(&d->offset)};
}

static char *stride_or_zero(const value_desc *d, int dim) { return dim >= 0 ? fpm_poly_str(&d->stride[dim]) : fpm_dup_str("0"); }

/* A batch dim's stride, 0 where the operand lacks the dim or broadcasts it
 * (extent 1 at run time: stride * min(extent - 1, 1)). */
static char *batch_stride(const value_desc *d, int dim) {
  if (dim < 0) return fpm_dup_str("0");
  char s[1024], e[1024];
  fpm_poly_text(&d->stride[dim], s, sizeof s);
  fpm_poly_text(&d->size[dim], e, sizeof e);
  return fmt("(%s) * min((%s) - 1, 1)", s, e);
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
    mm->batch_size[i] = fpm_poly_str(&out->size[i]);
    mm->a_batch[i] = batch_stride(a, d.a_dim[i]);
    mm->b_batch[i] = batch_stride(b, d.b_dim[i]);
    mm->out_batch[i] = fpm_poly_str(&out->stride[i]);
  }
  mm->m = d.a_m >= 0 ? fpm_poly_str(&a->size[d.a_m]) : fpm_dup_str("1");
  mm->n = d.b_n >= 0 ? fpm_poly_str(&b->size[d.b_n]) : fpm_dup_str("1");
  mm->k = fpm_poly_str(&a->size[d.a_k]);
  mm->a_m = stride_or_zero(a, d.a_m);
  mm->a_k = stride_or_zero(a, d.a_k);
  mm->b_k = stride_or_zero(b, d.b_k);
  mm->b_n = stride_or_zero(b, d.b_n);
  mm->out_m = stride_or_zero(out, d.m_dim);
  mm->out_n = stride_or_zero(out, d.n_dim);
  mm->bias_n = bias && bias->rank == 1 ? fpm_poly_str(&bias->stride[0]) : fpm_dup_str("0");
  cond_list checks = {0};
  cond_push_call_checks(&checks, c, m);
  if (!cond_pack(&checks, mm->checks, &mm->num_checks)) return fuser_message(err, errlen, "out of memory");
  return true;
}

void fpm_matmul_free(fpm_matmul *mm) {
  if (!mm) return;
  free(mm->a.expr), free(mm->b.expr), free(mm->bias.expr), free(mm->out.expr);
  for (int i = 0; i < mm->batch; i++) free(mm->batch_size[i]), free(mm->a_batch[i]), free(mm->b_batch[i]), free(mm->out_batch[i]);
  char *one[] = {mm->m, mm->n, mm->k, mm->a_m, mm->a_k, mm->b_k, mm->b_n, mm->out_m, mm->out_n, mm->bias_n};
  for (size_t i = 0; i < sizeof one / sizeof *one; i++) free(one[i]);
  for (int i = 0; i < mm->num_checks; i++) free(mm->checks[i]);
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
      /* points = the iteration space (result 0); threads as fuser_launch_threads */
      char points[2048] = "1", s[1024];
      const value_desc *r0 = &c->t[c->num_args];
      for (int q = 0; q < r0->rank; q++) {
        fpm_poly_text(&r0->size[q], s, sizeof s);
        size_t len = strlen(points);
        snprintf(points + len, sizeof points - len, " * (%s)", s);
      }
      if (l->grid_tensor >= 0 && l->grid_tensor < c->num_tensors) {
        /* a row kernel: a block per rows_per_block rows */
        const value_desc *gt = &c->t[l->grid_tensor];
        char rows[2048] = "1";
        for (int q = l->grid_first; q < l->grid_first + l->grid_dims && q < gt->rank; q++) {
          if (q >= l->grid_skip[0] && q < l->grid_skip[1]) continue; /* the reduced dims of a held slab */
          fpm_poly_text(&gt->size[q], s, sizeof s);
          size_t len = strlen(rows);
          if (l->grid_tile > 0 && (q == l->grid_tile_dims[0] || q == l->grid_tile_dims[1])) /* a block per tile */
            snprintf(rows + len, sizeof rows - len, " * ceildiv(%s, %d)", s, l->grid_tile);
          else
            snprintf(rows + len, sizeof rows - len, " * (%s)", s);
        }
        v->grid = fmt("max(ceildiv(%s, %d), 1)", rows, l->rows_per_block);
        /* the cluster variant: blocks_per_row blocks (one cluster) per row */
        if (l->blocks_per_row > 1) {
          char *g = v->grid;
          v->grid = fmt("(%s) * %d", g, l->blocks_per_row);
          free(g);
        }
      } else {
        v->grid = fmt("max(ceildiv(max(ceildiv((%s) / %d, %d), (%s) %% %d), %d), 1)", points, l->vector_width, l->unroll, points,
                      l->vector_width, l->block_size);
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

