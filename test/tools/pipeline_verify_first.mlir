// fuser-opt runs the C verifier on every input before the pipeline: a bad
// op is reported even with a pipeline of upstream passes only, and the
// pipeline does not run.
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' --mlir-print-ir-after-all 2>&1 | FileCheck %s -DFILE=%s
// CHECK-NOT: IR Dump
// CHECK: [[FILE]]:[[@LINE+3]]:8: error: 'fuser.neg' op result #0 has type tensor<3xf32>
// CHECK-NOT: IR Dump
func.func @f(%a: tensor<2xf32>) {
  %0 = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<3xf32>
  return
}
