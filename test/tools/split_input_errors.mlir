// Errors in two of three chunks: both are reported with whole-file line
// numbers, the good chunk is still printed, and the exit is non-zero.
// RUN: not fuser-opt %s -split-input-file 2>%t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR -DFILE=%s < %t.err
// OUT: func.func @good
// OUT-NOT: func.func @bad

func.func @bad1(%a: tensor<2xf32>) {
  // ERR: [[FILE]]:[[@LINE+1]]:8: error: 'fuser.permute' op dims is not a permutation of [0, 1)
  %0 = "fuser.permute"(%a) {dims = array<i64: 1>} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @good(%a: tensor<2xf32>) {
  return
}

// -----

func.func @bad2(%a: tensor<2xf32>) {
  // ERR: [[FILE]]:[[@LINE+1]]:8: error: unregistered operation 'fuser.bogus'
  %0 = "fuser.bogus"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}
