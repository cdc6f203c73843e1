# Outputs written into inputs (issue 16): nvFuser's fd.add_output(out, input)
# (alias_input, AllocationType::ReuseBuffer), as batch norm updates its
# running statistics in place. T1 is read by a visible output and updated
# from itself (the visible output must see the old T1); T3 is column-major
# and updated through its own strides; T2 receives another input (T4).
# (max, not sum: the check is bit-exact and a column sum's order differs.)
import torch
from nvfuser import FusionDefinition, DataType

def aliased_outputs(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    T4 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T5 = fd.ops.max(T0, dims=[0], keepdim=False, dtype=DataType.Null)
    T6 = fd.ops.mul(T5, 0.125)
    T7 = fd.ops.mul(T1, 0.9)
    T8 = fd.ops.mul(T6, 0.1)
    T9 = fd.ops.add(T7, T8)
    V14 = fd.ops.shape(T0)
    T10 = fd.ops.broadcast_in_dim(T1, shape=V14, broadcast_dims=[1])
    T11 = fd.ops.sub(T0, T10)
    T12 = fd.ops.add(T3, 1.0)
    T13 = fd.ops.cast(T12, dtype=DataType.BFloat16)
    fd.add_output(T11)
    fd.add_output(T9, T1)
    fd.add_output(T13, alias_input=T3)
    fd.add_output(T4, T2)

with FusionDefinition() as fd:
    aliased_outputs(fd)

inputs = [
    torch.testing.make_tensor((8, 40), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((40,), dtype=torch.float32, device='cuda:0'),
    torch.zeros((40,), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((6, 10), dtype=torch.bfloat16, device='cuda:0').as_strided((6, 10), (1, 6)),
    torch.testing.make_tensor((40,), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
