import torch
from nvfuser import FusionDefinition, DataType

# pad(x[:, 1:], [0, 1]): each row shifted left by one (a misaligned slice, an aligned output).
def fusion_shift_pad_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[64, 256], strides=[1, 1])
    T2 = fd.ops.pad(T1, [0, 1])
    T3 = fd.ops.mul(T2, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_shift_pad_bf16(fd)

inputs = [
    torch.randn((64, 256), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
