// Negative tests of the C verifier for the plan-level ops (view size
// stride check): dialects/infer.c, infer_view/infer_query/infer_check, and
// the IRDL constraints ops.def gives them.
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @view_rank(%a: tensor<8x8xf32>) {
  // expected-error@+1 {{'fuser.view' op static_strides has 1 entries for a result of rank 2}}
  %0 = "fuser.view"(%a) {static_offset = 0 : i64, static_strides = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @view_offset(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.view' op static_offset -2 is negative}}
  %0 = "fuser.view"(%a) {static_offset = -2 : i64, static_strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @view_stride(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.view' op stride -1 of dim 0 is negative}}
  %0 = "fuser.view"(%a) {static_offset = 0 : i64, static_strides = array<i64: -1>} : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @view_operands(%a: tensor<8xf32>, %n: i64) {
  // expected-error@+1 {{'fuser.view' op view has 0 dynamic offset/size/stride entries but 1 operands}}
  %0 = "fuser.view"(%a, %n) {static_offset = 0 : i64, static_strides = array<i64: 1>} : (tensor<8xf32>, i64) -> tensor<4xf32>
  return
}

// -----

func.func @size_dim(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.size' op dim 1 is out of range [0, 1)}}
  %0 = "fuser.size"(%a) {dim = 1 : i64} : (tensor<8xf32>) -> i64
  return
}

// -----

func.func @stride_dim(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.stride' op dim -1 is out of range [0, 1)}}
  %0 = "fuser.stride"(%a) {dim = -1 : i64} : (tensor<8xf32>) -> i64
  return
}

// -----

func.func @check_not_i1(%a: tensor<?xf32>) {
  %n = "fuser.size"(%a) {dim = 0 : i64} : (tensor<?xf32>) -> i64
  // expected-error@+1 {{'fuser.check' op operand 'cond': expected 'i1' but got 'i64'}}
  "fuser.check"(%n) {message = "not a condition"} : (i64) -> ()
  return
}

// -----

func.func @check_no_message(%a: tensor<?xf32>) {
  %n = "fuser.size"(%a) {dim = 0 : i64} : (tensor<?xf32>) -> i64
  %z = "fuser.scalar"() {value = 0 : i64} : () -> i64
  %c = "fuser.ge"(%n, %z) : (i64, i64) -> i1
  // expected-error@+1 {{'fuser.check' op attribute "message" is expected but not provided}}
  "fuser.check"(%c) : (i1) -> ()
  return
}

// -----

func.func @check_empty_message(%a: tensor<?xf32>) {
  %n = "fuser.size"(%a) {dim = 0 : i64} : (tensor<?xf32>) -> i64
  %z = "fuser.scalar"() {value = 0 : i64} : () -> i64
  %c = "fuser.ge"(%n, %z) : (i64, i64) -> i1
  // expected-error@+1 {{'fuser.check' op requires a non-empty string attribute 'message'}}
  "fuser.check"(%c) {message = ""} : (i1) -> ()
  return
}

// -----

func.func @check_result(%a: tensor<?xf32>) {
  %n = "fuser.size"(%a) {dim = 0 : i64} : (tensor<?xf32>) -> i64
  %z = "fuser.scalar"() {value = 0 : i64} : () -> i64
  %c = "fuser.ge"(%n, %z) : (i64, i64) -> i1
  // expected-error@+1 {{'fuser.check' op expects exactly 0 results, but got 1}}
  %r = "fuser.check"(%c) {message = "m"} : (i1) -> i1
  return
}
