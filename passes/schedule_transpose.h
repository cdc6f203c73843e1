/* schedule_transpose.h: the transpose schedule's plan (schedule_transpose.c),
 * shared by the chooser and the lowering (lowering/transpose_gen.c). */
#ifndef FUSER_PASSES_SCHEDULE_TRANSPOSE_H
#define FUSER_PASSES_SCHEDULE_TRANSPOSE_H

#include <stdbool.h>

#include "passes/kernel_info.h"

typedef struct {
  int tile_dim;   /* the iteration dim the tiled inputs are contiguous along */
  int tiled[4];   /* the tiled inputs (tensor numbers) */
  int ntiled;
  int width;      /* W: 16 bytes of the widest element */
  int tile;       /* tile edge in points: 8 W (a buffer row is 8 chunks of W) */
  int threads;    /* threads per block */
  int vectors;    /* W-wide vectors per thread and phase: tile^2 / (W threads) */
  /* tensors whose W-wide accesses are statically misaligned (a static row
   * stride or offset not a multiple of W): element accesses */
  bool narrow[FK_MAX_TENSORS];
} fuser_tile_plan;

/* Whether analyzed kernel k takes the transpose schedule, and its plan:
 * pointwise (no reduction, reshape, cat or pad), rank >= 2, every access
 * either contiguous or broadcast along the innermost iteration dim or, for
 * inputs read once, contiguous along one common other dim (tile_dim); a
 * tensor whose W-wide accesses are statically misaligned is `narrow`. */
bool fuser_tile_plan_of(const fk_kernel *k, fuser_tile_plan *p);

#endif
