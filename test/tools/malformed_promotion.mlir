// A result dtype that is not nvFuser's type promotion (bf16 * bf16 is f32),
// reported in every chunk of a split input, with whole-file line numbers.
// RUN: not fuser-opt %s -split-input-file 2>&1 | FileCheck %s -DFILE=%s
func.func @f(%a: tensor<2xbf16>) {
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: 'fuser.mul' op result #0 has type tensor<2xbf16> but nvFuser's rules give tensor<2xf32>
  %0 = "fuser.mul"(%a, %a) : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  return
}

// -----

func.func @g(%a: tensor<2xi32>, %s: f64) {
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: 'fuser.add' op result #0 has type tensor<2xi32> but nvFuser's rules give tensor<2xf32>
  %0 = "fuser.add"(%a, %s) : (tensor<2xi32>, f64) -> tensor<2xi32>
  return
}
