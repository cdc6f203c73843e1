// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-specialize-shapes{empty-only=true}, fuser-remove-empty)' | FileCheck %s

// empty-only: only the extents that are 0 in the example inputs are pinned
// (nvFuser concretizes empty extents); every other `?` stays symbolic. The
// cat operand that becomes statically empty is dropped by fuser-remove-empty.
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%arg0: tensor<?x?xbf16>, %arg1: tensor<?x0xbf16>) -> tensor<?x?xf32>
// CHECK: "fuser.neg"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
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
