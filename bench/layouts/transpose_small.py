import torch
from nvfuser import FusionDefinition, DataType

# A true transpose: the input's innermost dim is the output's outer one.
def fusion_transpose(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.mul(T1, T1)
    T3 = fd.ops.cast(T2, dtype=DataType.BFloat16)
    T4 = fd.ops.permute(T3, dims=[1, 0])
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_transpose(fd)

inputs = [
    torch.randn((200, 328), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
