func.func @truncated(%arg0: tensor<2x8xbf16>) -> tensor<2x8xf32> attributes {fuser.fusion} {
  %0 = "fuser.cast"(%arg0) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  %1 = "fuser.neg"(%0) : (tensor<2x8xf32>) -> tens