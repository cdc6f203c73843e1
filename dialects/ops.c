/* The op table (ops.def) as data: names, kinds and dtype rules. */
#include "dialects/fuser.h"

#include <string.h>

static const struct {
  const char *mnemonic;
  const char *full_name;
  fuser_op_kind kind;
  fuser_rule rule;
  unsigned char len; /* strlen(mnemonic): the lookup below runs several times per op */
} op_table[FUSER_OP_COUNT] = {
#define FUSER_OP(name, kind, rule, ...) {#name, "fuser." #name, FUSER_KIND_##kind, FUSER_RULE_##rule, sizeof #name - 1},
#include "ops.def"
};

/* Total over fuser_op_id: FUSER_OP_NONE (what fuser_op_id_of gives for an
 * op of another dialect) and any other id outside the table answer "?",
 * FUSER_KIND_NONE and FUSER_RULE_NONE instead of reading outside it. */
static bool in_table(fuser_op_id id) { return (unsigned)id < FUSER_OP_COUNT; }

const char *fuser_op_mnemonic(fuser_op_id id) { return in_table(id) ? op_table[id].mnemonic : "?"; }
const char *fuser_op_full_name(fuser_op_id id) { return in_table(id) ? op_table[id].full_name : "?"; }
fuser_op_kind fuser_op_kind_of(fuser_op_id id) { return in_table(id) ? op_table[id].kind : FUSER_KIND_NONE; }
fuser_rule fuser_op_rule_of(fuser_op_id id) { return in_table(id) ? op_table[id].rule : FUSER_RULE_NONE; }

bool fuser_op_is_layout_set(MlirOperation op) {
  return fuser_op_id_of(op) == FUSER_OP_set &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.stride_order")));
}

bool fuser_op_is_plan_level(fuser_op_id id) {
  switch (fuser_op_kind_of(id)) {
  case FUSER_KIND_VIEW:
  case FUSER_KIND_QUERY:
  case FUSER_KIND_CHECK:
  case FUSER_KIND_HOST:
  case FUSER_KIND_ADDRESS:
  case FUSER_KIND_LAUNCH: return true;
  default: return false;
  }
}

bool fuser_is_triangle_op(fuser_op_id id) { return id == FUSER_OP_triu || id == FUSER_OP_tril; }
/* torch.triu keeps col - row >= diagonal, torch.tril col - row <= diagonal */
bool fuser_triangle_keeps(fuser_op_id id, int64_t row, int64_t col, int64_t diagonal) {
  return id == FUSER_OP_triu ? col - row >= diagonal : col - row <= diagonal;
}

/* A scan that compares lengths and first characters before any bytes: the
 * importer, the verifier and every pass look names up per op (a strlen per
 * table entry was 8 % of importing 200k ops). */
fuser_op_id fuser_op_from_mnemonic(const char *mnemonic, size_t len) {
  if (len == 0) return FUSER_OP_NONE;
  for (int i = 0; i < FUSER_OP_COUNT; i++)
    if (op_table[i].len == len && op_table[i].mnemonic[0] == mnemonic[0] && memcmp(op_table[i].mnemonic, mnemonic, len) == 0)
      return (fuser_op_id)i;
  return FUSER_OP_NONE;
}

fuser_op_id fuser_op_id_of(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length < 7 || memcmp(name.data, "fuser.", 6) != 0) return FUSER_OP_NONE;
  return fuser_op_from_mnemonic(name.data + 6, name.length - 6);
}
