import torch
from nvfuser import FusionDefinition, DataType

# (x - y)^2 with y at a pointer 1 elements off its 16-byte block.
def fusion_two_mis1_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.sub(T0, T1)
    T3 = fd.ops.mul(T2, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.Float)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_two_mis1_f32(fd)

inputs = [
    torch.randn((128, 1024), dtype=torch.float32, device='cuda:0'),
    torch.randn((131073,), dtype=torch.float32, device='cuda:0').as_strided((128, 1024), (1024, 1), 1),
]
fd.execute(inputs)
