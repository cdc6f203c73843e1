// RUN: fuser-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuser-schedule)'
// The schedule follows the vectorizer's decisions: without them, a located error.

// expected-error@+1 {{fuser-schedule: kernel has no fuser.vector_width: run fuser-vectorize first}}
func.func private @k(%a: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
