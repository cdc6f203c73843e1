# nvFuser's unary math that fuser lacked, and the bitwise shifts (issue 16),
# each on inputs inside its domain (make_tensor bounds): trigonometric and
# hyperbolic inverses, log10, erfc, frac, signbit, isfinite/isposinf/isneginf
# (on x / 0 for infinities), and shifts by amounts past the bit width.
import torch
from nvfuser import FusionDefinition, DataType

def math_ops(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T5 = fd.ops.acos(T0)
    T6 = fd.ops.asin(T0)
    T7 = fd.ops.atan(T1)
    T8 = fd.ops.atanh(T0)
    T9 = fd.ops.asinh(T1)
    T10 = fd.ops.cosh(T0)
    T11 = fd.ops.sinh(T1)
    T12 = fd.ops.erfc(T0)
    T13 = fd.ops.add(T5, T6)
    T14 = fd.ops.add(T13, T7)
    T15 = fd.ops.add(T14, T8)
    T16 = fd.ops.add(T15, T9)
    T17 = fd.ops.add(T16, T10)
    T18 = fd.ops.add(T17, T11)
    T19 = fd.ops.add(T18, T12)
    S20 = fd.define_scalar(2.0, dtype=DataType.Double)
    T21 = fd.ops.add(T10, S20)
    T22 = fd.ops.acosh(T21)
    T23 = fd.ops.log10(T21)
    T24 = fd.ops.mul(T0, 7.5)
    T25 = fd.ops.frac(T24)
    T26 = fd.ops.frac(T1)
    T27 = fd.ops.signbit(T1)
    T28 = fd.ops.div(T24, 0.0)
    T29 = fd.ops.isfinite(T28)
    T30 = fd.ops.isposinf(T28)
    T31 = fd.ops.isneginf(T28)
    T32 = fd.ops.bitwise_left_shift(T2, T3)
    T33 = fd.ops.bitwise_right_shift(T2, T3)
    T34 = fd.ops.logical_right_shift(T2, T3)
    T35 = fd.ops.bitwise_right_shift(T4, 3)
    T36 = fd.ops.logical_right_shift(T4, 60)
    T37 = fd.ops.bitwise_left_shift(T4, 70)
    fd.add_output(T19)
    fd.add_output(T22)
    fd.add_output(T23)
    fd.add_output(T25)
    fd.add_output(T26)
    fd.add_output(T27)
    fd.add_output(T29)
    fd.add_output(T30)
    fd.add_output(T31)
    fd.add_output(T32)
    fd.add_output(T33)
    fd.add_output(T34)
    fd.add_output(T35)
    fd.add_output(T36)
    fd.add_output(T37)

with FusionDefinition() as fd:
    math_ops(fd)

inputs = [
    torch.testing.make_tensor((8, 33), dtype=torch.float32, device='cuda:0', low=-0.9, high=0.9),
    torch.testing.make_tensor((8, 33), dtype=torch.bfloat16, device='cuda:0', low=-3, high=3),
    torch.randint(-1000, 1000, (8, 33), dtype=torch.int32, device='cuda:0'),
    torch.randint(-2, 40, (8, 33), dtype=torch.int32, device='cuda:0'),
    torch.randint(-100000, 100000, (8, 33), dtype=torch.int64, device='cuda:0'),
]
fd.execute(inputs)
