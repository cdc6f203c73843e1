# A matmul followed by a pointwise epilogue (issue 16): the matmul is its own
# segment (cuBLASLt) and its computed left operand (-T0 in bf16) is written
# to global memory by a kernel before it; the tanh-GELU on its f32 upcast and the bf16 downcast
# run in one of our kernels that reads the matmul's result; a residual add
# reads a fusion input beside it.
import torch
from nvfuser import FusionDefinition, DataType

def matmul_epilogue(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T20 = fd.ops.neg(T0)
    T21 = fd.ops.cast(T20, dtype=DataType.BFloat16)
    T3 = fd.ops.matmul(T21, T1)
    T4 = fd.ops.cast(T3, dtype=DataType.Float)
    T5 = fd.ops.mul(T4, T4)
    T6 = fd.ops.mul(T5, T4)
    S7 = fd.define_scalar(0.0447150, dtype=DataType.Double)
    T8 = fd.ops.mul(T6, S7)
    T9 = fd.ops.add(T4, T8)
    S10 = fd.define_scalar(0.797885, dtype=DataType.Double)
    T11 = fd.ops.mul(T9, S10)
    T12 = fd.ops.tanh(T11)
    S13 = fd.define_scalar(1.00000, dtype=DataType.Double)
    T14 = fd.ops.add(T12, S13)
    S15 = fd.define_scalar(0.500000, dtype=DataType.Double)
    T16 = fd.ops.mul(T4, S15)
    T17 = fd.ops.mul(T16, T14)
    T18 = fd.ops.add(T17, T2)
    T19 = fd.ops.cast(T18, dtype=DataType.BFloat16)
    fd.add_output(T19)

with FusionDefinition() as fd:
    matmul_epilogue(fd)

inputs = [
    torch.testing.make_tensor((16, 48), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((48, 32), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((16, 32), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs, device=0)
