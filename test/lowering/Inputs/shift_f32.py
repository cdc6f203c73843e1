import torch
from nvfuser import FusionDefinition, DataType

# A float view three elements into rows of 131: every row starts at another
# offset in its 16-byte block (shifted loads by whole words).
def fusion_shift_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 3], end_indices=[37, 131], strides=[1, 1])
    T2 = fd.ops.mul(T1, T1)
    fd.add_output(T2)

with FusionDefinition() as fd:
    fusion_shift_f32(fd)

inputs = [
    torch.randn((37, 131), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
