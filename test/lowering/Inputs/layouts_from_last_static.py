import torch
from nvfuser import FusionDefinition, DataType

# layouts_from_last.py with static sizes: H and W merge statically, so the
# merged tile variant is the only one (no `merge` conditions, no tile_dims).
# A channels-last input (NHWC in memory) written NCHW: the transpose
# schedule tiles C x HW (H and W merged under `merge` conditions), not C x W,
# whose W of 49 would leave a 64-wide tile a quarter idle; HW = 2401 and
# C = 40 make every tile edge ragged.
def fusion_from_last_static(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, 40, 49, 49], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 0, 2, 1])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.Half)
    fd.add_output(T2, stride_order=[3, 2, 1, 0])

with FusionDefinition() as fd:
    fusion_from_last_static(fd)

inputs = [
    torch.randn((288120,), dtype=torch.float16, device='cuda:0').as_strided((3, 40, 49, 49), (96040, 1, 1960, 40), 0),
]
fd.execute(inputs)
