import torch
from nvfuser import FusionDefinition, DataType

# A contiguous NCHW input written channels-last (NHWC in memory), f32: the
# transpose schedule tiles HW x C (H and W merged), not W x C; W = 45 and
# C = 36 are ragged against the 32-wide f32 tiles.
def fusion_to_last(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.neg(T0)
    fd.add_output(T1, stride_order=[3, 0, 2, 1])

with FusionDefinition() as fd:
    fusion_to_last(fd)

inputs = [
    torch.randn((4, 36, 41, 45), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
