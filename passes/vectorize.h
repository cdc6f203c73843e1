/* vectorize.h: the fuser-vectorize pass as a C API, and the per-kernel
 * report (`fuser-opt --fuser-report` prints it). */
#ifndef FUSER_PASSES_VECTORIZE_H
#define FUSER_PASSES_VECTORIZE_H

#include <stdbool.h>
#include <stdio.h>

#include "mlir-c/IR.h"
#include "passes/conditions.h"
#include "passes/kernel_info.h" /* fuser_is_kernel */


/* Decides flattening, vector width and conditions of one kernel function
 * and writes them as attributes (passes/vectorize.c). Emits a located error
 * and returns false when the kernel cannot be analyzed. */
bool fuser_vectorize_kernel(MlirOperation func, int max_bytes);

/* Whether iteration dims d, d+1 of analyzed kernel k can merge at run time
 * (one flat run): every access either broadcasts along both or walks tensor
 * dims (j, j2) with no offset there; the ones not statically contiguous
 * become `merge` conditions stride(t, j) == stride(t, j2) * size(t, j2),
 * appended to `conds`. The vector variant's run-time flattening and the
 * transpose schedule's merged tiles (schedule_transpose.c) share it. */
bool fk_mergeable_at_run_time(const fk_kernel *k, int d, fk_condition_list *conds);

/* Whether W-wide vectors of analyzed kernel k may straddle boundary bd (a
 * pad's position along the innermost iteration dim, static or symbolic, or
 * a static cat position there, that W does not divide): the kernel
 * generator then runs such a vector lane by lane. The vectorizer keeps W
 * over those boundaries only where W divides the row. */
bool fk_lane_split_boundary(const fk_kernel *k, const fk_boundary *bd, int64_t W);

/* Prints, for every kernel function in `module` (in module order): its ops,
 * inputs and outputs (types and strides), vector width, flattened shape,
 * per-tensor access widths and conditions. Reads the attributes written by
 * fuser-vectorize ("vector width: not decided" before it ran). */
void fuser_vectorize_report(MlirOperation module, FILE *out);

#endif
