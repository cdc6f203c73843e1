import torch
from nvfuser import FusionDefinition, DataType

# x + permute(y, [1, 0]), 16384 x 7 bf16: ragged tiles.
def fusion_tadd_skinny_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.permute(T1, dims=[1, 0])
    T3 = fd.ops.add(T0, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_tadd_skinny_bf16(fd)

inputs = [
    torch.randn((16384, 7), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((7, 16384), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
