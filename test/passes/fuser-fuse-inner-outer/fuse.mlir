// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-alias-meta-ops, fuser-allocation-order, fuser-segment, fuser-fuse-inner-outer)' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-alias-meta-ops, fuser-allocation-order, fuser-segment, fuser-fuse-inner-outer{partial-rows=8})' | FileCheck %s --check-prefix=G8
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-alias-meta-ops, fuser-allocation-order, fuser-segment, fuser-fuse-inner-outer{partial-rows=24})' | FileCheck %s --check-prefix=ODD
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-alias-meta-ops, fuser-allocation-order, fuser-segment, fuser-fuse-inner-outer{partial-rows=16})' | FileCheck %s --check-prefix=G16
// Normalization backward (RMSNorm's, 256 x 1024 bf16): dx is an inner
// persistent row kernel, dw a column sum of the same rows. With the row
// groups fixed (partial-rows=8: 8 groups of 32 rows; 16: 16 of 16) the
// column sum's inputs move into the rows kernel as partials over the
// groups, and the column kernel sums the partial rows. The heuristic keeps
// the two kernels for 256 rows: too few groups to give every SM a block.
// CHECK-LABEL: func.func @rms
// CHECK: call @rms_k1(%arg0, %arg1, %{{.*}}) {fuser.cuts = ["fusion output"], fuser.inner_outer = "not fused with the rows kernel: too few row groups of 16 rows or more to give each of the 132 SMs a block (the two kernels fill them)"}

// G8-LABEL: func.func @rms
// G8: %[[K:.*]]:2 = call @rms_k0(%arg0, %arg1, %{{.*}}, %{{.*}}) {fuser.cuts = ["fusion output", "inner-outer partials: column sums over 8 row groups of 32 rows (combined by the next kernel)"]}
// G8-SAME: -> (tensor<256x1024xbf16>, tensor<8x1024xf32>)
// G8: %[[W:.*]] = call @rms_k1(%[[K]]#1) {fuser.cuts = ["fusion output"]} : (tensor<8x1024xf32>) -> tensor<1024xbf16>
// G8: return %[[K]]#0, %[[W]]
// G8-LABEL: func.func private @rms_k0(
// G8-SAME: -> (tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}, tensor<8x1024xf32> {fuser.strides = array<i64: 1024, 1>})
// The column sum's input shares the rows kernel's casts and xhat (one load each).
// G8-COUNT-3: "fuser.cast"(%arg
// G8-NOT: "fuser.cast"(%arg
// G8: "fuser.cast"(%{{.*}}) {{.*}}-> tensor<256x1024xbf16>
// G8-NEXT: %[[X:.*]] = "fuser.mul"
// G8: %[[R:.*]] = "fuser.reshape"(%[[X]]) : (tensor<256x1024xf32>) -> tensor<8x32x1024xf32>
// G8: %[[P:.*]] = "fuser.sum"(%[[R]]) {dims = array<i64: 1>, keepdim = false} : (tensor<8x32x1024xf32>) -> tensor<8x1024xf32>
// G8: return %{{.*}}, %[[P]]
// G8-LABEL: func.func private @rms_k1(%arg0: tensor<8x1024xf32> {fuser.strides = array<i64: 1024, 1>})
// G8-NEXT: %[[S:.*]] = "fuser.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<8x1024xf32>) -> tensor<1024xf32>
// G8-NEXT: %[[C:.*]] = "fuser.cast"(%[[S]]) {{.*}}: (tensor<1024xf32>) -> tensor<1024xbf16>
// G8-NEXT: return %[[C]]
// ODD-LABEL: func.func @rms
// ODD: call @rms_k1(%arg0, %arg1, %{{.*}}) {fuser.cuts = ["fusion output"], fuser.inner_outer = "not fused with the rows kernel: partial-rows=24 does not divide the 256 rows into groups of whole blocks"}
// G16-LABEL: func.func @rms
// G16: -> (tensor<256x1024xbf16>, tensor<16x1024xf32>)
func.func @rms(%g: tensor<256x1024xbf16>, %x: tensor<256x1024xbf16>, %r: tensor<256x1xf32>, %w: tensor<1024xbf16>) -> (tensor<256x1024xbf16>, tensor<1024xbf16>) attributes {fuser.fusion} {
  %0 = "fuser.cast"(%g) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %1 = "fuser.cast"(%x) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %2 = "fuser.broadcast_in_dim"(%r) {broadcast_dims = array<i64: 0, 1>} : (tensor<256x1xf32>) -> tensor<256x1024xf32>
  %3 = "fuser.mul"(%1, %2) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %4 = "fuser.broadcast_in_dim"(%w) {broadcast_dims = array<i64: 1>} : (tensor<1024xbf16>) -> tensor<256x1024xbf16>
  %5 = "fuser.cast"(%4) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %6 = "fuser.mul"(%0, %5) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %7 = "fuser.mul"(%6, %3) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %8 = "fuser.sum"(%7) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
  %9 = "fuser.broadcast_in_dim"(%8) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1024xf32>
  %10 = "fuser.mul"(%3, %9) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %11 = "fuser.sub"(%6, %10) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %12 = "fuser.mul"(%11, %2) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %13 = "fuser.cast"(%12) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
  %14 = "fuser.mul"(%0, %3) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %15 = "fuser.sum"(%14) {dims = array<i64: 0>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<1024xf32>
  %16 = "fuser.cast"(%15) : (tensor<1024xf32>) -> tensor<1024xbf16>
  return %13, %16 : tensor<256x1024xbf16>, tensor<1024xbf16>
}

// -----

// Symbolic rows: the row groups need a static row count, so the two kernels
// stay and the column kernel's call says why.
// CHECK-LABEL: func.func @rows_symbolic
// CHECK: call @rows_symbolic_k0
// CHECK: call @rows_symbolic_k1({{.*}}) {fuser.cuts = ["fusion output"], fuser.inner_outer = "not fused with the rows kernel: symbolic rows or columns (the row groups need a static row count)"}
func.func @rows_symbolic(%g: tensor<?x1024xf32>, %x: tensor<?x1024xf32>) -> (tensor<?x1024xf32>, tensor<1024xf32>) attributes {fuser.fusion} {
  %0 = "fuser.mul"(%g, %x) : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x1024xf32>) -> tensor<?xf32>
  %n = "fuser.size"(%g) {dim = 0 : i64} : (tensor<?x1024xf32>) -> i64
  %2 = "fuser.broadcast_in_dim"(%1, %n) {broadcast_dims = array<i64: 0>} : (tensor<?xf32>, i64) -> tensor<?x1024xf32>
  %3 = "fuser.sub"(%g, %2) : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %4 = "fuser.sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<?x1024xf32>) -> tensor<1024xf32>
  return %3, %4 : tensor<?x1024xf32>, tensor<1024xf32>
}

// -----

// A column max is no sum: not split into partial sums.
// CHECK-LABEL: func.func @column_max
// CHECK: call @column_max_k1({{.*}}) {fuser.cuts = ["fusion output"], fuser.inner_outer = "not fused with the rows kernel: a reduction of the column kernel is not a sum over the rows of the rows kernel"}
func.func @column_max(%g: tensor<256x1024xf32>, %x: tensor<256x1024xf32>) -> (tensor<256x1024xf32>, tensor<1024xf32>) attributes {fuser.fusion} {
  %0 = "fuser.mul"(%g, %x) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1024xf32>
  %3 = "fuser.sub"(%g, %2) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %4 = "fuser.max"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<1024xf32>
  return %3, %4 : tensor<256x1024xf32>, tensor<1024xf32>
}
