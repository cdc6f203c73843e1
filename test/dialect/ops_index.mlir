// Round trip of the data-dependent reads (index_select, gather,
// take_along_axis): the result dims by fuser_index_dims_of (index_select:
// dim from the 1-D index; gather: the index's shape; take_along_axis: dim
// and arg's broadcast dims from the index), arg's dtype, i64 or i32 indices.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @index_ops
// CHECK: "fuser.index_select"(%arg0, %arg1) {dim = 0 : i64} : (tensor<50x96xbf16>, tensor<?xi64>) -> tensor<?x96xbf16>
// CHECK: "fuser.index_select"(%arg0, %arg4) {dim = 1 : i64} : (tensor<50x96xbf16>, tensor<7xi32>) -> tensor<50x7xbf16>
// CHECK: "fuser.gather"(%arg2, %arg3) {dim = 1 : i64} : (tensor<16x40xf32>, tensor<16x24xi32>) -> tensor<16x24xf32>
// CHECK: "fuser.take_along_axis"(%arg2, %arg5) {dim = 1 : i64} : (tensor<16x40xf32>, tensor<?x1xi64>) -> tensor<16x1xf32>
// CHECK: "fuser.take_along_axis"(%arg6, %arg3) {dim = 1 : i64} : (tensor<1x40xf32>, tensor<16x24xi32>) -> tensor<16x24xf32>
func.func @index_ops(%arg0: tensor<50x96xbf16>, %arg1: tensor<?xi64>, %arg2: tensor<16x40xf32>, %arg3: tensor<16x24xi32>,
                     %arg4: tensor<7xi32>, %arg5: tensor<?x1xi64>, %arg6: tensor<1x40xf32>) {
  %0 = "fuser.index_select"(%arg0, %arg1) {dim = 0 : i64} : (tensor<50x96xbf16>, tensor<?xi64>) -> tensor<?x96xbf16>
  %1 = "fuser.index_select"(%arg0, %arg4) {dim = 1 : i64} : (tensor<50x96xbf16>, tensor<7xi32>) -> tensor<50x7xbf16>
  %2 = "fuser.gather"(%arg2, %arg3) {dim = 1 : i64} : (tensor<16x40xf32>, tensor<16x24xi32>) -> tensor<16x24xf32>
  %3 = "fuser.take_along_axis"(%arg2, %arg5) {dim = 1 : i64} : (tensor<16x40xf32>, tensor<?x1xi64>) -> tensor<16x1xf32>
  %4 = "fuser.take_along_axis"(%arg6, %arg3) {dim = 1 : i64} : (tensor<1x40xf32>, tensor<16x24xi32>) -> tensor<16x24xf32>
  return
}

// triu and tril keep the input's type; diagonal is any integer.
// CHECK-LABEL: func.func @triu
// CHECK: "fuser.triu"(%arg0) {diagonal = -1 : i64} : (tensor<3x?x5xbf16>) -> tensor<3x?x5xbf16>
func.func @triu(%arg0: tensor<3x?x5xbf16>) {
  %0 = "fuser.triu"(%arg0) {diagonal = -1 : i64} : (tensor<3x?x5xbf16>) -> tensor<3x?x5xbf16>
  return
}

// CHECK-LABEL: func.func @tril
// CHECK: "fuser.tril"(%arg0) {diagonal = 2 : i64} : (tensor<?x4xi32>) -> tensor<?x4xi32>
func.func @tril(%arg0: tensor<?x4xi32>) {
  %0 = "fuser.tril"(%arg0) {diagonal = 2 : i64} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  return
}
