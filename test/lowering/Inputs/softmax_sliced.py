import torch
from nvfuser import FusionDefinition, DataType

def softmax_sliced(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    Ts = fd.ops.slice(T0, start_indices=[0, 0, 0, 0], end_indices=[2, 19, 24, 40], strides=[1, 1, 1, 1])
    T1 = fd.ops.cast(Ts, dtype=DataType.Float)
    T2 = fd.ops.max(T1, dims=[1], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.broadcast_in_dim(T2, shape=[2, 19, 24, 40], broadcast_dims=[0, 2, 3])
    T4 = fd.ops.sub(T1, T3)
    T5 = fd.ops.exp(T4)
    T6 = fd.ops.sum(T5, dims=[1], keepdim=False, dtype=DataType.Null)
    T7 = fd.ops.broadcast_in_dim(T6, shape=[2, 19, 24, 40], broadcast_dims=[0, 2, 3])
    T8 = fd.ops.div(T5, T7)
    T9 = fd.ops.cast(T8, dtype=DataType.BFloat16)
    fd.add_output(T9)

with FusionDefinition() as fd:
    softmax_sliced(fd)

inputs = [
    torch.randn((2, 19, 24, 48), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
