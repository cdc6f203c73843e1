import torch
from nvfuser import FusionDefinition, DataType

def rmsnorm_bwd_symbolic(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T4 = fd.ops.cast(T0, dtype=DataType.Float)
    T5 = fd.ops.cast(T1, dtype=DataType.Float)
    V0 = fd.ops.shape(T0)
    T6 = fd.ops.broadcast_in_dim(T2, shape=V0, broadcast_dims=[0, 1])
    T7 = fd.ops.mul(T5, T6)
    T8 = fd.ops.broadcast_in_dim(T3, shape=V0, broadcast_dims=[1])
    T9 = fd.ops.cast(T8, dtype=DataType.Float)
    T10 = fd.ops.mul(T4, T9)
    T11 = fd.ops.mul(T10, T7)
    T12 = fd.ops.sum(T11, dims=[1], keepdim=False, dtype=DataType.Null)
    S13 = fd.define_scalar(768.0, dtype=DataType.Double)
    T14 = fd.ops.div(T12, S13)
    T15 = fd.ops.broadcast_in_dim(T14, shape=V0, broadcast_dims=[0])
    T16 = fd.ops.mul(T7, T15)
    T17 = fd.ops.sub(T10, T16)
    T18 = fd.ops.mul(T17, T6)
    T19 = fd.ops.cast(T18, dtype=DataType.BFloat16)
    T20 = fd.ops.mul(T4, T7)
    T21 = fd.ops.sum(T20, dims=[0], keepdim=False, dtype=DataType.Null)
    T22 = fd.ops.cast(T21, dtype=DataType.BFloat16)
    fd.add_output(T19)
    fd.add_output(T22)

with FusionDefinition() as fd:
    rmsnorm_bwd_symbolic(fd)

inputs = [
    torch.randn((1024, 768), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((1024, 768), dtype=torch.bfloat16, device='cuda:0'),
    torch.rand((1024, 1), dtype=torch.float32, device='cuda:0'),
    torch.randn((768,), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
