import torch
from nvfuser import FusionDefinition, DataType

# reshape_merge_symbolic with D = 12: not a multiple of 8 (bf16 width), the
# `extent` condition fails at run time and a scalar variant runs.
def fusion_reshape_merge_d12(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    T3 = fd.ops.permute(T2, dims=[0, 2, 1, 3])
    S4 = fd.ops.size(T0, dim=0)
    S5 = fd.ops.size(T0, dim=1)
    S6 = fd.ops.size(T0, dim=2)
    S7 = fd.ops.size(T0, dim=3)
    S8 = fd.ops.mul(S5, S7)
    T9 = fd.ops.reshape(T3, new_shape=[S4, S6, S8])
    fd.add_output(T9)

with FusionDefinition() as fd:
    fusion_reshape_merge_d12(fd)

inputs = [
    torch.randn((3, 5, 17, 12), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
