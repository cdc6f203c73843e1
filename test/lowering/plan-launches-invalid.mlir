// fuser-plan-launches refuses, at the call, a record whose sizes and
// strides are not 64-bit words: every parameter of a launch is an i64 word.
// RUN: fuser-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuser-plan-launches)'

module attributes {fuser.launches = [
    {entry = @fuser_kernels_i64::@f_k0__scalar, kernel = @f_k0, variant = "scalar", vector_width = 1 : i64, unroll = 1 : i64, index_bits = 64 : i64, param_bits = 32 : i64, block_size = 128 : i64, num_args = 1 : i64,
     params = [{ptr = 0 : i64}, {ptr = 1 : i64}, {size = array<i64: 0, 0>}], conditions = []}]} {
  func.func @f(%arg0: tensor<?xf32>) -> tensor<?xf32> attributes {fuser.fusion, fuser.plan} {
    // expected-error@+1 {{f_k0__scalar takes sizes and strides of 32 bits; a launch passes 64}}
    %0 = call @f_k0(%arg0) {fuser.cuts = ["fusion output"]} : (tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  func.func private @f_k0(%arg0: tensor<?xf32> {fuser.strides = array<i64: 1>}) -> (tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
    %0 = "fuser.neg"(%arg0) : (tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  gpu.binary @fuser_kernels_i64 [#gpu.object<#nvvm.target, "">]
}
