import torch
from nvfuser import FusionDefinition, DataType

def logsumexp_large(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.max(T1, dims=[1], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.broadcast_in_dim(T2, shape=[4096, 128256], broadcast_dims=[0])
    T4 = fd.ops.sub(T1, T3)
    T5 = fd.ops.exp(T4)
    T6 = fd.ops.sum(T5, dims=[1], keepdim=False, dtype=DataType.Null)
    T7 = fd.ops.log(T6)
    T8 = fd.ops.add(T7, T2)
    fd.add_output(T8)

with FusionDefinition() as fd:
    logsumexp_large(fd)

inputs = [
    torch.randn((4096, 128256), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
