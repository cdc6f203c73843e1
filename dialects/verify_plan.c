/* verify_plan.c: what the plan level (docs/plan.md) must hold beyond each
 * op's own rules, checked by fuser-verify:
 *   - a fuser.view of a fusion input whose extents, offset and strides are
 *     all static stays inside the input's storage when that storage is
 *     known (static extents, every dim contiguous or a broadcast): the
 *     runtime builds it by pointer arithmetic, so a view past the end
 *     reads memory the caller never gave;
 *   - a func.call of the plan names a kernel (func.func with fuser.kernel)
 *     that has a body; func.call's own verifier checks the arity and types;
 *   - a fuser.launch (IRDL checks its operand groups' types) stands in a
 *     plan after a func.call of its kernel, a func.func with fuser.kernel;
 *     its entry names a gpu.func of a gpu.module or a gpu.binary (the PTX,
 *     its functions no longer IR), and a function found takes one argument
 *     per parameter; a pointer
 *     parameter (fuser.address) addresses a tensor that call reads or
 *     writes; the last launch of a call has no conditions, so some variant
 *     always runs.
 * What only the call can tell (`?` extents, run-time strides) is checked
 * there: the input checks every variant carries and the runtime's proof that
 * each alias output lies inside its input (docs/runtime.md).
 *
 *   func.func @f(%arg0: tensor<4x8xf32>) -> tensor<4x800xf32> attributes {fuser.fusion, fuser.plan} {
 *     %0 = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 8, 1>}
 *          : (tensor<4x8xf32>) -> tensor<4x800xf32>
 *   error: 'fuser.view' op reaches element 823 of input #0, which has 32
 */
#include <stdio.h>
#include <string.h>

#include "dialects/fuser.h"
#include "driver/checked_math.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* The element count of fusion argument `arg`'s storage when it is known
 * statically: static extents and every dim True or None. */
static bool known_storage(MlirValue arg, int64_t *numel) {
  MlirType t = mlirValueGetType(arg);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return false;
  MlirOperation func = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(arg));
  MlirAttribute all = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  intptr_t k = mlirBlockArgumentGetArgNumber(arg);
  MlirAttribute dict = !mlirAttributeIsNull(all) && mlirAttributeIsAArray(all) && k < mlirArrayAttrGetNumElements(all)
                           ? mlirArrayAttrGetElement(all, k)
                           : mlirAttributeGetNull();
  MlirAttribute co = !mlirAttributeIsNull(dict) && mlirAttributeIsADictionary(dict)
                         ? mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.contiguity"))
                         : mlirAttributeGetNull();
  /* no contiguity: contiguous (nvFuser's default); a False dim: strides at run time */
  for (intptr_t i = 0; !mlirAttributeIsNull(co) && mlirAttributeIsADenseI64Array(co) && i < mlirDenseArrayGetNumElements(co); i++)
    if (mlirDenseI64ArrayGetElement(co, i) == 0) return false;
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t sizes[FUSER_MAX_RANK];
  if (rank > FUSER_MAX_RANK) return false;
  for (int d = 0; d < rank; d++) sizes[d] = mlirShapedTypeGetDimSize(t, d);
  return fuser_numel_i64(sizes, rank, numel);
}

static bool verify_view(MlirOperation op, char *err, size_t errlen) {
  MlirValue in = mlirOperationGetOperand(op, 0);
  int64_t numel;
  if (!mlirValueIsABlockArgument(in) || !known_storage(in, &numel)) return true;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t strides[FUSER_MAX_RANK], sizes[FUSER_MAX_RANK], offset = 0;
  int rank = fuser_get_i64_array(op, "static_strides", strides, FUSER_MAX_RANK);
  MlirAttribute off = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("static_offset"));
  if (mlirAttributeIsNull(off) || !mlirAttributeIsAInteger(off) || !mlirTypeIsARankedTensor(rt) ||
      rank != mlirShapedTypeGetRank(rt) || mlirOperationGetNumOperands(op) != 1)
    return true; /* something symbolic (or malformed: the op's own rules say so) */
  offset = mlirIntegerAttrGetValueInt(off);
  for (int d = 0; d < rank; d++) sizes[d] = mlirShapedTypeGetDimSize(rt, d);
  int64_t lo, hi;
  bool empty;
  if (!fuser_view_span(offset, sizes, strides, rank, &lo, &hi, &empty)) {
    snprintf(err, errlen, "reaches elements beyond int64 of input #%d", (int)mlirBlockArgumentGetArgNumber(in));
    return false;
  }
  if (!empty && (lo < 0 || hi >= numel)) {
    snprintf(err, errlen, "reaches element %lld of input #%d, which has %lld", (long long)(lo < 0 ? lo : hi),
             (int)mlirBlockArgumentGetArgNumber(in), (long long)numel);
    return false;
  }
  return true;
}

static MlirOperation find_function(MlirOperation module, MlirAttribute callee) {
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym)) continue;
    MlirStringRef s = mlirStringAttrGetValue(sym);
    if (s.length == name.length && memcmp(s.data, name.data, s.length) == 0) return f;
  }
  return (MlirOperation){NULL};
}

static bool verify_call(MlirOperation op, char *err, size_t errlen) {
  MlirAttribute callee = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("callee"));
  MlirOperation func = mlirOperationGetParentOperation(op);
  MlirOperation module = mlirOperationIsNull(func) ? func : mlirOperationGetParentOperation(func);
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee) || mlirOperationIsNull(module)) return true;
  MlirOperation f = find_function(module, callee);
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  if (mlirOperationIsNull(f) ||
      mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("fuser.kernel")))) {
    snprintf(err, errlen, "calls @%.*s, which is not a kernel of the plan (func.func with fuser.kernel)", (int)name.length, name.data);
    return false;
  }
  /* a declaration has nothing to run: every reader of the plan walks the callee's body */
  if (mlirOperationGetNumRegions(f) == 0 || mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)))) {
    snprintf(err, errlen, "calls @%.*s, a kernel without a body (a declaration)", (int)name.length, name.data);
    return false;
  }
  return true;
}

static bool op_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* The op named `name` in the symbol table of `table` (null if none). */
static MlirOperation lookup(MlirOperation table, MlirStringRef name) {
  MlirSymbolTable st = mlirSymbolTableCreate(table);
  if (mlirSymbolTableIsNull(st)) return (MlirOperation){NULL};
  MlirOperation op = mlirSymbolTableLookup(st, name);
  mlirSymbolTableDestroy(st);
  return op;
}

static bool same_callee(MlirOperation call, MlirStringRef kernel) {
  MlirAttribute c = mlirOperationGetAttributeByName(call, mlirStringRefCreateFromCString("callee"));
  return !mlirAttributeIsNull(c) && mlirAttributeIsAFlatSymbolRef(c) && mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(c), kernel);
}

static bool launches_kernel(MlirOperation op, MlirStringRef kernel) {
  if (fuser_op_id_of(op) != FUSER_OP_launch) return false;
  MlirAttribute k = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("kernel"));
  return !mlirAttributeIsNull(k) && mlirAttributeIsAFlatSymbolRef(k) && mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(k), kernel);
}

/* The entry: @binary::@entry (a gpu.module holding gpu.func @entry, or the
 * gpu.binary gpu-module-to-binary made of it; the CPU runs the same
 * launches by entry name, cpu_plan.h). *fn is the function when it is still
 * IR (null for a binary). */
static bool verify_entry(MlirOperation module, MlirAttribute entry, MlirOperation *fn, char *err, size_t errlen) {
  *fn = (MlirOperation){NULL};
  MlirStringRef leaf = mlirSymbolRefAttrGetLeafReference(entry), root = mlirSymbolRefAttrGetRootReference(entry);
  if (mlirSymbolRefAttrGetNumNestedReferences(entry) != 1) {
    snprintf(err, errlen, "entry must be @binary::@entry");
    return false;
  }
  MlirOperation bin = lookup(module, root);
  if (mlirOperationIsNull(bin) || !(op_is(bin, "gpu.module") || op_is(bin, "gpu.binary"))) {
    snprintf(err, errlen, "entry names @%.*s, which is not a gpu.module or gpu.binary of the module", (int)root.length, root.data);
    return false;
  }
  if (op_is(bin, "gpu.binary")) return true;
  *fn = lookup(bin, leaf);
  if (!mlirOperationIsNull(*fn) && op_is(*fn, "gpu.func")) return true;
  snprintf(err, errlen, "entry names @%.*s::@%.*s, which is not a gpu.func of that module", (int)root.length, root.data,
           (int)leaf.length, leaf.data);
  return false;
}

/* Whether v is an operand or a result of `call`. */
static bool call_tensor(MlirOperation call, MlirValue v) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(call); i++)
    if (mlirValueEqual(mlirOperationGetOperand(call, i), v)) return true;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(call); i++)
    if (mlirValueEqual(mlirOperationGetResult(call, i), v)) return true;
  return false;
}

/* The operand groups of a launch: 7 i64 (grid, block, shared), then the
 * conditions and the parameters (operandSegmentSizes, checked by IRDL). */
static int num_conditions(MlirOperation op) {
  MlirAttribute seg = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("operandSegmentSizes"));
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) || mlirDenseArrayGetNumElements(seg) != 9) return -1;
  return mlirDenseI32ArrayGetElement(seg, 7);
}

static bool verify_launch(MlirOperation op, MlirOperation func, char *err, size_t errlen) {
  MlirOperation module = mlirOperationGetParentOperation(func);
  MlirAttribute kernel = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("kernel"));
  MlirAttribute entry = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("entry"));
  int nconds = num_conditions(op);
  if (mlirAttributeIsNull(kernel) || !mlirAttributeIsAFlatSymbolRef(kernel) || mlirAttributeIsNull(entry) ||
      !mlirAttributeIsASymbolRef(entry) || nconds < 0) {
    snprintf(err, errlen, "needs kernel = @kernel, entry = @binary::@entry (or @entry) and 9 operand segments");
    return false;
  }
  MlirStringRef k = mlirFlatSymbolRefAttrGetValue(kernel);
  MlirOperation kf = lookup(module, k);
  if (mlirOperationIsNull(kf) || !op_is(kf, "func.func") ||
      mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(kf, mlirStringRefCreateFromCString("fuser.kernel")))) {
    snprintf(err, errlen, "launches @%.*s, which is not a kernel of the plan (func.func with fuser.kernel)", (int)k.length, k.data);
    return false;
  }
  MlirOperation call = {NULL}; /* the last call of the kernel before the launch */
  for (MlirOperation p = mlirBlockGetFirstOperation(mlirOperationGetBlock(op)); !mlirOperationEqual(p, op); p = mlirOperationGetNextInBlock(p))
    if (op_is(p, "func.call") && same_callee(p, k)) call = p;
  if (mlirOperationIsNull(call)) {
    snprintf(err, errlen, "launches @%.*s, which no func.call before it calls", (int)k.length, k.data);
    return false;
  }
  MlirOperation fn;
  if (!verify_entry(module, entry, &fn, err, errlen)) return false;
  int nparams = (int)mlirOperationGetNumOperands(op) - 7 - nconds;
  MlirType ft = {NULL};
  if (!mlirOperationIsNull(fn)) ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(fn, mlirStringRefCreateFromCString("function_type")));
  if (!mlirTypeIsNull(ft) && mlirFunctionTypeGetNumInputs(ft) != nparams) {
    snprintf(err, errlen, "passes %d parameters but its entry takes %d", nparams, (int)mlirFunctionTypeGetNumInputs(ft));
    return false;
  }
  for (int i = 0; i < nparams; i++) {
    MlirValue p = mlirOperationGetOperand(op, 7 + nconds + i);
    if (!mlirValueIsAOpResult(p) || fuser_op_id_of(mlirOpResultGetOwner(p)) != FUSER_OP_address) continue;
    if (!call_tensor(call, mlirOperationGetOperand(mlirOpResultGetOwner(p), 0))) {
      snprintf(err, errlen, "parameter #%d is the address of a tensor the call of @%.*s neither reads nor writes", i, (int)k.length, k.data);
      return false;
    }
  }
  bool last = true;
  for (MlirOperation n = mlirOperationGetNextInBlock(op); !mlirOperationIsNull(n) && last; n = mlirOperationGetNextInBlock(n)) {
    if (op_is(n, "func.call") && same_callee(n, k)) break; /* the next call's launches are its own */
    last = !launches_kernel(n, k);
  }
  if (last && nconds > 0) {
    snprintf(err, errlen, "is the last launch of @%.*s but has conditions: when they fail no variant runs", (int)k.length, k.data);
    return false;
  }
  return true;
}

static bool in_plan(MlirOperation op) {
  MlirOperation func = mlirOperationGetParentOperation(op);
  return !mlirOperationIsNull(func) &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.plan")));
}

bool fuser_verify_plan_op(MlirOperation op, char *err, size_t errlen) {
  if (fuser_op_id_of(op) == FUSER_OP_view) return verify_view(op, err, errlen);
  if (fuser_op_id_of(op) == FUSER_OP_launch) {
    if (in_plan(op)) return verify_launch(op, mlirOperationGetParentOperation(op), err, errlen);
    snprintf(err, errlen, "is outside a plan function (func.func with fuser.plan)");
    return false;
  }
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length == 9 && memcmp(n.data, "func.call", 9) == 0 && in_plan(op)) return verify_call(op, err, errlen);
  return true;
}
