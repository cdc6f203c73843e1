/* cpu_jit.c: kernel functions -> loop-level functions -> LLVM -> the
 * ExecutionEngine, and calls with host tensors (cpu_jit.h). */
#include "lowering/cpu_jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/half.h"
#include "lowering/launch_plan.h"
#include "lowering/lowering.h"
#include "lowering/special_fns.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"

struct fuser_cpu_module {
  MlirExecutionEngine jit;
  fuser_launch *launches;
  int num_launches;
};

/* f32/f64 -> bf16 (arith.truncf: a cast to BFloat16 that arith-expand
 * leaves to LLVM, and a fusion's cast of a Double): LLVM calls
 * compiler-rt's __truncsfbf2 / __truncdfbf2, which Debian 12's libgcc 12
 * lacks (GCC 13 added them), so the JIT gets these: the same single
 * rounding as the reference (half.h). A bfloat is returned in the low 16
 * bits of the first FP register (x86-64 xmm0, AArch64 v0), where a float's
 * low bits are returned too. */
static float bf16_bits_as_float(uint16_t h) {
  uint32_t bits = h;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
static float truncsfbf2(float x) { return bf16_bits_as_float(fuser_f32_to_bf16(x)); }
static float truncdfbf2(double d) { return bf16_bits_as_float(fuser_f64_to_bf16(d)); }

fuser_cpu_module *fuser_cpu_compile(MlirModule module, char *err, size_t errlen) {
  if (!fuser_run_pipeline(mlirModuleGetOperation(module), "builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels{target=cpu}, fuser-kernels-to-cpu)", err, errlen))
    return NULL;
  fuser_cpu_module *m = calloc(1, sizeof *m);
  m->num_launches = fuser_launch_plan_read(mlirModuleGetOperation(module), &m->launches);
  if (m->num_launches < 0) {
    snprintf(err, errlen, "the launch plan does not read (the error above)");
    m->num_launches = 0;
    fuser_cpu_destroy(m);
    return NULL;
  }
  if (!fuser_run_pipeline(mlirModuleGetOperation(module), fuser_cpu_to_llvm_pipeline(), err, errlen)) {
    fuser_cpu_destroy(m);
    return NULL;
  }
  m->jit = mlirExecutionEngineCreate(module, 3, 0, NULL, false, false);
  if (mlirExecutionEngineIsNull(m->jit)) {
    snprintf(err, errlen, "cannot create the execution engine");
    fuser_cpu_destroy(m);
    return NULL;
  }
  mlirExecutionEngineRegisterSymbol(m->jit, mlirStringRefCreateFromCString("__truncsfbf2"), (void *)(uintptr_t)truncsfbf2);
  mlirExecutionEngineRegisterSymbol(m->jit, mlirStringRefCreateFromCString("__truncdfbf2"), (void *)(uintptr_t)truncdfbf2);
  fuser_special_fns_register(m->jit);
  return m;
}

typedef struct {
  void *allocated, *aligned;
  int64_t offset, size, stride;
} memref1d;

static bool conditions_hold(const fuser_launch *l, const fuser_host_tensor *t, int n) {
  uintptr_t ptrs[FK_MAX_TENSORS];
  int64_t *sizes[FK_MAX_TENSORS], *strides[FK_MAX_TENSORS];
  int ranks[FK_MAX_TENSORS], bytes[FK_MAX_TENSORS];
  for (int i = 0; i < n && i < FK_MAX_TENSORS; i++) {
    ptrs[i] = (uintptr_t)t[i].data;
    sizes[i] = (int64_t *)t[i].sizes;
    strides[i] = (int64_t *)t[i].strides;
    ranks[i] = t[i].rank < 0 ? 0 : t[i].rank;
    bytes[i] = (int)fuser_dtype_size(t[i].dtype);
  }
  return fuser_launch_conditions_hold(l, n, ptrs, sizes, strides, ranks, bytes);
}

bool fuser_cpu_run(fuser_cpu_module *m, const char *kernel, const fuser_host_tensor *tensors, int num_tensors,
                   const char *forced_variant, const char **variant, char *err, size_t errlen) {
  const fuser_launch *l = NULL;
  for (int i = 0; i < m->num_launches && !l; i++) {
    const fuser_launch *c = &m->launches[i];
    if (strcmp(c->kernel, kernel) != 0) continue;
    if (forced_variant ? strcmp(c->variant, forced_variant) == 0 : conditions_hold(c, tensors, num_tensors)) l = c;
  }
  if (!l) {
    snprintf(err, errlen, "no variant of kernel '%s'%s%s", kernel, forced_variant ? " named " : " whose conditions hold",
             forced_variant ? forced_variant : "");
    return false;
  }
  if (variant) *variant = l->variant;
  memref1d descs[FK_MAX_PARAMS];
  void *desc_ptrs[FK_MAX_PARAMS];
  union { int64_t i; double d; int32_t i32; float f; uint8_t b; } values[FK_MAX_PARAMS];
  void *args[FK_MAX_PARAMS];
  int32_t index_flag = 0;
  for (int p = 0; p < l->num_params; p++) {
    const fk_param *q = &l->params[p];
    if (q->kind == FK_PARAM_CHECK) { /* the index flag: this call's own, checked below */
      descs[p] = (memref1d){&index_flag, &index_flag, 0, 1, 1};
      desc_ptrs[p] = &descs[p];
      args[p] = &desc_ptrs[p];
      continue;
    }
    if (q->tensor >= num_tensors) {
      snprintf(err, errlen, "kernel '%s' needs tensor %d, %d given", kernel, q->tensor, num_tensors);
      return false;
    }
    const fuser_host_tensor *t = &tensors[q->tensor];
    switch (q->kind) {
    case FK_PARAM_PTR:
      descs[p] = (memref1d){t->data, t->data, 0, 1, 1};
      desc_ptrs[p] = &descs[p];
      args[p] = &desc_ptrs[p];
      break;
    case FK_PARAM_SIZE: values[p].i = t->sizes[q->dim]; args[p] = &values[p]; break;
    case FK_PARAM_STRIDE: values[p].i = t->strides[q->dim]; args[p] = &values[p]; break;
    case FK_PARAM_CHECK: break;
    case FK_PARAM_SCALAR:
      switch (t->dtype) {
      case FUSER_DTYPE_F64: values[p].d = t->scalar.f; break;
      case FUSER_DTYPE_F32: values[p].f = (float)t->scalar.f; break;
      case FUSER_DTYPE_I32: values[p].i32 = (int32_t)t->scalar.i; break;
      case FUSER_DTYPE_I1: values[p].b = (uint8_t)(t->scalar.i != 0); break;
      default: values[p].i = t->scalar.i; break;
      }
      args[p] = &values[p];
      break;
    }
  }
  if (mlirLogicalResultIsFailure(mlirExecutionEngineInvokePacked(m->jit, mlirStringRefCreateFromCString(l->entry), args))) {
    snprintf(err, errlen, "cannot invoke '%s'", l->entry);
    return false;
  }
  if (index_flag) {
    snprintf(err, errlen, "%s: index op %d of the kernel read an index out of range", l->entry, (int)index_flag);
    return false;
  }
  return true;
}

bool fuser_cpu_call(fuser_cpu_module *m, const char *entry, int num_args, const fuser_cpu_arg *args,
                    const int *int_bits, char *err, size_t errlen) {
  const fuser_launch *l = NULL;
  for (int i = 0; i < m->num_launches && !l; i++)
    if (strcmp(m->launches[i].entry, entry) == 0) l = &m->launches[i];
  if (!l || l->num_params != num_args || num_args > FK_MAX_PARAMS) {
    snprintf(err, errlen, "no CPU entry '%s' taking %d parameters", entry, num_args);
    return false;
  }
  memref1d descs[FK_MAX_PARAMS];
  void *desc_ptrs[FK_MAX_PARAMS];
  union { int64_t i; double d; int32_t i32; float f; } values[FK_MAX_PARAMS];
  void *packed[FK_MAX_PARAMS];
  for (int p = 0; p < num_args; p++) {
    const fuser_cpu_arg *a = &args[p];
    switch (a->kind) {
    case FUSER_CPU_ARG_PTR:
      descs[p] = (memref1d){a->ptr, a->ptr, 0, 1, 1};
      desc_ptrs[p] = &descs[p];
      packed[p] = &desc_ptrs[p];
      continue;
    case FUSER_CPU_ARG_INT:
      if (l->params[p].kind == FK_PARAM_SCALAR && int_bits[p] == 32) values[p].i32 = (int32_t)a->i;
      else values[p].i = a->i;
      break;
    case FUSER_CPU_ARG_F32: values[p].f = (float)a->f; break;
    case FUSER_CPU_ARG_F64: values[p].d = a->f; break;
    }
    packed[p] = &values[p];
  }
  if (mlirLogicalResultIsFailure(mlirExecutionEngineInvokePacked(m->jit, mlirStringRefCreateFromCString(entry), packed))) {
    snprintf(err, errlen, "cannot invoke '%s'", entry);
    return false;
  }
  return true;
}

void fuser_cpu_destroy(fuser_cpu_module *m) {
  if (!m) return;
  if (!mlirExecutionEngineIsNull(m->jit)) mlirExecutionEngineDestroy(m->jit);
  fuser_launch_plan_free(m->launches, m->num_launches);
  free(m);
}
