# Inputs with a storage offset, a full and a zeros factory with bare int
# sizes, and a bool scalar (data for inputs-block.test and
# roundtrip-inputs.test).
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id3(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False, stride_order=[0])
    S3 = fd.define_scalar(None, dtype=DataType.Bool)
    T4 = fd.ops.where(S3, T0, T1)
    fd.add_output(T4)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion_id3(fd)

inputs = [
    torch.randn((100,), dtype=torch.float32, device='cuda:0').as_strided((4, 8), (16, 1), 10),
    torch.full((4, 8), -2.5, dtype=torch.bfloat16, device='cuda:0'),
    torch.zeros(7, dtype=torch.int64, device='cuda:0'),
    True,
]
fd.execute(inputs)
