// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule)' | FileCheck %s
// The schedule each reduction kernel gets (passes/schedule_reduction.h).

// RMSNorm of 16384 x 4096 bf16: inner persistent, 256 threads x 2 vectors
// of 8 per row, then the variant without conditions (W = 1, looped).
// CHECK-LABEL: func.func private @rmsnorm_k0
// CHECK-SAME: fuser.schedule = {inner_persistent = {outer_dims = 1 : i64, row_length = 4096 : i64, rows = 16384 : i64,
// CHECK-SAME: variants = [{rows_per_block = 1 : i64, threads = 256 : i64, vectors = 2 : i64, width = 8 : i64},
// CHECK-SAME: {rows_per_block = 1 : i64, threads = 512 : i64, vectors = 0 : i64, width = 1 : i64}]}
func.func private @rmsnorm_k0(%arg0: tensor<16384x4096xbf16> {fuser.strides = array<i64: 4096, 1>}) -> (tensor<16384x4096xbf16> {fuser.strides = array<i64: 4096, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<16384x4096xbf16>) -> tensor<16384x4096xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<16384x4096xf32>) -> tensor<16384xf32>
  %3 = "fuser.broadcast_in_dim"(%2) {broadcast_dims = array<i64: 0>} : (tensor<16384xf32>) -> tensor<16384x4096xf32>
  %4 = "fuser.mul"(%0, %3) : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %5 = "fuser.cast"(%4) : (tensor<16384x4096xf32>) -> tensor<16384x4096xbf16>
  return %5 : tensor<16384x4096xbf16>
}

// -----

// Short rows (256 bf16 = 32 vectors): 16 threads x 2 vectors, 8 rows per block.
// 128 blocks, one partial wave: the epilogue's loads go before the reduction
// (`prefetch`; none here besides the row's: softmax's own loads first).
// CHECK-LABEL: func.func private @short_k0
// CHECK-SAME: variants = [{prefetch = true, rows_per_block = 8 : i64, threads = 16 : i64, vectors = 2 : i64, width = 8 : i64}
func.func private @short_k0(%arg0: tensor<1024x256xbf16> {fuser.strides = array<i64: 256, 1>}) -> (tensor<1024x256xbf16> {fuser.strides = array<i64: 256, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<1024x256xbf16>) -> tensor<1024x256xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<1024x256xf32>) -> tensor<1024xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<1024xf32>) -> tensor<1024x256xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<1024x256xf32>, tensor<1024x256xf32>) -> tensor<1024x256xf32>
  %4 = "fuser.cast"(%3) : (tensor<1024x256xf32>) -> tensor<1024x256xbf16>
  return %4 : tensor<1024x256xbf16>
}

// -----

// RMSNorm with a weight, 256 x 1024 bf16 (rmsnorm_small): 64 threads x 2
// vectors, 2 rows per block, 128 blocks: `prefetch`. 266 rows are 133
// blocks, more than the 132 SMs: other blocks hide the latency, no prefetch.
// CHECK-LABEL: func.func private @rmsnorm_small_k0
// CHECK-SAME: variants = [{prefetch = true, rows_per_block = 2 : i64, threads = 64 : i64, vectors = 2 : i64, width = 8 : i64},
// CHECK-LABEL: func.func private @rmsnorm_133_blocks_k0
// CHECK-SAME: variants = [{rows_per_block = 2 : i64, threads = 64 : i64, vectors = 2 : i64, width = 8 : i64},
func.func private @rmsnorm_small_k0(%arg0: tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}, %arg1: tensor<1024xbf16> {fuser.strides = array<i64: 1>}) -> (tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
  %3 = "fuser.broadcast_in_dim"(%2) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1024xf32>
  %4 = "fuser.mul"(%0, %3) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %5 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 1>} : (tensor<1024xbf16>) -> tensor<256x1024xbf16>
  %6 = "fuser.cast"(%5) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %7 = "fuser.mul"(%4, %6) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %8 = "fuser.cast"(%7) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
  return %8 : tensor<256x1024xbf16>
}
func.func private @rmsnorm_133_blocks_k0(%arg0: tensor<266x1024xbf16> {fuser.strides = array<i64: 1024, 1>}, %arg1: tensor<1024xbf16> {fuser.strides = array<i64: 1>}) -> (tensor<266x1024xbf16> {fuser.strides = array<i64: 1024, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<266x1024xbf16>) -> tensor<266x1024xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<266x1024xf32>, tensor<266x1024xf32>) -> tensor<266x1024xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<266x1024xf32>) -> tensor<266xf32>
  %3 = "fuser.broadcast_in_dim"(%2) {broadcast_dims = array<i64: 0>} : (tensor<266xf32>) -> tensor<266x1024xf32>
  %4 = "fuser.mul"(%0, %3) : (tensor<266x1024xf32>, tensor<266x1024xf32>) -> tensor<266x1024xf32>
  %5 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 1>} : (tensor<1024xbf16>) -> tensor<266x1024xbf16>
  %6 = "fuser.cast"(%5) : (tensor<266x1024xbf16>) -> tensor<266x1024xf32>
  %7 = "fuser.mul"(%4, %6) : (tensor<266x1024xf32>, tensor<266x1024xf32>) -> tensor<266x1024xf32>
  %8 = "fuser.cast"(%7) : (tensor<266x1024xf32>) -> tensor<266x1024xbf16>
  return %8 : tensor<266x1024xbf16>
}

// -----

// A symbolic row length: looped. Results of the reduced shape (inner_reduce,
// one value per row): first a warp per row, 8 rows per block, when there
// are at least 132 x 16 rows (a run-time `points` condition on result 0),
// then 512 threads striding over the row (16-byte vectors of the bf16 rows:
// the width follows the rows read), then W = 1.
// CHECK-LABEL: func.func private @var_mean_k0
// CHECK-SAME: fuser.schedule = {inner_reduce = {outer_dims = 1 : i64,
// CHECK-SAME: variants = [{min_points = 2112 : i64, rows_per_block = 8 : i64, threads = 32 : i64, vectors = 0 : i64, width = 8 : i64},
// CHECK-SAME: {rows_per_block = 1 : i64, threads = 512 : i64, vectors = 0 : i64, width = 8 : i64},
// CHECK-SAME: {rows_per_block = 1 : i64, threads = 512 : i64, vectors = 0 : i64, width = 1 : i64}]}
func.func private @var_mean_k0(%arg0: tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>}) -> (tensor<?xf32> {fuser.strides = array<i64: 1>}, tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1:2 = "fuser.var_mean"(%0) {correction = 1 : i64, dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %1#0, %1#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// Bias gradient: the leading dims reduced, outermost: outer. The wide tile
// (16 column vectors x 16 row groups) when the kept shape has at least
// 2 x 132 x 16 x 8 points, else the narrow one (4 column vectors per block,
// 128 row groups, 4 rows in flight).
// CHECK-LABEL: func.func private @bias_grad_k0
// CHECK-SAME: fuser.schedule = {outer = {outer_dims = 2 : i64,
// CHECK-SAME: variants = [{min_points = 33792 : i64, rows_per_block = 16 : i64, threads = 16 : i64, vectors = 4 : i64, width = 8 : i64}, {rows_per_block = 4 : i64, threads = 128 : i64, vectors = 4 : i64, width = 8 : i64}]}
func.func private @bias_grad_k0(%arg0: tensor<?x?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, -9223372036854775808, 1>}) -> (tensor<?xbf16> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?x?xbf16>) -> tensor<?x?x?xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?xf32>
  %2 = "fuser.cast"(%1) : (tensor<?xf32>) -> tensor<?xbf16>
  return %2 : tensor<?xbf16>
}

// -----

// A middle dim: the batched outer schedule (dim 0 kept before the reduced
// dim 1; columns = 8 x 128), 4-element vectors of f32; 1024 static columns:
// no wide tile (it needs 2 x 132 x 16 x 4).
// CHECK-LABEL: func.func private @middle_k0
// CHECK-SAME: fuser.schedule = {outer = {batch_dims = 1 : i64, outer_dims = 1 : i64, row_length = 1024 : i64, rows = 64 : i64, variants = [{rows_per_block = 4 : i64, threads = 128 : i64, vectors = 4 : i64, width = 4 : i64}]}
func.func private @middle_k0(%arg0: tensor<8x64x128xf32> {fuser.strides = array<i64: 8192, 128, 1>}) -> (tensor<8x128xf32> {fuser.strides = array<i64: 128, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<8x64x128xf32>) -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

// A bf16 first stage writing f32 partials: the width follows the reads (8).
// CHECK-LABEL: func.func private @stage_k0
// CHECK-SAME: fuser.schedule = {outer = {batch_dims = 1 : i64, outer_dims = 1 : i64, variants = [{min_points = 33792 : i64, rows_per_block = 16 : i64, threads = 16 : i64, vectors = 4 : i64, width = 8 : i64}, {rows_per_block = 4 : i64, threads = 128 : i64, vectors = 4 : i64, width = 8 : i64}]}
func.func private @stage_k0(%arg0: tensor<?x?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, -9223372036854775808, 1>}) -> (tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?x?xbf16>) -> tensor<?x?x?xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// Scattered dims (0 and 2): no row schedule, the pointwise one (the per-point kernel).
// CHECK-LABEL: func.func private @scattered_k0
// CHECK-SAME: fuser.schedule = {pointwise = {block_size = 128 : i64, 
func.func private @scattered_k0(%arg0: tensor<8x64x128xf32> {fuser.strides = array<i64: 8192, 128, 1>}) -> (tensor<64xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 0, 2>, keepdim = false} : (tensor<8x64x128xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// Pointwise kernels get the pointwise schedule, after fuser-vectorize's plan.
// CHECK-LABEL: func.func private @pointwise_k0
// CHECK-SAME: fuser.schedule = {pointwise = {block_size = 128 : i64, 
func.func private @pointwise_k0(%arg0: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Long rows (passes/schedule_reduction.h): 65,536 bf16 columns (128 KB) do
// not fit one block's registers; the row goes to a cluster of 2 blocks of
// 1024 threads x 4 vectors (64 KB each), re-read for each pass (reload), then
// the variant without conditions.
// CHECK-LABEL: func.func private @long_k0
// CHECK-SAME: fuser.schedule = {inner_persistent = {outer_dims = 1 : i64, row_length = 65536 : i64, rows = 8 : i64,
// CHECK-SAME: variants = [{cluster = 2 : i64, reload = true, rows_per_block = 1 : i64, threads = 1024 : i64, vectors = 4 : i64, width = 8 : i64},
// CHECK-SAME: {rows_per_block = 1 : i64, threads = 512 : i64, vectors = 0 : i64, width = 1 : i64}]}
func.func private @long_k0(%arg0: tensor<8x65536xbf16> {fuser.strides = array<i64: 65536, 1>}) -> (tensor<8x65536xbf16> {fuser.strides = array<i64: 65536, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<8x65536xbf16>) -> tensor<8x65536xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<8x65536xf32>) -> tensor<8xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x65536xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<8x65536xf32>, tensor<8x65536xf32>) -> tensor<8x65536xf32>
  %4 = "fuser.cast"(%3) : (tensor<8x65536xf32>) -> tensor<8x65536xbf16>
  return %4 : tensor<8x65536xbf16>
}

// -----

// A large-vocabulary logsumexp (128,256 bf16 columns, 256.5 KB: 4 blocks of
// at most 64 KB); its f32 results (one per row) are not walked along the row, so
// the bf16 reads keep 16-byte vectors (width 8).
// CHECK-LABEL: func.func private @lse_k0
// CHECK-SAME: fuser.schedule = {inner_reduce = {outer_dims = 1 : i64, row_length = 128256 : i64, rows = 16 : i64,
// CHECK-SAME: variants = [{cluster = 4 : i64, reload = true, rows_per_block = 1 : i64, threads = 1024 : i64, vectors = 4 : i64, width = 8 : i64},
func.func private @lse_k0(%arg0: tensor<16x128256xbf16> {fuser.strides = array<i64: 128256, 1>}) -> (tensor<16xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<16x128256xbf16>) -> tensor<16x128256xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<16x128256xf32>) -> tensor<16xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x128256xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<16x128256xf32>, tensor<16x128256xf32>) -> tensor<16x128256xf32>
  %4 = "fuser.exp"(%3) : (tensor<16x128256xf32>) -> tensor<16x128256xf32>
  %5 = "fuser.sum"(%4) {dims = array<i64: 1>, keepdim = false} : (tensor<16x128256xf32>) -> tensor<16xf32>
  %6 = "fuser.log"(%5) : (tensor<16xf32>) -> tensor<16xf32>
  %7 = "fuser.add"(%6, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %7 : tensor<16xf32>
}
