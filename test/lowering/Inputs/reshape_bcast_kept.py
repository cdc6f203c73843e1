import torch
from nvfuser import FusionDefinition, DataType

# A reshape kept in the kernel (its producer y = x * x has another use)
# whose result is broadcast along a new innermost dim: the vector lanes do
# not move through the reshape, so it reads one element per vector (a
# broadcast), and the result is written in 16-byte vectors.
def fusion_reshape_bcast_kept(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.reshape(T1, new_shape=[8, 96])
    T3 = fd.ops.broadcast_in_dim(T2, shape=[8, 96, 64], broadcast_dims=[0, 1])
    T4 = fd.ops.add(T1, T1)
    T5 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T5)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_reshape_bcast_kept(fd)

inputs = [
    torch.randn((8, 4, 24), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
