/* save_case.h: `fuser-run --cpu --save-case FILE`: the reference's inputs
 * and outputs in the case format fuser-cpu-check reads (its header
 * describes it), so the CPU JIT of a compiled fusion is checked against the
 * reference evaluator on the same data. */
#ifndef FUSER_TOOLS_FUSER_RUN_SAVE_CASE_H
#define FUSER_TOOLS_FUSER_RUN_SAVE_CASE_H

#include <stdbool.h>

#include "reference/reference.h"

/* Writes the case; `misalign` shifts every tensor input by that many
 * elements inside its storage (the JIT's vector alignment conditions then
 * fail and its scalar variants run). */
bool fuser_run_save_case(const char *path, const fuser_ref_inputs *in, const fuser_ref_outputs *out, int misalign);

#endif
