import torch
from nvfuser import FusionDefinition, DataType

# The rows variant on rows of an odd number of vectors: a permute
# [0, 2, 1, 3] of rows of 136 bf16 (17 vectors of 8) beside an input read as
# it lies.
def fusion_rows_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T2 = fd.ops.permute(T0, dims=[0, 2, 1, 3])
    T3 = fd.ops.cast(T2, dtype=DataType.Float)
    T4 = fd.ops.cast(T1, dtype=DataType.Float)
    T5 = fd.ops.mul(T3, T4)
    T6 = fd.ops.cast(T5, dtype=DataType.BFloat16)
    fd.add_output(T6)

with FusionDefinition() as fd:
    fusion_rows_bf16(fd)

inputs = [
    torch.randn((2, 3, 5, 136), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((2, 5, 3, 136), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
