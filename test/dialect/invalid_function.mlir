// Negative tests of the fusion-function checks (dialects/verify.c,
// fuser_verify_function): argument types and the layout attributes
// fuser.contiguity (allocation order; 1, 0, -1 = None) and fuser.stride_order.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{'func.func' op argument #0 has an unsupported type (tensors and scalars of bf16 f16 f32 f64 i1 i32 i64)}}
func.func @unsupported_arg(%a: tensor<4xi8>) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #1 has rank > 8}}
func.func @arg_rank(%a: f32, %b: tensor<1x1x1x1x1x1x1x1x1xf32>) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0 is a scalar but has a tensor layout}}
func.func @scalar_layout(%a: f32 {fuser.stride_order = array<i64: 0>}) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0: fuser.stride_order must be an array<i64> of 2 entries}}
func.func @stride_order_length(%a: tensor<2x8xf32> {fuser.stride_order = array<i64: 0>}) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0: fuser.stride_order must be an array<i64> of 2 entries}}
func.func @stride_order_kind(%a: tensor<2x8xf32> {fuser.stride_order = array<i32: 1, 0>}) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0: fuser.stride_order is not a permutation of [0, 2)}}
func.func @stride_order_perm(%a: tensor<2x8xf32> {fuser.stride_order = array<i64: 1, 1>}) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0: fuser.contiguity must be an array<i64> of 2 entries}}
func.func @contiguity_length(%a: tensor<2x8xf32> {fuser.contiguity = array<i64: 1, 1, 1>}) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0: fuser.contiguity entries are 1 (True), 0 (False) or -1 (None)}}
func.func @contiguity_value(%a: tensor<2x8xf32> {fuser.contiguity = array<i64: 1, 2>}) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0: dim 0 has extent 1 (a broadcast) so its contiguity must be None (-1)}}
func.func @broadcast_contiguity(%a: tensor<1x8xf32> {fuser.contiguity = array<i64: 1, 1>}) attributes {fuser.fusion} {
  return
}

// -----

// Contiguity is listed in allocation order: with stride_order [0, 1] dim 1
// is the outermost, so its entry comes first.
// expected-error@+1 {{'func.func' op argument #0: dim 1 has extent 1 (a broadcast) so its contiguity must be None (-1)}}
func.func @allocation_order(%a: tensor<8x1xf32> {fuser.stride_order = array<i64: 0, 1>, fuser.contiguity = array<i64: 1, -1>}) attributes {fuser.fusion} {
  return
}

// -----

// The same layout with contiguity in allocation order verifies.
func.func @allocation_order_ok(%a: tensor<8x1xf32> {fuser.stride_order = array<i64: 0, 1>, fuser.contiguity = array<i64: -1, 1>}) attributes {fuser.fusion} {
  return
}

// -----

// Functions without fuser.fusion are not fusions: their layouts are not checked.
func.func @not_a_fusion(%a: tensor<4xi8> {fuser.contiguity = array<i64: 7>}) {
  return
}

// -----

// fuser.is_cpu marks nvFuser's CPU scalar tensor, which is 0-dim.
// expected-error@+1 {{argument #0: fuser.is_cpu (a CPU scalar tensor) needs a 0-dim tensor}}
func.func @cpu_tensor_with_dims(%a: tensor<4xf32> {fuser.is_cpu}) attributes {fuser.fusion} {
  return
}

// -----

// A result's stride_order (the layout it is written in) must be a permutation
// too (issue 17, found by fuzz_mlir: `array<i64: 0, 0>` crashed fuser-segment).
// expected-error@+1 {{result #0: fuser.stride_order is not a permutation of [0, 2)}}
func.func @result_order_repeated(%a: tensor<2x3xf32>) -> (tensor<2x3xf32> {fuser.stride_order = array<i64: 0, 0>}) attributes {fuser.fusion} {
  return %a : tensor<2x3xf32>
}

// -----

func.func @cpu_scalar_tensor_ok(%a: tensor<f64> {fuser.is_cpu, fuser.contiguity = array<i64>}) attributes {fuser.fusion} {
  return
}

// -----

// expected-error@+1 {{result #0: fuser.stride_order must be an array<i64> of 2 entries}}
func.func @result_order_short(%a: tensor<2x3xf32>) -> (tensor<2x3xf32> {fuser.stride_order = array<i64: 0>}) attributes {fuser.fusion} {
  return %a : tensor<2x3xf32>
}

// -----

// A valid result order verifies.
func.func @result_order_ok(%a: tensor<2x3xf32>) -> (tensor<2x3xf32> {fuser.stride_order = array<i64: 0, 1>}) attributes {fuser.fusion} {
  return %a : tensor<2x3xf32>
}

// -----

// fuser.alias_input (fd.add_output(out, alias_input)) names an argument.
// expected-error@+1 {{result #0: fuser.alias_input must be an i64 argument index in [0, 1)}}
func.func @alias_out_of_range(%a: tensor<2x3xf32>) -> (tensor<2x3xf32> {fuser.alias_input = 1 : i64}) attributes {fuser.fusion} {
  return %a : tensor<2x3xf32>
}

// -----

// An aliased result has its argument's dtype and static extents.
// expected-error@+1 {{result #0: fuser.alias_input names argument #0, which is not a tensor of the result's dtype and shape}}
func.func @alias_other_shape(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> (tensor<3x3xf32> {fuser.alias_input = 0 : i64}) attributes {fuser.fusion} {
  return %b : tensor<3x3xf32>
}

// -----

// One argument receives one aliased result.
// expected-error@+1 {{result #1: fuser.alias_input: argument #0 already receives result #0}}
func.func @alias_twice(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32> {fuser.alias_input = 0 : i64}, tensor<2x3xf32> {fuser.alias_input = 0 : i64}) attributes {fuser.fusion} {
  return %b, %b : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A valid alias verifies.
func.func @alias_ok(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32> {fuser.alias_input = 0 : i64}) attributes {fuser.fusion} {
  return %b : tensor<2x3xf32>
}
