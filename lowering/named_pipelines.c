/* named_pipelines.c: the registered pipelines (passes/named_pipeline.h).
 *
 *   fuser-plan                     fuser IR -> plan (kernel functions):
 *                                  FUSER_PLAN_PIPELINE
 *   fuser-to-ptx{chip=sm_90 unroll=0 block-size=128}
 *                                  fuser IR -> gpu.binary ops holding PTX:
 *                                  fuser-plan, fuser-vectorize, fuser-schedule,
 *                                  fuser-lower-kernels, fuser-kernels-to-gpu,
 *                                  nvvm-attach-target{chip features=+ptx80 O=3},
 *                                  the NVVM lowering, gpu-module-to-binary{format=isa}
 *
 * They expand to the same texts the compiler uses (lowering/pipelines.c),
 * so `fuser-opt --fuser-to-ptx` builds what `fuser-translate --emit-ptx`
 * emits. For example
 *
 *   fuser-opt fusion.mlir --pass-pipeline='builtin.module(fuser-to-ptx{chip=sm_90})'
 *
 * prints the module with one gpu.binary per index width and the launch plan
 * (module attribute fuser.launches). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/lowering.h"
#include "passes/named_pipeline.h"

/* The elements of a `builtin.module(...)` text, into buf. */
static bool elements_of(const char *pipeline, char *buf, size_t len, char *err, size_t errlen) {
  const char *open = strchr(pipeline, '('), *close = strrchr(pipeline, ')');
  if (!open || !close || close < open || (size_t)(close - open) >= len) {
    snprintf(err, errlen, "internal error: pipeline text too long or malformed");
    return false;
  }
  snprintf(buf, len, "%.*s", (int)(close - open - 1), open + 1);
  return true;
}

static bool expand_plan(const fuser_pass_options *o, char *buf, size_t len, char *err, size_t errlen) {
  (void)o;
  return elements_of(FUSER_PLAN_PIPELINE, buf, len, err, errlen);
}

/* An sm_XX chip name: what nvvm-attach-target and ptxas take. */
static bool valid_chip(const char *chip) {
  if (strncmp(chip, "sm_", 3) != 0 || !isdigit((unsigned char)chip[3])) return false;
  for (const char *c = chip + 3; *c; c++)
    if (!isalnum((unsigned char)*c)) return false;
  return true;
}

static bool expand_to_ptx(const fuser_pass_options *o, char *buf, size_t len, char *err, size_t errlen) {
  const char *chip = fuser_pass_option_str(o, "chip");
  int64_t unroll = fuser_pass_option_int(o, "unroll"), block = fuser_pass_option_int(o, "block-size");
  if (!valid_chip(chip)) {
    snprintf(err, errlen, "fuser-to-ptx: chip must be an sm_XX name, got '%s'", chip);
    return false;
  }
  if (unroll < 0 || unroll > 16 || block < 1 || block > 1024) {
    snprintf(err, errlen, "fuser-to-ptx: unroll must be in 0..16 and block-size in 1..1024");
    return false;
  }
  char plan[512], ptx[2560], to_ptx[2560];
  fuser_plan_to_ptx_pipeline_with(chip, (int)unroll, (int)block, to_ptx, sizeof to_ptx);
  if (!elements_of(FUSER_PLAN_PIPELINE, plan, sizeof plan, err, errlen) ||
      !elements_of(to_ptx, ptx, sizeof ptx, err, errlen))
    return false;
  if ((size_t)snprintf(buf, len, "%s, %s", plan, ptx) >= len) {
    snprintf(err, errlen, "internal error: pipeline text too long");
    return false;
  }
  return true;
}

static const fuser_named_pipeline pipelines[] = {
    {"fuser-plan", "fuser IR to plan-level IR (kernel functions): the plan passes in order", {{0}}, expand_plan},
    {"fuser-to-ptx",
     "fuser IR to PTX: the plan passes, fuser-vectorize, the kernel lowering, the NVVM pipeline (+ptx80), "
     "gpu-module-to-binary{format=isa}",
     {{"chip", "sm_90", "the GPU architecture (nvvm-attach-target's chip)"},
      {"unroll", "0", "vectors per thread in the vector variant (0: chosen per kernel)"},
      {"block-size", "128", "threads per block"}},
     expand_to_ptx},
};

void fuser_lowering_register_pipelines(void) {
  for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++) fuser_named_pipeline_register(&pipelines[i]);
}
