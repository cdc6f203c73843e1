import torch
from nvfuser import FusionDefinition, DataType

# Two inputs, one aligned (T1) and one read one element in (a slice at
# column 1 of T0, row stride C + 1): the aligned one keeps 16-byte loads.
def fusion_two_inputs(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[16384, 8193], strides=[1, 1])
    T3 = fd.ops.cast(T2, dtype=DataType.Float)
    T4 = fd.ops.cast(T1, dtype=DataType.Float)
    T5 = fd.ops.add(T3, T4)
    T6 = fd.ops.cast(T5, dtype=DataType.BFloat16)
    fd.add_output(T6)

with FusionDefinition() as fd:
    fusion_two_inputs(fd)

inputs = [
    torch.randn((16384, 8193), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((16384, 8192), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
