/* segment_internal.h: fuser-segment's state, shared by its files:
 * segment.c (the pass: its phases in order), segment_roots.c (the cut
 * rules: which tensors are materialized, and why), segment_cone.c (the ops
 * and globals of a kernel), segment_group.c (roots into kernels) and
 * segment_outline.c (the kernel functions and the plan's calls). */
#ifndef FUSER_PASSES_SEGMENT_INTERNAL_H
#define FUSER_PASSES_SEGMENT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "passes/dim_graph.h"
#include "passes/ir_util.h"
#include "passes/ptr_map.h"

/* Per-value facts, in a ptr_map to small integers. */
enum { ROLE_HOST = 1, ROLE_COMPUTE = 2 };

typedef struct {
  MlirValue value;
  char reason[160];
  int kernel;
} root_info;

typedef struct {
  MlirOperation func;
  MlirBlock body;
  MlirContext ctx;
  fuser_dim_graph g;
  fuser_ptr_map role;       /* value -> ROLE_* */
  fuser_ptr_map has_red;    /* value -> 1 when its inline cone has a reduction */
  fuser_ptr_map cost;       /* value -> compute ops in its inline cone (capped) */
  fuser_ptr_map ops;        /* value -> compute ops in its inline cone, an upper bound up to
                               budget + 1 (exact along chains; shared ops count once per use) */
  intptr_t budget;          /* max-kernel-ops (0: none) */
  fuser_ptr_map row_space;  /* value with a reduction in its cone -> that reduction's input, when
                               the reduction is inner (reduces the input's innermost dims), or
                               outer / middle and held by the outer persistent schedule */
  fuser_ptr_map row_reduced; /* the same value -> the dims that reduction reduced, [from, from + k),
                               as from * 64 + k */
  fuser_ptr_map row_tree;   /* the same value -> the tree bytes per lane of the outer reductions
                               in its cone (fuser_reduction_tree_bytes, summed along the chain) */
  fuser_ptr_map declined;   /* value with an outer reduction broadcast back that no block holds in
                               its cone -> that reduction's rows (-1: symbolic) */
  fuser_ptr_map root_index; /* value -> index in roots */
  fuser_ptr_map position;   /* value -> definition order in the plan (arguments first) */
  intptr_t next_position;
  fuser_ptr_map written;    /* call result -> the fuser.strides it was written with */
  fuser_ptr_map alias_copy; /* the copy of an aliased output (fuser.alias_input) -> 1 */
  root_info *roots;
  int nroots, cap;
  int nkernels;
} seg_state;

/* The ops a kernel computes (its roots' cones up to host values and other
 * roots), collected as a mark per op. */
typedef struct {
  fuser_ptr_map in_cone; /* op -> 1 */
  fuser_ptr_map input_index;
  MlirValue *inputs;
  int ninputs, cap;
  MlirOperation *ops; /* the cone's ops, in discovery order */
  int nops, ops_cap;
} kernel_cone;

static inline int role(seg_state *st, MlirValue v) {
  intptr_t r = 0;
  fuser_ptr_map_get(&st->role, v.ptr, &r);
  return (int)r;
}

static inline bool is_root(seg_state *st, MlirValue v) { return fuser_ptr_map_get(&st->root_index, v.ptr, NULL); }

static inline bool is_tensor(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

static inline int alias_input_of(MlirOperation func, int result) {
  MlirAttribute a = fuser_func_result_attr(func, result, "fuser.alias_input");
  return mlirAttributeIsNull(a) ? -1 : (int)mlirIntegerAttrGetValueInt(a);
}

static inline bool is_alias_copy(seg_state *st, MlirValue v) { return fuser_ptr_map_get(&st->alias_copy, v.ptr, NULL); }

static inline intptr_t position_of(seg_state *st, MlirValue v) {
  intptr_t p = 0;
  fuser_ptr_map_get(&st->position, v.ptr, &p);
  return p;
}

/* A matrix product's result: alone in its kernel (a cuBLASLt call). */
static inline bool is_matmul(MlirValue v) {
  return !mlirValueIsABlockArgument(v) && fuser_op_kind_of(fuser_op_id_of(mlirOpResultGetOwner(v))) == FUSER_KIND_MATMUL;
}

/* ---- the cut rules (segment_roots.c) ---- */
/* Host values live in the plan: arguments, views, scalars (st->role, and
 * every value's position in the plan). */
void seg_classify(seg_state *st);
/* Each output aliased to an input becomes a fuser.set of its value, defined
 * last; false after a located error (a view of that same input). */
bool seg_insert_alias_copies(seg_state *st);
/* Decides the materialized tensors (roots), in program order. */
void seg_find_roots(seg_state *st);
/* Materializes expensive values shared by kernels of different shapes. */
void seg_materialize_shared(seg_state *st);
/* Makes `v` a root (a kernel result), `reason` its entry in fuser.cuts. */
void seg_add_root(seg_state *st, MlirValue v, const char *reason);
/* Whether two tensors have the same extents (one iteration space). */
bool seg_same_shape(seg_state *st, MlirValue a, MlirValue b);

/* ---- kernels ---- */
/* Adds root's cone to `k`, up to host values and roots not in `kernel`
 * (segment_cone.c). */
void seg_collect_cone(seg_state *st, kernel_cone *k, MlirValue root, int kernel);
/* Assigns roots to kernels (segment_group.c). */
void seg_group_roots(seg_state *st);
/* Builds kernel `kernel`'s function and its call in the plan
 * (segment_outline.c). */
void seg_outline(seg_state *st, int kernel);

#endif
