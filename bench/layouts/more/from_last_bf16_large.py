import torch
from nvfuser import FusionDefinition, DataType

# x * x of a channels-last input, written NCHW (contiguous).
def fusion_from_last_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 0, 2, 1])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    fd.add_output(T2, stride_order=[3, 2, 1, 0])

with FusionDefinition() as fd:
    fusion_from_last_bf16(fd)

inputs = [
    torch.randn((16777216,), dtype=torch.bfloat16, device='cuda:0').as_strided((64, 256, 32, 32), (262144, 1, 8192, 256), 0),
]
fd.execute(inputs)
