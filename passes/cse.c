/* fuser-cse: common-subexpression and dead-code elimination of fuser ops,
 * the job upstream `cse` and `canonicalize` cannot do on them: IRDL ops
 * carry no memory-effect information, so MLIR treats every fuser op as
 * having side effects and neither merges nor erases one.
 *
 * Every fuser op computes a pure function of its operands and attributes
 * (ops.def has no random or in-place op), so two ops with the same name,
 * operands, attributes and result types give the same values: the later
 * one's results are replaced by the earlier one's, within a block (the
 * earlier op dominates the later). `set` and `segment_set` are kept apart:
 * each asks for its own copy or segment boundary. Then fuser ops (and
 * arith.constant) whose results are unused are erased (fuser_erase_dead_ops).
 *
 * Before:
 *   %0 = "fuser.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
 *   %1 = "fuser.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
 *   %2 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>      // unused
 *   %3 = "fuser.add"(%0, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
 * After:
 *   %0 = "fuser.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
 *   %3 = "fuser.add"(%0, %0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
 *
 * Anchored on func.func (runs on functions in parallel); no options. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "passes/ir_util.h"
#include "passes/pass.h"

/* Types, attributes and identifiers are uniqued in the context and values
 * are pointers, so equality is pointer equality and hashes can mix them. */
static uint64_t mix(uint64_t h, const void *p) { return (h ^ (uint64_t)(uintptr_t)p) * 0x100000001b3ull; }

static uint64_t op_hash(MlirOperation op) {
  uint64_t h = mix(0xcbf29ce484222325ull, mlirIdentifierStr(mlirOperationGetName(op)).data);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) h = mix(h, mlirOperationGetOperand(op, i).ptr);
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(op); i++)
    h = mix(h, mlirOperationGetDiscardableAttribute(op, i).attribute.ptr);
  return h;
}

static bool same_op(MlirOperation a, MlirOperation b) {
  if (!mlirIdentifierEqual(mlirOperationGetName(a), mlirOperationGetName(b))) return false;
  intptr_t n = mlirOperationGetNumOperands(a), r = mlirOperationGetNumResults(a);
  intptr_t na = mlirOperationGetNumDiscardableAttributes(a);
  if (n != mlirOperationGetNumOperands(b) || r != mlirOperationGetNumResults(b) ||
      na != mlirOperationGetNumDiscardableAttributes(b) || mlirOperationGetNumRegions(a) || mlirOperationGetNumRegions(b))
    return false;
  for (intptr_t i = 0; i < n; i++)
    if (!mlirValueEqual(mlirOperationGetOperand(a, i), mlirOperationGetOperand(b, i))) return false;
  for (intptr_t i = 0; i < r; i++)
    if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(a, i)), mlirValueGetType(mlirOperationGetResult(b, i))))
      return false;
  /* a dictionary's entries are sorted by name: compare them in order */
  for (intptr_t i = 0; i < na; i++) {
    MlirNamedAttribute x = mlirOperationGetDiscardableAttribute(a, i), y = mlirOperationGetDiscardableAttribute(b, i);
    if (!mlirIdentifierEqual(x.name, y.name) || !mlirAttributeEqual(x.attribute, y.attribute)) return false;
  }
  return true;
}

static bool mergeable(MlirOperation op) {
  fuser_op_id id = fuser_op_id_of(op);
  return id != FUSER_OP_NONE && id != FUSER_OP_set && id != FUSER_OP_segment_set;
}

/* An open-addressing table of the ops seen so far in a block. */
typedef struct {
  MlirOperation *slots;
  uint64_t *hashes;
  size_t cap;
} op_table;

/* The earlier op equal to `op`, or `op` itself after recording it. */
static MlirOperation find_or_add(op_table *t, MlirOperation op) {
  uint64_t h = op_hash(op);
  for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    if (mlirOperationIsNull(t->slots[i])) {
      t->slots[i] = op;
      t->hashes[i] = h;
      return op;
    }
    if (t->hashes[i] == h && same_op(t->slots[i], op)) return t->slots[i];
  }
}

/* Merges, in block order, each op `mergeable` accepts into an earlier
 * equal one (which dominates it); with `nested`, first the blocks of each
 * op's regions, by fuser-cse's own rule. */
static void merge_block(MlirBlock block, bool (*mergeable)(MlirOperation), bool nested) {
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    n++;
  op_table t = {NULL, NULL, 16};
  while (t.cap < 2 * n) t.cap *= 2;
  t.slots = calloc(t.cap, sizeof *t.slots);
  t.hashes = calloc(t.cap, sizeof *t.hashes);
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    for (intptr_t r = 0; nested && r < mlirOperationGetNumRegions(op); r++)
      for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
           b = mlirBlockGetNextInRegion(b))
        fuser_cse_block(b);
    if (mergeable(op)) {
      MlirOperation earlier = find_or_add(&t, op);
      if (!mlirOperationEqual(earlier, op)) {
        for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
          mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i), mlirOperationGetResult(earlier, i));
        mlirOperationDestroy(op);
      }
    }
    op = next;
  }
  free(t.slots);
  free(t.hashes);
}

void fuser_cse_block(MlirBlock block) {
  merge_block(block, mergeable, true);
  fuser_erase_dead_ops(block);
}

void fuser_cse_merge_where(MlirBlock block, bool (*accept)(MlirOperation op)) { merge_block(block, accept, false); }

static bool run(MlirOperation func, const fuser_pass_options *options) {
  (void)options;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(func); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      fuser_cse_block(b);
  return true;
}

const fuser_pass_info fuser_cse_pass = {
    .argument = "fuser-cse",
    .description = "Merge duplicate fuser ops and erase unused ones (upstream cse/canonicalize leave IRDL ops alone)",
    .anchor = "func.func",
    .options = {{0}},
    .run = run,
};
