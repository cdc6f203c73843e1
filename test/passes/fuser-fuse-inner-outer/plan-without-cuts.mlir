// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-fuse-inner-outer{partial-rows=8})' | FileCheck %s
// A hand-written plan whose calls carry no fuser.cuts (fuser-segment always
// writes them): fused all the same, the missing reasons left empty.
// CHECK: %[[K:.*]]:2 = call @f_k0(%arg0) {fuser.cuts = ["", "inner-outer partials: column sums over 8 row groups of 32 rows (combined by the next kernel)"]}
// CHECK: call @f_k1(%[[K]]#1) {fuser.cuts = []} : (tensor<8x1024xf32>) -> tensor<1024xf32>
module {
  func.func @f(%arg0: tensor<256x1024xf32>) -> (tensor<256x1024xf32>, tensor<1024xf32>) attributes {fuser.fusion, fuser.plan} {
    %0 = call @f_k0(%arg0) : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %1 = call @f_k1(%arg0) : (tensor<256x1024xf32>) -> tensor<1024xf32>
    return %0, %1 : tensor<256x1024xf32>, tensor<1024xf32>
  }
  func.func private @f_k0(%arg0: tensor<256x1024xf32> {fuser.strides = array<i64: 1024, 1>}) -> (tensor<256x1024xf32> {fuser.strides = array<i64: 1024, 1>}) attributes {fuser.kernel} {
    %0 = "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
    %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1024xf32>
    %2 = "fuser.sub"(%arg0, %1) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
    return %2 : tensor<256x1024xf32>
  }
  func.func private @f_k1(%arg0: tensor<256x1024xf32> {fuser.strides = array<i64: 1024, 1>}) -> (tensor<1024xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
    %0 = "fuser.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
