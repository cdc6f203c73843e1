// RUN: fuser-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuser-kernels-to-gpu)'
// Kernel functions without their loop-level functions: fuser-lower-kernels
// has not run, and fuser-kernels-to-gpu says so at the first kernel.

// expected-error@+1 {{fuser-kernels-to-gpu: kernel functions but no loop-level functions (run fuser-lower-kernels first)}}
func.func private @k(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
