/* The importer's toolbox: located errors, locations, the name environment,
 * generic op building, and turning Python argument expressions into what
 * nvFuser's bindings accept (tensors, scalars, int lists, dtypes, shapes). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/import_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

bool imp_error(importer *imp, int line, int col, const char *fmt, ...) {
  if (imp->failed) return false;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mlirEmitError(imp_loc(imp, line, col), msg);
  imp->failed = true;
  return false;
}

MlirLocation imp_loc(importer *imp, int line, int col) {
  return mlirLocationFileLineColGet(imp->ctx, mlirStringRefCreateFromCString(imp->path), (unsigned)line,
                                    (unsigned)col);
}

MlirLocation imp_named_loc(importer *imp, py_str name, int line, int col) {
  return mlirLocationNameGet(imp->ctx, mlirStringRefCreate(name.data, name.len), imp_loc(imp, line, col));
}

binding *imp_lookup(importer *imp, py_str name) {
  intptr_t i;
  return fuser_name_map_get(&imp->scope, name.data, name.len, &i) ? &imp->bindings[i] : NULL;
}

binding *imp_bind(importer *imp, py_str name) {
  if (imp->n_bindings == imp->cap_bindings) {
    imp->cap_bindings = imp->cap_bindings ? imp->cap_bindings * 2 : 64;
    imp->bindings = realloc(imp->bindings, sizeof *imp->bindings * imp->cap_bindings);
  }
  fuser_name_map_put(&imp->scope, name.data, name.len, imp->n_bindings);
  binding *b = &imp->bindings[imp->n_bindings++];
  memset(b, 0, sizeof *b);
  b->name = name;
  return b;
}

MlirNamedAttribute imp_named(importer *imp, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(imp->ctx, mlirStringRefCreateFromCString(name)), a);
}

MlirOperation imp_append_op(importer *imp, const char *name, MlirLocation loc, int n_operands,
                            const MlirValue *operands, int n_results, const MlirType *results, int n_attrs,
                            const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  if (n_operands) mlirOperationStateAddOperands(&st, n_operands, operands);
  if (n_results) mlirOperationStateAddResults(&st, n_results, results);
  if (n_attrs) mlirOperationStateAddAttributes(&st, n_attrs, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(imp->body, op);
  return op;
}

MlirValue imp_scalar(importer *imp, MlirLocation loc, fuser_dtype dt, bool is_float, int64_t i, double f, int line,
                     int col) {
  MlirType t = fuser_dtype_to_type(imp->ctx, dt);
  MlirAttribute v;
  if (fuser_dtype_is_float(dt)) v = mlirFloatAttrDoubleGet(imp->ctx, t, is_float ? f : (double)i);
  else if (dt == FUSER_DTYPE_I1) v = mlirBoolAttrGet(imp->ctx, i != 0);
  else v = mlirIntegerAttrGet(t, i);
  MlirNamedAttribute a = imp_named(imp, "value", v);
  MlirType res;
  char why[256];
  fuser_op_desc d = {.id = FUSER_OP_scalar, .num_attrs = 1, .attrs = &a, .hint_rank = -1,
                     .hint_dtype = dt};
  if (!fuser_infer_result_types(imp->ctx, &d, &res, why, sizeof why)) {
    imp_error(imp, line, col, "scalar constant: %s", why);
    return (MlirValue){NULL};
  }
  MlirOperation op = imp_append_op(imp, "fuser.scalar", loc, 0, NULL, 1, &res, 1, &a);
  return mlirOperationGetResult(op, 0);
}

/* ---- arguments -------------------------------------------------------------- */

bool imp_bind_args(importer *imp, const py_expr *call, const char *what, const char *const *params, int n_params,
                   int n_required, py_expr **out) {
  for (int i = 0; i < n_params; i++) out[i] = NULL;
  int positional = 0;
  for (int a = 0; a < call->n; a++) {
    const py_arg *arg = &call->args[a];
    if (!arg->keyword.len) {
      if (positional >= n_params)
        return imp_error(imp, arg->value->line, arg->value->col, "%s takes at most %d argument%s, %d given", what,
                         n_params, n_params == 1 ? "" : "s", call->n);
      out[positional++] = arg->value;
      continue;
    }
    int k = 0;
    while (k < n_params && !py_str_eq(arg->keyword, params[k])) k++;
    if (k == n_params) {
      char list[256] = "";
      for (int i = 0; i < n_params; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", params[i]);
      return imp_error(imp, arg->kw_line, arg->kw_col,
                       "%s got an unexpected keyword argument '%.*s' (parameters: %s)", what, (int)arg->keyword.len,
                       arg->keyword.data, n_params ? list : "none");
    }
    if (out[k])
      return imp_error(imp, arg->kw_line, arg->kw_col, "%s got multiple values for argument '%s'", what,
                       params[k]);
    out[k] = arg->value;
  }
  for (int i = 0; i < n_required; i++)
    if (!out[i]) return imp_error(imp, call->line, call->col, "%s is missing argument '%s'", what, params[i]);
  return true;
}

bool imp_literal_number(const py_expr *e, bool *is_float, bool *is_bool, int64_t *i, double *f) {
  bool neg = false;
  while (e->kind == PY_NEG) neg = !neg, e = e->base;
  *is_float = *is_bool = false;
  switch (e->kind) {
  case PY_INT:
    *i = neg ? -e->ival : e->ival;
    *f = (double)*i;
    return true;
  case PY_FLOAT:
    *is_float = true;
    *f = neg ? -e->fval : e->fval;
    *i = 0;
    return true;
  case PY_CALL: /* float('inf'), float('-inf'), float('nan'), as nvFuser prints them */
    if (e->base->kind != PY_NAME || !py_str_eq(e->base->name, "float") || e->n != 1 || e->args[0].keyword.len ||
        e->args[0].value->kind != PY_STRING)
      return false;
    if (py_str_eq(e->args[0].value->name, "inf")) *f = INFINITY;
    else if (py_str_eq(e->args[0].value->name, "-inf")) *f = -INFINITY;
    else if (py_str_eq(e->args[0].value->name, "nan")) *f = NAN;
    else return false;
    if (neg) *f = -*f;
    *is_float = true;
    *i = 0;
    return true;
  case PY_TRUE:
  case PY_FALSE:
    if (neg) return false; /* -True is an int in Python; nvFuser scripts never write it */
    *is_bool = true;
    *i = e->kind == PY_TRUE;
    *f = (double)*i;
    return true;
  default:
    return false;
  }
}

static const char *expr_kind_name(const py_expr *e) {
  switch (e->kind) {
  case PY_NAME: return "a name";
  case PY_INT: return "an integer";
  case PY_FLOAT: return "a float";
  case PY_STRING: return "a string";
  case PY_TRUE: case PY_FALSE: return "a bool";
  case PY_NONE: return "None";
  case PY_NEG: return "a negated expression";
  case PY_ATTR: return "an attribute";
  case PY_CALL: return "a call";
  case PY_LIST: return "a list";
  case PY_TUPLE: return "a tuple";
  }
  return "an expression";
}

static bool lookup_or_fail(importer *imp, const py_expr *e, binding **out) {
  *out = imp_lookup(imp, e->name);
  if (!*out) return imp_error(imp, e->line, e->col, "undefined name '%.*s'", (int)e->name.len, e->name.data);
  return true;
}

bool imp_eval_value(importer *imp, const py_expr *e, const char *what, MlirValue *out) {
  bool is_float, is_bool;
  int64_t i;
  double f;
  if (imp_literal_number(e, &is_float, &is_bool, &i, &f)) {
    fuser_dtype dt = is_float ? FUSER_DTYPE_F64 : is_bool ? FUSER_DTYPE_I1 : FUSER_DTYPE_I64;
    *out = imp_scalar(imp, imp_loc(imp, e->line, e->col), dt, is_float, i, f, e->line, e->col);
    return !mlirValueIsNull(*out);
  }
  if (e->kind != PY_NAME)
    return imp_error(imp, e->line, e->col, "%s must be a tensor, a scalar or a number, not %s", what,
                     expr_kind_name(e));
  binding *b;
  if (!lookup_or_fail(imp, e, &b)) return false;
  if (b->kind == BIND_VECTOR)
    return imp_error(imp, e->line, e->col, "%s must be a tensor or a scalar, but '%.*s' is a vector", what,
                     (int)e->name.len, e->name.data);
  if (b->kind == BIND_CONST && mlirValueIsNull(b->value)) {
    /* first use of a constant: materialize it here, under its own name */
    MlirLocation loc = b->loc;
    b->value = imp_scalar(imp, loc, b->dtype, b->is_float, b->ival, b->fval, e->line, e->col);
    if (mlirValueIsNull(b->value)) return false;
  }
  *out = b->value;
  return true;
}

bool imp_eval_tensor(importer *imp, const py_expr *e, const char *what, MlirValue *out) {
  if (e->kind != PY_NAME)
    return imp_error(imp, e->line, e->col, "%s must be a tensor, not %s", what, expr_kind_name(e));
  if (!imp_eval_value(imp, e, what, out)) return false;
  if (!fuser_value_is_tensor(*out))
    return imp_error(imp, e->line, e->col, "%s must be a tensor, but '%.*s' is a scalar", what, (int)e->name.len,
                     e->name.data);
  return true;
}

bool imp_eval_int(importer *imp, const py_expr *e, const char *what, int64_t *out) {
  bool is_float, is_bool;
  double f;
  if (!imp_literal_number(e, &is_float, &is_bool, out, &f) || is_float || is_bool)
    return imp_error(imp, e->line, e->col, "%s must be an integer, not %s", what, expr_kind_name(e));
  return true;
}

bool imp_eval_bool(importer *imp, const py_expr *e, const char *what, bool *out) {
  if (e->kind != PY_TRUE && e->kind != PY_FALSE)
    return imp_error(imp, e->line, e->col, "%s must be True or False, not %s", what, expr_kind_name(e));
  *out = e->kind == PY_TRUE;
  return true;
}

bool imp_eval_flag(importer *imp, const py_expr *e, const char *what, bool *out) {
  bool is_float, is_bool;
  int64_t i;
  double f;
  if (!imp_literal_number(e, &is_float, &is_bool, &i, &f) || is_float)
    return imp_error(imp, e->line, e->col, "%s must be True, False or an integer, not %s", what, expr_kind_name(e));
  *out = i != 0;
  return true;
}

bool imp_eval_int_list(importer *imp, const py_expr *e, const char *what, int64_t *out, int cap, int *n) {
  if (e->kind != PY_LIST && e->kind != PY_TUPLE)
    return imp_error(imp, e->line, e->col, "%s must be a list of integers, not %s", what, expr_kind_name(e));
  if (e->n > cap) return imp_error(imp, e->line, e->col, "%s has %d entries, more than %d", what, e->n, cap);
  for (int i = 0; i < e->n; i++) {
    bool is_float, is_bool;
    double f;
    const py_expr *it = e->items[i];
    if (!imp_literal_number(it, &is_float, &is_bool, &out[i], &f) || is_float || is_bool)
      return imp_error(imp, it->line, it->col, "%s must be a list of integers, but entry %d is %s", what, i,
                       expr_kind_name(it));
  }
  *n = e->n;
  return true;
}

bool imp_eval_stride_order(importer *imp, const py_expr *e, const char *what, const char *of, int rank, int64_t *order) {
  int n;
  if (!imp_eval_int_list(imp, e, what, order, FUSER_MAX_RANK, &n)) return false;
  if (n != rank) return imp_error(imp, e->line, e->col, "%s has %d entries but %s has rank %d", what, n, of, rank);
  bool seen[FUSER_MAX_RANK] = {0};
  for (int d = 0; d < rank; d++) {
    if (order[d] < 0) order[d] += rank; /* nvFuser wraps negative entries */
    if (order[d] < 0 || order[d] >= rank || seen[order[d]])
      return imp_error(imp, e->line, e->col, "%s is not a permutation of [0, %d)", what, rank);
    seen[order[d]] = true;
  }
  return true;
}

bool imp_eval_dtype(importer *imp, const py_expr *e, const char *what, bool allow_null, fuser_dtype *out) {
  if (e->kind != PY_ATTR || e->base->kind != PY_NAME || !py_str_eq(e->base->name, "DataType"))
    return imp_error(imp, e->line, e->col, "%s must be a DataType.<name>, not %s", what, expr_kind_name(e));
  if (allow_null && py_str_eq(e->name, "Null")) {
    *out = FUSER_DTYPE_INVALID;
    return true;
  }
  *out = fuser_dtype_from_nvfuser_name(e->name.data, e->name.len);
  if (*out != FUSER_DTYPE_INVALID) return true;
  static const char *const known[] = {"Null", "UInt64", "Index", "Float8_e4m3fn", "Float8_e5m2", "Float8_e8m0fnu",
                                      "Float4_e2m1fn", "Float4_e2m1fn_x2", "ComplexFloat", "ComplexDouble"};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (py_str_eq(e->name, known[i]))
      return imp_error(imp, e->line, e->col,
                       "%s: unsupported dtype DataType.%s (fuser supports Double, Float, Half, BFloat16, Int, Int32, Bool)",
                       what, known[i]);
  return imp_error(imp, e->line, e->col, "%s: unknown dtype DataType.%.*s", what, (int)e->name.len, e->name.data);
}

bool imp_eval_shape(importer *imp, const py_expr *e, const char *what, int64_t *shape, int *rank, MlirValue *dyn,
                    int *n_dyn) {
  *n_dyn = 0;
  if (e->kind == PY_NAME) {
    binding *b;
    if (!lookup_or_fail(imp, e, &b)) return false;
    if (b->kind != BIND_VECTOR)
      return imp_error(imp, e->line, e->col, "%s must be a list or a vector, but '%.*s' is a %s", what,
                       (int)e->name.len, e->name.data, b->kind == BIND_CONST ? "scalar" : "tensor or scalar");
    if (b->n_elems > FUSER_MAX_RANK)
      return imp_error(imp, e->line, e->col, "%s has %d entries, more than %d", what, b->n_elems, FUSER_MAX_RANK);
    for (int i = 0; i < b->n_elems; i++) {
      if (b->elems[i].is_const) shape[i] = b->elems[i].value;
      else shape[i] = mlirShapedTypeGetDynamicSize(), dyn[(*n_dyn)++] = b->elems[i].dyn;
    }
    *rank = b->n_elems;
    return true;
  }
  if (e->kind != PY_LIST && e->kind != PY_TUPLE)
    return imp_error(imp, e->line, e->col, "%s must be a list or a vector, not %s", what, expr_kind_name(e));
  if (e->n > FUSER_MAX_RANK)
    return imp_error(imp, e->line, e->col, "%s has %d entries, more than %d", what, e->n, FUSER_MAX_RANK);
  for (int i = 0; i < e->n; i++) {
    const py_expr *it = e->items[i];
    bool is_float, is_bool;
    double f;
    if (imp_literal_number(it, &is_float, &is_bool, &shape[i], &f)) {
      if (is_float || is_bool)
        return imp_error(imp, it->line, it->col, "%s entry %d must be an integer, not %s", what, i,
                         expr_kind_name(it));
      continue;
    }
    if (it->kind != PY_NAME)
      return imp_error(imp, it->line, it->col, "%s entry %d must be an integer or an Int scalar, not %s", what, i,
                       expr_kind_name(it));
    binding *b;
    if (!lookup_or_fail(imp, it, &b)) return false;
    if (b->kind == BIND_CONST) {
      if (b->is_float || b->dtype != FUSER_DTYPE_I64)
        return imp_error(imp, it->line, it->col, "%s entry %d: '%.*s' is not an Int scalar", what, i,
                         (int)it->name.len, it->name.data);
      shape[i] = b->ival;
      continue;
    }
    if (b->kind != BIND_VALUE || fuser_value_is_tensor(b->value) || fuser_value_dtype(b->value) != FUSER_DTYPE_I64)
      return imp_error(imp, it->line, it->col, "%s entry %d: '%.*s' is not an Int scalar", what, i,
                       (int)it->name.len, it->name.data);
    shape[i] = mlirShapedTypeGetDynamicSize();
    dyn[(*n_dyn)++] = b->value;
  }
  *rank = e->n;
  return true;
}
