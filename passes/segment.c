/* fuser-segment: partition a fusion into as few kernels as correctness
 * allows, outline them, and turn the fusion body into a host plan.
 *
 * A tensor is materialized in global memory only when it must be:
 *   - it is a fusion output (that is not an input or a view of one);
 *   - it is a `segment_set` of a computed tensor;
 *   - it depends on a reduction and is consumed at a different shape
 *     (re-evaluating it per consumer element would repeat the reduction),
 *     unless the consumer stays in the reduction's row space: an inner
 *     reduction (its input's innermost dims), its broadcast back and its
 *     epilogue are one kernel, which the inner-persistent row schedule
 *     computes with the row in registers (passes/schedule_reduction.h);
 *     so are an outer or middle-dim reduction (softmax over dim 1 of
 *     [B, C, W]) and its broadcast back when the outer persistent schedule
 *     holds its C rows in one block (fuser_outer_persistent_fits; else the
 *     cut says why);
 *   - it holds a reduction and is reduced again over other rows;
 *   - it is a matmul/linear result or operand: each product is a kernel of
 *     its own (attribute `fuser.matmul`), which the plan runs through
 *     cuBLASLt, reading its operands from global memory;
 *   - a kernel would compute more than `max-kernel-ops` ops (default 1000):
 *     the largest operands of the op that crosses the budget are cut
 *     ("kernel op budget"), and kernels of one shape and level share a
 *     kernel only within the budget. LLVM's NVPTX code generation of one
 *     kernel body grows faster than linearly with its size (its DAG combiner
 *     over one basic block); bounded bodies keep a 100,000-op chain's
 *     compile time linear, as nvFuser's segmenter bounds its segments.
 * Everything else is recomputed inside the kernels that need it: pointwise
 * ops, casts, broadcasts, slice, pad and cat fuse with their producers and
 * consumers (no forced boundary before resize ops, unlike nvFuser #1597,
 * #2599); views of inputs are read in place; alias outputs make no kernel.
 * An output written into an input (`fuser.alias_input = K`, nvFuser's
 * add_output(out, alias_input)) is computed into a temporary and copied
 * into argument K's buffer by a kernel of its own, launched after every
 * kernel, so no kernel reads K after (or while) it is overwritten.
 * Each materialized tensor is the root of a kernel whose iteration space is
 * its shape; independent roots of the same shape share a kernel. Scalars
 * reach kernels as parameters when the plan can compute them on the host
 * (arguments, sizes, strides and i64 + - * of them); other scalar math is
 * cloned into the kernels that use it (their prologue computes it).
 *
 * Kernels become private functions `@<fusion>_k<N>` (attribute
 * `fuser.kernel`) over the global tensors they read, each argument and
 * result annotated with `fuser.strides` (its buffer's layout); a result
 * whose new dense buffer is not row-major also with its `fuser.stride_order`
 * (the kernel walks its points in it where the strides are symbolic). The fusion
 * body keeps its views and host scalars and calls the kernels in order;
 * each call says why it exists (`fuser.cuts`). The reference evaluator runs
 * the plan unchanged, which is how segmentation is checked.
 *
 * The phases, in the order segment_fusion runs them, and their files:
 * the cut rules (classification, alias copies, roots, shared values:
 * segment_roots.c), grouping roots into kernels (segment_group.c) and
 * outlining (segment_outline.c), both over kernel cones (segment_cone.c);
 * segment_internal.h holds the state they share.
 *
 * Before:
 *   func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
 *     %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
 *     %1 = "fuser.exp"(%0) : (tensor<8xf32>) -> tensor<8xf32>
 *     return %1 : tensor<8xf32>
 * After:
 *   func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.plan} {
 *     %0 = call @f_k0(%a) {fuser.cuts = ["fusion output"]} : (tensor<8xf32>) -> tensor<8xf32>
 *     return %0 : tensor<8xf32>
 *   func.func private @f_k0(%arg0: tensor<8xf32> {fuser.strides = array<i64: 1>})
 *       -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
 *     %0 = "fuser.neg"(%arg0) ...  %1 = "fuser.exp"(%0) ...  return %1
 */
#include <stdlib.h>

#include "mlir-c/Diagnostics.h"
#include "passes/pass.h"
#include "passes/segment_internal.h"

/* Compute ops left in the plan are dead once kernels exist. */
static void erase_compute(seg_state *st) {
  fuser_erase_dead_ops(st->body);
}

static bool segment_fusion(MlirOperation func, void *ud) {
  seg_state st = {.func = func, .body = fuser_func_body(func), .ctx = mlirOperationGetContext(func),
                  .budget = *(const intptr_t *)ud};
  fuser_ptr_map_init(&st.alias_copy);
  if (!seg_insert_alias_copies(&st)) {
    fuser_ptr_map_free(&st.alias_copy);
    return false;
  }
  fuser_dim_graph_build(&st.g, func);
  fuser_ptr_map_init(&st.role);
  fuser_ptr_map_init(&st.has_red);
  fuser_ptr_map_init(&st.cost);
  fuser_ptr_map_init(&st.ops);
  fuser_ptr_map_init(&st.row_space);
  fuser_ptr_map_init(&st.row_reduced);
  fuser_ptr_map_init(&st.row_tree);
  fuser_ptr_map_init(&st.declined);
  fuser_ptr_map_init(&st.root_index);
  fuser_ptr_map_init(&st.position);
  fuser_ptr_map_init(&st.written);
  seg_classify(&st);
  seg_find_roots(&st);
  seg_materialize_shared(&st);
  seg_group_roots(&st);
  for (int k = 0; k < st.nkernels; k++) seg_outline(&st, k);
  erase_compute(&st);
  mlirOperationSetDiscardableAttributeByName(func, mlirStringRefCreateFromCString("fuser.plan"), mlirUnitAttrGet(st.ctx));
  fuser_ptr_map_free(&st.role);
  fuser_ptr_map_free(&st.has_red);
  fuser_ptr_map_free(&st.cost);
  fuser_ptr_map_free(&st.ops);
  fuser_ptr_map_free(&st.row_space);
  fuser_ptr_map_free(&st.row_reduced);
  fuser_ptr_map_free(&st.row_tree);
  fuser_ptr_map_free(&st.declined);
  fuser_ptr_map_free(&st.root_index);
  fuser_ptr_map_free(&st.position);
  fuser_ptr_map_free(&st.written);
  fuser_ptr_map_free(&st.alias_copy);
  fuser_dim_graph_free(&st.g);
  free(st.roots);
  return true;
}

static bool run(MlirOperation op, const fuser_pass_options *options) {
  const char *text = fuser_pass_option_str(options, "max-kernel-ops");
  char *end = NULL;
  long long value = strtoll(text, &end, 10);
  intptr_t budget = (intptr_t)value;
  if (!*text || *end || value < 0) {
    mlirEmitError(mlirOperationGetLocation(op), "fuser-segment: max-kernel-ops must be an integer >= 0 (0: no budget)");
    return false;
  }
  return fuser_for_each_fusion(op, segment_fusion, &budget);
}

const fuser_pass_info fuser_segment_pass = {
    .argument = "fuser-segment",
    .description = "Partition fusions into kernels (outlined functions) and a host plan that calls them",
    .anchor = "builtin.module",
    .options = {{"max-kernel-ops", "1000", "most ops one kernel computes before a cut (0: no budget)"}},
    .run = run,
};
