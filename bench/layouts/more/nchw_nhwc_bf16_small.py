import torch
from nvfuser import FusionDefinition, DataType

# x (NCHW) + y (channels-last, NHWC in memory): y is transposed between C and H*W.
def fusion_nchw_nhwc_bf16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 0, 2, 1])
    T2 = fd.ops.add(T0, T1)
    T3 = fd.ops.relu(T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_nchw_nhwc_bf16(fd)

inputs = [
    torch.randn((2, 64, 14, 14), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((25088,), dtype=torch.bfloat16, device='cuda:0').as_strided((2, 64, 14, 14), (12544, 1, 896, 64), 0),
]
fd.execute(inputs)
