/* cpu_plan.h: running a whole compiled fusion on the CPU: the plan model
 * (plan_model.h: inputs, outputs and aliases, temps, kernels with their
 * parameters and variants, all as expressions of the inputs) executed with
 * the kernels JIT-compiled by cpu_jit.h. The first variant whose
 * conditions hold runs, as on the GPU. */
#ifndef FUSER_LOWERING_CPU_PLAN_H
#define FUSER_LOWERING_CPU_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "lowering/cpu_jit.h"
#include "lowering/plan_model.h"

/* Runs the plan on `inputs` (one per model input; scalars with rank -1).
 * Fills `outputs` (one per model output): new outputs get a 256-byte
 * aligned buffer in `data` (free with fuser_cpu_plan_free_outputs), alias
 * outputs point into their input. `variants` (optional, one per kernel)
 * receives the entry that ran. */
bool fuser_cpu_plan_run(fuser_cpu_module *jit, const fuser_plan_model *plan, const fuser_host_tensor *inputs,
                        fuser_host_tensor *outputs, const char **variants, char *err, size_t errlen);

void fuser_cpu_plan_free_outputs(const fuser_plan_model *plan, fuser_host_tensor *outputs);

#endif
