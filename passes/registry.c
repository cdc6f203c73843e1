/* The pass registry: one line per pass of passes/. Passes defined
 * elsewhere (the lowering's, lowering/register.c) are added at run time with
 * fuser_pass_register: this library knows nothing of them. */
#include "passes/pass.h"

#include <string.h>

extern const fuser_pass_info fuser_verify_pass;
extern const fuser_pass_info fuser_hoist_reshape_pass;
extern const fuser_pass_info fuser_alias_meta_ops_pass;
extern const fuser_pass_info fuser_input_sizes_pass;
extern const fuser_pass_info fuser_allocation_order_pass;
extern const fuser_pass_info fuser_segment_pass;
extern const fuser_pass_info fuser_fuse_inner_outer_pass;
extern const fuser_pass_info fuser_split_reductions_pass;
extern const fuser_pass_info fuser_remove_empty_pass;
extern const fuser_pass_info fuser_specialize_shapes_pass;
extern const fuser_pass_info fuser_report_pass;
extern const fuser_pass_info fuser_cse_pass;
extern const fuser_pass_info fuser_vectorize_pass;
extern const fuser_pass_info fuser_schedule_pass;

static const fuser_pass_info *const registry[] = {
    &fuser_verify_pass,
    &fuser_specialize_shapes_pass,
    &fuser_remove_empty_pass,
    &fuser_hoist_reshape_pass,
    &fuser_alias_meta_ops_pass,
    &fuser_input_sizes_pass,
    &fuser_allocation_order_pass,
    &fuser_split_reductions_pass,
    &fuser_segment_pass,
    &fuser_fuse_inner_outer_pass,
    &fuser_report_pass,
    &fuser_cse_pass,
    &fuser_vectorize_pass,
    &fuser_schedule_pass,
};

#define NUM_BUILTIN ((int)(sizeof registry / sizeof registry[0]))
#define MAX_EXTRA 32
static const fuser_pass_info *extra[MAX_EXTRA];
static int num_extra;

int fuser_pass_count(void) { return NUM_BUILTIN + num_extra; }
const fuser_pass_info *fuser_pass_at(int i) { return i < NUM_BUILTIN ? registry[i] : extra[i - NUM_BUILTIN]; }

const fuser_pass_info *fuser_pass_lookup(const char *argument, size_t len) {
  for (int i = 0; i < fuser_pass_count(); i++) {
    const fuser_pass_info *p = fuser_pass_at(i);
    if (strlen(p->argument) == len && memcmp(p->argument, argument, len) == 0) return p;
  }
  return NULL;
}

bool fuser_pass_register(const fuser_pass_info *info) {
  if (fuser_pass_lookup(info->argument, strlen(info->argument))) return true; /* once */
  if (num_extra == MAX_EXTRA) return false;
  extra[num_extra++] = info;
  return true;
}
