# tril (issue 16): the lower triangle over the last two dims: f16 with the
# default diagonal on a wide matrix, a batched f64 tensor above the diagonal
# (3, keeping more) whose result feeds a reduction over rows, and a symbolic
# int32 matrix below it (-2) combined with triu of the same input (a band).
import torch
from nvfuser import FusionDefinition, DataType

def tril(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[2, -1, -1], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T3 = fd.ops.tril(T0)
    T4 = fd.ops.tril(T1, diagonal=3)
    T5 = fd.ops.sum(T4, dims=[2], keepdim=False, dtype=DataType.Null)
    T6 = fd.ops.tril(T2, -2)
    T7 = fd.ops.triu(T2, diagonal=-4)
    T8 = fd.ops.mul(T6, T7)
    fd.add_output(T3)
    fd.add_output(T5)
    fd.add_output(T8)

with FusionDefinition() as fd:
    tril(fd)

inputs = [
    torch.randn((7, 40), dtype=torch.float16, device='cuda:0'),
    torch.randn((2, 19, 11), dtype=torch.float64, device='cuda:0'),
    torch.randint(-50, 50, (12, 9), dtype=torch.int32, device='cuda:0'),
]
fd.execute(inputs)
