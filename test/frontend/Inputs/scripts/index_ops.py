# Data-dependent reads (issue 16): an embedding-like index_select of rows,
# a gather along the last dim (int32 indices), and a cross-entropy style
# take_along_axis of each row's target log-probability (int64 indices, the
# index broadcast along the class dim), each fed by and feeding pointwise
# ops so that they fuse into the kernels around them. The inputs keep every
# index in range (randint bounds below each extent).
import torch
from nvfuser import FusionDefinition, DataType

def index_ops(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T5 = fd.ops.index_select(T0, T1, dim=0)
    T6 = fd.ops.mul(T5, 2.0)
    T7 = fd.ops.exp(T2)
    T8 = fd.ops.gather(T7, T3, dim=-1)
    T9 = fd.ops.take_along_axis(T2, T4, 1)
    T10 = fd.ops.neg(T9)
    fd.add_output(T6)
    fd.add_output(T8)
    fd.add_output(T10)

with FusionDefinition() as fd:
    index_ops(fd)

inputs = [
    torch.randn((50, 96), dtype=torch.bfloat16, device='cuda:0'),
    torch.randint(0, 50, (37,), dtype=torch.int64, device='cuda:0'),
    torch.randn((16, 40), dtype=torch.float32, device='cuda:0'),
    torch.randint(0, 40, (16, 24), dtype=torch.int32, device='cuda:0'),
    torch.randint(0, 40, (16, 1), dtype=torch.int64, device='cuda:0'),
]
fd.execute(inputs)
