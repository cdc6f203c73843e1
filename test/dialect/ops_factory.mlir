// Round trip of the constant scalar and the factories (scalar full iota):
// the result type states the dtype and shape; each `?` of full's result
// is one i64 operand after the fill value.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @scalar
// CHECK: "fuser.scalar"() {value = 2 : i64} : () -> i64
// CHECK: "fuser.scalar"() {value = 1.500000e+00 : f64} : () -> f64
// CHECK: "fuser.scalar"() {value = true} : () -> i1
func.func @scalar() {
  %0 = "fuser.scalar"() {value = 2 : i64} : () -> i64
  %1 = "fuser.scalar"() {value = 1.5 : f64} : () -> f64
  %2 = "fuser.scalar"() {value = true} : () -> i1
  return
}

// CHECK-LABEL: func.func @full
// CHECK: "fuser.full"(%arg0) : (f64) -> tensor<2x3xf32>
// CHECK: "fuser.full"(%arg0, %arg1, %arg1) : (f64, i64, i64) -> tensor<?x4x?xbf16>
func.func @full(%arg0: f64, %arg1: i64) {
  %0 = "fuser.full"(%arg0) : (f64) -> tensor<2x3xf32>
  %1 = "fuser.full"(%arg0, %arg1, %arg1) : (f64, i64, i64) -> tensor<?x4x?xbf16>
  return
}

// CHECK-LABEL: func.func @iota
// CHECK: "fuser.iota"(%arg0, %arg0, %arg0) : (i64, i64, i64) -> tensor<?xi64>
// CHECK: "fuser.iota"(%arg0, %arg1, %arg1) : (i64, f64, f64) -> tensor<8xf32>
func.func @iota(%arg0: i64, %arg1: f64) {
  %0 = "fuser.iota"(%arg0, %arg0, %arg0) : (i64, i64, i64) -> tensor<?xi64>
  %1 = "fuser.iota"(%arg0, %arg1, %arg1) : (i64, f64, f64) -> tensor<8xf32>
  return
}

// uniform(minval, maxval, rng_seed, rng_offset, shape...) and normal(mean,
// std, ...): Philox random numbers; each `?` is one i64 operand after the
// seed and offset.
// CHECK-LABEL: func.func @rng
// CHECK: "fuser.uniform"(%arg0, %arg1, %arg2, %arg3) : (f64, f64, i64, i64) -> tensor<4x8xf32>
// CHECK: "fuser.uniform"(%arg0, %arg1, %arg2, %arg3, %arg4) : (f64, f64, i64, i64, i64) -> tensor<?x8xbf16>
// CHECK: "fuser.normal"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg4) : (f64, f64, i64, i64, i64, i64) -> tensor<?x?xf64>
func.func @rng(%a: f64, %b: f64, %seed: i64, %offset: i64, %n: i64) {
  %0 = "fuser.uniform"(%a, %b, %seed, %offset) : (f64, f64, i64, i64) -> tensor<4x8xf32>
  %1 = "fuser.uniform"(%a, %b, %seed, %offset, %n) : (f64, f64, i64, i64, i64) -> tensor<?x8xbf16>
  %2 = "fuser.normal"(%a, %b, %seed, %offset, %n, %n) : (f64, f64, i64, i64, i64, i64) -> tensor<?x?xf64>
  return
}
