import torch
from nvfuser import FusionDefinition, DataType

# cat(x[:, 1:], y) along the inner dim: a misaligned slice beside an aligned input.
def fusion_cat_slice1_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[64, 257], strides=[1, 1])
    T3 = fd.ops.cat([T2, T1], dim=1)
    T4 = fd.ops.mul(T3, T3)
    T5 = fd.ops.cast(T4, dtype=DataType.BFloat16)
    fd.add_output(T5)

with FusionDefinition() as fd:
    fusion_cat_slice1_bf16(fd)

inputs = [
    torch.randn((64, 257), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((64, 256), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
