/* kernel_gen_values.c: values of the kernel generator (see
 * kernel_gen_internal.h): types of dtypes, constants, parameters, splats and
 * dtype conversions. Separate because every other part of the generator
 * builds on it, and it knows nothing of the op DAG. */
#include <math.h>
#include <string.h>

#include "lowering/kernel_gen_internal.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

bool kg_fail_op(gen *g, MlirOperation op, const char *msg) {
  if (!g->failed) mlirEmitError(mlirOperationGetLocation(op), msg);
  g->failed = true;
  return false;
}

fb_ip kg_enter_prologue(gen *g) {
  fb_ip save = fb_get_ip(&g->b);
  fb_set_ip(&g->b, g->pro);
  return save;
}

void kg_leave_prologue(gen *g, fb_ip save) { fb_set_ip(&g->b, save); }

MlirType kg_elem_type(gen *g, fuser_dtype dt) { return fuser_dtype_to_type(g->b.ctx, dt); }

MlirType kg_storage_type(gen *g, fuser_dtype dt) {
  return dt == FUSER_DTYPE_I1 ? fb_int_type(&g->b, 8) : kg_elem_type(g, dt);
}

MlirType kg_type(gen *g, fuser_dtype dt, bool vec) {
  MlirType t = kg_elem_type(g, dt);
  return vec ? fb_vector_type(t, g->W) : t;
}

MlirValue kg_cidx(gen *g, int64_t v) { return fb_const_index(&g->b, v); }

MlirValue kg_param(gen *g, fk_param_kind kind, int tensor, int dim) {
  for (int i = 0; i < g->nparams; i++)
    if (g->params[i].kind == kind && g->params[i].tensor == tensor && (g->params[i].dim == dim)) return g->param_values[i];
  /* not in the fixed list: a bug of the list (kernel_gen.c, param_list) */
  kg_fail_op(g, g->k->func, "internal error: a kernel parameter missing from the parameter list");
  return g->zero_index;
}

MlirValue kg_iter_extent(gen *g, int d) {
  const fk_kernel *k = g->k;
  return k->extent[d] == FK_DYN ? kg_param(g, FK_PARAM_SIZE, k->num_args, k->iter_dim[d]) : kg_cidx(g, k->extent[d]);
}

bool kg_is_float(fuser_dtype dt) { return fuser_dtype_is_float(dt); }

kval kg_const(gen *g, double v, fuser_dtype dt, bool vec) {
  fb_builder *b = &g->b;
  MlirType t = kg_elem_type(g, dt);
  kval r = {.vec = vec, .dt = dt};
  if (dt == FUSER_DTYPE_I1) r.v = fb_const_bool(b, v != 0);
  else if (kg_is_float(dt)) r.v = fb_const_float(b, t, v);
  else r.v = fb_const_int(b, t, (int64_t)v);
  if (vec) {
    fb_ip save = kg_enter_prologue(g);
    r.v = fb_broadcast(b, r.v, fb_vector_type(t, g->W));
    kg_leave_prologue(g, save);
  }
  return r;
}

kval kg_kconst(gen *g, double v, kval like) { return kg_const(g, v, like.dt, like.vec); }

kval kg_splat(gen *g, kval x) {
  if (x.vec || g->W == 1) return x;
  return (kval){fb_broadcast(&g->b, x.v, kg_type(g, x.dt, true)), true, x.dt};
}

kval kg_convert(gen *g, kval x, fuser_dtype to) {
  if (x.dt == to) return x;
  kval r = {.vec = x.vec, .dt = to};
  if (to == FUSER_DTYPE_I1) { /* x != 0 */
    kval z = kg_const(g, 0, x.dt, x.vec);
    r.v = kg_is_float(x.dt) ? fb_cmpf(&g->b, FB_CMPF_UNE, x.v, z.v) : fb_cmpi(&g->b, FB_CMPI_NE, x.v, z.v);
    return r;
  }
  if ((x.dt == FUSER_DTYPE_BF16 && to == FUSER_DTYPE_F16) || (x.dt == FUSER_DTYPE_F16 && to == FUSER_DTYPE_BF16))
    return kg_convert(g, kg_convert(g, x, FUSER_DTYPE_F32), to);
  const char *op;
  if (kg_is_float(x.dt) && kg_is_float(to)) op = fuser_dtype_size(to) > fuser_dtype_size(x.dt) ? "arith.extf" : "arith.truncf";
  else if (x.dt == FUSER_DTYPE_I1) op = kg_is_float(to) ? "arith.uitofp" : "arith.extui";
  else if (!kg_is_float(x.dt) && kg_is_float(to)) op = "arith.sitofp";
  else if (kg_is_float(x.dt) && !kg_is_float(to)) op = "arith.fptosi";
  else op = fuser_dtype_size(to) > fuser_dtype_size(x.dt) ? "arith.extsi" : "arith.trunci";
  r.v = fb_cast(&g->b, op, x.v, kg_type(g, to, x.vec));
  return r;
}
