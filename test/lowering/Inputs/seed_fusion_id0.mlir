// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id0(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}, %arg1: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}, %arg2: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 0, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>}, %arg3: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 0, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>}, %arg4: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 0, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>}, %arg5: tensor<?x?x?x?xbf16> {fuser.contiguity = array<i64: 1, 0, 1, 1>, fuser.stride_order = array<i64: 3, 1, 2, 0>}) -> tensor<2x16x1024x?xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 32768>, sizes = array<i64: 1024, 32>, strides = array<i64: 32, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 1179568>, sizes = array<i64: 2, 16, 1024, 16>, strides = array<i64: 589824, 32, 576, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 1179568>, sizes = array<i64: 2, 16, 1024, 16>, strides = array<i64: 589824, 32, 576, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 0>, sizes = array<i64: 2, 16, 1024, 0>, strides = array<i64: 589824, 32, 576, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 1179584>, sizes = array<i64: 2, 16, 1024, 32>, strides = array<i64: 589824, 32, 576, 1>}]} {
    %0 = "fuser.cast"(%arg3) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32>
    %1 = "fuser.neg"(%0) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
    %2 = "fuser.cast"(%1) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
    %3 = "fuser.cat"(%2, %arg2) {dim = 3 : i64} : (tensor<?x?x?x?xbf16>, tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16>
    %4 = "fuser.broadcast_in_dim"(%arg0) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %5 = "fuser.cast"(%arg5) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32>
    %6 = "fuser.cast"(%4) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %7 = "fuser.mul"(%5, %6) : (tensor<?x?x?x?xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %8 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 2, 3>} : (tensor<?x?xbf16>) -> tensor<2x16x1024x32xbf16>
    %9 = "fuser.cast"(%3) : (tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xf32>
    %10 = "fuser.cast"(%8) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %11 = "fuser.mul"(%9, %10) : (tensor<?x?x?x?xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %12 = "fuser.add"(%7, %11) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %13 = "fuser.cast"(%12) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
    %14 = "fuser.cat"(%13, %arg4) {dim = 3 : i64} : (tensor<2x16x1024x32xbf16>, tensor<?x?x?x?xbf16>) -> tensor<2x16x1024x?xbf16>
    return %14 : tensor<2x16x1024x?xbf16>
  }
}

