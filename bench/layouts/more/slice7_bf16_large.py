import torch
from nvfuser import FusionDefinition, DataType

# A slice starting at column 7 of rows of 8199 bf16: every row at another alignment.
def fusion_slice7_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 7], end_indices=[16384, 8199], strides=[1, 1])
    T2 = fd.ops.mul(T1, T1)
    T3 = fd.ops.cast(T2, dtype=DataType.BFloat16)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_slice7_bf16(fd)

inputs = [
    torch.randn((16384, 8199), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
