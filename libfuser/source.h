/* source.h: the MLIR side of a libfuser fusion: the imported module (kept
 * for the fusion's lifetime, imported once) and the compile of one entry:
 * a clone specialised to a call's arguments, compiled to an artifact in
 * memory. All fusions share one MLIR context per process; every function
 * here takes the process-wide compiler lock itself. */
#ifndef FUSER_LIBFUSER_SOURCE_H
#define FUSER_LIBFUSER_SOURCE_H

#include <stddef.h>

#include "libfuser/fuser.h"
#include "libfuser/signature.h"
#include "mlir-c/IR.h"

typedef struct {
  MlirModule module; /* in the shared context */
  MlirOperation func; /* its one fusion */
  size_t nargs, nresults;
  int arg_kind[FUSER_SIG_MAX_ARGS]; /* FUSER_ARG_TENSOR, _INT (integer and bool scalars) or _DOUBLE */
  char *recipes;                    /* the example inputs (fuser_input_recipes), or NULL */
} fuser_source;

/* Imports or parses the text and verifies it; the fusion must be the only
 * one in the module and take at most FUSER_SIG_MAX_ARGS arguments. Errors:
 * FUSER_ERR_COMPILE with the first located diagnostic. */
int fuser_source_import(fuser_source *s, int kind, const char *text, size_t len, const char *name, fuser_error *err);

/* Compiles the fusion for `args` (nargs == s->nargs): each tensor argument
 * gets the call's layout, and its dtype (and with specialize_sizes its
 * extents) when they differ; the module itself is not changed. */
int fuser_source_compile(fuser_source *s, const fuser_fusion_options *options, const fuser_arg *args, size_t nargs,
                         fuser_artifact **out, fuser_error *err);

/* Like fuser_source_import for a module built in the shared context
 * (fuser_compiler_acquire): the source holds a clone of it. */
int fuser_source_adopt(fuser_source *s, MlirModule module, const char *name, fuser_error *err);

void fuser_source_free(fuser_source *s);

/* The shared context for MLIR work outside a source (a definition being
 * recorded, libfuser/definition.c): acquire takes a reference (null if the
 * dialect fails to load), release drops it. Use it only between enter and
 * leave, which hold the compiler lock; enter resets the captured
 * diagnostics, labelled `name`, and first_error gives the first one
 * ("file:line:col: error: message", or ""). */
MlirContext fuser_compiler_acquire(void);
void fuser_compiler_release(void);
void fuser_compiler_enter(const char *name);
const char *fuser_compiler_first_error(void);
void fuser_compiler_leave(void);

/* fuser_fusion_create for a module in the shared context (fusion.c). */
int fuser_fusion_create_module(fuser_runtime *rt, MlirModule module, const char *name,
                               const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err);

#endif
