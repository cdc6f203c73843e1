import torch
from nvfuser import FusionDefinition, DataType

# A bool mask five elements into rows of 133 beside bf16 values: 8 lanes of
# 1 byte per vector, shifted by bytes inside 32-bit words.
def fusion_shift_bool(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.slice(T0, start_indices=[0, 5], end_indices=[37, 133], strides=[1, 1])
    T3 = fd.ops.neg(T1)
    T4 = fd.ops.where(T2, T1, T3)
    T5 = fd.ops.cast(T4, dtype=DataType.BFloat16)
    fd.add_output(T5)

with FusionDefinition() as fd:
    fusion_shift_bool(fd)

inputs = [
    torch.randint(0, 2, (37, 133), dtype=torch.bool, device='cuda:0'),
    torch.randn((37, 128), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
