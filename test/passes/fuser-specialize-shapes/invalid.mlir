// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(fuser-specialize-shapes)'

// An example input that contradicts a static extent is an error.
// expected-error@+1 {{fuser.inputs gives argument #0 extent 5 in dim 1, but its type says 4}}
func.func @contradiction(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32>
    attributes {fuser.fusion, fuser.inputs = [
      {dtype = f32, factory = "randn", offset = 0 : i64, shape = array<i64: 10>, sizes = array<i64: 2, 5>, strides = array<i64: 5, 1>}]} {
  %0 = "fuser.neg"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Example inputs whose extents do not fit the fusion's ops.
func.func @mismatch(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32>
    attributes {fuser.fusion, fuser.inputs = [
      {dtype = f32, factory = "randn", offset = 0 : i64, shape = array<i64: 8>, sizes = array<i64: 2, 4>, strides = array<i64: 4, 1>},
      {dtype = f32, factory = "randn", offset = 0 : i64, shape = array<i64: 12>, sizes = array<i64: 3, 4>, strides = array<i64: 4, 1>}]} {
  // expected-error@+1 {{with the example inputs' extents: operand extents 2 and 3 differ in dim 0}}
  %0 = "fuser.add"(%a, %b) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
