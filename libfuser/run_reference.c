/* run_reference.c: an entry's CPU reference run (source.h): the fusion
 * specialised to the signature (source.c) and run by the reference
 * evaluator (reference/reference.h), the oracle the kernels are checked
 * against; results copied into host outputs. Serialised with the compiler:
 * the evaluator reads IR of the shared context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/error.h"
#include "driver/expr.h"
#include "libfuser/source.h"
#include "libfuser/source_internal.h"
#include "mlir-c/BuiltinTypes.h"
#include "passes/ir_util.h"
#include "reference/reference.h"

struct fuser_source_ref {
  MlirOperation module; /* a clone retyped for the signature (or the same types) */
  MlirOperation func;
};

int fuser_source_ref_prepare(fuser_source *s, const fuser_fusion_options *options, const fuser_arg *args, size_t nargs,
                             fuser_source_ref **out, fuser_error *err) {
  *out = NULL;
  if (nargs != s->nargs)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu arguments given, the fusion takes %zu", nargs, s->nargs);
  fuser_source_ref *r = calloc(1, sizeof *r);
  if (!r) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory");
  fuser_source_lock();
  fuser_source_diag_reset("<fusion>");
  int rc = fuser_source_specialise(s, options, args, &r->module, err);
  if (rc == FUSER_OK) r->func = fuser_source_fusion_of(r->module);
  fuser_source_unlock();
  if (rc != FUSER_OK) {
    free(r);
    return rc;
  }
  *out = r;
  return FUSER_OK;
}

void fuser_source_ref_free(fuser_source_ref *r) {
  if (!r) return;
  fuser_source_lock();
  mlirOperationDestroy(r->module);
  fuser_source_unlock();
  free(r);
}

/* Moves a reference result into a fuser_output: a host buffer of our own
 * (malloc, so that fuser_output_release and DLPack deleters free() it). */
static int take_result(const fuser_ref_value *v, fuser_output *o, fuser_error *err) {
  memset(o, 0, sizeof *o);
  o->alias_of = -1;
  const DLTensor *t = v->tensor;
  if (!v->is_tensor || !t) return fuser_set_error(err, FUSER_ERR_UNSUPPORTED, "a scalar fusion output on the CPU");
  o->tensor = *t;
  o->tensor.shape = o->shape;
  o->tensor.strides = o->strides;
  o->tensor.byte_offset = 0;
  o->tensor.device = (DLDevice){kDLCPU, 0};
  int64_t span = 1; /* elements from the first to one past the last */
  bool empty = false;
  for (int d = 0; d < t->ndim; d++) {
    o->shape[d] = t->shape[d];
    o->strides[d] = fuser_dl_stride(t, d);
    empty |= t->shape[d] == 0;
    span += (t->shape[d] - 1) * o->strides[d];
  }
  size_t elem = ((size_t)t->dtype.bits * t->dtype.lanes + 7) / 8;
  if (empty) return FUSER_OK; /* nothing to hold, as on the GPU */
  o->bytes = (size_t)span * elem;
  o->allocation = malloc(o->bytes);
  if (!o->allocation) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory for an output");
  memcpy(o->allocation, (const char *)t->data + t->byte_offset, o->bytes);
  o->tensor.data = o->allocation;
  o->allocated_by = FUSER_ALLOCATED_HOST;
  return FUSER_OK;
}

int fuser_source_ref_run(fuser_source *s, fuser_source_ref *r, const fuser_arg *args, size_t nargs,
                         fuser_output *outputs, size_t noutputs, fuser_error *err) {
  fuser_ref_value values[FUSER_SIG_MAX_ARGS];
  MlirBlock body = fuser_func_body(r->func);
  for (size_t i = 0; i < nargs; i++) {
    memset(&values[i], 0, sizeof values[i]);
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, (intptr_t)i));
    if (args[i].kind == FUSER_ARG_TENSOR) {
      const DLTensor *dl = args[i].tensor;
      if (!dl || (dl->device.device_type != kDLCPU && dl->device.device_type != kDLCUDAHost))
        return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: a CPU run needs host memory (kDLCPU), got device type %d",
                               i, dl ? (int)dl->device.device_type : -1);
      values[i].is_tensor = true;
      values[i].tensor = (DLTensor *)dl;
      values[i].dtype = fuser_dtype_of_type(mlirShapedTypeGetElementType(t));
    } else {
      values[i].dtype = fuser_dtype_of_type(t);
      if (args[i].kind == FUSER_ARG_DOUBLE) values[i].f = args[i].d, values[i].i = (int64_t)args[i].d;
      else values[i].i = args[i].i, values[i].f = (double)args[i].i;
    }
  }
  fuser_source_lock();
  fuser_source_diag_reset("<fusion>");
  fuser_ref_outputs res = {0};
  fuser_ref_error rerr;
  memset(&rerr, 0, sizeof rerr);
  fuser_ref_status st = fuser_ref_run(r->func, values, (int)nargs, NULL, &res, &rerr);
  int rc = FUSER_OK;
  if (st != FUSER_REF_OK) {
    char where[300] = "";
    MlirStringRef file;
    int line, col;
    if (!mlirLocationIsNull(rerr.loc) && fuser_source_file_loc(rerr.loc, &file, &line, &col))
      snprintf(where, sizeof where, "%.*s:%d:%d: ", (int)file.length, file.data, line, col);
    int code = st == FUSER_REF_ERR_INPUT || st == FUSER_REF_ERR_SHAPE ? FUSER_ERR_INPUT_MISMATCH
               : st == FUSER_REF_ERR_MEMORY                          ? FUSER_ERR_OUT_OF_MEMORY
               : st == FUSER_REF_ERR_UNSUPPORTED                     ? FUSER_ERR_UNSUPPORTED
               : st == FUSER_REF_ERR_INDEX                           ? FUSER_ERR_INDEX
                                                                     : FUSER_ERR_COMPILE;
    rc = fuser_set_error(err, code, "CPU reference: %s%s", where, rerr.message);
  } else if ((size_t)res.count != noutputs) {
    rc = fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu outputs given, the fusion has %d", noutputs, res.count);
  } else {
    size_t k = 0;
    for (; k < noutputs && rc == FUSER_OK; k++) rc = take_result(&res.values[k], &outputs[k], err);
    if (rc != FUSER_OK)
      for (size_t j = 0; j < k; j++) fuser_output_release(NULL, &outputs[j]);
  }
  fuser_ref_outputs_free(&res);
  fuser_source_unlock();
  return rc;
}

