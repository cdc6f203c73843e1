import torch
from nvfuser import FusionDefinition, DataType

# reshape a computed (B, S, H*D) into heads and permute [0, 2, 1, 3] (attention).
def fusion_split_heads_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    T3 = fd.ops.reshape(T2, new_shape=[16, 2048, 32, 128])
    T4 = fd.ops.permute(T3, dims=[0, 2, 1, 3])
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_split_heads_bf16(fd)

inputs = [
    torch.randn((16, 2048, 4096), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
