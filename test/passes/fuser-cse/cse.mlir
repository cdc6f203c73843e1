// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-cse)' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --fuser-cse | FileCheck %s
// Upstream cse and canonicalize leave fuser ops alone (IRDL ops have no
// memory-effect information): the duplicate and the dead op stay.
// RUN: fuser-opt %s --split-input-file --cse --canonicalize | FileCheck %s --check-prefix=UPSTREAM

// Duplicates merge (same name, operands, attributes, result types), dead
// fuser ops go.
// CHECK-LABEL: func.func @duplicate_and_dead
// CHECK-NEXT: %[[E:.*]] = "fuser.exp"(%arg0)
// CHECK-NEXT: %[[S:.*]] = "fuser.add"(%[[E]], %[[E]])
// CHECK-NEXT: return %[[S]]
// UPSTREAM-LABEL: func.func @duplicate_and_dead
// UPSTREAM-COUNT-2: "fuser.exp"
// UPSTREAM: "fuser.neg"
func.func @duplicate_and_dead(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "fuser.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "fuser.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "fuser.add"(%0, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// Chains merge from the bottom up: once the two exps are one, the two
// sums over them are one too.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: "fuser.exp"
// CHECK-COUNT-1: "fuser.sum"
// CHECK-NOT: "fuser.sum"
// CHECK: return %[[R:.*]], %[[R]]
func.func @chain(%a: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = "fuser.exp"(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = "fuser.exp"(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false, dtype = f32} : (tensor<8x4xf32>) -> tensor<8xf32>
  %3 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false, dtype = f32} : (tensor<8x4xf32>) -> tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Different attributes, operand order or operands: not the same value.
// CHECK-LABEL: func.func @different
// CHECK: "fuser.permute"(%arg0) {dims = array<i64: 1, 0>}
// CHECK: "fuser.sub"(%arg1, %arg2)
// CHECK: "fuser.sub"(%arg2, %arg1)
// CHECK: "fuser.sum"(%arg0) {dims = array<i64: 0>
// CHECK: "fuser.sum"(%arg0) {dims = array<i64: 1>
func.func @different(%a: tensor<4x4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>)
    -> (tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "fuser.permute"(%a) {dims = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "fuser.sub"(%b, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "fuser.sub"(%c, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "fuser.sum"(%a) {dims = array<i64: 0>, keepdim = false, dtype = f32} : (tensor<4x4xf32>) -> tensor<4xf32>
  %4 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false, dtype = f32} : (tensor<4x4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// set and segment_set ask for their own copy or boundary: never merged
// (a dead one still goes).
// CHECK-LABEL: func.func @copies
// CHECK-COUNT-2: "fuser.set"
// CHECK-COUNT-2: "fuser.segment_set"
// CHECK-NOT: "fuser.set"
func.func @copies(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = "fuser.set"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "fuser.set"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "fuser.segment_set"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "fuser.segment_set"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = "fuser.set"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Scalars with the same value merge; upstream ops are left to upstream cse.
// CHECK-LABEL: func.func @scalars
// CHECK-COUNT-1: "fuser.scalar"
// CHECK-NOT: "fuser.scalar"
// CHECK-COUNT-2: arith.addi
func.func @scalars(%a: tensor<8xf32>, %i: i32) -> (tensor<8xf32>, i32, i32) {
  %s0 = "fuser.scalar"() {value = 2.0 : f64} : () -> f64
  %s1 = "fuser.scalar"() {value = 2.0 : f64} : () -> f64
  %0 = "fuser.mul"(%a, %s0) : (tensor<8xf32>, f64) -> tensor<8xf32>
  %1 = "fuser.mul"(%0, %s1) : (tensor<8xf32>, f64) -> tensor<8xf32>
  %x = arith.addi %i, %i : i32
  %y = arith.addi %i, %i : i32
  return %1, %x, %y : tensor<8xf32>, i32, i32
}
