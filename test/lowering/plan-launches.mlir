// fuser-plan-launches (lowering/plan_launch_ops.c): the launch records in
// kernel terms become fuser.launch ops of the plan after the call, their
// grid, conditions and parameters host SSA of the plan's values, and the
// records go. The kernel @f_k0 negates a `?` vector: its vector record (width
// 4, unroll 1, block 128) under {align = {arg = 0, bytes = 16}} and
// {extent = {arg = 0, dim = 0, multiple = 4}} (the view's element offset 0
// times 4 bytes: the constant 4 is the width's), parameters the input's and
// the result's pointers and the extent; the scalar record last
// (plan-launches-invalid.mlir: what it refuses). The plan reads back and
// verifies.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-plan-launches)' -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: fuser-opt %t.mlir -o /dev/null

// CHECK-LABEL: func.func @f(
// CHECK: %[[OUT:.*]] = call @f_k0(%arg0)
// CHECK-NEXT: %[[ONE:.*]] = "fuser.scalar"() {value = 1 : i64}
// CHECK-NEXT: %[[N:.*]] = "fuser.size"(%arg0) {dim = 0 : i64}
// CHECK-NEXT: %[[PTS:.*]] = "fuser.mul"(%[[ONE]], %[[N]])
// CHECK-NEXT: %[[W:.*]] = "fuser.scalar"() {value = 4 : i64}
// CHECK-NEXT: %[[Q:.*]] = "fuser.div"(%[[PTS]], %[[W]])
// CHECK-NEXT: %[[V:.*]] = "fuser.ceildiv"(%[[Q]], %[[ONE]])
// CHECK-NEXT: %[[R:.*]] = "fuser.fmod"(%[[PTS]], %[[W]])
// CHECK-NEXT: %[[T:.*]] = "fuser.maximum"(%[[V]], %[[R]])
// CHECK-NEXT: %[[B:.*]] = "fuser.scalar"() {value = 128 : i64}
// CHECK-NEXT: %[[G0:.*]] = "fuser.ceildiv"(%[[T]], %[[B]])
// CHECK-NEXT: %[[G:.*]] = "fuser.maximum"(%[[G0]], %[[ONE]])
// CHECK-NEXT: %[[A:.*]] = "fuser.address"(%arg0) : (tensor<?xf32>) -> i64
// CHECK-NEXT: %[[Z:.*]] = "fuser.scalar"() {value = 0 : i64}
// CHECK-NEXT: %[[OFF:.*]] = "fuser.mul"(%[[Z]], %[[W]])
// CHECK-NEXT: %[[AT:.*]] = "fuser.add"(%[[A]], %[[OFF]])
// CHECK-NEXT: %[[SIXTEEN:.*]] = "fuser.scalar"() {value = 16 : i64}
// CHECK-NEXT: %[[M:.*]] = "fuser.fmod"(%[[AT]], %[[SIXTEEN]])
// CHECK-NEXT: %[[AL:.*]] = "fuser.eq"(%[[M]], %[[Z]]) : (i64, i64) -> i1
// Each host value once in the plan (lowering/plan_host_cse.h): the extent
// condition, the parameters and the scalar variant's grid reuse the size,
// the input's address, the points and the constants.
// CHECK-NEXT: %[[NM:.*]] = "fuser.fmod"(%[[N]], %[[W]])
// CHECK-NEXT: %[[EX:.*]] = "fuser.eq"(%[[NM]], %[[Z]]) : (i64, i64) -> i1
// CHECK-NEXT: %[[P1:.*]] = "fuser.address"(%[[OUT]]) : (tensor<?xf32>) -> i64
// CHECK-NEXT: "fuser.launch"(%[[G]], %[[ONE]], %[[ONE]], %[[B]], %[[ONE]], %[[ONE]], %[[Z]], %[[AL]], %[[EX]], %[[A]], %[[P1]], %[[N]]) {entry = @fuser_kernels_i32::@f_k0__vector, kernel = @f_k0, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 2, 3>, variant = "vector"}
// CHECK-NEXT: %[[SQ:.*]] = "fuser.div"(%[[PTS]], %[[ONE]])
// CHECK-NEXT: %[[SV:.*]] = "fuser.ceildiv"(%[[SQ]], %[[ONE]])
// CHECK-NEXT: %[[SR:.*]] = "fuser.fmod"(%[[PTS]], %[[ONE]])
// CHECK-NEXT: %[[ST:.*]] = "fuser.maximum"(%[[SV]], %[[SR]])
// CHECK-NEXT: %[[SG0:.*]] = "fuser.ceildiv"(%[[ST]], %[[B]])
// CHECK-NEXT: %[[SG:.*]] = "fuser.maximum"(%[[SG0]], %[[ONE]])
// CHECK-NEXT: "fuser.launch"(%[[SG]], %[[ONE]], %[[ONE]], %[[B]], %[[ONE]], %[[ONE]], %[[Z]], %[[A]], %[[P1]], %[[N]]) {entry = @fuser_kernels_i64::@f_k0__scalar, kernel = @f_k0, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 3>, variant = "scalar"}
// CHECK-NEXT: return %[[OUT]]
// CHECK-NOT: fuser.launches
module attributes {fuser.launches = [
    {entry = @fuser_kernels_i32::@f_k0__vector, kernel = @f_k0, variant = "vector", vector_width = 4 : i64, unroll = 1 : i64, index_bits = 32 : i64, param_bits = 64 : i64, block_size = 128 : i64, num_args = 1 : i64,
     params = [{ptr = 0 : i64}, {ptr = 1 : i64}, {size = array<i64: 0, 0>}],
     conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {extent = {arg = 0 : i64, dim = 0 : i64, multiple = 4 : i64}}]},
    {entry = @fuser_kernels_i64::@f_k0__scalar, kernel = @f_k0, variant = "scalar", vector_width = 1 : i64, unroll = 1 : i64, index_bits = 64 : i64, param_bits = 64 : i64, block_size = 128 : i64, num_args = 1 : i64,
     params = [{ptr = 0 : i64}, {ptr = 1 : i64}, {size = array<i64: 0, 0>}], conditions = []}]} {
  func.func @f(%arg0: tensor<?xf32>) -> tensor<?xf32> attributes {fuser.fusion, fuser.plan} {
    %0 = call @f_k0(%arg0) {fuser.cuts = ["fusion output"]} : (tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  func.func private @f_k0(%arg0: tensor<?xf32> {fuser.strides = array<i64: 1>}) -> (tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
    %0 = "fuser.neg"(%arg0) : (tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  gpu.binary @fuser_kernels_i32 [#gpu.object<#nvvm.target, "">]
  gpu.binary @fuser_kernels_i64 [#gpu.object<#nvvm.target, "">]
}
