/* record.h: a fusion definition recorded call by call (nvFuser's Python
 * FusionDefinition as it runs) instead of parsed from a script. Each call
 * becomes the syntax tree of the statement a repro script would hold,
 * `T3 = fd.ops.add(T0, T1)`, located at the caller's file and line, and
 * goes through the script importer's own statement code (import_internal.h):
 * one implementation of every argument, shape and promotion rule.
 *
 * What a script cannot say is handled here: the define_tensor(sizes,
 * strides, ...) form (layout from the strides by fuser_tensor_layout, the
 * runtime's rule) and add_output(out, alias_input=in) (out becomes a normal
 * output; the caller copies it into the input). libfuser/definition.c is
 * the public face; this is its MLIR side and runs under the compiler lock. */
#ifndef FUSER_FRONTEND_RECORD_H
#define FUSER_FRONTEND_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libfuser/definition.h"
#include "dialects/fuser.h"
#include "mlir-c/IR.h"

typedef struct fuser_record fuser_record;

/* `name` names the fusion func.func. */
fuser_record *fuser_record_create(MlirContext ctx, const char *name);
void fuser_record_destroy(fuser_record *r);

/* One call (definition.h, fuser_definition_call). On an error emits a
 * located diagnostic and returns false. */
bool fuser_record_call(fuser_record *r, const char *method, const fuser_def_arg *args, size_t nargs, const char *file,
                       int line, int col, int64_t *results, size_t max_results, size_t *nresults);

/* A value's kind (1 tensor, 2 scalar, 3 vector), name, rank/length, fuser
 * dtype and static shape (-1 symbolic). False for an unknown id. */
bool fuser_record_value(fuser_record *r, int64_t id, int *kind, const char **name, int *rank, fuser_dtype *dtype,
                        int64_t *shape);

/* Builds and verifies the module holding the fusion (owned by the caller);
 * null after a diagnostic. The record can only be destroyed afterwards. */
MlirModule fuser_record_finish(fuser_record *r);

/* After finish: the function's results and, per result, the input index it
 * aliases or -1. */
size_t fuser_record_num_outputs(const fuser_record *r);
int fuser_record_output_alias(const fuser_record *r, size_t k);

#endif
