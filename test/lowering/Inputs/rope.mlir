// A RoPE-like kernel in the shape of seed fusion id0 after segmentation:
// strided bf16 views of qkv (row stride 576), cat on the last dim, two
// broadcast inputs (cos/sin tables), a contiguous output.
module {
  func.func private @rope_k0(
      %cos: tensor<1024x32xbf16> {fuser.strides = array<i64: 32, 1>},
      %sin: tensor<1024x32xbf16> {fuser.strides = array<i64: 32, 1>},
      %x2: tensor<2x16x1024x16xbf16> {fuser.strides = array<i64: 589824, 32, 576, 1>},
      %x1: tensor<2x16x1024x16xbf16> {fuser.strides = array<i64: 589824, 32, 576, 1>},
      %x: tensor<2x16x1024x32xbf16> {fuser.strides = array<i64: 589824, 32, 576, 1>})
      -> (tensor<2x16x1024x32xbf16> {fuser.strides = array<i64: 524288, 32768, 32, 1>})
      attributes {fuser.kernel} {
    %0 = "fuser.cast"(%x1) : (tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x16xf32>
    %1 = "fuser.neg"(%0) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xf32>
    %2 = "fuser.cast"(%1) : (tensor<2x16x1024x16xf32>) -> tensor<2x16x1024x16xbf16>
    %3 = "fuser.cat"(%2, %x2) {dim = 3 : i64} : (tensor<2x16x1024x16xbf16>, tensor<2x16x1024x16xbf16>) -> tensor<2x16x1024x32xbf16>
    %4 = "fuser.broadcast_in_dim"(%cos) {broadcast_dims = array<i64: 2, 3>} : (tensor<1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
    %5 = "fuser.cast"(%x) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %6 = "fuser.cast"(%4) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %7 = "fuser.mul"(%5, %6) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %8 = "fuser.broadcast_in_dim"(%sin) {broadcast_dims = array<i64: 2, 3>} : (tensor<1024x32xbf16>) -> tensor<2x16x1024x32xbf16>
    %9 = "fuser.cast"(%3) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %10 = "fuser.cast"(%8) : (tensor<2x16x1024x32xbf16>) -> tensor<2x16x1024x32xf32>
    %11 = "fuser.mul"(%9, %10) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %12 = "fuser.add"(%7, %11) : (tensor<2x16x1024x32xf32>, tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xf32>
    %13 = "fuser.cast"(%12) : (tensor<2x16x1024x32xf32>) -> tensor<2x16x1024x32xbf16>
    func.return %13 : tensor<2x16x1024x32xbf16>
  }
}
