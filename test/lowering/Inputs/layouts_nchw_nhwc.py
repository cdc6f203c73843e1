import torch
from nvfuser import FusionDefinition, DataType

# x (NCHW) + y (channels-last), f16, output NCHW: y is tiled C x HW (H, W
# merged for x, y and the output), with W = 7: C x W tiles would use 7 of
# 64 columns.
def fusion_nchw_nhwc(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 0, 2, 1])
    T2 = fd.ops.add(T0, T1)
    T3 = fd.ops.relu(T2)
    T4 = fd.ops.cast(T3, dtype=DataType.Half)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_nchw_nhwc(fd)

inputs = [
    torch.randn((8, 264, 7, 18), dtype=torch.float16, device='cuda:0'),
    torch.randn((266112,), dtype=torch.float16, device='cuda:0').as_strided((8, 264, 7, 18), (33264, 1, 4752, 264), 0),
]
fd.execute(inputs)
