# Classic-frontend vector forms (issue 16): fd.ops.tensor_sizes (the
# vector of a tensor's extents, as fd.ops.shape) and fd.ops.at (one element:
# a symbolic extent is its fuser.size, a static one an Int constant, a
# negative index counts from the end), used as a broadcast shape and in
# host scalar arithmetic.
import torch
from nvfuser import FusionDefinition, DataType

def vector_forms(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[4, 8], contiguity=[True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    V3 = fd.ops.tensor_sizes(T0)
    S4 = fd.ops.at(V3, 0)
    S5 = fd.ops.at(V3, -1)
    T6 = fd.ops.broadcast_in_dim(T1, shape=[S4, S5], broadcast_dims=[1])
    T7 = fd.ops.add(T0, T6)
    S8 = fd.ops.mul(S4, S5)
    T9 = fd.ops.div(T7, S8)
    V10 = fd.ops.tensor_sizes(T2)
    S11 = fd.ops.at(V10, 1)
    T12 = fd.ops.mul(T2, S11)
    fd.add_output(T9)
    fd.add_output(T12)

with FusionDefinition() as fd:
    vector_forms(fd)

inputs = [
    torch.randn((6, 10), dtype=torch.float32, device='cuda:0'),
    torch.randn((10,), dtype=torch.float32, device='cuda:0'),
    torch.randn((4, 8), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
