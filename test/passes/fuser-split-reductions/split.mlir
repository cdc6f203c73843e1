// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-split-reductions)' | FileCheck %s
// Full reductions run in two stages: the innermost dim, then the rows.

// amax of a 2-D tensor.
// CHECK-LABEL: func.func @amax
// CHECK: %[[R:.*]] = "fuser.max"(%{{.*}}) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
// CHECK: "fuser.max"(%[[R]]) {dims = array<i64: 0>, keepdim = false} : (tensor<?xf32>) -> tensor<f32>
func.func @amax(%arg0: tensor<?x?xf32>) -> tensor<f32> attributes {fuser.fusion} {
  %0 = "fuser.abs"(%arg0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// A bf16 sum of rank 3: the stages keep f32 (no double rounding), twice split.
// CHECK-LABEL: func.func @loss
// CHECK: %[[A:.*]] = "fuser.sum"(%arg0) {dims = array<i64: 2>, keepdim = false} : (tensor<4x8x16xbf16>) -> tensor<4x8xf32>
// CHECK: %[[B:.*]] = "fuser.sum"(%[[A]]) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK: "fuser.sum"(%[[B]]) {dims = array<i64: 0>, keepdim = false} : (tensor<4xf32>) -> tensor<bf16>
func.func @loss(%arg0: tensor<4x8x16xbf16>) -> tensor<bf16> attributes {fuser.fusion} {
  %1 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1, 2>, keepdim = false} : (tensor<4x8x16xbf16>) -> tensor<bf16>
  return %1 : tensor<bf16>
}

// -----

// Not split: keepdim, var_mean, a partial reduction, a 1-D input.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-1: "fuser.sum"
// CHECK: "fuser.var_mean"(%arg0) {correction = 0 : i64, dims = array<i64: 0, 1>
// CHECK: "fuser.max"(%arg0) {dims = array<i64: 1>
// CHECK: "fuser.min"(%arg1) {dims = array<i64: 0>
func.func @kept(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>) -> (tensor<1x1xf32>, tensor<f32>, tensor<4xf32>, tensor<f32>) attributes {fuser.fusion} {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<1x1xf32>
  %1:2 = "fuser.var_mean"(%arg0) {correction = 0 : i64, dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x8xf32>) -> (tensor<f32>, tensor<f32>)
  %2 = "fuser.max"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %3 = "fuser.min"(%arg1) {dims = array<i64: 0>, keepdim = false} : (tensor<8xf32>) -> tensor<f32>
  return %0, %1#0, %2, %3 : tensor<1x1xf32>, tensor<f32>, tensor<4xf32>, tensor<f32>
}

// -----

// The bias gradient over B and S of [B, S, C] with the example inputs of
// bias_grad_large (16 x 4096 x 4096, sizes `?`): C x 4 / 64 = 256 column
// tiles (< 2 x 132 SMs), each reading 65536 rows (>= 1 MiB): split. The
// first stage sums S per batch entry (f32 partials [B, C]), the second the
// batch (with the cast after it).
// CHECK-LABEL: func.func @bias_grad
// CHECK: %[[C:.*]] = "fuser.cast"(%arg0)
// CHECK: %[[P:.*]] = "fuser.sum"(%[[C]]) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?x?xf32>
// CHECK: %[[S:.*]] = "fuser.sum"(%[[P]]) {dims = array<i64: 0>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
// CHECK: "fuser.cast"(%[[S]])
func.func @bias_grad(%arg0: tensor<?x?x?xbf16>) -> tensor<?xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 16, 4096, 4096>, sizes = array<i64: 16, 4096, 4096>, strides = array<i64: 16777216, 4096, 1>}]} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?x?xbf16>) -> tensor<?x?x?xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?xf32>
  %2 = "fuser.cast"(%1) : (tensor<?xf32>) -> tensor<?xbf16>
  return %2 : tensor<?xbf16>
}

// -----

// Static sizes, rank 4, a bf16 max over three leading dims: the partials
// keep bf16 (max is exact); the first stage reduces dims 1 and 2.
// CHECK-LABEL: func.func @max4
// CHECK: %[[P:.*]] = "fuser.max"(%arg0) {dims = array<i64: 1, 2>, keepdim = false} : (tensor<4x64x512x256xbf16>) -> tensor<4x256xbf16>
// CHECK: "fuser.max"(%[[P]]) {dims = array<i64: 0>, keepdim = false} : (tensor<4x256xbf16>) -> tensor<256xbf16>
func.func @max4(%arg0: tensor<4x64x512x256xbf16>) -> tensor<256xbf16> attributes {fuser.fusion} {
  %1 = "fuser.max"(%arg0) {dims = array<i64: 0, 1, 2>, keepdim = false} : (tensor<4x64x512x256xbf16>) -> tensor<256xbf16>
  return %1 : tensor<256xbf16>
}

// -----

// Not split (the heuristic): bias_grad_small's 4 x 256 x 1024 (each of the
// 64 column tiles reads 1024 rows: 64 KiB, the second launch would cost
// more), sizes unknown (no example inputs), a batch of 1, many columns
// (16384 f32 columns: 1024 tiles, enough blocks), one reduced dim.
// CHECK-LABEL: func.func @small
// CHECK-COUNT-1: "fuser.sum"
// CHECK-NOT: "fuser.sum"
func.func @small(%arg0: tensor<4x256x1024xf32>) -> tensor<1024xf32> attributes {fuser.fusion} {
  %1 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x256x1024xf32>) -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}
// CHECK-LABEL: func.func @unknown
// CHECK-COUNT-1: "fuser.sum"
// CHECK-NOT: "fuser.sum"
func.func @unknown(%arg0: tensor<?x?x?xf32>) -> tensor<?xf32> attributes {fuser.fusion} {
  %1 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
// CHECK-LABEL: func.func @batch1
// CHECK-COUNT-1: "fuser.sum"
// CHECK-NOT: "fuser.sum"
func.func @batch1(%arg0: tensor<1x65536x1024xf32>) -> tensor<1024xf32> attributes {fuser.fusion} {
  %1 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<1x65536x1024xf32>) -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}
// CHECK-LABEL: func.func @wide
// CHECK-COUNT-1: "fuser.sum"
// CHECK-NOT: "fuser.sum"
func.func @wide(%arg0: tensor<4x16384x16384xf32>) -> tensor<16384xf32> attributes {fuser.fusion} {
  %1 = "fuser.sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x16384x16384xf32>) -> tensor<16384xf32>
  return %1 : tensor<16384xf32>
}
// CHECK-LABEL: func.func @one_dim
// CHECK-COUNT-1: "fuser.sum"
// CHECK-NOT: "fuser.sum"
func.func @one_dim(%arg0: tensor<65536x1024xf32>) -> tensor<1024xf32> attributes {fuser.fusion} {
  %1 = "fuser.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<65536x1024xf32>) -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// -----

// Batch-norm statistics: var_mean over N, H, W of NCHW (C kept in the
// middle). First over H x W per (n, c) with correction 0, then the pairs
// over N: the mean of the means, and var = the mean of the variances + the
// variance of the means (equal counts), scaled by N / (N - correction)
// with N = 2 x 4 x 4 = 32 static: 32 / 31. Both stages in f64 (the input
// cast first), the results cast back to f32 once at the end.
// CHECK-LABEL: func.func @bn
// CHECK: %[[X:.*]] = "fuser.cast"(%arg0) : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf64>
// CHECK: %[[S:.*]]:2 = "fuser.var_mean"(%[[X]]) {correction = 0 : i64, dims = array<i64: 2, 3>, keepdim = false} : (tensor<2x8x4x4xf64>) -> (tensor<2x8xf64>, tensor<2x8xf64>)
// CHECK: %[[M:.*]]:2 = "fuser.var_mean"(%[[S]]#1) {correction = 0 : i64, dims = array<i64: 0>, keepdim = false} : (tensor<2x8xf64>) -> (tensor<8xf64>, tensor<8xf64>)
// CHECK: %[[V:.*]]:2 = "fuser.var_mean"(%[[S]]#0) {correction = 0 : i64, dims = array<i64: 0>, keepdim = false}
// CHECK: %[[A:.*]] = "fuser.add"(%[[V]]#1, %[[M]]#0)
// CHECK: %[[F:.*]] = "fuser.scalar"() {value = 1.032258064516129 : f64} : () -> f64
// CHECK: %[[R:.*]] = "fuser.mul"(%[[A]], %[[F]])
// CHECK: %[[RV:.*]] = "fuser.cast"(%[[R]]) : (tensor<8xf64>) -> tensor<8xf32>
// CHECK: %[[RM:.*]] = "fuser.cast"(%[[M]]#1) : (tensor<8xf64>) -> tensor<8xf32>
// CHECK: return %[[RV]], %[[RM]]
func.func @bn(%arg0: tensor<2x8x4x4xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {fuser.fusion} {
  %0:2 = "fuser.var_mean"(%arg0) {correction = 1 : i64, dims = array<i64: 0, 2, 3>, keepdim = false} : (tensor<2x8x4x4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A bf16 input: cast to f64 directly; the results keep var_mean's f32.
// CHECK-LABEL: func.func @bn_bf16
// CHECK: %[[X:.*]] = "fuser.cast"(%arg0) : (tensor<2x8x4x4xbf16>) -> tensor<2x8x4x4xf64>
// CHECK: "fuser.var_mean"(%[[X]]) {correction = 0 : i64, dims = array<i64: 2, 3>, keepdim = false} : (tensor<2x8x4x4xf64>) -> (tensor<2x8xf64>, tensor<2x8xf64>)
// CHECK-NOT: fuser.scalar
// CHECK: return {{.*}} : tensor<8xf32>, tensor<8xf32>
func.func @bn_bf16(%arg0: tensor<2x8x4x4xbf16>) -> (tensor<8xf32>, tensor<8xf32>) attributes {fuser.fusion} {
  %0:2 = "fuser.var_mean"(%arg0) {correction = 0 : i64, dims = array<i64: 0, 2, 3>, keepdim = false} : (tensor<2x8x4x4xbf16>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Not split: a correction with symbolic extents (the count is unknown),
// keepdim, three blocks of dims.
// CHECK-LABEL: func.func @bn_kept
// CHECK-COUNT-3: "fuser.var_mean"
// CHECK-NOT: "fuser.var_mean"
func.func @bn_kept(%arg0: tensor<?x8x?x4xf32>, %arg2: tensor<2x8x4x4xf32>, %arg3: tensor<2x8x4x4x2xf32>) -> (tensor<8xf32>, tensor<1x8x1x1xf32>, tensor<8x4xf32>) attributes {fuser.fusion} {
  %0:2 = "fuser.var_mean"(%arg0) {correction = 1 : i64, dims = array<i64: 0, 2, 3>, keepdim = false} : (tensor<?x8x?x4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %2:2 = "fuser.var_mean"(%arg2) {correction = 0 : i64, dims = array<i64: 0, 2, 3>, keepdim = true} : (tensor<2x8x4x4xf32>) -> (tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>)
  %3:2 = "fuser.var_mean"(%arg3) {correction = 0 : i64, dims = array<i64: 0, 2, 4>, keepdim = false} : (tensor<2x8x4x4x2xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
  return %0#0, %2#0, %3#0 : tensor<8xf32>, tensor<1x8x1x1xf32>, tensor<8x4xf32>
}

// -----

// A normalization backward over [B, S, H] (static): its column sums are not
// split into a batched first stage; fuser-fuse-inner-outer makes them
// partials of the rows kernel instead (the rows are reduced innermost too).
// A plain column sum of the same shape is split.
// CHECK-LABEL: func.func @norm_backward_3d
// CHECK: "fuser.sum"(%{{.*}}) {dims = array<i64: 2>, keepdim = false}
// CHECK: "fuser.sum"(%{{.*}}) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<8x2048x4096xf32>) -> tensor<4096xf32>
// CHECK-LABEL: func.func @column_sum_3d
// CHECK: "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<8x2048x4096xf32>) -> tensor<8x4096xf32>
func.func @norm_backward_3d(%g: tensor<8x2048x4096xf32>, %x: tensor<8x2048x4096xf32>) -> (tensor<8x2048x4096xf32>, tensor<4096xf32>) attributes {fuser.fusion} {
  %0 = "fuser.mul"(%g, %x) : (tensor<8x2048x4096xf32>, tensor<8x2048x4096xf32>) -> tensor<8x2048x4096xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 2>, keepdim = false} : (tensor<8x2048x4096xf32>) -> tensor<8x2048xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0, 1>} : (tensor<8x2048xf32>) -> tensor<8x2048x4096xf32>
  %3 = "fuser.sub"(%g, %2) : (tensor<8x2048x4096xf32>, tensor<8x2048x4096xf32>) -> tensor<8x2048x4096xf32>
  %4 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<8x2048x4096xf32>) -> tensor<4096xf32>
  return %3, %4 : tensor<8x2048x4096xf32>, tensor<4096xf32>
}
func.func @column_sum_3d(%g: tensor<8x2048x4096xf32>) -> tensor<4096xf32> attributes {fuser.fusion} {
  %0 = "fuser.sum"(%g) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<8x2048x4096xf32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
