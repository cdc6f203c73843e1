# The script's define_tensor says row-major, its input is a transposed view
# (strides (1, 64)): nvFuser would refuse it; libfuser compiles an entry
# for the actual layout (stride order [0, 1]).
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.add(T0, T1)
    S3 = fd.define_scalar(0.5, dtype=DataType.Double)
    T4 = fd.ops.mul(T2, S3)
    T5 = fd.ops.cast(T4, dtype=DataType.BFloat16)
    fd.add_output(T5)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

inputs = [
    torch.randn((16384,), dtype=torch.bfloat16, device='cuda:0').as_strided((256, 64), (1, 256)),
    torch.randn((256, 64), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
