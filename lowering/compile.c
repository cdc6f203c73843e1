/* The end-to-end compile of one fusion into an artifact (compile.h). */
#include "lowering/compile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/checked_math.h"
#include "driver/host_inputs.h"
#include "lowering/lowering.h"
#include "lowering/plan_artifact.h"
#include "lowering/plan_model_build.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Pass.h"
#include "passes/ir_util.h"
#include "passes/pass.h"
#include "support/error.h"

static MlirOperation first_fusion(MlirOperation module, bool *planned) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_fusion_func(op)) {
      *planned = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.plan")));
      return op;
    }
  return (MlirOperation){NULL};
}

/* ---- input recipes --------------------------------------------------------- */

typedef struct {
  char *buf;
  size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n < t->cap) {
      t->len += (size_t)n;
      return;
    }
    t->cap = (t->cap + (size_t)n) * 2 + 256;
    t->buf = realloc(t->buf, t->cap);
  }
}

static const char *runtime_dtype_name(fuser_dtype dt) { return dt == FUSER_DTYPE_I1 ? "bool" : fuser_dtype_mlir_name(dt); }

static MlirAttribute entry(MlirAttribute dict, const char *name) {
  return mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString(name));
}

static void put_list(text *t, MlirAttribute a) {
  intptr_t n = mlirDenseArrayGetNumElements(a);
  if (n == 0) put(t, "-");
  for (intptr_t i = 0; i < n; i++) put(t, "%s%lld", i ? "," : "", (long long)mlirDenseI64ArrayGetElement(a, i));
}

static bool is_i64_array(MlirAttribute a) { return !mlirAttributeIsNull(a) && mlirAttributeIsADenseI64Array(a); }

static void put_row_major(text *t, MlirAttribute sizes) {
  intptr_t n = mlirDenseArrayGetNumElements(sizes);
  int64_t stride[64], inner = 1;
  if (n == 0 || n > 64) {
    put(t, "-");
    return;
  }
  for (intptr_t i = n - 1; i >= 0; i--) {
    stride[i] = inner;
    /* saturated on overflow: the recipe parser then refuses the view */
    if (!fuser_mul_i64(inner, mlirDenseI64ArrayGetElement(sizes, i), &inner)) inner = INT64_MAX;
  }
  for (intptr_t i = 0; i < n; i++) put(t, "%s%lld", i ? "," : "", (long long)stride[i]);
}

static double number(MlirAttribute a) {
  if (mlirAttributeIsNull(a)) return 0;
  if (mlirAttributeIsAFloat(a)) return mlirFloatAttrGetValueDouble(a);
  if (mlirAttributeIsABool(a)) return mlirBoolAttrGetValue(a);
  if (mlirAttributeIsAInteger(a)) return (double)mlirIntegerAttrGetValueInt(a);
  return 0;
}

/* A number attribute as recipe text: integers exactly (an int64 fill value
 * such as INT64_MAX does not survive a double), floats with 17 digits. */
static void put_number(text *t, MlirAttribute a) {
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)) put(t, "%lld", (long long)mlirIntegerAttrGetValueInt(a));
  else put(t, "%.17g", number(a));
}

char *fuser_input_recipes(MlirOperation fusion, char *err, size_t errlen) {
  MlirAttribute inputs = mlirOperationGetDiscardableAttributeByName(fusion, mlirStringRefCreateFromCString("fuser.inputs"));
  if (mlirAttributeIsNull(inputs) || !mlirAttributeIsAArray(inputs)) {
    fuser_message(err, errlen, "the fusion has no inputs block (fuser.inputs) to make inputs from");
    return NULL;
  }
  text t = {malloc(256), 0, 256};
  t.buf[0] = 0;
  MlirBlock body = fuser_func_body(fusion);
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(inputs); i++) {
    MlirAttribute d = mlirArrayAttrGetElement(inputs, i);
    if (i >= mlirBlockGetNumArguments(body) || !mlirAttributeIsADictionary(d)) {
      fuser_message(err, errlen, "fuser.inputs entry %ld does not describe argument %ld", (long)i, (long)i);
      free(t.buf);
      return NULL;
    }
    MlirType at = mlirValueGetType(mlirBlockGetArgument(body, i));
    MlirAttribute factory = entry(d, "factory");
    if (mlirAttributeIsNull(factory)) { /* a scalar */
      MlirAttribute v = entry(d, "value");
      put(&t, "scalar %s ", runtime_dtype_name(fuser_dtype_of_type(at)));
      put_number(&t, v);
      put(&t, "\n");
      continue;
    }
    MlirAttribute shape = entry(d, "shape"), dtype = entry(d, "dtype");
    if (!mlirAttributeIsAString(factory) || !is_i64_array(shape) || mlirAttributeIsNull(dtype) ||
        !mlirAttributeIsAType(dtype)) {
      fuser_message(err, errlen, "fuser.inputs entry %ld needs a factory (string), a shape (array<i64>) and a dtype", (long)i);
      free(t.buf);
      return NULL;
    }
    MlirStringRef f = mlirStringAttrGetValue(factory);
    fuser_dtype dt = fuser_dtype_of_type(mlirTypeAttrGetValue(dtype));
    int64_t numel = 1;
    for (intptr_t k = 0; k < mlirDenseArrayGetNumElements(shape); k++) {
      int64_t e = mlirDenseI64ArrayGetElement(shape, k);
      if (e < 0 || !fuser_mul_i64(numel, e, &numel)) {
        fuser_message(err, errlen, "fuser.inputs entry %ld: shape %s (more than 2^63 elements)", (long)i,
             e < 0 ? "has a negative extent" : "overflows 64 bits");
        free(t.buf);
        return NULL;
      }
    }
    put(&t, "tensor %.*s %s numel %lld sizes ", (int)f.length, f.data, runtime_dtype_name(dt), (long long)numel);
    /* sizes and strides default to the factory's shape, row-major (what the
     * reference evaluator assumes for a hand-written fuser.inputs) */
    MlirAttribute sizes = entry(d, "sizes"), strides = entry(d, "strides");
    if (!is_i64_array(sizes)) sizes = shape;
    put_list(&t, sizes);
    put(&t, " strides ");
    if (is_i64_array(strides)) put_list(&t, strides);
    else put_row_major(&t, sizes);
    put(&t, " offset ");
    put_number(&t, mlirAttributeIsNull(entry(d, "offset")) ? mlirIntegerAttrGet(mlirIntegerTypeGet(mlirAttributeGetContext(d), 64), 0)
                                                            : entry(d, "offset"));
    if (!mlirAttributeIsNull(entry(d, "fill_value"))) {
      put(&t, " value ");
      put_number(&t, entry(d, "fill_value"));
    }
    if (!mlirAttributeIsNull(entry(d, "start")))
      put(&t, " arange %.17g %.17g %.17g", number(entry(d, "start")), number(entry(d, "end")), number(entry(d, "step")));
    if (!mlirAttributeIsNull(entry(d, "low")))
      put(&t, " range %.17g %.17g", number(entry(d, "low")), number(entry(d, "high")));
    put(&t, "\n");
  }
  /* the runtime's own reading of the recipes (one rule: views inside their
   * storage, no overflow) so that a bad fuser.inputs fails here, not at run time */
  fuser_input_recipe *parsed = malloc(sizeof *parsed * (size_t)(mlirArrayAttrGetNumElements(inputs) + 1));
  fuser_error perr = {0};
  bool allocated = parsed != NULL;
  int n = allocated ? fuser_recipes_parse(t.buf, parsed, (int)mlirArrayAttrGetNumElements(inputs) + 1, &perr) : -1;
  free(parsed);
  if (n < 0) {
    fuser_message(err, errlen, "fuser.inputs: %s", allocated ? perr.message : "out of memory");
    free(t.buf);
    return NULL;
  }
  return t.buf;
}

/* ---- the compile ------------------------------------------------------------ */

int fuser_compile_module(MlirOperation module, const fuser_compile_options *options, const fuser_metadata *extra,
                         struct fuser_artifact **out, char *err, size_t errlen) {
  fuser_compile_options o = {"sm_90", 0, 128}; /* unroll 0: chosen per kernel */
  if (options) {
    if (options->chip) o.chip = options->chip;
    if (options->unroll > 0) o.unroll = options->unroll;
    if (options->block_size > 0) o.block_size = options->block_size;
  }
  bool planned = false;
  MlirOperation fusion = first_fusion(module, &planned);
  if (mlirOperationIsNull(fusion)) return fuser_message(err, errlen, "no fusion (func.func with fuser.fusion) in the module"), 1;
  char recipe_err[256];
  /* optional, but a fuser.inputs that is there must make sense (U1: a
   * wrapped element count used to give an artifact without inputs) */
  char *recipes = fuser_input_recipes(fusion, recipe_err, sizeof recipe_err);
  MlirStringRef inputs_key = mlirStringRefCreateFromCString("fuser.inputs");
  if (!recipes && !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(fusion, inputs_key)))
  { /* located like the other diagnostics of the fusion */
    mlirEmitError(mlirOperationGetLocation(fusion), recipe_err);
    return fuser_message(err, errlen, "the fusion's fuser.inputs is invalid (the error above)"), 1;
  }
  if (fuser_verify(module) != 0) return free(recipes), fuser_message(err, errlen, "the fusion does not verify"), 1;
  if (!planned && !fuser_run_pipeline(module, FUSER_PLAN_PIPELINE, err, errlen))
    return free(recipes), 1;
  fuser_plan_model m;
  if (!fuser_plan_model_build(module, &m, err, errlen)) return fuser_plan_model_free(&m), free(recipes), 1;
  char pipeline[2048];
  fuser_plan_to_ptx_pipeline_with(o.chip, o.unroll, o.block_size, pipeline, sizeof pipeline);
  int rc = 1;
  if (fuser_run_pipeline(module, pipeline, err, errlen) && fuser_plan_model_add_launches(&m, module, err, errlen)) {
    const char *keys[FUSER_COMPILE_MAX_METADATA + 1];
    const void *blobs[FUSER_COMPILE_MAX_METADATA + 1];
    size_t sizes[FUSER_COMPILE_MAX_METADATA + 1];
    int n = 0;
    if (recipes) keys[n] = "inputs", blobs[n] = recipes, sizes[n++] = strlen(recipes);
    for (int i = 0; extra && i < extra->count && i < FUSER_COMPILE_MAX_METADATA; i++)
      keys[n] = extra->keys[i], blobs[n] = extra->blobs[i], sizes[n++] = extra->sizes[i];
    rc = fuser_plan_to_artifact(&m, n, keys, blobs, sizes, out, err, errlen) ? 1 : 0;
  }
  fuser_plan_model_free(&m);
  free(recipes);
  return rc;
}
