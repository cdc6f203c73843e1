import torch
from nvfuser import FusionDefinition, DataType

def layernorm_fwd(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T3 = fd.ops.cast(T0, dtype=DataType.Float)
    T4, T5 = fd.ops.var_mean(T3, dims=[1], correction=0, keepdim=False)
    T6 = fd.ops.broadcast_in_dim(T4, shape=[512, 1], broadcast_dims=[0])
    T7 = fd.ops.broadcast_in_dim(T5, shape=[512, 1], broadcast_dims=[0])
    S8 = fd.define_scalar(1e-05, dtype=DataType.Double)
    T9 = fd.ops.add(T6, S8)
    T10 = fd.ops.rsqrt(T9)
    T11 = fd.ops.broadcast_in_dim(T7, shape=[512, 768], broadcast_dims=[0, 1])
    T12 = fd.ops.sub(T3, T11)
    T13 = fd.ops.broadcast_in_dim(T10, shape=[512, 768], broadcast_dims=[0, 1])
    T14 = fd.ops.mul(T12, T13)
    T15 = fd.ops.broadcast_in_dim(T1, shape=[512, 768], broadcast_dims=[1])
    T16 = fd.ops.cast(T15, dtype=DataType.Float)
    T17 = fd.ops.mul(T14, T16)
    T18 = fd.ops.broadcast_in_dim(T2, shape=[512, 768], broadcast_dims=[1])
    T19 = fd.ops.cast(T18, dtype=DataType.Float)
    T20 = fd.ops.add(T17, T19)
    T21 = fd.ops.cast(T20, dtype=DataType.BFloat16)
    fd.add_output(T21)

with FusionDefinition() as fd:
    layernorm_fwd(fd)

inputs = [
    torch.randn((512, 768), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((768,), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((768,), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
