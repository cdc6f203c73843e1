/* A fusion's inputs, made from its `fuser.inputs` attribute (the script's
 * `inputs = [...]` block) with a seeded, counter-based generator.
 *
 * Generator (docs/reference.md; implemented once, in driver/host_inputs.c,
 * which the GPU runner shares):
 *   mix(z)   = SplitMix64's finalizer
 *   key      = mix(seed + G * (arg_index + 1)),  G = 0x9E3779B97F4A7C15
 *   bits(j)  = mix(key + G * (j + 1))             for storage element j
 *   rand     element j = top m bits of bits(j) * 2^-m, m = the dtype's
 *            significand bits (bf16 8, f16 11, f32 24, f64 53): exact, in [0, 1)
 *   randn    Box-Muller in double on the pair p = j / 2:
 *            u1 = (bits(2p) >> 11) * 2^-53, u2 = (bits(2p+1) >> 11) * 2^-53,
 *            r = sqrt(-2 log(1 - u1)), element 2p = r cos(2 pi u2),
 *            element 2p+1 = r sin(2 pi u2); rounded once to the dtype
 *   ones, zeros, empty (= zeros), full, arange: exact (rounded once)
 *   make_tensor, randint: uniform in [low, high) (integers for integer
 *            dtypes and randint), as driver/host_inputs.c states
 * Element j is a function of (seed, arg_index, j) only, so a storage can be
 * generated in any order and the same seed always gives the same values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "driver/checked_math.h"
#include "driver/host_inputs.h"
#include "reference/tensor.h"
#include "support/error.h"

static bool fail(fuser_ref_error *err, fuser_ref_status st, const char *fmt, ...) {
  if (!err) return false;
  err->status = st;
  err->loc = (MlirLocation){NULL};
  va_list ap;
  va_start(ap, fmt);
  fuser_vmessage(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return false;
}

/* The runtime's type of a fuser dtype (the generator lives in
 * driver/host_inputs.c, shared with the GPU runner). */
static int runtime_type(fuser_dtype dt) {
  switch (dt) {
  case FUSER_DTYPE_BF16: return FUSER_TYPE_BF16;
  case FUSER_DTYPE_F16: return FUSER_TYPE_F16;
  case FUSER_DTYPE_F32: return FUSER_TYPE_F32;
  case FUSER_DTYPE_F64: return FUSER_TYPE_F64;
  case FUSER_DTYPE_I1: return FUSER_TYPE_BOOL;
  case FUSER_DTYPE_I32: return FUSER_TYPE_I32;
  case FUSER_DTYPE_I64: return FUSER_TYPE_I64;
  default: return 0;
  }
}

fuser_ref_status fuser_ref_fill_random(const char *factory, fuser_dtype dtype, uint64_t seed, int arg_index,
                                       void *data, int64_t count, fuser_ref_error *err) {
  bool normal = strcmp(factory, "randn") == 0;
  if (!normal && strcmp(factory, "rand") != 0)
    return fail(err, FUSER_REF_ERR_UNSUPPORTED, "'%s' is not a random factory", factory), FUSER_REF_ERR_UNSUPPORTED;
  if (!fuser_dtype_is_float(dtype)) {
    fail(err, FUSER_REF_ERR_INPUTS_ATTR, "torch.%s needs a floating dtype, not %s", factory, fuser_dtype_mlir_name(dtype));
    return FUSER_REF_ERR_INPUTS_ATTR;
  }
  fuser_input_recipe r = {.tensor = true, .dtype = runtime_type(dtype), .numel = count};
  snprintf(r.factory, sizeof r.factory, "%s", factory);
  fuser_error e;
  if (fuser_recipe_fill(&r, seed, arg_index, data, &e) != FUSER_OK)
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "%s", e.message), FUSER_REF_ERR_INPUTS_ATTR;
  return FUSER_REF_OK;
}

/* ---- the fuser.inputs attribute -------------------------------------------- */

static MlirAttribute entry(MlirAttribute dict, const char *name) {
  return mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString(name));
}

static int i64_array(MlirAttribute a, int64_t *out, int cap) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a)) return -1;
  int n = (int)mlirDenseArrayGetNumElements(a);
  if (n > cap) return -1;
  for (int i = 0; i < n; i++) out[i] = mlirDenseI64ArrayGetElement(a, i);
  return n;
}

static bool number(MlirAttribute a, double *out) {
  if (mlirAttributeIsNull(a)) return false;
  if (mlirAttributeIsAFloat(a)) *out = mlirFloatAttrGetValueDouble(a);
  else if (mlirAttributeIsABool(a)) *out = mlirBoolAttrGetValue(a);
  else if (mlirAttributeIsAInteger(a)) *out = (double)mlirIntegerAttrGetValueInt(a);
  else return false;
  return true;
}

static bool scalar_input(MlirAttribute dict, int i, fuser_ref_value *v, fuser_ref_error *err) {
  MlirAttribute a = entry(dict, "value");
  memset(v, 0, sizeof *v);
  if (mlirAttributeIsABool(a)) {
    v->dtype = FUSER_DTYPE_I1;
    v->i = mlirBoolAttrGetValue(a);
  } else if (mlirAttributeIsAInteger(a)) {
    v->dtype = fuser_dtype_of_type(mlirAttributeGetType(a));
    v->i = mlirIntegerAttrGetValueInt(a);
    if (v->dtype == FUSER_DTYPE_I1) v->i = v->i != 0;
  } else if (mlirAttributeIsAFloat(a)) {
    v->dtype = fuser_dtype_of_type(mlirAttributeGetType(a));
    v->f = mlirFloatAttrGetValueDouble(a);
  } else {
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: a scalar needs an integer, float or bool 'value'", i);
  }
  if (v->dtype == FUSER_DTYPE_INVALID)
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: unsupported scalar type", i);
  if (!fuser_dtype_is_float(v->dtype)) v->f = (double)v->i;
  return true;
}

/* Fills the storage of one tensor input as its factory says. */
static bool fill_storage(const char *factory, MlirAttribute dict, fuser_dtype dt, uint64_t seed, int i, void *data,
                         int64_t count, fuser_ref_error *err) {
  if (!strcmp(factory, "randn") || !strcmp(factory, "rand"))
    return fuser_ref_fill_random(factory, dt, seed, i, data, count, err) == FUSER_REF_OK;
  if (!strcmp(factory, "zeros") || !strcmp(factory, "empty")) return true; /* calloc'ed */
  if (!strcmp(factory, "make_tensor") || !strcmp(factory, "randint")) { /* driver/host_inputs.c's generator */
    fuser_input_recipe r = {.tensor = true, .dtype = runtime_type(dt), .numel = count};
    snprintf(r.factory, sizeof r.factory, "%.15s", factory);
    if (!number(entry(dict, "low"), &r.low) || !number(entry(dict, "high"), &r.high))
      return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: %s needs numeric 'low' and 'high'", i, factory);
    fuser_error e;
    if (fuser_recipe_fill(&r, seed, i, data, &e) != FUSER_OK)
      return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: %s", i, e.message);
    return true;
  }
  double value = 1, start = 0, step = 1;
  if (!strcmp(factory, "full") && !number(entry(dict, "fill_value"), &value))
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: full needs a numeric 'fill_value'", i);
  if (!strcmp(factory, "arange")) {
    number(entry(dict, "start"), &start);
    number(entry(dict, "step"), &step);
    for (int64_t j = 0; j < count; j++) ref_put_f64(data, dt, j, start + (double)j * step);
    return true;
  }
  if (strcmp(factory, "ones") && strcmp(factory, "full"))
    return fail(err, FUSER_REF_ERR_UNSUPPORTED, "fuser.inputs[%d]: unknown factory '%s'", i, factory);
  MlirAttribute fv = entry(dict, "fill_value");
  int rt = runtime_type(dt);
  if (!strcmp(factory, "full") && mlirAttributeIsAInteger(fv) && (rt == FUSER_TYPE_I64 || rt == FUSER_TYPE_I32 || rt == FUSER_TYPE_BOOL)) {
    int64_t iv = mlirIntegerAttrGetValueInt(fv); /* exactly: INT64_MAX does not survive a double */
    for (int64_t j = 0; j < count; j++) fuser_host_store_i64(data, rt, j, iv);
    return true;
  }
  for (int64_t j = 0; j < count; j++) ref_put_f64(data, dt, j, value);
  return true;
}

static bool tensor_input(MlirAttribute dict, int i, uint64_t seed, fuser_ref_value *v, void **storage,
                         fuser_ref_error *err) {
  MlirAttribute f = entry(dict, "factory"), d = entry(dict, "dtype");
  if (!mlirAttributeIsAString(f)) return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: 'factory' must be a string", i);
  if (mlirAttributeIsNull(d) || !mlirAttributeIsAType(d))
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: 'dtype' must be a type", i);
  MlirStringRef fs = mlirStringAttrGetValue(f);
  char factory[32];
  snprintf(factory, sizeof factory, "%.*s", (int)fs.length, fs.data);
  fuser_dtype dt = fuser_dtype_of_type(mlirTypeAttrGetValue(d));
  if (dt == FUSER_DTYPE_INVALID) return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: unsupported dtype", i);
  int64_t shape[FUSER_MAX_RANK], sizes[FUSER_MAX_RANK], strides[FUSER_MAX_RANK], offset = 0;
  int ns = i64_array(entry(dict, "shape"), shape, FUSER_MAX_RANK);
  if (ns < 0) return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: 'shape' must be an array<i64> of rank <= %d", i, FUSER_MAX_RANK);
  int nz = i64_array(entry(dict, "sizes"), sizes, FUSER_MAX_RANK);
  int nt = i64_array(entry(dict, "strides"), strides, FUSER_MAX_RANK);
  if (nz < 0 && nt < 0) { /* no view: the storage itself, row-major */
    nz = nt = ns;
    memcpy(sizes, shape, sizeof(int64_t) * (size_t)ns);
    ref_row_major_strides(ns, sizes, strides);
  }
  if (nz < 0 || nz != nt)
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: 'sizes' and 'strides' must be array<i64>s of one length", i);
  MlirAttribute off = entry(dict, "offset");
  if (!mlirAttributeIsNull(off)) {
    if (!mlirAttributeIsAInteger(off)) return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: 'offset' must be an integer", i);
    offset = mlirIntegerAttrGetValueInt(off);
  }
  int64_t count, lo, hi;
  bool empty;
  for (int k = 0; k < ns; k++)
    if (shape[k] < 0) return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: negative extent in 'shape'", i);
  for (int k = 0; k < nz; k++)
    if (sizes[k] < 0) return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: negative extent in 'sizes'", i);
  if (!fuser_numel_i64(shape, ns, &count))
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: 'shape' has more than 2^63 elements", i);
  if (!fuser_view_span(offset, sizes, strides, nz, &lo, &hi, &empty))
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d]: the view's offset, sizes and strides overflow 64 bits", i);
  if (!empty && (lo < 0 || hi >= count))
    return fail(err, FUSER_REF_ERR_INPUTS_ATTR,
                "fuser.inputs[%d]: the view (offset %lld) reaches elements [%lld, %lld] outside the storage of %lld",
                i, (long long)offset, (long long)lo, (long long)hi, (long long)count);
  size_t bytes;
  fuser_error cap_err;
  if (fuser_input_storage_bytes(count, 0, fuser_dtype_size(dt), &bytes, &cap_err) != FUSER_OK)
    return fail(err, FUSER_REF_ERR_MEMORY, "fuser.inputs[%d]: %s", i, cap_err.message);
  *storage = calloc((size_t)(count ? count : 1), fuser_dtype_size(dt));
  if (!*storage) return fail(err, FUSER_REF_ERR_MEMORY, "fuser.inputs[%d]: out of memory", i);
  if (!fill_storage(factory, dict, dt, seed, i, *storage, count, err)) return false;
  memset(v, 0, sizeof *v);
  v->is_tensor = true;
  v->dtype = dt;
  v->tensor = fuser_ref_tensor_view(*storage, dt, nz, sizes, strides, offset);
  if (!v->tensor) return fail(err, FUSER_REF_ERR_MEMORY, "out of memory");
  return true;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

MlirAttribute fuser_ref_default_inputs(MlirOperation func, int64_t dynamic_extent) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(body)) return (MlirAttribute){NULL};
  intptr_t n = mlirBlockGetNumArguments(body);
  MlirAttribute *entries = calloc((size_t)(n ? n : 1), sizeof *entries);
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    bool tensor = mlirTypeIsARankedTensor(t);
    MlirType elem = tensor ? mlirShapedTypeGetElementType(t) : t;
    fuser_dtype dt = fuser_dtype_of_type(elem);
    if (dt == FUSER_DTYPE_INVALID || (tensor && mlirShapedTypeGetRank(t) > FUSER_MAX_RANK)) {
      free(entries);
      return (MlirAttribute){NULL};
    }
    if (!tensor) {
      MlirAttribute one = fuser_dtype_is_float(dt) ? mlirFloatAttrDoubleGet(ctx, elem, 1.0) : mlirIntegerAttrGet(elem, 1);
      MlirNamedAttribute v = named(ctx, "value", one);
      entries[i] = mlirDictionaryAttrGet(ctx, 1, &v);
      continue;
    }
    int64_t shape[FUSER_MAX_RANK];
    int rank = (int)mlirShapedTypeGetRank(t);
    for (int d = 0; d < rank; d++) shape[d] = mlirShapedTypeIsDynamicDim(t, d) ? dynamic_extent : mlirShapedTypeGetDimSize(t, d);
    const char *factory = fuser_dtype_is_float(dt) ? "randn" : dt == FUSER_DTYPE_I1 ? "ones" : "arange";
    MlirNamedAttribute fields[3] = {
        named(ctx, "dtype", mlirTypeAttrGet(elem)),
        named(ctx, "factory", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(factory))),
        named(ctx, "shape", mlirDenseI64ArrayGet(ctx, rank, shape)),
    };
    entries[i] = mlirDictionaryAttrGet(ctx, 3, fields);
  }
  MlirAttribute all = mlirArrayAttrGet(ctx, n, entries);
  free(entries);
  return all;
}

fuser_ref_status fuser_ref_make_inputs(MlirOperation func, uint64_t seed, fuser_ref_inputs *inputs,
                                       fuser_ref_error *err) {
  fuser_ref_error local;
  if (!err) err = &local;
  memset(err, 0, sizeof *err);
  memset(inputs, 0, sizeof *inputs);
  MlirAttribute all = mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.inputs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all)) {
    fail(err, FUSER_REF_ERR_INPUTS_ATTR, "the fusion has no fuser.inputs array attribute");
    err->loc = mlirOperationGetLocation(func);
    return err->status;
  }
  int n = (int)mlirArrayAttrGetNumElements(all);
  inputs->values = calloc((size_t)(n ? n : 1), sizeof *inputs->values);
  inputs->storages = calloc((size_t)(n ? n : 1), sizeof *inputs->storages);
  if (!inputs->values || !inputs->storages) {
    fuser_ref_inputs_free(inputs);
    fail(err, FUSER_REF_ERR_MEMORY, "out of memory");
    return err->status;
  }
  for (int i = 0; i < n; i++) {
    MlirAttribute d = mlirArrayAttrGetElement(all, i);
    bool ok;
    inputs->count = i + 1;
    if (!mlirAttributeIsADictionary(d)) ok = fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d] is not a dictionary", i);
    else if (!mlirAttributeIsNull(entry(d, "factory"))) ok = tensor_input(d, i, seed, &inputs->values[i], &inputs->storages[i], err);
    else if (!mlirAttributeIsNull(entry(d, "value"))) ok = scalar_input(d, i, &inputs->values[i], err);
    else ok = fail(err, FUSER_REF_ERR_INPUTS_ATTR, "fuser.inputs[%d] has neither 'factory' nor 'value'", i);
    if (!ok) { /* at the argument's definition (a script's define_tensor line) */
      MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
      bool has_arg = !mlirBlockIsNull(body) && i < mlirBlockGetNumArguments(body);
      err->loc = has_arg ? mlirValueGetLocation(mlirBlockGetArgument(body, i)) : mlirOperationGetLocation(func);
      fuser_ref_inputs_free(inputs);
      return err->status;
    }
  }
  return FUSER_REF_OK;
}

void fuser_ref_inputs_free(fuser_ref_inputs *inputs) {
  for (int i = 0; i < inputs->count; i++) {
    if (inputs->values && inputs->values[i].is_tensor) fuser_ref_tensor_free(inputs->values[i].tensor);
    if (inputs->storages) free(inputs->storages[i]);
  }
  free(inputs->values);
  free(inputs->storages);
  memset(inputs, 0, sizeof *inputs);
}
