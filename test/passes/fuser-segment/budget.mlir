// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-segment{max-kernel-ops=4})' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-segment{max-kernel-ops=0})' | FileCheck %s --check-prefix=NONE
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-segment)' | FileCheck %s --check-prefix=NONE
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-segment{max-kernel-ops=5})' | FileCheck %s --check-prefix=FIVE

// The kernel op budget: a chain of 10 ops with max-kernel-ops=4 is cut every
// 4 ops (3 kernels: ops 1-4, 5-8, 9-10), each cut named in fuser.cuts.
// Without a budget (0), and under the default (1000), it is one kernel.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = call @chain_k0(%arg0, %arg1) {fuser.cuts = ["kernel op budget: more than 4 ops (max-kernel-ops)"]}
// CHECK: %[[B:.*]] = call @chain_k1(%arg1, %[[A]]) {fuser.cuts = ["kernel op budget: more than 4 ops (max-kernel-ops)"]}
// CHECK: %[[C:.*]] = call @chain_k2(%arg1, %[[B]]) {fuser.cuts = ["fusion output"]}
// CHECK: return %[[C]]
// CHECK-COUNT-4: "fuser.{{add|mul}}"
// CHECK-NOT: "fuser.
// CHECK: func.func private @chain_k1
// CHECK-COUNT-4: "fuser.{{add|mul}}"
// CHECK-NOT: "fuser.
// CHECK: func.func private @chain_k2
// CHECK-COUNT-2: "fuser.{{add|mul}}"
// CHECK-NOT: "fuser.
// NONE-LABEL: func.func @chain
// NONE: call @chain_k0(%arg0, %arg1) {fuser.cuts = ["fusion output"]}
// NONE-NOT: call
func.func @chain(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
  %0 = "fuser.add"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "fuser.mul"(%0, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "fuser.add"(%1, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = "fuser.mul"(%2, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "fuser.add"(%3, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %5 = "fuser.mul"(%4, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %6 = "fuser.add"(%5, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %7 = "fuser.mul"(%6, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %8 = "fuser.add"(%7, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %9 = "fuser.mul"(%8, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %9 : tensor<8xf32>
}

// -----

// A value used twice counts once: neg and four squarings are 5 distinct ops
// (summing the operands' counts, 1 + 2 + 4 + ..., would give 31), so a
// budget of 5 keeps them in one kernel; under 4 the last op's operand is cut.
// CHECK-LABEL: func.func @squares
// CHECK: %[[A:.*]] = call @squares_k0(%arg0) {fuser.cuts = ["kernel op budget: more than 4 ops (max-kernel-ops)"]}
// CHECK: call @squares_k1(%[[A]]) {fuser.cuts = ["fusion output"]}
// CHECK: func.func private @squares_k0
// CHECK-COUNT-4: "fuser.
// CHECK-NOT: "fuser.
// CHECK: func.func private @squares_k1
// CHECK-NEXT: "fuser.mul"
// CHECK-NOT: "fuser.
// FIVE-LABEL: func.func @squares
// FIVE: call @squares_k0(%arg0) {fuser.cuts = ["fusion output"]}
// FIVE-NOT: call
// NONE-LABEL: func.func @squares
// NONE: call @squares_k0(%arg0) {fuser.cuts = ["fusion output"]}
// NONE-NOT: call
func.func @squares(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "fuser.mul"(%1, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = "fuser.mul"(%2, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "fuser.mul"(%3, %3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// Independent roots of one shape share a kernel only within the budget:
// two outputs of 3 ops each under a budget of 4 are two kernels.
// CHECK-LABEL: func.func @two_outputs
// CHECK: call @two_outputs_k0(%arg0) {fuser.cuts = ["fusion output"]}
// CHECK: call @two_outputs_k1(%arg0) {fuser.cuts = ["fusion output"]}
// FIVE-LABEL: func.func @two_outputs
// FIVE: call @two_outputs_k0(%arg0) {fuser.cuts = ["fusion output"]}
// FIVE: call @two_outputs_k1(%arg0) {fuser.cuts = ["fusion output"]}
// NONE-LABEL: func.func @two_outputs
// NONE: call @two_outputs_k0(%arg0) {fuser.cuts = ["fusion output", "fusion output"]}
// NONE-NOT: call
func.func @two_outputs(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {fuser.fusion} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "fuser.exp"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "fuser.abs"(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "fuser.sin"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = "fuser.cos"(%3) : (tensor<8xf32>) -> tensor<8xf32>
  %5 = "fuser.tanh"(%4) : (tensor<8xf32>) -> tensor<8xf32>
  return %2, %5 : tensor<8xf32>, tensor<8xf32>
}
