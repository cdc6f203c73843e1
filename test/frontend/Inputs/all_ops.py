# Every construct of the accepted subset at least once (data for
# all-ops.test and roundtrip-inputs.test).
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    # dim 0 is an expanded broadcast: None on a dim whose extent is not 1
    T0 = fd.define_tensor(shape=[-1, 4], contiguity=[None, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    S1 = fd.define_scalar(None, dtype=DataType.Int)
    T2 = fd.define_tensor([1, -1, -1], [None, False, True], DataType.Int32)
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Bool)

    T4 = fd.ops.add(T0, 2)
    T5 = fd.ops.mul(T0, 1.5)
    T6 = fd.ops.where(T3, T5, -1.0)
    T7 = fd.ops.clamp(T5, 0.0, float('inf'))
    T8 = fd.ops.lerp(T5, T4, 0.25)
    T9 = fd.ops.bitwise_and(T2, 3)
    T10 = fd.ops.lt(T2, S1)
    T11 = fd.ops.sum(T2, dims=[-1], keepdim=False, dtype=DataType.Null)
    T12 = fd.ops.sum(T3, [0])
    T13 = fd.ops.max(T2, -2, True)
    T14, T15 = fd.ops.var_mean(T5, dims=[1], correction=0, keepdim=True)
    T16 = fd.ops.squeeze(T2, dims=[-3])
    T17 = fd.ops.permute(T16, dims=[-1, 0])
    T18 = fd.ops.slice(T5, start_indices=[0, -3], end_indices=[5, 100])
    T19 = fd.ops.pad(T5, [1, 2])
    T20 = fd.ops.pad(T5, [0, 0, 3, 0], value=7.0)
    T21 = fd.ops.cat([T5, T5, T5], dim=-1)
    V22 = fd.define_vector([S1, 4], dtype=DataType.Int)
    T23 = fd.ops.full(shape=V22, fill_value=0.5, dtype=DataType.BFloat16)
    T24 = fd.ops.iota(8, dtype=DataType.Float)
    T25 = fd.ops.reshape(T0, new_shape=[S1, 2, 2])
    T26 = fd.ops.broadcast(T24, is_broadcast_dim=[True, False])
    T27 = fd.ops.expand(T26, shape=[3, -1])
    T28 = fd.ops.broadcast_in_dim(T24, [2, 8], [1])
    T29 = fd.ops.set(T28)
    T30 = fd.ops.cast(T29, dtype=DataType.Double)
    S31 = fd.define_scalar(2.0, dtype=DataType.Double)
    T32 = fd.ops.pow(T30, S31)
    T33 = fd.ops.div(T32, S31)
    T34 = fd.ops.segment_set(T33)
    fd.add_output(T4)
    fd.add_output(T6, stride_order=[0, 1])
    fd.add_output(T7)
    fd.add_output(T8)
    fd.add_output(T9)
    fd.add_output(T10)
    fd.add_output(T11)
    fd.add_output(T12)
    fd.add_output(T13)
    fd.add_output(T14)
    fd.add_output(T15)
    fd.add_output(T17)
    fd.add_output(T18)
    fd.add_output(T19)
    fd.add_output(T20)
    fd.add_output(T21)
    fd.add_output(T23)
    fd.add_output(T25)
    fd.add_output(T27)
    fd.add_output(T34)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

inputs = [
    torch.randn((4,), dtype=torch.float16, device='cuda:0').as_strided((5, 4), (0, 1)),
    5,
    torch.arange(0, 12, dtype=torch.int32, device='cuda:0').as_strided((1, 3, 4), (12, 4, 1)),
    torch.ones(5, 4, dtype=torch.bool, device='cuda:0'),
]
fd.execute(inputs)
