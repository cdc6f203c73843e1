import torch
from nvfuser import FusionDefinition, DataType

def log_softmax_middle(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.max(T1, dims=[1], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.broadcast_in_dim(T2, shape=[4, 100, 72], broadcast_dims=[0, 2])
    T4 = fd.ops.sub(T1, T3)
    T5 = fd.ops.exp(T4)
    T6 = fd.ops.sum(T5, dims=[1], keepdim=False, dtype=DataType.Null)
    T7 = fd.ops.log(T6)
    T8 = fd.ops.broadcast_in_dim(T7, shape=[4, 100, 72], broadcast_dims=[0, 2])
    T9 = fd.ops.sub(T4, T8)
    T10 = fd.ops.cast(T9, dtype=DataType.BFloat16)
    fd.add_output(T10)

with FusionDefinition() as fd:
    log_softmax_middle(fd)

inputs = [
    torch.randn((4, 100, 72), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
