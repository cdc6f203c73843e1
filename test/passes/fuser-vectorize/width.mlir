// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize)' | FileCheck %s
// The access analysis (passes/kernel_access.c, with the index and extent
// rules of passes/kernel_rules.c) gives each global access its index map.
// Vector width choice: 16 bytes / element size, lowered by the inner
// extent (when the iteration space is not one contiguous run), slice
// offsets, cat boundaries and strides outside the run.

// Rows of 12 in a buffer with row stride 16: not one run; 12 = 4 * 3.
// CHECK-LABEL: func.func private @inner_extent_4
// CHECK-SAME: fuser.flat_shape = array<i64: 64, 12>
// CHECK-SAME: fuser.vector_width = 4 : i64
func.func private @inner_extent_4(%a: tensor<64x12xbf16> {fuser.strides = array<i64: 16, 1>})
    -> (tensor<64x12xbf16> {fuser.strides = array<i64: 12, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<64x12xbf16>) -> tensor<64x12xf32>
  %1 = "fuser.cast"(%0) : (tensor<64x12xf32>) -> tensor<64x12xbf16>
  func.return %1 : tensor<64x12xbf16>
}

// -----

// CHECK-LABEL: func.func private @inner_extent_2
// CHECK-SAME: fuser.vector_width = 2 : i64
func.func private @inner_extent_2(%a: tensor<64x6xbf16> {fuser.strides = array<i64: 8, 1>})
    -> (tensor<64x6xbf16> {fuser.strides = array<i64: 6, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<64x6xbf16>) -> tensor<64x6xf32>
  %1 = "fuser.cast"(%0) : (tensor<64x6xf32>) -> tensor<64x6xbf16>
  func.return %1 : tensor<64x6xbf16>
}

// -----

// An odd inner extent: width 1, one scalar variant, no conditions.
// CHECK-LABEL: func.func private @inner_extent_odd
// CHECK-SAME: fuser.access_kinds = ["scalar", "scalar"]
// CHECK-SAME: fuser.vector_conditions = []
// CHECK-SAME: fuser.vector_width = 1 : i64
func.func private @inner_extent_odd(%a: tensor<64x7xbf16> {fuser.strides = array<i64: 8, 1>})
    -> (tensor<64x7xbf16> {fuser.strides = array<i64: 7, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<64x7xbf16>) -> tensor<64x7xf32>
  %1 = "fuser.cast"(%0) : (tensor<64x7xf32>) -> tensor<64x7xbf16>
  func.return %1 : tensor<64x7xbf16>
}

// -----

// Slice offsets of 4, 2 and 1 elements along the inner dim.
// CHECK-LABEL: func.func private @slice_offset_4
// CHECK-SAME: fuser.vector_width = 4 : i64
func.func private @slice_offset_4(%a: tensor<64x32xbf16> {fuser.strides = array<i64: 32, 1>})
    -> (tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 0, 4>, end_indices = array<i64: 64, 20>, strides = array<i64: 1, 1>} : (tensor<64x32xbf16>) -> tensor<64x16xbf16>
  func.return %0 : tensor<64x16xbf16>
}

// -----

// CHECK-LABEL: func.func private @slice_offset_2
// CHECK-SAME: fuser.vector_width = 2 : i64
func.func private @slice_offset_2(%a: tensor<64x32xbf16> {fuser.strides = array<i64: 32, 1>})
    -> (tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 0, 2>, end_indices = array<i64: 64, 18>, strides = array<i64: 1, 1>} : (tensor<64x32xbf16>) -> tensor<64x16xbf16>
  func.return %0 : tensor<64x16xbf16>
}

// -----

// CHECK-LABEL: func.func private @slice_offset_1
// CHECK-SAME: fuser.vector_width = 1 : i64
func.func private @slice_offset_1(%a: tensor<64x32xbf16> {fuser.strides = array<i64: 32, 1>})
    -> (tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 0, 1>, end_indices = array<i64: 64, 17>, strides = array<i64: 1, 1>} : (tensor<64x32xbf16>) -> tensor<64x16xbf16>
  func.return %0 : tensor<64x16xbf16>
}

// -----

// A row stride of 20 elements (40 bytes): only 4-element vectors stay aligned.
// CHECK-LABEL: func.func private @stride_not_multiple_of_8
// CHECK-SAME: fuser.access_widths = array<i64: 4, 4>
// CHECK-SAME: fuser.vector_conditions = [{align = {arg = 0 : i64, bytes = 8 : i64}}, {align = {bytes = 8 : i64, result = 0 : i64}}]
// CHECK-SAME: fuser.vector_width = 4 : i64
func.func private @stride_not_multiple_of_8(%a: tensor<64x16xbf16> {fuser.strides = array<i64: 20, 1>})
    -> (tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<64x16xbf16>) -> tensor<64x16xf32>
  %1 = "fuser.cast"(%0) : (tensor<64x16xf32>) -> tensor<64x16xbf16>
  func.return %1 : tensor<64x16xbf16>
}

// -----

// A fully contiguous space of 1000 x 1003 flattens to one run and keeps
// width 8 (the lowering adds a scalar tail where the run does not divide).
// CHECK-LABEL: func.func private @contiguous_odd
// CHECK-SAME: fuser.flat_groups = [array<i64: 0, 1>]
// CHECK-SAME: fuser.flat_shape = array<i64: 1003000>
// CHECK-SAME: fuser.vector_width = 8 : i64
func.func private @contiguous_odd(%a: tensor<1000x1003xbf16> {fuser.strides = array<i64: 1003, 1>})
    -> (tensor<1000x1003xbf16> {fuser.strides = array<i64: 1003, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<1000x1003xbf16>) -> tensor<1000x1003xf32>
  %1 = "fuser.cast"(%0) : (tensor<1000x1003xf32>) -> tensor<1000x1003xbf16>
  func.return %1 : tensor<1000x1003xbf16>
}

// -----

// Contiguous dims merge; a broadcast input (stride 0 along the run) is read
// as a scalar and splat, and does not limit the width.
// CHECK-LABEL: func.func private @broadcast_inner
// CHECK-SAME: fuser.access_kinds = ["vector", "broadcast", "vector"]
// CHECK-SAME: fuser.access_widths = array<i64: 8, 1, 8>
// CHECK-SAME: fuser.flat_groups = [array<i64: 0>, array<i64: 1, 2>]
// CHECK-SAME: fuser.flat_shape = array<i64: 4, 2048>
// CHECK-SAME: fuser.vector_width = 8 : i64
func.func private @broadcast_inner(%a: tensor<4x64x32xbf16> {fuser.strides = array<i64: 2048, 32, 1>},
                                   %b: tensor<4xbf16> {fuser.strides = array<i64: 1>})
    -> (tensor<4x64x32xbf16> {fuser.strides = array<i64: 2048, 32, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.broadcast_in_dim"(%b) {broadcast_dims = array<i64: 0>} : (tensor<4xbf16>) -> tensor<4x64x32xbf16>
  %1 = "fuser.mul"(%a, %0) : (tensor<4x64x32xbf16>, tensor<4x64x32xbf16>) -> tensor<4x64x32xf32>
  %2 = "fuser.cast"(%1) : (tensor<4x64x32xf32>) -> tensor<4x64x32xbf16>
  func.return %2 : tensor<4x64x32xbf16>
}

// -----

// f32 data: 4 elements per 16 bytes; a bf16 input and an f32 output take
// the smaller width.
// CHECK-LABEL: func.func private @mixed_dtypes
// CHECK-SAME: fuser.vector_width = 4 : i64
func.func private @mixed_dtypes(%a: tensor<64x64xbf16> {fuser.strides = array<i64: 64, 1>})
    -> (tensor<64x64xf32> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%a) : (tensor<64x64xbf16>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}

// -----

// A cat boundary 4 elements into the inner dim limits vectors to 4.
// CHECK-LABEL: func.func private @cat_boundary_4
// CHECK-SAME: fuser.vector_width = 4 : i64
func.func private @cat_boundary_4(%a: tensor<64x4xbf16> {fuser.strides = array<i64: 4, 1>},
                                  %b: tensor<64x12xbf16> {fuser.strides = array<i64: 12, 1>})
    -> (tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cat"(%a, %b) {dim = 1 : i64} : (tensor<64x4xbf16>, tensor<64x12xbf16>) -> tensor<64x16xbf16>
  func.return %0 : tensor<64x16xbf16>
}

// -----

// Symbolic extents and strides become run-time conditions. The dims can
// only be contiguous at run time: the vectorized variant merges them under
// `merge` conditions (any size then keeps width 8, with a scalar tail), and
// a "rows" plan along the inner dim (its stride and extent multiples of 8)
// is kept for padded rows. Both use 32-bit index math under `index32`.
// CHECK-LABEL: func.func private @symbolic
// CHECK-SAME: fuser.flat_groups = [array<i64: 0, 1>]
// CHECK-SAME: fuser.index_bits = 64 : i64
// CHECK-SAME: fuser.row_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {stride = {arg = 0 : i64, dim = 0 : i64, multiple = 8 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}, {stride = {dim = 0 : i64, multiple = 8 : i64, result = 0 : i64}}, {extent = {dim = 1 : i64, multiple = 8 : i64, result = 0 : i64}}, {index32}]
// CHECK-SAME: fuser.row_width = 8 : i64
// CHECK-SAME: fuser.vector_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}, {merge = {arg = 0 : i64, dim = 0 : i64, inner = 1 : i64}}, {merge = {dim = 0 : i64, inner = 1 : i64, result = 0 : i64}}, {index32}]
// CHECK-SAME: fuser.vector_width = 8 : i64
func.func private @symbolic(%a: tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>})
    -> (tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1 = "fuser.cast"(%0) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
  func.return %1 : tensor<?x?xbf16>
}

// -----

// Reductions with a row schedule get their variants from the row generator
// (lowering/row_gen.h): no vector plan here.
// CHECK-LABEL: func.func private @reduction
// CHECK-NOT: fuser.vector_width
// CHECK-SAME: attributes {fuser.kernel} {
func.func private @reduction(%a: tensor<64x64xbf16> {fuser.strides = array<i64: 64, 1>})
    -> (tensor<64xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<64x64xbf16>) -> tensor<64xf32>
  func.return %0 : tensor<64xf32>
}

// -----

// A middle dim is a batched outer reduction: a row schedule as well.
// CHECK-LABEL: func.func private @middle_reduction
// CHECK-NOT: fuser.vector_width
// CHECK-SAME: attributes {fuser.kernel} {
func.func private @middle_reduction(%a: tensor<8x64x8xbf16> {fuser.strides = array<i64: 512, 8, 1>})
    -> (tensor<8x8xf32> {fuser.strides = array<i64: 8, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<8x64x8xbf16>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}

// -----

// The others (scattered dims) use the simple scalar kernel.
// CHECK-LABEL: func.func private @scattered_reduction
// CHECK-SAME: fuser.vector_width = 1 : i64
func.func private @scattered_reduction(%a: tensor<8x64x8xbf16> {fuser.strides = array<i64: 512, 8, 1>})
    -> (tensor<64xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 0, 2>, keepdim = false} : (tensor<8x64x8xbf16>) -> tensor<64xf32>
  func.return %0 : tensor<64xf32>
}

// -----

// Functions that are not kernels are left alone.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NOT: fuser.vector_width
func.func @not_a_kernel(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.return %a : tensor<4xf32>
}
