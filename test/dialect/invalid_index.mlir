// Negative tests of the C verifier for the index-dependent ops (triu, tril) and the data-dependent reads
// (index_select, gather, take_along_axis).
// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @float_index(%a: tensor<8x16xf32>, %i: tensor<4xf32>) {
  // expected-error@+1 {{'fuser.index_select' op index must be an integer tensor (i64 or i32), not f32}}
  %0 = "fuser.index_select"(%a, %i) {dim = 0 : i64} : (tensor<8x16xf32>, tensor<4xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @index_rank(%a: tensor<8x16xf32>, %i: tensor<4x2xi64>) {
  // expected-error@+1 {{'fuser.index_select' op index must be 1-D (it has rank 2)}}
  %0 = "fuser.index_select"(%a, %i) {dim = 0 : i64} : (tensor<8x16xf32>, tensor<4x2xi64>) -> tensor<4x16xf32>
  return
}

// -----

func.func @gather_rank(%a: tensor<8x16xf32>, %i: tensor<4xi64>) {
  // expected-error@+1 {{'fuser.gather' op index has rank 1 but arg has rank 2}}
  %0 = "fuser.gather"(%a, %i) {dim = 0 : i64} : (tensor<8x16xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @dim_range(%a: tensor<8x16xf32>, %i: tensor<8x4xi64>) {
  // expected-error@+1 {{'fuser.gather' op dim 2 is out of range [0, 2)}}
  %0 = "fuser.gather"(%a, %i) {dim = 2 : i64} : (tensor<8x16xf32>, tensor<8x4xi64>) -> tensor<8x4xf32>
  return
}

// -----

func.func @gather_extent(%a: tensor<8x16xf32>, %i: tensor<9x4xi64>) {
  // expected-error@+1 {{'fuser.gather' op index extent exceeds arg extent in dim 0 (9 > 8)}}
  %0 = "fuser.gather"(%a, %i) {dim = 1 : i64} : (tensor<8x16xf32>, tensor<9x4xi64>) -> tensor<9x4xf32>
  return
}

// -----

func.func @take_extent(%a: tensor<8x16xf32>, %i: tensor<6x4xi64>) {
  // expected-error@+1 {{'fuser.take_along_axis' op arg and index dim 0 extents 8 and 6 differ}}
  %0 = "fuser.take_along_axis"(%a, %i) {dim = 1 : i64} : (tensor<8x16xf32>, tensor<6x4xi64>) -> tensor<8x4xf32>
  return
}

// -----

func.func @zero_dim(%a: tensor<f32>, %i: tensor<4xi64>) {
  // expected-error@+1 {{'fuser.index_select' op arg must not be a 0-dim tensor}}
  %0 = "fuser.index_select"(%a, %i) {dim = 0 : i64} : (tensor<f32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @scalar_index(%a: tensor<8xf32>, %i: i64) {
  // expected-error@+1 {{'fuser.index_select' op one of operand 'arg', operand 'index', result 'result': expected base type 'builtin.tensor' but got 'builtin.integer'}}
  %0 = "fuser.index_select"(%a, %i) {dim = 0 : i64} : (tensor<8xf32>, i64) -> tensor<1xf32>
  return
}

// -----

func.func @no_dim(%a: tensor<8xf32>, %i: tensor<4xi64>) {
  // expected-error@+1 {{'fuser.gather' op attribute "dim" is expected but not provided}}
  %0 = "fuser.gather"(%a, %i) : (tensor<8xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @result_type(%a: tensor<8x16xf32>, %i: tensor<4xi64>) {
  // expected-error@+1 {{'fuser.index_select' op result #0 has type}}
  %0 = "fuser.index_select"(%a, %i) {dim = 0 : i64} : (tensor<8x16xf32>, tensor<4xi64>) -> tensor<8x16xf32>
  return
}

// -----

func.func @triu_rank(%a: tensor<8xf32>) {
  // expected-error@+1 {{'fuser.triu' op triu needs a tensor of rank >= 2 (rank 1)}}
  %0 = "fuser.triu"(%a) {diagonal = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @triu_no_diagonal(%a: tensor<8x8xf32>) {
  // expected-error@+1 {{'fuser.triu' op attribute "diagonal" is expected but not provided}}
  %0 = "fuser.triu"(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @tril_rank(%a: tensor<f64>) {
  // expected-error@+1 {{'fuser.tril' op tril needs a tensor of rank >= 2 (rank 0)}}
  %0 = "fuser.tril"(%a) {diagonal = 1 : i64} : (tensor<f64>) -> tensor<f64>
  return
}

// -----

func.func @tril_no_diagonal(%a: tensor<8x8xf32>) {
  // expected-error@+1 {{'fuser.tril' op attribute "diagonal" is expected but not provided}}
  %0 = "fuser.tril"(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return
}
