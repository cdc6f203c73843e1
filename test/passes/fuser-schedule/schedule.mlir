// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule)' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule{unroll=2 scalar-unroll=3 block-size=256})' | FileCheck %s --check-prefix=OPTS

// The pointwise schedule (passes/schedule_pointwise.c); which launch conditions
// the mixed variant checks in the kernel, per tensor (passes/access_select.c).

// A static copy of 64 x 16 bf16: vectors of 8 under alignment conditions over
// the one flattened group (flat, no tail: 1024 is a multiple of 8), then the
// mixed variant (the same, its align conditions checked in the kernel per
// tensor), which has no launch condition left, so no scalar variant;
// memory-bound, so unroll 1.
// CHECK-LABEL: func.func private @copy
// CHECK-SAME: fuser.schedule = {block_size = 128 : i64, kind = "pointwise", variants = [
// CHECK-SAME: {conditions = [{arg = 0 : i64, bytes = 16 : i64, kind = "align"}, {bytes = 16 : i64, kind = "align", result = 0 : i64}], flat = true, index_bits = 32 : i64, name = "vector", tail = false, unroll = 1 : i64, vector_width = 8 : i64},
// CHECK-SAME: {access_conditions = [{arg = 0 : i64, bytes = 16 : i64, kind = "align"}, {bytes = 16 : i64, kind = "align", result = 0 : i64}], conditions = [], flat = true, index_bits = 32 : i64, name = "mixed", tail = false, unroll = 1 : i64, vector_width = 8 : i64}]}
// OPTS-LABEL: func.func private @copy
// OPTS-SAME: fuser.schedule = {block_size = 256 : i64, kind = "pointwise", variants = [
// OPTS-SAME: name = "vector", tail = false, unroll = 2 : i64, vector_width = 8 : i64}
// OPTS-SAME: name = "mixed", tail = false, unroll = 2 : i64, vector_width = 8 : i64}]}
func.func private @copy(%a: tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) -> (tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<64x16xbf16>) -> tensor<64x16xf32>
  %1 = "fuser.cast"(%0) {dtype = bf16} : (tensor<64x16xf32>) -> tensor<64x16xbf16>
  func.return %1 : tensor<64x16xbf16>
}

// -----

// tanh of bf16 with a `?` size is compute-bound: the unrolled vector variant
// (4 vectors per thread) only when there are enough points to fill the GPU
// (132 x 2048 threads x 4 x 8), then the same with unroll 1, then mixed
// (index32 stays a launch condition), then scalar;
// a scalar tail (the size need not be a multiple of 8), 64-bit scalar index math.
// CHECK-LABEL: func.func private @tanh_dyn
// CHECK-SAME: variants = [{conditions = [{arg = 0 : i64, bytes = 16 : i64, kind = "align"}, {bytes = 16 : i64, kind = "align", result = 0 : i64}, {kind = "index32"}, {at_least = 8650752 : i64, kind = "points", result = 0 : i64}], flat = true, index_bits = 32 : i64, name = "vector", tail = true, unroll = 4 : i64, vector_width = 8 : i64},
// CHECK-SAME: {conditions = [{arg = 0 : i64, bytes = 16 : i64, kind = "align"}, {bytes = 16 : i64, kind = "align", result = 0 : i64}, {kind = "index32"}], flat = true, index_bits = 32 : i64, name = "vector_u1", tail = true, unroll = 1 : i64, vector_width = 8 : i64},
// CHECK-SAME: {access_conditions = [{arg = 0 : i64, bytes = 16 : i64, kind = "align"}, {bytes = 16 : i64, kind = "align", result = 0 : i64}], conditions = [{kind = "index32"}], flat = true, index_bits = 32 : i64, name = "mixed", tail = true, unroll = 1 : i64, vector_width = 8 : i64},
// CHECK-SAME: {conditions = [], flat = false, index_bits = 64 : i64, name = "scalar", tail = false, unroll = 1 : i64, vector_width = 1 : i64}]}
// OPTS-LABEL: func.func private @tanh_dyn
// OPTS-SAME: name = "scalar", tail = false, unroll = 3 : i64, vector_width = 1 : i64}]}
func.func private @tanh_dyn(%a: tensor<?xbf16> {fuser.strides = array<i64: 1>}) -> (tensor<?xbf16> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.tanh"(%a) : (tensor<?xbf16>) -> tensor<?xf32>
  %1 = "fuser.cast"(%0) {dtype = bf16} : (tensor<?xf32>) -> tensor<?xbf16>
  func.return %1 : tensor<?xbf16>
}

// -----

// The same tanh with a static size below the GPU's fill: unroll 1, no points variant.
// CHECK-LABEL: func.func private @tanh_small
// CHECK-SAME: variants = [{conditions = [{arg = 0 : i64, bytes = 16 : i64, kind = "align"}, {bytes = 16 : i64, kind = "align", result = 0 : i64}], flat = true, index_bits = 32 : i64, name = "vector", tail = false, unroll = 1 : i64, vector_width = 8 : i64},
// CHECK-SAME: name = "mixed"
// CHECK-NOT: name = "scalar"
func.func private @tanh_small(%a: tensor<4096xbf16> {fuser.strides = array<i64: 1>}) -> (tensor<4096xbf16> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.tanh"(%a) : (tensor<4096xbf16>) -> tensor<4096xf32>
  %1 = "fuser.cast"(%0) {dtype = bf16} : (tensor<4096xf32>) -> tensor<4096xbf16>
  func.return %1 : tensor<4096xbf16>
}
