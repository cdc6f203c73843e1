// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule{unroll=-1})' 2>&1 | FileCheck %s
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule{scalar-unroll=0})' 2>&1 | FileCheck %s
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule{block-size=2048})' 2>&1 | FileCheck %s --check-prefix=BLOCK
// Bad options are refused with a located error before any kernel is scheduled.
// CHECK: error: fuser-schedule: unroll must be >= 0 (0: chosen per kernel) and scalar-unroll >= 1
// BLOCK: error: fuser-schedule: block-size must be in [1, 1024]
func.func private @k0(%a: tensor<8xf32> {fuser.strides = array<i64: 1>})
    -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
