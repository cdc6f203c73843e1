import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double, is_cpu=False, stride_order=[0])
    T1 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.randn((1000,), dtype=torch.float64, device='cuda:0'),
]
fd.execute(inputs)
