// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels)' | FileCheck %s --check-prefix=LOOPS
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels{target=cpu})' | FileCheck %s --check-prefix=CPU
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels, fuser-kernels-to-gpu)' | FileCheck %s --check-prefix=GPU
// The row schedules' code (lowering/row_gen.h) at the loop level, in the GPU
// form and the CPU form, and as gpu.func.

// RMSNorm of 64 rows of 1024 bf16: 64 threads per row, 2 vectors each held
// in registers, 2 rows per block of 128; the row read once (two 16-byte
// loads of x per thread). 32 blocks, one partial wave (`prefetch`): the
// weight's two loads right after x's, before the reduction, none in the
// epilogue.
// LOOPS-LABEL: func.func @rms_k0__persistent(
// LOOPS-SAME: %arg3: memref<4xf32, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.block_size = 128 : i64
// LOOPS-SAME: fuser.row_grid = {dims = 1 : i64, first = 0 : i64, rows_per_block = 2 : i64, tensor = 2 : i64}
// LOOPS-SAME: fuser.row_kernel
// LOOPS-SAME: fuser.unroll = 2 : i64
// LOOPS-SAME: fuser.variant = "persistent"
// LOOPS-SAME: fuser.vector_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {arg = 1 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}]
// LOOPS: gpu.thread_id x
// LOOPS-COUNT-2: vector.load %reinterpret_cast[{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-COUNT-2: vector.load %reinterpret_cast_{{[0-9]+}}[{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-NOT: vector.load
// The thread's partial: a fixed pairwise tree over the 8 lanes, no reassociation left to LLVM.
// LOOPS-COUNT-8: vector.extract
// LOOPS-NOT: vector.reduction
// The warp butterfly, a shared-memory slot per warp, one barrier, the row's two warps.
// LOOPS: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// LOOPS: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// LOOPS: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// LOOPS: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// LOOPS: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// LOOPS: memref.store %{{.*}}, %arg3[%{{.*}}] : memref<4xf32, #gpu.address_space<workgroup>>
// LOOPS: gpu.barrier
// LOOPS: memref.load %arg3
// LOOPS: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// LOOPS-NOT: gpu.barrier
// The epilogue from the registers: no loads.
// LOOPS: math.rsqrt
// LOOPS-NOT: vector.load
// LOOPS-COUNT-2: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// Then the variant without conditions: width 1, 512 threads striding over the row.
// LOOPS-LABEL: func.func @rms_k0__looped_scalar(
// LOOPS-SAME: memref<16xf32, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.vector_conditions = []
// LOOPS: scf.for
// LOOPS: vector.load %{{.*}} : memref<?xbf16>, vector<1xbf16>

// The CPU form: blocks in scf.parallel, threads in scf.for, the partials in
// a memref.alloc (freed at the block's end) and the same butterflies replayed (32-lane warps, then
// across the row's warps); no gpu ops.
// CPU-LABEL: func.func @rms_k0__persistent(
// CPU-NOT: gpu.
// CPU: scf.parallel
// CPU: memref.alloc() : memref<128xf32>
// CPU: scf.for %{{.*}} = %c0 to %c128 step %c1
// CPU: scf.for %{{.*}} = %c0 to %c16 step %c1
// CPU-NOT: gpu.
// CPU: math.rsqrt
// CPU-LABEL: func.func @rms_k0__looped_scalar(

// The gpu.func: workgroup attributions, the block size known, the launch record.
// GPU: fuser.launches = [{{{.*}}entry = @fuser_kernels_i64::@rms_k0__persistent{{.*}}row_grid = {dims = 1 : i64, first = 0 : i64, rows_per_block = 2 : i64, tensor = 2 : i64}
// GPU: gpu.func @rms_k0__persistent(%arg0: memref<1xbf16>, %arg1: memref<1xbf16>, %arg2: memref<1xbf16>) workgroup(%arg3 : memref<4xf32, #gpu.address_space<workgroup>>) kernel
// GPU-SAME: known_block_size = array<i32: 128, 1, 1>
// GPU: gpu.func @rms_k0__looped_scalar(%arg0: memref<1xbf16>, %arg1: memref<1xbf16>, %arg2: memref<1xbf16>) workgroup(%arg3 : memref<16xf32, #gpu.address_space<workgroup>>) kernel
// GPU-SAME: known_block_size = array<i32: 512, 1, 1>
func.func private @rms_k0(%arg0: tensor<64x1024xbf16> {fuser.strides = array<i64: 1024, 1>}, %arg1: tensor<64x1024xbf16> {fuser.strides = array<i64: 0, 1>}) -> (tensor<64x1024xbf16> {fuser.strides = array<i64: 1024, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<64x1024xbf16>) -> tensor<64x1024xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<64x1024xf32>) -> tensor<64xf32>
  %3 = "fuser.broadcast_in_dim"(%2) {broadcast_dims = array<i64: 0>} : (tensor<64xf32>) -> tensor<64x1xf32>
  %4 = "fuser.rsqrt"(%3) : (tensor<64x1xf32>) -> tensor<64x1xf32>
  %5 = "fuser.broadcast_in_dim"(%4) {broadcast_dims = array<i64: 0, 1>} : (tensor<64x1xf32>) -> tensor<64x1024xf32>
  %6 = "fuser.mul"(%0, %5) : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %7 = "fuser.cast"(%arg1) : (tensor<64x1024xbf16>) -> tensor<64x1024xf32>
  %8 = "fuser.mul"(%6, %7) : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %9 = "fuser.cast"(%8) : (tensor<64x1024xf32>) -> tensor<64x1024xbf16>
  return %9 : tensor<64x1024xbf16>
}

// -----

// The weight a [1024] vector broadcast to the rows (rmsnorm_small's form).
// 256 rows, 128 blocks: prefetched through the broadcast, 4 loads before
// the barrier. 266 rows, 133 blocks (more than the 132 SMs): no prefetch,
// x's 2 loads before the barrier and the weight's 2 in the epilogue.
// LOOPS-LABEL: func.func @rms_w_k0__persistent(
// LOOPS-COUNT-4: vector.load
// LOOPS-NOT: vector.load
// LOOPS: gpu.barrier
// LOOPS-NOT: vector.load
// LOOPS: vector.store
// LOOPS-LABEL: func.func @rms_w_k0__looped_scalar(
// LOOPS-LABEL: func.func @rms_w133_k0__persistent(
// LOOPS-COUNT-2: vector.load
// LOOPS-NOT: vector.load
// LOOPS: gpu.barrier
// LOOPS: math.rsqrt
// LOOPS: vector.load
// LOOPS: vector.store
// LOOPS: vector.load
// LOOPS: vector.store
// LOOPS-LABEL: func.func @rms_w133_k0__looped_scalar(
func.func private @rms_w_k0(%arg0: tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}, %arg1: tensor<1024xbf16> {fuser.strides = array<i64: 1>}) -> (tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
  %3 = "fuser.broadcast_in_dim"(%2) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1024xf32>
  %4 = "fuser.rsqrt"(%3) : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %5 = "fuser.mul"(%0, %4) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %6 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 1>} : (tensor<1024xbf16>) -> tensor<256x1024xbf16>
  %7 = "fuser.cast"(%6) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %8 = "fuser.mul"(%5, %7) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %9 = "fuser.cast"(%8) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
  return %9 : tensor<256x1024xbf16>
}
func.func private @rms_w133_k0(%arg0: tensor<266x1024xbf16> {fuser.strides = array<i64: 1024, 1>}, %arg1: tensor<1024xbf16> {fuser.strides = array<i64: 1>}) -> (tensor<266x1024xbf16> {fuser.strides = array<i64: 1024, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<266x1024xbf16>) -> tensor<266x1024xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<266x1024xf32>, tensor<266x1024xf32>) -> tensor<266x1024xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<266x1024xf32>) -> tensor<266xf32>
  %3 = "fuser.broadcast_in_dim"(%2) {broadcast_dims = array<i64: 0>} : (tensor<266xf32>) -> tensor<266x1024xf32>
  %4 = "fuser.rsqrt"(%3) : (tensor<266x1024xf32>) -> tensor<266x1024xf32>
  %5 = "fuser.mul"(%0, %4) : (tensor<266x1024xf32>, tensor<266x1024xf32>) -> tensor<266x1024xf32>
  %6 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 1>} : (tensor<1024xbf16>) -> tensor<266x1024xbf16>
  %7 = "fuser.cast"(%6) : (tensor<266x1024xbf16>) -> tensor<266x1024xf32>
  %8 = "fuser.mul"(%5, %7) : (tensor<266x1024xf32>, tensor<266x1024xf32>) -> tensor<266x1024xf32>
  %9 = "fuser.cast"(%8) : (tensor<266x1024xf32>) -> tensor<266x1024xbf16>
  return %9 : tensor<266x1024xbf16>
}

// -----

// Softmax over rows of 1000 (125 vectors; 64 threads x 2 = 128 slots): the
// last chunk is ragged (masked: the neutral element, no store), two
// reductions on two buffers (no write-after-read barrier), the division by
// the row sum a multiplication by its reciprocal.
// LOOPS-LABEL: func.func @sm_k0__persistent(
// LOOPS-SAME: %arg2: memref<4xf32, #gpu.address_space<workgroup>>, %arg3: memref<4xf32, #gpu.address_space<workgroup>>
// LOOPS: arith.cmpi ult
// LOOPS: arith.maximumf
// LOOPS: gpu.barrier
// LOOPS: math.exp
// LOOPS: gpu.barrier
// LOOPS: arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// LOOPS: arith.mulf
// LOOPS-NOT: arith.divf
// LOOPS: scf.if
// LOOPS: vector.store
// LOOPS-NOT: arith.divf
// LOOPS-LABEL: func.func @sm_k0__looped_scalar(
// CPU-LABEL: func.func @sm_k0__persistent(
// CPU-COUNT-2: memref.alloc() : memref<128xf32>
func.func private @sm_k0(%arg0: tensor<256x1000xbf16> {fuser.strides = array<i64: 1000, 1>}) -> (tensor<256x1000xbf16> {fuser.strides = array<i64: 1000, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<256x1000xbf16>) -> tensor<256x1000xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1000xf32>) -> tensor<256xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1000xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<256x1000xf32>, tensor<256x1000xf32>) -> tensor<256x1000xf32>
  %4 = "fuser.exp"(%3) : (tensor<256x1000xf32>) -> tensor<256x1000xf32>
  %5 = "fuser.sum"(%4) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1000xf32>) -> tensor<256xf32>
  %6 = "fuser.broadcast_in_dim"(%5) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1000xf32>
  %7 = "fuser.div"(%4, %6) : (tensor<256x1000xf32>, tensor<256x1000xf32>) -> tensor<256x1000xf32>
  %8 = "fuser.cast"(%7) : (tensor<256x1000xf32>) -> tensor<256x1000xbf16>
  return %8 : tensor<256x1000xbf16>
}

// -----

// var_mean over rows of symbolic length: looped, two passes (the mean, then
// the squared deviations), var divided by max(0, N - correction); thread 0
// of each row stores. Both passes accumulate in f64 (a mean that cancels
// stays exact), the results round once to f32. The bf16 rows are read 8
// wide (the results, one value per row, are stored alone: no alignment
// condition on them). First a warp per row, 8 rows per block, when there
// are many rows (a `points` condition on result 0): warp butterflies only
// (5 steps, two 32-bit halves of each f64), no shared memory, no barrier.
// LOOPS-LABEL: func.func @vm_k0__looped_warp(
// LOOPS-SAME: fuser.block_size = 256 : i64
// LOOPS-SAME: fuser.row_grid = {dims = 1 : i64, first = 0 : i64, rows_per_block = 8 : i64, tensor = 0 : i64}
// LOOPS-SAME: fuser.vector_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {stride = {arg = 0 : i64, dim = 0 : i64, multiple = 8 : i64}}, {extent = {arg = 0 : i64, dim = 1 : i64, multiple = 8 : i64}}, {points = {at_least = 2112 : i64, result = 0 : i64}}]
// LOOPS-SAME: fuser.workgroup_buffers = 0 : i64
// LOOPS: scf.for {{.*}} step %c256 iter_args({{.*}}) -> (vector<8xf64>)
// LOOPS: arith.extf {{.*}} : vector<8xbf16> to vector<8xf32>
// LOOPS-NEXT: arith.extf {{.*}} : vector<8xf32> to vector<8xf64>
// LOOPS-COUNT-10: gpu.shuffle  xor
// LOOPS-NOT: gpu.barrier
// LOOPS-LABEL: func.func @vm_k0__looped(
// LOOPS-SAME: memref<16xf64, #gpu.address_space<workgroup>>, %{{.*}}: memref<16xf64, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.vector_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {stride = {arg = 0 : i64, dim = 0 : i64, multiple = 8 : i64}}, {extent = {arg = 0 : i64, dim = 1 : i64, multiple = 8 : i64}}]
// LOOPS: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf64>)
// LOOPS: arith.extf {{.*}} : vector<8xf32> to vector<8xf64>
// LOOPS: gpu.barrier
// LOOPS: arith.divf {{.*}} : f64
// LOOPS: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf64>)
// LOOPS: arith.subf {{.*}} : vector<8xf64>
// LOOPS: gpu.barrier
// LOOPS: arith.maxsi
// LOOPS: arith.andi
// LOOPS: arith.truncf {{.*}} : vector<8xf64> to vector<8xf32>
// LOOPS: memref.store
// LOOPS: memref.store
// GPU: gpu.func @vm_k0__looped({{.*}}) workgroup(%{{.*}} : memref<16xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<16xf64, #gpu.address_space<workgroup>>) kernel
// GPU: arith.bitcast {{.*}} : f64 to i64
// GPU: gpu.shuffle  xor {{.*}} : i32
// GPU: gpu.shuffle  xor {{.*}} : i32
func.func private @vm_k0(%arg0: tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>}) -> (tensor<?xf32> {fuser.strides = array<i64: 1>}, tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1:2 = "fuser.var_mean"(%0) {correction = 1 : i64, dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %1#0, %1#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// The bias gradient (outer): first the wide tile when the kept shape has
// at least 2 x 132 x 16 x 8 points (a run-time `points` condition): 16
// column vectors x 16 row groups (256 threads), 4 rows in flight, a 4-step
// tree; then 4 column vectors per block of 512 threads (128
// row groups), 4 rows in flight, the row groups combined by a 7-step tree
// in shared memory; the rows of the two reduced dims merge under a run-time
// condition; the per-point kernel follows as the fallback.
// LOOPS-LABEL: func.func @bg_k0__columns_wide(
// LOOPS-SAME: memref<2048xf32, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.block_size = 256 : i64
// LOOPS-SAME: fuser.row_grid = {dims = 1 : i64, first = 2 : i64, rows_per_block = 128 : i64, tensor = 0 : i64}
// LOOPS-SAME: {points = {at_least = 33792 : i64, result = 0 : i64}}
// LOOPS: scf.for {{.*}} iter_args
// LOOPS-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS: scf.for {{.*}} iter_args
// LOOPS-COUNT-5: gpu.barrier
// LOOPS-NOT: gpu.barrier
// LOOPS: vector.store
// LOOPS-LABEL: func.func @bg_k0__columns(
// LOOPS-SAME: memref<4096xf32, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.row_grid = {dims = 1 : i64, first = 2 : i64, rows_per_block = 32 : i64, tensor = 0 : i64}
// LOOPS-SAME: {merge = {arg = 0 : i64, dim = 0 : i64, inner = 1 : i64}}
// LOOPS: scf.for {{.*}} iter_args
// LOOPS-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS: scf.for {{.*}} iter_args
// LOOPS-COUNT-8: gpu.barrier
// LOOPS-NOT: gpu.barrier
// LOOPS: arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// LOOPS: vector.store
// LOOPS-LABEL: func.func @bg_k0__scalar(
// CPU-LABEL: func.func @bg_k0__columns_wide(
// CPU: scf.parallel
// CPU: %[[P:.*]] = memref.alloc() : memref<2048xf32>
// CPU: memref.dealloc %[[P]] : memref<2048xf32>
// CPU-NEXT: scf.reduce
// CPU-LABEL: func.func @bg_k0__columns(
// CPU: memref.alloc() : memref<4096xf32>
// GPU: gpu.func @bg_k0__columns_wide({{.*}}) workgroup(%{{.*}} : memref<2048xf32, #gpu.address_space<workgroup>>) kernel
// GPU-SAME: known_block_size = array<i32: 256, 1, 1>
// GPU: gpu.func @bg_k0__columns({{.*}}) workgroup(%{{.*}} : memref<4096xf32, #gpu.address_space<workgroup>>) kernel
// GPU-SAME: known_block_size = array<i32: 512, 1, 1>
func.func private @bg_k0(%arg0: tensor<?x?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, -9223372036854775808, 1>}) -> (tensor<?xbf16> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?x?xbf16>) -> tensor<?x?x?xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?xf32>
  %2 = "fuser.cast"(%1) : (tensor<?xf32>) -> tensor<?xbf16>
  return %2 : tensor<?xbf16>
}

// -----

// A batched outer reduction (the split bias gradient's first stage: [B, S,
// C] summed over S, f32 partials [B, C]): the columns are B x C flattened,
// the grid follows result 0 (the kept shape), each thread splits its flat
// column into the batch index and the column (one divui and remui by C),
// bf16 reads 8 wide, the f32 partials written as vector<8xf32>; the wide
// tile first (its grid: 128 flat columns per block).
// LOOPS-LABEL: func.func @bgs_k0__columns_wide(
// LOOPS-SAME: fuser.row_grid = {dims = 2 : i64, first = 0 : i64, rows_per_block = 128 : i64, tensor = 1 : i64}
// LOOPS-SAME: {points = {at_least = 33792 : i64, result = 0 : i64}}
// LOOPS-LABEL: func.func @bgs_k0__columns(
// LOOPS-SAME: memref<4096xf32, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.row_grid = {dims = 2 : i64, first = 0 : i64, rows_per_block = 32 : i64, tensor = 1 : i64}
// LOOPS-SAME: {align = {bytes = 32 : i64, result = 0 : i64}}
// LOOPS-SAME: {extent = {arg = 0 : i64, dim = 2 : i64, multiple = 8 : i64}}
// LOOPS: %[[F:.*]] = arith.select
// LOOPS-NEXT: %[[B:.*]] = arith.divui %[[F]], %[[C:.*]] : index
// LOOPS-NEXT: arith.remui %[[F]], %[[C]] : index
// LOOPS: scf.for {{.*}} iter_args
// LOOPS: arith.muli %[[B]], %{{.*}} : index
// LOOPS-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS: scf.for {{.*}} iter_args
// LOOPS-COUNT-8: gpu.barrier
// LOOPS-NOT: gpu.barrier
// LOOPS: vector.store %{{.*}} {alignment = 32 : i64} : memref<?xf32>, vector<8xf32>
// LOOPS-LABEL: func.func @bgs_k0__scalar(
// CPU-LABEL: func.func @bgs_k0__columns(
// CPU: scf.parallel
// CPU: memref.alloc() : memref<4096xf32>
// GPU: gpu.func @bgs_k0__columns({{.*}}) workgroup(%{{.*}} : memref<4096xf32, #gpu.address_space<workgroup>>) kernel
// GPU-SAME: known_block_size = array<i32: 512, 1, 1>
func.func private @bgs_k0(%arg0: tensor<?x?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, -9223372036854775808, 1>}) -> (tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?x?xbf16>) -> tensor<?x?x?xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// var_mean over the leading dim (outer): the two passes (mean, then the
// squared deviations) each through the tree; the schedule ends in its own
// width-1 variant without conditions (the per-point kernel has no
// var_mean, so it does not follow).
// Both passes accumulate in f64 (a column mean of values near 0 stays
// exact): the tree buffers, block x 8 f64 each, fit 48 KB with 16 row
// groups (wide) and 64 (narrow: halved from 128, 256 threads).
// LOOPS-LABEL: func.func @vmo_k0__columns_wide(
// LOOPS-SAME: memref<2048xf64, #gpu.address_space<workgroup>>, %{{.*}}: memref<2048xf64, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.block_size = 256 : i64
// LOOPS-LABEL: func.func @vmo_k0__columns(
// LOOPS-SAME: memref<2048xf64, #gpu.address_space<workgroup>>, %{{.*}}: memref<2048xf64, #gpu.address_space<workgroup>>
// LOOPS-SAME: fuser.block_size = 256 : i64
// LOOPS: arith.subf %{{.*}} : vector<8xf64>
// LOOPS: arith.mulf
// LOOPS-LABEL: func.func @vmo_k0__columns_scalar(
// LOOPS-SAME: fuser.vector_conditions = []
// LOOPS-NOT: func.func @vmo_k0__scalar
// CPU-LABEL: func.func @vmo_k0__columns_scalar(
// GPU: gpu.func @vmo_k0__columns_scalar(
// GPU-NOT: gpu.func @vmo_k0__scalar
func.func private @vmo_k0(%arg0: tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>}) -> (tensor<?xf32> {fuser.strides = array<i64: 1>}, tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1:2 = "fuser.var_mean"(%0) {correction = 1 : i64, dims = array<i64: 0>, keepdim = false} : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %1#0, %1#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// The batch-norm first stage: var_mean over the symbolic H and W of NCHW:
// the two reduced dims merge into one row under a run-time `merge`
// condition (stride(2) == stride(3) x size(3)), in both variants.
// LOOPS-LABEL: func.func @bn_k0__looped(
// LOOPS-SAME: {merge = {arg = 0 : i64, dim = 2 : i64, inner = 3 : i64}}
// LOOPS-LABEL: func.func @bn_k0__looped_scalar(
// LOOPS-SAME: fuser.vector_conditions = [{merge = {arg = 0 : i64, dim = 2 : i64, inner = 3 : i64}}]
// GPU: gpu.func @bn_k0__looped(
func.func private @bn_k0(%arg0: tensor<?x?x?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, -9223372036854775808, -9223372036854775808, 1>}) -> (tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}, tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32>
  %1:2 = "fuser.var_mean"(%0) {correction = 0 : i64, dims = array<i64: 2, 3>, keepdim = false} : (tensor<?x?x?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  return %1#0, %1#1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// A row too long for a persistent cluster's registers (524,288 bf16 columns,
// 1 MB, past 8 blocks x 64 KB): the looped cluster variant, 8 blocks of
// 1024 threads per row, each striding over its 65,536-column chunk; after
// the block reduction each block pushes its max into slot [rank] of every
// block's 8-slot buffer (nvvm.mapa + llvm.store to !llvm.ptr<7>), one
// cluster barrier, the slots combined in rank order. The CPU form is the
// looped code over the whole row (one block per row, no cluster ops).
// LOOPS-LABEL: func.func @lr_k0__looped_cluster(
// LOOPS-SAME: %{{.*}}: memref<32xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<8xf32, #gpu.address_space<workgroup>>)
// LOOPS-SAME: fuser.cluster_size = 8 : i64
// LOOPS-SAME: fuser.row_grid = {blocks_per_row = 8 : i64, dims = 1 : i64, first = 0 : i64, rows_per_block = 1 : i64, tensor = 1 : i64}
// LOOPS: %[[RANK:.*]] = arith.remui %{{.*}}, %c8 : index
// LOOPS: %[[ROW:.*]] = arith.divui %{{.*}}, %c8 : index
// LOOPS: %[[LO:.*]] = arith.muli %[[RANK]], %c65536 : index
// LOOPS: %[[HI0:.*]] = arith.addi %[[LO]], %c65536 : index
// LOOPS: %[[HI:.*]] = arith.minui %[[HI0]], %c524288 : index
// LOOPS: nvvm.cluster.arrive.relaxed {aligned}
// LOOPS: scf.for %{{.*}} = %{{.*}} to %[[HI]] step %c8192 iter_args
// LOOPS: gpu.barrier
// LOOPS: nvvm.cluster.wait {aligned}
// LOOPS: memref.extract_aligned_pointer_as_index
// LOOPS: llvm.inttoptr
// LOOPS: nvvm.mapa
// LOOPS: llvm.store {{.*}} : f32, !llvm.ptr<7>
// LOOPS: nvvm.cluster.arrive {aligned}
// LOOPS-NEXT: nvvm.cluster.wait {aligned}
// LOOPS: %[[S0:.*]] = memref.load %{{.*}}[%c0] : memref<8xf32, #gpu.address_space<workgroup>>
// LOOPS: %[[S1:.*]] = memref.load %{{.*}}[%c1] : memref<8xf32, #gpu.address_space<workgroup>>
// LOOPS: arith.maximumf %[[S0]], %[[S1]] : f32
// LOOPS: memref.load %{{.*}}[%c7] : memref<8xf32, #gpu.address_space<workgroup>>
// LOOPS: scf.for %{{.*}} = %{{.*}} to %[[HI]] step %c8192 {
// LOOPS: vector.store
// CPU-LABEL: func.func @lr_k0__looped_cluster(
// CPU-NOT: nvvm
// CPU-NOT: blocks_per_row
// CPU: scf.for %{{.*}} = %{{.*}} to %c524288 step %c8192 iter_args
// GPU: gpu.func @lr_k0__looped_cluster(%arg0: memref<1xbf16>, %arg1: memref<1xbf16>) workgroup(%arg2 : memref<32xf32, #gpu.address_space<workgroup>>, %arg3 : memref<8xf32, #gpu.address_space<workgroup>>) kernel
// GPU-SAME: row_grid = {blocks_per_row = 8 : i64
// GPU-SAME: known_block_size = array<i32: 1024, 1, 1>, known_cluster_size = array<i32: 8, 1, 1>, nvvm.minctasm = 2 : i32
func.func private @lr_k0(%arg0: tensor<8x524288xbf16> {fuser.strides = array<i64: 524288, 1>}) -> (tensor<8x524288xbf16> {fuser.strides = array<i64: 524288, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<8x524288xbf16>) -> tensor<8x524288xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<8x524288xf32>) -> tensor<8xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x524288xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<8x524288xf32>, tensor<8x524288xf32>) -> tensor<8x524288xf32>
  %4 = "fuser.cast"(%3) : (tensor<8x524288xf32>) -> tensor<8x524288xbf16>
  return %4 : tensor<8x524288xbf16>
}

// -----

// Rows of symbolic length: the looped cluster variant (4 blocks per row)
// under a run-time row_length condition (at least 65,536 elements); each
// block's chunk comes from the row length, ceil(N / (4 x 8)) x 8, its end
// clamped to N.
// LOOPS-LABEL: func.func @sc_k0__looped_cluster(
// LOOPS-SAME: fuser.cluster_size = 4 : i64
// LOOPS-SAME: {row_length = {arg = 0 : i64, at_least = 65536 : i64, dim = 1 : i64}}
// LOOPS: %[[N:.*]] = arith.index_cast %arg3 : i64 to index
// LOOPS: %[[RANK:.*]] = arith.remui %block_id_x, %c4 : index
// LOOPS: %[[Q:.*]] = arith.ceildivui %[[N]], %c32 : index
// LOOPS: %[[C:.*]] = arith.muli %[[Q]], %c8 : index
// LOOPS: %[[LO:.*]] = arith.muli %[[RANK]], %[[C]] : index
// LOOPS: %[[HI0:.*]] = arith.addi %[[LO]], %[[C]] : index
// LOOPS: arith.minui %[[HI0]], %[[N]] : index
// LOOPS: nvvm.cluster.arrive.relaxed {aligned}
// LOOPS-LABEL: func.func @sc_k0__looped_warp(
// LOOPS-LABEL: func.func @sc_k0__looped(
// LOOPS-NOT: row_length
// LOOPS-SAME: fuser.variant = "looped"
// GPU: gpu.func @sc_k0__looped_cluster(
// GPU-SAME: known_cluster_size = array<i32: 4, 1, 1>
func.func private @sc_k0(%arg0: tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>}) -> (tensor<?xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// A long row the cluster's blocks hold (65,536 bf16 columns: 2 blocks of
// 1024 threads x 4 vectors, 64 KB each): the persistent cluster variant.
// Block rank r holds the chunk from r x 32,768; each pass loads the
// thread's vectors again after the block barrier (reload: no f32 values held
// across passes, 32 registers, two blocks per SM); the block totals meet
// through distributed shared memory as in the looped cluster. The CPU form
// is the looped code over the whole row.
// LOOPS-LABEL: func.func @pc_k0__persistent_cluster(
// LOOPS-SAME: fuser.cluster_size = 2 : i64
// LOOPS-SAME: fuser.min_blocks_per_sm = 2 : i64
// LOOPS-SAME: fuser.row_grid = {blocks_per_row = 2 : i64, dims = 1 : i64, first = 0 : i64, rows_per_block = 1 : i64, tensor = 1 : i64}
// LOOPS-SAME: fuser.variant = "persistent_cluster"
// LOOPS: %[[RANK:.*]] = arith.remui %{{.*}}, %c2 : index
// LOOPS: %[[LO:.*]] = arith.muli %[[RANK]], %c32768 : index
// LOOPS: arith.addi %[[LO]], %{{.*}} : index
// LOOPS: nvvm.cluster.arrive.relaxed {aligned}
// LOOPS-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-NOT: vector.load
// LOOPS: gpu.barrier
// LOOPS: nvvm.mapa
// LOOPS: nvvm.cluster.arrive {aligned}
// LOOPS-NEXT: nvvm.cluster.wait {aligned}
// LOOPS: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS: vector.store
// CPU-LABEL: func.func @pc_k0__persistent_cluster(
// CPU-NOT: nvvm
// CPU: scf.for %{{.*}} = %{{.*}} to %c65536 step %c8192 iter_args
// GPU: gpu.func @pc_k0__persistent_cluster(
// GPU-SAME: known_block_size = array<i32: 1024, 1, 1>, known_cluster_size = array<i32: 2, 1, 1>, nvvm.minctasm = 2 : i32
func.func private @pc_k0(%arg0: tensor<8x65536xbf16> {fuser.strides = array<i64: 65536, 1>}) -> (tensor<8x65536xbf16> {fuser.strides = array<i64: 65536, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<8x65536xbf16>) -> tensor<8x65536xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<8x65536xf32>) -> tensor<8xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x65536xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<8x65536xf32>, tensor<8x65536xf32>) -> tensor<8x65536xf32>
  %4 = "fuser.cast"(%3) : (tensor<8x65536xf32>) -> tensor<8x65536xbf16>
  return %4 : tensor<8x65536xbf16>
}

// -----

// A row of 32,000 bf16 columns: held, 1024 threads x 4 vectors would keep 32
// f32 values per thread (64 registers, one block per SM: log_softmax ran at
// 70.5% of copy); re-read instead: 512 threads x 8 vectors, every pass and
// the epilogue load them again after the barrier (90.7%).
// LOOPS-LABEL: func.func @rl_k0__persistent(
// LOOPS-SAME: fuser.block_size = 512 : i64
// LOOPS-SAME: fuser.min_blocks_per_sm = 2 : i64
// LOOPS-SAME: fuser.unroll = 8 : i64
// LOOPS-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS-NOT: vector.load
// LOOPS: gpu.barrier
// LOOPS-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// LOOPS: vector.store
// GPU: gpu.func @rl_k0__persistent(
// GPU-SAME: known_block_size = array<i32: 512, 1, 1>, nvvm.minctasm = 2 : i32
func.func private @rl_k0(%arg0: tensor<4x32000xbf16> {fuser.strides = array<i64: 32000, 1>}) -> (tensor<4x32000xbf16> {fuser.strides = array<i64: 32000, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<4x32000xbf16>) -> tensor<4x32000xf32>
  %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<4x32000xf32>) -> tensor<4xf32>
  %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x32000xf32>
  %3 = "fuser.sub"(%0, %2) : (tensor<4x32000xf32>, tensor<4x32000xf32>) -> tensor<4x32000xf32>
  %4 = "fuser.cast"(%3) : (tensor<4x32000xf32>) -> tensor<4x32000xbf16>
  return %4 : tensor<4x32000xbf16>
}

// -----

// var_mean over a long row: the cluster variant, its two f64 phases each
// with a cluster buffer of 4 f64 slots (st.shared::cluster.b64); no
// minctasm cap (its vector<8xf64> partials spilled at 32 registers).
// LOOPS-LABEL: func.func @lvm_k0__looped_cluster(
// LOOPS-SAME: memref<4xf64, #gpu.address_space<workgroup>>, %{{.*}}: memref<4xf64, #gpu.address_space<workgroup>>)
// LOOPS-NOT: fuser.min_blocks_per_sm
// LOOPS: llvm.store {{.*}} : f64, !llvm.ptr<7>
// LOOPS: llvm.store {{.*}} : f64, !llvm.ptr<7>
// GPU: gpu.func @lvm_k0__looped_cluster(
// GPU-SAME: known_block_size = array<i32: 1024, 1, 1>, known_cluster_size = array<i32: 4, 1, 1>} {
func.func private @lvm_k0(%arg0: tensor<4x131072xbf16> {fuser.strides = array<i64: 131072, 1>}) -> (tensor<4xf32> {fuser.strides = array<i64: 1>}, tensor<4xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%arg0) : (tensor<4x131072xbf16>) -> tensor<4x131072xf32>
  %1:2 = "fuser.var_mean"(%0) {correction = 1 : i64, dims = array<i64: 1>, keepdim = false} : (tensor<4x131072xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %1#0, %1#1 : tensor<4xf32>, tensor<4xf32>
}
