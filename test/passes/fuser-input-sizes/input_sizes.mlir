// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-input-sizes)' | FileCheck %s

// rand_like of a cast input: the uniform's `?` dims are sizes of the cast,
// which the host plan cannot compute; they become the input's sizes.
// CHECK-LABEL: func.func @rand_like_of_cast
// CHECK-DAG: %[[R:.*]] = "fuser.size"(%arg0) {dim = 0 : i64}
// CHECK-DAG: %[[C:.*]] = "fuser.size"(%arg0) {dim = 1 : i64}
// CHECK: "fuser.uniform"(%{{.*}}, %{{.*}}, %arg1, %arg2, %[[R]], %[[C]])
func.func @rand_like_of_cast(%arg0: tensor<?x?xbf16>, %arg1: i64, %arg2: i64) -> tensor<?x?xf32> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1 = "fuser.size"(%0) {dim = 0 : i64} : (tensor<?x?xf32>) -> i64
  %2 = "fuser.size"(%0) {dim = 1 : i64} : (tensor<?x?xf32>) -> i64
  %lo = "fuser.scalar"() {value = 0.0 : f64} : () -> f64
  %hi = "fuser.scalar"() {value = 1.0 : f64} : () -> f64
  %3 = "fuser.uniform"(%lo, %hi, %arg1, %arg2, %1, %2) : (f64, f64, i64, i64, i64, i64) -> tensor<?x?xf32>
  %4 = "fuser.mul"(%0, %3) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// -----

// Through a permute the dim follows its input's (dim 0 of the add is the
// permute's dim 0, input dim 1); a dim the fusion pins to a static extent
// (the permute's dim 1, added to a dim of 8) is that constant.
// CHECK-LABEL: func.func @permuted_and_static
// CHECK: %[[A:.*]] = "fuser.size"(%arg0) {dim = 1 : i64}
// CHECK: %[[B:.*]] = "fuser.scalar"() {value = 8 : i64}
// CHECK: "fuser.full"(%{{.*}}, %[[A]], %[[B]])
func.func @permuted_and_static(%arg0: tensor<?x?xf32>, %arg1: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "fuser.add"(%0, %arg1) : (tensor<?x?xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %2 = "fuser.size"(%1) {dim = 0 : i64} : (tensor<?x8xf32>) -> i64
  %3 = "fuser.size"(%0) {dim = 1 : i64} : (tensor<?x?xf32>) -> i64
  %v = "fuser.scalar"() {value = 2.0 : f64} : () -> f64
  %4 = "fuser.full"(%v, %2, %3) : (f64, i64, i64) -> tensor<?x?xf32>
  %5 = "fuser.mul"(%1, %4) : (tensor<?x8xf32>, tensor<?x?xf32>) -> tensor<?x8xf32>
  return %5 : tensor<?x8xf32>
}
