# fd.ops.welford (issue 16): nvFuser's (avg, var_sum, n) over the inner dim
# of a bf16 matrix with a symbolic row length (n from fd.ops.size on the
# host) and over the last dim of a static f32 tensor; avg feeds a pointwise
# op as in a normalization.
import torch
from nvfuser import FusionDefinition, DataType

def welford_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[4, 6, 64], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T2, T3, T4 = fd.ops.welford(T0, dims=[1])
    T5 = fd.ops.neg(T2)
    T6, T7, T8 = fd.ops.welford(T1, [-1])
    fd.add_output(T5)
    fd.add_output(T3)
    fd.add_output(T4)
    fd.add_output(T6)
    fd.add_output(T7)
    fd.add_output(T8)

with FusionDefinition() as fd:
    welford_fusion(fd)

inputs = [
    torch.randn((16, 40), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((4, 6, 64), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
