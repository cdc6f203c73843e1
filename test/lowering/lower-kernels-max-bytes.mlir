// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize{max-bytes=8}, fuser-schedule, fuser-lower-kernels)' | FileCheck %s
// fuser-lower-kernels follows the schedule made from the vectorizer's
// decisions, so the vectorizer's options hold: 8-byte accesses are vectors
// of 4 bf16 (the lowering used to re-run the vectorizer with 16 bytes).
// CHECK-LABEL: func.func @copy__vector
// CHECK-SAME: fuser.vector_width = 4 : i64
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
func.func private @copy(%a: tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) -> (tensor<64x16xbf16> {fuser.strides = array<i64: 16, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.neg"(%a) : (tensor<64x16xbf16>) -> tensor<64x16xf32>
  %1 = "fuser.cast"(%0) {dtype = bf16} : (tensor<64x16xf32>) -> tensor<64x16xbf16>
  func.return %1 : tensor<64x16xbf16>
}
