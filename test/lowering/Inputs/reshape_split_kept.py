import torch
from nvfuser import FusionDefinition, DataType

# split_heads whose computed value has another use: y = x * x on (B, S, H*D)
# is an output too, so fuser-hoist-reshape leaves the reshape to (B, S, H, D)
# in the kernel. Its inner run stays in one head when D is a multiple of the
# width; D = 12 here: static, so the width is 4 (12 is a multiple of 4, not 8).
def fusion_reshape_split_kept(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    T3 = fd.ops.reshape(T2, new_shape=[2, 64, 4, 12])
    T4 = fd.ops.permute(T3, dims=[0, 2, 1, 3])
    T5 = fd.ops.add(T2, T2)
    fd.add_output(T4)
    fd.add_output(T5)

with FusionDefinition() as fd:
    fusion_reshape_split_kept(fd)

inputs = [
    torch.randn((2, 64, 48), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
