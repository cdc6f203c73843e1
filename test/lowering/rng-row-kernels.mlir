// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-segment, fuser-vectorize, fuser-schedule, fuser-lower-kernels)' | FileCheck %s
// fuser.uniform inside a row kernel (row_gen_values.c): dropout then a
// LayerNorm's var_mean stay one persistent kernel; each lane of the row's
// vectors gets Philox's value at its row-major index row * row_len + col +
// lane (lowering/philox_gen.c, the pointwise kernels' emission): the
// multipliers of the ten rounds, counter lin / 4, word lin % 4; the lanes
// go into the vector with vector.from_elements. No pointwise kernel of its
// own and no scalar-variant fallback error.
// CHECK-LABEL: func.func @drop_ln_k0__persistent(
// CHECK-DAG: arith.constant 3528531795 : i64
// CHECK-DAG: arith.constant 3449720151 : i64
// CHECK: arith.divui %{{.*}}, %c4_i64 : i64
// CHECK: arith.uitofp %{{.*}} : i32 to f32
// CHECK: vector.from_elements
// CHECK-NOT: func.func @drop_ln_k1
func.func @drop_ln(%x: tensor<64x1024xf32>, %seed: i64, %off: i64) -> tensor<64x1024xf32> attributes {fuser.fusion} {
  %lo = "fuser.scalar"() {value = 0.0 : f64} : () -> f64
  %hi = "fuser.scalar"() {value = 1.0 : f64} : () -> f64
  %p = "fuser.scalar"() {value = 0.9 : f64} : () -> f64
  %z = "fuser.scalar"() {value = 0.0 : f64} : () -> f64
  %u = "fuser.uniform"(%lo, %hi, %seed, %off) : (f64, f64, i64, i64) -> tensor<64x1024xf32>
  %keep = "fuser.lt"(%u, %p) : (tensor<64x1024xf32>, f64) -> tensor<64x1024xi1>
  %d = "fuser.where"(%keep, %x, %z) : (tensor<64x1024xi1>, tensor<64x1024xf32>, f64) -> tensor<64x1024xf32>
  %v:2 = "fuser.var_mean"(%d) {correction = 0 : i64, dims = array<i64: 1>, keepdim = true} : (tensor<64x1024xf32>) -> (tensor<64x1xf32>, tensor<64x1xf32>)
  %c = "fuser.sub"(%d, %v#1) : (tensor<64x1024xf32>, tensor<64x1xf32>) -> tensor<64x1024xf32>
  %r = "fuser.mul"(%c, %v#0) : (tensor<64x1024xf32>, tensor<64x1xf32>) -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}
