import torch
from nvfuser import FusionDefinition, DataType

# A double view one element into rows of 67 (two lanes of 8 bytes per
# 16-byte block) beside an aligned double input.
def fusion_shift_f64(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Double, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Double, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[37, 67], strides=[1, 1])
    T3 = fd.ops.sub(T2, T1)
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_shift_f64(fd)

inputs = [
    torch.randn((37, 67), dtype=torch.float64, device='cuda:0'),
    torch.randn((37, 66), dtype=torch.float64, device='cuda:0'),
]
fd.execute(inputs)
