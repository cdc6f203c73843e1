import torch
from nvfuser import FusionDefinition, DataType

def fusion_t3d(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T5 = fd.define_tensor(shape=[1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.permute(T1, dims=[0, 2, 1])
    T3 = fd.ops.mul(T0, T2)
    T6 = fd.ops.broadcast_in_dim(T5, shape=[30, 70, 130], broadcast_dims=[1, 2])
    T4 = fd.ops.add(T3, T6)
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_t3d(fd)

inputs = [
    torch.randn((30, 70, 130), dtype=torch.float32, device='cuda:0'),
    torch.randn((30, 130, 70), dtype=torch.float32, device='cuda:0'),
    torch.randn((1, 130), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
