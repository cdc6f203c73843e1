// Softmax over dim 1 of [B, C, W] with every extent symbolic (no static
// broadcast shape pins C): the outer persistent schedule cannot size its
// held rows, so the reductions stay cut (middle-normalization.test).
module {
  func.func @softmax_middle_symbolic(%arg0: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>}) -> tensor<?x?x?xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 8, 64, 128>, sizes = array<i64: 8, 64, 128>, strides = array<i64: 8192, 128, 1>}]} {
    %s0 = "fuser.size"(%arg0) {dim = 0 : i64} : (tensor<?x?x?xbf16>) -> i64
    %s1 = "fuser.size"(%arg0) {dim = 1 : i64} : (tensor<?x?x?xbf16>) -> i64
    %s2 = "fuser.size"(%arg0) {dim = 2 : i64} : (tensor<?x?x?xbf16>) -> i64
    %0 = "fuser.cast"(%arg0) : (tensor<?x?x?xbf16>) -> tensor<?x?x?xf32>
    %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?x?xf32>
    %2 = "fuser.broadcast_in_dim"(%1, %s0, %s1, %s2) {broadcast_dims = array<i64: 0, 2>} : (tensor<?x?xf32>, i64, i64, i64) -> tensor<?x?x?xf32>
    %3 = "fuser.sub"(%0, %2) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %4 = "fuser.exp"(%3) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %5 = "fuser.sum"(%4) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?x?xf32>
    %6 = "fuser.broadcast_in_dim"(%5, %s0, %s1, %s2) {broadcast_dims = array<i64: 0, 2>} : (tensor<?x?xf32>, i64, i64, i64) -> tensor<?x?x?xf32>
    %7 = "fuser.div"(%4, %6) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %8 = "fuser.cast"(%7) : (tensor<?x?x?xf32>) -> tensor<?x?x?xbf16>
    return %8 : tensor<?x?x?xbf16>
  }
}
