/* nvfuser_export.h: a fusion func.func -> an nvFuser repro script in the
 * classic frontend format (the format frontend/nvfuser_import.h reads), so
 * that import -> export -> import gives the same IR. */
#ifndef FUSER_FRONTEND_NVFUSER_EXPORT_H
#define FUSER_FRONTEND_NVFUSER_EXPORT_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prints the fusion in `op` (a fusion func.func, or a module holding exactly
 * one) as a runnable script. Returns the malloc'ed, NUL-terminated text, or
 * NULL after emitting located errors (an op or type the script format
 * cannot express, no fusion, several fusions). */
char *fuser_export_nvfuser(MlirOperation op);

#ifdef __cplusplus
}
#endif
#endif
