/* The pass registry: one line per pass. */
#include "passes/pass.h"

#include <string.h>

extern const fuser_pass_info fuser_verify_pass;
extern const fuser_pass_info fuser_alias_meta_ops_pass;
extern const fuser_pass_info fuser_allocation_order_pass;
extern const fuser_pass_info fuser_segment_pass;
extern const fuser_pass_info fuser_split_reductions_pass;
extern const fuser_pass_info fuser_remove_empty_pass;
extern const fuser_pass_info fuser_specialize_shapes_pass;
extern const fuser_pass_info fuser_report_pass;
extern const fuser_pass_info fuser_schedule_reductions_pass;
extern const fuser_pass_info fuser_vectorize_pass;
extern const fuser_pass_info fuser_lower_kernels_pass;
extern const fuser_pass_info fuser_kernels_to_gpu_pass;
extern const fuser_pass_info fuser_kernels_to_cpu_pass;

static const fuser_pass_info *const registry[] = {
    &fuser_verify_pass,
    &fuser_specialize_shapes_pass,
    &fuser_remove_empty_pass,
    &fuser_alias_meta_ops_pass,
    &fuser_allocation_order_pass,
    &fuser_split_reductions_pass,
    &fuser_segment_pass,
    &fuser_report_pass,
    &fuser_schedule_reductions_pass,
    &fuser_vectorize_pass,
    &fuser_lower_kernels_pass,
    &fuser_kernels_to_gpu_pass,
    &fuser_kernels_to_cpu_pass,
};

int fuser_pass_count(void) { return (int)(sizeof registry / sizeof registry[0]); }
const fuser_pass_info *fuser_pass_at(int i) { return registry[i]; }

const fuser_pass_info *fuser_pass_lookup(const char *argument, size_t len) {
  for (int i = 0; i < fuser_pass_count(); i++)
    if (strlen(registry[i]->argument) == len && memcmp(registry[i]->argument, argument, len) == 0)
      return registry[i];
  return NULL;
}
