import torch
from nvfuser import FusionDefinition, DataType

# out = x + permute(y), y's rows padded (523 of a row stride of 528): every
# pointer and row stride can be 16-byte aligned (the aligned `tile` variant),
# while the tiles and the vectors along y's rows are ragged (523 = 8 x 64 + 11).
def fusion_tadd_padded(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.permute(T1, dims=[1, 0])
    T3 = fd.ops.add(T0, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_tadd_padded(fd)

inputs = [
    torch.randn((523, 536), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((536 * 528,), dtype=torch.bfloat16, device='cuda:0').as_strided((536, 523), (528, 1)),
]
fd.execute(inputs)
