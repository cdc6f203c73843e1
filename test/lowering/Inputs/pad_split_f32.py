import torch
from nvfuser import FusionDefinition, DataType

# pad(x[:, :61], [0, 3]) * 2, 64 x 64 f32: a static pad boundary at column 61 inside rows of 64 (W = 4; the vector at 60..63 straddles it).
def fusion_pad_split_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.slice(T0, start_indices=[0, 0], end_indices=[64, 61], strides=[1, 1])
    T2 = fd.ops.pad(T1, [0, 3])
    S3 = fd.define_scalar(2.0, dtype=DataType.Double)
    T4 = fd.ops.mul(T2, S3)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_pad_split_f32(fd)

inputs = [
    torch.randn((64, 64), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
