import torch
from nvfuser import FusionDefinition, DataType

# x + permute(y, [0, 2, 1]): a batched true transpose (y read across its rows).
def fusion_t021_add_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.ops.permute(T1, dims=[0, 2, 1])
    T3 = fd.ops.add(T0, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_t021_add_bf16(fd)

inputs = [
    torch.randn((4, 100, 130), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((4, 130, 100), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
