// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id1(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}, %arg1: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}, %arg2: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>}) -> tensor<2x16x1024x32xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 1179648>, sizes = array<i64: 2, 1024, 576>, strides = array<i64: 589824, 576, 1>}]} {
    %0 = "fuser.reshape"(%arg2) : (tensor<?x?x?xbf16>) -> tensor<2x1024x1x18x32xbf16>
    %1 = "fuser.permute"(%0) {dims = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x1024x1x18x32xbf16>) -> tensor<2x1x18x1024x32xbf16>
    %2 = "fuser.slice"(%1) {end_indices = array<i64: 2, 1, 16, 1024, 32>, start_indices = array<i64: 0, 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1, 1>} : (tensor<2x1x18x1024x32xbf16>) -> tensor<2x1x16x1024x32xbf16>
    %3 = "fuser.reshape"(%2) : (tensor<2x1x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
    %4 = "fuser.slice"(%3) {end_indices = array<i64: 2, 16, 1024, 16>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
    %5 = "fuser.slice"(%3) {end_indices = array<i64: 2, 16, 1024, 32>, start_indices = array<i64: 0, 0, 0, 16>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
    %6 = "fuser.slice"(%3) {end_indices = array<i64: 2, 16, 1024, 0>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x0xbf16>
    %7 = "fuser.segment_set"(%3) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
    %8 = "fuser.segment_set"(%4) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
    %9 = "fuser.segment_set"(%5) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xbf16>
    %10 = "fuser.segment_set"(%6) : (tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x0xbf16>
    %11 = "fuser.cast"(%9) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
    %12 = "fuser.neg"(%11) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xf32>
    %13 = "fuser.cast"(%12) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xbf16>
    %14 = "fuser.cat"(%13, %8) {dim = 3 : i64} : (tensor<2x16x1024x16xbf16>, tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x32xbf16>
    %15 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %16 = "fuser.cast"(%7) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %17 = "fuser.cast"(%15) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %18 = "fuser.mul"(%16, %17) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %19 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %20 = "fuser.cast"(%14) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %21 = "fuser.cast"(%19) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %22 = "fuser.mul"(%20, %21) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %23 = "fuser.add"(%18, %22) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %24 = "fuser.cast"(%23) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
    %25 = "fuser.cat"(%24, %10) {dim = 3 : i64} : (tensor<2x16x1024x32xbf16>, tensor<2x16x1024x0xbf16>) -> tensor<2x16x1024x32xbf16>
    return %25 : tensor<2x16x1024x32xbf16>
  }
}

