// RUN: fuser-opt %s --split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment)'

// An aliased output that is a view of its own input would read what it
// overwrites.
func.func @alias_own_view(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {fuser.alias_input = 0 : i64}) attributes {fuser.fusion} {
  // expected-error@+1 {{an output aliased to an input is a view of that same input: not supported (it would read what it overwrites)}}
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
