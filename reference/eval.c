/* The interpreter: checks a fusion's arguments against its function type,
 * runs its ops in order (each through the handler of its kind), checks
 * every result against its declared type, and copies the returned values
 * into new tensors. Shared helpers for the handlers live here too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "reference/ops.h"

/* ---- helpers for handlers ----------------------------------------------- */

bool ref_type_of(ref_ctx *c, MlirType t, ref_type *out) {
  memset(out, 0, sizeof *out);
  out->is_tensor = mlirTypeIsARankedTensor(t);
  out->dtype = fuser_dtype_of_type(out->is_tensor ? mlirShapedTypeGetElementType(t) : t);
  if (out->dtype == FUSER_DTYPE_INVALID) return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "unsupported element type");
  if (out->is_tensor) {
    out->rank = (int)mlirShapedTypeGetRank(t);
    if (out->rank > FUSER_MAX_RANK) return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "rank above %d", FUSER_MAX_RANK);
    for (int d = 0; d < out->rank; d++) {
      int64_t e = mlirShapedTypeGetDimSize(t, d);
      out->sizes[d] = mlirShapedTypeIsDynamicSize(e) ? -1 : e;
    }
  }
  return true;
}

bool ref_result_type(ref_ctx *c, int i, ref_type *out) {
  if (i >= mlirOperationGetNumResults(c->op)) return ref_fail(c, FUSER_REF_ERR_FUSION, "op has no result #%d", i);
  return ref_type_of(c, mlirValueGetType(mlirOperationGetResult(c->op, i)), out);
}

bool ref_shape_from_operands(ref_ctx *c, const ref_type *type, const ref_tensor *operands, int first, int n,
                             int64_t *sizes) {
  int k = first;
  for (int d = 0; d < type->rank; d++) {
    if (type->sizes[d] >= 0) {
      sizes[d] = type->sizes[d];
      continue;
    }
    if (k >= n || operands[k].rank != 0)
      return ref_fail(c, FUSER_REF_ERR_FUSION, "result dim %d is `?` but no scalar operand gives it", d);
    sizes[d] = ref_scalar_i64(&operands[k++]);
    if (sizes[d] < -1) return ref_fail(c, FUSER_REF_ERR_SHAPE, "extent %lld for dim %d is negative", (long long)sizes[d], d);
  }
  return true;
}

bool ref_check_extents(ref_ctx *c, const ref_type *type, const int64_t *sizes) {
  for (int d = 0; d < type->rank; d++)
    if (type->sizes[d] >= 0 && sizes[d] != type->sizes[d])
      return ref_fail(c, FUSER_REF_ERR_SHAPE, "result dim %d has extent %lld at run time but the type says %lld", d,
                      (long long)sizes[d], (long long)type->sizes[d]);
  return true;
}

bool ref_attr_i64_array(ref_ctx *c, const char *name, int64_t *out, int cap, int *n) {
  *n = fuser_get_i64_array(c->op, name, out, cap);
  if (*n < 0) return ref_fail(c, FUSER_REF_ERR_FUSION, "missing or malformed array attribute '%s'", name);
  if (*n > cap) return ref_fail(c, FUSER_REF_ERR_FUSION, "attribute '%s' has more than %d entries", name, cap);
  return true;
}

bool ref_attr_i64(ref_ctx *c, const char *name, int64_t *out) {
  if (!fuser_get_i64(c->op, name, out))
    return ref_fail(c, FUSER_REF_ERR_FUSION, "missing or malformed integer attribute '%s'", name);
  return true;
}

/* ---- which handler runs an op --------------------------------------------- */

static ref_op_fn handler_of(fuser_op_id id) {
  if (fuser_is_triangle_op(id)) return ref_eval_triangle;
  switch (fuser_op_kind_of(id)) {
  case FUSER_KIND_SCALAR: return ref_eval_scalar;
  case FUSER_KIND_UNARY:
  case FUSER_KIND_BINARY:
  case FUSER_KIND_TERNARY: return ref_eval_elementwise;
  case FUSER_KIND_SHAPED:
  case FUSER_KIND_META:
  case FUSER_KIND_VIEW: return ref_eval_view;
  case FUSER_KIND_QUERY: return ref_eval_query;
  case FUSER_KIND_CHECK: return ref_eval_check;
  case FUSER_KIND_HOST: return ref_eval_host;
  case FUSER_KIND_ADDRESS: return ref_eval_address;
  case FUSER_KIND_LAUNCH: return ref_eval_launch;
  case FUSER_KIND_PAD: return ref_eval_pad;
  case FUSER_KIND_CAT: return ref_eval_cat;
  case FUSER_KIND_REDUCTION:
  case FUSER_KIND_VAR_MEAN: return ref_eval_reduction;
  case FUSER_KIND_FULL:
  case FUSER_KIND_IOTA: return ref_eval_factory;
  case FUSER_KIND_RNG: return ref_eval_rng;
  case FUSER_KIND_MATMUL: return ref_eval_matmul;
  case FUSER_KIND_INDEX: return ref_eval_index;
  case FUSER_KIND_NONE: break;
  }
  return NULL;
}

bool fuser_ref_supports_op(fuser_op_id id) {
  if (id < 0 || id >= FUSER_OP_COUNT) return false;
  ref_op_fn fn = handler_of(id);
  if (fn == ref_eval_elementwise) return ref_elementwise_knows(id);
  if (fn == ref_eval_view || fn == ref_eval_query) return ref_view_knows(id);
  if (fn == ref_eval_pad || fn == ref_eval_cat) return ref_resize_knows(id);
  if (fn == ref_eval_reduction) return ref_reduction_knows(id);
  if (fn == ref_eval_factory || fn == ref_eval_scalar) return ref_factory_knows(id);
  if (fn == ref_eval_rng) return id == FUSER_OP_uniform || id == FUSER_OP_normal;
  if (fn == ref_eval_matmul) return ref_matmul_knows(id);
  if (fn == ref_eval_index || fn == ref_eval_triangle || fn == ref_eval_check || fn == ref_eval_host || fn == ref_eval_address ||
      fn == ref_eval_launch)
    return true;
  return false;
}

/* ---- SSA values -> tensors (open addressing on the value pointer) -------- */

typedef struct {
  const void *key;
  ref_tensor t;
  bool live;    /* t holds a value (not yet released) */
  int last_use; /* index of the last op of the body that reads it */
} slot;

typedef struct {
  slot *slots;
  size_t cap, used;
} value_map;

static size_t hash_ptr(const void *p, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)(x & (cap - 1));
}

static slot *map_find(value_map *m, const void *key) {
  for (size_t i = hash_ptr(key, m->cap);; i = (i + 1) & (m->cap - 1))
    if (m->slots[i].key == key || !m->slots[i].key) return &m->slots[i];
}

/* The slot of `key`, made (empty) if new; NULL when out of memory. */
static slot *map_slot(value_map *m, const void *key) {
  if (2 * (m->used + 1) > m->cap) {
    value_map bigger = {calloc(m->cap * 2, sizeof(slot)), m->cap * 2, 0};
    if (!bigger.slots) return NULL;
    for (size_t i = 0; i < m->cap; i++)
      if (m->slots[i].key) *map_find(&bigger, m->slots[i].key) = m->slots[i], bigger.used++;
    free(m->slots);
    *m = bigger;
  }
  slot *s = map_find(m, key);
  if (!s->key) {
    m->used++;
    s->key = key;
    s->last_use = -1;
  }
  return s;
}

static bool map_put(value_map *m, MlirValue v, ref_tensor t) {
  slot *s = map_slot(m, v.ptr);
  if (!s) return false;
  if (s->live) ref_release(&s->t);
  s->t = t;
  s->live = true;
  return true;
}

static const ref_tensor *map_get(value_map *m, MlirValue v) {
  slot *s = map_find(m, v.ptr);
  return s->key && s->live ? &s->t : NULL;
}

/* Records that op #index reads v; values die after their last reader. */
static bool map_note_use(value_map *m, MlirValue v, int index) {
  slot *s = map_slot(m, v.ptr);
  if (!s) return false;
  s->last_use = index;
  return true;
}

/* Releases the operands of op #index that no later op reads. */
static void map_release_dead(value_map *m, MlirOperation op, int index) {
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
    slot *s = map_find(m, mlirOperationGetOperand(op, k).ptr);
    if (s->key && s->live && s->last_use == index) {
      ref_release(&s->t);
      s->live = false;
    }
  }
}

static void map_free(value_map *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].key && m->slots[i].live) ref_release(&m->slots[i].t);
  free(m->slots);
}

/* ---- arguments ------------------------------------------------------------- */

static bool bind_argument(ref_ctx *c, MlirValue arg, int i, const fuser_ref_value *v, ref_tensor *out) {
  ref_type want;
  if (!ref_type_of(c, mlirValueGetType(arg), &want)) return false;
  ref_tensor t;
  if (want.is_tensor) {
    if (!v->is_tensor || !v->tensor)
      return ref_fail(c, FUSER_REF_ERR_INPUT, "argument #%d: expected a tensor, got a scalar", i);
    if (!ref_from_dl(c, v->tensor, &t)) {
      snprintf(c->err->message + strlen(c->err->message), sizeof c->err->message - strlen(c->err->message),
               " (argument #%d)", i);
      return false;
    }
    bool ok = false;
    if (t.dtype != want.dtype)
      ref_fail(c, FUSER_REF_ERR_INPUT, "argument #%d: dtype %s, the function expects %s", i,
               fuser_dtype_mlir_name(t.dtype), fuser_dtype_mlir_name(want.dtype));
    else if (t.rank != want.rank)
      ref_fail(c, FUSER_REF_ERR_INPUT, "argument #%d: rank %d, the function expects %d", i, t.rank, want.rank);
    else {
      ok = true;
      for (int d = 0; d < t.rank && ok; d++)
        if (want.sizes[d] >= 0 && t.sizes[d] != want.sizes[d])
          ok = ref_fail(c, FUSER_REF_ERR_INPUT, "argument #%d: dim %d has extent %lld, the function expects %lld", i, d,
                        (long long)t.sizes[d], (long long)want.sizes[d]);
    }
    if (!ok) {
      ref_release(&t);
      return false;
    }
  } else {
    if (v->is_tensor) return ref_fail(c, FUSER_REF_ERR_INPUT, "argument #%d: expected a scalar, got a tensor", i);
    bool want_float = fuser_dtype_is_float(want.dtype), have_float = fuser_dtype_is_float(v->dtype);
    if (v->dtype == FUSER_DTYPE_INVALID || want_float != have_float || (want.dtype == FUSER_DTYPE_I1) != (v->dtype == FUSER_DTYPE_I1))
      return ref_fail(c, FUSER_REF_ERR_INPUT, "argument #%d: a %s scalar, the function expects %s", i,
                      fuser_dtype_mlir_name(v->dtype), fuser_dtype_mlir_name(want.dtype));
    if (!ref_make_scalar(c, ref_storage_dtype(c, want.dtype), v->f, v->i, &t)) return false;
  }
  *out = t;
  return true;
}

/* ---- results ---------------------------------------------------------------- */

/* The allocation order of result #i from its `fuser.stride_order` result
 * attribute (perm[0] outermost); false when there is none. */
static bool result_order(ref_ctx *c, MlirOperation func, int i, int rank, int *perm, bool *have) {
  *have = false;
  MlirAttribute all = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("res_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) || i >= mlirArrayAttrGetNumElements(all)) return true;
  MlirAttribute dict = mlirArrayAttrGetElement(all, i);
  if (!mlirAttributeIsADictionary(dict)) return true;
  MlirAttribute so = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.stride_order"));
  if (mlirAttributeIsNull(so)) return true;
  if (!mlirAttributeIsADenseI64Array(so) || mlirDenseArrayGetNumElements(so) != rank)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "result #%d: fuser.stride_order must be an array<i64> of %d entries", i, rank);
  for (int k = 0; k < rank; k++) perm[k] = -1;
  for (int d = 0; d < rank; d++) {
    int64_t s = mlirDenseI64ArrayGetElement(so, d);
    if (s < 0 || s >= rank || perm[rank - 1 - s] >= 0)
      return ref_fail(c, FUSER_REF_ERR_FUSION, "result #%d: fuser.stride_order is not a permutation", i);
    perm[rank - 1 - s] = d; /* stride rank 0 is the innermost */
  }
  *have = true;
  return true;
}

static bool make_output(ref_ctx *c, MlirOperation func, int i, const ref_tensor *t, MlirType type,
                        fuser_ref_value *out) {
  ref_type rt;
  if (!ref_type_of(c, type, &rt)) return false;
  fuser_dtype dt = ref_storage_dtype(c, rt.dtype);
  memset(out, 0, sizeof *out);
  out->dtype = dt;
  if (!rt.is_tensor) {
    if (fuser_dtype_is_float(dt)) out->f = ref_scalar_f64(t);
    else out->i = ref_scalar_i64(t), out->f = (double)out->i;
    return true;
  }
  int perm[FUSER_MAX_RANK];
  bool have;
  if (!result_order(c, func, i, t->rank, perm, &have)) return false;
  out->is_tensor = true;
  out->tensor = ref_to_dl(c, t, dt, have ? perm : NULL);
  return out->tensor != NULL;
}

/* ---- running ops ------------------------------------------------------------ */

static bool is_named(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* Checks that a handler's result matches the declared type (rank, static
 * extents, stored dtype): a wrong handler fails loudly, not silently. */
static bool check_result(ref_ctx *c, int i, const ref_tensor *t) {
  ref_type rt;
  if (!ref_result_type(c, i, &rt)) return false;
  int rank = rt.is_tensor ? rt.rank : 0;
  if (t->rank != rank)
    return ref_fail(c, FUSER_REF_ERR_SHAPE, "result #%d has rank %d at run time but the type says %d", i, t->rank, rank);
  if (!ref_check_extents(c, &rt, t->sizes)) return false;
  bool dtype_ok = t->dtype == rt.dtype || t->dtype == ref_storage_dtype(c, rt.dtype) ||
                  (fuser_dtype_is_float(t->dtype) && fuser_dtype_is_float(rt.dtype) && c->options.f64);
  if (!dtype_ok)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "result #%d computed as %s but the type says %s", i,
                    fuser_dtype_mlir_name(t->dtype), fuser_dtype_mlir_name(rt.dtype));
  return true;
}

static bool run_body(ref_ctx *c, MlirOperation func, const ref_tensor *args, int nargs, ref_tensor *results,
                     int *nresults, int depth);

/* func.call of a function of the same module (the kernels fuser-segment
 * outlines): its body runs on the operands, its results bind to the call's. */
static bool run_call(ref_ctx *c, value_map *m, MlirOperation op, const ref_tensor *operands, int n, int depth) {
  MlirAttribute callee = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee"));
  MlirOperation module = mlirOperationGetParentOperation(mlirOperationGetParentOperation(op));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee) || mlirOperationIsNull(module))
    return ref_fail(c, FUSER_REF_ERR_FUSION, "func.call without a callee in this module");
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  MlirOperation fn = mlirSymbolTableIsNull(table) ? (MlirOperation){NULL} : mlirSymbolTableLookup(table, name);
  if (!mlirSymbolTableIsNull(table)) mlirSymbolTableDestroy(table);
  if (mlirOperationIsNull(fn) || !is_named(fn, "func.func"))
    return ref_fail(c, FUSER_REF_ERR_FUSION, "func.call of '%.*s', which is not a function of this module",
                    (int)name.length, name.data);
  if (depth >= 16) return ref_fail(c, FUSER_REF_ERR_FUSION, "calls nested more than 16 deep");
  ref_tensor results[16];
  int nres = 0;
  MlirOperation call = op;
  if (!run_body(c, fn, operands, n, results, &nres, depth + 1)) return false;
  c->op = call;
  bool ok = nres == mlirOperationGetNumResults(call);
  if (!ok) ref_fail(c, FUSER_REF_ERR_FUSION, "the callee returns %d values, the call has %d", nres,
                    (int)mlirOperationGetNumResults(call));
  for (int k = 0; k < nres; k++) {
    if (ok && !map_put(m, mlirOperationGetResult(call, k), results[k])) ok = ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
    else if (!ok) ref_release(&results[k]);
  }
  return ok;
}

static bool run_op(ref_ctx *c, value_map *m, MlirOperation op, int depth) {
  c->op = op;
  fuser_op_id id = fuser_op_id_of(op);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool call = is_named(op, "func.call");
  ref_op_fn fn = id == FUSER_OP_NONE ? NULL : handler_of(id);
  if (!fn && !call)
    return ref_fail(c, FUSER_REF_ERR_UNSUPPORTED, "the reference evaluator does not know the op '%.*s'",
                    (int)name.length, name.data);
  /* a launch reads no operand here (its kernel runs through the call) and
   * has more of them than the table below holds */
  if (fn == ref_eval_launch) return fn(c, NULL, 0, NULL);
  int n = (int)mlirOperationGetNumOperands(op), nres = (int)mlirOperationGetNumResults(op);
  if (n > 16 || nres > (call ? 16 : 2) || (nres < 1 && !call && fn != ref_eval_check))
    return ref_fail(c, FUSER_REF_ERR_FUSION, "op has %d operands and %d results", n, nres);
  ref_tensor operands[16], results[2];
  for (int k = 0; k < n; k++) {
    const ref_tensor *t = map_get(m, mlirOperationGetOperand(op, k));
    if (!t) return ref_fail(c, FUSER_REF_ERR_FUSION, "operand #%d is not defined before its use", k);
    operands[k] = *t;
  }
  if (call) return run_call(c, m, op, operands, n, depth);
  memset(results, 0, sizeof results);
  if (!fn(c, operands, n, results)) return false;
  bool ok = true;
  for (int k = 0; k < nres; k++) {
    if (ok) ok = check_result(c, k, &results[k]);
    if (ok && !map_put(m, mlirOperationGetResult(op, k), results[k])) ok = ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
    else if (!ok) ref_release(&results[k]);
  }
  return ok;
}

/* Runs a function's body on already-bound arguments (borrowed) and returns
 * the values of its func.return (new references, at most 16). */
static bool run_body(ref_ctx *c, MlirOperation func, const ref_tensor *args, int nargs, ref_tensor *results,
                     int *nresults, int depth) {
  c->op = func;
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(block)) return ref_fail(c, FUSER_REF_ERR_FUSION, "the function has no body");
  if (mlirBlockGetNumArguments(block) != nargs)
    return ref_fail(c, FUSER_REF_ERR_FUSION, "the function takes %d arguments, %d given", (int)mlirBlockGetNumArguments(block), nargs);
  value_map m = {calloc(64, sizeof(slot)), 64, 0};
  if (!m.slots) return ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  bool ok = true;
  for (int i = 0; ok && i < nargs; i++) {
    ref_tensor t = args[i];
    ref_retain(&t);
    if (!map_put(&m, mlirBlockGetArgument(block, i), t)) {
      ref_release(&t);
      ok = ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
    }
  }
  /* big intermediates are freed after their last reader */
  int index = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), index++)
    for (intptr_t k = 0; ok && k < mlirOperationGetNumOperands(op); k++)
      if (!map_note_use(&m, mlirOperationGetOperand(op, k), index)) ok = ref_fail(c, FUSER_REF_ERR_MEMORY, "out of memory");
  MlirOperation ret = {NULL};
  int total = index - 1; /* the ops before the func.return */
  index = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), index++) {
    if (is_named(op, "func.return")) {
      ret = op;
      break;
    }
    ok = run_op(c, &m, op, depth);
    if (ok) map_release_dead(&m, op, index);
    if (ok && depth == 0 && c->options.progress) c->options.progress(c->options.progress_ctx, index + 1, total);
  }
  if (ok && mlirOperationIsNull(ret)) ok = ref_fail(c, FUSER_REF_ERR_FUSION, "the function has no func.return");
  *nresults = 0;
  if (ok) {
    c->op = ret;
    int nout = (int)mlirOperationGetNumOperands(ret);
    if (nout > 16) ok = ref_fail(c, FUSER_REF_ERR_FUSION, "more than 16 results");
    for (int i = 0; ok && i < nout; i++) {
      const ref_tensor *t = map_get(&m, mlirOperationGetOperand(ret, i));
      if (!t) {
        ok = ref_fail(c, FUSER_REF_ERR_FUSION, "returned value #%d is undefined", i);
        break;
      }
      results[i] = *t;
      ref_retain(&results[i]);
      *nresults = i + 1;
    }
    if (!ok)
      for (int i = 0; i < *nresults; i++) ref_release(&results[i]);
  }
  map_free(&m);
  return ok;
}

/* Results with `fuser.alias_input = K` (fd.add_output(out, alias_input))
 * are written into argument K's storage, as nvFuser updates it in place.
 * Every value is copied out first: a result may read (a view of) an input
 * that another alias overwrites. */
static bool write_aliases(ref_ctx *c, MlirOperation func, ref_tensor *args, const ref_tensor *results, int nres) {
  MlirAttribute res_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("res_attrs"));
  if (mlirAttributeIsNull(res_attrs) || !mlirAttributeIsAArray(res_attrs)) return true;
  int target[16];
  ref_tensor copies[16];
  int n = 0;
  bool ok = true;
  for (int i = 0; ok && i < nres && i < mlirArrayAttrGetNumElements(res_attrs); i++) {
    MlirAttribute d = mlirArrayAttrGetElement(res_attrs, i);
    MlirAttribute a = mlirAttributeIsADictionary(d)
                          ? mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString("fuser.alias_input"))
                          : mlirAttributeGetNull();
    if (mlirAttributeIsNull(a)) continue;
    target[n] = (int)mlirIntegerAttrGetValueInt(a);
    for (int dim = 0; ok && dim < results[i].rank; dim++)
      if (results[i].sizes[dim] != args[target[n]].sizes[dim])
        ok = ref_fail(c, FUSER_REF_ERR_SHAPE, "result #%d (aliased to argument #%d) has extent %lld in dim %d, the argument %lld", i,
                      target[n], (long long)results[i].sizes[dim], dim, (long long)args[target[n]].sizes[dim]);
    if (ok) ok = ref_copy(c, &results[i], results[i].dtype, NULL, &copies[n]);
    if (ok) n++;
  }
  for (int k = 0; ok && k < n; k++) ok = ref_copy_into(c, &args[target[k]], &copies[k]);
  for (int k = 0; k < n; k++) ref_release(&copies[k]);
  return ok;
}

bool fuser_ref_writes_inputs(MlirOperation func) {
  MlirAttribute res_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("res_attrs"));
  for (intptr_t i = 0; !mlirAttributeIsNull(res_attrs) && mlirAttributeIsAArray(res_attrs) && i < mlirArrayAttrGetNumElements(res_attrs);
       i++) {
    MlirAttribute d = mlirArrayAttrGetElement(res_attrs, i);
    if (mlirAttributeIsADictionary(d) &&
        !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString("fuser.alias_input"))))
      return true;
  }
  return false;
}

static bool is_fusion(MlirOperation func) {
  return is_named(func, "func.func") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.fusion")));
}

fuser_ref_status fuser_ref_run(MlirOperation func, const fuser_ref_value *args, int nargs,
                               const fuser_ref_options *options, fuser_ref_outputs *out, fuser_ref_error *err) {
  fuser_ref_error local;
  if (!err) err = &local;
  memset(err, 0, sizeof *err);
  memset(out, 0, sizeof *out);
  ref_ctx c = {.options = options ? *options : (fuser_ref_options){0}, .op = {NULL}, .err = err};
  if (mlirOperationIsNull(func) || !is_fusion(func)) {
    ref_fail(&c, FUSER_REF_ERR_FUSION, "not a fusion (a func.func with the fuser.fusion attribute)");
    return err->status;
  }
  c.op = func;
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(block)) {
    ref_fail(&c, FUSER_REF_ERR_FUSION, "the fusion has no body");
    return err->status;
  }
  int nparams = (int)mlirBlockGetNumArguments(block);
  if (nargs != nparams) {
    ref_fail(&c, FUSER_REF_ERR_INPUT, "the fusion takes %d arguments, %d given", nparams, nargs);
    return err->status;
  }
  ref_tensor *bound = calloc((size_t)(nparams ? nparams : 1), sizeof *bound), results[16];
  bool ok = bound != NULL;
  if (!ok) ref_fail(&c, FUSER_REF_ERR_MEMORY, "out of memory");
  int nbound = 0, nres = 0;
  for (; ok && nbound < nparams; nbound++)
    ok = bind_argument(&c, mlirBlockGetArgument(block, nbound), nbound, &args[nbound], &bound[nbound]);
  if (ok) ok = run_body(&c, func, bound, nparams, results, &nres, 0);
  if (ok) ok = write_aliases(&c, func, bound, results, nres);
  for (int i = 0; i < nbound; i++) ref_release(&bound[i]);
  free(bound);
  if (ok) {
    MlirOperation ret = mlirBlockGetTerminator(block);
    c.op = ret;
    out->values = calloc((size_t)(nres ? nres : 1), sizeof *out->values);
    if (!out->values) ok = ref_fail(&c, FUSER_REF_ERR_MEMORY, "out of memory");
    for (int i = 0; ok && i < nres; i++) {
      ok = make_output(&c, func, i, &results[i], mlirValueGetType(mlirOperationGetOperand(ret, i)), &out->values[i]);
      if (ok) out->count = i + 1;
    }
    for (int i = 0; i < nres; i++) ref_release(&results[i]);
  }
  if (!ok) fuser_ref_outputs_free(out);
  return ok ? FUSER_REF_OK : err->status;
}

void fuser_ref_outputs_free(fuser_ref_outputs *out) {
  if (!out) return;
  for (int i = 0; i < out->count; i++)
    if (out->values[i].is_tensor) fuser_ref_tensor_free(out->values[i].tensor);
  free(out->values);
  out->values = NULL;
  out->count = 0;
}
