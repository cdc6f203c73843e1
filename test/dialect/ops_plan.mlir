// Round trip of the plan-level ops the passes make (view size stride
// check ceildiv address bits index_flag launch): static and dynamic offsets, sizes and
// strides of a view; a run-time check of a size; a grid's ceildiv; two
// launches of one kernel (a vector variant under an alignment condition on
// an input's address, the scalar fallback without conditions).
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

// CHECK-LABEL: func.func @launch
// CHECK: %[[G:.*]] = "fuser.ceildiv"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: %[[A:.*]] = "fuser.address"(%arg0) : (tensor<?xf32>) -> i64
// CHECK: %[[R:.*]] = "fuser.address"(%[[OUT:.*]]) : (tensor<?xf32>) -> i64
// CHECK: "fuser.launch"(%[[G]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[AL:.*]], %[[A]], %[[R]], %[[N:.*]]) {entry = @fuser_kernels_i32::@f_k0__vector, kernel = @f_k0, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 3>, variant = "vector"} : (i64, i64, i64, i64, i64, i64, i64, i1, i64, i64, i64) -> ()
// CHECK: "fuser.launch"(%{{.*}}, %[[A]], %[[R]], %[[N]]) {entry = @fuser_kernels_i32::@f_k0__scalar, kernel = @f_k0, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 3>, variant = "scalar"} : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
module {
  func.func @launch(%arg0: tensor<?xf32>) -> tensor<?xf32> attributes {fuser.fusion, fuser.plan} {
    %n = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?xf32>) -> i64
    %b = "fuser.scalar"() {value = 128 : i64} : () -> i64
    %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
    %zero = "fuser.scalar"() {value = 0 : i64} : () -> i64
    %sixteen = "fuser.scalar"() {value = 16 : i64} : () -> i64
    %g = "fuser.ceildiv"(%n, %b) : (i64, i64) -> i64
    %out = call @f_k0(%arg0) : (tensor<?xf32>) -> tensor<?xf32>
    %a = "fuser.address"(%arg0) : (tensor<?xf32>) -> i64
    %r = "fuser.address"(%out) : (tensor<?xf32>) -> i64
    %m = "fuser.fmod"(%a, %sixteen) : (i64, i64) -> i64
    %al = "fuser.eq"(%m, %zero) : (i64, i64) -> i1
    "fuser.launch"(%g, %one, %one, %b, %one, %one, %zero, %al, %a, %r, %n) {entry = @fuser_kernels_i32::@f_k0__vector, kernel = @f_k0, variant = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 3>} : (i64, i64, i64, i64, i64, i64, i64, i1, i64, i64, i64) -> ()
    "fuser.launch"(%g, %one, %one, %b, %one, %one, %zero, %a, %r, %n) {entry = @fuser_kernels_i32::@f_k0__scalar, kernel = @f_k0, variant = "scalar", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 3>} : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : tensor<?xf32>
  }
  func.func private @f_k0(%arg0: tensor<?xf32>) -> tensor<?xf32> attributes {fuser.kernel} {
    %0 = "fuser.neg"(%arg0) : (tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  gpu.module @fuser_kernels_i32 {
    gpu.func @f_k0__vector(%p0: memref<1xf32>, %p1: memref<1xf32>, %n: i64) kernel {
      gpu.return
    }
    gpu.func @f_k0__scalar(%p0: memref<1xf32>, %p1: memref<1xf32>, %n: i64) kernel {
      gpu.return
    }
  }
}

// The other parameter words: a scalar at its own width, the index flag.
// CHECK-LABEL: func.func @words
// CHECK: "fuser.bits"(%arg0) : (f32) -> i64
// CHECK: "fuser.bits"(%arg1) : (i32) -> i64
// CHECK: "fuser.index_flag"() : () -> i64
func.func @words(%x: f32, %i: i32) {
  %0 = "fuser.bits"(%x) : (f32) -> i64
  %1 = "fuser.bits"(%i) : (i32) -> i64
  %2 = "fuser.index_flag"() : () -> i64
  return
}
