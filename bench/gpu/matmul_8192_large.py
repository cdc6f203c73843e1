# One 8192 x 8192 x 8192 bf16 matmul (issue 16): the cuBLASLt segment timed
# against torch.matmul on the same shape (bench/gpu/matmul.sh).
import torch
from nvfuser import FusionDefinition, DataType

def matmul_8192(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.matmul(T0, T1)
    fd.add_output(T2)

with FusionDefinition() as fd:
    matmul_8192(fd)

inputs = [
    torch.testing.make_tensor((8192, 8192), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((8192, 8192), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs, device=0)
