/* source_internal.h: what source.c shares with the CPU runs
 * (run_reference.c, run_jit.c): the process-wide compiler lock, the
 * diagnostics captured under it, and the fusion specialised to a call. */
#ifndef FUSER_LIBFUSER_SOURCE_INTERNAL_H
#define FUSER_LIBFUSER_SOURCE_INTERNAL_H

#include <stdbool.h>

#include "libfuser/source.h"

/* All MLIR work of the process (one shared context) runs under this lock. */
void fuser_source_lock(void);
void fuser_source_unlock(void);

/* Under the lock: forget the diagnostics so far, labelling new ones with
 * `name` where the parser says "-"; every diagnostic since, one per line
 * (NULL-safe: `fallback` when there is none). */
void fuser_source_diag_reset(const char *name);
const char *fuser_source_diagnostics(const char *fallback);

/* The innermost file:line:col of a location (through name locations). */
bool fuser_source_file_loc(MlirLocation loc, MlirStringRef *file, int *line, int *col);

/* Under the lock: a clone of s's module whose fusion is specialised to the
 * call (layouts, dtypes, with specialize_sizes extents; check_args' errors
 * otherwise), and its fusion function. */
int fuser_source_specialise(fuser_source *s, const fuser_fusion_options *o, const fuser_arg *args, MlirOperation *out,
                            fuser_error *err);
MlirOperation fuser_source_fusion_of(MlirOperation module);

#endif
