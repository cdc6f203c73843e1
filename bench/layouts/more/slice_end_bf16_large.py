import torch
from nvfuser import FusionDefinition, DataType

# x[:, :-1] * x[:, :-1]: rows of C - 1 read at a row stride of C (the last column dropped).
def fusion_slice_end_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 0], end_indices=[16384, 8191], strides=[1, 1])
    T2 = fd.ops.mul(T1, T1)
    T3 = fd.ops.cast(T2, dtype=DataType.BFloat16)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_slice_end_bf16(fd)

inputs = [
    torch.randn((16384, 8192), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
