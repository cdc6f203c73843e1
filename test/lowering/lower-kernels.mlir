// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels)' | FileCheck %s
// Kernel functions become loop-level functions, one per variant: memref<1xT>
// pointers reinterpreted as flat buffers, an scf.parallel over threads,
// 16-byte vector loads and stores with their alignment stated, f32 math.

// CHECK-LABEL: func.func private @bias_k0
// CHECK-SAME: fuser.kernel
// CHECK-LABEL: func.func @bias_k0__vector(
// CHECK-SAME: %[[A:.*]]: memref<1xbf16>, %[[B:.*]]: memref<1xbf16>, %[[O:.*]]: memref<1xbf16>, %[[S:.*]]: f64)
// CHECK-SAME: fuser.kernel_name = @bias_k0, fuser.loops, fuser.num_args = 3 : i64
// CHECK-SAME: fuser.params = [{ptr = 0 : i64}, {ptr = 1 : i64}, {ptr = 3 : i64}, {scalar = 2 : i64}]
// CHECK-SAME: fuser.unroll = 1 : i64, fuser.variant = "vector"
// CHECK-SAME: fuser.vector_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}
// CHECK-SAME: fuser.vector_width = 8 : i64
// CHECK-DAG: %[[MA:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<1xbf16> to memref<?xbf16>
// CHECK-DAG: %[[MB:.*]] = memref.reinterpret_cast %[[B]]
// CHECK-DAG: %[[MO:.*]] = memref.reinterpret_cast %[[O]]
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: %[[X:.*]] = vector.load %[[MA]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK: %[[Y:.*]] = vector.load %[[MB]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK: arith.extf %[[X]] : vector<8xbf16> to vector<8xf32>
// CHECK: arith.addf %{{.*}} : vector<8xf32>
// CHECK: arith.truncf %[[S]] : f64 to f32
// CHECK: arith.mulf %{{.*}} : vector<8xf32>
// CHECK: %[[R:.*]] = arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: vector.store %[[R]], %[[MO]][%{{.*}}] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// No tail: 8 x 32 is a multiple of 8.
// CHECK-NOT: memref.load
// The mixed variant: the three align conditions move into the kernel, none
// is left at launch, so it is the last variant (no scalar one). Each load is
// issued as the pair a shifted load takes (kernel_gen_shift.c): the aligned
// block at the vector (its own vector where the tensor is aligned) and, only
// where the vector is misaligned, the block after it, both clamped into the
// tensor's span so that no branch on data comes between loads. Then it
// branches on its tensor's check: the first load, or the pair shifted by the
// vector's misalignment (or, the pair leaving the tensor's span, element
// loads). The store branches on the output's own check.
// CHECK-LABEL: func.func @bias_k0__mixed(
// CHECK-SAME: fuser.access_conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {arg = 1 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}]
// CHECK-SAME: fuser.variant = "mixed", fuser.vector_conditions = [], fuser.vector_width = 8 : i64
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[LOW:.*]] = arith.andi %[[P]], %c15
// CHECK: %[[OKA:.*]] = arith.cmpi eq, %[[LOW]], %c0
// CHECK: %[[PO:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK: %[[LOWO:.*]] = arith.andi %[[PO]], %c15
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[LOWO]], %c0
// CHECK: scf.parallel
// CHECK: %[[MIS:.*]] = arith.andi %{{.*}}, %c7 : index
// CHECK: %[[A0:.*]] = arith.subi %{{.*}}, %[[MIS]] : index
// CHECK: %[[C0:.*]] = arith.minsi %{{.*}} : index
// CHECK: %[[C1:.*]] = arith.minsi %{{.*}} : index
// CHECK: %[[SH:.*]] = arith.cmpi ne, %[[MIS]], %c0 : index
// CHECK: %[[V0:.*]] = scf.if %{{.*}} -> (vector<8xbf16>) {
// CHECK:   vector.load %{{.*}}[%[[C0]]] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK: %[[SECOND:.*]] = arith.andi %{{.*}}, %[[SH]] : i1
// CHECK: %[[V1:.*]] = scf.if %[[SECOND]] -> (vector<8xbf16>) {
// CHECK:   vector.load %{{.*}}[%[[C1]]] {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK: scf.if %[[OKA]] -> (vector<8xbf16>) {
// CHECK:   scf.yield %[[V0]] : vector<8xbf16>
// CHECK: } else {
// CHECK:   vector.bitcast %[[V0]]
// CHECK:   vector.bitcast %[[V1]]
// CHECK:   scf.if %{{.*}} -> (vector<8xbf16>) {
// CHECK:   } else {
// CHECK-COUNT-8: memref.load %{{.*}} : memref<?xbf16>
// CHECK: vector.from_elements
// CHECK: scf.if %[[OK]] {
// CHECK:   vector.store %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK: } else {
// CHECK-COUNT-8: memref.store %{{.*}} : memref<?xbf16>
// CHECK-NOT: func.func @bias_k0__scalar(
func.func private @bias_k0(%a: tensor<8x32xbf16> {fuser.strides = array<i64: 40, 1>},
                           %b: tensor<32xbf16> {fuser.strides = array<i64: 1>},
                           %s: f64)
    -> (tensor<8x32xbf16> {fuser.strides = array<i64: 32, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.broadcast_in_dim"(%b) {broadcast_dims = array<i64: 1>} : (tensor<32xbf16>) -> tensor<8x32xbf16>
  %1 = "fuser.add"(%a, %0) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xf32>
  %2 = "fuser.mul"(%1, %s) : (tensor<8x32xf32>, f64) -> tensor<8x32xf32>
  %3 = "fuser.cast"(%2) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
  func.return %3 : tensor<8x32xbf16>
}

// -----

// A fully contiguous odd-sized space: vectors of 8 over the flattened space
// and a grid-stride scalar tail for the last 999 * 1003 mod 8 elements.
// CHECK-LABEL: func.func @odd_k0__vector(
// CHECK-SAME: fuser.vector_width = 8 : i64
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: vector.load
// CHECK: vector.store
// CHECK: %[[START:.*]] = arith.addi %{{.*}}, %[[T]] : index
// CHECK: scf.for %{{.*}} = %[[START]] to %{{.*}} step
// CHECK: memref.load
// CHECK: memref.store
func.func private @odd_k0(%a: tensor<999x1003xbf16> {fuser.strides = array<i64: 1003, 1>})
    -> (tensor<999x1003xbf16> {fuser.strides = array<i64: 1003, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<999x1003xbf16>) -> tensor<999x1003xf32>
  %1 = "fuser.cast"(%0) : (tensor<999x1003xf32>) -> tensor<999x1003xbf16>
  func.return %1 : tensor<999x1003xbf16>
}

// -----

// cat on the inner dim: a whole-vector scf.if per side, never an
// out-of-bounds load; the right side is read at index - 16.
// CHECK-LABEL: func.func @cat_k0__vector(
// CHECK: %[[P:.*]] = arith.cmpi slt, %[[I:.*]], %[[C16:.*]] : index
// CHECK: scf.if %[[P]] -> (vector<8xbf16>) {
// CHECK:   vector.load
// CHECK: } else {
// CHECK:   arith.subi %[[I]], %[[C16]] : index
// CHECK:   vector.load
// CHECK: }
func.func private @cat_k0(%a: tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>},
                          %b: tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>})
    -> (tensor<64x32xbf16> {fuser.strides = array<i64: 32, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cat"(%a, %b) {dim = 1 : i64} : (tensor<64x16xbf16>, tensor<64x16xbf16>) -> tensor<64x32xbf16>
  func.return %0 : tensor<64x32xbf16>
}

// -----

// Symbolic sizes and strides are i64 parameters (the same list for both
// variants), cast to index, in the prologue. The input's inner
// stride of 3 is gathered lane by lane; the output is stored as a vector of 4.
// The vector variant has 32-bit index math under the index32 condition; the
// scalar variant, without conditions, uses 64-bit index math.
// CHECK-LABEL: func.func @dyn_k0__vector(
// CHECK-SAME: %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xf32>, %[[N0:.*]]: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-SAME: fuser.index_bits = 32 : i64
// CHECK-SAME: fuser.params = [{ptr = 0 : i64}, {ptr = 1 : i64}, {size = array<i64: 0, 0>}, {size = array<i64: 0, 1>}, {stride = array<i64: 0, 0>}, {size = array<i64: 1, 0>}, {size = array<i64: 1, 1>}, {stride = array<i64: 1, 0>}]
// CHECK-SAME: {index32}
// CHECK: arith.index_cast %[[N0]] : i64 to index
// CHECK-COUNT-4: memref.load %{{.*}} : memref<?xf32>
// CHECK: vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: math.exp %{{.*}} : vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-LABEL: func.func @dyn_k0__scalar(
// CHECK-SAME: fuser.index_bits = 64 : i64
// CHECK: math.exp %{{.*}} : f32
func.func private @dyn_k0(%a: tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 3>})
    -> (tensor<?x?xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.exp"(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// A reduction without a row schedule (a middle dim): a loop over the
// reduced dim per output point, f32 accumulation. (Inner and outer
// reductions: test/lowering/row-kernels.mlir.)
// CHECK-LABEL: func.func @sum_k0__scalar(
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:   memref.load %{{.*}} : memref<?xbf16>
// CHECK:   arith.addf %{{.*}} : f32
// CHECK:   scf.yield %{{.*}} : f32
func.func private @sum_k0(%a: tensor<4x37x2xbf16> {fuser.strides = array<i64: 74, 2, 1>})
    -> (tensor<4x2xf32> {fuser.strides = array<i64: 2, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x37x2xbf16>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

// `?` sizes, contiguous: fuser-vectorize merges both dims under run-time
// `merge` conditions (one flattened group), so the vector variant indexes
// every access by the flat point index: no division or remainder per
// thread. The `rows` variant (dims kept apart) delinearizes.
// CHECK-LABEL: func.func @flat_k0__vector(
// CHECK-SAME: {merge = {
// CHECK: scf.parallel
// CHECK-NOT: arith.remui
// CHECK: vector.load
// CHECK-NOT: arith.remui
// CHECK: vector.store
// CHECK-LABEL: func.func @flat_k0__rows(
// CHECK: scf.parallel
// CHECK: arith.remui
// CHECK: arith.divui
// CHECK: vector.load
func.func private @flat_k0(%a: tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>})
    -> (tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1 = "fuser.cast"(%0) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
  func.return %1 : tensor<?x?xbf16>
}

// -----

// No unroll given: chosen per kernel from its arithmetic per byte moved.
// tanh (~17 instructions per element) over 4 bytes in and out is
// compute-bound: 4 vectors per thread, when the unrolled threads still fill
// the GPU (132 x 2048 threads x 4 vectors x 8 lanes = 8650752 points): a
// static 4096 x 4096 space does; the bias kernel above (add, mul) keeps 1.
// CHECK-LABEL: func.func @tanh_k0__vector(
// CHECK-SAME: fuser.unroll = 4 : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK-NOT: func.func @tanh_k0__vector_u1
func.func private @tanh_k0(%a: tensor<4096x4096xbf16> {fuser.strides = array<i64: 4096, 1>})
    -> (tensor<4096x4096xbf16> {fuser.strides = array<i64: 4096, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.tanh"(%a) : (tensor<4096x4096xbf16>) -> tensor<4096x4096xf32>
  %1 = "fuser.cast"(%0) : (tensor<4096x4096xf32>) -> tensor<4096x4096xbf16>
  func.return %1 : tensor<4096x4096xbf16>
}

// -----

// A small static space would leave the GPU idle with 4 vectors per thread: 1.
// CHECK-LABEL: func.func @tanh_small_k0__vector(
// CHECK-SAME: fuser.unroll = 1 : i64
// CHECK-NOT: func.func @tanh_small_k0__vector_u1
func.func private @tanh_small_k0(%a: tensor<64x64xbf16> {fuser.strides = array<i64: 64, 1>})
    -> (tensor<64x64xbf16> {fuser.strides = array<i64: 64, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.tanh"(%a) : (tensor<64x64xbf16>) -> tensor<64x64xf32>
  %1 = "fuser.cast"(%0) : (tensor<64x64xf32>) -> tensor<64x64xbf16>
  func.return %1 : tensor<64x64xbf16>
}

// -----

// `?` sizes: the unrolled vector variant under a `points` condition on the
// result (the iteration space), then the same variant with unroll 1.
// CHECK-LABEL: func.func @tanh_dyn_k0__vector(
// CHECK-SAME: fuser.unroll = 4 : i64
// CHECK-SAME: {points = {at_least = 8650752 : i64, result = 0 : i64}}
// CHECK-LABEL: func.func @tanh_dyn_k0__vector_u1(
// CHECK-SAME: fuser.unroll = 1 : i64
// CHECK-NOT: {points = {
// CHECK-LABEL: func.func @tanh_dyn_k0__rows(
// CHECK-SAME: fuser.unroll = 1 : i64
func.func private @tanh_dyn_k0(%a: tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>})
    -> (tensor<?x?xbf16> {fuser.strides = array<i64: -9223372036854775808, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.tanh"(%a) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
  %1 = "fuser.cast"(%0) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
  func.return %1 : tensor<?x?xbf16>
}

// -----

// swiglu's form, silu(x) * y: the vector variant issues the point's loads
// first, y's before x's sigmoid (issued after it, the load waited behind
// rcp.rn.f32's slow-path branches in ptxas: two memory round trips).
// CHECK-LABEL: func.func @swiglu_k0__vector(
// CHECK: scf.parallel
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK-NEXT: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: vector.load
// CHECK: vector.store
func.func private @swiglu_k0(%x: tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}, %y: tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}) -> (tensor<256x1024xbf16> {fuser.strides = array<i64: 1024, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.cast"(%x) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %1 = "fuser.sigmoid"(%0) : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %2 = "fuser.mul"(%0, %1) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %3 = "fuser.cast"(%y) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %4 = "fuser.mul"(%2, %3) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %5 = "fuser.cast"(%4) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
  return %5 : tensor<256x1024xbf16>
}
