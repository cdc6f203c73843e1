# Dropout inside normalization kernels (issue 16): the random numbers are
# generated inside the row kernels with the pointwise kernels' Philox
# counters (lowering/philox_gen.c), so the values equal the reference's for
# the seed and offset. Dropout (rand_like of the cast input: its sizes come
# from the input, fuser-input-sizes) then LayerNorm on rows of a static 1024
# (a persistent schedule), dropout + residual + LayerNorm on symbolic rows
# (a looped one), and f64 uniform noise minus its row max (uniform: no
# transcendental, so the GPU's values are exact too). (Row sums would
# differ from the reference by the order of their f32 additions, not by the
# random values: var_mean accumulates in f64 and max is exact, so every
# output here must match bit for bit.)
import torch
from nvfuser import FusionDefinition, DataType

def random_norm(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 1024], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Double, is_cpu=False, stride_order=[1, 0])
    S4 = fd.define_scalar(None, dtype=DataType.Int)
    S5 = fd.define_scalar(None, dtype=DataType.Int)
    T9 = fd.ops.cast(T0, dtype=DataType.Float)
    T6 = fd.ops.rand_like(T9, rng_seed=S4, rng_offset=S5)
    S7 = fd.define_scalar(0.9, dtype=DataType.Double)
    T8 = fd.ops.lt(T6, S7)
    T10 = fd.ops.where(T8, T9, 0.0)
    T11 = fd.ops.mul(T10, 1.1111111111111112)
    T12, T13 = fd.ops.var_mean(T11, dims=[1], correction=0, keepdim=False)
    T14 = fd.ops.broadcast(T12, is_broadcast_dim=[False, True])
    T15 = fd.ops.add(T14, 1e-05)
    T16 = fd.ops.rsqrt(T15)
    T17 = fd.ops.broadcast(T13, is_broadcast_dim=[False, True])
    T18 = fd.ops.sub(T11, T17)
    T19 = fd.ops.mul(T18, T16)
    T20 = fd.ops.cast(T19, dtype=DataType.BFloat16)
    T21 = fd.ops.rand_like(T1, rng_seed=S4, rng_offset=S5)
    T22 = fd.ops.lt(T21, 0.8)
    T23 = fd.ops.cast(T22, dtype=DataType.Float)
    T24 = fd.ops.mul(T1, T23)
    T25 = fd.ops.mul(T24, 1.25)
    T26 = fd.ops.add(T25, T2)
    T27, T28 = fd.ops.var_mean(T26, dims=[1], correction=0, keepdim=True)
    T29 = fd.ops.add(T27, 1e-06)
    T30 = fd.ops.rsqrt(T29)
    T31 = fd.ops.sub(T26, T28)
    T32 = fd.ops.mul(T31, T30)
    T34 = fd.ops.rand_like(T3, rng_seed=S4, rng_offset=S5)
    T35 = fd.ops.add(T3, T34)
    T36 = fd.ops.max(T35, dims=[1], keepdim=True, dtype=DataType.Null)
    T37 = fd.ops.sub(T35, T36)
    T38 = fd.ops.exp(T37)
    fd.add_output(T20)
    fd.add_output(T32)
    fd.add_output(T38)

with FusionDefinition() as fd:
    random_norm(fd)

inputs = [
    torch.randn((48, 1024), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((40, 768), dtype=torch.float32, device='cuda:0'),
    torch.randn((40, 768), dtype=torch.float32, device='cuda:0'),
    torch.randn((16, 200), dtype=torch.float64, device='cuda:0'),
    2026,
    12,
]
fd.execute(inputs)
