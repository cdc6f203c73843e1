import torch
from nvfuser import FusionDefinition, DataType

def bias_grad_wide(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.sum(T1, dims=[0], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.cast(T2, dtype=DataType.BFloat16)
    fd.add_output(T3)

with FusionDefinition() as fd:
    bias_grad_wide(fd)

inputs = [
    torch.randn((96, 34816), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
