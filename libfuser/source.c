/* source.c: importing a fusion once and compiling entries of it
 * (source.h).
 *
 * One MLIR context serves every fusion of the process: a context costs
 * 12-25 ms and much memory to create (every dialect, pass and translation
 * registered), and a framework may hold hundreds of fusions. It is created
 * with the first fusion and destroyed with the last. All MLIR work (import,
 * clone, compile, destroy) runs under one lock, so compiles are serialised
 * process-wide; cache hits never touch MLIR or this lock.
 *
 * Diagnostics are captured, not printed: the handler keeps every error
 * (with its notes) as `name:line:col: error: message`, one per line, for
 * fuser_error. */
#include "driver/error.h"
#include "libfuser/source.h"
#include "libfuser/source_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/expr.h"
#include "driver/tensor_io.h"
#include "frontend/nvfuser_import.h"
#include "lowering/compile.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"
#include "support/mlir_print.h"
#include "tools/common/mlir_reader.h"

static pthread_mutex_t compiler_lock = PTHREAD_MUTEX_INITIALIZER;

void fuser_source_lock(void) { pthread_mutex_lock(&compiler_lock); }
void fuser_source_unlock(void) { pthread_mutex_unlock(&compiler_lock); }
static MlirContext shared_ctx;
static int shared_refs;

/* The innermost file:line:col of a location (through name locations). */
bool fuser_source_file_loc(MlirLocation loc, MlirStringRef *file, int *line, int *col) {
  for (int depth = 0; depth < 8; depth++) {
    if (mlirLocationIsAFileLineColRange(loc)) {
      *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
      *line = mlirLocationFileLineColRangeGetStartLine(loc);
      *col = mlirLocationFileLineColRangeGetStartColumn(loc);
      return true;
    }
    if (!mlirLocationIsAName(loc)) return false;
    loc = mlirLocationNameGetChildLoc(loc);
  }
  return false;
}

/* The diagnostics of the current compiler call (under compiler_lock):
 * every error and note, located, one per line, as fuser_error carries
 * them; those that do not fit are counted. */
static struct {
  const char *name; /* shown instead of the parser's "-" buffer name */
  char text[FUSER_ERROR_MESSAGE_SIZE - 64];
  size_t len;
  int errors, dropped;
} diag;

/* Appends one "loc: severity: message" line for d and its notes. */
static void diag_add(MlirDiagnostic d) {
  MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(d);
  if (sev != MlirDiagnosticError && sev != MlirDiagnosticNote) return;
  char message[1024], line[1400];
  fixed_text t = fixed_text_on(message, sizeof message);
  mlirDiagnosticPrint(d, fuser_print_to_fixed, &t);
  const char *what = sev == MlirDiagnosticError ? "error" : "note";
  MlirStringRef file;
  int l, col;
  if (fuser_source_file_loc(mlirDiagnosticGetLocation(d), &file, &l, &col)) {
    bool stdin_name = file.length == 1 && file.data[0] == '-';
    snprintf(line, sizeof line, "%.*s:%d:%d: %s: %s", stdin_name ? (int)strlen(diag.name) : (int)file.length,
             stdin_name ? diag.name : file.data, l, col, what, message);
  } else {
    snprintf(line, sizeof line, "%s: %s: %s", diag.name, what, message);
  }
  size_t n = strlen(line);
  if (diag.dropped || diag.len + n + 2 > sizeof diag.text) {
    diag.dropped++;
  } else {
    if (diag.len) diag.text[diag.len++] = '\n';
    memcpy(diag.text + diag.len, line, n + 1);
    diag.len += n;
  }
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++) diag_add(mlirDiagnosticGetNote(d, i));
}

static MlirLogicalResult on_diagnostic(MlirDiagnostic d, void *ud) {
  if (mlirDiagnosticGetSeverity(d) != MlirDiagnosticError) return mlirLogicalResultSuccess();
  diag.errors++;
  diag_add(d);
  return mlirLogicalResultSuccess();
}

/* Every diagnostic so far, or `fallback` when there is none. */
const char *fuser_source_diagnostics(const char *fallback) {
  static char out[FUSER_ERROR_MESSAGE_SIZE];
  if (!diag.len) return fallback;
  if (!diag.dropped) return diag.text;
  snprintf(out, sizeof out, "%s\n... (%d more diagnostics)", diag.text, diag.dropped);
  return out;
}

void fuser_source_diag_reset(const char *name) {
  diag.name = name;
  diag.text[0] = 0;
  diag.len = 0;
  diag.errors = diag.dropped = 0;
}

/* Takes a reference to the shared context, creating it (under the lock). */
static bool context_acquire(void) {
  if (shared_refs++ > 0) return true;
  shared_ctx = fuser_context_create();
  if (mlirContextIsNull(shared_ctx)) {
    shared_refs = 0;
    return false;
  }
  mlirContextAttachDiagnosticHandler(shared_ctx, on_diagnostic, NULL, NULL);
  return true;
}

static void context_release(void) {
  if (--shared_refs == 0) {
    mlirContextDestroy(shared_ctx);
    shared_ctx = (MlirContext){NULL};
  }
}

static int scalar_kind(MlirType t) {
  fuser_dtype dt = fuser_dtype_of_type(t);
  return dt == FUSER_DTYPE_F32 || dt == FUSER_DTYPE_F64 || dt == FUSER_DTYPE_BF16 || dt == FUSER_DTYPE_F16
             ? FUSER_ARG_DOUBLE
             : FUSER_ARG_INT;
}

/* Finds the module's one fusion and records its arguments. */
static int describe(fuser_source *s, const char *name, fuser_error *err) {
  MlirBlock body = mlirModuleGetBody(s->module);
  int nfusions = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_fusion_func(op)) {
      if (!nfusions++) s->func = op;
    }
  if (nfusions != 1)
    return fuser_set_error(err, FUSER_ERR_COMPILE, "%s: error: %s fusion (func.func with fuser.fusion) in the module, expected one",
                     name, nfusions ? "more than one" : "no");
  MlirBlock fbody = fuser_func_body(s->func);
  s->nargs = (size_t)mlirBlockGetNumArguments(fbody);
  s->nresults = (size_t)mlirOperationGetNumOperands(mlirBlockGetTerminator(fbody));
  if (s->nargs > FUSER_SIG_MAX_ARGS)
    return fuser_set_error(err, FUSER_ERR_COMPILE, "%s: error: the fusion takes %zu arguments, libfuser handles at most %d", name,
                     s->nargs, FUSER_SIG_MAX_ARGS);
  for (size_t i = 0; i < s->nargs; i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(fbody, (intptr_t)i));
    s->arg_kind[i] = mlirTypeIsARankedTensor(t) ? FUSER_ARG_TENSOR : scalar_kind(t);
  }
  char ignored[128]; /* no inputs block is not an error: MLIR modules rarely have one */
  s->recipes = fuser_input_recipes(s->func, ignored, sizeof ignored);
  return FUSER_OK;
}

int fuser_source_import(fuser_source *s, int kind, const char *text, size_t len, const char *name, fuser_error *err) {
  memset(s, 0, sizeof *s);
  if (kind != FUSER_SOURCE_NVFUSER && kind != FUSER_SOURCE_MLIR)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "unknown source kind %d (FUSER_SOURCE_NVFUSER or FUSER_SOURCE_MLIR)", kind);
  pthread_mutex_lock(&compiler_lock);
  if (!context_acquire()) {
    pthread_mutex_unlock(&compiler_lock);
    return fuser_set_error(err, FUSER_ERR_COMPILE, "the fuser dialect failed to load (internal error)");
  }
  fuser_source_diag_reset(name);
  s->module = kind == FUSER_SOURCE_NVFUSER ? fuser_import_nvfuser(shared_ctx, text, len, name)
                                           : fuser_parse_mlir(shared_ctx, text, len); /* screened */
  int rc = FUSER_OK;
  if (mlirModuleIsNull(s->module)) {
    rc = fuser_set_error(err, FUSER_ERR_COMPILE, "%s", fuser_source_diagnostics("the fusion did not import"));
  } else if (fuser_verify(mlirModuleGetOperation(s->module)) != 0) {
    rc = fuser_set_error(err, FUSER_ERR_COMPILE, "%s", fuser_source_diagnostics("the fusion does not verify"));
  } else {
    rc = describe(s, name, err);
  }
  if (rc != FUSER_OK) {
    if (!mlirModuleIsNull(s->module)) mlirModuleDestroy(s->module);
    s->module = (MlirModule){NULL};
    context_release();
  }
  pthread_mutex_unlock(&compiler_lock);
  return rc;
}

int fuser_source_adopt(fuser_source *s, MlirModule module, const char *name, fuser_error *err) {
  memset(s, 0, sizeof *s);
  pthread_mutex_lock(&compiler_lock);
  if (!context_acquire()) {
    pthread_mutex_unlock(&compiler_lock);
    return fuser_set_error(err, FUSER_ERR_COMPILE, "the fuser dialect failed to load (internal error)");
  }
  fuser_source_diag_reset(name);
  int rc = FUSER_OK;
  if (mlirContextIsNull(shared_ctx) || !mlirContextEqual(mlirOperationGetContext(mlirModuleGetOperation(module)), shared_ctx)) {
    rc = fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%s: the module is not in libfuser's context", name);
  } else {
    s->module = mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(module)));
    rc = describe(s, name, err);
  }
  if (rc != FUSER_OK) {
    if (!mlirModuleIsNull(s->module)) mlirModuleDestroy(s->module);
    s->module = (MlirModule){NULL};
    context_release();
  }
  pthread_mutex_unlock(&compiler_lock);
  return rc;
}

MlirContext fuser_compiler_acquire(void) {
  pthread_mutex_lock(&compiler_lock);
  MlirContext ctx = context_acquire() ? shared_ctx : (MlirContext){NULL};
  pthread_mutex_unlock(&compiler_lock);
  return ctx;
}

void fuser_compiler_release(void) {
  pthread_mutex_lock(&compiler_lock);
  context_release();
  pthread_mutex_unlock(&compiler_lock);
}

void fuser_source_free(fuser_source *s) {
  free(s->recipes);
  s->recipes = NULL;
  if (mlirModuleIsNull(s->module)) return;
  pthread_mutex_lock(&compiler_lock);
  mlirModuleDestroy(s->module);
  s->module = (MlirModule){NULL};
  context_release();
  pthread_mutex_unlock(&compiler_lock);
}

/* ---- one entry ---------------------------------------------------------- */

static fuser_dtype dialect_dtype(int runtime_type) {
  switch (runtime_type) {
  case FUSER_TYPE_BOOL: return FUSER_DTYPE_I1;
  case FUSER_TYPE_I32: return FUSER_DTYPE_I32;
  case FUSER_TYPE_I64: return FUSER_DTYPE_I64;
  case FUSER_TYPE_F16: return FUSER_DTYPE_F16;
  case FUSER_TYPE_BF16: return FUSER_DTYPE_BF16;
  case FUSER_TYPE_F32: return FUSER_DTYPE_F32;
  case FUSER_TYPE_F64: return FUSER_DTYPE_F64;
  default: return FUSER_DTYPE_INVALID;
  }
}

/* Checks the call's arguments against the fusion as defined (what no
 * specialisation can change: kinds, ranks, static extents, supported
 * dtypes) and computes each tensor's layout and the type it gets. */
static int check_args(const fuser_source *s, const fuser_arg *args, const fuser_fusion_options *o, fuser_layout *layouts,
                      MlirType *types, bool *retyped, fuser_error *err) {
  MlirBlock body = fuser_func_body(s->func);
  for (size_t i = 0; i < s->nargs; i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, (intptr_t)i));
    types[i] = t;
    retyped[i] = false;
    bool want_tensor = s->arg_kind[i] == FUSER_ARG_TENSOR, is_tensor = args[i].kind == FUSER_ARG_TENSOR;
    if (want_tensor != is_tensor)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: expected a %s, got a %s", i, want_tensor ? "tensor" : "scalar",
                       is_tensor ? "tensor" : "scalar");
    if (!is_tensor) continue;
    const DLTensor *dl = args[i].tensor;
    int rank = (int)mlirShapedTypeGetRank(t);
    if (dl->ndim != rank)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: rank %d, the fusion defines rank %d", i, dl->ndim, rank);
    fuser_error lerr;
    if (fuser_tensor_layout(dl, &layouts[i], &lerr) != FUSER_OK)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: %.480s", i, lerr.message);
    int rt_type = fuser_type_from_dlpack(dl->dtype);
    fuser_dtype want = fuser_dtype_of_type(mlirShapedTypeGetElementType(t)), got = dialect_dtype(rt_type);
    if (got == FUSER_DTYPE_INVALID || dl->dtype.lanes != 1)
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: dtype (code %u, %u bits, %u lanes) is not one the compiler supports "
                       "(bool i32 i64 f16 bf16 f32 f64)", i, dl->dtype.code, dl->dtype.bits, dl->dtype.lanes);
    int64_t shape[FUSER_MAX_RANK];
    for (int d = 0; d < rank; d++) {
      int64_t defined = mlirShapedTypeGetDimSize(t, d);
      /* `?` extents: the call's with specialize_sizes; else only empty ones
       * are pinned (the signature says which), as nvFuser concretizes them */
      bool pin = o->specialize_sizes || dl->shape[d] == 0;
      shape[d] = mlirShapedTypeIsDynamicDim(t, d) && pin ? dl->shape[d] : defined;
      if (!mlirShapedTypeIsDynamicDim(t, d) && defined != dl->shape[d])
        return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: size %lld of dim %d, the fusion defines it as %lld", i,
                         (long long)dl->shape[d], d, (long long)defined);
    }
    bool pinned = false;
    for (int d = 0; d < rank; d++) pinned |= shape[d] != mlirShapedTypeGetDimSize(t, d);
    if (got != want || pinned) {
      MlirType elt = fuser_dtype_to_type(mlirTypeGetContext(t), got);
      types[i] = mlirRankedTensorTypeGet(rank, shape, elt, mlirRankedTensorTypeGetEncoding(t));
      retyped[i] = !mlirTypeEqual(types[i], t);
    }
  }
  return FUSER_OK;
}

/* Gives the clone's arguments their new types and re-infers every result
 * type from them (what fuser-specialize-shapes does for the example
 * inputs' extents, here for the call's dtypes and extents). */
static bool retype(MlirOperation func, const MlirType *types, size_t nargs, char *err, size_t errlen) {
  MlirBlock body = fuser_func_body(func);
  for (size_t i = 0; i < nargs; i++) mlirValueSetType(mlirBlockGetArgument(body, (intptr_t)i), types[i]);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!fuser_reinfer_op(op, err, errlen)) return false;
  MlirOperation ret = mlirBlockGetTerminator(body);
  intptr_t nres = mlirOperationGetNumOperands(ret);
  MlirType res[FUSER_SIG_MAX_ARGS];
  if (nres > FUSER_SIG_MAX_ARGS) return snprintf(err, errlen, "more than %d results", FUSER_SIG_MAX_ARGS), false;
  for (intptr_t r = 0; r < nres; r++) res[r] = mlirValueGetType(mlirOperationGetOperand(ret, r));
  MlirType fty = mlirFunctionTypeGet(mlirOperationGetContext(func), (intptr_t)nargs, types, nres, res);
  mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("function_type"), mlirTypeAttrGet(fty));
  return true;
}

MlirOperation fuser_source_fusion_of(MlirOperation clone) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (fuser_is_fusion_func(op)) return op;
  return (MlirOperation){NULL};
}

/* A clone of the module whose fusion is specialised to the call: each
 * tensor argument gets the call's layout, and its dtype (and with
 * specialize_sizes its extents) when they differ. Under compiler_lock. */
int fuser_source_specialise(fuser_source *s, const fuser_fusion_options *o, const fuser_arg *args, MlirOperation *out,
                             fuser_error *err) {
  fuser_layout layouts[FUSER_SIG_MAX_ARGS];
  MlirType types[FUSER_SIG_MAX_ARGS];
  bool retyped[FUSER_SIG_MAX_ARGS], any_retyped = false;
  int rc = check_args(s, args, o, layouts, types, retyped, err);
  if (rc) return rc;
  MlirOperation clone = mlirOperationClone(mlirModuleGetOperation(s->module));
  MlirOperation func = fuser_source_fusion_of(clone);
  MlirContext ctx = mlirOperationGetContext(clone);
  /* The compile is for this call's inputs, not the script's example inputs:
   * without `fuser.inputs` the plan pipeline's fuser-specialize-shapes pins
   * nothing (the empty extents were pinned above from the call); the
   * example inputs still travel as the artifact's "inputs" metadata. */
  mlirOperationRemoveDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.inputs"));
  for (size_t i = 0; i < s->nargs; i++) {
    any_retyped |= retyped[i];
    if (args[i].kind != FUSER_ARG_TENSOR) continue;
    const fuser_layout *l = &layouts[i];
    fuser_func_set_arg_attr(func, (int)i, "fuser.contiguity", fuser_i64_array_attr(ctx, l->contiguity, l->rank));
    fuser_func_set_arg_attr(func, (int)i, "fuser.stride_order", fuser_i64_array_attr(ctx, l->stride_order, l->rank));
  }
  char msg[400];
  if (any_retyped && !retype(func, types, s->nargs, msg, sizeof msg)) {
    mlirOperationDestroy(clone);
    return fuser_set_error(err, FUSER_ERR_COMPILE, "specialising to the inputs' dtypes%s: %s",
                           o->specialize_sizes ? " and sizes" : "", msg);
  }
  *out = clone;
  return FUSER_OK;
}

static int compile_locked(fuser_source *s, const fuser_fusion_options *o, const fuser_arg *args, const void *key,
                          size_t key_len, fuser_artifact **out, fuser_error *err) {
  MlirOperation clone;
  int rc = fuser_source_specialise(s, o, args, &clone, err);
  if (rc) return rc;
  fuser_metadata meta = {0};
  if (s->recipes) meta.keys[meta.count] = "inputs", meta.blobs[meta.count] = s->recipes, meta.sizes[meta.count++] = strlen(s->recipes);
  if (key) meta.keys[meta.count] = "libfuser.key", meta.blobs[meta.count] = key, meta.sizes[meta.count++] = key_len;
  char msg[400];
  msg[0] = 0;
  fuser_compile_options co = {o->chip, o->unroll, o->block_size};
  if (fuser_compile_module(clone, &co, &meta, out, msg, sizeof msg) != 0)
    rc = fuser_set_error(err, FUSER_ERR_COMPILE, "compile failed: %s%s%s", msg, diag.len ? "\n" : "", fuser_source_diagnostics(""));
  mlirOperationDestroy(clone);
  return rc;
}

int fuser_source_compile(fuser_source *s, const fuser_fusion_options *options, const fuser_arg *args, size_t nargs,
                         const void *meta, size_t meta_len, fuser_artifact **out, fuser_error *err) {
  if (nargs != s->nargs)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu arguments given, the fusion takes %zu", nargs, s->nargs);
  pthread_mutex_lock(&compiler_lock);
  fuser_source_diag_reset("<fusion>");
  int rc = compile_locked(s, options, args, meta, meta_len, out, err);
  pthread_mutex_unlock(&compiler_lock);
  return rc;
}
