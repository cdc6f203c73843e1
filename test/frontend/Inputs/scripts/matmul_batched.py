# Batched fd.ops.matmul (issue 16): the dims before the last two are batch
# dims, broadcast as in torch.matmul: f16 [B, M, K] @ [B, K, N], and
# [B, M, K] @ [K, N] (the 2-D right operand is shared by every batch, a
# stride-0 batch in cuBLASLt).
import torch
from nvfuser import FusionDefinition, DataType

def matmul_batched(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T3 = fd.ops.matmul(T0, T1)
    T4 = fd.ops.matmul(T0, T2)
    fd.add_output(T3)
    fd.add_output(T4)

with FusionDefinition() as fd:
    matmul_batched(fd)

inputs = [
    torch.testing.make_tensor((3, 8, 24), dtype=torch.float16, device='cuda:0'),
    torch.testing.make_tensor((3, 24, 16), dtype=torch.float16, device='cuda:0'),
    torch.testing.make_tensor((24, 8), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs, device=0)
