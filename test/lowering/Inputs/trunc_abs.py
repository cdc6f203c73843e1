import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_trunc_abs(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    S1 = fd.define_scalar(1000.0, dtype=DataType.Double)
    T2 = fd.ops.trunc(T0)
    T3 = fd.ops.mul(T0, S1)
    T4 = fd.ops.cast(T3, dtype=DataType.Int)
    T5 = fd.ops.abs(T4)
    T6 = fd.ops.cast(T3, dtype=DataType.Int32)
    T7 = fd.ops.abs(T6)
    T8 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    T9 = fd.ops.trunc(T8)
    T10 = fd.ops.trunc(T3)
    fd.add_output(T2)
    fd.add_output(T5)
    fd.add_output(T7)
    fd.add_output(T9)
    fd.add_output(T10)

with FusionDefinition() as fd:
    nvfuser_fusion_trunc_abs(fd)

inputs = [
    torch.randn((33, 70), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
