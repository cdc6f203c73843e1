// RUN: fuser-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-vectorize)'
// RUN: fuser-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-schedule)'
// RUN: fuser-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-lower-kernels)'
// RUN: fuser-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-kernels-to-gpu)'
// RUN: fuser-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-fuse-inner-outer)'
// RUN: fuser-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-report)'
// RUN: awk '/^\/\/ -----/ { exit } { print }' %s > %t.mlir
// RUN: not fuser-translate %t.mlir --emit-artifact -o %t.fart 2>&1 | FileCheck %s
// A kernel function without a body (a declaration) has nothing to compile:
// fuser-verify refuses a plan's call of it (dialects/verify_plan.c), and the
// kernel passes refuse the function itself (fuser_check_kernel_bodies) when
// they run on IR that was not verified. Each of
// fuser-vectorize, fuser-schedule, fuser-fuse-inner-outer, fuser-report and
// fuser-translate crashed on it (they read the missing block).
// CHECK: error: 'func.call' op calls @k, a kernel without a body (a declaration)

// A plan's call of one: fuser-opt verifies what it parses (fuser-verify's rules), so the call is refused first.
func.func private @k(tensor<4xf32>) -> tensor<4xf32> attributes {fuser.kernel, fuser.matmul}
func.func @p(%a: tensor<4xf32>) -> tensor<4xf32> attributes {fuser.fusion, fuser.plan} {
  // expected-error@+1 {{'func.call' op calls @k, a kernel without a body (a declaration)}}
  %0 = func.call @k(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{a fuser.kernel function has no body (a declaration): there is nothing to compile}}
func.func private @k(tensor<4xf32>) -> tensor<4xf32> attributes {fuser.kernel}
