import torch
from nvfuser import FusionDefinition, DataType

# An intermediate whose dense stride, as a polynomial of the input sizes,
# has more terms than the host's polynomials hold: cat(pad(x), y) along dim
# 3 has extents x0, x1 + 2, x2 + 3 and x3 + 4 + y3, so dim 0's stride is
# (x1 + 2)(x2 + 3)(x3 + 4 + y3), 12 terms. The plan refuses it with a located
# error (before, it computed the stride from its first 8 terms).
def fusion_temp_strides(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 2, 1, 0])
    T3 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T7 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.pad(T1, [2, 2, 2, 1, 1, 1, 0, 0])
    T4 = fd.ops.cat([T2, T3], dim=3)
    T5 = fd.ops.segment_set(T4)
    T6 = fd.ops.permute(T5, dims=[2, 1, 3, 0])
    T8 = fd.ops.add(T6, T7)
    fd.add_output(T8)

with FusionDefinition() as fd:
    fusion_temp_strides(fd)

inputs = [
    torch.randn((2, 2, 5, 12), dtype=torch.float16, device='cuda:0'),
    torch.randn((2, 4, 8, 5), dtype=torch.float16, device='cuda:0'),
    torch.randn((8, 4, 21, 2), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
