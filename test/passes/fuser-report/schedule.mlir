// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-allocation-order, fuser-split-reductions, fuser-segment, fuser-report)' -o /dev/null | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-allocation-order, fuser-split-reductions, fuser-segment, fuser-fuse-inner-outer{partial-rows=8}, fuser-report)' -o /dev/null | FileCheck %s --check-prefix=IO
// fuser-report prints each reduction kernel's schedule and its variants
// (@norm: 128 blocks, one partial wave: its epilogue's loads go first).

// CHECK-LABEL: fusion @norm: 1 kernel
// CHECK: schedule: inner_persistent, rows 256 x row length 1024
// CHECK-NEXT: variant 0: persistent, width 8, 64 threads x 2 vectors per row, 2 rows per block, the epilogue's loads before the reduction{{$}}
// CHECK-NEXT: variant 1: looped, width 1, 512 threads per row
func.func @norm(%arg0: tensor<256x1024xbf16>) -> tensor<256x1024xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1024xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %4 = "fuser.cast"(%3) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
  return %4 : tensor<256x1024xbf16>
}

// CHECK-LABEL: fusion @grad: 1 kernel
// CHECK: schedule: outer, reduced rows 4096 x columns 1024
// CHECK-NEXT: variant 0: width 8, 4 column vectors x 128 row groups per block, 4 rows in flight
// CHECK-NEXT: then the per-point kernel (no conditions)
func.func @grad(%arg0: tensor<4x1024x1024xbf16>) -> tensor<1024xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<4x1024x1024xbf16>) -> tensor<4x1024x1024xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x1024x1024xf32>) -> tensor<1024xf32>
  %2 = "fuser.cast"(%1) : (tensor<1024xf32>) -> tensor<1024xbf16>
  return %2 : tensor<1024xbf16>
}

// A full reduction: two kernels after fuser-split-reductions, each a row schedule.
// CHECK-LABEL: fusion @amax: 2 kernels
// CHECK: schedule: inner_reduce, rows 64 x row length 512
// CHECK: schedule: inner_reduce, rows 1 x row length 64
func.func @amax(%arg0: tensor<64x512xf32>) -> tensor<f32> attributes {fuser.fusion} {
  %0 = "fuser.abs"(%arg0) : (tensor<64x512xf32>) -> tensor<64x512xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<64x512xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// A bias gradient large enough to split (fuser-split-reductions): the first
// kernel a batched outer reduction (16 x 1024 columns, 4096 rows each), the
// second sums the 16 partials of each column.
// CHECK-LABEL: fusion @grad_split: 2 kernels
// CHECK: schedule: outer, reduced rows 4096 x columns 16384
// CHECK-NEXT: batched: dims [1, 2) reduced, the 1 dim before them kept (columns = batch x trailing dims)
// CHECK-NEXT: variant 0: width 8, 4 column vectors x 128 row groups per block, 4 rows in flight
// CHECK: schedule: outer, reduced rows 16 x columns 1024
// CHECK-NEXT: variant 0: width 4, 4 column vectors x 128 row groups per block, 4 rows in flight
func.func @grad_split(%arg0: tensor<16x4096x1024xbf16>) -> tensor<1024xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<16x4096x1024xbf16>) -> tensor<16x4096x1024xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<16x4096x1024xf32>) -> tensor<1024xf32>
  %2 = "fuser.cast"(%1) : (tensor<1024xf32>) -> tensor<1024xbf16>
  return %2 : tensor<1024xbf16>
}

// A long row (262,144 bf16 columns, 512 KB): a cluster of 8 blocks per row,
// each holding 64 KB of it (1024 threads x 4 vectors), re-read for each pass.
// CHECK-LABEL: fusion @long_row: 1 kernel
// CHECK: schedule: inner_persistent, rows 4 x row length 262144
// CHECK-NEXT: variant 0: persistent over a cluster of 8 blocks per row, width 8, 1024 threads x 4 vectors per block, re-read for each pass
// CHECK-NEXT: variant 1: looped, width 1, 512 threads per row
func.func @long_row(%arg0: tensor<4x262144xbf16>) -> tensor<4x262144xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<4x262144xbf16>) -> tensor<4x262144xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<4x262144xf32>, tensor<4x262144xf32>) -> tensor<4x262144xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<4x262144xf32>) -> tensor<4xf32>
  %3 = "fuser.broadcast_in_dim"(%2) {broadcast_dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x262144xf32>
  %4 = "fuser.mul"(%0, %3) : (tensor<4x262144xf32>, tensor<4x262144xf32>) -> tensor<4x262144xf32>
  %5 = "fuser.cast"(%4) : (tensor<4x262144xf32>) -> tensor<4x262144xbf16>
  return %5 : tensor<4x262144xbf16>
}

// Symbolic columns: the wide tile first, under its run-time condition on
// the kept points (2 x 132 SMs x 16 column vectors x 8), then the narrow.
// CHECK-LABEL: fusion @grad_symbolic: 1 kernel
// CHECK: schedule: outer, reduced rows ? x columns ?
// CHECK-NEXT: variant 0: width 8, 16 column vectors x 16 row groups per block, 4 rows in flight, when the kept shape has at least 33792 points
// CHECK-NEXT: variant 1: width 8, 4 column vectors x 128 row groups per block, 4 rows in flight
// CHECK-NEXT: then the per-point kernel (no conditions)
func.func @grad_symbolic(%arg0: tensor<?x?xbf16>) -> tensor<?xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
  %2 = "fuser.cast"(%1) : (tensor<?xf32>) -> tensor<?xbf16>
  return %2 : tensor<?xbf16>
}

// Symbolic rows reduced to a value each (var_mean statistics): a warp per
// row when there are many rows, else 512 threads per row.
// CHECK-LABEL: fusion @row_stats: 1 kernel
// CHECK: schedule: inner_reduce, rows ? x row length ?
// CHECK-NEXT: variant 0: looped, width 8, 32 threads per row, 8 rows per block, when there are at least 2112 rows
// CHECK-NEXT: variant 1: looped, width 8, 512 threads per row
// CHECK-NEXT: variant 2: looped, width 1, 512 threads per row
func.func @row_stats(%arg0: tensor<?x?xbf16>) -> (tensor<?xf32>, tensor<?xf32>) attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1:2 = "fuser.var_mean"(%0) {correction = 0 : i64, dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %1#0, %1#1 : tensor<?xf32>, tensor<?xf32>
}

// A kept reduced dim (keepdim) of symbolic rows: the results hold one value
// per row ([?, ?, 1]), an inner reduce; it was once scheduled as a
// normalization (the row's shape), whose W-wide stores overran the next
// rows' results (var.py in test/frontend/Inputs/scripts).
// CHECK-LABEL: fusion @keepdim_rows: 1 kernel
// CHECK: schedule: inner_reduce, rows ? x row length ?
func.func @keepdim_rows(%arg0: tensor<?x?x?xf32>) -> tensor<?x?x1xf32> attributes {fuser.fusion} {
  %0:2 = "fuser.var_mean"(%arg0) {correction = 2 : i64, dims = array<i64: 2>, keepdim = true} : (tensor<?x?x?xf32>) -> (tensor<?x?x1xf32>, tensor<?x?x1xf32>)
  %1 = "fuser.sqrt"(%0#0) : (tensor<?x?x1xf32>) -> tensor<?x?x1xf32>
  return %1 : tensor<?x?x1xf32>
}

// Normalization backward, its row groups fixed (partial-rows=8): the rows
// kernel returns the column sums' partials over row groups (inner_outer),
// the column kernel sums them. Its report line says how many groups of how
// many rows. (Without the option, 256 rows keep the two kernels:
// test/passes/fuser-fuse-inner-outer.)
// IO-LABEL: fusion @norm_backward: 2 kernels
// IO: kernel @norm_backward_k0  (fusion output; inner-outer partials: column sums over 8 row groups of 32 rows (combined by the next kernel))
// IO: schedule: inner_outer, rows 256 x row length 1024
// IO-NEXT: partials: 8 row groups of 32 rows, each group's column sums in registers (one f32 row per group)
// IO-NEXT: variant 0: persistent, width 4, 128 threads x 2 vectors per row, 1 row per block
// IO-NEXT: variant 1: persistent, width 1, 512 threads x 2 vectors per row, 1 row per block
// IO: kernel @norm_backward_k1  (fusion output)
// IO: schedule: outer, reduced rows 8 x columns 1024
// Symbolic rows: two kernels, and why.
// IO-LABEL: fusion @norm_backward_rows: 2 kernels
// IO: kernel @norm_backward_rows_k1  (fusion output)
// IO-NEXT: inner-outer: not fused with the rows kernel: symbolic rows or columns (the row groups need a static row count)
func.func @norm_backward(%g: tensor<256x1024xf32>, %x: tensor<256x1024xf32>) -> (tensor<256x1024xf32>, tensor<1024xf32>) attributes {fuser.fusion} {
  %0 = "fuser.mul"(%g, %x) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1024xf32>
  %3 = "fuser.sub"(%g, %2) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %4 = "fuser.sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<1024xf32>
  return %3, %4 : tensor<256x1024xf32>, tensor<1024xf32>
}
func.func @norm_backward_rows(%g: tensor<?x1024xf32>, %x: tensor<?x1024xf32>) -> (tensor<?x1024xf32>, tensor<1024xf32>) attributes {fuser.fusion} {
  %0 = "fuser.mul"(%g, %x) : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x1024xf32>) -> tensor<?xf32>
  %n = "fuser.size"(%g) {dim = 0 : i64} : (tensor<?x1024xf32>) -> i64
  %2 = "fuser.broadcast_in_dim"(%1, %n) {broadcast_dims = array<i64: 0>} : (tensor<?xf32>, i64) -> tensor<?x1024xf32>
  %3 = "fuser.sub"(%g, %2) : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %4 = "fuser.sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<?x1024xf32>) -> tensor<1024xf32>
  return %3, %4 : tensor<?x1024xf32>, tensor<1024xf32>
}
