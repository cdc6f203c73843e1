// Negative tests of the C verifier for the attribute-driven meta ops
// (broadcast permute slice squeeze pad cat): attribute ranges and the
// shapes they give (dialects/infer.c, infer_meta/infer_pad/infer_cat).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @broadcast_kept(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.broadcast' op is_broadcast_dim keeps 1 dims of an input of rank 2}}
  %0 = "fuser.broadcast"(%a) {is_broadcast_dim = array<i1: true, false>} : (tensor<2x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @broadcast_kind(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.broadcast' op attribute 'is_broadcast_dim' must be an array<i1>}}
  %0 = "fuser.broadcast"(%a) {is_broadcast_dim = array<i64: 1, 0>} : (tensor<8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @permute_count(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'fuser.permute' op dims has 2 entries for an input of rank 3}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @not_a_permutation(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuser.permute' op dims is not a permutation of [0, 2)}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @permute_range(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuser.permute' op dims is not a permutation of [0, 2)}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @permute_result(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuser.permute' op result #0 has type tensor<2x3xf32> but nvFuser's rules give tensor<3x2xf32>}}
  %0 = "fuser.permute"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_entries(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.slice' op start_indices, end_indices and strides need 2 entries each}}
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 0>, end_indices = array<i64: 2, 8>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @slice_stride(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.slice' op slice stride 2 in dim 1 is not supported (only 1)}}
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 0, 0>, end_indices = array<i64: 2, 8>, strides = array<i64: 1, 2>} : (tensor<2x8xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @slice_out_of_range(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.slice' op slice end exceeds the extent of dim 1 (9 > 8)}}
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 0, 4>, end_indices = array<i64: 2, 9>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @slice_reversed(%a: tensor<?x8xf32>) {
  // expected-error@+1 {{'fuser.slice' op slice [3, 1) is out of bounds for dim 0}}
  %0 = "fuser.slice"(%a) {start_indices = array<i64: 3, 0>, end_indices = array<i64: 1, 8>, strides = array<i64: 1, 1>} : (tensor<?x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @slice_negative_start(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.slice' op slice [-1, 2) is out of bounds for dim 0}}
  %0 = "fuser.slice"(%a) {start_indices = array<i64: -1, 0>, end_indices = array<i64: 2, 8>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @squeeze_range(%a: tensor<1x8xf32>) {
  // expected-error@+1 {{'fuser.squeeze' op squeeze dims must be distinct dims in [0, 2)}}
  %0 = "fuser.squeeze"(%a) {dims = array<i64: 2>} : (tensor<1x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @squeeze_repeated(%a: tensor<1x8xf32>) {
  // expected-error@+1 {{'fuser.squeeze' op squeeze dims must be distinct dims in [0, 2)}}
  %0 = "fuser.squeeze"(%a) {dims = array<i64: 0, 0>} : (tensor<1x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @squeeze_non_one(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.squeeze' op squeeze of dim 1 whose extent is not 1}}
  %0 = "fuser.squeeze"(%a) {dims = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @pad_odd(%a: tensor<2x8xf32>, %v: f32) {
  // expected-error@+1 {{'fuser.pad' op pad_widths needs an even number of entries, at most 4}}
  %0 = "fuser.pad"(%a, %v) {pad_widths = array<i64: 1, 2, 3>} : (tensor<2x8xf32>, f32) -> tensor<2x8xf32>
  return
}

// -----

func.func @pad_too_many(%a: tensor<8xf32>, %v: f32) {
  // expected-error@+1 {{'fuser.pad' op pad_widths needs an even number of entries, at most 2}}
  %0 = "fuser.pad"(%a, %v) {pad_widths = array<i64: 1, 1, 1, 1>} : (tensor<8xf32>, f32) -> tensor<10xf32>
  return
}

// -----

func.func @pad_negative(%a: tensor<2x8xf32>, %v: f32) {
  // expected-error@+1 {{'fuser.pad' op pad widths make dim 1 negative}}
  %0 = "fuser.pad"(%a, %v) {pad_widths = array<i64: -5, -5>} : (tensor<2x8xf32>, f32) -> tensor<2x0xf32>
  return
}

// -----

func.func @pad_value(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.pad' op pad value must be a scalar}}
  %0 = "fuser.pad"(%a, %a) {pad_widths = array<i64: 1, 1>} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x10xf32>
  return
}

// -----

func.func @pad_result(%a: tensor<2x8xf32>, %v: f32) {
  // expected-error@+1 {{'fuser.pad' op result #0 has type tensor<2x8xf32> but nvFuser's rules give tensor<2x11xf32>}}
  %0 = "fuser.pad"(%a, %v) {pad_widths = array<i64: 1, 2>} : (tensor<2x8xf32>, f32) -> tensor<2x8xf32>
  return
}

// -----

func.func @cat_ranks(%a: tensor<2x8xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.cat' op cat operands have ranks 2 and 1}}
  %0 = "fuser.cat"(%a, %b) {dim = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @cat_dim(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.cat' op cat dim -1 is out of range [0, 2)}}
  %0 = "fuser.cat"(%a, %a) {dim = -1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @cat_dtypes(%a: tensor<2x8xf32>, %b: tensor<2x8xbf16>) {
  // expected-error@+1 {{'fuser.cat' op cat operands have dtypes f32 and bf16}}
  %0 = "fuser.cat"(%a, %b) {dim = 1 : i64} : (tensor<2x8xf32>, tensor<2x8xbf16>) -> tensor<2x16xf32>
  return
}

// -----

func.func @cat_mismatch(%a: tensor<2x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error@+1 {{'fuser.cat' op cat operands differ in dim 0 (2 and 3), not the cat dim}}
  %0 = "fuser.cat"(%a, %b) {dim = 1 : i64} : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @cat_result(%a: tensor<2x8xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuser.cat' op result #0 has type tensor<2x8xf32> but nvFuser's rules give tensor<2x12xf32>}}
  %0 = "fuser.cat"(%a, %b) {dim = 1 : i64} : (tensor<2x8xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @set_keeps_type(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.segment_set' op result #0 has type tensor<2x8xbf16> but nvFuser's rules give tensor<2x8xf32>}}
  %0 = "fuser.segment_set"(%a) : (tensor<2x8xf32>) -> tensor<2x8xbf16>
  return
}

// -----

// Regression: the widths used to overflow int64 silently.
func.func @pad_overflow(%a: tensor<2x8xf32>, %v: f32) {
  // expected-error@+1 {{'fuser.pad' op pad widths overflow the extent of dim 1}}
  %0 = "fuser.pad"(%a, %v) {pad_widths = array<i64: 9223372036854775807, 1>} : (tensor<2x8xf32>, f32) -> tensor<2x8xf32>
  return
}

// -----

// Regression: the sum of the extents used to wrap to a negative extent.
func.func @cat_overflow(%a: tensor<9223372036854775806xf32>) {
  // expected-error@+1 {{'fuser.cat' op cat result extent in dim 0 overflows int64}}
  %0 = "fuser.cat"(%a, %a) {dim = 0 : i64} : (tensor<9223372036854775806xf32>, tensor<9223372036854775806xf32>) -> tensor<4xf32>
  return
}

// -----

// Regression (found by fuzz_mlir): an op's fuser.stride_order was not
// verified, and fuser-segment read this i32 array as i64, overrunning a table.
func.func @set_order_kind(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  // expected-error@+1 {{'fuser.set' op fuser.stride_order must be an array<i64> of 2 entries}}
  %0 = "fuser.set"(%a) {fuser.stride_order = array<i32: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @set_order_permutation(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  // expected-error@+1 {{'fuser.set' op fuser.stride_order is not a permutation of [0, 2)}}
  %0 = "fuser.set"(%a) {fuser.stride_order = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
