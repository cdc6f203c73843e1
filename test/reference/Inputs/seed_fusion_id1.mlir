// nvFuser issue #2613's fusion id1 (../shared/corpus/seed/seed_fusion_id1.py)
// written by hand in the fuser dialect, with its inputs block.
module {
  func.func @nvfuser_fusion_id1(
      %arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
      %arg1: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>},
      %arg2: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>})
      -> tensor<2x16x1024x32xbf16>
      attributes {fuser.fusion, fuser.inputs = [
        {factory = "randn", dtype = bf16, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>, offset = 0 : i64},
        {factory = "randn", dtype = bf16, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>, offset = 0 : i64},
        {factory = "randn", dtype = bf16, shape = array<i64: 1179648>, sizes = array<i64: 2, 1024, 576>, strides = array<i64: 589824, 576, 1>, offset = 0 : i64}]} {
    %9 = "fuser.reshape"(%arg2) : (tensor<?x?x?xbf16>) -> tensor<2x1024x1x18x32xbf16>
    %10 = "fuser.permute"(%9) {dims = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x1024x1x18x32xbf16>) -> tensor<2x1x18x1024x32xbf16>
    %11 = "fuser.slice"(%10) {start_indices = array<i64: 0, 0, 0, 0, 0>, end_indices = array<i64: 2, 1, 16, 1024, 32>, strides = array<i64: 1, 1, 1, 1, 1>} : (tensor<2x1x18x1024x32xbf16>) -> tensor<2x1x16x1024x32xbf16>
    %17 = "fuser.reshape"(%11) : (tensor<2x1x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
    %18 = "fuser.slice"(%17) {start_indices = array<i64: 0, 0, 0, 0>, end_indices = array<i64: 2, 16, 1024, 16>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
    %19 = "fuser.slice"(%17) {start_indices = array<i64: 0, 0, 0, 16>, end_indices = array<i64: 2, 16, 1024, 32>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
    %20 = "fuser.slice"(%17) {start_indices = array<i64: 0, 0, 0, 0>, end_indices = array<i64: 2, 16, 1024, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x0xbf16>
    %s17 = "fuser.segment_set"(%17) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
    %s18 = "fuser.segment_set"(%18) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
    %s19 = "fuser.segment_set"(%19) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
    %s20 = "fuser.segment_set"(%20) : (tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x0xbf16>
    %21 = "fuser.cast"(%s19) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
    %22 = "fuser.neg"(%21) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xf32>
    %23 = "fuser.cast"(%22) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xbf16>
    %24 = "fuser.cat"(%23, %s18) {dim = 3 : i64} : (tensor<2x16x1024x16xbf16>, tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x32xbf16>
    %30 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %31 = "fuser.cast"(%s17) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %32 = "fuser.cast"(%30) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %33 = "fuser.mul"(%31, %32) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %39 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %40 = "fuser.cast"(%24) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %41 = "fuser.cast"(%39) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %42 = "fuser.mul"(%40, %41) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %43 = "fuser.add"(%33, %42) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %44 = "fuser.cast"(%43) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
    %45 = "fuser.cat"(%44, %s20) {dim = 3 : i64} : (tensor<2x16x1024x32xbf16>, tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x32xbf16>
    return %45 : tensor<2x16x1024x32xbf16>
  }
}
