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
 * extents) when they differ; the module itself is not changed. `meta`
 * (may be NULL) is attached to the artifact as metadata "libfuser.key". */
int fuser_source_compile(fuser_source *s, const fuser_fusion_options *options, const fuser_arg *args, size_t nargs,
                         const void *meta, size_t meta_len, fuser_artifact **out, fuser_error *err);

/* Like fuser_source_import for a module built in the shared context
 * (fuser_compiler_acquire): the source holds a clone of it. */
int fuser_source_adopt(fuser_source *s, MlirModule module, const char *name, fuser_error *err);

void fuser_source_free(fuser_source *s);

/* The shared context for MLIR work outside a source (a definition being
 * recorded, libfuser/definition.c): acquire takes a reference (null if the
 * dialect fails to load), release drops it. Use the context only under
 * fuser_source_lock (source_internal.h). */
MlirContext fuser_compiler_acquire(void);
void fuser_compiler_release(void);

/* fuser_fusion_create for a module in the shared context (fusion.c);
 * `ir` (the module printed without locations) keys the persistent cache
 * as a source text does. */
int fuser_fusion_create_module(fuser_runtime *rt, MlirModule module, const char *ir, const char *name,
                               const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err);

/* The CPU reference evaluator's side of an entry: a clone of the fusion
 * retyped for a signature's dtypes (as the compile retypes it). */
typedef struct fuser_source_ref fuser_source_ref;
int fuser_source_ref_prepare(fuser_source *s, const fuser_fusion_options *options, const fuser_arg *args, size_t nargs,
                             fuser_source_ref **out, fuser_error *err);
/* Runs it on host tensors (kDLCPU): outputs become FUSER_ALLOCATED_HOST
 * buffers. Errors of the evaluator map to fuser statuses (a shape that
 * does not fit: FUSER_ERR_INPUT_MISMATCH). Serialised with the compiler. */
int fuser_source_ref_run(fuser_source *s, fuser_source_ref *r, const fuser_arg *args, size_t nargs,
                         fuser_output *outputs, size_t noutputs, fuser_error *err);
void fuser_source_ref_free(fuser_source_ref *r);

/* The CPU JIT's side of an entry: the specialised fusion's host plan and
 * its kernels JIT-compiled for the host (lowering/cpu_plan.h), the same
 * loops the GPU runs. Runs serialised with the compiler; outputs like the
 * GPU's (aliases of inputs, or FUSER_ALLOCATED_HOST buffers). */
typedef struct fuser_source_jit fuser_source_jit;
int fuser_source_jit_prepare(fuser_source *s, const fuser_fusion_options *options, const fuser_arg *args, size_t nargs,
                             fuser_source_jit **out, fuser_error *err);
int fuser_source_jit_run(fuser_source *s, fuser_source_jit *j, const fuser_arg *args, size_t nargs,
                         fuser_output *outputs, size_t noutputs, fuser_error *err);
void fuser_source_jit_free(fuser_source_jit *j);

#endif
