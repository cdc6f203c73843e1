// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id104(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}, %arg1: tensor<?xbf16> {fuser.contiguity = array<i64: 1>, fuser.stride_order = array<i64: 0>}) -> tensor<256x1024xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 256, 1024>, sizes = array<i64: 256, 1024>, strides = array<i64: 1024, 1>}, {dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 1024>, sizes = array<i64: 1024>, strides = array<i64: 1>}]} {
    %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
    %1 = "fuser.mul"(%0, %0) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %2 = "fuser.sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?xf32>) -> tensor<?xf32>
    %3 = "fuser.scalar"() {value = 1.024000e+03 : f64} : () -> f64
    %4 = "fuser.div"(%2, %3) : (tensor<?xf32>, f64) -> tensor<?xf32>
    %5 = "fuser.broadcast_in_dim"(%4) {broadcast_dims = array<i64: 0>} : (tensor<?xf32>) -> tensor<256x1xf32>
    %6 = "fuser.scalar"() {value = 9.9999999999999995E-7 : f64} : () -> f64
    %7 = "fuser.add"(%5, %6) : (tensor<256x1xf32>, f64) -> tensor<256x1xf32>
    %8 = "fuser.rsqrt"(%7) : (tensor<256x1xf32>) -> tensor<256x1xf32>
    %9 = "fuser.broadcast_in_dim"(%8) {broadcast_dims = array<i64: 0, 1>} : (tensor<256x1xf32>) -> tensor<256x1024xf32>
    %10 = "fuser.mul"(%0, %9) : (tensor<?x?xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %11 = "fuser.broadcast_in_dim"(%arg1) {broadcast_dims = array<i64: 1>} : (tensor<?xbf16>) -> tensor<256x1024xbf16>
    %12 = "fuser.cast"(%11) : (tensor<256x1024xbf16>) -> tensor<256x1024xf32>
    %13 = "fuser.mul"(%10, %12) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %14 = "fuser.cast"(%13) : (tensor<256x1024xf32>) -> tensor<256x1024xbf16>
    return %14 : tensor<256x1024xbf16>
  }
}

