/* kernel_gen_index.c: the range check of the data-dependent reads
 * (index_select, gather, take_along_axis) in the kernel generator (see
 * kernel_gen_internal.h). An index outside [0, extent) never reads out of
 * bounds: the read takes index 0 instead and the op's site number
 * (fk_index_sites, 1-based) is stored into the index flag, which the plan
 * zeroes before the launch and reports after it (docs/lowering.md). Negative
 * indices are out of range, as in torch.gather/index_select. The compare is
 * in i64 whatever the index width, so no index wraps into range. */
#include "lowering/kernel_gen_internal.h"

static int site_of(gen *g, MlirOperation op) {
  MlirOperation sites[64];
  int n = fk_index_sites(g->k->func, sites, 64);
  for (int i = 0; i < n && i < 64; i++)
    if (mlirOperationEqual(sites[i], op)) return i + 1;
  return 64; /* sites past the 64th share its number (the plan lists 64) */
}

static MlirValue flag_mem(gen *g) {
  if (mlirValueIsNull(g->flag_mem)) {
    fb_ip save = kg_enter_prologue(g);
    g->flag_mem = fb_reinterpret_1d(&g->b, kg_param(g, FK_PARAM_CHECK, -1, -1), kg_cidx(g, 1));
    kg_leave_prologue(g, save);
  }
  return g->flag_mem;
}

MlirValue kg_index_checked(gen *g, MlirOperation op, kval k, MlirValue extent, MlirValue extra) {
  fb_builder *b = &g->b;
  MlirType i64 = kg_elem_type(g, FUSER_DTYPE_I64);
  kval k64 = kg_convert(g, k, FUSER_DTYPE_I64);
  fb_ip save = kg_enter_prologue(g);
  MlirValue e64 = fb_index_cast(b, extent, i64);
  kg_leave_prologue(g, save);
  MlirValue zero = kg_const(g, 0, FUSER_DTYPE_I64, false).v;
  MlirValue ok = fb_andi(b, fb_cmpi(b, FB_CMPI_SGE, k64.v, zero), fb_cmpi(b, FB_CMPI_SLT, k64.v, e64));
  if (!mlirValueIsNull(extra)) ok = fb_andi(b, ok, extra);
  MlirValue bad = fb_binary(b, "arith.xori", ok, fb_const_bool(b, true));
  MlirValue mem = flag_mem(g);
  MlirOperation when = fb_if(b, bad, 0, NULL, false);
  fb_ip after = fb_get_ip(b);
  fb_set_ip(b, fb_ip_in(fb_then(when)));
  fb_store(b, fb_const_int(b, fb_int_type(b, 32), site_of(g, op)), mem, g->zero_index);
  fb_set_ip(b, after);
  return fb_index_cast(b, fb_select(b, ok, k64.v, zero), fb_index_type(b));
}
