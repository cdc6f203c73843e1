/* special_fns.c: erfinv, erfcinv and lgamma in kernels (special_fns.h). */
#include "lowering/special_fns.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "reference/special.h"

/* The host functions: what the reference computes for each dtype (f32 ops
 * compute in f32 through <tgmath.h> there, so lgammaf; erfinv computes in
 * double and rounds once). */
static float erfinv_f32(float x) { return (float)fuser_ref_erfinv(x); }
static float erfcinv_f32(float x) { return (float)fuser_ref_erfcinv(x); }
static float lgamma_f32(float x) { return lgammaf(x); }
static double lgamma_f64(double x) { return lgamma(x); }
static float nextafter_f32(float x, float y) { return nextafterf(x, y); }
static double nextafter_f64(double x, double y) { return nextafter(x, y); }

typedef struct {
  fuser_op_id id;
  bool f64;
  const char *name;      /* the target-neutral callee */
  const char *libdevice; /* the GPU's */
  void *host;            /* the CPU JIT's */
} special_fn;

static const special_fn fns[] = {
    {FUSER_OP_erfinv, false, "fuser_erfinv_f32", "__nv_erfinvf", (void *)(uintptr_t)erfinv_f32},
    {FUSER_OP_erfinv, true, "fuser_erfinv_f64", "__nv_erfinv", (void *)(uintptr_t)fuser_ref_erfinv},
    {FUSER_OP_erfcinv, false, "fuser_erfcinv_f32", "__nv_erfcinvf", (void *)(uintptr_t)erfcinv_f32},
    {FUSER_OP_erfcinv, true, "fuser_erfcinv_f64", "__nv_erfcinv", (void *)(uintptr_t)fuser_ref_erfcinv},
    {FUSER_OP_lgamma, false, "fuser_lgamma_f32", "__nv_lgammaf", (void *)(uintptr_t)lgamma_f32},
    {FUSER_OP_lgamma, true, "fuser_lgamma_f64", "__nv_lgamma", (void *)(uintptr_t)lgamma_f64},
    {FUSER_OP_nextafter, false, "fuser_nextafter_f32", "__nv_nextafterf", (void *)(uintptr_t)nextafter_f32},
    {FUSER_OP_nextafter, true, "fuser_nextafter_f64", "__nv_nextafter", (void *)(uintptr_t)nextafter_f64},
};
#define NFNS ((int)(sizeof fns / sizeof fns[0]))

static MlirStringRef S(const char *s) { return mlirStringRefCreateFromCString(s); }

static bool named(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

static bool str_is(MlirStringRef s, const char *c) { return s.length == strlen(c) && memcmp(s.data, c, s.length) == 0; }

static MlirStringRef sym_name(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, S("sym_name"));
  return mlirAttributeIsNull(a) ? (MlirStringRef){"", 0} : mlirStringAttrGetValue(a);
}

bool fuser_special_fn_known(fuser_op_id id) {
  return id == FUSER_OP_erfinv || id == FUSER_OP_erfcinv || id == FUSER_OP_lgamma || id == FUSER_OP_nextafter;
}

static int arity_of(fuser_op_id id) { return id == FUSER_OP_nextafter ? 2 : 1; }

/* `func.func private @name(t, ...) -> t` (n operands) in `module`'s body unless there. */
static void declare(MlirOperation module, const char *name, MlirType t, int n) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (named(op, "func.func") && str_is(sym_name(op), name)) return;
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType ins[2] = {t, t};
  MlirType ft = mlirFunctionTypeGet(ctx, n, ins, 1, &t);
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("sym_name")), mlirStringAttrGet(ctx, S(name))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("function_type")), mlirTypeAttrGet(ft)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("sym_visibility")), mlirStringAttrGet(ctx, S("private")))};
  MlirOperationState st = mlirOperationStateGet(S("func.func"), mlirOperationGetLocation(module));
  mlirOperationStateAddAttributes(&st, 3, attrs);
  MlirRegion r = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &r);
  mlirBlockInsertOwnedOperation(body, 0, mlirOperationCreate(&st));
}

/* The module (builtin or gpu) around the insertion point. */
static MlirOperation enclosing_module(fb_builder *b) {
  MlirOperation op = mlirBlockGetParentOperation(b->ip.block);
  while (!mlirOperationIsNull(op) && !named(op, "builtin.module") && !named(op, "gpu.module")) {
    MlirBlock blk = mlirOperationGetBlock(op);
    op = mlirBlockIsNull(blk) ? (MlirOperation){NULL} : mlirBlockGetParentOperation(blk);
  }
  return op;
}

static MlirValue call(fb_builder *b, const char *name, int n, const MlirValue *x) {
  MlirType t = mlirValueGetType(x[0]);
  MlirNamedAttribute callee = fb_named(b, "callee", mlirFlatSymbolRefAttrGet(b->ctx, S(name)));
  return fb_result(fb_op(b, "func.call", 1, &t, n, x, 1, &callee, 0), 0);
}

MlirValue fuser_special_fn_call(fb_builder *b, fuser_op_id id, const MlirValue *x) {
  MlirType t = mlirValueGetType(x[0]), et = fb_is_vector(t) ? fb_elem_type(t) : t;
  const special_fn *fn = NULL;
  for (int i = 0; i < NFNS && !fn; i++)
    if (fns[i].id == id && fns[i].f64 == mlirTypeIsAF64(et)) fn = &fns[i];
  if (!fn) return x[0]; /* callers ask only for known ops, in f32 or f64 */
  int n = arity_of(id);
  declare(enclosing_module(b), fn->name, et, n);
  if (!fb_is_vector(t)) return call(b, fn->name, n, x);
  int64_t w = mlirShapedTypeGetDimSize(t, 0);
  MlirValue lanes[64];
  for (int64_t i = 0; i < w && i < 64; i++) {
    MlirValue lane[2];
    for (int k = 0; k < n; k++) lane[k] = fb_extract(b, x[k], i);
    lanes[i] = call(b, fn->name, n, lane);
  }
  return fb_from_elements(b, t, (int)w, lanes);
}

/* Calls to the neutral names anywhere below op, renamed. */
static void rename_calls(MlirOperation op, MlirOperation gmod) {
  if (named(op, "func.call")) {
    MlirAttribute callee = mlirOperationGetAttributeByName(op, S("callee"));
    MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
    for (int i = 0; i < NFNS; i++) {
      if (!str_is(name, fns[i].name)) continue;
      MlirContext ctx = mlirOperationGetContext(op);
      mlirOperationSetAttributeByName(op, S("callee"), mlirFlatSymbolRefAttrGet(ctx, S(fns[i].libdevice)));
      declare(gmod, fns[i].libdevice, mlirValueGetType(mlirOperationGetResult(op, 0)), arity_of(fns[i].id));
    }
  }
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(blk); blk = mlirBlockGetNextInRegion(blk))
      for (MlirOperation c = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(c); c = mlirOperationGetNextInBlock(c))
        rename_calls(c, gmod);
}

void fuser_special_fns_to_libdevice(MlirOperation gmod) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gmod, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (named(op, "gpu.func")) rename_calls(op, gmod);
}

void fuser_special_fns_erase_decls(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (named(op, "func.func"))
      for (int i = 0; i < NFNS; i++)
        if (str_is(sym_name(op), fns[i].name)) {
          mlirOperationDestroy(op);
          break;
        }
    op = next;
  }
}

void fuser_special_fns_register(MlirExecutionEngine jit) {
  for (int i = 0; i < NFNS; i++) mlirExecutionEngineRegisterSymbol(jit, S(fns[i].name), fns[i].host);
}
