import torch
from nvfuser import FusionDefinition, DataType

def var_mean_outer_wide(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2, T3 = fd.ops.var_mean(T1, dims=[0], correction=1, keepdim=False)
    fd.add_output(T2)
    fd.add_output(T3)

with FusionDefinition() as fd:
    var_mean_outer_wide(fd)

inputs = [
    torch.randn((40, 34816), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
