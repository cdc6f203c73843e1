/* Unit tests for the outer persistent schedule's heuristic
 * (fuser_outer_persistent_variant, passes/schedule_reduction.h): which
 * rows a block holds, with how many row groups, held rows and column
 * vectors, and where it stops (registers, threads, the tree's 48 KB). The
 * segmentation decides one kernel by the same rule (fuser_outer_persistent_fits). */
#include <stdint.h>

#include "passes/schedule_reduction.h"
#include "unit.h"

static void check_variant(int64_t rows, int w, int tree, int held, int groups, int cw) {
  fuser_row_variant v = {0};
  CHECK(fuser_outer_persistent_variant(rows, w, tree, &v));
  CHECK_EQ_INT(v.width, w);
  CHECK_EQ_INT(v.vectors, held);
  CHECK_EQ_INT(v.threads, groups);
  CHECK_EQ_INT(v.rows_per_block, cw);
}

int main(void) {
  /* softmax_middle: 64 rows of bf16 (W = 8), two f32 passes (8 tree bytes per lane):
   * 8 groups x 8 rows, 16 column vectors for 128 threads */
  check_variant(64, 8, 8, 8, 8, 16);
  /* softmax_middle_large: 512 rows: 64 groups x 8 rows, 4 column vectors (256 threads) */
  check_variant(512, 8, 8, 8, 64, 4);
  /* 100 rows: 16 groups x 7 rows (112 slots, 12 masked) */
  check_variant(100, 8, 8, 7, 16, 8);
  /* one row: one group, 128 column vectors */
  check_variant(1, 8, 4, 1, 1, 128);
  /* width 1: 16 rows held at most, 8 column vectors at least */
  check_variant(512, 1, 8, 16, 32, 8);
  /* f32 rows (W = 4): 16 rows held (64 values) */
  check_variant(512, 4, 8, 16, 32, 4);
  /* 1024 rows: 128 groups x 8, 512 threads, 96 of the 128 registers each, 32 KB of tree */
  check_variant(1024, 8, 8, 8, 128, 4);
  fuser_row_variant v;
  /* 2048 rows: 1024 threads leave 64 registers for 8 x 8 held values + 32 */
  CHECK(!fuser_outer_persistent_variant(2048, 8, 8, &v));
  /* 1024 rows with a var_mean's two f64 passes (16 bytes per lane): 64 KB of tree */
  CHECK(!fuser_outer_persistent_variant(1024, 8, 16, &v));
  CHECK(fuser_outer_persistent_variant(512, 8, 16, &v));
  /* symbolic or empty rows: no variant */
  CHECK(!fuser_outer_persistent_variant(INT64_MIN, 8, 8, &v));
  CHECK(!fuser_outer_persistent_variant(0, 8, 8, &v));
  /* the segmentation's rule: both widths */
  CHECK(fuser_outer_persistent_fits(1024, 8));
  CHECK(!fuser_outer_persistent_fits(4096, 4));
  UNIT_MAIN_END();
}
