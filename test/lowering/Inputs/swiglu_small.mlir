// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id114(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}) -> tensor<256x1024xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 256, 2048>, sizes = array<i64: 256, 2048>, strides = array<i64: 2048, 1>}]} {
    %0 = "fuser.slice"(%arg0) {end_indices = array<i64: 256, 1024>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x?xbf16>) -> tensor<256x1024xbf16>
    %1 = "fuser.slice"(%arg0) {end_indices = array<i64: 256, 2048>, start_indices = array<i64: 0, 1024>, strides = array<i64: 1, 1>} : (tensor<?x?xbf16>) -> tensor<256x1024xbf16>
    %2 = "fuser.cast"(%0) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
    %3 = "fuser.sigmoid"(%2) : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %4 = "fuser.mul"(%2, %3) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %5 = "fuser.cast"(%1) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
    %6 = "fuser.mul"(%4, %5) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %7 = "fuser.cast"(%6) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
    return %7 : tensor<256x1024xbf16>
  }
}

