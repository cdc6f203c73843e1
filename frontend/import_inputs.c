/* The script's `inputs = [...]` block -> the fusion's `fuser.inputs`
 * attribute: one dictionary per function argument, in argument order
 * (format in docs/frontend.md). Tensors are torch factories
 * (randn/rand/ones/zeros/full/arange/empty) with an optional .as_strided;
 * scalars are Python numbers. Each entry is checked against its argument:
 * kind, dtype, rank, static extents, and that the strided view fits its
 * storage. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "frontend/import_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

typedef struct {
  const char *factory;
  fuser_dtype dtype;
  int rank; /* of the factory's shape */
  int64_t shape[FUSER_MAX_RANK];
  int view_rank;
  int64_t sizes[FUSER_MAX_RANK], strides[FUSER_MAX_RANK], offset;
  double fill_value, start, end, step;
  double low, high; /* make_tensor, randint */
} torch_tensor;

static const struct {
  const char *name;
  fuser_dtype dt;
} torch_dtypes[] = {
    {"bfloat16", FUSER_DTYPE_BF16}, {"float16", FUSER_DTYPE_F16}, {"half", FUSER_DTYPE_F16},
    {"float32", FUSER_DTYPE_F32},   {"float", FUSER_DTYPE_F32},   {"float64", FUSER_DTYPE_F64},
    {"double", FUSER_DTYPE_F64},    {"bool", FUSER_DTYPE_I1},     {"int32", FUSER_DTYPE_I32},
    {"int", FUSER_DTYPE_I32},       {"int64", FUSER_DTYPE_I64},   {"long", FUSER_DTYPE_I64},
};

static bool torch_dtype(importer *imp, const py_expr *e, fuser_dtype *out) {
  if (e->kind != PY_ATTR || e->base->kind != PY_NAME || !py_str_eq(e->base->name, "torch"))
    return imp_error(imp, e->line, e->col, "inputs: dtype must be torch.<dtype>");
  for (size_t i = 0; i < sizeof torch_dtypes / sizeof *torch_dtypes; i++)
    if (py_str_eq(e->name, torch_dtypes[i].name)) {
      *out = torch_dtypes[i].dt;
      return true;
    }
  return imp_error(imp, e->line, e->col, "inputs: unsupported dtype torch.%.*s", (int)e->name.len, e->name.data);
}

static bool number(importer *imp, const py_expr *e, const char *what, double *out) {
  bool is_float, is_bool;
  int64_t i;
  if (!imp_literal_number(e, &is_float, &is_bool, &i, out) || is_bool)
    return imp_error(imp, e->line, e->col, "inputs: %s must be a number", what);
  return true;
}

/* A size given as one list/tuple, or as several int arguments. */
static bool size_args(importer *imp, const py_expr *call, int first, int count, const char *what, int64_t *out, int *n) {
  if (count == 1 && (call->args[first].value->kind == PY_LIST || call->args[first].value->kind == PY_TUPLE))
    return imp_eval_int_list(imp, call->args[first].value, what, out, FUSER_MAX_RANK, n);
  if (count > FUSER_MAX_RANK) return imp_error(imp, call->line, call->col, "inputs: %s has more than %d entries", what, FUSER_MAX_RANK);
  for (int i = 0; i < count; i++)
    if (!imp_eval_int(imp, call->args[first + i].value, what, &out[i])) return false;
  *n = count;
  return true;
}

/* torch.testing.make_tensor(*shape, dtype, device, low=None, high=None):
 * torch's default bounds are [-9, 9) for floats, [-9, 10) for integers,
 * and bool is 0 or 1. torch.randint([low=0,] high, size): integers in
 * [low, high), int64 unless dtype= says otherwise. */
static bool bound(importer *imp, const py_expr *e, const char *what, double *out) {
  if (!e || e->kind == PY_NONE) return true;
  return number(imp, e, what, out);
}

/* Whether `callee` is torch.<name> or torch.testing.<name>. */
static bool is_torch_attr(const py_expr *callee, bool testing) {
  if (callee->kind != PY_ATTR) return false;
  const py_expr *b = callee->base;
  if (!testing) return b->kind == PY_NAME && py_str_eq(b->name, "torch");
  return b->kind == PY_ATTR && py_str_eq(b->name, "testing") && b->base->kind == PY_NAME &&
         py_str_eq(b->base->name, "torch");
}

static bool torch_factory(importer *imp, const py_expr *call, bool on_cpu, torch_tensor *t) {
  const py_expr *callee = call->base;
  bool make_tensor = is_torch_attr(callee, true) && py_str_eq(callee->name, "make_tensor");
  if (!make_tensor && !is_torch_attr(callee, false))
    return imp_error(imp, call->line, call->col, "inputs: expected a torch factory call such as torch.randn(...)");
  static const char *const factories[] = {"randn", "rand", "ones", "zeros", "full", "arange", "empty", "randint"};
  t->factory = make_tensor ? "make_tensor" : NULL;
  for (size_t i = 0; !make_tensor && i < sizeof factories / sizeof *factories; i++)
    if (py_str_eq(callee->name, factories[i])) t->factory = factories[i];
  if (!t->factory)
    return imp_error(imp, callee->name_line, callee->name_col, "inputs: unsupported torch factory 'torch.%.*s' (randn, rand, ones, zeros, full, arange, empty, randint, testing.make_tensor)",
                     (int)callee->name.len, callee->name.data);
  bool is_randint = strcmp(t->factory, "randint") == 0;
  int positional = 0;
  const py_expr *low = NULL, *high = NULL, *size_kw = NULL;
  t->dtype = FUSER_DTYPE_INVALID;
  for (int i = 0; i < call->n; i++) {
    const py_arg *a = &call->args[i];
    if (!a->keyword.len) {
      if (positional < i) return imp_error(imp, a->value->line, a->value->col, "inputs: positional argument after a keyword");
      positional++;
      continue;
    }
    bool flag;
    if (py_str_eq(a->keyword, "dtype")) {
      if (!torch_dtype(imp, a->value, &t->dtype)) return false;
    } else if (py_str_eq(a->keyword, "device")) {
      const char *want = on_cpu ? "cpu" : "cuda";
      if (a->value->kind != PY_STRING || a->value->name.len < strlen(want) ||
          memcmp(a->value->name.data, want, strlen(want)) != 0)
        return imp_error(imp, a->value->line, a->value->col,
                         on_cpu ? "inputs: a CPU scalar tensor (is_cpu=True) needs device='cpu'"
                                : "inputs: device must be a 'cuda' device string");
    } else if (py_str_eq(a->keyword, "requires_grad")) {
      bool v;
      if (!imp_eval_bool(imp, a->value, "requires_grad", &v)) return false;
    } else if ((make_tensor || is_randint) && py_str_eq(a->keyword, "low")) {
      low = a->value;
    } else if ((make_tensor || is_randint) && py_str_eq(a->keyword, "high")) {
      high = a->value;
    } else if (is_randint && py_str_eq(a->keyword, "size")) {
      size_kw = a->value;
    } else if (make_tensor && (py_str_eq(a->keyword, "noncontiguous") || py_str_eq(a->keyword, "exclude_zero"))) {
      if (!imp_eval_flag(imp, a->value, "make_tensor flag", &flag)) return false;
      if (flag)
        return imp_error(imp, a->kw_line, a->kw_col, "inputs: make_tensor %.*s=True is not supported",
                         (int)a->keyword.len, a->keyword.data);
    } else {
      return imp_error(imp, a->kw_line, a->kw_col, "inputs: torch.%s got an unexpected keyword argument '%.*s'",
                       t->factory, (int)a->keyword.len, a->keyword.data);
    }
  }
  bool is_full = strcmp(t->factory, "full") == 0, is_arange = strcmp(t->factory, "arange") == 0;
  if (is_randint) {
    /* (high, size) or (low, high, size); keywords fill what is missing */
    const py_expr *pos[3] = {NULL, NULL, NULL};
    for (int i = 0; i < positional && i < 3; i++) pos[i] = call->args[i].value;
    if (positional > 3) return imp_error(imp, call->line, call->col, "inputs: torch.randint takes ([low,] high, size)");
    if (positional == 3) low = pos[0], high = pos[1], size_kw = pos[2];
    else if (positional == 2 && !size_kw) high = pos[0], size_kw = pos[1];
    else if (positional == 2) low = pos[0], high = pos[1];
    else if (positional == 1 && size_kw) high = pos[0];
    else if (positional == 1) size_kw = pos[0];
    if (!high || !size_kw) return imp_error(imp, call->line, call->col, "inputs: torch.randint needs high and size");
    t->low = 0;
    if (!bound(imp, low, "randint low", &t->low) || !number(imp, high, "randint high", &t->high)) return false;
    if (t->low != floor(t->low) || t->high != floor(t->high) || !(t->low < t->high))
      return imp_error(imp, call->line, call->col, "inputs: torch.randint needs integer bounds low < high");
    if (size_kw->kind != PY_LIST && size_kw->kind != PY_TUPLE)
      return imp_error(imp, size_kw->line, size_kw->col, "inputs: torch.randint size must be a tuple");
    if (!imp_eval_int_list(imp, size_kw, "size", t->shape, FUSER_MAX_RANK, &t->rank)) return false;
    if (t->dtype == FUSER_DTYPE_INVALID) t->dtype = FUSER_DTYPE_I64;
  } else if (make_tensor) {
    if (positional < 1) return imp_error(imp, call->line, call->col, "inputs: torch.testing.make_tensor needs a shape");
    if (!size_args(imp, call, 0, positional, "shape", t->shape, &t->rank)) return false;
    if (t->dtype == FUSER_DTYPE_INVALID)
      return imp_error(imp, call->line, call->col, "inputs: torch.testing.make_tensor needs dtype=");
    bool fl = fuser_dtype_is_float(t->dtype);
    t->low = t->dtype == FUSER_DTYPE_I1 ? 0 : -9;
    t->high = t->dtype == FUSER_DTYPE_I1 ? 2 : fl ? 9 : 10;
    if (t->dtype != FUSER_DTYPE_I1 &&
        (!bound(imp, low, "make_tensor low", &t->low) || !bound(imp, high, "make_tensor high", &t->high)))
      return false;
    if (!fl) t->low = ceil(t->low), t->high = ceil(t->high); /* torch rounds integer bounds up */
    if (!(t->low < t->high) || !isfinite(t->low) || !isfinite(t->high))
      return imp_error(imp, call->line, call->col, "inputs: torch.testing.make_tensor needs finite bounds low < high");
  } else if (is_arange) {
    double v[3] = {0, 0, 1};
    if (positional < 1 || positional > 3)
      return imp_error(imp, call->line, call->col, "inputs: torch.arange takes (end), (start, end) or (start, end, step)");
    bool all_int = true;
    for (int i = 0; i < positional; i++) {
      if (!number(imp, call->args[i].value, "arange bound", &v[positional == 1 ? 1 : i])) return false;
      all_int &= call->args[i].value->kind == PY_INT || (call->args[i].value->kind == PY_NEG && call->args[i].value->base->kind == PY_INT);
    }
    t->start = v[0], t->end = v[1], t->step = v[2];
    if (t->step == 0 || !isfinite(t->start) || !isfinite(t->end))
      return imp_error(imp, call->line, call->col, "inputs: torch.arange needs finite bounds and a non-zero step");
    double count = ceil((t->end - t->start) / t->step);
    if (count < 0) count = 0;
    if (count > 1e15) return imp_error(imp, call->line, call->col, "inputs: torch.arange is too large");
    t->rank = 1;
    t->shape[0] = (int64_t)count;
    if (t->dtype == FUSER_DTYPE_INVALID) t->dtype = all_int ? FUSER_DTYPE_I64 : FUSER_DTYPE_F32;
  } else {
    int n_size = is_full ? 1 : positional;
    if (is_full && positional != 2)
      return imp_error(imp, call->line, call->col, "inputs: torch.full takes (size, fill_value)");
    if (n_size < 1) return imp_error(imp, call->line, call->col, "inputs: torch.%s needs a size", t->factory);
    if (!size_args(imp, call, 0, n_size, "size", t->shape, &t->rank)) return false;
    if (is_full && !number(imp, call->args[1].value, "full fill_value", &t->fill_value)) return false;
    if (is_full && call->args[1].value->kind == PY_TRUE) t->fill_value = 1;
    if (t->dtype == FUSER_DTYPE_INVALID) t->dtype = FUSER_DTYPE_F32;
  }
  for (int i = 0; i < t->rank; i++)
    if (t->shape[i] < 0) return imp_error(imp, call->line, call->col, "inputs: torch.%s size entry %lld is negative", t->factory, (long long)t->shape[i]);
  /* without as_strided the view is the contiguous tensor itself */
  t->view_rank = t->rank;
  int64_t stride = 1;
  for (int i = t->rank - 1; i >= 0; i--) {
    t->sizes[i] = t->shape[i];
    t->strides[i] = stride;
    if (t->shape[i] > 0 && stride > INT64_MAX / t->shape[i])
      return imp_error(imp, call->line, call->col, "inputs: torch.%s size is too large", t->factory);
    stride *= t->shape[i] ? t->shape[i] : 1;
  }
  t->offset = 0;
  return true;
}

static bool as_strided(importer *imp, const py_expr *call, torch_tensor *t) {
  static const char *const params[] = {"size", "stride", "storage_offset"};
  py_expr *a[3];
  if (!imp_bind_args(imp, call, "as_strided", params, 3, 2, a)) return false;
  int n_stride;
  if (!imp_eval_int_list(imp, a[0], "as_strided size", t->sizes, FUSER_MAX_RANK, &t->view_rank) ||
      !imp_eval_int_list(imp, a[1], "as_strided stride", t->strides, FUSER_MAX_RANK, &n_stride))
    return false;
  if (n_stride != t->view_rank)
    return imp_error(imp, a[1]->line, a[1]->col, "inputs: as_strided has %d sizes but %d strides", t->view_rank, n_stride);
  t->offset = 0;
  if (a[2] && !imp_eval_int(imp, a[2], "as_strided storage_offset", &t->offset)) return false;
  if (t->offset < 0) return imp_error(imp, a[2]->line, a[2]->col, "inputs: as_strided storage_offset is negative");
  /* the view must fit the factory's storage, as torch checks */
  int64_t storage = 1, last = t->offset;
  bool empty = false;
  for (int i = 0; i < t->rank; i++) storage = t->shape[i] && storage <= INT64_MAX / t->shape[i] ? storage * t->shape[i] : 0;
  for (int i = 0; i < t->view_rank; i++) {
    if (t->sizes[i] < 0 || t->strides[i] < 0)
      return imp_error(imp, call->line, call->col, "inputs: as_strided sizes and strides must be >= 0");
    if (t->sizes[i] == 0) empty = true;
    else if (t->strides[i] && (t->sizes[i] - 1) > (INT64_MAX - last) / t->strides[i])
      return imp_error(imp, call->line, call->col, "inputs: as_strided view is too large");
    else last += (t->sizes[i] - 1) * t->strides[i];
  }
  if (!empty && last >= storage)
    return imp_error(imp, call->line, call->col,
                     "inputs: as_strided view reaches element %lld but the storage has %lld elements", (long long)last,
                     (long long)storage);
  return true;
}

static MlirAttribute f64_attr(importer *imp, double v) {
  return mlirFloatAttrDoubleGet(imp->ctx, mlirF64TypeGet(imp->ctx), v);
}

static MlirAttribute tensor_entry(importer *imp, const torch_tensor *t) {
  MlirNamedAttribute a[10];
  int n = 0;
  a[n++] = imp_named(imp, "factory", mlirStringAttrGet(imp->ctx, mlirStringRefCreateFromCString(t->factory)));
  a[n++] = imp_named(imp, "dtype", mlirTypeAttrGet(fuser_dtype_to_type(imp->ctx, t->dtype)));
  a[n++] = imp_named(imp, "shape", mlirDenseI64ArrayGet(imp->ctx, t->rank, t->shape));
  a[n++] = imp_named(imp, "sizes", mlirDenseI64ArrayGet(imp->ctx, t->view_rank, t->sizes));
  a[n++] = imp_named(imp, "strides", mlirDenseI64ArrayGet(imp->ctx, t->view_rank, t->strides));
  a[n++] = imp_named(imp, "offset", mlirIntegerAttrGet(mlirIntegerTypeGet(imp->ctx, 64), t->offset));
  if (strcmp(t->factory, "full") == 0) a[n++] = imp_named(imp, "fill_value", f64_attr(imp, t->fill_value));
  if (strcmp(t->factory, "make_tensor") == 0 || strcmp(t->factory, "randint") == 0) {
    a[n++] = imp_named(imp, "low", f64_attr(imp, t->low));
    a[n++] = imp_named(imp, "high", f64_attr(imp, t->high));
  }
  if (strcmp(t->factory, "arange") == 0) {
    a[n++] = imp_named(imp, "start", f64_attr(imp, t->start));
    a[n++] = imp_named(imp, "end", f64_attr(imp, t->end));
    a[n++] = imp_named(imp, "step", f64_attr(imp, t->step));
  }
  return mlirDictionaryAttrGet(imp->ctx, n, a);
}

static bool tensor_input(importer *imp, const py_expr *e, int argno, MlirType arg, MlirAttribute *out) {
  torch_tensor t;
  const py_expr *factory_call = e;
  const py_expr *strided = NULL;
  if (e->kind == PY_CALL && e->base->kind == PY_ATTR && py_str_eq(e->base->name, "as_strided")) {
    strided = e;
    factory_call = e->base->base;
  }
  if (factory_call->kind != PY_CALL)
    return imp_error(imp, e->line, e->col, "inputs: entry %d must be a torch factory call or a number", argno);
  MlirAttribute attrs = imp->arg_attrs[argno];
  bool on_cpu = mlirAttributeIsADictionary(attrs) &&
                !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(attrs, mlirStringRefCreateFromCString("fuser.is_cpu")));
  if (!torch_factory(imp, factory_call, on_cpu, &t)) return false;
  if (strided && !as_strided(imp, strided, &t)) return false;
  if (!mlirTypeIsARankedTensor(arg))
    return imp_error(imp, e->line, e->col, "inputs: entry %d is a tensor but fusion input %d is a scalar", argno, argno);
  fuser_dtype want = fuser_dtype_of_type(mlirShapedTypeGetElementType(arg));
  if (t.dtype != want)
    return imp_error(imp, e->line, e->col, "inputs: entry %d has dtype %s but fusion input %d is %s", argno,
                     fuser_dtype_mlir_name(t.dtype), argno, fuser_dtype_mlir_name(want));
  int rank = (int)mlirShapedTypeGetRank(arg);
  if (t.view_rank != rank)
    return imp_error(imp, e->line, e->col, "inputs: entry %d has rank %d but fusion input %d has rank %d", argno,
                     t.view_rank, argno, rank);
  for (int d = 0; d < rank; d++) {
    int64_t x = mlirShapedTypeGetDimSize(arg, d);
    if (x != mlirShapedTypeGetDynamicSize() && x != t.sizes[d])
      return imp_error(imp, e->line, e->col, "inputs: entry %d has size %lld in dim %d but fusion input %d has extent %lld",
                       argno, (long long)t.sizes[d], d, argno, (long long)x);
  }
  *out = tensor_entry(imp, &t);
  return true;
}

static bool scalar_input(importer *imp, const py_expr *e, int argno, MlirType arg, MlirAttribute *out) {
  bool is_float, is_bool;
  int64_t i;
  double f;
  imp_literal_number(e, &is_float, &is_bool, &i, &f);
  if (mlirTypeIsARankedTensor(arg))
    return imp_error(imp, e->line, e->col, "inputs: entry %d is a number but fusion input %d is a tensor", argno, argno);
  fuser_dtype dt = fuser_dtype_of_type(arg);
  MlirAttribute v;
  if (fuser_dtype_is_float(dt)) v = mlirFloatAttrDoubleGet(imp->ctx, arg, f);
  else if (is_float) return imp_error(imp, e->line, e->col, "inputs: entry %d is a float but fusion input %d is %s", argno, argno, fuser_dtype_mlir_name(dt));
  else if (dt == FUSER_DTYPE_I1 && !is_bool && i != 0 && i != 1)
    return imp_error(imp, e->line, e->col, "inputs: entry %d is %lld but fusion input %d is a Bool", argno, (long long)i, argno);
  else if (dt == FUSER_DTYPE_I32 && (i < INT32_MIN || i > INT32_MAX))
    return imp_error(imp, e->line, e->col, "inputs: entry %d is %lld, out of range for fusion input %d (i32)", argno,
                     (long long)i, argno);
  else if (dt == FUSER_DTYPE_I1) v = mlirBoolAttrGet(imp->ctx, i != 0);
  else v = mlirIntegerAttrGet(arg, i);
  MlirNamedAttribute a = imp_named(imp, "value", v);
  *out = mlirDictionaryAttrGet(imp->ctx, 1, &a);
  return true;
}

bool imp_inputs_block(importer *imp, const py_stmt *s, int n_args, const MlirType *arg_types, MlirAttribute *out) {
  const py_expr *l = s->value;
  if (l->kind != PY_LIST && l->kind != PY_TUPLE)
    return imp_error(imp, l->line, l->col, "inputs must be a list of torch tensors and numbers");
  if (l->n != n_args)
    return imp_error(imp, l->line, l->col, "inputs has %d entr%s but the fusion has %d input%s", l->n,
                     l->n == 1 ? "y" : "ies", n_args, n_args == 1 ? "" : "s");
  MlirAttribute *entries = py_arena_alloc(imp->arena, sizeof *entries * (n_args ? n_args : 1));
  for (int i = 0; i < l->n; i++) {
    const py_expr *e = l->items[i];
    bool is_float, is_bool;
    int64_t iv;
    double f;
    bool ok = imp_literal_number(e, &is_float, &is_bool, &iv, &f) ? scalar_input(imp, e, i, arg_types[i], &entries[i])
                                                                 : tensor_input(imp, e, i, arg_types[i], &entries[i]);
    if (!ok) return false;
  }
  *out = mlirArrayAttrGet(imp->ctx, n_args, entries);
  return true;
}
