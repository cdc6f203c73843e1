// nvFuser issue #2613's fusion id0 (../shared/corpus/seed/seed_fusion_id0.py)
// written by hand in the fuser dialect, with its inputs block: T2..T5 are
// strided views (as_strided) of qkv-like storages.
module {
  func.func @nvfuser_fusion_id0(
      %arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
      %arg1: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
      %arg2: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 0, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>},
      %arg3: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 0, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>},
      %arg4: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 0, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>},
      %arg5: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 1, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>})
      -> tensor<2x16x1024x?xbf16>
      attributes {fuser.fusion, fuser.inputs = [
        {factory = "randn", dtype = bf16, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>, offset = 0 : i64},
        {factory = "randn", dtype = bf16, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>, offset = 0 : i64},
        {factory = "randn", dtype = bf16, shape = array<i64: 1179568>, sizes = array<i64: 2, 16, 1024, 16>, strides = array<i64: 589824, 32, 576, 1>, offset = 0 : i64},
        {factory = "randn", dtype = bf16, shape = array<i64: 1179568>, sizes = array<i64: 2, 16, 1024, 16>, strides = array<i64: 589824, 32, 576, 1>, offset = 0 : i64},
        {factory = "randn", dtype = bf16, shape = array<i64: 0>, sizes = array<i64: 2, 16, 1024, 0>, strides = array<i64: 589824, 32, 576, 1>, offset = 0 : i64},
        {factory = "randn", dtype = bf16, shape = array<i64: 1179584>, sizes = array<i64: 2, 16, 1024, 32>, strides = array<i64: 589824, 32, 576, 1>, offset = 0 : i64}]} {
    %6 = "fuser.cast"(%arg3) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32>
    %7 = "fuser.neg"(%6) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
    %8 = "fuser.cast"(%7) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
    %9 = "fuser.cat"(%8, %arg2) {dim = 3 : i64} : (tensor<?x?x?x?xbf16>, tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16>
    %15 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %16 = "fuser.cast"(%arg5) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32>
    %17 = "fuser.cast"(%15) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %18 = "fuser.mul"(%16, %17) : (tensor<?x?x?x?xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %24 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %25 = "fuser.cast"(%9) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32>
    %26 = "fuser.cast"(%24) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %27 = "fuser.mul"(%25, %26) : (tensor<?x?x?x?xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %28 = "fuser.add"(%18, %27) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %29 = "fuser.cast"(%28) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
    %30 = "fuser.cat"(%29, %arg4) {dim = 3 : i64} : (tensor<2x16x1024x32xbf16>, tensor<?x?x?x?xbf16>) -> tensor<2x16x1024x?xbf16>
    return %30 : tensor<2x16x1024x?xbf16>
  }
}
