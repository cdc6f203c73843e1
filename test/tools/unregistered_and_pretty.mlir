// Ops of unknown dialects are refused unless --allow-unregistered-dialect;
// fuser ops in custom ("pretty") form get an error that shows the generic
// form (the parser itself says nothing about them).
// RUN: not fuser-opt %S/Inputs/unregistered.mlir 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: fuser-opt %S/Inputs/unregistered.mlir --allow-unregistered-dialect | FileCheck %s --check-prefix=ALLOWED
// RUN: fuser-opt %s -verify-diagnostics
// RUN: not fuser-translate --emit-ptx %S/Inputs/pretty_form.mlir 2>&1 | FileCheck %s --check-prefix=TRANSLATE -DFILE=%S/Inputs/pretty_form.mlir
// RUN: not fuser-translate --export-nvfuser %S/Inputs/pretty_form.mlir 2>&1 | FileCheck %s --check-prefix=TRANSLATE -DFILE=%S/Inputs/pretty_form.mlir
// TRANSLATE: [[FILE]]:2:8: error: fuser ops print and parse in generic form: "fuser.add"(...) : (operand types) -> result types

// REFUSED: error: operation being parsed with an unregistered dialect
// ALLOWED: "mydialect.op"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>

func.func @pretty(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{fuser ops print and parse in generic form: "fuser.add"(...)}}
  %p = fuser.add %a, %a : tensor<4x8xf32>
  return
}
