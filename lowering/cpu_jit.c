/* cpu_jit.c: kernel functions -> loop-level functions -> LLVM -> the
 * ExecutionEngine, and calls with host tensors (cpu_jit.h). */
#include "lowering/cpu_jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/half.h"
#include "lowering/kernel_gen.h"
#include "lowering/lowering.h"
#include "lowering/special_fns.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/Pass.h"
#include "passes/pass.h"

/* The entries the JIT compiled (fuser-kernels-to-cpu's functions) and
 * their parameter counts, read from the functions before the LLVM
 * lowering: a call with another count is refused, not a crash. The plan's
 * launches (fuser.launch ops, read into the plan model) say which entry a
 * call runs and with what; this only knows what exists. */
typedef struct {
  char name[160];
  int num_params;
} cpu_entry;

struct fuser_cpu_module {
  MlirExecutionEngine jit;
  cpu_entry *entries;
  int num_entries;
};

static void read_entries(MlirOperation module, fuser_cpu_module *m) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    m->num_entries += fuser_is_loops_func(op);
  m->entries = calloc((size_t)m->num_entries + 1, sizeof *m->entries);
  int i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!fuser_is_loops_func(op)) continue;
    MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name")));
    MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("function_type")));
    snprintf(m->entries[i].name, sizeof m->entries[i].name, "%.*s", (int)sym.length, sym.data);
    m->entries[i++].num_params = (int)mlirFunctionTypeGetNumInputs(ft);
  }
}

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
  read_entries(mlirModuleGetOperation(module), m);
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

bool fuser_cpu_call(fuser_cpu_module *m, const char *entry, int num_args, const fuser_cpu_arg *args,
                    const int *int_bits, char *err, size_t errlen) {
  const cpu_entry *l = NULL;
  for (int i = 0; i < m->num_entries && !l; i++)
    if (strcmp(m->entries[i].name, entry) == 0) l = &m->entries[i];
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
      if (int_bits[p] == 32) values[p].i32 = (int32_t)a->i; /* an i32 scalar (sizes and strides are i64) */
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
  free(m->entries);
  free(m);
}
