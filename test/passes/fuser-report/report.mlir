// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-alias-meta-ops, fuser-allocation-order, fuser-segment)' --fuser-report | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-alias-meta-ops, fuser-allocation-order, fuser-segment, fuser-report{stderr=true})' 2>&1 >/dev/null | FileCheck %s

// CHECK: fusion @f: 2 kernels, 1 alias output
// CHECK-NEXT: kernel @f_k0  (segment_set materializes a computed tensor)
// CHECK-NEXT: ops: neg segment_set
// CHECK-NEXT: in:  tensor<8x4xf32> strides [1, 8]
// CHECK-NEXT: out: tensor<8x4xf32> strides [1, 8]
// CHECK-NEXT: vector width: not decided (run fuser-vectorize)
// CHECK-NEXT: kernel @f_k1  (fusion output)
// CHECK-NEXT: ops: exp
// CHECK-NEXT: in:  tensor<8x4xf32> strides [1, 8]
// CHECK-NEXT: out: tensor<8x4xf32> strides [1, 8]
// The permuted view is read in place; the intermediate is written and read
// with the same (input-ordered) layout.
func.func @f(%arg0: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %1 = "fuser.neg"(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = "fuser.segment_set"(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %3 = "fuser.exp"(%2) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0, %3 : tensor<8x4xf32>, tensor<8x4xf32>
}
