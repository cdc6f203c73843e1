import torch
from nvfuser import FusionDefinition, DataType

# A misaligned output (issue 15's shifted stores): the update of an input
# in place (alias_input) whose rows of 256 bf16 lie 257 apart, so each row
# starts at another misalignment; with --misalign K every row moves by K.
def fusion_store_shift_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.cast(T0, dtype=DataType.Float)
    T3 = fd.ops.cast(T1, dtype=DataType.Float)
    T4 = fd.ops.add(T2, T3)
    T5 = fd.ops.cast(T4, dtype=DataType.BFloat16)
    fd.add_output(T5, alias_input=T0)

with FusionDefinition() as fd:
    fusion_store_shift_bf16(fd)

inputs = [
    torch.randn((24, 257), dtype=torch.bfloat16, device='cuda:0').as_strided((24, 256), (257, 1)),
    torch.randn((24, 256), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
