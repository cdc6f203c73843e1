// Imported from ../shared/corpus by fuser-translate --import-nvfuser (the importer's tool).
module {
  func.func @nvfuser_fusion_id112(%arg0: tensor<?x?xbf16> {fuser.contiguity = array<i64: 1, 1>, fuser.stride_order = array<i64: 1, 0>}) -> tensor<?x?xbf16> attributes {fuser.fusion, fuser.inputs = [{dtype = bf16, factory = "randn", offset = 0 : i64, shape = array<i64: 256, 1024>, sizes = array<i64: 256, 1024>, strides = array<i64: 1024, 1>}]} {
    %0 = "fuser.cast"(%arg0) : (tensor<?x?xbf16>) -> tensor<?x?xf32>
    %1 = "fuser.scalar"() {value = 5.000000e-01 : f64} : () -> f64
    %2 = "fuser.mul"(%0, %1) : (tensor<?x?xf32>, f64) -> tensor<?x?xf32>
    %3 = "fuser.mul"(%0, %0) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %4 = "fuser.mul"(%3, %0) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %5 = "fuser.scalar"() {value = 4.471500e-02 : f64} : () -> f64
    %6 = "fuser.mul"(%4, %5) : (tensor<?x?xf32>, f64) -> tensor<?x?xf32>
    %7 = "fuser.add"(%0, %6) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %8 = "fuser.scalar"() {value = 0.79788456080286541 : f64} : () -> f64
    %9 = "fuser.mul"(%7, %8) : (tensor<?x?xf32>, f64) -> tensor<?x?xf32>
    %10 = "fuser.tanh"(%9) : (tensor<?x?xf32>) -> tensor<?x?xf32>
    %11 = "fuser.scalar"() {value = 1.000000e+00 : f64} : () -> f64
    %12 = "fuser.add"(%10, %11) : (tensor<?x?xf32>, f64) -> tensor<?x?xf32>
    %13 = "fuser.mul"(%2, %12) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %14 = "fuser.cast"(%13) : (tensor<?x?xf32>) -> tensor<?x?xbf16>
    return %14 : tensor<?x?xbf16>
  }
}

