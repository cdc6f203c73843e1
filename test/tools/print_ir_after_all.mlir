// --mlir-print-ir-after-all / --mlir-print-ir-before-all print the IR
// around every pass, fuser and upstream alike, in pipeline order; with
// --mlir-print-ir-module-scope the whole module (regression: this used to
// abort, "IR printing can't be setup on a pass-manager without disabling
// multi-threading first"), else, as mlir-opt, the op the pass ran on.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-verify, func.func(cse), canonicalize)' --mlir-print-ir-after-all --mlir-print-ir-module-scope 2>&1 | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-verify, func.func(cse))' --mlir-print-ir-before-all --mlir-print-ir-module-scope 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-verify, func.func(cse))' --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=OPSCOPE

// OPSCOPE: // -----// IR Dump After CSE (cse) //----- //
// OPSCOPE-NEXT: func.func @f

// CHECK: // -----// IR Dump After fuser-verify (fuser-verify) ('builtin.module' operation) //----- //
// CHECK-NEXT: module {
// CHECK: %c1_i32_0 = arith.constant 1 : i32
// CHECK: // -----// IR Dump After CSE (cse) ('func.func' operation: @f) //----- //
// CHECK-NEXT: module {
// CHECK-NOT: %c1_i32_0
// CHECK: // -----// IR Dump After Canonicalizer (canonicalize) ('builtin.module' operation) //----- //
// CHECK-NEXT: module {
// CHECK: func.func @f
// The final output follows the dumps.
// CHECK: module {
// CHECK-NEXT: func.func @f

// BEFORE: // -----// IR Dump Before fuser-verify (fuser-verify) ('builtin.module' operation) //----- //
// BEFORE: // -----// IR Dump Before CSE (cse) ('func.func' operation: @f) //----- //
// BEFORE-NOT: IR Dump After

func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, i32, i32) {
  %c = arith.constant 1 : i32
  %d = arith.constant 1 : i32
  %0 = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %c, %d : tensor<2xf32>, i32, i32
}
