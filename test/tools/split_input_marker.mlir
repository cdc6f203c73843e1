// --split-input-file=<marker> splits at lines holding that marker, and
// --output-split-marker sets what is printed between the outputs.
// RUN: fuser-opt %s --split-input-file='// =====' --output-split-marker='// ~~~~~' | FileCheck %s
// The default marker does not split this file: two functions, one module.
// RUN: fuser-opt %s --split-input-file | FileCheck %s --check-prefix=WHOLE

// CHECK: func.func @first
// CHECK-NEXT: return
// CHECK: // ~~~~~
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @second

// WHOLE: module {
// WHOLE-NEXT: func.func @first
// WHOLE: func.func @second
// WHOLE-NOT: module

func.func @first() {
  return
}

// =====

func.func @second() {
  return
}
