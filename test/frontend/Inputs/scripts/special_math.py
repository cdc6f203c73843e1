# erfinv, erfcinv and lgamma in kernels (issue 16): libdevice on the GPU,
# the reference's own functions on the CPU JIT (lowering/special_fns.c).
# f32 in the vector variant, bf16 computing in f32, f64 (libdevice's double
# functions), and lgamma feeding a row max (a reduction kernel). Inputs stay
# inside each domain: erfinv (-1, 1), erfcinv (0, 2), lgamma away from its
# poles (0, -1, ...: inf there says nothing).
import torch
from nvfuser import FusionDefinition, DataType

def special_math(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double, is_cpu=False, stride_order=[0])
    T3 = fd.ops.erfinv(T0)
    S4 = fd.define_scalar(1.0, dtype=DataType.Double)
    T5 = fd.ops.add(T0, S4)
    T6 = fd.ops.erfcinv(T5)
    T7 = fd.ops.lgamma(T1)
    T8 = fd.ops.max(T7, dims=[1], keepdim=False, dtype=DataType.Null)
    T9 = fd.ops.erfinv(T2)
    T10 = fd.ops.erfcinv(T2)
    T11 = fd.ops.lgamma(T2)
    T12 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T3)
    fd.add_output(T6)
    fd.add_output(T7)
    fd.add_output(T8)
    fd.add_output(T9)
    fd.add_output(T10)
    fd.add_output(T11)
    fd.add_output(T12)

with FusionDefinition() as fd:
    special_math(fd)

inputs = [
    torch.testing.make_tensor((64, 96), dtype=torch.float32, device='cuda:0', low=-0.99, high=0.99),
    torch.testing.make_tensor((16, 40), dtype=torch.bfloat16, device='cuda:0', low=0.25, high=9.0),
    torch.testing.make_tensor((300,), dtype=torch.float64, device='cuda:0', low=0.01, high=0.99),
]
fd.execute(inputs)
