// fuser.inputs disagrees with the argument type: fuser-specialize-shapes fails.
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion, fuser.inputs = [{sizes = array<i64: 4>}]} {
  %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
