/* register.c: adds the lowering's passes to the pass registry
 * (passes/registry.c lists only the passes of passes/). */
#include "lowering/lowering.h"
#include "passes/pass.h"

extern const fuser_pass_info fuser_lower_kernels_pass;
extern const fuser_pass_info fuser_kernels_to_gpu_pass;
extern const fuser_pass_info fuser_kernels_to_cpu_pass;
extern const fuser_pass_info fuser_plan_launches_pass;

void fuser_lowering_register_passes(void) {
  static bool done;
  if (done) return;
  fuser_pass_register(&fuser_lower_kernels_pass);
  fuser_pass_register(&fuser_kernels_to_gpu_pass);
  fuser_pass_register(&fuser_kernels_to_cpu_pass);
  fuser_pass_register(&fuser_plan_launches_pass);
  fuser_lowering_register_pipelines();
  done = true;
}
