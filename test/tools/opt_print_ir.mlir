// IR printing options, as mlir-opt's:
// --mlir-print-ir-after-change (with after-all) skips passes that changed
// nothing: the second cse finds nothing to do.
// RUN: fuser-opt %s -p 'builtin.module(func.func(cse), func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// --mlir-print-ir-after-failure prints the IR after the pass that failed only.
// RUN: not fuser-opt %S/Inputs/specialize_mismatch.mlir -p 'builtin.module(cse, fuser-specialize-shapes)' --mlir-print-ir-after-failure -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAILURE
// --mlir-print-ir-tree-dir writes the dumps to files, one per pass and op.
// RUN: rm -rf %t.tree
// RUN: fuser-opt %s -p 'builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t.tree -o /dev/null 2>&1 | count 0
// RUN: cat %t.tree/builtin_module_no-symbol-name/func_func_f/0_0_cse.mlir | FileCheck %s --check-prefix=TREE

// CHANGE: IR Dump After CSE (cse)
// CHANGE-NOT: IR Dump After

// FAILURE-NOT: IR Dump After CSE
// FAILURE: error: fuser.inputs gives argument #0 extent 4 in dim 0, but its type says 8
// FAILURE: // -----// IR Dump After fuser-specialize-shapes Failed (fuser-specialize-shapes) //----- //
// FAILURE-NEXT: module {

// TREE: // -----// IR Dump After CSE (cse) //----- //
// TREE-NEXT: func.func @f

func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, i32, i32) {
  %c = arith.constant 1 : i32
  %d = arith.constant 1 : i32
  %0 = "fuser.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %c, %d : tensor<2xf32>, i32, i32
}
