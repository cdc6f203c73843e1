import torch
from nvfuser import FusionDefinition, DataType

# permute(y) * a[i] + x + b[j]: broadcasts along each dim beside a transpose.
def fusion_tbcast_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T5 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T6 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T2 = fd.ops.permute(T1, dims=[1, 0])
    T7 = fd.ops.broadcast_in_dim(T5, shape=[8192, 16384], broadcast_dims=[0])
    T8 = fd.ops.broadcast_in_dim(T6, shape=[8192, 16384], broadcast_dims=[1])
    T3 = fd.ops.mul(T2, T7)
    T9 = fd.ops.add(T0, T8)
    T10 = fd.ops.add(T3, T9)
    T4 = fd.ops.cast(T10, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_tbcast_bf16(fd)

inputs = [
    torch.randn((8192, 16384), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((16384, 8192), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((8192,), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((16384,), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
