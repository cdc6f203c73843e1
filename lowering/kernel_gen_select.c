/* kernel_gen_select.c: per-tensor access widths checked in the kernel
 * (passes/access_select.h; docs/lowering.md "Per-tensor access widths").
 *
 * The `mixed` variant's access conditions become one i1 per tensor, made in
 * the prologue from its pointer and run-time strides:
 *   %p  = memref.extract_aligned_pointer_as_index %arg0 : memref<1xbf16> -> index
 *   %ok = (%p mod 16 == 0) and (stride(t0, 0) mod 8 == 0)
 * and each contiguous access of that tensor becomes its pair of aligned
 * loads (kernel_gen_shift.c; issued ahead of the point, kg_prefetch_load),
 * then
 *   %v = scf.if %ok -> vector<8xbf16> { the first of the pair } else { the pair shifted }
 * (8 x memref.load and from_elements where the vector has no shifted form).
 * The branch is the same for every thread of the grid (no divergence), and
 * the element accesses are coalesced across the warp: lane l of consecutive
 * threads reads consecutive 16-byte chunks, so a warp's 8 loads touch the
 * same 512 contiguous bytes that one vector load would.
 *
 * Known gap: where the index math shows a tensor's element offset to be a
 * multiple of W (a contiguous tensor without run-time strides), LLVM's
 * optimizer merges the two branches of its load into the element loads
 * alone (the PTX of two_inputs' and rope's mixed variants: the aligned
 * input is read with ld.global.b16). Stores keep their branch. Yielding the
 * bytes as 32-bit words or offsetting the index by an opaque zero did not
 * stop it (the loads were scalarized and sunk into loads from a selected
 * pointer). */
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "passes/conditions.h"

/* x mod m == 0, m a power of two: (x & (m - 1)) == 0 */
static MlirValue multiple_of(gen *g, MlirValue x, int64_t m) {
  fb_builder *b = &g->b;
  return fb_cmpi(b, FB_CMPI_EQ, fb_andi(b, x, kg_cidx(g, m - 1)), g->zero_index);
}

void kg_access_checks(gen *g, MlirAttribute conditions) {
  if (mlirAttributeIsNull(conditions)) return;
  fb_builder *b = &g->b;
  fb_ip save = kg_enter_prologue(g);
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(conditions); i++) {
    fk_condition c;
    if (!fk_condition_read(mlirArrayAttrGetElement(conditions, i), g->k->num_args, &c)) continue;
    int t = c.tensor;
    if (t < 0 || t >= g->k->num_tensors || !g->k->t[t].is_tensor) continue;
    MlirValue ok;
    if (c.kind == FK_COND_ALIGN) {
      MlirValue p = kg_param(g, FK_PARAM_PTR, t, -1);
      MlirType idx = fb_index_type(b);
      MlirValue addr = fb_op1(b, "memref.extract_aligned_pointer_as_index", idx, 1, &p);
      ok = multiple_of(g, addr, c.value);
    } else if (c.kind == FK_COND_STRIDE) {
      ok = multiple_of(g, kg_param(g, FK_PARAM_STRIDE, t, c.dim), c.value);
    } else continue;
    g->access_ok[t] = mlirValueIsNull(g->access_ok[t]) ? ok : fb_andi(b, g->access_ok[t], ok);
  }
  kg_leave_prologue(g, save);
}

MlirValue kg_lanes_load(gen *g, MlirType vty, MlirValue m, MlirValue addr, MlirValue step) {
  MlirValue lanes[64], cur = addr;
  for (int l = 0; l < g->W && l < 64; l++) {
    lanes[l] = fb_load(&g->b, m, cur);
    cur = fb_addi(&g->b, cur, step);
  }
  return fb_from_elements(&g->b, vty, g->W, lanes);
}

void kg_lanes_store(gen *g, MlirValue v, MlirValue m, MlirValue addr, MlirValue step) {
  MlirValue cur = addr;
  for (int l = 0; l < g->W; l++) {
    fb_store(&g->b, fb_extract(&g->b, v, l), m, cur);
    cur = fb_addi(&g->b, cur, step);
  }
}

bool kg_issues_pair(gen *g, int t) { return !mlirValueIsNull(g->access_ok[t]) && kg_shiftable(g, t); }

MlirValue kg_load_when(gen *g, MlirValue when, MlirType vty, MlirValue m, MlirValue addr, int64_t align) {
  fb_builder *b = &g->b;
  fb_ip save = fb_get_ip(b);
  MlirOperation br = fb_if(b, when, 1, &vty, true);
  fb_set_ip(b, fb_ip_end(fb_then(br)));
  MlirValue v = fb_vector_load(b, vty, m, addr, align);
  fb_yield(b, 1, &v);
  fb_set_ip(b, fb_ip_end(fb_else(br)));
  MlirValue z = kg_zero_vector(g, vty);
  fb_yield(b, 1, &z);
  fb_set_ip(b, save);
  return fb_result(br, 0);
}

kg_pair kg_select_issue(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr, int64_t align) {
  if (mlirValueIsNull(g->access_ok[t])) return (kg_pair){fb_vector_load(&g->b, vty, m, addr, align), {NULL}};
  /* an aligned tensor's vector is its pair's v0 (no second load) */
  kg_pair p = kg_shift_issue(g, t, vty, m, addr);
  if (!mlirValueIsNull(p.v0)) return p;
  return (kg_pair){kg_load_when(g, g->access_ok[t], vty, m, addr, align), {NULL}};
}

MlirValue kg_select_load(gen *g, int t, MlirType vty, MlirValue m, MlirValue addr, int64_t align, const kg_pair *pre) {
  fb_builder *b = &g->b;
  kg_pair p = pre ? *pre : kg_select_issue(g, t, vty, m, addr, align);
  if (mlirValueIsNull(g->access_ok[t])) return p.v0;
  fb_ip save = fb_get_ip(b);
  MlirOperation br = fb_if(b, g->access_ok[t], 1, &vty, true);
  fb_set_ip(b, fb_ip_end(fb_then(br)));
  fb_yield(b, 1, &p.v0);
  fb_set_ip(b, fb_ip_end(fb_else(br)));
  /* the misaligned tensor: the shifted pair (or, for vectors of other sizes
   * than 4, 8 and 16 bytes, element loads) */
  MlirValue narrow = mlirValueIsNull(p.v1) ? kg_lanes_load(g, vty, m, addr, kg_cidx(g, 1))
                                           : kg_shift_finish(g, t, vty, m, addr, p);
  fb_yield(b, 1, &narrow);
  fb_set_ip(b, save);
  return fb_result(br, 0);
}

void kg_select_store(gen *g, int t, MlirValue v, MlirValue m, MlirValue addr, int64_t align) {
  fb_builder *b = &g->b;
  if (mlirValueIsNull(g->access_ok[t])) {
    fb_vector_store(b, v, m, addr, align);
    return;
  }
  fb_ip save = fb_get_ip(b);
  MlirOperation br = fb_if(b, g->access_ok[t], 0, NULL, true);
  fb_set_ip(b, fb_ip_in(fb_then(br)));
  fb_vector_store(b, v, m, addr, align);
  fb_set_ip(b, fb_ip_in(fb_else(br)));
  /* the misaligned tensor: aligned chunks (or, for other vector sizes, element stores) */
  if (!kg_shift_store(g, t, v, m, addr)) kg_lanes_store(g, v, m, addr, kg_cidx(g, 1));
  fb_set_ip(b, save);
}
