import torch
from nvfuser import FusionDefinition, DataType

# pad(x, [0, 7]) + 1 on a `?` x of 32 x 1001 bf16: a symbolic pad boundary (column 1001) inside rows of 1008 (W = 8 with the row's `extent` condition; x's rows of 1001 take shifted loads).
def fusion_pad_split_sym_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.pad(T0, [0, 7])
    S2 = fd.define_scalar(1.0, dtype=DataType.Double)
    T3 = fd.ops.add(T1, S2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_pad_split_sym_bf16(fd)

inputs = [
    torch.randn((32, 1001), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
