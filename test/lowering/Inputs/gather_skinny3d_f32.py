import torch
from nvfuser import FusionDefinition, DataType

# x + permute(y, [0, 2, 1]), 4 x 3000 x 3 f32: rows of 3 (the gather variant).
def fusion_skinny3d_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.ops.permute(T1, dims=[0, 2, 1])
    T3 = fd.ops.add(T0, T2)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_skinny3d_f32(fd)

inputs = [
    torch.randn((4, 3000, 3), dtype=torch.float32, device='cuda:0'),
    torch.randn((4, 3, 3000), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
