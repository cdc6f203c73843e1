# fd.ops.matmul on matrices and vectors (issue 16): torch.matmul's rules.
# bf16 [M, K] @ [K, N] with the right operand column-major (stride_order
# [0, 1]: cuBLASLt reads it transposed through its layout, no copy), and an
# f32 vector @ matrix (a 1-D left operand is a row whose M dim is dropped).
# The result keeps the operands' dtype; the sum is in f32, as cuBLAS does.
import torch
from nvfuser import FusionDefinition, DataType

def matmul_2d(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T4 = fd.ops.matmul(T0, T1)
    T5 = fd.ops.matmul(T2, T3)
    fd.add_output(T4)
    fd.add_output(T5)

with FusionDefinition() as fd:
    matmul_2d(fd)

inputs = [
    torch.testing.make_tensor((24, 40), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((32, 40), dtype=torch.bfloat16, device='cuda:0').as_strided((40, 32), (1, 40)),
    torch.testing.make_tensor((40,), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((40, 16), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs, device=0)
