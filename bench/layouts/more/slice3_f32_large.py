import torch
from nvfuser import FusionDefinition, DataType

# A slice starting at column 3 of rows of 8195 f32: every row at another alignment.
def fusion_slice3_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 3], end_indices=[8192, 8195], strides=[1, 1])
    T2 = fd.ops.mul(T1, T1)
    T3 = fd.ops.cast(T2, dtype=DataType.Float)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_slice3_f32(fd)

inputs = [
    torch.randn((8192, 8195), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
