import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_located(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.exp(T1)
    T3 = fd.ops.mul(T2, T1)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    nvfuser_fusion_located(fd)

inputs = [
    torch.randn((64, 256), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
