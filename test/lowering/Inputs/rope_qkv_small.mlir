// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id100(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}, %arg1: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}, %arg2: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>}) -> tensor<2x16x1024x32xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 1024, 32>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 1024, 32>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 2, 1024, 576>, sizes = array<i64: 2, 1024, 576>, strides = array<i64: 589824, 576, 1>}]} {
    %0 = "fuser.reshape"(%arg2) : (tensor<?x?x?xbf16>) -> tensor<2x1024x1x18x32xbf16>
    %1 = "fuser.permute"(%0) {dims = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x1024x1x18x32xbf16>) -> tensor<2x1x18x1024x32xbf16>
    %2 = "fuser.slice"(%1) {end_indices = array<i64: 2, 1, 16, 1024, 32>, start_indices = array<i64: 0, 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1, 1>} : (tensor<2x1x18x1024x32xbf16>) -> tensor<2x1x16x1024x32xbf16>
    %3 = "fuser.reshape"(%2) : (tensor<2x1x16x1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
    %4 = "fuser.slice"(%3) {end_indices = array<i64: 2, 16, 1024, 16>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
    %5 = "fuser.slice"(%3) {end_indices = array<i64: 2, 16, 1024, 32>, start_indices = array<i64: 0, 0, 0, 16>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x16xbf16>
    %6 = "fuser.cast"(%5) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
    %7 = "fuser.neg"(%6) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xf32>
    %8 = "fuser.cast"(%7) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xbf16>
    %9 = "fuser.cat"(%8, %4) {dim = 3 : i64} : (tensor<2x16x1024x16xbf16>, tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x32xbf16>
    %10 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %11 = "fuser.cast"(%3) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %12 = "fuser.cast"(%10) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %13 = "fuser.mul"(%11, %12) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %14 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %15 = "fuser.cast"(%9) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %16 = "fuser.cast"(%14) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %17 = "fuser.mul"(%15, %16) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %18 = "fuser.add"(%13, %17) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %19 = "fuser.cast"(%18) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
    return %19 : tensor<2x16x1024x32xbf16>
  }
}

