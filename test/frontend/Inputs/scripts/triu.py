# triu (issue 16): the upper triangle over the last two dims, on bf16 with
# the default diagonal, a batched f32 tensor below the diagonal (-1) feeding
# a pointwise op, and int64 above it (2) on a non-square matrix.
import torch
from nvfuser import FusionDefinition, DataType

def triu(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T3 = fd.ops.triu(T0)
    T4 = fd.ops.triu(T1, diagonal=-1)
    T5 = fd.ops.mul(T4, 3.0)
    T6 = fd.ops.triu(T2, 2)
    fd.add_output(T3)
    fd.add_output(T5)
    fd.add_output(T6)

with FusionDefinition() as fd:
    triu(fd)

inputs = [
    torch.randn((33, 33), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((3, 17, 20), dtype=torch.float32, device='cuda:0'),
    torch.randint(-100, 100, (9, 13), dtype=torch.int64, device='cuda:0'),
]
fd.execute(inputs)
