/* location.h: an MLIR location as "file:line:col" text, for messages that
 * outlive the IR (the runtime's index-flag sites, the call's check
 * messages): the first file location through names and single fused
 * locations, else "?". */
#ifndef FUSER_SUPPORT_LOCATION_H
#define FUSER_SUPPORT_LOCATION_H

#include <stddef.h>

#include "mlir-c/IR.h"

void fuser_location_text(MlirLocation loc, char *out, size_t len);

#endif
