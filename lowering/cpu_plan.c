/* cpu_plan.c: a plan model run on the CPU JIT (cpu_plan.h). */
#include "lowering/cpu_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/artifact_builder.h"
#include "driver/expr.h"
#include "reference/reference.h"
#include "support/error.h"

static fuser_dtype dtype_named(const char *name) {
  for (int d = 0; d < FUSER_DTYPE_COUNT; d++)
    if (strcmp(fuser_dtype_mlir_name((fuser_dtype)d), name) == 0) return (fuser_dtype)d;
  return FUSER_DTYPE_INVALID;
}

/* The call's inputs as the runtime's expression programs read them
 * (fuser_expr_eval): DLTensors over the host tensors' sizes and strides. */
typedef struct {
  DLTensor *dl;
  fuser_arg *args;
  int n;
} program_env;

static bool program_env_init(program_env *pe, const fuser_host_tensor *inputs, int n) {
  pe->n = n;
  pe->dl = calloc((size_t)n + 1, sizeof *pe->dl);
  pe->args = calloc((size_t)n + 1, sizeof *pe->args);
  if (!pe->dl || !pe->args) return false;
  for (int i = 0; i < n; i++) {
    const fuser_host_tensor *t = &inputs[i];
    if (t->rank < 0) {
      pe->args[i] = fuser_dtype_is_float(t->dtype) ? fuser_arg_double(t->scalar.f) : fuser_arg_int(t->scalar.i);
      continue;
    }
    pe->dl[i] = (DLTensor){.data = t->data, .ndim = t->rank, .shape = (int64_t *)t->sizes, .strides = (int64_t *)t->strides};
    pe->args[i] = fuser_arg_tensor(&pe->dl[i]);
  }
  return true;
}

static void program_env_free(program_env *pe) { free(pe->dl), free(pe->args); }

/* The value of program e (an output size, a temp's bytes...) for the call. */
static bool run_program(const fuser_expr *e, const program_env *pe, int64_t *out, const char *what, char *err, size_t errlen) {
  if (!e) return fuser_message(err, errlen, "%s: no program", what);
  int code = fuser_expr_eval(e, pe->args, (size_t)pe->n, out);
  if (code == FUSER_EXPR_OK) return true;
  char text[512];
  return fuser_message(err, errlen, "cannot evaluate %s '%s': %s", what, fuser_expr_print(e, text, sizeof text), fuser_expr_error_text(code));
}

static void *alloc256(size_t bytes) {
  size_t n = (bytes + 255) / 256 * 256;
  return aligned_alloc(256, n ? n : 256);
}

/* Where a pointer parameter points: its buffer plus the element offset
 * (bytes for temps). */
static char *pointer(const fpm_param *q, int64_t offset, const fuser_host_tensor *inputs, fuser_host_tensor *outputs,
                     void **temps) {
  if (q->buffer == FPM_INPUT) return (char *)inputs[q->index].data + offset * (int64_t)fuser_dtype_size(inputs[q->index].dtype);
  if (q->buffer == FPM_OUTPUT) return (char *)outputs[q->index].data + offset * (int64_t)fuser_dtype_size(outputs[q->index].dtype);
  return (char *)temps[q->index] + offset;
}

/* A matmul segment on the CPU: the reference's implementation
 * (fuser_ref_matmul_run), after the extent checks the runtime makes. */
static bool run_matmul(const fpm_kernel *kern, const program_env *env, const fuser_host_tensor *inputs,
                       fuser_host_tensor *outputs, void **temps, char *err, size_t errlen) {
  const fpm_matmul *mm = kern->matmul;
  for (int c = 0; c < mm->num_checks; c++) {
    int64_t r = 0;
    if (!run_program(mm->checks[c], env, &r, "a matmul check", err, errlen)) return false;
    if (!r) {
      char text[512];
      snprintf(err, errlen, "%s: the operands' extents disagree (%s)", kern->name, fuser_expr_print(mm->checks[c], text, sizeof text));
      return false;
    }
  }
  fuser_ref_matmul_args x = {.dtype = dtype_named(mm->dtype), .batch = mm->batch};
  struct {
    const fuser_expr *program;
    int64_t *to;
  } e[] = {{mm->m, &x.m},         {mm->n, &x.n},         {mm->k, &x.k},         {mm->a_m, &x.a_m},
           {mm->a_k, &x.a_k},     {mm->b_k, &x.b_k},     {mm->b_n, &x.b_n},     {mm->out_m, &x.out_m},
           {mm->out_n, &x.out_n}, {mm->bias_n, &x.bias_n}};
  for (size_t i = 0; i < sizeof e / sizeof *e; i++)
    if (!run_program(e[i].program, env, e[i].to, "a matmul extent or stride", err, errlen)) return false;
  for (int i = 0; i < mm->batch; i++)
    if (!run_program(mm->batch_size[i], env, &x.batch_size[i], "a matmul batch extent", err, errlen) ||
        !run_program(mm->a_batch[i], env, &x.a_batch[i], "a matmul batch stride", err, errlen) ||
        !run_program(mm->b_batch[i], env, &x.b_batch[i], "a matmul batch stride", err, errlen) ||
        !run_program(mm->out_batch[i], env, &x.out_batch[i], "a matmul batch stride", err, errlen))
      return false;
  int64_t off[4];
  const fpm_param *ptr[4] = {&mm->a, &mm->b, &mm->out, &mm->bias};
  for (int i = 0; i < (mm->has_bias ? 4 : 3); i++)
    if (!run_program(ptr[i]->expr, env, &off[i], "a matmul operand offset", err, errlen)) return false;
  x.a = pointer(&mm->a, off[0], inputs, outputs, temps);
  x.b = pointer(&mm->b, off[1], inputs, outputs, temps);
  x.out = pointer(&mm->out, off[2], inputs, outputs, temps);
  x.bias = mm->has_bias ? pointer(&mm->bias, off[3], inputs, outputs, temps) : NULL;
  if (fuser_ref_matmul_run(&x)) return true;
  snprintf(err, errlen, "%s: out of memory", kern->name);
  return false;
}

bool fuser_cpu_plan_run(fuser_cpu_module *jit, const fuser_plan_model *plan, const fuser_host_tensor *inputs,
                        fuser_host_tensor *outputs, const char **variants, char *err, size_t errlen) {
  int ni = plan->num_inputs;
  void **temps = calloc((size_t)plan->num_temps + 1, sizeof *temps);
  program_env pe;
  bool ok = program_env_init(&pe, inputs, ni);
  if (!ok) snprintf(err, errlen, "out of memory");
  for (int c = 0; ok && c < plan->num_checks; c++) { /* the call's checks, as the runtime makes them */
    int64_t r = 0;
    char text[512];
    ok = run_program(plan->checks[c].cond, &pe, &r, "a check", err, errlen);
    if (ok && !r) {
      fuser_expr_print(plan->checks[c].cond, text, sizeof text);
      const char *why = plan->checks[c].message;
      snprintf(err, errlen, "input check failed: `%s`%s%s%s", text, why ? " (" : "", why ? why : "", why ? ")" : "");
      ok = false;
    }
  }
  for (int o = 0; ok && o < plan->num_outputs; o++) {
    const fpm_output *po = &plan->outputs[o];
    fuser_host_tensor *t = &outputs[o];
    memset(t, 0, sizeof *t);
    t->dtype = dtype_named(po->dtype);
    t->rank = po->rank;
    for (int d = 0; ok && d < po->rank; d++) ok = run_program(po->sizes[d], &pe, &t->sizes[d], "an output size", err, errlen);
    if (!ok) break;
    if (po->alias_input >= 0) {
      int64_t off = 0;
      ok = run_program(po->offset, &pe, &off, "an alias offset", err, errlen);
      for (int d = 0; ok && d < po->rank; d++) ok = run_program(po->strides[d], &pe, &t->strides[d], "an alias stride", err, errlen);
      const fuser_host_tensor *in = &inputs[po->alias_input];
      t->data = (char *)in->data + off * (int64_t)fuser_dtype_size(in->dtype);
      continue;
    }
    /* dense in the stride order: stride_order[d] is dim d's rank, 0 fastest */
    int64_t running = 1, elems = 1;
    for (int r = 0; r < po->rank; r++)
      for (int d = 0; d < po->rank; d++)
        if (po->stride_order[d] == r) {
          t->strides[d] = running;
          running *= t->sizes[d] > 0 ? t->sizes[d] : 1;
        }
    for (int d = 0; d < po->rank; d++) elems *= t->sizes[d];
    t->data = alloc256((size_t)elems * fuser_dtype_size(t->dtype));
  }
  for (int i = 0; ok && i < plan->num_temps; i++) {
    int64_t bytes = 0;
    ok = run_program(plan->temps[i].bytes, &pe, &bytes, "a temp size", err, errlen);
    if (ok) temps[i] = alloc256((size_t)bytes);
    if (ok && plan->temps[i].index_sites) memset(temps[i], 0, (size_t)bytes); /* an index flag */
  }
  for (int k = 0; ok && k < plan->num_kernels; k++) {
    const fpm_kernel *kern = &plan->kernels[k];
    if (kern->matmul) {
      ok = run_matmul(kern, &pe, inputs, outputs, temps, err, errlen);
      if (variants) variants[k] = "matmul";
      continue;
    }
    const fpm_variant *chosen = NULL;
    for (int v = 0; ok && !chosen && v < kern->num_variants; v++) {
      bool hold = true;
      for (int c = 0; ok && hold && c < kern->variants[v].num_conditions; c++) {
        int64_t r = 0;
        ok = run_program(kern->variants[v].conditions[c], &pe, &r, "a variant condition", err, errlen);
        hold = r != 0;
      }
      if (hold) chosen = &kern->variants[v];
    }
    if (!ok) break;
    if (!chosen) {
      snprintf(err, errlen, "no variant of %s applies", kern->name);
      ok = false;
      break;
    }
    if (variants) variants[k] = chosen->entry;
    fuser_cpu_arg args[FPM_MAX_PARAMS];
    int bits[FPM_MAX_PARAMS];
    for (int p = 0; ok && p < kern->num_params; p++) {
      const fpm_param *q = &kern->params[p];
      int64_t v = 0;
      ok = q->kind == FPM_PARAM_F32 || q->kind == FPM_PARAM_F64 || run_program(q->expr, &pe, &v, "a kernel parameter", err, errlen);
      bits[p] = q->kind == FPM_PARAM_I32 ? 32 : 64;
      switch (q->kind) {
      case FPM_PARAM_PTR:
        args[p] = (fuser_cpu_arg){.kind = FUSER_CPU_ARG_PTR, .ptr = pointer(q, v, inputs, outputs, temps)};
        break;
      case FPM_PARAM_I32:
      case FPM_PARAM_I64: args[p] = (fuser_cpu_arg){.kind = FUSER_CPU_ARG_INT, .i = v}; break;
      case FPM_PARAM_F32:
      case FPM_PARAM_F64:
        args[p] = (fuser_cpu_arg){.kind = q->kind == FPM_PARAM_F32 ? FUSER_CPU_ARG_F32 : FUSER_CPU_ARG_F64,
                                  .f = inputs[q->index].scalar.f};
        break;
      }
    }
    if (ok) ok = fuser_cpu_call(jit, chosen->entry, kern->num_params, args, bits, err, errlen);
    for (int i = 0; ok && i < plan->num_temps; i++) { /* index flags: an index out of range */
      int32_t flag = 0;
      if (plan->temps[i].index_sites) memcpy(&flag, temps[i], sizeof flag);
      if (flag) fuser_index_flag_message(plan->temps[i].index_sites, flag, err, errlen), ok = false;
    }
  }
  for (int i = 0; i < plan->num_temps; i++) free(temps[i]);
  free(temps);
  program_env_free(&pe);
  return ok;
}

void fuser_cpu_plan_free_outputs(const fuser_plan_model *plan, fuser_host_tensor *outputs) {
  for (int o = 0; o < plan->num_outputs; o++)
    if (plan->outputs[o].alias_input < 0) free(outputs[o].data), outputs[o].data = NULL;
}
