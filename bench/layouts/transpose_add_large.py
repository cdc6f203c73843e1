import torch
from nvfuser import FusionDefinition, DataType

# A true transpose: the output follows T0's row-major layout, so T1 (also
# row-major) is read across its rows; shared-memory tiles (the transpose
# schedule) keep 16-byte accesses on both sides.
def fusion_transpose_add(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.permute(T1, dims=[1, 0])
    T3 = fd.ops.add(T0, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_transpose_add(fd)

inputs = [
    torch.randn((16384, 8192), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((8192, 16384), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
