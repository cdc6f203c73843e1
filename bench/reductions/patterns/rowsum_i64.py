import torch
from nvfuser import FusionDefinition, DataType

def rowsum_i64(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Int)
    T2 = fd.ops.max(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.cast(T2, dtype=DataType.Int)
    T4 = fd.ops.add(T1, T3)
    fd.add_output(T4)

with FusionDefinition() as fd:
    rowsum_i64(fd)

inputs = [
    torch.full((100, 4096), 7, dtype=torch.int32, device='cuda:0'),
]
fd.execute(inputs)
