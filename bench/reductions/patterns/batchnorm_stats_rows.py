import torch
from nvfuser import FusionDefinition, DataType

def batchnorm_stats_rows(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2, T3 = fd.ops.var_mean(T1, dims=[0, 2, 3], correction=0, keepdim=False)
    fd.add_output(T2)
    fd.add_output(T3)

with FusionDefinition() as fd:
    batchnorm_stats_rows(fd)

inputs = [
    torch.randn((16, 160, 12, 16), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
