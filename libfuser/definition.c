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
#include "libfuser/source.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"
#include "reference/reference.h"

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
  fuser_compiler_enter(d->name);
  d->rec = fuser_record_create(d->ctx, d->name);
  fuser_compiler_leave();
  *out = d;
  if (err) err->code = FUSER_OK, err->message[0] = 0;
  return FUSER_OK;
}

void fuser_definition_destroy(fuser_definition *d) {
  if (!d) return;
  fuser_compiler_enter(d->name);
  fuser_record_destroy(d->rec);
  if (!mlirModuleIsNull(d->module)) mlirModuleDestroy(d->module);
  fuser_compiler_leave();
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
  fuser_compiler_enter(file ? file : d->name);
  bool ok = fuser_record_call(d->rec, method, args, nargs, file, line, col, results, max_results, nresults);
  if (!ok) rc = fail(d, fuser_compiler_first_error(), "the call did not record", err);
  fuser_compiler_leave();
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
  fuser_compiler_enter(d->name);
  bool ok = fuser_record_value(d->rec, id, &out->kind, &out->name, &out->rank, &dt, out->shape);
  fuser_compiler_leave();
  if (!ok) return FUSER_ERR_INVALID_ARGUMENT;
  out->dtype = runtime_type(dt);
  return FUSER_OK;
}

const char *fuser_definition_op_name(size_t i) {
  for (int id = 0; id < FUSER_OP_COUNT; id++) {
    fuser_op_kind k = fuser_op_kind_of((fuser_op_id)id);
    if (k == FUSER_KIND_SCALAR || k == FUSER_KIND_VIEW || k == FUSER_KIND_QUERY || k == FUSER_KIND_NONE) continue;
    if (i-- == 0) return fuser_op_mnemonic((fuser_op_id)id);
  }
  return NULL;
}

/* ---- finishing ---------------------------------------------------------- */

typedef struct {
  uint64_t hash;
  char *buf;
  size_t len, cap;
  bool failed;
} sink;

static void hash_text(MlirStringRef s, void *ud) {
  sink *k = ud;
  for (size_t i = 0; i < s.length; i++) k->hash = (k->hash ^ (unsigned char)s.data[i]) * 0x100000001b3ull;
}

static void append_text(MlirStringRef s, void *ud) {
  sink *k = ud;
  if (k->failed) return;
  if (k->len + s.length + 1 > k->cap) {
    size_t cap = k->cap ? k->cap : 4096;
    while (cap < k->len + s.length + 1) cap *= 2;
    char *p = realloc(k->buf, cap);
    if (!p) return (void)(k->failed = true);
    k->buf = p, k->cap = cap;
  }
  memcpy(k->buf + k->len, s.data, s.length);
  k->len += s.length;
  k->buf[k->len] = 0;
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
  sink k = {.hash = 0xcbf29ce484222325ull};
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(d->module), flags, hash_text, &k);
  mlirOpPrintingFlagsDestroy(flags);
  mlirOperationSetAttributeByName(d->func, name_key, name);
  if (!mlirAttributeIsNull(inputs)) mlirOperationSetAttributeByName(d->func, inputs_key, inputs);
  return k.hash;
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
  fuser_compiler_enter(d->name);
  fuser_record_destroy(d->rec);
  d->rec = NULL;
  d->module = fuser_import_nvfuser(d->ctx, text ? text : "", text ? len : 0, d->name);
  if (mlirModuleIsNull(d->module)) rc = fail(d, fuser_compiler_first_error(), "the script did not import", err);
  else describe(d);
  fuser_compiler_leave();
  if (rc) {
    fuser_definition_destroy(d);
    *out = NULL;
  }
  return rc;
}

int fuser_definition_finish(fuser_definition *d, fuser_error *err) {
  int rc = usable(d, false, err);
  if (rc) return rc;
  fuser_compiler_enter(d->name);
  MlirModule m = fuser_record_finish(d->rec);
  if (mlirModuleIsNull(m)) {
    rc = fail(d, fuser_compiler_first_error(), "the definition does not verify", err);
  } else {
    d->module = m;
    describe(d);
  }
  fuser_compiler_leave();
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
  sink k = {0};
  fuser_compiler_enter(d->name);
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (with_locations) mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(d->module), flags, append_text, &k);
  mlirOpPrintingFlagsDestroy(flags);
  fuser_compiler_leave();
  if (k.failed) {
    free(k.buf);
    return NULL;
  }
  return k.buf ? k.buf : strdup("");
}

int fuser_fusion_create_definition(fuser_runtime *rt, const fuser_definition *d, const fuser_fusion_options *options,
                                   fuser_fusion **out, fuser_error *err) {
  int rc = usable(d, true, err);
  if (rc) return rc;
  return fuser_fusion_create_module(rt, d->module, d->name, options, out, err);
}

/* ---- the CPU path ------------------------------------------------------- */

static void free_managed(DLManagedTensor *m) {
  fuser_ref_tensor_free(m->manager_ctx);
  free(m);
}

/* Takes ownership of a reference result as a DLManagedTensor. */
static DLManagedTensor *manage(DLTensor *t) {
  DLManagedTensor *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->dl_tensor = *t; /* shape/strides stay in t's block, freed with it */
  m->manager_ctx = t;
  m->deleter = free_managed;
  return m;
}

static int check_cpu_args(const fuser_definition *d, const fuser_arg *args, fuser_ref_value *vals, fuser_error *err) {
  MlirBlock body = fuser_func_body(d->func);
  for (size_t i = 0; i < d->ninputs; i++) {
    MlirValue a = mlirBlockGetArgument(body, (intptr_t)i);
    bool want_tensor = fuser_value_is_tensor(a);
    fuser_dtype dt = fuser_value_dtype(a);
    memset(&vals[i], 0, sizeof vals[i]);
    vals[i].dtype = dt;
    if (want_tensor != (args[i].kind == FUSER_ARG_TENSOR))
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: expected a %s, got a %s", i,
                             want_tensor ? "tensor" : "scalar", want_tensor ? "scalar" : "tensor");
    if (args[i].kind == FUSER_ARG_TENSOR) {
      const DLTensor *t = args[i].tensor;
      if (!t) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "input %zu: NULL tensor", i);
      if (t->device.device_type != kDLCPU)
        return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: a device %d tensor on the CPU path (kDLCPU expected)", i,
                               (int)t->device.device_type);
      vals[i].is_tensor = true;
      vals[i].tensor = (DLTensor *)t;
    } else if (args[i].kind == FUSER_ARG_INT) {
      vals[i].i = args[i].i;
      vals[i].f = (double)args[i].i;
    } else if (args[i].kind == FUSER_ARG_DOUBLE) {
      if (!fuser_dtype_is_float(dt))
        return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: a float for a DataType.%s scalar", i,
                               fuser_dtype_nvfuser_name(dt));
      vals[i].f = args[i].d;
    } else {
      return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "input %zu: unknown argument kind %d", i, args[i].kind);
    }
    if (!want_tensor && args[i].kind == FUSER_ARG_INT && fuser_dtype_is_float(dt)) vals[i].f = (double)args[i].i;
  }
  return FUSER_OK;
}

/* A scalar result as a 0-dim tensor of its dtype. */
static DLTensor *scalar_tensor(const fuser_ref_value *v) {
  DLTensor *t = fuser_ref_tensor_alloc(v->dtype, 0, NULL);
  if (!t) return NULL;
  void *p = t->data;
  switch (v->dtype) {
  case FUSER_DTYPE_F64: *(double *)p = v->f; break;
  case FUSER_DTYPE_F32: *(float *)p = (float)v->f; break;
  case FUSER_DTYPE_BF16: *(uint16_t *)p = fuser_f32_to_bf16((float)v->f); break;
  case FUSER_DTYPE_F16: *(uint16_t *)p = fuser_f32_to_f16((float)v->f); break;
  case FUSER_DTYPE_I64: *(int64_t *)p = v->i; break;
  case FUSER_DTYPE_I32: *(int32_t *)p = (int32_t)v->i; break;
  case FUSER_DTYPE_I1: *(uint8_t *)p = v->i != 0; break;
  default: break;
  }
  return t;
}

int fuser_definition_execute_cpu(fuser_definition *d, const fuser_arg *args, size_t nargs, DLManagedTensor **outputs,
                                 size_t noutputs, fuser_error *err) {
  int rc = usable(d, true, err);
  if (rc) return rc;
  if (nargs != d->ninputs)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu arguments given, the fusion takes %zu", nargs, d->ninputs);
  if (noutputs != d->noutputs || (noutputs && !outputs))
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu outputs asked for, the fusion has %zu", noutputs, d->noutputs);
  if (nargs && !args) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "NULL argument array");
  fuser_ref_value *vals = calloc(nargs + 1, sizeof *vals);
  if (!vals) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory");
  rc = check_cpu_args(d, args, vals, err);
  if (rc) {
    free(vals);
    return rc;
  }
  fuser_ref_outputs res = {0};
  fuser_ref_error rerr = {0};
  fuser_compiler_enter(d->name);
  fuser_ref_status st = fuser_ref_run(d->func, vals, (int)nargs, NULL, &res, &rerr);
  char where[300] = "";
  if (st != FUSER_REF_OK && !mlirLocationIsNull(rerr.loc)) {
    /* the op's location as the diagnostics print it */
    mlirEmitError(rerr.loc, rerr.message);
    snprintf(where, sizeof where, "%s", fuser_compiler_first_error());
  }
  fuser_compiler_leave();
  free(vals);
  if (st != FUSER_REF_OK) {
    int code = st == FUSER_REF_ERR_INPUT || st == FUSER_REF_ERR_SHAPE ? FUSER_ERR_INPUT_MISMATCH
               : st == FUSER_REF_ERR_MEMORY                            ? FUSER_ERR_OUT_OF_MEMORY
                                                                       : FUSER_ERR_COMPILE;
    return fuser_set_error(err, code, "%s", where[0] ? where : rerr.message);
  }
  for (size_t k = 0; k < noutputs; k++) outputs[k] = NULL;
  for (size_t k = 0; k < noutputs && rc == FUSER_OK; k++) {
    fuser_ref_value *v = &res.values[k];
    DLTensor *t = v->is_tensor ? v->tensor : scalar_tensor(v);
    if (v->is_tensor) v->tensor = NULL, v->is_tensor = false; /* now ours */
    outputs[k] = t ? manage(t) : NULL;
    if (!outputs[k]) {
      fuser_ref_tensor_free(t);
      rc = fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory for output %zu", k);
    }
  }
  fuser_ref_outputs_free(&res);
  if (rc) {
    for (size_t k = 0; k < noutputs; k++)
      if (outputs[k]) outputs[k]->deleter(outputs[k]), outputs[k] = NULL;
    return rc;
  }
  if (err) err->code = FUSER_OK, err->message[0] = 0;
  return FUSER_OK;
}
