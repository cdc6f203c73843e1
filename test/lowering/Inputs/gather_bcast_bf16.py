import torch
from nvfuser import FusionDefinition, DataType

# x * a[i] + b[j], 4096 x 7 bf16: broadcasts that cannot merge with rows of 7 (the gather variant).
def fusion_bcast_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T3 = fd.ops.broadcast_in_dim(T1, shape=[4096, 7], broadcast_dims=[0])
    T4 = fd.ops.broadcast_in_dim(T2, shape=[4096, 7], broadcast_dims=[1])
    T5 = fd.ops.mul(T0, T3)
    T6 = fd.ops.add(T5, T4)
    T7 = fd.ops.cast(T6, dtype=DataType.BFloat16)
    fd.add_output(T7)

with FusionDefinition() as fd:
    fusion_bcast_bf16(fd)

inputs = [
    torch.randn((4096, 7), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((4096,), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((7,), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
