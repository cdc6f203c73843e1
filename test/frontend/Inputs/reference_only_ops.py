import torch
from nvfuser import FusionDefinition, DataType

def special(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double, is_cpu=False, stride_order=[0])
    T1 = fd.ops.erfinv(T0)
    T2 = fd.ops.erfcinv(T0)
    T3 = fd.ops.lgamma(T0)
    T4 = fd.ops.erfinv(T1)
    T5 = fd.ops.cat([T1, T3], dim=0)
    T6 = fd.ops.var(T5, dims=[0], correction=1)
    fd.add_output(T1)
    fd.add_output(T2)
    fd.add_output(T3)
    fd.add_output(T4)
    fd.add_output(T6)

with FusionDefinition() as fd:
    special(fd)

inputs = [
    torch.full((3,), 0.5, dtype=torch.float64, device='cuda:0'),
]
fd.execute(inputs)
