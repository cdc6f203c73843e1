# The script's define_tensor says contiguous, its input is an expanded
# broadcast (stride 0 along dim 0): libfuser compiles an entry with that dim
# as a broadcast (contiguity None).
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id8(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.mul(T0, T1)
    T3 = fd.ops.neg(T2)
    fd.add_output(T3)

with FusionDefinition() as fd:
    nvfuser_fusion_id8(fd)

inputs = [
    torch.randn((512,), dtype=torch.float32, device='cuda:0').as_strided((128, 512), (0, 1)),
    torch.randn((128, 512), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
