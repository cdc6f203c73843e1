import torch
from nvfuser import FusionDefinition, DataType

# -x written column-major (add_output stride_order [0, 1]): a transposed output.
def fusion_tout_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.neg(T0)
    T2 = fd.ops.cast(T1, dtype=DataType.Float)
    fd.add_output(T2, stride_order=[0, 1])

with FusionDefinition() as fd:
    fusion_tout_f32(fd)

inputs = [
    torch.randn((8192, 8192), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
