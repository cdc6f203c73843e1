/* schedule_reduction.h: which reduction schedule a kernel gets, and its
 * parameters (threads, vectors per thread, rows per block, split count).
 *
 * Kinds (nvFuser's reduction, inner-persistent and outer schedulers):
 *   inner_persistent  the reduced dims are the innermost dims of every
 *                     reduction's input and the kernel's results have the
 *                     reduction input's shape (RMSNorm, softmax): a block
 *                     per row (or several short rows per block), each row
 *                     read once into registers, reduced through warp
 *                     shuffles and shared memory, the epilogue from registers;
 *   inner_reduce      the same rows, results of the reduced shape (row sums,
 *                     var_mean statistics): thread 0 of each row stores;
 *   outer             the reduced dims are the leading dims and outermost,
 *                     the results of the kept (column) shape (bias
 *                     gradient, weight gradients, batch statistics): a block
 *                     per tile of column vectors, its threads split over the
 *                     rows (row groups), several rows in flight per thread,
 *                     the row groups combined by a shared-memory tree in a
 *                     fixed order (deterministic, one launch);
 *   outer_persistent  the outer (or batched outer) reduction broadcast back:
 *                     results of the reduction input's shape (softmax over
 *                     dim 1 of [B, C, W]); a block owns a slab of C rows x
 *                     its column vectors, each thread holds V rows of one
 *                     column vector in registers (16-byte loads along the
 *                     contiguous kept dims), the row groups combine in the
 *                     outer tree, and every thread writes its V rows of the
 *                     normalized slab: the slab is read once;
 *   none              no reduction (pointwise) or a mix the schedules above
 *                     cannot hold (the simple per-point kernel runs).
 *
 * The heuristic (documented in docs/lowering.md, "Reduction schedules"),
 * for a row of N elements of 16-byte vectors of W elements:
 *   - N static and a multiple of W: persistent. Threads per row
 *     T = N / (W * V) with V = 2 vectors per thread (measured best on the
 *     H200: 1 vector 86% of copy, 2 vectors 91%, 4 vectors needed 64
 *     registers), so T = N / 16 for bf16; T is clamped to [32, 1024] by
 *     raising or lowering V (V <= 16 keeps the row in registers: 16 x 8 f32
 *     values). A row shorter than 32 vectors takes fewer threads: a warp
 *     holds 32 / T rows (T a power of two), butterflies stay in the rows'
 *     lanes; block = T x rows per block, at least 128 threads.
 *   - a persistent row whose held f32 values pass 16 per thread (V x W >
 *     16, T >= 512) is re-read instead (reload): 512 threads x the fewest
 *     vectors <= 8 covering it, each pass and the epilogue load them again
 *     after the block barrier, two blocks per SM (log_softmax over 32,000
 *     columns: 70.5% -> 90.7% of copy on the H200);
 *   - otherwise (N symbolic, not a multiple of W, or longer than 16 x 8 x
 *     1024): looped. 512 threads per row stride over it in steps of T x W,
 *     every reduction pass re-reads the row (L2 holds it), under the
 *     run-time conditions (alignment, N a multiple of W); then the same with
 *     W = 1 and no conditions.
 *   - a static row too long for the registers whose bytes pass 64 KB, up
 *     to 8 x 64 KB and without a var_mean: the persistent cluster variant,
 *     S blocks of 1024 threads x 4 vectors (64 KB of bf16 each), re-read
 *     for each pass (docs/lowering.md: softmax over 65,536 columns 43.5% ->
 *     69.4% of copy, rmsnorm 64.6% -> 85.4%); else:
 *   - a static row too long for the registers whose bytes pass 64 KB: the
 *     looped variant over a thread-block cluster of S blocks (S = the power
 *     of two <= 8 that cuts the row into chunks of at most 64 KB), 1024
 *     threads each; each block strides over its chunk, the blocks' partials
 *     meet in every block's shared memory (an all-to-all push through
 *     distributed shared memory, combined in rank order: the same bits in
 *     every block). 2 blocks per SM x 132 SMs x 64 KB = 17 MB of rows in
 *     flight, so the passes after the first re-read the row from the 50 MB
 *     L2, not from DRAM (with a block per row, 528 rows of 128 KB in flight
 *     did not fit: 65,536 columns ran at 66% of copy, 262,144 at 62%).
 *   - symbolic rows (no var_mean): first the looped variant over a cluster
 *     of 4 blocks of 1024 threads per row, when the row has at least
 *     128 KB of the widest element (a run-time `row_length` condition:
 *     65,536 bf16 columns, chunks of at least 32 KB per block); the chunk
 *     is computed in the kernel from the row length;
 *   - an inner reduce of symbolic rows (results
 *     one value per row: batch-norm's per-(n, c) statistics over H x W)
 *     first tries a warp per row, 8 rows per block (warp butterflies
 *     only: no shared memory, no barrier; 32 warps per SM at its 64
 *     registers, each with a load in flight) when there are at least
 *     132 x 16 rows (result 0's points: 2 blocks per SM; not emitted when
 *     the rows are static and fewer); fewer, longer rows keep 512 threads
 *     each. Not measured on the GPU yet (batchnorm_stats_large).
 * Outer: W = 16 bytes of the widest tensor read (the f32 results are
 * stored W wide too). Two tiles, chosen at run time by the number of kept
 * points K (result 0's elements: the columns, batch included):
 *   - wide (`columns_wide`): 16 column vectors per block (a half warp
 *     reads a 256-byte segment of one bf16 row), 16 row groups (256
 *     threads), 4 rows in flight per thread; under the condition
 *     K >= 2 x 132 x 16 x W (2 blocks per SM at least: bias_grad_large's
 *     first stage, 16 x 4096 columns, gets 512 blocks). Measured on the
 *     H200 (bias_grad_large, two kernels): 125.0 us, 101.5% of copy; 32
 *     vectors x 16 groups (512 threads, 256 blocks) 125.4 us; 16 x 16
 *     with 8 rows in flight 125.2 us; 32 x 8 (256 threads, 256 blocks,
 *     4 or 8 in flight) 149.8 / 151.6 us: too few threads per SM; the
 *     narrow tile below 144.4 us (87.8%);
 *   - narrow (`columns`): 4 column vectors per block (64 bytes of bf16 per
 *     row: with 2 vectors, 32 bytes, bias_grad_large ran at 66% of copy on
 *     the H200, the DRAM fetching 64 bytes per access), 128 row groups (512
 *     threads), 4 rows in flight per thread: many blocks for few columns
 *     (bias_grad_small, the second stage of a split).
 * var_mean accumulates in f64 there too: the row groups' tree buffer (block
 * x W x 8 bytes per pass, two passes) must fit 48 KB of static shared
 * memory, so the row groups halve until it does (narrow: 64 groups).
 * Rows merge into one index (the reduced dims' strides nest, statically or
 * by `merge` conditions); the per-point kernel follows as the variant
 * without conditions.
 * Batched outer (kept dims [0, b) before the reduced ones): the same, the
 * columns are the kept dims flattened (batch first), so a block's column
 * vectors may belong to different batch entries; `batch_dims` = b.
 * In fuser_row_variant an outer variant stores: width W, vectors = rows in
 * flight, threads = row groups, rows_per_block = column vectors per block.
 * Outer persistent (held rows, C static): W as outer; G = the power of two
 * covering C / Vmax row groups (Vmax = 64 f32 values / W, at most 16
 * vectors), V = ceil(C / G) rows held per thread (ragged rows past C read
 * row C - 1 and count as the neutral element), CW = 4 column vectors (64
 * bytes of bf16 per row, the narrow outer tile; 8 at W = 1) doubled until
 * the block has 128 threads; accepted when the block has at most 1024
 * threads, V x W + 32 registers fit the thread's share (65536 / block, at
 * most 255) and the tree buffers (tree bytes per lane x block x W) fit 48
 * KB: softmax over C <= 1024 bf16 rows. Larger or symbolic C: the
 * segmentation cuts as before (fuser.cuts says why). Then the same with
 * W = 1 (no conditions). In the variant: vectors = V, threads = G,
 * rows_per_block = CW.
 *
 * inner_outer (normalization backward, made by fuser-fuse-inner-outer,
 * passes/fuse_inner_outer.c): an inner persistent kernel over [N, H] that
 * also returns, for column sums of values of the same rows (dw, db), their
 * partials over G row groups of R = N / G consecutive rows
 * (fuser_inner_outer_partial). Each group of T threads walks its R rows one
 * after the other with the persistent variant's chunks in registers (dx
 * row by row, as inner_persistent), and adds each row's values into
 * registers: thread t holds the same columns of every row, so a group's
 * partial needs no cross-thread step; the group stores one row of f32
 * partials. A small outer kernel (the plan's next call) sums the G rows in
 * a fixed order. Variants: the persistent one of width W (16-byte vectors,
 * alignment conditions), then the persistent one of width 1 (any layout).
 * Rows per block (short rows) must divide G. */
#ifndef FUSER_PASSES_SCHEDULE_REDUCTION_H
#define FUSER_PASSES_SCHEDULE_REDUCTION_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

typedef enum {
  FUSER_SCHED_NONE,
  FUSER_SCHED_INNER_PERSISTENT,
  FUSER_SCHED_INNER_REDUCE,
  FUSER_SCHED_OUTER,
  FUSER_SCHED_OUTER_PERSISTENT,
  FUSER_SCHED_INNER_OUTER,
  FUSER_SCHED_LAST = FUSER_SCHED_INNER_OUTER, /* the last kind: fuser_reduction_schedule_read's loop */
} fuser_sched_kind;

/* One variant of a row schedule. */
typedef struct {
  int width;          /* W: elements per vector (1 or 16 bytes of the widest tensor) */
  int vectors;        /* V: vectors per thread held in registers; 0 = looped over the row */
  int threads;        /* T: threads per row (a power of two) */
  int rows_per_block; /* rows per block (short rows); block = threads * rows_per_block */
  int cluster;        /* inner, one row per block: blocks per row, one thread-block cluster
                       * (sm_90 distributed shared memory); 0 or 1: a block per row. A
                       * persistent variant (vectors > 0) holds T x V x W elements of the
                       * row per block, rank r the chunk starting at r T V W */
  int64_t min_row_length; /* the variant applies when the row has at least this many elements
                           * (a run-time `row_length` condition: the looped cluster variant of
                           * symbolic rows); 0: always */
  bool reload;        /* persistent: each reduction pass and the epilogue load the thread's
                       * vectors again (after the block barrier: from L1/L2) instead of
                       * holding their f32 values in registers across the passes */
  int64_t min_points;  /* the variant applies when result 0 has at least this many points (a
                        * run-time `points` condition: the outer kept shape, the inner
                        * reduce's rows); 0: always */
  bool prefetch;      /* inner persistent, held (not reload): the epilogue's loads that no
                       * reduction feeds (a weight, a bias, a residual) are issued with the
                       * row's, before the first block reduction: set where the grid is one
                       * partial wave (a block per SM at most), where nothing else hides
                       * their latency, and the registers hold a second copy of the row */
} fuser_row_variant;

#define FUSER_SCHED_MAX_VARIANTS 4
/* Blocks per row of a cluster variant at most (a portable cluster size on sm_90). */
#define FUSER_SCHED_MAX_CLUSTER 8
/* inner_outer: partial results per kernel (dw, db, ...) */
#define FUSER_SCHED_MAX_PARTIALS 4

typedef struct {
  fuser_sched_kind kind;
  int rank;             /* iteration rank: the reduction input's rank */
  int outer;            /* leading kept dims (rows); the rest are reduced (columns) */
  int batch;            /* outer only: leading kept dims before the reduced ones (a
                         * batched outer reduction: dims [batch, batch + outer) reduced) */
  int64_t rows, row_len; /* static products, or INT64_MIN when symbolic */
  int64_t partials;      /* inner_outer only: G, the row groups (rows / G consecutive rows each) */
  int num_variants;
  fuser_row_variant variants[FUSER_SCHED_MAX_VARIANTS];
  char why[160];        /* for NONE/OUTER: why no row schedule applies */
} fuser_reduction_schedule;

/* Whether reduction op `red` (sum/prod/max/min/var_mean) reduces exactly the
 * trailing dims of its input and those dims are innermost in its allocation
 * order (the op producing the input carries `fuser.stride_order`; none means
 * row-major). Sets *num_reduced to the number of reduced dims. */
bool fuser_reduction_is_inner(MlirOperation red, int *num_reduced);
/* The same for the leading dims, outermost in allocation order (the kept
 * dims innermost, in order). */
bool fuser_reduction_is_outer(MlirOperation red, int *num_reduced);

/* A batched outer reduction: the reduced dims are the consecutive dims
 * [*batch, *batch + *num_reduced) with *batch >= 1 kept dims before them
 * and at least one after, every dim row-major in allocation order (a
 * bias gradient's first stage: [B, S, C] summed over S). */
bool fuser_reduction_is_batched_outer(MlirOperation red, int *batch, int *num_reduced);

/* An inner-outer partial: v = sum(reshape(x : [N, H] -> [G, R, H] f32),
 * dims = [1]) : [G, H] f32, static G and R: the column sums of x over G
 * row groups of R consecutive rows. One rule for the pass that makes it,
 * the schedule and the generator. Sets *x (the [N, H] value) and *groups. */
bool fuser_inner_outer_partial(MlirValue v, MlirValue *x, int64_t *groups);

/* The row groups G of an inner-outer kernel over rows x row_len (static)
 * whose inner persistent schedule is `inner` (kind inner_persistent), with
 * `partials` partial results: `requested` when > 0 and valid, else the
 * heuristic (docs/lowering.md, "Normalization backward"): the largest
 * divisor of the rows that is at most 132 SMs x 512 threads / block
 * (two 256-thread blocks per SM: the registers of these kernels allow no
 * more, and more groups only add partials), leaves
 * each group at least 32 rows (the partials, written and read once, add
 * 8 / 32 bytes per column and row: ~4% of the traffic of bf16 grad, x and
 * dx per partial), and is a multiple of every variant's rows per block;
 * groups of 16 rows where 32 leave fewer blocks than SMs; and at least one
 * block per SM (132), else 0 (the reason in why): fewer rows run faster as
 * the two kernels, which fill the GPU (a group's rows are sequential). */
int64_t fuser_inner_outer_groups(const fuser_reduction_schedule *inner, int partials, int64_t requested, char *why, int whylen);

/* Whether a kernel tensor of the row space's rank is constant along the row
 * (the dims [from, rank) that a row schedule's vectors walk: inner, the
 * reduced dims; outer, the kept columns): every one of them has a static
 * stride 0 or extent 1, as a per-row statistic saved by the forward pass
 * (RMSNorm's rstd, LayerNorm's mean, [N, 1] broadcast to [N, H]) is. Such a
 * tensor is read once per row (a scalar load), so it neither sets the
 * vector width nor needs an alignment condition. `strides`/`shape`: static
 * values or INT64_MIN. */
bool fuser_tensor_constant_along_row(const int64_t *strides, const int64_t *shape, int rank, int from);

/* The outer persistent variant of width w for a static number of reduced
 * rows (schedule_reduction.h), its row groups' tree combining `tree_bytes`
 * per lane (the sum over its passes of the accumulators' bytes); false when
 * the rows do not fit one block. The segmentation keeps a middle-dim
 * normalization in one kernel only where both widths (w and 1) fit
 * (fuser_outer_persistent_fits). */
/* The bytes per accumulator lane a reduction's passes put through the
 * outer tree's shared buffers: a var_mean's two passes in f64 (16), a float
 * sum/max/min in f32 (bf16/f16/f32 results: 4), f64 and integer ones (i64
 * accumulators) 8. */
int fuser_reduction_tree_bytes(MlirOperation red);
bool fuser_outer_persistent_variant(int64_t rows, int w, int tree_bytes, fuser_row_variant *v);
bool fuser_outer_persistent_fits(int64_t rows, int tree_bytes);

/* Classifies a `fuser.kernel` function and picks its row variants. */
void fuser_schedule_reduction_kernel(MlirOperation kernel, fuser_reduction_schedule *s);

/* Whether the kernel gets a row schedule (any kind but none): its
 * variants come from lowering/row_gen.c, not from fuser-vectorize's plan
 * (which runs on it only as the outer kind's fallback). */
bool fuser_has_row_schedule(MlirOperation kernel);

/* The kind's name in `fuser.schedule` and in fuser-report. */
const char *fuser_sched_kind_name(fuser_sched_kind k);

/* Whether `op` is a reduction (sum, prod, max, min) or var_mean. */
bool fuser_is_reduction_op(MlirOperation op);

/* The schedule's fields, what `fuser.schedule` holds under the kind's name
 * (fuser_schedule_kernel writes the key):
 *   {outer_dims = 1, rows = 16384, row_length = 4096,
 *    variants = [{width = 8, vectors = 2, threads = 256, rows_per_block = 1}, ...]}
 * (rows / row_length absent when symbolic). */
MlirAttribute fuser_reduction_schedule_attr(MlirContext ctx, const fuser_reduction_schedule *s);
/* Reads a verified row schedule of kernel `kernel` back (the lowering follows it). */
void fuser_reduction_schedule_read(MlirOperation kernel, MlirAttribute schedule, fuser_reduction_schedule *s);

#endif
