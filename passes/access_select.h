/* access_select.h: per-tensor access widths chosen at run time, inside the
 * kernel (docs/lowering.md, "Per-tensor access widths").
 *
 * A vector variant needs every contiguous tensor aligned to W elements
 * (pointer alignment, run-time strides that are multiples of W). One
 * misaligned input (a slice one element in, an odd row stride) used to send
 * the whole kernel to the scalar variant. The `mixed` variant keeps the
 * vector variant's iteration (W points per thread) and moves those
 * per-tensor conditions from the launch into the kernel: each such tensor is
 * read or written with one W-wide access when its own conditions hold, and
 * with W contiguous element accesses (coalesced across the warp) when they
 * do not, on a branch that is uniform over the whole grid. Aligned tensors
 * keep their 16-byte accesses; one variant covers every combination. */
#ifndef FUSER_PASSES_ACCESS_SELECT_H
#define FUSER_PASSES_ACCESS_SELECT_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* Splits a variant's conditions (an array of condition dictionaries,
 * passes/conditions.h) into those that stay launch conditions and the
 * per-tensor `align` and `stride` ones, checked in the kernel. Returns
 * whether any went into *in_kernel. */
bool fuser_split_access_conditions(MlirContext ctx, MlirAttribute conditions, MlirAttribute *launch,
                                   MlirAttribute *in_kernel);

#endif
