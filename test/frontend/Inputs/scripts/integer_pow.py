# Integer pow (issue 16): int64 and int32 tensors to tensor and literal
# powers, including negative exponents (1 for a base of 1, +-1 for -1 by
# parity, else 0, as nvFuser's runtime) and products that wrap.
import torch
from nvfuser import FusionDefinition, DataType

def integer_pow(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T3 = fd.ops.pow(T0, T1)
    T4 = fd.ops.pow(T2, 3)
    T5 = fd.ops.pow(T0, 41)
    T6 = fd.ops.pow(T2, T2)
    fd.add_output(T3)
    fd.add_output(T4)
    fd.add_output(T5)
    fd.add_output(T6)

with FusionDefinition() as fd:
    integer_pow(fd)

inputs = [
    torch.randint(-3, 4, (8, 35), dtype=torch.int64, device='cuda:0'),
    torch.randint(-3, 50, (8, 35), dtype=torch.int64, device='cuda:0'),
    torch.randint(-40, 40, (8, 35), dtype=torch.int32, device='cuda:0'),
]
fd.execute(inputs)
