/* The plan model as runtime builder calls (see plan_artifact.h). Kept apart
 * from the MLIR side: the runtime's headers define their own dtype enum. */
#include "lowering/plan_artifact.h"

#include <stdio.h>
#include <string.h>

#include "driver/artifact_builder.h"
#include "driver/expr.h"
#include "lowering/plan_matmul.h"

static int runtime_dtype(const char *mlir) {
  static const struct {
    const char *name;
    int dtype;
  } map[] = {{"bf16", FUSER_TYPE_BF16}, {"f16", FUSER_TYPE_F16}, {"f32", FUSER_TYPE_F32}, {"f64", FUSER_TYPE_F64},
             {"i1", FUSER_TYPE_BOOL},   {"i32", FUSER_TYPE_I32}, {"i64", FUSER_TYPE_I64}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (strcmp(map[i].name, mlir) == 0) return map[i].dtype;
  return 0;
}

int fuser_plan_buffer_kind(int b) {
  return b == FPM_INPUT ? FUSER_BUFFER_INPUT : b == FPM_OUTPUT ? FUSER_BUFFER_OUTPUT : FUSER_BUFFER_TEMP;
}

int fuser_plan_to_artifact(const fuser_plan_model *m, int num_metadata, const char *const *keys,
                           const void *const *blobs, const size_t *sizes, struct fuser_artifact **out, char *err,
                           size_t errlen) {
  fuser_builder *b = fuser_builder_create();
  for (int i = 0; i < m->num_modules; i++) fuser_builder_add_module(b, FUSER_MODULE_PTX, m->modules[i], m->module_sizes[i]);
  for (int i = 0; i < m->num_inputs; i++) {
    const fpm_input *in = &m->inputs[i];
    if (in->tensor)
      fuser_builder_add_tensor_input(b, in->name, runtime_dtype(in->dtype), in->rank, in->sizes, in->contiguity, in->stride_order);
    else fuser_builder_add_scalar_input(b, in->name, runtime_dtype(in->dtype));
  }
  for (int i = 0; i < m->num_outputs; i++) {
    const fpm_output *o = &m->outputs[i];
    if (o->alias_input >= 0)
      fuser_builder_add_alias_output_programs(b, o->alias_input, o->rank, o->offset, (const struct fuser_expr *const *)o->sizes,
                                              (const struct fuser_expr *const *)o->strides);
    else fuser_builder_add_output_programs(b, runtime_dtype(o->dtype), o->rank, (const struct fuser_expr *const *)o->sizes,
                                           o->stride_order);
  }
  for (int i = 0; i < m->num_temps; i++) {
    int t = fuser_builder_add_temp_program(b, m->temps[i].bytes, 0);
    if (m->temps[i].index_sites) fuser_builder_set_index_flag(b, t, m->temps[i].index_sites);
  }
  for (int i = 0; i < m->num_checks; i++) fuser_builder_add_check_program(b, m->checks[i].cond, m->checks[i].message);
  fuser_expr one_program, *one = &one_program; /* the grid's y and z */
  if (fuser_expr_const(1, one) != 0) {
    fuser_builder_destroy(b);
    snprintf(err, errlen, "out of memory");
    return FUSER_ERR_OUT_OF_MEMORY;
  }
  for (int k = 0; k < m->num_kernels; k++) {
    const fpm_kernel *kn = &m->kernels[k];
    if (kn->matmul) { /* cuBLASLt's, in launch order with the others */
      fuser_plan_add_matmul(b, kn, runtime_dtype(kn->matmul->dtype));
      continue;
    }
    int ki = fuser_builder_add_kernel(b, kn->name);
    for (int p = 0; p < kn->num_params; p++) {
      const fpm_param *q = &kn->params[p];
      switch (q->kind) {
      case FPM_PARAM_PTR:
        /* temps are untyped: their offsets are in bytes (always 0 here) */
        fuser_builder_param_pointer_program(b, ki, fuser_plan_buffer_kind(q->buffer), q->index, q->expr);
        break;
      case FPM_PARAM_I32: fuser_builder_param_value_program(b, ki, FUSER_PARAM_I32, q->expr); break;
      case FPM_PARAM_I64: fuser_builder_param_value_program(b, ki, FUSER_PARAM_I64, q->expr); break;
      case FPM_PARAM_F32: fuser_builder_param_scalar(b, ki, FUSER_PARAM_F32, q->index); break;
      case FPM_PARAM_F64: fuser_builder_param_scalar(b, ki, FUSER_PARAM_F64, q->index); break;
      }
    }
    for (int v = 0; v < kn->num_variants; v++) {
      const fpm_variant *va = &kn->variants[v];
      fuser_builder_add_variant_programs(b, ki, va->module, va->entry, (const struct fuser_expr *const[3]){va->grid, one, one},
                                         (const unsigned[3]){(unsigned)va->block, 1, 1}, 0, va->num_conditions,
                                         (const struct fuser_expr *const *)va->conditions);
    }
  }
  fuser_expr_free(one);
  for (int i = 0; i < num_metadata; i++) fuser_builder_set_metadata(b, keys[i], blobs[i], sizes[i]);
  fuser_error e;
  int status = fuser_builder_finish(b, out, &e);
  if (status != FUSER_OK) snprintf(err, errlen, "%s", e.message);
  return status;
}
