// Round trip of the unary (and cast) ops: each parses, passes the C verifier, prints,
// and the printed form parses and prints to the same text.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir


// CHECK-LABEL: func.func @neg
// CHECK: "fuser.neg"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.neg"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.neg"(%arg2) : (f64) -> f64
func.func @neg(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.neg"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.neg"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.neg"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @abs
// CHECK: "fuser.abs"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.abs"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.abs"(%arg2) : (f64) -> f64
func.func @abs(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.abs"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.abs"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.abs"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @exp
// CHECK: "fuser.exp"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.exp"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.exp"(%arg2) : (f64) -> f64
func.func @exp(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.exp"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.exp"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.exp"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @exp2
// CHECK: "fuser.exp2"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.exp2"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.exp2"(%arg2) : (f64) -> f64
func.func @exp2(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.exp2"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.exp2"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.exp2"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @expm1
// CHECK: "fuser.expm1"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.expm1"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.expm1"(%arg2) : (f64) -> f64
func.func @expm1(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.expm1"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.expm1"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.expm1"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @log
// CHECK: "fuser.log"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.log"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.log"(%arg2) : (f64) -> f64
func.func @log(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.log"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.log"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.log"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @log1p
// CHECK: "fuser.log1p"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.log1p"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.log1p"(%arg2) : (f64) -> f64
func.func @log1p(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.log1p"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.log1p"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.log1p"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @log2
// CHECK: "fuser.log2"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.log2"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.log2"(%arg2) : (f64) -> f64
func.func @log2(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.log2"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.log2"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.log2"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @sqrt
// CHECK: "fuser.sqrt"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.sqrt"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.sqrt"(%arg2) : (f64) -> f64
func.func @sqrt(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.sqrt"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.sqrt"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.sqrt"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @rsqrt
// CHECK: "fuser.rsqrt"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.rsqrt"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.rsqrt"(%arg2) : (f64) -> f64
func.func @rsqrt(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.rsqrt"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.rsqrt"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.rsqrt"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @reciprocal
// CHECK: "fuser.reciprocal"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.reciprocal"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.reciprocal"(%arg2) : (f64) -> f64
func.func @reciprocal(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.reciprocal"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.reciprocal"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.reciprocal"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @sin
// CHECK: "fuser.sin"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.sin"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.sin"(%arg2) : (f64) -> f64
func.func @sin(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.sin"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.sin"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.sin"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @cos
// CHECK: "fuser.cos"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.cos"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.cos"(%arg2) : (f64) -> f64
func.func @cos(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.cos"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.cos"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.cos"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @tan
// CHECK: "fuser.tan"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.tan"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.tan"(%arg2) : (f64) -> f64
func.func @tan(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.tan"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.tan"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.tan"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @tanh
// CHECK: "fuser.tanh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.tanh"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.tanh"(%arg2) : (f64) -> f64
func.func @tanh(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.tanh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.tanh"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.tanh"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @sigmoid
// CHECK: "fuser.sigmoid"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.sigmoid"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.sigmoid"(%arg2) : (f64) -> f64
func.func @sigmoid(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.sigmoid"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.sigmoid"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.sigmoid"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @erf
// CHECK: "fuser.erf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.erf"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.erf"(%arg2) : (f64) -> f64
func.func @erf(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.erf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.erf"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.erf"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @silu
// CHECK: "fuser.silu"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.silu"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.silu"(%arg2) : (f64) -> f64
func.func @silu(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.silu"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.silu"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.silu"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @relu
// CHECK: "fuser.relu"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.relu"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.relu"(%arg2) : (f64) -> f64
func.func @relu(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.relu"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.relu"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.relu"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @ceil
// CHECK: "fuser.ceil"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.ceil"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.ceil"(%arg2) : (f64) -> f64
func.func @ceil(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.ceil"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.ceil"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.ceil"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @floor
// CHECK: "fuser.floor"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.floor"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.floor"(%arg2) : (f64) -> f64
func.func @floor(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.floor"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.floor"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.floor"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @round
// CHECK: "fuser.round"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.round"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.round"(%arg2) : (f64) -> f64
func.func @round(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.round"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.round"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.round"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @trunc
// CHECK: "fuser.trunc"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.trunc"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.trunc"(%arg2) : (f64) -> f64
func.func @trunc(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.trunc"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.trunc"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.trunc"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @sign
// CHECK: "fuser.sign"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.sign"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
// CHECK: "fuser.sign"(%arg2) : (f64) -> f64
func.func @sign(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.sign"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.sign"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %2 = "fuser.sign"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @isnan
// CHECK: "fuser.isnan"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.isnan"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xi1>
// CHECK: "fuser.isnan"(%arg2) : (f64) -> i1
func.func @isnan(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.isnan"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.isnan"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xi1>
  %2 = "fuser.isnan"(%arg2) : (f64) -> i1
  return
}

// CHECK-LABEL: func.func @isinf
// CHECK: "fuser.isinf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.isinf"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xi1>
// CHECK: "fuser.isinf"(%arg2) : (f64) -> i1
func.func @isinf(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x1x?xf32>, %arg2: f64) {
  %0 = "fuser.isinf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.isinf"(%arg1) : (tensor<?x1x?xf32>) -> tensor<?x1x?xi1>
  %2 = "fuser.isinf"(%arg2) : (f64) -> i1
  return
}

// CHECK-LABEL: func.func @logical_not
// CHECK: "fuser.logical_not"(%arg0) : (tensor<2x8xi1>) -> tensor<2x8xi1>
// CHECK: "fuser.logical_not"(%arg1) : (tensor<?x1x?xbf16>) -> tensor<?x1x?xi1>
// CHECK: "fuser.logical_not"(%arg2) : (i1) -> i1
func.func @logical_not(%arg0: tensor<2x8xi1>, %arg1: tensor<?x1x?xbf16>, %arg2: i1) {
  %0 = "fuser.logical_not"(%arg0) : (tensor<2x8xi1>) -> tensor<2x8xi1>
  %1 = "fuser.logical_not"(%arg1) : (tensor<?x1x?xbf16>) -> tensor<?x1x?xi1>
  %2 = "fuser.logical_not"(%arg2) : (i1) -> i1
  return
}

// CHECK-LABEL: func.func @bitwise_not
// CHECK: "fuser.bitwise_not"(%arg0) : (tensor<2x8xi32>) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_not"(%arg1) : (tensor<?x1x?xi64>) -> tensor<?x1x?xi64>
// CHECK: "fuser.bitwise_not"(%arg2) : (i32) -> i32
func.func @bitwise_not(%arg0: tensor<2x8xi32>, %arg1: tensor<?x1x?xi64>, %arg2: i32) {
  %0 = "fuser.bitwise_not"(%arg0) : (tensor<2x8xi32>) -> tensor<2x8xi32>
  %1 = "fuser.bitwise_not"(%arg1) : (tensor<?x1x?xi64>) -> tensor<?x1x?xi64>
  %2 = "fuser.bitwise_not"(%arg2) : (i32) -> i32
  return
}

// cast states its result dtype in the result type.
// CHECK-LABEL: func.func @cast
// CHECK: "fuser.cast"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.cast"(%arg1) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
// CHECK: "fuser.cast"(%arg2) : (tensor<4xi1>) -> tensor<4xi64>
// CHECK: "fuser.cast"(%arg3) : (f64) -> i64
func.func @cast(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x?xf32>, %arg2: tensor<4xi1>, %arg3: f64) {
  %0 = "fuser.cast"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.cast"(%arg1) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
  %2 = "fuser.cast"(%arg2) : (tensor<4xi1>) -> tensor<4xi64>
  %3 = "fuser.cast"(%arg3) : (f64) -> i64
  return
}

// CHECK-LABEL: func.func @acos
// CHECK: "fuser.acos"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.acos"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.acos"(%arg2) : (f64) -> f64
func.func @acos(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.acos"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.acos"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.acos"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @asin
// CHECK: "fuser.asin"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.asin"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.asin"(%arg2) : (f64) -> f64
func.func @asin(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.asin"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.asin"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.asin"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @atan
// CHECK: "fuser.atan"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.atan"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.atan"(%arg2) : (f64) -> f64
func.func @atan(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.atan"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.atan"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.atan"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @acosh
// CHECK: "fuser.acosh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.acosh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.acosh"(%arg2) : (f64) -> f64
func.func @acosh(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.acosh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.acosh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.acosh"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @asinh
// CHECK: "fuser.asinh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.asinh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.asinh"(%arg2) : (f64) -> f64
func.func @asinh(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.asinh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.asinh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.asinh"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @atanh
// CHECK: "fuser.atanh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.atanh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.atanh"(%arg2) : (f64) -> f64
func.func @atanh(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.atanh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.atanh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.atanh"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @cosh
// CHECK: "fuser.cosh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.cosh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.cosh"(%arg2) : (f64) -> f64
func.func @cosh(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.cosh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.cosh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.cosh"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @sinh
// CHECK: "fuser.sinh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.sinh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.sinh"(%arg2) : (f64) -> f64
func.func @sinh(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.sinh"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.sinh"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.sinh"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @log10
// CHECK: "fuser.log10"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.log10"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.log10"(%arg2) : (f64) -> f64
func.func @log10(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.log10"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.log10"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.log10"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @erfc
// CHECK: "fuser.erfc"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.erfc"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.erfc"(%arg2) : (f64) -> f64
func.func @erfc(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.erfc"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.erfc"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.erfc"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @erfinv
// CHECK: "fuser.erfinv"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.erfinv"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.erfinv"(%arg2) : (f64) -> f64
func.func @erfinv(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.erfinv"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.erfinv"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.erfinv"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @erfcinv
// CHECK: "fuser.erfcinv"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.erfcinv"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.erfcinv"(%arg2) : (f64) -> f64
func.func @erfcinv(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.erfcinv"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.erfcinv"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.erfcinv"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @lgamma
// CHECK: "fuser.lgamma"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.lgamma"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK: "fuser.lgamma"(%arg2) : (f64) -> f64
func.func @lgamma(%arg0: tensor<2x8xbf16>, %arg1: tensor<?x4xi32>, %arg2: f64) {
  %0 = "fuser.lgamma"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.lgamma"(%arg1) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "fuser.lgamma"(%arg2) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @frac
// CHECK: "fuser.frac"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// CHECK: "fuser.frac"(%arg1) : (f64) -> f64
func.func @frac(%arg0: tensor<2x8xbf16>, %arg1: f64) {
  %0 = "fuser.frac"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  %1 = "fuser.frac"(%arg1) : (f64) -> f64
  return
}

// CHECK-LABEL: func.func @signbit
// CHECK: "fuser.signbit"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.signbit"(%arg1) : (f32) -> i1
func.func @signbit(%arg0: tensor<2x8xbf16>, %arg1: f32) {
  %0 = "fuser.signbit"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.signbit"(%arg1) : (f32) -> i1
  return
}

// CHECK-LABEL: func.func @isfinite
// CHECK: "fuser.isfinite"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.isfinite"(%arg1) : (f32) -> i1
func.func @isfinite(%arg0: tensor<2x8xbf16>, %arg1: f32) {
  %0 = "fuser.isfinite"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.isfinite"(%arg1) : (f32) -> i1
  return
}

// CHECK-LABEL: func.func @isposinf
// CHECK: "fuser.isposinf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.isposinf"(%arg1) : (f32) -> i1
func.func @isposinf(%arg0: tensor<2x8xbf16>, %arg1: f32) {
  %0 = "fuser.isposinf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.isposinf"(%arg1) : (f32) -> i1
  return
}

// CHECK-LABEL: func.func @isneginf
// CHECK: "fuser.isneginf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.isneginf"(%arg1) : (f32) -> i1
func.func @isneginf(%arg0: tensor<2x8xbf16>, %arg1: f32) {
  %0 = "fuser.isneginf"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.isneginf"(%arg1) : (f32) -> i1
  return
}
