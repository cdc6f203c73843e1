/* Names the op, attribute or operand in IRDL's verifier errors
 * (tool_support.h). IRDL reports `op expects exactly 2 operands, but got 1`
 * or `expected base attribute 'builtin.integer' but got
 * 'builtin.dense_array'` without saying which op, attribute or operand;
 * the op is in the verifier's "see current operation" note, and which of
 * its attributes or operands carries that constraint is in the dialect's
 * IRDL definition (generated from dialects/ops.def), walked here as IR:
 *
 *   'fuser.add' op expects exactly 2 operands, but got 1
 *   'fuser.cat' op attribute 'dim': expected base attribute 'builtin.integer' but got 'builtin.dense_array'
 *   'fuser.reshape' op operand 'shape': expected 'i64' but got 'i32' */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/IRDL.h"
#include "support/mlir_print.h"
#include "tools/common/tool_support.h"

typedef struct {
  char text[512];
  int count;
} names;

static bool ref_is(MlirStringRef s, const char *c) { return s.length == strlen(c) && memcmp(s.data, c, s.length) == 0; }

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* Whether constraint value v (an irdl.base or irdl.is result) is what the
 * message expects: base `want_base` ("#builtin.integer"), or type `want_is`. */
static bool constraint_matches(MlirValue v, const char *want_base, const char *want_is) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirStringRef kind = mlirIdentifierStr(mlirOperationGetName(def));
  if (want_base && ref_is(kind, "irdl.base")) {
    MlirAttribute b = attr(def, "base_name");
    return !mlirAttributeIsNull(b) && mlirAttributeIsAString(b) && ref_is(mlirStringAttrGetValue(b), want_base);
  }
  if (want_is && ref_is(kind, "irdl.is")) {
    MlirAttribute e = attr(def, "expected");
    if (mlirAttributeIsNull(e) || !mlirAttributeIsAType(e)) return false;
    char printed[64];
    fixed_text t = fixed_text_on(printed, sizeof printed);
    mlirTypePrint(mlirTypeAttrGetValue(e), fuser_print_to_fixed, &t);
    return strcmp(printed, want_is) == 0;
  }
  return false;
}

static void add_name(names *n, const char *what, MlirStringRef name) {
  size_t len = strlen(n->text);
  snprintf(n->text + len, sizeof n->text - len, "%s%s '%.*s'", n->count ? ", " : "", what, (int)name.length, name.data);
  n->count++;
}

/* The operands of `list` (irdl.operands/results/attributes) that match, by
 * the names in its `names_attr`. */
static void collect(MlirOperation list, const char *names_attr, const char *what, const char *want_base,
                    const char *want_is, names *out) {
  MlirAttribute ns = attr(list, names_attr);
  if (mlirAttributeIsNull(ns) || !mlirAttributeIsAArray(ns)) return;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(list) && i < mlirArrayAttrGetNumElements(ns); i++)
    if (constraint_matches(mlirOperationGetOperand(list, i), want_base, want_is))
      add_name(out, what, mlirStringAttrGetValue(mlirArrayAttrGetElement(ns, i)));
}

/* Finds irdl.operation @<op> in the IRDL module and collects the names. */
static void find_names(MlirModule irdl, const char *op, const char *want_base, const char *want_is, names *out) {
  MlirBlock top = mlirModuleGetBody(irdl);
  for (MlirOperation d = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(d); d = mlirOperationGetNextInBlock(d)) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(d, 0));
    for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
      MlirAttribute sym = attr(o, "sym_name");
      if (mlirAttributeIsNull(sym) || !ref_is(mlirStringAttrGetValue(sym), op)) continue;
      MlirBlock ob = mlirRegionGetFirstBlock(mlirOperationGetRegion(o, 0));
      for (MlirOperation x = mlirBlockGetFirstOperation(ob); !mlirOperationIsNull(x); x = mlirOperationGetNextInBlock(x)) {
        MlirStringRef k = mlirIdentifierStr(mlirOperationGetName(x));
        if (ref_is(k, "irdl.attributes")) collect(x, "attributeValueNames", "attribute", want_base, want_is, out);
        else if (ref_is(k, "irdl.operands")) collect(x, "names", "operand", want_base, want_is, out);
        else if (ref_is(k, "irdl.results")) collect(x, "names", "result", want_base, want_is, out);
      }
    }
  }
}

/* The text between the first pair of single quotes after `after`. */
static bool quoted_after(const char *msg, const char *after, char *buf, size_t len) {
  const char *p = strstr(msg, after);
  if (!p) return false;
  p += strlen(after);
  const char *q = strchr(p, '\'');
  if (p[-1] != '\'' || !q || (size_t)(q - p) >= len) return false;
  snprintf(buf, len, "%.*s", (int)(q - p), p);
  return true;
}

char *fuser_irdl_error_with_context(const char *message, const char *op_name) {
  size_t cap = strlen(message) + strlen(op_name) + 600;
  char *out = malloc(cap);
  if (strncmp(message, "op ", 3) == 0) { /* IRDL's op-level errors: name the op as MLIR's own do */
    snprintf(out, cap, "'%s' %s", op_name, message);
    return out;
  }
  char base[128] = "", is[128] = "", want[130] = "";
  bool attr_base = quoted_after(message, "expected base attribute '", base, sizeof base);
  bool type_base = !attr_base && quoted_after(message, "expected base type '", base, sizeof base);
  bool type_is = !attr_base && !type_base && quoted_after(message, "expected '", is, sizeof is);
  names found = {{0}, 0};
  if ((attr_base || type_base || type_is) && strncmp(op_name, "fuser.", 6) == 0) {
    snprintf(want, sizeof want, "%s%s", attr_base ? "#" : "!", base);
    MlirContext c = mlirContextCreate();
    mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), c);
    MlirModule irdl = mlirModuleCreateParse(c, mlirStringRefCreateFromCString(fuser_irdl_source()));
    if (!mlirModuleIsNull(irdl)) {
      find_names(irdl, op_name + 6, type_is ? NULL : want, type_is ? is : NULL, &found);
      mlirModuleDestroy(irdl);
    }
    mlirContextDestroy(c);
  }
  if (found.count) snprintf(out, cap, "'%s' op %s%s: %s", op_name, found.count > 1 ? "one of " : "", found.text, message);
  else if (attr_base || type_base || type_is) snprintf(out, cap, "'%s' op %s", op_name, message);
  else snprintf(out, cap, "%s", message); /* not IRDL's: as it came */
  return out;
}
