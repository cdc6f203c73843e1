# Classic-frontend arithmetic forms (issue 16): truediv, which promotes
# integer operands to float (int32 tensors, an int scalar), and add_alpha /
# sub_alpha (a + b * alpha, a - b * alpha) on bf16 with a scalar alpha and
# on f32 with a rank-broadcast tensor alpha. Each imports as the ops it
# computes (casts, mul, add/sub), which is what exports again. nextafter
# (a fuser op: libdevice's __nv_nextafterf on the GPU, libm's on the CPU JIT
# and in the reference) on bf16 pairs (computed in f32) and towards a scalar.
import torch
from nvfuser import FusionDefinition, DataType

def arith_forms(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    S5 = fd.define_scalar(None, dtype=DataType.Int)
    T6 = fd.ops.truediv(T0, T1)
    T7 = fd.ops.truediv(T0, S5)
    T8 = fd.ops.truediv(T2, T3)
    S9 = fd.define_scalar(0.5, dtype=DataType.Double)
    T10 = fd.ops.add_alpha(T2, T3, S9)
    T11 = fd.ops.cast(T2, dtype=DataType.Float)
    T12 = fd.ops.sub_alpha(T11, T11, T4)
    T13 = fd.ops.nextafter(T2, T3)
    T14 = fd.ops.nextafter(T11, S9)
    fd.add_output(T6)
    fd.add_output(T7)
    fd.add_output(T8)
    fd.add_output(T10)
    fd.add_output(T12)
    fd.add_output(T13)
    fd.add_output(T14)

with FusionDefinition() as fd:
    arith_forms(fd)

inputs = [
    torch.randint(-50, 50, (12, 16), dtype=torch.int32, device='cuda:0'),
    torch.randint(1, 9, (12, 16), dtype=torch.int32, device='cuda:0'),
    torch.randn((12, 16), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((12, 16), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((16,), dtype=torch.float32, device='cuda:0'),
    7,
]
fd.execute(inputs)
