// The vectorize report (passes/vectorize_report.c).
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize{report=true})' | FileCheck %s
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuser-vectorize{max-bytes=12})' 2>&1 | FileCheck %s --check-prefix=BYTES
// The per-kernel report (passes/vectorize.h): ops, inputs, outputs, width,
// flattening, access widths and conditions.

// CHECK:      kernel @scale_k0
// CHECK-NEXT:     ops: broadcast_in_dim mul cast
// CHECK-NEXT:     inputs:
// CHECK-NEXT:       #0 tensor<8x32xbf16> strides array<i64: 40, 1>
// CHECK-NEXT:       #1 tensor<32xbf16> strides array<i64: 1>
// CHECK-NEXT:     outputs:
// CHECK-NEXT:       #0 tensor<8x32xbf16> strides array<i64: 32, 1>
// CHECK-NEXT:     vector width: 8 : i64
// CHECK-NEXT:     flattened shape: array<i64: 8, 32>
// CHECK-NEXT:     access widths: array<i64: 8, 8, 8>
// CHECK-NEXT:     access kinds: ["vector", "vector", "vector"]
// CHECK-NEXT:     conditions: [{align = {arg = 0 : i64, bytes = 16 : i64}}, {align = {arg = 1 : i64, bytes = 16 : i64}}, {align = {bytes = 16 : i64, result = 0 : i64}}]

// BYTES: error: fuser-vectorize: max-bytes must be a power of two

func.func private @scale_k0(%a: tensor<8x32xbf16> {fuser.strides = array<i64: 40, 1>},
                            %s: tensor<32xbf16> {fuser.strides = array<i64: 1>})
    -> (tensor<8x32xbf16> {fuser.strides = array<i64: 32, 1>}) attributes {fuser.kernel} {
  %0 = "fuser.broadcast_in_dim"(%s) {broadcast_dims = array<i64: 1>} : (tensor<32xbf16>) -> tensor<8x32xbf16>
  %1 = "fuser.mul"(%a, %0) : (tensor<8x32xbf16>, tensor<8x32xbf16>) -> tensor<8x32xf32>
  %2 = "fuser.cast"(%1) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
  func.return %2 : tensor<8x32xbf16>
}
