# The forms current nvFuser and lightning-thunder printers write (issue 16),
# in one fusion: make_tensor/randint inputs, a CPU scalar tensor, define_tensor
# with its defaults and in its sizes/strides form, Python arithmetic in a
# scalar, slice(manual_normalization=0), cat(manual_padding=0), operands of
# different rank, and fd.execute(inputs, device=0).
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id3(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[16, 256], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[256], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Double, is_cpu=True)
    T3 = fd.define_tensor([-1, -1])
    T4 = fd.define_tensor(sizes=[16, 1, 8], strides=[8, 8, 1], dtype=DataType.Float)
    T5 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T6 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    S7 = fd.define_scalar(1/256, dtype=DataType.Double)
    T8 = fd.ops.add(T0, T1)
    T9 = fd.ops.mul(T8, S7)
    T10 = fd.ops.mul(T2, T9)
    T11 = fd.ops.slice(T10, start_indices=[0, 0], end_indices=[16, 128], strides=[1, 1], manual_normalization=0)
    T12 = fd.ops.slice(T10, start_indices=[0, -128], end_indices=[16, 256], manual_normalization=0)
    T13 = fd.ops.cat([T12, T11], dim=-1, manual_padding=0)
    T14 = fd.ops.sub(T13, T3)
    T15 = fd.ops.squeeze(T4, dims=[1])
    T16 = fd.ops.cast(T5, dtype=DataType.Float)
    T17 = fd.ops.where(T6, T16, T15)
    fd.add_output(T14)
    fd.add_output(T17)

with FusionDefinition() as fd:
    nvfuser_fusion_id3(fd)

inputs = [
    torch.testing.make_tensor((16, 256), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((256,), dtype=torch.float32, device='cuda:0', low=-1, high=1),
    torch.testing.make_tensor((), dtype=torch.float64, device='cpu'),
    torch.testing.make_tensor(16, 256, dtype=torch.float32, device='cuda:0', low=0.5, high=2.5),
    torch.testing.make_tensor((16, 1, 8), dtype=torch.float32, device='cuda:0'),
    torch.randint(0, 10, (16, 8), dtype=torch.int64, device='cuda:0'),
    torch.testing.make_tensor((16, 8), dtype=torch.bool, device='cuda:0'),
]
fd.execute(inputs, device=0)
