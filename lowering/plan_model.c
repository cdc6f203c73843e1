/* Building the plan model from the plan-level IR and the launch plan (see
 * plan_model.h). Sizes, strides and offsets are polynomials over the
 * inputs' run-time sizes and strides (passes/symbolic.h), propagated from
 * the plan's views through each kernel's ops to its results, then printed
 * in the runtime's expression language. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/launch_plan.h"
#include "lowering/plan_model_build.h"
#include "lowering/plan_translate.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/input_checks.h"
#include "passes/ir_util.h"
#include "passes/kernel_info.h"
#include "passes/layout.h"
#include "passes/ptr_map.h"
#include "passes/symbolic.h"
#include "passes/symbolic_extents.h"
#include "support/location.h"

#include "lowering/plan_model_internal.h"

bool fpm_fail(MlirOperation op, char *err, size_t errlen, const char *fmt, ...) {
  char where[300], msg[1024];
  fuser_location_text(mlirOperationGetLocation(op), where, sizeof where);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fuser_message(err, errlen, "%s: %s", where, msg);
}

char *fpm_dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  memcpy(d, s, n);
  return d;
}

bool fpm_relation_equal(const fpm_relation *x, const fpm_relation *y) {
  return x->rel == y->rel && x->rel != FPM_REL_NONE && fuser_poly_equal(&x->a, &y->a) && fuser_poly_equal(&x->b, &y->b);
}

bool fpm_relation_unchecked(const fuser_plan_model *m, const fpm_relation *r) {
  const model_state *st = m->internal;
  for (int i = 0; i < m->num_checks; i++)
    if (fpm_relation_equal(&st->check_keys[i], r)) return false;
  return true;
}

static void add_relation(call_info *c, int rel, const fuser_poly *a, const fuser_poly *b) {
  c->checks = realloc(c->checks, sizeof *c->checks * (c->nchecks + 1));
  c->checks[c->nchecks++] = (fpm_relation){rel, *a, *b};
}

/* ---- plan values ---------------------------------------------------------- */

static value_desc *new_desc(model_state *st, MlirValue v) {
  if (st->ndescs == st->cap) st->descs = realloc(st->descs, sizeof *st->descs * (st->cap = st->cap ? 2 * st->cap : 32));
  value_desc *d = &st->descs[st->ndescs];
  memset(d, 0, sizeof *d);
  fuser_ptr_map_put(&st->index, v.ptr, st->ndescs++);
  return d;
}

value_desc *fpm_desc_of(model_state *st, MlirValue v) {
  intptr_t i;
  return fuser_ptr_map_get(&st->index, v.ptr, &i) ? &st->descs[i] : NULL;
}

/* The value of a host i64 scalar (fuser.size/stride/scalar and arithmetic). */
static bool host_poly(model_state *st, MlirValue v, fuser_poly *out) {
  if (mlirValueIsABlockArgument(v)) {
    *out = fuser_poly_sym(FUSER_SYM_SCALAR, (int)mlirBlockArgumentGetArgNumber(v), 0);
    return true;
  }
  MlirOperation op = mlirOpResultGetOwner(v);
  fuser_op_id id = fuser_op_id_of(op);
  int64_t x;
  fuser_poly a, b;
  switch (id) {
  case FUSER_OP_scalar:
    if (!fuser_get_i64(op, "value", &x)) return false;
    *out = fuser_poly_const(x);
    return true;
  case FUSER_OP_size:
  case FUSER_OP_stride: {
    MlirValue t = mlirOperationGetOperand(op, 0);
    if (!mlirValueIsABlockArgument(t) || !fuser_get_i64(op, "dim", &x)) return false;
    *out = fuser_poly_sym(id == FUSER_OP_size ? FUSER_SYM_SIZE : FUSER_SYM_STRIDE, (int)mlirBlockArgumentGetArgNumber(t),
                          (int)x);
    return true;
  }
  case FUSER_OP_add:
  case FUSER_OP_sub:
  case FUSER_OP_mul:
    if (!host_poly(st, mlirOperationGetOperand(op, 0), &a) || !host_poly(st, mlirOperationGetOperand(op, 1), &b)) return false;
    if (id == FUSER_OP_sub) b = fuser_poly_mul(b, fuser_poly_const(-1));
    *out = id == FUSER_OP_mul ? fuser_poly_mul(a, b) : fuser_poly_add(a, b);
    return !out->overflow;
  default:
    return false;
  }
}

static void set_tensor_type(value_desc *d, MlirType t) {
  d->tensor = true;
  d->rank = (int)mlirShapedTypeGetRank(t);
  d->dtype = fuser_dtype_of_type(mlirShapedTypeGetElementType(t));
  d->esize = fuser_dtype_size(d->dtype);
  for (int i = 0; i < d->rank; i++)
    if (!mlirShapedTypeIsDynamicDim(t, i)) d->size[i] = fuser_poly_const(mlirShapedTypeGetDimSize(t, i));
}

/* Dense strides in `order` (stride ranks; NULL row-major) from size polys. */
static void dense_polys(int rank, const fuser_poly *size, const int64_t *order, fuser_poly *stride) {
  int dim_at[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) dim_at[order ? order[d] : rank - 1 - d] = d;
  fuser_poly inner = fuser_poly_const(1);
  for (int r = 0; r < rank; r++) {
    stride[dim_at[r]] = inner;
    inner = fuser_poly_mul(inner, size[dim_at[r]]);
  }
}

static bool describe_arg(model_state *st, MlirValue arg, int i, fuser_plan_model *m) {
  MlirType t = mlirValueGetType(arg);
  fpm_input *in = &m->inputs[i];
  value_desc *d = new_desc(st, arg);
  snprintf(in->name, sizeof in->name, "arg%d", i);
  if (!mlirTypeIsARankedTensor(t)) {
    snprintf(in->dtype, sizeof in->dtype, "%s", fuser_dtype_mlir_name(fuser_dtype_of_type(t)));
    d->index = i;
    d->dtype = fuser_dtype_of_type(t);
    d->value = fuser_poly_sym(FUSER_SYM_SCALAR, i, 0);
    return true;
  }
  in->tensor = true;
  set_tensor_type(d, t);
  snprintf(in->dtype, sizeof in->dtype, "%s", fuser_dtype_mlir_name(d->dtype));
  in->rank = d->rank;
  MlirAttribute known = fuser_func_arg_attr(st->func, i, "fuser.known_extents");
  int64_t ext[FUSER_MAX_RANK];
  for (int k = 0; k < d->rank; k++) {
    ext[k] = mlirShapedTypeGetDimSize(t, k);
    if (!mlirAttributeIsNull(known) && mlirDenseI64ArrayGetElement(known, k) >= 0) ext[k] = mlirDenseI64ArrayGetElement(known, k);
    in->sizes[k] = ext[k] == mlirShapedTypeGetDynamicSize() ? -1 : ext[k];
    in->contiguity[k] = 1;
    in->stride_order[k] = d->rank - 1 - k;
  }
  MlirAttribute c = fuser_func_arg_attr(st->func, i, "fuser.contiguity");
  MlirAttribute so = fuser_func_arg_attr(st->func, i, "fuser.stride_order");
  for (int k = 0; k < d->rank; k++) {
    if (!mlirAttributeIsNull(c)) in->contiguity[k] = mlirDenseI64ArrayGetElement(c, k);
    if (!mlirAttributeIsNull(so)) in->stride_order[k] = mlirDenseI64ArrayGetElement(so, k);
  }
  fuser_layout l;
  int64_t kext[FUSER_MAX_RANK];
  for (int k = 0; k < d->rank; k++) kext[k] = in->sizes[k] < 0 ? mlirShapedTypeGetDynamicSize() : in->sizes[k];
  fuser_arg_layout(st->func, i, kext, &l);
  d->buffer = FPM_INPUT;
  d->index = i;
  d->offset = fuser_poly_const(0);
  for (int k = 0; k < d->rank; k++) d->size[k] = l.size[k], d->stride[k] = l.stride[k];
  return true;
}

/* A view's `?` offset, size or stride as a polynomial (what the model
 * propagates into the kernels); when it is not one, the translator's error
 * names the op (plan_translate.h), or says that it is a host value the
 * polynomials cannot carry (a min, a compare). */
static bool view_operand(model_state *st, MlirOperation op, intptr_t i, fuser_poly *out, const char *what, char *err, size_t errlen) {
  if (i < mlirOperationGetNumOperands(op) && host_poly(st, mlirOperationGetOperand(op, i), out)) return true;
  if (i >= mlirOperationGetNumOperands(op)) return fpm_fail(op, err, errlen, "view has fewer i64 operands than `?` entries");
  struct fuser_expr *e = fuser_plan_translate(mlirOperationGetOperand(op, i), err, errlen);
  if (!e) return false;
  fuser_plan_program_free(e);
  return fpm_fail(op, err, errlen, "view %s is not + - * of sizes, strides and integer scalars", what);
}

static bool describe_view(model_state *st, MlirOperation op, char *err, size_t errlen) {
  MlirValue v = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(v);
  value_desc *d = new_desc(st, v);
  set_tensor_type(d, t);
  MlirValue src = mlirOperationGetOperand(op, 0);
  d->buffer = FPM_INPUT;
  d->index = (int)mlirBlockArgumentGetArgNumber(src);
  int64_t offset, strides[FUSER_MAX_RANK];
  fuser_get_i64(op, "static_offset", &offset);
  fuser_get_i64_array(op, "static_strides", strides, FUSER_MAX_RANK);
  intptr_t next = 1;
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  if (offset == dyn) {
    if (!view_operand(st, op, next++, &d->offset, "offset", err, errlen)) return false;
  } else d->offset = fuser_poly_const(offset);
  for (int k = 0; k < d->rank; k++)
    if (mlirShapedTypeIsDynamicDim(t, k) && !view_operand(st, op, next++, &d->size[k], "size", err, errlen)) return false;
  for (int k = 0; k < d->rank; k++) {
    if (strides[k] != dyn) d->stride[k] = fuser_poly_const(strides[k]);
    else if (!view_operand(st, op, next++, &d->stride[k], "stride", err, errlen)) return false;
  }
  return true;
}

/* ---- result sizes through a kernel's ops ---------------------------------- */

static MlirOperation lookup_symbol(MlirOperation module, const char *name) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute n = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(n) && mlirStringRefEqual(mlirStringAttrGetValue(n), mlirStringRefCreateFromCString(name)))
      return op;
  }
  return (MlirOperation){NULL};
}

/* Result sizes of a kernel call from its arguments' sizes, by the shared
 * extent rules (passes/symbolic_extents.h); what the kernel's ops require of
 * the extents (equal, at most) becomes the call's run-time checks. */
static bool kernel_result_sizes(MlirOperation kernel, call_info *c, char *err, size_t errlen) {
  fuser_symbolic_extents x;
  fuser_symbolic_extents_init(&x);
  MlirBlock body = fuser_func_body(kernel);
  for (int i = 0; i < c->num_args; i++)
    fuser_symbolic_extents_set(&x, mlirBlockGetArgument(body, i), c->t[i].size, c->t[i].tensor ? NULL : &c->t[i].value);
  MlirOperation failed;
  bool ok = fuser_symbolic_extents_derive(&x, body, &failed);
  if (!ok) { /* located at the op, like the other diagnostics of the fusion */
    fuser_emit_error(failed, "cannot express the extents of this op on the host: a `?` extent comes from scalar math other "
                             "than + - * of sizes and i64 scalars");
    fuser_message(err, errlen, "cannot express the extents of '%s' in kernel %s on the host (the error above)",
                  fuser_op_full_name(fuser_op_id_of(failed)), c->callee);
  }
  for (int i = 0; ok && i < x.nchecks; i++) add_relation(c, x.checks[i].at_most ? FPM_REL_LE : FPM_REL_EQ, &x.checks[i].a, &x.checks[i].b);
  MlirOperation ret = mlirBlockGetTerminator(body);
  for (int i = 0; ok && i < c->num_tensors - c->num_args; i++) {
    const fuser_poly *s = fuser_symbolic_extents_of(&x, mlirOperationGetOperand(ret, i));
    if (s) memcpy(c->t[c->num_args + i].size, s, sizeof c->t[0].size);
  }
  fuser_symbolic_extents_free(&x);
  return ok;
}

/* ---- the plan ------------------------------------------------------------- */

static MlirOperation find_plan(MlirOperation module) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_op_is(op, "func.func") &&
        !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.plan"))))
      return op;
  return (MlirOperation){NULL};
}

static int return_index(MlirOperation ret, MlirValue v) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++)
    if (mlirValueEqual(mlirOperationGetOperand(ret, i), v)) return (int)i;
  return -1;
}

/* The allocation order of a temporary, kernel result r: its producer's
 * fuser.stride_order, the order fuser-segment wrote into the kernel's
 * `fuser.strides` for it (null: row-major). */
static MlirAttribute temp_order(MlirOperation kernel, int r) {
  MlirValue v = mlirOperationGetOperand(mlirBlockGetTerminator(fuser_func_body(kernel)), r);
  if (!mlirValueIsAOpResult(v)) return mlirAttributeGetNull();
  MlirAttribute so = mlirOperationGetDiscardableAttributeByName(mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("fuser.stride_order"));
  bool ok = !mlirAttributeIsNull(so) && mlirAttributeIsADenseI64Array(so) &&
            mlirDenseArrayGetNumElements(so) == mlirShapedTypeGetRank(mlirValueGetType(v));
  return ok ? so : mlirAttributeGetNull();
}

/* Whether an alias output's programs were all made: a null one is a
 * polynomial with more terms than one holds (fuser_poly_program makes no
 * program of part of one). */
static bool alias_programs_made(const fpm_output *o, int rank, char *err, size_t errlen) {
  bool ok = o->offset != NULL;
  for (int k = 0; k < rank; k++) ok = ok && o->sizes[k] && o->strides[k];
  if (!ok) fuser_message(err, errlen, "an output on input %d: its offset, sizes or strides need more than %d terms of input "
                                      "sizes; the host plan cannot compute them", o->alias_input, FUSER_POLY_MAX_TERMS);
  return ok;
}

/* A kernel result that is an output aliased to input k (fuser.alias_input,
 * fd.add_output(out, alias_input)): the kernel writes into k's buffer with
 * k's strides, the output is k itself, and the launch is refused unless
 * the result's extents are k's. */
static bool write_into_input(model_state *st, call_info *c, value_desc *d, int k, fpm_output *o, char *err, size_t errlen) {
  value_desc *in = fpm_desc_of(st, mlirBlockGetArgument(fuser_func_body(st->func), k));
  if (!in || !in->tensor || in->rank != d->rank) return fpm_fail(c->call, err, errlen, "output aliased to input %d: not a tensor of its rank", k);
  for (int j = 0; j < d->rank; j++)
    if (!fuser_poly_equal(&d->size[j], &in->size[j])) add_relation(c, FPM_REL_EQ, &d->size[j], &in->size[j]);
  d->buffer = FPM_INPUT;
  d->index = k;
  d->offset = in->offset;
  for (int j = 0; j < d->rank; j++) d->stride[j] = in->stride[j];
  o->alias_input = k;
  snprintf(o->dtype, sizeof o->dtype, "%s", fuser_dtype_mlir_name(d->dtype));
  o->rank = d->rank;
  o->offset = fuser_poly_program(&in->offset);
  for (int j = 0; j < d->rank; j++) o->sizes[j] = fuser_poly_program(&in->size[j]), o->strides[j] = fuser_poly_program(&in->stride[j]);
  return alias_programs_made(o, d->rank, err, errlen);
}

/* The plan's fuser.check ops (made by fuser-alias-meta-ops) as the call's
 * checks (fpm_check): checked once per call before any kernel, so a plan
 * with no kernels (outputs that are views) keeps them too. The condition,
 * an i1 host value, becomes its program through the one translator
 * (plan_translate.h). A compare of two polynomials is also kept as a
 * relation (model_state.check_keys), so cond_push_call_checks does not
 * repeat a kernel's equal extent check in its variants. */
static bool plan_checks(model_state *st, fuser_plan_model *m, char *err, size_t errlen) {
  MlirBlock body = fuser_func_body(st->func);
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    n += fuser_op_id_of(op) == FUSER_OP_check;
  if (!n) return true;
  m->checks = calloc((size_t)n + 1, sizeof *m->checks);
  st->check_keys = calloc((size_t)n + 1, sizeof *st->check_keys);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (fuser_op_id_of(op) != FUSER_OP_check) continue;
    MlirValue cond = mlirOperationGetOperand(op, 0);
    if (!(m->checks[m->num_checks].cond = fuser_plan_translate(cond, err, errlen))) return false;
    MlirStringRef msg = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("message")));
    char message[FUSER_CHECK_MESSAGE_MAX];
    snprintf(message, sizeof message, "%.*s", (int)msg.length, msg.data);
    m->checks[m->num_checks].message = fpm_dup_str(message);
    fuser_op_id rel = mlirValueIsABlockArgument(cond) ? FUSER_OP_NONE : fuser_op_id_of(mlirOpResultGetOwner(cond));
    fpm_relation *key = &st->check_keys[m->num_checks++];
    if ((rel == FUSER_OP_ge || rel == FUSER_OP_eq) && host_poly(st, mlirOperationGetOperand(mlirOpResultGetOwner(cond), 0), &key->a) &&
        host_poly(st, mlirOperationGetOperand(mlirOpResultGetOwner(cond), 1), &key->b))
      key->rel = rel == FUSER_OP_ge ? FPM_REL_GE : FPM_REL_EQ;
  }
  return true;
}

bool fuser_plan_model_build(MlirOperation module, fuser_plan_model *m, char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  MlirOperation func = find_plan(module);
  if (mlirOperationIsNull(func)) return fpm_fail(module, err, errlen, "no segmented fusion (fuser.plan) in the module");
  model_state *st = calloc(1, sizeof *st);
  m->internal = st;
  st->func = func;
  fuser_ptr_map_init(&st->index);
  if (!plan_checks(st, m, err, errlen)) return false;
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
  snprintf(m->name, sizeof m->name, "%.*s", (int)name.length, name.data);
  MlirBlock body = fuser_func_body(func);
  m->num_inputs = (int)mlirBlockGetNumArguments(body);
  m->inputs = calloc(m->num_inputs + 1, sizeof *m->inputs);
  for (int i = 0; i < m->num_inputs; i++) describe_arg(st, mlirBlockGetArgument(body, i), i, m);
  MlirOperation ret = mlirBlockGetTerminator(body);
  m->num_outputs = (int)mlirOperationGetNumOperands(ret);
  m->outputs = calloc(m->num_outputs + 1, sizeof *m->outputs);
  for (int i = 0; i < m->num_outputs; i++) m->outputs[i].alias_input = -1;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (fuser_op_id_of(op) == FUSER_OP_view) {
      if (!describe_view(st, op, err, errlen)) return false;
      continue;
    }
    if (!fuser_op_is(op, "func.call")) continue;
    MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee")));
    st->calls = realloc(st->calls, sizeof *st->calls * (st->ncalls + 1));
    call_info *c = &st->calls[st->ncalls++];
    memset(c, 0, sizeof *c);
    c->call = op;
    snprintf(c->callee, sizeof c->callee, "%.*s", (int)callee.length, callee.data);
    c->num_args = (int)mlirOperationGetNumOperands(op);
    c->num_tensors = c->num_args + (int)mlirOperationGetNumResults(op);
    c->t = calloc(c->num_tensors + 1, sizeof *c->t);
    for (int i = 0; i < c->num_args; i++) {
      MlirValue a = mlirOperationGetOperand(op, i);
      value_desc *d = fpm_desc_of(st, a);
      if (d) c->t[i] = *d;
      else if (!mlirTypeIsARankedTensor(mlirValueGetType(a))) { /* a scalar computed on the host */
        c->t[i].index = -1;
        c->t[i].dtype = fuser_dtype_of_type(mlirValueGetType(a));
        if (!host_poly(st, a, &c->t[i].value)) return fpm_fail(op, err, errlen, "kernel scalar argument %d is not a host expression", i);
      } else return fpm_fail(op, err, errlen, "kernel %s reads a tensor the plan does not define", c->callee);
    }
    for (int r = 0; r < c->num_tensors - c->num_args; r++) set_tensor_type(&c->t[c->num_args + r], mlirValueGetType(mlirOperationGetResult(op, r)));
    MlirOperation kernel = lookup_symbol(module, c->callee);
    if (mlirOperationIsNull(kernel)) return fpm_fail(op, err, errlen, "kernel %s not found", c->callee);
    if (!kernel_result_sizes(kernel, c, err, errlen)) return false;
    if (fuser_is_matmul_kernel(kernel)) c->matmul = mlirBlockGetFirstOperation(fuser_func_body(kernel));
    fpm_add_index_flag(m, kernel, c);
    for (int r = 0; r < c->num_tensors - c->num_args; r++) {
      MlirValue res = mlirOperationGetResult(op, r);
      value_desc *d = &c->t[c->num_args + r];
      int out = return_index(ret, res);
      int64_t order[FUSER_MAX_RANK];
      MlirAttribute so = out >= 0 ? fuser_func_result_attr(func, out, "fuser.stride_order") : temp_order(kernel, r);
      for (int k = 0; k < d->rank; k++) order[k] = mlirAttributeIsNull(so) ? d->rank - 1 - k : mlirDenseI64ArrayGetElement(so, k);
      dense_polys(d->rank, d->size, order, d->stride);
      for (int k = 0; k < d->rank; k++)
        if (d->size[k].overflow || d->stride[k].overflow)
          return fpm_fail(op, err, errlen,
                          "the extents of result %d of kernel %s make a stride of more than %d terms of input sizes; the "
                          "host plan cannot compute it",
                          r, c->callee, FUSER_POLY_MAX_TERMS);
      d->offset = fuser_poly_const(0);
      MlirAttribute alias = out >= 0 ? fuser_func_result_attr(func, out, "fuser.alias_input") : mlirAttributeGetNull();
      if (!mlirAttributeIsNull(alias)) {
        if (!write_into_input(st, c, d, (int)mlirIntegerAttrGetValueInt(alias), &m->outputs[out], err, errlen)) return false;
      } else if (out >= 0) {
        d->buffer = FPM_OUTPUT;
        d->index = out;
        fpm_output *o = &m->outputs[out];
        snprintf(o->dtype, sizeof o->dtype, "%s", fuser_dtype_mlir_name(d->dtype));
        o->rank = d->rank;
        for (int k = 0; k < d->rank; k++) o->sizes[k] = fuser_poly_program(&d->size[k]), o->stride_order[k] = order[k];
      } else {
        d->buffer = FPM_TEMP;
        d->index = m->num_temps;
        m->temps = realloc(m->temps, sizeof *m->temps * (m->num_temps + 1));
        /* the product of the extents' programs: expanded as one polynomial
         * it may need more terms than one holds (cat(pad(x), y): 12) */
        struct fuser_expr *bytes = fpx_const((int64_t)d->esize);
        for (int k = 0; k < d->rank; k++) bytes = fpx_binary(FPX_MUL, bytes, fuser_poly_program(&d->size[k]));
        if (!bytes) return fpm_fail(op, err, errlen, "out of memory");
        m->temps[m->num_temps].index_sites = NULL;
        m->temps[m->num_temps++].bytes = bytes;
      }
      *new_desc(st, res) = *d;
    }
  }
  /* outputs that are inputs or views of them */
  for (int i = 0; i < m->num_outputs; i++) {
    value_desc *d = fpm_desc_of(st, mlirOperationGetOperand(ret, i));
    /* errors point at the op that made the output (the return's location is the fusion's) */
    MlirValue ov = mlirOperationGetOperand(ret, i);
    MlirOperation at = mlirValueIsAOpResult(ov) ? mlirOpResultGetOwner(ov) : ret;
    for (int j = 0; j < i; j++) /* one buffer per value: a second output of it would be left without one */
      if (mlirValueEqual(mlirOperationGetOperand(ret, j), mlirOperationGetOperand(ret, i)))
        return fpm_fail(at, err, errlen, "outputs %d and %d are the same value (fd.add_output of one tensor twice): not supported, "
                    "add it once", j, i);
    if ((d && !d->tensor) || !mlirTypeIsATensor(mlirValueGetType(mlirOperationGetOperand(ret, i))))
      return fpm_fail(at, err, errlen, "output %d is a scalar: compiled fusions return tensors only (fuser-run --cpu evaluates "
                  "scalar outputs)", i);
    if (!d) return fpm_fail(at, err, errlen, "output %d is not a tensor the plan defines", i);
    if (d->buffer != FPM_INPUT) continue;
    fpm_output *o = &m->outputs[i];
    o->alias_input = d->index;
    snprintf(o->dtype, sizeof o->dtype, "%s", fuser_dtype_mlir_name(d->dtype));
    o->rank = d->rank;
    if (mlirValueIsAOpResult(ov) && fuser_op_id_of(at) == FUSER_OP_view) { /* a view: from its host SSA */
      if (!fuser_plan_view_programs(at, &o->offset, o->sizes, o->strides, err, errlen)) return false;
      continue;
    }
    /* the input itself, or an output written into it (write_into_input's, made again from the result) */
    fuser_plan_program_free(o->offset);
    for (int k = 0; k < FPM_MAX_RANK; k++) fuser_plan_program_free(o->sizes[k]), fuser_plan_program_free(o->strides[k]), o->sizes[k] = o->strides[k] = NULL;
    o->offset = fuser_poly_program(&d->offset);
    for (int k = 0; k < d->rank; k++) o->sizes[k] = fuser_poly_program(&d->size[k]), o->strides[k] = fuser_poly_program(&d->stride[k]);
    if (!alias_programs_made(o, d->rank, err, errlen)) return false;
  }
  return true;
}

/* ---- launches --------------------------------------------------------------- */

void fuser_plan_model_free(fuser_plan_model *m) {
  model_state *st = m->internal;
  if (st) {
    for (int i = 0; i < st->ncalls; i++) {
      free(st->calls[i].t);
      free(st->calls[i].checks);
    }
    free(st->calls);
    free(st->check_keys);
    free(st->descs);
    fuser_ptr_map_free(&st->index);
    free(st);
  }
  for (int i = 0; i < m->num_outputs; i++) {
    for (int k = 0; k < FPM_MAX_RANK; k++) fuser_plan_program_free(m->outputs[i].sizes[k]), fuser_plan_program_free(m->outputs[i].strides[k]);
    fuser_plan_program_free(m->outputs[i].offset);
  }
  for (int i = 0; i < m->num_temps; i++) fuser_plan_program_free(m->temps[i].bytes), free(m->temps[i].index_sites);
  for (int i = 0; i < m->num_kernels; i++) {
    fpm_matmul_free(m->kernels[i].matmul);
    for (int p = 0; p < m->kernels[i].num_params; p++) fuser_plan_program_free(m->kernels[i].params[p].expr);
    for (int v = 0; v < m->kernels[i].num_variants; v++) {
      fuser_plan_program_free(m->kernels[i].variants[v].grid);
      for (int c = 0; c < m->kernels[i].variants[v].num_conditions; c++) fuser_plan_program_free(m->kernels[i].variants[v].conditions[c]);
    }
  }
  for (int i = 0; i < m->num_checks; i++) fuser_plan_program_free(m->checks[i].cond), free(m->checks[i].message);
  free(m->checks);
  for (int i = 0; i < m->num_modules; i++) free(m->modules[i]);
  free(m->modules);
  free(m->module_sizes);
  free(m->inputs);
  free(m->outputs);
  free(m->temps);
  free(m->kernels);
  memset(m, 0, sizeof *m);
}
