func.func @f(%a: tensor<4x8xf32>) {
  %p = fuser.add %a, %a : tensor<4x8xf32>
  return
}
