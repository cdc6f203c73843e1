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
// CHECK-SAME: fuser.schedule = {pointwise = {block_size = 128 : i64, variants = [
// CHECK-SAME: {conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}], flat = true, index_bits = 32 : i64, name = "vector", tail = false, unroll = 1 : i64, vector_width = 8 : i64},
// CHECK-SAME: {access_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}], conditions = [], flat = true, index_bits = 32 : i64, name = "mixed", tail = false, unroll = 1 : i64, vector_width = 8 : i64}]}
// OPTS-LABEL: func.func private @copy
// OPTS-SAME: fuser.schedule = {pointwise = {block_size = 256 : i64, variants = [
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
// CHECK-SAME: variants = [{conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}, {index32}, {points = {at_least = 8650752 : i64, result = 0 : i64}}], flat = true, index_bits = 32 : i64, name = "vector", tail = true, unroll = 4 : i64, vector_width = 8 : i64},
// CHECK-SAME: {conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}, {index32}], flat = true, index_bits = 32 : i64, name = "vector_u1", tail = true, unroll = 1 : i64, vector_width = 8 : i64},
// CHECK-SAME: {access_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}], conditions = [{index32}], flat = true, index_bits = 32 : i64, name = "mixed", tail = true, unroll = 1 : i64, vector_width = 8 : i64},
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
// CHECK-SAME: variants = [{conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}], flat = true, index_bits = 32 : i64, name = "vector", tail = false, unroll = 1 : i64, vector_width = 8 : i64},
// CHECK-SAME: name = "mixed"
// CHECK-NOT: name = "scalar"
func.func private @tanh_small(%a: tensor<4096xbf16> {fuser.strides = array<i64: 1>}) -> (tensor<4096xbf16> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.tanh"(%a) : (tensor<4096xbf16>) -> tensor<4096xf32>
  %1 = "fuser.cast"(%0) {dtype = bf16} : (tensor<4096xf32>) -> tensor<4096xbf16>
  func.return %1 : tensor<4096xbf16>
}

// -----

// Transposed bool inputs: W = 16, tile 128, a 16 KiB buffer each. Three fit
// a block's 48 KiB of static shared memory and take the tiles.
// CHECK-LABEL: func.func private @three_bool
// CHECK-SAME: fuser.schedule = {transpose = {
// CHECK-SAME: tile = 128 : i64, tile_dim = 0 : i64, tiled = array<i64: 0, 1, 2>
func.func private @three_bool(%a: tensor<?x?xi1> {fuser.strides = array<i64: 1, -9223372036854775808>}, %b: tensor<?x?xi1> {fuser.strides = array<i64: 1, -9223372036854775808>}, %c: tensor<?x?xi1> {fuser.strides = array<i64: 1, -9223372036854775808>}) -> (tensor<?x?xi1> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.logical_and"(%a, %b) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
  %1 = "fuser.logical_and"(%0, %c) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
  func.return %1 : tensor<?x?xi1>
}

// -----

// Four would take 64 KiB (ptxas refused the kernel: "uses too much shared
// data"; the CPU form would put it on the stack): the pointwise schedule.
// CHECK-LABEL: func.func private @four_bool
// CHECK-SAME: fuser.schedule = {pointwise = {
func.func private @four_bool(%a: tensor<?x?xi1> {fuser.strides = array<i64: 1, -9223372036854775808>}, %b: tensor<?x?xi1> {fuser.strides = array<i64: 1, -9223372036854775808>}, %c: tensor<?x?xi1> {fuser.strides = array<i64: 1, -9223372036854775808>}, %d: tensor<?x?xi1> {fuser.strides = array<i64: 1, -9223372036854775808>}) -> (tensor<?x?xi1> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.logical_and"(%a, %b) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
  %1 = "fuser.logical_and"(%c, %d) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
  %2 = "fuser.logical_and"(%0, %1) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
  func.return %2 : tensor<?x?xi1>
}
