/* layout.h: where a tensor's elements live in a fusion input's buffer.
 *
 * A layout is an element offset plus one stride per logical dim, each a
 * polynomial over the arguments' run-time sizes and strides (symbolic.h).
 * The alias pass derives the layout of meta-op results from the layout of
 * the input they view; the segmentation pass tells kernels the strides they
 * read with. */
#ifndef FUSER_PASSES_LAYOUT_H
#define FUSER_PASSES_LAYOUT_H

#include "dialects/fuser.h"
#include "passes/symbolic.h"

typedef struct {
  int arg; /* the fusion argument whose buffer this views */
  int rank;
  fuser_poly size[FUSER_MAX_RANK];
  fuser_poly stride[FUSER_MAX_RANK];
  fuser_poly offset;
} fuser_layout;

/* The layout of fusion argument `arg` as nvFuser's define_tensor states it:
 * contiguity (allocation order, None = broadcast, stride 0) and stride_order.
 * Without layout attributes: contiguous row-major. `known_extents` (may be
 * NULL) gives static extents known for `?` dims (from the dim graph). */
bool fuser_arg_layout(MlirOperation func, int arg, const int64_t *known_extents, fuser_layout *out);

/* The static value of each stride, or kDynamic where it is symbolic. */
void fuser_layout_static_strides(const fuser_layout *l, int64_t *out);

/* Dense strides for a tensor of `shape` allocated in `stride_order` (nvFuser
 * convention, NULL = row-major); kDynamic where a size is `?`. */
void fuser_dense_strides(int rank, const int64_t *shape, const int64_t *stride_order, int64_t *out);

#endif
