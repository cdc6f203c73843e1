/* schedule_transpose.h: the transpose schedule's plan (schedule_transpose.c),
 * shared by the chooser and the lowering (lowering/transpose_gen.c). */
#ifndef FUSER_PASSES_SCHEDULE_TRANSPOSE_H
#define FUSER_PASSES_SCHEDULE_TRANSPOSE_H

#include <stdbool.h>

#include "passes/conditions.h"
#include "passes/kernel_info.h"

typedef struct {
  int tile_dim;   /* the iteration dim the tiled inputs are contiguous along */
  int tiled[4];   /* the tiled inputs (tensor numbers) */
  int ntiled;
  int width;      /* W: 16 bytes of the widest element */
  int tile;       /* tile edge in points: 8 W (a buffer row is 8 chunks of W) */
  int threads;    /* threads per block */
  int vectors;    /* W-wide vectors per thread and phase: tile^2 / (W threads) */
  /* The tile's two sides are groups of iteration dims [a_lo, tile_dim] and
   * [b_lo, rank - 1], each walked as one dim under `merge` conditions (its
   * index on the group's innermost dim, 0 on the others): NCHW to NHWC tiles
   * C x HW instead of C x W, whose W of 7..56 leaves most of a 64-wide tile
   * idle. a_lo = tile_dim and b_lo = rank - 1: no merging. */
  int a_lo, b_lo;
  /* tensors whose W-wide accesses are statically misaligned (a static row
   * stride or offset not a multiple of W): element accesses */
  bool narrow[FK_MAX_TENSORS];
} fuser_tile_plan;

/* The tile side of iteration dim d of a rank-`rank` kernel: 1 in the group
 * [a_lo, tile_dim], 2 in [b_lo, rank - 1], 0 outside the tile. */
static inline int fuser_tile_side(const fuser_tile_plan *p, int rank, int d) {
  return d >= p->a_lo && d <= p->tile_dim ? 1 : d >= p->b_lo && d < rank ? 2 : 0;
}

/* Whether analyzed kernel k takes the transpose schedule, and its plan:
 * pointwise (no reduction, reshape, cat or pad), rank >= 2, every access
 * either contiguous or broadcast along the innermost iteration dim or, for
 * inputs read once, contiguous along one common other dim (tile_dim); a
 * tensor whose W-wide accesses are statically misaligned is `narrow`; a
 * static space under 2^18 points only where small tiles pay (no narrow
 * output, at least 2^14 points: schedule_transpose.c). */
bool fuser_tile_plan_of(const fk_kernel *k, fuser_tile_plan *p);

/* Widens p's groups (a_lo, b_lo) over the adjacent iteration dims that merge
 * for every access, statically or under `merge` conditions (appended to
 * `conds`) that can hold for a dense tensor: a symbolic merge of tensor dims
 * (j, j2) only where j2 = j + 1 (a batch dim beside a transposed pair does
 * not merge for the transposed input). Returns whether a group grew. */
bool fuser_tile_groups(const fk_kernel *k, fuser_tile_plan *p, fk_condition_list *conds);

/* The leading variants of a transpose schedule that are tile variants
 * (`tile`, then `tile_dims` when the first merges dims under conditions);
 * the pointwise variants follow them. */
intptr_t fuser_tile_variants(MlirAttribute schedule);

#endif
