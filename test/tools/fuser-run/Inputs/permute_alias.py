# A fusion whose only output aliases its input (a permute): no kernel, so
# under the fake libcuda its output is real and --check must pass.
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id3(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.permute(T0, dims=[1, 0])
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id3(fd)

inputs = [
    torch.randn((4, 6), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
