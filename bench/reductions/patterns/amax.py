import torch
from nvfuser import FusionDefinition, DataType

def amax(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.abs(T1)
    T3 = fd.ops.max(T2, dims=[0, 1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T3)

with FusionDefinition() as fd:
    amax(fd)

inputs = [
    torch.randn((512, 1024), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
