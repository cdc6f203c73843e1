/* plan_launches.c: the second half of the plan model (plan_model_build.h):
 * after the PTX pipeline, each kernel call's launches read from the plan's
 * fuser.launch ops (variants, grids and conditions through the one
 * translator, parameters resolved to buffers), its index flag, and matmul
 * segments as typed batched products. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
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
  for (int q = 0; q < c->nchecks; q++)
    if (fpm_relation_unchecked(m, &c->checks[q]))
      cond_push(l, op2(c->checks[q].rel == FPM_REL_LE ? FPX_LE : FPX_EQ, poly(&c->checks[q].a), poly(&c->checks[q].b)));
}

/* The index of gpu.binary @binary among the model's PTX modules (added on
 * first use), -1 when the module has no such binary. */
static int module_for(fuser_plan_model *m, MlirOperation module, MlirStringRef binary, char names[][64]) {
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)binary.length, binary.data);
  for (int i = 0; i < m->num_modules; i++)
    if (strcmp(names[i], name) == 0) return i;
  size_t len;
  char *ptx = fuser_binary_ptx(module, name, &len);
  if (!ptx) return -1;
  int i = m->num_modules++;
  m->modules = realloc(m->modules, sizeof *m->modules * m->num_modules);
  m->module_sizes = realloc(m->module_sizes, sizeof *m->module_sizes * m->num_modules);
  m->modules[i] = ptx;
  m->module_sizes[i] = len;
  snprintf(names[i], 64, "%s", name);
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

/* ---- launches: the plan's fuser.launch ops ------------------------------------ */

/* The value of an i64 operand that must be a constant (block sizes, the
 * 1-D grid's other dims, dynamic shared memory), or -1. */
static int64_t constant_of(MlirValue v) {
  int64_t x;
  if (!mlirValueIsAOpResult(v) || fuser_op_id_of(mlirOpResultGetOwner(v)) != FUSER_OP_scalar ||
      !fuser_get_i64(mlirOpResultGetOwner(v), "value", &x))
    return -1;
  return x;
}

/* A parameter word of a launch as the artifact's parameter: fuser.address
 * of a plan tensor (its buffer, index and element offset), the call's
 * index flag, fuser.bits of a scalar at its own width (a float argument:
 * the runtime passes input i as given), else an i64 host value. */
static bool read_param(model_state *st, const call_info *c, MlirOperation launch, MlirValue w, fpm_param *q, char *err,
                       size_t errlen) {
  MlirOperation def = mlirValueIsAOpResult(w) ? mlirOpResultGetOwner(w) : (MlirOperation){NULL};
  fuser_op_id id = mlirOperationIsNull(def) ? FUSER_OP_NONE : fuser_op_id_of(def);
  *q = (fpm_param){.kind = FPM_PARAM_I64};
  if (id == FUSER_OP_address) {
    const value_desc *d = fpm_desc_of(st, mlirOperationGetOperand(def, 0));
    if (!d || !d->tensor) return fpm_fail(def, err, errlen, "the address of a tensor the plan does not define");
    *q = (fpm_param){.kind = FPM_PARAM_PTR, .buffer = d->buffer, .index = d->index, .expr = poly(&d->offset)};
  } else if (id == FUSER_OP_index_flag) {
    if (c->flag_temp < 0) return fpm_fail(launch, err, errlen, "kernel %s takes an index flag but has no index op", c->callee);
    *q = (fpm_param){.kind = FPM_PARAM_PTR, .buffer = FPM_TEMP, .index = c->flag_temp, .expr = num(0)};
  } else if (id == FUSER_OP_bits) {
    MlirValue x = mlirOperationGetOperand(def, 0);
    fuser_dtype dt = fuser_dtype_of_type(mlirValueGetType(x));
    if (!fuser_dtype_is_float(dt)) {
      q->kind = FPM_PARAM_I32;
      return (q->expr = fuser_plan_translate(x, err, errlen)) != NULL;
    }
    if (!mlirValueIsABlockArgument(x)) return fpm_fail(def, err, errlen, "a floating scalar computed on the host is not supported");
    *q = (fpm_param){.kind = dt == FUSER_DTYPE_F64 ? FPM_PARAM_F64 : FPM_PARAM_F32, .index = (int)mlirBlockArgumentGetArgNumber(x)};
  } else {
    return (q->expr = fuser_plan_translate(w, err, errlen)) != NULL;
  }
  return q->expr || q->kind == FPM_PARAM_F32 || q->kind == FPM_PARAM_F64 || fuser_message(err, errlen, "out of memory");
}

static bool same_param(const fpm_param *x, const fpm_param *y) {
  return x->kind == y->kind && x->buffer == y->buffer && x->index == y->index && ((!x->expr && !y->expr) || fpx_equal(x->expr, y->expr));
}

/* One fuser.launch of call c as the next variant of kernel k: its PTX
 * module, grid, block, conditions (packed into the runtime's 64) and
 * parameters (the first variant's; every later one must pass the same). */
static bool read_launch(fuser_plan_model *m, MlirOperation module, const call_info *c, MlirOperation launch, fpm_kernel *k,
                        char names[][64], char *err, size_t errlen) {
  model_state *st = m->internal;
  MlirAttribute entry = mlirOperationGetDiscardableAttributeByName(launch, mlirStringRefCreateFromCString("entry"));
  MlirAttribute seg = mlirOperationGetAttributeByName(launch, mlirStringRefCreateFromCString("operandSegmentSizes"));
  if (mlirAttributeIsNull(entry) || mlirSymbolRefAttrGetNumNestedReferences(entry) != 1 || mlirAttributeIsNull(seg) ||
      mlirDenseArrayGetNumElements(seg) != 9)
    return fpm_fail(launch, err, errlen, "a launch of the artifact names @binary::@entry and has 9 operand segments");
  if (k->num_variants == FPM_MAX_VARIANTS) /* never drop one: the last is the fallback that always applies */
    return fpm_fail(c->call, err, errlen, "%s has more than %d variants", c->callee, FPM_MAX_VARIANTS);
  MlirStringRef leaf = mlirSymbolRefAttrGetLeafReference(entry);
  int module_index = module_for(m, module, mlirSymbolRefAttrGetRootReference(entry), names);
  if (module_index < 0) return fpm_fail(launch, err, errlen, "no PTX for %.*s: run the PTX pipeline first", (int)leaf.length, leaf.data);
  int64_t block = constant_of(mlirOperationGetOperand(launch, 3));
  if (block < 1 || constant_of(mlirOperationGetOperand(launch, 1)) != 1 || constant_of(mlirOperationGetOperand(launch, 2)) != 1 ||
      constant_of(mlirOperationGetOperand(launch, 4)) != 1 || constant_of(mlirOperationGetOperand(launch, 5)) != 1 ||
      constant_of(mlirOperationGetOperand(launch, 6)) != 0)
    return fpm_fail(launch, err, errlen, "the artifact's launches are 1-D (grid (x, 1, 1), a constant block (b, 1, 1)) without "
                                         "dynamic shared memory");
  int nconds = mlirDenseI32ArrayGetElement(seg, 7), nparams = mlirDenseI32ArrayGetElement(seg, 8);
  if (nparams > FPM_MAX_PARAMS) return fpm_fail(launch, err, errlen, "more than %d parameters", FPM_MAX_PARAMS);
  fpm_param params[FPM_MAX_PARAMS];
  int np = 0;
  bool ok = true, first = k->num_variants == 0;
  for (; ok && np < nparams; np++) ok = read_param(st, c, launch, mlirOperationGetOperand(launch, 7 + nconds + np), &params[np], err, errlen);
  if (!ok) np--;
  if (ok && !first && nparams != k->num_params) ok = fpm_fail(c->call, err, errlen, "variants of %s take different parameters", c->callee);
  for (int i = 0; ok && !first && i < nparams; i++)
    if (!same_param(&params[i], &k->params[i])) ok = fpm_fail(c->call, err, errlen, "variants of %s take different parameters", c->callee);
  if (ok && first) {
    memcpy(k->params, params, sizeof *params * (size_t)nparams);
    k->num_params = nparams;
  } else {
    for (int i = 0; i < np; i++) fuser_plan_program_free(params[i].expr);
  }
  if (!ok) return false;
  fpm_variant *v = &k->variants[k->num_variants++];
  snprintf(v->entry, sizeof v->entry, "%.*s", (int)leaf.length, leaf.data);
  v->module = module_index;
  v->block = (int)block;
  if (!(v->grid = fuser_plan_translate(mlirOperationGetOperand(launch, 0), err, errlen))) return false;
  cond_list conds = {0};
  for (int i = 0; i < nconds; i++) {
    program *p = fuser_plan_translate(mlirOperationGetOperand(launch, 7 + i), err, errlen);
    if (!p) {
      for (int j = 0; j < conds.n; j++) fuser_plan_program_free(conds.items[j]);
      free(conds.items);
      return false;
    }
    cond_push(&conds, p);
  }
  return cond_pack(&conds, v->conditions, &v->num_conditions) || fuser_message(err, errlen, "out of memory");
}

static bool launches_kernel(MlirOperation op, const char *callee) {
  if (fuser_op_id_of(op) != FUSER_OP_launch) return false;
  MlirAttribute k = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("kernel"));
  return !mlirAttributeIsNull(k) && mlirAttributeIsAFlatSymbolRef(k) &&
         mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(k), mlirStringRefCreateFromCString(callee));
}

static bool calls_kernel(MlirOperation op, const char *callee) {
  MlirAttribute k = fuser_op_is(op, "func.call") ? mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee"))
                                                 : mlirAttributeGetNull();
  return !mlirAttributeIsNull(k) && mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(k), mlirStringRefCreateFromCString(callee));
}

bool fuser_plan_model_add_launches(fuser_plan_model *m, MlirOperation module, char *err, size_t errlen) {
  model_state *st = m->internal;
  /* the PTX pipeline's launch records become the plan's launch ops */
  if (!fuser_run_pipeline(module, "builtin.module(fuser-plan-launches)", err, errlen)) return false;
  char (*names)[64] = calloc((size_t)st->ncalls * FPM_MAX_VARIANTS + 1, 64);
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
    /* its launches: the fuser.launch ops of its kernel after it, up to the next call of the kernel */
    for (MlirOperation op = mlirOperationGetNextInBlock(c->call); ok && !mlirOperationIsNull(op) && !calls_kernel(op, c->callee);
         op = mlirOperationGetNextInBlock(op))
      if (launches_kernel(op, c->callee)) ok = read_launch(m, module, c, op, k, names, err, errlen);
    if (ok && k->num_variants == 0) ok = fpm_fail(c->call, err, errlen, "no launch for kernel %s", c->callee);
  }
  free(names);
  return ok;
}
