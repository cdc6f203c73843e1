import torch
from nvfuser import FusionDefinition, DataType

# permute a computed (B, H, S, D) to (B, S, H, D) and merge the heads (attention output).
def fusion_merge_heads_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    T3 = fd.ops.permute(T2, dims=[0, 2, 1, 3])
    T4 = fd.ops.reshape(T3, new_shape=[16, 2048, 4096])
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_merge_heads_bf16(fd)

inputs = [
    torch.randn((16, 32, 2048, 128), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
