/* plan_artifact.h: a plan model (plan_model.h) as a runtime artifact
 * (driver/artifact_builder.h). */
#ifndef FUSER_LOWERING_PLAN_ARTIFACT_H
#define FUSER_LOWERING_PLAN_ARTIFACT_H

#include <stddef.h>

#include "lowering/plan_model.h"

struct fuser_artifact;

/* Returns 0 and the artifact, or a runtime status with a message in err.
 * Named metadata blobs (input recipes, expected results) may be attached
 * with fuser_plan_artifact_set_metadata before finishing. */
int fuser_plan_to_artifact(const fuser_plan_model *m, int num_metadata, const char *const *keys,
                           const void *const *blobs, const size_t *sizes, struct fuser_artifact **out, char *err,
                           size_t errlen);

/* The runtime's FUSER_BUFFER_* of a plan model's FPM_INPUT/OUTPUT/TEMP. */
int fuser_plan_buffer_kind(int fpm_buffer);

#endif
