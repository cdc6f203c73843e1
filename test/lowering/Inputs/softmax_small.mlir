// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id108(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}) -> tensor<256x1000xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 256, 1000>, sizes = array<i64: 256, 1000>, strides = array<i64: 1000, 1>}]} {
    %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
    %1 = "fuser.max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
    %2 = "fuser.broadcast_in_dim"(%1) {broadcast_dims = array<i64: 0>} : (tensor<?xf32>) -> tensor<256x1000xf32>
    %3 = "fuser.sub"(%0, %2) : (tensor<?x?xf32>, tensor<256x1000xf32>) -> tensor<256x1000xf32>
    %4 = "fuser.exp"(%3) : (tensor<256x1000xf32>) -> tensor<256x1000xf32>
    %5 = "fuser.sum"(%4) {dims = array<i64: 1>, keepdim = false} : (tensor<256x1000xf32>) -> tensor<256xf32>
    %6 = "fuser.broadcast_in_dim"(%5) {broadcast_dims = array<i64: 0>} : (tensor<256xf32>) -> tensor<256x1000xf32>
    %7 = "fuser.div"(%4, %6) : (tensor<256x1000xf32>, tensor<256x1000xf32>) -> tensor<256x1000xf32>
    %8 = "fuser.cast"(%7) : (tensor<256x1000xf32>) -> tensor<256x1000xbf16>
    return %8 : tensor<256x1000xbf16>
  }
}

