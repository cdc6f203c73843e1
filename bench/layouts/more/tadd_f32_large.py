import torch
from nvfuser import FusionDefinition, DataType

# x + permute(y, [1, 0]), 8192 x 8192 f32: ragged tiles.
def fusion_tadd_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.permute(T1, dims=[1, 0])
    T3 = fd.ops.add(T0, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.Float)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_tadd_f32(fd)

inputs = [
    torch.randn((8192, 8192), dtype=torch.float32, device='cuda:0'),
    torch.randn((8192, 8192), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
