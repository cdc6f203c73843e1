// Round trip of the binary ops: each parses, passes the C verifier, prints,
// and the printed form parses and prints to the same text.
// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s -o %t.1.mlir && fuser-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir


// CHECK-LABEL: func.func @add
// CHECK: "fuser.add"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.add"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.add"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.add"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @add(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.add"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.add"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.add"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.add"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @sub
// CHECK: "fuser.sub"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.sub"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.sub"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.sub"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @sub(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.sub"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.sub"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.sub"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.sub"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @mul
// CHECK: "fuser.mul"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.mul"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.mul"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.mul"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @mul(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.mul"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.mul"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.mul"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.mul"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @div
// CHECK: "fuser.div"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.div"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.div"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.div"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @div(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.div"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.div"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.div"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.div"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @pow
// CHECK: "fuser.pow"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.pow"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.pow"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.pow"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @pow(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.pow"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.pow"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.pow"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.pow"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @fmod
// CHECK: "fuser.fmod"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.fmod"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.fmod"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.fmod"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @fmod(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.fmod"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.fmod"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.fmod"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.fmod"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @remainder
// CHECK: "fuser.remainder"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.remainder"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.remainder"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.remainder"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @remainder(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.remainder"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.remainder"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.remainder"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.remainder"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @maximum
// CHECK: "fuser.maximum"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.maximum"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.maximum"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.maximum"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @maximum(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.maximum"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.maximum"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.maximum"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.maximum"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @minimum
// CHECK: "fuser.minimum"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.minimum"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.minimum"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.minimum"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @minimum(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.minimum"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.minimum"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.minimum"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.minimum"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @atan2
// CHECK: "fuser.atan2"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.atan2"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: "fuser.atan2"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
// CHECK: "fuser.atan2"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
func.func @atan2(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.atan2"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.atan2"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "fuser.atan2"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xf32>
  %3 = "fuser.atan2"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// nextafter promotes as atan2 (float results).
// CHECK-LABEL: func.func @nextafter
// CHECK: "fuser.nextafter"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
// CHECK: "fuser.nextafter"(%arg2, %arg3) : (tensor<?x?xf64>, f64) -> tensor<?x?xf64>
func.func @nextafter(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf64>, %arg3: f64) {
  %0 = "fuser.nextafter"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.nextafter"(%arg2, %arg3) : (tensor<?x?xf64>, f64) -> tensor<?x?xf64>
  return
}

// CHECK-LABEL: func.func @eq
// CHECK: "fuser.eq"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.eq"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
// CHECK: "fuser.eq"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
// CHECK: "fuser.eq"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
func.func @eq(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.eq"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.eq"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %2 = "fuser.eq"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
  %3 = "fuser.eq"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @ne
// CHECK: "fuser.ne"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.ne"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
// CHECK: "fuser.ne"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
// CHECK: "fuser.ne"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
func.func @ne(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.ne"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.ne"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %2 = "fuser.ne"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
  %3 = "fuser.ne"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @lt
// CHECK: "fuser.lt"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.lt"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
// CHECK: "fuser.lt"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
// CHECK: "fuser.lt"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
func.func @lt(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.lt"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.lt"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %2 = "fuser.lt"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
  %3 = "fuser.lt"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @le
// CHECK: "fuser.le"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.le"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
// CHECK: "fuser.le"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
// CHECK: "fuser.le"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
func.func @le(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.le"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.le"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %2 = "fuser.le"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
  %3 = "fuser.le"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @gt
// CHECK: "fuser.gt"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.gt"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
// CHECK: "fuser.gt"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
// CHECK: "fuser.gt"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
func.func @gt(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.gt"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.gt"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %2 = "fuser.gt"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
  %3 = "fuser.gt"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @ge
// CHECK: "fuser.ge"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
// CHECK: "fuser.ge"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
// CHECK: "fuser.ge"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
// CHECK: "fuser.ge"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
func.func @ge(%arg0: tensor<2x8xbf16>, %arg1: tensor<1x8xbf16>, %arg2: tensor<?x?xf32>, %arg3: f64) {
  %0 = "fuser.ge"(%arg0, %arg1) : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xi1>
  %1 = "fuser.ge"(%arg2, %arg2) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %2 = "fuser.ge"(%arg0, %arg3) : (tensor<2x8xbf16>, f64) -> tensor<2x8xi1>
  %3 = "fuser.ge"(%arg3, %arg0) : (f64, tensor<2x8xbf16>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @logical_and
// CHECK: "fuser.logical_and"(%arg0, %arg1) : (tensor<2x8xi1>, tensor<1x8xi1>) -> tensor<2x8xi1>
// CHECK: "fuser.logical_and"(%arg2, %arg2) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
// CHECK: "fuser.logical_and"(%arg0, %arg3) : (tensor<2x8xi1>, i1) -> tensor<2x8xi1>
// CHECK: "fuser.logical_and"(%arg3, %arg0) : (i1, tensor<2x8xi1>) -> tensor<2x8xi1>
func.func @logical_and(%arg0: tensor<2x8xi1>, %arg1: tensor<1x8xi1>, %arg2: tensor<?x?xi1>, %arg3: i1) {
  %0 = "fuser.logical_and"(%arg0, %arg1) : (tensor<2x8xi1>, tensor<1x8xi1>) -> tensor<2x8xi1>
  %1 = "fuser.logical_and"(%arg2, %arg2) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
  %2 = "fuser.logical_and"(%arg0, %arg3) : (tensor<2x8xi1>, i1) -> tensor<2x8xi1>
  %3 = "fuser.logical_and"(%arg3, %arg0) : (i1, tensor<2x8xi1>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @logical_or
// CHECK: "fuser.logical_or"(%arg0, %arg1) : (tensor<2x8xi1>, tensor<1x8xi1>) -> tensor<2x8xi1>
// CHECK: "fuser.logical_or"(%arg2, %arg2) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
// CHECK: "fuser.logical_or"(%arg0, %arg3) : (tensor<2x8xi1>, i1) -> tensor<2x8xi1>
// CHECK: "fuser.logical_or"(%arg3, %arg0) : (i1, tensor<2x8xi1>) -> tensor<2x8xi1>
func.func @logical_or(%arg0: tensor<2x8xi1>, %arg1: tensor<1x8xi1>, %arg2: tensor<?x?xi1>, %arg3: i1) {
  %0 = "fuser.logical_or"(%arg0, %arg1) : (tensor<2x8xi1>, tensor<1x8xi1>) -> tensor<2x8xi1>
  %1 = "fuser.logical_or"(%arg2, %arg2) : (tensor<?x?xi1>, tensor<?x?xi1>) -> tensor<?x?xi1>
  %2 = "fuser.logical_or"(%arg0, %arg3) : (tensor<2x8xi1>, i1) -> tensor<2x8xi1>
  %3 = "fuser.logical_or"(%arg3, %arg0) : (i1, tensor<2x8xi1>) -> tensor<2x8xi1>
  return
}

// CHECK-LABEL: func.func @bitwise_and
// CHECK: "fuser.bitwise_and"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_and"(%arg2, %arg2) : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
// CHECK: "fuser.bitwise_and"(%arg0, %arg3) : (tensor<2x8xi32>, i32) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_and"(%arg3, %arg0) : (i32, tensor<2x8xi32>) -> tensor<2x8xi32>
func.func @bitwise_and(%arg0: tensor<2x8xi32>, %arg1: tensor<1x8xi32>, %arg2: tensor<?x?xi64>, %arg3: i32) {
  %0 = "fuser.bitwise_and"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
  %1 = "fuser.bitwise_and"(%arg2, %arg2) : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
  %2 = "fuser.bitwise_and"(%arg0, %arg3) : (tensor<2x8xi32>, i32) -> tensor<2x8xi32>
  %3 = "fuser.bitwise_and"(%arg3, %arg0) : (i32, tensor<2x8xi32>) -> tensor<2x8xi32>
  return
}

// CHECK-LABEL: func.func @bitwise_or
// CHECK: "fuser.bitwise_or"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_or"(%arg2, %arg2) : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
// CHECK: "fuser.bitwise_or"(%arg0, %arg3) : (tensor<2x8xi32>, i32) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_or"(%arg3, %arg0) : (i32, tensor<2x8xi32>) -> tensor<2x8xi32>
func.func @bitwise_or(%arg0: tensor<2x8xi32>, %arg1: tensor<1x8xi32>, %arg2: tensor<?x?xi64>, %arg3: i32) {
  %0 = "fuser.bitwise_or"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
  %1 = "fuser.bitwise_or"(%arg2, %arg2) : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
  %2 = "fuser.bitwise_or"(%arg0, %arg3) : (tensor<2x8xi32>, i32) -> tensor<2x8xi32>
  %3 = "fuser.bitwise_or"(%arg3, %arg0) : (i32, tensor<2x8xi32>) -> tensor<2x8xi32>
  return
}

// CHECK-LABEL: func.func @bitwise_xor
// CHECK: "fuser.bitwise_xor"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_xor"(%arg2, %arg2) : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
// CHECK: "fuser.bitwise_xor"(%arg0, %arg3) : (tensor<2x8xi32>, i32) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_xor"(%arg3, %arg0) : (i32, tensor<2x8xi32>) -> tensor<2x8xi32>
func.func @bitwise_xor(%arg0: tensor<2x8xi32>, %arg1: tensor<1x8xi32>, %arg2: tensor<?x?xi64>, %arg3: i32) {
  %0 = "fuser.bitwise_xor"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
  %1 = "fuser.bitwise_xor"(%arg2, %arg2) : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
  %2 = "fuser.bitwise_xor"(%arg0, %arg3) : (tensor<2x8xi32>, i32) -> tensor<2x8xi32>
  %3 = "fuser.bitwise_xor"(%arg3, %arg0) : (i32, tensor<2x8xi32>) -> tensor<2x8xi32>
  return
}

// CHECK-LABEL: func.func @bitwise_left_shift
// CHECK: "fuser.bitwise_left_shift"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_left_shift"(%arg2, %arg3) : (tensor<?x?xi64>, i64) -> tensor<?x?xi64>
func.func @bitwise_left_shift(%arg0: tensor<2x8xi32>, %arg1: tensor<1x8xi32>, %arg2: tensor<?x?xi64>, %arg3: i64) {
  %0 = "fuser.bitwise_left_shift"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
  %1 = "fuser.bitwise_left_shift"(%arg2, %arg3) : (tensor<?x?xi64>, i64) -> tensor<?x?xi64>
  return
}

// CHECK-LABEL: func.func @bitwise_right_shift
// CHECK: "fuser.bitwise_right_shift"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
// CHECK: "fuser.bitwise_right_shift"(%arg2, %arg3) : (tensor<?x?xi64>, i64) -> tensor<?x?xi64>
func.func @bitwise_right_shift(%arg0: tensor<2x8xi32>, %arg1: tensor<1x8xi32>, %arg2: tensor<?x?xi64>, %arg3: i64) {
  %0 = "fuser.bitwise_right_shift"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
  %1 = "fuser.bitwise_right_shift"(%arg2, %arg3) : (tensor<?x?xi64>, i64) -> tensor<?x?xi64>
  return
}

// CHECK-LABEL: func.func @logical_right_shift
// CHECK: "fuser.logical_right_shift"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
// CHECK: "fuser.logical_right_shift"(%arg2, %arg3) : (tensor<?x?xi64>, i64) -> tensor<?x?xi64>
func.func @logical_right_shift(%arg0: tensor<2x8xi32>, %arg1: tensor<1x8xi32>, %arg2: tensor<?x?xi64>, %arg3: i64) {
  %0 = "fuser.logical_right_shift"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<1x8xi32>) -> tensor<2x8xi32>
  %1 = "fuser.logical_right_shift"(%arg2, %arg3) : (tensor<?x?xi64>, i64) -> tensor<?x?xi64>
  return
}
