// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels, fuser-kernels-to-gpu)' | FileCheck %s
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuser-kernels-to-gpu{block-size=2048})' 2>&1 | FileCheck %s --check-prefix=BLOCK
// Loop-level functions become kernels in one gpu.module per index width,
// with the launch description on each gpu.func and on the module.

// CHECK: module attributes {fuser.launches = [{block_size = 128 : i64, conditions = [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {arg = 1 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}], entry = @fuser_kernels_i32::@bias_k0__vector, index_bits = 32 : i64, kernel = @bias_k0, num_args = 3 : i64, param_bits = 64 : i64, params = [{ptr = 0 : i64}, {ptr = 1 : i64}, {ptr = 3 : i64}, {scalar = 2 : i64}], unroll = 1 : i64, variant = "vector", vector_width = 8 : i64}, {block_size = 128 : i64, conditions = [], entry = @fuser_kernels_i32::@bias_k0__mixed, {{.*}}kernel = @bias_k0, {{.*}}variant = "mixed", vector_width = 8 : i64}]
// CHECK-SAME: gpu.container_module
// The kernel function stays for the plan; the loop-level functions are gone.
// CHECK: func.func private @bias_k0(
// CHECK-NOT: func.func @bias_k0__
// CHECK: gpu.module @fuser_kernels_i32 attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
// CHECK: gpu.func @bias_k0__vector(%[[A:.*]]: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: f64) kernel attributes {fuser.launch = {{{.*}}entry = @fuser_kernels_i32::@bias_k0__vector
// CHECK:   %[[BID:.*]] = gpu.block_id x
// CHECK:   %[[BDIM:.*]] = gpu.block_dim x
// CHECK:   %[[TID:.*]] = gpu.thread_id x
// CHECK:   %[[T0:.*]] = arith.muli %[[BID]], %[[BDIM]] : index
// CHECK:   %[[T:.*]] = arith.addi %[[T0]], %[[TID]] : index
// CHECK:   memref.reinterpret_cast %[[A]]
// CHECK:   arith.cmpi ult, %[[T]], %{{.*}} : index
// CHECK:   vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK-NOT: scf.parallel
// CHECK:   gpu.return
// The mixed variant checks each tensor's alignment in the kernel; it has no
// launch conditions left, so no scalar variant follows.
// CHECK: gpu.func @bias_k0__mixed(%[[MA:.*]]: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: f64)
// CHECK:   memref.extract_aligned_pointer_as_index %[[MA]]
// CHECK:   scf.if %{{.*}} -> (vector<8xbf16>)
// CHECK:     vector.load %{{.*}} {alignment = 16 : i64} : memref<?xbf16>, vector<8xbf16>
// CHECK:   else
// CHECK-COUNT-8: memref.load
// CHECK-NOT: scf.parallel
// CHECK:   gpu.return
// CHECK-NOT: gpu.func @bias_k0__scalar

// BLOCK: error: fuser-kernels-to-gpu: block-size must be in [1, 1024] (0: the schedule's)

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
