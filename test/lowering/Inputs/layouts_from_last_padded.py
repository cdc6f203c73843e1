import torch
from nvfuser import FusionDefinition, DataType

# layouts_from_last.py's fusion on a channels-last input whose rows of W
# pixels are padded (stride(H) = (W + 1) C): H and W do not merge, so the
# merged tile variant's `merge` condition fails and `tile_dims` (C x W
# tiles) runs.
def fusion_from_last(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, False, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 0, 2, 1])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.Half)
    fd.add_output(T2, stride_order=[3, 2, 1, 0])

with FusionDefinition() as fd:
    fusion_from_last(fd)

inputs = [
    torch.randn((294000,), dtype=torch.float16, device='cuda:0').as_strided((3, 40, 49, 49), (98000, 1, 2000, 40), 0),
]
fd.execute(inputs)
