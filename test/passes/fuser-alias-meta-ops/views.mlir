// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-alias-meta-ops)' | FileCheck %s

// A fusion whose only output is reshape -> permute -> slice of its input has
// no compute left: the output is a view, marked as an alias of argument 0.
// CHECK-LABEL: func.func @pure_view
// CHECK-SAME: -> (tensor<2x2x2xf32> {fuser.alias_of = 0 : i64})
// CHECK-NEXT: %[[V:.*]] = "fuser.view"(%arg0) {static_offset = 1 : i64, static_strides = array<i64: 1, 6, 3>} : (tensor<4x3xf32>) -> tensor<2x2x2xf32>
// CHECK-NEXT: return %[[V]]
func.func @pure_view(%arg0: tensor<4x3xf32>) -> tensor<2x2x2xf32> attributes {fuser.fusion} {
  %0 = "fuser.reshape"(%arg0) : (tensor<4x3xf32>) -> tensor<2x2x3xf32>
  %1 = "fuser.permute"(%0) {dims = array<i64: 2, 0, 1>} : (tensor<2x2x3xf32>) -> tensor<3x2x2xf32>
  %2 = "fuser.slice"(%1) {start_indices = array<i64: 1, 0, 0>, end_indices = array<i64: 3, 2, 2>, strides = array<i64: 1, 1, 1>} : (tensor<3x2x2xf32>) -> tensor<2x2x2xf32>
  return %2 : tensor<2x2x2xf32>
}

// -----

// An output that is the input itself is an alias too.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: {fuser.alias_of = 0 : i64}
func.func @identity(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {fuser.fusion} {
  %0 = "fuser.set"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Reshape that splits a dim.
// CHECK-LABEL: func.func @reshape_split
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 24, 8, 1>} : (tensor<6x8xf32>) -> tensor<2x3x8xf32>
func.func @reshape_split(%arg0: tensor<6x8xf32>) -> tensor<2x3x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.reshape"(%arg0) : (tensor<6x8xf32>) -> tensor<2x3x8xf32>
  %1 = "fuser.neg"(%0) : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  return %1 : tensor<2x3x8xf32>
}

// -----

// Reshape that merges dims of a sliced (not dense) input, where the merged
// dims are contiguous with each other (PyTorch's view rule, general path).
// CHECK-LABEL: func.func @reshape_merge
// CHECK-DAG: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 64, 1>} : (tensor<4x2x4x8xf32>) -> tensor<2x32xf32>
// CHECK-DAG: "fuser.view"(%arg0) {static_offset = 8 : i64, static_strides = array<i64: 64, 1>} : (tensor<4x2x4x8xf32>) -> tensor<2x24xf32>
func.func @reshape_merge(%arg0: tensor<4x2x4x8xf32>) -> (tensor<2x32xf32>, tensor<2x24xf32>) attributes {fuser.fusion} {
  %0 = "fuser.slice"(%arg0) {start_indices = array<i64: 0, 0, 0, 0>, end_indices = array<i64: 2, 1, 4, 8>, strides = array<i64: 1, 1, 1, 1>} : (tensor<4x2x4x8xf32>) -> tensor<2x1x4x8xf32>
  %1 = "fuser.reshape"(%0) : (tensor<2x1x4x8xf32>) -> tensor<2x32xf32>
  %2 = "fuser.neg"(%1) : (tensor<2x32xf32>) -> tensor<2x32xf32>
  %3 = "fuser.slice"(%arg0) {start_indices = array<i64: 0, 0, 1, 0>, end_indices = array<i64: 2, 1, 4, 8>, strides = array<i64: 1, 1, 1, 1>} : (tensor<4x2x4x8xf32>) -> tensor<2x1x3x8xf32>
  %4 = "fuser.reshape"(%3) : (tensor<2x1x3x8xf32>) -> tensor<2x24xf32>
  %5 = "fuser.neg"(%4) : (tensor<2x24xf32>) -> tensor<2x24xf32>
  return %2, %5 : tensor<2x32xf32>, tensor<2x24xf32>
}

// -----

// Reshape that splits a dim of a column-major input.
// CHECK-LABEL: func.func @reshape_split_column_major
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 2, 1, 4>} : (tensor<4x3xf32>) -> tensor<2x2x3xf32>
func.func @reshape_split_column_major(%arg0: tensor<4x3xf32> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 0, 1>}) -> tensor<2x2x3xf32> attributes {fuser.fusion} {
  %0 = "fuser.reshape"(%arg0) : (tensor<4x3xf32>) -> tensor<2x2x3xf32>
  %1 = "fuser.neg"(%0) : (tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  return %1 : tensor<2x2x3xf32>
}

// -----

// Reshape that splits one dim and merges two others: after the permute, dims
// 1 and 2 are contiguous with each other, dim 0 is not.
// CHECK-LABEL: func.func @reshape_split_and_merge
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 2, 1, 4>} : (tensor<2x3x4xf32>) -> tensor<2x2x6xf32>
func.func @reshape_split_and_merge(%arg0: tensor<2x3x4xf32>) -> tensor<2x2x6xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = "fuser.reshape"(%0) : (tensor<4x2x3xf32>) -> tensor<2x2x6xf32>
  %2 = "fuser.neg"(%1) : (tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
  return %2 : tensor<2x2x6xf32>
}

// -----

// A reshape that merges dims which are not contiguous with each other is not
// a view: it stays a real op, reading a view of what came before it.
// CHECK-LABEL: func.func @reshape_not_a_view
// CHECK: %[[V:.*]] = "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 1, 6>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
// CHECK: "fuser.reshape"(%[[V]]) : (tensor<6x4xf32>) -> tensor<24xf32>
func.func @reshape_not_a_view(%arg0: tensor<4x6xf32>) -> tensor<24xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = "fuser.reshape"(%0) : (tensor<6x4xf32>) -> tensor<24xf32>
  %2 = "fuser.neg"(%1) : (tensor<24xf32>) -> tensor<24xf32>
  return %2 : tensor<24xf32>
}

// -----

// Symbolic sizes: a contiguous ?x8 input reshaped to ?x2x4 (the `?` extent
// comes from a scalar argument) is a view with a dynamic size operand.
// CHECK-LABEL: func.func @reshape_symbolic
// CHECK: "fuser.view"(%arg0, %arg1) {static_offset = 0 : i64, static_strides = array<i64: 8, 4, 1>} : (tensor<?x8xf32>, i64) -> tensor<?x2x4xf32>
func.func @reshape_symbolic(%arg0: tensor<?x8xf32>, %arg1: i64) -> tensor<?x2x4xf32> attributes {fuser.fusion} {
  %0 = "fuser.reshape"(%arg0, %arg1) : (tensor<?x8xf32>, i64) -> tensor<?x2x4xf32>
  %1 = "fuser.neg"(%0) : (tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
  return %1 : tensor<?x2x4xf32>
}

// -----

// Slice with non-zero starts: offset 2*16 + 4, the input's strides.
// CHECK-LABEL: func.func @slice_offsets
// CHECK: "fuser.view"(%arg0) {static_offset = 36 : i64, static_strides = array<i64: 16, 1>} : (tensor<8x16xf32>) -> tensor<4x8xf32>
func.func @slice_offsets(%arg0: tensor<8x16xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.slice"(%arg0) {start_indices = array<i64: 2, 4>, end_indices = array<i64: 6, 12>, strides = array<i64: 1, 1>} : (tensor<8x16xf32>) -> tensor<4x8xf32>
  %1 = "fuser.neg"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Slice of a symbolic ?x? input: the row stride is the run-time extent of
// dim 1, read with fuser.size; the offset 1024 is static. The slice's ends
// are checked first (input-checks.test).
// CHECK-LABEL: func.func @slice_symbolic
// CHECK: "fuser.check"({{.*}}) {message = "{{.*}}slice ends at 2048 in dim 1"}
// CHECK-NEXT: %[[S:.*]] = "fuser.size"(%arg0) {dim = 1 : i64} : (tensor<?x?xbf16>) -> i64
// CHECK: "fuser.view"(%arg0, %[[S]]) {static_offset = 1024 : i64, static_strides = array<i64: -9223372036854775808, 1>} : (tensor<?x?xbf16>, i64) -> tensor<256x1024xbf16>
func.func @slice_symbolic(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}) -> tensor<256x1024xf32> attributes {fuser.fusion} {
  %0 = "fuser.slice"(%arg0) {start_indices = array<i64: 0, 1024>, end_indices = array<i64: 256, 2048>, strides = array<i64: 1, 1>} : (tensor<?x?xbf16>) -> tensor<256x1024xbf16>
  %1 = "fuser.cast"(%0) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  return %1 : tensor<256x1024xf32>
}

// -----

// A non-contiguous input dim has a run-time stride: fuser.stride.
// CHECK-LABEL: func.func @strided_input
// CHECK: %[[S:.*]] = "fuser.stride"(%arg0) {dim = 0 : i64} : (tensor<4x8xf32>) -> i64
// CHECK: "fuser.view"(%arg0, %[[S]]) {static_offset = 0 : i64, static_strides = array<i64: 1, -9223372036854775808>} : (tensor<4x8xf32>, i64) -> tensor<8x4xf32>
func.func @strided_input(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 0, 1>, fuser.stride_order = array<i64: 1, 0>}) -> tensor<8x4xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %1 = "fuser.neg"(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// Expand of a broadcast dim: stride 0.
// CHECK-LABEL: func.func @expand
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 0, 1>} : (tensor<1x8xf32>) -> tensor<4x8xf32>
func.func @expand(%arg0: tensor<1x8xf32> {fuser.contiguity = array<i64: -1, 1>}) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.expand"(%arg0) : (tensor<1x8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.neg"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Squeeze of a broadcast dim, then broadcast back: strides follow.
// CHECK-LABEL: func.func @squeeze
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 1>} : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 1, 0>} : (tensor<1x8xf32>) -> tensor<8x1xf32>
func.func @squeeze(%arg0: tensor<1x8xf32> {fuser.contiguity = array<i64: -1, 1>}) -> (tensor<8xf32>, tensor<8x1xf32>) attributes {fuser.fusion} {
  %0 = "fuser.squeeze"(%arg0) {dims = array<i64: 0>} : (tensor<1x8xf32>) -> tensor<8xf32>
  %1 = "fuser.neg"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "fuser.broadcast"(%0) {is_broadcast_dim = array<i1: false, true>} : (tensor<8xf32>) -> tensor<8x1xf32>
  %3 = "fuser.neg"(%2) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  return %1, %3 : tensor<8xf32>, tensor<8x1xf32>
}

// -----

// Permute of a permute composes.
// CHECK-LABEL: func.func @permute_permute
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 1, 4, 12>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
func.func @permute_permute(%arg0: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "fuser.permute"(%0) {dims = array<i64: 2, 0, 1>} : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
  %2 = "fuser.neg"(%1) : (tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  return %2 : tensor<4x3x2xf32>
}

// -----

// Zero-size dims (the seed's (2, 16, 1024, 0) input): views of empty tensors.
// CHECK-LABEL: func.func @zero_size
// CHECK-SAME: fuser.alias_of = 0
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 4, 1, 0>} : (tensor<2x0xbf16>) -> tensor<0x4x1xbf16>
func.func @zero_size(%arg0: tensor<2x0xbf16>) -> tensor<0x4x1xbf16> attributes {fuser.fusion} {
  %0 = "fuser.reshape"(%arg0) : (tensor<2x0xbf16>) -> tensor<0x4xbf16>
  %1 = "fuser.broadcast"(%0) {is_broadcast_dim = array<i1: false, false, true>} : (tensor<0x4xbf16>) -> tensor<0x4x1xbf16>
  return %1 : tensor<0x4x1xbf16>
}

// -----

// broadcast_in_dim of a `?x?` input to a static shape: the input's extents
// are pinned by the broadcast, so its strides become static.
// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK: "fuser.view"(%arg0) {static_offset = 0 : i64, static_strides = array<i64: 0, 32, 1>} : (tensor<?x?xbf16>) -> tensor<4x1024x32xbf16>
func.func @broadcast_in_dim(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}) -> tensor<4x1024x32xf32> attributes {fuser.fusion} {
  %0 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 1, 2>} : (tensor<?x?xbf16>) -> tensor<4x1024x32xbf16>
  %1 = "fuser.cast"(%0) : (tensor<4x1024x32xbf16>) -> tensor<4x1024x32xf32>
  return %1 : tensor<4x1024x32xf32>
}

// -----

// Meta ops of a computed tensor are not views of an input: they stay.
// CHECK-LABEL: func.func @meta_of_computed
// CHECK-NOT: fuser.view
// CHECK: "fuser.permute"
func.func @meta_of_computed(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.permute"(%0) {dims = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// A set with its own stride order (fd.ops.stride_order) of an input is a
// copy into that layout, not a view: the output is no alias of the input.
// CHECK-LABEL: func.func @layout_set
// CHECK-NOT: fuser.alias_of
// CHECK-NOT: fuser.view
// CHECK: "fuser.set"(%arg0) {fuser.stride_order = array<i64: 0, 1>}
func.func @layout_set(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.set"(%arg0) {fuser.stride_order = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
