// RUN: fuser-opt %s --verify-diagnostics --pass-pipeline='builtin.module(fuser-segment{max-kernel-ops=-1})'
// RUN: fuser-opt %s --verify-diagnostics --pass-pipeline='builtin.module(fuser-segment{max-kernel-ops=many})'
// A budget that is not a count is refused, at the module, before any cut.
// expected-error@+1 {{fuser-segment: max-kernel-ops must be an integer >= 0 (0: no budget)}}
module {
  func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {fuser.fusion} {
    %0 = "fuser.neg"(%a) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
