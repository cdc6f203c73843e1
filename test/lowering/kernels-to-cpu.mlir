// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels, fuser-kernels-to-cpu)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize, fuser-schedule, fuser-lower-kernels, fuser-kernels-to-cpu, func.func(canonicalize, cse, arith-expand{include-bf16=true}), convert-math-to-libm, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LLVM
// The CPU path keeps the loop-level functions (the same bodies the GPU
// runs), marks them for the C interface and drops the fuser-level ones. It
// writes no launch records: the CPU plan runs the plan's fuser.launch ops
// (those of the GPU lowering) by entry name.

// CHECK-NOT: fuser.launches
// CHECK-NOT: fuser.kernel
// CHECK: func.func @neg_k0__vector({{.*}}) attributes {{{.*}}llvm.emit_c_interface
// CHECK:   scf.parallel
// CHECK:   vector.load
// CHECK: func.func @neg_k0__mixed({{.*}}) attributes {{{.*}}llvm.emit_c_interface
// CHECK:   memref.extract_aligned_pointer_as_index

// LLVM: llvm.func @neg_k0__vector(
// LLVM: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
// LLVM: llvm.func @_mlir_ciface_neg_k0__vector(
// LLVM: llvm.func @neg_k0__mixed(
// LLVM-NOT: "fuser.

func.func private @neg_k0(%a: tensor<8x32xbf16> {fuser.strides = array<i64: 32, 1>})
    -> (tensor<8x32xbf16> {fuser.strides = array<i64: 32, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<8x32xbf16>) -> tensor<8x32xf32>
  %1 = "fuser.cast"(%0) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
  func.return %1 : tensor<8x32xbf16>
}
