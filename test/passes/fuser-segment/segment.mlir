// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(fuser-remove-empty, fuser-alias-meta-ops, fuser-allocation-order, fuser-segment)' | FileCheck %s

// fuser-segment's phases (docs/passes.md), each covered here:
// - passes/segment_roots.c, the cut rules: segment_set, fusion outputs, a
//   reduction kept in its row space (rmsnorm, softmax, bias_grad, the
//   middle-dim cases) and a value computed once for kernels of different
//   shapes (shared_chain);
// - passes/segment_group.c, roots grouped into kernels: two outputs of one
//   shape share a kernel (outputs);
// - passes/segment_cone.c, a kernel's ops and globals: slice_pointwise_cat's
//   slices, pointwise ops and cat in one kernel;
// - passes/segment_outline.c, the kernel functions, their strides and the
//   calls: strides, and every call's operands and fuser.cuts.

// A pure-view fusion makes no kernel: its output is an alias.
// CHECK-LABEL: func.func @pure_view
// CHECK-SAME: fuser.alias_of = 0
// CHECK-SAME: fuser.plan
// CHECK-NOT: call
// CHECK: return
// CHECK-NOT: fuser.kernel
func.func @pure_view(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {fuser.fusion} {
  %0 = "fuser.permute"(%arg0) {dims = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// segment_set on a computed tensor materializes it: two kernels, and the
// boundary says why.
// CHECK-LABEL: func.func @segment_set
// CHECK: %[[A:.*]] = call @segment_set_k0(%arg0) {fuser.cuts = ["segment_set materializes a computed tensor"]}
// CHECK: %[[B:.*]] = call @segment_set_k1(%[[A]]) {fuser.cuts = ["fusion output"]}
// CHECK: return %[[B]]
// CHECK: func.func private @segment_set_k0(%arg0: tensor<8xf32> {fuser.strides = array<i64: 1>}) -> (tensor<8xf32> {fuser.strides = array<i64: 1>}) attributes {fuser.kernel}
// CHECK-NEXT: "fuser.neg"
// CHECK-NEXT: "fuser.segment_set"
// CHECK: func.func private @segment_set_k1
// CHECK-NEXT: "fuser.exp"
func.func @segment_set(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "fuser.segment_set"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "fuser.exp"(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// segment_set of an input view is only a view: no boundary.
// CHECK-LABEL: func.func @segment_set_of_input
// CHECK-COUNT-1: call @
// CHECK-NOT: call @
func.func @segment_set_of_input(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
  %0 = "fuser.segment_set"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "fuser.exp"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// slice -> pointwise -> cat of computed tensors: one kernel (no forced
// boundary before resize ops, unlike nvFuser #1597 and #2599).
// CHECK-LABEL: func.func @slice_pointwise_cat
// CHECK-COUNT-1: call @slice_pointwise_cat_k0
// CHECK-NOT: call @
// CHECK: func.func private @slice_pointwise_cat_k0
// CHECK-SAME: attributes {fuser.kernel}
// CHECK: "fuser.slice"
// CHECK: "fuser.slice"
// CHECK: "fuser.cat"
func.func @slice_pointwise_cat(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {fuser.fusion} {
  %0 = "fuser.exp"(%arg0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = "fuser.slice"(%0) {start_indices = array<i64: 0, 0>, end_indices = array<i64: 4, 8>, strides = array<i64: 1, 1>} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %2 = "fuser.slice"(%0) {start_indices = array<i64: 0, 8>, end_indices = array<i64: 4, 16>, strides = array<i64: 1, 1>} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %3 = "fuser.neg"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = "fuser.cat"(%3, %1) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// RMSNorm: the row sum is broadcast back over its row (the reduction's row
// space): the reduction, the broadcast and the epilogue are one kernel (the
// inner-persistent schedule keeps the row in registers). The weight
// broadcast is read in place.
// CHECK-LABEL: func.func @rmsnorm
// CHECK: call @rmsnorm_k0(%arg0, %{{.*}}) {fuser.cuts = ["fusion output"]} : (tensor<256x1024xbf16>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
// CHECK-NOT: call @
// CHECK: func.func private @rmsnorm_k0
// CHECK: "fuser.sum"
// CHECK: "fuser.div"
// CHECK: "fuser.rsqrt"
func.func @rmsnorm(%arg0: tensor<256x1024xbf16>, %arg1: tensor<1024xbf16>) -> tensor<256x1024xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %1 = "fuser.mul"(%0, %0) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<256xf32>
  %s = "fuser.scalar"() {value = 1.024000e+03 : f64} : () -> f64
  %3 = "fuser.div"(%2, %s) : (tensor<256xf32>, f64) -> tensor<256xf32>
  %4 = "fuser.broadcast_in_dim"(%3) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1xf32>
  %e = "fuser.scalar"() {value = 9.9999999999999995E-7 : f64} : () -> f64
  %5 = "fuser.add"(%4, %e) : (tensor<256x1xf32>, f64) -> tensor<256x1xf32>
  %6 = "fuser.rsqrt"(%5) : (tensor<256x1xf32>) -> tensor<256x1xf32>
  %7 = "fuser.broadcast_in_dim"(%6) {broadcast_dims = array<i64: 0, 1>} : (tensor<256x1xf32>) -> tensor<256x1024xf32>
  %8 = "fuser.mul"(%0, %7) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %9 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 1>} : (tensor<1024xbf16>) -> tensor<256x1024xbf16>
  %10 = "fuser.cast"(%9) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
  %11 = "fuser.mul"(%8, %10) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %12 = "fuser.cast"(%11) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
  return %12 : tensor<256x1024xbf16>
}

// -----

// Softmax: the row max and the row sum reduce the same rows and are
// broadcast back over them: one kernel.
// CHECK-LABEL: func.func @softmax
// CHECK: call @softmax_k0(%arg0) {fuser.cuts = ["fusion output"]}
// CHECK-NOT: call @
func.func @softmax(%arg0: tensor<256x1000xf32>) -> tensor<256x1000xf32> attributes {fuser.fusion} {
  %0 = "fuser.max"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1000xf32>) -> tensor<256xf32>
  %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1000xf32>
  %2 = "fuser.sub"(%arg0, %1) : (tensor<256x1000xf32>, tensor<256x1000xf32>) -> tensor<256x1000xf32>
  %3 = "fuser.exp"(%2) : (tensor<256x1000xf32>) -> tensor<256x1000xf32>
  %4 = "fuser.sum"(%3) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1000xf32>) -> tensor<256xf32>
  %5 = "fuser.broadcast_in_dim"(%4) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1000xf32>
  %6 = "fuser.div"(%3, %5) : (tensor<256x1000xf32>, tensor<256x1000xf32>) -> tensor<256x1000xf32>
  return %6 : tensor<256x1000xf32>
}

// -----

// An outer reduction with a cast after it is one kernel: the cast is at the
// reduction's shape.
// CHECK-LABEL: func.func @bias_grad
// CHECK-COUNT-1: call @
// CHECK-NOT: call @
func.func @bias_grad(%arg0: tensor<4x256x1024xbf16>) -> tensor<1024xbf16> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<4x256x1024xbf16>) -> tensor<4x256x1024xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x256x1024xf32>) -> tensor<1024xf32>
  %2 = "fuser.cast"(%1) : (tensor<1024xf32>) -> tensor<1024xbf16>
  return %2 : tensor<1024xbf16>
}

// -----

// Two outputs of one shape share a kernel; an output of another shape gets
// its own.
// CHECK-LABEL: func.func @outputs
// CHECK: %[[K0:.*]]:2 = call @outputs_k0(%arg0) {fuser.cuts = ["fusion output", "fusion output"]}
// CHECK: %[[K1:.*]] = call @outputs_k1(%arg0) {fuser.cuts = ["fusion output"]}
// CHECK: return %[[K0]]#0, %[[K0]]#1, %[[K1]]
func.func @outputs(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Kernel arguments carry the strides the kernel reads with: a view's static
// strides, a non-contiguous input's run-time stride (kDynamic), and results
// dense in their allocation order.
// CHECK-LABEL: func.func private @strides_k0
// CHECK-SAME: %arg0: tensor<4x8xf32> {fuser.strides = array<i64: -9223372036854775808, 1>}
// CHECK-SAME: %arg1: tensor<4x8xf32> {fuser.strides = array<i64: 0, 1>}
// CHECK-SAME: -> (tensor<4x8xf32> {fuser.strides = array<i64: 8, 1>})
func.func @strides(%arg0: tensor<4x8xf32> {fuser.contiguity = array<i64: 0, 1>, fuser.stride_order = array<i64: 1, 0>},
                   %arg1: tensor<8xf32>) -> tensor<4x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.add"(%arg0, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// An expensive value (here more than 8 ops) needed by kernels of different
// shapes is computed once and materialized, not recomputed in each.
// (The row sum is also an output: a kernel of shape [4] beside the [4, 8] one.)
// CHECK-LABEL: func.func @shared_chain
// CHECK: %[[X:.*]] = call @shared_chain_k0(%arg0) {fuser.cuts = ["computed once for kernels of different shapes"]}
// CHECK: call @shared_chain_k1(%[[X]])
// CHECK: call @shared_chain_k2(%[[X]], %{{.*}})
func.func @shared_chain(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) attributes {fuser.fusion} {
  %0 = "fuser.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.tanh"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "fuser.exp"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "fuser.tanh"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = "fuser.exp"(%3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = "fuser.tanh"(%4) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = "fuser.exp"(%5) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = "fuser.tanh"(%6) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = "fuser.exp"(%7) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %9 = "fuser.sum"(%8) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %10 = "fuser.broadcast_in_dim"(%9) {broadcast_dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %11 = "fuser.div"(%8, %10) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %11, %9 : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// A reduction over a middle dim broadcast back stays in its row space when
// the outer persistent schedule holds its 64 rows in one block: one kernel.
// CHECK-LABEL: func.func @middle
// CHECK: call @middle_k0(%arg0) {fuser.cuts = ["fusion output"]}
// CHECK-NOT: call @middle_k1
func.func @middle(%arg0: tensor<8x64x128xf32>) -> tensor<8x64x128xf32> attributes {fuser.fusion} {
  %0 = "fuser.max"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<8x64x128xf32>) -> tensor<8x128xf32>
  %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0, 2>} : (tensor<8x128xf32>) -> tensor<8x64x128xf32>
  %2 = "fuser.sub"(%arg0, %1) : (tensor<8x64x128xf32>, tensor<8x64x128xf32>) -> tensor<8x64x128xf32>
  return %2 : tensor<8x64x128xf32>
}

// -----

// Over 4096 rows no block holds them: the cut stays, and says why.
// CHECK-LABEL: func.func @middle_wide
// CHECK: %[[M:.*]] = call @middle_wide_k0(%arg0) {fuser.cuts = ["reduction result consumed at a different shape (an outer reduction broadcast back over 4096 rows: more than one block holds)"]}
// CHECK: call @middle_wide_k1(%arg0, %[[M]]) {fuser.cuts = ["fusion output"]}
func.func @middle_wide(%arg0: tensor<2x4096x64xf32>) -> tensor<2x4096x64xf32> attributes {fuser.fusion} {
  %0 = "fuser.max"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<2x4096x64xf32>) -> tensor<2x64xf32>
  %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0, 2>} : (tensor<2x64xf32>) -> tensor<2x4096x64xf32>
  %2 = "fuser.sub"(%arg0, %1) : (tensor<2x4096x64xf32>, tensor<2x4096x64xf32>) -> tensor<2x4096x64xf32>
  return %2 : tensor<2x4096x64xf32>
}

// -----

// A symbolic dim meets a static one the dim graph unifies with it (a
// logsumexp script: the max over ? rows added to the log of a sum over its
// literal [16] rows): the same shape, one kernel.
// CHECK-LABEL: func.func @lse
// CHECK: call @lse_k0(%arg0) {fuser.cuts = ["fusion output"]}
// CHECK-NOT: call @lse_k1
func.func @lse(%arg0: tensor<?x?xf32>) -> tensor<16xf32> attributes {fuser.fusion} {
  %0 = "fuser.max"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
  %1 = "fuser.broadcast_in_dim"(%0) {broadcast_dims = array<i64: 0>} : (tensor<?xf32>) -> tensor<16x128xf32>
  %2 = "fuser.sub"(%arg0, %1) : (tensor<?x?xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
  %3 = "fuser.exp"(%2) : (tensor<16x128xf32>) -> tensor<16x128xf32>
  %4 = "fuser.sum"(%3) {dims = array<i64: 1>, keepdim = false} : (tensor<16x128xf32>) -> tensor<16xf32>
  %5 = "fuser.log"(%4) : (tensor<16xf32>) -> tensor<16xf32>
  %6 = "fuser.add"(%5, %0) : (tensor<16xf32>, tensor<?xf32>) -> tensor<16xf32>
  return %6 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @twice
// CHECK: %[[R:.*]] = call @twice_k0(%arg0) {fuser.cuts = ["reduction of a reduced value over other rows"]}
// CHECK: call @twice_k1(%[[R]]) {fuser.cuts = ["fusion output"]}
func.func @twice(%arg0: tensor<16x32xf32>) -> tensor<f32> attributes {fuser.fusion} {
  %0 = "fuser.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<16x32xf32>) -> tensor<16xf32>
  %1 = "fuser.sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<16xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Scalar math: the plan passes host scalars (arguments, sizes, i64 + - *)
// to kernels as parameters; other scalar ops (reciprocal of a Double, an
// integer division, a cast of a size) are cloned into the kernel, whose
// prologue computes them.
// CHECK-LABEL: func.func @scalar_math
// CHECK: %[[SZ:.*]] = "fuser.size"(%arg0) {dim = 0 : i64}
// CHECK-NEXT: %[[N:.*]] = "fuser.mul"(%[[SZ]], %arg2) : (i64, i64) -> i64
// CHECK-NEXT: call @scalar_math_k0(%arg0, %arg1, %arg2, %[[N]])
// CHECK: func.func private @scalar_math_k0(%arg0: tensor<?x8xf32> {{.*}}, %arg1: f64, %arg2: i64, %arg3: i64)
// CHECK-NEXT: "fuser.reciprocal"(%arg1) : (f64) -> f64
// CHECK-NEXT: "fuser.cast"(%arg3) : (i64) -> f64
// CHECK-NEXT: "fuser.div"(%arg3, %arg2) : (i64, i64) -> i64
func.func @scalar_math(%arg0: tensor<?x8xf32>, %arg1: f64, %arg2: i64) -> tensor<?x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.reciprocal"(%arg1) : (f64) -> f64
  %1 = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?x8xf32>) -> i64
  %2 = "fuser.mul"(%1, %arg2) : (i64, i64) -> i64
  %3 = "fuser.cast"(%2) : (i64) -> f64
  %4 = "fuser.div"(%2, %arg2) : (i64, i64) -> i64
  %5 = "fuser.mul"(%arg0, %0) : (tensor<?x8xf32>, f64) -> tensor<?x8xf32>
  %6 = "fuser.mul"(%5, %3) : (tensor<?x8xf32>, f64) -> tensor<?x8xf32>
  %7 = "fuser.mul"(%6, %4) : (tensor<?x8xf32>, i64) -> tensor<?x8xf32>
  return %7 : tensor<?x8xf32>
}

// -----

// Outputs of `?` shapes the dim graph does not prove equal (two unrelated
// inputs) never share a kernel: one iteration space would overrun the
// smaller output (it corrupted the heap of the CPU JIT).
// CHECK-LABEL: func.func @unrelated_dynamic_shapes
// CHECK: call @unrelated_dynamic_shapes_k0(%arg0)
// CHECK: call @unrelated_dynamic_shapes_k1(%arg1)
func.func @unrelated_dynamic_shapes(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "fuser.abs"(%arg1) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// An output written into an input (fuser.alias_input = 0): its value is
// computed into a temporary, then a copy kernel of its own, launched last,
// writes it with the input's strides; the visible output reading the input
// is computed before.
// CHECK-LABEL: func.func @alias_input
// CHECK: %[[K0:.*]]:2 = call @alias_input_k0(%arg0)
// CHECK: %[[C:.*]] = call @alias_input_k1(%[[K0]]#1) {fuser.cuts = ["fusion output written into its aliased input, after every kernel"]}
// CHECK: return %[[K0]]#0, %[[C]]
// CHECK: func.func private @alias_input_k1(%arg0: tensor<4x8xf32> {fuser.strides = array<i64: 1, 4>}) -> (tensor<4x8xf32> {fuser.strides = array<i64: 1, 4>})
// CHECK-NEXT: "fuser.set"(%arg0)
func.func @alias_input(%arg0: tensor<4x8xf32> {fuser.stride_order = array<i64: 0, 1>}) -> (tensor<4x8xf32>, tensor<4x8xf32> {fuser.alias_input = 0 : i64}) attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "fuser.exp"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A permuted dense output (permute [0, 2, 1] of a computed value, allocated
// in its input's order by fuser-allocation-order) carries its stride order
// beside its strides, which are known only at run time: the kernel walks its
// points in that order (kernel_info.h, iter_dim). A row-major result (the
// neg, an output of its own kernel here) carries none.
// CHECK-LABEL: func.func private @permuted_output_k0
// CHECK-SAME: -> (tensor<?x?x?xf32> {fuser.strides = array<i64: -9223372036854775808, -9223372036854775808, 1>})
// CHECK-LABEL: func.func private @permuted_output_k1
// CHECK-SAME: -> (tensor<?x?x?xf32> {fuser.stride_order = array<i64: 2, 0, 1>, fuser.strides = array<i64: -9223372036854775808, 1, -9223372036854775808>})
func.func @permuted_output(%arg0: tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>) attributes {fuser.fusion} {
  %0 = "fuser.neg"(%arg0) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %1 = "fuser.permute"(%0) {dims = array<i64: 0, 2, 1>} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %1, %0 : tensor<?x?x?xf32>, tensor<?x?x?xf32>
}
