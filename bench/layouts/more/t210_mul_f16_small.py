import torch
from nvfuser import FusionDefinition, DataType

# x * permute(y, [2, 1, 0]): outer and inner dims swapped, the middle one kept.
def fusion_t210_mul_f16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.ops.permute(T1, dims=[2, 1, 0])
    T3 = fd.ops.mul(T0, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.Half)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_t210_mul_f16(fd)

inputs = [
    torch.randn((64, 6, 72), dtype=torch.float16, device='cuda:0'),
    torch.randn((72, 6, 64), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
