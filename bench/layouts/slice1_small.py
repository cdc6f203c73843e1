import torch
from nvfuser import FusionDefinition, DataType

# One input read one element in: a slice starting at column 1 of a tensor
# with an odd row stride (C + 1), then pointwise math. Every row of the view
# starts at a different alignment.
def fusion_slice1(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[64, 257], strides=[1, 1])
    T2 = fd.ops.cast(T1, dtype=DataType.Float)
    T3 = fd.ops.mul(T2, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_slice1(fd)

inputs = [
    torch.randn((64, 257), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
