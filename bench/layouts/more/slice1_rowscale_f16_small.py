import torch
from nvfuser import FusionDefinition, DataType

# x[:, 1:] * s[i]: a misaligned slice times a per-row scale (broadcast along the inner dim).
def fusion_slice1_rowscale_f16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T5 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False, stride_order=[0])
    T1 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[64, 257], strides=[1, 1])
    T6 = fd.ops.broadcast_in_dim(T5, shape=[64, 256], broadcast_dims=[0])
    T2 = fd.ops.mul(T1, T6)
    T3 = fd.ops.cast(T2, dtype=DataType.Half)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_slice1_rowscale_f16(fd)

inputs = [
    torch.randn((64, 257), dtype=torch.float16, device='cuda:0'),
    torch.randn((64,), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
