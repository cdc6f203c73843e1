import torch
from nvfuser import FusionDefinition, DataType

# A permute [0, 2, 1, 3] of a computed value before the output: the
# innermost dim is unchanged, so every access stays contiguous along it.
def fusion_permute(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.mul(T1, T1)
    T3 = fd.ops.cast(T2, dtype=DataType.BFloat16)
    T4 = fd.ops.permute(T3, dims=[0, 2, 1, 3])
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_permute(fd)

inputs = [
    torch.randn((2, 16, 24, 64), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
