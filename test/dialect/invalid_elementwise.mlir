// Negative tests of the C verifier for element-wise ops and casts: operand
// shapes, dtypes and nvFuser's type promotion (dialects/infer.c, promote.c).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @extents_differ(%a: tensor<2x8xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuser.add' op operand extents 8 and 4 differ in dim 1}}
  %0 = "fuser.add"(%a, %b) : (tensor<2x8xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @ranks_differ(%a: tensor<2x8xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.mul' op operand ranks differ (2 and 1)}}
  %0 = "fuser.mul"(%a, %b) : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// bf16 arithmetic computes and returns f32 in nvFuser.
func.func @bad_promotion(%a: tensor<2x8xbf16>, %b: tensor<2x8xbf16>) {
  // expected-error@+1 {{'fuser.add' op result #0 has type tensor<2x8xbf16> but nvFuser's rules give tensor<2x8xf32>}}
  %0 = "fuser.add"(%a, %b) : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return
}

// -----

func.func @bad_result_shape(%a: tensor<2x8xf32>) {
  // expected-error@+1 {{'fuser.neg' op result #0 has type tensor<2x4xf32> but nvFuser's rules give tensor<2x8xf32>}}
  %0 = "fuser.neg"(%a) : (tensor<2x8xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @compare_gives_bool(%a: tensor<4xf32>) {
  // expected-error@+1 {{result #0 has type tensor<4xf32> but nvFuser's rules give tensor<4xi1>}}
  %0 = "fuser.lt"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @scalar_result_is_scalar(%a: f64) {
  // expected-error@+1 {{result #0 has type tensor<f64> but nvFuser's rules give f64}}
  %0 = "fuser.neg"(%a) : (f64) -> tensor<f64>
  return
}

// -----

func.func @bitwise_on_float(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.bitwise_and' op bitwise ops take integer or bool operands only}}
  %0 = "fuser.bitwise_and"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_condition(%c: tensor<4xf32>, %a: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.where' op where condition must be i1 (bool)}}
  %0 = "fuser.where"(%c, %a, %a) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @unsupported_operand(%a: tensor<4xi8>) {
  // expected-error@+1 {{'fuser.neg' op operand #0 has an unsupported type}}
  %0 = "fuser.neg"(%a) : (tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @operand_rank(%a: tensor<1x1x1x1x1x1x1x1x1xf32>) {
  // expected-error@+1 {{'fuser.reshape' op operand #0 has rank > 8}}
  %0 = "fuser.reshape"(%a) : (tensor<1x1x1x1x1x1x1x1x1xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @result_rank(%a: f32) {
  // expected-error@+1 {{'fuser.neg' op result rank 9 exceeds 8}}
  %0 = "fuser.neg"(%a) : (f32) -> tensor<1x1x1x1x1x1x1x1x1xf32>
  return
}

// -----

// An op is described for the inference with at most 32 attributes (the
// verifier used to drop those past 16 silently).
func.func @too_many_attributes(%a: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.neg' op has too many attributes (33)}}
  %0 = "fuser.neg"(%a) {a0 = 0 : i64, a1 = 1 : i64, a2 = 2 : i64, a3 = 3 : i64, a4 = 4 : i64, a5 = 5 : i64, a6 = 6 : i64, a7 = 7 : i64, a8 = 8 : i64, a9 = 9 : i64, a10 = 10 : i64, a11 = 11 : i64, a12 = 12 : i64, a13 = 13 : i64, a14 = 14 : i64, a15 = 15 : i64, a16 = 16 : i64, a17 = 17 : i64, a18 = 18 : i64, a19 = 19 : i64, a20 = 20 : i64, a21 = 21 : i64, a22 = 22 : i64, a23 = 23 : i64, a24 = 24 : i64, a25 = 25 : i64, a26 = 26 : i64, a27 = 27 : i64, a28 = 28 : i64, a29 = 29 : i64, a30 = 30 : i64, a31 = 31 : i64, a32 = 32 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cast_dtype(%a: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.cast' op cast needs a result dtype}}
  %0 = "fuser.cast"(%a) : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

func.func @cast_keeps_shape(%a: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.cast' op result #0 has type tensor<5xbf16> but nvFuser's rules give tensor<4xbf16>}}
  %0 = "fuser.cast"(%a) : (tensor<4xf32>) -> tensor<5xbf16>
  return
}
