import torch
from nvfuser import FusionDefinition, DataType

# x - y, 41 x 53 f16, x at a padded row stride of 54: rows of 53 that no row variant vectors and
# an x that never merges (the segments variant: out and y flat, x by segments of its rows).
def fusion_segments_pad_stride_f16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.sub(T0, T1)
    T3 = fd.ops.cast(T2, dtype=DataType.Half)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_segments_pad_stride_f16(fd)

inputs = [
    torch.randn((2214,), dtype=torch.float16, device='cuda:0').as_strided((41, 53), (54, 1), 0),
    torch.randn((41, 53), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
