/* named_pipeline.h: pass pipelines registered by name, usable wherever a
 * pass is (`builtin.module(fuser-to-ptx{chip=sm_90})`, `fuser-opt
 * --fuser-to-ptx`). The pipeline parser (passes/pipeline.c) expands a name
 * into its passes in place, so the pass manager, IR printing and timing
 * see every pass it holds. passes/ knows no pipeline itself: the
 * lowering registers fuser-plan and fuser-to-ptx at start-up
 * (lowering/named_pipelines.c, through fuser_lowering_register_passes). */
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

/* Adds a pipeline (a name registered twice keeps the first; false when
 * the table is full). Not thread-safe: register at start-up. */
bool fuser_named_pipeline_register(const fuser_named_pipeline *p);
int fuser_named_pipeline_count(void);
const fuser_named_pipeline *fuser_named_pipeline_at(int i);
const fuser_named_pipeline *fuser_named_pipeline_lookup(const char *argument, size_t len);

#ifdef __cplusplus
}
#endif
#endif
