import torch
from nvfuser import FusionDefinition, DataType

# An intermediate whose byte count, expanded as a polynomial of the input
# sizes, has more terms than the host's polynomials hold: cat(pad(x), y)
# along dim 0 is (x0 + 3 + y0) x y1 x (x2 + 3) x (x3 + 4), 12 terms (the
# layout fuzzer's case 14055). Its size was computed from the first 8 terms:
# 4032 bytes for 8192, and the CPU JIT wrote past the buffer.
def fusion_temp_bytes(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 2, 1, 0])
    T3 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T7 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.pad(T1, [2, 2, 2, 1, 0, 0, 0, 3])
    T4 = fd.ops.cat([T2, T3], dim=0)
    T5 = fd.ops.segment_set(T4)
    T6 = fd.ops.permute(T5, dims=[2, 1, 3, 0])
    T8 = fd.ops.add(T6, T7)
    fd.add_output(T8)

with FusionDefinition() as fd:
    fusion_temp_bytes(fd)

inputs = [
    torch.randn((2, 2, 5, 12), dtype=torch.float16, device='cuda:0'),
    torch.randn((11, 2, 8, 16), dtype=torch.float16, device='cuda:0'),
    torch.randn((8, 2, 16, 16), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
