import torch
from nvfuser import FusionDefinition, DataType

# x * x written channels-last (NHWC in memory) from an NCHW input.
def fusion_to_last_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.Float)
    fd.add_output(T2, stride_order=[3, 0, 2, 1])

with FusionDefinition() as fd:
    fusion_to_last_f32(fd)

inputs = [
    torch.randn((2, 32, 14, 14), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
