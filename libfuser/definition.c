/* definition.c: a fusion built call by call (definition.h), on the
 * frontend's recorder (frontend/record.h) in libfuser's shared MLIR context.
 * Every function that touches MLIR holds the compiler lock (source.h), so
 * definitions recorded on different threads do not race with each other or
 * with compiles. */
#include "libfuser/definition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/error.h"
#include "driver/tensor_io.h"
#include "frontend/nvfuser_import.h"
#include "frontend/record.h"
#include "libfuser/source_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"
#include "reference/reference.h"
#include "support/mlir_print.h"

/* MLIR work under the compiler lock, with the diagnostics captured from
 * here on labelled `name`. */
static void enter(const char *name) {
  fuser_source_lock();
  fuser_source_diag_reset(name);
}

static void leave(void) { fuser_source_unlock(); }

struct fuser_definition {
  MlirContext ctx;
  fuser_record *rec;
  MlirModule module; /* after finish */
  MlirOperation func;
  bool failed;
  char failure[sizeof(((fuser_error *)0)->message)];
  uint64_t hash;
  size_t ninputs, noutputs;
  int *alias;
  char *name;
};

int fuser_definition_create(const char *name, fuser_definition **out, fuser_error *err) {
  if (!out) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "fuser_definition_create: NULL out");
  *out = NULL;
  fuser_definition *d = calloc(1, sizeof *d);
  if (!d) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory");
  d->name = strdup(name && *name ? name : "fusion");
  d->ctx = fuser_compiler_acquire();
  if (mlirContextIsNull(d->ctx)) {
    free(d->name);
    free(d);
    return fuser_set_error(err, FUSER_ERR_COMPILE, "the fuser dialect failed to load (internal error)");
  }
  enter(d->name);
  d->rec = fuser_record_create(d->ctx, d->name);
  leave();
  *out = d;
  if (err) err->code = FUSER_OK, err->message[0] = 0;
  return FUSER_OK;
}

void fuser_definition_destroy(fuser_definition *d) {
  if (!d) return;
  enter(d->name);
  fuser_record_destroy(d->rec);
  if (!mlirModuleIsNull(d->module)) mlirModuleDestroy(d->module);
  leave();
  fuser_compiler_release();
  free(d->alias);
  free(d->name);
  free(d);
}

/* An error that ends the recording: later calls repeat it. */
static int fail(fuser_definition *d, const char *first, const char *fallback, fuser_error *err) {
  d->failed = true;
  snprintf(d->failure, sizeof d->failure, "%s", first && *first ? first : fallback);
  return fuser_set_error(err, FUSER_ERR_COMPILE, "%s", d->failure);
}

static int usable(const fuser_definition *d, bool want_finished, fuser_error *err) {
  if (!d) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL definition");
  if (d->failed)
    return fuser_set_error(err, FUSER_ERR_COMPILE, "the definition failed earlier and cannot be used: %s", d->failure);
  bool finished = !mlirModuleIsNull(d->module);
  if (finished != want_finished)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, finished ? "the definition is finished: no more calls can be recorded"
                                                                     : "the definition is not finished yet");
  return FUSER_OK;
}

int fuser_definition_call(fuser_definition *d, const char *method, const fuser_def_arg *args, size_t nargs,
                          const char *file, int line, int col, int64_t *results, size_t max_results,
                          size_t *nresults, fuser_error *err) {
  size_t ignored;
  if (!nresults) nresults = &ignored;
  *nresults = 0;
  int rc = usable(d, false, err);
  if (rc) return rc;
  if (nargs && !args) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL argument array");
  if (!method) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL method");
  enter(file ? file : d->name);
  bool ok = fuser_record_call(d->rec, method, args, nargs, file, line, col, results, max_results, nresults);
  if (!ok) rc = fail(d, fuser_source_diagnostics(""), "the call did not record", err);
  leave();
  if (ok && err) err->code = FUSER_OK, err->message[0] = 0;
  return rc;
}

static int runtime_type(fuser_dtype dt) {
  return dt == FUSER_DTYPE_INVALID ? 0 : fuser_type_from_dlpack(fuser_ref_dtype_to_dl(dt));
}

int fuser_definition_value(const fuser_definition *d, int64_t id, fuser_def_value_info *out) {
  if (!d || !out || !d->rec) return FUSER_ERR_INVALID_ARGUMENT;
  memset(out, 0, sizeof *out);
  fuser_dtype dt;
  enter(d->name);
  bool ok = fuser_record_value(d->rec, id, &out->kind, &out->name, &out->rank, &dt, out->shape);
  leave();
  if (!ok) return FUSER_ERR_INVALID_ARGUMENT;
  out->dtype = runtime_type(dt);
  return FUSER_OK;
}

const char *fuser_definition_op_name(size_t i) {
  for (int id = 0; id < FUSER_OP_COUNT; id++) {
    fuser_op_kind k = fuser_op_kind_of((fuser_op_id)id);
    if (k == FUSER_KIND_SCALAR || k == FUSER_KIND_NONE || fuser_op_is_plan_level((fuser_op_id)id)) continue;
    if (i-- == 0) return fuser_op_mnemonic((fuser_op_id)id);
  }
  return NULL;
}

/* ---- finishing ---------------------------------------------------------- */

/* FNV-1a over the printed IR, chunk by chunk (nothing is kept). */
static void hash_text(MlirStringRef s, void *ud) {
  uint64_t *h = ud;
  for (size_t i = 0; i < s.length; i++) *h = (*h ^ (unsigned char)s.data[i]) * 0x100000001b3ull;
}

/* The IR without locations, the function's name and its example inputs:
 * the same definition recorded from another script line, file or def
 * name, or imported from its script, hashes the same. Under the lock. */
static uint64_t hash_module(fuser_definition *d) {
  MlirStringRef name_key = mlirStringRefCreateFromCString("sym_name");
  MlirStringRef inputs_key = mlirStringRefCreateFromCString("fuser.inputs");
  MlirAttribute name = mlirOperationGetAttributeByName(d->func, name_key);
  MlirAttribute inputs = mlirOperationGetAttributeByName(d->func, inputs_key);
  mlirOperationSetAttributeByName(d->func, name_key, mlirStringAttrGet(d->ctx, mlirStringRefCreateFromCString("fusion")));
  if (!mlirAttributeIsNull(inputs)) mlirOperationRemoveAttributeByName(d->func, inputs_key);
  uint64_t hash = 0xcbf29ce484222325ull;
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(d->module), flags, hash_text, &hash);
  mlirOpPrintingFlagsDestroy(flags);
  mlirOperationSetAttributeByName(d->func, name_key, name);
  if (!mlirAttributeIsNull(inputs)) mlirOperationSetAttributeByName(d->func, inputs_key, inputs);
  return hash;
}

/* Fills the finished state from d->module (under the lock). */
static void describe(fuser_definition *d) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(d->module)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (fuser_is_fusion_func(op)) d->func = op;
  d->ninputs = (size_t)mlirBlockGetNumArguments(fuser_func_body(d->func));
  d->noutputs = (size_t)mlirOperationGetNumOperands(mlirBlockGetTerminator(fuser_func_body(d->func)));
  d->alias = malloc(sizeof *d->alias * (d->noutputs + 1));
  for (size_t k = 0; k < d->noutputs; k++) d->alias[k] = d->rec ? fuser_record_output_alias(d->rec, k) : -1;
  d->hash = hash_module(d);
}

int fuser_definition_import(const char *text, size_t len, const char *name, fuser_definition **out, fuser_error *err) {
  int rc = fuser_definition_create(name, out, err);
  if (rc) return rc;
  fuser_definition *d = *out;
  enter(d->name);
  fuser_record_destroy(d->rec);
  d->rec = NULL;
  d->module = fuser_import_nvfuser(d->ctx, text ? text : "", text ? len : 0, d->name);
  if (mlirModuleIsNull(d->module)) rc = fail(d, fuser_source_diagnostics(""), "the script did not import", err);
  else describe(d);
  leave();
  if (rc) {
    fuser_definition_destroy(d);
    *out = NULL;
  }
  return rc;
}

int fuser_definition_finish(fuser_definition *d, fuser_error *err) {
  int rc = usable(d, false, err);
  if (rc) return rc;
  enter(d->name);
  MlirModule m = fuser_record_finish(d->rec);
  if (mlirModuleIsNull(m)) {
    rc = fail(d, fuser_source_diagnostics(""), "the definition does not verify", err);
  } else {
    d->module = m;
    describe(d);
  }
  leave();
  if (!rc && err) err->code = FUSER_OK, err->message[0] = 0;
  return rc;
}

int fuser_definition_finished(const fuser_definition *d) { return d && !mlirModuleIsNull(d->module); }
uint64_t fuser_definition_hash(const fuser_definition *d) { return d ? d->hash : 0; }
size_t fuser_definition_num_inputs(const fuser_definition *d) { return d ? d->ninputs : 0; }
size_t fuser_definition_num_outputs(const fuser_definition *d) { return d ? d->noutputs : 0; }
int fuser_definition_output_alias(const fuser_definition *d, size_t k) {
  return d && d->alias && k < d->noutputs ? d->alias[k] : -1;
}

char *fuser_definition_ir(const fuser_definition *d, int with_locations) {
  if (!fuser_definition_finished(d)) return NULL;
  strbuf k = {0};
  enter(d->name);
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (with_locations) mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(d->module), flags, fuser_print_to_strbuf, &k);
  mlirOpPrintingFlagsDestroy(flags);
  leave();
  if (k.failed) {
    sb_free(&k);
    return NULL;
  }
  return k.data ? k.data : strdup("");
}

int fuser_fusion_create_definition(fuser_runtime *rt, const fuser_definition *d, const fuser_fusion_options *options,
                                   fuser_fusion **out, fuser_error *err) {
  int rc = usable(d, true, err);
  if (rc) return rc;
  char *ir = fuser_definition_ir(d, 0);
  if (!ir) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory");
  rc = fuser_fusion_create_module(rt, d->module, ir, d->name, options, out, err);
  free(ir);
  return rc;
}

int fuser_definition_input(const fuser_definition *d, size_t k, fuser_def_value_info *out) {
  if (!fuser_definition_finished(d) || k >= d->ninputs || !out) return FUSER_ERR_INVALID_ARGUMENT;
  memset(out, 0, sizeof *out);
  enter(d->name);
  MlirValue a = mlirBlockGetArgument(fuser_func_body(d->func), (intptr_t)k);
  MlirType t = mlirValueGetType(a);
  out->kind = fuser_value_is_tensor(a) ? 1 : 2;
  out->dtype = runtime_type(fuser_value_dtype(a));
  if (out->kind == 1) {
    out->rank = (int)mlirShapedTypeGetRank(t);
    for (int i = 0; i < out->rank && i < FUSER_TENSOR_MAX_RANK; i++)
      out->shape[i] = mlirShapedTypeIsDynamicDim(t, i) ? -1 : mlirShapedTypeGetDimSize(t, i);
  }
  leave();
  out->name = "";
  return FUSER_OK;
}
