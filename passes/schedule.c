/* fuser-schedule: the schedule of every kernel function, as IR (schedule.h).
 *
 * On each `fuser.kernel` function that fuser-vectorize has decided, the first
 * kind of the table that applies chooses the schedule and attaches it:
 *
 *   func.func private @f_k0(...) attributes {fuser.kernel, fuser.vector_width = 8 : i64, ...}
 * becomes
 *   func.func private @f_k0(...) attributes {fuser.kernel, fuser.vector_width = 8 : i64, ...,
 *       fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [
 *         {conditions = [...], flat = true, index_bits = 32 : i64, name = "vector", tail = false,
 *          unroll = 1 : i64, vector_width = 8 : i64}, {... name = "scalar" ...}]}}}
 *
 * Options: unroll (default 0 = chosen per kernel: 1, or 4 when its
 * arithmetic per byte moved makes it compute-bound), scalar-unroll
 * (default 1), block-size (default 128). */
#include "passes/schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/pass.h"

/* The kinds, tried in order: the first that applies schedules the kernel. */
static const fuser_schedule_kind *const kinds[] = {
    &fuser_schedule_inner_persistent,
    &fuser_schedule_inner_reduce,
    &fuser_schedule_outer,
    &fuser_schedule_outer_persistent,
    &fuser_schedule_inner_outer,
    &fuser_schedule_transpose,
    &fuser_schedule_pointwise,
};

static const fuser_schedule_kind *kind_named(MlirStringRef name) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strlen(kinds[i]->kind) == name.length && memcmp(kinds[i]->kind, name.data, name.length) == 0) return kinds[i];
  return NULL;
}

MlirAttribute fuser_schedule_get(MlirAttribute dict, const char *name) {
  return mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString(name));
}

int64_t fuser_schedule_int(MlirAttribute dict, const char *name) {
  return mlirIntegerAttrGetValueInt(fuser_schedule_get(dict, name));
}

bool fuser_schedule_bool(MlirAttribute dict, const char *name) { return mlirBoolAttrGetValue(fuser_schedule_get(dict, name)); }

/* The attribute's one entry {kind = fields}, false when it is not one. */
static bool schedule_entry(MlirOperation func, MlirNamedAttribute *e) {
  MlirAttribute s = mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.schedule"));
  if (mlirAttributeIsNull(s) || !mlirAttributeIsADictionary(s) || mlirDictionaryAttrGetNumElements(s) != 1) return false;
  *e = mlirDictionaryAttrGetElement(s, 0);
  return true;
}

MlirStringRef fuser_schedule_kind_name(MlirOperation func) {
  MlirNamedAttribute e;
  return schedule_entry(func, &e) ? mlirIdentifierStr(e.name) : mlirStringRefCreate("", 0);
}

MlirAttribute fuser_schedule_of(MlirOperation func) {
  MlirLocation loc = mlirOperationGetLocation(func);
  if (mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.schedule")))) {
    mlirEmitError(loc, "kernel has no fuser.schedule: run fuser-vectorize and fuser-schedule first");
    return mlirAttributeGetNull();
  }
  MlirNamedAttribute e;
  if (!schedule_entry(func, &e) || !mlirAttributeIsADictionary(e.attribute)) {
    mlirEmitError(loc, "fuser.schedule must be a dictionary of one entry, the kind's fields under its name: {pointwise = {...}}");
    return mlirAttributeGetNull();
  }
  const fuser_schedule_kind *k = kind_named(mlirIdentifierStr(e.name));
  if (!k) {
    MlirStringRef n = mlirIdentifierStr(e.name);
    char msg[160];
    snprintf(msg, sizeof msg, "fuser.schedule: unknown kind '%.*s'", (int)n.length, n.data);
    mlirEmitError(loc, msg);
    return mlirAttributeGetNull();
  }
  return k->verify(func, e.attribute) ? e.attribute : mlirAttributeGetNull();
}

bool fuser_schedule_kernel(MlirOperation func, const fuser_schedule_options *o) {
  fk_kernel *k = malloc(sizeof *k);
  bool ok = true, read = false;
  const fuser_schedule_kind *kind = NULL;
  for (size_t i = 0; ok && !kind && i < sizeof kinds / sizeof kinds[0]; i++) {
    if (kinds[i]->analyzed && !read) {
      read = true;
      ok = fk_kernel_read(func, k) && fk_kernel_analyze(k);
    }
    if (ok && kinds[i]->applies(kinds[i]->analyzed ? k : NULL, func)) kind = kinds[i];
  }
  if (ok && !kind) {
    mlirEmitError(mlirOperationGetLocation(func), "fuser-schedule: no schedule applies to this kernel");
    ok = false;
  }
  /* the pointwise kind follows fuser-vectorize's plan (the row kinds do not) */
  if (ok && (kind == &fuser_schedule_pointwise || kind == &fuser_schedule_transpose) &&
      mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.vector_width")))) {
    mlirEmitError(mlirOperationGetLocation(func), "fuser-schedule: kernel has no fuser.vector_width: run fuser-vectorize first");
    ok = false;
  }
  if (ok) { /* the kind's fields under its name */
    MlirAttribute fields = kind->choose(kind->analyzed ? k : NULL, func, o);
    ok = !mlirAttributeIsNull(fields);
    MlirContext ctx = mlirOperationGetContext(func);
    MlirNamedAttribute e = {mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(kind->kind)), fields};
    if (ok) mlirOperationSetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.schedule"), mlirDictionaryAttrGet(ctx, 1, &e));
  }
  if (read) fk_kernel_free(k);
  free(k);
  return ok;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  fuser_schedule_options o = {(int)fuser_pass_option_int(options, "unroll"), (int)fuser_pass_option_int(options, "scalar-unroll"),
                              (int)fuser_pass_option_int(options, "block-size")};
  if (o.unroll < 0 || o.scalar_unroll < 1) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "fuser-schedule: unroll must be >= 0 (0: chosen per kernel) and scalar-unroll >= 1");
    return false;
  }
  if (o.block_size < 1 || o.block_size > 1024) {
    mlirEmitError(mlirOperationGetLocation(module), "fuser-schedule: block-size must be in [1, 1024]");
    return false;
  }
  if (!fuser_check_segmented(module, "fuser-schedule")) return false;
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_kernel(op)) ok &= fuser_schedule_kernel(op, &o);
  return ok;
}

const fuser_pass_info fuser_schedule_pass = {
    .argument = "fuser-schedule",
    .description = "Choose and attach the schedule (fuser.schedule) of every kernel function",
    .anchor = "builtin.module",
    .options = {{"unroll", "0", "vectors per thread in the vector variant (0: 1, or 4 for compute-bound kernels)"},
                {"scalar-unroll", "1", "elements per thread in the scalar variant"},
                {"block-size", "128", "threads per block"}},
    .run = run,
};
