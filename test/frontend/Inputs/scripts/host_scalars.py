# Scalar computation in a fusion (issue 16): reciprocal of a scalar input,
# a division of scalars, sizes from fd.ops.size and fd.ops.shape (the mean
# over a symbolic row as sum * 1/size), integer scalar math; scalars the
# plan can compute on the host (sizes, + - *) become kernel parameters, the
# rest is computed in each kernel's prologue.
import torch
from nvfuser import FusionDefinition, DataType

def host_scalars(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    S1 = fd.define_scalar(None, dtype=DataType.Double)
    S2 = fd.define_scalar(None, dtype=DataType.Int)
    S3 = fd.ops.reciprocal(S1)
    S4 = fd.ops.size(T0, dim=1)
    S5 = fd.ops.cast(S4, dtype=DataType.Double)
    S6 = fd.ops.div(S3, S5)
    S7 = fd.ops.div(S4, S2)
    S8 = fd.ops.mul(S7, S2)
    T9 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    T10 = fd.ops.mul(T9, S6)
    V11 = fd.ops.shape(T0)
    T12 = fd.ops.broadcast_in_dim(T10, shape=V11, broadcast_dims=[0])
    T13 = fd.ops.sub(T0, T12)
    T14 = fd.ops.mul(T13, S8)
    S15 = fd.ops.size(T0, dim=-2)
    T16 = fd.ops.add(T10, S15)
    fd.add_output(T14)
    fd.add_output(T16)

with FusionDefinition() as fd:
    host_scalars(fd)

inputs = [
    torch.testing.make_tensor((6, 10), dtype=torch.float32, device='cuda:0'),
    0.5,
    3,
]
fd.execute(inputs)
