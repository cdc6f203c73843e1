# A transposed output whose extents are not multiples of 4: only the
# transpose schedule's last variant (scalar) applies.
import torch
from nvfuser import FusionDefinition, DataType

def transposed_output_odd(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T3 = fd.ops.mul(T1, T1)
    fd.add_output(T3, stride_order=[0, 2, 1])

with FusionDefinition() as fd:
    transposed_output_odd(fd)

inputs = [
    torch.randn((3, 16, 8), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
