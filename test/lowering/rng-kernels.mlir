// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-segment, fuser-vectorize, fuser-schedule, fuser-lower-kernels)' | FileCheck %s
// fuser.uniform in a kernel (lowering/kernel_gen_rng.c): the scalar variant
// only (the value depends on the element's index); Philox's counter from the
// row-major linear index (subsequence lin / 4, word lin % 4), ten rounds of
// 32 x 32 -> 64-bit multiplies by 0xD2511F53 and 0xCD9E8D57, the word chosen
// by selects, then nvFuser's uniformf (x * 2^-32 + 2^-33, 1.0 -> 0).
// CHECK-LABEL: func.func @rng_k0__scalar(
// CHECK-NOT: func.func @rng_k0__vector
// CHECK-DAG: arith.constant 3528531795 : i64
// CHECK-DAG: arith.constant 3449720151 : i64
// CHECK: %[[COMP:.*]] = arith.remui %[[LIN:.*]], %c4_i64 : i64
// CHECK: arith.divui %[[LIN]], %c4_i64 : i64
// CHECK-COUNT-20: arith.muli %c{{3528531795|3449720151}}_i64
// CHECK: arith.select
// CHECK: arith.uitofp %{{.*}} : i32 to f32
// CHECK: arith.cmpf oeq
// CHECK: memref.store
func.func @rng(%seed: i64, %off: i64) -> tensor<8xf32> attributes {fuser.fusion} {
  %lo = "fuser.scalar"() {value = 0.0 : f64} : () -> f64
  %hi = "fuser.scalar"() {value = 1.0 : f64} : () -> f64
  %0 = "fuser.uniform"(%lo, %hi, %seed, %off) : (f64, f64, i64, i64) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
