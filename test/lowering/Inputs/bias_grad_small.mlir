// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id118(%arg0: tensor<?x?x?xbf16> {fuser.contiguity = array<i64: 1, 1, 1>, fuser.stride_order = array<i64: 2, 1, 0>}) -> tensor<?xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 4, 256, 1024>, sizes = array<i64: 4, 256, 1024>, strides = array<i64: 262144, 1024, 1>}]} {
    %0 = "fuser.cast"(%arg0) : (tensor<?x?x?xbf16>) -> tensor<?x?x?xf32>
    %1 = "fuser.sum"(%0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x?x?xf32>) -> tensor<?xf32>
    %2 = "fuser.cast"(%1) : (tensor<?xf32>) -> tensor<?xbf16>
    return %2 : tensor<?xbf16>
  }
}

