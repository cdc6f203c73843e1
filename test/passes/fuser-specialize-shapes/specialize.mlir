// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-specialize-shapes, fuser-remove-empty)' | FileCheck %s

// `?` extents take the example inputs' sizes; result types follow, and a
// cat with a now statically empty operand is dropped by fuser-remove-empty.
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%arg0: tensor<2x4xbf16>, %arg1: tensor<2x0xbf16>) -> tensor<2x4xf32>
// CHECK: "fuser.neg"(%arg0) : (tensor<2x4xbf16>) -> tensor<2x4xf32>
// CHECK-NOT: fuser.cat
func.func @f(%arg0: tensor<?x?xbf16>, %arg1: tensor<?x?xbf16>) -> tensor<?x?xf32>
    attributes {fuser.fusion, fuser.inputs = [
      {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 8>, sizes = array<i64: 2, 4>, strides = array<i64: 4, 1>},
      {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 0>, sizes = array<i64: 2, 0>, strides = array<i64: 0, 1>}]} {
  %0 = "fuser.neg"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1 = "fuser.cast"(%arg1) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %2 = "fuser.cat"(%0, %1) {dim = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// -----

// Without an inputs block nothing changes.
// CHECK-LABEL: func.func @no_inputs
// CHECK-SAME: tensor<?x4xf32>
func.func @no_inputs(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
