# fd.ops.stride_order (issue 16): a layout-only copy whose result takes the
# given allocation order where it is stored. An input copied column-major,
# a computed 3-D value into a permuted order (a negative entry wrapped),
# and a reordered intermediate feeding a pointwise op (whose own order is
# inferred from the inputs, as nvFuser's).
import torch
from nvfuser import FusionDefinition, DataType

def stride_order(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.ops.stride_order(T0, stride_order=[0, 1])
    T3 = fd.ops.mul(T1, T1)
    T4 = fd.ops.stride_order(T3, [0, 2, -2])
    T5 = fd.ops.stride_order(T0, stride_order=[0, 1])
    T6 = fd.ops.exp(T5)
    fd.add_output(T2)
    fd.add_output(T4)
    fd.add_output(T6)

with FusionDefinition() as fd:
    stride_order(fd)

inputs = [
    torch.randn((24, 40), dtype=torch.float32, device='cuda:0'),
    torch.randn((3, 16, 8), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
