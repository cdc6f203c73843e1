import torch
from nvfuser import FusionDefinition, DataType

# A slice starting at column 5 of rows of 261 f16: every row at another alignment.
def fusion_slice5_f16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 5], end_indices=[64, 261], strides=[1, 1])
    T2 = fd.ops.mul(T1, T1)
    T3 = fd.ops.cast(T2, dtype=DataType.Half)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_slice5_f16(fd)

inputs = [
    torch.randn((64, 261), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
