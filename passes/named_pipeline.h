/* named_pipeline.h: pass pipelines registered by name, usable wherever a
 * pass is (`builtin.module(fuser-to-ptx{chip=sm_90})`, `fuser-opt
 * --fuser-to-ptx`). The pipeline parser (passes/pipeline.c) expands a name
 * into its passes in place, so the pass manager, IR printing and timing
 * see every pass it holds. The table is lowering/named_pipelines.c. */
#ifndef FUSER_PASSES_NAMED_PIPELINE_H
#define FUSER_PASSES_NAMED_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *argument;    /* "fuser-to-ptx" */
  const char *description; /* one line for --list-passes / --help */
  fuser_pass_option options[FUSER_PASS_MAX_OPTIONS];
  /* Writes the pipeline's elements (the list inside builtin.module(...))
   * for these option values; false with a message in err on bad values. */
  bool (*expand)(const fuser_pass_options *options, char *buf, size_t len, char *err, size_t errlen);
} fuser_named_pipeline;

int fuser_named_pipeline_count(void);
const fuser_named_pipeline *fuser_named_pipeline_at(int i);
const fuser_named_pipeline *fuser_named_pipeline_lookup(const char *argument, size_t len);

#ifdef __cplusplus
}
#endif
#endif
