/* run_jit.c: an entry's CPU JIT run (source.h): the fusion specialised to
 * the signature goes through the GPU pipeline once for the host plan (the
 * plan model: the artifact's launches, variants, grids, parameters) and is
 * lowered once more for the host and JIT-compiled (lowering/cpu_jit.h);
 * each call runs the plan's kernels in order on host memory
 * (lowering/cpu_plan.h), as fuser-cpu-check does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/error.h"
#include "driver/expr.h"
#include "libfuser/source.h"
#include "libfuser/source_internal.h"
#include "lowering/cpu_jit.h"
#include "lowering/cpu_plan.h"
#include "lowering/lowering.h"
#include "lowering/plan_model_build.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"
#include "reference/reference.h"

/* The dtype of the plan model's MLIR spelling ("bf16"). */
static fuser_dtype dtype_named(const char *name) {
  for (int d = 0; d < FUSER_DTYPE_COUNT; d++)
    if (strcmp(fuser_dtype_mlir_name((fuser_dtype)d), name) == 0) return (fuser_dtype)d;
  return FUSER_DTYPE_INVALID;
}

struct fuser_source_jit {
  fuser_plan_model model; /* the host plan: outputs, temps, launches */
  fuser_cpu_module *cpu;  /* every kernel, JIT-compiled for the host */
};

static bool run_pipeline(MlirOperation module, const char *text, char *err, size_t errlen) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  fuser_lowering_register_passes(); /* the pipeline names fuser-lower-kernels */
  bool ok = fuser_pipeline_parse(pm, text, err, errlen);
  if (ok && mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, module))) {
    snprintf(err, errlen, "pipeline failed: %s", text);
    ok = false;
  }
  mlirPassManagerDestroy(pm);
  return ok;
}

void fuser_source_jit_free(fuser_source_jit *j) {
  if (!j) return;
  fuser_source_lock();
  if (j->cpu) fuser_cpu_destroy(j->cpu);
  fuser_plan_model_free(&j->model);
  fuser_source_unlock();
  free(j);
}

/* The same specialised fusion twice: one clone through the GPU pipeline
 * for the plan model (the launches: parameters, grids, variants, exactly
 * the artifact's), one lowered for the host and JIT-compiled, as
 * fuser-cpu-check runs them. */
int fuser_source_jit_prepare(fuser_source *s, const fuser_fusion_options *o, const fuser_arg *args, size_t nargs,
                             fuser_source_jit **out, fuser_error *err) {
  *out = NULL;
  if (nargs != s->nargs)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu arguments given, the fusion takes %zu", nargs, s->nargs);
  fuser_source_jit *j = calloc(1, sizeof *j);
  if (!j) return fuser_set_error(err, FUSER_ERR_OUT_OF_MEMORY, "out of host memory");
  fuser_source_lock();
  fuser_source_diag_reset("<fusion>");
  MlirOperation plan = {NULL}, host = {NULL};
  int rc = fuser_source_specialise(s, o, args, &plan, err);
  char msg[1024] = "", ptx[2048];
  if (rc == FUSER_OK) {
    host = mlirOperationClone(plan);
    /* fuser_compile_module's defaults for zeroed options */
    fuser_plan_to_ptx_pipeline_with(o->chip ? o->chip : "sm_90", o->unroll > 0 ? o->unroll : 0,
                                    o->block_size > 0 ? o->block_size : 128, ptx, sizeof ptx);
    bool ok = run_pipeline(plan, FUSER_PLAN_PIPELINE, msg, sizeof msg) &&
              fuser_plan_model_build(plan, &j->model, msg, sizeof msg) && run_pipeline(plan, ptx, msg, sizeof msg) &&
              fuser_plan_model_add_launches(&j->model, plan, msg, sizeof msg) &&
              run_pipeline(host, FUSER_PLAN_PIPELINE, msg, sizeof msg);
    if (ok) {
      j->cpu = fuser_cpu_compile(mlirModuleFromOperation(host), msg, sizeof msg); /* consumes host */
      host = (MlirOperation){NULL};
      ok = j->cpu != NULL;
    }
    if (!ok) rc = fuser_set_error(err, FUSER_ERR_COMPILE, "CPU JIT: %s%s%s", msg, fuser_source_diagnostics(NULL) ? "\n" : "", fuser_source_diagnostics(""));
  }
  if (!mlirOperationIsNull(plan)) mlirOperationDestroy(plan);
  if (!mlirOperationIsNull(host)) mlirOperationDestroy(host);
  fuser_source_unlock();
  if (rc != FUSER_OK) {
    fuser_source_jit_free(j);
    return rc;
  }
  *out = j;
  return FUSER_OK;
}

int fuser_source_jit_run(fuser_source *s, fuser_source_jit *j, const fuser_arg *args, size_t nargs,
                         fuser_output *outputs, size_t noutputs, fuser_error *err) {
  const fuser_plan_model *m = &j->model;
  if ((size_t)m->num_inputs != nargs || (size_t)m->num_outputs != noutputs)
    return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "%zu inputs and %zu outputs given, the plan has %d and %d", nargs,
                           noutputs, m->num_inputs, m->num_outputs);
  fuser_host_tensor in[FUSER_SIG_MAX_ARGS];
  memset(in, 0, nargs * sizeof *in);
  for (size_t i = 0; i < nargs; i++) {
    const fpm_input *mi = &m->inputs[i];
    fuser_dtype dt = dtype_named(mi->dtype);
    in[i].dtype = dt;
    if (args[i].kind != FUSER_ARG_TENSOR) {
      in[i].rank = -1;
      if (dt == FUSER_DTYPE_F32 || dt == FUSER_DTYPE_F64 || dt == FUSER_DTYPE_BF16 || dt == FUSER_DTYPE_F16)
        in[i].scalar.f = args[i].kind == FUSER_ARG_DOUBLE ? args[i].d : (double)args[i].i;
      else
        in[i].scalar.i = args[i].kind == FUSER_ARG_DOUBLE ? (int64_t)args[i].d : args[i].i;
      continue;
    }
    const DLTensor *dl = args[i].tensor;
    if (!dl || (dl->device.device_type != kDLCPU && dl->device.device_type != kDLCUDAHost))
      return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "input %zu: a CPU run needs host memory (kDLCPU), got device type %d",
                             i, dl ? (int)dl->device.device_type : -1);
    if (dl->ndim > FPM_MAX_RANK)
      return fuser_set_error(err, FUSER_ERR_UNSUPPORTED, "input %zu: rank %d, the CPU JIT takes at most %d", i, dl->ndim, FPM_MAX_RANK);
    in[i].data = (char *)dl->data + dl->byte_offset;
    in[i].rank = dl->ndim;
    for (int d = 0; d < dl->ndim; d++) in[i].sizes[d] = dl->shape[d], in[i].strides[d] = fuser_dl_stride(dl, d);
  }
  fuser_host_tensor res[FUSER_SIG_MAX_ARGS];
  memset(res, 0, noutputs * sizeof *res);
  char msg[1024];
  fuser_source_lock(); /* the JIT's lookups are not known to be thread-safe */
  bool ok = fuser_cpu_plan_run(j->cpu, m, in, res, NULL, msg, sizeof msg);
  fuser_source_unlock();
  if (!ok) {
    /* a condition no variant meets, or an expression: the inputs' fault */
    return fuser_set_error(err, FUSER_ERR_INPUT_MISMATCH, "CPU JIT: %s", msg);
  }
  for (size_t k = 0; k < noutputs; k++) {
    fuser_output *o = &outputs[k];
    const fuser_host_tensor *r = &res[k];
    memset(o, 0, sizeof *o);
    o->tensor.shape = o->shape;
    o->tensor.strides = o->strides;
    o->tensor.ndim = r->rank;
    o->tensor.dtype = fuser_ref_dtype_to_dl(r->dtype);
    o->tensor.device = (DLDevice){kDLCPU, 0};
    o->alias_of = m->outputs[k].alias_input;
    int64_t span = 1;
    bool empty = false;
    for (int d = 0; d < r->rank; d++) {
      o->shape[d] = r->sizes[d], o->strides[d] = r->strides[d];
      empty |= r->sizes[d] == 0;
      span += (r->sizes[d] - 1) * r->strides[d];
    }
    if (o->alias_of >= 0) { /* a view of its input: same base, own offset */
      const DLTensor *base = args[o->alias_of].tensor;
      o->tensor.data = base->data;
      o->tensor.byte_offset = (uint64_t)((char *)r->data - (char *)base->data);
      continue;
    }
    /* cpu_plan.c's buffers come from aligned_alloc: free() returns them */
    o->tensor.data = empty ? NULL : r->data;
    o->allocation = r->data;
    o->bytes = empty ? 0 : (size_t)span * fuser_dtype_size(r->dtype);
    o->allocated_by = FUSER_ALLOCATED_HOST;
  }
  return FUSER_OK;
}
