import torch
from nvfuser import FusionDefinition, DataType

# permute(x * x, [1, 0, 2]) with static sizes: the innermost dim is kept.
def fusion_p102_f16(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4096, 64, 512], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.ops.mul(T0, T0)
    T2 = fd.ops.cast(T1, dtype=DataType.Half)
    T3 = fd.ops.permute(T2, dims=[1, 0, 2])
    fd.add_output(T3)

with FusionDefinition() as fd:
    fusion_p102_f16(fd)

inputs = [
    torch.randn((4096, 64, 512), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
