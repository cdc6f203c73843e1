import torch
from nvfuser import FusionDefinition, DataType

def fusion_t2in(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    T3 = fd.ops.permute(T1, dims=[1, 0])
    T4 = fd.ops.permute(T2, dims=[1, 0])
    T5 = fd.ops.sub(T0, T3)
    T6 = fd.ops.gt(T5, T4)
    T7 = fd.ops.where(T6, T5, T4)
    T8 = fd.ops.cast(T7, dtype=DataType.Half)
    fd.add_output(T8)
    fd.add_output(T6)

with FusionDefinition() as fd:
    fusion_t2in(fd)

inputs = [
    torch.randn((650, 405), dtype=torch.float16, device='cuda:0'),
    torch.randn((405, 650), dtype=torch.float16, device='cuda:0'),
    torch.randn((405, 650), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
