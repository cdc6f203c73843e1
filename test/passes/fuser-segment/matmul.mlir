// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment)' | FileCheck %s

// A matmul is a segment of its own (fuser.matmul: cuBLASLt runs it, the
// kernel lowering skips it); its computed operand is materialized before it
// and its epilogue reads its result in one of our kernels. The result is
// row-major whatever its operands' layouts (nvFuser: a new ATen tensor).
// CHECK-LABEL: func.func @epilogue
// CHECK: %[[A:.*]] = call @epilogue_k0(%arg0) {fuser.cuts = ["matmul operand (cuBLASLt reads it from global memory)"]}
// CHECK: %[[M:.*]] = call @epilogue_k1(%arg1, %[[A]]) {fuser.cuts = ["matmul runs in cuBLASLt (a segment of its own)"]}
// CHECK: %[[E:.*]] = call @epilogue_k2(%[[M]]) {fuser.cuts = ["fusion output"]}
// CHECK: return %[[E]]
// CHECK: func.func private @epilogue_k0
// CHECK-NEXT: "fuser.neg"
// CHECK: func.func private @epilogue_k1(%arg0: tensor<16x4xbf16> {fuser.strides = array<i64: 1, 16>}, %arg1: tensor<8x16xbf16> {fuser.strides = array<i64: 16, 1>})
// CHECK-SAME: attributes {fuser.kernel, fuser.matmul}
// CHECK-NEXT: "fuser.matmul"(%arg1, %arg0) {fuser.stride_order = array<i64: 1, 0>}
// CHECK-NEXT: return
// CHECK: func.func private @epilogue_k2
// CHECK-NEXT: "fuser.exp"
func.func @epilogue(%arg0: tensor<8x16xbf16>,
                    %arg1: tensor<16x4xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>})
    -> tensor<8x4xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  %1 = "fuser.cast"(%0) : (tensor<8x16xf32>) -> tensor<8x16xbf16>
  %2 = "fuser.matmul"(%1, %arg1) : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xbf16>
  %3 = "fuser.exp"(%2) : (tensor<8x4xbf16>) -> tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}

// -----

// Two independent products of one shape are two cuBLASLt calls, never one
// kernel (roots of one shape and level otherwise share a kernel).
// CHECK-LABEL: func.func @two_linears
// CHECK: call @two_linears_k0(%arg0, %arg1, %arg2) {fuser.cuts = ["matmul runs in cuBLASLt (a segment of its own)"]}
// CHECK: call @two_linears_k1(%arg0, %arg1) {fuser.cuts = ["matmul runs in cuBLASLt (a segment of its own)"]}
// CHECK: func.func private @two_linears_k0
// CHECK-SAME: fuser.matmul
// CHECK-NEXT: "fuser.linear"(%arg0, %arg1, %arg2)
// CHECK: func.func private @two_linears_k1
// CHECK-SAME: fuser.matmul
// CHECK-NEXT: "fuser.linear"(%arg0, %arg1)
func.func @two_linears(%arg0: tensor<2x8x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<4xf32>)
    -> (tensor<2x8x4xf32>, tensor<2x8x4xf32>) attributes {fuser.fusion} {
  %0 = "fuser.linear"(%arg0, %arg1, %arg2) : (tensor<2x8x16xf32>, tensor<4x16xf32>, tensor<4xf32>) -> tensor<2x8x4xf32>
  %1 = "fuser.linear"(%arg0, %arg1) : (tensor<2x8x16xf32>, tensor<4x16xf32>) -> tensor<2x8x4xf32>
  return %0, %1 : tensor<2x8x4xf32>, tensor<2x8x4xf32>
}
