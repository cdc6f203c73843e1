// RUN: fuser-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuser-vectorize)'
// RUN: fuser-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuser-schedule)'
// RUN: fuser-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuser-lower-kernels)'
// RUN: fuser-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuser-kernels-to-gpu)'
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize)' 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuser-kernels-to-gpu)' 2>&1 | FileCheck %s --check-prefix=GPU
// The kernel passes on a module that was not segmented say so at the
// fusion, instead of silently doing nothing.
// VEC: unsegmented.mlir:[[@LINE+3]]:1: error: fuser-vectorize: this fusion is not segmented into kernels yet (run fuser-segment first)
// GPU: unsegmented.mlir:[[@LINE+2]]:1: error: fuser-kernels-to-gpu: this fusion is not segmented into kernels yet (run fuser-segment first)
// expected-error@+1 {{this fusion is not segmented into kernels yet (run fuser-segment first)}}
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
