/* The importer's top level: the script's structure (imports, the fusion def,
 * the `with FusionDefinition() as fd:` block, the inputs block and
 * fd.execute), the fd.define_* calls, fd.add_output, and assembling the
 * fusion func.func. fd.ops.* are in import_ops.c (and the op family files
 * it dispatches to), the inputs block in import_inputs.c. */
#include "frontend/nvfuser_import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/import_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

/* Is `e` the call fd.<method>(...)? */
static bool is_fd_call(importer *imp, const py_expr *e, py_str *method) {
  if (e->kind != PY_CALL || e->base->kind != PY_ATTR) return false;
  const py_expr *callee = e->base;
  if (callee->base->kind != PY_NAME || callee->base->name.len != imp->fd_name.len ||
      memcmp(callee->base->name.data, imp->fd_name.data, imp->fd_name.len) != 0)
    return false;
  *method = callee->name;
  return true;
}

/* Is `e` the call fd.ops.<op>(...)? */
static bool is_fd_ops_call(importer *imp, const py_expr *e, py_str *op) {
  if (e->kind != PY_CALL || e->base->kind != PY_ATTR) return false;
  const py_expr *callee = e->base;
  const py_expr *ops = callee->base;
  if (ops->kind != PY_ATTR || !py_str_eq(ops->name, "ops") || ops->base->kind != PY_NAME ||
      ops->base->name.len != imp->fd_name.len || memcmp(ops->base->name.data, imp->fd_name.data, imp->fd_name.len) != 0)
    return false;
  *op = callee->name;
  return true;
}

static bool add_argument(importer *imp, MlirType t, MlirLocation loc, MlirAttribute attrs, MlirValue *out) {
  if (imp->n_args == imp->cap_args) {
    imp->cap_args = imp->cap_args ? imp->cap_args * 2 : 16;
    imp->arg_attrs = realloc(imp->arg_attrs, sizeof *imp->arg_attrs * imp->cap_args);
  }
  imp->arg_attrs[imp->n_args++] = attrs;
  *out = mlirBlockAddArgument(imp->body, t, loc);
  return true;
}

static bool single_target(importer *imp, const py_stmt *s, const char *what) {
  if (s->n_names != 1)
    return imp_error(imp, s->line, s->col, "%s returns one value but %d names are assigned", what, s->n_names);
  return true;
}

/* ---- fd.define_tensor ---------------------------------------------------------- */

/* Appends the tensor argument `s` defines, with its layout attributes
 * (fuser.is_cpu for a CPU scalar tensor). */
static bool add_tensor_argument(importer *imp, const py_stmt *s, const int64_t *shape, int rank, const int64_t *contig,
                                const int64_t *order, fuser_dtype dt, bool is_cpu) {
  int64_t dims[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = shape[d] == -1 ? mlirShapedTypeGetDynamicSize() : shape[d];
  MlirType t = mlirRankedTensorTypeGet(rank, dims, fuser_dtype_to_type(imp->ctx, dt), mlirAttributeGetNull());
  MlirNamedAttribute attrs[3] = {imp_named(imp, "fuser.contiguity", mlirDenseI64ArrayGet(imp->ctx, rank, contig)),
                                 imp_named(imp, "fuser.stride_order", mlirDenseI64ArrayGet(imp->ctx, rank, order)),
                                 imp_named(imp, "fuser.is_cpu", mlirUnitAttrGet(imp->ctx))};
  binding *b = imp_bind(imp, s->names[0]);
  b->kind = BIND_VALUE;
  return add_argument(imp, t, imp_named_loc(imp, s->names[0], s->name_lines[0], s->name_cols[0]),
                      mlirDictionaryAttrGet(imp->ctx, is_cpu ? 3 : 2, attrs), &b->value);
}

/* is_cpu=True: nvFuser's CPU scalar tensor, a 0-dim tensor whose value the
 * kernels receive (only 0-dim tensors may live on the CPU). */
static bool eval_is_cpu(importer *imp, const py_expr *e, int rank, bool *is_cpu) {
  *is_cpu = false;
  if (!e) return true;
  if (!imp_eval_flag(imp, e, "define_tensor is_cpu", is_cpu)) return false;
  if (*is_cpu && rank != 0)
    return imp_error(imp, e->line, e->col, "define_tensor is_cpu=True needs a 0-dim tensor (a CPU scalar), not rank %d", rank);
  return true;
}

/* define_tensor(sizes, strides, dtype, static_sizes, is_cpu): nvFuser's
 * computeTensorDescriptor. Stride-0 dims are broadcasts (None) kept at
 * their logical position; the others are ordered by decreasing stride; a
 * dim is contiguous when its stride is the next inner non-broadcast dim's
 * stride times extent (1 for the innermost). Sizes become -1 except 1s,
 * unless static_sizes. */
static bool define_tensor_strided(importer *imp, const py_stmt *s, const py_expr *call) {
  static const char *const params[] = {"sizes", "strides", "dtype", "static_sizes", "is_cpu"};
  const char *what = "fd.define_tensor";
  py_expr *a[5];
  if (!imp_bind_args(imp, call, what, params, 5, 2, a)) return false;
  int64_t sizes[FUSER_MAX_RANK], strides[FUSER_MAX_RANK], shape[FUSER_MAX_RANK], order[FUSER_MAX_RANK],
      contig[FUSER_MAX_RANK];
  int rank, n_strides;
  if (!imp_eval_int_list(imp, a[0], "define_tensor sizes", sizes, FUSER_MAX_RANK, &rank) ||
      !imp_eval_int_list(imp, a[1], "define_tensor strides", strides, FUSER_MAX_RANK, &n_strides))
    return false;
  if (n_strides != rank)
    return imp_error(imp, a[1]->line, a[1]->col, "define_tensor has %d sizes but %d strides", rank, n_strides);
  fuser_dtype dt = FUSER_DTYPE_F32;
  bool static_sizes = false, is_cpu;
  if (a[2] && !imp_eval_dtype(imp, a[2], "define_tensor dtype", false, &dt)) return false;
  if (a[3] && !imp_eval_flag(imp, a[3], "define_tensor static_sizes", &static_sizes)) return false;
  if (!eval_is_cpu(imp, a[4], rank, &is_cpu)) return false;
  /* logical dims in allocation order (outermost first) */
  int alloc[FUSER_MAX_RANK], n = 0;
  for (int d = 0; d < rank; d++) {
    if (sizes[d] < 0) return imp_error(imp, a[0]->line, a[0]->col, "define_tensor size %lld is negative", (long long)sizes[d]);
    if (strides[d] < 0)
      return imp_error(imp, a[1]->line, a[1]->col, "define_tensor stride %lld is negative (not supported by nvFuser)",
                       (long long)strides[d]);
    if (strides[d] == 0) continue;
    int k = n++; /* stable insertion by decreasing stride */
    while (k > 0 && strides[alloc[k - 1]] < strides[d]) alloc[k] = alloc[k - 1], k--;
    alloc[k] = d;
  }
  int merged[FUSER_MAX_RANK];
  for (int d = 0; d < rank; d++) /* broadcasts go back to their logical position */
    merged[d] = strides[d] == 0 ? d : -1;
  for (int d = 0, j = 0; d < rank; d++)
    if (merged[d] < 0) merged[d] = alloc[j++];
  for (int p = 0; p < rank; p++) {
    int d = merged[p];
    order[d] = rank - 1 - p;
    bool broadcast = strides[d] == 0 || sizes[d] == 1;
    contig[p] = -1;
    if (broadcast) continue;
    int64_t expected = 1;
    for (int q = p + 1; q < rank; q++)
      if (!(strides[merged[q]] == 0 || sizes[merged[q]] == 1)) {
        expected = strides[merged[q]] * sizes[merged[q]];
        break;
      }
    contig[p] = strides[d] == expected;
  }
  for (int d = 0; d < rank; d++) shape[d] = static_sizes || sizes[d] == 1 ? sizes[d] : -1;
  return add_tensor_argument(imp, s, shape, rank, contig, order, dt, is_cpu);
}

/* define_tensor(sizes=, strides=) or a list of integers as the second
 * positional argument (pybind picks that overload for int lists). */
static bool is_strided_form(const py_expr *call) {
  for (int i = 0; i < call->n; i++)
    if (py_str_eq(call->args[i].keyword, "sizes") || py_str_eq(call->args[i].keyword, "strides")) return true;
  if (call->n < 2 || call->args[1].keyword.len) return false;
  const py_expr *l = call->args[1].value;
  if ((l->kind != PY_LIST && l->kind != PY_TUPLE) || l->n == 0) return false;
  for (int i = 0; i < l->n; i++) {
    const py_expr *it = l->items[i];
    if (it->kind != PY_INT && !(it->kind == PY_NEG && it->base->kind == PY_INT)) return false;
  }
  return true;
}

static bool define_tensor(importer *imp, const py_stmt *s, const py_expr *call) {
  static const char *const params[] = {"shape", "contiguity", "dtype", "is_cpu", "stride_order"};
  const char *what = "fd.define_tensor";
  py_expr *a[5];
  if (!single_target(imp, s, what)) return false;
  if (is_strided_form(call)) return define_tensor_strided(imp, s, call);
  if (!imp_bind_args(imp, call, what, params, 5, 1, a)) return false;
  int64_t shape[FUSER_MAX_RANK], order[FUSER_MAX_RANK], contig[FUSER_MAX_RANK];
  int rank, n_order = 0;
  if (!imp_eval_int_list(imp, a[0], "define_tensor shape", shape, FUSER_MAX_RANK, &rank)) return false;
  for (int d = 0; d < rank; d++)
    if (shape[d] < -1)
      return imp_error(imp, a[0]->items[d]->line, a[0]->items[d]->col,
                       "define_tensor shape entry %lld is invalid: use -1 (symbolic), 0, 1 (broadcast) or a static extent",
                       (long long)shape[d]);
  fuser_dtype dt = FUSER_DTYPE_F32;
  if (a[2] && !imp_eval_dtype(imp, a[2], "define_tensor dtype", false, &dt)) return false;
  bool is_cpu;
  if (!eval_is_cpu(imp, a[3], rank, &is_cpu)) return false;
  /* stride_order: the stride rank of each logical dim; empty = row-major */
  if (a[4] && a[4]->kind != PY_NONE &&
      !imp_eval_int_list(imp, a[4], "define_tensor stride_order", order, FUSER_MAX_RANK, &n_order))
    return false;
  if (n_order == 0) {
    for (int d = 0; d < rank; d++) order[d] = rank - 1 - d;
  } else if (!imp_eval_stride_order(imp, a[4], "define_tensor stride_order", "shape", rank, order)) {
    return false;
  }
  /* contiguity: a list in allocation order, or one bool for every
   * non-broadcast dim (default False, as nvFuser's) */
  const py_expr *c = a[1];
  bool flag;
  if (!c || c->kind == PY_TRUE || c->kind == PY_FALSE || c->kind == PY_INT) {
    flag = false;
    if (c && !imp_eval_flag(imp, c, "define_tensor contiguity", &flag)) return false;
    for (int d = 0; d < rank; d++) contig[rank - 1 - order[d]] = shape[d] == 1 ? -1 : flag;
  } else if (c->kind == PY_LIST || c->kind == PY_TUPLE) {
    if (c->n != rank)
      return imp_error(imp, c->line, c->col, "define_tensor contiguity has %d entries but shape has rank %d", c->n, rank);
    for (int p = 0; p < rank; p++) {
      const py_expr *it = c->items[p];
      if (it->kind == PY_TRUE) contig[p] = 1;
      else if (it->kind == PY_FALSE) contig[p] = 0;
      else if (it->kind == PY_NONE) contig[p] = -1;
      else return imp_error(imp, it->line, it->col, "define_tensor contiguity entries must be True, False or None");
    }
  } else {
    return imp_error(imp, c->line, c->col, "define_tensor contiguity must be a list of True/False/None or a bool");
  }
  /* a broadcast dim (extent 1) has no contiguity: nvFuser requires None */
  for (int d = 0; d < rank; d++) {
    int p = rank - 1 - (int)order[d];
    if (shape[d] == 1 && contig[p] != -1) {
      const py_expr *at = c->kind == PY_LIST || c->kind == PY_TUPLE ? c->items[p] : c;
      return imp_error(imp, at->line, at->col,
                       "define_tensor dim %d has extent 1 (a broadcast), so its contiguity (allocation position %d) must be None",
                       d, p);
    }
  }
  return add_tensor_argument(imp, s, shape, rank, contig, order, dt, is_cpu);
}

/* ---- fd.define_scalar ---------------------------------------------------------- */

static bool define_scalar(importer *imp, const py_stmt *s, const py_expr *call) {
  static const char *const params[] = {"value", "dtype"};
  const char *what = "fd.define_scalar";
  py_expr *a[2];
  if (!single_target(imp, s, what) || !imp_bind_args(imp, call, what, params, 2, 0, a)) return false;
  fuser_dtype dt = FUSER_DTYPE_INVALID;
  if (a[1] && a[1]->kind != PY_NONE && !imp_eval_dtype(imp, a[1], "define_scalar dtype", false, &dt)) return false;
  MlirLocation loc = imp_named_loc(imp, s->names[0], s->name_lines[0], s->name_cols[0]);
  if (!a[0] || a[0]->kind == PY_NONE) { /* a symbolic input scalar */
    if (dt == FUSER_DTYPE_INVALID) dt = FUSER_DTYPE_F64; /* nvFuser's default: Double */
    binding *b = imp_bind(imp, s->names[0]);
    b->kind = BIND_VALUE;
    return add_argument(imp, fuser_dtype_to_type(imp->ctx, dt), loc, mlirDictionaryAttrGet(imp->ctx, 0, NULL),
                        &b->value);
  }
  bool is_float, is_bool;
  int64_t i;
  double f;
  if (!imp_literal_number(a[0], &is_float, &is_bool, &i, &f))
    return imp_error(imp, a[0]->line, a[0]->col, "define_scalar value must be a number, a bool or None");
  if (dt == FUSER_DTYPE_INVALID) dt = is_float ? FUSER_DTYPE_F64 : is_bool ? FUSER_DTYPE_I1 : FUSER_DTYPE_I64;
  if (is_float && !fuser_dtype_is_float(dt))
    return imp_error(imp, a[0]->line, a[0]->col, "define_scalar value %g is a float but dtype is DataType.%s", f,
                     fuser_dtype_nvfuser_name(dt));
  if (dt == FUSER_DTYPE_I1 && !is_bool && i != 0 && i != 1)
    return imp_error(imp, a[0]->line, a[0]->col, "define_scalar value %lld is not a Bool", (long long)i);
  if (dt == FUSER_DTYPE_I32 && (i < INT32_MIN || i > INT32_MAX))
    return imp_error(imp, a[0]->line, a[0]->col, "define_scalar value %lld does not fit in DataType.Int32", (long long)i);
  binding *b = imp_bind(imp, s->names[0]);
  b->kind = BIND_CONST;
  b->dtype = dt;
  b->is_float = is_float;
  b->ival = i;
  b->fval = f;
  b->loc = loc;
  return true;
}

/* ---- fd.define_vector ---------------------------------------------------------- */

static bool define_vector(importer *imp, const py_stmt *s, const py_expr *call) {
  static const char *const params[] = {"values", "dtype"};
  const char *what = "fd.define_vector";
  py_expr *a[2];
  if (!single_target(imp, s, what) || !imp_bind_args(imp, call, what, params, 2, 1, a)) return false;
  if (a[1]) {
    fuser_dtype dt;
    if (!imp_eval_dtype(imp, a[1], "define_vector dtype", false, &dt)) return false;
    if (dt != FUSER_DTYPE_I64) return imp_error(imp, a[1]->line, a[1]->col, "define_vector dtype must be DataType.Int");
  }
  if (a[0]->kind != PY_LIST && a[0]->kind != PY_TUPLE)
    return imp_error(imp, a[0]->line, a[0]->col, "define_vector takes a list of integers and Int scalars (define_vector(size) is not supported)");
  int64_t shape[FUSER_MAX_RANK];
  MlirValue dyn[FUSER_MAX_RANK];
  int rank, n_dyn;
  if (!imp_eval_shape(imp, a[0], "define_vector values", shape, &rank, dyn, &n_dyn)) return false;
  binding *b = imp_bind(imp, s->names[0]);
  b->kind = BIND_VECTOR;
  b->n_elems = rank;
  b->elems = py_arena_alloc(imp->arena, sizeof *b->elems * (rank ? rank : 1));
  for (int i = 0, k = 0; i < rank; i++) {
    b->elems[i].is_const = shape[i] != mlirShapedTypeGetDynamicSize();
    if (b->elems[i].is_const) b->elems[i].value = shape[i];
    else b->elems[i].dyn = dyn[k++];
  }
  return true;
}

/* ---- fd.add_output ---------------------------------------------------------------- */

/* The input an aliased output is written into (nvFuser's
 * aliasOutputToInput with ReuseBuffer): a tensor of fd.define_tensor with the
 * output's dtype and rank, static extents equal, not aliased twice. */
static bool alias_target(importer *imp, const py_expr *e, MlirValue out, int *input) {
  binding *b = e->kind == PY_NAME ? imp_lookup(imp, e->name) : NULL;
  if (!b || b->kind != BIND_VALUE || !fuser_value_is_tensor(b->value) || !mlirValueIsABlockArgument(b->value))
    return imp_error(imp, e->line, e->col, "fd.add_output alias_input must be a tensor defined by fd.define_tensor");
  if (mlirValueIsNull(out) || !fuser_value_is_tensor(out))
    return imp_error(imp, e->line, e->col, "fd.add_output alias_input needs a tensor output");
  MlirType ti = mlirValueGetType(b->value), to = mlirValueGetType(out);
  if (fuser_value_dtype(b->value) != fuser_value_dtype(out))
    return imp_error(imp, e->line, e->col, "fd.add_output alias_input: the output is %s but the input is %s (cast it first)",
                     fuser_dtype_mlir_name(fuser_value_dtype(out)), fuser_dtype_mlir_name(fuser_value_dtype(b->value)));
  intptr_t rank = mlirShapedTypeGetRank(to);
  if (mlirShapedTypeGetRank(ti) != rank)
    return imp_error(imp, e->line, e->col, "fd.add_output alias_input: the output has rank %d but the input has rank %d",
                     (int)rank, (int)mlirShapedTypeGetRank(ti));
  for (intptr_t d = 0; d < rank; d++)
    if (!mlirShapedTypeIsDynamicDim(ti, d) && !mlirShapedTypeIsDynamicDim(to, d) &&
        mlirShapedTypeGetDimSize(ti, d) != mlirShapedTypeGetDimSize(to, d))
      return imp_error(imp, e->line, e->col, "fd.add_output alias_input: output dim %d has extent %lld but the input's has %lld",
                       (int)d, (long long)mlirShapedTypeGetDimSize(to, d), (long long)mlirShapedTypeGetDimSize(ti, d));
  *input = (int)mlirBlockArgumentGetArgNumber(b->value);
  for (int r = 0; r < imp->n_results; r++) {
    MlirAttribute prev = mlirDictionaryAttrGetElementByName(imp->result_attrs[r], mlirStringRefCreateFromCString("fuser.alias_input"));
    if (!mlirAttributeIsNull(prev) && mlirIntegerAttrGetValueInt(prev) == *input)
      return imp_error(imp, e->line, e->col, "fd.add_output alias_input: that input already receives output %d", r);
  }
  return true;
}

static bool add_output(importer *imp, const py_expr *call) {
  static const char *const params[] = {"output", "alias_input", "stride_order"};
  const char *what = "fd.add_output";
  py_expr *a[3];
  if (!imp_bind_args(imp, call, what, params, 3, 1, a)) return false;
  /* add_output(output, alias_input): nvFuser's ReuseBuffer alias, the output
   * is written into the input's storage (the (output, stride_order)
   * overload takes a list as its second argument) */
  py_expr *alias = a[1];
  if (alias && (alias->kind == PY_LIST || alias->kind == PY_TUPLE) && !a[2]) a[2] = alias, alias = NULL;
  MlirValue v = {NULL};
  int pending = -1;
  binding *b = a[0]->kind == PY_NAME ? imp_lookup(imp, a[0]->name) : NULL;
  if (b && b->kind == BIND_CONST && mlirValueIsNull(b->value)) pending = (int)(b - imp->bindings);
  else if (!imp_eval_value(imp, a[0], "fd.add_output output", &v)) return false;
  MlirAttribute attrs = mlirDictionaryAttrGet(imp->ctx, 0, NULL);
  if (a[2]) {
    int64_t order[FUSER_MAX_RANK];
    if (pending >= 0 || !fuser_value_is_tensor(v))
      return imp_error(imp, a[2]->line, a[2]->col, "fd.add_output stride_order= needs a tensor output");
    int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(v));
    if (!imp_eval_stride_order(imp, a[2], "add_output stride_order", "the output", rank, order)) return false;
    MlirNamedAttribute so = imp_named(imp, "fuser.stride_order", mlirDenseI64ArrayGet(imp->ctx, rank, order));
    attrs = mlirDictionaryAttrGet(imp->ctx, 1, &so);
  }
  if (alias && alias->kind != PY_NONE) {
    int input = -1;
    if (!alias_target(imp, alias, pending >= 0 ? (MlirValue){NULL} : v, &input)) return false;
    if (a[2])
      return imp_error(imp, a[2]->line, a[2]->col, "fd.add_output takes alias_input or stride_order, not both "
                       "(an aliased output has its input's layout)");
    MlirNamedAttribute al = imp_named(imp, "fuser.alias_input", mlirIntegerAttrGet(mlirIntegerTypeGet(imp->ctx, 64), input));
    attrs = mlirDictionaryAttrGet(imp->ctx, 1, &al);
  }
  if (imp->n_results == imp->cap_results) {
    imp->cap_results = imp->cap_results ? imp->cap_results * 2 : 8;
    imp->results = realloc(imp->results, sizeof *imp->results * imp->cap_results);
    imp->result_attrs = realloc(imp->result_attrs, sizeof *imp->result_attrs * imp->cap_results);
    imp->result_consts = realloc(imp->result_consts, sizeof *imp->result_consts * imp->cap_results);
  }
  imp->result_consts[imp->n_results] = pending;
  imp->results[imp->n_results] = v;
  imp->result_attrs[imp->n_results++] = attrs;
  return true;
}

/* ---- the def body ------------------------------------------------------------------ */

bool imp_body_statement(importer *imp, const py_stmt *s) {
  py_str m;
  if (s->kind == PY_PASS) return true;
  if (s->kind == PY_EXPR) {
    if (is_fd_call(imp, s->value, &m) && py_str_eq(m, "add_output")) return add_output(imp, s->value);
    if (is_fd_call(imp, s->value, &m) || is_fd_ops_call(imp, s->value, &m))
      return imp_error(imp, s->line, s->col, "the result of '%.*s' must be assigned to a name", (int)m.len, m.data);
    return imp_error(imp, s->line, s->col, "unsupported statement in a fusion definition (expected an assignment or fd.add_output)");
  }
  if (s->kind != PY_ASSIGN) {
    const char *k = s->kind == PY_DEF ? "a nested 'def'" : s->kind == PY_WITH ? "a 'with' block" : "an import";
    return imp_error(imp, s->line, s->col, "unsupported statement in a fusion definition: %s", k);
  }
  for (int i = 0; i < s->n_names; i++)
    if (s->names[i].len == imp->fd_name.len && memcmp(s->names[i].data, imp->fd_name.data, imp->fd_name.len) == 0)
      return imp_error(imp, s->name_lines[i], s->name_cols[i], "cannot assign to '%.*s', the FusionDefinition",
                       (int)imp->fd_name.len, imp->fd_name.data);
  const py_expr *v = s->value;
  if (is_fd_ops_call(imp, v, &m)) return imp_fd_op(imp, s, v, m);
  if (is_fd_call(imp, v, &m)) {
    if (py_str_eq(m, "define_tensor")) return define_tensor(imp, s, v);
    if (py_str_eq(m, "define_scalar") || py_str_eq(m, "define_constant")) return define_scalar(imp, s, v);
    if (py_str_eq(m, "define_vector")) return define_vector(imp, s, v);
    return imp_error(imp, v->base->name_line, v->base->name_col, "unsupported FusionDefinition method 'fd.%.*s'", (int)m.len, m.data);
  }
  if (v->kind == PY_NAME) { /* an alias: T1 = T0 */
    binding *from = imp_lookup(imp, v->name);
    if (!from) return imp_error(imp, v->line, v->col, "undefined name '%.*s'", (int)v->name.len, v->name.data);
    if (s->n_names != 1) return imp_error(imp, s->line, s->col, "cannot unpack '%.*s' into %d names", (int)v->name.len, v->name.data, s->n_names);
    binding copy = *from;
    binding *b = imp_bind(imp, s->names[0]);
    py_str name = b->name;
    *b = copy;
    b->name = name;
    return true;
  }
  return imp_error(imp, v->line, v->col, "unsupported expression in a fusion definition (expected fd.define_* or fd.ops.* call)");
}

static bool fusion_def(importer *imp, const py_stmt *def) {
  if (def->n_params != 1)
    return imp_error(imp, def->line, def->col, "fusion definition '%.*s' must take exactly one parameter (the FusionDefinition), not %d",
                     (int)def->name.len, def->name.data, def->n_params);
  const py_param *p = &def->params[0];
  if (p->annotation && !(p->annotation->kind == PY_NAME && py_str_eq(p->annotation->name, "FusionDefinition")))
    return imp_error(imp, p->annotation->line, p->annotation->col, "parameter annotation must be FusionDefinition");
  if (def->value && def->value->kind != PY_NONE)
    return imp_error(imp, def->value->line, def->value->col, "the fusion definition's return annotation must be None");
  /* names the script itself needs at module level cannot name the fusion */
  static const char *const taken[] = {"fd", "torch", "nvfuser", "FusionDefinition", "DataType", "inputs", "float"};
  for (size_t i = 0; i < sizeof taken / sizeof *taken; i++)
    if (py_str_eq(def->name, taken[i]))
      return imp_error(imp, def->line, def->col, "the fusion definition cannot be named '%s' (the script needs that name)",
                       taken[i]);
  imp->fd_name = p->name;
  for (int i = 0; i < def->n_body; i++)
    if (!imp_body_statement(imp, def->body[i])) return false;
  return imp_output_consts(imp, def->line, def->col);
}

bool imp_output_consts(importer *imp, int line, int col) {
  /* constants that are outputs and were never used by an op */
  for (int r = 0; r < imp->n_results; r++) {
    if (imp->result_consts[r] < 0) continue;
    binding *b = &imp->bindings[imp->result_consts[r]];
    if (mlirValueIsNull(b->value)) {
      b->value = imp_scalar(imp, b->loc, b->dtype, b->is_float, b->ival, b->fval, line, col);
      if (mlirValueIsNull(b->value)) return false;
    }
    imp->results[r] = b->value;
  }
  return true;
}

/* ---- the script ------------------------------------------------------------------- */

static bool check_import(importer *imp, const py_stmt *s) {
  if (s->kind == PY_IMPORT) {
    if (py_str_eq(s->name, "torch") || py_str_eq(s->name, "nvfuser")) return true;
    return imp_error(imp, s->line, s->col, "unsupported import '%.*s' (only torch and nvfuser)", (int)s->name.len, s->name.data);
  }
  if (!py_str_eq(s->name, "nvfuser"))
    return imp_error(imp, s->line, s->col, "unsupported import from '%.*s' (only 'from nvfuser import ...')",
                     (int)s->name.len, s->name.data);
  for (int i = 0; i < s->n_names; i++)
    if (!py_str_eq(s->names[i], "FusionDefinition") && !py_str_eq(s->names[i], "DataType"))
      return imp_error(imp, s->name_lines[i], s->name_cols[i],
                       "unsupported import '%.*s' from nvfuser (only FusionDefinition and DataType)",
                       (int)s->names[i].len, s->names[i].data);
  return true;
}

/* `with FusionDefinition() as fd:` whose body calls the fusion def with fd. */
static bool check_with(importer *imp, const py_stmt *s, const py_stmt *def) {
  const py_expr *cm = s->value;
  if (cm->kind != PY_CALL || cm->base->kind != PY_NAME || !py_str_eq(cm->base->name, "FusionDefinition") || cm->n != 0)
    return imp_error(imp, cm->line, cm->col, "the 'with' block must be 'with FusionDefinition() as fd:'");
  if (!def) return imp_error(imp, s->line, s->col, "'with FusionDefinition()' block before the fusion definition");
  if (s->n_body != 1 || s->body[0]->kind != PY_EXPR || s->body[0]->value->kind != PY_CALL)
    return imp_error(imp, s->line, s->col, "the 'with FusionDefinition() as %.*s:' block must only call the fusion definition",
                     (int)s->names[0].len, s->names[0].data);
  const py_expr *c = s->body[0]->value;
  if (c->base->kind != PY_NAME || c->base->name.len != def->name.len ||
      memcmp(c->base->name.data, def->name.data, def->name.len) != 0)
    return imp_error(imp, c->line, c->col, "the 'with' block calls '%.*s', but the fusion definition is '%.*s'",
                     c->base->kind == PY_NAME ? (int)c->base->name.len : 12,
                     c->base->kind == PY_NAME ? c->base->name.data : "an expression", (int)def->name.len, def->name.data);
  if (c->n != 1 || c->args[0].keyword.len || c->args[0].value->kind != PY_NAME ||
      c->args[0].value->name.len != s->names[0].len ||
      memcmp(c->args[0].value->name.data, s->names[0].data, s->names[0].len) != 0)
    return imp_error(imp, c->line, c->col, "the fusion definition must be called with the FusionDefinition '%.*s' only",
                     (int)s->names[0].len, s->names[0].data);
  return true;
}

static bool is_inputs_assign(const py_stmt *s) {
  return s->kind == PY_ASSIGN && s->n_names == 1 && py_str_eq(s->names[0], "inputs");
}

/* `fd.execute(inputs)` after the with block. */
static bool check_execute(importer *imp, const py_stmt *s, const py_stmt *with, const py_stmt *inputs) {
  const py_expr *e = s->value;
  bool call = e->kind == PY_CALL && e->base->kind == PY_ATTR && e->base->base->kind == PY_NAME;
  if (!call || !py_str_eq(e->base->name, "execute"))
    return imp_error(imp, s->line, s->col, "unsupported top-level statement (expected imports, the fusion definition, "
                                           "the 'with FusionDefinition()' block, 'inputs = [...]' and fd.execute(inputs))");
  if (!with) return imp_error(imp, e->line, e->col, "'%.*s.execute' before the 'with FusionDefinition()' block",
                              (int)e->base->base->name.len, e->base->base->name.data);
  if (e->base->base->name.len != with->names[0].len ||
      memcmp(e->base->base->name.data, with->names[0].data, with->names[0].len) != 0)
    return imp_error(imp, e->line, e->col, "undefined name '%.*s'", (int)e->base->base->name.len, e->base->base->name.data);
  /* fd.execute(inputs, device=0): the device says where nvFuser runs; fuser
   * runs where the tool runs it */
  bool device_only = true;
  for (int i = 1; i < e->n; i++) device_only &= py_str_eq(e->args[i].keyword, "device");
  if (e->n < 1 || e->args[0].keyword.len || e->args[0].value->kind != PY_NAME || !device_only || e->n > 2)
    return imp_error(imp, e->line, e->col, "fd.execute takes the inputs list (and device=) only");
  if (!py_str_eq(e->args[0].value->name, "inputs") || !inputs)
    return imp_error(imp, e->args[0].value->line, e->args[0].value->col, "undefined name '%.*s'",
                     (int)e->args[0].value->name.len, e->args[0].value->name.data);
  return true;
}

MlirOperation imp_build_func(importer *imp, const py_stmt *def, MlirAttribute inputs) {
  MlirLocation loc = imp_loc(imp, def->line, def->col);
  MlirType *arg_types = malloc(sizeof(MlirType) * (imp->n_args + 1));
  MlirType *res_types = malloc(sizeof(MlirType) * (imp->n_results + 1));
  for (int i = 0; i < imp->n_args; i++) arg_types[i] = mlirValueGetType(mlirBlockGetArgument(imp->body, i));
  for (int i = 0; i < imp->n_results; i++) res_types[i] = mlirValueGetType(imp->results[i]);
  MlirType fty = mlirFunctionTypeGet(imp->ctx, imp->n_args, arg_types, imp->n_results, res_types);
  free(arg_types);
  free(res_types);
  imp_append_op(imp, "func.return", loc, imp->n_results, imp->results, 0, NULL, 0, NULL);

  MlirNamedAttribute attrs[6];
  int n = 0;
  attrs[n++] = imp_named(imp, "sym_name", mlirStringAttrGet(imp->ctx, mlirStringRefCreate(def->name.data, def->name.len)));
  attrs[n++] = imp_named(imp, "function_type", mlirTypeAttrGet(fty));
  attrs[n++] = imp_named(imp, "arg_attrs", mlirArrayAttrGet(imp->ctx, imp->n_args, imp->arg_attrs));
  attrs[n++] = imp_named(imp, "res_attrs", mlirArrayAttrGet(imp->ctx, imp->n_results, imp->result_attrs));
  attrs[n++] = imp_named(imp, "fuser.fusion", mlirUnitAttrGet(imp->ctx));
  if (!mlirAttributeIsNull(inputs)) attrs[n++] = imp_named(imp, "fuser.inputs", inputs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, imp->body);
  imp->body = (MlirBlock){NULL};
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&st, n, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  return mlirOperationCreate(&st);
}

static bool import_script(importer *imp, const py_module *m, const char *text, size_t len, MlirOperation *func) {
  const py_stmt *def = NULL, *with = NULL, *inputs = NULL, *execute = NULL;
  for (int i = 0; i < m->n; i++) {
    const py_stmt *s = m->stmts[i];
    switch (s->kind) {
    case PY_IMPORT:
    case PY_FROM_IMPORT:
      if (!check_import(imp, s)) return false;
      break;
    case PY_DEF:
      if (def)
        return imp_error(imp, s->line, s->col, "a second fusion definition '%.*s' (one per script)", (int)s->name.len,
                         s->name.data);
      def = s;
      if (!fusion_def(imp, s)) return false;
      break;
    case PY_WITH:
      if (with) return imp_error(imp, s->line, s->col, "a second 'with FusionDefinition()' block");
      with = s;
      if (!check_with(imp, s, def)) return false;
      break;
    case PY_ASSIGN:
      if (!is_inputs_assign(s))
        return imp_error(imp, s->line, s->col, "unsupported top-level assignment (only 'inputs = [...]')");
      if (inputs) return imp_error(imp, s->line, s->col, "'inputs' assigned twice");
      inputs = s;
      break;
    case PY_PASS:
      break;
    case PY_EXPR:
      if (execute) return imp_error(imp, s->line, s->col, "a second fd.execute");
      if (!check_execute(imp, s, with, inputs)) return false;
      execute = s;
      break;
    }
  }
  if (!def) {
    int line = 1;
    for (size_t i = 0; i < len; i++) line += text[i] == '\n';
    return imp_error(imp, line, 1, "no fusion definition ('def nvfuser_fusion_idN(fd : FusionDefinition) -> None :') in the script");
  }
  MlirAttribute inputs_attr = mlirAttributeGetNull();
  if (inputs) {
    MlirType *types = malloc(sizeof(MlirType) * (imp->n_args + 1));
    for (int i = 0; i < imp->n_args; i++) types[i] = mlirValueGetType(mlirBlockGetArgument(imp->body, i));
    bool ok = imp_inputs_block(imp, inputs, imp->n_args, types, &inputs_attr);
    free(types);
    if (!ok) return false;
  }
  *func = imp_build_func(imp, def, inputs_attr);
  return true;
}

MlirModule fuser_import_nvfuser(MlirContext ctx, const char *text, size_t len, const char *path) {
  /* The import is one thread, and uniquing its locations, names and types
   * dominates it: with the context's multithreading off, MLIR's uniquers
   * skip their thread-local caches and locks (200k NameLocs: 340 instead of
   * 530 ms). Turned back on before returning when it was on (more than one
   * thread); callers serialise their use of a context around an import. */
  bool threaded = mlirContextGetNumThreads(ctx) > 1;
  if (threaded) mlirContextEnableMultithreading(ctx, false);
  importer imp = {.ctx = ctx, .path = path, .arena = py_arena_create()};
  py_error err;
  py_module *m = py_parse(imp.arena, text, len, &err);
  MlirModule module = {NULL};
  if (!m) {
    mlirEmitError(imp_loc(&imp, err.line, err.col), err.message);
    goto done;
  }
  imp.body = mlirBlockCreate(0, NULL, NULL);
  MlirOperation func = {NULL};
  if (!import_script(&imp, m, text, len, &func)) goto done;
  module = mlirModuleCreateEmpty(imp_loc(&imp, 1, 1));
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), func);
  MlirOperation mop = mlirModuleGetOperation(module);
  if (fuser_verify(mop) != 0 || !mlirOperationVerify(mop)) {
    mlirModuleDestroy(module);
    module = (MlirModule){NULL};
  }
done:
  imp_release(&imp);
  if (threaded) mlirContextEnableMultithreading(ctx, true);
  return module;
}

void imp_release(importer *imp) {
  if (!mlirBlockIsNull(imp->body)) mlirBlockDestroy(imp->body);
  imp->body = (MlirBlock){NULL};
  free(imp->arg_attrs);
  free(imp->results);
  free(imp->result_attrs);
  free(imp->result_consts);
  free(imp->bindings);
  fuser_name_map_free(&imp->scope);
  py_arena_destroy(imp->arena);
  imp->arena = NULL;
}
