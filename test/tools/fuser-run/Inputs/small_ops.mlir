// A small fusion with outputs of several dtypes, a scalar output and a
// result with a stride_order, for fuser-run's printing and .npy files.
func.func @small(%x: tensor<3x4xbf16>, %y: tensor<4xf32>, %n: i64)
    -> (tensor<3x4xbf16>, tensor<3x4xi1>, tensor<4xf16> {fuser.stride_order = array<i64: 0>}, tensor<3xf32>,
        tensor<?xi64>, i64, tensor<4x3xf32> {fuser.stride_order = array<i64: 0, 1>})
    attributes {fuser.fusion, fuser.inputs = [
      {factory = "randn", dtype = bf16, shape = array<i64: 24>, sizes = array<i64: 3, 4>, strides = array<i64: 8, 2>, offset = 1 : i64},
      {factory = "arange", dtype = f32, shape = array<i64: 4>, start = 0.0 : f64, end = 4.0 : f64, step = 1.0 : f64},
      {value = 5 : i64}]} {
  %c = "fuser.cast"(%x) : (tensor<3x4xbf16>) -> tensor<3x4xf32>
  %b = "fuser.broadcast_in_dim"(%y) {broadcast_dims = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  %m = "fuser.mul"(%c, %b) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %o = "fuser.cast"(%m) : (tensor<3x4xf32>) -> tensor<3x4xbf16>
  %z = "fuser.scalar"() {value = 0.0 : f64} : () -> f64
  %p = "fuser.gt"(%c, %z) : (tensor<3x4xf32>, f64) -> tensor<3x4xi1>
  %h = "fuser.cast"(%y) : (tensor<4xf32>) -> tensor<4xf16>
  %s = "fuser.sum"(%m) {dims = array<i64: 1>, keepdim = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  %one = "fuser.scalar"() {value = 1 : i64} : () -> i64
  %two = "fuser.scalar"() {value = 2 : i64} : () -> i64
  %i = "fuser.iota"(%n, %one, %two) : (i64, i64, i64) -> tensor<?xi64>
  %k = "fuser.mul"(%n, %two) : (i64, i64) -> i64
  %t = "fuser.permute"(%m) {dims = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %o, %p, %h, %s, %i, %k, %t : tensor<3x4xbf16>, tensor<3x4xi1>, tensor<4xf16>, tensor<3xf32>, tensor<?xi64>, i64, tensor<4x3xf32>
}
