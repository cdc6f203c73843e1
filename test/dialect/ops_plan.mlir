// Round trip of the plan-level ops the passes make (view size stride
// check): static and dynamic offsets, sizes and strides of a view; a
// run-time check of a size.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @view
// CHECK: "fuser.view"(%arg0) {static_offset = 16 : i64, static_strides = array<i64: 589824, 32, 576, 1>} : (tensor<?x?x?xbf16>) -> tensor<2x16x1024x16xbf16>
// CHECK: %[[S:.*]] = "fuser.size"(%arg0) {dim = 2 : i64} : (tensor<?x?x?xbf16>) -> i64
// CHECK: %[[T:.*]] = "fuser.stride"(%arg0) {dim = 0 : i64} : (tensor<?x?x?xbf16>) -> i64
// CHECK: "fuser.view"(%arg0, %[[S]], %[[S]], %[[T]]) {static_offset = -9223372036854775808 : i64, static_strides = array<i64: -9223372036854775808, 1>} : (tensor<?x?x?xbf16>, i64, i64, i64) -> tensor<4x?xbf16>
func.func @view(%arg0: tensor<?x?x?xbf16>) {
  %0 = "fuser.view"(%arg0) {static_offset = 16 : i64, static_strides = array<i64: 589824, 32, 576, 1>} : (tensor<?x?x?xbf16>) -> tensor<2x16x1024x16xbf16>
  %s = "fuser.size"(%arg0) {dim = 2 : i64} : (tensor<?x?x?xbf16>) -> i64
  %t = "fuser.stride"(%arg0) {dim = 0 : i64} : (tensor<?x?x?xbf16>) -> i64
  %1 = "fuser.view"(%arg0, %s, %s, %t) {static_offset = -9223372036854775808 : i64, static_strides = array<i64: -9223372036854775808, 1>} : (tensor<?x?x?xbf16>, i64, i64, i64) -> tensor<4x?xbf16>
  return
}

// CHECK-LABEL: func.func @check
// CHECK: %[[N:.*]] = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64
// CHECK: %[[C:.*]] = "fuser.scalar"() {value = 4 : i64} : () -> i64
// CHECK: %[[GE:.*]] = "fuser.ge"(%[[N]], %[[C]]) : (i64, i64) -> i1
// CHECK: "fuser.check"(%[[GE]]) {message = "f.py:2:8: slice ends at 4 in dim 0"} : (i1) -> ()
func.func @check(%arg0: tensor<?xf32>) {
  %n = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64
  %c = "fuser.scalar"() {value = 4 : i64} : () -> i64
  %ge = "fuser.ge"(%n, %c) : (i64, i64) -> i1
  "fuser.check"(%ge) {message = "f.py:2:8: slice ends at 4 in dim 0"} : (i1) -> ()
  return
}
