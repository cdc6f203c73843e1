# nvFuser's bitwise shifts (issue 16) on int32 and int64, by tensor and by
# literal amounts, including amounts past the bit width and negative ones.
import torch
from nvfuser import FusionDefinition, DataType

def shifts(fd : FusionDefinition) -> None :
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T32 = fd.ops.bitwise_left_shift(T2, T3)
    T33 = fd.ops.bitwise_right_shift(T2, T3)
    T34 = fd.ops.logical_right_shift(T2, T3)
    T35 = fd.ops.bitwise_right_shift(T4, 3)
    T36 = fd.ops.logical_right_shift(T4, 60)
    T37 = fd.ops.bitwise_left_shift(T4, 70)
    fd.add_output(T32)
    fd.add_output(T33)
    fd.add_output(T34)
    fd.add_output(T35)
    fd.add_output(T36)
    fd.add_output(T37)

with FusionDefinition() as fd:
    shifts(fd)

inputs = [
    torch.randint(-1000, 1000, (8, 33), dtype=torch.int32, device='cuda:0'),
    torch.randint(-2, 40, (8, 33), dtype=torch.int32, device='cuda:0'),
    torch.randint(-100000, 100000, (8, 33), dtype=torch.int64, device='cuda:0'),
]
fd.execute(inputs)
