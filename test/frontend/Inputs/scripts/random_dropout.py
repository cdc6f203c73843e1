# Random numbers as nvFuser prints them (fd.ops.rand_like, randn_like,
# uniform, normal; rng_seed and rng_offset Int inputs): dropout with a
# keep probability of 0.9, a bf16 uniform range and a float64 normal.
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id3(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    S1 = fd.define_scalar(None, dtype=DataType.Int)
    S2 = fd.define_scalar(None, dtype=DataType.Int)
    T3 = fd.ops.rand_like(T0, rng_seed=S1, rng_offset=S2)
    S4 = fd.define_scalar(0.9, dtype=DataType.Double)
    T5 = fd.ops.lt(T3, S4)
    T6 = fd.ops.cast(T5, dtype=DataType.Float)
    T7 = fd.ops.mul(T0, T6)
    S8 = fd.define_scalar(1.1111111111111112, dtype=DataType.Double)
    T9 = fd.ops.mul(T7, S8)
    T10 = fd.ops.randn_like(T0, rng_seed=S1, rng_offset=S2)
    T11 = fd.ops.uniform(-1.0, 1.0, shape=[16, 8], rng_seed=S1, rng_offset=S2, dtype=DataType.BFloat16)
    V12 = fd.ops.shape(T0)
    T13 = fd.ops.normal(2.0, 0.5, shape=V12, rng_seed=S1, rng_offset=S2, dtype=DataType.Double)
    fd.add_output(T9)
    fd.add_output(T10)
    fd.add_output(T11)
    fd.add_output(T13)

with FusionDefinition() as fd:
    nvfuser_fusion_id3(fd)

inputs = [
    torch.randn((128, 64), dtype=torch.float32, device='cuda:0'),
    2026,
    12,
]
fd.execute(inputs)
