// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-segment, fuser-vectorize, fuser-schedule, fuser-lower-kernels)' | FileCheck %s --check-prefix=LOOPS
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-segment, fuser-vectorize, fuser-schedule, fuser-lower-kernels, fuser-kernels-to-gpu)' | FileCheck %s --check-prefix=GPU
// erfinv, erfcinv and lgamma have no math-dialect op (lowering/special_fns.c):
// kernels call a target-neutral name, declared private in the module, one
// call per lane in the vector variant; fuser-kernels-to-gpu renames each call
// to libdevice's function, declares it in the gpu.module and erases the
// neutral declarations (the CPU JIT binds the neutral names instead).
// LOOPS-DAG: func.func private @fuser_erfinv_f32(f32) -> f32
// LOOPS-DAG: func.func private @fuser_lgamma_f64(f64) -> f64
// LOOPS-DAG: func.func private @fuser_erfcinv_f32(f32) -> f32
// LOOPS-LABEL: func.func @special_k0__vector(
// LOOPS-COUNT-4: func.call @fuser_erfinv_f32(%{{.*}}) : (f32) -> f32
// LOOPS: vector.from_elements
// LOOPS-COUNT-4: func.call @fuser_erfcinv_f32(%{{.*}}) : (f32) -> f32
// LOOPS-LABEL: func.func @special_k1__vector(
// LOOPS-COUNT-2: func.call @fuser_lgamma_f64(%{{.*}}) : (f64) -> f64
// LOOPS: vector.from_elements
// The tail element: one scalar call.
// LOOPS: func.call @fuser_lgamma_f64(%{{.*}}) : (f64) -> f64
// GPU-NOT: @fuser_erfinv_f32
// GPU-NOT: @fuser_lgamma_f64
// GPU: gpu.module @fuser_kernels_i32
// GPU-DAG: func.func private @__nv_erfinvf(f32) -> f32
// GPU-DAG: func.func private @__nv_erfcinvf(f32) -> f32
// GPU-DAG: func.func private @__nv_lgamma(f64) -> f64
// GPU: gpu.func @special_k0__vector(
// GPU: func.call @__nv_erfinvf(%{{.*}}) : (f32) -> f32
// GPU: func.call @__nv_erfcinvf(%{{.*}}) : (f32) -> f32
func.func @special(%a: tensor<64xf32>, %b: tensor<7xf64>) -> (tensor<64xf32>, tensor<7xf64>) attributes {fuser.fusion} {
  %0 = "fuser.erfinv"(%a) : (tensor<64xf32>) -> tensor<64xf32>
  %1 = "fuser.erfcinv"(%0) : (tensor<64xf32>) -> tensor<64xf32>
  %2 = "fuser.lgamma"(%b) : (tensor<7xf64>) -> tensor<7xf64>
  return %1, %2 : tensor<64xf32>, tensor<7xf64>
}
