import torch
from nvfuser import FusionDefinition, DataType

def layernorm_bwd_long(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T5 = fd.ops.cast(T0, dtype=DataType.Float)
    T6 = fd.ops.cast(T1, dtype=DataType.Float)
    T7 = fd.ops.broadcast_in_dim(T2, shape=[2048, 1], broadcast_dims=[0])
    T8 = fd.ops.broadcast_in_dim(T7, shape=[2048, 32768], broadcast_dims=[0, 1])
    T9 = fd.ops.sub(T6, T8)
    T10 = fd.ops.broadcast_in_dim(T3, shape=[2048, 32768], broadcast_dims=[0, 1])
    T11 = fd.ops.mul(T9, T10)
    T12 = fd.ops.broadcast_in_dim(T4, shape=[2048, 32768], broadcast_dims=[1])
    T13 = fd.ops.cast(T12, dtype=DataType.Float)
    T14 = fd.ops.mul(T5, T13)
    T15 = fd.ops.sum(T14, dims=[1], keepdim=False, dtype=DataType.Null)
    T16 = fd.ops.mul(T14, T11)
    T17 = fd.ops.sum(T16, dims=[1], keepdim=False, dtype=DataType.Null)
    S18 = fd.define_scalar(32768.0, dtype=DataType.Double)
    T19 = fd.ops.div(T15, S18)
    T20 = fd.ops.div(T17, S18)
    T21 = fd.ops.broadcast_in_dim(T19, shape=[2048, 32768], broadcast_dims=[0])
    T22 = fd.ops.broadcast_in_dim(T20, shape=[2048, 32768], broadcast_dims=[0])
    T23 = fd.ops.sub(T14, T21)
    T24 = fd.ops.mul(T11, T22)
    T25 = fd.ops.sub(T23, T24)
    T26 = fd.ops.mul(T25, T10)
    T27 = fd.ops.cast(T26, dtype=DataType.BFloat16)
    T28 = fd.ops.mul(T5, T11)
    T29 = fd.ops.sum(T28, dims=[0], keepdim=False, dtype=DataType.Null)
    T30 = fd.ops.cast(T29, dtype=DataType.BFloat16)
    T31 = fd.ops.sum(T5, dims=[0], keepdim=False, dtype=DataType.Null)
    T32 = fd.ops.cast(T31, dtype=DataType.BFloat16)
    fd.add_output(T27)
    fd.add_output(T30)
    fd.add_output(T32)

with FusionDefinition() as fd:
    layernorm_bwd_long(fd)

inputs = [
    torch.randn((2048, 32768), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((2048, 32768), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((2048,), dtype=torch.float32, device='cuda:0'),
    torch.rand((2048, 1), dtype=torch.float32, device='cuda:0'),
    torch.randn((32768,), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
