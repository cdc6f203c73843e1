/* Shared IR helpers for the passes (see ir_util.h). */
#include "passes/ir_util.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static MlirStringRef S(const char *s) { return mlirStringRefCreateFromCString(s); }

MlirNamedAttribute fuser_named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, S(name)), a);
}

MlirAttribute fuser_i64_attr(MlirContext ctx, int64_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v);
}

MlirAttribute fuser_str_attr(MlirContext ctx, const char *s) { return mlirStringAttrGet(ctx, S(s)); }

MlirOperation fuser_create_op(MlirLocation loc, const char *name, int nops, const MlirValue *ops, int nres,
                              const MlirType *res, int nattrs, const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(S(name), loc);
  if (nops) mlirOperationStateAddOperands(&st, nops, ops);
  if (nres) mlirOperationStateAddResults(&st, nres, res);
  if (nattrs) mlirOperationStateAddAttributes(&st, nattrs, attrs);
  return mlirOperationCreate(&st);
}

void fuser_insert_before(MlirOperation anchor, MlirOperation op) {
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, op);
}

bool fuser_op_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

static MlirAttribute dict_entry(MlirOperation func, const char *list, int index, const char *name) {
  MlirAttribute arr = mlirOperationGetAttributeByName(func, S(list));
  if (mlirAttributeIsNull(arr) || !mlirAttributeIsAArray(arr) || index >= mlirArrayAttrGetNumElements(arr))
    return mlirAttributeGetNull();
  MlirAttribute d = mlirArrayAttrGetElement(arr, index);
  if (!mlirAttributeIsADictionary(d)) return mlirAttributeGetNull();
  return mlirDictionaryAttrGetElementByName(d, S(name));
}

MlirAttribute fuser_func_arg_attr(MlirOperation func, int index, const char *name) {
  return dict_entry(func, "arg_attrs", index, name);
}

MlirAttribute fuser_func_result_attr(MlirOperation func, int index, const char *name) {
  return dict_entry(func, "res_attrs", index, name);
}

static int count_of(MlirOperation func, const char *list) {
  MlirType fty = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(func, S("function_type")));
  return (int)(strcmp(list, "arg_attrs") == 0 ? mlirFunctionTypeGetNumInputs(fty) : mlirFunctionTypeGetNumResults(fty));
}

/* Rebuilds arg_attrs/res_attrs with `name` set in entry `index`. */
static void set_dict_entry(MlirOperation func, const char *list, int index, const char *name, MlirAttribute value) {
  MlirContext ctx = mlirOperationGetContext(func);
  int n = count_of(func, list);
  MlirAttribute arr = mlirOperationGetAttributeByName(func, S(list));
  MlirAttribute *dicts = calloc(n ? n : 1, sizeof *dicts);
  for (int i = 0; i < n; i++) {
    MlirAttribute d = (!mlirAttributeIsNull(arr) && mlirAttributeIsAArray(arr) && i < mlirArrayAttrGetNumElements(arr))
                          ? mlirArrayAttrGetElement(arr, i)
                          : mlirDictionaryAttrGet(ctx, 0, NULL);
    if (i == index) {
      intptr_t m = mlirDictionaryAttrGetNumElements(d);
      MlirNamedAttribute *entries = calloc(m + 1, sizeof *entries);
      int k = 0;
      for (intptr_t j = 0; j < m; j++) {
        MlirNamedAttribute e = mlirDictionaryAttrGetElement(d, j);
        MlirStringRef en = mlirIdentifierStr(e.name);
        if (en.length == strlen(name) && memcmp(en.data, name, en.length) == 0) continue;
        entries[k++] = e;
      }
      if (!mlirAttributeIsNull(value)) entries[k++] = fuser_named(ctx, name, value);
      d = mlirDictionaryAttrGet(ctx, k, entries);
      free(entries);
    }
    dicts[i] = d;
  }
  mlirOperationSetAttributeByName(func, S(list), mlirArrayAttrGet(ctx, n, dicts));
  free(dicts);
}

void fuser_func_set_arg_attr(MlirOperation func, int index, const char *name, MlirAttribute value) {
  set_dict_entry(func, "arg_attrs", index, name, value);
}

void fuser_func_set_result_attr(MlirOperation func, int index, const char *name, MlirAttribute value) {
  set_dict_entry(func, "res_attrs", index, name, value);
}

MlirBlock fuser_func_body(MlirOperation func) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
}

bool fuser_is_fusion_func(MlirOperation op) {
  return fuser_op_is(op, "func.func") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, S("fuser.fusion")));
}

/* fuser ops are pure, except those without results (ops.def's NO_RESULTS:
 * fuser.check refuses the call, fuser.launch runs a kernel), which exist
 * for their effect. */
static bool erasable(MlirOperation op) {
  if (fuser_op_id_of(op) != FUSER_OP_NONE) return mlirOperationGetNumResults(op) > 0;
  return fuser_op_is(op, "arith.constant");
}

static bool unused(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i)))) return false;
  return true;
}

/* One backward sweep: users follow their definitions in a block, so a dead
 * chain is erased from its end to its start in linear time. */
void fuser_erase_dead_ops(MlirBlock block) {
  int n = 0, cap = 64;
  MlirOperation *ops = malloc(sizeof *ops * cap);
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (n == cap) ops = realloc(ops, sizeof *ops * (cap *= 2));
    ops[n++] = op;
  }
  for (int i = n - 1; i >= 0; i--)
    if (erasable(ops[i]) && unused(ops[i])) mlirOperationDestroy(ops[i]);
  free(ops);
}

typedef struct {
  MlirOperation *funcs;
  int n, cap;
} func_list;

static MlirWalkResult collect(MlirOperation op, void *p) {
  func_list *l = p;
  if (!fuser_is_fusion_func(op)) return MlirWalkResultAdvance;
  if (l->n == l->cap) l->funcs = realloc(l->funcs, sizeof *l->funcs * (l->cap = l->cap ? 2 * l->cap : 8));
  l->funcs[l->n++] = op;
  return MlirWalkResultSkip;
}

/* Collects first, then visits: passes may add functions to the module. */
bool fuser_for_each_fusion(MlirOperation root, bool (*fn)(MlirOperation func, void *ud), void *ud) {
  func_list l = {0};
  mlirOperationWalk(root, collect, &l, MlirWalkPreOrder);
  bool ok = true;
  for (int i = 0; i < l.n; i++) ok &= fn(l.funcs[i], ud);
  free(l.funcs);
  return ok;
}
