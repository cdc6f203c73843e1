/* ir_util.h: small helpers the passes share for building and editing IR
 * through the C API (generic op construction, function argument and result
 * attributes, dead-op cleanup: IRDL ops have no memory-effect information,
 * so upstream DCE never erases them and our passes clean up after
 * themselves). */
#ifndef FUSER_PASSES_IR_UTIL_H
#define FUSER_PASSES_IR_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/fuser.h"
#include "mlir-c/IR.h"

MlirNamedAttribute fuser_named(MlirContext ctx, const char *name, MlirAttribute a);
MlirAttribute fuser_i64_attr(MlirContext ctx, int64_t v);
MlirAttribute fuser_str_attr(MlirContext ctx, const char *s);

/* Creates an op (not inserted). */
MlirOperation fuser_create_op(MlirLocation loc, const char *name, int nops, const MlirValue *ops, int nres,
                              const MlirType *res, int nattrs, const MlirNamedAttribute *attrs);
/* Inserts `op` right before `anchor` in anchor's block. */
void fuser_insert_before(MlirOperation anchor, MlirOperation op);
bool fuser_op_is(MlirOperation op, const char *name);

/* func.func argument/result attributes (arg_attrs / res_attrs). */
MlirAttribute fuser_func_arg_attr(MlirOperation func, int index, const char *name);
MlirAttribute fuser_func_result_attr(MlirOperation func, int index, const char *name);
void fuser_func_set_arg_attr(MlirOperation func, int index, const char *name, MlirAttribute value);
void fuser_func_set_result_attr(MlirOperation func, int index, const char *name, MlirAttribute value);
MlirBlock fuser_func_body(MlirOperation func);
bool fuser_is_fusion_func(MlirOperation op);

/* Erases, repeatedly, fuser ops (and arith.constant) in `block` whose
 * results have no uses. */
void fuser_erase_dead_ops(MlirBlock block);

/* fuser-cse on one block (passes/cse.c): merges duplicate fuser ops, then
 * erases the dead ones; nested regions too. */
void fuser_cse_block(MlirBlock block);

/* The merge step alone, for the ops `mergeable` accepts (the plan's host
 * scalars, lowering/plan_host_cse.c): two such ops of `block` with the same
 * name, operands, attributes and result types become the first one; nothing
 * is erased, nested regions are not entered. */
void fuser_cse_merge_where(MlirBlock block, bool (*mergeable)(MlirOperation op));

/* Calls fn on every fusion function (func.func with fuser.fusion) under root. */
bool fuser_for_each_fusion(MlirOperation root, bool (*fn)(MlirOperation func, void *ud), void *ud);

#endif
