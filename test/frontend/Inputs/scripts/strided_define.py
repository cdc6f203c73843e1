# define_tensor(sizes=, strides=) (issue 16): nvFuser derives contiguity and
# stride_order from the strides (computeTensorDescriptor): a permuted
# layout, a stride-0 (expanded) dim, and static_sizes=True; the inputs are
# the matching as_strided views.
import torch
from nvfuser import FusionDefinition, DataType

def strided_define(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(sizes=[4, 6], strides=[1, 4], dtype=DataType.Float)
    T1 = fd.define_tensor([4, 6], [0, 1], dtype=DataType.Float)
    T2 = fd.define_tensor(sizes=[4, 6], strides=[12, 2], dtype=DataType.Float, static_sizes=True)
    T3 = fd.ops.add(T0, T1)
    T4 = fd.ops.mul(T3, T2)
    fd.add_output(T4)

with FusionDefinition() as fd:
    strided_define(fd)

inputs = [
    torch.randn(24, dtype=torch.float32, device='cuda:0').as_strided((4, 6), (1, 4)),
    torch.randn(6, dtype=torch.float32, device='cuda:0').as_strided((4, 6), (0, 1)),
    torch.randn(48, dtype=torch.float32, device='cuda:0').as_strided((4, 6), (12, 2)),
]
fd.execute(inputs)
