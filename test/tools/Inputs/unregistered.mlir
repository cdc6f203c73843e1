func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "mydialect.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
