# fd.ops.var (issue 16): the variance alone, with nvFuser's correction
# (0: population, the default 1: sample, 2) over the inner dim
# of bf16 and f32 rows; imported as var_mean binding only the variance (the
# mean is unused), so the round trip prints var_mean. T4 keeps its reduced dim
# ([4, 6, 1] of symbolic rows: an inner reduce, once scheduled as a
# normalization whose vector stores overran the next rows' results).
import torch
from nvfuser import FusionDefinition, DataType

def var_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.ops.var(T0, dims=[1], correction=0, keepdim=False)
    T3 = fd.ops.var(T0, [-1])
    T4 = fd.ops.var(T1, dims=[2], correction=2, keepdim=True)
    T5 = fd.ops.sqrt(T4)
    fd.add_output(T2)
    fd.add_output(T3)
    fd.add_output(T5)

with FusionDefinition() as fd:
    var_fusion(fd)

inputs = [
    torch.randn((16, 40), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn((4, 6, 300), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
